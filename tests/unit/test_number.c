/* number_read() and number_parse(): the one rule for numbers a user
 * writes (README, "Numbers"; util/number.h), with and without a message. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>

#include "util/number.h"

static void accepts(const char *text, uint64_t min, uint64_t max, uint64_t want)
{
    uint64_t value = 12345;
    char error[256] = "";
    assert_true(number_read("n", text, min, max, &value, error, sizeof error));
    assert_int_equal(value, want);
    assert_string_equal(error, "");
    value = 12345;
    assert_true(number_parse(text, min, max, &value));
    assert_int_equal(value, want);
}

static void rejects(const char *text, uint64_t min, uint64_t max)
{
    uint64_t value = 12345;
    char error[256], want[256];
    assert_false(number_read("--period", text, min, max, &value, error, sizeof error));
    assert_int_equal(value, 12345); /* untouched */
    snprintf(want, sizeof want,
             "bad --period '%s' (expected a number: decimal or 0x hex, %llu to %llu)", text,
             (unsigned long long)min, (unsigned long long)max);
    assert_string_equal(error, want);
    assert_false(number_parse(text, min, max, &value));
    assert_int_equal(value, 12345); /* untouched */
}

static void test_decimal_and_hex(void **state)
{
    (void)state;
    accepts("0", 0, 10, 0);
    accepts("7", 0, 10, 7);
    accepts("10", 0, 10, 10);
    accepts("0x10", 0, 100, 16);
    accepts("0X1f", 0, 100, 31);
    accepts("0xAbC", 0, 0xffff, 0xabc);
    accepts("0x010", 0, 100, 16);  /* leading zeros after 0x: still hex */
    accepts("0x0", 0, 1, 0);
    accepts("18446744073709551615", 0, UINT64_MAX, UINT64_MAX);
    accepts("0xffffffffffffffff", 0, UINT64_MAX, UINT64_MAX);
    accepts("549755813888", 1, 1ull << 39, 1ull << 39);
}

static void test_refused(void **state)
{
    (void)state;
    /* octal-looking, signs, white space, empty, junk */
    rejects("010", 0, 100);
    rejects("08", 0, 100);
    rejects("00", 0, 100);
    rejects("+5", 0, 100);
    rejects("-1", 0, 100);
    rejects(" 5", 0, 100);
    rejects("5 ", 0, 100);
    rejects("", 0, 100);
    rejects("0x", 0, 100);
    rejects("5x", 0, 100);
    rejects("0x1g", 0, 100);
    rejects("1e3", 0, 10000);
    rejects("1.0", 0, 100);
    /* the caller's range, and 64-bit overflow */
    rejects("0", 1, 100);
    rejects("101", 1, 100);
    rejects("0x65", 1, 100);
    rejects("18446744073709551616", 0, UINT64_MAX);
    rejects("0x10000000000000000", 0, UINT64_MAX);
    rejects("99999999999999999999999", 0, UINT64_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decimal_and_hex),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
