/* The simulated machines by name, as `-m MODEL` names them in stat and
 * sample: "p5", "host" (the P5 with this machine's caches), "netburst"
 * (NBM_DEFAULT_PRESET) and "netburst-PRESET"; and what each can run. */
#ifndef SIM_STAT_MODEL_H
#define SIM_STAT_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "pmu/event_spec.h"
#include "sim/netburst/nb_model.h"
#include "sim/p5/p5_model.h"
#include "traces/trace.h"

/* The P5 model or the NetBurst model, each with its parameters. */
struct stat_model {
    enum pmu_kind pmu;
    struct p5_config p5;
    struct nbm_config netburst;
};

/* Fills `model` with the machine `name` names; false with a one-line
 * error listing the names otherwise. */
bool stat_model_choose(const char *name, struct stat_model *model, char *error, size_t size);

/* The same for a command counting `events` (event strings): a bare
 * "netburst" takes the preset of the CPUID model the strings' prefixes
 * choose (event_spec_model: a netburst_p:: string chooses Prescott, as in
 * encode and alloc). */
bool stat_model_choose_for(const char *name, const char *const *events, int n_events,
                           struct stat_model *model, char *error, size_t size);

/* False with "'EVENT': not an event of the model's PMU (-m)" when an
 * event's PMU prefix is not the machine's. */
bool stat_model_check_events(const struct stat_model *model, const char *const *events,
                             int n_events, char *error, size_t size);

/* Sets one parameter of the model by name (-F NAME=VALUE); false with a
 * one-line error. */
bool stat_model_set(struct stat_model *model, const char *name, const char *value, char *error,
                    size_t size);

/* Whether the machine could have run code of `isa`: 32-bit code always;
 * 64-bit code only on a NetBurst model with EM64T (IA-32e mode; the P5,
 * Willamette and Northwood have none). */
bool stat_model_runs(const struct stat_model *model, enum trace_isa isa);

/* The events `stat` counts when none are named, as `perf stat` counts a
 * default set: cycles, instructions, cache (L2 on the NetBurst, L1 data on
 * the P5) references and misses, branches and mispredicted branches
 * (pipeline flushes on the P5), the questions of Linux's generic hardware
 * events.  A
 * NULL-terminated list of event strings without a PMU prefix;
 * docs/stat.md, "Default events". */
const char *const *stat_model_default_events(const struct stat_model *model);

/* When the trace at `path` holds code the machine could not have run, a
 * one-line warning saying so and what the model does with it, naming the
 * trace `name` (the path, or the program a temporary trace was recorded
 * from), in `warning`, and true; false otherwise: for 32-bit code, a file
 * that is not a trace (reading it reports that) and a file that is not a
 * regular file (a pipe: its header is read once, by the simulation). */
bool stat_model_isa_warning(const struct stat_model *model, const char *path, const char *name,
                            char *warning, size_t size);

#endif
