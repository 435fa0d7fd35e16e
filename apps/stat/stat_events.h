/* stat's event strings planned on a simulated machine: the names as
 * `pmubench list` shows them, with or without the PMU prefix, with
 * modifiers, into the fewest runs of the counters (docs/stat.md).
 *
 *   struct alloc_plan plan;
 *   if (stat_events_plan(&model, events, n, false, &plan, error, sizeof error)) {
 *       ... stat_simulate(..., &plan, ...) ...
 *       alloc_plan_free(&plan);
 *   }
 */
#ifndef APPS_STAT_STAT_EVENTS_H
#define APPS_STAT_STAT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "pmu/programming/alloc.h"
#include "sim/machine/machine.h"

/* Plans `n_events` event strings on `model`, for two logical processors
 * when `hyper_threading`: a generic name (perf's "cycles", "branches:u":
 * pmu/catalog/generic_events.h) becomes the event string of the model's PMU that
 * counts it, a string without a PMU prefix gets the model's ("p5::", or
 * the NetBurst CPUID model's: nb_cpuid_model_prefix), each is parsed
 * (event_spec_parse) and the set planned (alloc_plan_make).  The plan
 * depends on the model's PMU and its NetBurst CPUID model
 * (machine_pmu_config) alone.  False with one line in `error`: the
 * parser's, machine_check_events', generic_event_native's for a generic
 * name the PMU has no event for, or "EVENT: WHY" naming the event the
 * allocator refused ("events: WHY" for the set), and errno ENOMEM when
 * memory ran out (a run-time failure), EINVAL otherwise (bad input). */
bool stat_events_plan(const struct machine_config *model, const char *const *events, int n_events,
                      bool hyper_threading, struct alloc_plan *plan, char *error, size_t size);

/* Whether `event` is a generic name that counts another event of `pmu`'s
 * catalog, and that event string (with the modifiers) in `native`: stat's
 * output names both, "cycles (global_power_events:RUNNING)".  False for
 * any other name and for one the PMU has no event for, and for the P5's
 * branches, which is both a generic name and its own event. */
bool stat_events_generic(enum pmu_kind pmu, const char *event, char *native, size_t size);

/* Whether `name` names one of the `n` events again: the same name without
 * its PMU prefix, in any case (as `compare` matches names).  stat counts
 * such an event once, under its first spelling. */
bool stat_events_repeated(const char *const *events, int n, const char *name);

#endif
