/* One cycle of the NetBurst PMU, in the order of docs/semantics.md,
 * "Per-cycle order": detectors, CCCR filters and counters, overflow, PMI
 * delivery, cascade starts.  A cycle touches only what can change: the
 * ESCRs selecting an occurring event, and the enabled counters whose bus is
 * non-zero or whose filter acts on a zero bus (COMPLEMENT, or an edge
 * history to clear).  Any other enabled counter would add 0 and keep its
 * state. */
#include <stddef.h>
#include <string.h>

#include "netburst_events.h"
#include "netburst_fields.h"
#include "netburst_metrics.h"
#include "netburst_pmu.h"

static unsigned active_threads(const struct nb_pmu *pmu)
{
    return (unsigned)pmu->thread[0].active + (pmu->config.ht ? pmu->thread[1].active : 0);
}

/* Starts the cycle's report: the buses carry what was driven ahead
 * (nb_pmu_drive), the counters' results are cleared; `counted` is
 * rewritten only when the enabled counters change. */
static void start_report(struct nb_pmu *pmu)
{
    struct nb_cycle_report *report = &pmu->last;
    if (pmu->driven) {
        memcpy(report->bus, pmu->driving, sizeof report->bus);
        memset(pmu->driving, 0, sizeof pmu->driving);
    } else {
        memset(report->bus, 0, sizeof report->bus);
    }
    memset(report->compare, 0,
           offsetof(struct nb_cycle_report, counted) - offsetof(struct nb_cycle_report, compare));
    if (pmu->counted_mask == pmu->enabled)
        return;
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        report->counted[c] = (pmu->enabled >> c) & 1;
    pmu->counted_mask = pmu->enabled;
}

/* Stage 1: every occurrence drives the buses of the ESCRs programmed for
 * its event (those driven ahead already have).  Returns the enabled
 * counters whose cycle can do something: those reading a driven ESCR,
 * those whose comparison holds on a zero bus (COMPLEMENT), and those whose
 * edge history must fall back to false. */
static uint32_t run_detectors(struct nb_pmu *pmu, uint8_t bus[NB_NUM_ESCRS])
{
    uint32_t due = pmu->complemented | (pmu->edge_high & pmu->enabled);
    for (uint64_t driven = pmu->driven; driven; driven &= driven - 1)
        due |= pmu->escr_readers[__builtin_ctzll(driven)];
    pmu->driven = 0;
    if (!pmu->detecting)
        return due;
    for (size_t i = 0; i < pmu->n_occurrences; i++) {
        const struct nb_occurrence *occ = &pmu->occurrences[i];
        for (uint64_t escrs = pmu->selecting[occ->event]; escrs; escrs &= escrs - 1) {
            int e = __builtin_ctzll(escrs);
            if (!escr_rules_count(&pmu->escr_rules[e], occ->mask, occ->context))
                continue;
            escr_bus_add(&bus[e], occ->count);
            due |= pmu->escr_readers[e];
        }
    }
    return due;
}

/* An overflow with OVF_PMI arms a PMI for those threads.  On IQ_COUNTER4,
 * for a thread IA32_PEBS_ENABLE enables PEBS, it arms the PEBS microassist
 * instead: the retirement logic then waits for the next tagged uop, and the
 * interrupt comes from the buffer's threshold (seed 002, "Precise
 * event-based sampling"; SDM 18.18.8). */
static void arm_on_overflow(struct nb_pmu *pmu, int c)
{
    uint8_t threads = cccr_pmi_threads(pmu->cccr[c]);
    if (c == NB_PEBS_COUNTER) {
        uint8_t precise = threads & pmu->pebs_threads;
        pmu->pebs_armed |= precise;
        threads &= (uint8_t)~precise;
    }
    pmu->pmi_armed[c] |= threads;
}

/* Stages 2-4 once the filter has given the increment: the counter adds
 * it; a PMI armed by an earlier overflow is delivered on this next
 * increment ("the PMI is generated on the next event count after the
 * counter has overflowed", SDM 18.18.3); an overflow (a carry out of bit
 * 39, or any increment with FORCE_OVF) sets the sticky OVF flag and arms a
 * new one.  Returns whether the counter overflowed. */
static bool add_increment(struct nb_pmu *pmu, int c, unsigned increment)
{
    struct nb_cycle_report *report = &pmu->last;
    report->increment[c] = (uint8_t)increment;
    if (increment == 0)
        return false;
    if (pmu->pmi_armed[c]) {
        report->pmi[c] = pmu->pmi_armed[c];
        nb_pmu_note_pmi(pmu, pmu->pmi_armed[c]);
        pmu->pmi_armed[c] = 0;
    }
    uint64_t sum = pmu->counter[c] + increment;
    pmu->counter[c] = sum & PMU_COUNTER_MASK;
    if (sum <= PMU_COUNTER_MASK && !(pmu->cccr[c] & CCCR_FORCE_OVF))
        return false;
    report->overflow[c] = true;
    pmu->cccr[c] |= CCCR_OVF;
    arm_on_overflow(pmu, c);
    return true;
}

/* Stage 2 for a counter with COMPARE: the comparison, the edge history and
 * ACTIVE_THREAD decide an increment of 0 or 1. */
static unsigned compare_one(struct nb_pmu *pmu, int c, unsigned bus, unsigned threads)
{
    struct cccr_filter_out out =
        cccr_rules_filter(&pmu->cccr_rules[c], bus, threads, &pmu->edge_history[c]);
    pmu->last.compare[c] = out.compare;
    pmu->edge_high = (pmu->edge_high & ~(1u << c)) | (uint32_t)out.compare << c;
    return out.increment;
}

/* Stage 2: filters the counter's bus through its CCCR (without COMPARE the
 * increment is the bus while ACTIVE_THREAD lets it count); returns whether
 * the counter overflowed. */
static bool count_one(struct nb_pmu *pmu, int c, unsigned threads)
{
    int escr = pmu->cccr_escr[c];
    unsigned bus = escr >= 0 ? pmu->last.bus[escr] : 0;
    unsigned increment;
    if (pmu->plain >> c & 1)
        increment = pmu->gate_open[threads] >> c & 1 ? bus : 0;
    else
        increment = compare_one(pmu, c, bus, threads);
    return add_increment(pmu, c, increment);
}

/* Stage 5: a waiting counter is started by its source's overflow; the
 * hardware sets its ENABLE bit, so it counts from the next cycle. */
static void start_cascaded(struct nb_pmu *pmu, uint32_t overflowed)
{
    bool started = false;
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        uint64_t cccr = pmu->cccr[c];
        if (cccr & CCCR_ENABLE)
            continue;
        bool by_cascade = (cccr & CCCR_CASCADE) && (nb_cascade_sources(c) & overflowed);
        bool by_extended = (cccr & CCCR_EXTENDED_CASCADE) &&
                           (nb_extended_cascade_sources(c) & overflowed);
        if (by_cascade || by_extended) {
            pmu->cccr[c] = cccr | CCCR_ENABLE;
            started = true;
        }
    }
    if (started)
        nb_pmu_counters_changed(pmu);
}

void nb_pmu_tick(struct nb_pmu *pmu)
{
    start_report(pmu);
    uint32_t due = run_detectors(pmu, pmu->last.bus);

    unsigned threads = active_threads(pmu);
    uint32_t overflowed = 0;
    for (; due; due &= due - 1) {
        int c = __builtin_ctz(due);
        overflowed |= (uint32_t)count_one(pmu, c, threads) << c;
    }
    if (overflowed)
        start_cascaded(pmu, overflowed);
    /* A PEBS record that reached the interrupt threshold this cycle. */
    if (pmu->pebs_pmi_raised) {
        pmu->last.pebs_pmi = pmu->pebs_pmi_raised;
        nb_pmu_note_pmi(pmu, pmu->pebs_pmi_raised);
        pmu->pebs_pmi_raised = 0;
    }

    pmu->n_occurrences = 0;
    pmu->cycles++;
}
