/* The line reader of the text inputs (util/line_stream.h): lines whole
 * up to the cap, in memory bounded by it, and a failed read an error. */
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

#include "util/line_stream.h"

static char error[256];

static FILE *text_stream(const char *text, size_t size)
{
    FILE *in = fmemopen((void *)text, size, "r");
    assert_non_null(in);
    return in;
}

static void expect_line(struct line_stream *lines, const char *want, unsigned long number)
{
    assert_int_equal(line_stream_next(lines, error, sizeof error), LINE_READ);
    assert_string_equal(lines->text, want);
    assert_int_equal(lines->length, strlen(want));
    assert_int_equal(lines->line, number);
}

/* Lines without their '\n' (a '\r' is the parsers' to skip), empty ones
 * too, and a last line without a line break. */
static void test_lines(void **state)
{
    (void)state;
    static const char text[] = "first\n\nthird\r\nlast";
    FILE *in = text_stream(text, sizeof text - 1);
    struct line_stream lines;
    line_stream_init(&lines, in, "t.txt", 10);
    expect_line(&lines, "first", 1);
    expect_line(&lines, "", 2);
    expect_line(&lines, "third\r", 3);
    expect_line(&lines, "last", 4);
    assert_int_equal(line_stream_next(&lines, error, sizeof error), LINE_END);
    assert_int_equal(lines.line, 4);
    assert_int_equal(line_stream_next(&lines, error, sizeof error), LINE_END);
    line_stream_free(&lines);
    fclose(in);
}

/* Lines across the reader's 64 KiB chunks come whole: 700 lines of 99
 * characters, each naming its number, over 70,000 bytes. */
static void test_lines_across_chunks(void **state)
{
    (void)state;
    static char text[700 * 100 + 1];
    for (int i = 0; i < 700; i++)
        snprintf(text + 100 * i, 101, "%-99d\n", i + 1);
    FILE *in = text_stream(text, 700 * 100);
    struct line_stream lines;
    line_stream_init(&lines, in, "t.txt", 99);
    for (unsigned long i = 1; i <= 700; i++) {
        char want[100];
        snprintf(want, sizeof want, "%-99lu", i);
        expect_line(&lines, want, i);
    }
    assert_int_equal(line_stream_next(&lines, error, sizeof error), LINE_END);
    line_stream_free(&lines);
    fclose(in);
}

/* A line of the cap is read; one character more is refused on its line,
 * and the buffer never holds more than the cap and a NUL. */
static void test_cap(void **state)
{
    (void)state;
    char text[3000];
    memset(text, 'a', sizeof text);
    text[1000] = '\n';
    FILE *in = text_stream(text, sizeof text);
    struct line_stream lines;
    line_stream_init(&lines, in, "t.txt", 1000);
    assert_int_equal(line_stream_next(&lines, error, sizeof error), LINE_READ);
    assert_int_equal(lines.length, 1000);
    errno = 0;
    assert_int_equal(line_stream_next(&lines, error, sizeof error), LINE_BAD);
    assert_string_equal(error, "t.txt:2: expected a line of at most 1000 characters");
    assert_int_equal(errno, EINVAL);
    assert_true(lines.capacity <= 1001);
    line_stream_free(&lines);
    fclose(in);
}

/* An endless stream of 'a' and no line break. */
static ssize_t endless_read(void *cookie, char *buffer, size_t size)
{
    (void)cookie;
    memset(buffer, 'a', size);
    return (ssize_t)size;
}

/* A line that never ends is refused at the cap, not read to its end. */
static void test_endless_line(void **state)
{
    (void)state;
    FILE *in = fopencookie(NULL, "r", (cookie_io_functions_t){.read = endless_read});
    assert_non_null(in);
    struct line_stream lines;
    line_stream_init(&lines, in, "t.txt", 100000);
    assert_int_equal(line_stream_next(&lines, error, sizeof error), LINE_BAD);
    assert_string_equal(error, "t.txt:1: expected a line of at most 100000 characters");
    assert_int_equal(lines.capacity, 100001);
    line_stream_free(&lines);
    fclose(in);
}

static void test_nul_byte(void **state)
{
    (void)state;
    static const char text[] = "ok\nn\0l\n";
    FILE *in = text_stream(text, sizeof text - 1);
    struct line_stream lines;
    line_stream_init(&lines, in, "t.txt", 10);
    expect_line(&lines, "ok", 1);
    assert_int_equal(line_stream_next(&lines, error, sizeof error), LINE_BAD);
    assert_string_equal(error, "t.txt:2: unexpected NUL byte");
    line_stream_free(&lines);
    fclose(in);
}

/* A stream that gives its text and then fails with EIO. */
struct failing {
    const char *text;
    size_t left;
};

static ssize_t failing_read(void *cookie, char *buffer, size_t size)
{
    struct failing *f = cookie;
    if (f->left == 0) {
        errno = EIO;
        return -1;
    }
    size_t n = size < f->left ? size : f->left;
    memcpy(buffer, f->text, n);
    f->text += n;
    f->left -= n;
    return (ssize_t)n;
}

/* A read that fails ends the input with an error, never as its end: the
 * lines before it are read, the one it cuts is not returned. */
static void test_read_error(void **state)
{
    (void)state;
    struct failing f = {"line\nlin", 8};
    FILE *in = fopencookie(&f, "r", (cookie_io_functions_t){.read = failing_read});
    assert_non_null(in);
    struct line_stream lines;
    line_stream_init(&lines, in, "t.txt", 100);
    expect_line(&lines, "line", 1);
    errno = 0;
    assert_int_equal(line_stream_next(&lines, error, sizeof error), LINE_FAILED);
    assert_string_equal(error, "t.txt: cannot read: Input/output error");
    assert_int_equal(errno, EIO);
    line_stream_free(&lines);
    fclose(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_lines_across_chunks),
        cmocka_unit_test(test_cap),
        cmocka_unit_test(test_endless_line),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_read_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
