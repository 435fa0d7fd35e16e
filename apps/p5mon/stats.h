/* run_p5mon's statistics (Safford 1997, section 4.4.1): the mean of an event's
 * repetitions and a two-sided 95% or 99% confidence interval on it, from
 * Student's t distribution.  docs/p5mon.md, "Confidence intervals". */
#ifndef APPS_P5MON_STATS_H
#define APPS_P5MON_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "parms.h"

struct p5mon_summary {
    double mean;
    double half_width;   /* mean - half_width .. mean + half_width */
    double percent;      /* half_width / mean * 100; meaningless when !percent_defined */
    bool percent_defined; /* false when the mean is 0 (printed NaN) */
};

/* The t value a two-sided interval at `level` (95 or 99) uses with `df`
 * degrees of freedom (df >= 1): t(0.975, df) or t(0.995, df). */
double p5mon_t_value(int level, int df);

/* The summary of n >= 1 values.  P5MON_INTERVAL_RUN_P5MON uses t(df = n)
 * rounded to 3 decimals and the population standard deviation, as
 * run_p5mon did; P5MON_INTERVAL_STUDENT t(df = n - 1) exactly and the
 * sample standard deviation.  With one value (or, for the student
 * formula, fewer than two) the half-width is 0. */
void p5mon_summarize(const uint64_t *values, int n, int level, enum p5mon_interval interval,
                     struct p5mon_summary *summary);

#endif
