/* The NetBurst event catalog: every event of the SDM's NetBurst tables with
 * its event select, the ESCRs that can detect it and its sub-events.  The
 * table is data (netburst_events.c); its sources and the disagreements
 * between them are in docs/events.md.
 */
#ifndef PMU_CATALOG_NETBURST_EVENTS_H
#define PMU_CATALOG_NETBURST_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/suggest.h"

struct nb_subevent {
    const char *name;
    uint8_t bit;                /* bit of the 16-bit ESCR event mask (ESCR bit 9 + bit) */
    bool thread_independent;    /* TI in the SDM's table; TS otherwise */
};

enum nb_event_flags {
    NB_EVENT_AT_RETIREMENT = 1 << 0,
    NB_EVENT_PEBS = 1 << 1,     /* can be used with PEBS */
    NB_EVENT_EXEC_TAG_UPSTREAM = 1 << 2,      /* tags uops for execution_event */
    NB_EVENT_FRONT_END_TAG_UPSTREAM = 1 << 3, /* tags uops for front_end_event */
};

struct nb_event_info {
    const char *name;
    uint8_t select;             /* ESCR event select, bits 30:25 */
    uint64_t escrs;             /* bit e set: ESCR nb_escrs[e] can detect it */
    uint8_t models;             /* bit m set: CPUID model m has the event */
    uint8_t flags;
    uint8_t n_subevents;
    const struct nb_subevent *subevents;
};

/* The `models` of an event every model has: CPUID models 0, 1, 2, 3, 4, 6. */
#define NB_ALL_CPUID_MODELS 0x5f

/* Each event's index in nb_event_table, in the catalog's order: the
 * identifiers a timing model reports occurrences with. */
enum nb_event_id {
    NB_EV_TC_DELIVER_MODE,
    NB_EV_BPU_FETCH_REQUEST,
    NB_EV_ITLB_REFERENCE,
    NB_EV_MEMORY_CANCEL,
    NB_EV_MEMORY_COMPLETE,
    NB_EV_LOAD_PORT_REPLAY,
    NB_EV_STORE_PORT_REPLAY,
    NB_EV_MOB_LOAD_REPLAY,
    NB_EV_PAGE_WALK_TYPE,
    NB_EV_BSQ_CACHE_REFERENCE,
    NB_EV_IOQ_ALLOCATION,
    NB_EV_IOQ_ACTIVE_ENTRIES,
    NB_EV_FSB_DATA_ACTIVITY,
    NB_EV_BSQ_ALLOCATION,
    NB_EV_BSQ_ACTIVE_ENTRIES,
    NB_EV_SSE_INPUT_ASSIST,
    NB_EV_PACKED_SP_UOP,
    NB_EV_PACKED_DP_UOP,
    NB_EV_SCALAR_SP_UOP,
    NB_EV_SCALAR_DP_UOP,
    NB_EV_64BIT_MMX_UOP,
    NB_EV_128BIT_MMX_UOP,
    NB_EV_X87_FP_UOP,
    NB_EV_X87_SIMD_MOVES_UOP,
    NB_EV_TC_MISC,
    NB_EV_GLOBAL_POWER_EVENTS,
    NB_EV_TC_MS_XFER,
    NB_EV_UOP_QUEUE_WRITES,
    NB_EV_RETIRED_MISPRED_BRANCH_TYPE,
    NB_EV_RETIRED_BRANCH_TYPE,
    NB_EV_RESOURCE_STALL,
    NB_EV_WC_BUFFER,
    NB_EV_B2B_CYCLES,
    NB_EV_BNR,
    NB_EV_SNOOP,
    NB_EV_RESPONSE,
    NB_EV_FRONT_END_EVENT,
    NB_EV_EXECUTION_EVENT,
    NB_EV_REPLAY_EVENT,
    NB_EV_INSTR_RETIRED,
    NB_EV_UOPS_RETIRED,
    NB_EV_UOP_TYPE,
    NB_EV_BRANCH_RETIRED,
    NB_EV_MISPRED_BRANCH_RETIRED,
    NB_EV_X87_ASSIST,
    NB_EV_MACHINE_CLEAR,
    NB_EV_INSTR_COMPLETED,
    NB_NUM_EVENTS
};

extern const struct nb_event_info nb_event_table[NB_NUM_EVENTS];

/* Index of the event called `name` (case-insensitive), or -1. */
int nb_event_find(const char *name);

/* The sub-event of `event` called `name` (case-insensitive), or NULL. */
const struct nb_subevent *nb_subevent_find(const struct nb_event_info *event, const char *name);

/* Offer every event's name, or every sub-event name of `event`, as what a
 * mistyped name may have meant (util/suggest.h). */
void nb_events_suggest(struct suggestion *near);
void nb_subevents_suggest(const struct nb_event_info *event, struct suggestion *near);

/* Index of the event an ESCR detects when its event select is `select`, or
 * -1 when that select means nothing on that ESCR. */
int nb_event_on_escr(int escr, unsigned select);

/* The names of the event's sub-events, ", "-separated, into buf. */
void nb_subevent_names(const struct nb_event_info *event, char *buf, size_t size);

/* Mask bits of `event` whose sub-events are thread-independent. */
uint16_t nb_event_ti_mask(const struct nb_event_info *event);

#endif
