/* NetBurst register values for an event spec: the counting event's ESCR and
 * CCCR, the tagging upstreams' ESCRs, and the replay-tagging MSRs. */
#include "event_spec.h"
#include "netburst_events.h"
#include "netburst_fields.h"

/* The ESCRs of `event` that exist on the model, and the counters they feed. */
static uint64_t present_escrs(int event, const struct nb_pmu_config *config, uint32_t *counters)
{
    uint64_t escrs = 0;
    *counters = 0;
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if ((nb_event_table[event].escrs & (1ull << e)) && nb_escr_present(e, config->model)) {
            escrs |= 1ull << e;
            *counters |= nb_escrs[e].counters;
        }
    return escrs;
}

static uint64_t privilege_bits(const struct nb_event_spec *spec)
{
    uint64_t bits = 0;
    if (spec->t0)
        bits |= (spec->os ? ESCR_T0_OS : 0) | (spec->usr ? ESCR_T0_USR : 0);
    if (spec->t1)
        bits |= (spec->os ? ESCR_T1_OS : 0) | (spec->usr ? ESCR_T1_USR : 0);
    return bits;
}

static uint64_t escr_value(int event, uint16_t mask, const struct nb_event_spec *spec,
                           bool tag_enable, unsigned tag_value)
{
    return (uint64_t)nb_event_table[event].select << ESCR_EVENT_SELECT_SHIFT |
           (uint64_t)mask << ESCR_EVENT_MASK_SHIFT | (uint64_t)tag_value << ESCR_TAG_VALUE_SHIFT |
           (tag_enable ? ESCR_TAG_ENABLE : 0) | privilege_bits(spec);
}

static uint64_t cccr_value(const struct nb_event_spec *spec, unsigned escr_select)
{
    return CCCR_ENABLE | (uint64_t)escr_select << CCCR_ESCR_SELECT_SHIFT |
           (uint64_t)spec->active_thread << CCCR_ACTIVE_THREAD_SHIFT |
           (spec->compare ? CCCR_COMPARE : 0) | (spec->complement ? CCCR_COMPLEMENT : 0) |
           (uint64_t)spec->threshold << CCCR_THRESHOLD_SHIFT | (spec->edge ? CCCR_EDGE : 0) |
           (spec->force_ovf ? CCCR_FORCE_OVF : 0) |
           ((spec->ovf_pmi & 1) ? CCCR_OVF_PMI_T0 : 0) | ((spec->ovf_pmi & 2) ? CCCR_OVF_PMI_T1 : 0);
}

/* The first ESCR of a set: all ESCRs of one event share their select. */
static int first_escr(uint64_t escrs)
{
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if (escrs & (1ull << e))
            return e;
    return -1;
}

/* The upstream event a metric tags with, on the ESCRs it may use. */
static struct nb_upstream upstream_of(const struct nb_metric *metric,
                                      const struct nb_event_spec *spec,
                                      const struct nb_pmu_config *config)
{
    struct nb_upstream up = {.event = metric->upstream_event};
    uint32_t ignored;
    up.escrs = present_escrs(up.event, config, &ignored);
    if (metric->upstream_escr >= 0)
        up.escrs &= 1ull << metric->upstream_escr;
    bool tags = metric->kind == NB_EXECUTION_TAGGING;
    up.escr = escr_value(up.event, metric->upstream_mask, spec, tags,
                         tags ? 1u << spec->exec_tag_bit : 0);
    return up;
}

/* One metric of the spec: its upstream event; replay tagging's MSR bits,
 * which several replay metrics OR (the SDM's replay tagging selects uop
 * types in MSR_PEBS_MATRIX_VERT and replay causes in IA32_PEBS_ENABLE). */
static void encode_metric(const struct nb_metric *metric, const struct nb_event_spec *spec,
                          const struct nb_pmu_config *config, struct nb_encoding *enc)
{
    if (metric->upstream_event != NB_NO_UPSTREAM && enc->n_upstreams < NB_MAX_UPSTREAMS)
        enc->upstream[enc->n_upstreams++] = upstream_of(metric, spec, config);
    if (metric->kind == NB_REPLAY_TAGGING) {
        enc->replay = true;
        enc->pebs_enable |=
            metric->pebs_enable | PEBS_ENABLE_UOP_TAG | (spec->pebs ? PEBS_ENABLE_PEBS : 0);
        enc->matrix_vert |= metric->matrix_vert;
    }
}

/* Keeps only `counter` and the ESCRs that feed it. */
static void restrict_to_counter(struct nb_encoding *enc, int counter)
{
    enc->counters &= 1u << counter;
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if (!(nb_escrs[e].counters & (1u << counter)))
            enc->escrs &= ~(1ull << e);
}

void nb_encode(const struct nb_event_spec *spec, const struct nb_pmu_config *config,
               struct nb_encoding *enc)
{
    *enc = (struct nb_encoding){0};
    enc->escrs = present_escrs(spec->event, config, &enc->counters);
    uint16_t mask = spec->mask;
    /* Execution tagging counts NBOGUSn for the tag bit n its upstream sets. */
    if (spec->metric && spec->metric->kind == NB_EXECUTION_TAGGING)
        mask = (uint16_t)(1u << spec->exec_tag_bit);
    enc->escr = escr_value(spec->event, mask, spec, spec->tag_enable, spec->tag_value);
    int escr = first_escr(enc->escrs);
    enc->cccr = cccr_value(spec, escr >= 0 ? nb_escrs[escr].select : 0);
    for (int m = 0; m < nb_num_metrics; m++)
        if (spec->metrics & (1u << m))
            encode_metric(&nb_metrics[m], spec, config, enc);
    if (spec->pebs)
        restrict_to_counter(enc, NB_PEBS_COUNTER);
}
