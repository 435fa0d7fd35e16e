/* The lower bound on the runs of a list of requests (docs/alloc.md, "The
 * search", 3): the events a counter set can hold per run, the distinct ESCR
 * values an ESCR set can hold per run (the ESCR demand, also the units'
 * pressure, alloc_units.c), and the tagging MSRs.
 */
#include "alloc_internal.h"

static int add_set(uint32_t *sets, int n, uint32_t set)
{
    for (int i = 0; i < n; i++)
        if (sets[i] == set)
            return n;
    sets[n] = set;
    return n + 1;
}

/* The counter sets of the register map, without repeats: for each ESCR its
 * counters (half a block) and its block (its counters and its partner's).
 * Returns how many, at most 2 * NB_NUM_ESCRS.  (All counters together give
 * the bound events / 18.) */
int alloc_counter_sets(uint32_t *sets)
{
    int n = 0;
    for (int e = 0; e < NB_NUM_ESCRS; e++) {
        int partner = escr_partner(e);
        uint32_t half = nb_escrs[e].counters;
        n = add_set(sets, n, half);
        n = add_set(sets, n, half | (partner >= 0 ? nb_escrs[partner].counters : 0));
    }
    return n;
}

static int counter_bound_for(const struct planner *p, const struct request_list *list,
                             uint32_t set)
{
    int confined = 0;
    for (int i = 0; i < list->n; i++)
        confined += (p->info[list->req[i]].counters & ~set) == 0;
    return ceil_div(confined, popcount64(set));
}

static int counter_bound(const struct planner *p, const struct request_list *list)
{
    int bound = 0;
    for (int g = 0; g < p->n_counter_sets; g++)
        bound = max_int(bound, counter_bound_for(p, list, p->counter_sets[g]));
    for (int i = 0; i < list->n; i++)
        bound = max_int(bound, counter_bound_for(p, list, p->info[list->req[i]].counters));
    return bound;
}

static bool use_seen_before(const struct escr_use *uses, int i, uint64_t set)
{
    for (int j = 0; j < i; j++)
        if (!uses[j].varies && !(uses[j].escrs & ~set) && uses[j].value == uses[i].value &&
            alloc_may_share_run(uses[j].info, uses[i].info))
            return true;
    return false;
}

/* ESCR values the uses confined to the ESCR set `set` need: one ESCR of
 * the set per distinct value in every run.  Execution-tagging values differ
 * from each other within a run (distinct tag bits) and from every other
 * value unless a request counts execution_event:NBOGUSn or sets a tag
 * itself. */
int alloc_escr_demand(const struct planner *p, const struct escr_use *uses, int n, uint64_t set)
{
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        if (uses[i].escrs & ~set)
            continue;
        if (uses[i].varies)
            distinct += p->metric_values_distinct;
        else
            distinct += !use_seen_before(uses, i, set);
    }
    return distinct;
}

/* The ESCR uses of the list's requests; `uses` holds ESCR_USES_PER_REQUEST
 * per request. */
int alloc_list_escr_uses(const struct planner *p, const struct request_list *list,
                         struct escr_use *uses)
{
    int n = 0;
    for (int i = 0; i < list->n; i++) {
        const struct request_info *info = &p->info[list->req[i]];
        bool varies = is_execution_metric(info);
        uses[n++] = (struct escr_use){info, info->escrs, info->enc.escr, varies};
        for (int u = 0; u < info->enc.n_upstreams; u++)
            uses[n++] = (struct escr_use){info, info->upstream_escrs[u],
                                          info->enc.upstream[u].escr, varies};
    }
    return n;
}

static int escr_bound(const struct planner *p, const struct request_list *list)
{
    struct escr_use uses[ESCR_USES_PER_REQUEST * ALLOC_MAX_REQUESTS];
    int bound = 0, n = alloc_list_escr_uses(p, list, uses);
    for (int i = 0; i < n; i++)
        bound = max_int(bound, ceil_div(alloc_escr_demand(p, uses, n, uses[i].escrs),
                                        popcount64(uses[i].escrs)));
    return bound;
}

/* Distinct front-end tags and replay configurations: one of each per run;
 * execution-tagging metrics: NUM_TAG_BITS per run. */
static int tagging_bound(const struct planner *p, const struct request_list *list)
{
    int front_ends = 0, replays = 0, executions = 0;
    for (int i = 0; i < list->n; i++) {
        const struct request_info *info = &p->info[list->req[i]];
        if (!info->metric)
            continue;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = alloc_same_tagging(&p->info[list->req[j]], info);
        front_ends += info->metric->kind == NB_FRONT_END_TAGGING && !seen;
        replays += info->metric->kind == NB_REPLAY_TAGGING && !seen;
        executions += info->metric->kind == NB_EXECUTION_TAGGING;
    }
    return max_int(max_int(front_ends, replays), ceil_div(executions, NUM_TAG_BITS));
}

int alloc_lower_bound(const struct planner *p, const struct request_list *list)
{
    int bound = ceil_div(list->n, p->capacity);
    if (p->pmu == PMU_P5)
        return bound;
    bound = max_int(bound, counter_bound(p, list));
    bound = max_int(bound, escr_bound(p, list));
    return max_int(bound, tagging_bound(p, list));
}

/* Whether a request counts execution_event with one NBOGUSn bit, as an
 * execution-tagging metric does. */
static bool counts_one_nbogus(const struct nb_event_spec *spec)
{
    return !spec->metric && spec->event == NB_EV_EXECUTION_EVENT &&
           popcount64(spec->mask) == 1 && spec->mask < (1u << NUM_TAG_BITS);
}

/* Whether execution-tagging ESCR values differ from every other request's:
 * no request counts execution_event:NBOGUSn or sets a tag itself. */
bool alloc_metric_values_distinct(const struct planner *p)
{
    if (p->pmu != PMU_NETBURST)
        return true;
    for (int r = 0; r < p->n_requests; r++)
        if (counts_one_nbogus(&p->requests[r].spec.nb) || p->info[r].explicit_tags)
            return false;
    return true;
}
