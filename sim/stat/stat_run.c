/* Counting runs for `pmubench stat` (sim/stat/stat_run.h, docs/stat.md). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include "stat_run.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmu/netburst_pmu.h"
#include "pmu/p5_pmu.h"
#include "pmu/program.h"

/* The models' region hooks, with the run's gate as their context. */
static void gate_region(void *context, bool begin, uint32_t region)
{
    region_gate_marker(context, begin, region);
}

static bool program_failed(const struct program *program, msr_status status, const char *what,
                           char *error, size_t error_size)
{
    if (status == MSR_OK)
        return false;
    const char *why = status == MSR_OS_ERROR ? msr_error_message(program->backend)
                                             : msr_status_name(status);
    snprintf(error, error_size, "%s: MSR 0x%x: %s", what, program->failed_msr, why);
    return true;
}

/* Stores a run's counts at the requests they belong to. */
static void spread_counts(const struct alloc_run *run, const uint64_t *values, uint64_t *counts)
{
    for (int i = 0; i < run->n; i++)
        counts[run->assignments[i].request] = values[i];
}

/* Either logical processor's markers start and stop the shared counters. */
static void gate_netburst_region(void *context, int thread, bool begin, uint32_t region)
{
    (void)thread;
    region_gate_marker(context, begin, region);
}

static struct msr_backend *create_backend(const struct stat_model *model, int n_traces)
{
    if (model->pmu == PMU_P5)
        return p5_backend_create();
    return nb_backend_create((struct nb_pmu_config){model->netburst.model, n_traces == 2});
}

/* Runs the trace through the model; the totals of the run. */
static bool run_model(const char *const traces[], int n_traces, const struct stat_model *model,
                      struct msr_backend *backend, struct region_gate *gate,
                      struct stat_totals *totals, char *error, size_t error_size)
{
    if (model->pmu == PMU_P5) {
        struct p5_sim_hooks hooks = {gate_region, gate};
        struct p5_sim_result result = {0};
        bool ok = p5_simulate_trace(traces[0], &model->p5, backend, &hooks, &result, error,
                                    error_size);
        *totals = (struct stat_totals){{result.instructions, 0}, result.cycles, gate->entries};
        return ok;
    }
    struct nbm_hooks hooks = {.region = gate_netburst_region, .context = gate};
    struct nbm_result result;
    memset(&result, 0, sizeof result);
    bool ok = nbm_simulate(traces, n_traces, &model->netburst, backend, &hooks, &result, error,
                           error_size);
    *totals = (struct stat_totals){{result.instructions[0], result.instructions[1]},
                                   result.cycles, gate->entries};
    return ok;
}

static bool simulate_run(const char *const traces[], int n_traces, const struct stat_model *model,
                         const struct alloc_run *run, long region, uint64_t *counts,
                         struct stat_totals *totals, char *error, size_t error_size)
{
    struct msr_backend *backend = create_backend(model, n_traces);
    if (!backend) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    struct program program;
    program_init(&program, backend, 0, run);
    struct region_gate gate = {0};
    uint64_t values[ALLOC_MAX_PER_RUN] = {0};
    bool ok = !program_failed(&program, program_setup(&program, NULL), "setup", error, error_size);
    if (ok)
        ok = !program_failed(&program, region_gate_start(&gate, &program, region), "start", error,
                             error_size);
    if (ok)
        ok = run_model(traces, n_traces, model, backend, &gate, totals, error, error_size);
    if (ok)
        ok = !program_failed(&program, gate.status, "region", error, error_size) &&
             !program_failed(&program, program_stop(&program), "stop", error, error_size) &&
             !program_failed(&program, program_read(&program, values), "read", error, error_size);
    msr_backend_destroy(backend);
    if (!ok)
        return false;
    spread_counts(run, values, counts);
    return true;
}

bool stat_simulate(const char *const traces[], int n_traces, const struct stat_model *model,
                   const struct alloc_plan *plan, long region, uint64_t *counts,
                   struct stat_totals *totals, char *error, size_t error_size)
{
    for (int r = 0; r < plan->n_runs; r++)
        if (!simulate_run(traces, n_traces, model, &plan->runs[r], region, counts, totals, error,
                          error_size))
            return false;
    return true;
}

/* ---- hardware */

/* Starts `argv` on CPU `cpu`; the child reports a failed exec as 127. */
static pid_t start_pinned(int cpu, char *const argv[])
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        fprintf(stderr, "pmubench stat: cannot run on CPU %d: %s\n", cpu, strerror(errno));
        _exit(127);
    }
    execvp(argv[0], argv);
    fprintf(stderr, "pmubench stat: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

static bool wait_program(pid_t pid, int *exit_status, char *error, size_t error_size)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(error, error_size, "waiting for the program: %s", strerror(errno));
            return false;
        }
    *exit_status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
    return true;
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
    pid_t pid = start_pinned(cpu, argv);
    bool ran = pid > 0 && wait_program(pid, exit_status, error, error_size);
    if (pid < 0)
        snprintf(error, error_size, "cannot start %s: %s", argv[0], strerror(errno));
    bool read = !program_failed(&program, program_stop(&program), "stop", error, error_size) &&
                !program_failed(&program, program_read(&program, values), "read", error,
                                error_size);
    program_release(&program);
    if (!ran || !read)
        return false;
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
