/* The SVG bar chart (charts/bar_chart.h): the axis' round steps, the
 * escaping of text, the lines a long label is written in, and the document
 * of a known data set, element by element (bar lengths, values, the absent
 * text, legend, title, the notes' column). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts/bar_chart.h"
#include "charts/svg.h"

/* What `write` wrote to a memory stream, NUL-terminated (free it). */
static char *written_text(const char *text)
{
    char *buffer = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buffer, &size);
    assert_non_null(f);
    svg_write_text(f, text);
    assert_int_equal(fclose(f), 0);
    return buffer;
}

static char *written_chart(const struct bar_chart *chart, bool *ok)
{
    char *buffer = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buffer, &size);
    assert_non_null(f);
    *ok = bar_chart_write(f, chart);
    assert_int_equal(fclose(f), 0);
    return buffer;
}

static double distance(double a, double b)
{
    return a > b ? a - b : b - a;
}

static void check_axis(double max, double want_max, double want_step)
{
    double axis_max, step;
    svg_axis(max, &axis_max, &step);
    assert_true(distance(axis_max, want_max) < 1e-9 * want_max);
    assert_true(distance(step, want_step) < 1e-9 * want_step);
}

static void test_axis_round_steps(void **state)
{
    (void)state;
    check_axis(100, 100, 20);
    check_axis(101, 150, 50);
    check_axis(7, 8, 2);
    check_axis(441127, 500000, 100000);
    check_axis(1234567, 1500000, 500000);
    check_axis(0.3, 0.3, 0.1);
    check_axis(1, 1, 0.2);
    check_axis(0, 1, 0.2);
}

static void test_text_escaped(void **state)
{
    (void)state;
    char *text = written_text("a<b&c\"d'e>f");
    assert_string_equal(text, "a&lt;b&amp;c&quot;d&apos;e&gt;f");
    free(text);
    text = written_text("x\ty\xff");
    assert_string_equal(text, "x\\x09y\\xff");
    free(text);
}

static const char *const series[] = {"simulated", "measured"};

/* Three events: 100 and 50, 25 and absent ("not counted"), 0 and 75. */
static const struct bar_value values[] = {
    {true, 100, 1, NULL}, {true, 50, 1, NULL}, {true, 25, 1, NULL},
    {false, 0, 0, "not counted"}, {true, 0, 1, NULL}, {true, 75, 1, NULL},
};

static void test_known_chart(void **state)
{
    (void)state;
    const char *const labels[] = {"cycles", "a<b & \"c\"",
                                  "a_label_much_longer_than_thirty_six_characters"};
    struct bar_chart chart = {.title = "sim.json & hw.csv", .axis_label = "count",
                              .n_series = 2, .series = series, .n_groups = 3, .labels = labels,
                              .values = values};
    bool ok;
    char *svg = written_chart(&chart, &ok);
    assert_true(ok);
    /* 64 + 3 groups of 2 * 14 + 10, then the axis' room */
    assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"880\" "
                                "height=\"226\" viewBox=\"0 0 880 226\""));
    assert_non_null(strstr(svg, "<title>sim.json &amp; hw.csv</title>"));
    /* the bars: 480 px is the axis' end, 100 */
    assert_non_null(strstr(svg, "<rect x=\"270\" y=\"69\" width=\"480.00\" height=\"12\" "
                                "fill=\"#4e79a7\"><title>simulated 100.0</title></rect>"
                                "<text x=\"754.00\" y=\"79\" font-size=\"10\">100.0</text>"));
    assert_non_null(strstr(svg, "<rect x=\"270\" y=\"83\" width=\"240.00\" height=\"12\" "
                                "fill=\"#f28e2b\"><title>measured 50.0</title></rect>"));
    assert_non_null(strstr(svg, "<rect x=\"270\" y=\"107\" width=\"120.00\" height=\"12\""));
    assert_non_null(strstr(svg, "<text x=\"274.00\" y=\"131\" font-size=\"10\">"
                                "not counted</text>"));
    assert_non_null(strstr(svg, "width=\"0.00\" height=\"12\" fill=\"#4e79a7\">"
                                "<title>simulated 0.0</title>"));
    assert_non_null(strstr(svg, "width=\"360.00\" height=\"12\" fill=\"#f28e2b\">"
                                "<title>measured 75.0</title>"));
    /* labels escaped; a long one whole in two lines of at most 36
     * characters, broken after an underscore, centred on its group's
     * middle (64 + 2 * 38 + 19 = 159) */
    assert_non_null(strstr(svg, ">a&lt;b &amp; &quot;c&quot;</text>"));
    assert_non_null(strstr(svg, "<text x=\"264\" y=\"156\" text-anchor=\"end\" "
                                "font-family=\"monospace\"><tspan x=\"264\" y=\"156\">"
                                "a_label_much_longer_than_thirty_six_</tspan><tspan x=\"264\" "
                                "y=\"170\">characters</tspan></text>"));
    assert_null(strstr(svg, "..."));
    /* ticks 0, 20, ... 100; legend; nothing unescaped */
    assert_non_null(strstr(svg, "text-anchor=\"middle\">0</text>"));
    assert_non_null(strstr(svg, "text-anchor=\"middle\">20</text>"));
    assert_non_null(strstr(svg, "text-anchor=\"middle\">100</text>"));
    assert_null(strstr(svg, "text-anchor=\"middle\">120</text>"));
    assert_non_null(strstr(svg, "fill=\"#f28e2b\"/><text x=\"436\" y=\"44\">measured</text>"));
    assert_null(strstr(svg, "a<b"));
    size_t n = strlen(svg);
    assert_true(n > 7 && strcmp(svg + n - 7, "</svg>\n") == 0);
    free(svg);
}

/* Where a text breaks: after the last separator of parts (':') that leaves
 * the line more than half full, else of words ('_'), else at the limit;
 * "\xNN" counts 4. */
static void test_line_breaks(void **state)
{
    (void)state;
    assert_int_equal(svg_line_count("", 10), 1);
    assert_int_equal(svg_line_count("0123456789", 10), 1);
    assert_int_equal(svg_line_count("0123456789a", 10), 2);
    assert_int_equal(svg_line_count("anything at all", 0), 1);
    char *buffer = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buffer, &size);
    assert_non_null(f);
    svg_write_lines(f, 5, 20, "", "BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_MISS", 24);
    svg_write_lines(f, 5, 20, "", "ab:cdefghijklmn", 10);  /* ':' too early: cut at 10 */
    svg_write_lines(f, 5, 20, "", "a:bcde_fghijk", 10);    /* '_' after ':' too early */
    svg_write_lines(f, 5, 20, "", "abcdefg\x01", 10);      /* 7 + 4 > 10 */
    assert_int_equal(fclose(f), 0);
    assert_string_equal(buffer,
                        "<text x=\"5\" y=\"20\"><tspan x=\"5\" y=\"20\">BSQ_cache_reference:"
                        "</tspan><tspan x=\"5\" y=\"34\">RD_2ndL_HITS:</tspan><tspan x=\"5\" "
                        "y=\"48\">RD_2ndL_MISS</tspan>"
                        "</text>"
                        "<text x=\"5\" y=\"20\"><tspan x=\"5\" y=\"20\">ab:cdefghi</tspan>"
                        "<tspan x=\"5\" y=\"34\">jklmn</tspan></text>"
                        "<text x=\"5\" y=\"20\"><tspan x=\"5\" y=\"20\">a:bcde_</tspan>"
                        "<tspan x=\"5\" y=\"34\">fghijk</tspan></text>"
                        "<text x=\"5\" y=\"20\"><tspan x=\"5\" y=\"20\">abcdefg</tspan>"
                        "<tspan x=\"5\" y=\"34\">\\x01</tspan></text>");
    free(buffer);
}

/* A label of three lines makes its group taller than its bars (3 * 14 +
 * 10 = 52), the lines and the bars centred on its middle (64 + 26); the
 * notes' heading and each group's note at the right edge. */
static void test_tall_label_and_notes(void **state)
{
    (void)state;
    const char *const labels[] = {"global_power_events:RUNNING,BSQ_cache_reference:RD_2ndL_MISS,"
                                  "x87_assist:FPSU"};
    const char *const notes[] = {"-12.50%"};
    const struct bar_value two[] = {{true, 100, 0, NULL}, {true, 50, 0, NULL}};
    struct bar_chart chart = {.title = "t", .axis_label = "count", .n_series = 2,
                              .series = series, .n_groups = 1, .labels = labels, .values = two,
                              .notes_heading = "difference %", .notes = notes};
    bool ok;
    char *svg = written_chart(&chart, &ok);
    assert_true(ok);
    assert_non_null(strstr(svg, "height=\"164\" viewBox=\"0 0 880 164\""));
    assert_non_null(strstr(svg, "<tspan x=\"264\" y=\"80\">global_power_events:RUNNING,</tspan>"
                                "<tspan x=\"264\" y=\"94\">BSQ_cache_reference:RD_2ndL_MISS,"
                                "</tspan><tspan x=\"264\" y=\"108\">x87_assist:FPSU</tspan>"));
    /* bars: (52 - 28) / 2 = 12 under the group's top */
    assert_non_null(strstr(svg, "<rect x=\"270\" y=\"76\" width=\"480.00\""));
    assert_non_null(strstr(svg, "<rect x=\"270\" y=\"90\" width=\"240.00\""));
    assert_non_null(strstr(svg, "<text x=\"872\" y=\"44\" text-anchor=\"end\">difference %</text>"));
    assert_non_null(strstr(svg, "<text x=\"872\" y=\"94\" text-anchor=\"end\">-12.50%</text>"));
    free(svg);
}

static void test_empty_and_bad(void **state)
{
    (void)state;
    struct bar_chart chart = {.title = "t", .axis_label = "samples", .n_series = 1,
                              .series = series, .n_groups = 0};
    bool ok;
    char *svg = written_chart(&chart, &ok);
    assert_true(ok);
    assert_non_null(strstr(svg, ">no data</text>"));
    free(svg);
    const char *const labels[] = {"x"};
    const struct bar_value negative[] = {{true, -1, 0, NULL}};
    chart.n_groups = 1;
    chart.labels = labels;
    chart.values = negative;
    svg = written_chart(&chart, &ok);
    assert_false(ok);
    assert_string_equal(svg, "");
    free(svg);
    chart.n_series = 0;
    svg = written_chart(&chart, &ok);
    assert_false(ok);
    free(svg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axis_round_steps),
        cmocka_unit_test(test_text_escaped),
        cmocka_unit_test(test_known_chart),
        cmocka_unit_test(test_line_breaks),
        cmocka_unit_test(test_tall_label_and_notes),
        cmocka_unit_test(test_empty_and_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
