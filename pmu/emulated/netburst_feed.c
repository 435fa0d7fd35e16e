/* The PMU's publication for a timing model's sources (netburst_feed.h):
 * rewritten by the PMU whenever a register write changes what it says. */
#include <stdlib.h>
#include <string.h>

#include "pmu/catalog/netburst_fields.h"
#include "netburst_pmu_state.h"

struct nb_source nb_tagged_source(enum nb_metric_kind kind, unsigned bit)
{
    const struct nb_tagging *tagging = &nb_taggings[kind];
    const struct nb_subevent *first =
        nb_subevent_find(&nb_event_table[tagging->counting_event], tagging->counting_subevent);
    /* execution_event's NBOGUS0-3 are bits 0-3: one for each tag value bit. */
    unsigned shift = first->bit + (kind == NB_EXECUTION_TAGGING ? bit : 0);
    return (struct nb_source){tagging->counting_event, (uint16_t)(1u << shift)};
}

/* ---- linked PMUs (netburst_feed.h, "One model, several PMUs") */

/* A head's feed watches its linked PMUs' sources too, and its cycles are
 * refused when one of its group samples or tags. */
static void publish_group(struct nb_pmu *head)
{
    struct nb_feed *feed = head->feed;
    if (!feed)
        return;
    feed->watched[0] = feed->counted[0];
    feed->watched[1] = feed->counted[1];
    bool apart = feed->sampling || feed->tagging;
    for (unsigned i = 0; i < feed->n_linked; i++) {
        const struct nb_feed *linked = feed->linked[i].feed;
        feed->watched[0] |= linked->counted[0];
        feed->watched[1] |= linked->counted[1];
        apart = apart || linked->sampling || linked->tagging;
    }
    head->links_refused = feed->n_linked && apart;
}

/* The head's feed lists its linked PMUs, each attached with its sources;
 * false when memory ran out (the list is then as before). */
static bool publish_links(struct nb_pmu *head)
{
    struct nb_feed *feed = head->feed;
    if (!feed || (!head->next && !feed->n_linked))
        return true;
    unsigned n = 0;
    for (const struct nb_pmu *p = head->next; p; p = p->next)
        n++;
    struct nb_linked_feed *linked = n ? calloc(n, sizeof *linked) : NULL;
    if (n && !linked)
        return false;
    unsigned i = 0;
    for (struct nb_pmu *p = head->next; p; p = p->next, i++) {
        if (!nb_pmu_attach(p, feed->sources, feed->n_sources)) {
            free(linked);
            return false;
        }
        linked[i] = (struct nb_linked_feed){p->feed, &p->routed};
    }
    free(feed->linked);
    feed->linked = linked;
    feed->n_linked = n;
    publish_group(head);
    return true;
}

bool nb_pmu_link(struct nb_pmu *pmu, struct nb_pmu *follower)
{
    if (follower == pmu || pmu->head || follower->head || follower->next ||
        follower->config.model != pmu->config.model || follower->config.ht != pmu->config.ht)
        return false;
    struct nb_pmu *last = pmu;
    while (last->next)
        last = last->next;
    last->next = follower;
    follower->head = pmu;
    for (int t = 0; t < 2; t++)
        nb_pmu_thread_state(follower, t, pmu->thread[t].active, pmu->thread[t].cpl);
    if (publish_links(pmu))
        return true;
    last->next = NULL;
    follower->head = NULL;
    return false;
}

void nb_pmu_unlink(struct nb_pmu *pmu)
{
    struct nb_pmu *head = pmu->head;
    if (!head) {
        for (struct nb_pmu *p = pmu->next, *after; p; p = after) {
            after = p->next;
            p->head = p->next = NULL;
        }
        pmu->next = NULL;
        if (pmu->feed)
            pmu->feed->n_linked = 0;
        publish_group(pmu);
        return;
    }
    struct nb_pmu **at = &head->next;
    while (*at != pmu)
        at = &(*at)->next;
    *at = pmu->next;
    pmu->head = pmu->next = NULL;
    struct nb_feed *feed = head->feed;
    for (unsigned i = 0; feed && i < feed->n_linked; i++)
        if (feed->linked[i].outputs == &pmu->routed) {
            memmove(&feed->linked[i], &feed->linked[i + 1],
                    (feed->n_linked - i - 1) * sizeof *feed->linked);
            feed->n_linked--;
            break;
        }
    publish_group(head);
}

const struct nb_feed *nb_pmu_attach(struct nb_pmu *pmu, const struct nb_source *sources,
                                    unsigned n)
{
    if (n == 0 || n > NB_MAX_SOURCES)
        return NULL;
    for (unsigned s = 0; s < n; s++)
        if ((unsigned)sources[s].event >= NB_NUM_EVENTS)
            return NULL;
    if (!pmu->feed && !(pmu->feed = calloc(1, sizeof *pmu->feed)))
        return NULL;
    memcpy(pmu->feed->sources, sources, n * sizeof *sources);
    pmu->feed->n_sources = n;
    nb_feed_refresh(pmu, NB_FEED_ALL);
    return publish_links(pmu) ? pmu->feed : NULL;
}

/* Each source's route in every context, and the sources some context
 * routes: the others need not be reported at all. */
static void refresh_routes(const struct nb_pmu *pmu, struct nb_feed *feed)
{
    feed->counted[0] = feed->counted[1] = 0;
    for (unsigned s = 0; s < feed->n_sources; s++) {
        uint64_t any = 0;
        for (unsigned context = 0; context < ESCR_CONTEXTS; context++) {
            feed->route[context][s] = nb_pmu_route(pmu, (int)feed->sources[s].event,
                                                   feed->sources[s].mask, (uint8_t)context);
            any |= feed->route[context][s];
        }
        if (any)
            feed->counted[s >> 6] |= 1ull << (s & 63);
    }
    feed->generation++;
}

uint16_t nb_counted_bits(const struct nb_pmu *pmu, enum nb_event_id event, uint8_t context)
{
    uint16_t bits = 0;
    for (uint64_t escrs = pmu->selecting[event]; escrs; escrs &= escrs - 1)
        bits |= pmu->escr_rules[__builtin_ctzll(escrs)].counting[context];
    return bits;
}

uint8_t nb_execution_tag(const struct nb_pmu *pmu, enum nb_event_id event, uint16_t mask,
                         uint8_t context)
{
    uint8_t tag = 0;
    for (uint64_t escrs = pmu->selecting[event]; escrs; escrs &= escrs - 1) {
        int e = __builtin_ctzll(escrs);
        if ((pmu->escr[e] & ESCR_TAG_ENABLE) && (pmu->escr_rules[e].counting[context] & mask))
            tag |= (uint8_t)(pmu->escr[e] >> ESCR_TAG_VALUE_SHIFT & 0xf);
    }
    return tag;
}

/* Whether IA32_PEBS_ENABLE has UOP_TAG and all of the replay metric's bits,
 * and MSR_PEBS_MATRIX_VERT all of its bits. */
static bool replay_selected(const struct nb_pmu *pmu, const struct nb_metric *metric)
{
    uint64_t enable = PEBS_ENABLE_UOP_TAG | metric->pebs_enable;
    return (pmu->pebs_enable & enable) == enable &&
           (pmu->pebs_matrix_vert & metric->matrix_vert) == metric->matrix_vert;
}

/* Whether the replay metric's upstream ESCR (the one it names, or any)
 * counts the occurrence that `cause` stands for in `context`. */
static bool upstream_counts(const struct nb_pmu *pmu, const struct nb_metric *metric,
                            uint16_t cause, uint8_t context)
{
    uint64_t escrs =
        nb_pmu_route(pmu, metric->upstream_event, nb_cause_subevent(cause), context);
    return metric->upstream_escr < 0 ? escrs != 0 : (escrs >> metric->upstream_escr & 1);
}

/* Replay tagging (SDM Vol. 3B, the replay-tagging table): the causes the
 * selected metrics tag in `context`, each with its upstream ESCR counting
 * when the metric has one. */
static uint16_t replay_causes(const struct nb_pmu *pmu, uint8_t context)
{
    uint16_t causes = 0;
    for (int i = 0; i < nb_num_metrics; i++) {
        const struct nb_metric *metric = &nb_metrics[i];
        if (metric->kind != NB_REPLAY_TAGGING || !replay_selected(pmu, metric))
            continue;
        for (uint16_t left = metric->causes; left; left &= (uint16_t)(left - 1)) {
            uint16_t cause = (uint16_t)(left & -left);
            if (metric->upstream_event == NB_NO_UPSTREAM ||
                upstream_counts(pmu, metric, cause, context))
                causes |= cause;
        }
    }
    return causes;
}

/* What the three mechanisms tag, by context. */
static void refresh_tagging(const struct nb_pmu *pmu, struct nb_feed *feed)
{
    /* uop_type's TAGLOADS (bit 1) and TAGSTORES (bit 2). */
    const uint16_t tag_bits = 1u << 1 | 1u << 2;
    feed->tagging = false;
    for (unsigned context = 0; context < ESCR_CONTEXTS; context++) {
        uint8_t c = (uint8_t)context;
        feed->front_end[c] = nb_counted_bits(pmu, NB_EV_UOP_TYPE, c) & tag_bits;
        feed->replay[c] = replay_causes(pmu, c);
        bool any = feed->front_end[c] || feed->replay[c];
        for (unsigned s = 0; s < feed->n_sources; s++) {
            feed->execution[c][s] =
                nb_execution_tag(pmu, feed->sources[s].event, feed->sources[s].mask, c);
            any = any || feed->execution[c][s];
        }
        feed->tagging = feed->tagging || any;
    }
}

/* Sampling is programmed: PEBS enabled for a thread, or a counter with
 * OVF_PMI (its PMIs are taken, sampling the last retired EIP). */
static bool samples(const struct nb_pmu *pmu)
{
    if (pmu->pebs_threads)
        return true;
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        if (pmu->cccr[c] & (CCCR_OVF_PMI_T0 | CCCR_OVF_PMI_T1))
            return true;
    return false;
}

static void refresh_contexts(const struct nb_pmu *pmu, struct nb_feed *feed)
{
    for (int t = 0; t < 2; t++)
        for (int user = 0; user < 2; user++) {
            uint8_t cpl[2] = {pmu->thread[0].cpl, pmu->thread[1].cpl};
            cpl[t] = user ? 3 : 0;
            feed->context[t][user] = escr_context_of(t, cpl, pmu->config.ht);
        }
}

void nb_feed_refresh(struct nb_pmu *pmu, unsigned what)
{
    struct nb_feed *feed = pmu->feed;
    if (!feed)
        return;
    if (what & NB_FEED_ROUTES)
        refresh_routes(pmu, feed);
    if (what & NB_FEED_TAGGING)
        refresh_tagging(pmu, feed);
    if (what & NB_FEED_SAMPLING)
        feed->sampling = samples(pmu);
    if (what & NB_FEED_CONTEXTS)
        refresh_contexts(pmu, feed);
    feed->pmi_waiting = pmu->pending[0].pending || pmu->pending[1].pending;
    publish_group(pmu->head ? pmu->head : pmu);
}

void nb_router_init(struct nb_router *router, const struct nb_feed *feed, int threads)
{
    memset(router, 0, sizeof *router);
    router->feed = feed;
    router->threads = threads;
}

/* With one logical processor a level's context is fixed: the other
 * processor never changes its privilege level. */
void nb_router_watch(struct nb_router *router)
{
    const struct nb_feed *feed = router->feed;
    router->ahead = router->threads == 1 && !feed->sampling && !feed->n_linked;
    for (unsigned level = 0; level < 2 && router->ahead; level++) {
        const uint64_t *route = feed->route[feed->context[0][level]];
        memcpy(router->route[level], route, feed->n_sources * sizeof *route);
    }
    router->generation = feed->generation;
    router->sampling = feed->sampling;
}
