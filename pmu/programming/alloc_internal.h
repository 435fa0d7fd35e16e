/* The counter allocator's internals, shared by its files (docs/alloc.md,
 * "The search"); not part of the API, which is pmu/programming/alloc.h.
 *
 *   alloc.c          the API: checks, the planner, errors
 *   alloc_request.c  what each request may use (ESCRs, counters, thread half)
 *   alloc_tagging.c  the tagging rules of one run
 *   alloc_run.c      one run: the register search and the planned run
 *   alloc_bound.c    the lower bound on the runs, ESCR demand
 *   alloc_units.c    units (groups or single events), hardest first
 *   alloc_pack.c     packing the units of one component into k runs
 *   alloc_plan.c     components and the plan
 */
#ifndef PMU_PROGRAMMING_ALLOC_INTERNAL_H
#define PMU_PROGRAMMING_ALLOC_INTERNAL_H

#include "alloc.h"

#include "pmu/catalog/netburst_events.h"

enum {
    P5_COUNTERS = 2,
    NUM_TAG_BITS = 4,
    NUM_RESOURCES = NB_NUM_ESCRS + NB_NUM_COUNTERS, /* union-find over ESCRs, then counters */
};

/* What a request may use, worked out once. */
struct request_info {
    struct nb_encoding enc;       /* execution tagging: with tag bit 0 */
    const struct nb_metric *metric;
    uint64_t escrs;               /* ESCRs the counting event may use */
    uint32_t via[NB_NUM_ESCRS];   /* the counters it may use through each */
    uint32_t counters;            /* all of them */
    uint64_t upstream_escrs[NB_MAX_UPSTREAMS]; /* ESCRs each tagging upstream may use */
    bool restricted;              /* barred from some counter of an ESCR it may use */
    uint8_t explicit_tags;        /* tag bits of a ':tag=' upstream event */
    int thread;                   /* the one thread it counts with HT, or -1 */
};

struct unit {
    int first, n;                 /* its requests: planner.members[first .. first + n) */
    int pressure;                 /* how scarce its busiest ESCRs are (64: just enough) */
};

struct planner {
    const struct alloc_request *requests;
    int n_requests;
    struct nb_pmu_config config;
    enum pmu_kind pmu;
    int capacity;                 /* counters per run */
    struct request_info *info;
    bool metric_values_distinct;  /* no request counts execution_event:NBOGUSn or sets a tag */
    int n_counter_sets;           /* the register map's halves and blocks (alloc_bound.c) */
    uint32_t counter_sets[2 * NB_NUM_ESCRS];
    int n_units;
    struct unit *units;           /* hardest first */
    int *members;
};

struct run_members {
    int n;
    int req[ALLOC_MAX_PER_RUN];
};

struct request_list {
    int n;
    int *req;
};

static inline int popcount64(uint64_t x)
{
    return __builtin_popcountll(x);
}

static inline int lowest_bit(uint64_t x)
{
    return x ? __builtin_ctzll(x) : -1;
}

static inline int ceil_div(int a, int b)
{
    return (a + b - 1) / b;
}

static inline int max_int(int a, int b)
{
    return a > b ? a : b;
}

/* ESCRs come in pairs at adjacent MSRs (netburst_msrs.c): the one at the
 * even address (X_ESCR0; also CRU_ESCR2 and CRU_ESCR4) feeds the first half
 * of its counter block, side 0, and its partner at the next address
 * (X_ESCR1) the second half, side 1.  SSU_ESCR0 has no partner (-1). */
static inline int escr_side(int escr)
{
    return (int)(nb_escrs[escr].msr & 1);
}

static inline int escr_partner(int escr)
{
    int next = escr_side(escr) ? escr - 1 : escr + 1;  /* nb_escrs is in address order */
    bool paired = next >= 0 && next < NB_NUM_ESCRS &&
                  nb_escrs[next].msr == (nb_escrs[escr].msr ^ 1);
    return paired ? next : -1;
}

static inline bool is_execution_metric(const struct request_info *info)
{
    return info->metric && info->metric->kind == NB_EXECUTION_TAGGING;
}

/* alloc_request.c */
void alloc_describe_request(const struct nb_event_spec *spec, const struct nb_pmu_config *config,
                            struct request_info *info);
int alloc_find_root(int *parent, int x);
void alloc_join(int *parent, int a, int b);
void alloc_join_registers(int *parent, const struct request_info *info);

/* alloc_tagging.c */
bool alloc_tagging_fits(const struct planner *p, const int *req, int n, struct nb_encoding *enc);
bool alloc_same_tagging(const struct request_info *a, const struct request_info *b);
bool alloc_may_share_run(const struct request_info *a, const struct request_info *b);

/* alloc_run.c */
bool alloc_run_feasible(const struct planner *p, const int *req, int n, struct alloc_run *out);

/* alloc_bound.c: an ESCR a request occupies, its counting ESCR or an
 * upstream's; ESCR_USES_PER_REQUEST at most. */
enum { ESCR_USES_PER_REQUEST = 1 + NB_MAX_UPSTREAMS };

struct escr_use {
    const struct request_info *info;
    uint64_t escrs;   /* the ESCRs it may be */
    uint64_t value;
    bool varies;      /* execution tagging: the value depends on the tag bit */
};

int alloc_list_escr_uses(const struct planner *p, const struct request_list *list,
                         struct escr_use *uses);
int alloc_escr_demand(const struct planner *p, const struct escr_use *uses, int n, uint64_t set);
int alloc_lower_bound(const struct planner *p, const struct request_list *list);
int alloc_counter_sets(uint32_t *sets);
bool alloc_metric_values_distinct(const struct planner *p);

/* alloc_units.c */
bool alloc_build_units(struct planner *p);
bool alloc_order_units(struct planner *p);

/* alloc_pack.c */
struct partition {
    const struct planner *p;
    const int *units;          /* the component's units, indices into planner.units */
    int n;
    int k, n_used;
    struct run_members *runs;  /* k of them */
    int *unit_run;             /* -1: not placed */
    bool *fits;                /* fits[u * n + j]: unit u fits run j as it stands */
    bool *saved;               /* per depth: a column of fits */
    int *choices;              /* per depth: the runs to try */
    long *steps_left;          /* the search budget of the whole plan */
    bool gave_up;              /* the budget ran out during this search */
};

bool alloc_partition_init(struct partition *s, const struct planner *p, const int *units, int n,
                          long *steps_left);
void alloc_partition_free(struct partition *s);
bool alloc_pack_into(struct partition *s, int k);

/* alloc_plan.c */
bool alloc_plan_units(const struct planner *p, struct alloc_plan *plan);

#endif
