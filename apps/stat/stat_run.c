/* Counting runs for `pmubench stat` (apps/stat/stat_run.h, docs/stat.md). */
#include "stat_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "pmu/programming/msr_linux.h"
#include "pmu/programming/program.h"
#include "traces/cpu_view.h"
#include "util/error_line.h"
#include "util/spawn.h"

/* Whether `status`, the outcome of `what` (setup, start...), is a failure:
 * then its line in `error` and errno EIO (a refused or failing MSR access
 * is a run-time failure, as sample_run has it). */
static bool program_failed(const struct program *program, msr_status status, const char *what,
                           char *error, size_t error_size)
{
    if (status == MSR_OK)
        return false;
    const char *why = status == MSR_OS_ERROR ? msr_error_message(program->backend)
                                             : msr_status_name(status);
    error_line(EIO, error, error_size, "%s: MSR 0x%x: %s", what, program->failed_msr, why);
    return true;
}

/* Stores a run's counts at the requests they belong to. */
static void spread_counts(const struct alloc_run *run, const uint64_t *values, uint64_t *counts)
{
    for (int i = 0; i < run->n; i++)
        counts[run->assignments[i].request] = values[i];
}

/* Runs the traces through the pass's machine, which feeds its PMU (and
 * the PMUs linked to it); the totals of the pass. */
static bool run_model(const char *const traces[], struct machine *machine,
                      struct region_gate *gate, const struct progress_hook *progress,
                      const struct interval_hook *interval, struct nbm_pipeview *pipeview,
                      struct stat_totals *totals, char *error, size_t error_size)
{
    struct machine_hooks hooks = {.region = region_gate_hook, .context = gate,
                                  .progress = progress, .interval = interval,
                                  .uops = pipeview ? nbm_pipeview_hook(pipeview) : NULL};
    if (pipeview) /* the uops inside the counted region */
        nbm_pipeview_watch(pipeview, &gate->counting);
    struct machine_result result;
    bool ok = machine_simulate(machine, traces, &hooks, &result, error, error_size);
    *totals = (struct stat_totals){{result.instructions[0], result.instructions[1]},
                                   result.cycles, gate->entries,
                                   {result.unclassified[0], result.unclassified[1]}, 0,
                                   result.uops[0] + result.uops[1]};
    return ok;
}

/* The machine of one pass of the trace, and a simulated PMU and a program
 * for each run counted in it: the machine's own PMU counts the first run,
 * PMUs linked to it (machine_link_pmu) the others, each the same
 * occurrences under its own run's programming. */
struct pass {
    struct machine machine;
    int n; /* PMUs: the machine's (once created), then the linked ones */
    struct msr_backend **backends;
    struct program *programs;
};

static void pass_destroy(struct pass *pass)
{
    for (int i = 1; i < pass->n; i++)
        msr_backend_destroy(pass->backends[i]);
    if (pass->n > 0)
        machine_destroy(&pass->machine);
    free(pass->backends);
    free(pass->programs);
}

/* The pass of the `n` runs from `runs`; false when memory ran out (what
 * was created is in `pass`, for pass_destroy). */
static bool pass_create(struct pass *pass, const struct machine_config *model, int n_traces,
                        const struct alloc_run *runs, int n)
{
    pass->n = 0;
    pass->backends = calloc((size_t)n, sizeof *pass->backends);
    pass->programs = calloc((size_t)n, sizeof *pass->programs);
    if (!pass->backends || !pass->programs || !machine_create(&pass->machine, model, n_traces))
        return false;
    pass->backends[pass->n++] = pass->machine.backend;
    for (int i = 1; i < n; i++) {
        struct msr_backend *backend = machine_link_pmu(&pass->machine);
        if (!backend)
            return false;
        pass->backends[pass->n++] = backend;
    }
    for (int i = 0; i < n; i++)
        program_init(&pass->programs[i], pass->backends[i], 0, &runs[i]);
    return true;
}

static bool set_up_runs(struct pass *pass, char *error, size_t error_size)
{
    for (int i = 0; i < pass->n; i++)
        if (program_failed(&pass->programs[i], program_setup(&pass->programs[i], NULL), "setup",
                           error, error_size))
            return false;
    return true;
}

/* Stops each run's counters and stores what they counted at its
 * requests. */
static bool read_runs(struct pass *pass, uint64_t *counts, char *error, size_t error_size)
{
    for (int i = 0; i < pass->n; i++) {
        struct program *program = &pass->programs[i];
        uint64_t values[ALLOC_MAX_PER_RUN] = {0};
        if (program_failed(program, program_stop(program), "stop", error, error_size) ||
            program_failed(program, program_read(program, values), "read", error, error_size))
            return false;
        spread_counts(program->run, values, counts);
    }
    return true;
}

/* The pass's part of the intervals (NULL: none), counted through `pass`:
 * its hook in `hook`; false when out of memory. */
static bool intervals_start(struct interval_pass *ipass, struct stat_intervals *intervals,
                            struct pass *pass, struct interval_hook *hook)
{
    if (!intervals)
        return true;
    *hook = (struct interval_hook){intervals->unit, intervals->every, interval_pass_end, ipass};
    return interval_pass_start(ipass, intervals, pass->programs, pass->n);
}

/* The pass's last interval, from its counts and totals; false with the
 * line of a failed read or of want of memory. */
static bool intervals_finish(struct interval_pass *ipass, const struct stat_totals *totals,
                             const uint64_t *counts, char *error, size_t error_size)
{
    struct interval_point end = {totals->instructions[0] + totals->instructions[1],
                                 totals->cycles, totals->uops};
    interval_pass_finish(ipass, &end, counts);
    if (ipass->out_of_memory)
        return error_line(ENOMEM, error, error_size, "out of memory for the intervals");
    return !program_failed(ipass->failed, ipass->status, "interval read", error, error_size);
}

/* Counts the `n` runs from `runs` in one pass of the traces: set up,
 * started and stopped together by the region gate, read after it (and at
 * each interval's end, with `intervals`). */
static bool simulate_pass(const char *const traces[], int n_traces,
                          const struct machine_config *model, const struct alloc_run *runs, int n,
                          long region, const struct stat_hooks *hooks, uint64_t *counts,
                          struct stat_totals *totals, char *error, size_t error_size)
{
    struct stat_intervals *intervals = hooks->intervals;
    struct pass pass;
    struct interval_pass ipass;
    struct interval_hook interval;
    if (!pass_create(&pass, model, n_traces, runs, n) ||
        !intervals_start(&ipass, intervals, &pass, &interval)) {
        pass_destroy(&pass);
        return error_line(ENOMEM, error, error_size, "out of memory");
    }
    struct region_gate gate = {0};
    bool ok = set_up_runs(&pass, error, error_size);
    if (ok) {
        msr_status started = region_gate_start_runs(&gate, pass.programs, n, region);
        ok = !program_failed(gate.failed, started, "start", error, error_size);
    }
    if (ok)
        ok = run_model(traces, &pass.machine, &gate, hooks->progress,
                       intervals ? &interval : NULL, hooks->pipeview, totals, error, error_size);
    if (ok)
        ok = !program_failed(gate.failed, gate.status, "region", error, error_size) &&
             read_runs(&pass, counts, error, error_size);
    if (intervals) {
        char scratch[1024]; /* a failure before is the one reported */
        ok = intervals_finish(&ipass, totals, counts, ok ? error : scratch,
                              ok ? error_size : sizeof scratch) && ok;
    }
    int cause = errno;
    pass_destroy(&pass);
    errno = cause;
    return ok;
}

/* Whether a run of the plan samples or tags (alloc_run_samples_or_tags). */
static bool plan_samples_or_tags(const struct alloc_plan *plan)
{
    for (int r = 0; r < plan->n_runs; r++)
        if (alloc_run_samples_or_tags(&plan->runs[r]))
            return true;
    return false;
}

enum stat_runs stat_runs_counted(const struct machine_config *model, const struct alloc_plan *plan,
                                 enum stat_runs asked)
{
    bool shared = machine_caps(model).linked_pmus && !plan_samples_or_tags(plan);
    return shared || plan->n_runs <= 1 ? asked : STAT_RUNS_HARDWARE;
}

/* The progress of one pass of several, to the caller's hook: the
 * instructions of the passes before it added, the pass told. */
struct pass_progress {
    const struct progress_hook *outer;
    uint64_t before; /* instructions read in the passes before */
    int pass, passes;
};

static void report_pass(void *context, const struct progress_point *point)
{
    const struct pass_progress *p = context;
    struct progress_point in_all = {p->before + point->instructions, point->bytes, p->pass,
                                    p->passes};
    p->outer->report(p->outer->context, &in_all);
}

/* The requests of the plan: one past the highest its runs count. */
static int plan_requests(const struct alloc_plan *plan)
{
    int n = 0;
    for (int r = 0; r < plan->n_runs; r++)
        for (int a = 0; a < plan->runs[r].n; a++)
            if (plan->runs[r].assignments[a].request >= n)
                n = plan->runs[r].assignments[a].request + 1;
    return n;
}

bool stat_simulate(const char *const traces[], int n_traces, const struct machine_config *model,
                   const struct alloc_plan *plan, enum stat_runs runs, long region,
                   const struct stat_hooks *hooks, uint64_t *counts,
                   struct stat_totals *totals, char *error, size_t error_size)
{
    const struct progress_hook *progress = hooks ? hooks->progress : NULL;
    int per_pass = stat_runs_counted(model, plan, runs) == STAT_RUNS_ONE ? plan->n_runs : 1;
    int passes = 0;
    struct pass_progress in_pass = {progress, 0, 0, (plan->n_runs + per_pass - 1) / per_pass};
    struct progress_hook hook = {report_pass, &in_pass};
    struct stat_hooks in_passes = {progress ? &hook : NULL, hooks ? hooks->intervals : NULL,
                                   NULL};
    if (in_passes.intervals)
        in_passes.intervals->n_requests = plan_requests(plan);
    for (int r = 0; r < plan->n_runs; r += per_pass, passes++) {
        in_pass.pass = passes + 1;
        in_passes.pipeview = hooks && passes == 0 ? hooks->pipeview : NULL; /* the first pass's */
        if (!simulate_pass(traces, n_traces, model, &plan->runs[r], per_pass, region,
                           &in_passes, counts, totals, error, error_size))
            return false;
        in_pass.before += totals->instructions[0] + totals->instructions[1];
    }
    totals->passes = passes;
    return true;
}

/* ---- hardware */

/* Starts `argv` on CPU `cpu` (util/spawn.h), a foreground child
 * (util/cleanup.h: like system(), the terminal's interrupt goes to the
 * program; a signal that ends pmubench ends it); false with a line in
 * `error` and errno: the exec's (ENOENT, EACCES...: a program that cannot
 * be run), sched_setaffinity's (EINVAL: a CPU it cannot run on), or EIO
 * when the pipe or the fork failed. */
static bool start_pinned(struct spawn *child, int cpu, char *const argv[], char *error,
                         size_t error_size)
{
    struct spawn_options options = {.in = SPAWN_KEEP, .out = SPAWN_KEEP, .cpu = cpu,
                                    .foreground = true, .reading = -1};
    struct spawn_failure failure;
    if (spawn_start(child, argv, &options, &failure))
        return true;
    if (failure.step == SPAWN_PIN)
        error_line(failure.error_number, error, error_size, "cannot run on CPU %d: %s", cpu,
                   strerror(failure.error_number));
    else
        spawn_message(&failure, argv[0], error, error_size);
    return false;
}

static bool measure_run(struct msr_backend *backend, int cpu, const struct alloc_run *run,
                        char *const argv[], uint64_t *counts, int *exit_status, char *error,
                        size_t error_size)
{
    struct program program;
    program_init(&program, backend, cpu, run);
    uint64_t values[ALLOC_MAX_PER_RUN] = {0};
    if (program_failed(&program, program_setup(&program, NULL), "setup", error, error_size) ||
        program_failed(&program, program_start(&program), "start", error, error_size))
        return false;
    struct spawn child;
    bool ran = start_pinned(&child, cpu, argv, error, error_size);
    int status = ran ? spawn_wait(&child) : 0;
    if (ran && status < 0)
        ran = error_line(EIO, error, error_size, "waiting for the program: %s", strerror(errno));
    int cause = errno;
    /* The counters are stopped and given back whatever happened; a failure
     * to start the program is the one reported. */
    char scratch[1024];
    char *why = ran ? error : scratch;
    size_t why_size = ran ? error_size : sizeof scratch;
    bool read = !program_failed(&program, program_stop(&program), "stop", why, why_size) &&
                !program_failed(&program, program_read(&program, values), "read", why, why_size);
    program_release(&program);
    if (!ran) {
        errno = cause;
        return false;
    }
    if (!read)
        return false;
    *exit_status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
    spread_counts(run, values, counts);
    return true;
}

bool stat_measure_program(struct msr_backend *backend, int cpu, const struct alloc_plan *plan,
                          char *const argv[], uint64_t *counts, int *exit_status, char *error,
                          size_t error_size)
{
    for (int r = 0; r < plan->n_runs; r++)
        if (!measure_run(backend, cpu, &plan->runs[r], argv, counts, exit_status, error,
                         error_size))
            return false;
    return true;
}

enum record_status stat_record_program(char *const *program, const char *cpu, const char *model,
                                       const struct progress_hook *progress,
                                       struct cleanup_file *temporary, char *trace, size_t size,
                                       struct record_result *result, char *error,
                                       size_t error_size)
{
    struct record_options options = {.argv = program, .progress = progress,
                                     .cpu = cpu ? cpu : cpu_view_for_model(model)};
    return record_temporary(&options, "pmubench-stat", temporary, trace, size, result, error,
                            error_size);
}
