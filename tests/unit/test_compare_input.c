/* compare's inputs (apps/compare/compare_input.h): each kind of spec, a
 * file's set read in the format its prefix names or its content shows
 * (a set without regions whole), and a program that cannot be measured. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "apps/compare/compare_input.h"

static void test_parse(void **state)
{
    (void)state;
    struct compare_input input;
    compare_input_parse("measure:", &input);
    assert_int_equal(input.kind, COMPARE_INPUT_PERF);
    assert_null(input.path);
    compare_input_parse("lackey:", &input);
    assert_int_equal(input.kind, COMPARE_INPUT_LACKEY);
    assert_null(input.path);
    static const struct {
        const char *spec, *path;
        int format; /* -1: from the content */
    } files[] = {
        {"json:a.json", "a.json", COUNT_FORMAT_JSON},
        {"csv:b", "b", COUNT_FORMAT_PERF_CSV},
        {"p5mon:c", "c", COUNT_FORMAT_P5MON},
        {"-", "-", -1},
        {"measure:x", "measure:x", -1},
        {"p5mon", "p5mon", -1},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        compare_input_parse(files[i].spec, &input);
        assert_int_equal(input.kind, COMPARE_INPUT_FILE);
        assert_string_equal(input.path, files[i].path);
        if (files[i].format < 0)
            assert_null(input.format);
        else
            assert_int_equal(*input.format, files[i].format);
    }
}

/* `spec` read: true, and the set's data_read is `want`. */
static void read_ok(const char *spec, long region, uint64_t want)
{
    struct compare_input input;
    compare_input_parse(spec, &input);
    struct count_set set;
    char error[512];
    int status = -1;
    assert_true(compare_input_read(&input, NULL, region, &set, &status, error, sizeof error));
    assert_int_equal(status, 0);
    const struct count *c = count_set_find(&set, "data_read", -1);
    assert_non_null(c);
    assert_int_equal(c->value, want);
    count_set_free(&set);
}

static void read_fails(const char *spec, char *const *program, long region, const char *want)
{
    struct compare_input input;
    compare_input_parse(spec, &input);
    struct count_set set;
    char error[512];
    int status;
    assert_false(compare_input_read(&input, program, region, &set, &status, error, sizeof error));
    assert_string_equal(error, want);
}

static void test_read_files(void **state)
{
    (void)state;
    char path[] = "/tmp/test_compare_input.XXXXXX", spec[64], want[256];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char json[] = "{\"model\": \"msr\", \"trace\": null, \"runs\": 1, \"counts\": "
                               "{\"data_read\": 5}}\n";
    assert_int_equal(write(fd, json, sizeof json - 1), (ssize_t)(sizeof json - 1));
    close(fd);
    read_ok(path, -1, 5);
    snprintf(spec, sizeof spec, "json:%s", path);
    read_ok(spec, -1, 5);
    snprintf(spec, sizeof spec, "csv:%s", path);
    snprintf(want, sizeof want, "%s: line 1: expected a count, <not supported> or <not counted> "
             "(found '{\"model\": \"msr\"')", path);
    read_fails(spec, NULL, -1, want);
    read_ok(path, 3, 5); /* a set without regions is left whole */
    unlink(path);
}

static void test_measure_fails(void **state)
{
    (void)state;
    char *missing[] = {"/nonexistent/prog", NULL};
    read_fails("measure:", missing, -1,
               "cannot run '/nonexistent/prog': No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_read_files),
        cmocka_unit_test(test_measure_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
