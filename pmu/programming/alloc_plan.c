/* The plan: units that share no register and no tagging MSR form
 * independent components; each is packed into the fewest runs, k = its
 * lower bound, k + 1, ... (alloc_pack.c), and run j of the plan joins run j
 * of every component (docs/alloc.md, "The search", 2).
 */
#include "alloc_internal.h"

#include <stdlib.h>
#include <string.h>

enum { TAGGING_RESOURCE = NUM_RESOURCES, NUM_UNIT_RESOURCES };

static bool uses_tagging(const struct planner *p, int r)
{
    return p->info[r].metric || p->info[r].explicit_tags || p->requests[r].spec.nb.pebs;
}

/* Joins the registers of unit u's requests, and the tagging MSRs when they
 * tag. */
static void join_unit(const struct planner *p, int *parent, int u)
{
    const int *req = p->members + p->units[u].first;
    for (int i = 0; i < p->units[u].n; i++) {
        int anchor = lowest_bit(p->info[req[i]].escrs);
        alloc_join_registers(parent, &p->info[req[i]]);
        if (uses_tagging(p, req[i]))
            alloc_join(parent, TAGGING_RESOURCE, anchor);
        alloc_join(parent, anchor, lowest_bit(p->info[req[0]].escrs));
    }
}

/* Component id of each unit (one component on the P5). */
static void find_components(const struct planner *p, int *component)
{
    int parent[NUM_UNIT_RESOURCES];
    for (int r = 0; r < NUM_UNIT_RESOURCES; r++)
        parent[r] = r;
    for (int u = 0; u < p->n_units; u++) {
        if (p->pmu == PMU_P5) {
            component[u] = 0;
            continue;
        }
        join_unit(p, parent, u);
        component[u] = lowest_bit(p->info[p->members[p->units[u].first]].escrs);
    }
    for (int u = 0; u < p->n_units; u++)
        component[u] = alloc_find_root(parent, component[u]);
}

static bool first_of_component(const int *component, int u)
{
    for (int v = 0; v < u; v++)
        if (component[v] == component[u])
            return false;
    return true;
}

/* The units of the component of unit `first` (none before it), and their
 * requests. */
static int component_units(const struct planner *p, const int *component, int first, int *units,
                           struct request_list *list)
{
    int n = 0;
    list->n = 0;
    for (int u = first; u < p->n_units; u++) {
        if (component[u] != component[first])
            continue;
        units[n++] = u;
        memcpy(list->req + list->n, p->members + p->units[u].first,
               (size_t)p->units[u].n * sizeof(int));
        list->n += p->units[u].n;
    }
    return n;
}

/* The packing of the components of one plan. */
struct packing {
    struct run_members *runs;
    int n_runs;
    long steps_left;
    bool minimal;              /* every smaller number of runs was refuted */
};

static void join_runs(struct packing *packing, const struct partition *s)
{
    struct run_members *runs = packing->runs;
    for (int j = 0; j < s->n_used; j++) {
        memcpy(runs[j].req + runs[j].n, s->runs[j].req, (size_t)s->runs[j].n * sizeof(int));
        runs[j].n += s->runs[j].n;
    }
    packing->n_runs = max_int(packing->n_runs, s->n_used);
}

/* Packs one component into the fewest runs and adds its run j to runs[j]. */
static bool pack_component(const struct planner *p, const int *units, int n,
                           const struct request_list *list, struct packing *packing)
{
    struct partition s;
    bool ok = alloc_partition_init(&s, p, units, n, &packing->steps_left);
    for (int k = alloc_lower_bound(p, list); ok && !alloc_pack_into(&s, k); k++)
        packing->minimal &= !s.gave_up;
    if (ok)
        join_runs(packing, &s);
    alloc_partition_free(&s);
    return ok;
}

static bool pack_components(const struct planner *p, struct packing *packing)
{
    size_t n = (size_t)p->n_units;
    int *component = malloc(n * sizeof *component), *units = malloc(n * sizeof *units);
    struct request_list list = {.req = malloc((size_t)p->n_requests * sizeof(int))};
    bool ok = component && units && list.req;
    if (ok)
        find_components(p, component);
    for (int u = 0; ok && u < p->n_units; u++)
        if (first_of_component(component, u)) {
            int m = component_units(p, component, u, units, &list);
            ok = pack_component(p, units, m, &list, packing);
        }
    free(component);
    free(units);
    free(list.req);
    return ok;
}

static int compare_runs(const void *a, const void *b)
{
    return ((const struct alloc_run *)a)->assignments[0].request -
           ((const struct alloc_run *)b)->assignments[0].request;
}

static bool write_plan(const struct planner *p, const struct packing *packing,
                       struct alloc_plan *plan)
{
    plan->minimal = packing->minimal;
    plan->runs = calloc((size_t)packing->n_runs, sizeof *plan->runs);
    if (!plan->runs)
        return false;
    plan->n_runs = packing->n_runs;
    for (int j = 0; j < plan->n_runs; j++)
        alloc_run_feasible(p, packing->runs[j].req, packing->runs[j].n, &plan->runs[j]);
    qsort(plan->runs, (size_t)plan->n_runs, sizeof *plan->runs, compare_runs);
    return true;
}

/* Plans the planner's units into `plan`; false only when memory runs out. */
bool alloc_plan_units(const struct planner *p, struct alloc_plan *plan)
{
    struct packing packing = {.runs = calloc((size_t)p->n_units, sizeof *packing.runs),
                              .steps_left = ALLOC_SEARCH_STEPS, .minimal = true};
    bool ok = packing.runs && pack_components(p, &packing) && write_plan(p, &packing, plan);
    free(packing.runs);
    return ok;
}
