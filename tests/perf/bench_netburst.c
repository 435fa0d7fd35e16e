/* bench_netburst [--repeat N] COUNTERS TRACE [TRACE]: times the NetBurst
 * model (`make bench`, tests/perf/bench_netburst.sh, docs/netburst-model.md
 * "Speed") on one trace, or two as the logical processors of a
 * Hyper-Threading core, with COUNTERS 0 (nothing programmed) or 18 (every
 * counter, programmed through the allocator and the programming library as
 * `pmubench stat` does).  Prints one line:
 *
 *   INSTRUCTIONS CYCLES SECONDS PEAK_RSS_KB NONZERO
 *
 * SECONDS is the CPU time of nbm_simulate() alone, the fastest of N runs
 * (default 3), each on a fresh PMU; NONZERO how many of the counters
 * counted something.  A benchmark: it fails only when something cannot
 * run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "pmu/programming/alloc.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/programming/program.h"
#include "sim/netburst/nbm_model.h"

/* Eighteen events the model generates on the synthetic SSE loop
 * (synthetic_trace --sse), some through a threshold or the edge filter and
 * one a front-end tagging metric: with them the allocator fills every
 * counter in one run. */
static const char *const events[] = {
    "global_power_events:RUNNING",
    "BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_MISS",
    "BPU_fetch_request:TCMISS",
    "BSQ_allocation:REQ_LEN0:REQ_LEN1",
    "TC_deliver_mode:DD:DB:DI",
    "uop_queue_writes:FROM_TC_DELIVER:FROM_TC_BUILD:thr=2",
    "retired_branch_type:CONDITIONAL",
    "retired_mispred_branch_type:CONDITIONAL",
    "x87_SIMD_moves_uop:ALLP2",
    "scalar_SP_uop:ALL",
    "memory_complete:LSC",
    "load_port_replay:SPLIT_LD:e=1",
    "instr_retired:NBOGUSNTAG:NBOGUSTAG",
    "uops_retired:NBOGUS:thr=2",
    "branch_retired:MMTP:MMNP:MMTM:MMNM",
    "memory_loads",
    "resource_stall:SBFULL",
    "resource_stall:SBFULL:e=1",
};
enum { N_EVENTS = sizeof events / sizeof events[0] };

static struct nbm_config config;

/* The one run counting all the events; exits when they do not fit. */
static struct alloc_run plan_counters(const struct nb_pmu_config *pmu)
{
    struct alloc_request requests[N_EVENTS];
    char text[256], error[512];
    for (int i = 0; i < N_EVENTS; i++) {
        snprintf(text, sizeof text, "netburst::%s", events[i]);
        requests[i].group = ALLOC_NO_GROUP;
        if (!event_spec_parse(text, pmu, &requests[i].spec, error, sizeof error)) {
            fprintf(stderr, "bench_netburst: %s\n", error);
            exit(2);
        }
    }
    struct alloc_plan plan;
    struct alloc_error why;
    if (!alloc_plan_make(requests, N_EVENTS, pmu, &plan, &why)) {
        fprintf(stderr, "bench_netburst: %s\n", why.message);
        exit(2);
    }
    if (plan.n_runs != 1 || plan.runs[0].n != NB_NUM_COUNTERS) {
        fprintf(stderr, "bench_netburst: the events take %d runs, not one of %d counters\n",
                plan.n_runs, NB_NUM_COUNTERS);
        exit(2);
    }
    struct alloc_run run = plan.runs[0];
    alloc_plan_free(&plan);
    return run;
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void check(msr_status status, const char *what)
{
    if (status != MSR_OK) {
        fprintf(stderr, "bench_netburst: %s failed (%s)\n", what, msr_status_name(status));
        exit(2);
    }
}

/* One simulation on a fresh PMU; its CPU seconds.  *nonzero gets how many
 * programmed counters counted. */
static double simulate_once(const char *const traces[], int n_traces, const struct alloc_run *run,
                            struct nbm_result *result, int *nonzero)
{
    struct msr_backend *backend = nb_backend_create((struct nb_pmu_config){config.model, n_traces == 2});
    if (!backend) {
        fprintf(stderr, "bench_netburst: out of memory\n");
        exit(2);
    }
    struct program program;
    program_init(&program, backend, 0, run);
    if (run) {
        check(program_setup(&program, NULL), "program_setup");
        check(program_start(&program), "program_start");
    }
    char error[512];
    double start = cpu_seconds();
    bool ok = nbm_simulate(traces, n_traces, &config, backend, NULL, result, error, sizeof error);
    double seconds = cpu_seconds() - start;
    if (!ok) {
        fprintf(stderr, "bench_netburst: %s\n", error);
        exit(2);
    }
    *nonzero = 0;
    if (run) {
        uint64_t counts[ALLOC_MAX_PER_RUN];
        check(program_read(&program, counts), "program_read");
        for (int i = 0; i < run->n; i++)
            *nonzero += counts[i] != 0;
    }
    msr_backend_destroy(backend);
    return seconds;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_netburst [--repeat N] 0|18 TRACE [TRACE]\n");
    return 2;
}

int main(int argc, char **argv)
{
    int repeat = 3, a = 1;
    if (argc > 2 && strcmp(argv[1], "--repeat") == 0) {
        repeat = atoi(argv[2]);
        a = 3;
    }
    int n_traces = argc - a - 1;
    if (repeat < 1 || n_traces < 1 || n_traces > 2 ||
        (strcmp(argv[a], "0") != 0 && strcmp(argv[a], "18") != 0))
        return usage();
    char error[512];
    if (!nbm_config_preset("northwood", &config, error, sizeof error)) {
        fprintf(stderr, "bench_netburst: %s\n", error);
        return 2;
    }
    bool programmed = strcmp(argv[a], "18") == 0;
    struct alloc_run run;
    if (programmed)
        run = plan_counters(&(struct nb_pmu_config){config.model, n_traces == 2});
    const char *const *traces = (const char *const *)&argv[a + 1];

    double best = 0;
    struct nbm_result result;
    int nonzero = 0;
    for (int i = 0; i < repeat; i++) {
        double seconds = simulate_once(traces, n_traces, programmed ? &run : NULL, &result,
                                       &nonzero);
        if (i == 0 || seconds < best)
            best = seconds;
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("%llu %llu %.4f %ld %d\n",
           (unsigned long long)(result.instructions[0] + result.instructions[1]),
           (unsigned long long)result.cycles, best, usage.ru_maxrss, nonzero);
    return 0;
}
