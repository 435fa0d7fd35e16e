/* The NetBurst event catalog (data only).
 *
 * Rows: the SDM Vol. 3B NetBurst event tables (non-retirement and
 * at-retirement events; Table A-15 for TS/TI), cross-checked against
 * libpfm4 (intel_netburst_events.h) and Linux (perf_event_p4.h, p4.c).
 * docs/events.md lists every disagreement between them and the choice made.
 */
#include "netburst_events.h"

#include <stddef.h>
#include <stdio.h>
#include <strings.h>

#include "netburst_msrs.h"

#define E(id) (1ull << NB_ESCR_##id)
#define PRESCOTT_MODELS 0x58     /* 3, 4, 6 */
#define TS false
#define TI true
#define SUBEVENTS(list) .n_subevents = sizeof(list) / sizeof(list[0]), .subevents = list

static const struct nb_subevent tc_deliver_mode_subevents[] = {
    {"DD", 0, TI},
    {"DB", 1, TI},
    {"DI", 2, TI},
    {"BD", 3, TI},
    {"BB", 4, TI},
    {"BI", 5, TI},
    {"ID", 6, TI},
    {"IB", 7, TI},
};
static const struct nb_subevent bpu_fetch_request_subevents[] = {
    {"TCMISS", 0, TS},
};
static const struct nb_subevent itlb_reference_subevents[] = {
    {"HIT", 0, TS},
    {"MISS", 1, TS},
    {"HIT_UC", 2, TS},
};
static const struct nb_subevent memory_cancel_subevents[] = {
    {"ST_RB_FULL", 2, TS},
    {"64K_CONF", 3, TS},
};
static const struct nb_subevent memory_complete_subevents[] = {
    {"LSC", 0, TS},
    {"SSC", 1, TS},
};
static const struct nb_subevent load_port_replay_subevents[] = {
    {"SPLIT_LD", 1, TS},
};
static const struct nb_subevent store_port_replay_subevents[] = {
    {"SPLIT_ST", 1, TS},
};
static const struct nb_subevent mob_load_replay_subevents[] = {
    {"NO_STA", 1, TS},
    {"NO_STD", 3, TS},
    {"PARTIAL_DATA", 4, TS},
    {"UNALGN_ADDR", 5, TS},
};
static const struct nb_subevent page_walk_type_subevents[] = {
    {"DTMISS", 0, TI},
    {"ITMISS", 1, TI},
};
static const struct nb_subevent bsq_cache_reference_subevents[] = {
    {"RD_2ndL_HITS", 0, TS},
    {"RD_2ndL_HITE", 1, TS},
    {"RD_2ndL_HITM", 2, TS},
    {"RD_3rdL_HITS", 3, TS},
    {"RD_3rdL_HITE", 4, TS},
    {"RD_3rdL_HITM", 5, TS},
    {"RD_2ndL_MISS", 8, TS},
    {"RD_3rdL_MISS", 9, TS},
    {"WR_2ndL_MISS", 10, TS},
};
static const struct nb_subevent ioq_allocation_subevents[] = {
    {"ReqA0", 0, TS},
    {"ReqA1", 1, TS},
    {"ReqA2", 2, TS},
    {"ReqA3", 3, TS},
    {"ReqA4", 4, TS},
    {"ALL_READ", 5, TS},
    {"ALL_WRITE", 6, TS},
    {"MEM_UC", 7, TS},
    {"MEM_WC", 8, TS},
    {"MEM_WT", 9, TS},
    {"MEM_WP", 10, TS},
    {"MEM_WB", 11, TS},
    {"OWN", 13, TS},
    {"OTHER", 14, TS},
    {"PREFETCH", 15, TS},
};
static const struct nb_subevent ioq_active_entries_subevents[] = {
    {"ReqA0", 0, TS},
    {"ReqA1", 1, TS},
    {"ReqA2", 2, TS},
    {"ReqA3", 3, TS},
    {"ReqA4", 4, TS},
    {"ALL_READ", 5, TS},
    {"ALL_WRITE", 6, TS},
    {"MEM_UC", 7, TS},
    {"MEM_WC", 8, TS},
    {"MEM_WT", 9, TS},
    {"MEM_WP", 10, TS},
    {"MEM_WB", 11, TS},
    {"OWN", 13, TS},
    {"OTHER", 14, TS},
    {"PREFETCH", 15, TS},
};
static const struct nb_subevent fsb_data_activity_subevents[] = {
    {"DRDY_DRV", 0, TI},
    {"DRDY_OWN", 1, TI},
    {"DRDY_OTHER", 2, TI},
    {"DBSY_DRV", 3, TI},
    {"DBSY_OWN", 4, TI},
    {"DBSY_OTHER", 5, TI},
};
static const struct nb_subevent bsq_allocation_subevents[] = {
    {"REQ_TYPE0", 0, TS},
    {"REQ_TYPE1", 1, TS},
    {"REQ_LEN0", 2, TS},
    {"REQ_LEN1", 3, TS},
    {"REQ_IO_TYPE", 5, TS},
    {"REQ_LOCK_TYPE", 6, TS},
    {"REQ_CACHE_TYPE", 7, TS},
    {"REQ_SPLIT_TYPE", 8, TS},
    {"REQ_DEM_TYPE", 9, TS},
    {"REQ_ORD_TYPE", 10, TS},
    {"MEM_TYPE0", 11, TS},
    {"MEM_TYPE1", 12, TS},
    {"MEM_TYPE2", 13, TS},
};
static const struct nb_subevent bsq_active_entries_subevents[] = {
    {"REQ_TYPE0", 0, TS},
    {"REQ_TYPE1", 1, TS},
    {"REQ_LEN0", 2, TS},
    {"REQ_LEN1", 3, TS},
    {"REQ_IO_TYPE", 5, TS},
    {"REQ_LOCK_TYPE", 6, TS},
    {"REQ_CACHE_TYPE", 7, TS},
    {"REQ_SPLIT_TYPE", 8, TS},
    {"REQ_DEM_TYPE", 9, TS},
    {"REQ_ORD_TYPE", 10, TS},
    {"MEM_TYPE0", 11, TS},
    {"MEM_TYPE1", 12, TS},
    {"MEM_TYPE2", 13, TS},
};
static const struct nb_subevent sse_input_assist_subevents[] = {
    {"ALL", 15, TI},
};
static const struct nb_subevent packed_sp_uop_subevents[] = {
    {"ALL", 15, TI},
};
static const struct nb_subevent packed_dp_uop_subevents[] = {
    {"ALL", 15, TI},
};
static const struct nb_subevent scalar_sp_uop_subevents[] = {
    {"ALL", 15, TI},
};
static const struct nb_subevent scalar_dp_uop_subevents[] = {
    {"ALL", 15, TI},
};
static const struct nb_subevent mmx64_mmx_uop_subevents[] = {
    {"ALL", 15, TI},
};
static const struct nb_subevent mmx128_mmx_uop_subevents[] = {
    {"ALL", 15, TI},
};
static const struct nb_subevent x87_fp_uop_subevents[] = {
    {"ALL", 15, TI},
};
static const struct nb_subevent x87_simd_moves_uop_subevents[] = {
    {"ALLP0", 3, TI},
    {"ALLP2", 4, TI},
};
static const struct nb_subevent tc_misc_subevents[] = {
    {"FLUSH", 4, TS},
};
static const struct nb_subevent global_power_events_subevents[] = {
    {"RUNNING", 0, TS},
};
static const struct nb_subevent tc_ms_xfer_subevents[] = {
    {"CISC", 0, TS},
};
static const struct nb_subevent uop_queue_writes_subevents[] = {
    {"FROM_TC_BUILD", 0, TS},
    {"FROM_TC_DELIVER", 1, TS},
    {"FROM_ROM", 2, TS},
};
static const struct nb_subevent retired_mispred_branch_type_subevents[] = {
    {"CONDITIONAL", 1, TS},
    {"CALL", 2, TS},
    {"RETURN", 3, TS},
    {"INDIRECT", 4, TS},
};
static const struct nb_subevent retired_branch_type_subevents[] = {
    {"CONDITIONAL", 1, TS},
    {"CALL", 2, TS},
    {"RETURN", 3, TS},
    {"INDIRECT", 4, TS},
};
static const struct nb_subevent resource_stall_subevents[] = {
    {"SBFULL", 5, TS},
};
static const struct nb_subevent wc_buffer_subevents[] = {
    {"WCB_EVICTS", 0, TI},
    {"WCB_FULL_EVICT", 1, TI},
};
static const struct nb_subevent b2b_cycles_subevents[] = {
    {"BIT1", 1, TS},
    {"BIT2", 2, TS},
    {"BIT3", 3, TS},
    {"BIT4", 4, TS},
    {"BIT5", 5, TS},
    {"BIT6", 6, TS},
};
static const struct nb_subevent bnr_subevents[] = {
    {"BIT0", 0, TS},
    {"BIT1", 1, TS},
    {"BIT2", 2, TS},
};
static const struct nb_subevent snoop_subevents[] = {
    {"BIT2", 2, TS},
    {"BIT6", 6, TS},
    {"BIT7", 7, TS},
};
static const struct nb_subevent response_subevents[] = {
    {"BIT1", 1, TS},
    {"BIT2", 2, TS},
    {"BIT8", 8, TS},
    {"BIT9", 9, TS},
};
static const struct nb_subevent front_end_event_subevents[] = {
    {"NBOGUS", 0, TS},
    {"BOGUS", 1, TS},
};
static const struct nb_subevent execution_event_subevents[] = {
    {"NBOGUS0", 0, TS},
    {"NBOGUS1", 1, TS},
    {"NBOGUS2", 2, TS},
    {"NBOGUS3", 3, TS},
    {"BOGUS0", 4, TS},
    {"BOGUS1", 5, TS},
    {"BOGUS2", 6, TS},
    {"BOGUS3", 7, TS},
};
static const struct nb_subevent replay_event_subevents[] = {
    {"NBOGUS", 0, TS},
    {"BOGUS", 1, TS},
};
static const struct nb_subevent instr_retired_subevents[] = {
    {"NBOGUSNTAG", 0, TS},
    {"NBOGUSTAG", 1, TS},
    {"BOGUSNTAG", 2, TS},
    {"BOGUSTAG", 3, TS},
};
static const struct nb_subevent uops_retired_subevents[] = {
    {"NBOGUS", 0, TS},
    {"BOGUS", 1, TS},
};
static const struct nb_subevent uop_type_subevents[] = {
    {"TAGLOADS", 1, TS},
    {"TAGSTORES", 2, TS},
};
static const struct nb_subevent branch_retired_subevents[] = {
    {"MMNP", 0, TS},
    {"MMNM", 1, TS},
    {"MMTP", 2, TS},
    {"MMTM", 3, TS},
};
static const struct nb_subevent mispred_branch_retired_subevents[] = {
    {"NBOGUS", 0, TS},
};
static const struct nb_subevent x87_assist_subevents[] = {
    {"FPSU", 0, TS},
    {"FPSO", 1, TS},
    {"POAO", 2, TS},
    {"POAU", 3, TS},
    {"PREA", 4, TS},
};
static const struct nb_subevent machine_clear_subevents[] = {
    {"CLEAR", 0, TS},
    {"MOCLEAR", 2, TS},
    {"SMCLEAR", 6, TS},
};
static const struct nb_subevent instr_completed_subevents[] = {
    {"NBOGUS", 0, TS},
    {"BOGUS", 1, TS},
};

const struct nb_event_info nb_event_table[NB_NUM_EVENTS] = {
    [NB_EV_TC_DELIVER_MODE] = {"TC_deliver_mode", 0x01, E(TC0) | E(TC1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(tc_deliver_mode_subevents)},
    [NB_EV_BPU_FETCH_REQUEST] = {"BPU_fetch_request", 0x03, E(BPU0) | E(BPU1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(bpu_fetch_request_subevents)},
    [NB_EV_ITLB_REFERENCE] = {"ITLB_reference", 0x18, E(ITLB0) | E(ITLB1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(itlb_reference_subevents)},
    [NB_EV_MEMORY_CANCEL] = {"memory_cancel", 0x02, E(DAC0) | E(DAC1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(memory_cancel_subevents)},
    [NB_EV_MEMORY_COMPLETE] = {"memory_complete", 0x08, E(SAAT0) | E(SAAT1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(memory_complete_subevents)},
    [NB_EV_LOAD_PORT_REPLAY] = {"load_port_replay", 0x04, E(SAAT0) | E(SAAT1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(load_port_replay_subevents)},
    [NB_EV_STORE_PORT_REPLAY] = {"store_port_replay", 0x05, E(SAAT0) | E(SAAT1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(store_port_replay_subevents)},
    [NB_EV_MOB_LOAD_REPLAY] = {"MOB_load_replay", 0x03, E(MOB0) | E(MOB1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(mob_load_replay_subevents)},
    [NB_EV_PAGE_WALK_TYPE] = {"page_walk_type", 0x01, E(PMH0) | E(PMH1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(page_walk_type_subevents)},
    [NB_EV_BSQ_CACHE_REFERENCE] = {"BSQ_cache_reference", 0x0c, E(BSU0) | E(BSU1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(bsq_cache_reference_subevents)},
    [NB_EV_IOQ_ALLOCATION] = {"IOQ_allocation", 0x03, E(FSB0) | E(FSB1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(ioq_allocation_subevents)},
    [NB_EV_IOQ_ACTIVE_ENTRIES] = {"IOQ_active_entries", 0x1a, E(FSB1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(ioq_active_entries_subevents)},
    [NB_EV_FSB_DATA_ACTIVITY] = {"FSB_data_activity", 0x17, E(FSB0) | E(FSB1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(fsb_data_activity_subevents)},
    [NB_EV_BSQ_ALLOCATION] = {"BSQ_allocation", 0x05, E(BSU0), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(bsq_allocation_subevents)},
    [NB_EV_BSQ_ACTIVE_ENTRIES] = {"BSQ_active_entries", 0x06, E(BSU1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(bsq_active_entries_subevents)},
    [NB_EV_SSE_INPUT_ASSIST] = {"SSE_input_assist", 0x34, E(FIRM0) | E(FIRM1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(sse_input_assist_subevents)},
    [NB_EV_PACKED_SP_UOP] = {"packed_SP_uop", 0x08, E(FIRM0) | E(FIRM1), NB_ALL_CPUID_MODELS, NB_EVENT_EXEC_TAG_UPSTREAM,
     SUBEVENTS(packed_sp_uop_subevents)},
    [NB_EV_PACKED_DP_UOP] = {"packed_DP_uop", 0x0c, E(FIRM0) | E(FIRM1), NB_ALL_CPUID_MODELS, NB_EVENT_EXEC_TAG_UPSTREAM,
     SUBEVENTS(packed_dp_uop_subevents)},
    [NB_EV_SCALAR_SP_UOP] = {"scalar_SP_uop", 0x0a, E(FIRM0) | E(FIRM1), NB_ALL_CPUID_MODELS, NB_EVENT_EXEC_TAG_UPSTREAM,
     SUBEVENTS(scalar_sp_uop_subevents)},
    [NB_EV_SCALAR_DP_UOP] = {"scalar_DP_uop", 0x0e, E(FIRM0) | E(FIRM1), NB_ALL_CPUID_MODELS, NB_EVENT_EXEC_TAG_UPSTREAM,
     SUBEVENTS(scalar_dp_uop_subevents)},
    [NB_EV_64BIT_MMX_UOP] = {"64bit_MMX_uop", 0x02, E(FIRM0) | E(FIRM1), NB_ALL_CPUID_MODELS, NB_EVENT_EXEC_TAG_UPSTREAM,
     SUBEVENTS(mmx64_mmx_uop_subevents)},
    [NB_EV_128BIT_MMX_UOP] = {"128bit_MMX_uop", 0x1a, E(FIRM0) | E(FIRM1), NB_ALL_CPUID_MODELS, NB_EVENT_EXEC_TAG_UPSTREAM,
     SUBEVENTS(mmx128_mmx_uop_subevents)},
    [NB_EV_X87_FP_UOP] = {"x87_FP_uop", 0x04, E(FIRM0) | E(FIRM1), NB_ALL_CPUID_MODELS, NB_EVENT_EXEC_TAG_UPSTREAM,
     SUBEVENTS(x87_fp_uop_subevents)},
    [NB_EV_X87_SIMD_MOVES_UOP] = {"x87_SIMD_moves_uop", 0x2e, E(FIRM0) | E(FIRM1), NB_ALL_CPUID_MODELS, NB_EVENT_EXEC_TAG_UPSTREAM,
     SUBEVENTS(x87_simd_moves_uop_subevents)},
    [NB_EV_TC_MISC] = {"TC_misc", 0x06, E(TC0) | E(TC1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(tc_misc_subevents)},
    [NB_EV_GLOBAL_POWER_EVENTS] = {"global_power_events", 0x13, E(FSB0) | E(FSB1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(global_power_events_subevents)},
    [NB_EV_TC_MS_XFER] = {"tc_ms_xfer", 0x05, E(MS0) | E(MS1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(tc_ms_xfer_subevents)},
    [NB_EV_UOP_QUEUE_WRITES] = {"uop_queue_writes", 0x09, E(MS0) | E(MS1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(uop_queue_writes_subevents)},
    [NB_EV_RETIRED_MISPRED_BRANCH_TYPE] = {"retired_mispred_branch_type", 0x05, E(TBPU0) | E(TBPU1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(retired_mispred_branch_type_subevents)},
    [NB_EV_RETIRED_BRANCH_TYPE] = {"retired_branch_type", 0x04, E(TBPU0) | E(TBPU1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(retired_branch_type_subevents)},
    [NB_EV_RESOURCE_STALL] = {"resource_stall", 0x01, E(ALF0) | E(ALF1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(resource_stall_subevents)},
    [NB_EV_WC_BUFFER] = {"WC_Buffer", 0x05, E(DAC0) | E(DAC1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(wc_buffer_subevents)},
    [NB_EV_B2B_CYCLES] = {"b2b_cycles", 0x16, E(FSB0) | E(FSB1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(b2b_cycles_subevents)},
    [NB_EV_BNR] = {"bnr", 0x08, E(FSB0) | E(FSB1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(bnr_subevents)},
    [NB_EV_SNOOP] = {"snoop", 0x06, E(FSB0) | E(FSB1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(snoop_subevents)},
    [NB_EV_RESPONSE] = {"response", 0x04, E(FSB0) | E(FSB1), NB_ALL_CPUID_MODELS, 0,
     SUBEVENTS(response_subevents)},
    [NB_EV_FRONT_END_EVENT] = {"front_end_event", 0x08, E(CRU2) | E(CRU3), NB_ALL_CPUID_MODELS, NB_EVENT_AT_RETIREMENT | NB_EVENT_PEBS,
     SUBEVENTS(front_end_event_subevents)},
    [NB_EV_EXECUTION_EVENT] = {"execution_event", 0x0c, E(CRU2) | E(CRU3), NB_ALL_CPUID_MODELS, NB_EVENT_AT_RETIREMENT | NB_EVENT_PEBS,
     SUBEVENTS(execution_event_subevents)},
    [NB_EV_REPLAY_EVENT] = {"replay_event", 0x09, E(CRU2) | E(CRU3), NB_ALL_CPUID_MODELS, NB_EVENT_AT_RETIREMENT | NB_EVENT_PEBS,
     SUBEVENTS(replay_event_subevents)},
    [NB_EV_INSTR_RETIRED] = {"instr_retired", 0x02, E(CRU0) | E(CRU1), NB_ALL_CPUID_MODELS, NB_EVENT_AT_RETIREMENT,
     SUBEVENTS(instr_retired_subevents)},
    [NB_EV_UOPS_RETIRED] = {"uops_retired", 0x01, E(CRU0) | E(CRU1), NB_ALL_CPUID_MODELS, NB_EVENT_AT_RETIREMENT,
     SUBEVENTS(uops_retired_subevents)},
    [NB_EV_UOP_TYPE] = {"uop_type", 0x02, E(RAT0) | E(RAT1), NB_ALL_CPUID_MODELS,
     NB_EVENT_AT_RETIREMENT | NB_EVENT_FRONT_END_TAG_UPSTREAM,
     SUBEVENTS(uop_type_subevents)},
    [NB_EV_BRANCH_RETIRED] = {"branch_retired", 0x06, E(CRU2) | E(CRU3), NB_ALL_CPUID_MODELS, NB_EVENT_AT_RETIREMENT,
     SUBEVENTS(branch_retired_subevents)},
    [NB_EV_MISPRED_BRANCH_RETIRED] = {"mispred_branch_retired", 0x03, E(CRU0) | E(CRU1), NB_ALL_CPUID_MODELS, NB_EVENT_AT_RETIREMENT,
     SUBEVENTS(mispred_branch_retired_subevents)},
    [NB_EV_X87_ASSIST] = {"x87_assist", 0x03, E(CRU2) | E(CRU3), NB_ALL_CPUID_MODELS, NB_EVENT_AT_RETIREMENT,
     SUBEVENTS(x87_assist_subevents)},
    [NB_EV_MACHINE_CLEAR] = {"machine_clear", 0x02, E(CRU2) | E(CRU3), NB_ALL_CPUID_MODELS, NB_EVENT_AT_RETIREMENT,
     SUBEVENTS(machine_clear_subevents)},
    [NB_EV_INSTR_COMPLETED] = {"instr_completed", 0x07, E(CRU0) | E(CRU1), PRESCOTT_MODELS, NB_EVENT_AT_RETIREMENT,
     SUBEVENTS(instr_completed_subevents)},
};

int nb_event_find(const char *name)
{
    for (int i = 0; i < NB_NUM_EVENTS; i++)
        if (strcasecmp(nb_event_table[i].name, name) == 0)
            return i;
    return -1;
}

const struct nb_subevent *nb_subevent_find(const struct nb_event_info *event, const char *name)
{
    for (int i = 0; i < event->n_subevents; i++)
        if (strcasecmp(event->subevents[i].name, name) == 0)
            return &event->subevents[i];
    return NULL;
}

void nb_events_suggest(struct suggestion *near)
{
    for (int i = 0; i < NB_NUM_EVENTS; i++)
        suggestion_consider(near, nb_event_table[i].name);
}

void nb_subevents_suggest(const struct nb_event_info *event, struct suggestion *near)
{
    for (int i = 0; i < event->n_subevents; i++)
        suggestion_consider(near, event->subevents[i].name);
}

int nb_event_on_escr(int escr, unsigned select)
{
    for (int i = 0; i < NB_NUM_EVENTS; i++)
        if (nb_event_table[i].select == select && (nb_event_table[i].escrs & (1ull << escr)))
            return i;
    return -1;
}

void nb_subevent_names(const struct nb_event_info *event, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < event->n_subevents && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
                                 event->subevents[i].name);
}

uint16_t nb_event_ti_mask(const struct nb_event_info *event)
{
    uint16_t mask = 0;
    for (int i = 0; i < event->n_subevents; i++)
        if (event->subevents[i].thread_independent)
            mask |= (uint16_t)(1u << event->subevents[i].bit);
    return mask;
}
