/* The model's sources (data), the per-cycle ring of occurrences and the
 * heap of those beyond it, the retirement queue, the PEBS assists found
 * there and the taking of PMIs. */
#include "sim/netburst/nbm_occurrences.h"

#include <stdlib.h>
#include <string.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_metrics.h"
#include "util/grow_array.h"

enum { INITIAL_RING = 1024, MAX_SUBEVENTS = 2, INITIAL_FAR = 64, CACHE_LINE = 64 };
_Static_assert(sizeof(struct nb_escr_outputs) == CACHE_LINE, "a cycle's outputs fill one cache line");
_Static_assert((int)NBM_NUM_SOURCES <= (int)NB_MAX_SOURCES, "the PMU takes the sources");
_Static_assert((int)INITIAL_RING <= (int)NBM_RING_MAX, "the ring starts within its bound");
_Static_assert(NBM_TC_MODES % 64 + 16 <= 64, "the TC_deliver_mode sources share one mask word");

/* A far entry's source for a front end's state (struct nbm_far). */
enum { FRONTEND_STATE = NBM_NUM_SOURCES };

/* Each source's event and sub-events (docs/netburst-model.md says when the
 * model reports each).  The counting events of the tagging mechanisms come
 * from their table (nb_taggings: tagged_sources), TC_deliver_mode's
 * sub-events from both front ends' modes (tc_sources). */
static const struct {
    enum nb_event_id event;
    const char *subevents[MAX_SUBEVENTS];
} sources[NBM_TC_MODES] = {
    [NBM_RUNNING] = {NB_EV_GLOBAL_POWER_EVENTS, {"RUNNING"}},
    [NBM_INSTR_RETIRED] = {NB_EV_INSTR_RETIRED, {"NBOGUSNTAG"}},
    [NBM_INSTR_COMPLETED] = {NB_EV_INSTR_COMPLETED, {"NBOGUS"}},
    [NBM_UOPS_RETIRED] = {NB_EV_UOPS_RETIRED, {"NBOGUS"}},
    [NBM_BR_MMNP] = {NB_EV_BRANCH_RETIRED, {"MMNP"}},
    [NBM_BR_MMNM] = {NB_EV_BRANCH_RETIRED, {"MMNM"}},
    [NBM_BR_MMTP] = {NB_EV_BRANCH_RETIRED, {"MMTP"}},
    [NBM_BR_MMTM] = {NB_EV_BRANCH_RETIRED, {"MMTM"}},
    [NBM_MISPRED] = {NB_EV_MISPRED_BRANCH_RETIRED, {"NBOGUS"}},
    [NBM_TYPE_COND] = {NB_EV_RETIRED_BRANCH_TYPE, {"CONDITIONAL"}},
    [NBM_TYPE_CALL] = {NB_EV_RETIRED_BRANCH_TYPE, {"CALL"}},
    [NBM_TYPE_RETURN] = {NB_EV_RETIRED_BRANCH_TYPE, {"RETURN", "INDIRECT"}},
    [NBM_TYPE_INDIRECT] = {NB_EV_RETIRED_BRANCH_TYPE, {"INDIRECT"}},
    [NBM_TYPE_INDIRECT_CALL] = {NB_EV_RETIRED_BRANCH_TYPE, {"CALL", "INDIRECT"}},
    [NBM_MTYPE_COND] = {NB_EV_RETIRED_MISPRED_BRANCH_TYPE, {"CONDITIONAL"}},
    [NBM_MTYPE_RETURN] = {NB_EV_RETIRED_MISPRED_BRANCH_TYPE, {"RETURN", "INDIRECT"}},
    [NBM_MTYPE_INDIRECT] = {NB_EV_RETIRED_MISPRED_BRANCH_TYPE, {"INDIRECT"}},
    [NBM_MTYPE_INDIRECT_CALL] = {NB_EV_RETIRED_MISPRED_BRANCH_TYPE, {"CALL", "INDIRECT"}},
    [NBM_X87_UOP] = {NB_EV_X87_FP_UOP, {"ALL"}},
    [NBM_PACKED_SP] = {NB_EV_PACKED_SP_UOP, {"ALL"}},
    [NBM_PACKED_DP] = {NB_EV_PACKED_DP_UOP, {"ALL"}},
    [NBM_SCALAR_SP] = {NB_EV_SCALAR_SP_UOP, {"ALL"}},
    [NBM_SCALAR_DP] = {NB_EV_SCALAR_DP_UOP, {"ALL"}},
    [NBM_MMX64] = {NB_EV_64BIT_MMX_UOP, {"ALL"}},
    [NBM_MMX128] = {NB_EV_128BIT_MMX_UOP, {"ALL"}},
    [NBM_MOVES_P0] = {NB_EV_X87_SIMD_MOVES_UOP, {"ALLP0"}},
    [NBM_MOVES_P2] = {NB_EV_X87_SIMD_MOVES_UOP, {"ALLP2"}},
    [NBM_TCMISS] = {NB_EV_BPU_FETCH_REQUEST, {"TCMISS"}},
    [NBM_ITLB_HIT] = {NB_EV_ITLB_REFERENCE, {"HIT"}},
    [NBM_ITLB_MISS] = {NB_EV_ITLB_REFERENCE, {"MISS"}},
    [NBM_WALK_DTMISS] = {NB_EV_PAGE_WALK_TYPE, {"DTMISS"}},
    [NBM_WALK_ITMISS] = {NB_EV_PAGE_WALK_TYPE, {"ITMISS"}},
    [NBM_LSC] = {NB_EV_MEMORY_COMPLETE, {"LSC"}},
    [NBM_SSC] = {NB_EV_MEMORY_COMPLETE, {"SSC"}},
    [NBM_SPLIT_LD] = {NB_EV_LOAD_PORT_REPLAY, {"SPLIT_LD"}},
    [NBM_SPLIT_ST] = {NB_EV_STORE_PORT_REPLAY, {"SPLIT_ST"}},
    [NBM_MOB_NO_STD] = {NB_EV_MOB_LOAD_REPLAY, {"NO_STD"}},
    [NBM_MOB_PARTIAL] = {NB_EV_MOB_LOAD_REPLAY, {"PARTIAL_DATA"}},
    [NBM_MOB_UNALIGNED] = {NB_EV_MOB_LOAD_REPLAY, {"UNALGN_ADDR"}},
    [NBM_L2_HITE] = {NB_EV_BSQ_CACHE_REFERENCE, {"RD_2ndL_HITE"}},
    [NBM_L2_HITM] = {NB_EV_BSQ_CACHE_REFERENCE, {"RD_2ndL_HITM"}},
    [NBM_L2_MISS] = {NB_EV_BSQ_CACHE_REFERENCE, {"RD_2ndL_MISS"}},
    /* A 64-byte (8-chunk) demand read of write-back memory; a writeback. */
    [NBM_BSQ_READ] = {NB_EV_BSQ_ALLOCATION, {"REQ_LEN0", "REQ_LEN1"}},
    [NBM_BSQ_WRITEBACK] = {NB_EV_BSQ_ALLOCATION, {"REQ_TYPE0", "REQ_TYPE1"}},
    [NBM_IOQ_READ] = {NB_EV_IOQ_ALLOCATION, {"ALL_READ", "MEM_WB"}},
    [NBM_IOQ_WRITE] = {NB_EV_IOQ_ALLOCATION, {"ALL_WRITE", "MEM_WB"}},
    [NBM_DRDY_OWN] = {NB_EV_FSB_DATA_ACTIVITY, {"DRDY_OWN"}},
    [NBM_DRDY_DRV] = {NB_EV_FSB_DATA_ACTIVITY, {"DRDY_DRV"}},
    [NBM_MS_XFER] = {NB_EV_TC_MS_XFER, {"CISC"}},
    [NBM_UQ_BUILD] = {NB_EV_UOP_QUEUE_WRITES, {"FROM_TC_BUILD"}},
    [NBM_UQ_DELIVER] = {NB_EV_UOP_QUEUE_WRITES, {"FROM_TC_DELIVER"}},
    [NBM_UQ_ROM] = {NB_EV_UOP_QUEUE_WRITES, {"FROM_ROM"}},
    [NBM_SBFULL] = {NB_EV_RESOURCE_STALL, {"SBFULL"}},
    [NBM_CLEAR] = {NB_EV_MACHINE_CLEAR, {"CLEAR"}},
    [NBM_UOPS_BOGUS] = {NB_EV_UOPS_RETIRED, {"BOGUS"}},
    [NBM_INSTR_BOGUS] = {NB_EV_INSTR_RETIRED, {"BOGUSNTAG"}},
    [NBM_COMPLETED_BOGUS] = {NB_EV_INSTR_COMPLETED, {"BOGUS"}},
    /* A retired instruction with a front-end-tagged uop (docs/netburst-model.md, "Tagging"). */
    [NBM_INSTR_TAGGED] = {NB_EV_INSTR_RETIRED, {"NBOGUSTAG"}},
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
    table[NBM_FE_TAGGED] = nb_tagged_source(NB_FRONT_END_TAGGING, 0);
    for (unsigned bit = 0; bit < 4; bit++)
        table[NBM_EXEC_TAG0 + bit] = nb_tagged_source(NB_EXECUTION_TAGGING, bit);
    table[NBM_REPLAY_TAGGED] = nb_tagged_source(NB_REPLAY_TAGGING, 0);
}

/* TC_deliver_mode's sub-event for logical processor 0's and 1's modes: a
 * letter each, D(eliver), B(uild) or I(nactive; with one logical processor
 * the other counts as halted: SDM note on TC_deliver_mode, so a single
 * thread delivers in DI).  A front end in the microcode ROM is in none
 * (mask 0: nothing counts it). */
static bool tc_sources(struct nb_source *table)
{
    static const char letter[] = {[NBM_MODE_DELIVER] = 'D', [NBM_MODE_BUILD] = 'B',
                                  [NBM_MODE_ROM] = 0, [NBM_MODE_IDLE] = 'I'};
    for (int m0 = 0; m0 < 4; m0++)
        for (int m1 = 0; m1 < 4; m1++) {
            char name[3] = {letter[m0], letter[m1], 0};
            const char *names[] = {name};
            struct nb_source *src = &table[NBM_TC_MODES + m0 * 4 + m1];
            src->event = NB_EV_TC_DELIVER_MODE;
            src->mask = 0;
            bool none = !name[0] || !name[1] || (m0 == NBM_MODE_IDLE && m1 == NBM_MODE_IDLE);
            if (!none && !subevent_mask(src->event, names, 1, &src->mask))
                return false;
        }
    return true;
}

/* The sources as the PMU takes them (nb_pmu_attach). */
static bool source_table(struct nb_source table[NBM_NUM_SOURCES])
{
    for (int s = 0; s < NBM_TC_MODES; s++) {
        table[s].event = sources[s].event;
        if (!subevent_mask(sources[s].event, sources[s].subevents, MAX_SUBEVENTS,
                           &table[s].mask))
            return false;
    }
    tagged_sources(table);
    return tc_sources(table);
}

/* `n` cycles' outputs, cleared, each on a cache line of its own. */
static struct nb_escr_outputs *new_outputs(uint64_t n)
{
    struct nb_escr_outputs *outputs = aligned_alloc(CACHE_LINE, n * sizeof *outputs);
    if (outputs)
        memset(outputs, 0, n * sizeof *outputs);
    return outputs;
}

bool nbm_occurrences_init(struct nbm_occurrences *occs, struct nb_pmu *pmu, int threads)
{
    struct nb_source table[NBM_NUM_SOURCES];
    memset(occs, 0, sizeof *occs);
    occs->pmu = pmu;
    occs->threads = threads;
    occs->active_until[0] = occs->active_until[1] = UINT64_MAX;
    occs->size = INITIAL_RING;
    occs->levels = 2u * (unsigned)threads;
    occs->level_shift = (unsigned)threads; /* 2 levels a logical processor */
    occs->ring = calloc(occs->size, sizeof *occs->ring);
    occs->outputs = new_outputs(occs->size);
    occs->counts = calloc(occs->size * occs->levels, sizeof *occs->counts);
    if (!occs->ring || !occs->outputs || !occs->counts || !source_table(table) ||
        !(occs->feed = nb_pmu_attach(pmu, table, NBM_NUM_SOURCES))) {
        nbm_occurrences_free(occs);
        return false;
    }
    for (int t = 0; t < 2; t++)
        occs->reported[t] = nb_pmu_thread(pmu, t);
    nb_router_init(&occs->router, occs->feed, threads);
    nbm_occurrences_watch(occs);
    return true;
}

void nbm_occurrences_free(struct nbm_occurrences *occs)
{
    free(occs->ring);
    free(occs->outputs);
    free(occs->counts);
    free(occs->far);
    occs->ring = NULL;
    occs->outputs = NULL;
    occs->counts = NULL;
    occs->far = NULL;
    for (int t = 0; t < 2; t++) {
        free(occs->retired[t].entries);
        occs->retired[t].entries = NULL;
    }
}

/* TC_deliver_mode's source for the two front ends' states. */
static unsigned tc_source_of(uint8_t state0, uint8_t state1)
{
    return NBM_TC_MODES + (state0 & 3u) * 4 + (state1 & 3u);
}

/* The cycle's own events of the one logical processor routed ahead, by
 * its front end's state (report_cycle's). */
static void watch_cycle_sources(struct nbm_occurrences *occs)
{
    occs->cycles_quiet = true;
    for (uint8_t state = 0; state < 8; state++) {
        unsigned level = state >> 2, tc = tc_source_of(state, NBM_MODE_IDLE);
        bool running = nbm_watched(occs, NBM_RUNNING), delivering = nbm_watched(occs, tc);
        occs->cycle_sources[state] = (struct nbm_cycle_sources){
            .running = running && nb_router_counts(&occs->router, level, NBM_RUNNING),
            .tc = delivering && nb_router_counts(&occs->router, level, tc),
            .level = running || delivering,
        };
        occs->cycles_quiet = occs->cycles_quiet && !(running || delivering);
    }
}

/* Occurrences may be routed when recorded, not when reported, when the
 * PMU's router says so (nb_router_watch).  A region hook runs once its
 * logical processor has drained: no occurrence waits then. */
void nbm_occurrences_watch(struct nbm_occurrences *occs)
{
    if (!nb_router_ahead(&occs->router))
        occs->source_until = occs->now + occs->size; /* the ring's source counts from before */
    nb_router_watch(&occs->router);
    occs->cycles_quiet = false;
    if (nb_router_ahead(&occs->router))
        watch_cycle_sources(occs);
}

/* Watches again when a PMI handler or a hook wrote the PMU. */
static void rewatch(struct nbm_occurrences *occs)
{
    if (nb_router_stale(&occs->router))
        nbm_occurrences_watch(occs);
}

/* Doubles the ring, keeping each pending cycle's bucket. */
static bool grow(struct nbm_occurrences *occs)
{
    uint64_t size = occs->size * 2;
    struct nbm_bucket *ring = calloc(size, sizeof *ring);
    struct nb_escr_outputs *outputs = new_outputs(size);
    nbm_counts *counts = calloc(size * occs->levels, sizeof *counts);
    if (!ring || !outputs || !counts) {
        free(ring);
        free(outputs);
        free(counts);
        return false;
    }
    for (uint64_t c = occs->now; c < occs->now + occs->size; c++) {
        ring[c & (size - 1)] = occs->ring[c & (occs->size - 1)];
        outputs[c & (size - 1)] = occs->outputs[c & (occs->size - 1)];
        memcpy(counts[(c & (size - 1)) << occs->level_shift],
               occs->counts[(c & (occs->size - 1)) << occs->level_shift],
               occs->levels * sizeof *counts);
    }
    free(occs->ring);
    free(occs->outputs);
    free(occs->counts);
    occs->ring = ring;
    occs->outputs = outputs;
    occs->counts = counts;
    occs->size = size;
    return true;
}

/* Grows the ring, up to NBM_RING_MAX cycles, to hold `cycle` (not yet
 * ticked) if it can. */
static void reach(struct nbm_occurrences *occs, uint64_t cycle)
{
    while (cycle - occs->now >= occs->size && occs->size < NBM_RING_MAX && !occs->failed)
        occs->failed = !grow(occs);
}

/* ---- the occurrences beyond the ring: a binary heap by first cycle */

static void far_push(struct nbm_occurrences *occs, struct nbm_far entry)
{
    if (occs->n_far == occs->far_capacity &&
        !grow_array(&occs->far, &occs->far_capacity, occs->n_far + 1, sizeof *occs->far,
                    INITIAL_FAR)) {
        occs->failed = true;
        return;
    }
    size_t i = occs->n_far++;
    for (; i > 0 && occs->far[(i - 1) / 2].cycle > entry.cycle; i = (i - 1) / 2)
        occs->far[i] = occs->far[(i - 1) / 2];
    occs->far[i] = entry;
}

static struct nbm_far far_pop(struct nbm_occurrences *occs)
{
    struct nbm_far top = occs->far[0], last = occs->far[--occs->n_far];
    size_t i = 0;
    for (size_t child; (child = 2 * i + 1) < occs->n_far; i = child) {
        if (child + 1 < occs->n_far && occs->far[child + 1].cycle < occs->far[child].cycle)
            child++;
        if (occs->far[child].cycle >= last.cycle)
            break;
        occs->far[i] = occs->far[child];
    }
    occs->far[i] = last;
    return top;
}

/* The cycles of `span` the ring holds go into it, the others into the
 * heap. */
static void put_span(struct nbm_occurrences *occs, struct nbm_far span)
{
    uint64_t end = occs->now + occs->size;
    uint64_t until = span.until < end ? span.until : end;
    for (uint64_t c = span.cycle; c < until; c++) {
        if (span.source == FRONTEND_STATE)
            occs->ring[c & (occs->size - 1)].frontend[span.level] = (uint8_t)span.count;
        else
            nbm_occur_put(occs, c, span.source, span.level, span.count);
    }
    if (until < span.until) {
        span.cycle = until > span.cycle ? until : span.cycle;
        far_push(occs, span);
    }
}

/* Grows the ring towards the span's last cycle, then puts it. */
static void put_reaching(struct nbm_occurrences *occs, struct nbm_far span)
{
    if (span.cycle >= span.until)
        return;
    reach(occs, span.until - 1);
    put_span(occs, span);
}

/* Moves into the ring the heap's occurrences it now holds. */
static void pull_far(struct nbm_occurrences *occs)
{
    while (occs->n_far && occs->far[0].cycle - occs->now < occs->size)
        put_span(occs, far_pop(occs));
}

void nbm_occur_far(struct nbm_occurrences *occs, uint64_t cycle, enum nbm_source_id source,
                   unsigned level, unsigned count)
{
    put_reaching(occs, (struct nbm_far){cycle, cycle + 1, (uint8_t)source, (uint8_t)level,
                                     (uint16_t)count});
}

void nbm_occur_span(struct nbm_occurrences *occs, uint64_t from, uint64_t until,
                    enum nbm_source_id source, unsigned level)
{
    if (nbm_watched(occs, source))
        put_reaching(occs, (struct nbm_far){from, until, (uint8_t)source, (uint8_t)level, 1});
}

void nbm_occurrences_frontend_change(struct nbm_occurrences *occs, unsigned level, uint64_t cycle,
                                     uint8_t state)
{
    unsigned t = level >> 1;
    uint64_t from = occs->frontend_from[t] > occs->now ? occs->frontend_from[t] : occs->now;
    put_reaching(occs, (struct nbm_far){from, cycle, FRONTEND_STATE, (uint8_t)t, occs->frontend[t]});
    occs->frontend[t] = state;
    occs->frontend_from[t] = cycle > occs->now ? cycle : occs->now;
}

void nbm_occurrences_thread_end(struct nbm_occurrences *occs, int thread, uint64_t cycle)
{
    occs->active_until[thread] = cycle;
}

/* Logical processor `t` active at `user` level in the PMU (ACTIVE_THREAD
 * filtering and the ESCRs' T0/T1 OS/USR bits read this state). */
static void set_level(struct nbm_occurrences *occs, int t, bool user)
{
    struct nb_thread state = {.active = true, .cpl = user ? 3 : 0};
    if (occs->reported[t].cpl != state.cpl || !occs->reported[t].active) {
        nb_pmu_set_thread(occs->pmu, t, true, state.cpl);
        occs->reported[t] = state;
    }
}

static void set_inactive(struct nbm_occurrences *occs, int t)
{
    if (occs->reported[t].active) {
        nb_pmu_set_thread(occs->pmu, t, false, occs->reported[t].cpl);
        occs->reported[t].active = false;
    }
}

/* The outputs of the cycle being reported. */
static struct nb_escr_outputs *outputs_now(const struct nbm_occurrences *occs)
{
    return &occs->outputs[occs->now & (occs->size - 1)];
}

/* The cycle's occurrences at `level` counted by source, to the PMU. */
static void report(struct nbm_occurrences *occs, struct nbm_bucket *b, unsigned level)
{
    int t = (int)(level >> 1);
    bool user = level & 1;
    uint16_t *count = occs->counts[(occs->now & (occs->size - 1)) << occs->level_shift | level];
    set_level(occs, t, user);
    nb_feed_occur_counts(occs->feed, outputs_now(occs), t, user, b->used[level], count);
}

/* Whether some TC_deliver_mode source is watched. */
static bool tc_watched(const struct nbm_occurrences *occs)
{
    return nb_feed_watched_any(occs->feed, NBM_TC_MODES, 16);
}

/* Whether the PMU already has each logical processor active or not as it is now. */
static bool activity_current(const struct nbm_occurrences *occs)
{
    for (int t = 0; t < occs->threads; t++)
        if (occs->reported[t].active != (occs->now < occs->active_until[t]))
            return false;
    return true;
}

/* report_cycle for one logical processor routed ahead, from its cycle
 * sources, onto the cycle's `outputs`. */
static void report_cycle_ahead(struct nbm_occurrences *occs, struct nbm_bucket *b,
                               struct nb_escr_outputs *outputs)
{
    if (occs->now >= occs->active_until[0]) {
        set_inactive(occs, 0);
        return;
    }
    uint8_t state = occs->now >= occs->frontend_from[0] ? occs->frontend[0] : b->frontend[0];
    const struct nbm_cycle_sources *own = &occs->cycle_sources[state];
    unsigned level = state >> 2;
    if (own->level || !occs->reported[0].active)
        set_level(occs, 0, level);
    if (own->running)
        nb_router_occur(&occs->router, outputs, level, NBM_RUNNING, 1);
    if (own->tc)
        nb_router_occur(&occs->router, outputs, level,
                        tc_source_of(state, NBM_MODE_IDLE), 1);
}

/* The cycle's own events when not routed ahead: RUNNING for each active
 * logical processor, at its front end's level, and TC_deliver_mode
 * (thread independent: reported once, by the first active one). */
static void report_cycle(struct nbm_occurrences *occs, struct nbm_bucket *b)
{
    bool running = nbm_watched(occs, NBM_RUNNING);
    if (!running && !tc_watched(occs) && activity_current(occs))
        return;
    uint8_t state[2] = {NBM_MODE_IDLE, NBM_MODE_IDLE};
    int first = -1;
    for (int t = 0; t < occs->threads; t++) {
        if (occs->now >= occs->active_until[t]) {
            set_inactive(occs, t);
            continue;
        }
        state[t] = occs->now >= occs->frontend_from[t] ? occs->frontend[t] : b->frontend[t];
        bool user = state[t] >> 2;
        if (!occs->reported[t].active || running)
            set_level(occs, t, user);
        if (first < 0)
            first = t;
        if (running)
            nb_feed_occur(occs->feed, outputs_now(occs), t, user, NBM_RUNNING, 1);
    }
    unsigned tc = tc_source_of(state[0], state[1]);
    if (first >= 0 && nbm_watched(occs, tc)) {
        bool user = state[first] >> 2;
        set_level(occs, first, user);
        nb_feed_occur(occs->feed, outputs_now(occs), first, user, tc, 1);
    }
}

/* ---- retirements and PMIs (docs/netburst-model.md, "Sampling") */

static bool queue_grow(struct nbm_retire_queue *q)
{
    uint64_t size = q->entries ? 2 * (q->mask + 1) : 64;
    struct nbm_retired *entries = malloc(size * sizeof *entries);
    if (!entries)
        return false;
    for (uint64_t i = q->head; i < q->tail; i++)
        entries[i & (size - 1)] = q->entries[i & q->mask];
    free(q->entries);
    q->entries = entries;
    q->mask = size - 1;
    return true;
}

void nbm_occurrences_retire(struct nbm_occurrences *occs, int thread, uint64_t cycle,
                            uint64_t allocated, const struct nb_retirement *r)
{
    struct nbm_retire_queue *q = &occs->retired[thread];
    if ((!q->entries || q->tail - q->head > q->mask) && !queue_grow(q)) {
        occs->failed = true;
        return;
    }
    struct nbm_retired *e = &q->entries[q->tail++ & q->mask];
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
static void hand_assist(struct nbm_occurrences *occs, int t, const struct nbm_retire_queue *q,
                        const struct nb_assist *log)
{
    occs->assists_seen[t] = log->taken;
    const struct nbm_retired *e = &q->entries[q->head & q->mask];
    const struct nbm_retired *next = &q->entries[(q->head + 1) & q->mask];
    struct nbm_flush flush = {e->cycle + e->delay,
                             q->head + 1 < q->tail ? next->cycle + next->delay : UINT64_MAX, log};
    if (occs->assist)
        occs->assist(occs->machine, t, &flush);
}

void nbm_occurrences_delay(struct nbm_occurrences *occs, int thread, uint64_t cycles)
{
    struct nbm_retire_queue *q = &occs->retired[thread];
    for (uint64_t i = q->head + 1; i < q->tail; i++)
        q->entries[i & q->mask].delay += cycles;
}

/* The cycle's retirements, thread by thread (a shared cycle retires one
 * thread's uops: nbm_retire_slot). */
static void report_retirements(struct nbm_occurrences *occs)
{
    for (int t = 0; t < occs->threads; t++) {
        struct nbm_retire_queue *q = &occs->retired[t];
        if (q->head == q->tail)
            continue;
        const struct nb_assist *log = nb_feed_assist(occs->feed, t);
        for (; q->head < q->tail && q->entries[q->head & q->mask].cycle <= occs->now; q->head++) {
            struct nbm_retired *e = &q->entries[q->head & q->mask];
            if (e->r.regs)
                e->r.regs = e->regs; /* the ring may have moved */
            if (!nb_pmu_retire(occs->pmu, t, &e->r))
                occs->failed = true; /* out of memory for a PEBS record */
            if (occs->interrupt[t].placed && q->head == occs->interrupt[t].boundary)
                occs->interrupt[t].eip = e->r.eip;
            if (log->taken != occs->assists_seen[t])
                hand_assist(occs, t, q, log);
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
static void place(struct nbm_occurrences *occs, int t, struct nbm_interrupt *irq)
{
    const struct nbm_retire_queue *q = &occs->retired[t];
    irq->take = occs->now;
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
static void interrupt(struct nbm_occurrences *occs, int t)
{
    struct nbm_interrupt *irq = &occs->interrupt[t];
    const struct nbm_retire_queue *q = &occs->retired[t];
    uint64_t since;
    if (!irq->recognized) {
        if (!nb_pmu_pending_pmi(occs->pmu, t, &since))
            return;
        uint64_t at = bus_edge(since, occs->bus_ratio) + occs->pmi_latency;
        *irq = (struct nbm_interrupt){.recognized = true, .at = at};
    }
    if (!irq->placed && occs->now + 1 >= irq->at)
        place(occs, t, irq);
    if (!irq->placed || occs->now < irq->take || q->tail <= irq->boundary)
        return;
    uint64_t eip = irq->boundary >= q->head ? q->entries[irq->boundary & q->mask].r.eip : irq->eip;
    *irq = (struct nbm_interrupt){0};
    struct nb_pmi_sample sample;
    if (nb_pmu_take_pmi_at(occs->pmu, t, eip, &sample) && occs->sample)
        occs->sample(occs->context, t, sample.delivered, sample.eip, sample.precise);
}

/* How many cycles from now, before `cycle`, would report nothing, routed
 * ahead: no occurrence waits in the heap, the cycle's own events count
 * nowhere and the logical processor's activity is reported as it is
 * through them, no source counts are left from before routing ahead, no
 * retirement or PMI waits, and their outputs are empty. */
static uint64_t idle_cycles(const struct nbm_occurrences *occs, uint64_t cycle)
{
    if (!nb_router_ahead(&occs->router) || occs->n_far || occs->now < occs->source_until ||
        occs->retired[0].head != occs->retired[0].tail || nb_feed_pmi_waiting(occs->feed))
        return 0;
    uint64_t until = cycle - occs->now < occs->size ? cycle : occs->now + occs->size;
    if (occs->now < occs->active_until[0]) {
        if (!occs->reported[0].active)
            return 0;
        until = until < occs->active_until[0] ? until : occs->active_until[0];
    } else if (occs->reported[0].active) {
        return 0;
    }
    uint64_t c = occs->now;
    for (; c < until; c++) {
        const struct nb_escr_outputs *out = &occs->outputs[c & (occs->size - 1)];
        if (out->driven || out->generation)
            break;
    }
    return c - occs->now;
}

/* Ticks the idle cycles from now on at once; whether they reach `cycle`. */
static bool skip_idle(struct nbm_occurrences *occs, uint64_t cycle)
{
    for (uint64_t idle; (idle = idle_cycles(occs, cycle)) != 0;) {
        idle = nb_pmu_tick_idle(occs->pmu, idle);
        if (!idle)
            break;
        occs->now += idle;
    }
    return occs->now == cycle;
}

void nbm_occurrences_tick_until(struct nbm_occurrences *occs, uint64_t cycle)
{
    rewatch(occs);
    for (; occs->now < cycle; occs->now++) {
        if (occs->cycles_quiet && skip_idle(occs, cycle))
            break;
        if (occs->n_far)
            pull_far(occs);
        struct nbm_bucket *b = &occs->ring[occs->now & (occs->size - 1)];
        bool ahead = nb_router_ahead(&occs->router);
        if (ahead)
            report_cycle_ahead(occs, b, outputs_now(occs));
        else
            report_cycle(occs, b);
        if (!ahead || occs->now < occs->source_until)
            for (unsigned level = 0; level < occs->levels; level++)
                if (b->used[level][0] | b->used[level][1])
                    report(occs, b, level);
        report_retirements(occs); /* an assist may grow the ring: its outputs are read after */
        if (!nb_pmu_tick_routed(occs->pmu, outputs_now(occs)))
            occs->refused = true;
        if (nb_feed_pmi_waiting(occs->feed)) {
            for (int t = 0; t < occs->threads; t++)
                interrupt(occs, t);
            rewatch(occs);
        }
    }
}
