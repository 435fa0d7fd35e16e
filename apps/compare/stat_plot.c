/* The pictures of apps/compare/stat_plot.h. */
#include "stat_plot.h"

#include <stdint.h>
#include <stdlib.h>

#include "charts/bar_chart.h"
#include "charts/line_chart.h"

enum { TITLE_SIZE = 4200 };

/* The counts as bars, one group per event. */
static bool write_totals(FILE *out, const struct count_set *set, char *title)
{
    static const char *const series[1] = {"count"};
    const char **labels = calloc(set->n_counts + 1, sizeof *labels);
    struct bar_value *values = calloc(set->n_counts + 1, sizeof *values);
    bool ok = labels && values;
    for (size_t c = 0; ok && c < set->n_counts; c++) {
        labels[c] = set->counts[c].name;
        values[c] = (struct bar_value){true, (double)set->counts[c].value, 0, NULL};
    }
    snprintf(title, TITLE_SIZE, "%s: counts", set->source);
    struct bar_chart chart = {.title = title, .axis_label = "count", .n_series = 1,
                              .series = series, .n_groups = set->n_counts, .labels = labels,
                              .values = values};
    ok = ok && bar_chart_write(out, &chart);
    free(labels);
    free(values);
    return ok;
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0;
}

/* The values of the chart: x (the ends), then per series its y; the
 * panels' y label. */
struct columns {
    double *x, *y;
    struct line_series *series;
    struct line_panel *panels;
    char y_label[64];
};

static bool columns_alloc(struct columns *c, size_t n_points, size_t n_series)
{
    c->x = calloc(n_points + 1, sizeof *c->x);
    c->y = calloc(n_points * n_series + 1, sizeof *c->y);
    c->series = calloc(n_series, sizeof *c->series);
    c->panels = calloc(n_series, sizeof *c->panels);
    return c->x && c->y && c->series && c->panels;
}

static void columns_free(struct columns *c)
{
    free(c->x);
    free(c->y);
    free(c->series);
    free(c->panels);
}

/* One panel per event, its count in each interval per `every` units of
 * it (the interval's count times every over its length): a full interval
 * shows its count, a shorter one (the last, which ends with the trace) the
 * count it would have at the same rate over a full one, not a drop. */
static size_t count_panels(const struct interval_series *s, const char *unit, struct columns *c)
{
    snprintf(c->y_label, sizeof c->y_label, "count per %llu %s", (unsigned long long)s->every,
             unit);
    for (size_t e = 0; e < s->n_events; e++) {
        double *y = c->y + e * s->n_intervals;
        for (size_t i = 0; i < s->n_intervals; i++) {
            /* ends increase (the reader's rule); a first end of 0 has no length */
            uint64_t length = s->intervals[i].end - (i ? s->intervals[i - 1].end : 0);
            double count = (double)s->counts[i * s->n_events + e];
            y[i] = length ? count * (double)s->every / (double)length : count;
        }
        c->series[e] = (struct line_series){s->events[e], y};
        c->panels[e] = (struct line_panel){c->y_label, 1, &c->series[e]};
    }
    return s->n_events;
}

/* One panel: instructions per cycle, and uops per cycle where counted. */
static size_t ipc_panel(const struct interval_series *s, struct columns *c)
{
    double *upc = c->y + s->n_intervals;
    for (size_t i = 0; i < s->n_intervals; i++) {
        c->y[i] = ratio(s->intervals[i].instructions, s->intervals[i].cycles);
        upc[i] = ratio(s->intervals[i].uops, s->intervals[i].cycles);
    }
    c->series[0] = (struct line_series){"instructions per cycle", c->y};
    c->series[1] = (struct line_series){"uops per cycle", upc};
    c->panels[0] = (struct line_panel){"per cycle", s->has_uops ? 2 : 1, c->series};
    return 1;
}

static bool write_intervals(FILE *out, const struct count_set *set,
                            const struct interval_series *s, bool ipc, char *title)
{
    struct columns c;
    size_t n_series = ipc ? 2 : s->n_events;
    bool ok = columns_alloc(&c, s->n_intervals, n_series ? n_series : 1);
    const char *unit = s->in_cycles ? "cycles" : "instructions";
    if (ok) {
        for (size_t i = 0; i < s->n_intervals; i++)
            c.x[i] = (double)s->intervals[i].end;
        size_t n_panels = ipc ? ipc_panel(s, &c) : count_panels(s, unit, &c);
        snprintf(title, TITLE_SIZE, "%s: %s every %llu %s", set->source,
                 ipc ? "instructions per cycle" : "counts", (unsigned long long)s->every, unit);
        char x_label[64];
        snprintf(x_label, sizeof x_label, "%s from the start (the interval's end)", unit);
        struct line_chart chart = {.title = title, .x_label = x_label,
                                   .n_points = s->n_intervals, .x = c.x,
                                   .n_panels = n_panels, .panels = c.panels};
        ok = n_panels ? line_chart_write(out, &chart) : write_totals(out, set, title);
    }
    columns_free(&c);
    return ok;
}

bool stat_plot_write(FILE *out, const struct count_set *set,
                     const struct interval_series *series, bool ipc)
{
    char *title = malloc(TITLE_SIZE);
    bool ok = title && (series->present ? write_intervals(out, set, series, ipc, title)
                                        : write_totals(out, set, title));
    free(title);
    return ok;
}

bool stat_plot_draw(FILE *out, const void *plot)
{
    const struct stat_plot *p = plot;
    return stat_plot_write(out, p->set, p->series, p->ipc);
}
