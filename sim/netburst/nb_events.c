/* The event reporting table (data), the per-cycle ring of occurrences and
 * the heap of those beyond it. */
#include "sim/netburst/nb_events.h"

#include <stdlib.h>
#include <string.h>

#include "pmu/netburst_events.h"
#include "pmu/netburst_fields.h"
#include "pmu/netburst_metrics.h"

enum { INITIAL_RING = 1024, MAX_SUBEVENTS = 2, INITIAL_FAR = 64 };
_Static_assert(NB_NUM_SLOTS <= 128, "the slot masks hold 128 slots");
_Static_assert((int)INITIAL_RING <= (int)NB_RING_MAX, "the ring starts within its bound");

/* A far entry's slot for a front end's state (struct nb_far). */
enum { FRONTEND_STATE = NB_NUM_SLOTS };

/* Each slot's event and sub-events (docs/netburst-model.md says when the
 * model reports each). */
static const struct {
    const char *event;
    const char *subevents[MAX_SUBEVENTS];
} slots[NB_NUM_SLOTS] = {
    [NB_RUNNING] = {"global_power_events", {"RUNNING"}},
    [NB_INSTR_RETIRED] = {"instr_retired", {"NBOGUSNTAG"}},
    [NB_INSTR_COMPLETED] = {"instr_completed", {"NBOGUS"}},
    [NB_UOPS_RETIRED] = {"uops_retired", {"NBOGUS"}},
    [NB_BR_MMNP] = {"branch_retired", {"MMNP"}},
    [NB_BR_MMNM] = {"branch_retired", {"MMNM"}},
    [NB_BR_MMTP] = {"branch_retired", {"MMTP"}},
    [NB_BR_MMTM] = {"branch_retired", {"MMTM"}},
    [NB_MISPRED] = {"mispred_branch_retired", {"NBOGUS"}},
    [NB_TYPE_COND] = {"retired_branch_type", {"CONDITIONAL"}},
    [NB_TYPE_CALL] = {"retired_branch_type", {"CALL"}},
    [NB_TYPE_RETURN] = {"retired_branch_type", {"RETURN", "INDIRECT"}},
    [NB_TYPE_INDIRECT] = {"retired_branch_type", {"INDIRECT"}},
    [NB_TYPE_INDIRECT_CALL] = {"retired_branch_type", {"CALL", "INDIRECT"}},
    [NB_MTYPE_COND] = {"retired_mispred_branch_type", {"CONDITIONAL"}},
    [NB_MTYPE_RETURN] = {"retired_mispred_branch_type", {"RETURN", "INDIRECT"}},
    [NB_MTYPE_INDIRECT] = {"retired_mispred_branch_type", {"INDIRECT"}},
    [NB_MTYPE_INDIRECT_CALL] = {"retired_mispred_branch_type", {"CALL", "INDIRECT"}},
    [NB_X87_UOP] = {"x87_FP_uop", {"ALL"}},
    [NB_PACKED_SP] = {"packed_SP_uop", {"ALL"}},
    [NB_PACKED_DP] = {"packed_DP_uop", {"ALL"}},
    [NB_SCALAR_SP] = {"scalar_SP_uop", {"ALL"}},
    [NB_SCALAR_DP] = {"scalar_DP_uop", {"ALL"}},
    [NB_MMX64] = {"64bit_MMX_uop", {"ALL"}},
    [NB_MMX128] = {"128bit_MMX_uop", {"ALL"}},
    [NB_MOVES_P0] = {"x87_SIMD_moves_uop", {"ALLP0"}},
    [NB_MOVES_P2] = {"x87_SIMD_moves_uop", {"ALLP2"}},
    [NB_TCMISS] = {"BPU_fetch_request", {"TCMISS"}},
    [NB_ITLB_HIT] = {"ITLB_reference", {"HIT"}},
    [NB_ITLB_MISS] = {"ITLB_reference", {"MISS"}},
    [NB_WALK_DTMISS] = {"page_walk_type", {"DTMISS"}},
    [NB_WALK_ITMISS] = {"page_walk_type", {"ITMISS"}},
    [NB_LSC] = {"memory_complete", {"LSC"}},
    [NB_SSC] = {"memory_complete", {"SSC"}},
    [NB_SPLIT_LD] = {"load_port_replay", {"SPLIT_LD"}},
    [NB_SPLIT_ST] = {"store_port_replay", {"SPLIT_ST"}},
    [NB_MOB_NO_STD] = {"MOB_load_replay", {"NO_STD"}},
    [NB_MOB_PARTIAL] = {"MOB_load_replay", {"PARTIAL_DATA"}},
    [NB_MOB_UNALIGNED] = {"MOB_load_replay", {"UNALGN_ADDR"}},
    [NB_L2_HITE] = {"BSQ_cache_reference", {"RD_2ndL_HITE"}},
    [NB_L2_HITM] = {"BSQ_cache_reference", {"RD_2ndL_HITM"}},
    [NB_L2_MISS] = {"BSQ_cache_reference", {"RD_2ndL_MISS"}},
    /* A 64-byte (8-chunk) demand read of write-back memory; a writeback. */
    [NB_BSQ_READ] = {"BSQ_allocation", {"REQ_LEN0", "REQ_LEN1"}},
    [NB_BSQ_WRITEBACK] = {"BSQ_allocation", {"REQ_TYPE0", "REQ_TYPE1"}},
    [NB_IOQ_READ] = {"IOQ_allocation", {"ALL_READ", "MEM_WB"}},
    [NB_IOQ_WRITE] = {"IOQ_allocation", {"ALL_WRITE", "MEM_WB"}},
    [NB_DRDY_OWN] = {"FSB_data_activity", {"DRDY_OWN"}},
    [NB_DRDY_DRV] = {"FSB_data_activity", {"DRDY_DRV"}},
    /* The sub-event by both front ends' modes: tc_mask (resolve_tc_modes). */
    [NB_TC_MODE] = {"TC_deliver_mode", {NULL}},
    [NB_MS_XFER] = {"tc_ms_xfer", {"CISC"}},
    [NB_UQ_BUILD] = {"uop_queue_writes", {"FROM_TC_BUILD"}},
    [NB_UQ_DELIVER] = {"uop_queue_writes", {"FROM_TC_DELIVER"}},
    [NB_UQ_ROM] = {"uop_queue_writes", {"FROM_ROM"}},
    [NB_SBFULL] = {"resource_stall", {"SBFULL"}},
    [NB_CLEAR] = {"machine_clear", {"CLEAR"}},
    [NB_UOPS_BOGUS] = {"uops_retired", {"BOGUS"}},
    [NB_INSTR_BOGUS] = {"instr_retired", {"BOGUSNTAG"}},
    [NB_COMPLETED_BOGUS] = {"instr_completed", {"BOGUS"}},
    /* At-retirement counting of tagged uops (docs/netburst-model.md, "Tagging"). */
    [NB_INSTR_TAGGED] = {"instr_retired", {"NBOGUSTAG"}},
    [NB_FE_TAGGED] = {"front_end_event", {"NBOGUS"}},
    [NB_EXEC_TAG0] = {"execution_event", {"NBOGUS0"}},
    [NB_EXEC_TAG1] = {"execution_event", {"NBOGUS1"}},
    [NB_EXEC_TAG2] = {"execution_event", {"NBOGUS2"}},
    [NB_EXEC_TAG3] = {"execution_event", {"NBOGUS3"}},
    [NB_REPLAY_TAGGED] = {"replay_event", {"NBOGUS"}},
};

/* TC_deliver_mode's sub-event for logical processor 0's and 1's modes: a
 * letter each, D(eliver), B(uild) or I(nactive; with one logical processor
 * the other counts as halted: SDM note on TC_deliver_mode, so a single
 * thread delivers in DI).  A front end in the microcode ROM is in none. */
static bool resolve_tc_modes(struct nb_events *ev)
{
    static const char letter[] = {[NB_MODE_DELIVER] = 'D', [NB_MODE_BUILD] = 'B',
                                  [NB_MODE_ROM] = 0, [NB_MODE_IDLE] = 'I'};
    const struct nb_event_info *tc = &nb_event_table[ev->event[NB_TC_MODE]];
    for (int m0 = 0; m0 < 4; m0++)
        for (int m1 = 0; m1 < 4; m1++) {
            char name[3] = {letter[m0], letter[m1], 0};
            ev->tc_mask[m0][m1] = 0;
            if (!name[0] || !name[1] || (m0 == NB_MODE_IDLE && m1 == NB_MODE_IDLE))
                continue;
            const struct nb_subevent *sub = nb_subevent_find(tc, name);
            if (!sub)
                return false;
            ev->tc_mask[m0][m1] = (uint16_t)(1u << sub->bit);
        }
    return true;
}

static bool resolve(struct nb_events *ev)
{
    for (int s = 0; s < NB_NUM_SLOTS; s++) {
        int e = nb_event_find(slots[s].event);
        if (e < 0)
            return false;
        ev->event[s] = (int16_t)e;
        ev->mask[s] = 0;
        for (int i = 0; i < MAX_SUBEVENTS && slots[s].subevents[i]; i++) {
            const struct nb_subevent *sub = nb_subevent_find(&nb_event_table[e], slots[s].subevents[i]);
            if (!sub)
                return false;
            ev->mask[s] |= (uint16_t)(1u << sub->bit);
        }
    }
    return resolve_tc_modes(ev);
}

bool nb_events_init(struct nb_events *ev, struct nb_pmu *pmu, int threads)
{
    memset(ev, 0, sizeof *ev);
    ev->pmu = pmu;
    ev->threads = threads;
    ev->active_until[0] = ev->active_until[1] = UINT64_MAX;
    ev->size = INITIAL_RING;
    ev->levels = 2u * (unsigned)threads;
    ev->level_shift = (unsigned)threads; /* 2 levels a logical processor */
    ev->ring = calloc(ev->size, sizeof *ev->ring);
    ev->counts = calloc(ev->size * ev->levels, sizeof *ev->counts);
    if (!ev->ring || !ev->counts || !resolve(ev)) {
        nb_events_free(ev);
        return false;
    }
    nb_events_watch(ev);
    return true;
}

void nb_events_free(struct nb_events *ev)
{
    free(ev->ring);
    free(ev->counts);
    free(ev->far);
    ev->ring = NULL;
    ev->counts = NULL;
    ev->far = NULL;
    for (int t = 0; t < 2; t++) {
        free(ev->retired[t].entries);
        ev->retired[t].entries = NULL;
    }
}

/* Replay tagging (SDM Vol. 3B, the replay-tagging table; netburst_metrics.c
 * has each metric's IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT bits): the
 * condition each metric tags and the slot its upstream ESCR, if it needs
 * one, must count.  DTLB_all_miss_retired's bits are the load and store
 * metrics' together: those two rows cover it. */
static const struct {
    const char *metric;
    uint16_t cause;              /* enum nb_replay_cause */
    enum nb_slot upstream;       /* or NB_NUM_SLOTS: no upstream ESCR */
} replay_metrics[] = {
    {"1stL_cache_load_miss_retired", NB_CAUSE_L1_MISS, NB_NUM_SLOTS},
    {"2ndL_cache_load_miss_retired", NB_CAUSE_L2_MISS, NB_NUM_SLOTS},
    {"DTLB_load_miss_retired", NB_CAUSE_DTLB_LOAD, NB_NUM_SLOTS},
    {"DTLB_store_miss_retired", NB_CAUSE_DTLB_STORE, NB_NUM_SLOTS},
    {"Tagged_mispred_branch", NB_CAUSE_MISPREDICTED, NB_NUM_SLOTS},
    {"MOB_load_replay_retired", NB_CAUSE_MOB_PARTIAL, NB_MOB_PARTIAL},
    {"MOB_load_replay_retired", NB_CAUSE_MOB_UNALIGNED, NB_MOB_UNALIGNED},
    {"split_load_retired", NB_CAUSE_SPLIT_LOAD, NB_SPLIT_LD},
    {"split_store_retired", NB_CAUSE_SPLIT_STORE, NB_SPLIT_ST},
};

/* Whether IA32_PEBS_ENABLE has UOP_TAG and all of the metric's bits, and
 * MSR_PEBS_MATRIX_VERT all of its bits. */
static bool replay_selected(const struct nb_pmu *pmu, const struct nb_metric *metric)
{
    uint64_t enable = PEBS_ENABLE_UOP_TAG | metric->pebs_enable;
    return (pmu->pebs_enable & enable) == enable &&
           (pmu->pebs_matrix_vert & metric->matrix_vert) == metric->matrix_vert;
}

/* Whether the metric's upstream ESCR (the one it names, or any) counts an
 * occurrence of `slot` by thread t at `cpl`, the other thread at its CPL. */
static bool upstream_counts(const struct nb_events *ev, const struct nb_metric *metric,
                            enum nb_slot slot, int t, int cpl)
{
    uint8_t cpls[2] = {ev->pmu->thread[0].cpl, ev->pmu->thread[1].cpl};
    cpls[t] = (uint8_t)cpl;
    uint64_t escrs = nb_pmu_route(ev->pmu, ev->event[slot], ev->mask[slot],
                                  escr_context_of(t, cpls, ev->pmu->config.ht));
    return metric->upstream_escr < 0 ? escrs != 0 : (escrs >> metric->upstream_escr & 1);
}

static void watch_replay(struct nb_events *ev)
{
    struct nb_tagging *tg = &ev->tagging;
    for (size_t i = 0; i < sizeof replay_metrics / sizeof replay_metrics[0]; i++) {
        const struct nb_metric *metric = nb_metric_find(replay_metrics[i].metric);
        if (!metric || !replay_selected(ev->pmu, metric))
            continue;
        enum nb_slot slot = replay_metrics[i].upstream;
        for (unsigned level = 0; level < ev->levels; level++)
            if (slot == NB_NUM_SLOTS ||
                upstream_counts(ev, metric, slot, (int)(level >> 1), level & 1 ? 3 : 0))
                tg->replay[level] |= replay_metrics[i].cause;
    }
    for (unsigned level = 0; level < ev->levels; level++)
        tg->any = tg->any || tg->replay[level];
}

/* Front-end tagging (uop_type's TAGLOADS/TAGSTORES) and execution tagging
 * (ESCRs with Tag Enable) by level; replay tagging (watch_replay). */
static void watch_tagging(struct nb_events *ev)
{
    struct nb_tagging *tg = &ev->tagging;
    const struct nb_pmu *pmu = ev->pmu;
    memset(tg, 0, sizeof *tg);
    int uop_type = NB_EV_UOP_TYPE;
    for (unsigned level = 0; level < ev->levels; level++) {
        int t = (int)(level >> 1), cpl = level & 1 ? 3 : 0;
        tg->front_end[level] = nb_pmu_selected_mask(pmu, uop_type, t, cpl) & 6; /* bits 1, 2 */
        for (int s = 0; s < NB_NUM_SLOTS; s++)
            tg->execution[s][level] = nb_pmu_tag_bits(pmu, ev->event[s], ev->mask[s], t, cpl);
        tg->any = tg->any || tg->front_end[level];
    }
    for (int s = 0; s < NB_NUM_SLOTS && !tg->any; s++)
        for (unsigned level = 0; level < ev->levels; level++)
            tg->any = tg->any || tg->execution[s][level];
    watch_replay(ev);
}

/* Sampling is programmed: PEBS enabled for a thread, or a counter with
 * OVF_PMI (its PMIs are taken, sampling the last retired EIP). */
static bool watch_sampling(const struct nb_pmu *pmu)
{
    if (pmu->pebs_threads)
        return true;
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        if (pmu->cccr[c] & (CCCR_OVF_PMI_T0 | CCCR_OVF_PMI_T1))
            return true;
    return false;
}

/* The context of an occurrence at `level` with one logical processor:
 * the one report() gives it, the other thread (with HT) at its CPL. */
static uint8_t level_context(const struct nb_events *ev, unsigned level)
{
    uint8_t cpl[2] = {level & 1 ? 3 : 0, ev->pmu->thread[1].cpl};
    return escr_context_of(0, cpl, ev->pmu->config.ht);
}

/* Each slot's route in every context (nb_pmu_route): the occurrences
 * drive the buses at once when they are reported; with one logical
 * processor, also by level, for recording straight onto the buses. */
static void make_routes(struct nb_events *ev)
{
    for (unsigned context = 0; context < ESCR_CONTEXTS; context++) {
        for (int s = 0; s < NB_NUM_SLOTS; s++)
            ev->route[context][s] =
                nb_pmu_route(ev->pmu, ev->event[s], ev->mask[s], (uint8_t)context);
        for (int m0 = 0; m0 < 4; m0++)
            for (int m1 = 0; m1 < 4; m1++)
                ev->tc_route[context][m0][m1] = nb_pmu_route(
                    ev->pmu, ev->event[NB_TC_MODE], ev->tc_mask[m0][m1], (uint8_t)context);
    }
    for (unsigned level = 0; level < ev->levels && ev->threads == 1; level++)
        memcpy(ev->level_route[level], ev->route[level_context(ev, level)],
               sizeof ev->level_route[level]);
    ev->route_writes = ev->pmu->escr_writes;
}

/* Occurrences may be routed when recorded, not when reported, if no ESCR
 * can be written in between: with one logical processor (the other's
 * privilege level, which a context has, changes as cycles are reported)
 * and without sampling (no PMI handler runs).  A region hook runs once
 * its logical processor has drained: no occurrence waits then. */
static bool can_route_ahead(const struct nb_events *ev)
{
    return ev->threads == 1 && !ev->sampling;
}

/* Recorded straight onto the buses, a slot no ESCR counts at any level
 * need not be recorded at all.  (TC_deliver_mode's route is by both front
 * ends' modes: report_cycle.) */
static void drop_unrouted(struct nb_events *ev)
{
    for (int s = 0; s < NB_NUM_SLOTS; s++) {
        uint64_t escrs = 0;
        for (unsigned level = 0; level < ev->levels; level++)
            escrs |= ev->level_route[level][s];
        if (!escrs && s != NB_TC_MODE)
            ev->wanted[s >> 6] &= ~(1ull << (s & 63));
    }
}

void nb_events_watch(struct nb_events *ev)
{
    make_routes(ev);
    watch_tagging(ev);
    ev->sampling = watch_sampling(ev->pmu);
    if (!ev->direct)
        ev->slot_until = ev->now + ev->size; /* the ring's slot counts from before */
    ev->direct = can_route_ahead(ev);
    ev->wanted[0] = ev->wanted[1] = 0;
    for (int e = 0; e < NB_NUM_ESCRS; e++) {
        int event = ev->pmu->escr_event[e];
        if (event < 0)
            continue;
        for (int s = 0; s < NB_NUM_SLOTS; s++)
            if (ev->event[s] == event)
                ev->wanted[s >> 6] |= 1ull << (s & 63);
    }
    if (ev->direct)
        drop_unrouted(ev);
}

/* Doubles the ring, keeping each pending cycle's bucket. */
static bool grow(struct nb_events *ev)
{
    uint64_t size = ev->size * 2;
    struct nb_bucket *ring = calloc(size, sizeof *ring);
    nb_counts *counts = calloc(size * ev->levels, sizeof *counts);
    if (!ring || !counts) {
        free(ring);
        free(counts);
        return false;
    }
    for (uint64_t c = ev->now; c < ev->now + ev->size; c++) {
        ring[c & (size - 1)] = ev->ring[c & (ev->size - 1)];
        memcpy(counts[(c & (size - 1)) << ev->level_shift],
               ev->counts[(c & (ev->size - 1)) << ev->level_shift],
               ev->levels * sizeof *counts);
    }
    free(ev->ring);
    free(ev->counts);
    ev->ring = ring;
    ev->counts = counts;
    ev->size = size;
    return true;
}

/* Grows the ring, up to NB_RING_MAX cycles, to hold `cycle` (not yet
 * ticked) if it can. */
static void reach(struct nb_events *ev, uint64_t cycle)
{
    while (cycle - ev->now >= ev->size && ev->size < NB_RING_MAX && !ev->failed)
        ev->failed = !grow(ev);
}

/* ---- the occurrences beyond the ring: a binary heap by first cycle */

static void far_push(struct nb_events *ev, struct nb_far entry)
{
    if (ev->n_far == ev->far_capacity) {
        size_t capacity = ev->far_capacity ? 2 * ev->far_capacity : INITIAL_FAR;
        struct nb_far *grown = realloc(ev->far, capacity * sizeof *grown);
        if (!grown) {
            ev->failed = true;
            return;
        }
        ev->far = grown;
        ev->far_capacity = capacity;
    }
    size_t i = ev->n_far++;
    for (; i > 0 && ev->far[(i - 1) / 2].cycle > entry.cycle; i = (i - 1) / 2)
        ev->far[i] = ev->far[(i - 1) / 2];
    ev->far[i] = entry;
}

static struct nb_far far_pop(struct nb_events *ev)
{
    struct nb_far top = ev->far[0], last = ev->far[--ev->n_far];
    size_t i = 0;
    for (size_t child; (child = 2 * i + 1) < ev->n_far; i = child) {
        if (child + 1 < ev->n_far && ev->far[child + 1].cycle < ev->far[child].cycle)
            child++;
        if (ev->far[child].cycle >= last.cycle)
            break;
        ev->far[i] = ev->far[child];
    }
    ev->far[i] = last;
    return top;
}

/* The cycles of `span` the ring holds go into it, the others into the
 * heap. */
static void put_span(struct nb_events *ev, struct nb_far span)
{
    uint64_t end = ev->now + ev->size;
    uint64_t until = span.until < end ? span.until : end;
    for (uint64_t c = span.cycle; c < until; c++) {
        if (span.slot == FRONTEND_STATE)
            ev->ring[c & (ev->size - 1)].frontend[span.level] = (uint8_t)span.count;
        else
            nb_event_put(ev, c, span.slot, span.level, span.count);
    }
    if (until < span.until) {
        span.cycle = until > span.cycle ? until : span.cycle;
        far_push(ev, span);
    }
}

/* Grows the ring towards the span's last cycle, then puts it. */
static void put_reaching(struct nb_events *ev, struct nb_far span)
{
    if (span.cycle >= span.until)
        return;
    reach(ev, span.until - 1);
    put_span(ev, span);
}

/* Moves into the ring the heap's occurrences it now holds. */
static void pull_far(struct nb_events *ev)
{
    while (ev->n_far && ev->far[0].cycle - ev->now < ev->size)
        put_span(ev, far_pop(ev));
}

void nb_event_far(struct nb_events *ev, uint64_t cycle, enum nb_slot slot, unsigned level,
                  unsigned count)
{
    put_reaching(ev, (struct nb_far){cycle, cycle + 1, (uint8_t)slot, (uint8_t)level,
                                     (uint16_t)count});
}

void nb_event_span(struct nb_events *ev, uint64_t from, uint64_t until, enum nb_slot slot,
                   unsigned level)
{
    if (nb_watched(ev, slot))
        put_reaching(ev, (struct nb_far){from, until, (uint8_t)slot, (uint8_t)level, 1});
}

void nb_events_frontend(struct nb_events *ev, unsigned level, uint64_t cycle,
                        enum nb_fe_mode mode)
{
    unsigned t = level >> 1;
    uint8_t state = (uint8_t)(mode | (level & 1) << 2);
    if (state == ev->frontend[t])
        return;
    uint64_t from = ev->frontend_from[t] > ev->now ? ev->frontend_from[t] : ev->now;
    put_reaching(ev, (struct nb_far){from, cycle, FRONTEND_STATE, (uint8_t)t, ev->frontend[t]});
    ev->frontend[t] = state;
    ev->frontend_from[t] = cycle > ev->now ? cycle : ev->now;
}

void nb_events_thread_end(struct nb_events *ev, int thread, uint64_t cycle)
{
    ev->active_until[thread] = cycle;
}

/* Logical processor `t` active at `user` level in the PMU (ACTIVE_THREAD
 * filtering and the ESCRs' T0/T1 OS/USR bits read this state). */
static void set_level(struct nb_pmu *pmu, int t, bool user)
{
    int cpl = user ? 3 : 0;
    if (pmu->thread[t].cpl != cpl || !pmu->thread[t].active)
        nb_pmu_set_thread(pmu, t, true, cpl);
}

/* The cycle's occurrences at `level` counted by slot: each drives its
 * route in the thread's context. */
static void report(struct nb_events *ev, struct nb_bucket *b, unsigned level)
{
    int t = (int)(level >> 1);
    uint16_t *count = ev->counts[(ev->now & (ev->size - 1)) << ev->level_shift | level];
    set_level(ev->pmu, t, level & 1);
    const uint64_t *route = ev->route[ev->pmu->thread_context[t]];
    for (int w = 0; w < 2; w++) {
        for (uint64_t left = b->used[level][w]; left; left &= left - 1) {
            int s = 64 * w + __builtin_ctzll(left);
            nb_buses_add(&b->buses, route[s], count[s]);
            count[s] = 0;
        }
        b->used[level][w] = 0;
    }
}

/* The cycle's own events: RUNNING for each active logical processor, at
 * its front end's level, and TC_deliver_mode (thread independent:
 * reported once, by the first active one). */
/* Whether the PMU already has each logical processor active or not as it is now. */
static bool activity_current(const struct nb_events *ev)
{
    for (int t = 0; t < ev->threads; t++)
        if (ev->pmu->thread[t].active != (ev->now < ev->active_until[t]))
            return false;
    return true;
}

static void report_cycle(struct nb_events *ev, struct nb_bucket *b)
{
    if (!nb_watched(ev, NB_RUNNING) && !nb_watched(ev, NB_TC_MODE) && activity_current(ev))
        return;
    uint8_t state[2] = {NB_MODE_IDLE, NB_MODE_IDLE};
    int first = -1;
    for (int t = 0; t < ev->threads; t++) {
        bool active = ev->now < ev->active_until[t];
        if (!active) {
            if (ev->pmu->thread[t].active)
                nb_pmu_set_thread(ev->pmu, t, false, ev->pmu->thread[t].cpl);
            continue;
        }
        state[t] = ev->now >= ev->frontend_from[t] ? ev->frontend[t] : b->frontend[t];
        if (!ev->pmu->thread[t].active)
            set_level(ev->pmu, t, state[t] >> 2);
        if (first < 0)
            first = t;
        if (nb_watched(ev, NB_RUNNING)) {
            set_level(ev->pmu, t, state[t] >> 2);
            nb_buses_add(&b->buses, ev->route[ev->pmu->thread_context[t]][NB_RUNNING], 1);
        }
    }
    int m0 = state[0] & 3, m1 = state[1] & 3;
    if (first >= 0 && ev->tc_mask[m0][m1] && nb_watched(ev, NB_TC_MODE)) {
        set_level(ev->pmu, first, state[first] >> 2);
        nb_buses_add(&b->buses, ev->tc_route[ev->pmu->thread_context[first]][m0][m1], 1);
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

void nb_events_retire(struct nb_events *ev, int thread, uint64_t cycle,
                      const struct nb_retirement *r)
{
    struct nb_retire_queue *q = &ev->retired[thread];
    if ((!q->entries || q->tail - q->head > q->mask) && !queue_grow(q)) {
        ev->failed = true;
        return;
    }
    struct nb_retired *e = &q->entries[q->tail++ & q->mask];
    e->cycle = cycle;
    e->r = *r;
    if (r->regs) {
        memcpy(e->regs, r->regs, sizeof e->regs);
        e->r.regs = e->regs;
    }
}

/* The cycle's retirements, thread by thread (a shared cycle retires one
 * thread's uops: nb_retire_slot). */
static void report_retirements(struct nb_events *ev)
{
    for (int t = 0; t < ev->threads; t++) {
        struct nb_retire_queue *q = &ev->retired[t];
        for (; q->head < q->tail && q->entries[q->head & q->mask].cycle <= ev->now; q->head++) {
            struct nb_retired *e = &q->entries[q->head & q->mask];
            if (e->r.regs)
                e->r.regs = e->regs; /* the ring may have moved */
            if (!nb_pmu_retire(ev->pmu, t, &e->r))
                ev->failed = true; /* out of memory for a PEBS record */
        }
    }
}

/* IEBS: a PMI pending for a thread is taken pmi_skid cycles after the
 * cycle that delivered it; the sample is the thread's last retired EIP. */
static void take_pmis(struct nb_events *ev)
{
    for (int t = 0; t < ev->threads; t++) {
        uint64_t since;
        if (!nb_pmu_pending_pmi(ev->pmu, t, &since))
            continue;
        struct nb_pmi_wait *w = &ev->pmi[t];
        if (!w->seen)
            *w = (struct nb_pmi_wait){true, (ev->pmu->last.pebs_pmi >> t & 1) != 0};
        struct nb_pmi_sample sample;
        if (ev->pmu->cycles < since + ev->pmi_skid || !nb_pmu_take_pmi(ev->pmu, t, &sample))
            continue;
        w->seen = false;
        if (ev->sample)
            ev->sample(ev->context, t, sample.delivered, sample.eip, w->precise);
        if (ev->route_writes != ev->pmu->escr_writes) /* the handler wrote an ESCR */
            make_routes(ev);
    }
}

void nb_events_advance(struct nb_events *ev, uint64_t cycle)
{
    for (; ev->now < cycle; ev->now++) {
        pull_far(ev);
        struct nb_bucket *b = &ev->ring[ev->now & (ev->size - 1)];
        report_cycle(ev, b);
        for (unsigned level = 0; level < ev->levels && (!ev->direct || ev->now < ev->slot_until);
             level++)
            if (b->used[level][0] | b->used[level][1])
                report(ev, b, level);
        report_retirements(ev);
        nb_pmu_tick_buses(ev->pmu, &b->buses);
        if (ev->pmu->pending[0].pending || ev->pmu->pending[1].pending)
            take_pmis(ev);
    }
}
