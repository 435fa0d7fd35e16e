/* The pictures of a `pmubench stat --json` result, for `pmubench plot`
 * (docs/plot.md): with intervals (stat -I N), a line chart with one panel
 * per event, its count per interval over the trace (charts/line_chart.h);
 * with intervals and `ipc`, one panel of instructions per cycle in each
 * interval and, where the result has uops (the NetBurst), uops per cycle;
 * without intervals, a bar chart of the counts (charts/bar_chart.h). */
#ifndef APPS_COMPARE_STAT_PLOT_H
#define APPS_COMPARE_STAT_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "apps/compare/count_set.h"
#include "apps/compare/intervals.h"

/* Writes the picture; false when out of memory.  `ipc` needs
 * series->present (the caller checks it). */
bool stat_plot_write(FILE *out, const struct count_set *set,
                     const struct interval_series *series, bool ipc);

/* A picture to draw: stat_plot_write's arguments. */
struct stat_plot {
    const struct count_set *set;
    const struct interval_series *series;
    bool ipc;
};

/* stat_plot_write of `plot` (a struct stat_plot), in the shape of
 * util/atomic_file.h's atomic_writer. */
bool stat_plot_draw(FILE *out, const void *plot);

#endif
