/* A model's reports batched and reported in a few calls (p5_pmu_batch.h). */
#include "p5_pmu_batch.h"

#include <string.h>

void p5_pmu_batch_init(struct p5_pmu_batch *t, struct p5_pmu *pmu)
{
    memset(t, 0, sizeof *t);
    t->pmu = pmu;
    t->feed = p5_pmu_feed(pmu);
    t->observed = p5_pmu_observed(pmu);
}

/* The lowest code of a non-empty set, taken out of it. */
static unsigned take_code(uint64_t *codes)
{
    unsigned code = (unsigned)__builtin_ctzll(*codes);
    *codes &= *codes - 1;
    return code;
}

void p5_pmu_batch_end_pending(struct p5_pmu_batch *t)
{
    for (uint64_t codes = t->pending_codes; codes;) {
        unsigned code = take_code(&codes);
        t->occurred[code] += t->pending[code];
        t->last[code] = t->pending[code];
        t->pending[code] = 0;
    }
    t->codes |= t->pending_codes;
    t->pending_codes = 0;
}

void p5_pmu_batch_hold(struct p5_pmu_batch *t, uint64_t held, uint64_t n)
{
    t->codes |= held;
    while (held)
        t->occurred[take_code(&held)] += n;
}

/* p5_pmu_event() takes at most UINT32_MAX occurrences at a time. */
static void report_occurrences(struct p5_pmu *pmu, unsigned code, uint64_t count)
{
    for (; count > UINT32_MAX; count -= UINT32_MAX)
        p5_pmu_event(pmu, code, UINT32_MAX);
    if (count)
        p5_pmu_event(pmu, code, (uint32_t)count);
}

/* What code `code` had in the last run: the occurrences of its first
 * cycle, a cycle each when it held. */
static uint64_t in_last_run(const struct p5_pmu_batch *t, unsigned code)
{
    uint64_t bit = 1ull << code;
    return (t->last_codes & bit ? t->last[code] : 0) +
           (t->last_holding & bit ? t->last_cycles : 0);
}

void p5_pmu_batch_flush(struct p5_pmu_batch *t)
{
    struct p5_pmu *pmu = t->pmu;
    for (uint64_t codes = t->codes; codes;) {
        unsigned code = take_code(&codes);
        report_occurrences(pmu, code, t->occurred[code] - in_last_run(t, code));
        t->occurred[code] = 0;
    }
    p5_pmu_ticks(pmu, t->cycles - t->last_cycles, 0);
    for (uint64_t codes = t->last_codes; codes;) {
        unsigned code = take_code(&codes);
        report_occurrences(pmu, code, t->last[code]);
    }
    p5_pmu_ticks(pmu, t->last_cycles, t->last_holding);
    for (uint64_t codes = t->pending_codes; codes;) {
        unsigned code = take_code(&codes);
        report_occurrences(pmu, code, t->pending[code]);
        t->pending[code] = 0;
    }
    t->codes = t->pending_codes = t->last_codes = t->last_holding = 0;
    t->cycles = t->last_cycles = 0;
}

void p5_pmu_batch_ticks_observed(struct p5_pmu_batch *t, uint64_t n, uint64_t holding)
{
    if (n == 0)
        return;
    for (uint64_t codes = t->pending_codes; codes;) {
        unsigned code = take_code(&codes);
        report_occurrences(t->pmu, code, t->pending[code]);
        t->pending[code] = 0;
    }
    t->pending_codes = 0;
    p5_pmu_ticks(t->pmu, n, holding);
}
