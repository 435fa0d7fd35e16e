/* A horizontal bar chart as one SVG document (W3C SVG 1.1), for pictures of
 * a command's results: compare's simulated against measured counts per
 * event (Safford 1997, Table 5.6), sample's samples per symbol.  One group
 * of bars per label, one bar per series in it, each bar's value written at
 * its end; a linear axis from 0 with round ticks (1, 2 or 5 times a power
 * of ten), a legend naming the series, a title; a label is written whole,
 * in as many lines as it needs (charts/svg.h, svg_write_lines), its group
 * as tall as they are.  Optionally a note per group (compare's difference
 * in percent) in a column of its own at the right, under a heading.  The
 * output depends only on the data, and any label gives well-formed XML
 * (charts/svg.h). */
#ifndef CHARTS_BAR_CHART_H
#define CHARTS_BAR_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { BAR_CHART_MAX_SERIES = 4 };

/* One bar; absent (no number: an event one set lacks or did not count)
 * draws no bar and writes `absent_text` ("-" when NULL) in its place. */
struct bar_value {
    bool present;
    double value;  /* >= 0 */
    int decimals;  /* digits after the point the value is written with */
    const char *absent_text;
};

struct bar_chart {
    const char *title;
    const char *axis_label;              /* under the axis: what the values are */
    size_t n_series;                     /* 1 to BAR_CHART_MAX_SERIES */
    const char *const *series;           /* their names, for the legend */
    size_t n_groups;                     /* may be 0: the chart says "no data" */
    const char *const *labels;           /* one per group */
    const struct bar_value *values;      /* n_groups * n_series, group by group */
    const char *notes_heading;           /* the notes' column heading, or NULL: no notes */
    const char *const *notes;            /* with a heading: one per group */
};

/* The geometry, for tests: the plot area and its axis; a group is
 * n_series * BAR_CHART_BAR_HEIGHT + 10 pixels tall, or its label's lines'
 * SVG_LINE_HEIGHT each + 10 when they need more. */
enum {
    BAR_CHART_WIDTH = 880,
    BAR_CHART_PLOT_WIDTH = 480, /* the bars' length at the axis' end */
    BAR_CHART_BAR_HEIGHT = 14,
};

/* Writes the document; false when a value is negative or not a number,
 * or n_series is out of range (nothing checks the stream: the caller's
 * atomic file does). */
bool bar_chart_write(FILE *out, const struct bar_chart *chart);

/* bar_chart_write of `chart` (a struct bar_chart), in the shape of
 * util/atomic_file.h's atomic_writer. */
bool bar_chart_draw(FILE *out, const void *chart);

#endif
