/* Event strings and what they ask of the PMU.
 *
 *   netburst::EVENT[:SUBEVENT...][:k=0|1][:u=0|1][:e=0|1][:cmpl=0|1][:thr=N]
 *   netburst_p::...   the same, for the models with instr_completed (3, 4, 6)
 *   p5::EVENT[:u][:k]  and  p5::clocks
 *
 * The modifiers mean what they mean in libpfm4; pmubench's extensions
 * (:t0, :t1, :at=, :ovf_pmi=, :force_ovf, :tag=, :pebs, tagging metric names)
 * are described in README.md, "Event strings".
 */
#ifndef PMU_EVENT_SPEC_H
#define PMU_EVENT_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "netburst_metrics.h"
#include "netburst_pmu.h"

struct nb_event_spec {
    int event;                       /* the counting event, an index into nb_events */
    uint16_t mask;                   /* its sub-event bits */
    const struct nb_metric *metric;  /* the tagging metric asked for, or NULL */
    bool os, usr;                    /* privilege levels: CPL 0, CPL 1-3 */
    bool t0, t1;                     /* logical processors */
    bool compare, complement, edge;
    uint8_t threshold;               /* 0-15 */
    uint8_t active_thread;           /* CCCR bits 17:16 */
    uint8_t ovf_pmi;                 /* bit t: PMI to thread t on overflow */
    bool force_ovf;
    bool tag_enable;
    uint8_t tag_value;               /* 0-15 */
    uint8_t exec_tag_bit;            /* execution tagging: the tag bit used (0-3) */
    bool exec_tag_given;             /* ... chosen by ":tag=" rather than the allocator */
    bool pebs;                       /* precise sampling through IQ_COUNTER4 */
};

struct p5_event_spec {
    uint8_t code;    /* event select; ignored for clocks */
    bool clocks;     /* count clocks instead of events */
    bool os, usr;    /* CPL 0-2, CPL 3 */
};

enum pmu_kind { PMU_NETBURST, PMU_P5 };

struct event_spec {
    enum pmu_kind pmu;
    struct nb_event_spec nb;
    struct p5_event_spec p5;
};

/* Parses an event string for a NetBurst of `config` (or the P5).  On error
 * returns false with one line in `error` naming the offending token and the
 * valid choices. */
bool event_spec_parse(const char *text, const struct nb_config *config, struct event_spec *spec,
                      char *error, size_t error_size);

/* ---- NetBurst register values for a spec */

struct nb_encoding {
    uint64_t escrs;          /* bit e: ESCR e can take the counting event */
    uint32_t counters;       /* bit c: counter c can count it */
    uint64_t escr, cccr;     /* the values to write */
    int upstream_event;      /* the tagging upstream event, or -1 */
    uint64_t upstream_escrs; /* the ESCRs it can use */
    uint64_t upstream_escr;  /* its ESCR value */
    bool replay;             /* writes IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT */
    uint64_t pebs_enable, matrix_vert;
};

void nb_encode(const struct nb_event_spec *spec, const struct nb_config *config,
               struct nb_encoding *encoding);

/* ---- P5: the 10-bit CESR half (ES, CC, PC) of a spec; shift it left by 16
 * for CTR1. */
uint32_t p5_encode_half(const struct p5_event_spec *spec);

#endif
