/* The SVG line chart (charts/line_chart.h): the steps of a known series in
 * pixels, exactly; panels stacked with their own y axes; labels escaped;
 * what it refuses. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts/line_chart.h"
#include "charts/svg.h"

static char *written_chart(const struct line_chart *chart, bool *ok)
{
    char *buffer = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buffer, &size);
    assert_non_null(f);
    *ok = line_chart_write(f, chart);
    assert_int_equal(fclose(f), 0);
    return buffer;
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("missing: %s", part);
}

/* Two intervals, ending at 1000 and 2500 (the last one short). */
static const double ends[] = {1000, 2500};
static const double reads[] = {100, 50};
static const double writes[] = {30, 0};
static const double ipc[] = {0.4, 1.25};

static void test_steps_in_pixels(void **state)
{
    (void)state;
    const struct line_series series[] = {{"data_read", reads}, {"data_write", writes}};
    const struct line_panel panel = {"count per interval", 2, series};
    const struct line_chart chart = {"counts", "instructions", 2, ends, 1, &panel};
    bool ok;
    char *svg = written_chart(&chart, &ok);
    assert_true(ok);
    /* One panel: 40 + 22 + 140 plot, 48 under it. */
    assert_contains(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"880\" height=\"250\" ");
    /* x: 0 to 2500 over 720 pixels from 110; y: 0 to 100 over 140 pixels up
     * from 202.  Each value is a step over its interval. */
    assert_contains(svg, "<polyline fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"1.5\" "
                         "points=\"110.00,62.00 398.00,62.00 398.00,132.00 830.00,132.00\">"
                         "<title>data_read</title></polyline>\n");
    assert_contains(svg, "<polyline fill=\"none\" stroke=\"#f28e2b\" stroke-width=\"1.5\" "
                         "points=\"110.00,160.00 398.00,160.00 398.00,202.00 830.00,202.00\">");
    /* Round ticks: x every 500, y every 20. */
    assert_contains(svg, "<text x=\"254.00\" y=\"218\" text-anchor=\"middle\">500</text>");
    assert_contains(svg, "<text x=\"830.00\" y=\"218\" text-anchor=\"middle\">2500</text>");
    assert_contains(svg, "<text x=\"104\" y=\"178.00\" text-anchor=\"end\">20</text>");
    assert_contains(svg, "<text x=\"104\" y=\"66.00\" text-anchor=\"end\">100</text>");
    assert_null(strstr(svg, ">120</text>"));
    /* The legend (two series: half the width each), the axes' labels. */
    assert_contains(svg, "<rect x=\"470\" y=\"40\" width=\"12\" height=\"12\" fill=\"#f28e2b\"/>"
                         "<text x=\"486\" y=\"50\">data_write</text>");
    assert_contains(svg, "<text x=\"18\" y=\"132\" transform=\"rotate(-90 18 132)\" "
                         "text-anchor=\"middle\">count per interval</text>");
    assert_contains(svg, "<text x=\"470\" y=\"238\" text-anchor=\"middle\">instructions</text>\n"
                         "</svg>\n");
    free(svg);
}

/* A second panel lies LINE_CHART_PANEL_HEIGHT lower, has its own y axis
 * (0 to 1.5 in steps of 0.5) and the chart's next colour. */
static void test_panels_stacked(void **state)
{
    (void)state;
    const struct line_series reads_series = {"data_read", reads};
    const struct line_series ipc_series = {"ipc", ipc};
    const struct line_panel panels[] = {{"count", 1, &reads_series}, {"per cycle", 1, &ipc_series}};
    const struct line_chart chart = {"two", "cycles", 2, ends, 2, panels};
    bool ok;
    char *svg = written_chart(&chart, &ok);
    assert_true(ok);
    assert_contains(svg, "width=\"880\" height=\"442\" ");
    assert_contains(svg, "<rect x=\"110\" y=\"232\" width=\"12\" height=\"12\" fill=\"#f28e2b\"/>");
    /* 0.4 of 1.5 and 1.25 of 1.5 over 140 pixels up from 394. */
    assert_contains(svg, "points=\"110.00,356.67 398.00,356.67 398.00,277.33 830.00,277.33\">"
                         "<title>ipc</title>");
    assert_contains(svg, "<text x=\"104\" y=\"258.00\" text-anchor=\"end\">1.5</text>");
    assert_contains(svg, "<text x=\"110.00\" y=\"410\" text-anchor=\"middle\">0</text>");
    free(svg);
}

/* A series name longer than its share of the legend row ((720 - 24) / 7 =
 * 99 characters for one series) is written whole in lines broken between
 * its parts; the panel, and the panels under it, move down a line each. */
static void test_long_name_wrapped(void **state)
{
    (void)state;
    const char *name = "BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_HITE:RD_2ndL_HITM:RD_2ndL_MISS:"
                       "RD_3rdL_HITS:RD_3rdL_HITE:RD_3rdL_HITM:RD_3rdL_MISS";
    const struct line_series long_series = {name, reads}, ipc_series = {"ipc", ipc};
    const struct line_panel panels[] = {{"count", 1, &long_series}, {"per cycle", 1, &ipc_series}};
    const struct line_chart chart = {"two", "cycles", 2, ends, 2, panels};
    bool ok;
    char *svg = written_chart(&chart, &ok);
    assert_true(ok);
    assert_contains(svg, "<text x=\"126\" y=\"50\"><tspan x=\"126\" y=\"50\">"
                         "BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_HITE:RD_2ndL_HITM:RD_2ndL_MISS:"
                         "RD_3rdL_HITS:RD_3rdL_HITE:</tspan><tspan x=\"126\" y=\"64\">"
                         "RD_3rdL_HITM:RD_3rdL_MISS</tspan></text>");
    assert_null(strstr(svg, "..."));
    /* 14 pixels lower than in test_panels_stacked: the first plot area from
     * 76, the second panel's legend at 246 */
    assert_contains(svg, "width=\"880\" height=\"456\" ");
    assert_contains(svg, "points=\"110.00,76.00 398.00,76.00 398.00,146.00 830.00,146.00\">");
    assert_contains(svg, "<rect x=\"110\" y=\"246\" width=\"12\" height=\"12\" fill=\"#f28e2b\"/>");
    free(svg);
}

static void test_labels_escaped(void **state)
{
    (void)state;
    const struct line_series series = {"a<b>&\"c'\x01", reads};
    const struct line_panel panel = {"y&", 1, &series};
    const struct line_chart chart = {"t<i>tle", "x>", 2, ends, 1, &panel};
    bool ok;
    char *svg = written_chart(&chart, &ok);
    assert_true(ok);
    assert_contains(svg, "<title>t&lt;i&gt;tle</title>");
    assert_contains(svg, "<text x=\"126\" y=\"50\">a&lt;b&gt;&amp;&quot;c&apos;\\x01</text>");
    assert_contains(svg, "<title>a&lt;b&gt;&amp;&quot;c&apos;\\x01</title></polyline>");
    assert_contains(svg, "text-anchor=\"middle\">y&amp;</text>");
    assert_contains(svg, "text-anchor=\"middle\">x&gt;</text>");
    assert_null(strchr(svg, '\x01'));
    free(svg);
}

static void test_no_data(void **state)
{
    (void)state;
    const struct line_series series = {"data_read", NULL};
    const struct line_panel panel = {"count", 1, &series};
    const struct line_chart chart = {"empty", "instructions", 0, NULL, 1, &panel};
    bool ok;
    char *svg = written_chart(&chart, &ok);
    assert_true(ok);
    assert_contains(svg, "<text x=\"118\" y=\"132\">no data</text>");
    assert_contains(svg, "points=\"\">");
    free(svg);
}

static void test_refused(void **state)
{
    (void)state;
    static const double back[] = {1000, 1000};
    static const double negative[] = {1, -1};
    const struct line_series good = {"s", reads}, bad = {"s", negative};
    const struct line_panel panel = {"y", 1, &good}, bad_panel = {"y", 1, &bad},
                            empty_panel = {"y", 0, NULL};
    const struct line_chart charts[] = {
        {"x not increasing", "x", 2, back, 1, &panel},
        {"negative value", "x", 2, ends, 1, &bad_panel},
        {"a panel without series", "x", 2, ends, 1, &empty_panel},
        {"no panel", "x", 2, ends, 0, NULL},
    };
    for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
        bool ok;
        char *svg = written_chart(&charts[i], &ok);
        assert_false(ok);
        assert_string_equal(svg, "");
        free(svg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_in_pixels),
        cmocka_unit_test(test_panels_stacked),
        cmocka_unit_test(test_long_name_wrapped),
        cmocka_unit_test(test_labels_escaped),
        cmocka_unit_test(test_no_data),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
