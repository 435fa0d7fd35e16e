/* The SVG line chart of charts/line_chart.h.  Layout, in pixels: the title
 * at the top, then each panel: its legend row, its plot area with the y
 * tick values right-aligned left of it and the x tick values under it;
 * the x axis' label under the last panel. */
#include "line_chart.h"

#include <stdint.h>

#include "svg.h"

enum {
    LEGEND_CHAR_WIDTH = 7, /* pixels, at most, of a character of 12-pixel sans-serif */
    LEGEND_MARGIN = 24,    /* of an entry's share: its square and the gaps */
    X_LABEL_ROOM = 48,     /* under the last panel's plot area */
};

static bool is_value(double v)
{
    return v >= 0 && v <= 1e300;
}

static bool valid(const struct line_chart *chart)
{
    if (chart->n_panels < 1)
        return false;
    for (size_t i = 0; i < chart->n_points; i++)
        if (!is_value(chart->x[i]) || (i && !(chart->x[i] > chart->x[i - 1])))
            return false;
    for (size_t p = 0; p < chart->n_panels; p++) {
        const struct line_panel *panel = &chart->panels[p];
        if (panel->n_series < 1)
            return false;
        for (size_t s = 0; s < panel->n_series; s++)
            for (size_t i = 0; i < chart->n_points; i++)
                if (!is_value(panel->series[s].y[i]))
                    return false;
    }
    return true;
}

static double largest_y(const struct line_chart *chart, const struct line_panel *panel)
{
    double max = 0;
    for (size_t s = 0; s < panel->n_series; s++)
        for (size_t i = 0; i < chart->n_points; i++)
            if (panel->series[s].y[i] > max)
                max = panel->series[s].y[i];
    return max;
}

/* An axis from 0: its end, its step, and where 0 and the end are drawn. */
struct scale {
    double axis_max, step;
    double from, length; /* pixel of 0, pixels to axis_max (negative: upwards) */
};

static struct scale make_scale(double max, double from, double length)
{
    struct scale s = {.from = from, .length = length};
    svg_axis(max, &s.axis_max, &s.step);
    return s;
}

static double place(const struct scale *s, double value)
{
    return s->from + s->length * (value / s->axis_max);
}

/* The grid lines and tick values of both axes, then the axes. */
static void write_grid(FILE *out, const struct scale *x, const struct scale *y, int top)
{
    int bottom = top + LINE_CHART_PLOT_HEIGHT;
    int right = LINE_CHART_LEFT + LINE_CHART_PLOT_WIDTH;
    int x_decimals = svg_step_decimals(x->step), y_decimals = svg_step_decimals(y->step);
    for (uint64_t i = 0, n = svg_axis_steps(x->axis_max, x->step); i <= n; i++) {
        double at = place(x, (double)i * x->step);
        fprintf(out, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#d0d0d0\"/>", at,
                top, at, bottom);
        fprintf(out, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%.*f</text>\n", at,
                bottom + 16, x_decimals, (double)i * x->step);
    }
    for (uint64_t i = 0, n = svg_axis_steps(y->axis_max, y->step); i <= n; i++) {
        double at = place(y, (double)i * y->step);
        fprintf(out, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#d0d0d0\"/>",
                LINE_CHART_LEFT, at, right, at);
        fprintf(out, "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%.*f</text>\n",
                LINE_CHART_LEFT - 6, at + 4, y_decimals, (double)i * y->step);
    }
    fprintf(out,
            "<polyline points=\"%d,%d %d,%d %d,%d\" fill=\"none\" stroke=\"#000000\"/>\n",
            LINE_CHART_LEFT, top, LINE_CHART_LEFT, bottom, right, bottom);
}

/* The y axis' label, written upwards left of the tick values. */
static void write_y_label(FILE *out, const char *label, int top)
{
    int middle = top + LINE_CHART_PLOT_HEIGHT / 2;
    fprintf(out, "<text x=\"18\" y=\"%d\" transform=\"rotate(-90 18 %d)\" "
                 "text-anchor=\"middle\">", middle, middle);
    svg_write_text(out, label);
    fputs("</text>\n", out);
}

/* One series as steps: each value over its interval, from the previous
 * end (0 at first) to its own. */
static void write_steps(FILE *out, const struct line_chart *chart,
                        const struct line_series *series, const char *colour,
                        const struct scale *x, const struct scale *y)
{
    fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colour);
    double start = place(x, 0);
    for (size_t i = 0; i < chart->n_points; i++) {
        double level = place(y, series->y[i]), end = place(x, chart->x[i]);
        fprintf(out, "%s%.2f,%.2f %.2f,%.2f", i ? " " : "", start, level, end, level);
        start = end;
    }
    fputs("\"><title>", out);
    svg_write_text(out, series->name);
    fputs("</title></polyline>\n", out);
}

/* A legend entry's share of the width, and its characters a line. */
static int legend_share(const struct line_panel *panel)
{
    return LINE_CHART_PLOT_WIDTH / (int)panel->n_series;
}

static int legend_chars(const struct line_panel *panel)
{
    return (legend_share(panel) - LEGEND_MARGIN) / LEGEND_CHAR_WIDTH;
}

/* The lines of the panel's longest legend entry. */
static int legend_lines(const struct line_panel *panel)
{
    int lines = 1;
    for (size_t s = 0; s < panel->n_series; s++) {
        int n = svg_line_count(panel->series[s].name, legend_chars(panel));
        lines = n > lines ? n : lines;
    }
    return lines;
}

/* The pixels of a panel: its legend's lines, its plot area and the room
 * under it. */
static int panel_height(const struct line_panel *panel)
{
    return LINE_CHART_PANEL_HEIGHT + (legend_lines(panel) - 1) * SVG_LINE_HEIGHT;
}

/* Panel p from `legend` (its legend's top) down, its first series the
 * chart's series `first`. */
static void write_panel(FILE *out, const struct line_chart *chart, size_t p, size_t first,
                        int legend, const struct scale *x)
{
    const struct line_panel *panel = &chart->panels[p];
    int top = legend + LINE_CHART_LEGEND_ROOM + (legend_lines(panel) - 1) * SVG_LINE_HEIGHT;
    struct scale y = make_scale(largest_y(chart, panel), top + LINE_CHART_PLOT_HEIGHT,
                                -LINE_CHART_PLOT_HEIGHT);
    for (size_t s = 0; s < panel->n_series; s++)
        svg_write_legend_entry(out, LINE_CHART_LEFT + legend_share(panel) * (int)s, legend,
                               svg_colours[(first + s) % SVG_N_COLOURS], panel->series[s].name,
                               legend_chars(panel));
    write_grid(out, x, &y, top);
    write_y_label(out, panel->y_label, top);
    if (!chart->n_points)
        fprintf(out, "<text x=\"%d\" y=\"%d\">no data</text>\n", LINE_CHART_LEFT + 8,
                top + LINE_CHART_PLOT_HEIGHT / 2);
    for (size_t s = 0; s < panel->n_series; s++)
        write_steps(out, chart, &panel->series[s], svg_colours[(first + s) % SVG_N_COLOURS], x,
                    &y);
}

bool line_chart_write(FILE *out, const struct line_chart *chart)
{
    if (!valid(chart))
        return false;
    int last_bottom = LINE_CHART_TOP - (LINE_CHART_PANEL_HEIGHT - LINE_CHART_LEGEND_ROOM -
                                        LINE_CHART_PLOT_HEIGHT);
    for (size_t p = 0; p < chart->n_panels; p++)
        last_bottom += panel_height(&chart->panels[p]);
    svg_write_head(out, LINE_CHART_WIDTH, last_bottom + X_LABEL_ROOM, chart->title);
    struct scale x = make_scale(chart->n_points ? chart->x[chart->n_points - 1] : 0,
                                LINE_CHART_LEFT, LINE_CHART_PLOT_WIDTH);
    size_t first = 0;
    int legend = LINE_CHART_TOP;
    for (size_t p = 0; p < chart->n_panels; p++) {
        write_panel(out, chart, p, first, legend, &x);
        first += chart->panels[p].n_series;
        legend += panel_height(&chart->panels[p]);
    }
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
            LINE_CHART_LEFT + LINE_CHART_PLOT_WIDTH / 2, last_bottom + 36);
    svg_write_text(out, chart->x_label);
    fputs("</text>\n</svg>\n", out);
    return true;
}
