/* Event strings and what they ask of the PMU.
 *
 *   netburst::EVENT[:SUBEVENT...][:k=0|1][:u=0|1][:e=0|1][:cmpl=0|1][:thr=N]
 *   netburst_p::...   the same, for the models with instr_completed (3, 4, 6);
 *                     a netburst_p:: string chooses model 3 (event_spec_cpuid_model)
 *   p5::EVENT[:u][:k]  and  p5::clocks
 *
 * The modifiers mean what they mean in libpfm4; pmubench's extensions
 * (:t0, :t1, :at=, :ovf_pmi=, :force_ovf, :tag=, :pebs, tagging metric names)
 * are described in README.md, "Event strings".
 */
#ifndef PMU_CATALOG_EVENT_SPEC_H
#define PMU_CATALOG_EVENT_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "netburst_metrics.h"
#include "netburst_msrs.h"

struct nb_event_spec {
    int event;                       /* the counting event, an index into nb_event_table */
    uint16_t mask;                   /* its sub-event bits */
    const struct nb_metric *metric;  /* the tagging metric asked for, or NULL */
    uint32_t metrics;                /* bit m: nb_metrics[m] tags; `metric` alone, or each
                                        replay metric libpfm4's replay_event pseudo
                                        sub-events (L1_LD_MISS ...) ask for, `metric` the
                                        first */
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

/* ---- The NetBurst model of a command's event strings */

/* nb_pmu_config.model when the user named none: the strings choose it; the
 * model when they name none either (Northwood). */
enum { NB_CPUID_MODEL_UNSET = -1, NB_CPUID_MODEL_DEFAULT = 2 };

/* A command's NetBurst before its options: Hyper-Threading on, the model
 * left to the event strings. */
#define NB_CONFIG_DEFAULT ((struct nb_pmu_config){.model = NB_CPUID_MODEL_UNSET, .ht = true})

/* The model for a command's event strings: `given` unless it is
 * NB_CPUID_MODEL_UNSET; otherwise the one their prefixes name, libpfm4's way:
 * 3 (the first model with instr_completed, libpfm4's netburst_p) when any
 * string is netburst_p::, else 2.  netburst:: names no model (its events
 * are every model's), so it mixes with netburst_p::.  A given model that
 * is not netburst_p's is the parser's error. */
int event_spec_cpuid_model(int given, const char *const *texts, int n);

/* The prefix that names `model`'s PMU: "netburst_p::" on the models with
 * instr_completed (3, 4, 6), "netburst::" on the others. */
const char *nb_cpuid_model_prefix(int model);

/* The PMU an event string's prefix names ("p5::", "netburst::" or
 * "netburst_p::", in any case) and the text after it; false, with *rest
 * the whole text, when it has none. */
bool event_spec_prefix(const char *text, enum pmu_kind *pmu, const char **rest);

/* The event string without its PMU prefix: "p5::data_read:u" and
 * "data_read:u" name the same event, and results key its count by the
 * second form. */
const char *event_spec_key(const char *text);

/* Parses an event string for a NetBurst of `config` (or the P5); the model
 * is a model, not NB_CPUID_MODEL_UNSET (event_spec_cpuid_model chooses it).  On error
 * returns false with one line in `error` naming the offending token and the
 * valid choices. */
bool event_spec_parse(const char *text, const struct nb_pmu_config *config, struct event_spec *spec,
                      char *error, size_t error_size);

/* ---- NetBurst register values for a spec */

/* A tagging upstream event: an ESCR programmed to tag, with no counter. */
struct nb_upstream {
    int event;               /* an index into nb_event_table */
    uint64_t escrs;          /* the ESCRs it can use */
    uint64_t escr;           /* its ESCR value */
};

/* Upstream events of one event string: three when libpfm4's replay_event
 * pseudo sub-events MOB_LD_REPLAY, SP_LD_RET and SP_ST_RET come together. */
enum { NB_MAX_UPSTREAMS = 3 };

struct nb_encoding {
    uint64_t escrs;          /* bit e: ESCR e can take the counting event */
    uint32_t counters;       /* bit c: counter c can count it */
    uint64_t escr, cccr;     /* the values to write */
    int n_upstreams;         /* tagging upstream events */
    struct nb_upstream upstream[NB_MAX_UPSTREAMS];
    bool replay;             /* writes IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT */
    uint64_t pebs_enable, matrix_vert;
};

void nb_encode(const struct nb_event_spec *spec, const struct nb_pmu_config *config,
               struct nb_encoding *encoding);

/* ---- P5: the 10-bit CESR half (ES, CC, PC) of a spec; shift it left by 16
 * for CTR1. */
uint32_t p5_encode_half(const struct p5_event_spec *spec);

/* The CESR values that select `spec`'s event on CTR0 and on CTR1 (each
 * its counter's half of the CESR, the other half 0) when it is a P5
 * event; false for a NetBurst event, whose registers nb_encode gives. */
bool event_spec_cesr(const struct event_spec *spec, uint64_t cesr[2]);

#endif
