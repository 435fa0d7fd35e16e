/* The CCCR's filtering of the 4-bit detector bus into a counter increment:
 * compare, complement, threshold, edge and ACTIVE_THREAD gating.
 * docs/semantics.md, "Counter (CCCR)".
 */
#ifndef PMU_CCCR_FILTER_H
#define PMU_CCCR_FILTER_H

#include <stdbool.h>
#include <stdint.h>

/* What the filter did in one cycle. */
struct cccr_filter_out {
    bool compare;        /* the comparison result (bus > or <= threshold) */
    bool thread_gate;    /* ACTIVE_THREAD allowed counting this cycle */
    unsigned increment;  /* 0-15 without COMPARE, 0 or 1 with it */
};

/* Whether ACTIVE_THREAD lets the counter count when `active_threads`
 * logical processors (0, 1 or 2) are active. */
bool cccr_thread_gate(uint64_t cccr, unsigned active_threads);

/* One enabled cycle: filters `bus` (0-15) through the CCCR and updates the
 * edge history, which samples the comparison result every enabled cycle,
 * whether or not ACTIVE_THREAD lets the counter count. */
struct cccr_filter_out cccr_filter(uint64_t cccr, unsigned bus, unsigned active_threads,
                                   bool *edge_history);

#endif
