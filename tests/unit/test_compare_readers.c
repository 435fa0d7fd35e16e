/* The count set readers of `pmubench compare`: pmubench stat --json, perf
 * stat -x, CSV and run_p5mon output files (docs/compare.md): what each
 * reads, and one exact message per kind of bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "apps/compare/compare.h"
#include "apps/compare/count_set.h"

static char error[512];

static bool read_text(enum count_format format, const char *text, struct count_set *set)
{
    return count_set_read(text, strlen(text), format, "x", set, error, sizeof error);
}

/* The input fails with exactly `message`. */
static void assert_fails(enum count_format format, const char *text, const char *message)
{
    struct count_set set;
    assert_false(read_text(format, text, &set));
    assert_string_equal(error, message);
}

/* The count as compare prints it, exactly: `value`, with `decimals`
 * digits after the point. */
static void assert_count(const struct count_set *set, const char *name, const char *value,
                         int decimals)
{
    const struct count *c = count_set_find(set, name, -1);
    char text[40];
    assert_non_null(c);
    assert_int_equal(c->status, COUNT_COUNTED);
    compare_format_count(c, text, sizeof text);
    assert_string_equal(text, value);
    assert_int_equal(c->decimals, decimals);
}

static void test_json_result(void **state)
{
    (void)state;
    struct count_set set;
    assert_true(read_text(COUNT_FORMAT_JSON,
                          " {\"model\": \"p5\", \"trace\": \"w\\u00e9 \\\"c\\\".t\",\n"
                          "  \"config\": {\"preset\": \"p5\", \"x\": {\"y\": 1}},\n"
                          "  \"counts\": {\"instructions_executed\": 2248201, \"data_read\": 0,"
                          " \"btb_hits\": 18446744073709551615}}\n",
                          &set));
    assert_string_equal(set.source, "pmubench p5, trace w\xc3\xa9 \"c\".t");
    assert_true(set.p5_names);
    assert_int_equal(set.n_counts, 3);
    assert_string_equal(set.counts[0].name, "instructions_executed");
    assert_count(&set, "instructions_executed", "2248201", 0);
    assert_count(&set, "data_read", "0", 0);
    assert_count(&set, "btb_hits", "18446744073709551615", 0);
    count_set_free(&set);
}

static void test_json_without_trace(void **state)
{
    (void)state;
    struct count_set set;
    assert_true(read_text(COUNT_FORMAT_JSON, "{\"counts\": {}, \"model\": \"netburst\"}", &set));
    assert_string_equal(set.source, "pmubench netburst");
    assert_false(set.p5_names);
    assert_int_equal(set.n_counts, 0);
    count_set_free(&set);
}

/* `pmubench stat --backend msr --json`: counted on hardware, "trace": null. */
static void test_json_hardware(void **state)
{
    (void)state;
    struct count_set set;
    assert_true(read_text(COUNT_FORMAT_JSON,
                          "{\"model\": \"msr\", \"trace\": null, \"runs\": 1, \"counts\": "
                          "{\"data_read\": 5}}\n",
                          &set));
    assert_string_equal(set.source, "pmubench msr");
    assert_null(set.trace);
    assert_count(&set, "data_read", "5", 0);
    count_set_free(&set);
}

static void test_json_errors(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"{\"model\": \"msr\", \"trace\": nul, \"counts\": {}}",
         "x: byte offset 26: expected a string or null"},
        {"{\"model\": \"msr\", \"trace\": null, \"trace\": null, \"counts\": {}}",
         "x: byte offset 32: duplicate key 'trace'"},
        {"", "x: byte offset 0: expected '{'"},
        {"[1]", "x: byte offset 0: expected '{'"},
        {"{\"model\" \"p5\"}", "x: byte offset 9: expected ':'"},
        {"{model: 1}", "x: byte offset 1: expected a string"},
        {"{\"model\": \"p5\" \"counts\": {}}", "x: byte offset 15: expected ',' or '}'"},
        {"{\"model\": \"p5\", \"counts\": {\"data_read\": -1}}",
         "x: byte offset 40: expected a count (a non-negative integer)"},
        {"{\"model\": \"p5\", \"counts\": {\"data_read\": 1.5}}",
         "x: byte offset 41: expected a count (a non-negative integer), not a fraction"},
        {"{\"model\": \"p5\", \"counts\": {\"data_read\": 18446744073709551616}}",
         "x: byte offset 40: count above 18446744073709551615"},
        {"{\"model\": \"p5\", \"counts\": {\"data_read\": 012}}",
         "x: byte offset 41: expected a count without leading zeros"},
        {"{\"model\": \"p5\", \"counts\": {\"data_read\": 1, \"DATA_READ\": 2}}",
         "x: byte offset 43: duplicate count 'DATA_READ'"},
        {"{\"model\": \"p5\", \"model\": \"p5\", \"counts\": {}}",
         "x: byte offset 16: duplicate key 'model'"},
        {"{\"model\": \"p5\", \"x\": true, \"counts\": {}}",
         "x: byte offset 21: expected a value (an object, an array, a string or a non-negative integer)"},
        {"{\"model\": \"p5\"}",
         "x: byte offset 15: expected \"model\" and \"counts\" members (pmubench stat --json)"},
        {"{\"model\": \"p5\", \"counts\": {}} x",
         "x: byte offset 30: expected the end of the input after the object"},
        {"{\"model\": \"p\\x5\", \"counts\": {}}",
         "x: byte offset 13: expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)"},
        {"{\"model\": \"\\u12\", \"counts\": {}}",
         "x: byte offset 13: expected four hexadecimal digits after \\u"},
        {"{\"model\": \"\\ud800\", \"counts\": {}}",
         "x: byte offset 17: unsupported \\ud800 (NUL or a UTF-16 surrogate)"},
        {"{\"model\": \"a\nb\", \"counts\": {}}",
         "x: byte offset 12: expected '\"' (a control character in a string)"},
        {"{\"model\": \"p5", "x: byte offset 13: expected '\"' (the string is not closed)"},
        {"{\"model\": \"p5\", \"counts\": {}", "x: byte offset 28: expected ',' or '}'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_fails(COUNT_FORMAT_JSON, cases[i][0], cases[i][1]);
}

static void test_json_depth(void **state)
{
    (void)state;
    char text[256] = "{\"model\": \"p5\", \"counts\": {}, \"deep\": ";
    for (int i = 0; i < 17; i++)
        strcat(text, "{\"a\": ");
    assert_fails(COUNT_FORMAT_JSON, text, "x: byte offset 128: objects or arrays nested deeper than 16");
}

static void test_perf_csv(void **state)
{
    (void)state;
    struct count_set set;
    assert_true(read_text(COUNT_FORMAT_PERF_CSV,
                          "# started on Sun Nov 22 02:05:54 2026\n"
                          "\n"
                          "4946042,,instructions:u,1234567,100.00,,\r\n"
                          "<not supported>,,branches:u,0,100.00,,\n"
                          "<not counted>,,L1-dcache-loads,0,0.00,,\n"
                          "0.51,msec,task-clock,510557,100.00,0.513,CPUs utilized\n"
                          "1000,,cpu_core/cycles:u/,1,100.00,,\n"
                          "<not counted>,,cpu_atom/cycles:u/,0,0.00,,\n"
                          "<not counted>,,cpu_atom/stores/,0,0.00,,\n"
                          "7,,cpu_core/stores/,1,100.00,,\n"
                          "5,,cpu_atom/stores/,1,100.00,,",
                          &set));
    assert_string_equal(set.source, "perf stat");
    assert_false(set.p5_names);
    assert_int_equal(set.n_counts, 6);
    assert_count(&set, "instructions:u", "4946042", 0);
    assert_count(&set, "task-clock", "0.51", 2);
    assert_count(&set, "cycles:u", "1000", 0);
    assert_count(&set, "stores", "12", 0);
    const struct count *branches = count_set_find(&set, "branches:u", -1);
    assert_int_equal(branches->status, COUNT_NOT_SUPPORTED);
    assert_string_equal(branches->reason, "perf stat: <not supported>");
    const struct count *loads = count_set_find(&set, "L1-dcache-loads", -1);
    assert_int_equal(loads->status, COUNT_NOT_COUNTED);
    assert_string_equal(loads->reason, "perf stat: <not counted>");
    count_set_free(&set);
}

static void test_perf_csv_errors(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"# c\n12,,\n", "x: line 2: expected an event name in the third field"},
        {"12,instructions\n", "x: line 1: expected VALUE,UNIT,EVENT,... (perf stat -x, output)"},
        {"1,,a\n12a,,instructions\n",
         "x: line 2: expected a count, <not supported> or <not counted> (found '12a')"},
        {"-5,,instructions\n",
         "x: line 1: expected a count, <not supported> or <not counted> (found '-5')"},
        {"1.,,instructions\n",
         "x: line 1: expected a count, <not supported> or <not counted> (found '1.')"},
        /* Counts of 2^64 or more: the JSON reader's message. */
        {"123456789012345678901,,instructions\n",
         "x: line 1: count above 18446744073709551615"},
        {"18446744073709551616,,instructions\n", "x: line 1: count above 18446744073709551615"},
        {"18446744073709551616.5,,instructions\n",
         "x: line 1: count above 18446744073709551615"},
        {"18446744073709551615.99999999999,,instructions\n",
         "x: line 1: count above 18446744073709551615"},
        {"18446744073709551615,,cpu_core/cycles/\n1,,cpu_atom/cycles/\n",
         "x: line 2: count above 18446744073709551615 (the core types' sum)"},
        {"1,,branches\n2,,branches\n", "x: line 2: event 'branches' again (once per event)"},
        {"# only a comment\n", "x: no counts (expected perf stat -x, output)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_fails(COUNT_FORMAT_PERF_CSV, cases[i][0], cases[i][1]);
    struct count_set set;
    static const char with_nul[] = "1,,a\n2,\0,b\n";
    assert_false(count_set_read(with_nul, sizeof with_nul - 1, COUNT_FORMAT_PERF_CSV, "x", &set,
                                error, sizeof error));
    assert_string_equal(error, "x: line 2: expected text (found a NUL byte)");
}

/* Counts are integers and stay exact to 2^64 - 1 (a double would print
 * 9007199254740993 as ...992); a fraction keeps its digits,
 * more than 9 of them rounded to 9. */
static void test_exact_counts(void **state)
{
    (void)state;
    struct count_set set;
    assert_true(read_text(COUNT_FORMAT_PERF_CSV,
                          "9007199254740993,,a\n"
                          "18446744073709551615,,b\n"
                          "18446744073709551614.5,,c\n"
                          "0.1234567894,,d\n"
                          "0.1234567895,,e\n"
                          "0.9999999999,,f\n"
                          "9007199254740993,,cpu_core/g/\n"
                          "9007199254740993,,cpu_atom/g/\n"
                          "0.75,,cpu_core/h/\n"
                          "1.5,,cpu_atom/h/\n",
                          &set));
    assert_count(&set, "a", "9007199254740993", 0);
    assert_count(&set, "b", "18446744073709551615", 0);
    assert_count(&set, "c", "18446744073709551614.5", 1);
    assert_count(&set, "d", "0.123456789", 9);
    assert_count(&set, "e", "0.123456790", 9);
    assert_count(&set, "f", "1.000000000", 9);
    assert_count(&set, "g", "18014398509481986", 0);
    assert_count(&set, "h", "2.25", 2);
    count_set_free(&set);
    assert_true(read_text(COUNT_FORMAT_JSON,
                          "{\"model\": \"p5\", \"counts\": {\"a\": 9007199254740993}}", &set));
    assert_count(&set, "a", "9007199254740993", 0);
    count_set_free(&set);
    assert_true(read_text(COUNT_FORMAT_P5MON,
                          "# run_p5mon results file\n0x3 -1 9007199254740993.5 1.0 0.0\n", &set));
    assert_count(&set, "data_read_miss", "9007199254740993.5", 1);
    count_set_free(&set);
}

/* 100,000 events: each line's look-up is a probe of the hash index, not a
 * scan of the lines before it (a scan is quadratic: over 20 s). */
static void test_perf_csv_linear(void **state)
{
    (void)state;
    enum { N = 100000 };
    char *text = malloc((size_t)N * 32);
    assert_non_null(text);
    size_t used = 0;
    for (int i = 0; i < N; i++)
        used += (size_t)sprintf(text + used, "%d,,event%d,1,100.00,,\n", 3 * i, i);
    struct count_set set;
    assert_true(count_set_read(text, used, COUNT_FORMAT_PERF_CSV, "x", &set, error,
                               sizeof error));
    free(text);
    assert_int_equal(set.n_counts, N);
    assert_int_equal(set.index.n_used, N);
    assert_true(set.index.probes < 4 * (size_t)N);
    assert_count(&set, "event99999", "299997", 0);
    count_set_free(&set);
}

/* Safford 1997, Figure 4.7: every repetition and the summaries. */
static void test_p5mon_figure_4_7(void **state)
{
    (void)state;
    struct count_set set;
    assert_true(read_text(COUNT_FORMAT_P5MON,
                          "# run_p5mon results file\n"
                          "# Results (5 repetitions, 95% confidence level):\n"
                          "# Event Repetition Value [conf.int] [percentage]\n"
                          "0x3 0          11113\n"
                          "0x3 1          11003\n"
                          "0x3 -1         11006.4 63.2 0.574\n"
                          "0x4 0\t8856\n"
                          "0x4 -1\t8848.6 22.3 0.252\n"
                          "\v\n" /* white space alone is a blank line (found by fuzz_count_set) */
                          "clocks -1\t100.0 0.0 0.000\n",
                          &set));
    assert_string_equal(set.source, "run_p5mon, 5 repetitions, 95% confidence level");
    assert_true(set.p5_names);
    assert_int_equal(set.n_counts, 3);
    assert_count(&set, "data_read_miss", "11006.4", 1);
    assert_count(&set, "data_write_miss", "8848.6", 1);
    assert_count(&set, "count_clocks", "100.0", 1);
    const struct count *miss = count_set_find(&set, "data_read_miss", -1);
    assert_true(miss->has_interval);
    assert_true(miss->interval == 63.2);
    assert_int_equal(miss->interval_decimals, 1);
    count_set_free(&set);
}

/* Safford 1997, Figure 4.9 (abridged): two regions, NaN for a mean of 0. */
static const char figure_4_9[] =
    "# run_p5mon results file\n"
    "# Results (for 2 regions, 5 repetitions, 95% confidence level):\n"
    "# Region Event Repetition Value [conf.int] [percentage]\n"
    "# Region 0: entered 1 exited 1\n"
    "0 0x3 0          5\n"
    "0 0x3 -1        5.0 0.0 0.000 5.0\n"
    "0 0x4 -1        6.0 0.0 0.000 6.0\n"
    "# Region 1: entered 1 exited 1\n"
    "1 0x3 -1        0.0 0.0 NaN 0.0\n"
    "1 0x4 4          2\n"
    "1 0x4 -1        2.0 0.0 0.000 2.0\n";

static void test_p5mon_regions(void **state)
{
    (void)state;
    struct count_set set;
    assert_true(read_text(COUNT_FORMAT_P5MON, figure_4_9, &set));
    assert_int_equal(set.n_counts, 4);
    assert_non_null(count_set_find(&set, "data_read_miss", 1));
    assert_null(count_set_find(&set, "data_read_miss", -1));
    assert_false(count_set_keep_region(&set, -1, "f", error, sizeof error));
    assert_string_equal(error, "f: has 2 regions (0, 1): choose one with --region N");
    assert_false(count_set_keep_region(&set, 7, "f", error, sizeof error));
    assert_string_equal(error, "f: no region 7 (regions: 0, 1)");
    count_set_free(&set);

    assert_true(read_text(COUNT_FORMAT_P5MON, figure_4_9, &set));
    assert_true(count_set_keep_region(&set, 1, "f", error, sizeof error));
    assert_int_equal(set.n_counts, 2);
    assert_count(&set, "data_read_miss", "0.0", 1);
    assert_count(&set, "data_write_miss", "2.0", 1);
    count_set_free(&set);
}

static void test_keep_region_without_regions(void **state)
{
    (void)state;
    struct count_set set;
    assert_true(read_text(COUNT_FORMAT_PERF_CSV, "1,,a\n2,,b\n", &set));
    assert_true(count_set_keep_region(&set, 3, "f", error, sizeof error));
    assert_int_equal(set.n_counts, 2);
    count_set_free(&set);
}

static void test_p5mon_errors(void **state)
{
    (void)state;
    static const char head[] = "# run_p5mon results file\n";
    static const char *const cases[][2] = {
        {"0x3 -1 1.0 0.0 0.0\n", "x: line 1: expected '# run_p5mon results file'"},
        {"0x3 -1\n",
         "x: line 2: expected EVENT REPETITION VALUE [CONF.INT PERCENTAGE] (run_p5mon output)"},
        {"0x3 -1 1.0 0.0\n",
         "x: line 2: expected EVENT REPETITION VALUE [CONF.INT PERCENTAGE] (run_p5mon output)"},
        {"0x3 0 5 6\n",
         "x: line 2: expected EVENT REPETITION VALUE [CONF.INT PERCENTAGE] (run_p5mon output)"},
        {"3 0x3 -1 1.0 0.0 0.0\n",
         "x: line 2: expected REGION EVENT REPETITION VALUE [CONF.INT PERCENTAGE PER_ENTRY] "
         "(run_p5mon output with regions)"},
        {"100 0x3 0 5\n",
         "x: line 2: bad region '100' (expected a number: decimal or 0x hex, 0 to 99)"},
        {"07 0x3 0 5\n",
         "x: line 2: bad region '07' (expected a number: decimal or 0x hex, 0 to 99)"},
        {"0 0x3 0 5\n0x3 0 5\n",
         "x: line 3: expected REGION EVENT REPETITION VALUE [CONF.INT PERCENTAGE PER_ENTRY] "
         "(run_p5mon output with regions)"},
        {"0 0x3 0 5\n0x3 0 5 6\n",
         "x: line 3: expected REGION EVENT REPETITION VALUE [CONF.INT PERCENTAGE PER_ENTRY] "
         "(run_p5mon output with regions)"},
        {"0x3 0 5\n0 0x3 0 5\n", "x: line 3: expected an event code such as 0x3 or clocks (found '0')"},
        {"0x10 0 5\n", "x: line 2: event code 0x10 is not a P5 event"},
        {"0x1000000000 0 5\n", "x: line 2: event code 0x1000000000 is not a P5 event"},
        {"0x3 -2 5\n", "x: line 2: bad repetition '-2' (expected -1, the summary, or a number: "
                       "decimal or 0x hex, 0 to 2147483647)"},
        {"0x3 +1 5\n", "x: line 2: bad repetition '+1' (expected -1, the summary, or a number: "
                       "decimal or 0x hex, 0 to 2147483647)"},
        {"0x3 0 5.5\n",
         "x: line 2: bad count '5.5' (expected a number: decimal or 0x hex, 0 to "
         "18446744073709551615)"},
        {"0x3 0 05\n",
         "x: line 2: bad count '05' (expected a number: decimal or 0x hex, 0 to "
         "18446744073709551615)"},
        {"0x3 -1 x 1.0 0.1\n", "x: line 2: expected the mean (a number), found 'x'"},
        {"0x3 -1 18446744073709551616.0 1.0 0.1\n",
         "x: line 2: count above 18446744073709551615"},
        {"0x3 -1 1.0 NaN 0.1\n",
         "x: line 2: expected the confidence interval (a number), found 'NaN'"},
        {"0x3 -1 1.0 1.0 -1\n",
         "x: line 2: expected the percentage (a number or NaN), found '-1'"},
        {"0 0x3 -1 1.0 1.0 1.0 z\n",
         "x: line 2: expected the mean per entry (a number or NaN), found 'z'"},
        {"0x3 -1 1.0 0.0 0.0\n0x3 -1 2.0 0.0 0.0\n",
         "x: line 3: a second summary of event 0x3"},
        {"0x3 0 5\n", "x: no summary lines (repetition -1)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "%s%s", i == 0 ? "" : head, cases[i][0]);
        assert_fails(COUNT_FORMAT_P5MON, text, cases[i][1]);
    }
    assert_fails(COUNT_FORMAT_P5MON, "", "x: line 1: expected '# run_p5mon results file'");
}

static void test_detect(void **state)
{
    (void)state;
    static const char json[] = " \n{\"model\": \"p5\"}";
    static const char p5mon[] = "# run_p5mon results file\n0x3 -1 1.0 0.0 0.0\n";
    static const char csv[] = "# started on Sun Nov 22 02:05:54 2026\n1,,a\n";
    assert_int_equal(count_format_detect(json, strlen(json)), COUNT_FORMAT_JSON);
    assert_int_equal(count_format_detect(p5mon, strlen(p5mon)), COUNT_FORMAT_P5MON);
    assert_int_equal(count_format_detect(csv, strlen(csv)), COUNT_FORMAT_PERF_CSV);
    assert_int_equal(count_format_detect("", 0), COUNT_FORMAT_PERF_CSV);
    assert_int_equal(count_format_detect("# run_p5mon", 11), COUNT_FORMAT_PERF_CSV);
}

static void test_read_file(void **state)
{
    (void)state;
    struct count_set set;
    assert_true(count_set_read_file("tests/compare/fig4_8.p5mon", NULL, &set, error,
                                    sizeof error));
    assert_count(&set, "data_read_miss", "11800.4", 1);
    count_set_free(&set);
    enum count_format csv = COUNT_FORMAT_PERF_CSV;
    assert_false(count_set_read_file("tests/compare/fig4_8.p5mon", &csv, &set, error,
                                     sizeof error));
    assert_string_equal(error, "tests/compare/fig4_8.p5mon: line 4: expected VALUE,UNIT,EVENT,... "
                               "(perf stat -x, output)");
    assert_false(count_set_read_file("tests/compare/none", NULL, &set, error, sizeof error));
    assert_string_equal(error, "tests/compare/none: cannot open: No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_result),
        cmocka_unit_test(test_json_without_trace),
        cmocka_unit_test(test_json_hardware),
        cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_json_depth),
        cmocka_unit_test(test_perf_csv),
        cmocka_unit_test(test_perf_csv_errors),
        cmocka_unit_test(test_exact_counts),
        cmocka_unit_test(test_perf_csv_linear),
        cmocka_unit_test(test_p5mon_figure_4_7),
        cmocka_unit_test(test_p5mon_regions),
        cmocka_unit_test(test_keep_region_without_regions),
        cmocka_unit_test(test_p5mon_errors),
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_read_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
