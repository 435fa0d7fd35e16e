/* The simulated P5 (Pentium) PMU: TSC 0x10, CESR 0x11, CTR0 0x12, CTR1
 * 0x13.  docs/semantics.md, "P5". */
#ifndef PMU_P5_PMU_H
#define PMU_P5_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "msr.h"

enum {
    P5_MSR_TSC = 0x10,
    P5_MSR_CESR = 0x11,
    P5_MSR_CTR0 = 0x12,
    P5_MSR_CTR1 = 0x13,
    P5_NUM_CODES = 64,
};

/* The CESR as p5_pmu_ticks() applies it, decoded once per CESR value.  A
 * counter adds each cycle (occurrences[code][0] & events[0]) +
 * (occurrences[code][1] & events[1]) + clocks[cpl == 3]: the masks are all
 * ones where its CC counts events at that privilege, clocks[] 1 where it
 * counts clocks. */
struct p5_counter_select {
    unsigned code;
    uint64_t events[2];
    uint64_t clocks[2];
};

struct p5_pmu {
    uint64_t tsc;
    uint64_t cesr;
    uint64_t ctr[2];
    uint8_t cpl;
    uint64_t cycles;
    /* This cycle's occurrences per event code, split by privilege:
     * [code][0] at CPL 0-2, [code][1] at CPL 3. */
    uint64_t occurrences[P5_NUM_CODES][2];
    uint64_t touched;            /* bit n: code n has occurrences this cycle */
    uint64_t last_increment[2];  /* what each counter added last cycle */
    uint64_t selected_cesr;      /* the CESR `select` was decoded from */
    struct p5_counter_select select[2];
};

/* Reset state: all registers zero, CPL 3. */
void p5_pmu_init(struct p5_pmu *pmu);

msr_status p5_pmu_rdmsr(const struct p5_pmu *pmu, uint32_t msr, uint64_t *value);
msr_status p5_pmu_wrmsr(struct p5_pmu *pmu, uint32_t msr, uint64_t value);

bool p5_pmu_set_cpl(struct p5_pmu *pmu, int cpl);

/* Adds `count` occurrences of the event with code `code` (0-63) at the
 * current CPL to this cycle.  Inline, like p5_pmu_ticks(): both run at
 * every simulated cycle. */
static inline void p5_pmu_event(struct p5_pmu *pmu, unsigned code, uint32_t count)
{
    pmu->occurrences[code & 0x3f][pmu->cpl == 3] += count;
    pmu->touched |= 1ull << (code & 0x3f);
}

/* Ends the cycle: the TSC and both counters advance. */
void p5_pmu_tick(struct p5_pmu *pmu);

/* Fast-forward (the bench's `tick N`): with no occurrences in the current
 * cycle, runs the `n` cycles without any that come next at once
 * (p5_pmu_ticks) and returns n; 0 when occurrences are pending.  With
 * `frozen` (a waveform records every change), only when such a cycle
 * changes neither counter nor last_increment. */
uint64_t p5_pmu_fast_forward(struct p5_pmu *pmu, uint64_t n, bool frozen);

/* Decodes pmu->cesr into pmu->select (p5_pmu_ticks() does when the CESR
 * changed). */
void p5_pmu_select(struct p5_pmu *pmu);

/* Ends n cycles that each had this cycle's occurrences: the same as n
 * times adding them again and calling p5_pmu_tick(), in one step (for
 * trace-driven models).  Nothing happens when n is 0. */
static inline void p5_pmu_ticks(struct p5_pmu *pmu, uint64_t n)
{
    if (n == 0)
        return;
    if (pmu->cesr != pmu->selected_cesr)
        p5_pmu_select(pmu);
    for (int c = 0; c < 2; c++) {
        const struct p5_counter_select *s = &pmu->select[c];
        const uint64_t *by_cpl = pmu->occurrences[s->code];
        pmu->last_increment[c] =
            (by_cpl[0] & s->events[0]) + (by_cpl[1] & s->events[1]) + s->clocks[pmu->cpl == 3];
        pmu->ctr[c] = (pmu->ctr[c] + pmu->last_increment[c] * n) & PMU_COUNTER_MASK;
    }
    pmu->tsc += n;
    pmu->cycles += n;
    /* Clears only the codes that have occurrences: a cycle touches a few. */
    for (uint64_t touched = pmu->touched; touched; touched &= touched - 1) {
        unsigned code = (unsigned)__builtin_ctzll(touched);
        pmu->occurrences[code][0] = pmu->occurrences[code][1] = 0;
    }
    pmu->touched = 0;
}

/* Ends n cycles (none when n is 0) for a model that applies the CESR's
 * selection (pmu->select, fresh) itself while the CESR and the CPL stay
 * put: counter c adds counted[c] in all, last_increment[c] in the last
 * cycle.  No occurrences may be pending. */
static inline void p5_pmu_add_cycles(struct p5_pmu *pmu, uint64_t n, const uint64_t counted[2],
                                     const uint64_t last_increment[2])
{
    if (n == 0)
        return;
    for (int c = 0; c < 2; c++) {
        pmu->last_increment[c] = last_increment[c];
        pmu->ctr[c] = (pmu->ctr[c] + counted[c]) & PMU_COUNTER_MASK;
    }
    pmu->tsc += n;
    pmu->cycles += n;
}

/* The CESR fields of counter 0 or 1. */
unsigned p5_cesr_event(uint64_t cesr, int counter);
unsigned p5_cesr_control(uint64_t cesr, int counter);

/* Address of "TSC", "CESR", "CTR0" or "CTR1" (case-insensitive, optional
 * "MSR_" prefix); 0 when unknown. */
uint32_t p5_msr_by_name(const char *name);

struct msr_backend *p5_backend_create(void);
struct p5_pmu *p5_backend_pmu(struct msr_backend *backend);

#endif
