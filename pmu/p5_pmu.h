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
};

/* Reset state: all registers zero, CPL 3. */
void p5_pmu_init(struct p5_pmu *pmu);

msr_status p5_pmu_rdmsr(const struct p5_pmu *pmu, uint32_t msr, uint64_t *value);
msr_status p5_pmu_wrmsr(struct p5_pmu *pmu, uint32_t msr, uint64_t value);

bool p5_pmu_set_cpl(struct p5_pmu *pmu, int cpl);

/* Adds `count` occurrences of the event with code `code` (0-63) at the
 * current CPL to this cycle. */
void p5_pmu_event(struct p5_pmu *pmu, unsigned code, uint32_t count);

/* Ends the cycle: the TSC and both counters advance. */
void p5_pmu_tick(struct p5_pmu *pmu);

/* Ends n cycles that each had this cycle's occurrences: the same as n
 * times adding them again and calling p5_pmu_tick(), in one step (for
 * trace-driven models).  Nothing happens when n is 0. */
void p5_pmu_ticks(struct p5_pmu *pmu, uint64_t n);

/* The CESR fields of counter 0 or 1. */
unsigned p5_cesr_event(uint64_t cesr, int counter);
unsigned p5_cesr_control(uint64_t cesr, int counter);

/* Address of "TSC", "CESR", "CTR0" or "CTR1" (case-insensitive, optional
 * "MSR_" prefix); 0 when unknown. */
uint32_t p5_msr_by_name(const char *name);

struct msr_backend *p5_backend_create(void);
struct p5_pmu *p5_backend_pmu(struct msr_backend *backend);

#endif
