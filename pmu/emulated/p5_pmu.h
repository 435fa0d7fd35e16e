/* The simulated P5 (Pentium) PMU, with the registers of p5_msrs.h.
 * docs/semantics.md, "P5"; what a model reports to it:
 * docs/pmu-interface.md. */
#ifndef PMU_EMULATED_P5_PMU_H
#define PMU_EMULATED_P5_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/programming/msr.h"
#include "pmu/catalog/p5_events.h"
#include "pmu/catalog/p5_msrs.h"

/* How many event codes there are: they are 6 bits. */
enum { P5_NUM_CODES = 64 };

/* Opaque outside pmu/ (pmu/emulated/p5_pmu_state.h). */
struct p5_pmu;

msr_status p5_pmu_rdmsr(const struct p5_pmu *pmu, uint32_t msr, uint64_t *value);
msr_status p5_pmu_wrmsr(struct p5_pmu *pmu, uint32_t msr, uint64_t value);

/* Cycles completed since reset (the TSC counts them too, but is writable). */
uint64_t p5_pmu_cycles(const struct p5_pmu *pmu);
/* The current privilege level, 0-3 (3 at reset). */
int p5_pmu_cpl(const struct p5_pmu *pmu);
/* What counter 0 or 1 added in the last cycle completed (the waveform's
 * `increment`). */
uint64_t p5_pmu_last_increment(const struct p5_pmu *pmu, int counter);

/* ---- What happens, as a timing model (sim/p5) and a bench script's
 * `thread`, `event` and `tick` (bench/script_run.c) report it.  They
 * report only that; the PMU alone applies the CESR: event or clock counting
 * (CC bit 2), the privilege levels (CC bits 1:0), the duration events, the
 * increments, the TSC. */

/* Each of these reports to the PMU it is given and to every PMU linked
 * after it (p5_pmu_link), each counting under its own CESR. */

/* The privilege level of what happens from now on; false (and no change)
 * outside 0-3. */
bool p5_pmu_set_cpl(struct p5_pmu *pmu, int cpl);

/* `count` occurrences of the event with code `code` (its low 6 bits) at
 * the current CPL, in the current cycle.  They count under the CESR in
 * force now: a counter selecting `code` with CC enabling events at this
 * CPL adds them when the cycle ends. */
void p5_pmu_event(struct p5_pmu *pmu, unsigned code, uint32_t count);

/* An observer of the PMU's cycles (a waveform: pmu/waveform/), called
 * with the PMU at the end of every cycle it completes (p5_pmu_ticks then
 * runs its cycles one by one); NULL: none.  A model's batch of reports
 * (pmu/emulated/p5_pmu_batch.h) made after it is set reports each run of
 * cycles as it comes. */
typedef void p5_pmu_observer(void *context, const struct p5_pmu *pmu);
void p5_pmu_observe(struct p5_pmu *pmu, p5_pmu_observer *observer, void *context);
bool p5_pmu_observed(const struct p5_pmu *pmu);

/* Ends the current cycle: the TSC and both counters advance. */
void p5_pmu_tick(struct p5_pmu *pmu);

/* The set of codes for p5_pmu_ticks()' `holding`. */
static inline uint64_t p5_code_bit(enum p5_event_code code)
{
    return 1ull << code;
}

/* Ends the current cycle and the n - 1 after it (nothing when n is 0), in
 * which nothing occurs but the duration events of `holding` (codes as
 * p5_code_bit() sets them; an occurrence event there counts nothing), which
 * hold in all n: the same as, cycle after cycle, p5_pmu_event(code, 1) for
 * each of them and p5_pmu_tick(), in one step. */
void p5_pmu_ticks(struct p5_pmu *pmu, uint64_t n, uint64_t holding);

/* What the PMU counts now, published for a model's fast path: the PMU
 * rewrites it itself on every CESR write and CPL change (its own or a
 * linked PMU's), so that it is exact whatever the caller does; a model
 * reads it only through p5_feed_counts(). */
struct p5_feed {
    uint64_t counted; /* bit n: an occurrence of code n reported now would count, in this
                       * PMU or one linked after it */
};

/* The PMU's feed, valid as long as the PMU. */
const struct p5_feed *p5_pmu_feed(const struct p5_pmu *pmu);

/* Whether an occurrence of `code` reported now would count: a model may
 * skip the work of finding, and of reporting, occurrences that would not. */
static inline bool p5_feed_counts(const struct p5_feed *feed, unsigned code)
{
    return (feed->counted >> (code & (P5_NUM_CODES - 1))) & 1;
}

/* Fast-forward (the bench's `tick N`): with no counted occurrences in the
 * current cycle, ends the `n` cycles without any that come next at once
 * and returns n; 0 when occurrences are pending.  With `frozen` (a waveform
 * records every change), only when such a cycle changes neither counter nor
 * last increment.  Of every linked PMU. */
uint64_t p5_pmu_fast_forward(struct p5_pmu *pmu, uint64_t n, bool frozen);

/* ---- One model, several PMUs: every run of an allocator plan counted in
 * one pass of a trace (docs/stat.md, "One pass").  Each PMU keeps its own
 * registers, programmed and read through its own backend; only the
 * occurrences, cycles and CPL are shared. */

/* Links `follower` after the last PMU linked after `pmu`: from then on,
 * what is reported to `pmu` (the functions above) is reported to
 * `follower` too, and pmu's feed counts what follower counts.  The follower
 * takes pmu's CPL.  False, and nothing linked, when `follower` is linked
 * already (before or after another PMU) or is `pmu`. */
bool p5_pmu_link(struct p5_pmu *pmu, struct p5_pmu *follower);

/* Takes `pmu` out of its chain, joining the PMUs before and after it;
 * destroying a P5 backend does. */
void p5_pmu_unlink(struct p5_pmu *pmu);

struct msr_backend *p5_backend_create(void);
struct p5_pmu *p5_backend_pmu(struct msr_backend *backend);

#endif
