/* trace_info_read (traces/trace_info.h): the summary of a written trace,
 * counted by blocks, equals what was written (a modify is a load and a
 * store; regions are their begin markers), with the end record and the
 * file's size; a truncated trace is a read error with the reader's
 * message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "traces/trace.h"
#include "traces/trace_info.h"

enum { LOOP = 3, ROUNDS = 50, SIGNAL = 9 };

/* ROUNDS times a loop of a load, a modify and a taken jump back, a region
 * begin and end around each round after the first; the program killed by
 * SIGNAL.  Into `out`, left at its end. */
static void write_trace(FILE *out)
{
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true};
    char error[256];
    struct trace_writer *w = trace_writer_open(out, &header, error, sizeof error);
    assert_non_null(w);
    static const uint8_t code[LOOP][3] = {{0x8b, 0x04, 0x8e}, {0x83, 0x00, 0x01}, {0xeb, 0xf8, 0x90}};
    for (int round = 0; round < ROUNDS; round++) {
        if (round)
            assert_true(trace_write_region(w, true, (uint32_t)round));
        for (int i = 0; i < LOOP; i++) {
            struct trace_insn insn = {.address = 0x1000 + 3 * (uint64_t)i, .length = 3,
                                      .has_bytes = true, .cpl = 3};
            memcpy(insn.bytes, code[i], 3);
            if (i < 2) {
                insn.n_accesses = 1;
                insn.accesses[0] = (struct trace_access){i ? TRACE_MODIFY : TRACE_LOAD, 4,
                                                         0x8000 + 4 * (uint64_t)round};
            } else {
                insn.length = 2;
                insn.branch = TRACE_BRANCH_TAKEN;
                insn.target = 0x1000;
            }
            assert_true(trace_write_insn(w, &insn));
        }
        if (round)
            assert_true(trace_write_region(w, false, (uint32_t)round));
    }
    struct trace_end end = {ROUNDS * LOOP, TRACE_KILLED, SIGNAL};
    assert_true(trace_write_end(w, &end));
    assert_true(trace_writer_close(w));
}

static void test_info_counts_the_trace(void **state)
{
    (void)state;
    FILE *file = tmpfile();
    assert_non_null(file);
    write_trace(file);
    long size = ftell(file);
    rewind(file);
    char error[256];
    struct trace_reader *r = trace_reader_open(file, "loop.trace", error, sizeof error);
    assert_non_null(r);
    struct trace_info info;
    assert_int_equal(trace_info_read(file, r, &info), TRACE_INFO_OK);
    assert_int_equal(info.instructions, ROUNDS * LOOP);
    assert_int_equal(info.branches, ROUNDS);
    assert_int_equal(info.taken, ROUNDS);
    assert_int_equal(info.loads, 2 * ROUNDS);
    assert_int_equal(info.stores, ROUNDS);
    assert_int_equal(info.regions, ROUNDS - 1);
    assert_int_equal(info.end.status, TRACE_KILLED);
    assert_int_equal(info.end.code, SIGNAL);
    assert_int_equal(info.end.instructions, ROUNDS * LOOP);
    assert_int_equal(info.bytes, size);
    assert_true(trace_info_bytes_per_instruction(&info) == (double)size / (ROUNDS * LOOP));
    trace_reader_close(r);
    fclose(file);
}

static void test_info_reports_truncation(void **state)
{
    (void)state;
    static char buf[1 << 16];
    FILE *out = fmemopen(buf, sizeof buf, "w");
    assert_non_null(out);
    write_trace(out);
    long size = ftell(out);
    fclose(out);
    FILE *in = fmemopen(buf, (size_t)size - 4, "r");
    char error[256];
    struct trace_reader *r = trace_reader_open(in, "cut.trace", error, sizeof error);
    assert_non_null(r);
    struct trace_info info;
    assert_int_equal(trace_info_read(in, r, &info), TRACE_INFO_READ_ERROR);
    assert_non_null(strstr(trace_reader_error(r), "cut.trace"));
    trace_reader_close(r);
    fclose(in);
}

static void test_info_of_no_instructions(void **state)
{
    (void)state;
    struct trace_info info = {.bytes = 100};
    assert_true(trace_info_bytes_per_instruction(&info) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info_counts_the_trace),
        cmocka_unit_test(test_info_reports_truncation),
        cmocka_unit_test(test_info_of_no_instructions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
