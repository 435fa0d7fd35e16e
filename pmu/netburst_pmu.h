/* The simulated NetBurst PMU: register state and the per-cycle pipeline
 * detector (ESCR) -> filter (CCCR) -> counter -> overflow -> PMI -> cascade.
 * docs/semantics.md describes every rule and its source.
 *
 * Typical use: inject the cycle's event occurrences with nb_pmu_event(),
 * then end the cycle with nb_pmu_tick(); nb_pmu->last tells what happened.
 */
#ifndef PMU_NETBURST_PMU_H
#define PMU_NETBURST_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "cccr_filter.h"
#include "escr_detector.h"
#include "msr.h"
#include "netburst_msrs.h"

struct nb_config {
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
    bool counted[NB_NUM_COUNTERS];   /* the counter was enabled this cycle; last:
                                      * a tick clears the fields before it and
                                      * rewrites it only when ENABLEs change */
};

struct nb_pmu {
    struct nb_config config;
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
    struct escr_rules escr_rules[NB_NUM_ESCRS];
    uint64_t detecting;                  /* bit e: escr_event[e] >= 0 */
    int8_t cccr_escr[NB_NUM_COUNTERS];   /* ESCR each CCCR's select routes to, or -1 */
    struct cccr_rules cccr_rules[NB_NUM_COUNTERS];
    uint32_t enabled;                    /* bit c: CCCR c has ENABLE */
    uint32_t escr_readers[NB_NUM_ESCRS]; /* enabled counters routed to each ESCR */
    uint32_t complemented;               /* enabled counters with COMPARE and
                                          * COMPLEMENT: a zero bus counts */
    uint32_t edge_high;                  /* bit c: edge_history[c] is true */
    uint32_t counted_mask;               /* bit c: last.counted[c] */
    uint8_t thread_context[2];           /* escr_context_of an occurrence by each thread now */

    struct nb_occurrence *occurrences;   /* this cycle's; reset by each tick */
    size_t n_occurrences, cap_occurrences;
};

/* Whether `model` is a NetBurst CPUID model this PMU knows. */
bool nb_model_supported(int model);

/* Initialises to the reset state: all PMU MSRs zero, thread 0 active at
 * CPL 3, thread 1 idle at CPL 3.  Returns false for an unknown model. */
bool nb_pmu_init(struct nb_pmu *pmu, struct nb_config config);
void nb_pmu_fini(struct nb_pmu *pmu);

/* Whether `msr` exists on this configuration; *writable gets the bits
 * software may set in it (for counters and IA32_MISC_ENABLE all of them:
 * nothing faults there, see docs/semantics.md). */
bool nb_msr_writable(const struct nb_config *config, uint32_t msr, uint64_t *writable);

/* Without HT, a CCCR value that can count (ENABLE, CASCADE or the
 * extended-cascade bit) must have ACTIVE_THREAD 11. */
bool nb_cccr_active_thread_ok(const struct nb_config *config, uint64_t cccr);

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

/* Ends the current cycle: runs detectors, filters, counters, overflow,
 * PMI delivery and cascading, and fills pmu->last. */
void nb_pmu_tick(struct nb_pmu *pmu);

/* Recomputes the per-counter derived state (enabled, escr_readers,
 * complemented) from the CCCRs; run after anything changes ENABLE or the
 * routing. */
void nb_pmu_counters_changed(struct nb_pmu *pmu);

/* The simulated NetBurst backend of the MSR interface.  Logical CPUs 0 and
 * (with HT) 1 share the package's PMU, as on the real processor. */
struct msr_backend *nb_backend_create(struct nb_config config);
struct nb_pmu *nb_backend_pmu(struct msr_backend *backend);

#endif
