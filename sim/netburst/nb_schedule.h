/* The model's schedule of event occurrences: kept per cycle until every
 * occurrence of that cycle is known, then reported to the PMU and the
 * cycle ticked (docs/pmu-interface.md).  Each source is one (event,
 * sub-event bits) pair the model reports (the table in nb_schedule.c),
 * declared to the PMU, which publishes which ESCRs count it
 * (pmu/emulated/netburst_feed.h).  Occurrences are kept by level: logical processor
 * << 1 | user (CPL 1-3), as source counts the PMU routes onto the cycle's
 * buses when the cycle is reported (nb_feed_occur_counts), or, when its
 * router says no PMI handler can run before then (one logical processor,
 * no sampling), handed to the router at once, which routes them onto the
 * cycle's buses (nb_router_occur); the PMU refuses buses routed before an
 * ESCR write, so a write the model did not expect fails the run instead
 * of miscounting.  The model keeps no route: it says what happened, in
 * which cycle, at which level.
 *
 * Memory is bounded by the machine, not by a latency (docs/netburst-model.md,
 * "Memory use"): the cycles ahead are a ring of at most NB_RING_MAX cycles;
 * an occurrence further ahead waits as one entry of a heap (a run of
 * cycles, e.g. a stall, as one entry), and those come only from the
 * instructions in flight (the ROB and the uop queue) and the stores in the
 * store buffer, each with a bounded number of accesses of bounded size
 * (traces/trace.h). */
#ifndef SIM_NETBURST_NB_SCHEDULE_H
#define SIM_NETBURST_NB_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/emulated/netburst_feed.h"
#include "pmu/emulated/netburst_pmu.h"

/* The model's sources: what it reports (nb_schedule.c has each one's
 * event and sub-events). */
enum nb_source_id {
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
    NB_MS_XFER,
    NB_UQ_BUILD, NB_UQ_DELIVER, NB_UQ_ROM, NB_SBFULL,
    NB_CLEAR, NB_UOPS_BOGUS, NB_INSTR_BOGUS, NB_COMPLETED_BOGUS,
    NB_INSTR_TAGGED, NB_FE_TAGGED, NB_EXEC_TAG0, NB_EXEC_TAG1, NB_EXEC_TAG2, NB_EXEC_TAG3,
    NB_REPLAY_TAGGED,
    /* TC_deliver_mode by both front ends' modes: NB_TC_MODES + mode 0 * 4 + mode 1
     * (the 16 in one word of the PMU's masks: nb_feed_watched_any). */
    NB_TC_MODES,
    NB_NUM_SOURCES = NB_TC_MODES + 16, /* at most NB_MAX_SOURCES */
};

/* A logical processor's front end in a cycle: TC_deliver_mode's letter
 * (NB_MODE_IDLE: the processor is inactive). */
enum nb_fe_mode { NB_MODE_DELIVER, NB_MODE_BUILD, NB_MODE_ROM, NB_MODE_IDLE };

enum { NB_LEVELS = 4 };

/* The most cycles the ring covers (it starts smaller and doubles as
 * needed): 16384, beyond any single latency of the presets. */
enum { NB_RING_MAX = 1 << 14 };

/* Occurrences beyond the ring: `count` of `source` at `level` in each
 * cycle of [cycle, until), or with source NB_NUM_SOURCES front end
 * `level`'s state `count` (mode | user << 2) in each. */
struct nb_far {
    uint64_t cycle, until;
    uint8_t source, level;
    uint16_t count;
};

struct nb_bucket {
    uint64_t used[NB_LEVELS][2]; /* sources with a count, by level (bit s % 64 of word s / 64) */
    uint8_t frontend[2];         /* mode | user << 2, for cycles before frontend_from */
};

/* A cycle's counts at one level (kept apart from the buckets, sized for the
 * levels in use: 2 a logical processor). */
typedef uint16_t nb_counts[NB_NUM_SOURCES];

/* A retirement waiting for its cycle's nb_pmu_retire (nb_schedule_retire),
 * with the cycle the instruction's first uop allocated (interrupts are
 * taken by it) and how much later than `cycle` it retires on the machine:
 * a PEBS assist flushed it after the model had timed it. */
struct nb_retired {
    uint64_t cycle, allocated, delay;
    struct nb_retirement r;
    uint64_t regs[NB_NUM_REGS];
};

/* One logical processor's waiting retirements, in order: a ring. */
struct nb_retire_queue {
    struct nb_retired *entries;
    uint64_t mask, head, tail;   /* size - 1 (a power of two); first; past the last */
};

/* A PMI on its way to a logical processor's core (docs/netburst-model.md,
 * "Sampling"): it reaches the core at cycle `at`, from which no new
 * instruction allocates; those allocated before retire, and the interrupt
 * is taken at the end of cycle `take` (`placed`: known) before the next
 * one, the processor's retirement `boundary` (its retirement queue's
 * sequence number), whose address it returns to (`eip`, once reported).
 * A trace that ends before that instruction leaves the PMI pending. */
struct nb_interrupt {
    bool recognized, placed;
    uint64_t at, take, boundary, eip;
};

/* A PEBS assist the PMU took for a logical processor at a retirement (the
 * tagged uop's) that happens on the machine in `cycle`, with its accesses,
 * and the cycle the next instruction the model has timed retires on the
 * machine (UINT64_MAX: none; the assist flushes the instructions timed
 * after the tagged one). */
struct nb_flush {
    uint64_t cycle, next_retired;
    const struct nb_assist *log;
};

struct nb_schedule {
    struct nb_pmu *pmu;
    const struct nb_feed *feed;  /* what the PMU decides for the sources */
    struct nb_bucket *ring;
    struct nb_buses *buses;      /* [cycle % size]: the detections routed ahead, apart from
                                  * the buckets: a cache line each, all that routing ahead
                                  * touches */
    nb_counts *counts;           /* [cycle % size << level_shift | level] */
    uint64_t size;               /* a power of two, at most NB_RING_MAX */
    struct nb_far *far;          /* a binary heap by cycle: the occurrences beyond the ring */
    size_t n_far, far_capacity;
    bool failed;                 /* out of memory: occurrences were lost, the run fails */
    bool refused;                /* the PMU refused buses routed before an ESCR write */
    unsigned levels;
    unsigned level_shift;        /* levels == 1 << level_shift */
    uint64_t now;                /* the next cycle to tick */
    int threads;
    struct nb_thread reported[2]; /* each logical processor's state as last set in the PMU */
    uint64_t active_until[2];    /* each logical processor is active before this cycle */
    uint8_t frontend[2];         /* each front end's mode | user << 2 since frontend_from */
    uint64_t frontend_from[2];
    struct nb_router router;     /* ahead: occurrences go straight onto the buses */
    uint64_t source_until;       /* ahead: no source counts wait from this cycle on */
    /* Routed ahead (one logical processor): each cycle's own events by the
     * front end's state (mode | user << 2): whether RUNNING and
     * TC_deliver_mode count at its level, and whether the processor's
     * level is reported to the PMU (either is watched). */
    struct nb_cycle_sources {
        bool running, tc, level;
    } cycle_sources[8];
    struct nb_retire_queue retired[2];
    struct nb_interrupt interrupt[2];
    uint32_t pmi_latency;        /* cycles from the APIC's bus-clock edge to the core */
    uint32_t bus_ratio;          /* core clocks per bus clock: the APIC takes a PMI in at an edge */
    void (*sample)(void *context, int thread, uint64_t cycle, uint64_t eip, bool precise);
    void *context;
    uint64_t assists_seen[2];    /* the PMU's assists already handed over, by thread */
    void (*assist)(void *machine, int thread, const struct nb_flush *flush);
    void *machine;
};

/* Declares the sources to the PMU.  False when out of memory. */
bool nb_schedule_init(struct nb_schedule *sched, struct nb_pmu *pmu, int threads);
void nb_schedule_free(struct nb_schedule *sched);

/* Whether occurrences may be routed ahead, and their routes by level,
 * from the PMU's feed: again after anything may have written the PMU
 * (nb_schedule_tick_until also does when the feed changed). */
void nb_schedule_watch(struct nb_schedule *sched);

/* Whether the PMU samples, or a PMI waits to be taken: retirements must
 * then be reported. */
static inline bool nb_schedule_sampling(const struct nb_schedule *sched)
{
    return nb_feed_sampling(sched->feed) || nb_feed_pmi_waiting(sched->feed);
}

/* Whether some mechanism can tag, and the tags of a uop at `level`. */
static inline bool nb_schedule_tagging(const struct nb_schedule *sched)
{
    return nb_feed_tagging(sched->feed);
}

static inline uint8_t nb_schedule_uop_tags(const struct nb_schedule *sched, unsigned level,
                                           const struct nb_uop *uop)
{
    return nb_feed_uop_tags_at(sched->feed, (int)(level >> 1), level & 1, uop);
}

/* Queues a retirement of `thread` in `cycle` (not yet ticked) for
 * nb_pmu_retire, in retirement order, of an instruction whose first uop
 * allocated in `allocated`; r->regs (NB_NUM_REGS values) may be NULL.  Out
 * of memory: sched->failed. */
void nb_schedule_retire(struct nb_schedule *sched, int thread, uint64_t cycle,
                        uint64_t allocated, const struct nb_retirement *r);

/* From sched->assist: the instructions of `thread` queued after the one
 * being reported (those a PEBS assist flushed) retire on the machine
 * `cycles` later (the PMU is still told of them in the cycles their
 * events are in). */
void nb_schedule_delay(struct nb_schedule *sched, int thread, uint64_t cycles);

/* Whether some ESCR counts the source: the caller may skip work for it. */
static inline bool nb_watched(const struct nb_schedule *sched, enum nb_source_id source)
{
    return nb_feed_watched(sched->feed, source);
}

/* Records `count` occurrences in a cycle the ring holds. */
static inline void nb_occur_put(struct nb_schedule *sched, uint64_t cycle, enum nb_source_id source,
                                unsigned level, unsigned count)
{
    uint64_t i = cycle & (sched->size - 1);
    if (nb_router_ahead(&sched->router)) {
        nb_router_occur(&sched->router, &sched->buses[i], level, source, count);
        return;
    }
    sched->ring[i].used[level][source >> 6] |= 1ull << (source & 63);
    uint16_t *n = &sched->counts[i << sched->level_shift | level][source];
    *n = (uint16_t)(*n + count);
}

/* nb_occur for a cycle beyond the ring: grows it up to NB_RING_MAX, or
 * keeps the occurrence in the heap.  Out of memory: sched->failed. */
void nb_occur_far(struct nb_schedule *sched, uint64_t cycle, enum nb_source_id source,
                  unsigned level, unsigned count);

/* `count` occurrences of `source` in `cycle` (not yet ticked) at `level`. */
static inline void nb_occur(struct nb_schedule *sched, uint64_t cycle, enum nb_source_id source,
                            unsigned level, unsigned count)
{
    if (!nb_watched(sched, source) || !count)
        return;
    if (cycle - sched->now < sched->size)
        nb_occur_put(sched, cycle, source, level, count);
    else
        nb_occur_far(sched, cycle, source, level, count);
}

/* One occurrence of `source` at `level` in each cycle of [from, until),
 * all not yet ticked (a stall).  Out of memory: sched->failed. */
void nb_occur_span(struct nb_schedule *sched, uint64_t from, uint64_t until,
                   enum nb_source_id source, unsigned level);

/* nb_schedule_frontend for a state other than the front end's now. */
void nb_schedule_frontend_change(struct nb_schedule *sched, unsigned level, uint64_t cycle,
                                 uint8_t state);

/* The front end of logical processor level >> 1 is in `mode` at the
 * level's CPL from `cycle` on.  Out of memory: sched->failed.  Inline: most
 * calls (one an instruction) change nothing. */
static inline void nb_schedule_frontend(struct nb_schedule *sched, unsigned level,
                                        uint64_t cycle, enum nb_fe_mode mode)
{
    uint8_t state = (uint8_t)(mode | (level & 1) << 2);
    if (state != sched->frontend[level >> 1])
        nb_schedule_frontend_change(sched, level, cycle, state);
}

/* Logical processor `thread` is inactive from `cycle` on (its trace ended). */
void nb_schedule_thread_end(struct nb_schedule *sched, int thread, uint64_t cycle);

/* Reports and ticks every cycle before `cycle`.  A PEBS assist the PMU
 * takes at a retirement goes to sched->assist at once (its costs fall in
 * later cycles); after each tick it takes the pending PMIs whose interrupt
 * the pipeline has reached (sched->sample is told). */
void nb_schedule_tick_until(struct nb_schedule *sched, uint64_t cycle);

/* nb_schedule_tick_until when a cycle is due: most calls (one an
 * instruction) have none. */
static inline void nb_schedule_advance(struct nb_schedule *sched, uint64_t cycle)
{
    if (sched->now < cycle)
        nb_schedule_tick_until(sched, cycle);
}

#endif
