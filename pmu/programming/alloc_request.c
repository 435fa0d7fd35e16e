/* What each request may use: the ESCRs and counters its encoding allows,
 * reachable through the CCCR routing (nb_escr_routed) and, with
 * Hyper-Threading, on its thread's half of the PMU; and the union-find that
 * joins the registers requests may share (docs/alloc.md).
 */
#include "alloc_internal.h"

static int counting_thread(const struct nb_event_spec *spec, const struct nb_pmu_config *config)
{
    if (!config->ht || spec->t0 == spec->t1)
        return -1;
    return spec->t0 ? 0 : 1;
}

/* The ESCRs of `escrs` on thread `thread`'s side (all of them for -1):
 * with Hyper-Threading, thread 0 uses the first half of each counter block
 * and the ESCRs that feed it, thread 1 the second (Linux's p4 driver,
 * p4_event_bind_map). */
static uint64_t escrs_of_thread(uint64_t escrs, int thread)
{
    if (thread < 0)
        return escrs;
    uint64_t side = 0;
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if ((escrs & (1ull << e)) && escr_side(e) == thread)
            side |= 1ull << e;
    return side;
}

/* The n-th lowest counter of a set (Linux gives an event whose only ESCR is
 * on the other thread's side the first counter for thread 0, the second for
 * thread 1). */
static uint32_t nth_counter(uint32_t counters, int n)
{
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        if ((counters & (1u << c)) && n-- == 0)
            return 1u << c;
    return 0;
}

/* Counters of `counters` whose CCCR reaches `escr` with that ESCR's select. */
static uint32_t routed_counters(int escr, uint32_t counters, int model)
{
    uint32_t routed = 0;
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        if ((counters & (1u << c)) && nb_escr_routed(c, nb_escrs[escr].select, model) == escr)
            routed |= 1u << c;
    return routed;
}

/* The counters a request may use through ESCR `escr`, given the ESCRs of
 * its encoding on its thread's side. */
static uint32_t counters_via(const struct request_info *info, int escr, uint64_t side, int model)
{
    uint32_t via = nb_escrs[escr].counters & info->enc.counters;
    if (info->thread >= 0 && !side)
        via &= nth_counter(nb_escrs[escr].counters, info->thread);
    else if (!(side & (1ull << escr)))
        via = 0;
    return routed_counters(escr, via, model);
}

static void counting_options(struct request_info *info, const struct nb_pmu_config *config)
{
    uint64_t side = escrs_of_thread(info->enc.escrs, info->thread);
    for (int e = 0; e < NB_NUM_ESCRS; e++) {
        if (!(info->enc.escrs & (1ull << e)))
            continue;
        uint32_t via = counters_via(info, e, side, config->model);
        if (!via)
            continue;
        info->escrs |= 1ull << e;
        info->via[e] = via;
        info->counters |= via;
        info->restricted |= via != nb_escrs[e].counters;
    }
}

void alloc_describe_request(const struct nb_event_spec *spec, const struct nb_pmu_config *config,
                            struct request_info *info)
{
    nb_encode(spec, config, &info->enc);
    info->metric = spec->metric;
    info->thread = counting_thread(spec, config);
    if (spec->tag_enable && !spec->metric)
        info->explicit_tags = spec->tag_value;
    counting_options(info, config);
    for (int u = 0; u < info->enc.n_upstreams; u++) {
        uint64_t escrs = info->enc.upstream[u].escrs;
        uint64_t side = escrs_of_thread(escrs, info->thread);
        info->upstream_escrs[u] = side ? side : escrs;
    }
}

/* ---- Registers requests may share: union-find over NUM_RESOURCES */

int alloc_find_root(int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

void alloc_join(int *parent, int a, int b)
{
    parent[alloc_find_root(parent, a)] = alloc_find_root(parent, b);
}

/* Joins every register a request may use, so that requests sharing none
 * can be searched independently. */
void alloc_join_registers(int *parent, const struct request_info *info)
{
    int anchor = lowest_bit(info->escrs);
    uint64_t escrs = info->escrs;
    for (int u = 0; u < info->enc.n_upstreams; u++)
        escrs |= info->upstream_escrs[u];
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if (escrs & (1ull << e))
            alloc_join(parent, e, anchor);
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        if (info->counters & (1u << c))
            alloc_join(parent, NB_NUM_ESCRS + c, anchor);
}
