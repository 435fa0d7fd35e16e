/* MSR access records (docs/emulate.md, docs/traces.md "MSR access
 * records"): written after a system call's block with its target, read
 * back by blocks and by records with their fields, refused without the
 * header flag, copied byte for byte, and handed to a reader of a pipe as
 * soon as the writer is flushed -- the lockstep of `pmubench emulate`;
 * a copying reader's copy (emulate -o) is the input's bytes, from a file
 * and, read as it is written, from a pipe. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "traces/trace.h"
#include "traces/trace_copy.h"

enum { CALL_AT = 0x401000, NEXT = 0x401002, AFTER = 0x401007 };

static const struct trace_header msr_header = {.isa = TRACE_ISA_64, .lengths_known = true,
                                               .msr_accesses = true};

/* A `syscall` (0f 05, a taken branch) at CALL_AT, and the instruction
 * after it (mov eax, 1: b8 01 00 00 00) at NEXT. */
static struct trace_insn syscall_insn(void)
{
    struct trace_insn insn = {.address = CALL_AT, .length = 2, .has_bytes = true, .cpl = 3,
                              .branch = TRACE_BRANCH_TAKEN};
    insn.bytes[0] = 0x0f;
    insn.bytes[1] = 0x05;
    return insn;
}

static struct trace_insn next_insn(void)
{
    struct trace_insn insn = {.address = NEXT, .length = 5, .has_bytes = true, .cpl = 3};
    memcpy(insn.bytes, "\xb8\x01\x00\x00\x00", 5);
    return insn;
}

static const struct trace_msr write_access = {TRACE_MSR_WRITE, 0, 0x3b8, 0x4000e04};
static const struct trace_msr read_access = {TRACE_MSR_READ, 1, 0x30c, 0};

/* syscall, the write, the syscall's successor and a syscall after it, the read,
 * END. */
static size_t write_trace(char *buf, size_t size)
{
    FILE *out = fmemopen(buf, size, "w");
    assert_non_null(out);
    char error[256];
    struct trace_writer *w = trace_writer_open(out, &msr_header, error, sizeof error);
    assert_non_null(w);
    struct trace_insn sys = syscall_insn(), next = next_insn();
    assert_true(trace_write_insn(w, &sys));
    assert_true(trace_write_msr(w, &write_access, NEXT));
    assert_true(trace_write_insn(w, &next));
    sys.address = AFTER;
    assert_true(trace_write_insn(w, &sys));
    assert_true(trace_write_msr(w, &read_access, AFTER + 2));
    struct trace_end end = {0};
    assert_true(trace_write_end(w, &end));
    assert_true(trace_writer_close(w));
    long n = ftell(out);
    fclose(out);
    return (size_t)n;
}

static void expect_msr(const struct trace_record *rec, const struct trace_msr *want)
{
    assert_int_equal(rec->kind, TRACE_RECORD_MSR);
    assert_int_equal(rec->msr.op, want->op);
    assert_int_equal(rec->msr.cpu, want->cpu);
    assert_int_equal(rec->msr.msr, want->msr);
    assert_int_equal(rec->msr.value, want->value);
}

static void test_blocks(void **state)
{
    (void)state;
    char buf[4096];
    size_t n = write_trace(buf, sizeof buf);
    FILE *in = fmemopen(buf, n, "r");
    char error[256];
    struct trace_reader *r = trace_reader_open(in, "mem", error, sizeof error);
    assert_non_null(r);
    assert_true(trace_reader_header(r)->msr_accesses);
    const struct trace_block *b;
    const struct trace_record *rec;
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
    assert_non_null(b);
    assert_int_equal(b->n_insns, 1);
    assert_int_equal(b->insns[0].address, CALL_AT);
    assert_int_equal(b->next_address, NEXT); /* the target given with the record */
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
    assert_null(b);
    expect_msr(rec, &write_access);
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
    assert_non_null(b);
    assert_int_equal(b->insns[0].address, NEXT);
    assert_int_equal(b->n_insns, 2);
    assert_int_equal(b->next_address, AFTER + 2);
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
    expect_msr(rec, &read_access);
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
    assert_int_equal(rec->kind, TRACE_RECORD_END);
    assert_int_equal(rec->end.instructions, 3);
    trace_reader_close(r);
    fclose(in);
}

static void test_records(void **state)
{
    (void)state;
    char buf[4096];
    size_t n = write_trace(buf, sizeof buf);
    FILE *in = fmemopen(buf, n, "r");
    char error[256];
    struct trace_reader *r = trace_reader_open(in, "mem", error, sizeof error);
    assert_non_null(r);
    struct trace_record rec;
    assert_int_equal(trace_read(r, &rec), TRACE_OK);
    assert_int_equal(rec.kind, TRACE_RECORD_INSN);
    assert_int_equal(rec.insn.target, NEXT);
    assert_int_equal(trace_read(r, &rec), TRACE_OK);
    expect_msr(&rec, &write_access);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(trace_read(r, &rec), TRACE_OK);
        assert_int_equal(rec.kind, TRACE_RECORD_INSN);
    }
    assert_int_equal(trace_read(r, &rec), TRACE_OK);
    expect_msr(&rec, &read_access);
    assert_int_equal(trace_read(r, &rec), TRACE_OK);
    assert_int_equal(rec.kind, TRACE_RECORD_END);
    trace_reader_close(r);
    fclose(in);
}

/* A copy record by record (trace_copy: the MSR record's target is the
 * system call's, from the record before it) has the same bytes. */
static void test_copy(void **state)
{
    (void)state;
    char buf[4096], copy[4096];
    size_t n = write_trace(buf, sizeof buf);
    FILE *in = fmemopen(buf, n, "r");
    FILE *out = fmemopen(copy, sizeof copy, "w");
    char error[256];
    struct trace_reader *r = trace_reader_open(in, "mem", error, sizeof error);
    assert_non_null(r);
    struct trace_writer *w = trace_writer_open(out, trace_reader_header(r), error, sizeof error);
    assert_non_null(w);
    assert_int_equal(trace_copy(r, w), TRACE_COPIED);
    assert_true(trace_writer_close(w));
    long copied = ftell(out);
    fclose(out);
    assert_int_equal(copied, (long)n);
    assert_memory_equal(copy, buf, n);
    trace_reader_close(r);
    fclose(in);
}

static bool discard(void *context, const uint8_t *bytes, size_t n)
{
    (void)context; (void)bytes; (void)n;
    return true;
}

static void test_refused_without_flag(void **state)
{
    (void)state;
    struct trace_header header = msr_header;
    header.msr_accesses = false;
    struct trace_writer *w = trace_writer_create(&header, discard, NULL);
    assert_non_null(w);
    assert_false(trace_write_msr(w, &write_access, NEXT));
    trace_writer_close(w);
    /* ... and a bad operation or logical processor with it */
    w = trace_writer_create(&msr_header, discard, NULL);
    struct trace_msr bad = write_access;
    bad.cpu = 2;
    assert_false(trace_write_msr(w, &bad, NEXT));
    trace_writer_close(w);
}

/* Without the flag, tag 0x88 is unknown, as it was before the flag. */
static void test_tag_unknown_without_flag(void **state)
{
    (void)state;
    char buf[4096];
    size_t n = write_trace(buf, sizeof buf);
    /* The header's flags byte follows the magic and the version. */
    assert_int_equal((uint8_t)buf[9], 0x10 | 0x01);
    buf[9] = 0x01;
    FILE *in = fmemopen(buf, n, "r");
    char error[256];
    struct trace_reader *r = trace_reader_open(in, "mem", error, sizeof error);
    assert_non_null(r);
    const struct trace_block *b;
    const struct trace_record *rec;
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_ERROR);
    assert_non_null(strstr(trace_reader_error(r), "unknown record tag 0x88"));
    trace_reader_close(r);
    fclose(in);
}

static bool to_pipe(void *context, const uint8_t *bytes, size_t n)
{
    return write(*(int *)context, bytes, n) == (ssize_t)n;
}

static void timed_out(int sig)
{
    (void)sig;
    static const char line[] = "the reader waited for more than the writer flushed\n";
    (void)!write(2, line, sizeof line - 1);
    _exit(1);
}

/* The reader of a pipe gets the record once the writer is flushed, the
 * writer still open and its trace not ended (fread would wait for a full
 * buffer: the alarm ends the test then). */
static void test_pipe_lockstep(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    struct trace_writer *w = trace_writer_create(&msr_header, to_pipe, &fds[1]);
    assert_non_null(w);
    FILE *in = fdopen(fds[0], "r");
    signal(SIGALRM, timed_out);
    alarm(10);
    char error[256];
    struct trace_reader *r = trace_reader_open(in, "pipe", error, sizeof error);
    assert_non_null(r);
    struct trace_insn sys = syscall_insn();
    for (int round = 0; round < 20; round++) {
        struct trace_msr access = read_access;
        access.msr += (uint32_t)round;
        assert_true(trace_write_insn(w, &sys));
        assert_true(trace_write_msr(w, &access, CALL_AT));
        assert_true(trace_writer_flush(w));
        const struct trace_block *b;
        const struct trace_record *rec;
        assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
        assert_non_null(b);
        assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
        expect_msr(rec, &access);
    }
    alarm(0);
    struct trace_end end = {0};
    assert_true(trace_write_end(w, &end));
    assert_true(trace_writer_close(w));
    close(fds[1]);
    trace_reader_close(r);
    fclose(in);
}

/* A copy being written: its bytes as far as flushed. */
struct copy {
    FILE *stream;
    char *bytes;
    size_t size;
};

static void copy_open(struct copy *c)
{
    *c = (struct copy){0};
    c->stream = open_memstream(&c->bytes, &c->size);
    assert_non_null(c->stream);
}

/* The copy so far equals the `n` bytes of `want`. */
static void expect_copied(struct copy *c, const void *want, size_t n)
{
    assert_int_equal(fflush(c->stream), 0);
    assert_int_equal(c->size, n);
    assert_memory_equal(c->bytes, want, n);
}

static void copy_close(struct copy *c)
{
    fclose(c->stream);
    free(c->bytes);
}

/* A file read whole (fread), by blocks to its END: the copy is the file. */
static void test_copying_file(void **state)
{
    (void)state;
    char buf[512];
    size_t n = write_trace(buf, sizeof buf);
    FILE *in = fmemopen(buf, n, "r");
    assert_non_null(in);
    struct copy copy;
    copy_open(&copy);
    char error[256];
    struct trace_reader *r = trace_reader_open_copying(in, "mem", copy.stream, error,
                                                       sizeof error);
    assert_non_null(r);
    const struct trace_block *b;
    const struct trace_record *rec = NULL;
    while (!(rec && rec->kind == TRACE_RECORD_END))
        assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
    expect_copied(&copy, buf, n);
    trace_reader_close(r);
    fclose(in);
    copy_close(&copy);
}

/* The writer's end of a pipe, every byte written kept. */
struct pipe_log {
    int fd;
    uint8_t bytes[4096];
    size_t size;
};

static bool to_logged_pipe(void *context, const uint8_t *bytes, size_t n)
{
    struct pipe_log *log = context;
    assert_in_range(n, 0, sizeof log->bytes - log->size);
    memcpy(log->bytes + log->size, bytes, n);
    log->size += n;
    return to_pipe(&log->fd, bytes, n);
}

/* A pipe read as it is written (read(2)): after the header and after each
 * record, the copy holds every byte written so far, the header's first;
 * at the END, the whole stream. */
static void test_copying_pipe(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    struct pipe_log log = {.fd = fds[1]};
    struct trace_writer *w = trace_writer_create(&msr_header, to_logged_pipe, &log);
    assert_non_null(w);
    FILE *in = fdopen(fds[0], "r");
    struct copy copy;
    copy_open(&copy);
    char error[256];
    struct trace_reader *r = trace_reader_open_copying(in, "pipe", copy.stream, error,
                                                       sizeof error);
    assert_non_null(r);
    assert_true(log.size > 0);
    expect_copied(&copy, log.bytes, log.size);
    struct trace_insn sys = syscall_insn();
    const struct trace_block *b;
    const struct trace_record *rec;
    for (int round = 0; round < 3; round++) {
        assert_true(trace_write_insn(w, &sys));
        assert_true(trace_write_msr(w, &read_access, CALL_AT));
        assert_true(trace_writer_flush(w));
        assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
        assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
        expect_msr(rec, &read_access);
        expect_copied(&copy, log.bytes, log.size);
    }
    struct trace_end end = {.instructions = 3};
    assert_true(trace_write_end(w, &end));
    assert_true(trace_writer_close(w));
    close(fds[1]);
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
    assert_int_equal(rec->kind, TRACE_RECORD_END);
    expect_copied(&copy, log.bytes, log.size);
    trace_reader_close(r);
    fclose(in);
    copy_close(&copy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks),
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_refused_without_flag),
        cmocka_unit_test(test_tag_unknown_without_flag),
        cmocka_unit_test(test_pipe_lockstep),
        cmocka_unit_test(test_copying_file),
        cmocka_unit_test(test_copying_pipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
