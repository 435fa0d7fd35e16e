/* The SVG bar chart of report/bar_chart.h.  Layout, in pixels: the labels
 * right-aligned in a column LABEL_COLUMN wide, the bars from x =
 * LABEL_COLUMN over BAR_CHART_PLOT_WIDTH, room for the values after them;
 * title, legend, then the groups from PLOT_TOP down, the axis under them. */
#include "bar_chart.h"

#include <stdint.h>

#include "svg.h"

enum {
    LABEL_COLUMN = 270,
    LABEL_CHARS = 36,          /* a longer label is cut, ending "..." */
    PLOT_TOP = 64,
    GROUP_GAP = 10,
    AXIS_ROOM = 48,
};

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

static void write_legend(FILE *out, const struct bar_chart *chart)
{
    for (size_t s = 0; s < chart->n_series; s++)
        svg_write_legend_entry(out, LABEL_COLUMN + 150 * (int)s, 34, svg_colours[s],
                               chart->series[s], LABEL_CHARS / 2);
}

/* The grid lines, tick values and axis label, the axis at y = `bottom`. */
static void write_axis(FILE *out, const struct bar_chart *chart, double axis_max, double step,
                       int bottom)
{
    int decimals = svg_step_decimals(step);
    uint64_t n = svg_axis_steps(axis_max, step);
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
    svg_write_text(out, chart->axis_label);
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
                LABEL_COLUMN, y, width, BAR_CHART_BAR_HEIGHT - 2, svg_colours[s]);
        svg_write_text(out, chart->series[s]);
        fprintf(out, " %.*f</title></rect>", v->decimals, v->value);
    }
    fprintf(out, "<text x=\"%.2f\" y=\"%d\" font-size=\"10\">", LABEL_COLUMN + width + 4,
            y + BAR_CHART_BAR_HEIGHT - 4);
    if (v->present)
        fprintf(out, "%.*f", v->decimals, v->value);
    else
        svg_write_text(out, v->absent_text ? v->absent_text : "-");
    fputs("</text>\n", out);
}

static void write_group(FILE *out, const struct bar_chart *chart, size_t g, double axis_max)
{
    int middle = PLOT_TOP + (int)g * group_height(chart) + group_height(chart) / 2;
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-family=\"monospace\"><title>",
            LABEL_COLUMN - 6, middle + 4);
    svg_write_text(out, chart->labels[g]);
    fputs("</title>", out);
    svg_write_text_cut(out, chart->labels[g], LABEL_CHARS);
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
    svg_axis(largest(chart), &axis_max, &step);
    svg_write_head(out, BAR_CHART_WIDTH, bottom + AXIS_ROOM, chart->title);
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

bool bar_chart_draw(FILE *out, const void *chart)
{
    return bar_chart_write(out, chart);
}
