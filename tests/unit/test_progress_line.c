/* The progress line of record and stat (cli/progress.h, docs/stat.md
 * "Progress"): its text, and when it is written, on a fake clock. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/progress.h"

static double fake_now;

static double fake_clock(void)
{
    return fake_now;
}

static void test_format(void **state)
{
    (void)state;
    char line[160];
    struct progress_point one = {12345678, 0, 0, 0};
    cli_progress_format(line, sizeof line, "record", &one, 2.0, 0);
    assert_string_equal(line, "record: 12.3M instructions, 6.2M/s");
    struct progress_point passes = {45000000, 370, 2, 3};
    cli_progress_format(line, sizeof line, "stat", &passes, 1.0, 1000);
    assert_string_equal(line, "stat: 45.0M instructions, 45.0M/s, 37% of the trace, pass 2 of 3");
    /* The bytes read ahead of the last instruction: never past 100%. */
    struct progress_point ahead = {1000000, 2000, 0, 0};
    cli_progress_format(line, sizeof line, "stat", &ahead, 0.5, 1000);
    assert_string_equal(line, "stat: 1.0M instructions, 2.0M/s, 100% of the trace");
    /* A trace whose size is not known (a pipe) has no share. */
    cli_progress_format(line, sizeof line, "stat", &ahead, 0.5, 0);
    assert_string_equal(line, "stat: 1.0M instructions, 2.0M/s");
}

/* The text written to `out` since the last call. */
static const char *written(FILE *out, char *buffer, size_t size, long *from)
{
    fflush(out);
    long end = ftell(out);
    fseek(out, *from, SEEK_SET);
    size_t want = (size_t)(end - *from);
    size_t n = fread(buffer, 1, want < size ? want : size - 1, out);
    buffer[n] = '\0';
    *from = end;
    return buffer;
}

static void test_throttle(void **state)
{
    (void)state;
    FILE *out = tmpfile();
    assert_non_null(out);
    char text[512];
    long from = 0;
    struct cli_progress p;
    fake_now = 100.0;
    cli_progress_init(&p, "stat", out, fake_clock, 1.0, 0);
    const struct progress_hook *hook = cli_progress_hook(&p);
    assert_non_null(hook);
    struct progress_point point = {1000000, 0, 0, 0};
    /* Within the first second: nothing. */
    fake_now = 100.5;
    hook->report(hook->context, &point);
    assert_string_equal(written(out, text, sizeof text, &from), "");
    fake_now = 101.0;
    point.instructions = 12000000;
    hook->report(hook->context, &point);
    assert_string_equal(written(out, text, sizeof text, &from),
                        "\rstat: 12.0M instructions, 12.0M/s");
    /* At most one line every PROGRESS_LINE_EVERY seconds. */
    fake_now = 101.0 + PROGRESS_LINE_EVERY / 2;
    hook->report(hook->context, &point);
    assert_string_equal(written(out, text, sizeof text, &from), "");
    /* A shorter line covers what is left of the longer one. */
    fake_now = 101.0 + PROGRESS_LINE_EVERY;
    point.instructions = 1250000;
    hook->report(hook->context, &point);
    assert_string_equal(written(out, text, sizeof text, &from),
                        "\rstat: 1.2M instructions, 1.0M/s  ");
    /* The end clears the line and goes back to its start. */
    cli_progress_end(&p);
    size_t shown = strlen("stat: 1.2M instructions, 1.0M/s"); /* the last line's */
    char want[64];
    snprintf(want, sizeof want, "\r%*s\r", (int)shown, "");
    assert_string_equal(written(out, text, sizeof text, &from), want);
    cli_progress_end(&p); /* once */
    assert_string_equal(written(out, text, sizeof text, &from), "");
    fclose(out);
}

/* Without a terminal: no hook, so the run pays nothing; the end writes
 * nothing. */
static void test_no_terminal(void **state)
{
    (void)state;
    struct cli_progress p;
    cli_progress_init(&p, "record", NULL, fake_clock, 0.0, 0);
    assert_null(cli_progress_hook(&p));
    cli_progress_end(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_throttle),
        cmocka_unit_test(test_no_terminal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
