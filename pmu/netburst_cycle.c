/* One cycle of the NetBurst PMU, in the order of docs/semantics.md,
 * "Per-cycle order": detectors, CCCR filters and counters, overflow, PMI
 * delivery, cascade starts. */
#include <string.h>

#include "cccr_filter.h"
#include "escr_detector.h"
#include "netburst_events.h"
#include "netburst_fields.h"
#include "netburst_pmu.h"

static unsigned active_threads(const struct nb_pmu *pmu)
{
    return (unsigned)pmu->thread[0].active + (pmu->config.ht ? pmu->thread[1].active : 0);
}

/* Stage 1: every occurrence drives the buses of the ESCRs programmed for
 * its event. */
static void run_detectors(struct nb_pmu *pmu, uint8_t bus[NB_NUM_ESCRS])
{
    for (uint64_t left = pmu->detecting; left; left &= left - 1) {
        int e = __builtin_ctzll(left);
        int event = pmu->escr_event[e];
        for (size_t i = 0; i < pmu->n_occurrences; i++)
            if (pmu->occurrences[i].event == event)
                escr_detect(pmu->escr[e], &pmu->occurrences[i], pmu->escr_ti_mask[e],
                            pmu->config.ht, &bus[e]);
    }
}

/* Stage 2: filter the bus and add to the counter; returns whether the
 * counter overflowed. */
static bool count_one(struct nb_pmu *pmu, int c, unsigned threads)
{
    struct nb_cycle_report *report = &pmu->last;
    uint64_t cccr = pmu->cccr[c];
    int escr = pmu->cccr_escr[c];
    unsigned bus = escr >= 0 ? report->bus[escr] : 0;

    struct cccr_filter_out out = cccr_filter(cccr, bus, threads, &pmu->edge_history[c]);
    report->counted[c] = true;
    report->compare[c] = out.compare;
    report->increment[c] = (uint8_t)out.increment;
    if (out.increment == 0)
        return false;

    uint64_t sum = pmu->counter[c] + out.increment;
    pmu->counter[c] = sum & PMU_COUNTER_MASK;
    bool carried_out = sum > PMU_COUNTER_MASK;
    return carried_out || (cccr & CCCR_FORCE_OVF);
}

/* Stage 3-4: a PMI armed by an earlier overflow is delivered on the
 * counter's next increment ("the PMI is generated on the next event count
 * after the counter has overflowed", SDM 18.18.3); this cycle's overflow
 * sets the sticky OVF flag and arms a new one. */
static void overflow_and_pmi(struct nb_pmu *pmu, int c, bool overflowed)
{
    struct nb_cycle_report *report = &pmu->last;
    if (pmu->pmi_armed[c] && report->increment[c] > 0) {
        report->pmi[c] = pmu->pmi_armed[c];
        pmu->pmi_armed[c] = 0;
    }
    if (!overflowed)
        return;
    report->overflow[c] = true;
    pmu->cccr[c] |= CCCR_OVF;
    pmu->pmi_armed[c] |= cccr_pmi_threads(pmu->cccr[c]);
}

/* Stage 5: a waiting counter is started by its source's overflow; the
 * hardware sets its ENABLE bit, so it counts from the next cycle. */
static void start_cascaded(struct nb_pmu *pmu, uint32_t overflowed)
{
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        uint64_t cccr = pmu->cccr[c];
        if (cccr & CCCR_ENABLE)
            continue;
        bool by_cascade = (cccr & CCCR_CASCADE) && (nb_cascade_sources(c) & overflowed);
        bool by_extended = (cccr & CCCR_EXTENDED_CASCADE) &&
                           (nb_extended_cascade_sources(c) & overflowed);
        if (by_cascade || by_extended)
            pmu->cccr[c] = cccr | CCCR_ENABLE;
    }
}

void nb_pmu_tick(struct nb_pmu *pmu)
{
    struct nb_cycle_report *report = &pmu->last;
    memset(report, 0, sizeof *report);
    run_detectors(pmu, report->bus);

    unsigned threads = active_threads(pmu);
    uint32_t overflowed = 0;
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        if (!(pmu->cccr[c] & CCCR_ENABLE))
            continue;
        bool overflow = count_one(pmu, c, threads);
        overflow_and_pmi(pmu, c, overflow);
        if (overflow)
            overflowed |= 1u << c;
    }
    if (overflowed)
        start_cascaded(pmu, overflowed);

    pmu->n_occurrences = 0;
    pmu->cycles++;
}
