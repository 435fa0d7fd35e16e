/* The interval series of `pmubench stat -I` (docs/stat.md, "Intervals"):
 * at each interval's end (a model's interval hook, sim/common/interval.h)
 * every run of the pass is read through the programming library and the
 * counts since the interval before are kept, by request; the passes of a
 * plan add theirs into one series, by interval index. */
#ifndef APPS_STAT_STAT_INTERVAL_H
#define APPS_STAT_STAT_INTERVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/programming/alloc.h"
#include "pmu/programming/program.h"
#include "sim/common/interval.h"

/* One interval: the model's facts in it (those of the first pass that
 * reached it). */
struct stat_interval {
    uint64_t end;                        /* the unit's running total at its end */
    uint64_t instructions, cycles, uops; /* in it (uops: the NetBurst's, 0 on the P5) */
};

struct stat_intervals {
    enum interval_unit unit; /* the caller's */
    uint64_t every;          /* the caller's, > 0 */
    size_t n;                /* intervals kept */
    struct stat_interval *intervals;
    uint64_t *counts;        /* [interval * n_requests + request] */
    size_t capacity, counts_capacity; /* room for, in intervals, in counts */
    int n_requests;          /* the plan's (set by stat_simulate) */
};

/* The counts of interval `i`, by request. */
static inline const uint64_t *stat_interval_counts(const struct stat_intervals *s, size_t i)
{
    return &s->counts[i * (size_t)s->n_requests];
}

void stat_intervals_free(struct stat_intervals *s);

/* One pass's part of the series: its runs' programs and, by request, the
 * counters' values read last. */
struct interval_pass {
    struct stat_intervals *series;
    struct program *programs;
    int n;
    uint64_t *last;               /* by request: the value read last (0 after the setup) */
    uint64_t *now;                /* by request: the values being read */
    size_t index;                 /* intervals this pass has ended */
    bool made_last;               /* the last of them made by this pass (its facts) */
    struct interval_point at;     /* the model's totals at the last one's end */
    msr_status status;            /* the first failing read; none after it */
    const struct program *failed; /* its program */
    bool out_of_memory;
};

/* Starts `pass` on `series` with the `n` programs (set up, counters 0) of
 * the pass; false when out of memory. */
bool interval_pass_start(struct interval_pass *pass, struct stat_intervals *series,
                         struct program *programs, int n);

/* The models' interval hook (struct interval_hook's `end`), the pass its
 * context: reads every program and adds what each counted since the last
 * read to the pass's next interval, made when no pass before made it. */
void interval_pass_end(void *pass, const struct interval_point *point);

/* The last interval, to the run's end: from the model's totals there and
 * the counts read after it (by request: the pass's own are used); not
 * kept when nothing happened in it, and added to the pass's last interval
 * when the unit did not advance since its end.  Frees what interval_pass_start
 * took. */
void interval_pass_finish(struct interval_pass *pass, const struct interval_point *totals,
                          const uint64_t *counts);

#endif
