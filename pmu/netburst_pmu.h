/* The simulated NetBurst PMU: register state and the per-cycle pipeline
 * detector (ESCR) -> filter (CCCR) -> counter -> overflow -> PMI -> cascade.
 * docs/semantics.md describes every rule and its source.
 *
 * Typical use: inject the cycle's event occurrences with nb_pmu_event()
 * and its retirements with nb_pmu_retire(), then end the cycle with
 * nb_pmu_tick(); nb_pmu->last tells what happened.  Sampling (PEBS records
 * in pmu->memory, pending PMIs) is in netburst_sampling.c.
 */
#ifndef PMU_NETBURST_PMU_H
#define PMU_NETBURST_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "cccr_filter.h"
#include "escr_detector.h"
#include "netburst_events.h"
#include "msr.h"
#include "netburst_msrs.h"
#include "sim_memory.h"

struct nb_pmu_config {
    int model;  /* CPUID family 15 model: 0, 1, 2, 3, 4 or 6 */
    bool ht;    /* Hyper-Threading: two logical processors */
};

struct nb_thread {
    bool active;
    uint8_t cpl;  /* 0-3; 0 counts as OS, 1-3 as USR */
};

/* What the last completed cycle did, for waveforms and tests. */
struct nb_cycle_report {
    uint8_t bus[NB_NUM_ESCRS];
    bool compare[NB_NUM_COUNTERS];
    uint8_t increment[NB_NUM_COUNTERS];
    bool overflow[NB_NUM_COUNTERS];
    uint8_t pmi[NB_NUM_COUNTERS];    /* bit t: PMI delivered to thread t */
    uint8_t pebs_pmi;                /* bit t: PEBS-threshold PMI delivered to thread t */
    bool counted[NB_NUM_COUNTERS];   /* the counter was enabled this cycle; last:
                                      * a tick clears the fields before it and
                                      * rewrites it only when ENABLEs change */
};

/* The general registers of a PEBS record after EFLAGS and EIP, in the
 * record's order (SDM Vol. 3B, figures "PEBS Record Format" and "64-bit
 * PEBS Record Format"); R8-R15 exist in the 64-bit record only. */
enum nb_reg {
    NB_REG_FLAGS, NB_REG_AX, NB_REG_BX, NB_REG_CX, NB_REG_DX, NB_REG_SI, NB_REG_DI,
    NB_REG_BP, NB_REG_SP, NB_REG_R8, NB_REG_R9, NB_REG_R10, NB_REG_R11, NB_REG_R12,
    NB_REG_R13, NB_REG_R14, NB_REG_R15, NB_NUM_REGS
};

/* The tagging mechanisms that can mark a uop (SDM 18.18.7, at-retirement
 * counting); a uop may carry several tags. */
enum {
    NB_TAG_FRONT_END = 1u << 0,
    NB_TAG_EXECUTION = 1u << 1,
    NB_TAG_REPLAY = 1u << 2,
};

/* One retiring instruction, as the timing model reports it. */
struct nb_retirement {
    uint64_t eip;          /* its linear address */
    uint8_t tags;          /* NB_TAG_* bits of its tagged uop, 0 if untagged */
    bool ia32e;            /* retired in IA-32e mode: 64-bit DS save area and record */
    const uint64_t *regs;  /* NB_NUM_REGS values at the start of the instruction, or
                            * NULL when unknown: a PEBS record then holds zeros */
};

/* A PMI delivered to a thread and not yet taken (IEBS). */
struct nb_pending_pmi {
    bool pending;
    uint64_t since;        /* the cycle (count of completed cycles) that delivered it */
};

/* What taking a pending PMI samples: when it was delivered and the EIP
 * retiring when it is taken. */
struct nb_pmi_sample {
    uint64_t delivered;    /* cycle number printed with the PMI */
    uint64_t eip;          /* the thread's last retired EIP (0 before any) */
};

struct nb_pmu {
    struct nb_pmu_config config;
    uint64_t escr[NB_NUM_ESCRS];
    uint64_t cccr[NB_NUM_COUNTERS];
    uint64_t counter[NB_NUM_COUNTERS];
    uint64_t pebs_enable, pebs_matrix_vert, tc_precise_event, ds_area, misc_enable;
    bool edge_history[NB_NUM_COUNTERS];
    uint8_t pmi_armed[NB_NUM_COUNTERS];  /* bit t: a PMI for thread t waits */
    struct nb_thread thread[2];
    uint64_t cycles;                     /* completed cycles */
    struct nb_cycle_report last;

    /* Derived from the registers whenever they change (nb_pmu_wrmsr, a
     * cascade start), so that a cycle touches only what can count. */
    int16_t escr_event[NB_NUM_ESCRS];    /* event each ESCR selects, or -1 */
    uint64_t selecting[NB_NUM_EVENTS]; /* bit e: ESCR e selects the event */
    struct escr_rules escr_rules[NB_NUM_ESCRS];
    uint64_t detecting;                  /* bit e: escr_event[e] >= 0 */
    int8_t cccr_escr[NB_NUM_COUNTERS];   /* ESCR each CCCR's select routes to, or -1 */
    struct cccr_rules cccr_rules[NB_NUM_COUNTERS];
    uint32_t enabled;                    /* bit c: CCCR c has ENABLE */
    uint32_t escr_readers[NB_NUM_ESCRS]; /* enabled counters routed to each ESCR */
    uint32_t complemented;               /* enabled counters with COMPARE and
                                          * COMPLEMENT: a zero bus counts */
    uint32_t plain;                      /* enabled counters without COMPARE */
    uint32_t gate_open[3];               /* [n]: enabled counters whose ACTIVE_THREAD
                                          * lets them count with n threads active */
    uint32_t edge_high;                  /* bit c: edge_history[c] is true */
    uint32_t forced;                     /* enabled counters with FORCE_OVF */
    uint32_t armed;                      /* bit c: pmi_armed[c] is not 0 */
    uint32_t counted_mask;               /* bit c: last.counted[c] */
    uint8_t thread_context[2];           /* escr_context_of an occurrence by each thread now */
    uint64_t escr_writes;                /* ESCR writes so far (routes older are stale) */

    /* Sampling (docs/semantics.md, "PEBS" and "IEBS"). */
    struct sim_memory memory;            /* holds the DS save area and PEBS buffer */
    uint8_t pebs_threads;                /* bit t: IA32_PEBS_ENABLE enables PEBS for thread t */
    uint8_t pebs_armed;                  /* bit t: the next tagged retirement of t takes the assist */
    uint8_t pebs_pmi_raised;             /* bit t: a record reached the threshold this cycle */
    uint64_t last_eip[2];                /* each thread's last retired EIP */
    struct nb_pending_pmi pending[2];

    struct nb_occurrence *occurrences;   /* this cycle's; reset by each tick */
    size_t n_occurrences, cap_occurrences;
};

/* Whether `model` is a NetBurst CPUID model this PMU knows. */
bool nb_model_supported(int model);

/* Initialises to the reset state: all PMU MSRs zero, thread 0 active at
 * CPL 3, thread 1 idle at CPL 3.  Returns false for an unknown model. */
bool nb_pmu_init(struct nb_pmu *pmu, struct nb_pmu_config config);
void nb_pmu_fini(struct nb_pmu *pmu);

/* Whether `msr` exists on this configuration; *writable gets the bits
 * software may set in it (for counters and IA32_MISC_ENABLE all of them:
 * nothing faults there, see docs/semantics.md). */
bool nb_msr_writable(const struct nb_pmu_config *config, uint32_t msr, uint64_t *writable);

/* Without HT, a CCCR value that can count (ENABLE, CASCADE or the
 * extended-cascade bit) must have ACTIVE_THREAD 11. */
bool nb_cccr_active_thread_ok(const struct nb_pmu_config *config, uint64_t cccr);

msr_status nb_pmu_rdmsr(const struct nb_pmu *pmu, uint32_t msr, uint64_t *value);
msr_status nb_pmu_wrmsr(struct nb_pmu *pmu, uint32_t msr, uint64_t value);

/* RDPMC: ECX bits 30:0 pick the counter, bit 31 asks for the low 32 bits. */
msr_status nb_pmu_rdpmc(const struct nb_pmu *pmu, uint32_t ecx, uint64_t *value);

/* Sets a logical processor's state; thread 1 exists only with HT. */
bool nb_pmu_set_thread(struct nb_pmu *pmu, int thread, bool active, int cpl);

/* Adds `count` occurrences of an event with sub-event bits `mask` by
 * `thread` (at its current CPL) to the current cycle.  False for an unknown
 * event or thread, or when out of memory. */
bool nb_pmu_event(struct nb_pmu *pmu, int event, uint16_t mask, int thread, uint32_t count);

/* Occurrences detected ahead, for a timing model that reports many of the
 * same (event, sub-event bits) pair every cycle: nb_pmu_route gives the
 * ESCRs that count an occurrence of `event` with bits `mask` in `context`
 * (escr_context_of; pmu->thread_context[t] for thread t now) with the ESCRs
 * as they stand, valid until an ESCR is written (pmu->escr_writes
 * changes). */
uint64_t nb_pmu_route(const struct nb_pmu *pmu, int event, uint16_t mask, uint8_t context);

/* A cycle's detections routed ahead: the value each ESCR drives on its
 * bus (0-15) and which ESCRs were driven. */
struct nb_buses {
    uint64_t driven;                     /* bit e: bus[e] was added to */
    uint8_t bus[NB_NUM_ESCRS];
};

/* Adds `count` detections to the buses of `escrs` (a route). */
static inline void nb_buses_add(struct nb_buses *buses, uint64_t escrs, uint32_t count)
{
    buses->driven |= escrs;
    for (; escrs; escrs &= escrs - 1)
        escr_bus_add(&buses->bus[__builtin_ctzll(escrs)], count);
}

/* Ends the current cycle: runs detectors, filters, counters, overflow,
 * PMI delivery and cascading, and fills pmu->last. */
void nb_pmu_tick(struct nb_pmu *pmu);

/* Fast-forward (the bench's `tick N`): runs at once as many as it can, up
 * to `n`, of the cycles without occurrences, retirements or register
 * writes that come next, as nb_pmu_tick would one by one, and returns how
 * many (0: run the next one with nb_pmu_tick).  It runs them when the next
 * such cycle, tried on a copy of the PMU, repeats the one just ended: the
 * same pmu->last, delivering no PMI, changing nothing but the counters,
 * each by the same increment (COMPLEMENT on an empty bus, FORCE_OVF);
 * then up to the cycle before a counter without FORCE_OVF would overflow,
 * whose cycle must run on its own.  With `frozen` (a waveform records every
 * change), only when no counter changes either. */
uint64_t nb_pmu_fast_forward(struct nb_pmu *pmu, uint64_t n, bool frozen);

/* nb_pmu_tick for a timing model: the cycle's detections are `buses` (and
 * any nb_pmu_event occurrences), which it leaves cleared for another
 * cycle.  Counters, flags, PMIs and cascades are nb_pmu_tick's when no
 * ESCR is written between routing the detections and the tick; of
 * pmu->last it fills pebs_pmi only (the model reads nothing else). */
void nb_pmu_tick_buses(struct nb_pmu *pmu, struct nb_buses *buses);

/* Reports one retiring instruction of `thread` in the current cycle: call
 * in retirement order, before the cycle's nb_pmu_tick.  With PEBS armed for
 * the thread and the uop tagged by the mechanism IQ_COUNTER4 counts, the
 * microassist writes a PEBS record (docs/semantics.md, "PEBS").  False
 * for an unknown thread or when out of memory. */
bool nb_pmu_retire(struct nb_pmu *pmu, int thread, const struct nb_retirement *r);

/* IEBS: whether a delivered PMI waits for `thread`; *since gets its
 * cycle.  Taking it clears it and samples the thread's last retired EIP:
 * the model calls nb_pmu_take_pmi when its interrupt is taken (the skid).
 * nb_pmu_take_pmi returns false when none was pending. */
bool nb_pmu_pending_pmi(const struct nb_pmu *pmu, int thread, uint64_t *since);
bool nb_pmu_take_pmi(struct nb_pmu *pmu, int thread, struct nb_pmi_sample *sample);

/* Tagging queries for a timing model (docs/semantics.md, "Tagging
 * queries"): the sub-event bits of `event` that the ESCRs selecting it
 * would count for an occurrence by `thread` at `cpl` (front-end tagging:
 * uop_type's TAGLOADS/TAGSTORES); and the OR of the 4-bit tag values of
 * the ESCRs with Tag Enable that select `event` and would count an
 * occurrence with sub-event bits `mask` (execution tagging). */
uint16_t nb_pmu_selected_mask(const struct nb_pmu *pmu, int event, int thread, int cpl);
uint8_t nb_pmu_tag_bits(const struct nb_pmu *pmu, int event, uint16_t mask, int thread, int cpl);

/* Notes PMIs delivered to `threads` (bit t: thread t) this cycle as
 * pending; used by the cycle pipeline. */
void nb_pmu_note_pmi(struct nb_pmu *pmu, uint8_t threads);

/* Recomputes the per-counter derived state (enabled, escr_readers,
 * complemented, plain, forced, gate_open) from the CCCRs; run after anything
 * changes ENABLE or the routing. */
void nb_pmu_counters_changed(struct nb_pmu *pmu);

/* The simulated NetBurst backend of the MSR interface.  Logical CPUs 0 and
 * (with HT) 1 share the package's PMU, as on the real processor. */
struct msr_backend *nb_backend_create(struct nb_pmu_config config);
struct nb_pmu *nb_backend_pmu(struct msr_backend *backend);

#endif
