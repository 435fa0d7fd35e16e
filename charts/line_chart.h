/* A line chart of values per interval as one SVG document (W3C SVG 1.1),
 * for `pmubench plot` of a `stat -I` result (docs/plot.md): panels stacked
 * under a title, all over the same x axis (where each interval ends: in
 * instructions or cycles from the trace's start), each panel with its own y
 * axis from 0 and one line per series, named by a legend above it: the
 * series share the panel's width, and a name longer than its share is
 * written whole in several lines (charts/svg.h, svg_write_lines), the
 * panel's legend row as tall as they are.
 *
 * Each interval's value is drawn as a step: a horizontal segment over the
 * whole interval, from the previous interval's end (0 for the first) to its
 * own, joined to the next by a vertical segment.  A count per interval
 * belongs to the interval, not to its last instruction; a short last
 * interval shows as a short step.  Both axes have round ticks (1, 2 or 5
 * times a power of ten) and grid lines; output depends only on the data and
 * any label gives well-formed XML (charts/svg.h). */
#ifndef CHARTS_LINE_CHART_H
#define CHARTS_LINE_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct line_series {
    const char *name;    /* for the legend */
    const double *y;     /* one value per interval, >= 0 */
};

struct line_panel {
    const char *y_label;                 /* what the values are: "count per interval" */
    size_t n_series;                     /* 1 or more */
    const struct line_series *series;
};

struct line_chart {
    const char *title;
    const char *x_label;                 /* under the x axis: "instructions" */
    size_t n_points;                     /* intervals; may be 0: the panels say "no data" */
    const double *x;                     /* each interval's end, increasing */
    size_t n_panels;                     /* 1 or more */
    const struct line_panel *panels;
};

/* The geometry, for tests: the plot area of panel p spans x from
 * LINE_CHART_LEFT over LINE_CHART_PLOT_WIDTH and y from
 * LINE_CHART_TOP + p * LINE_CHART_PANEL_HEIGHT + LINE_CHART_LEGEND_ROOM down
 * over LINE_CHART_PLOT_HEIGHT, when every legend is one line (each further
 * line of a panel's legend moves it and the panels under it
 * SVG_LINE_HEIGHT lower); series s of a panel of n has its legend entry at
 * x = LINE_CHART_LEFT + s * LINE_CHART_PLOT_WIDTH / n; series s of the
 * chart (counted over all panels) has colour svg_colours[s % SVG_N_COLOURS]. */
enum {
    LINE_CHART_WIDTH = 880,
    LINE_CHART_LEFT = 110,
    LINE_CHART_PLOT_WIDTH = 720,
    LINE_CHART_TOP = 40,
    LINE_CHART_LEGEND_ROOM = 22,
    LINE_CHART_PLOT_HEIGHT = 140,
    LINE_CHART_PANEL_HEIGHT = 192,
};

/* Writes the document; false (nothing written) when a count is out of
 * range, an x is not above the one before it, or a panel has no
 * series (nothing checks the stream: the caller's atomic file does). */
bool line_chart_write(FILE *out, const struct line_chart *chart);

#endif
