/* The model's queue of event occurrences: kept per cycle until every
 * occurrence of that cycle is known, then reported to the PMU and the
 * cycle ticked (docs/pmu-interface.md).  Each source is one (event,
 * sub-event bits) pair the model reports (the table in nbm_occurrences.c),
 * declared to the PMU, which publishes which ESCRs count it
 * (pmu/emulated/netburst_feed.h).  Occurrences are kept by level: logical processor
 * << 1 | user (CPL 1-3), as source counts the PMU routes onto the cycle's
 * outputs when the cycle is reported (nb_feed_occur_counts), or, when its
 * router says no PMI handler can run before then (one logical processor,
 * no sampling), handed to the router at once, which routes them onto the
 * cycle's outputs (nb_router_occur); the PMU refuses outputs routed before an
 * ESCR write, so a write the model did not expect fails the run instead
 * of miscounting.  The model keeps no route: it says what happened, in
 * which cycle, at which level.
 *
 * Memory is bounded by the machine, not by a latency (docs/netburst-model.md,
 * "Memory use"): the cycles ahead are a ring of at most NBM_RING_MAX cycles;
 * an occurrence further ahead waits as one entry of a heap (a run of
 * cycles, e.g. a stall, as one entry), and those come only from the
 * instructions in flight (the ROB and the uop queue) and the stores in the
 * store buffer, each with a bounded number of accesses of bounded size
 * (traces/trace.h). */
#ifndef SIM_NETBURST_NBM_OCCURRENCES_H
#define SIM_NETBURST_NBM_OCCURRENCES_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/emulated/netburst_feed.h"
#include "pmu/emulated/netburst_pmu.h"

/* The model's sources: what it reports (nbm_occurrences.c has each one's
 * event and sub-events). */
enum nbm_source_id {
    NBM_RUNNING, NBM_INSTR_RETIRED, NBM_INSTR_COMPLETED, NBM_UOPS_RETIRED,
    NBM_BR_MMNP, NBM_BR_MMNM, NBM_BR_MMTP, NBM_BR_MMTM, NBM_MISPRED,
    NBM_TYPE_COND, NBM_TYPE_CALL, NBM_TYPE_RETURN, NBM_TYPE_INDIRECT, NBM_TYPE_INDIRECT_CALL,
    NBM_MTYPE_COND, NBM_MTYPE_RETURN, NBM_MTYPE_INDIRECT, NBM_MTYPE_INDIRECT_CALL,
    NBM_X87_UOP, NBM_PACKED_SP, NBM_PACKED_DP, NBM_SCALAR_SP, NBM_SCALAR_DP, NBM_MMX64, NBM_MMX128,
    NBM_MOVES_P0, NBM_MOVES_P2,
    NBM_TCMISS, NBM_ITLB_HIT, NBM_ITLB_MISS, NBM_WALK_DTMISS, NBM_WALK_ITMISS,
    NBM_LSC, NBM_SSC, NBM_SPLIT_LD, NBM_SPLIT_ST,
    NBM_MOB_NO_STD, NBM_MOB_PARTIAL, NBM_MOB_UNALIGNED,
    NBM_L2_HITE, NBM_L2_HITM, NBM_L2_MISS,
    NBM_BSQ_READ, NBM_BSQ_WRITEBACK, NBM_IOQ_READ, NBM_IOQ_WRITE, NBM_DRDY_OWN, NBM_DRDY_DRV,
    NBM_MS_XFER,
    NBM_UQ_BUILD, NBM_UQ_DELIVER, NBM_UQ_ROM, NBM_SBFULL,
    NBM_CLEAR, NBM_UOPS_BOGUS, NBM_INSTR_BOGUS, NBM_COMPLETED_BOGUS,
    NBM_INSTR_TAGGED, NBM_FE_TAGGED, NBM_EXEC_TAG0, NBM_EXEC_TAG1, NBM_EXEC_TAG2, NBM_EXEC_TAG3,
    NBM_REPLAY_TAGGED,
    /* TC_deliver_mode by both front ends' modes: NBM_TC_MODES + mode 0 * 4 + mode 1
     * (the 16 in one word of the PMU's masks: nb_feed_watched_any). */
    NBM_TC_MODES,
    NBM_NUM_SOURCES = NBM_TC_MODES + 16, /* at most NB_MAX_SOURCES */
};

/* A logical processor's front end in a cycle: TC_deliver_mode's letter
 * (NBM_MODE_IDLE: the processor is inactive). */
enum nbm_fe_mode { NBM_MODE_DELIVER, NBM_MODE_BUILD, NBM_MODE_ROM, NBM_MODE_IDLE };

enum { NBM_LEVELS = 4 };

/* The most cycles the ring covers (it starts smaller and doubles as
 * needed): 16384, beyond any single latency of the presets. */
enum { NBM_RING_MAX = 1 << 14 };

/* Occurrences beyond the ring: `count` of `source` at `level` in each
 * cycle of [cycle, until), or with source NBM_NUM_SOURCES front end
 * `level`'s state `count` (mode | user << 2) in each. */
struct nbm_far {
    uint64_t cycle, until;
    uint8_t source, level;
    uint16_t count;
};

struct nbm_bucket {
    uint64_t used[NBM_LEVELS][2]; /* sources with a count, by level (bit s % 64 of word s / 64) */
    uint8_t frontend[2];         /* mode | user << 2, for cycles before frontend_from */
};

/* A cycle's counts at one level (kept apart from the buckets, sized for the
 * levels in use: 2 a logical processor). */
typedef uint16_t nbm_counts[NBM_NUM_SOURCES];

/* A retirement waiting for its cycle's nb_pmu_retire (nbm_occurrences_retire),
 * with the cycle the instruction's first uop allocated (interrupts are
 * taken by it) and how much later than `cycle` it retires on the machine:
 * a PEBS assist flushed it after the model had timed it. */
struct nbm_retired {
    uint64_t cycle, allocated, delay;
    struct nb_retirement r;
    uint64_t regs[NB_NUM_REGS];
};

/* One logical processor's waiting retirements, in order: a ring. */
struct nbm_retire_queue {
    struct nbm_retired *entries;
    uint64_t mask, head, tail;   /* size - 1 (a power of two); first; past the last */
};

/* A PMI on its way to a logical processor's core (docs/netburst-model.md,
 * "Sampling"): it reaches the core at cycle `at`, from which no new
 * instruction allocates; those allocated before retire, and the interrupt
 * is taken at the end of cycle `take` (`placed`: known) before the next
 * one, the processor's retirement `boundary` (its retirement queue's
 * sequence number), whose address it returns to (`eip`, once reported).
 * A trace that ends before that instruction leaves the PMI pending. */
struct nbm_interrupt {
    bool recognized, placed;
    uint64_t at, take, boundary, eip;
};

/* A PEBS assist the PMU took for a logical processor at a retirement (the
 * tagged uop's) that happens on the machine in `cycle`, with its accesses,
 * and the cycle the next instruction the model has timed retires on the
 * machine (UINT64_MAX: none; the assist flushes the instructions timed
 * after the tagged one). */
struct nbm_flush {
    uint64_t cycle, next_retired;
    const struct nb_assist *log;
};

struct nbm_occurrences {
    struct nb_pmu *pmu;
    const struct nb_feed *feed;  /* what the PMU decides for the sources */
    struct nbm_bucket *ring;
    struct nb_escr_outputs *outputs; /* [cycle % size]: the detections routed ahead, apart from
                                  * the buckets: a cache line each, all that routing ahead
                                  * touches */
    nbm_counts *counts;          /* [cycle % size << level_shift | level] */
    uint64_t size;               /* a power of two, at most NBM_RING_MAX */
    struct nbm_far *far;         /* a binary heap by cycle: the occurrences beyond the ring */
    size_t n_far, far_capacity;
    bool failed;                 /* out of memory: occurrences were lost, the run fails */
    bool refused;                /* the PMU refused outputs routed before an ESCR write */
    unsigned levels;
    unsigned level_shift;        /* levels == 1 << level_shift */
    uint64_t now;                /* the next cycle to tick */
    int threads;
    struct nb_thread reported[2]; /* each logical processor's state as last set in the PMU */
    uint64_t active_until[2];    /* each logical processor is active before this cycle */
    uint8_t frontend[2];         /* each front end's mode | user << 2 since frontend_from */
    uint64_t frontend_from[2];
    struct nb_router router;     /* ahead: occurrences go straight onto the outputs */
    uint64_t source_until;       /* ahead: no source counts wait from this cycle on */
    /* Routed ahead (one logical processor): each cycle's own events by the
     * front end's state (mode | user << 2): whether RUNNING and
     * TC_deliver_mode count at its level, and whether the processor's
     * level is reported to the PMU (either is watched). */
    struct nbm_cycle_sources {
        bool running, tc, level;
    } cycle_sources[8];
    bool cycles_quiet;           /* routed ahead, and no state's cycle sources report
                                  * anything: cycles may be idle (nb_pmu_tick_idle) */
    struct nbm_retire_queue retired[2];
    struct nbm_interrupt interrupt[2];
    uint32_t pmi_latency;        /* cycles from the APIC's bus-clock edge to the core */
    uint32_t bus_ratio;          /* core clocks per bus clock: the APIC takes a PMI in at an edge */
    void (*sample)(void *context, int thread, uint64_t cycle, uint64_t eip, bool precise);
    void *context;
    uint64_t assists_seen[2];    /* the PMU's assists already handed over, by thread */
    void (*assist)(void *machine, int thread, const struct nbm_flush *flush);
    void *machine;
};

/* Declares the sources to the PMU.  False when out of memory. */
bool nbm_occurrences_init(struct nbm_occurrences *occs, struct nb_pmu *pmu, int threads);
void nbm_occurrences_free(struct nbm_occurrences *occs);

/* Whether occurrences may be routed ahead, and their routes by level,
 * from the PMU's feed: again after anything may have written the PMU
 * (nbm_occurrences_tick_until also does when the feed changed). */
void nbm_occurrences_watch(struct nbm_occurrences *occs);

/* Whether the PMU samples, or a PMI waits to be taken: retirements must
 * then be reported. */
static inline bool nbm_occurrences_sampling(const struct nbm_occurrences *occs)
{
    return nb_feed_sampling(occs->feed) || nb_feed_pmi_waiting(occs->feed);
}

/* Whether some mechanism can tag, and the tags of a uop at `level`. */
static inline bool nbm_occurrences_tagging(const struct nbm_occurrences *occs)
{
    return nb_feed_tagging(occs->feed);
}

static inline uint8_t nbm_occurrences_uop_tags(const struct nbm_occurrences *occs, unsigned level,
                                               const struct nb_uop *uop)
{
    return nb_feed_uop_tags_at(occs->feed, (int)(level >> 1), level & 1, uop);
}

/* Queues a retirement of `thread` in `cycle` (not yet ticked) for
 * nb_pmu_retire, in retirement order, of an instruction whose first uop
 * allocated in `allocated`; r->regs (NB_NUM_REGS values) may be NULL.  Out
 * of memory: occs->failed. */
void nbm_occurrences_retire(struct nbm_occurrences *occs, int thread, uint64_t cycle,
                            uint64_t allocated, const struct nb_retirement *r);

/* From occs->assist: the instructions of `thread` queued after the one
 * being reported (those a PEBS assist flushed) retire on the machine
 * `cycles` later (the PMU is still told of them in the cycles their
 * events are in). */
void nbm_occurrences_delay(struct nbm_occurrences *occs, int thread, uint64_t cycles);

/* Whether some ESCR counts the source: the caller may skip work for it. */
static inline bool nbm_watched(const struct nbm_occurrences *occs, enum nbm_source_id source)
{
    return nb_feed_watched(occs->feed, source);
}

/* Records `count` occurrences in a cycle the ring holds. */
static inline void nbm_occur_put(struct nbm_occurrences *occs, uint64_t cycle, enum nbm_source_id source,
                                 unsigned level, unsigned count)
{
    uint64_t i = cycle & (occs->size - 1);
    if (nb_router_ahead(&occs->router)) {
        nb_router_occur(&occs->router, &occs->outputs[i], level, source, count);
        return;
    }
    occs->ring[i].used[level][source >> 6] |= 1ull << (source & 63);
    uint16_t *n = &occs->counts[i << occs->level_shift | level][source];
    *n = (uint16_t)(*n + count);
}

/* nbm_occur for a cycle beyond the ring: grows it up to NBM_RING_MAX, or
 * keeps the occurrence in the heap.  Out of memory: occs->failed. */
void nbm_occur_far(struct nbm_occurrences *occs, uint64_t cycle, enum nbm_source_id source,
                   unsigned level, unsigned count);

/* `count` occurrences of `source` in `cycle` (not yet ticked) at `level`. */
static inline void nbm_occur(struct nbm_occurrences *occs, uint64_t cycle, enum nbm_source_id source,
                             unsigned level, unsigned count)
{
    if (!nbm_watched(occs, source) || !count)
        return;
    if (cycle - occs->now < occs->size)
        nbm_occur_put(occs, cycle, source, level, count);
    else
        nbm_occur_far(occs, cycle, source, level, count);
}

/* One occurrence of `source` at `level` in each cycle of [from, until),
 * all not yet ticked (a stall).  Out of memory: occs->failed. */
void nbm_occur_span(struct nbm_occurrences *occs, uint64_t from, uint64_t until,
                    enum nbm_source_id source, unsigned level);

/* nbm_occurrences_frontend for a state other than the front end's now. */
void nbm_occurrences_frontend_change(struct nbm_occurrences *occs, unsigned level, uint64_t cycle,
                                     uint8_t state);

/* The front end of logical processor level >> 1 is in `mode` at the
 * level's CPL from `cycle` on.  Out of memory: occs->failed.  Inline: most
 * calls (one an instruction) change nothing. */
static inline void nbm_occurrences_frontend(struct nbm_occurrences *occs, unsigned level,
                                            uint64_t cycle, enum nbm_fe_mode mode)
{
    uint8_t state = (uint8_t)(mode | (level & 1) << 2);
    if (state != occs->frontend[level >> 1])
        nbm_occurrences_frontend_change(occs, level, cycle, state);
}

/* Logical processor `thread` is inactive from `cycle` on (its trace ended). */
void nbm_occurrences_thread_end(struct nbm_occurrences *occs, int thread, uint64_t cycle);

/* Reports and ticks every cycle before `cycle`.  A PEBS assist the PMU
 * takes at a retirement goes to occs->assist at once (its costs fall in
 * later cycles); after each tick it takes the pending PMIs whose interrupt
 * the pipeline has reached (occs->sample is told). */
void nbm_occurrences_tick_until(struct nbm_occurrences *occs, uint64_t cycle);

/* nbm_occurrences_tick_until when a cycle is due: most calls (one an
 * instruction) have none. */
static inline void nbm_occurrences_advance(struct nbm_occurrences *occs, uint64_t cycle)
{
    if (occs->now < cycle)
        nbm_occurrences_tick_until(occs, cycle);
}

#endif
