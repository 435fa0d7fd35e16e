/* The NetBurst PMU's state: registers, the caches derived from them and
 * the sampling state.  Only pmu/ (and the white-box tests of pmu/) include
 * this header; everyone else uses the functions of netburst_pmu.h and
 * netburst_feed.h. */
#ifndef PMU_EMULATED_NETBURST_PMU_STATE_H
#define PMU_EMULATED_NETBURST_PMU_STATE_H

#include "cccr_filter.h"
#include "escr_detector.h"
#include "netburst_feed.h"
#include "netburst_pmu.h"
#include "sim_memory.h"

/* A PMI delivered to a thread and not yet taken (IEBS). */
struct nb_pending_pmi {
    bool pending;
    bool precise;          /* a PEBS record reaching the interrupt threshold raised it */
    uint64_t since;        /* the cycle (count of completed cycles) that delivered it */
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
    struct nb_cycle_outcome last;

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
                                          * COMPLEMENT: a zero output counts */
    uint32_t plain;                      /* enabled counters without COMPARE */
    uint32_t gate_open[3];               /* [n]: enabled counters whose ACTIVE_THREAD
                                          * lets them count with n threads active */
    uint32_t edge_high;                  /* bit c: edge_history[c] is true */
    uint32_t forced;                     /* enabled counters with FORCE_OVF */
    uint32_t armed;                      /* bit c: pmi_armed[c] is not 0 */
    uint32_t counted_mask;               /* bit c: last.counted[c] */
    uint8_t thread_context[2];           /* escr_context_of an occurrence by each thread now */

    /* Plain counts added in batches by nb_pmu_tick_routed
     * (netburst_cycle.c, "Batched plain counts"): the batched counters'
     * increments wait in batch_sum, each ESCR's output summed over the
     * cycles since the last flush; a batched counter's value is its
     * register plus its ESCR's sum (nb_pmu_counter_value). */
    uint32_t batched;                    /* counters counting in batch_sum */
    bool batch_chosen;                   /* `batched` is chosen, for batch_threads */
    uint8_t batch_threads;               /* active logical processors it was chosen for */
    uint32_t batch_cycles;               /* cycles since the last flush */
    uint64_t batch_escrs;                /* ESCRs the batched counters read */
    uint64_t unbatched_escrs;            /* ESCRs the other enabled counters read */
    uint16_t batch_sum[NB_NUM_ESCRS];

    /* Sampling (docs/semantics.md, "PEBS" and "IEBS"). */
    struct sim_memory memory;            /* holds the DS save area and PEBS buffer */
    uint8_t pebs_threads;                /* bit t: IA32_PEBS_ENABLE enables PEBS for thread t */
    uint8_t pebs_armed;                  /* bit t: the next tagged retirement of t takes the assist */
    uint8_t pebs_pmi_raised;             /* bit t: a record reached the threshold this cycle */
    uint64_t last_eip[2];                /* each thread's last retired EIP */
    struct nb_pending_pmi pending[2];

    struct nb_feed *feed;                /* a timing model's sources and what the
                                          * registers decide for them, or NULL */
    struct nb_occurrence *occurrences;   /* this cycle's; reset by each tick */
    size_t n_occurrences, cap_occurrences;

    nb_pmu_observer *observer;           /* told of every cycle completed, or NULL */
    void *observer_context;

    /* Linked PMUs (nb_pmu_link): the chain after the PMU a model feeds. */
    struct nb_pmu *head;                 /* the PMU this one is linked to, or NULL */
    struct nb_pmu *next;                 /* the next PMU linked to the same head */
    bool links_refused;                  /* a head whose group samples or tags */
    struct nb_escr_outputs routed;       /* a linked PMU's outputs of the cycle being
                                          * reported, routed through the head's feed */
};

/* What nb_feed_refresh rewrites of pmu->feed: after an ESCR write the
 * routes and tagging, after IA32_PEBS_ENABLE or MSR_PEBS_MATRIX_VERT the
 * tagging, after a CCCR write the sampling, after a thread's CPL changes
 * the contexts.  Any refresh also notes whether a PMI waits. */
enum {
    NB_FEED_ROUTES = 1u << 0,
    NB_FEED_TAGGING = 1u << 1,
    NB_FEED_SAMPLING = 1u << 2,
    NB_FEED_CONTEXTS = 1u << 3,
    NB_FEED_ALL = 0xf,
};
void nb_feed_refresh(struct nb_pmu *pmu, unsigned what);

/* Takes `pmu` out of its links: a linked PMU out of its head's chain and
 * feed, a head's linked PMUs unlinked from it; destroying a PMU does. */
void nb_pmu_unlink(struct nb_pmu *pmu);

/* Sets a logical processor's state in `pmu` alone (nb_pmu_set_thread
 * sets it in the PMUs linked to it too). */
void nb_pmu_thread_state(struct nb_pmu *pmu, int thread, bool active, int cpl);

/* The sub-event bits of `event` the ESCRs selecting it count in `context`
 * (front-end tagging reads uop_type's), and the OR of the 4-bit tag values
 * of the ESCRs with Tag Enable selecting `event` that count an occurrence
 * with bits `mask` in `context` (execution tagging). */
uint16_t nb_counted_bits(const struct nb_pmu *pmu, enum nb_event_id event, uint8_t context);
uint8_t nb_execution_tag(const struct nb_pmu *pmu, enum nb_event_id event, uint16_t mask,
                         uint8_t context);

/* Notes PMIs delivered to `threads` (bit t: thread t) this cycle as
 * pending, `precise` when PEBS's threshold raised them. */
void nb_pmu_note_pmi(struct nb_pmu *pmu, uint8_t threads, bool precise);

/* Recomputes the per-counter derived state (enabled, escr_readers,
 * complemented, plain, forced, gate_open) from the CCCRs; run after anything
 * changes ENABLE or the routing.  It flushes the batched counts. */
void nb_pmu_counters_changed(struct nb_pmu *pmu);

/* Adds the batched counts to the counters' registers and batches nothing
 * until the next nb_pmu_tick_routed chooses again: run before anything
 * but a cycle changes a counter or what a counter counts. */
void nb_pmu_batch_flush(struct nb_pmu *pmu);

/* Counter c's value: its register plus its batched counts. */
static inline uint64_t nb_pmu_counter_value(const struct nb_pmu *pmu, int c)
{
    if (!(pmu->batched >> c & 1))
        return pmu->counter[c];
    return pmu->counter[c] + pmu->batch_sum[pmu->cccr_escr[c]];
}

#endif
