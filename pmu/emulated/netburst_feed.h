/* How a timing model reports to the NetBurst PMU (docs/pmu-interface.md).
 *
 * A model says what happened; the PMU decides what it does to a register.
 * The model declares its sources once: the (event, sub-event bits) pairs
 * it reports, by compile-time event identifier.  The PMU publishes, for
 * those sources, what its registers decide: which ESCRs count an
 * occurrence of each source in each context (the routes), which sources
 * anything counts at all, what each tagging mechanism tags, whether
 * sampling is programmed, and the memory accesses of each PEBS assist it
 * takes.  The PMU rewrites that publication itself on every register write
 * (or assist) that changes it; the model reads it only through the inline
 * functions below.
 *
 * A model reports an occurrence as (source, level, count), the level
 * being its logical processor and whether at CPL 3, onto the struct
 * nb_escr_outputs of its cycle (a cycle's detections): the PMU routes it there,
 * by the routes of the occurrence's context now (nb_feed_occur,
 * nb_feed_occur_counts) or, for a model that records occurrences ahead of
 * the cycles it reports, by a router's copy of the routes (struct
 * nb_router), and drives the ESCRs' outputs.  Every route is stamped with
 * its generation, and the cycle ends with nb_pmu_tick_routed, the same
 * counters, filters, overflows, PMIs and cascades as nb_pmu_tick.  Outputs
 * routed before an ESCR write are refused, not miscounted.
 */
#ifndef PMU_EMULATED_NETBURST_FEED_H
#define PMU_EMULATED_NETBURST_FEED_H

#include <stdbool.h>
#include <stdint.h>

#include "escr_detector.h"
#include "pmu/catalog/netburst_metrics.h"
#include "netburst_pmu.h"

/* An (event, sub-event bits) pair a timing model reports. */
struct nb_source {
    enum nb_event_id event;
    uint16_t mask;
};

enum { NB_MAX_SOURCES = 128, NB_NO_SOURCE = 0xff };

/* What a retiring uop did, as far as tagging can tell: front-end tagging
 * tags loads and store-address uops (uop_type TAGLOADS/TAGSTORES),
 * execution tagging the uops whose execution reported a source an ESCR
 * with Tag Enable counts, replay tagging the uops that met a cause its
 * metrics select. */
enum nb_uop_kind { NB_UOP_OTHER, NB_UOP_LOAD, NB_UOP_STORE_ADDRESS };

struct nb_uop {
    uint8_t kind;      /* enum nb_uop_kind */
    uint8_t source;    /* the source its execution reported, or NB_NO_SOURCE */
    uint16_t causes;   /* enum nb_replay_cause bits */
};

/* A PEBS microcode assist's accesses to memory, in the order the PMU made
 * them (the DS save area's fields it read, the record and the index it
 * wrote; docs/semantics.md, "PEBS"): what it did, for a timing model to
 * time (docs/netburst-model.md, "Sampling").  At most 2 reads, the 18
 * slots of an IA-32e record, the index and 2 more reads. */
enum { NB_ASSIST_ACCESSES = 24 };

struct nb_assist_access {
    uint64_t address;
    uint8_t size;          /* bytes: 4 or 8 */
    bool store;
};

struct nb_assist {
    uint64_t taken;        /* the thread's assists so far */
    unsigned n_accesses;   /* the last one's accesses */
    struct nb_assist_access access[NB_ASSIST_ACCESSES];
};

/* A uop's tags (nb_feed_uop_tags): bits 0-3 the execution tag value (the
 * OR of the tag values of the ESCRs that tagged it), and: */
enum { NB_UOP_TAG_VALUE = 0xf, NB_UOP_TAG_FRONT_END = 1u << 4, NB_UOP_TAG_REPLAY = 1u << 5 };

/* A cycle's detections routed ahead: the value each ESCR drives on its output
 * (0-15), which ESCRs were driven, and the oldest generation of the routes
 * added (0: none since the last tick; even an empty route is stamped, as
 * a stale one may be empty where the current one is not). */
struct nb_escr_outputs {
    uint64_t driven;
    uint64_t generation;
    uint8_t output[NB_NUM_ESCRS];
};

struct nb_feed;

/* A PMU linked to the one a model feeds (nb_pmu_link): its feed, and the
 * outputs its ESCRs drive in the cycle being reported, ticked with the
 * model's PMU (nb_pmu_tick_routed). */
struct nb_linked_feed {
    const struct nb_feed *feed;
    struct nb_escr_outputs *outputs;
};

/* What the PMU's registers decide for a model's sources.  Written only by
 * pmu/; a model reads it through the functions below. */
struct nb_feed {
    uint64_t generation;               /* changes whenever a route may have; from 1 */
    uint64_t watched[2];               /* bit s: some ESCR, of this PMU or of one linked
                                        * to it, counts source s in some context */
    uint64_t counted[2];               /* the same for this PMU's own ESCRs */
    unsigned n_linked;                 /* the PMUs linked to this one (nb_pmu_link): each
                                        * occurrence routed here is routed to them too */
    struct nb_linked_feed *linked;
    bool sampling;                     /* PEBS or a counter's OVF_PMI is programmed */
    bool tagging;                      /* some mechanism can tag a uop */
    bool pmi_waiting;                  /* a delivered PMI waits to be taken */
    uint8_t context[2][2];             /* [thread][user]: the context of an occurrence by
                                        * the thread at CPL 0 / 3, the other at its CPL */
    uint64_t route[ESCR_CONTEXTS][NB_MAX_SOURCES];   /* ESCRs counting an occurrence */
    uint16_t front_end[ESCR_CONTEXTS];               /* uop_type TAGLOADS/TAGSTORES counted */
    uint16_t replay[ESCR_CONTEXTS];                  /* the causes replay tagging tags */
    uint8_t execution[ESCR_CONTEXTS][NB_MAX_SOURCES]; /* the tag value a source's uop gets */
    struct nb_assist assist[2];                      /* each thread's PEBS assists */
    unsigned n_sources;
    struct nb_source sources[NB_MAX_SOURCES];
};

/* Declares a model's sources (index = the model's identifier for it) and
 * returns the PMU's publication for them, valid until nb_pmu_destroy.  A
 * PMU feeds one model: attaching again replaces the sources (and changes
 * the generation).  NULL for no sources or more than NB_MAX_SOURCES, an
 * unknown event, or out of memory. */
const struct nb_feed *nb_pmu_attach(struct nb_pmu *pmu, const struct nb_source *sources,
                                    unsigned n);

/* The source that counts a retiring uop tagged by mechanism `kind` (the
 * mechanisms' table, nb_taggings): its counting event's non-bogus
 * sub-event; for execution tagging, that of tag value bit `bit` (0-3). */
struct nb_source nb_tagged_source(enum nb_metric_kind kind, unsigned bit);

/* Ends the current cycle with the detections on `outputs` (and any
 * nb_pmu_event occurrences), as nb_pmu_tick, and leaves the outputs cleared
 * for another cycle.  It does not write the cycle's report: nb_pmu_last
 * keeps describing the last nb_pmu_tick, but for pebs_pmi.  The counters
 * without COMPARE may add their outputs in batches (pmu/emulated/netburst_cycle.c):
 * RDMSR, RDPMC and nb_pmu_counter read their values all the same.
 * Returns false, counting none of the outputs, when they were routed with
 * routes an ESCR write has changed since. */
bool nb_pmu_tick_routed(struct nb_pmu *pmu, struct nb_escr_outputs *outputs);

/* ---- One model, several PMUs: every run of an allocator plan counted in
 * one pass of a trace (docs/stat.md, "One pass").  Each PMU keeps its own
 * registers, programmed and read through its own backend; the model feeds
 * the first, and each of its occurrences, cycles and logical processors'
 * states reaches every PMU linked to it, routed by that PMU's own routes
 * (nb_feed_occur, nb_feed_occur_counts, nb_pmu_tick_routed,
 * nb_pmu_set_thread); the first PMU's feed watches the union of their
 * sources.  Sampling and tagging are not shared: a PMI or a PEBS assist
 * changes the model's timing, a uop's tags the occurrences it reports,
 * both from one PMU's registers; so while PMUs are linked,
 * nb_pmu_tick_routed refuses the cycle (false) when any of them samples or
 * tags. */

/* Links `follower` after the last PMU linked to `pmu`, in `pmu`'s
 * logical processors' states.  False, and nothing linked, when `follower`
 * is `pmu`, is linked already or has PMUs linked to it, when the two
 * differ in CPUID model or Hyper-Threading, or when memory ran out. */
bool nb_pmu_link(struct nb_pmu *pmu, struct nb_pmu *follower);

/* Up to `n` cycles of nb_pmu_tick_routed with empty outputs (nothing
 * routed, generation 0) and no nb_pmu_event occurrence, ended at once
 * when they provably change nothing but the cycle count: no counter is
 * due on an empty output (COMPLEMENT, an edge history to clear), no PEBS
 * PMI is raised, no observer watches, no PMU is linked, and the batch of
 * plain counts is chosen for the active logical processors (those cycles would leave
 * every counter as it is).  Returns how many it ended, at most `n`; 0
 * when the next cycle must be ticked on its own. */
uint64_t nb_pmu_tick_idle(struct nb_pmu *pmu, uint64_t n);

/* IEBS for a timing model: logical processor `thread` takes an interrupt
 * at the instruction boundary before `eip`, the interrupt's return
 * address (the model decides where: docs/netburst-model.md, "Sampling").
 * It takes the PMI waiting for the thread: clears it and samples `eip`
 * with the cycle that delivered the PMI and whether PEBS's interrupt
 * threshold raised it.  False when no PMI waits. */
bool nb_pmu_take_pmi_at(struct nb_pmu *pmu, int thread, uint64_t eip,
                        struct nb_pmi_sample *sample);

static inline bool nb_feed_watched(const struct nb_feed *feed, unsigned source)
{
    return (feed->watched[source >> 6] >> (source & 63)) & 1;
}

/* Whether any of the `n` sources from `first` is watched (all in one word
 * of the mask: first % 64 + n <= 64). */
static inline bool nb_feed_watched_any(const struct nb_feed *feed, unsigned first, unsigned n)
{
    return (feed->watched[first >> 6] >> (first & 63)) & ((1ull << n) - 1);
}

/* Whether sampling is programmed (retirements must be reported), whether
 * some mechanism can tag, and whether a delivered PMI waits. */
static inline bool nb_feed_sampling(const struct nb_feed *feed)
{
    return feed->sampling;
}

static inline bool nb_feed_tagging(const struct nb_feed *feed)
{
    return feed->tagging;
}

static inline bool nb_feed_pmi_waiting(const struct nb_feed *feed)
{
    return feed->pmi_waiting;
}

/* The PEBS assists taken for `thread` (0 or 1) and the last one's
 * accesses. */
static inline const struct nb_assist *nb_feed_assist(const struct nb_feed *feed, int thread)
{
    return &feed->assist[thread];
}

/* The context of an occurrence by `thread` at CPL 0 (`user` false) or 3,
 * the other logical processor at its CPL now. */
static inline uint8_t nb_feed_context(const struct nb_feed *feed, int thread, bool user)
{
    return feed->context[thread][user];
}

static inline uint64_t nb_feed_route(const struct nb_feed *feed, uint8_t context,
                                     unsigned source)
{
    return feed->route[context][source];
}

/* The routes' generation: a route read from the feed is current while the
 * feed's generation is this. */
static inline uint64_t nb_feed_generation(const struct nb_feed *feed)
{
    return feed->generation;
}

/* Adds `count` detections to the outputs of `escrs`, a route read from the
 * feed in `generation` (nb_feed_generation).  The outputs keep the oldest
 * generation of their routes: generations only grow, so one stale route
 * makes them all refused. */
static inline void nb_escr_outputs_add(struct nb_escr_outputs *outputs, uint64_t generation, uint64_t escrs,
                                       uint32_t count)
{
    if (outputs->generation != generation && (!outputs->generation || generation < outputs->generation))
        outputs->generation = generation;
    outputs->driven |= escrs;
    for (; escrs; escrs &= escrs - 1)
        escr_output_add(&outputs->output[__builtin_ctzll(escrs)], count);
}

/* `count` occurrences of `source` by logical processor `thread` at CPL 0
 * (`user` false) or 3 routed onto each linked PMU's outputs by its own
 * routes. */
static inline void nb_feed_occur_linked(const struct nb_feed *feed, int thread, bool user,
                                        unsigned source, uint32_t count)
{
    for (unsigned i = 0; i < feed->n_linked; i++) {
        const struct nb_feed *linked = feed->linked[i].feed;
        nb_escr_outputs_add(feed->linked[i].outputs, linked->generation,
                            linked->route[linked->context[thread][user]][source], count);
    }
}

/* `count` occurrences of `source` by logical processor `thread` at CPL 0
 * (`user` false) or 3, routed now (the other logical processor at its CPL
 * now) onto `outputs`, and onto the linked PMUs' own. */
static inline void nb_feed_occur(const struct nb_feed *feed, struct nb_escr_outputs *outputs, int thread,
                                 bool user, unsigned source, uint32_t count)
{
    nb_escr_outputs_add(outputs, feed->generation, feed->route[feed->context[thread][user]][source],
                        count);
    nb_feed_occur_linked(feed, thread, user, source, count);
}

/* nb_feed_occur for every source of `used` (bit s % 64 of word s / 64)
 * with its count in counts[s]; clears both. */
static inline void nb_feed_occur_counts(const struct nb_feed *feed, struct nb_escr_outputs *outputs,
                                        int thread, bool user, uint64_t used[2],
                                        uint16_t *counts)
{
    const uint64_t *route = feed->route[feed->context[thread][user]];
    for (int w = 0; w < 2; w++) {
        for (uint64_t left = used[w]; left; left &= left - 1) {
            unsigned s = 64 * (unsigned)w + (unsigned)__builtin_ctzll(left);
            nb_escr_outputs_add(outputs, feed->generation, route[s], counts[s]);
            nb_feed_occur_linked(feed, thread, user, s, counts[s]);
            counts[s] = 0;
        }
        used[w] = 0;
    }
}

/* ---- Routing ahead: a model that records occurrences in cycles the PMU
 * has not reached may route them as it records them when no register can
 * change before those cycles are ticked: with one logical processor (the
 * other's privilege level, part of a context, changes as cycles are
 * ticked), no sampling (no PMI handler runs in between) and no linked PMU
 * (the router holds one PMU's routes).  The router
 * keeps the feed's routes for the two levels (0: CPL 0, 1: CPL 3) of the
 * one logical processor, stamped with the generation they were read in:
 * routes gone stale make the outputs refused, never a miscount. */
struct nb_router {
    const struct nb_feed *feed;
    int threads;           /* the logical processors the model runs */
    bool ahead;            /* occurrences may be routed as recorded */
    bool sampling;         /* the feed's when last watched */
    uint64_t generation;   /* likewise: the routes' */
    uint64_t route[2][NB_MAX_SOURCES];
};

/* A router for a model of `threads` logical processors (1 or 2) reading
 * `feed`; it routes nothing ahead until watched (nb_router_watch). */
void nb_router_init(struct nb_router *router, const struct nb_feed *feed, int threads);

/* Whether occurrences may be routed ahead, and the routes to route them
 * by, from the feed now: again after anything may have written the PMU. */
void nb_router_watch(struct nb_router *router);

/* Whether the feed's routes or sampling changed since the router watched. */
static inline bool nb_router_stale(const struct nb_router *router)
{
    return router->generation != router->feed->generation ||
           router->sampling != router->feed->sampling;
}

static inline bool nb_router_ahead(const struct nb_router *router)
{
    return router->ahead;
}

/* Whether some ESCR counts an occurrence of `source` at `level` routed
 * ahead (nb_router_ahead). */
static inline bool nb_router_counts(const struct nb_router *router, unsigned level,
                                    unsigned source)
{
    return router->route[level][source] != 0;
}

/* `count` occurrences of `source` at `level` (0: CPL 0, 1: CPL 3) routed
 * ahead (nb_router_ahead) onto `outputs`. */
static inline void nb_router_occur(const struct nb_router *router, struct nb_escr_outputs *outputs,
                                   unsigned level, unsigned source, uint32_t count)
{
    nb_escr_outputs_add(outputs, router->generation, router->route[level][source], count);
}

/* The tags the three mechanisms give a retiring uop of an occurrence in
 * `context` (NB_UOP_TAG_*), decided by the registers (docs/semantics.md,
 * "Tagging"). */
static inline uint8_t nb_feed_uop_tags(const struct nb_feed *feed, uint8_t context,
                                       const struct nb_uop *uop)
{
    /* uop_type's TAGLOADS is sub-event bit 1, TAGSTORES bit 2. */
    static const uint16_t front_end_bit[] = {[NB_UOP_OTHER] = 0, [NB_UOP_LOAD] = 1u << 1,
                                             [NB_UOP_STORE_ADDRESS] = 1u << 2};
    uint8_t tags = uop->source != NB_NO_SOURCE ? feed->execution[context][uop->source] : 0;
    if (feed->front_end[context] & front_end_bit[uop->kind])
        tags |= NB_UOP_TAG_FRONT_END;
    if (feed->replay[context] & uop->causes)
        tags |= NB_UOP_TAG_REPLAY;
    return tags;
}

/* The tags a retiring uop of logical processor `thread` at CPL 0 (`user`
 * false) or 3 gets. */
static inline uint8_t nb_feed_uop_tags_at(const struct nb_feed *feed, int thread, bool user,
                                          const struct nb_uop *uop)
{
    return nb_feed_uop_tags(feed, feed->context[thread][user], uop);
}

/* Whether a retiring instruction whose uops the `mechanisms` (NB_TAG_*)
 * tagged is a tagged one for instr_retired (NBOGUSTAG, not NBOGUSNTAG):
 * the SDM's "tagged by the front-end tagging mechanism". */
static inline bool nb_instruction_tagged(uint8_t mechanisms)
{
    return (mechanisms & NB_TAG_FRONT_END) != 0;
}

/* The mechanisms (NB_TAG_*) behind a uop's tags. */
static inline uint8_t nb_uop_mechanisms(uint8_t tags)
{
    return (uint8_t)((tags & NB_UOP_TAG_FRONT_END ? NB_TAG_FRONT_END : 0) |
                     (tags & NB_UOP_TAG_VALUE ? NB_TAG_EXECUTION : 0) |
                     (tags & NB_UOP_TAG_REPLAY ? NB_TAG_REPLAY : 0));
}

#endif
