/* Counting one region of a trace (docs/traces.md, "Regions"): the
 * counters of a programmed run (or of every run counted in one pass of the
 * trace) are started at each of the region's begin markers and stopped at
 * each of its end markers through the programming library, as run_p5mon's
 * region stubs start and stop them on hardware (Safford 1997, section
 * 4.2.2); markers of other regions change nothing.  Or the whole trace:
 * started before the first instruction.  `stat` (apps/stat/stat_run.c) and
 * `sample` (apps/sample/sample_run.c) count through it. */
#ifndef APPS_STAT_REGION_GATE_H
#define APPS_STAT_REGION_GATE_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/programming/program.h"

enum { REGION_WHOLE_TRACE = -1 };

struct region_gate {
    struct program *programs; /* the runs' programs, started and stopped in order */
    int n_programs;
    long region;       /* the region counted (0 to 2^32 - 1), or REGION_WHOLE_TRACE */
    bool counting;     /* the counters run: inside the region (set once every start
                        * succeeded, cleared once every stop did) */
    uint64_t entries;  /* times the region began */
    msr_status status; /* the first failing start or stop; none after it */
    const struct program *failed; /* the program of that start or stop */
};

/* A gate on `program`'s counters (set up with program_setup, not
 * started), counting `region`: with REGION_WHOLE_TRACE it starts them now.
 * The status of that start (MSR_OK when there is none), also in
 * gate->status. */
msr_status region_gate_start(struct region_gate *gate, struct program *program, long region);

/* The same for the `n` programs of `programs` (one per run counted in the
 * pass), each started and stopped at the same markers. */
msr_status region_gate_start_runs(struct region_gate *gate, struct program *programs, int n,
                                  long region);

/* A marker of the trace: the begin (or end) of region `region`. */
void region_gate_marker(struct region_gate *gate, bool begin, uint32_t region);

/* region_gate_marker as a machine's region hook (struct machine_hooks),
 * with the gate as its context: either logical processor's markers start
 * and stop the shared counters. */
void region_gate_hook(void *gate, int thread, bool begin, uint32_t region);

#endif
