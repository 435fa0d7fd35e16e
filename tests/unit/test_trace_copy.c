/* trace_copy (traces/trace_copy.h): a version-1 trace copied into a writer
 * is, byte for byte, the current version's trace of the same import; a
 * version-2 trace copies to its own bytes; a truncated trace is a read
 * failure with the reader's message, a writer that cannot write a write
 * failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "traces/import.h"
#include "traces/trace.h"
#include "traces/trace_copy.h"

/* tests/traces/small_v1.trace: `trace import --lackey` of small.lackey by
 * pmubench 0.11.0, the last to write version 1. */
static const uint8_t small_v1[] = {
  0x50, 0x4d, 0x55, 0x54, 0x52, 0x41, 0x43, 0x45, 0x01, 0x01, 0x00, 0x00,
  0x1e, 0x70, 0x6d, 0x75, 0x62, 0x65, 0x6e, 0x63, 0x68, 0x20, 0x74, 0x72,
  0x61, 0x63, 0x65, 0x20, 0x69, 0x6d, 0x70, 0x6f, 0x72, 0x74, 0x20, 0x2d,
  0x2d, 0x6c, 0x61, 0x63, 0x6b, 0x65, 0x79, 0x12, 0xe0, 0xd3, 0x80, 0x04,
  0x03, 0x21, 0x01, 0x21, 0xc0, 0x99, 0x80, 0xf0, 0xff, 0x07, 0x03, 0x04,
  0x21, 0x01, 0x22, 0x0f, 0x36, 0x1a, 0x01, 0x22, 0x1f, 0x32, 0x9e, 0x4a,
  0x01, 0x13, 0x8f, 0xdc, 0x9c, 0xeb, 0xff, 0x07, 0x23, 0x02, 0x21, 0x10,
  0x41, 0x10, 0x12, 0xe9, 0x4a, 0x8f, 0x0a, 0x00, 0x00
};

/* tests/traces/small.lackey's instructions and accesses. */
static const char small_lackey[] = "I  004014f0,2\nI  004014f2,3\nI  004014f5,1\n L 1fff000660,8\n"
                                   "I  004014f6,3\nI  004014f9,4\nI  004014fd,1\n S 1fff000658,8\n"
                                   "I  0040150b,6\n S 1fff000648,8\nI  004027a0,2\n M 004c6f40,4\n"
                                   "I  004027a2,3\n L 004c6f48,8\n L 004c6f50,16\nI  004014f0,2\n";

static char error[512];

/* The trace in `in` (`size` bytes) copied into `out` (`out_size`); the
 * status, the bytes written in *written, a read failure's message in
 * `error`. */
static enum trace_copy_status copy_bytes(const void *in, size_t size, char *out, size_t out_size,
                                         size_t *written)
{
    FILE *from = fmemopen((void *)in, size, "r");
    FILE *to = fmemopen(out, out_size, "w");
    assert_non_null(from);
    assert_non_null(to);
    struct trace_reader *r = trace_reader_open(from, "in.trace", error, sizeof error);
    assert_non_null(r);
    struct trace_writer *w = trace_writer_open(to, trace_reader_header(r), error, sizeof error);
    assert_non_null(w);
    enum trace_copy_status copied = trace_copy(r, w);
    if (copied == TRACE_COPY_READ_FAILED)
        snprintf(error, sizeof error, "%s", trace_reader_error(r));
    bool closed = trace_writer_close(w); /* false without an END record */
    if (copied == TRACE_COPIED)
        assert_true(closed);
    *written = (size_t)ftell(to);
    fclose(to);
    trace_reader_close(r);
    fclose(from);
    return copied;
}

/* small_lackey imported into `out`; its size. */
static size_t import_small(char *out, size_t size)
{
    FILE *in = fmemopen((void *)small_lackey, strlen(small_lackey), "r");
    FILE *to = fmemopen(out, size, "w");
    assert_non_null(in);
    assert_non_null(to);
    struct trace_header header;
    trace_import_header(&header, TRACE_IMPORT_LACKEY);
    struct trace_writer *w = trace_writer_open(to, &header, error, sizeof error);
    assert_non_null(w);
    assert_true(trace_import_lackey(in, "small.lackey", w, error, sizeof error));
    assert_true(trace_writer_close(w));
    size_t written = (size_t)ftell(to);
    fclose(to);
    fclose(in);
    return written;
}

static void test_version_1_becomes_the_current_version(void **state)
{
    (void)state;
    static char imported[4096], converted[4096], again[4096];
    size_t n_imported = import_small(imported, sizeof imported);
    size_t n_converted, n_again;
    assert_int_equal(copy_bytes(small_v1, sizeof small_v1, converted, sizeof converted,
                                &n_converted),
                     TRACE_COPIED);
    assert_int_equal(n_converted, n_imported);
    assert_memory_equal(converted, imported, n_imported);
    assert_int_equal(copy_bytes(converted, n_converted, again, sizeof again, &n_again),
                     TRACE_COPIED);
    assert_int_equal(n_again, n_converted);
    assert_memory_equal(again, converted, n_converted);
}

static void test_truncated_trace_is_a_read_failure(void **state)
{
    (void)state;
    static char imported[4096], converted[4096];
    size_t n_imported = import_small(imported, sizeof imported);
    size_t written;
    assert_int_equal(copy_bytes(imported, n_imported - 3, converted, sizeof converted, &written),
                     TRACE_COPY_READ_FAILED);
    assert_non_null(strstr(error, "in.trace"));
}

static bool refuse(void *context, const uint8_t *bytes, size_t n)
{
    (void)context;
    (void)bytes;
    (void)n;
    return false;
}

static void test_failing_writer_is_a_write_failure(void **state)
{
    (void)state;
    FILE *from = fmemopen((void *)small_v1, sizeof small_v1, "r");
    assert_non_null(from);
    struct trace_reader *r = trace_reader_open(from, "in.trace", error, sizeof error);
    assert_non_null(r);
    struct trace_writer *w = trace_writer_create(trace_reader_header(r), refuse, NULL);
    assert_non_null(w);
    assert_int_equal(trace_copy(r, w), TRACE_COPY_WRITE_FAILED);
    assert_false(trace_writer_close(w));
    trace_reader_close(r);
    fclose(from);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_1_becomes_the_current_version),
        cmocka_unit_test(test_truncated_trace_is_a_read_failure),
        cmocka_unit_test(test_failing_writer_is_a_write_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
