/* run_p5mon's measuring loop (Safford 1997, Figure 4.1) on the simulated P5:
 * for each repetition, the selected events two at a time on CTR0 and CTR1,
 * programmed through the programming library (pmu/programming/program.h) into a fresh
 * simulated P5 PMU, and one simulation of the trace per pair.  With regions,
 * the counters run for the whole execution and each region marker samples
 * them as run_p5mon's begin/end stubs do (Safford 1997, section 4.2.2): the end adds
 * the difference since its region's last begin to the region's total.
 *
 * Each execution is a fresh machine (sim/machine/machine.h) of the P5
 * model; the simulation is a callback so that the loop does not depend on
 * the trace: the CLI passes one calling machine_simulate(). */
#ifndef APPS_P5MON_DRIVER_H
#define APPS_P5MON_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "parms.h"
#include "sim/machine/machine.h"

/* Runs the program once on `machine` (its PMU already counting), calling
 * `hooks` at region markers when it is not NULL. */
typedef bool (*p5mon_simulate_fn)(void *context, struct machine *machine,
                                  const struct machine_hooks *hooks, char *error,
                                  size_t error_size);

struct p5mon_region {
    bool seen;               /* entered or exited in some execution */
    uint64_t entered, exited; /* in the first execution that saw it */
    uint64_t *values;        /* values[event * repetitions + repetition] */
};

struct p5mon_results {
    int n_events;
    int events[P5MON_MAX_EVENTS];   /* event codes, P5MON_CLOCKS for clocks */
    int repetitions;
    int level;                      /* 95 or 99 */
    enum p5mon_interval interval;
    bool all;                       /* output_all_results */
    bool regions;                   /* use_assembly_regions */
    int n_slots;                    /* max_regions with regions, else 1 */
    struct p5mon_region *slots;     /* by region number; slot 0 the whole run without regions */
    int executions;                 /* simulations run */
};

/* Measures every selected event of `parms` `repetitions` times on machines
 * of `model` (a P5 model: machine_config_p5).  Messages
 * of verbose_level 1 and 2 go to `verbose`.  False with one line in `error`
 * (and `results` freed) when a simulation, an MSR access or a region
 * marker fails. */
bool p5mon_measure(const struct p5mon_parms *parms, const struct machine_config *model,
                   p5mon_simulate_fn simulate, void *context, FILE *verbose,
                   struct p5mon_results *results, char *error, size_t error_size);

void p5mon_results_free(struct p5mon_results *results);

/* The number of regions seen. */
int p5mon_regions_seen(const struct p5mon_results *results);

#endif
