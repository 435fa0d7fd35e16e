/* A timing model's reports to the P5 PMU, batched by the PMU's rules
 * (docs/pmu-interface.md, "P5"): the model says what happened, as it
 * would to p5_pmu_event() and p5_pmu_ticks(), into a batch the PMU reads
 * at the points where anything outside the model can see or change the
 * PMU (a region hook, a CPL change, the end of the run: the model calls
 * p5_pmu_batch_flush there).
 *
 * Flushed, the PMU's registers end as they would have one report at a
 * time: with the CESR and the CPL fixed, what a counter adds over many
 * cycles is the sum of what it adds in each (the occurrences of its code,
 * one a cycle for a duration event that holds, one a cycle when it counts
 * clocks: docs/semantics.md, "P5"), whichever cycle each occurrence came
 * in; and the last cycle, which sets the last increments, is reported as
 * it came, with the occurrences of its run of cycles.  Occurrences the
 * PMU's feed says would not count are dropped as they come, as
 * p5_pmu_event() would drop them. */
#ifndef PMU_EMULATED_P5_PMU_BATCH_H
#define PMU_EMULATED_P5_PMU_BATCH_H

#include <stdint.h>

#include "p5_pmu.h"

/* Written only through the functions below. */
struct p5_pmu_batch {
    struct p5_pmu *pmu;
    const struct p5_feed *feed;     /* the PMU's */
    bool observed;                  /* the PMU has an observer (p5_pmu_observe): each
                                     * run of cycles is reported as it comes */
    uint64_t pending_codes;         /* codes with occurrences in the cycle not ended yet */
    uint64_t pending[P5_NUM_CODES];
    uint64_t codes;                 /* codes with occurrences in the cycles ended */
    uint64_t occurred[P5_NUM_CODES]; /* ... their occurrences, duration events' cycles included */
    uint64_t cycles;                /* cycles ended */
    /* The last run of cycles ended (p5_pmu_batch_ticks()): its length, the
     * counted duration events that held, the occurrences of its first
     * cycle. */
    uint64_t last_cycles, last_holding, last_codes;
    uint64_t last[P5_NUM_CODES];
};

/* An empty batch for `pmu` (and the PMUs linked after it); when the PMU
 * has an observer (a waveform), the batch reports every run of cycles as
 * it comes, so that the observer sees each cycle. */
void p5_pmu_batch_init(struct p5_pmu_batch *t, struct p5_pmu *pmu);

/* As p5_pmu_event(): `count` occurrences of `code` in the cycle not ended
 * yet; nothing when the feed says they would not count. */
static inline void p5_pmu_batch_event(struct p5_pmu_batch *t, unsigned code, uint64_t count)
{
    if (p5_feed_counts(t->feed, code)) {
        t->pending[code] += count;
        t->pending_codes |= 1ull << code;
    }
}

/* p5_pmu_batch_event() of a code the feed counts (the caller looked). */
static inline void p5_pmu_batch_counted_event(struct p5_pmu_batch *t, unsigned code,
                                              uint64_t count)
{
    t->pending[code & (P5_NUM_CODES - 1)] += count;
    t->pending_codes |= 1ull << (code & (P5_NUM_CODES - 1));
}

/* Moves the pending occurrences to those of the cycles ended. */
void p5_pmu_batch_end_pending(struct p5_pmu_batch *t);

/* The duration events of `held` (counted ones) held in n cycles. */
void p5_pmu_batch_hold(struct p5_pmu_batch *t, uint64_t held, uint64_t n);

/* As p5_pmu_ticks(): ends the cycle not ended yet and n - 1 more
 * (nothing when n is 0), in which the duration events of `holding` hold
 * (duration event codes only). */
/* p5_pmu_batch_ticks of an observed PMU: the pending occurrences and the
 * run of cycles reported now. */
void p5_pmu_batch_ticks_observed(struct p5_pmu_batch *t, uint64_t n, uint64_t holding);

static inline void p5_pmu_batch_ticks(struct p5_pmu_batch *t, uint64_t n, uint64_t holding)
{
    if (__builtin_expect(t->observed, 0)) {
        p5_pmu_batch_ticks_observed(t, n, holding);
        return;
    }
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
        p5_pmu_batch_end_pending(t);
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
        p5_pmu_batch_hold(t, held, n);
    t->last_cycles = n;
}

/* Reports everything batched to the PMU and empties the batch: the cycles
 * before the last run in one call, with their occurrences, then the last
 * run as it came, then the occurrences of the cycle not ended yet. */
void p5_pmu_batch_flush(struct p5_pmu_batch *t);

#endif
