/* The counter allocator's API (pmu/programming/alloc.h, docs/alloc.md): checks the
 * requests, describes each once, and plans them.  The work is in the files
 * alloc_internal.h lists: what each request may use, one run (tagging
 * rules and register search), the lower bound, and the packing across runs.
 */
#include "alloc_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/catalog/p5_msrs.h"

__attribute__((format(printf, 3, 4))) static bool fail(struct alloc_error *error, int request,
                                                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error->request = request;
    vsnprintf(error->message, sizeof error->message, fmt, ap);
    va_end(ap);
    return false;
}

static bool check_pmus(const struct alloc_request *requests, int n, struct alloc_error *error)
{
    for (int r = 1; r < n; r++)
        if (requests[r].spec.pmu != requests[0].spec.pmu)
            return fail(error, r, "mixes P5 and NetBurst events; plan each PMU on its own");
    return true;
}

/* Why a unit that fits no run on its own cannot count. */
static bool fail_unit(const struct planner *p, const struct unit *unit, struct alloc_error *error)
{
    int first = p->members[unit->first];
    if (unit->n > p->capacity)
        return fail(error, first, "its group has %d events, but a run has %d counters", unit->n,
                    p->capacity);
    if (unit->n > 1)
        return fail(error, first, "the %d events of its group cannot count together in one run",
                    unit->n);
    if (p->info[first].thread >= 0)
        return fail(error, first, "no counter of thread %d's half can count it (with "
                                  "Hyper-Threading each thread has half the counters; "
                                  "docs/alloc.md)", p->info[first].thread);
    return fail(error, first, "no ESCR and counter of model %d can count it", p->config.model);
}

/* Every unit must fit a run on its own. */
static bool check_units(const struct planner *p, struct alloc_error *error)
{
    for (int u = 0; u < p->n_units; u++) {
        const struct unit *unit = &p->units[u];
        if (!alloc_run_feasible(p, p->members + unit->first, unit->n, NULL))
            return fail_unit(p, unit, error);
    }
    return true;
}

static bool planner_init(struct planner *p, const struct alloc_request *requests, int n,
                         const struct nb_pmu_config *config)
{
    *p = (struct planner){.requests = requests, .n_requests = n, .config = *config,
                          .pmu = requests[0].spec.pmu};
    p->capacity = p->pmu == PMU_P5 ? P5_COUNTERS : NB_NUM_COUNTERS;
    p->info = calloc((size_t)n, sizeof *p->info);
    if (!p->info)
        return false;
    for (int r = 0; r < n && p->pmu == PMU_NETBURST; r++)
        alloc_describe_request(&requests[r].spec.nb, config, &p->info[r]);
    p->metric_values_distinct = alloc_metric_values_distinct(p);
    p->n_counter_sets = alloc_counter_sets(p->counter_sets);
    return alloc_build_units(p);
}

static void planner_free(struct planner *p)
{
    free(p->info);
    free(p->units);
    free(p->members);
}

bool alloc_plan_make(const struct alloc_request *requests, int n, const struct nb_pmu_config *config,
                     struct alloc_plan *plan, struct alloc_error *error)
{
    *plan = (struct alloc_plan){0};
    *error = (struct alloc_error){.request = -1};
    if (n == 0)
        return true;
    if (n > ALLOC_MAX_REQUESTS)
        return fail(error, -1, "%d events: at most %d can be planned at once", n,
                    ALLOC_MAX_REQUESTS);
    if (!check_pmus(requests, n, error))
        return false;
    struct planner p;
    bool ok = planner_init(&p, requests, n, config) || fail(error, -1, "out of memory");
    ok = ok && check_units(&p, error) &&
         ((alloc_order_units(&p) && alloc_plan_units(&p, plan)) ||
          fail(error, -1, "out of memory"));
    planner_free(&p);
    return ok;
}

void alloc_plan_free(struct alloc_plan *plan)
{
    free(plan->runs);
    *plan = (struct alloc_plan){0};
}

uint64_t alloc_p5_cesr(const struct alloc_run *run)
{
    uint64_t cesr = 0;
    for (int i = 0; i < run->n; i++)
        cesr |= run->assignments[i].escr_value;
    return cesr;
}

void alloc_p5_run(const struct p5_event_spec *specs, int n, struct alloc_run *run)
{
    memset(run, 0, sizeof *run);
    run->pmu = PMU_P5;
    run->n = n;
    for (int i = 0; i < n; i++)
        run->assignments[i] = (struct alloc_assignment){
            .request = i, .counter = i, .escr = -1,
            .escr_value = p5_cesr_place(p5_encode_half(&specs[i]), i)};
}
