/* The counter allocator: gives each event of a set an ESCR and a counter so
 * that they count together, and splits the set into the fewest runs when
 * they cannot.  The rules, the exact search and the Hyper-Threading
 * convention are in docs/alloc.md.
 *
 *   struct alloc_plan plan;
 *   struct alloc_error error;
 *   if (alloc_plan_make(requests, n, &config, &plan, &error)) {
 *       ... plan.runs[r].assignments[i] ...; program_setup() them ...
 *       alloc_plan_free(&plan);
 *   }
 */
#ifndef PMU_PROGRAMMING_ALLOC_H
#define PMU_PROGRAMMING_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/catalog/event_spec.h"

enum {
    ALLOC_MAX_REQUESTS = 256,
    ALLOC_MAX_PER_RUN = NB_NUM_COUNTERS, /* the P5 has two counters */
    ALLOC_NO_GROUP = -1,
    /* Units the search across runs may place before it stops backtracking
     * (docs/alloc.md, "The search"); ample for the sets of 40 events it meets. */
    ALLOC_SEARCH_STEPS = 20000,
};

struct alloc_request {
    struct event_spec spec;  /* as event_spec_parse() left it */
    int group;               /* requests with one group id >= 0 share a run;
                                ALLOC_NO_GROUP: the event may go anywhere */
};

/* One event of a run and the registers that count it. */
struct alloc_assignment {
    int request;          /* index into the requests */
    int counter;          /* NetBurst 0-17; P5 0 (CTR0) or 1 (CTR1) */
    int escr;             /* index into nb_escrs; -1 on the P5 */
    uint64_t escr_value;  /* NetBurst ESCR; P5: this counter's bits of the CESR */
    uint64_t cccr_value;  /* NetBurst CCCR with ENABLE set; 0 on the P5 */
    int n_upstreams;      /* its tagging upstream events (nb_encoding.upstream) */
    int upstream_escr[NB_MAX_UPSTREAMS];         /* the ESCR of each */
    uint64_t upstream_value[NB_MAX_UPSTREAMS];   /* and its value */
};

struct alloc_run {
    enum pmu_kind pmu;
    int n;                /* assignments, ordered by request */
    struct alloc_assignment assignments[ALLOC_MAX_PER_RUN];
    bool replay;          /* the run writes IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT */
    uint64_t pebs_enable, matrix_vert;
};

struct alloc_plan {
    int n_runs;           /* ordered by their first request */
    struct alloc_run *runs;
    bool minimal;         /* proven the fewest runs; false only when the search
                             ran out of ALLOC_SEARCH_STEPS and finished greedily */
};

struct alloc_error {
    int request;          /* the event (first event of the group) at fault, or -1 */
    char message[256];    /* one line, without the event's name */
};

/* Plans `n` requests, all NetBurst (for `config`) or all P5, into the fewest
 * runs.  False with `error` filled when a request or group can never count,
 * the PMUs are mixed, there are more than ALLOC_MAX_REQUESTS or memory runs
 * out. */
bool alloc_plan_make(const struct alloc_request *requests, int n, const struct nb_pmu_config *config,
                     struct alloc_plan *plan, struct alloc_error *error);
void alloc_plan_free(struct alloc_plan *plan);

/* The P5 CESR value of a run: both counters' bits. */
uint64_t alloc_p5_cesr(const struct alloc_run *run);

/* ---- The MSRs of a plan, whatever its PMU, as `pmubench alloc` prints
 * them (docs/alloc.md). */

/* One MSR and the value a run writes to it. */
struct alloc_msr {
    const char *name; /* the manual's: "CESR", "MSR_BPU_ESCR0", "IA32_PEBS_ENABLE"... */
    uint32_t msr;
    uint64_t value;
};

/* What one assignment programs. */
struct alloc_counter_msrs {
    const char *counter_name; /* "CTR0"; "MSR_BPU_COUNTER0" */
    uint32_t counter_msr;
    bool numbered;            /* the counter is told by number too (the NetBurst's 18) */
    struct alloc_msr escr;    /* its event selection: its ESCR, or the P5's CESR with
                               * this counter's bits */
    bool escr_shared;         /* the selection is the run's CESR, which both of the P5's
                               * counters share: told once, in the run's MSRs */
    bool has_cccr;            /* a CCCR (the NetBurst) */
    struct alloc_msr cccr;
    int n_upstreams;          /* the ESCRs of its tagging upstream events */
    struct alloc_msr upstream[NB_MAX_UPSTREAMS];
};

void alloc_counter_msrs(const struct alloc_run *run, const struct alloc_assignment *a,
                        struct alloc_counter_msrs *out);

/* What a run writes besides its assignments' own MSRs, and its PMU. */
struct alloc_run_msrs {
    const char *pmu; /* "p5" or "netburst" */
    bool cpuid_model; /* the plan is for a NetBurst CPUID model and HT setting */
    int n;
    struct alloc_msr msrs[3]; /* the P5's CESR; IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT
                               * for replay tagging */
};

void alloc_run_msrs(const struct alloc_run *run, struct alloc_run_msrs *out);

/* Whether the run's registers sample (a CCCR with OVF_PMI, PEBS) or tag
 * uops (an ESCR with Tag Enable, a metric's upstream events, the
 * replay-tagging MSRs, uop_type's TAGLOADS or TAGSTORES, which front-end
 * tagging reads): what changes a timing model's timing (a PMI, a PEBS
 * assist) or the occurrences it reports (a uop's tags), so that the run
 * cannot share a pass of the trace with others (docs/stat.md, "One
 * pass").  False on the P5, which does neither. */
bool alloc_run_samples_or_tags(const struct alloc_run *run);

/* The run that counts `n` (1 or 2) P5 events, spec i on counter i for
 * request i, as run_p5mon pairs them on CTR0 and CTR1 (Safford 1997,
 * Figure 4.1). */
void alloc_p5_run(const struct p5_event_spec *specs, int n, struct alloc_run *run);

#endif
