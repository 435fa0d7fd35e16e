/* The trace format: every field through trace_writer and back through
 * trace_reader, and corrupt traces rejected with the byte offset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "traces/trace.h"

/* ---- helpers: a trace in memory */

struct memtrace {
    char *data;
    size_t size;
    FILE *out;
    struct trace_writer *writer;
};

static struct trace_header make_header(enum trace_isa isa)
{
    struct trace_header header = {.isa = isa, .lengths_known = true};
    strcpy(header.program, "/bin/true");
    strcpy(header.args, "--version -x");
    strcpy(header.recorder, "test_trace_format");
    return header;
}

static void start(struct memtrace *m, const struct trace_header *header)
{
    char error[256];
    memset(m, 0, sizeof *m);
    m->out = open_memstream(&m->data, &m->size);
    assert_non_null(m->out);
    m->writer = trace_writer_open(m->out, header, error, sizeof error);
    assert_non_null(m->writer);
}

static void finish(struct memtrace *m, enum trace_end_status status, uint32_t code)
{
    struct trace_end end = {trace_writer_instructions(m->writer), status, code};
    assert_true(trace_write_end(m->writer, &end));
    assert_true(trace_writer_close(m->writer));
    assert_int_equal(fclose(m->out), 0);
}

static struct trace_insn make_insn(uint64_t address, uint8_t length)
{
    struct trace_insn insn;
    memset(&insn, 0, sizeof insn);
    insn.address = address;
    insn.length = length;
    insn.cpl = 3;
    return insn;
}

static void write_insn(struct memtrace *m, const struct trace_insn *insn)
{
    assert_true(trace_write_insn(m->writer, insn));
}

struct readback {
    FILE *in;
    struct trace_reader *reader;
    char error[512];
};

static void open_bytes(struct readback *rb, const void *data, size_t size)
{
    rb->error[0] = '\0';
    rb->in = size ? fmemopen((void *)data, size, "r") : tmpfile();
    assert_non_null(rb->in);
    rb->reader = trace_reader_open(rb->in, "x.trace", rb->error, sizeof rb->error);
}

static void open_trace(struct readback *rb, const struct memtrace *m)
{
    open_bytes(rb, m->data, m->size);
    assert_non_null(rb->reader);
}

static void close_trace(struct readback *rb)
{
    trace_reader_close(rb->reader);
    fclose(rb->in);
}

static struct trace_record next(struct readback *rb)
{
    struct trace_record record;
    if (trace_read(rb->reader, &record) != TRACE_OK)
        fail_msg("%s", trace_reader_error(rb->reader));
    return record;
}

static void expect_insn(struct readback *rb, const struct trace_insn *want)
{
    struct trace_record record = next(rb);
    assert_int_equal(record.kind, TRACE_RECORD_INSN);
    const struct trace_insn *got = &record.insn;
    assert_int_equal(got->address, want->address);
    assert_int_equal(got->length, want->length);
    assert_int_equal(got->has_bytes, want->has_bytes);
    if (want->has_bytes)
        assert_memory_equal(got->bytes, want->bytes, want->length);
    assert_int_equal(got->thread, want->thread);
    assert_int_equal(got->cpl, want->cpl);
    assert_int_equal(got->branch, want->branch);
    if (want->branch == TRACE_BRANCH_TAKEN)
        assert_int_equal(got->target, want->target);
    assert_int_equal(got->n_accesses, want->n_accesses);
    for (int i = 0; i < want->n_accesses; i++) {
        assert_int_equal(got->accesses[i].kind, want->accesses[i].kind);
        assert_int_equal(got->accesses[i].size, want->accesses[i].size);
        assert_int_equal(got->accesses[i].address, want->accesses[i].address);
    }
    assert_int_equal(got->has_registers, want->has_registers);
    if (want->has_registers)
        for (int i = 0; i < TRACE_MAX_REGS; i++)
            if (got->regs[i] != want->regs[i])
                fail_msg("instruction 0x%llx: register %d is 0x%llx, expected 0x%llx",
                         (unsigned long long)want->address, i, (unsigned long long)got->regs[i],
                         (unsigned long long)want->regs[i]);
}

static void expect_region(struct readback *rb, enum trace_record_kind kind, uint32_t region)
{
    struct trace_record record = next(rb);
    assert_int_equal(record.kind, kind);
    assert_int_equal(record.region, region);
}

static void expect_end(struct readback *rb, uint64_t instructions,
                       enum trace_end_status status, uint32_t code)
{
    struct trace_record record = next(rb);
    assert_int_equal(record.kind, TRACE_RECORD_END);
    assert_int_equal(record.end.instructions, instructions);
    assert_int_equal(record.end.status, status);
    assert_int_equal(record.end.code, code);
    assert_int_equal(trace_read(rb->reader, &record), TRACE_ERROR);
}

/* Writes `insns` and reads them back unchanged. */
static void round_trip(const struct trace_header *header, const struct trace_insn *insns, int n)
{
    struct memtrace m;
    struct readback rb;
    start(&m, header);
    for (int i = 0; i < n; i++)
        write_insn(&m, &insns[i]);
    finish(&m, TRACE_EXITED, 0);
    open_trace(&rb, &m);
    for (int i = 0; i < n; i++)
        expect_insn(&rb, &insns[i]);
    expect_end(&rb, (uint64_t)n, TRACE_EXITED, 0);
    close_trace(&rb);
    free(m.data);
}

/* ---- round trips */

static void test_header(void **state)
{
    (void)state;
    for (int bits = 32; bits <= 64; bits += 32) {
        struct trace_header header = make_header((enum trace_isa)bits);
        header.lengths_known = bits == 64;
        struct memtrace m;
        struct readback rb;
        start(&m, &header);
        finish(&m, TRACE_EXITED, 0);
        open_trace(&rb, &m);
        const struct trace_header *got = trace_reader_header(rb.reader);
        assert_int_equal(got->isa, bits);
        assert_int_equal(got->lengths_known, bits == 64);
        assert_string_equal(got->program, "/bin/true");
        assert_string_equal(got->args, "--version -x");
        assert_string_equal(got->recorder, "test_trace_format");
        expect_end(&rb, 0, TRACE_EXITED, 0);
        close_trace(&rb);
        free(m.data);
    }
}

static void test_every_field(void **state)
{
    (void)state;
    struct trace_insn insns[4];
    insns[0] = make_insn(0x401000, 5);
    insns[0].has_bytes = true;
    memcpy(insns[0].bytes, "\xe8\x10\x00\x00\x00", 5);
    insns[0].branch = TRACE_BRANCH_TAKEN;
    insns[0].target = 0x401015;
    insns[0].n_accesses = 1;
    insns[0].accesses[0] = (struct trace_access){TRACE_STORE, 8, 0x7ffe0000fff8};
    insns[1] = make_insn(0x401015, 15);
    insns[1].thread = 1;
    insns[1].cpl = 0;
    insns[1].n_accesses = 3;
    insns[1].accesses[0] = (struct trace_access){TRACE_LOAD, 4, 0x601000};
    insns[1].accesses[1] = (struct trace_access){TRACE_MODIFY, 62, 0x600ff0};
    insns[1].accesses[2] = (struct trace_access){TRACE_STORE, 512, 0x7ffe00001000};
    insns[2] = make_insn(0x401024, 2);
    insns[2].branch = TRACE_BRANCH_NOT_TAKEN;
    insns[2].n_accesses = 2;
    insns[2].accesses[0] = (struct trace_access){TRACE_LOAD, 63, 0};
    insns[2].accesses[1] = (struct trace_access){TRACE_LOAD, 64, UINT64_MAX - 63};
    insns[3] = make_insn(0x401026, 1);
    insns[3].has_bytes = true;
    insns[3].bytes[0] = 0xc3;
    insns[3].branch = TRACE_BRANCH_TAKEN; /* the last instruction: no target follows */
    struct trace_header header = make_header(TRACE_ISA_64);
    round_trip(&header, insns, 3);
    struct memtrace m;
    struct readback rb;
    start(&m, &header);
    for (int i = 0; i < 4; i++)
        write_insn(&m, &insns[i]);
    finish(&m, TRACE_EXITED, 0);
    open_trace(&rb, &m);
    for (int i = 0; i < 3; i++)
        expect_insn(&rb, &insns[i]);
    struct trace_record last = next(&rb);
    assert_int_equal(last.insn.branch, TRACE_BRANCH_TAKEN);
    assert_int_equal(last.insn.bytes[0], 0xc3);
    expect_end(&rb, 4, TRACE_EXITED, 0);
    close_trace(&rb);
    free(m.data);
}

static void test_address_deltas(void **state)
{
    (void)state;
    static const uint64_t addresses64[] = {
        0x400000, 0x400003, 0x3fff00, 0x7fffffffe000, 0x400010, 0,
        UINT64_MAX - 14, 0x1000, 0xffffffff80000000ull, 0x400013,
    };
    static const uint64_t addresses32[] = {
        0x8048000, 0x8048003, 0x8047000, 0xfffffff0, 0x1000, 0x8049000, 0xb7f00000,
    };
    struct trace_insn insns[10];
    for (int i = 0; i < 10; i++) {
        insns[i] = make_insn(addresses64[i], 3);
        insns[i].n_accesses = 1;
        insns[i].accesses[0] =
            (struct trace_access){TRACE_LOAD, 8, addresses64[(i * 7) % 10] ^ 0x55};
    }
    struct trace_header header = make_header(TRACE_ISA_64);
    round_trip(&header, insns, 10);
    for (int i = 0; i < 7; i++) {
        insns[i] = make_insn(addresses32[i], 3);
        insns[i].n_accesses = i % 2;
        insns[i].accesses[0] = (struct trace_access){TRACE_STORE, 4, addresses32[6 - i]};
    }
    header = make_header(TRACE_ISA_32);
    round_trip(&header, insns, 7);
}

static size_t trace_size(const struct trace_insn *insns, int n)
{
    struct trace_header header = make_header(TRACE_ISA_64);
    struct memtrace m;
    start(&m, &header);
    for (int i = 0; i < n; i++)
        write_insn(&m, &insns[i]);
    finish(&m, TRACE_EXITED, 0);
    free(m.data);
    return m.size;
}

static void test_code_bytes_first_seen_and_changed(void **state)
{
    (void)state;
    struct trace_insn insns[5];
    for (int i = 0; i < 5; i++) {
        insns[i] = make_insn(0x1000, 4);
        insns[i].has_bytes = true;
        memcpy(insns[i].bytes, i < 3 ? "\x48\x83\xc0\x01" : "\x48\x83\xe8\x01", 4);
    }
    insns[1].address = insns[3].address = 0x2000; /* a loop between two blocks */
    memcpy(insns[1].bytes, "\x90\x90\x90\x90", 4);
    memcpy(insns[3].bytes, "\x90\x90\x90\x90", 4);
    /* 0x1000 runs, 0x2000 runs, 0x1000 again, 0x2000 again, 0x1000 rewritten */
    struct trace_header header = make_header(TRACE_ISA_64);
    round_trip(&header, insns, 5);
    /* the bytes are stored on first sight and on change only: the changed
     * bytes make a new block, whose definition (9 bytes: tag, address
     * delta of 2 bytes, count, instruction byte, the 4 code bytes) stands
     * where a run of the old block went on */
    struct trace_insn without[5];
    memcpy(without, insns, sizeof without);
    without[2].has_bytes = without[3].has_bytes = without[4].has_bytes = false;
    assert_int_equal(trace_size(insns, 4), trace_size(without, 4));
    assert_int_equal(trace_size(insns, 5), trace_size(without, 5) + 9);
}

static void test_thread_and_cpl_changes(void **state)
{
    (void)state;
    static const uint8_t threads[] = {0, 1, 1, 0, 1, 0, 0};
    static const uint8_t cpls[] = {3, 3, 0, 0, 3, 1, 2};
    struct trace_insn insns[7];
    for (int i = 0; i < 7; i++) {
        insns[i] = make_insn(0x5000 + 0x100 * (uint64_t)threads[i] + 2 * (uint64_t)i, 2);
        insns[i].thread = threads[i];
        insns[i].cpl = cpls[i];
    }
    struct trace_header header = make_header(TRACE_ISA_32);
    round_trip(&header, insns, 7);
}

static void test_branches_and_targets(void **state)
{
    (void)state;
    struct trace_insn insns[6];
    insns[0] = make_insn(0x400100, 2); /* jz taken backwards */
    insns[0].branch = TRACE_BRANCH_TAKEN;
    insns[0].target = 0x4000f0;
    insns[1] = make_insn(0x4000f0, 6); /* jnz not taken */
    insns[1].branch = TRACE_BRANCH_NOT_TAKEN;
    insns[2] = make_insn(0x4000f6, 5); /* call forward */
    insns[2].branch = TRACE_BRANCH_TAKEN;
    insns[2].target = 0x7f0000001000;
    insns[3] = make_insn(0x7f0000001000, 1); /* ret, taken to the next in line */
    insns[3].branch = TRACE_BRANCH_TAKEN;
    insns[3].target = 0x7f0000001001;
    insns[4] = make_insn(0x7f0000001001, 2); /* jmp to itself */
    insns[4].branch = TRACE_BRANCH_TAKEN;
    insns[4].target = 0x7f0000001001;
    insns[5] = make_insn(0x7f0000001001, 2);
    struct trace_header header = make_header(TRACE_ISA_64);
    round_trip(&header, insns, 6);
}

static void test_regions(void **state)
{
    (void)state;
    struct trace_header header = make_header(TRACE_ISA_64);
    struct trace_insn a = make_insn(0x1000, 3), b = make_insn(0x2000, 3);
    a.branch = TRACE_BRANCH_TAKEN;
    a.target = 0x2000;
    struct memtrace m;
    struct readback rb;
    start(&m, &header);
    assert_true(trace_write_region(m.writer, true, 1));
    write_insn(&m, &a);
    /* markers between a taken branch and its target */
    assert_true(trace_write_region(m.writer, false, 1));
    assert_true(trace_write_region(m.writer, true, 4000000000u));
    write_insn(&m, &b);
    assert_true(trace_write_region(m.writer, false, 4000000000u));
    finish(&m, TRACE_EXITED, 0);
    open_trace(&rb, &m);
    expect_region(&rb, TRACE_RECORD_REGION_BEGIN, 1);
    expect_insn(&rb, &a);
    expect_region(&rb, TRACE_RECORD_REGION_END, 1);
    expect_region(&rb, TRACE_RECORD_REGION_BEGIN, 4000000000u);
    expect_insn(&rb, &b);
    expect_region(&rb, TRACE_RECORD_REGION_END, 4000000000u);
    expect_end(&rb, 2, TRACE_EXITED, 0);
    close_trace(&rb);
    free(m.data);
}

static void test_many_accesses(void **state)
{
    (void)state;
    struct trace_insn insn = make_insn(0x400000, 7);
    insn.n_accesses = TRACE_MAX_ACCESSES;
    for (int i = 0; i < TRACE_MAX_ACCESSES; i++)
        insn.accesses[i] = (struct trace_access){(enum trace_access_kind)(1 + i % 3),
                                                 (uint32_t)(1 + 17 * i),
                                                 0x10000 + 0x1000 * (uint64_t)(i % 5) - 8 * i};
    struct trace_header header = make_header(TRACE_ISA_64);
    round_trip(&header, &insn, 1);
    /* one more is refused */
    struct memtrace m;
    start(&m, &header);
    insn.n_accesses = TRACE_MAX_ACCESSES + 1;
    assert_false(trace_write_insn(m.writer, &insn));
    insn.n_accesses = 1;
    insn.length = 0;
    assert_false(trace_write_insn(m.writer, &insn));
    insn.length = 16;
    assert_false(trace_write_insn(m.writer, &insn));
    finish(&m, TRACE_EXITED, 0);
    free(m.data);
}

/* Access sizes: 1 to TRACE_MAX_ACCESS_SIZE round-trip (the larger ones
 * through the varint escape); 0 and one byte more are refused. */
static void test_access_sizes(void **state)
{
    (void)state;
    struct trace_insn insn = make_insn(0x400000, 7);
    insn.n_accesses = 3;
    insn.accesses[0] = (struct trace_access){TRACE_LOAD, 1, 0x10000};
    insn.accesses[1] = (struct trace_access){TRACE_STORE, 63, 0x20000};
    insn.accesses[2] = (struct trace_access){TRACE_MODIFY, TRACE_MAX_ACCESS_SIZE, 0x30000};
    struct trace_header header = make_header(TRACE_ISA_64);
    round_trip(&header, &insn, 1);
    struct memtrace m;
    start(&m, &header);
    insn.accesses[2].size = TRACE_MAX_ACCESS_SIZE + 1;
    assert_false(trace_write_insn(m.writer, &insn));
    insn.accesses[2].size = 0;
    assert_false(trace_write_insn(m.writer, &insn));
    finish(&m, TRACE_EXITED, 0);
    free(m.data);
}

static void test_end_counts(void **state)
{
    (void)state;
    struct trace_header header = make_header(TRACE_ISA_64);
    struct memtrace m;
    struct readback rb;
    start(&m, &header);
    struct trace_insn insn = make_insn(0x1000, 1);
    for (int i = 0; i < 1000; i++) {
        insn.address = 0x1000 + (uint64_t)(i % 10);
        write_insn(&m, &insn);
    }
    assert_int_equal(trace_writer_instructions(m.writer), 1000);
    finish(&m, TRACE_KILLED, 9);
    open_trace(&rb, &m);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(next(&rb).insn.address, 0x1000 + (uint64_t)(i % 10));
    expect_end(&rb, 1000, TRACE_KILLED, 9);
    close_trace(&rb);
    free(m.data);
    /* nothing is written after END */
    start(&m, &header);
    struct trace_end end = {0, TRACE_EXITED, 0};
    assert_true(trace_write_end(m.writer, &end));
    assert_false(trace_write_insn(m.writer, &insn));
    assert_false(trace_write_region(m.writer, true, 1));
    assert_false(trace_write_end(m.writer, &end));
    assert_true(trace_writer_close(m.writer));
    fclose(m.out);
    free(m.data);
}

/* ---- corruption */

/* The offset N in "x.trace: byte offset N: ...". */
static unsigned long error_offset(const char *error)
{
    const char prefix[] = "x.trace: byte offset ";
    if (strncmp(error, prefix, sizeof prefix - 1) != 0)
        fail_msg("error without the byte offset: '%s'", error);
    char *end;
    unsigned long offset = strtoul(error + sizeof prefix - 1, &end, 10);
    if (strncmp(end, ": ", 2) != 0)
        fail_msg("error without the byte offset: '%s'", error);
    return offset;
}

/* Reads to END or the first error; the error, or NULL after END. */
static const char *read_all(struct readback *rb, const void *data, size_t size)
{
    open_bytes(rb, data, size);
    if (!rb->reader)
        return rb->error;
    struct trace_record record;
    do {
        if (trace_read(rb->reader, &record) != TRACE_OK)
            return trace_reader_error(rb->reader);
    } while (record.kind != TRACE_RECORD_END);
    return NULL;
}

static struct memtrace small_trace(void)
{
    struct trace_header header = make_header(TRACE_ISA_64);
    struct memtrace m;
    start(&m, &header);
    struct trace_insn insn = make_insn(0x401000, 3);
    insn.has_bytes = true;
    memcpy(insn.bytes, "\x48\x89\xe7", 3);
    insn.n_accesses = 2;
    insn.accesses[0] = (struct trace_access){TRACE_LOAD, 8, 0x601000};
    insn.accesses[1] = (struct trace_access){TRACE_STORE, 100, 0x7ffe0000};
    write_insn(&m, &insn);
    assert_true(trace_write_region(m.writer, true, 7));
    insn = make_insn(0x401003, 2);
    insn.thread = 1;
    insn.cpl = 0;
    insn.branch = TRACE_BRANCH_TAKEN;
    write_insn(&m, &insn);
    insn = make_insn(0x400ff0, 2);
    insn.branch = TRACE_BRANCH_NOT_TAKEN;
    write_insn(&m, &insn);
    assert_true(trace_write_region(m.writer, false, 7));
    finish(&m, TRACE_EXITED, 300);
    return m;
}

static void test_truncated_at_every_offset(void **state)
{
    (void)state;
    struct memtrace m = small_trace();
    struct readback rb;
    assert_null(read_all(&rb, m.data, m.size));
    close_trace(&rb);
    for (size_t size = 0; size < m.size; size++) {
        const char *error = read_all(&rb, m.data, size);
        if (!error)
            fail_msg("a trace cut to %zu of %zu bytes read to its END", size, m.size);
        assert_true(error_offset(error) <= size);
        if (rb.reader)
            trace_reader_close(rb.reader);
        fclose(rb.in);
    }
    free(m.data);
}

static void expect_corrupt(const void *data, size_t size, unsigned long offset,
                           const char *message)
{
    struct readback rb;
    const char *error = read_all(&rb, data, size);
    assert_non_null(error);
    assert_int_equal(error_offset(error), offset);
    if (!strstr(error, message))
        fail_msg("'%s' does not say '%s'", error, message);
    if (rb.reader)
        trace_reader_close(rb.reader);
    fclose(rb.in);
}

/* The trace of small_trace() with `bytes` spliced in at `at` in place of
 * `remove` bytes. */
static void expect_spliced_corrupt(size_t at, size_t remove, const char *bytes, size_t n,
                                   unsigned long offset, const char *message)
{
    struct memtrace m = small_trace();
    char *data = malloc(m.size + n);
    assert_non_null(data);
    memcpy(data, m.data, at);
    memcpy(data + at, bytes, n);
    memcpy(data + at + n, m.data + at + remove, m.size - at - remove);
    expect_corrupt(data, m.size + n - remove, offset, message);
    free(data);
    free(m.data);
}

/* The byte offset where small_trace()'s records start. */
static size_t records_start(void)
{
    return 8 + 1 + 1 + (1 + strlen("/bin/true")) + (1 + strlen("--version -x")) +
           (1 + strlen("test_trace_format"));
}

static void test_bad_magic(void **state)
{
    (void)state;
    expect_spliced_corrupt(0, 1, "Q", 1, 0, "not a pmubench trace");
    expect_corrupt("#!/bin/sh\necho hello\n", 21, 0, "not a pmubench trace");
}

static void test_unknown_version(void **state)
{
    (void)state;
    expect_spliced_corrupt(8, 1, "\x03", 1, 9, "version 3");
    expect_spliced_corrupt(8, 1, "\x80\x01", 2, 10, "version 128");
    expect_spliced_corrupt(9, 1, "\x20", 1, 10, "unknown header flags 0x20");
}

static void test_garbage_tags(void **state)
{
    (void)state;
    size_t at = records_start();
    static const char tags[] = {'\x80', '\x87', '\x8e', '\xff', '\x00', '\x10'};
    for (size_t i = 0; i < sizeof tags; i++) {
        /* unknown controls, and instructions of length 0 */
        struct memtrace m = small_trace();
        char *data = malloc(m.size + 1);
        assert_non_null(data);
        memcpy(data, m.data, at);
        data[at] = tags[i];
        memcpy(data + at + 1, m.data + at, m.size - at);
        struct readback rb;
        const char *error = read_all(&rb, data, m.size + 1);
        assert_non_null(error);
        assert_true(error_offset(error) >= at + 1 && error_offset(error) <= at + 3);
        trace_reader_close(rb.reader);
        fclose(rb.in);
        free(data);
        free(m.data);
    }
    expect_spliced_corrupt(at, 0, "\x83\x02", 2, (unsigned long)at + 2, "thread");
    expect_spliced_corrupt(at, 0, "\x84\x04", 2, (unsigned long)at + 2, "CPL");
}

static void test_record_after_end(void **state)
{
    (void)state;
    struct memtrace m = small_trace();
    m.data = realloc(m.data, m.size + 1);
    assert_non_null(m.data);
    m.data[m.size] = 0x01; /* a sequential one-byte instruction */
    expect_corrupt(m.data, m.size + 1, (unsigned long)m.size, "after the END");
    free(m.data);
}

static void test_end_count_mismatch(void **state)
{
    (void)state;
    struct memtrace m = small_trace();
    /* END: 0x8f, count 3, status 0, code 300 (2 bytes): the count is at -4 */
    assert_int_equal((unsigned char)m.data[m.size - 5], 0x8f);
    m.data[m.size - 4] = 4;
    expect_corrupt(m.data, m.size, (unsigned long)m.size, "4 instructions");
    free(m.data);
}

/* ---- registers (docs/traces.md, "Registers") */

static struct trace_header registers_header(enum trace_isa isa)
{
    struct trace_header header = make_header(isa);
    header.registers = true;
    return header;
}

/* Instructions with registers changing in every way: none, one, several,
 * up and down, 64-bit values; some without registers; with a branch, a
 * thread change and accesses around them. */
static int registers_insns(struct trace_insn *insns, enum trace_isa isa)
{
    int n_regs = isa == TRACE_ISA_64 ? TRACE_MAX_REGS : TRACE_REGS_32;
    uint64_t regs[TRACE_MAX_REGS] = {0};
    int n = 0;
    for (int i = 0; i < 40; i++) {
        struct trace_insn *insn = &insns[n++];
        *insn = make_insn(0x401000 + 4 * (uint64_t)i, 4);
        if (i % 7 == 3) {
            insn->branch = TRACE_BRANCH_TAKEN;
            insn->target = 0x401000 + 4 * (uint64_t)(i + 1);
        }
        if (i % 5 == 2) {
            insn->n_accesses = 1;
            insn->accesses[0] = (struct trace_access){TRACE_LOAD, 4, 0x601000 + (uint64_t)i};
        }
        insn->thread = i >= 30;
        if (i % 9 == 8)
            continue; /* no registers */
        if (i % 4 != 0) {
            int r = (i * 5) % n_regs;
            regs[r] += i % 2 ? (uint64_t)i * 0x10001 : -(uint64_t)i;
            regs[TRACE_REG_FLAGS] ^= (uint64_t)i & 0xc5;
        }
        if (i == 20)
            for (int r = 0; r < n_regs; r++)
                regs[r] = 0xfedcba9876543210 >> r;
        if (isa == TRACE_ISA_32)
            for (int r = 0; r < n_regs; r++)
                regs[r] &= UINT32_MAX;
        insn->has_registers = true;
        memcpy(insn->regs, regs, sizeof regs);
    }
    return n;
}

static void test_registers_round_trip(void **state)
{
    (void)state;
    for (int bits = 32; bits <= 64; bits += 32) {
        struct trace_header header = registers_header((enum trace_isa)bits);
        struct trace_insn insns[40];
        int n = registers_insns(insns, (enum trace_isa)bits);
        round_trip(&header, insns, n);

        struct memtrace m;
        struct readback rb;
        start(&m, &header);
        finish(&m, TRACE_EXITED, 0);
        open_trace(&rb, &m);
        assert_true(trace_reader_header(rb.reader)->registers);
        close_trace(&rb);
        free(m.data);
    }
    /* Without the flag the header says none. */
    struct trace_header header = make_header(TRACE_ISA_64);
    struct memtrace m;
    struct readback rb;
    start(&m, &header);
    finish(&m, TRACE_EXITED, 0);
    open_trace(&rb, &m);
    assert_false(trace_reader_header(rb.reader)->registers);
    close_trace(&rb);
    free(m.data);
}

/* The bytes: 0x87, the mask of the changed registers, their zigzag deltas
 * from the last register record, before the instruction's block. */
static void test_registers_bytes(void **state)
{
    (void)state;
    struct trace_header header = registers_header(TRACE_ISA_64);
    struct memtrace m;
    start(&m, &header);
    long before = ftell(m.out);
    struct trace_insn insn = make_insn(0, 2);
    insn.has_registers = true;
    insn.regs[TRACE_REG_AX] = 0x1234;
    insn.regs[TRACE_REG_FLAGS] = 0x246;
    write_insn(&m, &insn);
    insn.address = 2;
    write_insn(&m, &insn); /* nothing changed */
    insn.address = 4;
    insn.regs[TRACE_REG_AX] = 0x1233; /* -1 */
    insn.regs[TRACE_REG_R15] = 1;
    write_insn(&m, &insn);
    finish(&m, TRACE_EXITED, 0);
    /* each instruction a block of its own, defined after the registers:
     * tag 0x03, address delta 0, 1 instruction, length 2 */
    static const unsigned char want[] = {
        0x87, 0x03, 0x8c, 0x09, 0xe8, 0x48, 0x03, 0x00, 0x01, 0x02, /* flags +0x246, rax +0x1234 */
        0x87, 0x00, 0x03, 0x00, 0x01, 0x02,                         /* no change */
        0x87, 0x82, 0x80, 0x04, 0x01, 0x02, 0x03, 0x00, 0x01, 0x02, /* rax -1, r15 +1 */
    };
    assert_true(m.size >= (size_t)before + sizeof want);
    assert_memory_equal(m.data + before, want, sizeof want);
    free(m.data);
}

static void test_registers_writer_refuses(void **state)
{
    (void)state;
    struct trace_header header = make_header(TRACE_ISA_64);
    struct memtrace m;
    struct trace_insn insn = make_insn(0x1000, 1);
    insn.has_registers = true;
    start(&m, &header); /* no registers in the header */
    assert_false(trace_write_insn(m.writer, &insn));
    finish(&m, TRACE_EXITED, 0);
    free(m.data);

    header = registers_header(TRACE_ISA_32);
    start(&m, &header);
    insn.regs[TRACE_REG_AX] = 0x100000000;
    assert_false(trace_write_insn(m.writer, &insn)); /* above 32 bits */
    insn.regs[TRACE_REG_AX] = 0;
    insn.regs[TRACE_REG_R8] = 1;
    assert_false(trace_write_insn(m.writer, &insn)); /* not a 32-bit register */
    insn.regs[TRACE_REG_R8] = 0;
    insn.regs[TRACE_REG_DI] = UINT32_MAX;
    assert_true(trace_write_insn(m.writer, &insn));
    finish(&m, TRACE_EXITED, 0);
    free(m.data);
}

static void test_registers_truncated_at_every_offset(void **state)
{
    (void)state;
    struct trace_header header = registers_header(TRACE_ISA_64);
    struct trace_insn insns[40];
    int n = registers_insns(insns, TRACE_ISA_64);
    struct memtrace m;
    struct readback rb;
    start(&m, &header);
    for (int i = 0; i < n; i++)
        write_insn(&m, &insns[i]);
    finish(&m, TRACE_EXITED, 0);
    assert_null(read_all(&rb, m.data, m.size));
    close_trace(&rb);
    for (size_t size = 0; size < m.size; size++) {
        const char *error = read_all(&rb, m.data, size);
        if (!error)
            fail_msg("a trace cut to %zu of %zu bytes read to its END", size, m.size);
        assert_true(error_offset(error) <= size);
        if (rb.reader)
            trace_reader_close(rb.reader);
        fclose(rb.in);
    }
    free(m.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header),
        cmocka_unit_test(test_every_field),
        cmocka_unit_test(test_address_deltas),
        cmocka_unit_test(test_code_bytes_first_seen_and_changed),
        cmocka_unit_test(test_thread_and_cpl_changes),
        cmocka_unit_test(test_branches_and_targets),
        cmocka_unit_test(test_regions),
        cmocka_unit_test(test_many_accesses),
        cmocka_unit_test(test_access_sizes),
        cmocka_unit_test(test_end_counts),
        cmocka_unit_test(test_truncated_at_every_offset),
        cmocka_unit_test(test_bad_magic),
        cmocka_unit_test(test_unknown_version),
        cmocka_unit_test(test_garbage_tags),
        cmocka_unit_test(test_record_after_end),
        cmocka_unit_test(test_end_count_mismatch),
        cmocka_unit_test(test_registers_round_trip),
        cmocka_unit_test(test_registers_bytes),
        cmocka_unit_test(test_registers_writer_refuses),
        cmocka_unit_test(test_registers_truncated_at_every_offset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
