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
#ifndef SIM_STAT_STAT_EVENTS_H
#define SIM_STAT_STAT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "pmu/alloc.h"
#include "sim/stat/stat_model.h"

/* Plans `n_events` event strings on `model`, for two logical processors
 * when `hyper_threading`: a string without a PMU prefix gets the model's
 * ("p5::", or the NetBurst CPUID model's: nb_model_prefix), each is parsed
 * (event_spec_parse) and the set planned (alloc_plan_make).  The plan
 * depends on the model's PMU and its NetBurst CPUID model
 * (model->netburst.model) alone.  False with one line in `error`: the
 * parser's, stat_model_check_events', or "EVENT: WHY" naming the event the
 * allocator refused ("events: WHY" for the set), and errno ENOMEM when
 * memory ran out (a run-time failure), EINVAL otherwise (bad input). */
bool stat_events_plan(const struct stat_model *model, const char *const *events, int n_events,
                      bool hyper_threading, struct alloc_plan *plan, char *error, size_t size);

/* Whether `name` names one of the `n` events again: the same name without
 * its PMU prefix, in any case (as `compare` matches names).  stat counts
 * such an event once, under its first spelling. */
bool stat_events_repeated(const char *const *events, int n, const char *name);

#endif
