/* The SVG bar chart of charts/bar_chart.h.  Layout, in pixels: the labels
 * right-aligned in a column LABEL_COLUMN wide, the bars from x =
 * LABEL_COLUMN over BAR_CHART_PLOT_WIDTH, room for the values after them,
 * the notes right-aligned at NOTES_RIGHT; title, legend (and the notes'
 * heading), then the groups from PLOT_TOP down, the axis under them. */
#include "bar_chart.h"

#include <stdint.h>

#include "svg.h"

enum {
    LABEL_COLUMN = 270,
    LABEL_CHARS = 36,          /* a label's characters a line (monospace) */
    LEGEND_CHARS = 18,         /* a series name's characters a line */
    NOTES_RIGHT = BAR_CHART_WIDTH - 8,
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

static int bars_height(const struct bar_chart *chart)
{
    return (int)chart->n_series * BAR_CHART_BAR_HEIGHT;
}

/* Group g's pixels: its bars or its label's lines, and the gap. */
static int group_height(const struct bar_chart *chart, size_t g)
{
    int label = svg_line_count(chart->labels[g], LABEL_CHARS) * SVG_LINE_HEIGHT;
    return (label > bars_height(chart) ? label : bars_height(chart)) + GROUP_GAP;
}

static void write_legend(FILE *out, const struct bar_chart *chart)
{
    for (size_t s = 0; s < chart->n_series; s++)
        svg_write_legend_entry(out, LABEL_COLUMN + 150 * (int)s, 34, svg_colours[s],
                               chart->series[s], LEGEND_CHARS);
    if (chart->notes_heading) {
        svg_write_lines(out, NOTES_RIGHT, 44, " text-anchor=\"end\"", chart->notes_heading, 0);
        fputc('\n', out);
    }
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

/* One bar of the group whose bars begin at `bars_top`, and its value (or
 * the absent text) at its end. */
static void write_bar(FILE *out, const struct bar_chart *chart, size_t g, size_t s,
                      int bars_top, double axis_max)
{
    const struct bar_value *v = &chart->values[g * chart->n_series + s];
    int y = bars_top + (int)s * BAR_CHART_BAR_HEIGHT;
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

/* Group g from `top` down: its label's lines and its bars, each centred
 * on the group's middle, and its note. */
static void write_group(FILE *out, const struct bar_chart *chart, size_t g, int top,
                        double axis_max)
{
    int height = group_height(chart, g), middle = top + height / 2;
    int lines = svg_line_count(chart->labels[g], LABEL_CHARS);
    svg_write_lines(out, LABEL_COLUMN - 6, middle + 4 - (lines - 1) * SVG_LINE_HEIGHT / 2,
                    " text-anchor=\"end\" font-family=\"monospace\"", chart->labels[g],
                    LABEL_CHARS);
    fputc('\n', out);
    for (size_t s = 0; s < chart->n_series; s++)
        write_bar(out, chart, g, s, top + (height - bars_height(chart)) / 2, axis_max);
    if (chart->notes_heading) {
        svg_write_lines(out, NOTES_RIGHT, middle + 4, " text-anchor=\"end\"", chart->notes[g], 0);
        fputc('\n', out);
    }
}

bool bar_chart_write(FILE *out, const struct bar_chart *chart)
{
    if (!valid(chart))
        return false;
    int bottom = PLOT_TOP + (chart->n_groups ? 0 : bars_height(chart) + GROUP_GAP);
    for (size_t g = 0; g < chart->n_groups; g++)
        bottom += group_height(chart, g);
    double axis_max, step;
    svg_axis(largest(chart), &axis_max, &step);
    svg_write_head(out, BAR_CHART_WIDTH, bottom + AXIS_ROOM, chart->title);
    write_legend(out, chart);
    write_axis(out, chart, axis_max, step, bottom);
    if (!chart->n_groups)
        fprintf(out, "<text x=\"%d\" y=\"%d\">no data</text>\n", LABEL_COLUMN + 8,
                PLOT_TOP + (bars_height(chart) + GROUP_GAP) / 2 + 4);
    for (size_t g = 0, top = PLOT_TOP; g < chart->n_groups; top += group_height(chart, g++))
        write_group(out, chart, g, (int)top, axis_max);
    fputs("</svg>\n", out);
    return true;
}

bool bar_chart_draw(FILE *out, const void *chart)
{
    return bar_chart_write(out, chart);
}
