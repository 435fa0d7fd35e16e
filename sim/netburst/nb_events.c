/* The event reporting table (data) and the per-cycle ring of occurrences. */
#include "sim/netburst/nb_events.h"

#include <stdlib.h>
#include <string.h>

#include "pmu/netburst_events.h"

enum { INITIAL_RING = 1024, MAX_SUBEVENTS = 2 };

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
    /* One logical processor: the other counts as halted (SDM note on
     * TC_deliver_mode), so deliver is DI and build BI. */
    [NB_TC_DI] = {"TC_deliver_mode", {"DI"}},
    [NB_TC_BI] = {"TC_deliver_mode", {"BI"}},
    [NB_MS_XFER] = {"tc_ms_xfer", {"CISC"}},
    [NB_UQ_BUILD] = {"uop_queue_writes", {"FROM_TC_BUILD"}},
    [NB_UQ_DELIVER] = {"uop_queue_writes", {"FROM_TC_DELIVER"}},
    [NB_UQ_ROM] = {"uop_queue_writes", {"FROM_ROM"}},
    [NB_SBFULL] = {"resource_stall", {"SBFULL"}},
};

static bool resolve(struct nb_events *ev)
{
    for (int s = 0; s < NB_NUM_SLOTS; s++) {
        int e = nb_event_find(slots[s].event);
        if (e < 0)
            return false;
        ev->event[s] = (int16_t)e;
        ev->mask[s] = 0;
        for (int i = 0; i < MAX_SUBEVENTS && slots[s].subevents[i]; i++) {
            const struct nb_subevent *sub = nb_subevent_find(&nb_events[e], slots[s].subevents[i]);
            if (!sub)
                return false;
            ev->mask[s] |= (uint16_t)(1u << sub->bit);
        }
    }
    return true;
}

bool nb_events_init(struct nb_events *ev, struct nb_pmu *pmu)
{
    memset(ev, 0, sizeof *ev);
    ev->pmu = pmu;
    ev->size = INITIAL_RING;
    ev->ring = calloc(ev->size, sizeof *ev->ring);
    if (!ev->ring || !resolve(ev)) {
        nb_events_free(ev);
        return false;
    }
    nb_events_watch(ev);
    return true;
}

void nb_events_free(struct nb_events *ev)
{
    free(ev->ring);
    ev->ring = NULL;
}

void nb_events_watch(struct nb_events *ev)
{
    ev->wanted = 0;
    for (int e = 0; e < NB_NUM_ESCRS; e++) {
        int event = ev->pmu->escr_event[e];
        if (event < 0)
            continue;
        for (int s = 0; s < NB_NUM_SLOTS; s++)
            if (ev->event[s] == event)
                ev->wanted |= 1ull << s;
    }
}

/* Doubles the ring, keeping each pending cycle's bucket. */
static bool grow(struct nb_events *ev)
{
    uint64_t size = ev->size * 2;
    struct nb_bucket *ring = calloc(size, sizeof *ring);
    if (!ring)
        return false;
    for (uint64_t c = ev->now; c < ev->now + ev->size; c++)
        ring[c & (size - 1)] = ev->ring[c & (ev->size - 1)];
    free(ev->ring);
    ev->ring = ring;
    ev->size = size;
    return true;
}

static struct nb_bucket *bucket(struct nb_events *ev, uint64_t cycle)
{
    while (cycle - ev->now >= ev->size)
        if (!grow(ev))
            return NULL;
    return &ev->ring[cycle & (ev->size - 1)];
}

bool nb_event_slow(struct nb_events *ev, uint64_t cycle, enum nb_slot slot, bool user,
                   unsigned count)
{
    struct nb_bucket *b = bucket(ev, cycle);
    if (!b)
        return false;
    b->used[user] |= 1ull << slot;
    b->count[user][slot] = (uint16_t)(b->count[user][slot] + count);
    return true;
}

bool nb_events_frontend(struct nb_events *ev, uint64_t cycle, enum nb_fe_mode mode, bool user)
{
    uint8_t state = (uint8_t)(mode | user << 2);
    if (state == ev->frontend)
        return true;
    if (!bucket(ev, cycle))
        return false;
    uint64_t from = ev->frontend_from > ev->now ? ev->frontend_from : ev->now;
    for (uint64_t c = from; c < cycle; c++)
        ev->ring[c & (ev->size - 1)].frontend = ev->frontend;
    ev->frontend = state;
    ev->frontend_from = cycle > ev->now ? cycle : ev->now;
    return true;
}

static void set_level(struct nb_pmu *pmu, bool user)
{
    int cpl = user ? 3 : 0;
    if (pmu->thread[0].cpl != cpl)
        nb_pmu_set_thread(pmu, 0, true, cpl);
}

static void report(struct nb_events *ev, struct nb_bucket *b, bool user)
{
    set_level(ev->pmu, user);
    for (uint64_t left = b->used[user]; left; left &= left - 1) {
        int s = __builtin_ctzll(left);
        nb_pmu_event(ev->pmu, ev->event[s], ev->mask[s], 0, b->count[user][s]);
        b->count[user][s] = 0;
    }
    b->used[user] = 0;
}

/* The cycle's own events: RUNNING and the front end's mode. */
static void report_cycle(struct nb_events *ev, uint8_t frontend)
{
    static const int mode_slot[] = {[NB_MODE_DELIVER] = NB_TC_DI, [NB_MODE_BUILD] = NB_TC_BI,
                                    [NB_MODE_ROM] = -1};
    int slot = mode_slot[frontend & 3];
    bool running = nb_watched(ev, NB_RUNNING);
    bool mode = slot >= 0 && nb_watched(ev, (enum nb_slot)slot);
    if (!running && !mode)
        return;
    set_level(ev->pmu, frontend >> 2);
    if (running)
        nb_pmu_event(ev->pmu, ev->event[NB_RUNNING], ev->mask[NB_RUNNING], 0, 1);
    if (mode)
        nb_pmu_event(ev->pmu, ev->event[slot], ev->mask[slot], 0, 1);
}

void nb_events_advance(struct nb_events *ev, uint64_t cycle)
{
    for (; ev->now < cycle; ev->now++) {
        struct nb_bucket *b = &ev->ring[ev->now & (ev->size - 1)];
        report_cycle(ev, ev->now >= ev->frontend_from ? ev->frontend : b->frontend);
        if (b->used[0])
            report(ev, b, false);
        if (b->used[1])
            report(ev, b, true);
        nb_pmu_tick(ev->pmu);
    }
}
