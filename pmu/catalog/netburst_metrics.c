/* The tagging metrics (data only).  Sources: the SDM's tagging tables
 * (Vol. 3B appendix: front-end, execution and replay tagging), the replay
 * rows' PEBS_ENABLE/MATRIX_VERT bits cross-checked with Linux's
 * p4_pebs_bind_map; each replay row's libpfm4 name is the replay_event
 * pseudo sub-event of libpfm4's intel_netburst_events.h that selects it;
 * docs/events.md, "Tagging metrics". */
#include "netburst_metrics.h"

#include <stddef.h>
#include <strings.h>

#include "netburst_msrs.h"

/* SDM 18.18.7: front_end_event, execution_event and replay_event count
 * the uops each mechanism tagged (the only events that support PEBS). */
const struct nb_tagging nb_taggings[NB_NUM_TAGGINGS] = {
    [NB_FRONT_END_TAGGING] = {NB_EV_FRONT_END_EVENT, "NBOGUS"},
    [NB_EXECUTION_TAGGING] = {NB_EV_EXECUTION_EVENT, "NBOGUS0"},
    [NB_REPLAY_TAGGING] = {NB_EV_REPLAY_EVENT, "NBOGUS"},
};

#define FRONT_END(name, tag) {name, NB_FRONT_END_TAGGING, NB_EV_UOP_TYPE, tag, -1, 0, 0, NULL, 0}
#define EXECUTION(name, upstream, mask) \
    {name, NB_EXECUTION_TAGGING, upstream, mask, -1, 0, 0, NULL, 0}
#define REPLAY(name, libpfm4, pebs, vert, upstream, mask, escr, causes) \
    {name, NB_REPLAY_TAGGING, upstream, mask, escr, pebs, vert, libpfm4, causes}

#define ALL (1u << 15)
#define BIT(n) (1u << (n))

const struct nb_metric nb_metrics[] = {
    FRONT_END("memory_loads", BIT(1)),  /* uop_type TAGLOADS */
    FRONT_END("memory_stores", BIT(2)), /* uop_type TAGSTORES */

    EXECUTION("packed_SP_retired", NB_EV_PACKED_SP_UOP, ALL),
    EXECUTION("packed_DP_retired", NB_EV_PACKED_DP_UOP, ALL),
    EXECUTION("scalar_SP_retired", NB_EV_SCALAR_SP_UOP, ALL),
    EXECUTION("scalar_DP_retired", NB_EV_SCALAR_DP_UOP, ALL),
    EXECUTION("128_bit_MMX_retired", NB_EV_128BIT_MMX_UOP, ALL),
    EXECUTION("64_bit_MMX_retired", NB_EV_64BIT_MMX_UOP, ALL),
    EXECUTION("x87_FP_retired", NB_EV_X87_FP_UOP, ALL),
    EXECUTION("x87_SIMD_memory_moves_retired", NB_EV_X87_SIMD_MOVES_UOP, BIT(3) | BIT(4)),

    REPLAY("1stL_cache_load_miss_retired", "L1_LD_MISS", BIT(0), BIT(0), NB_NO_UPSTREAM, 0, -1,
           NB_CAUSE_L1_MISS),
    REPLAY("2ndL_cache_load_miss_retired", "L2_LD_MISS", BIT(1), BIT(0), NB_NO_UPSTREAM, 0, -1,
           NB_CAUSE_L2_MISS),
    REPLAY("DTLB_load_miss_retired", "DTLB_LD_MISS", BIT(2), BIT(0), NB_NO_UPSTREAM, 0, -1,
           NB_CAUSE_DTLB_LOAD),
    REPLAY("DTLB_store_miss_retired", "DTLB_ST_MISS", BIT(2), BIT(1), NB_NO_UPSTREAM, 0, -1,
           NB_CAUSE_DTLB_STORE),
    REPLAY("DTLB_all_miss_retired", "DTLB_ALL_MISS", BIT(2), BIT(0) | BIT(1), NB_NO_UPSTREAM, 0,
           -1,
           NB_CAUSE_DTLB_LOAD | NB_CAUSE_DTLB_STORE),
    REPLAY("Tagged_mispred_branch", "BR_MSP", BIT(15) | BIT(16), BIT(4), NB_NO_UPSTREAM, 0, -1,
           NB_CAUSE_MISPREDICTED),
    /* MOB_load_replay with PARTIAL_DATA and UNALGN_ADDR */
    REPLAY("MOB_load_replay_retired", "MOB_LD_REPLAY", BIT(9), BIT(0), NB_EV_MOB_LOAD_REPLAY,
           BIT(4) | BIT(5), -1, NB_CAUSE_MOB_PARTIAL | NB_CAUSE_MOB_UNALIGNED),
    REPLAY("split_load_retired", "SP_LD_RET", BIT(10), BIT(0), NB_EV_LOAD_PORT_REPLAY, BIT(1),
           NB_ESCR_SAAT1, NB_CAUSE_SPLIT_LOAD),
    REPLAY("split_store_retired", "SP_ST_RET", BIT(10), BIT(1), NB_EV_STORE_PORT_REPLAY, BIT(1),
           NB_ESCR_SAAT0, NB_CAUSE_SPLIT_STORE),
};

uint16_t nb_cause_subevent(uint16_t cause)
{
    switch (cause) {
    case NB_CAUSE_MOB_PARTIAL:
        return BIT(4); /* MOB_load_replay PARTIAL_DATA */
    case NB_CAUSE_MOB_UNALIGNED:
        return BIT(5); /* MOB_load_replay UNALGN_ADDR */
    case NB_CAUSE_SPLIT_LOAD:
    case NB_CAUSE_SPLIT_STORE:
        return BIT(1); /* load_port_replay / store_port_replay SPLIT_LD / SPLIT_ST */
    default:
        return 0;
    }
}

/* nb_event_spec.metrics has a bit for each metric. */
_Static_assert(sizeof nb_metrics / sizeof nb_metrics[0] <= 32, "more metrics than spec bits");

const int nb_num_metrics = sizeof nb_metrics / sizeof nb_metrics[0];

const struct nb_metric *nb_metric_find(const char *name)
{
    for (int i = 0; i < nb_num_metrics; i++)
        if (strcasecmp(nb_metrics[i].name, name) == 0)
            return &nb_metrics[i];
    return NULL;
}

const struct nb_metric *nb_metric_find_libpfm4(const char *name)
{
    for (int i = 0; i < nb_num_metrics; i++)
        if (nb_metrics[i].libpfm4_name && strcasecmp(nb_metrics[i].libpfm4_name, name) == 0)
            return &nb_metrics[i];
    return NULL;
}
