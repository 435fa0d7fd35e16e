/* The MSRs of a plan, whatever its PMU (pmu/programming/alloc.h, docs/alloc.md). */
#include "alloc.h"

#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/catalog/p5_msrs.h"

void alloc_counter_msrs(const struct alloc_run *run, const struct alloc_assignment *a,
                        struct alloc_counter_msrs *out)
{
    static const char *const p5_counters[] = {"CTR0", "CTR1"};
    if (run->pmu == PMU_P5) {
        *out = (struct alloc_counter_msrs){
            .counter_name = p5_counters[a->counter], .counter_msr = P5_MSR_CTR0 + a->counter,
            .escr = {"CESR", P5_MSR_CESR, a->escr_value}, .escr_shared = true};
        return;
    }
    *out = (struct alloc_counter_msrs){
        .counter_name = nb_counter_name(a->counter),
        .counter_msr = NB_COUNTER_BASE + (uint32_t)a->counter, .numbered = true,
        .escr = {nb_escrs[a->escr].name, nb_escrs[a->escr].msr, a->escr_value},
        .has_cccr = true,
        .cccr = {nb_cccr_name(a->counter), NB_CCCR_BASE + (uint32_t)a->counter, a->cccr_value},
        .n_upstreams = a->n_upstreams};
    for (int u = 0; u < a->n_upstreams; u++)
        out->upstream[u] = (struct alloc_msr){nb_escrs[a->upstream_escr[u]].name,
                                              nb_escrs[a->upstream_escr[u]].msr,
                                              a->upstream_value[u]};
}

void alloc_run_msrs(const struct alloc_run *run, struct alloc_run_msrs *out)
{
    bool p5 = run->pmu == PMU_P5;
    *out = (struct alloc_run_msrs){.pmu = p5 ? "p5" : "netburst", .cpuid_model = !p5};
    if (p5)
        out->msrs[out->n++] = (struct alloc_msr){"CESR", P5_MSR_CESR, alloc_p5_cesr(run)};
    if (run->replay) {
        out->msrs[out->n++] =
            (struct alloc_msr){"IA32_PEBS_ENABLE", MSR_IA32_PEBS_ENABLE, run->pebs_enable};
        out->msrs[out->n++] =
            (struct alloc_msr){"MSR_PEBS_MATRIX_VERT", MSR_PEBS_MATRIX_VERT, run->matrix_vert};
    }
}

/* Whether an ESCR value selects uop_type with TAGLOADS (bit 1) or
 * TAGSTORES (bit 2). */
static bool front_end_tags(int escr, uint64_t value)
{
    return nb_event_on_escr(escr, escr_event_select(value)) == NB_EV_UOP_TYPE &&
           (escr_event_mask(value) & (1u << 1 | 1u << 2));
}

bool alloc_run_samples_or_tags(const struct alloc_run *run)
{
    if (run->pmu == PMU_P5)
        return false;
    if (run->replay || run->pebs_enable)
        return true;
    for (int i = 0; i < run->n; i++) {
        const struct alloc_assignment *a = &run->assignments[i];
        if (a->n_upstreams || (a->cccr_value & (CCCR_OVF_PMI_T0 | CCCR_OVF_PMI_T1)) ||
            (a->escr_value & ESCR_TAG_ENABLE) || front_end_tags(a->escr, a->escr_value))
            return true;
    }
    return false;
}
