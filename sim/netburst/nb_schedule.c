/* The model's sources (data), the per-cycle ring of occurrences and the
 * heap of those beyond it, the retirement queue, the PEBS assists found
 * there and the taking of PMIs. */
#include "sim/netburst/nb_schedule.h"

#include <stdlib.h>
#include <string.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_metrics.h"
#include "util/grow_array.h"

enum { INITIAL_RING = 1024, MAX_SUBEVENTS = 2, INITIAL_FAR = 64, CACHE_LINE = 64 };
_Static_assert(sizeof(struct nb_buses) == CACHE_LINE, "a cycle's buses fill one cache line");
_Static_assert((int)NB_NUM_SOURCES <= (int)NB_MAX_SOURCES, "the PMU takes the sources");
_Static_assert((int)INITIAL_RING <= (int)NB_RING_MAX, "the ring starts within its bound");
_Static_assert(NB_TC_MODES % 64 + 16 <= 64, "the TC_deliver_mode sources share one mask word");

/* A far entry's source for a front end's state (struct nb_far). */
enum { FRONTEND_STATE = NB_NUM_SOURCES };

/* Each source's event and sub-events (docs/netburst-model.md says when the
 * model reports each).  The counting events of the tagging mechanisms come
 * from their table (nb_taggings: tagged_sources), TC_deliver_mode's
 * sub-events from both front ends' modes (tc_sources). */
static const struct {
    enum nb_event_id event;
    const char *subevents[MAX_SUBEVENTS];
} sources[NB_TC_MODES] = {
    [NB_RUNNING] = {NB_EV_GLOBAL_POWER_EVENTS, {"RUNNING"}},
    [NB_INSTR_RETIRED] = {NB_EV_INSTR_RETIRED, {"NBOGUSNTAG"}},
    [NB_INSTR_COMPLETED] = {NB_EV_INSTR_COMPLETED, {"NBOGUS"}},
    [NB_UOPS_RETIRED] = {NB_EV_UOPS_RETIRED, {"NBOGUS"}},
    [NB_BR_MMNP] = {NB_EV_BRANCH_RETIRED, {"MMNP"}},
    [NB_BR_MMNM] = {NB_EV_BRANCH_RETIRED, {"MMNM"}},
    [NB_BR_MMTP] = {NB_EV_BRANCH_RETIRED, {"MMTP"}},
    [NB_BR_MMTM] = {NB_EV_BRANCH_RETIRED, {"MMTM"}},
    [NB_MISPRED] = {NB_EV_MISPRED_BRANCH_RETIRED, {"NBOGUS"}},
    [NB_TYPE_COND] = {NB_EV_RETIRED_BRANCH_TYPE, {"CONDITIONAL"}},
    [NB_TYPE_CALL] = {NB_EV_RETIRED_BRANCH_TYPE, {"CALL"}},
    [NB_TYPE_RETURN] = {NB_EV_RETIRED_BRANCH_TYPE, {"RETURN", "INDIRECT"}},
    [NB_TYPE_INDIRECT] = {NB_EV_RETIRED_BRANCH_TYPE, {"INDIRECT"}},
    [NB_TYPE_INDIRECT_CALL] = {NB_EV_RETIRED_BRANCH_TYPE, {"CALL", "INDIRECT"}},
    [NB_MTYPE_COND] = {NB_EV_RETIRED_MISPRED_BRANCH_TYPE, {"CONDITIONAL"}},
    [NB_MTYPE_RETURN] = {NB_EV_RETIRED_MISPRED_BRANCH_TYPE, {"RETURN", "INDIRECT"}},
    [NB_MTYPE_INDIRECT] = {NB_EV_RETIRED_MISPRED_BRANCH_TYPE, {"INDIRECT"}},
    [NB_MTYPE_INDIRECT_CALL] = {NB_EV_RETIRED_MISPRED_BRANCH_TYPE, {"CALL", "INDIRECT"}},
    [NB_X87_UOP] = {NB_EV_X87_FP_UOP, {"ALL"}},
    [NB_PACKED_SP] = {NB_EV_PACKED_SP_UOP, {"ALL"}},
    [NB_PACKED_DP] = {NB_EV_PACKED_DP_UOP, {"ALL"}},
    [NB_SCALAR_SP] = {NB_EV_SCALAR_SP_UOP, {"ALL"}},
    [NB_SCALAR_DP] = {NB_EV_SCALAR_DP_UOP, {"ALL"}},
    [NB_MMX64] = {NB_EV_64BIT_MMX_UOP, {"ALL"}},
    [NB_MMX128] = {NB_EV_128BIT_MMX_UOP, {"ALL"}},
    [NB_MOVES_P0] = {NB_EV_X87_SIMD_MOVES_UOP, {"ALLP0"}},
    [NB_MOVES_P2] = {NB_EV_X87_SIMD_MOVES_UOP, {"ALLP2"}},
    [NB_TCMISS] = {NB_EV_BPU_FETCH_REQUEST, {"TCMISS"}},
    [NB_ITLB_HIT] = {NB_EV_ITLB_REFERENCE, {"HIT"}},
    [NB_ITLB_MISS] = {NB_EV_ITLB_REFERENCE, {"MISS"}},
    [NB_WALK_DTMISS] = {NB_EV_PAGE_WALK_TYPE, {"DTMISS"}},
    [NB_WALK_ITMISS] = {NB_EV_PAGE_WALK_TYPE, {"ITMISS"}},
    [NB_LSC] = {NB_EV_MEMORY_COMPLETE, {"LSC"}},
    [NB_SSC] = {NB_EV_MEMORY_COMPLETE, {"SSC"}},
    [NB_SPLIT_LD] = {NB_EV_LOAD_PORT_REPLAY, {"SPLIT_LD"}},
    [NB_SPLIT_ST] = {NB_EV_STORE_PORT_REPLAY, {"SPLIT_ST"}},
    [NB_MOB_NO_STD] = {NB_EV_MOB_LOAD_REPLAY, {"NO_STD"}},
    [NB_MOB_PARTIAL] = {NB_EV_MOB_LOAD_REPLAY, {"PARTIAL_DATA"}},
    [NB_MOB_UNALIGNED] = {NB_EV_MOB_LOAD_REPLAY, {"UNALGN_ADDR"}},
    [NB_L2_HITE] = {NB_EV_BSQ_CACHE_REFERENCE, {"RD_2ndL_HITE"}},
    [NB_L2_HITM] = {NB_EV_BSQ_CACHE_REFERENCE, {"RD_2ndL_HITM"}},
    [NB_L2_MISS] = {NB_EV_BSQ_CACHE_REFERENCE, {"RD_2ndL_MISS"}},
    /* A 64-byte (8-chunk) demand read of write-back memory; a writeback. */
    [NB_BSQ_READ] = {NB_EV_BSQ_ALLOCATION, {"REQ_LEN0", "REQ_LEN1"}},
    [NB_BSQ_WRITEBACK] = {NB_EV_BSQ_ALLOCATION, {"REQ_TYPE0", "REQ_TYPE1"}},
    [NB_IOQ_READ] = {NB_EV_IOQ_ALLOCATION, {"ALL_READ", "MEM_WB"}},
    [NB_IOQ_WRITE] = {NB_EV_IOQ_ALLOCATION, {"ALL_WRITE", "MEM_WB"}},
    [NB_DRDY_OWN] = {NB_EV_FSB_DATA_ACTIVITY, {"DRDY_OWN"}},
    [NB_DRDY_DRV] = {NB_EV_FSB_DATA_ACTIVITY, {"DRDY_DRV"}},
    [NB_MS_XFER] = {NB_EV_TC_MS_XFER, {"CISC"}},
    [NB_UQ_BUILD] = {NB_EV_UOP_QUEUE_WRITES, {"FROM_TC_BUILD"}},
    [NB_UQ_DELIVER] = {NB_EV_UOP_QUEUE_WRITES, {"FROM_TC_DELIVER"}},
    [NB_UQ_ROM] = {NB_EV_UOP_QUEUE_WRITES, {"FROM_ROM"}},
    [NB_SBFULL] = {NB_EV_RESOURCE_STALL, {"SBFULL"}},
    [NB_CLEAR] = {NB_EV_MACHINE_CLEAR, {"CLEAR"}},
    [NB_UOPS_BOGUS] = {NB_EV_UOPS_RETIRED, {"BOGUS"}},
    [NB_INSTR_BOGUS] = {NB_EV_INSTR_RETIRED, {"BOGUSNTAG"}},
    [NB_COMPLETED_BOGUS] = {NB_EV_INSTR_COMPLETED, {"BOGUS"}},
    /* A retired instruction with a front-end-tagged uop (docs/netburst-model.md, "Tagging"). */
    [NB_INSTR_TAGGED] = {NB_EV_INSTR_RETIRED, {"NBOGUSTAG"}},
};

/* The mask of the named sub-events of `event`; false when one is not in
 * the catalog. */
static bool subevent_mask(enum nb_event_id event, const char *const *names, unsigned n,
                          uint16_t *mask)
{
    *mask = 0;
    for (unsigned i = 0; i < n && names[i]; i++) {
        const struct nb_subevent *sub = nb_subevent_find(&nb_event_table[event], names[i]);
        if (!sub)
            return false;
        *mask |= (uint16_t)(1u << sub->bit);
    }
    return true;
}

/* The counting events of the tagging mechanisms, from the PMU's table
 * (nb_tagged_source). */
static void tagged_sources(struct nb_source *table)
{
    table[NB_FE_TAGGED] = nb_tagged_source(NB_FRONT_END_TAGGING, 0);
    for (unsigned bit = 0; bit < 4; bit++)
        table[NB_EXEC_TAG0 + bit] = nb_tagged_source(NB_EXECUTION_TAGGING, bit);
    table[NB_REPLAY_TAGGED] = nb_tagged_source(NB_REPLAY_TAGGING, 0);
}

/* TC_deliver_mode's sub-event for logical processor 0's and 1's modes: a
 * letter each, D(eliver), B(uild) or I(nactive; with one logical processor
 * the other counts as halted: SDM note on TC_deliver_mode, so a single
 * thread delivers in DI).  A front end in the microcode ROM is in none
 * (mask 0: nothing counts it). */
static bool tc_sources(struct nb_source *table)
{
    static const char letter[] = {[NB_MODE_DELIVER] = 'D', [NB_MODE_BUILD] = 'B',
                                  [NB_MODE_ROM] = 0, [NB_MODE_IDLE] = 'I'};
    for (int m0 = 0; m0 < 4; m0++)
        for (int m1 = 0; m1 < 4; m1++) {
            char name[3] = {letter[m0], letter[m1], 0};
            const char *names[] = {name};
            struct nb_source *src = &table[NB_TC_MODES + m0 * 4 + m1];
            src->event = NB_EV_TC_DELIVER_MODE;
            src->mask = 0;
            bool none = !name[0] || !name[1] || (m0 == NB_MODE_IDLE && m1 == NB_MODE_IDLE);
            if (!none && !subevent_mask(src->event, names, 1, &src->mask))
                return false;
        }
    return true;
}

/* The sources as the PMU takes them (nb_pmu_attach). */
static bool source_table(struct nb_source table[NB_NUM_SOURCES])
{
    for (int s = 0; s < NB_TC_MODES; s++) {
        table[s].event = sources[s].event;
        if (!subevent_mask(sources[s].event, sources[s].subevents, MAX_SUBEVENTS,
                           &table[s].mask))
            return false;
    }
    tagged_sources(table);
    return tc_sources(table);
}

/* `n` cycles' buses, cleared, each on a cache line of its own. */
static struct nb_buses *new_buses(uint64_t n)
{
    struct nb_buses *buses = aligned_alloc(CACHE_LINE, n * sizeof *buses);
    if (buses)
        memset(buses, 0, n * sizeof *buses);
    return buses;
}

bool nb_schedule_init(struct nb_schedule *sched, struct nb_pmu *pmu, int threads)
{
    struct nb_source table[NB_NUM_SOURCES];
    memset(sched, 0, sizeof *sched);
    sched->pmu = pmu;
    sched->threads = threads;
    sched->active_until[0] = sched->active_until[1] = UINT64_MAX;
    sched->size = INITIAL_RING;
    sched->levels = 2u * (unsigned)threads;
    sched->level_shift = (unsigned)threads; /* 2 levels a logical processor */
    sched->ring = calloc(sched->size, sizeof *sched->ring);
    sched->buses = new_buses(sched->size);
    sched->counts = calloc(sched->size * sched->levels, sizeof *sched->counts);
    if (!sched->ring || !sched->buses || !sched->counts || !source_table(table) ||
        !(sched->feed = nb_pmu_attach(pmu, table, NB_NUM_SOURCES))) {
        nb_schedule_free(sched);
        return false;
    }
    for (int t = 0; t < 2; t++)
        sched->reported[t] = nb_pmu_thread(pmu, t);
    nb_router_init(&sched->router, sched->feed, threads);
    nb_schedule_watch(sched);
    return true;
}

void nb_schedule_free(struct nb_schedule *sched)
{
    free(sched->ring);
    free(sched->buses);
    free(sched->counts);
    free(sched->far);
    sched->ring = NULL;
    sched->buses = NULL;
    sched->counts = NULL;
    sched->far = NULL;
    for (int t = 0; t < 2; t++) {
        free(sched->retired[t].entries);
        sched->retired[t].entries = NULL;
    }
}

/* TC_deliver_mode's source for the two front ends' states. */
static unsigned tc_source_of(uint8_t state0, uint8_t state1)
{
    return NB_TC_MODES + (state0 & 3u) * 4 + (state1 & 3u);
}

/* The cycle's own events of the one logical processor routed ahead, by
 * its front end's state (report_cycle's). */
static void watch_cycle_sources(struct nb_schedule *sched)
{
    for (uint8_t state = 0; state < 8; state++) {
        unsigned level = state >> 2, tc = tc_source_of(state, NB_MODE_IDLE);
        bool running = nb_watched(sched, NB_RUNNING), delivering = nb_watched(sched, tc);
        sched->cycle_sources[state] = (struct nb_cycle_sources){
            .running = running && nb_router_counts(&sched->router, level, NB_RUNNING),
            .tc = delivering && nb_router_counts(&sched->router, level, tc),
            .level = running || delivering,
        };
    }
}

/* Occurrences may be routed when recorded, not when reported, when the
 * PMU's router says so (nb_router_watch).  A region hook runs once its
 * logical processor has drained: no occurrence waits then. */
void nb_schedule_watch(struct nb_schedule *sched)
{
    if (!nb_router_ahead(&sched->router))
        sched->source_until = sched->now + sched->size; /* the ring's source counts from before */
    nb_router_watch(&sched->router);
    if (nb_router_ahead(&sched->router))
        watch_cycle_sources(sched);
}

/* Watches again when a PMI handler or a hook wrote the PMU. */
static void rewatch(struct nb_schedule *sched)
{
    if (nb_router_stale(&sched->router))
        nb_schedule_watch(sched);
}

/* Doubles the ring, keeping each pending cycle's bucket. */
static bool grow(struct nb_schedule *sched)
{
    uint64_t size = sched->size * 2;
    struct nb_bucket *ring = calloc(size, sizeof *ring);
    struct nb_buses *buses = new_buses(size);
    nb_counts *counts = calloc(size * sched->levels, sizeof *counts);
    if (!ring || !buses || !counts) {
        free(ring);
        free(buses);
        free(counts);
        return false;
    }
    for (uint64_t c = sched->now; c < sched->now + sched->size; c++) {
        ring[c & (size - 1)] = sched->ring[c & (sched->size - 1)];
        buses[c & (size - 1)] = sched->buses[c & (sched->size - 1)];
        memcpy(counts[(c & (size - 1)) << sched->level_shift],
               sched->counts[(c & (sched->size - 1)) << sched->level_shift],
               sched->levels * sizeof *counts);
    }
    free(sched->ring);
    free(sched->buses);
    free(sched->counts);
    sched->ring = ring;
    sched->buses = buses;
    sched->counts = counts;
    sched->size = size;
    return true;
}

/* Grows the ring, up to NB_RING_MAX cycles, to hold `cycle` (not yet
 * ticked) if it can. */
static void reach(struct nb_schedule *sched, uint64_t cycle)
{
    while (cycle - sched->now >= sched->size && sched->size < NB_RING_MAX && !sched->failed)
        sched->failed = !grow(sched);
}

/* ---- the occurrences beyond the ring: a binary heap by first cycle */

static void far_push(struct nb_schedule *sched, struct nb_far entry)
{
    if (sched->n_far == sched->far_capacity &&
        !grow_array(&sched->far, &sched->far_capacity, sched->n_far + 1, sizeof *sched->far,
                    INITIAL_FAR)) {
        sched->failed = true;
        return;
    }
    size_t i = sched->n_far++;
    for (; i > 0 && sched->far[(i - 1) / 2].cycle > entry.cycle; i = (i - 1) / 2)
        sched->far[i] = sched->far[(i - 1) / 2];
    sched->far[i] = entry;
}

static struct nb_far far_pop(struct nb_schedule *sched)
{
    struct nb_far top = sched->far[0], last = sched->far[--sched->n_far];
    size_t i = 0;
    for (size_t child; (child = 2 * i + 1) < sched->n_far; i = child) {
        if (child + 1 < sched->n_far && sched->far[child + 1].cycle < sched->far[child].cycle)
            child++;
        if (sched->far[child].cycle >= last.cycle)
            break;
        sched->far[i] = sched->far[child];
    }
    sched->far[i] = last;
    return top;
}

/* The cycles of `span` the ring holds go into it, the others into the
 * heap. */
static void put_span(struct nb_schedule *sched, struct nb_far span)
{
    uint64_t end = sched->now + sched->size;
    uint64_t until = span.until < end ? span.until : end;
    for (uint64_t c = span.cycle; c < until; c++) {
        if (span.source == FRONTEND_STATE)
            sched->ring[c & (sched->size - 1)].frontend[span.level] = (uint8_t)span.count;
        else
            nb_occur_put(sched, c, span.source, span.level, span.count);
    }
    if (until < span.until) {
        span.cycle = until > span.cycle ? until : span.cycle;
        far_push(sched, span);
    }
}

/* Grows the ring towards the span's last cycle, then puts it. */
static void put_reaching(struct nb_schedule *sched, struct nb_far span)
{
    if (span.cycle >= span.until)
        return;
    reach(sched, span.until - 1);
    put_span(sched, span);
}

/* Moves into the ring the heap's occurrences it now holds. */
static void pull_far(struct nb_schedule *sched)
{
    while (sched->n_far && sched->far[0].cycle - sched->now < sched->size)
        put_span(sched, far_pop(sched));
}

void nb_occur_far(struct nb_schedule *sched, uint64_t cycle, enum nb_source_id source,
                  unsigned level, unsigned count)
{
    put_reaching(sched, (struct nb_far){cycle, cycle + 1, (uint8_t)source, (uint8_t)level,
                                     (uint16_t)count});
}

void nb_occur_span(struct nb_schedule *sched, uint64_t from, uint64_t until,
                   enum nb_source_id source, unsigned level)
{
    if (nb_watched(sched, source))
        put_reaching(sched, (struct nb_far){from, until, (uint8_t)source, (uint8_t)level, 1});
}

void nb_schedule_frontend_change(struct nb_schedule *sched, unsigned level, uint64_t cycle,
                                 uint8_t state)
{
    unsigned t = level >> 1;
    uint64_t from = sched->frontend_from[t] > sched->now ? sched->frontend_from[t] : sched->now;
    put_reaching(sched, (struct nb_far){from, cycle, FRONTEND_STATE, (uint8_t)t, sched->frontend[t]});
    sched->frontend[t] = state;
    sched->frontend_from[t] = cycle > sched->now ? cycle : sched->now;
}

void nb_schedule_thread_end(struct nb_schedule *sched, int thread, uint64_t cycle)
{
    sched->active_until[thread] = cycle;
}

/* Logical processor `t` active at `user` level in the PMU (ACTIVE_THREAD
 * filtering and the ESCRs' T0/T1 OS/USR bits read this state). */
static void set_level(struct nb_schedule *sched, int t, bool user)
{
    struct nb_thread state = {.active = true, .cpl = user ? 3 : 0};
    if (sched->reported[t].cpl != state.cpl || !sched->reported[t].active) {
        nb_pmu_set_thread(sched->pmu, t, true, state.cpl);
        sched->reported[t] = state;
    }
}

static void set_inactive(struct nb_schedule *sched, int t)
{
    if (sched->reported[t].active) {
        nb_pmu_set_thread(sched->pmu, t, false, sched->reported[t].cpl);
        sched->reported[t].active = false;
    }
}

/* The buses of the cycle being reported. */
static struct nb_buses *buses_now(const struct nb_schedule *sched)
{
    return &sched->buses[sched->now & (sched->size - 1)];
}

/* The cycle's occurrences at `level` counted by source, to the PMU. */
static void report(struct nb_schedule *sched, struct nb_bucket *b, unsigned level)
{
    int t = (int)(level >> 1);
    bool user = level & 1;
    uint16_t *count = sched->counts[(sched->now & (sched->size - 1)) << sched->level_shift | level];
    set_level(sched, t, user);
    nb_feed_occur_counts(sched->feed, buses_now(sched), t, user, b->used[level], count);
}

/* Whether some TC_deliver_mode source is watched. */
static bool tc_watched(const struct nb_schedule *sched)
{
    return nb_feed_watched_any(sched->feed, NB_TC_MODES, 16);
}

/* Whether the PMU already has each logical processor active or not as it is now. */
static bool activity_current(const struct nb_schedule *sched)
{
    for (int t = 0; t < sched->threads; t++)
        if (sched->reported[t].active != (sched->now < sched->active_until[t]))
            return false;
    return true;
}

/* report_cycle for one logical processor routed ahead, from its cycle
 * sources. */
static void report_cycle_ahead(struct nb_schedule *sched, struct nb_bucket *b)
{
    if (sched->now >= sched->active_until[0]) {
        set_inactive(sched, 0);
        return;
    }
    uint8_t state = sched->now >= sched->frontend_from[0] ? sched->frontend[0] : b->frontend[0];
    const struct nb_cycle_sources *own = &sched->cycle_sources[state];
    unsigned level = state >> 2;
    if (own->level || !sched->reported[0].active)
        set_level(sched, 0, level);
    if (own->running)
        nb_router_occur(&sched->router, buses_now(sched), level, NB_RUNNING, 1);
    if (own->tc)
        nb_router_occur(&sched->router, buses_now(sched), level,
                        tc_source_of(state, NB_MODE_IDLE), 1);
}

/* The cycle's own events: RUNNING for each active logical processor, at
 * its front end's level, and TC_deliver_mode (thread independent:
 * reported once, by the first active one). */
static void report_cycle(struct nb_schedule *sched, struct nb_bucket *b)
{
    if (nb_router_ahead(&sched->router)) {
        report_cycle_ahead(sched, b);
        return;
    }
    bool running = nb_watched(sched, NB_RUNNING);
    if (!running && !tc_watched(sched) && activity_current(sched))
        return;
    uint8_t state[2] = {NB_MODE_IDLE, NB_MODE_IDLE};
    int first = -1;
    for (int t = 0; t < sched->threads; t++) {
        if (sched->now >= sched->active_until[t]) {
            set_inactive(sched, t);
            continue;
        }
        state[t] = sched->now >= sched->frontend_from[t] ? sched->frontend[t] : b->frontend[t];
        bool user = state[t] >> 2;
        if (!sched->reported[t].active || running)
            set_level(sched, t, user);
        if (first < 0)
            first = t;
        if (running)
            nb_feed_occur(sched->feed, buses_now(sched), t, user, NB_RUNNING, 1);
    }
    unsigned tc = tc_source_of(state[0], state[1]);
    if (first >= 0 && nb_watched(sched, tc)) {
        bool user = state[first] >> 2;
        set_level(sched, first, user);
        nb_feed_occur(sched->feed, buses_now(sched), first, user, tc, 1);
    }
}

/* ---- retirements and PMIs (docs/netburst-model.md, "Sampling") */

static bool queue_grow(struct nb_retire_queue *q)
{
    uint64_t size = q->entries ? 2 * (q->mask + 1) : 64;
    struct nb_retired *entries = malloc(size * sizeof *entries);
    if (!entries)
        return false;
    for (uint64_t i = q->head; i < q->tail; i++)
        entries[i & (size - 1)] = q->entries[i & q->mask];
    free(q->entries);
    q->entries = entries;
    q->mask = size - 1;
    return true;
}

void nb_schedule_retire(struct nb_schedule *sched, int thread, uint64_t cycle,
                        uint64_t allocated, const struct nb_retirement *r)
{
    struct nb_retire_queue *q = &sched->retired[thread];
    if ((!q->entries || q->tail - q->head > q->mask) && !queue_grow(q)) {
        sched->failed = true;
        return;
    }
    struct nb_retired *e = &q->entries[q->tail++ & q->mask];
    e->cycle = cycle;
    e->allocated = allocated;
    e->delay = 0;
    e->r = *r;
    if (r->regs) {
        memcpy(e->regs, r->regs, sizeof e->regs);
        e->r.regs = e->regs;
    }
}

/* A PEBS assist the PMU took at the retirement at thread t's queue head
 * (the tagged instruction), to the machine. */
static void hand_assist(struct nb_schedule *sched, int t, const struct nb_retire_queue *q,
                        const struct nb_assist *log)
{
    sched->assists_seen[t] = log->taken;
    const struct nb_retired *e = &q->entries[q->head & q->mask];
    const struct nb_retired *next = &q->entries[(q->head + 1) & q->mask];
    struct nb_flush flush = {e->cycle + e->delay,
                             q->head + 1 < q->tail ? next->cycle + next->delay : UINT64_MAX, log};
    if (sched->assist)
        sched->assist(sched->machine, t, &flush);
}

void nb_schedule_delay(struct nb_schedule *sched, int thread, uint64_t cycles)
{
    struct nb_retire_queue *q = &sched->retired[thread];
    for (uint64_t i = q->head + 1; i < q->tail; i++)
        q->entries[i & q->mask].delay += cycles;
}

/* The cycle's retirements, thread by thread (a shared cycle retires one
 * thread's uops: nb_retire_slot). */
static void report_retirements(struct nb_schedule *sched)
{
    for (int t = 0; t < sched->threads; t++) {
        struct nb_retire_queue *q = &sched->retired[t];
        const struct nb_assist *log = nb_feed_assist(sched->feed, t);
        for (; q->head < q->tail && q->entries[q->head & q->mask].cycle <= sched->now; q->head++) {
            struct nb_retired *e = &q->entries[q->head & q->mask];
            if (e->r.regs)
                e->r.regs = e->regs; /* the ring may have moved */
            if (!nb_pmu_retire(sched->pmu, t, &e->r))
                sched->failed = true; /* out of memory for a PEBS record */
            if (sched->interrupt[t].placed && q->head == sched->interrupt[t].boundary)
                sched->interrupt[t].eip = e->r.eip;
            if (log->taken != sched->assists_seen[t])
                hand_assist(sched, t, q, log);
        }
    }
}

/* ---- IEBS: the interrupt of a pending PMI (docs/netburst-model.md,
 * "Sampling") */

/* Where thread t's interrupt recognized at `at` is taken: once the
 * instructions allocated before `at` have retired, before the next one.
 * Called at the end of cycle at - 1: every instruction allocating before
 * `at` has been timed (the next one's queue write is at the front end's
 * position, which is past every ticked cycle). */
static void place(struct nb_schedule *sched, int t, struct nb_interrupt *irq)
{
    const struct nb_retire_queue *q = &sched->retired[t];
    irq->take = sched->now;
    uint64_t i = q->head;
    for (; i < q->tail && q->entries[i & q->mask].allocated < irq->at; i++)
        irq->take = q->entries[i & q->mask].cycle;
    irq->boundary = i;
    irq->placed = true;
}

/* The first bus-clock edge at or after `cycle` (edges at multiples of
 * `ratio`, from cycle 0). */
static uint64_t bus_edge(uint64_t cycle, uint32_t ratio)
{
    return (cycle + ratio - 1) / ratio * ratio;
}

/* Thread t's interrupt: the local APIC, which runs on the bus clock, takes
 * the PMI in at the first bus-clock edge from its delivery, and the core
 * recognizes it pmi_latency cycles later; so how long the delivery takes
 * depends on the bus clock's phase at the overflow (docs/netburst-model.md,
 * "Sampling").  Placed once the pipeline has reached that cycle,
 * taken at its place once the instruction it returns to exists: the PMU
 * takes the PMI with that instruction's address. */
static void interrupt(struct nb_schedule *sched, int t)
{
    struct nb_interrupt *irq = &sched->interrupt[t];
    const struct nb_retire_queue *q = &sched->retired[t];
    uint64_t since;
    if (!irq->recognized) {
        if (!nb_pmu_pending_pmi(sched->pmu, t, &since))
            return;
        uint64_t at = bus_edge(since, sched->bus_ratio) + sched->pmi_latency;
        *irq = (struct nb_interrupt){.recognized = true, .at = at};
    }
    if (!irq->placed && sched->now + 1 >= irq->at)
        place(sched, t, irq);
    if (!irq->placed || sched->now < irq->take || q->tail <= irq->boundary)
        return;
    uint64_t eip = irq->boundary >= q->head ? q->entries[irq->boundary & q->mask].r.eip : irq->eip;
    *irq = (struct nb_interrupt){0};
    struct nb_pmi_sample sample;
    if (nb_pmu_take_pmi_at(sched->pmu, t, eip, &sample) && sched->sample)
        sched->sample(sched->context, t, sample.delivered, sample.eip, sample.precise);
}

void nb_schedule_tick_until(struct nb_schedule *sched, uint64_t cycle)
{
    rewatch(sched);
    for (; sched->now < cycle; sched->now++) {
        pull_far(sched);
        struct nb_bucket *b = &sched->ring[sched->now & (sched->size - 1)];
        report_cycle(sched, b);
        for (unsigned level = 0;
             level < sched->levels &&
             (!nb_router_ahead(&sched->router) || sched->now < sched->source_until);
             level++)
            if (b->used[level][0] | b->used[level][1])
                report(sched, b, level);
        report_retirements(sched); /* an assist may grow the ring: its buses are read after */
        if (!nb_pmu_tick_routed(sched->pmu, buses_now(sched)))
            sched->refused = true;
        if (nb_feed_pmi_waiting(sched->feed)) {
            for (int t = 0; t < sched->threads; t++)
                interrupt(sched, t);
            rewatch(sched);
        }
    }
}
