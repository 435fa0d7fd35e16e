/* stat's results as the reader of its JSON gives them
 * (sim/stat/stat_result.h). */
#include "stat_result.h"

#include <stdlib.h>
#include <string.h>

/* The series of `s`: the reader takes the events from the first interval,
 * so a series without intervals has none. */
static bool make_series(const struct stat_result *r, const struct stat_intervals *s,
                        struct interval_series *series)
{
    size_t n_events = s->n ? (size_t)r->n_events : 0;
    *series = (struct interval_series){.present = true, .in_cycles = s->unit == INTERVAL_CYCLES,
                                       .every = s->every, .has_uops = r->uops && s->n};
    series->events = calloc(n_events + 1, sizeof *series->events);
    series->intervals = calloc(s->n + 1, sizeof *series->intervals);
    series->counts = calloc(s->n * n_events + 1, sizeof *series->counts);
    if (!series->events || !series->intervals || !series->counts)
        return false;
    for (; series->n_events < n_events; series->n_events++)
        if (!(series->events[series->n_events] = strdup(r->events[series->n_events])))
            return false;
    for (size_t i = 0; i < s->n; i++) {
        const struct stat_interval *v = &s->intervals[i];
        series->intervals[i] = (struct interval){v->end, v->instructions, v->cycles,
                                                 r->uops ? v->uops : 0};
        for (size_t e = 0; e < n_events; e++)
            series->counts[i * n_events + e] = stat_interval_counts(s, i)[e];
    }
    series->n_intervals = s->n;
    series->capacity = s->n * n_events; /* of counts, as the reader has it */
    return true;
}

bool stat_result_make(const struct stat_result *r, struct count_set *set,
                      struct interval_series *series)
{
    count_set_init(set, NULL);
    *series = (struct interval_series){0};
    bool ok = stat_result_name(set, r->model, r->trace);
    for (int e = 0; ok && e < r->n_events; e++) {
        struct count count = {.name = (char *)r->events[e], .value = r->counts[e], .region = -1};
        ok = count_set_add(set, &count) != NULL;
    }
    if (ok && r->intervals)
        ok = make_series(r, r->intervals, series);
    if (!ok) {
        interval_series_free(series);
        count_set_free(set);
    }
    return ok;
}
