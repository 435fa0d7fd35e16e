/* What the P5 model reports to the PMU (pmu/p5_pmu.h), gathered between
 * the points where anything outside the model can see or change the PMU
 * (a region hook, a CPL change, the end of the run) and reported there in
 * a few calls (docs/p5-model.md, "Speed").
 *
 * Reported as gathered, the PMU's registers end as they would have one
 * report at a time: with the CESR and the CPL fixed, what a counter adds
 * over many cycles is the sum of what it adds in each (the occurrences of
 * its code, one a cycle for a duration event that holds, one a cycle when
 * it counts clocks: docs/semantics.md, "P5"), whichever cycle each
 * occurrence came in; and the last cycle, which sets the last increments,
 * is reported as it came, with the occurrences of its run of cycles. */
#ifndef SIM_P5_P5_TALLY_H
#define SIM_P5_P5_TALLY_H

#include <stdint.h>

#include "pmu/p5_pmu.h"

struct p5_tally {
    const struct p5_feed *feed;
    uint64_t pending_codes;         /* codes with occurrences in the cycle not ended yet */
    uint64_t pending[P5_NUM_CODES];
    uint64_t codes;                 /* codes with occurrences in the cycles ended */
    uint64_t occurred[P5_NUM_CODES]; /* ... their occurrences, duration events' cycles included */
    uint64_t cycles;                /* cycles ended */
    /* The last run of cycles ended (p5_tally_ticks()): its length, the
     * counted duration events that held, the occurrences of its first
     * cycle. */
    uint64_t last_cycles, last_holding, last_codes;
    uint64_t last[P5_NUM_CODES];
};

/* An empty tally for the PMU whose feed is `feed`. */
void p5_tally_init(struct p5_tally *t, const struct p5_feed *feed);

/* As p5_pmu_event(): `count` occurrences of `code` in the cycle not ended
 * yet; nothing when the feed says they would not count. */
static inline void p5_tally_event(struct p5_tally *t, unsigned code, uint64_t count)
{
    if (p5_feed_counts(t->feed, code)) {
        t->pending[code] += count;
        t->pending_codes |= 1ull << code;
    }
}

/* Moves the pending occurrences to those of the cycles ended. */
void p5_tally_end_pending(struct p5_tally *t);

/* The duration events of `held` (counted ones) held in n cycles. */
void p5_tally_hold(struct p5_tally *t, uint64_t held, uint64_t n);

/* As p5_pmu_ticks(): ends the cycle not ended yet and n - 1 more
 * (nothing when n is 0), in which the duration events of `holding` hold
 * (duration event codes only). */
static inline void p5_tally_ticks(struct p5_tally *t, uint64_t n, uint64_t holding)
{
    uint64_t held = holding & t->feed->counted;
    t->cycles += n;
    if (!(t->pending_codes | held | t->last_holding)) {
        /* Cycles in which nothing counted occurs end the last run as
         * well: it counts the same, and sets the same last increments. */
        t->last_cycles += n;
        return;
    }
    if (n == 0)
        return;
    t->last_codes = t->pending_codes;
    if (t->pending_codes & (t->pending_codes - 1)) {
        p5_tally_end_pending(t);
    } else if (t->pending_codes) { /* one code, the most frequent case */
        unsigned code = (unsigned)__builtin_ctzll(t->pending_codes);
        t->occurred[code] += t->pending[code];
        t->last[code] = t->pending[code];
        t->pending[code] = 0;
        t->codes |= t->pending_codes;
        t->pending_codes = 0;
    }
    t->last_holding = held;
    if (held)
        p5_tally_hold(t, held, n);
    t->last_cycles = n;
}

/* Reports everything gathered to `pmu` (whose feed the tally's is) and
 * empties the tally: the cycles before the last run in one call, with
 * their occurrences, then the last run as it came, then the occurrences of
 * the cycle not ended yet. */
void p5_tally_report(struct p5_tally *t, struct p5_pmu *pmu);

#endif
