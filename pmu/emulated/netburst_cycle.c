/* One cycle of the NetBurst PMU, in the order of docs/semantics.md,
 * "Per-cycle order": detectors, CCCR filters and counters, overflow, PMI
 * delivery, cascade starts.  A cycle touches only what can change: the
 * ESCRs selecting an occurring event, and the enabled counters whose output is
 * non-zero or whose filter acts on a zero output (COMPLEMENT, or an edge
 * history to clear).  Any other enabled counter would add 0 and keep its
 * state.  The model's path (nb_pmu_tick_routed) adds the plain counts in
 * batches ("Batched plain counts" below). */
#include <stddef.h>
#include <string.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/catalog/netburst_metrics.h"
#include "netburst_pmu_state.h"

static unsigned active_threads(const struct nb_pmu *pmu)
{
    return (unsigned)pmu->thread[0].active + (pmu->config.ht ? pmu->thread[1].active : 0);
}

/* Starts the cycle's report: the outputs and the counters' results are
 * cleared; `counted` is rewritten only when the enabled counters change. */
static void start_report(struct nb_pmu *pmu)
{
    struct nb_cycle_outcome *report = &pmu->last;
    memset(report->output, 0, sizeof report->output);
    memset(report->compare, 0,
           offsetof(struct nb_cycle_outcome, counted) - offsetof(struct nb_cycle_outcome, compare));
    if (pmu->counted_mask == pmu->enabled)
        return;
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        report->counted[c] = (pmu->enabled >> c) & 1;
    pmu->counted_mask = pmu->enabled;
}

/* Stage 1 for the occurrences given with nb_pmu_event: each drives the
 * outputs of the ESCRs programmed for its event that count it.  Returns the
 * ESCRs driven. */
static uint64_t detect_occurrences(const struct nb_pmu *pmu, uint8_t output[NB_NUM_ESCRS])
{
    uint64_t driven = 0;
    if (!pmu->detecting)
        return 0;
    for (size_t i = 0; i < pmu->n_occurrences; i++) {
        const struct nb_occurrence *occ = &pmu->occurrences[i];
        for (uint64_t escrs = pmu->selecting[occ->event]; escrs; escrs &= escrs - 1) {
            int e = __builtin_ctzll(escrs);
            if (!escr_rules_count(&pmu->escr_rules[e], occ->mask, occ->context))
                continue;
            escr_output_add(&output[e], occ->count);
            driven |= 1ull << e;
        }
    }
    return driven;
}

/* The enabled counters whose cycle can do something: those reading a
 * driven ESCR, those whose comparison holds on a zero output (COMPLEMENT),
 * and those whose edge history must fall back to false. */
static uint32_t due_counters(const struct nb_pmu *pmu, uint64_t driven)
{
    uint32_t due = pmu->complemented | (pmu->edge_high & pmu->enabled);
    for (; driven; driven &= driven - 1)
        due |= pmu->escr_readers[__builtin_ctzll(driven)];
    return due;
}

/* Stage 2: the increment the counter's CCCR makes of its output.  Without
 * COMPARE it is the output while ACTIVE_THREAD lets the counter count; with
 * it, 0 or 1 from the comparison (*compare), the edge history and
 * ACTIVE_THREAD. */
static unsigned filter(struct nb_pmu *pmu, int c, const uint8_t output[NB_NUM_ESCRS],
                       unsigned threads, bool *compare)
{
    int escr = pmu->cccr_escr[c];
    unsigned value = escr >= 0 ? output[escr] : 0;
    if (pmu->plain >> c & 1)
        return pmu->gate_open[threads] >> c & 1 ? value : 0;
    struct cccr_filter_out out =
        cccr_rules_filter(&pmu->cccr_rules[c], value, threads, &pmu->edge_history[c]);
    pmu->edge_high = (pmu->edge_high & ~(1u << c)) | (uint32_t)out.compare << c;
    *compare = out.compare;
    return out.increment;
}

/* An overflow with OVF_PMI arms a PMI for those threads.  On IQ_COUNTER4,
 * for a thread IA32_PEBS_ENABLE enables PEBS, it arms the PEBS microassist
 * instead: the retirement logic then waits for the next tagged uop, and the
 * interrupt comes from the buffer's threshold (Sprunt 2002, "Precise
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
    if (pmu->pmi_armed[c])
        pmu->armed |= 1u << c;
}

/* Stage 4: an overflow (a carry out of bit 39, or any increment with
 * FORCE_OVF) sets the sticky OVF flag and arms a new PMI. */
static void overflow(struct nb_pmu *pmu, int c)
{
    pmu->cccr[c] |= CCCR_OVF;
    arm_on_overflow(pmu, c);
}

/* Stages 3-4 for a non-zero increment: the counter adds it; a PMI armed by
 * an earlier overflow is delivered on this next increment ("the PMI is
 * generated on the next event count after the counter has overflowed",
 * SDM 18.18.3), *pmi getting its threads; then an overflow.  Returns
 * whether the counter overflowed. */
static bool add_increment(struct nb_pmu *pmu, int c, unsigned increment, uint8_t *pmi)
{
    if (pmu->pmi_armed[c]) {
        *pmi = pmu->pmi_armed[c];
        nb_pmu_note_pmi(pmu, pmu->pmi_armed[c], false);
        pmu->pmi_armed[c] = 0;
        pmu->armed &= ~(1u << c);
    }
    uint64_t sum = pmu->counter[c] + increment;
    pmu->counter[c] = sum & PMU_COUNTER_MASK;
    if (sum <= PMU_COUNTER_MASK && !(pmu->cccr[c] & CCCR_FORCE_OVF))
        return false;
    overflow(pmu, c);
    return true;
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

/* The end of every cycle: cascade starts, then the PMI of a PEBS record
 * that reached the interrupt threshold this cycle. */
static inline void end_cycle(struct nb_pmu *pmu, uint32_t overflowed)
{
    if (overflowed)
        start_cascaded(pmu, overflowed);
    pmu->last.pebs_pmi = pmu->pebs_pmi_raised;
    if (pmu->pebs_pmi_raised) {
        nb_pmu_note_pmi(pmu, pmu->pebs_pmi_raised, true);
        pmu->pebs_pmi_raised = 0;
    }
    pmu->n_occurrences = 0;
    pmu->cycles++;
    if (pmu->observer)
        pmu->observer(pmu->observer_context, pmu);
}

/* Stages 2-4 of one counter, with its results in pmu->last; returns
 * whether it overflowed. */
static bool count_reported(struct nb_pmu *pmu, int c, unsigned threads)
{
    struct nb_cycle_outcome *report = &pmu->last;
    unsigned increment = filter(pmu, c, report->output, threads, &report->compare[c]);
    report->increment[c] = (uint8_t)increment;
    if (increment == 0)
        return false;
    report->overflow[c] = add_increment(pmu, c, increment, &report->pmi[c]);
    return report->overflow[c];
}

void nb_pmu_tick(struct nb_pmu *pmu)
{
    nb_pmu_batch_flush(pmu); /* the report gives every counter's increment */
    start_report(pmu);
    uint32_t due = due_counters(pmu, detect_occurrences(pmu, pmu->last.output));
    unsigned threads = active_threads(pmu);
    uint32_t overflowed = 0;
    for (; due; due &= due - 1) {
        int c = __builtin_ctz(due);
        overflowed |= (uint32_t)count_reported(pmu, c, threads) << c;
    }
    end_cycle(pmu, overflowed);
}

/* ---- Batched plain counts
 *
 * A counter without COMPARE adds its ESCR's output every cycle; one that
 * also has no FORCE_OVF and no armed PMI, whose ACTIVE_THREAD lets it
 * count with the logical processors active now, and which cannot carry
 * out of bit 39 within BATCH_WINDOW cycles of outputs (at most 15 each)
 * changes nothing but its own value, cycle after cycle.  Such counters
 * are batched: nb_pmu_tick_routed adds the outputs of the ESCRs they read
 * into each ESCR's 16-bit sum (once, whatever the readers), and the sums go
 * into the registers at a flush: every BATCH_WINDOW cycles, before any
 * register write, a change of the counters' derived state (a cascade
 * start), a PEBS assist's counter reset, nb_pmu_tick or a fast-forward,
 * and whenever the number of active logical processors differs from the
 * one the batch was chosen for.  Reads add the sum (nb_pmu_counter_value).
 * The other counters are ticked cycle by cycle. */
enum { BATCH_WINDOW = 4096 };
_Static_assert(ESCR_OUTPUT_MAX * BATCH_WINDOW <= UINT16_MAX, "a window's outputs fit a 16-bit sum");

void nb_pmu_batch_flush(struct nb_pmu *pmu)
{
    if (!pmu->batch_chosen)
        return;
    for (uint32_t left = pmu->batched; left; left &= left - 1) {
        int c = __builtin_ctz(left);
        pmu->counter[c] = nb_pmu_counter_value(pmu, c) & PMU_COUNTER_MASK;
    }
    memset(pmu->batch_sum, 0, sizeof pmu->batch_sum);
    pmu->batched = 0;
    pmu->batch_chosen = false;
    pmu->batch_cycles = 0;
}

/* Chooses the counters to batch with `threads` logical processors active. */
static void batch_choose(struct nb_pmu *pmu, unsigned threads)
{
    nb_pmu_batch_flush(pmu);
    uint32_t candidates = pmu->plain & pmu->gate_open[threads] & ~pmu->forced & ~pmu->armed;
    pmu->batch_escrs = pmu->unbatched_escrs = 0;
    for (uint32_t left = pmu->enabled; left; left &= left - 1) {
        int c = __builtin_ctz(left);
        int escr = pmu->cccr_escr[c];
        if (escr < 0)
            continue;
        bool room = pmu->counter[c] <= PMU_COUNTER_MASK - (uint64_t)ESCR_OUTPUT_MAX * BATCH_WINDOW;
        if ((candidates >> c & 1) && room) {
            pmu->batched |= 1u << c;
            pmu->batch_escrs |= 1ull << escr;
        } else {
            pmu->unbatched_escrs |= 1ull << escr;
        }
    }
    pmu->batch_chosen = true;
    pmu->batch_threads = (uint8_t)threads;
}

/* Adds the outputs of the driven ESCRs `escrs` to their sums. */
static void batch_add(struct nb_pmu *pmu, uint64_t escrs, const uint8_t output[NB_NUM_ESCRS])
{
    for (; escrs; escrs &= escrs - 1) {
        int e = __builtin_ctzll(escrs);
        pmu->batch_sum[e] = (uint16_t)(pmu->batch_sum[e] + output[e]);
    }
}

/* The counters only their output can change (no COMPARE, no FORCE_OVF, no
 * armed PMI, ACTIVE_THREAD letting them count) add it.  Such a counter is
 * due only as the reader of a driven ESCR, so it has one.  Returns the
 * counters that overflowed. */
static uint32_t count_plain(struct nb_pmu *pmu, uint32_t counters, const uint8_t output[NB_NUM_ESCRS])
{
    uint32_t overflowed = 0;
    for (; counters; counters &= counters - 1) {
        int c = __builtin_ctz(counters);
        uint64_t sum = pmu->counter[c] + output[pmu->cccr_escr[c]];
        pmu->counter[c] = sum & PMU_COUNTER_MASK;
        if (sum > PMU_COUNTER_MASK) {
            overflow(pmu, c);
            overflowed |= 1u << c;
        }
    }
    return overflowed;
}

/* Stages 2-4 of the counters with COMPARE and neither FORCE_OVF nor an
 * armed PMI: the filter's increment is 0 or 1.  Returns the counters that
 * overflowed. */
static uint32_t count_compared(struct nb_pmu *pmu, uint32_t counters,
                               const uint8_t output[NB_NUM_ESCRS], unsigned threads)
{
    uint32_t overflowed = 0;
    for (; counters; counters &= counters - 1) {
        int c = __builtin_ctz(counters);
        int escr = pmu->cccr_escr[c];
        struct cccr_filter_out out = cccr_rules_filter(
            &pmu->cccr_rules[c], escr >= 0 ? output[escr] : 0, threads, &pmu->edge_history[c]);
        pmu->edge_high = (pmu->edge_high & ~(1u << c)) | (uint32_t)out.compare << c;
        if (out.increment && ++pmu->counter[c] > PMU_COUNTER_MASK) {
            pmu->counter[c] = 0;
            overflow(pmu, c);
            overflowed |= 1u << c;
        }
    }
    return overflowed;
}

/* Stages 2-4 of the due counters with FORCE_OVF or an armed PMI,
 * unreported; returns those that overflowed. */
static uint32_t count_filtered(struct nb_pmu *pmu, uint32_t counters,
                               const uint8_t output[NB_NUM_ESCRS], unsigned threads)
{
    uint32_t overflowed = 0;
    for (; counters; counters &= counters - 1) {
        int c = __builtin_ctz(counters);
        bool compare;
        uint8_t pmi;
        unsigned increment = filter(pmu, c, output, threads, &compare);
        if (increment && add_increment(pmu, c, increment, &pmi))
            overflowed |= 1u << c;
    }
    return overflowed;
}

/* The due counters fall in three groups by what their cycle can do: see
 * count_plain, count_compared and count_filtered.  A counter without
 * COMPARE whose ACTIVE_THREAD stops it this cycle is in none: it would
 * add 0. */
/* The model's cycle observed: as nb_pmu_tick, with the outputs routed to
 * the ESCRs and the occurrences given, every due counter reported. */
static void tick_observed(struct nb_pmu *pmu, struct nb_escr_outputs *outputs, bool current)
{
    nb_pmu_batch_flush(pmu);
    start_report(pmu);
    if (current)
        memcpy(pmu->last.output, outputs->output, sizeof pmu->last.output);
    uint64_t driven = (current ? outputs->driven : 0) | detect_occurrences(pmu, pmu->last.output);
    uint32_t due = due_counters(pmu, driven);
    unsigned threads = active_threads(pmu);
    uint32_t overflowed = 0;
    for (; due; due &= due - 1) {
        int c = __builtin_ctz(due);
        overflowed |= (uint32_t)count_reported(pmu, c, threads) << c;
    }
    memset(outputs->output, 0, sizeof outputs->output);
    outputs->driven = 0;
    outputs->generation = 0;
    end_cycle(pmu, overflowed);
}

void nb_pmu_observe(struct nb_pmu *pmu, nb_pmu_observer *observer, void *context)
{
    pmu->observer = observer;
    pmu->observer_context = context;
}

uint64_t nb_pmu_tick_idle(struct nb_pmu *pmu, uint64_t n)
{
    uint32_t due = (pmu->complemented | (pmu->edge_high & pmu->enabled)) & ~pmu->batched;
    /* Not while PMUs are linked: each would have to be idle too. */
    if (pmu->next || pmu->observer || pmu->n_occurrences || pmu->pebs_pmi_raised || due ||
        !pmu->batch_chosen || active_threads(pmu) != pmu->batch_threads)
        return 0;
    /* The batch window ends as cycle by cycle: its flush, then a new choice. */
    uint64_t left = BATCH_WINDOW - pmu->batch_cycles;
    if (n > left)
        n = left;
    pmu->batch_cycles += (uint32_t)n;
    if (pmu->batch_cycles == BATCH_WINDOW)
        nb_pmu_batch_flush(pmu);
    pmu->last.pebs_pmi = 0;
    pmu->cycles += n;
    return n;
}

static bool tick_routed(struct nb_pmu *pmu, struct nb_escr_outputs *outputs)
{
    bool current = !outputs->generation ||
                   (pmu->feed && outputs->generation == pmu->feed->generation);
    if (pmu->observer) {
        tick_observed(pmu, outputs, current);
        return current;
    }
    if (!current)
        memset(outputs->output, 0, sizeof outputs->output);
    uint64_t driven = (current ? outputs->driven : 0) | detect_occurrences(pmu, outputs->output);
    unsigned threads = active_threads(pmu);
    if (!pmu->batch_chosen || threads != pmu->batch_threads)
        batch_choose(pmu, threads);
    uint32_t due = due_counters(pmu, driven & pmu->unbatched_escrs) & ~pmu->batched;
    if (driven & pmu->batch_escrs)
        batch_add(pmu, driven & pmu->batch_escrs, outputs->output);
    if (++pmu->batch_cycles == BATCH_WINDOW)
        nb_pmu_batch_flush(pmu);
    uint32_t special = pmu->forced | pmu->armed;
    uint32_t overflowed =
        count_plain(pmu, due & pmu->plain & pmu->gate_open[threads] & ~special, outputs->output) |
        count_compared(pmu, due & ~pmu->plain & ~special, outputs->output, threads) |
        count_filtered(pmu, due & special, outputs->output, threads);
    if (driven)
        memset(outputs->output, 0, sizeof outputs->output);
    outputs->driven = 0;
    outputs->generation = 0;
    end_cycle(pmu, overflowed);
    return current;
}

bool nb_pmu_tick_routed(struct nb_pmu *pmu, struct nb_escr_outputs *outputs)
{
    bool current = tick_routed(pmu, outputs);
    for (struct nb_pmu *linked = pmu->next; linked; linked = linked->next)
        current = tick_routed(linked, &linked->routed) && current;
    return current && !pmu->links_refused;
}

/* ---- Fast-forward over cycles without occurrences */

static bool delivers_pmi(const struct nb_cycle_outcome *report)
{
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        if (report->pmi[c])
            return true;
    return report->pebs_pmi != 0;
}

static bool same_pending(const struct nb_pending_pmi *a, const struct nb_pending_pmi *b)
{
    for (int t = 0; t < 2; t++)
        if (a[t].pending != b[t].pending || a[t].since != b[t].since ||
            a[t].precise != b[t].precise)
            return false;
    return true;
}

/* Whether the cycle `next` ran from `now` repeated the cycle before: the
 * same pmu->last and no change but the counters' (*increment gets them)
 * and the cycle count, in anything a cycle writes: the report, the CCCRs
 * (OVF, a cascade's ENABLE, and through them the derived counter sets),
 * edge histories, armed and pending PMIs, PEBS arming.  The functions
 * above write nothing else. */
static bool repeats(const struct nb_pmu *now, const struct nb_pmu *next,
                    uint64_t increment[NB_NUM_COUNTERS])
{
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        increment[c] = (next->counter[c] - now->counter[c]) & PMU_COUNTER_MASK;
    return memcmp(&next->last, &now->last, sizeof now->last) == 0 && /* bytes, no padding */
           memcmp(next->cccr, now->cccr, sizeof now->cccr) == 0 &&
           memcmp(next->edge_history, now->edge_history, sizeof now->edge_history) == 0 &&
           memcmp(next->pmi_armed, now->pmi_armed, sizeof now->pmi_armed) == 0 &&
           next->edge_high == now->edge_high && next->armed == now->armed &&
           next->counted_mask == now->counted_mask && next->pebs_armed == now->pebs_armed &&
           next->pebs_pmi_raised == now->pebs_pmi_raised &&
           same_pending(next->pending, now->pending);
}

/* The idle cycles that can run before a counter without FORCE_OVF
 * overflows (at most `n`): the overflow's cycle runs on its own. */
static uint64_t before_overflow(const struct nb_pmu *pmu, const uint64_t *increment, uint64_t n)
{
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        if (increment[c] && !(pmu->cccr[c] & CCCR_FORCE_OVF)) {
            uint64_t room = (PMU_COUNTER_MASK - pmu->counter[c]) / increment[c];
            n = room < n ? room : n;
        }
    return n;
}

uint64_t nb_pmu_fast_forward(struct nb_pmu *pmu, uint64_t n, bool frozen)
{
    nb_pmu_batch_flush(pmu);
    if (n == 0 || pmu->observer || pmu->n_occurrences || pmu->pebs_pmi_raised ||
        delivers_pmi(&pmu->last))
        return 0;
    struct nb_pmu next;
    uint64_t increment[NB_NUM_COUNTERS];
    memcpy(&next, pmu, sizeof next);
    next.feed = NULL;   /* the trial must not touch the model's feed */
    nb_pmu_tick(&next); /* nor anything else outside the struct: no occurrences */
    if (!repeats(pmu, &next, increment))
        return 0;
    uint64_t changing = 0;
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        changing |= increment[c];
    uint64_t run = frozen && changing ? 0 : before_overflow(pmu, increment, n);
    /* Wrapping arithmetic: 2^40 divides 2^64, so FORCE_OVF counters wrap right. */
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        pmu->counter[c] = (pmu->counter[c] + run * increment[c]) & PMU_COUNTER_MASK;
    pmu->cycles += run;
    return run;
}
