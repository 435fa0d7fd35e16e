/* The intervals of a `pmubench stat -I N --json` result, read by the one
 * reader of stat's JSON (apps/compare/intervals.h, docs/plot.md): exact
 * values, compare's count set unchanged by them, and one exact message per
 * kind of bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "apps/compare/intervals.h"

static char error[512];

#define HEAD "{\"model\": \"netburst\", \"counts\": {\"a\": 5, \"b\": 7}, "

static const char result[] =
    HEAD "\"interval\": {\"unit\": \"cycles\", \"every\": 1000}, \"intervals\": [\n"
         "{\"end\": 1000, \"instructions\": 400, \"cycles\": 1000, \"uops\": 700, "
         "\"counts\": {\"a\": 2, \"b\": 3}},\n"
         "{\"end\": 1300, \"instructions\": 90, \"cycles\": 300, \"uops\": 120, "
         "\"counts\": {\"B\": 4, \"a\": 3}, \"note\": [1, {\"x\": []}]}]}\n";

static void test_series(void **state)
{
    (void)state;
    struct count_set set;
    struct interval_series s;
    assert_true(stat_result_read_json(result, strlen(result), "x", &set, &s, error,
                                      sizeof error));
    assert_true(s.present);
    assert_true(s.in_cycles);
    assert_int_equal(s.every, 1000);
    assert_true(s.has_uops);
    assert_int_equal(s.n_events, 2);
    assert_string_equal(s.events[0], "a");
    assert_string_equal(s.events[1], "b");
    assert_int_equal(s.n_intervals, 2);
    const struct interval want[] = {{1000, 400, 1000, 700}, {1300, 90, 300, 120}};
    assert_memory_equal(s.intervals, want, sizeof want);
    const uint64_t counts[] = {2, 3, 3, 4};
    assert_memory_equal(s.counts, counts, sizeof counts);
    assert_int_equal(set.n_counts, 2);
    assert_int_equal(set.counts[1].value, 7);
    interval_series_free(&s);
    count_set_free(&set);
}

/* compare's reader takes the same result and sees its totals only; a
 * result without intervals has none. */
static void test_compare_reads_it(void **state)
{
    (void)state;
    struct count_set set;
    assert_true(count_set_read_json(result, strlen(result), "x", &set, error, sizeof error));
    assert_string_equal(set.source, "pmubench netburst");
    assert_int_equal(set.n_counts, 2);
    assert_int_equal(set.counts[0].value, 5);
    count_set_free(&set);
    struct interval_series s;
    static const char plain[] = "{\"model\": \"p5\", \"counts\": {\"a\": 1}}";
    assert_true(stat_result_read_json(plain, strlen(plain), "x", &set, &s, error, sizeof error));
    assert_false(s.present);
    assert_int_equal(s.n_intervals, 0);
    interval_series_free(&s);
    count_set_free(&set);
}

/* An empty trace: no intervals, every total 0; instructions without uops. */
static void test_empty_and_no_uops(void **state)
{
    (void)state;
    struct count_set set;
    struct interval_series s;
    static const char empty[] = "{\"model\": \"p5\", \"counts\": {\"a\": 0}, \"interval\": "
                                "{\"every\": 5, \"unit\": \"instructions\"}, \"intervals\": []}";
    assert_true(stat_result_read_json(empty, strlen(empty), "x", &set, &s, error, sizeof error));
    assert_true(s.present);
    assert_false(s.in_cycles);
    assert_false(s.has_uops);
    assert_int_equal(s.n_intervals, 0);
    interval_series_free(&s);
    count_set_free(&set);
}

static void assert_fails(const char *text, const char *message)
{
    struct count_set set;
    struct interval_series s;
    assert_false(stat_result_read_json(text, strlen(text), "x", &set, &s, error, sizeof error));
    assert_string_equal(error, message);
    assert_false(count_set_read_json(text, strlen(text), "x", &set, error, sizeof error));
    assert_string_equal(error, message);
}

#define SPEC "\"interval\": {\"unit\": \"instructions\", \"every\": 10}, "
#define ONE(end, a, b) \
    "{\"end\": " #end ", \"instructions\": 1, \"cycles\": 1, \"counts\": {\"a\": " #a \
    ", \"b\": " #b "}}"

static void test_errors(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {HEAD "\"interval\": {\"unit\": \"uops\", \"every\": 10}, \"intervals\": []}",
         "x: byte offset 71: expected \"instructions\" or \"cycles\""},
        {HEAD "\"interval\": {\"unit\": \"cycles\", \"every\": 0}, \"intervals\": []}",
         "x: byte offset 90: expected an interval of 1 or more"},
        {HEAD "\"interval\": {\"unit\": \"cycles\"}, \"intervals\": []}",
         "x: byte offset 80: expected \"unit\" and \"every\" members in \"interval\""},
        {HEAD "\"interval\": {\"every\": 1, \"every\": 2}, \"intervals\": []}",
         "x: byte offset 75: duplicate key 'every'"},
        {HEAD SPEC "\"intervals\": [" ONE(10, 2, 3) "]}",
         "x: byte offset 101: the intervals' counts of 'a' sum to 2, not to its total 5"},
        {HEAD SPEC "\"intervals\": [" ONE(10, 2, 3) ", " ONE(10, 3, 4) "]}",
         "x: byte offset 196: expected an \"end\" above the previous interval's (10)"},
        {HEAD SPEC "\"intervals\": [" ONE(10, 2, 3) " " ONE(20, 3, 4) "]}",
         "x: byte offset 187: expected ',' or ']'"},
        {HEAD SPEC "\"intervals\": [" ONE(10, 2, 3) ", {\"end\": 20, \"instructions\": 1, "
         "\"cycles\": 1, \"counts\": {\"a\": 3, \"c\": 4}}]}",
         "x: byte offset 251: count 'c' is not in the first interval"},
        {HEAD SPEC "\"intervals\": [" ONE(10, 2, 3) ", {\"end\": 20, \"instructions\": 1, "
         "\"cycles\": 1, \"counts\": {\"a\": 3}}]}",
         "x: byte offset 250: expected a count of 'b' in the interval (as in the first)"},
        {HEAD SPEC "\"intervals\": [{\"end\": 20, \"instructions\": 1, \"cycles\": 1, "
         "\"counts\": {\"a\": 3, \"A\": 4}}]}",
         "x: byte offset 178: duplicate count 'A'"},
        {HEAD SPEC "\"intervals\": [{\"end\": 20, \"cycles\": 1, \"counts\": {\"a\": 5, \"b\": 7}}]}",
         "x: byte offset 167: expected \"end\", \"instructions\", \"cycles\" and \"counts\" in an "
         "interval"},
        {HEAD SPEC "\"intervals\": [" ONE(10, 2, 3) ", {\"end\": 20, \"instructions\": 1, "
         "\"cycles\": 1, \"uops\": 1, \"counts\": {\"a\": 3, \"b\": 4}}]}",
         "x: byte offset 270: expected \"uops\" in every interval or in none"},
        {HEAD SPEC "\"intervals\": [{\"end\": 20, \"instructions\": 1, \"cycles\": 1, "
         "\"counts\": {\"a\": 5, \"b\": 7, \"c\": 0}}]}",
         "x: byte offset 101: count 'c' of the intervals is not in \"counts\""},
        {HEAD SPEC "\"intervals\": [{\"end\": 20, \"instructions\": 1, \"cycles\": 1, "
         "\"counts\": {\"a\": 5}}]}",
         "x: byte offset 101: expected a count of 'b' in the intervals"},
        {HEAD SPEC "\"intervals\": [" ONE(10, 5, 7) ", " ONE(20, 18446744073709551615, 0) "]}",
         "x: byte offset 101: the intervals' counts of 'a' sum to more than "
         "18446744073709551615, not to its total 5"},
        {HEAD SPEC "\"intervals\": {}}", "x: byte offset 114: expected '['"},
        {HEAD SPEC "\"intervals\": [1]}", "x: byte offset 115: expected '{'"},
        {HEAD SPEC "\"intervals\": [], \"intervals\": []}",
         "x: byte offset 118: duplicate key 'intervals'"},
        {HEAD SPEC "\"x\": 1}", "x: byte offset 108: expected \"interval\" and \"intervals\" together"},
        {HEAD "\"intervals\": []}", "x: byte offset 66: expected \"interval\" and \"intervals\" together"},
        {HEAD "\"x\": [1 2]}", "x: byte offset 58: expected ',' or ']'"},
        {HEAD "\"x\": [1,]}", "x: byte offset 58: expected a value (an object, an array, a string "
                              "or a non-negative integer)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_fails(cases[i][0], cases[i][1]);
}

/* Arrays count towards the nesting limit as objects do. */
static void test_array_depth(void **state)
{
    (void)state;
    char text[256] = HEAD "\"deep\": ";
    for (int i = 0; i < 17; i++)
        strcat(text, "[");
    assert_fails(text, "x: byte offset 73: objects or arrays nested deeper than 16");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_series),
        cmocka_unit_test(test_compare_reads_it),
        cmocka_unit_test(test_empty_and_no_uops),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_array_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
