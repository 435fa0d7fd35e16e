/* The SVG bar chart of report/bar_chart.h.  Layout, in pixels: the labels
 * right-aligned in a column LABEL_COLUMN wide, the bars from x =
 * LABEL_COLUMN over BAR_CHART_PLOT_WIDTH, room for the values after them;
 * title, legend, then the groups from PLOT_TOP down, the axis under them. */
#include "bar_chart.h"

#include <stdint.h>

enum {
    LABEL_COLUMN = 270,
    LABEL_CHARS = 36,          /* a longer label is cut, ending "..." */
    PLOT_TOP = 64,
    GROUP_GAP = 10,
    AXIS_ROOM = 48,
    MAX_TICK_STEPS = 5,
};

static const char *const series_colours[BAR_CHART_MAX_SERIES] = {"#4e79a7", "#f28e2b", "#59a14f",
                                                                  "#e15759"};

/* ceil(max / step) for max >= 0, without libm. */
static uint64_t steps_to_cover(double max, double step)
{
    uint64_t n = (uint64_t)(max / step);
    while ((double)n * step < max)
        n++;
    return n;
}

void bar_chart_axis(double max, double *axis_max, double *step)
{
    if (!(max > 0)) {
        *axis_max = 1;
        *step = 0.2;
        return;
    }
    double power = 1;
    while (max / power > 10)
        power *= 10;
    while (max / power < 1)
        power /= 10;
    static const double multiples[] = {0.1, 0.2, 0.5, 1, 2, 5, 10};
    for (size_t i = 0; i < sizeof multiples / sizeof multiples[0]; i++) {
        *step = multiples[i] * power;
        uint64_t n = steps_to_cover(max, *step);
        if (n <= MAX_TICK_STEPS) {
            *axis_max = (double)n * *step;
            return;
        }
    }
}

/* The digits after the point that show multiples of `step` exactly. */
static int step_decimals(double step)
{
    int decimals = 0;
    for (double s = step; s < 0.999999 && decimals < 9; s *= 10)
        decimals++;
    return decimals;
}

/* One byte of text as XML character data; the characters it shows
 * (byte_width). */
static int write_byte(FILE *out, unsigned char c)
{
    switch (c) {
    case '<': fputs("&lt;", out); return 1;
    case '>': fputs("&gt;", out); return 1;
    case '&': fputs("&amp;", out); return 1;
    case '"': fputs("&quot;", out); return 1;
    case '\'': fputs("&apos;", out); return 1;
    default: break;
    }
    if (c < 0x20 || c > 0x7e) {
        fprintf(out, "\\x%02x", c);
        return 4;
    }
    fputc(c, out);
    return 1;
}

static int byte_width(unsigned char c)
{
    return c < 0x20 || c > 0x7e ? 4 : 1;
}

/* `text`, at most `limit` characters shown (0: no limit), cut ones ending
 * "...". */
static void write_text_cut(FILE *out, const char *text, int limit)
{
    const unsigned char *p = (const unsigned char *)text;
    int total = 0;
    for (const unsigned char *q = p; *q; q++)
        total += byte_width(*q);
    if (!limit || total <= limit) {
        for (; *p; p++)
            write_byte(out, *p);
        return;
    }
    for (int shown = 0; shown + byte_width(*p) <= limit - 3; p++)
        shown += write_byte(out, *p);
    fputs("...", out);
}

void bar_chart_write_text(FILE *out, const char *text)
{
    write_text_cut(out, text, 0);
}

static bool valid(const struct bar_chart *chart)
{
    if (chart->n_series < 1 || chart->n_series > BAR_CHART_MAX_SERIES)
        return false;
    for (size_t i = 0; i < chart->n_groups * chart->n_series; i++) {
        const struct bar_value *v = &chart->values[i];
        if (v->present && !(v->value >= 0 && v->value <= 1e300))
            return false;
    }
    return true;
}

static double largest(const struct bar_chart *chart)
{
    double max = 0;
    for (size_t i = 0; i < chart->n_groups * chart->n_series; i++)
        if (chart->values[i].present && chart->values[i].value > max)
            max = chart->values[i].value;
    return max;
}

static int group_height(const struct bar_chart *chart)
{
    return (int)chart->n_series * BAR_CHART_BAR_HEIGHT + GROUP_GAP;
}

static void write_head(FILE *out, const struct bar_chart *chart, int height)
{
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
            BAR_CHART_WIDTH, height, BAR_CHART_WIDTH, height);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", BAR_CHART_WIDTH, height);
    fputs("<title>", out);
    bar_chart_write_text(out, chart->title);
    fputs("</title>\n<text x=\"12\" y=\"24\" font-size=\"15\" font-weight=\"bold\">", out);
    bar_chart_write_text(out, chart->title);
    fputs("</text>\n", out);
}

static void write_legend(FILE *out, const struct bar_chart *chart)
{
    int x = LABEL_COLUMN;
    for (size_t s = 0; s < chart->n_series; s++) {
        fprintf(out, "<rect x=\"%d\" y=\"34\" width=\"12\" height=\"12\" fill=\"%s\"/>", x,
                series_colours[s]);
        fprintf(out, "<text x=\"%d\" y=\"44\">", x + 16);
        write_text_cut(out, chart->series[s], LABEL_CHARS / 2);
        fputs("</text>\n", out);
        x += 150;
    }
}

/* The grid lines, tick values and axis label, the axis at y = `bottom`. */
static void write_axis(FILE *out, const struct bar_chart *chart, double axis_max, double step,
                       int bottom)
{
    int decimals = step_decimals(step);
    uint64_t n = steps_to_cover(axis_max, step);
    for (uint64_t i = 0; i <= n; i++) {
        double x = LABEL_COLUMN + BAR_CHART_PLOT_WIDTH * ((double)i * step / axis_max);
        fprintf(out, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#d0d0d0\"/>", x,
                PLOT_TOP - 4, x, bottom);
        fprintf(out, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%.*f</text>\n", x,
                bottom + 16, decimals, (double)i * step);
    }
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000000\"/>\n",
            LABEL_COLUMN, bottom, LABEL_COLUMN + BAR_CHART_PLOT_WIDTH, bottom);
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", LABEL_COLUMN +
            BAR_CHART_PLOT_WIDTH / 2, bottom + 36);
    bar_chart_write_text(out, chart->axis_label);
    fputs("</text>\n", out);
}

/* One bar and its value (or the absent text) at its end. */
static void write_bar(FILE *out, const struct bar_chart *chart, size_t g, size_t s,
                      double axis_max)
{
    const struct bar_value *v = &chart->values[g * chart->n_series + s];
    int y = PLOT_TOP + (int)g * group_height(chart) + GROUP_GAP / 2 +
            (int)s * BAR_CHART_BAR_HEIGHT;
    double width = v->present ? BAR_CHART_PLOT_WIDTH * (v->value / axis_max) : 0;
    if (v->present) {
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>",
                LABEL_COLUMN, y, width, BAR_CHART_BAR_HEIGHT - 2, series_colours[s]);
        bar_chart_write_text(out, chart->series[s]);
        fprintf(out, " %.*f</title></rect>", v->decimals, v->value);
    }
    fprintf(out, "<text x=\"%.2f\" y=\"%d\" font-size=\"10\">", LABEL_COLUMN + width + 4,
            y + BAR_CHART_BAR_HEIGHT - 4);
    if (v->present)
        fprintf(out, "%.*f", v->decimals, v->value);
    else
        bar_chart_write_text(out, v->absent_text ? v->absent_text : "-");
    fputs("</text>\n", out);
}

static void write_group(FILE *out, const struct bar_chart *chart, size_t g, double axis_max)
{
    int middle = PLOT_TOP + (int)g * group_height(chart) + group_height(chart) / 2;
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-family=\"monospace\"><title>",
            LABEL_COLUMN - 6, middle + 4);
    bar_chart_write_text(out, chart->labels[g]);
    fputs("</title>", out);
    write_text_cut(out, chart->labels[g], LABEL_CHARS);
    fputs("</text>\n", out);
    for (size_t s = 0; s < chart->n_series; s++)
        write_bar(out, chart, g, s, axis_max);
}

bool bar_chart_write(FILE *out, const struct bar_chart *chart)
{
    if (!valid(chart))
        return false;
    int rows = chart->n_groups ? (int)chart->n_groups : 1;
    int bottom = PLOT_TOP + rows * group_height(chart);
    double axis_max, step;
    bar_chart_axis(largest(chart), &axis_max, &step);
    write_head(out, chart, bottom + AXIS_ROOM);
    write_legend(out, chart);
    write_axis(out, chart, axis_max, step, bottom);
    if (!chart->n_groups)
        fprintf(out, "<text x=\"%d\" y=\"%d\">no data</text>\n", LABEL_COLUMN + 8,
                PLOT_TOP + group_height(chart) / 2 + 4);
    for (size_t g = 0; g < chart->n_groups; g++)
        write_group(out, chart, g, axis_max);
    fputs("</svg>\n", out);
    return true;
}
