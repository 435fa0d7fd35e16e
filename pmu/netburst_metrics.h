/* The NetBurst at-retirement tagging metrics (SDM Vol. 3B, the front-end,
 * execution and replay tagging tables; the Pentium 4 monitoring study, section 7; Sprunt 2002): what
 * each tags upstream and what counts it.  Data in netburst_metrics.c. */
#ifndef PMU_NETBURST_METRICS_H
#define PMU_NETBURST_METRICS_H

#include <stdint.h>

enum nb_metric_kind {
    NB_FRONT_END_TAGGING, /* uop_type tags, front_end_event counts */
    NB_EXECUTION_TAGGING, /* an upstream uop event tags, execution_event counts */
    NB_REPLAY_TAGGING,    /* IA32_PEBS_ENABLE/MSR_PEBS_MATRIX_VERT tag, replay_event counts */
};

struct nb_metric {
    const char *name;
    enum nb_metric_kind kind;
    const char *counting_event;  /* front_end_event, execution_event or replay_event */
    const char *counting_subevent;
    const char *upstream_event;  /* the event that tags, or NULL */
    uint16_t upstream_mask;      /* its sub-event bits */
    int upstream_escr;           /* an ESCR the upstream event must use, or -1 */
    uint32_t pebs_enable;        /* replay: IA32_PEBS_ENABLE metric bits (without 24/25) */
    uint32_t matrix_vert;        /* replay: MSR_PEBS_MATRIX_VERT bits */
    const char *libpfm4_name;    /* replay: libpfm4's replay_event pseudo sub-event for it */
};

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
