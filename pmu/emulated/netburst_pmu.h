/* The simulated NetBurst PMU: register state and the per-cycle pipeline
 * detector (ESCR) -> filter (CCCR) -> counter -> overflow -> PMI -> cascade.
 * docs/semantics.md describes every rule and its source.
 *
 * Typical use (the bench, a test): inject the cycle's event occurrences
 * with nb_pmu_event() and its retirements with nb_pmu_retire(), then end
 * the cycle with nb_pmu_tick(); nb_pmu_last() tells what happened.  A
 * timing model reports through netburst_feed.h, which ends in the same
 * pipeline (docs/pmu-interface.md).  Sampling (the DS save area, PEBS
 * records, pending PMIs) is in netburst_sampling.c.
 */
#ifndef PMU_EMULATED_NETBURST_PMU_H
#define PMU_EMULATED_NETBURST_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "cccr_filter.h"
#include "escr_detector.h"
#include "pmu/programming/msr.h"
#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_msrs.h"

struct nb_thread {
    bool active;
    uint8_t cpl;  /* 0-3; 0 counts as OS, 1-3 as USR */
};

/* What the last completed cycle did, for waveforms and tests. */
struct nb_cycle_outcome {
    uint8_t output[NB_NUM_ESCRS];
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

/* One retiring instruction, as the timing model reports it. */
struct nb_retirement {
    uint64_t eip;          /* its linear address */
    uint8_t tags;          /* NB_TAG_* bits (netburst_metrics.h) of its tagged uop,
                            * 0 if untagged */
    bool ia32e;            /* retired in IA-32e mode: 64-bit DS save area and record */
    const uint64_t *regs;  /* NB_NUM_REGS values at the start of the instruction, or
                            * NULL when unknown: a PEBS record then holds zeros */
};

/* What taking a pending PMI samples: when it was delivered and where the
 * interrupt was taken. */
struct nb_pmi_sample {
    uint64_t delivered;    /* cycle number printed with the PMI */
    uint64_t eip;          /* the interrupt's return address (a timing model's,
                            * nb_pmu_take_pmi_at), or the thread's last retired
                            * EIP (nb_pmu_take_pmi; 0 before any) */
    bool precise;          /* PEBS's interrupt threshold raised it */
};

struct nb_pmu; /* opaque: defined in netburst_pmu_state.h, which only pmu/ includes */

/* A PMU in the reset state: all PMU MSRs zero, thread 0 active at CPL 3,
 * thread 1 idle at CPL 3.  NULL for an unknown model or out of memory. */
struct nb_pmu *nb_pmu_create(struct nb_pmu_config config);
void nb_pmu_destroy(struct nb_pmu *pmu);

const struct nb_pmu_config *nb_pmu_config_of(const struct nb_pmu *pmu);

msr_status nb_pmu_rdmsr(const struct nb_pmu *pmu, uint32_t msr, uint64_t *value);
msr_status nb_pmu_wrmsr(struct nb_pmu *pmu, uint32_t msr, uint64_t value);

/* RDPMC: ECX bits 30:0 pick the counter, bit 31 asks for the low 32 bits. */
msr_status nb_pmu_rdpmc(const struct nb_pmu *pmu, uint32_t ecx, uint64_t *value);

/* Counter `counter`'s value (0 for a counter that does not exist). */
uint64_t nb_pmu_counter(const struct nb_pmu *pmu, int counter);

/* Sets a logical processor's state; thread 1 exists only with HT. */
bool nb_pmu_set_thread(struct nb_pmu *pmu, int thread, bool active, int cpl);
struct nb_thread nb_pmu_thread(const struct nb_pmu *pmu, int thread);

/* Adds `count` occurrences of an event with sub-event bits `mask` by
 * `thread` (at its current CPL) to the current cycle.  False for an unknown
 * event or thread, or when out of memory. */
bool nb_pmu_event(struct nb_pmu *pmu, int event, uint16_t mask, int thread, uint32_t count);

/* The ESCRs that would count an occurrence of `event` with bits `mask` in
 * `context` (escr_context_of) with the ESCRs as they stand. */
uint64_t nb_pmu_route(const struct nb_pmu *pmu, int event, uint16_t mask, uint8_t context);

/* Ends the current cycle: runs detectors, filters, counters, overflow,
 * PMI delivery and cascading, and fills the report nb_pmu_last gives. */
void nb_pmu_tick(struct nb_pmu *pmu);

/* An observer of the PMU's cycles (a waveform: pmu/waveform/), called
 * with the PMU at the end of every cycle it completes.  With one set
 * (nb_pmu_observe; NULL for none), a timing model's cycles
 * (nb_pmu_tick_routed) fill the whole report nb_pmu_last gives, as
 * nb_pmu_tick's do, without batching their plain counts, and
 * nb_pmu_fast_forward runs no cycle: the counts are the same, the run
 * slower. */
typedef void nb_pmu_observer(void *context, const struct nb_pmu *pmu);
void nb_pmu_observe(struct nb_pmu *pmu, nb_pmu_observer *observer, void *context);

/* What the last completed cycle did, and how many cycles have completed. */
const struct nb_cycle_outcome *nb_pmu_last(const struct nb_pmu *pmu);
uint64_t nb_pmu_cycles(const struct nb_pmu *pmu);

/* Fast-forward (the bench's `tick N`): runs at once as many as it can, up
 * to `n`, of the cycles without occurrences, retirements or register
 * writes that come next, as nb_pmu_tick would one by one, and returns how
 * many (0: run the next one with nb_pmu_tick).  It runs them when the next
 * such cycle, tried on a copy of the PMU, repeats the one just ended: the
 * same report, delivering no PMI, changing nothing but the counters,
 * each by the same increment (COMPLEMENT on an empty output, FORCE_OVF);
 * then up to the cycle before a counter without FORCE_OVF would overflow,
 * whose cycle must run on its own.  With `frozen` (a waveform records every
 * change), only when no counter changes either. */
uint64_t nb_pmu_fast_forward(struct nb_pmu *pmu, uint64_t n, bool frozen);

/* Reports one retiring instruction of `thread` in the current cycle: call
 * in retirement order, before the cycle's nb_pmu_tick.  With PEBS armed for
 * the thread and the uop tagged by the mechanism IQ_COUNTER4 counts, the
 * microassist writes a PEBS record (docs/semantics.md, "PEBS").  False
 * for an unknown thread or when out of memory. */
bool nb_pmu_retire(struct nb_pmu *pmu, int thread, const struct nb_retirement *r);

/* The simulated memory the PMU writes PEBS records to and reads the DS
 * save area from (docs/semantics.md, "PEBS"): `size` 1 to 8 bytes, little
 * endian; unwritten bytes read as zero.  A write is false when out of
 * memory. */
bool nb_pmu_memory_write(struct nb_pmu *pmu, uint64_t addr, unsigned size, uint64_t value);
uint64_t nb_pmu_memory_read(const struct nb_pmu *pmu, uint64_t addr, unsigned size);

/* IEBS: whether a delivered PMI waits for `thread`; *since gets its
 * cycle.  Taking it clears it; nb_pmu_take_pmi (the bench's) samples the
 * thread's last retired EIP, and returns false when none was pending.  A
 * timing model takes it where its pipeline takes the interrupt, with the
 * return address (nb_pmu_take_pmi_at, netburst_feed.h). */
bool nb_pmu_pending_pmi(const struct nb_pmu *pmu, int thread, uint64_t *since);
bool nb_pmu_take_pmi(struct nb_pmu *pmu, int thread, struct nb_pmi_sample *sample);

/* Tagging queries (docs/semantics.md, "Tagging queries"): the sub-event
 * bits of `event` that the ESCRs selecting it would count for an
 * occurrence by `thread` at `cpl` (front-end tagging: uop_type's
 * TAGLOADS/TAGSTORES); and the OR of the 4-bit tag values of the ESCRs
 * with Tag Enable that select `event` and would count an occurrence with
 * sub-event bits `mask` (execution tagging). */
uint16_t nb_pmu_selected_mask(const struct nb_pmu *pmu, int event, int thread, int cpl);
uint8_t nb_pmu_tag_bits(const struct nb_pmu *pmu, int event, uint16_t mask, int thread, int cpl);

/* The simulated NetBurst backend of the MSR interface.  Logical CPUs 0 and
 * (with HT) 1 share the package's PMU, as on the real processor. */
struct msr_backend *nb_backend_create(struct nb_pmu_config config);
struct nb_pmu *nb_backend_pmu(struct msr_backend *backend);

#endif
