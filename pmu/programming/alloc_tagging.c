/* The tagging rules of one run (docs/alloc.md, "Rules of one run"): one
 * front-end tag and one replay configuration per run, PEBS with no other
 * tagging mechanism, and distinct execution tag bits, which this file
 * hands out.
 */
#include "alloc_internal.h"

/* The tagging mechanisms a request uses, one bit per nb_metric kind. */
static unsigned tagging_mechanisms(const struct request_info *info)
{
    unsigned mechanisms = info->explicit_tags ? 1u << NB_EXECUTION_TAGGING : 0;
    return info->metric ? mechanisms | 1u << info->metric->kind : mechanisms;
}

/* Front-end metrics must share one tag (front_end_event cannot tell two
 * apart), replay metrics one PEBS_ENABLE and MATRIX_VERT (they are
 * global); with PEBS, the run uses one tagging mechanism only. */
static bool mechanisms_agree(const struct planner *p, const int *req, int n)
{
    const struct nb_encoding *front_end = NULL, *replay = NULL;
    unsigned mechanisms = 0;
    bool pebs = false;
    for (int i = 0; i < n; i++) {
        const struct request_info *info = &p->info[req[i]];
        pebs |= p->requests[req[i]].spec.nb.pebs;
        mechanisms |= tagging_mechanisms(info);
        if (!info->metric)
            continue;
        if (info->metric->kind == NB_FRONT_END_TAGGING) {
            if (front_end && front_end->upstream[0].escr != info->enc.upstream[0].escr)
                return false;
            front_end = &info->enc;
        } else if (info->metric->kind == NB_REPLAY_TAGGING) {
            if (replay && (replay->pebs_enable != info->enc.pebs_enable ||
                           replay->matrix_vert != info->enc.matrix_vert))
                return false;
            replay = &info->enc;
        }
    }
    return !pebs || popcount64(mechanisms) <= 1;
}

static bool exec_tag_given(const struct planner *p, int r)
{
    return p->requests[r].spec.nb.exec_tag_given;
}

/* The tag bits taken in the run: those ':tag=' events set and those the
 * user chose for execution metrics (":tag=N" on a metric), which must all
 * differ; false when two collide. */
static bool tag_bits_taken(const struct planner *p, const int *req, int n, unsigned *taken)
{
    unsigned explicit_tags = 0, chosen = 0;
    for (int i = 0; i < n; i++)
        explicit_tags |= p->info[req[i]].explicit_tags;
    for (int i = 0; i < n; i++) {
        if (!is_execution_metric(&p->info[req[i]]) || !exec_tag_given(p, req[i]))
            continue;
        unsigned bit = 1u << p->requests[req[i]].spec.nb.exec_tag_bit;
        if ((chosen | explicit_tags) & bit)
            return false;
        chosen |= bit;
    }
    *taken = explicit_tags | chosen;
    return true;
}

/* Gives the other execution metrics the lowest free tag bits, in request
 * order, and re-encodes them with it. */
static bool assign_free_tag_bits(const struct planner *p, const int *req, int n, unsigned taken,
                                 struct nb_encoding *enc)
{
    unsigned free_bits = ~taken & ((1u << NUM_TAG_BITS) - 1);
    for (int i = 0; i < n; i++) {
        if (!is_execution_metric(&p->info[req[i]]) || exec_tag_given(p, req[i]))
            continue;
        if (!free_bits)
            return false;
        struct nb_event_spec spec = p->requests[req[i]].spec.nb;
        spec.exec_tag_bit = (uint8_t)lowest_bit(free_bits);
        free_bits &= free_bits - 1;
        nb_encode(&spec, &p->config, &enc[i]);
    }
    return true;
}

/* Whether requests req[0..n) (in request order) may count in one run as
 * far as tagging goes; enc[i] gets request req[i]'s encoding with the
 * run's tag bits. */
bool alloc_tagging_fits(const struct planner *p, const int *req, int n, struct nb_encoding *enc)
{
    unsigned taken;
    for (int i = 0; i < n; i++)
        enc[i] = p->info[req[i]].enc;
    return mechanisms_agree(p, req, n) && tag_bits_taken(p, req, n, &taken) &&
           assign_free_tag_bits(p, req, n, taken, enc);
}

static bool same_upstream_values(const struct nb_encoding *a, const struct nb_encoding *b)
{
    if (a->n_upstreams != b->n_upstreams)
        return false;
    for (int u = 0; u < a->n_upstreams; u++)
        if (a->upstream[u].escr != b->upstream[u].escr)
            return false;
    return true;
}

bool alloc_same_tagging(const struct request_info *a, const struct request_info *b)
{
    return a->metric && b->metric && a->metric->kind == b->metric->kind &&
           same_upstream_values(&a->enc, &b->enc) && a->enc.pebs_enable == b->enc.pebs_enable &&
           a->enc.matrix_vert == b->enc.matrix_vert;
}

/* Whether two requests may count in one run as far as tagging goes: two
 * different front-end tags or replay configurations may not. */
bool alloc_may_share_run(const struct request_info *a, const struct request_info *b)
{
    return !a->metric || !b->metric || a->metric->kind != b->metric->kind ||
           alloc_same_tagging(a, b);
}
