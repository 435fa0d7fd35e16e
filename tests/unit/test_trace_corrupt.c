/* Corrupt traces built byte by byte: the reader's checks that the
 * round-trip tests cannot reach, each with its exact message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "traces/trace.h"

/* magic, version 1, flags 1 (64-bit), three empty strings: 13 bytes */
#define HEADER 'P', 'M', 'U', 'T', 'R', 'A', 'C', 'E', 1, 1, 0, 0, 0
/* the same with registers: flags 5 (64-bit), 4 (32-bit) */
#define HEADER_REGS64 'P', 'M', 'U', 'T', 'R', 'A', 'C', 'E', 1, 5, 0, 0, 0
#define HEADER_REGS32 'P', 'M', 'U', 'T', 'R', 'A', 'C', 'E', 1, 4, 0, 0, 0

/* Reads records until an error; returns the reader's message. */
static const char *first_error(const uint8_t *bytes, size_t size, char *buf, size_t buf_size)
{
    FILE *in = fmemopen((void *)bytes, size, "r");
    struct trace_reader *reader = trace_reader_open(in, "mem", buf, buf_size);
    if (reader) {
        struct trace_record record;
        while (trace_read(reader, &record) == TRACE_OK && record.kind != TRACE_RECORD_END)
            ;
        snprintf(buf, buf_size, "%s", trace_reader_error(reader));
        trace_reader_close(reader);
    }
    fclose(in);
    return buf;
}

static void test_varint_above_64_bits(void **state)
{
    (void)state;
    /* an instruction of length 3 with a jump delta of ten 0x80 bytes */
    const uint8_t bytes[] = {HEADER, 0x13, 0x80, 0x80, 0x80, 0x80, 0x80,
                             0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
    char error[256];
    assert_string_equal(first_error(bytes, sizeof bytes, error, sizeof error),
                        "mem: byte offset 24: a number above 2^64 where an instruction address "
                        "was expected");
}

static void test_header_string_too_long(void **state)
{
    (void)state;
    const uint8_t bytes[] = {'P', 'M', 'U', 'T', 'R', 'A', 'C', 'E', 1, 1, 0x80, 0x20};
    char error[256];
    assert_string_equal(first_error(bytes, sizeof bytes, error, sizeof error),
                        "mem: byte offset 12: the program name of 4096 bytes (at most 4095)");
}

static void test_region_number_above_32_bits(void **state)
{
    (void)state;
    const uint8_t bytes[] = {HEADER, 0x85, 0x80, 0x80, 0x80, 0x80, 0x10};
    char error[256];
    assert_string_equal(first_error(bytes, sizeof bytes, error, sizeof error),
                        "mem: byte offset 19: region number 4294967296");
}

/* An instruction of length 3 with one load whose size follows as a
 * varint (docs/traces.md, "Access sizes"): 16385 bytes, one more than any
 * instruction accesses, and 2^32 - 1, which hung the P5 model. */
static void test_access_size_above_limit(void **state)
{
    (void)state;
    const uint8_t over[] = {HEADER, 0x23, 0x01, 0xfd, 0x81, 0x80, 0x01, 0x00, 0x8f, 0x01, 0, 0};
    char error[256];
    assert_string_equal(first_error(over, sizeof over, error, sizeof error),
                        "mem: byte offset 19: data access of 16385 bytes (expected 1-16384)");
    const uint8_t huge[] = {HEADER, 0x23, 0x01, 0xfd, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00,
                            0x8f, 0x01, 0, 0};
    assert_string_equal(first_error(huge, sizeof huge, error, sizeof error),
                        "mem: byte offset 21: data access of 4294967295 bytes (expected "
                        "1-16384)");
}

static void test_record_between_branch_and_instruction(void **state)
{
    (void)state;
    const uint8_t bytes[] = {HEADER, 0x82, 0x85, 0x01};
    char error[256];
    assert_string_equal(first_error(bytes, sizeof bytes, error, sizeof error),
                        "mem: byte offset 15: record 0x85 between a branch marker and its "
                        "instruction");
}

/* ---- register records: the tag (0x87) is at offset 13 */

static void expect_error(const uint8_t *bytes, size_t size, const char *want)
{
    char error[256];
    assert_string_equal(first_error(bytes, size, error, sizeof error), want);
}

static void test_register_mask_beyond_the_isa(void **state)
{
    (void)state;
    const uint8_t mask17[] = {HEADER_REGS64, 0x87, 0x80, 0x80, 0x08, 0x01};
    expect_error(mask17, sizeof mask17,
                 "mem: byte offset 17: register mask 0x20000 (a 64-bit trace has registers 0-16)");
    const uint8_t mask9[] = {HEADER_REGS32, 0x87, 0x81, 0x04, 0x01};
    expect_error(mask9, sizeof mask9,
                 "mem: byte offset 16: register mask 0x201 (a 32-bit trace has registers 0-8)");
    const uint8_t mask64[] = {HEADER_REGS64, 0x87, 0x80, 0x80, 0x80, 0x80, 0x80,
                              0x80, 0x80, 0x80, 0x80, 0x01};
    expect_error(mask64, sizeof mask64,
                 "mem: byte offset 24: register mask 0x8000000000000000 (a 64-bit trace has "
                 "registers 0-16)");
}

static void test_register_value_above_32_bits(void **state)
{
    (void)state;
    /* eax (bit 1) + 2^32: zigzag 2^33 */
    const uint8_t up[] = {HEADER_REGS32, 0x87, 0x02, 0x80, 0x80, 0x80, 0x80, 0x20, 0x01};
    expect_error(up, sizeof up,
                 "mem: byte offset 20: register 1 holds 0x100000000, above 32 bits in a 32-bit "
                 "trace");
    /* edi (bit 8) - 1 from 0 */
    const uint8_t down[] = {HEADER_REGS32, 0x87, 0x80, 0x02, 0x01, 0x01};
    expect_error(down, sizeof down,
                 "mem: byte offset 17: register 8 holds 0xffffffffffffffff, above 32 bits in a "
                 "32-bit trace");
}

static void test_register_record_without_the_flag(void **state)
{
    (void)state;
    const uint8_t bytes[] = {HEADER, 0x87, 0x00, 0x01};
    expect_error(bytes, sizeof bytes,
                 "mem: byte offset 14: a register record in a trace without the registers "
                 "header flag");
}

static void test_register_record_truncated(void **state)
{
    (void)state;
    const uint8_t no_mask[] = {HEADER_REGS64, 0x87};
    expect_error(no_mask, sizeof no_mask,
                 "mem: byte offset 14: truncated: expected a register mask");
    const uint8_t half_mask[] = {HEADER_REGS64, 0x87, 0x83};
    expect_error(half_mask, sizeof half_mask,
                 "mem: byte offset 15: truncated: expected a register mask");
    /* flags and rax announced, one value given */
    const uint8_t one_value[] = {HEADER_REGS64, 0x87, 0x03, 0x02};
    expect_error(one_value, sizeof one_value,
                 "mem: byte offset 16: truncated: expected a register value");
    const uint8_t no_insn[] = {HEADER_REGS64, 0x87, 0x00};
    expect_error(no_insn, sizeof no_insn,
                 "mem: byte offset 15: truncated: expected a record (a trace ends with an END "
                 "record)");
}

static void test_register_record_without_its_instruction(void **state)
{
    (void)state;
    const uint8_t region[] = {HEADER_REGS64, 0x87, 0x00, 0x85, 0x01, 0x01};
    expect_error(region, sizeof region,
                 "mem: byte offset 16: record 0x85 between a register record and its "
                 "instruction");
    const uint8_t end[] = {HEADER_REGS64, 0x87, 0x00, 0x8f, 0x00, 0x00, 0x00};
    expect_error(end, sizeof end,
                 "mem: byte offset 16: record 0x8f between a register record and its "
                 "instruction");
    const uint8_t twice[] = {HEADER_REGS64, 0x87, 0x00, 0x87, 0x00, 0x01};
    expect_error(twice, sizeof twice,
                 "mem: byte offset 16: record 0x87 between a register record and its "
                 "instruction");
    const uint8_t after_branch[] = {HEADER_REGS64, 0x82, 0x87, 0x00, 0x01};
    expect_error(after_branch, sizeof after_branch,
                 "mem: byte offset 15: record 0x87 between a branch marker and its "
                 "instruction");
}

/* Thread, CPL and branch records may stand between a register record and
 * its instruction; the values hold for the next register record's deltas. */
static void test_register_record_read(void **state)
{
    (void)state;
    const uint8_t bytes[] = {HEADER_REGS64, 0x87, 0x06, 0x02, 0x7f, 0x83, 0x01, 0x81, 0x01,
                             0x01, /* no register record */
                             0x87, 0x02, 0x01, 0x01, 0x8f, 0x03, 0x00, 0x00};
    FILE *in = fmemopen((void *)bytes, sizeof bytes, "r");
    char error[256];
    struct trace_reader *reader = trace_reader_open(in, "mem", error, sizeof error);
    assert_non_null(reader);
    assert_true(trace_reader_header(reader)->registers);
    struct trace_record record;
    assert_int_equal(trace_read(reader, &record), TRACE_OK);
    assert_int_equal(record.kind, TRACE_RECORD_INSN);
    assert_true(record.insn.has_registers);
    assert_int_equal(record.insn.thread, 1);
    assert_int_equal(record.insn.branch, TRACE_BRANCH_NOT_TAKEN);
    assert_int_equal(record.insn.regs[TRACE_REG_AX], 1);
    assert_int_equal(record.insn.regs[TRACE_REG_CX], (uint64_t)-64);
    assert_int_equal(record.insn.regs[TRACE_REG_FLAGS], 0);
    assert_int_equal(trace_read(reader, &record), TRACE_OK);
    assert_false(record.insn.has_registers);
    assert_int_equal(trace_read(reader, &record), TRACE_OK);
    assert_true(record.insn.has_registers);
    assert_int_equal(record.insn.regs[TRACE_REG_AX], 0);
    assert_int_equal(record.insn.regs[TRACE_REG_CX], (uint64_t)-64);
    assert_int_equal(trace_read(reader, &record), TRACE_OK);
    assert_int_equal(record.kind, TRACE_RECORD_END);
    trace_reader_close(reader);
    fclose(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_varint_above_64_bits),
        cmocka_unit_test(test_header_string_too_long),
        cmocka_unit_test(test_region_number_above_32_bits),
        cmocka_unit_test(test_access_size_above_limit),
        cmocka_unit_test(test_record_between_branch_and_instruction),
        cmocka_unit_test(test_register_mask_beyond_the_isa),
        cmocka_unit_test(test_register_value_above_32_bits),
        cmocka_unit_test(test_register_record_without_the_flag),
        cmocka_unit_test(test_register_record_truncated),
        cmocka_unit_test(test_register_record_without_its_instruction),
        cmocka_unit_test(test_register_record_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
