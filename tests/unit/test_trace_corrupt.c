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

static void test_record_between_branch_and_instruction(void **state)
{
    (void)state;
    const uint8_t bytes[] = {HEADER, 0x82, 0x85, 0x01};
    char error[256];
    assert_string_equal(first_error(bytes, sizeof bytes, error, sizeof error),
                        "mem: byte offset 15: record 0x85 between a branch marker and its "
                        "instruction");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_varint_above_64_bits),
        cmocka_unit_test(test_header_string_too_long),
        cmocka_unit_test(test_region_number_above_32_bits),
        cmocka_unit_test(test_record_between_branch_and_instruction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
