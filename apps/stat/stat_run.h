/* Counting runs for `pmubench stat`: each run of an allocator plan
 * (pmu/programming/alloc.h) is programmed through the programming library
 * (pmu/programming/program.h) into a simulated PMU of its own, counted over the trace
 * (every run in one pass of it on the P5, or a pass per run; or over a
 * program's run on hardware), and read back.  docs/stat.md. */
#ifndef APPS_STAT_STAT_RUN_H
#define APPS_STAT_STAT_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/programming/alloc.h"
#include "pmu/programming/msr.h"
#include "sim/netburst/nbm_pipeview.h"
#include "apps/stat/region_gate.h"
#include "apps/stat/stat_interval.h"
#include "sim/machine/machine.h"
#include "traces/progress.h"
#include "traces/record.h"

struct stat_totals {
    uint64_t instructions[2]; /* trace records simulated per run, by logical processor */
    uint64_t cycles;
    uint64_t region_entries; /* times the counted region began, per run */
    uint64_t unclassified[2]; /* instructions without a timing row (given default clocks),
                               * per run, by logical processor */
    int passes;              /* passes of the trace the runs were counted in */
    uint64_t uops;           /* uops retired per run (the NetBurst; 0 on the P5) */
};

/* What a caller of stat_simulate watches during the run; each member may
 * be NULL. */
struct stat_hooks {
    /* Told how far the run is (traces/progress.h): the instructions of
     * every pass so far, the bytes of this pass's, which pass of how many. */
    const struct progress_hook *progress;
    /* With its unit and every set: filled with the counts of each interval
     * (apps/stat/stat_interval.h; docs/stat.md, "Intervals"), every pass's
     * merged; free with stat_intervals_free. */
    struct stat_intervals *intervals;
    /* The NetBurst's uops of the first pass, inside the counted region
     * (sim/netburst/nbm_pipeview.h, docs/pipeview.md). */
    struct nbm_pipeview *pipeview;
};

/* How the runs of a plan are counted over a trace (docs/stat.md, "One
 * pass"). */
enum stat_runs {
    STAT_RUNS_ONE,      /* every run in one pass: the model feeds each run's PMU */
    STAT_RUNS_HARDWARE, /* a pass per run, as a real PMU counts them (run_p5mon) */
};

/* How stat_simulate counts `plan` on `model` when `asked`: in one pass
 * when no run of the plan samples or tags (alloc_run_samples_or_tags: a
 * NetBurst run's PMIs and PEBS assists change the model's timing, its
 * tags the occurrences the model reports), or when the plan has one
 * run; otherwise a pass per run. */
enum stat_runs stat_runs_counted(const struct machine_config *model, const struct alloc_plan *plan,
                                 enum stat_runs asked);

/* Simulates the traces (one; or two on the NetBurst, as its logical
 * processors 0 and 1 with Hyper-Threading) on fresh simulated PMUs of the
 * model's kind (P5, or NetBurst of the model's CPUID model, with
 * Hyper-Threading for two traces), one programmed for each run of `plan`:
 * all of them fed by one pass of the traces, or one per pass, as
 * stat_runs_counted(model, plan, runs) says; leaves in counts[request]
 * each request's count (the same either way) and in totals->passes the
 * passes made.  With `region` >= 0 the counters run only between
 * the trace's begin and end markers of that region (apps/stat/region_gate.h);
 * REGION_WHOLE_TRACE counts from the first instruction to the last.  False
 * with a one-line error and errno telling a run-time failure (ENOMEM; EIO
 * for an MSR access the simulated PMU refused, in the set-up or a region
 * marker's start or stop) from a trace that is not what it should be (as
 * machine_simulate sets it).  `hooks` (NULL: none) are
 * told about the run as struct stat_hooks says. */
bool stat_simulate(const char *const traces[], int n_traces, const struct machine_config *model,
                   const struct alloc_plan *plan, enum stat_runs runs, long region,
                   const struct stat_hooks *hooks, uint64_t *counts,
                   struct stat_totals *totals, char *error, size_t error_size);

/* Runs `argv` (a program and its arguments) once per run of `plan` on CPU
 * `cpu`, with the run's counters programmed through `backend` (the Linux
 * msr backend) and started just before the program starts; counts as
 * above.  *exit_status is the last run's.  False with a one-line error
 * (the backend's own when it refuses: a processor other than the one the
 * plan is for) and errno: EIO for a failing or refused MSR access, the
 * exec's when the program cannot be run ("cannot run 'PROGRAM': REASON":
 * ENOENT, EACCES...), sched_setaffinity's for a CPU it cannot run on
 * (EINVAL).  The program is started by this process, which prints
 * nothing. */
bool stat_measure_program(struct msr_backend *backend, int cpu, const struct alloc_plan *plan,
                          char *const argv[], uint64_t *counts, int *exit_status, char *error,
                          size_t error_size);

/* `stat -- PROGRAM`'s recording: `program` (a program and its arguments,
 * NULL-terminated) recorded as `pmubench record` records it, seeing `cpu`
 * (traces/cpu_view.h; NULL: the part of the model named `model`,
 * cpu_view_for_model), into a temporary trace "$TMPDIR/pmubench-stat-XXXXXX"
 * (traces/record.h, record_temporary: its path in `trace`, listed under
 * `temporary`; the caller removes it after the run). */
enum record_status stat_record_program(char *const *program, const char *cpu, const char *model,
                                       const struct progress_hook *progress,
                                       struct cleanup_file *temporary, char *trace, size_t size,
                                       struct record_result *result, char *error,
                                       size_t error_size);

#endif
