/* Register state of the simulated NetBurst PMU: reset, RDMSR, WRMSR with
 * reserved-bit checks, RDPMC, thread state and event injection.  The
 * per-cycle pipeline is in netburst_cycle.c. */
#include "netburst_pmu_state.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/catalog/netburst_metrics.h"
#include "util/grow_array.h"

/* IA32_MISC_ENABLE: bit 7 performance monitoring available, bit 11 BTS
 * unavailable, bit 12 PEBS unavailable; read-only (SDM Vol. 3B, the
 * IA32_MISC_ENABLE entry of the MSR tables; perfctr x86.c). */
#define MISC_PERFMON_AVAILABLE NB_BIT(7)
#define MISC_READ_ONLY (NB_BIT(7) | NB_BIT(11) | NB_BIT(12))

/* MSR_TC_PRECISE_EVENT is undocumented beyond its name; perfctr reports it
 * reads 0xFC00 after reset (its writable bits: nb_msr_writable). */
#define TC_PRECISE_RESET 0xfc00ull

static void refresh_thread_contexts(struct nb_pmu *pmu)
{
    uint8_t cpl[2] = {pmu->thread[0].cpl, pmu->thread[1].cpl};
    for (int t = 0; t < 2; t++)
        pmu->thread_context[t] = escr_context_of(t, cpl, pmu->config.ht);
}

struct nb_pmu *nb_pmu_create(struct nb_pmu_config config)
{
    if (!nb_cpuid_model_supported(config.model))
        return NULL;
    struct nb_pmu *pmu = calloc(1, sizeof *pmu);
    if (!pmu)
        return NULL;
    pmu->config = config;
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        pmu->escr_event[e] = -1;
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        pmu->cccr_escr[c] = (int8_t)nb_escr_routed(c, 0, config.model);
        pmu->cccr_rules[c] = cccr_rules_of(0);
    }
    pmu->misc_enable = MISC_PERFMON_AVAILABLE;
    pmu->tc_precise_event = TC_PRECISE_RESET;
    pmu->thread[0] = (struct nb_thread){.active = true, .cpl = 3};
    pmu->thread[1] = (struct nb_thread){.active = false, .cpl = 3};
    refresh_thread_contexts(pmu);
    sim_memory_init(&pmu->memory);
    return pmu;
}

void nb_pmu_destroy(struct nb_pmu *pmu)
{
    if (!pmu)
        return;
    nb_pmu_unlink(pmu);
    free(pmu->occurrences);
    if (pmu->feed)
        free(pmu->feed->linked);
    free(pmu->feed);
    sim_memory_fini(&pmu->memory);
    free(pmu);
}

const struct nb_pmu_config *nb_pmu_config_of(const struct nb_pmu *pmu)
{
    return &pmu->config;
}

uint64_t nb_pmu_counter(const struct nb_pmu *pmu, int counter)
{
    return counter >= 0 && counter < NB_NUM_COUNTERS ? nb_pmu_counter_value(pmu, counter) : 0;
}

struct nb_thread nb_pmu_thread(const struct nb_pmu *pmu, int thread)
{
    return pmu->thread[thread & 1];
}

const struct nb_cycle_outcome *nb_pmu_last(const struct nb_pmu *pmu)
{
    return &pmu->last;
}

uint64_t nb_pmu_cycles(const struct nb_pmu *pmu)
{
    return pmu->cycles;
}

/* The registers kept as plain values: where they live in struct nb_pmu. */
static const struct {
    uint32_t msr;
    size_t offset;
} plain_registers[] = {
    {MSR_IA32_PEBS_ENABLE, offsetof(struct nb_pmu, pebs_enable)},
    {MSR_PEBS_MATRIX_VERT, offsetof(struct nb_pmu, pebs_matrix_vert)},
    {MSR_TC_PRECISE_EVENT, offsetof(struct nb_pmu, tc_precise_event)},
    {MSR_IA32_DS_AREA, offsetof(struct nb_pmu, ds_area)},
};

static int plain_register(uint32_t msr)
{
    for (size_t i = 0; i < sizeof plain_registers / sizeof plain_registers[0]; i++)
        if (plain_registers[i].msr == msr)
            return (int)i;
    return -1;
}

/* ENABLE_PEBS_MY_THR (25) and ENABLE_PEBS_OTH_THR (26) name threads
 * relative to the writer (SDM-old 18.19.3); pmubench's writes come from
 * logical processor 0, so "my thread" is thread 0.  Disabling PEBS for a
 * thread also drops an armed assist. */
static void write_pebs_enable(struct nb_pmu *pmu, uint64_t value)
{
    pmu->pebs_enable = value;
    pmu->pebs_threads = (uint8_t)(((value & PEBS_ENABLE_PEBS) ? 1 : 0) |
                                  ((value & PEBS_ENABLE_OTH_THR) ? 2 : 0));
    pmu->pebs_armed &= pmu->pebs_threads;
    nb_feed_refresh(pmu, NB_FEED_TAGGING | NB_FEED_SAMPLING);
}

/* The event an ESCR value selects on this model, or -1. */
static int selected_event(const struct nb_pmu_config *config, int escr, uint64_t value)
{
    int event = nb_event_on_escr(escr, escr_event_select(value));
    if (event < 0 || !(nb_event_table[event].models & (1u << config->model)))
        return -1;
    return event;
}

msr_status nb_pmu_rdmsr(const struct nb_pmu *pmu, uint32_t msr, uint64_t *value)
{
    int escr = nb_escr_index(msr);
    int counter, plain;

    if (escr >= 0) {
        if (!nb_escr_present(escr, pmu->config.model))
            return MSR_GP;
        *value = pmu->escr[escr];
    } else if ((counter = nb_cccr_index(msr)) >= 0) {
        *value = pmu->cccr[counter];
    } else if ((counter = nb_counter_index(msr)) >= 0) {
        *value = nb_pmu_counter_value(pmu, counter);
    } else if (msr == MSR_IA32_MISC_ENABLE) {
        *value = pmu->misc_enable;
    } else if ((plain = plain_register(msr)) >= 0) {
        memcpy(value, (const char *)pmu + plain_registers[plain].offset, sizeof *value);
    } else {
        return MSR_GP;
    }
    return MSR_OK;
}

void nb_pmu_counters_changed(struct nb_pmu *pmu)
{
    nb_pmu_batch_flush(pmu);
    pmu->enabled = pmu->complemented = pmu->plain = pmu->forced = 0;
    memset(pmu->gate_open, 0, sizeof pmu->gate_open);
    memset(pmu->escr_readers, 0, sizeof pmu->escr_readers);
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        uint64_t cccr = pmu->cccr[c];
        if (!(cccr & CCCR_ENABLE))
            continue;
        pmu->enabled |= 1u << c;
        if (pmu->cccr_escr[c] >= 0)
            pmu->escr_readers[pmu->cccr_escr[c]] |= 1u << c;
        if ((cccr & CCCR_COMPARE) && (cccr & CCCR_COMPLEMENT))
            pmu->complemented |= 1u << c;
        if (!(cccr & CCCR_COMPARE))
            pmu->plain |= 1u << c;
        if (cccr & CCCR_FORCE_OVF)
            pmu->forced |= 1u << c;
        for (unsigned threads = 0; threads < 3; threads++)
            if (pmu->cccr_rules[c].gate >> threads & 1)
                pmu->gate_open[threads] |= 1u << c;
    }
}

static void write_escr(struct nb_pmu *pmu, int escr, uint64_t value)
{
    pmu->escr[escr] = value;
    int event = selected_event(&pmu->config, escr, value);
    if (pmu->escr_event[escr] >= 0)
        pmu->selecting[pmu->escr_event[escr]] &= ~(1ull << escr);
    if (event >= 0)
        pmu->selecting[event] |= 1ull << escr;
    pmu->escr_event[escr] = (int16_t)event;
    pmu->escr_rules[escr] =
        escr_rules_of(value, event >= 0 ? nb_event_ti_mask(&nb_event_table[event]) : 0);
    pmu->detecting = event >= 0 ? pmu->detecting | 1ull << escr : pmu->detecting & ~(1ull << escr);
    nb_feed_refresh(pmu, NB_FEED_ROUTES | NB_FEED_TAGGING);
}

static void write_cccr(struct nb_pmu *pmu, int counter, uint64_t value)
{
    pmu->cccr[counter] = value;
    pmu->cccr_escr[counter] =
        (int8_t)nb_escr_routed(counter, cccr_escr_select(value), pmu->config.model);
    pmu->cccr_rules[counter] = cccr_rules_of(value);
    /* The edge history restarts with every CCCR write; a PMI still waiting
     * is kept only for the threads whose OVF_PMI bit stays set. */
    pmu->edge_history[counter] = false;
    pmu->edge_high &= ~(1u << counter);
    pmu->pmi_armed[counter] &= cccr_pmi_threads(value);
    if (!pmu->pmi_armed[counter])
        pmu->armed &= ~(1u << counter);
    if (counter == NB_PEBS_COUNTER)
        pmu->pebs_armed &= cccr_pmi_threads(value);
    nb_pmu_counters_changed(pmu);
    nb_feed_refresh(pmu, NB_FEED_SAMPLING);
}

msr_status nb_pmu_wrmsr(struct nb_pmu *pmu, uint32_t msr, uint64_t value)
{
    uint64_t writable;
    if (!nb_msr_writable(&pmu->config, msr, &writable) || (value & ~writable))
        return MSR_GP;
    nb_pmu_batch_flush(pmu);

    int escr = nb_escr_index(msr);
    int counter;
    if (escr >= 0) {
        write_escr(pmu, escr, value);
    } else if ((counter = nb_cccr_index(msr)) >= 0) {
        if (!nb_cccr_active_thread_ok(&pmu->config, value))
            return MSR_GP;
        write_cccr(pmu, counter, value);
    } else if ((counter = nb_counter_index(msr)) >= 0) {
        /* Bits 63:40 are dropped, not faulted: perfctr writes sign-extended
         * values to P4 counters (docs/semantics.md, "Counters"). */
        pmu->counter[counter] = value & PMU_COUNTER_MASK;
    } else if (msr == MSR_IA32_MISC_ENABLE) {
        pmu->misc_enable = (pmu->misc_enable & MISC_READ_ONLY) | (value & ~MISC_READ_ONLY);
    } else if (msr == MSR_IA32_PEBS_ENABLE) {
        write_pebs_enable(pmu, value);
    } else if (msr == MSR_PEBS_MATRIX_VERT) {
        pmu->pebs_matrix_vert = value;
        nb_feed_refresh(pmu, NB_FEED_TAGGING);
    } else {
        memcpy((char *)pmu + plain_registers[plain_register(msr)].offset, &value, sizeof value);
    }
    return MSR_OK;
}

msr_status nb_pmu_rdpmc(const struct nb_pmu *pmu, uint32_t ecx, uint64_t *value)
{
    const uint32_t fast_read = 1u << 31;
    uint32_t counter = ecx & ~fast_read;
    if (counter >= NB_NUM_COUNTERS)
        return MSR_GP;
    *value = nb_pmu_counter_value(pmu, (int)counter);
    if (ecx & fast_read)
        *value &= NB_LOW32;
    return MSR_OK;
}

void nb_pmu_thread_state(struct nb_pmu *pmu, int thread, bool active, int cpl)
{
    bool cpl_changed = pmu->thread[thread].cpl != cpl;
    pmu->thread[thread] = (struct nb_thread){.active = active, .cpl = (uint8_t)cpl};
    refresh_thread_contexts(pmu);
    if (cpl_changed)
        nb_feed_refresh(pmu, NB_FEED_CONTEXTS);
}

bool nb_pmu_set_thread(struct nb_pmu *pmu, int thread, bool active, int cpl)
{
    int threads = pmu->config.ht ? 2 : 1;
    if (thread < 0 || thread >= threads || cpl < 0 || cpl > 3)
        return false;
    for (struct nb_pmu *p = pmu; p; p = p->next)
        nb_pmu_thread_state(p, thread, active, cpl);
    return true;
}

static void append_occurrence(struct nb_pmu *pmu, int event, uint16_t mask, int thread,
                              uint32_t count)
{
    pmu->occurrences[pmu->n_occurrences++] = (struct nb_occurrence){
        .event = (uint16_t)event,
        .mask = mask,
        .thread = (uint8_t)thread,
        .cpl = {pmu->thread[0].cpl, pmu->thread[1].cpl},
        .context = pmu->thread_context[thread],
        .count = count,
    };
}

/* Doubles the occurrence buffer, then appends; kept out of line so that
 * nb_pmu_event's common path saves no registers. */
__attribute__((noinline)) static bool grow_and_append(struct nb_pmu *pmu, int event,
                                                      uint16_t mask, int thread, uint32_t count)
{
    if (!grow_array(&pmu->occurrences, &pmu->cap_occurrences, pmu->n_occurrences + 1,
                    sizeof *pmu->occurrences, 16))
        return false;
    append_occurrence(pmu, event, mask, thread, count);
    return true;
}

bool nb_pmu_event(struct nb_pmu *pmu, int event, uint16_t mask, int thread, uint32_t count)
{
    if (event < 0 || event >= NB_NUM_EVENTS || thread < 0 || thread > (pmu->config.ht ? 1 : 0))
        return false;
    if (pmu->n_occurrences == pmu->cap_occurrences)
        return grow_and_append(pmu, event, mask, thread, count);
    append_occurrence(pmu, event, mask, thread, count);
    return true;
}

uint64_t nb_pmu_route(const struct nb_pmu *pmu, int event, uint16_t mask, uint8_t context)
{
    uint64_t route = 0;
    if (event < 0 || event >= NB_NUM_EVENTS || context >= ESCR_CONTEXTS)
        return 0;
    for (uint64_t escrs = pmu->selecting[event]; escrs; escrs &= escrs - 1) {
        int e = __builtin_ctzll(escrs);
        if (escr_rules_count(&pmu->escr_rules[e], mask, context))
            route |= 1ull << e;
    }
    return route;
}
