/* The NetBurst at-retirement tagging metrics (SDM Vol. 3B, the front-end,
 * execution and replay tagging tables; the Pentium 4 monitoring study, section 7; Sprunt 2002): what
 * each tags upstream and what counts it.  Data in netburst_metrics.c. */
#ifndef PMU_CATALOG_NETBURST_METRICS_H
#define PMU_CATALOG_NETBURST_METRICS_H

#include <stdint.h>

#include "netburst_events.h"

/* A metric without an upstream event (struct nb_metric). */
enum { NB_NO_UPSTREAM = -1 };

/* The three tagging mechanisms (SDM 18.18.7, at-retirement counting). */
enum nb_metric_kind {
    NB_FRONT_END_TAGGING, /* uop_type tags, front_end_event counts */
    NB_EXECUTION_TAGGING, /* an upstream uop event tags, execution_event counts */
    NB_REPLAY_TAGGING,    /* IA32_PEBS_ENABLE/MSR_PEBS_MATRIX_VERT tag, replay_event counts */
    NB_NUM_TAGGINGS
};

/* The mechanisms that marked a retiring uop (a uop may carry several). */
enum {
    NB_TAG_FRONT_END = 1u << NB_FRONT_END_TAGGING,
    NB_TAG_EXECUTION = 1u << NB_EXECUTION_TAGGING,
    NB_TAG_REPLAY = 1u << NB_REPLAY_TAGGING,
};

/* Each mechanism's at-retirement counting event and the sub-event its
 * metrics count: the one table of which event counts which tags
 * (netburst_metrics.c). */
struct nb_tagging {
    enum nb_event_id counting_event;
    const char *counting_subevent;
};
extern const struct nb_tagging nb_taggings[NB_NUM_TAGGINGS];

/* The conditions replay tagging can tag a uop for (SDM Vol. 3B, the
 * replay-tagging table): a timing model says which a uop met
 * (netburst_feed.h), the replay metrics which they tag. */
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

struct nb_metric {
    const char *name;
    enum nb_metric_kind kind;    /* nb_taggings[kind] counts it */
    int upstream_event;          /* the event that tags (enum nb_event_id), or
                                  * NB_NO_UPSTREAM */
    uint16_t upstream_mask;      /* its sub-event bits */
    int upstream_escr;           /* an ESCR the upstream event must use, or -1 */
    uint32_t pebs_enable;        /* replay: IA32_PEBS_ENABLE metric bits (without 24/25) */
    uint32_t matrix_vert;        /* replay: MSR_PEBS_MATRIX_VERT bits */
    const char *libpfm4_name;    /* replay: libpfm4's replay_event pseudo sub-event for it */
    uint16_t causes;             /* replay: the NB_CAUSE_* conditions it tags (with an
                                  * upstream event, each the occurrence of one of its
                                  * sub-events: nb_cause_subevent) */
};

/* The upstream sub-event bit that stands for a replay cause whose metric
 * has an upstream event (MOB_load_replay's PARTIAL_DATA for
 * NB_CAUSE_MOB_PARTIAL), or 0. */
uint16_t nb_cause_subevent(uint16_t cause);

extern const struct nb_metric nb_metrics[];
extern const int nb_num_metrics;

/* The metric called `name` (case-insensitive), or NULL. */
const struct nb_metric *nb_metric_find(const char *name);

/* The replay metric libpfm4's replay_event pseudo sub-event `name`
 * (L1_LD_MISS ... SP_ST_RET, case-insensitive) selects, or NULL. */
const struct nb_metric *nb_metric_find_libpfm4(const char *name);

/* PEBS samples only through IQ_COUNTER4 (SDM: precise event-based sampling). */
#define NB_PEBS_COUNTER 16

/* IA32_PEBS_ENABLE bit 24 enables replay tagging (UOP_TAG), bit 25 PEBS. */
#define PEBS_ENABLE_UOP_TAG (1u << 24)
#define PEBS_ENABLE_PEBS (1u << 25)

#endif
