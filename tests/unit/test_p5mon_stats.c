/* The confidence intervals of `pmubench p5mon` (apps/p5mon/stats.h): the t
 * values, the textbook interval, and run_p5mon's, which reproduces the
 * intervals printed in Figures 4.4-4.7 of Safford 1997 to the digit. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "apps/p5mon/stats.h"

/* "MEAN +/- HALF (PERCENT%)" as the report prints it. */
static const char *printed(const uint64_t *values, int n, int level,
                           enum p5mon_interval interval)
{
    static char text[128];
    struct p5mon_summary s;
    p5mon_summarize(values, n, level, interval, &s);
    if (s.percent_defined)
        snprintf(text, sizeof text, "%.1f +/- %.1f (%.3f%%)", s.mean, s.half_width, s.percent);
    else
        snprintf(text, sizeof text, "%.1f +/- %.1f (NaN%%)", s.mean, s.half_width);
    return text;
}

static void t_values(void **state)
{
    (void)state;
    assert_float_equal(p5mon_t_value(95, 1), 12.706205, 1e-6);
    assert_float_equal(p5mon_t_value(95, 4), 2.776445, 1e-6);
    assert_float_equal(p5mon_t_value(95, 5), 2.570582, 1e-6);
    assert_float_equal(p5mon_t_value(95, 19), 2.093024, 1e-6);
    assert_float_equal(p5mon_t_value(95, 30), 2.042272, 1e-6);
    assert_float_equal(p5mon_t_value(99, 1), 63.656741, 1e-6);
    assert_float_equal(p5mon_t_value(99, 4), 4.604095, 1e-6);
    assert_float_equal(p5mon_t_value(99, 30), 2.749996, 1e-6);
    /* Beyond the table: the Cornish-Fisher expansion against the exact
     * quantiles (regularized incomplete beta, 1e-9). */
    assert_float_equal(p5mon_t_value(95, 31), 2.039513446, 1e-6);
    assert_float_equal(p5mon_t_value(95, 40), 2.021075390, 1e-6);
    assert_float_equal(p5mon_t_value(95, 100), 1.983971519, 1e-6);
    assert_float_equal(p5mon_t_value(95, 1000), 1.962339081, 1e-6);
    assert_float_equal(p5mon_t_value(99, 31), 2.744041919, 1e-6);
    assert_float_equal(p5mon_t_value(99, 1000), 2.580754698, 1e-6);
}

static void student_one_to_five(void **state)
{
    (void)state;
    static const uint64_t v[] = {1, 2, 3, 4, 5};
    struct p5mon_summary s;
    p5mon_summarize(v, 5, 95, P5MON_INTERVAL_STUDENT, &s);
    /* mean 3, s^2 = 2.5, t(0.975, 4) * sqrt(2.5) / sqrt(5) */
    assert_float_equal(s.mean, 3.0, 1e-12);
    assert_float_equal(s.half_width, 2.776445 * 0.7071067811865476, 1e-6);
    char text[32];
    snprintf(text, sizeof text, "%.3f", s.half_width);
    assert_string_equal(text, "1.963");
    assert_string_equal(printed(v, 5, 95, P5MON_INTERVAL_STUDENT), "3.0 +/- 2.0 (65.441%)");
    assert_string_equal(printed(v, 5, 99, P5MON_INTERVAL_STUDENT), "3.0 +/- 3.3 (108.520%)");
}

static void run_p5mon_one_to_five(void **state)
{
    (void)state;
    static const uint64_t v[] = {1, 2, 3, 4, 5};
    struct p5mon_summary s;
    /* population variance 2, t(0.975, 5) = 2.571: 2.571 * sqrt(2) / sqrt(5) */
    p5mon_summarize(v, 5, 95, P5MON_INTERVAL_RUN_P5MON, &s);
    assert_float_equal(s.half_width, 2.571 * 0.6324555320336759, 1e-9);
    p5mon_summarize(v, 5, 99, P5MON_INTERVAL_RUN_P5MON, &s);
    assert_float_equal(s.half_width, 4.032 * 0.6324555320336759, 1e-9);
}

/* The repetitions Safford 1997 prints with their averages. */
static void safford_figures(void **state)
{
    (void)state;
    static const uint64_t fig44_data_read[] = {201902, 201902, 201902, 201902, 201907};
    static const uint64_t fig44_dtlb[] = {269, 269, 269, 269, 271};
    static const uint64_t fig46_branches[] = {797, 797, 797};
    static const uint64_t fig46_btb0[] = {498, 498, 511};
    static const uint64_t fig46_btb1[] = {2995, 2996, 2988};
    static const uint64_t fig46_btb2[] = {59, 58, 55};
    static const uint64_t fig47_0x3[] = {11113, 11003, 10962, 10975, 10979};
    static const uint64_t fig47_0x4[] = {8856, 8876, 8816, 8850, 8845};
    enum p5mon_interval r = P5MON_INTERVAL_RUN_P5MON;
    assert_string_equal(printed(fig44_data_read, 5, 95, r), "201903.0 +/- 2.3 (0.001%)");
    assert_string_equal(printed(fig44_dtlb, 5, 95, r), "269.4 +/- 0.9 (0.341%)");
    assert_string_equal(printed(fig46_branches, 3, 95, r), "797.0 +/- 0.0 (0.000%)");
    assert_string_equal(printed(fig46_btb0, 3, 95, r), "502.3 +/- 11.3 (2.241%)");
    assert_string_equal(printed(fig46_btb1, 3, 95, r), "2993.0 +/- 6.5 (0.218%)");
    assert_string_equal(printed(fig46_btb2, 3, 95, r), "57.3 +/- 3.1 (5.446%)");
    assert_string_equal(printed(fig47_0x3, 5, 95, r), "11006.4 +/- 63.2 (0.574%)");
    assert_string_equal(printed(fig47_0x4, 5, 95, r), "8848.6 +/- 22.3 (0.252%)");
    /* The textbook interval is wider (t(0.975, 4), sample SD); with the
     * exact t(0.975, 5) run_p5mon would have printed 63.1, 2.242%, 5.447%. */
    assert_string_equal(printed(fig47_0x3, 5, 95, P5MON_INTERVAL_STUDENT),
                        "11006.4 +/- 76.2 (0.693%)");
}

static void degenerate(void **state)
{
    (void)state;
    static const uint64_t one[] = {42};
    static const uint64_t zeros[] = {0, 0, 0};
    static const uint64_t same[] = {7, 7, 7, 7};
    static const uint64_t big[] = {UINT64_C(1) << 40, (UINT64_C(1) << 40) + 2};
    assert_string_equal(printed(one, 1, 95, P5MON_INTERVAL_RUN_P5MON), "42.0 +/- 0.0 (0.000%)");
    assert_string_equal(printed(one, 1, 95, P5MON_INTERVAL_STUDENT), "42.0 +/- 0.0 (0.000%)");
    assert_string_equal(printed(zeros, 3, 95, P5MON_INTERVAL_RUN_P5MON), "0.0 +/- 0.0 (NaN%)");
    assert_string_equal(printed(same, 4, 99, P5MON_INTERVAL_STUDENT), "7.0 +/- 0.0 (0.000%)");
    /* n = 2, df = 2, t = 4.303, population SD 1: 4.303 / sqrt(2) */
    assert_string_equal(printed(big, 2, 95, P5MON_INTERVAL_RUN_P5MON),
                        "1099511627777.0 +/- 3.0 (0.000%)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_values),
        cmocka_unit_test(student_one_to_five),
        cmocka_unit_test(run_p5mon_one_to_five),
        cmocka_unit_test(safford_figures),
        cmocka_unit_test(degenerate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
