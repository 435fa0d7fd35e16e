/* The one-line errors of util/error_line.h: the message alone, after
 * "PATH:LINE: ", "PATH: " or "PATH: byte offset N: ", cut to the buffer,
 * and errno set only when a number is given. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "util/error_line.h"

static void message_alone(void **state)
{
    (void)state;
    char error[64];
    errno = 0;
    assert_false(error_line(0, error, sizeof error, "bad %s", "word"));
    assert_string_equal(error, "bad word");
    assert_int_equal(errno, 0);
}

static void after_path_and_line(void **state)
{
    (void)state;
    char error[64];
    errno = 0;
    assert_false(error_at_line(EINVAL, error, sizeof error, "a.pmu", 12, "bad %d", 7));
    assert_string_equal(error, "a.pmu:12: bad 7");
    assert_int_equal(errno, EINVAL);
    assert_false(error_at_line(0, error, sizeof error, "P", 0, "none"));
    assert_string_equal(error, "P:0: none");
}

static bool in_file(char *error, size_t size, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    error_at_vfile(0, error, size, "s.sweep", format, ap);
    va_end(ap);
    return false;
}

static void after_path(void **state)
{
    (void)state;
    char error[64];
    in_file(error, sizeof error, "no %s", "trace");
    assert_string_equal(error, "s.sweep: no trace");
}

static void after_byte_offset(void **state)
{
    (void)state;
    char error[64];
    assert_false(error_at_offset(0, error, sizeof error, "t.trace", 4096ULL, "bad tag %u", 9u));
    assert_string_equal(error, "t.trace: byte offset 4096: bad tag 9");
}

static void cut_to_the_buffer(void **state)
{
    (void)state;
    char error[8];
    error_at_line(0, error, sizeof error, "a.pmu", 12, "bad");
    assert_string_equal(error, "a.pmu:1");
    char small[4];
    error_at_line(0, small, sizeof small, "a.pmu", 12, "bad");
    assert_string_equal(small, "a.p");
    char untouched[2] = "x";
    error_at_line(0, untouched, 0, "a.pmu", 12, "bad");
    assert_string_equal(untouched, "x");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(message_alone),     cmocka_unit_test(after_path_and_line),
        cmocka_unit_test(after_path),        cmocka_unit_test(after_byte_offset),
        cmocka_unit_test(cut_to_the_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
