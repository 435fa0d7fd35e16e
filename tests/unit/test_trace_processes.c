/* The traces of a run's processes in one stream (docs/traces.md,
 * "Processes"; docs/emulate.md, "Children"): a child's trace nested in its
 * parent's after CONTROL_PROCESS, the parent's going on after the child's
 * END record, the next program's after the outermost END; block ids unique
 * over the traces, the last END counting every trace's instructions, an
 * ISA record where the code's instruction set changes; the checks of each
 * trace's END and header; and the unframing of the
 * recorder's frames from several processes into that stream. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "traces/record_stream.h"
#include "traces/recorder/pmutrace_stream.h"
#include "traces/trace.h"
#include "traces/trace_encoding.h"

enum { BUFFER = 4096 };

static const struct trace_header header64 = {.isa = TRACE_ISA_64, .lengths_known = true,
                                             .msr_accesses = true};

/* `nop` (90) at `address`: a block of its own when it is the first. */
static struct trace_insn nop_at(uint64_t address)
{
    struct trace_insn insn = {.address = address, .length = 1, .has_bytes = true, .cpl = 3};
    insn.bytes[0] = 0x90;
    return insn;
}

/* A writer of `header` into buf. */
struct piece {
    char buf[BUFFER];
    FILE *out;
    struct trace_writer *w;
};

static void piece_open(struct piece *p, const struct trace_header *header)
{
    p->out = fmemopen(p->buf, sizeof p->buf, "w");
    assert_non_null(p->out);
    char error[256];
    p->w = trace_writer_open(p->out, header, error, sizeof error);
    assert_non_null(p->w);
}

/* `n` nops from `address` on. */
static void write_nops(struct piece *p, uint64_t address, int n)
{
    for (int i = 0; i < n; i++) {
        struct trace_insn insn = nop_at(address + (uint64_t)i);
        assert_true(trace_write_insn(p->w, &insn));
    }
}

/* Everything written so far, flushed: its length in buf. */
static size_t piece_flush(struct piece *p)
{
    assert_true(trace_writer_flush_all(p->w, 0));
    fflush(p->out);
    return (size_t)ftell(p->out);
}

static size_t piece_end(struct piece *p, uint32_t code)
{
    struct trace_end end = {.status = TRACE_EXITED, .code = code};
    assert_true(trace_write_end(p->w, &end));
    assert_true(trace_writer_close(p->w));
    size_t n = (size_t)ftell(p->out);
    fclose(p->out);
    return n;
}

/* The stream: the parent's 3 nops at 0x1000 (one block), its child's
 * trace (4 nops at 0x1000: the same addresses, another program), the
 * parent's 2 nops at 0x2000 and END, then the next program's 5 nops at
 * 0x1000 and END (code 7). */
static size_t write_run(char *run, size_t size, const struct trace_header *child_header)
{
    struct piece parent, child, next;
    piece_open(&parent, &header64);
    write_nops(&parent, 0x1000, 3);
    struct trace_insn jump = nop_at(0x1003);
    jump.length = 2;
    memcpy(jump.bytes, "\xeb\x00", 2); /* jmp to 0x2000 as the trace says */
    jump.branch = TRACE_BRANCH_TAKEN;
    jump.target = 0x2000;
    assert_true(trace_write_insn(parent.w, &jump));
    size_t before_child = piece_flush(&parent);
    piece_open(&child, child_header);
    write_nops(&child, 0x1000, 4);
    size_t child_size = piece_end(&child, 0);
    write_nops(&parent, 0x2000, 2);
    size_t parent_size = piece_end(&parent, 0);
    piece_open(&next, &header64);
    write_nops(&next, 0x1000, 5);
    size_t next_size = piece_end(&next, 7);
    size_t n = 0;
    assert_true(parent_size + child_size + next_size + 2 <= size);
    memcpy(run + n, parent.buf, before_child);
    n += before_child;
    run[n++] = (char)CONTROL_PROCESS;
    memcpy(run + n, child.buf, child_size);
    n += child_size;
    memcpy(run + n, parent.buf + before_child, parent_size - before_child);
    n += parent_size - before_child;
    run[n++] = (char)CONTROL_PROCESS;
    memcpy(run + n, next.buf, next_size);
    return n + next_size;
}

static struct trace_reader *open_run(FILE **in, const char *run, size_t n)
{
    *in = fmemopen((void *)run, n, "r");
    assert_non_null(*in);
    char error[256];
    struct trace_reader *r = trace_reader_open(*in, "run", error, sizeof error);
    assert_non_null(r);
    return r;
}

static void expect_block(struct trace_reader *r, uint32_t id, uint64_t address, uint32_t n)
{
    const struct trace_block *b;
    const struct trace_record *rec;
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
    assert_non_null(b);
    assert_int_equal(b->id, id);
    assert_int_equal(b->insns[0].address, address);
    assert_int_equal(b->n_insns, n);
}

static void test_nested_and_next(void **state)
{
    (void)state;
    char run[3 * BUFFER];
    size_t n = write_run(run, sizeof run, &header64);
    FILE *in;
    struct trace_reader *r = open_run(&in, run, n);
    expect_block(r, 0, 0x1000, 4);  /* the parent's three nops and its jump */
    expect_block(r, 1, 0x1000, 4);  /* the child's: the same address, another block */
    expect_block(r, 2, 0x2000, 2);  /* the parent again */
    expect_block(r, 3, 0x1000, 5);  /* the next program */
    const struct trace_block *b;
    const struct trace_record *rec;
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
    assert_null(b);
    assert_int_equal(rec->kind, TRACE_RECORD_END);
    assert_int_equal(rec->end.instructions, 4 + 4 + 2 + 5);
    assert_int_equal(rec->end.code, 7);
    trace_reader_close(r);
    fclose(in);
}

/* By records too: the instructions in order, one END. */
static void test_records(void **state)
{
    (void)state;
    char run[3 * BUFFER];
    size_t n = write_run(run, sizeof run, &header64);
    FILE *in;
    struct trace_reader *r = open_run(&in, run, n);
    static const uint64_t want[] = {0x1000, 0x1001, 0x1002, 0x1003, 0x1000, 0x1001, 0x1002,
                                    0x1003, 0x2000, 0x2001, 0x1000, 0x1001, 0x1002, 0x1003,
                                    0x1004};
    struct trace_record rec;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_int_equal(trace_read(r, &rec), TRACE_OK);
        assert_int_equal(rec.kind, TRACE_RECORD_INSN);
        assert_int_equal(rec.insn.address, want[i]);
    }
    assert_int_equal(trace_read(r, &rec), TRACE_OK);
    assert_int_equal(rec.kind, TRACE_RECORD_END);
    assert_int_equal(rec.end.instructions, 15);
    trace_reader_close(r);
    fclose(in);
}

/* Reads the run to its first failure: its line ends with `want`. */
static void expect_failure(const char *run, size_t n, const char *want)
{
    FILE *in;
    struct trace_reader *r = open_run(&in, run, n);
    const struct trace_block *b;
    const struct trace_record *rec;
    enum trace_status status;
    while ((status = trace_next_block(r, &b, &rec)) == TRACE_OK &&
           (b || rec->kind != TRACE_RECORD_END))
        ;
    assert_int_equal(status, TRACE_ERROR);
    const char *line = trace_reader_error(r);
    assert_true(strlen(line) >= strlen(want));
    assert_string_equal(line + strlen(line) - strlen(want), want);
    trace_reader_close(r);
    fclose(in);
}

static void expect_isa(struct trace_reader *r, enum trace_isa isa)
{
    const struct trace_block *b;
    const struct trace_record *rec;
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
    assert_null(b);
    assert_int_equal(rec->kind, TRACE_RECORD_ISA);
    assert_int_equal(rec->isa, isa);
}

/* A child of the other instruction set: an ISA record before its blocks
 * and one before its parent's again; none where the next program's is the
 * parent's. */
/* write_run with a 32-bit child, open: the reader. */
static struct trace_reader *open_mixed_run(FILE **in, char *run, size_t size)
{
    struct trace_header h32 = header64;
    h32.isa = TRACE_ISA_32;
    size_t n = write_run(run, size, &h32);
    return open_run(in, run, n);
}

static void test_other_isa(void **state)
{
    (void)state;
    char run[3 * BUFFER];
    FILE *in;
    struct trace_reader *r = open_mixed_run(&in, run, sizeof run);
    expect_block(r, 0, 0x1000, 4);
    expect_isa(r, TRACE_ISA_32);
    expect_block(r, 1, 0x1000, 4);
    expect_isa(r, TRACE_ISA_64);
    expect_block(r, 2, 0x2000, 2);
    expect_block(r, 3, 0x1000, 5);
    const struct trace_block *b;
    const struct trace_record *rec;
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_OK);
    assert_int_equal(rec->kind, TRACE_RECORD_END);
    trace_reader_close(r);
    fclose(in);
}

/* By records: the ISA records with their instruction sets, in order. */
static void test_other_isa_records(void **state)
{
    (void)state;
    char run[3 * BUFFER];
    FILE *in;
    struct trace_reader *r = open_mixed_run(&in, run, sizeof run);
    struct trace_record rec;
    char kinds[32] = "";
    size_t k = 0;
    do {
        assert_int_equal(trace_read(r, &rec), TRACE_OK);
        assert_true(k < sizeof kinds - 1);
        kinds[k++] = rec.kind == TRACE_RECORD_INSN  ? 'i'
                     : rec.kind == TRACE_RECORD_END ? 'E'
                     : rec.kind != TRACE_RECORD_ISA ? '?'
                     : rec.isa == TRACE_ISA_32      ? '3'
                                                    : '6';
    } while (rec.kind != TRACE_RECORD_END);
    assert_string_equal(kinds, "iiii3iiii6iiiiiiiE");
    trace_reader_close(r);
    fclose(in);
}

/* Another process's trace only where MSR accesses may be: without the
 * header flag, tag 0x89 is unknown, as before it. */
static void test_tag_unknown_without_flag(void **state)
{
    (void)state;
    struct trace_header plain = header64;
    plain.msr_accesses = false;
    char run[3 * BUFFER];
    size_t n = write_run(run, sizeof run, &plain);
    assert_int_equal((uint8_t)run[9], TRACE_FLAG_MSR | TRACE_FLAG_ISA64);
    run[9] = TRACE_FLAG_ISA64;
    expect_failure(run, n, "unknown record tag 0x89");
}

/* After the outermost END only another program's trace may follow. */
static void test_data_after_end(void **state)
{
    (void)state;
    char run[3 * BUFFER];
    size_t n = write_run(run, sizeof run, &header64);
    run[n++] = 0x01;
    expect_failure(run, n, "data after the END record");
}

/* A child's END counts the child's instructions, not its parent's. */
static void test_child_end_counts_its_own(void **state)
{
    (void)state;
    char run[3 * BUFFER];
    size_t n = write_run(run, sizeof run, &header64);
    /* The child's END record: the first CONTROL_END, whose count (4)
     * follows as a one-byte varint. */
    char *end = memchr(run, CONTROL_END, n);
    assert_non_null(end);
    assert_int_equal(end[1], 4);
    end[1] = 8;
    expect_failure(run, n, "the END record counts 8 instructions, the trace holds 4");
}

/* ---- unframing (record_stream_unframe) */

/* A frame of `payload` from process `pid` with `flags` into the pipe. */
static void put_frame(int fd, uint32_t pid, unsigned flags, const char *payload, uint32_t n)
{
    uint32_t words[2] = {n | (uint32_t)flags << PT_FRAME_FLAGS_SHIFT, pid};
    uint8_t header[PT_FRAME_HEADER_SIZE];
    for (int i = 0; i < PT_FRAME_HEADER_SIZE; i++)
        header[i] = (uint8_t)(words[i / 4] >> (8 * (i % 4)));
    assert_int_equal(write(fd, header, sizeof header), sizeof header);
    assert_int_equal(write(fd, payload, n), (ssize_t)n);
}

/* Unframes what was put in `frames` (its write end closed here); the
 * output in `out` (its length returned), the result in *ok. */
static size_t unframe(int frames[2], char *out, size_t size, bool *ok, char *error,
                      size_t error_size)
{
    close(frames[1]);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    struct record_stream stream;
    record_stream_init(&stream, frames[0], "stream");
    *ok = record_stream_unframe(&stream, dup(fileno(tmp)));
    snprintf(error, error_size, "%s", stream.error);
    close(frames[0]);
    rewind(tmp);
    size_t n = fread(out, 1, size, tmp);
    fclose(tmp);
    return n;
}

/* Segments nested and in a row: each but the first after CONTROL_PROCESS,
 * payloads as they are; an exec's segment in the same process. */
static void test_unframe(void **state)
{
    (void)state;
    int frames[2];
    assert_int_equal(pipe(frames), 0);
    put_frame(frames[1], 10, PT_FRAME_BEGIN, "P1", 2);
    put_frame(frames[1], 11, PT_FRAME_BEGIN, "C1", 2);
    put_frame(frames[1], 11, 0, "C2", 2);
    put_frame(frames[1], 11, PT_FRAME_END | PT_FRAME_EXEC, "CE", 2);
    put_frame(frames[1], 11, PT_FRAME_BEGIN | PT_FRAME_END, "X", 1);
    put_frame(frames[1], 10, PT_FRAME_END, "PE", 2);
    put_frame(frames[1], 10, PT_FRAME_BEGIN | PT_FRAME_END, "N", 1);
    char out[64], error[256];
    bool ok;
    size_t n = unframe(frames, out, sizeof out, &ok, error, sizeof error);
    assert_true(ok);
    assert_string_equal(error, "");
    const char want[] = "P1\x89" "C1C2CE\x89" "X" "PE\x89" "N";
    assert_int_equal(n, sizeof want - 1);
    assert_memory_equal(out, want, n);
}

/* A process writing while its child runs (a pipeline, `&`): refused. */
static void test_unframe_at_once(void **state)
{
    (void)state;
    int frames[2];
    assert_int_equal(pipe(frames), 0);
    put_frame(frames[1], 10, PT_FRAME_BEGIN, "P1", 2);
    put_frame(frames[1], 11, PT_FRAME_BEGIN, "C1", 2);
    put_frame(frames[1], 10, 0, "P2", 2);
    put_frame(frames[1], 11, PT_FRAME_END, "CE", 2);
    char out[64], error[256];
    bool ok;
    size_t n = unframe(frames, out, sizeof out, &ok, error, sizeof error);
    assert_false(ok);
    assert_string_equal(error, "stream: process 10 wrote its trace while process 11 ran (the "
                               "emulated machine runs one process at a time: no pipelines or "
                               "background jobs)");
    assert_int_equal(n, 5);
    assert_memory_equal(out, "P1\x89" "C1", 5);
}

/* A frame flag the stream does not have. */
static void test_unframe_bad_flags(void **state)
{
    (void)state;
    int frames[2];
    assert_int_equal(pipe(frames), 0);
    put_frame(frames[1], 10, 8, "P1", 2);
    char out[64], error[256];
    bool ok;
    size_t n = unframe(frames, out, sizeof out, &ok, error, sizeof error);
    assert_false(ok);
    assert_string_equal(error, "stream: a bad frame header in the recorder's stream (0x08000002)");
    assert_int_equal(n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_and_next),
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_other_isa),
        cmocka_unit_test(test_other_isa_records),
        cmocka_unit_test(test_tag_unknown_without_flag),
        cmocka_unit_test(test_data_after_end),
        cmocka_unit_test(test_child_end_counts_its_own),
        cmocka_unit_test(test_unframe),
        cmocka_unit_test(test_unframe_at_once),
        cmocka_unit_test(test_unframe_bad_flags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
