/* trace_next(): records handed out in place, equal to trace_read()'s
 * copies, the one returned before still valid, a taken branch's target
 * found across region markers, and the same errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "traces/trace.h"

enum { LOOP = 3, ROUNDS = 40, MARKERS = 5 };

/* A 64-bit trace: ROUNDS times a three-instruction loop (a load, an add, a
 * taken jump back with MARKERS region markers before its target), then an
 * END record. */
static size_t write_trace(char *buf, size_t size)
{
    FILE *out = fmemopen(buf, size, "w");
    assert_non_null(out);
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true};
    char error[256];
    struct trace_writer *w = trace_writer_open(out, &header, error, sizeof error);
    assert_non_null(w);
    static const uint8_t code[LOOP][3] = {{0x8b, 0x04, 0x8e}, {0x83, 0xc0, 0x01}, {0xeb, 0xf9, 0x90}};
    for (int round = 0; round < ROUNDS; round++)
        for (int i = 0; i < LOOP; i++) {
            struct trace_insn insn = {.address = 0x1000 + 3 * (uint64_t)i, .length = 3,
                                      .has_bytes = true, .cpl = 3};
            memcpy(insn.bytes, code[i], 3);
            if (i == 0) {
                insn.n_accesses = 1;
                insn.accesses[0] = (struct trace_access){TRACE_LOAD, 4, 0x8000 + 4 * (uint64_t)round};
            }
            if (i == LOOP - 1) {
                insn.length = 2;
                insn.branch = TRACE_BRANCH_TAKEN;
                insn.target = 0x1000;
            }
            assert_true(trace_write_insn(w, &insn));
            for (int m = 0; i == LOOP - 1 && m < MARKERS; m++)
                assert_true(trace_write_region(w, m % 2 == 0, (uint32_t)m));
        }
    struct trace_end end = {ROUNDS * LOOP, TRACE_EXITED, 0};
    assert_true(trace_write_end(w, &end));
    assert_true(trace_writer_close(w));
    long length = ftell(out);
    fclose(out);
    return (size_t)length;
}

static struct trace_reader *open_buffer(const char *buf, size_t size, FILE **in)
{
    char error[256];
    *in = fmemopen((void *)buf, size, "r");
    struct trace_reader *r = trace_reader_open(*in, "mem", error, sizeof error);
    assert_non_null(r);
    return r;
}

static bool same_record(const struct trace_record *a, const struct trace_record *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == TRACE_RECORD_REGION_BEGIN || a->kind == TRACE_RECORD_REGION_END)
        return a->region == b->region;
    if (a->kind == TRACE_RECORD_END)
        return a->end.instructions == b->end.instructions && a->end.status == b->end.status;
    const struct trace_insn *x = &a->insn, *y = &b->insn;
    return x->address == y->address && x->length == y->length && x->has_bytes == y->has_bytes &&
           memcmp(x->bytes, y->bytes, sizeof x->bytes) == 0 && x->branch == y->branch &&
           x->target == y->target && x->n_accesses == y->n_accesses &&
           memcmp(x->accesses, y->accesses, (size_t)x->n_accesses * sizeof x->accesses[0]) == 0;
}

static void test_next_equals_read(void **state)
{
    (void)state;
    static char buf[1 << 16];
    size_t size = write_trace(buf, sizeof buf);
    FILE *in_next, *in_read;
    struct trace_reader *next = open_buffer(buf, size, &in_next);
    struct trace_reader *read = open_buffer(buf, size, &in_read);
    const struct trace_record *held = NULL;
    struct trace_record held_copy;
    int records = 0, targets = 0;
    for (;;) {
        const struct trace_record *rec;
        struct trace_record copy;
        assert_int_equal(trace_next(next, &rec), TRACE_OK);
        assert_int_equal(trace_read(read, &copy), TRACE_OK);
        assert_true(same_record(rec, &copy));
        if (held) /* the record before is still there */
            assert_true(same_record(held, &held_copy));
        held = rec;
        held_copy = copy;
        records++;
        if (rec->kind == TRACE_RECORD_INSN && rec->insn.branch == TRACE_BRANCH_TAKEN) {
            targets++; /* the last branch ends the trace: no target */
            assert_int_equal(rec->insn.target, targets < ROUNDS ? 0x1000 : 0);
        }
        if (rec->kind == TRACE_RECORD_END)
            break;
    }
    assert_int_equal(records, ROUNDS * (LOOP + MARKERS) + 1);
    assert_int_equal(targets, ROUNDS);
    const struct trace_record *rec;
    assert_int_equal(trace_next(next, &rec), TRACE_ERROR);
    assert_non_null(strstr(trace_reader_error(next), "read past the END record"));
    trace_reader_close(next);
    trace_reader_close(read);
    fclose(in_next);
    fclose(in_read);
}

static void test_next_reports_truncation(void **state)
{
    (void)state;
    static char buf[1 << 16];
    size_t size = write_trace(buf, sizeof buf);
    FILE *in;
    struct trace_reader *r = open_buffer(buf, size - 3, &in);
    const struct trace_record *rec;
    enum trace_status status;
    while ((status = trace_next(r, &rec)) == TRACE_OK && rec->kind != TRACE_RECORD_END)
        ;
    assert_int_equal(status, TRACE_ERROR);
    assert_non_null(strstr(trace_reader_error(r), "truncated"));
    trace_reader_close(r);
    fclose(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_next_equals_read),
        cmocka_unit_test(test_next_reports_truncation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
