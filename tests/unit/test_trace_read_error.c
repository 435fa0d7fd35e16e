/* A trace whose file fails to read: the reader says "PATH: cannot read:
 * REASON" with the read's errno (a run-time failure, docs/exit-status.md),
 * not a truncated trace; a trace at fault has errno 0. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <cmocka.h>

#include "traces/trace.h"

/* magic, version 1, flags 1 (64-bit), three empty strings: 13 bytes */
static const uint8_t header[] = {'P', 'M', 'U', 'T', 'R', 'A', 'C', 'E', 1, 1, 0, 0, 0};

/* A file of `size` bytes of `bytes` whose read after them fails with EIO. */
struct failing_file {
    const uint8_t *bytes;
    size_t size, at;
};

static ssize_t failing_read(void *cookie, char *buf, size_t size)
{
    struct failing_file *f = cookie;
    if (f->at == f->size) {
        errno = EIO;
        return -1;
    }
    size_t n = f->size - f->at < size ? f->size - f->at : size;
    memcpy(buf, f->bytes + f->at, n);
    f->at += n;
    return (ssize_t)n;
}

static FILE *open_failing(struct failing_file *f)
{
    FILE *in = fopencookie(f, "r", (cookie_io_functions_t){.read = failing_read});
    assert_non_null(in);
    return in;
}

static void test_header_read_fails(void **state)
{
    (void)state;
    struct failing_file f = {header, 5, 0};
    FILE *in = open_failing(&f);
    char error[256];
    errno = 0;
    assert_null(trace_reader_open(in, "mem", error, sizeof error));
    assert_int_equal(errno, EIO);
    assert_string_equal(error, "mem: cannot read: Input/output error");
    fclose(in);
}

static void test_record_read_fails(void **state)
{
    (void)state;
    struct failing_file f = {header, sizeof header, 0};
    FILE *in = open_failing(&f);
    char error[256];
    struct trace_reader *reader = trace_reader_open(in, "mem", error, sizeof error);
    assert_non_null(reader);
    struct trace_record record;
    assert_int_equal(trace_read(reader, &record), TRACE_ERROR);
    assert_string_equal(trace_reader_error(reader), "mem: cannot read: Input/output error");
    assert_int_equal(trace_reader_error_number(reader), EIO);
    trace_reader_close(reader);
    fclose(in);
}

/* The trace's own fault: a file that ends without its END record. */
static void test_truncated_trace_is_the_trace_s_fault(void **state)
{
    (void)state;
    FILE *in = fmemopen((void *)header, sizeof header, "r");
    char error[256];
    struct trace_reader *reader = trace_reader_open(in, "mem", error, sizeof error);
    assert_non_null(reader);
    struct trace_record record;
    assert_int_equal(trace_read(reader, &record), TRACE_ERROR);
    assert_string_equal(trace_reader_error(reader),
                        "mem: byte offset 13: truncated: expected a record (a trace ends with "
                        "an END record)");
    assert_int_equal(trace_reader_error_number(reader), 0);
    trace_reader_close(reader);
    fclose(in);
}

static void test_bad_header_is_the_file_s_fault(void **state)
{
    (void)state;
    const uint8_t bytes[] = {'P', 'M', 'U', 'X'};
    FILE *in = fmemopen((void *)bytes, sizeof bytes, "r");
    char error[256];
    errno = EIO;
    assert_null(trace_reader_open(in, "mem", error, sizeof error));
    assert_int_equal(errno, 0);
    fclose(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_read_fails),
        cmocka_unit_test(test_record_read_fails),
        cmocka_unit_test(test_truncated_trace_is_the_trace_s_fault),
        cmocka_unit_test(test_bad_header_is_the_file_s_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
