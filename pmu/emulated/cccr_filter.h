/* The CCCR's filtering of the 4-bit detector output into a counter increment:
 * compare, complement, threshold, edge and ACTIVE_THREAD gating.
 * docs/semantics.md, "Counter (CCCR)".
 */
#ifndef PMU_EMULATED_CCCR_FILTER_H
#define PMU_EMULATED_CCCR_FILTER_H

#include <stdbool.h>
#include <stdint.h>

/* What the filter did in one cycle. */
struct cccr_filter_out {
    bool compare;        /* the comparison result (output > or <= threshold) */
    bool thread_gate;    /* ACTIVE_THREAD allowed counting this cycle */
    unsigned increment;  /* 0-15 without COMPARE, 0 or 1 with it */
};

/* What a CCCR value means to filtering, decoded once when it is written. */
struct cccr_rules {
    uint16_t compare_true;  /* bit b: the comparison holds for output value b */
    uint8_t gate;           /* bit n: ACTIVE_THREAD lets it count with n threads active */
    bool compare;           /* COMPARE */
    bool edge;              /* COMPARE and EDGE */
};

struct cccr_rules cccr_rules_of(uint64_t cccr);

/* Whether ACTIVE_THREAD lets the counter count when `active_threads`
 * logical processors (0, 1 or 2) are active. */
bool cccr_thread_gate(uint64_t cccr, unsigned active_threads);

/* One enabled cycle of a decoded CCCR: filters `output` (0-15) and updates the
 * edge history, which samples the comparison result every enabled cycle,
 * whether or not ACTIVE_THREAD lets the counter count. */
static inline struct cccr_filter_out cccr_rules_filter(const struct cccr_rules *rules,
                                                       unsigned output, unsigned active_threads,
                                                       bool *edge_history)
{
    struct cccr_filter_out out = {.thread_gate = (rules->gate >> active_threads) & 1};
    if (!rules->compare) {
        out.increment = out.thread_gate ? output : 0;
        return out;
    }
    out.compare = (rules->compare_true >> output) & 1;
    bool counts = out.compare && !(rules->edge && *edge_history);
    *edge_history = out.compare;
    out.increment = out.thread_gate && counts;
    return out;
}

/* cccr_rules_filter() on the CCCR value itself. */
struct cccr_filter_out cccr_filter(uint64_t cccr, unsigned output, unsigned active_threads,
                                   bool *edge_history);

#endif
