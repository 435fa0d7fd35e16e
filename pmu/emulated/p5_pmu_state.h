/* The P5 PMU's state: its registers and what it derives from them.  Only
 * pmu/ (and the white-box tests of pmu/) include this header; everyone else
 * uses the functions of p5_pmu.h. */
#ifndef PMU_EMULATED_P5_PMU_STATE_H
#define PMU_EMULATED_P5_PMU_STATE_H

#include "p5_pmu.h"

/* What the CESR counts at the current CPL: decoded from the CESR and the
 * CPL by every CESR write and CPL change, with the feed, read by
 * p5_pmu_event() and p5_pmu_ticks(). */
struct p5_counting {
    uint64_t counted;       /* the OR of event_bit: the codes this PMU counts now */
    uint64_t event_bit[2];  /* the bit of the code counter c counts occurrences of, or 0 */
    uint64_t held_bit[2];   /* event_bit[c] when that code is a duration event, or 0 */
    uint64_t clock[2];      /* 1 when counter c counts clocks */
};

struct p5_pmu {
    uint64_t tsc;
    uint64_t cesr;
    uint64_t ctr[2];
    uint8_t cpl;
    uint64_t cycles;
    uint64_t last_increment[2];  /* what each counter added in the last cycle */
    uint64_t occurred[2];        /* what each counter counts of this cycle's occurrences */
    struct p5_counting counting;
    struct p5_feed feed;         /* counted: counting.counted of this PMU and of every PMU
                                  * linked after it (p5_pmu_link) */
    struct p5_pmu *next, *prev;  /* the PMUs linked after and before it, or NULL */
    p5_pmu_observer *observer;   /* told of every cycle completed, or NULL */
    void *observer_context;
};

/* Reset state: all registers zero, CPL 3. */
void p5_pmu_init(struct p5_pmu *pmu);

#endif
