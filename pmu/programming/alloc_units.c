/* Units: the requests of one group (an experiment) go to one run together;
 * other requests are units of their own.  The packing takes the hardest
 * units first: scarcest ESCRs, then largest, then earliest.
 */
#include "alloc_internal.h"

#include <stdlib.h>

static bool same_unit(const struct alloc_request *requests, int r, int q)
{
    return requests[r].group != ALLOC_NO_GROUP && requests[q].group == requests[r].group;
}

/* Units: the requests of each group together, in order of first request. */
bool alloc_build_units(struct planner *p)
{
    int n = p->n_requests;
    p->units = calloc((size_t)n, sizeof *p->units);
    p->members = calloc((size_t)n, sizeof *p->members);
    bool *taken = calloc((size_t)n, sizeof *taken);
    bool ok = p->units && p->members && taken;
    for (int r = 0, m = 0; ok && r < n; r++) {
        if (taken[r])
            continue;
        struct unit *unit = &p->units[p->n_units++];
        unit->first = m;
        for (int q = r; q < n; q++)
            if (q == r || (same_unit(p->requests, r, q) && !taken[q])) {
                taken[q] = true;
                p->members[m++] = q;
            }
        unit->n = m - unit->first;
    }
    free(taken);
    return ok;
}

static int set_pressure(const struct planner *p, const struct escr_use *uses, int n,
                        uint64_t set)
{
    return set ? 64 * alloc_escr_demand(p, uses, n, set) / popcount64(set) : 0;
}

static int unit_pressure(const struct planner *p, const struct escr_use *uses, int n,
                         const struct unit *unit)
{
    int pressure = 0;
    for (int i = 0; i < unit->n; i++) {
        const struct request_info *info = &p->info[p->members[unit->first + i]];
        pressure = max_int(pressure, set_pressure(p, uses, n, info->escrs));
        for (int u = 0; u < info->enc.n_upstreams; u++)
            pressure = max_int(pressure, set_pressure(p, uses, n, info->upstream_escrs[u]));
    }
    return pressure;
}

static bool harder(const struct unit *a, const struct unit *b)
{
    if (a->pressure != b->pressure)
        return a->pressure > b->pressure;
    if (a->n != b->n)
        return a->n > b->n;
    return a->first < b->first;
}

/* Hardest first: scarcest ESCRs, then largest, then earliest. */
bool alloc_order_units(struct planner *p)
{
    struct request_list all = {.n = p->n_requests, .req = p->members};
    struct escr_use *uses = malloc(ESCR_USES_PER_REQUEST * (size_t)p->n_requests * sizeof *uses);
    if (!uses)
        return false;
    int n = alloc_list_escr_uses(p, &all, uses);
    for (int u = 0; u < p->n_units; u++)
        p->units[u].pressure = unit_pressure(p, uses, n, &p->units[u]);
    free(uses);
    for (int i = 1; i < p->n_units; i++)
        for (int j = i; j > 0 && harder(&p->units[j], &p->units[j - 1]); j--) {
            struct unit t = p->units[j];
            p->units[j] = p->units[j - 1];
            p->units[j - 1] = t;
        }
    return true;
}
