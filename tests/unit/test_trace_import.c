/* The lackey and Dinero importers: the exact records of small inputs, and
 * one message per bad line. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "traces/import.h"
#include "traces/trace.h"

static char error[1024];
static struct trace_header header;

static void append(char **cursor, size_t *left, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int used = vsnprintf(*cursor, *left, format, ap);
    va_end(ap);
    assert_true(used >= 0 && (size_t)used < *left);
    *cursor += used;
    *left -= (size_t)used;
}

static void dump_record(const struct trace_record *record, char **cursor, size_t *left)
{
    static const char *const kinds[] = {"?", "load", "store", "modify"};
    if (record->kind == TRACE_RECORD_END) {
        append(cursor, left, "end %u %" PRIu32 " %" PRIu64 "\n", record->end.status,
               record->end.code, record->end.instructions);
        return;
    }
    assert_int_equal(record->kind, TRACE_RECORD_INSN);
    const struct trace_insn *insn = &record->insn;
    assert_false(insn->has_bytes);
    assert_int_equal(insn->thread, 0);
    assert_int_equal(insn->cpl, 3);
    assert_int_equal(insn->branch, TRACE_NOT_BRANCH);
    append(cursor, left, "0x%" PRIx64 ",%u", insn->address, insn->length);
    for (int i = 0; i < insn->n_accesses; i++)
        append(cursor, left, " %s 0x%" PRIx64 ",%" PRIu32, kinds[insn->accesses[i].kind],
               insn->accesses[i].address, insn->accesses[i].size);
    append(cursor, left, "\n");
}

static void dump_trace(const char *data, size_t size, char *dump, size_t dump_size)
{
    FILE *in = fmemopen((void *)data, size, "r");
    assert_non_null(in);
    char read_error[512];
    struct trace_reader *reader = trace_reader_open(in, "x.trace", read_error, sizeof read_error);
    if (!reader)
        fail_msg("%s", read_error);
    header = *trace_reader_header(reader);
    struct trace_record record;
    dump[0] = '\0';
    do {
        if (trace_read(reader, &record) != TRACE_OK)
            fail_msg("%s", trace_reader_error(reader));
        dump_record(&record, &dump, &dump_size);
    } while (record.kind != TRACE_RECORD_END);
    trace_reader_close(reader);
    fclose(in);
}

/* Imports `text`; on success, the trace's records one per line in `dump`
 * and its header in `header`. */
static bool import_text(enum trace_import_format format, const char *text,
                        size_t size, char *dump, size_t dump_size)
{
    char *data = NULL;
    size_t data_size = 0;
    FILE *out = open_memstream(&data, &data_size);
    FILE *in = size ? fmemopen((void *)text, size, "r") : tmpfile();
    assert_non_null(out);
    assert_non_null(in);
    error[0] = '\0';
    errno = 0;
    bool ok = trace_import(format, in, format == TRACE_IMPORT_LACKEY ? "x.lackey" : "x.din", out,
                           "x.trace", error, sizeof error);
    if (!ok)
        assert_int_equal(errno, EINVAL); /* bad input */
    fclose(in);
    fclose(out);
    if (ok)
        dump_trace(data, data_size, dump, dump_size);
    free(data);
    return ok;
}

static void expect_lackey(const char *text, const char *records)
{
    char dump[8192];
    if (!import_text(TRACE_IMPORT_LACKEY, text, strlen(text), dump,
                     sizeof dump))
        fail_msg("%s", error);
    assert_string_equal(dump, records);
}

static void expect_lackey_error(const char *text, const char *message)
{
    char dump[64];
    assert_false(import_text(TRACE_IMPORT_LACKEY, text, strlen(text), dump,
                             sizeof dump));
    assert_string_equal(error, message);
}

static void expect_dinero(const char *text, const char *records)
{
    char dump[8192];
    if (!import_text(TRACE_IMPORT_DINERO, text, strlen(text), dump,
                     sizeof dump))
        fail_msg("%s", error);
    assert_string_equal(dump, records);
}

static void expect_dinero_error(const char *text, const char *message)
{
    char dump[64];
    assert_false(import_text(TRACE_IMPORT_DINERO, text, strlen(text), dump,
                             sizeof dump));
    assert_string_equal(error, message);
}

/* ---- lackey */

static void test_lackey_records(void **state)
{
    (void)state;
    expect_lackey("==4368== Lackey, an example Valgrind tool\n"
                  "==4368== Command: ./t\n"
                  "==4368== \n"
                  "I  004014f0,2\n"
                  "I  004014f2,3\n"
                  " L 1fff000660,8\n"
                  "I  004014f6,15\n"
                  " S 1fff000658,8\n"
                  " M 0421d3c0,4\n"
                  " L 0421d3c0,64\n"
                  "I  00401000,1\n"
                  "I  ffffffffff600000,7\n"
                  " L 0,1\n"
                  "==4368== Exit code:       0\n",
                  "0x4014f0,2\n"
                  "0x4014f2,3 load 0x1fff000660,8\n"
                  "0x4014f6,15 store 0x1fff000658,8 modify 0x421d3c0,4 load 0x421d3c0,64\n"
                  "0x401000,1\n"
                  "0xffffffffff600000,7 load 0x0,1\n"
                  "end 0 0 5\n");
    assert_int_equal(header.isa, TRACE_ISA_64);
    assert_true(header.lengths_known);
    assert_string_equal(header.program, "");
    assert_string_equal(header.recorder, "pmubench trace import --lackey");
}

static void test_lackey_layout(void **state)
{
    (void)state;
    /* CRLF, blank lines, cachelab's single space after I, no final line break */
    expect_lackey("I 0400d7d4,8\r\n\n M 0421c7f0,4\r\n  \nI  0400d7dc,3\n L 04f6b868,8",
                  "0x400d7d4,8 modify 0x421c7f0,4\n"
                  "0x400d7dc,3 load 0x4f6b868,8\n"
                  "end 0 0 2\n");
    expect_lackey("", "end 0 0 0\n");
    expect_lackey("==1== only valgrind's lines\n", "end 0 0 0\n");
}

static void test_lackey_many_accesses(void **state)
{
    (void)state;
    char text[4096] = "I  1000,4\n";
    char want[4096] = "0x1000,4";
    for (int i = 0; i < TRACE_MAX_ACCESSES; i++) {
        sprintf(text + strlen(text), " S %x,8\n", 0x2000 + 8 * i);
        sprintf(want + strlen(want), " store 0x%x,8", 0x2000 + 8 * i);
    }
    strcat(want, "\nend 0 0 1\n");
    expect_lackey(text, want);
    strcat(text, " L 3000,4\n");
    expect_lackey_error(text, "x.lackey:66: more than 64 data accesses for the instruction of "
                              "line 1");
}

static void test_lackey_bad_lines(void **state)
{
    (void)state;
    static const char expected[] = "expected 'I  ADDR,SIZE', ' L ADDR,SIZE', ' S ADDR,SIZE' or "
                                   "' M ADDR,SIZE'";
    static const char *const bad_layouts[] = {
        "X 1000,4\n", "I  1000\n", "L1000,4\n", "I,4\n", "hello world\n", "I\n", "=1\n",
    };
    for (size_t i = 0; i < sizeof bad_layouts / sizeof bad_layouts[0]; i++) {
        char message[256];
        snprintf(message, sizeof message, "x.lackey:1: %s", expected);
        expect_lackey_error(bad_layouts[i], message);
    }
    expect_lackey_error("I  1000,4\n L 2000,4\nprogram output\n",
                        "x.lackey:3: expected 'I  ADDR,SIZE', ' L ADDR,SIZE', ' S ADDR,SIZE' "
                        "or ' M ADDR,SIZE'");
}

static void test_lackey_bad_values(void **state)
{
    (void)state;
    expect_lackey_error("==1== x\n L 1000,4\nI  1000,4\n",
                        "x.lackey:2: a data access before any instruction");
    expect_lackey_error("I  1000,4\n S 2000,0\n",
                        "x.lackey:2: data access size 0 (expected 1-16384)");
    /* The largest access one instruction makes (docs/traces.md, "Access
     * sizes"), then one byte more, and the size that hung the P5 model. */
    expect_lackey("I  1000,4\n L 2000,16384\n", "0x1000,4 load 0x2000,16384\nend 0 0 1\n");
    expect_lackey_error("I  1000,4\n S 2000,16385\n",
                        "x.lackey:2: data access size 16385 (expected 1-16384)");
    expect_lackey_error("I  1000,4\n L 1000,4294967295\n",
                        "x.lackey:2: data access size 4294967295 (expected 1-16384)");
    expect_lackey_error("I  1000,4\n S 2000,4294967296\n",
                        "x.lackey:2: data access size 4294967296 (expected 1-16384)");
    expect_lackey_error("I  1000,0\n", "x.lackey:1: instruction size 0 (expected 1-15)");
    expect_lackey_error("I  1000,4\nI  1004,16\n", "x.lackey:2: instruction size 16 (expected 1-15)");
    expect_lackey_error("I  10g0,4\n",
                        "x.lackey:1: bad address '10g0' (expected a hexadecimal number)");
    expect_lackey_error("I  ,4\n", "x.lackey:1: bad address '' (expected a hexadecimal number)");
    expect_lackey_error("I  0x1000,4\n",
                        "x.lackey:1: bad address '0x1000' (expected a hexadecimal number)");
    expect_lackey_error("I  10000000000000000,4\n", "x.lackey:1: bad address "
                                                    "'10000000000000000' (expected a "
                                                    "hexadecimal number)");
    expect_lackey_error("I  1000,4\n L 2000,8x\n",
                        "x.lackey:2: bad size '8x' (expected a decimal number)");
    expect_lackey_error("I  1000,-1\n", "x.lackey:1: bad size '-1' (expected a decimal number)");
    expect_lackey_error("I  1000,\n", "x.lackey:1: bad size '' (expected a decimal number)");
    expect_lackey_error("I  1000,99999999999999999999\n",
                        "x.lackey:1: bad size '99999999999999999999' (expected a decimal "
                        "number)");
    expect_lackey_error("I  1000,4,4\n", "x.lackey:1: bad size '4,4' (expected a decimal number)");
}

static void test_lackey_nul_byte(void **state)
{
    (void)state;
    char dump[64];
    static const char text[] = "I  1000,4\nI  10\00004,4\n";
    assert_false(import_text(TRACE_IMPORT_LACKEY, text, sizeof text - 1,
                             dump, sizeof dump));
    assert_string_equal(error, "x.lackey:2: unexpected NUL byte");
}

/* ---- Dinero */

static void test_dinero_records(void **state)
{
    (void)state;
    expect_dinero("2 400000\n"
                  "0 601000\n"
                  "1 0x601008 8\n"
                  "2 400001 4\n"
                  "3 0\n"
                  "4 0\n"
                  "2 3ff000 F a comment, as Dinero allows\n"
                  "  0\t7ffe0000 1  \n"
                  "1 7FFE0004 0X20\n"
                  "\n"
                  "02 400010\n",
                  "0x400000,1 load 0x601000,4 store 0x601008,8\n"
                  "0x400001,4\n"
                  "0x3ff000,15 load 0x7ffe0000,1 store 0x7ffe0004,32\n"
                  "0x400010,1\n"
                  "end 0 0 4\n");
    assert_int_equal(header.isa, TRACE_ISA_64);
    assert_false(header.lengths_known);
    assert_string_equal(header.recorder, "pmubench trace import --dinero");
    expect_dinero("", "end 0 0 0\n");
    expect_dinero("4 0\n3 1234\n", "end 0 0 0\n");
}

static void test_dinero_bad_lines(void **state)
{
    (void)state;
    expect_dinero_error("0 1000\n2 1000\n", "x.din:1: a data access before any instruction");
    expect_dinero_error("2 1000\n5 1000\n", "x.din:2: unknown label '5' (expected 0 read, "
                                            "1 write, 2 instruction fetch, 3 escape or 4 flush)");
    expect_dinero_error("r 1000\n", "x.din:1: unknown label 'r' (expected 0 read, 1 write, "
                                    "2 instruction fetch, 3 escape or 4 flush)");
    expect_dinero_error("2\n", "x.din:1: expected 'LABEL ADDRESS [SIZE]'");
    expect_dinero_error("2 10z0\n",
                        "x.din:1: bad address '10z0' (expected a hexadecimal number)");
    expect_dinero_error("2 0x\n", "x.din:1: bad address '0x' (expected a hexadecimal number)");
    expect_dinero_error("2 1000 size\n",
                        "x.din:1: bad size 'size' (expected a hexadecimal number)");
    /* A size is refused as the line wrote it: hexadecimal, with its 0x. */
    expect_dinero_error("2 1000 10\n", "x.din:1: instruction size 10 (expected 1-f, hexadecimal)");
    expect_dinero_error("2 1000 0x10\n",
                        "x.din:1: instruction size 0x10 (expected 1-f, hexadecimal)");
    expect_dinero_error("2 1000 0\n", "x.din:1: instruction size 0 (expected 1-f, hexadecimal)");
    expect_dinero_error("2 1000\n1 2000 0\n",
                        "x.din:2: data access size 0 (expected 1-4000, hexadecimal)");
    expect_dinero_error("2 1000\n0 1000 ffffffff\n",
                        "x.din:2: data access size ffffffff (expected 1-4000, hexadecimal)");
    expect_dinero_error("2 1000\n0 1000 4001\n",
                        "x.din:2: data access size 4001 (expected 1-4000, hexadecimal)");
    expect_dinero("2 1000 f\n0 1000 0X4000\n", "0x1000,15 load 0x1000,16384\nend 0 0 1\n");
}

/* ---- the output failing */

/* trace_import into an unbuffered stream of /dev/full: the records'
 * write fails, and the message names the output. */
static void test_unwritable_output(void **state)
{
    (void)state;
    static const char text[] = "I  004014f0,2\n";
    FILE *in = fmemopen((void *)text, sizeof text - 1, "r");
    FILE *out = fopen("/dev/full", "w");
    assert_non_null(in);
    assert_non_null(out);
    assert_int_equal(setvbuf(out, NULL, _IONBF, 0), 0);
    errno = 0;
    assert_false(trace_import(TRACE_IMPORT_LACKEY, in, "x.lackey", out, "x.trace", error,
                              sizeof error));
    assert_int_equal(errno, EIO);
    assert_string_equal(error, "x.trace: cannot write");
    fclose(in);
    fclose(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lackey_records),
        cmocka_unit_test(test_lackey_layout),
        cmocka_unit_test(test_lackey_many_accesses),
        cmocka_unit_test(test_lackey_bad_lines),
        cmocka_unit_test(test_lackey_bad_values),
        cmocka_unit_test(test_lackey_nul_byte),
        cmocka_unit_test(test_dinero_records),
        cmocka_unit_test(test_dinero_bad_lines),
        cmocka_unit_test(test_unwritable_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
