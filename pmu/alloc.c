/* The counter allocator (docs/alloc.md).
 *
 * Two searches, both exact:
 *  - inside a run, each event picks an ESCR, a counter and, for a tagging
 *    metric, an upstream ESCR (depth-first, one connected group of
 *    registers at a time);
 *  - across runs, the units (groups, or single events) are packed into k
 *    runs for k = a lower bound, k + 1, ...: the first k that works is the
 *    fewest.  Branch and bound, the most constrained unit first.
 */
#include "alloc.h"

#include "netburst_events.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    P5_COUNTERS = 2,
    NUM_TAG_BITS = 4,
    NUM_RESOURCES = NB_NUM_ESCRS + NB_NUM_COUNTERS, /* union-find over ESCRs, then counters */
};

/* With Hyper-Threading, an event asked for on one thread uses that thread's
 * half of the counters (Linux's p4 driver, p4_event_bind_map: thread 0 the
 * ESCRs numbered 0 and their counters, thread 1 those numbered 1). */
static const uint32_t thread_half[2] = {
    0x13333, /* counters 0, 1, 4, 5, 8, 9, 12, 13, 16 */
    0x2cccc, /* counters 2, 3, 6, 7, 10, 11, 14, 15, 17 */
};

/* Counter sets for the lower bound: the halves, the four blocks, all. */
static const uint32_t counter_groups[] = {
    0x00003, 0x0000c, 0x00030, 0x000c0, 0x00300, 0x00c00, 0x13000, 0x2c000,
    0x0000f, 0x000f0, 0x00f00, 0x3f000, 0x3ffff,
};

/* What a request may use, worked out once. */
struct request_info {
    struct nb_encoding enc;       /* execution tagging: with tag bit 0 */
    const struct nb_metric *metric;
    uint64_t escrs;               /* ESCRs the counting event may use */
    uint32_t via[NB_NUM_ESCRS];   /* the counters it may use through each */
    uint32_t counters;            /* all of them */
    uint64_t upstream_escrs;      /* ESCRs its tagging upstream may use */
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
    struct nb_config config;
    enum pmu_kind pmu;
    int capacity;                 /* counters per run */
    struct request_info *info;
    bool metric_values_distinct;  /* no request counts execution_event:NBOGUSn or sets a tag */
    int n_units;
    struct unit *units;           /* hardest first */
    int *members;
};

struct run_members {
    int n;
    int req[ALLOC_MAX_PER_RUN];
};

static int popcount64(uint64_t x)
{
    return __builtin_popcountll(x);
}

static int lowest_bit(uint64_t x)
{
    return x ? __builtin_ctzll(x) : -1;
}

static int ceil_div(int a, int b)
{
    return (a + b - 1) / b;
}

static bool is_execution_metric(const struct request_info *info)
{
    return info->metric && info->metric->kind == NB_EXECUTION_TAGGING;
}

/* ---- What each request may use */

static int counting_thread(const struct nb_event_spec *spec, const struct nb_config *config)
{
    if (!config->ht || spec->t0 == spec->t1)
        return -1;
    return spec->t0 ? 0 : 1;
}

/* The ESCRs of `escrs` on thread `thread`'s side (all of them for -1). */
static uint64_t escrs_of_thread(uint64_t escrs, int thread)
{
    if (thread < 0)
        return escrs;
    uint64_t side = 0;
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if ((escrs & (1ull << e)) && (nb_escrs[e].counters & thread_half[thread]))
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

static void counting_options(struct request_info *info, const struct nb_config *config)
{
    uint64_t side = escrs_of_thread(info->enc.escrs, info->thread);
    for (int e = 0; e < NB_NUM_ESCRS; e++) {
        if (!(info->enc.escrs & (1ull << e)))
            continue;
        uint32_t via = nb_escrs[e].counters & info->enc.counters;
        if (info->thread >= 0 && !side)
            via &= nth_counter(nb_escrs[e].counters, info->thread);
        else if (!(side & (1ull << e)))
            via = 0;
        via = routed_counters(e, via, config->model);
        if (!via)
            continue;
        info->escrs |= 1ull << e;
        info->via[e] = via;
        info->counters |= via;
        info->restricted |= via != nb_escrs[e].counters;
    }
}

static void describe_netburst(const struct nb_event_spec *spec, const struct nb_config *config,
                              struct request_info *info)
{
    nb_encode(spec, config, &info->enc);
    info->metric = spec->metric;
    info->thread = counting_thread(spec, config);
    if (spec->tag_enable && !spec->metric)
        info->explicit_tags = spec->tag_value;
    counting_options(info, config);
    if (info->enc.upstream_event >= 0) {
        uint64_t side = escrs_of_thread(info->enc.upstream_escrs, info->thread);
        info->upstream_escrs = side ? side : info->enc.upstream_escrs;
    }
}

/* ---- One run: ESCRs, counters and upstream ESCRs */

struct run_search {
    const struct planner *p;
    int n;
    int req[ALLOC_MAX_PER_RUN];                 /* in search order */
    struct nb_encoding enc[ALLOC_MAX_PER_RUN];  /* with this run's tag bits */
    int escr[ALLOC_MAX_PER_RUN], counter[ALLOC_MAX_PER_RUN], upstream[ALLOC_MAX_PER_RUN];
    uint32_t counters_used;
    uint64_t value[NB_NUM_ESCRS];
    int users[NB_NUM_ESCRS];
};

static const struct request_info *info_of(const struct run_search *s, int i)
{
    return &s->p->info[s->req[i]];
}

/* One front-end tag and one replay configuration (PEBS_ENABLE and
 * MATRIX_VERT are global) per run; with PEBS no other tagging mechanism;
 * execution tags get distinct bits, none a ':tag=' event of the run sets. */
static bool tagging_compatible(struct run_search *s)
{
    const struct nb_encoding *front_end = NULL, *replay = NULL;
    uint8_t explicit_tags = 0;
    unsigned mechanisms = 0;
    bool pebs = false;
    for (int i = 0; i < s->n; i++) {
        const struct request_info *info = info_of(s, i);
        s->enc[i] = info->enc;
        explicit_tags |= info->explicit_tags;
        pebs |= s->p->requests[s->req[i]].spec.nb.pebs;
        if (info->explicit_tags)
            mechanisms |= 1u << NB_EXECUTION_TAGGING;
        if (!info->metric)
            continue;
        mechanisms |= 1u << info->metric->kind;
        if (info->metric->kind == NB_FRONT_END_TAGGING) {
            if (front_end && front_end->upstream_escr != info->enc.upstream_escr)
                return false;
            front_end = &info->enc;
        } else if (info->metric->kind == NB_REPLAY_TAGGING) {
            if (replay && (replay->pebs_enable != info->enc.pebs_enable ||
                           replay->matrix_vert != info->enc.matrix_vert))
                return false;
            replay = &info->enc;
        }
    }
    if (pebs && popcount64(mechanisms) > 1)
        return false;
    /* Tag bits the user chose (":tag=N" on a metric) are kept; the others
     * get the lowest bits still free. */
    unsigned chosen = 0;
    for (int i = 0; i < s->n; i++) {
        const struct nb_event_spec *spec = &s->p->requests[s->req[i]].spec.nb;
        if (!is_execution_metric(info_of(s, i)) || !spec->exec_tag_given)
            continue;
        unsigned bit = 1u << spec->exec_tag_bit;
        if ((chosen | explicit_tags) & bit)
            return false;
        chosen |= bit;
    }
    unsigned free_bits = ~(explicit_tags | chosen) & ((1u << NUM_TAG_BITS) - 1);
    for (int i = 0; i < s->n; i++) {
        if (!is_execution_metric(info_of(s, i)) ||
            s->p->requests[s->req[i]].spec.nb.exec_tag_given)
            continue;
        if (!free_bits)
            return false;
        struct nb_event_spec spec = s->p->requests[s->req[i]].spec.nb;
        spec.exec_tag_bit = (uint8_t)lowest_bit(free_bits);
        free_bits &= free_bits - 1;
        nb_encode(&spec, &s->p->config, &s->enc[i]);
    }
    return true;
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

static bool place_upstream(struct run_search *s, int i, int end)
{
    if (s->enc[i].upstream_event < 0)
        return place(s, i + 1, end);
    uint64_t value = s->enc[i].upstream_escr;
    uint64_t escrs = info_of(s, i)->upstream_escrs;
    for (int u = 0; u < NB_NUM_ESCRS; u++) {
        if (!(escrs & (1ull << u)) || !escr_takes(s, u, value))
            continue;
        escr_use(s, u, value);
        s->upstream[i] = u;
        if (place(s, i + 1, end))
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
            if (place_upstream(s, i, end))
                return true;
            s->counters_used &= ~(1u << c);
            s->users[e]--;
        }
    }
    return false;
}

static int find_root(int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

static void join(int *parent, int a, int b)
{
    parent[find_root(parent, a)] = find_root(parent, b);
}

/* Joins every register a request may use, so that requests sharing none
 * can be searched independently. */
static void join_resources(int *parent, const struct request_info *info)
{
    int anchor = lowest_bit(info->escrs);
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if ((info->escrs | info->upstream_escrs) & (1ull << e))
            join(parent, e, anchor);
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        if (info->counters & (1u << c))
            join(parent, NB_NUM_ESCRS + c, anchor);
}

/* Sort key: connected group, restricted requests first, request. */
static long search_key(const struct run_search *s, const int *root, int i)
{
    return ((long)root[i] * 2 + !info_of(s, i)->restricted) * ALLOC_MAX_REQUESTS + s->req[i];
}

static void order_by_group(struct run_search *s, int *root)
{
    int parent[NUM_RESOURCES];
    for (int r = 0; r < NUM_RESOURCES; r++)
        parent[r] = r;
    for (int i = 0; i < s->n; i++)
        join_resources(parent, info_of(s, i));
    for (int i = 0; i < s->n; i++)
        root[i] = find_root(parent, lowest_bit(info_of(s, i)->escrs));
    for (int i = 1; i < s->n; i++)
        for (int j = i; j > 0 && search_key(s, root, j - 1) > search_key(s, root, j); j--) {
            int t = s->req[j], tr = root[j];
            struct nb_encoding te = s->enc[j];
            s->req[j] = s->req[j - 1], root[j] = root[j - 1], s->enc[j] = s->enc[j - 1];
            s->req[j - 1] = t, root[j - 1] = tr, s->enc[j - 1] = te;
        }
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
            .upstream_escr = enc->upstream_event >= 0 ? s->upstream[i] : -1,
            .escr_value = enc->escr, .cccr_value = cccr_for_escr(enc->cccr, s->escr[i]),
            .upstream_value = enc->upstream_event >= 0 ? enc->upstream_escr : 0,
        };
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
            .request = req[i], .counter = i, .escr = -1, .upstream_escr = -1,
            .escr_value = (uint64_t)p5_encode_half(&p->requests[req[i]].spec.p5) << (16 * i),
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
static bool run_feasible(const struct planner *p, const int *req, int n, struct alloc_run *out)
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
    if (!tagging_compatible(&s) || !search_registers(&s))
        return false;
    if (out) {
        *out = (struct alloc_run){.pmu = PMU_NETBURST, .n = n};
        fill_netburst_run(&s, out);
        qsort(out->assignments, (size_t)n, sizeof *out->assignments, compare_assignments);
    }
    return true;
}

/* ---- Lower bound on the number of runs, for a list of requests */

struct request_list {
    int n;
    int *req;
};

static int counter_bound_for(const struct planner *p, const struct request_list *list,
                             uint32_t group)
{
    int confined = 0;
    for (int i = 0; i < list->n; i++)
        confined += (p->info[list->req[i]].counters & ~group) == 0;
    return ceil_div(confined, popcount64(group));
}

static bool may_share_run(const struct request_info *a, const struct request_info *b);

/* An ESCR a request occupies: its counting ESCR or its upstream's. */
struct escr_use {
    const struct request_info *info;
    uint64_t escrs;   /* the ESCRs it may be */
    uint64_t value;
    bool varies;      /* execution tagging: the value depends on the tag bit */
};

static bool use_seen_before(const struct escr_use *uses, int i, uint64_t set)
{
    for (int j = 0; j < i; j++)
        if (!uses[j].varies && !(uses[j].escrs & ~set) && uses[j].value == uses[i].value &&
            may_share_run(uses[j].info, uses[i].info))
            return true;
    return false;
}

/* ESCR values the uses confined to the ESCR set `set` need: one ESCR of
 * the set per distinct value in every run.  Execution-tagging values differ
 * from each other within a run (distinct tag bits) and from every other
 * value unless a request counts execution_event:NBOGUSn or sets a tag
 * itself. */
static int escr_demand(const struct planner *p, const struct escr_use *uses, int n, uint64_t set)
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

static int list_uses(const struct planner *p, const struct request_list *list,
                     struct escr_use *uses)
{
    int n = 0;
    for (int i = 0; i < list->n; i++) {
        const struct request_info *info = &p->info[list->req[i]];
        bool varies = is_execution_metric(info);
        uses[n++] = (struct escr_use){info, info->escrs, info->enc.escr, varies};
        if (info->enc.upstream_event >= 0)
            uses[n++] = (struct escr_use){info, info->upstream_escrs, info->enc.upstream_escr,
                                          varies};
    }
    return n;
}

static bool same_tagging(const struct request_info *a, const struct request_info *b)
{
    return a->metric && b->metric && a->metric->kind == b->metric->kind &&
           a->enc.upstream_escr == b->enc.upstream_escr &&
           a->enc.pebs_enable == b->enc.pebs_enable && a->enc.matrix_vert == b->enc.matrix_vert;
}

/* Whether two requests may count in one run as far as tagging goes: two
 * different front-end tags or replay configurations may not. */
static bool may_share_run(const struct request_info *a, const struct request_info *b)
{
    return !a->metric || !b->metric || a->metric->kind != b->metric->kind ||
           same_tagging(a, b);
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
            seen = same_tagging(&p->info[list->req[j]], info);
        front_ends += info->metric->kind == NB_FRONT_END_TAGGING && !seen;
        replays += info->metric->kind == NB_REPLAY_TAGGING && !seen;
        executions += info->metric->kind == NB_EXECUTION_TAGGING;
    }
    int bound = front_ends > replays ? front_ends : replays;
    int by_tags = ceil_div(executions, NUM_TAG_BITS);
    return bound > by_tags ? bound : by_tags;
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

static int lower_bound(const struct planner *p, const struct request_list *list)
{
    int bound = ceil_div(list->n, p->capacity);
    if (p->pmu == PMU_P5)
        return bound;
    for (size_t g = 0; g < sizeof counter_groups / sizeof counter_groups[0]; g++)
        bound = max_int(bound, counter_bound_for(p, list, counter_groups[g]));
    for (int i = 0; i < list->n; i++)
        bound = max_int(bound, counter_bound_for(p, list, p->info[list->req[i]].counters));
    struct escr_use uses[2 * ALLOC_MAX_REQUESTS];
    int n = list_uses(p, list, uses);
    for (int i = 0; i < n; i++)
        bound = max_int(bound, ceil_div(escr_demand(p, uses, n, uses[i].escrs),
                                        popcount64(uses[i].escrs)));
    return max_int(bound, tagging_bound(p, list));
}

/* ---- Packing the units of one component into k runs */

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

static const struct unit *unit_at(const struct partition *s, int u)
{
    return &s->p->units[s->units[u]];
}

static bool *fit(const struct partition *s, int u, int j)
{
    return &s->fits[u * s->n + j];
}

static bool unit_fits(const struct partition *s, int j, int u)
{
    const struct unit *unit = unit_at(s, u);
    const struct run_members *run = &s->runs[j];
    if (run->n + unit->n > s->p->capacity)
        return false;
    int req[ALLOC_MAX_PER_RUN];
    memcpy(req, run->req, (size_t)run->n * sizeof *req);
    memcpy(req + run->n, s->p->members + unit->first, (size_t)unit->n * sizeof *req);
    return run_feasible(s->p, req, run->n + unit->n, NULL);
}

/* The runs unit u may go to: the used runs it fits, then one empty run
 * (all empty runs are alike). */
static int unit_choices(const struct partition *s, int u, int *choices)
{
    int n = 0;
    for (int j = 0; j < s->n_used; j++)
        if (*fit(s, u, j))
            choices[n++] = j;
    if (s->n_used < s->k)
        choices[n++] = s->n_used;
    return n;
}

static void place_unit(struct partition *s, int u, int j, bool *saved)
{
    const struct unit *unit = unit_at(s, u);
    bool opened = j == s->n_used;
    for (int v = 0; v < s->n; v++)
        saved[v] = *fit(s, v, j);
    memcpy(s->runs[j].req + s->runs[j].n, s->p->members + unit->first,
           (size_t)unit->n * sizeof(int));
    s->runs[j].n += unit->n;
    s->unit_run[u] = j;
    if (opened)
        s->n_used++;
    for (int v = 0; v < s->n; v++)
        if (s->unit_run[v] < 0)
            *fit(s, v, j) = (opened || *fit(s, v, j)) && unit_fits(s, j, v);
}

static void remove_unit(struct partition *s, int u, int j, const bool *saved)
{
    s->runs[j].n -= unit_at(s, u)->n;
    s->unit_run[u] = -1;
    if (s->runs[j].n == 0)
        s->n_used--;
    for (int v = 0; v < s->n; v++)
        *fit(s, v, j) = saved[v];
}

/* The unplaced unit with the fewest runs to go to (ties: the earlier unit,
 * the units being ordered hardest first), or -1 when all are placed. */
static int most_constrained_unit(const struct partition *s, int *choices, int *n_choices)
{
    int best = -1;
    *n_choices = INT_MAX;
    for (int u = 0; u < s->n; u++) {
        if (s->unit_run[u] >= 0)
            continue;
        int n = unit_choices(s, u, choices);
        if (n < *n_choices) {
            best = u;
            *n_choices = n;
        }
    }
    if (best >= 0)
        unit_choices(s, best, choices);
    return best;
}

static bool pack(struct partition *s, int depth)
{
    int *choices = s->choices + depth * (s->n + 1);
    int n_choices;
    int u = most_constrained_unit(s, choices, &n_choices);
    if (u < 0)
        return true;
    bool *saved = s->saved + depth * s->n;
    for (int c = 0; c < n_choices; c++) {
        if (c > 0 && *s->steps_left <= 0) {
            s->gave_up = true;  /* from here on, first choices only */
            break;
        }
        --*s->steps_left;
        place_unit(s, u, choices[c], saved);
        if (pack(s, depth + 1))
            return true;
        remove_unit(s, u, choices[c], saved);
    }
    return false;
}

static bool partition_alloc(struct partition *s, const struct planner *p, const int *units,
                            int n, long *steps_left)
{
    size_t m = (size_t)n;
    *s = (struct partition){.p = p, .units = units, .n = n, .steps_left = steps_left};
    s->runs = calloc(m, sizeof *s->runs);
    s->unit_run = malloc(m * sizeof *s->unit_run);
    s->fits = calloc(m * m, sizeof *s->fits);
    s->saved = calloc(m * m, sizeof *s->saved);
    s->choices = calloc(m * (m + 1), sizeof *s->choices);
    return s->runs && s->unit_run && s->fits && s->saved && s->choices;
}

static void partition_free(struct partition *s)
{
    free(s->runs);
    free(s->unit_run);
    free(s->fits);
    free(s->saved);
    free(s->choices);
}

static bool pack_into(struct partition *s, int k)
{
    s->k = k;
    s->gave_up = false;
    s->n_used = 0;
    for (int u = 0; u < s->n; u++)
        s->unit_run[u] = -1;
    return pack(s, 0);
}

/* ---- Components: units that share no register (and no tagging MSR) are
 * packed independently; run j of the plan joins run j of each. */

enum { TAGGING_RESOURCE = NUM_RESOURCES, NUM_UNIT_RESOURCES };

static bool uses_tagging(const struct planner *p, int r)
{
    return p->info[r].metric || p->info[r].explicit_tags || p->requests[r].spec.nb.pebs;
}

/* Component id of each unit (one component on the P5). */
static void find_components(const struct planner *p, int *component)
{
    int parent[NUM_UNIT_RESOURCES];
    for (int r = 0; r < NUM_UNIT_RESOURCES; r++)
        parent[r] = r;
    for (int u = 0; u < p->n_units; u++) {
        const int *req = p->members + p->units[u].first;
        for (int i = 0; i < p->units[u].n && p->pmu == PMU_NETBURST; i++) {
            int anchor = lowest_bit(p->info[req[i]].escrs);
            join_resources(parent, &p->info[req[i]]);
            if (uses_tagging(p, req[i]))
                join(parent, TAGGING_RESOURCE, anchor);
            join(parent, anchor, lowest_bit(p->info[req[0]].escrs));
        }
        component[u] = p->pmu == PMU_P5 ? 0 : lowest_bit(p->info[req[0]].escrs);
    }
    for (int u = 0; u < p->n_units; u++)
        component[u] = find_root(parent, component[u]);
}

/* ---- The plan */

static int compare_runs(const void *a, const void *b)
{
    return ((const struct alloc_run *)a)->assignments[0].request -
           ((const struct alloc_run *)b)->assignments[0].request;
}

static bool write_plan(const struct planner *p, const struct run_members *runs, int n_runs,
                       bool minimal, struct alloc_plan *plan)
{
    plan->minimal = minimal;
    plan->runs = calloc((size_t)n_runs, sizeof *plan->runs);
    if (!plan->runs)
        return false;
    plan->n_runs = n_runs;
    for (int j = 0; j < n_runs; j++)
        run_feasible(p, runs[j].req, runs[j].n, &plan->runs[j]);
    qsort(plan->runs, (size_t)n_runs, sizeof *plan->runs, compare_runs);
    return true;
}

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

/* Units: the requests of each group together, in order of first request. */
static bool build_units(struct planner *p)
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
            if (q == r || (p->requests[r].group != ALLOC_NO_GROUP &&
                           p->requests[q].group == p->requests[r].group && !taken[q])) {
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
    return set ? 64 * escr_demand(p, uses, n, set) / popcount64(set) : 0;
}

static int unit_pressure(const struct planner *p, const struct escr_use *uses, int n,
                         const struct unit *unit)
{
    int pressure = 0;
    for (int i = 0; i < unit->n; i++) {
        const struct request_info *info = &p->info[p->members[unit->first + i]];
        pressure = max_int(pressure, set_pressure(p, uses, n, info->escrs));
        pressure = max_int(pressure, set_pressure(p, uses, n, info->upstream_escrs));
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
static bool order_units(struct planner *p)
{
    struct request_list all = {.n = p->n_requests, .req = p->members};
    struct escr_use *uses = malloc(2 * (size_t)p->n_requests * sizeof *uses);
    if (!uses)
        return false;
    int n = list_uses(p, &all, uses);
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

static bool check_pmus(const struct alloc_request *requests, int n, struct alloc_error *error)
{
    for (int r = 1; r < n; r++)
        if (requests[r].spec.pmu != requests[0].spec.pmu)
            return fail(error, r, "mixes P5 and NetBurst events; plan each PMU on its own");
    return true;
}

/* Every unit must fit a run on its own. */
static bool check_units(const struct planner *p, struct alloc_error *error)
{
    for (int u = 0; u < p->n_units; u++) {
        const struct unit *unit = &p->units[u];
        const int *req = p->members + unit->first;
        if (run_feasible(p, req, unit->n, NULL))
            continue;
        if (unit->n > p->capacity)
            return fail(error, req[0], "its group has %d events, but a run has %d counters",
                        unit->n, p->capacity);
        if (unit->n > 1)
            return fail(error, req[0], "the %d events of its group cannot count together in "
                                       "one run", unit->n);
        if (p->info[req[0]].thread >= 0)
            return fail(error, req[0], "no counter of thread %d's half can count it (with "
                                       "Hyper-Threading each thread has half the counters; "
                                       "docs/alloc.md)", p->info[req[0]].thread);
        return fail(error, req[0], "no ESCR and counter of model %d can count it",
                    p->config.model);
    }
    return true;
}

/* The packing of the components of one plan. */
struct packing {
    struct run_members *runs;
    int n_runs;
    long steps_left;
    bool minimal;              /* every smaller number of runs was refuted */
};

/* Packs one component into the fewest runs and adds its run j to runs[j]. */
static bool pack_component(const struct planner *p, const int *units, int n,
                           const struct request_list *list, struct packing *packing)
{
    struct partition s;
    bool ok = partition_alloc(&s, p, units, n, &packing->steps_left);
    for (int k = lower_bound(p, list); ok && !pack_into(&s, k); k++)
        packing->minimal &= !s.gave_up;
    struct run_members *runs = packing->runs;
    for (int j = 0; ok && j < s.n_used; j++) {
        memcpy(runs[j].req + runs[j].n, s.runs[j].req, (size_t)s.runs[j].n * sizeof(int));
        runs[j].n += s.runs[j].n;
    }
    packing->n_runs = ok ? max_int(packing->n_runs, s.n_used) : packing->n_runs;
    partition_free(&s);
    return ok;
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

static bool first_of_component(const int *component, int u)
{
    for (int v = 0; v < u; v++)
        if (component[v] == component[u])
            return false;
    return true;
}

static bool plan_units(const struct planner *p, struct alloc_plan *plan,
                       struct alloc_error *error)
{
    size_t n = (size_t)p->n_units;
    int *component = malloc(n * sizeof *component), *units = malloc(n * sizeof *units);
    struct request_list list = {.req = malloc((size_t)p->n_requests * sizeof(int))};
    struct packing packing = {.runs = calloc(n, sizeof *packing.runs),
                              .steps_left = ALLOC_SEARCH_STEPS, .minimal = true};
    bool ok = component && units && list.req && packing.runs;
    if (ok)
        find_components(p, component);
    for (int u = 0; ok && u < p->n_units; u++)
        if (first_of_component(component, u)) {
            int m = component_units(p, component, u, units, &list);
            ok = pack_component(p, units, m, &list, &packing);
        }
    ok = ok && write_plan(p, packing.runs, packing.n_runs, packing.minimal, plan);
    free(component);
    free(units);
    free(list.req);
    free(packing.runs);
    return ok || fail(error, -1, "out of memory");
}

/* Whether a request counts execution_event with one NBOGUSn bit, as an
 * execution-tagging metric does. */
static bool counts_one_nbogus(const struct nb_event_spec *spec)
{
    return !spec->metric && spec->event == nb_event_find("execution_event") &&
           popcount64(spec->mask) == 1 && spec->mask < (1u << NUM_TAG_BITS);
}

static bool planner_init(struct planner *p, const struct alloc_request *requests, int n,
                         const struct nb_config *config)
{
    *p = (struct planner){.requests = requests, .n_requests = n, .config = *config,
                          .pmu = requests[0].spec.pmu};
    p->capacity = p->pmu == PMU_P5 ? P5_COUNTERS : NB_NUM_COUNTERS;
    p->info = calloc((size_t)n, sizeof *p->info);
    if (!p->info)
        return false;
    p->metric_values_distinct = true;
    for (int r = 0; r < n && p->pmu == PMU_NETBURST; r++) {
        describe_netburst(&requests[r].spec.nb, config, &p->info[r]);
        p->metric_values_distinct &=
            !counts_one_nbogus(&requests[r].spec.nb) && !p->info[r].explicit_tags;
    }
    return build_units(p);
}

static void planner_free(struct planner *p)
{
    free(p->info);
    free(p->units);
    free(p->members);
}

bool alloc_plan_make(const struct alloc_request *requests, int n, const struct nb_config *config,
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
         (order_units(&p) || fail(error, -1, "out of memory")) && plan_units(&p, plan, error);
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
