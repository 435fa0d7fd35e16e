/* One run: whether a set of requests can count together, and with which
 * registers.  After the tagging rules (alloc_tagging.c), a depth-first
 * search gives each event an ESCR, a counter and, for a tagging metric, an
 * ESCR for each upstream event, one connected group of registers at a time
 * (docs/alloc.md, "The search").
 */
#include "alloc_internal.h"
#include "pmu/catalog/p5_msrs.h"

#include <stdlib.h>
#include <string.h>

struct run_search {
    const struct planner *p;
    int n;
    int req[ALLOC_MAX_PER_RUN];                 /* in search order */
    struct nb_encoding enc[ALLOC_MAX_PER_RUN];  /* with this run's tag bits */
    int escr[ALLOC_MAX_PER_RUN], counter[ALLOC_MAX_PER_RUN];
    int upstream[ALLOC_MAX_PER_RUN][NB_MAX_UPSTREAMS];
    uint32_t counters_used;
    uint64_t value[NB_NUM_ESCRS];
    int users[NB_NUM_ESCRS];
};

static const struct request_info *info_of(const struct run_search *s, int i)
{
    return &s->p->info[s->req[i]];
}

static bool escr_takes(const struct run_search *s, int escr, uint64_t value)
{
    return s->users[escr] == 0 || s->value[escr] == value;
}

static void escr_use(struct run_search *s, int escr, uint64_t value)
{
    s->users[escr]++;
    s->value[escr] = value;
}

static bool place(struct run_search *s, int i, int end);

/* Request i's upstream events from the k-th on, then the next request. */
static bool place_upstream(struct run_search *s, int i, int k, int end)
{
    if (k == s->enc[i].n_upstreams)
        return place(s, i + 1, end);
    uint64_t value = s->enc[i].upstream[k].escr;
    uint64_t escrs = info_of(s, i)->upstream_escrs[k];
    for (int u = 0; u < NB_NUM_ESCRS; u++) {
        if (!(escrs & (1ull << u)) || !escr_takes(s, u, value))
            continue;
        escr_use(s, u, value);
        s->upstream[i][k] = u;
        if (place_upstream(s, i, k + 1, end))
            return true;
        s->users[u]--;
    }
    return false;
}

/* Requests i .. end-1 of one connected group of registers.  Once the
 * restricted requests (sorted first) are placed, the free counters of one
 * ESCR are interchangeable: the ESCRs' counter sets are the halves of the
 * blocks, disjoint, so only the lowest free one is tried. */
static bool place(struct run_search *s, int i, int end)
{
    if (i == end)
        return true;
    const struct request_info *info = info_of(s, i);
    uint64_t value = s->enc[i].escr;
    for (int e = 0; e < NB_NUM_ESCRS; e++) {
        if (!(info->escrs & (1ull << e)) || !escr_takes(s, e, value))
            continue;
        uint32_t candidates = info->via[e] & ~s->counters_used;
        if (!info->restricted)
            candidates &= ~candidates + 1;
        for (int c = 0; c < NB_NUM_COUNTERS; c++) {
            if (!(candidates & (1u << c)))
                continue;
            escr_use(s, e, value);
            s->counters_used |= 1u << c;
            s->escr[i] = e;
            s->counter[i] = c;
            if (place_upstream(s, i, 0, end))
                return true;
            s->counters_used &= ~(1u << c);
            s->users[e]--;
        }
    }
    return false;
}

/* Sort key: connected group, restricted requests first, request. */
static long search_key(const struct run_search *s, const int *root, int i)
{
    return ((long)root[i] * 2 + !info_of(s, i)->restricted) * ALLOC_MAX_REQUESTS + s->req[i];
}

static void swap_with_previous(struct run_search *s, int *root, int j)
{
    int t = s->req[j], tr = root[j];
    struct nb_encoding te = s->enc[j];
    s->req[j] = s->req[j - 1], root[j] = root[j - 1], s->enc[j] = s->enc[j - 1];
    s->req[j - 1] = t, root[j - 1] = tr, s->enc[j - 1] = te;
}

static void order_by_group(struct run_search *s, int *root)
{
    int parent[NUM_RESOURCES];
    for (int r = 0; r < NUM_RESOURCES; r++)
        parent[r] = r;
    for (int i = 0; i < s->n; i++)
        alloc_join_registers(parent, info_of(s, i));
    for (int i = 0; i < s->n; i++)
        root[i] = alloc_find_root(parent, lowest_bit(info_of(s, i)->escrs));
    for (int i = 1; i < s->n; i++)
        for (int j = i; j > 0 && search_key(s, root, j - 1) > search_key(s, root, j); j--)
            swap_with_previous(s, root, j);
}

static bool search_registers(struct run_search *s)
{
    int root[ALLOC_MAX_PER_RUN];
    for (int i = 0; i < s->n; i++)
        if (!info_of(s, i)->escrs)
            return false;
    order_by_group(s, root);
    for (int start = 0, end; start < s->n; start = end) {
        for (end = start + 1; end < s->n && root[end] == root[start]; end++)
            ;
        if (!place(s, start, end))
            return false;
    }
    return true;
}

/* ---- The planned run */

static uint64_t cccr_for_escr(uint64_t cccr, int escr)
{
    return (cccr & ~(7ull << 13)) | (uint64_t)nb_escrs[escr].select << 13;
}

static void fill_netburst_run(const struct run_search *s, struct alloc_run *out)
{
    for (int i = 0; i < s->n; i++) {
        struct alloc_assignment *a = &out->assignments[i];
        const struct nb_encoding *enc = &s->enc[i];
        *a = (struct alloc_assignment){
            .request = s->req[i], .counter = s->counter[i], .escr = s->escr[i],
            .escr_value = enc->escr, .cccr_value = cccr_for_escr(enc->cccr, s->escr[i]),
            .n_upstreams = enc->n_upstreams,
        };
        for (int u = 0; u < enc->n_upstreams; u++) {
            a->upstream_escr[u] = s->upstream[i][u];
            a->upstream_value[u] = enc->upstream[u].escr;
        }
        if (enc->replay) {
            out->replay = true;
            out->pebs_enable = enc->pebs_enable;
            out->matrix_vert = enc->matrix_vert;
        }
    }
}

static void fill_p5_run(const struct planner *p, const int *req, int n, struct alloc_run *out)
{
    for (int i = 0; i < n; i++)
        out->assignments[i] = (struct alloc_assignment){
            .request = req[i], .counter = i, .escr = -1,
            .escr_value = p5_cesr_place(p5_encode_half(&p->requests[req[i]].spec.p5), i),
        };
}

static int compare_ints(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static int compare_assignments(const void *a, const void *b)
{
    return ((const struct alloc_assignment *)a)->request -
           ((const struct alloc_assignment *)b)->request;
}

/* Whether requests req[0..n) can count together; fills `out` (may be NULL)
 * with the assignment, ordered by request. */
bool alloc_run_feasible(const struct planner *p, const int *req, int n, struct alloc_run *out)
{
    if (n > p->capacity)
        return false;
    struct run_search s = {.p = p, .n = n};
    memcpy(s.req, req, (size_t)n * sizeof *req);
    qsort(s.req, (size_t)n, sizeof *s.req, compare_ints);
    if (p->pmu == PMU_P5) {
        if (out) {
            *out = (struct alloc_run){.pmu = PMU_P5, .n = n};
            fill_p5_run(p, s.req, n, out);
        }
        return true;
    }
    if (!alloc_tagging_fits(p, s.req, n, s.enc) || !search_registers(&s))
        return false;
    if (out) {
        *out = (struct alloc_run){.pmu = PMU_NETBURST, .n = n};
        fill_netburst_run(&s, out);
        qsort(out->assignments, (size_t)n, sizeof *out->assignments, compare_assignments);
    }
    return true;
}
