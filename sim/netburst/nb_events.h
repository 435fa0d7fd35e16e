/* The model's event occurrences, kept per cycle until every event of that
 * cycle is known, then reported to the PMU and the cycle ticked.  Each
 * slot is one (event, sub-event mask) pair of the catalog (nb_events.c).
 * Occurrences are kept by level: logical processor << 1 | user (CPL 1-3),
 * as slot counts routed to the ESCRs when the cycle is reported, or, when
 * nothing can write an ESCR before then (one logical processor, no
 * sampling: nb_events_watch), routed at once onto the cycle's buses.
 *
 * Memory is bounded by the machine, not by a latency (docs/netburst-model.md,
 * "Memory use"): the cycles ahead are a ring of at most NB_RING_MAX cycles;
 * an occurrence further ahead waits as one entry of a heap (a run of
 * cycles, e.g. a stall, as one entry), and those come only from the
 * instructions in flight (the ROB and the uop queue) and the stores in the
 * store buffer, each with a bounded number of accesses of bounded size
 * (traces/trace.h). */
#ifndef SIM_NETBURST_NB_EVENTS_H
#define SIM_NETBURST_NB_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/netburst_pmu.h"

enum nb_slot {
    NB_RUNNING, NB_INSTR_RETIRED, NB_INSTR_COMPLETED, NB_UOPS_RETIRED,
    NB_BR_MMNP, NB_BR_MMNM, NB_BR_MMTP, NB_BR_MMTM, NB_MISPRED,
    NB_TYPE_COND, NB_TYPE_CALL, NB_TYPE_RETURN, NB_TYPE_INDIRECT, NB_TYPE_INDIRECT_CALL,
    NB_MTYPE_COND, NB_MTYPE_RETURN, NB_MTYPE_INDIRECT, NB_MTYPE_INDIRECT_CALL,
    NB_X87_UOP, NB_PACKED_SP, NB_PACKED_DP, NB_SCALAR_SP, NB_SCALAR_DP, NB_MMX64, NB_MMX128,
    NB_MOVES_P0, NB_MOVES_P2,
    NB_TCMISS, NB_ITLB_HIT, NB_ITLB_MISS, NB_WALK_DTMISS, NB_WALK_ITMISS,
    NB_LSC, NB_SSC, NB_SPLIT_LD, NB_SPLIT_ST,
    NB_MOB_NO_STD, NB_MOB_PARTIAL, NB_MOB_UNALIGNED,
    NB_L2_HITE, NB_L2_HITM, NB_L2_MISS,
    NB_BSQ_READ, NB_BSQ_WRITEBACK, NB_IOQ_READ, NB_IOQ_WRITE, NB_DRDY_OWN, NB_DRDY_DRV,
    NB_TC_MODE, NB_MS_XFER,
    NB_UQ_BUILD, NB_UQ_DELIVER, NB_UQ_ROM, NB_SBFULL,
    NB_CLEAR, NB_UOPS_BOGUS, NB_INSTR_BOGUS, NB_COMPLETED_BOGUS,
    NB_INSTR_TAGGED, NB_FE_TAGGED, NB_EXEC_TAG0, NB_EXEC_TAG1, NB_EXEC_TAG2, NB_EXEC_TAG3,
    NB_REPLAY_TAGGED,
    NB_NUM_SLOTS,           /* at most 128: the slot masks are two 64-bit words */
};

/* A logical processor's front end in a cycle: TC_deliver_mode's letter
 * (NB_MODE_IDLE: the processor is inactive). */
enum nb_fe_mode { NB_MODE_DELIVER, NB_MODE_BUILD, NB_MODE_ROM, NB_MODE_IDLE };

enum { NB_LEVELS = 4 };

/* The most cycles the ring covers (it starts smaller and doubles as
 * needed): 16384, beyond any single latency of the presets. */
enum { NB_RING_MAX = 1 << 14 };

/* Occurrences beyond the ring: `count` of `slot` at `level` in each cycle
 * of [cycle, until), or with slot NB_NUM_SLOTS front end `level`'s state
 * `count` (mode | user << 2) in each. */
struct nb_far {
    uint64_t cycle, until;
    uint8_t slot, level;
    uint16_t count;
};

struct nb_bucket {
    uint64_t used[NB_LEVELS][2]; /* slot bits with a count, by level (bit s % 64 of word s / 64) */
    struct nb_buses buses;       /* detections routed ahead */
    uint8_t frontend[2];         /* mode | user << 2, for cycles before frontend_from */
};

/* A cycle's counts at one level (kept apart from the buckets, sized for the
 * levels in use: 2 a logical processor). */
typedef uint16_t nb_counts[NB_NUM_SLOTS];

/* What the PMU tags (docs/netburst-model.md, "Tagging"), by level.  The
 * replay conditions a uop can meet (the timing model marks each uop with
 * them; replay tagging tags it when one is in `replay`): */
enum nb_replay_cause {
    NB_CAUSE_L1_MISS = 1u << 0,       /* a load uop missing the L1 */
    NB_CAUSE_L2_MISS = 1u << 1,       /* a load uop missing the L2 */
    NB_CAUSE_DTLB_LOAD = 1u << 2,     /* a load uop whose DTLB lookup missed */
    NB_CAUSE_DTLB_STORE = 1u << 3,    /* a store-address uop whose DTLB lookup missed */
    NB_CAUSE_MISPREDICTED = 1u << 4,  /* a mispredicted branch's branch uop */
    NB_CAUSE_MOB_PARTIAL = 1u << 5,   /* a load replayed by the MOB: PARTIAL_DATA */
    NB_CAUSE_MOB_UNALIGNED = 1u << 6, /* the same, UNALGN_ADDR */
    NB_CAUSE_SPLIT_LOAD = 1u << 7,    /* a load uop crossing a 64-byte line */
    NB_CAUSE_SPLIT_STORE = 1u << 8,   /* a store-address uop crossing one */
};

struct nb_tagging {
    bool any;                    /* some mechanism tags */
    uint16_t front_end[NB_LEVELS]; /* uop_type's TAGLOADS/TAGSTORES bits selected */
    uint8_t execution[NB_NUM_SLOTS][NB_LEVELS]; /* tag bits an occurrence of the slot sets */
    uint16_t replay[NB_LEVELS];  /* the NB_CAUSE_* bits replay tagging tags */
};

/* A retirement waiting for its cycle's nb_pmu_retire (nb_events_retire). */
struct nb_retired {
    uint64_t cycle;
    struct nb_retirement r;
    uint64_t regs[NB_NUM_REGS];
};

/* One logical processor's waiting retirements, in order: a ring. */
struct nb_retire_queue {
    struct nb_retired *entries;
    uint64_t mask, head, tail;   /* size - 1 (a power of two); first; past the last */
};

/* IEBS: each logical processor's pending PMI as the model sees it. */
struct nb_pmi_wait {
    bool seen;                   /* the pending PMI has been noticed */
    bool precise;                /* it is PEBS's interrupt-threshold PMI */
};

struct nb_events {
    struct nb_pmu *pmu;
    struct nb_bucket *ring;
    nb_counts *counts;           /* [cycle % size << level_shift | level] */
    uint64_t size;               /* a power of two, at most NB_RING_MAX */
    struct nb_far *far;          /* a binary heap by cycle: the occurrences beyond the ring */
    size_t n_far, far_capacity;
    bool failed;                 /* out of memory: occurrences were lost, the run fails */
    unsigned levels;
    unsigned level_shift;        /* levels == 1 << level_shift */
    uint64_t now;                /* the next cycle to tick */
    uint64_t wanted[2];          /* slots whose event some ESCR selects (as used) */
    int threads;
    uint64_t active_until[2];    /* each logical processor is active before this cycle */
    uint8_t frontend[2];         /* each front end's mode | user << 2 since frontend_from */
    uint64_t frontend_from[2];
    int16_t event[NB_NUM_SLOTS];
    uint16_t mask[NB_NUM_SLOTS];
    uint64_t route[ESCR_CONTEXTS][NB_NUM_SLOTS]; /* by context, the ESCRs counting each slot */
    bool direct;                 /* occurrences go straight onto the buses, */
    uint64_t level_route[NB_LEVELS][NB_NUM_SLOTS]; /* by these routes */
    uint64_t slot_until;         /* direct: no slot counts wait from this cycle on */
    uint16_t tc_mask[4][4];      /* TC_deliver_mode bits by [mode 0][mode 1] */
    uint64_t tc_route[ESCR_CONTEXTS][4][4]; /* by context, the ESCRs counting them */
    uint64_t route_writes;       /* pmu->escr_writes the routes were made with */
    struct nb_tagging tagging;
    bool sampling;               /* PEBS or a PMI is programmed: retirements are reported */
    struct nb_retire_queue retired[2];
    struct nb_pmi_wait pmi[2];
    uint32_t pmi_skid;           /* cycles from a PMI's delivery to its taking */
    void (*sample)(void *context, int thread, uint64_t cycle, uint64_t eip, bool precise);
    void *context;
};

bool nb_events_init(struct nb_events *ev, struct nb_pmu *pmu, int threads);
void nb_events_free(struct nb_events *ev);

/* Which slots an ESCR selects and the ESCRs that count each (its route),
 * what the PMU tags and whether it samples; again after anything may have
 * written the PMU. */
void nb_events_watch(struct nb_events *ev);

/* Queues a retirement of `thread` in `cycle` (not yet ticked) for
 * nb_pmu_retire, in retirement order; `regs` (NB_NUM_REGS values) may be
 * NULL.  Out of memory: ev->failed. */
void nb_events_retire(struct nb_events *ev, int thread, uint64_t cycle,
                      const struct nb_retirement *r);

/* Whether a slot is watched: the caller may skip work for it. */
static inline bool nb_watched(const struct nb_events *ev, enum nb_slot slot)
{
    return (ev->wanted[slot >> 6] >> (slot & 63)) & 1;
}

/* Records `count` occurrences in a cycle the ring holds. */
static inline void nb_event_put(struct nb_events *ev, uint64_t cycle, enum nb_slot slot,
                                unsigned level, unsigned count)
{
    uint64_t i = cycle & (ev->size - 1);
    if (ev->direct) {
        nb_buses_add(&ev->ring[i].buses, ev->level_route[level][slot], count);
        return;
    }
    ev->ring[i].used[level][slot >> 6] |= 1ull << (slot & 63);
    uint16_t *n = &ev->counts[i << ev->level_shift | level][slot];
    *n = (uint16_t)(*n + count);
}

/* nb_event for a cycle beyond the ring: grows it up to NB_RING_MAX, or
 * keeps the occurrence in the heap.  Out of memory: ev->failed. */
void nb_event_far(struct nb_events *ev, uint64_t cycle, enum nb_slot slot, unsigned level,
                  unsigned count);

/* `count` occurrences in `cycle` (not yet ticked) at `level`. */
static inline void nb_event(struct nb_events *ev, uint64_t cycle, enum nb_slot slot,
                            unsigned level, unsigned count)
{
    if (!nb_watched(ev, slot) || !count)
        return;
    if (cycle - ev->now < ev->size)
        nb_event_put(ev, cycle, slot, level, count);
    else
        nb_event_far(ev, cycle, slot, level, count);
}

/* One occurrence of `slot` at `level` in each cycle of [from, until), all
 * not yet ticked (a stall).  Out of memory: ev->failed. */
void nb_event_span(struct nb_events *ev, uint64_t from, uint64_t until, enum nb_slot slot,
                   unsigned level);

/* The front end of logical processor level >> 1 is in `mode` at the
 * level's CPL from `cycle` on.  Out of memory: ev->failed. */
void nb_events_frontend(struct nb_events *ev, unsigned level, uint64_t cycle,
                        enum nb_fe_mode mode);

/* Logical processor `thread` is inactive from `cycle` on (its trace ended). */
void nb_events_thread_end(struct nb_events *ev, int thread, uint64_t cycle);

/* Reports and ticks every cycle before `cycle`, taking each pending PMI
 * pmi_skid cycles after its delivery (ev->sample is told). */
void nb_events_advance(struct nb_events *ev, uint64_t cycle);

#endif
