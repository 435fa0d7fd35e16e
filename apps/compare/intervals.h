/* The intervals of a `pmubench stat -I N --json` result (docs/stat.md,
 * docs/plot.md): per interval its end (in instructions or cycles from the
 * trace's start), the instructions, cycles and (NetBurst) uops in it, and
 * each event's count in it.  Read by the one reader of stat's JSON
 * (read_json.c), which checks that the intervals' counts of each event sum
 * to the result's total.
 *
 *   struct count_set set;
 *   struct interval_series series;
 *   if (!stat_result_read_file("r.json", &set, &series, error, sizeof error)) ...
 *   ... series.counts[i * series.n_events + e] ...
 *   interval_series_free(&series);
 *   count_set_free(&set); */
#ifndef APPS_COMPARE_INTERVALS_H
#define APPS_COMPARE_INTERVALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "count_set.h"

struct interval {
    uint64_t end;           /* the unit's running total at the interval's end */
    uint64_t instructions, cycles, uops; /* in the interval (uops: 0 without has_uops) */
};

struct interval_series {
    bool present;           /* the result has "interval" and "intervals" */
    bool in_cycles;         /* -I Nc: ends count cycles, not instructions */
    uint64_t every;         /* N */
    bool has_uops;          /* every interval has "uops" (the NetBurst) */
    size_t n_events;
    char **events;          /* the events, in the first interval's order */
    struct interval *intervals;
    size_t n_intervals;
    uint64_t *counts;       /* n_intervals * n_events, interval by interval */
};

void interval_series_free(struct interval_series *series);

/* A `pmubench stat --json` result (with or without intervals): its counts
 * into `set`, as count_set_read_json reads them, and its intervals into
 * `series` (present false without them).  Both are initialised here and
 * freed on failure, with "PATH: byte offset N: expected ..." in `error`. */
bool stat_result_read_json(const char *text, size_t size, const char *path,
                           struct count_set *set, struct interval_series *series, char *error,
                           size_t error_size);

/* The same from the file at `path` ("-": standard input); a file that
 * does not begin with '{' (stat's -x CSV, its table) is refused as not
 * the JSON result, in one line saying so. */
bool stat_result_read_file(const char *path, struct count_set *set,
                           struct interval_series *series, char *error, size_t error_size);

#endif
