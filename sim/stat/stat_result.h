/* A `pmubench stat` result as the reader of its --json output gives it
 * (sim/compare/intervals.h: a count set and an interval series), made from
 * stat's own results without the JSON text: `stat --plot` draws it as
 * `pmubench plot` draws the --json output (report/stat_plot.h, one
 * drawing path; docs/plot.md). */
#ifndef SIM_STAT_STAT_RESULT_H
#define SIM_STAT_STAT_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/compare/intervals.h"
#include "sim/stat/stat_interval.h"

struct stat_result {
    const char *model;                      /* -m's name, as "model" has it */
    const char *trace;                      /* "trace" (NULL: none) */
    int n_events;
    const char *const *events;              /* as "counts" names them (no PMU prefix) */
    const uint64_t *counts;                 /* by event */
    const struct stat_intervals *intervals; /* -I's (requests = events), or NULL */
    bool uops;                              /* the intervals say uops (the NetBurst) */
};

/* Fills `set` and `series` (initialised here) as stat_result_read_json
 * fills them from the --json output of `result`; false when out of memory
 * (both freed then). */
bool stat_result_make(const struct stat_result *result, struct count_set *set,
                      struct interval_series *series);

#endif
