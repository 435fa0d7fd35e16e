/* make bench: event-string encoding speed of pmubench against libpfm4 (the
 * peer), on the same strings in the same run, and the PMU's cycle rate with
 * 18 counters programmed against none: under one branch_retired a cycle,
 * and under the load a trace-driven model reports.  Prints
 * figures; asserts nothing. */
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmu/catalog/event_spec.h"
#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/emulated/netburst_pmu.h"

enum { MAX_STRINGS = 256 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One string per event and sub-event that both tools spell alike. */
static int catalog_strings(char strings[][96])
{
    int n = 0;
    for (int e = 0; e < NB_NUM_EVENTS && n < MAX_STRINGS; e++) {
        const struct nb_event_info *event = &nb_event_table[e];
        if (!(event->models & (1u << 2)) || strcmp(event->name, "uop_type") == 0 ||
            strcmp(event->name, "x87_SIMD_moves_uop") == 0 ||
            strcmp(event->name, "mispred_branch_retired") == 0 ||
            strncmp(event->name, "IOQ_", 4) == 0 || strcmp(event->name, "machine_clear") == 0)
            continue;
        for (int s = 0; s < event->n_subevents && n < MAX_STRINGS; s++)
            snprintf(strings[n++], 96, "netburst::%s:%s:u=1:thr=2", event->name,
                     event->subevents[s].name);
    }
    return n;
}

static double pmubench_rate(char strings[][96], int n, int rounds)
{
    struct nb_pmu_config config = {2, true};
    uint64_t sink = 0;
    double start = now();
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++) {
            struct event_spec spec;
            struct nb_encoding enc;
            char error[256];
            if (event_spec_parse(strings[i], &config, &spec, error, sizeof error)) {
                nb_encode(&spec.nb, &config, &enc);
                sink += enc.escr;
            }
        }
    double seconds = now() - start;
    if (sink == 42)
        printf(" ");
    return (double)n * rounds / seconds;
}

static double libpfm4_rate(char strings[][96], int n, int rounds)
{
    uint64_t sink = 0;
    double start = now();
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++) {
            pfm_pmu_encode_arg_t arg;
            memset(&arg, 0, sizeof arg);
            if (pfm_get_os_event_encoding(strings[i], PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg) ==
                PFM_SUCCESS) {
                sink += arg.codes[0];
                free(arg.codes);
            }
        }
    double seconds = now() - start;
    if (sink == 42)
        printf(" ");
    return (double)n * rounds / seconds;
}

/* Cycles per second of the NetBurst PMU with `programmed` counters counting
 * branch_retired (one occurrence a cycle). */
static double pmu_cycle_rate(int programmed, long cycles)
{
    struct nb_pmu *pmu = nb_pmu_create((struct nb_pmu_config){2, true});
    int branch = nb_event_find("branch_retired");
    uint64_t escr = 0x06ull << 25 | 0xfull << 9 | ESCR_T0_USR;
    nb_pmu_wrmsr(pmu, 0x3cc, escr); /* CRU_ESCR2 */
    nb_pmu_wrmsr(pmu, 0x3cd, escr); /* CRU_ESCR3 */
    for (int c = 0; c < programmed; c++)
        nb_pmu_wrmsr(pmu, NB_CCCR_BASE + (uint32_t)c, CCCR_ENABLE | 5ull << 13 | 3ull << 16);
    double start = now();
    for (long i = 0; i < cycles; i++) {
        nb_pmu_event(pmu, branch, 1u << 2, 0, 1);
        nb_pmu_tick(pmu);
    }
    double seconds = now() - start;
    nb_pmu_destroy(pmu);
    return (double)cycles / seconds;
}

/* A realistic programming of all 18 counters: plain counts, thresholds,
 * edges and a complement on the events a trace-driven model reports every
 * cycle, and events it seldom or never reports on the other blocks. */
#define ESCR_VALUE(select, mask) ((uint64_t)(select) << 25 | (uint64_t)(mask) << 9)
#define T0 (ESCR_T0_OS | ESCR_T0_USR)
#define CCCR_SELECT(s) ((uint64_t)(s) << CCCR_ESCR_SELECT_SHIFT)
static const struct {
    uint32_t escr_msr;
    uint64_t escr, cccr;
} realistic[NB_NUM_COUNTERS] = {
    {0x3a2, ESCR_VALUE(0x13, 1) | T0, CCCR_SELECT(6)},               /* FSB0 global_power_events */
    {0x3a2, ESCR_VALUE(0x13, 1) | T0, CCCR_SELECT(6) | CCCR_COMPARE | CCCR_EDGE},
    {0x3a3, ESCR_VALUE(0x13, 1) | ESCR_T1_OS | ESCR_T1_USR, CCCR_SELECT(6)},
    {0x3b3, ESCR_VALUE(0x03, 1) | T0, CCCR_SELECT(0)},               /* BPU1 BPU_fetch_request */
    {0x3c2, ESCR_VALUE(0x04, 0x1e) | T0, CCCR_SELECT(2)},            /* TBPU0 retired_branch_type */
    {0x3c4, ESCR_VALUE(0x06, 0x10) | T0, CCCR_SELECT(1)},            /* TC0 TC_misc */
    {0x3c1, ESCR_VALUE(0x09, 7) | T0, CCCR_SELECT(0)},               /* MS1 uop_queue_writes */
    {0x3c3, ESCR_VALUE(0x05, 0x1e) | T0, CCCR_SELECT(2)},            /* TBPU1 mispredicted */
    {0x3a4, ESCR_VALUE(0x04, 0x8000) | T0, CCCR_SELECT(1)},          /* FIRM0 x87_FP_uop */
    {0x3ae, ESCR_VALUE(0x08, 3) | T0, CCCR_SELECT(2)},               /* SAAT0 memory_complete */
    {0x3a5, ESCR_VALUE(0x04, 0x8000) | T0, CCCR_SELECT(1)},          /* FIRM1 x87_FP_uop */
    {0x3af, ESCR_VALUE(0x04, 2) | T0, CCCR_SELECT(2)},               /* SAAT1 load_port_replay */
    {0x3b8, ESCR_VALUE(0x01, 3) | T0, CCCR_SELECT(4)},               /* CRU0 uops_retired */
    {0x3b8, ESCR_VALUE(0x01, 3) | T0, CCCR_SELECT(4) | CCCR_COMPARE | 2ull << CCCR_THRESHOLD_SHIFT},
    {0x3b9, ESCR_VALUE(0x02, 1) | T0, CCCR_SELECT(4)},               /* CRU1 instr_retired */
    {0x3cd, ESCR_VALUE(0x06, 0xf) | T0, CCCR_SELECT(5)},             /* CRU3 branch_retired */
    {0x3cc, ESCR_VALUE(0x06, 0xf) | T0, CCCR_SELECT(5) | CCCR_COMPARE | CCCR_COMPLEMENT},
    {0x3b9, ESCR_VALUE(0x02, 1) | T0, CCCR_SELECT(4) | CCCR_COMPARE | CCCR_EDGE},
};

/* Cycles per second of the NetBurst PMU with all ESCRs of `realistic` and
 * its first `programmed` counters enabled, each cycle reporting 3
 * uops_retired, 1 instr_retired, global_power_events and, every fifth
 * cycle, a branch_retired. */
static double pmu_realistic_rate(int programmed, long cycles)
{
    struct nb_pmu *pmu = nb_pmu_create((struct nb_pmu_config){2, true});
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        nb_pmu_wrmsr(pmu, realistic[c].escr_msr, realistic[c].escr);
    for (int c = 0; c < programmed; c++)
        nb_pmu_wrmsr(pmu, NB_CCCR_BASE + (uint32_t)c,
                     realistic[c].cccr | CCCR_ENABLE | CCCR_ACTIVE_THREAD_ANY);
    int uops = nb_event_find("uops_retired"), instr = nb_event_find("instr_retired");
    int branch = nb_event_find("branch_retired"), power = nb_event_find("global_power_events");
    double start = now();
    for (long i = 0; i < cycles; i++) {
        nb_pmu_event(pmu, uops, 1, 0, 3);
        nb_pmu_event(pmu, instr, 1, 0, 1);
        if (i % 5 == 0)
            nb_pmu_event(pmu, branch, 1u << 2, 0, 1);
        nb_pmu_event(pmu, power, 1, 0, 1);
        nb_pmu_tick(pmu);
    }
    double seconds = now() - start;
    nb_pmu_destroy(pmu);
    return (double)cycles / seconds;
}

int main(void)
{
    setenv("LIBPFM_FORCE_PMU", "netburst", 1);
    if (pfm_initialize() != PFM_SUCCESS) {
        fprintf(stderr, "bench: libpfm4 did not initialise\n");
        return 1;
    }
    static char strings[MAX_STRINGS][96];
    int n = catalog_strings(strings);
    int rounds = 200;
    double ours = pmubench_rate(strings, n, rounds);
    double peer = libpfm4_rate(strings, n, rounds);
    printf("encode: %d event strings x %d rounds\n", n, rounds);
    printf("  pmubench  %12.0f strings/s\n", ours);
    printf("  libpfm4   %12.0f strings/s\n", peer);
    printf("  ratio     %12.2f (pmubench / libpfm4)\n", ours / peer);

    long cycles = 5000000;
    double none = pmu_cycle_rate(0, cycles);
    double all = pmu_cycle_rate(NB_NUM_COUNTERS, cycles);
    printf("PMU, one branch_retired occurrence a cycle, %ld cycles:\n", cycles);
    printf("  no counter enabled   %12.0f cycles/s\n", none);
    printf("  18 counters enabled  %12.0f cycles/s (ESCR select 5: 6 count, 12 read other ESCRs)\n",
           all);
    printf("  overhead of 18       %12.2f (time ratio)\n", none / all);

    double quiet = pmu_realistic_rate(0, cycles);
    double busy = pmu_realistic_rate(NB_NUM_COUNTERS, cycles);
    printf("PMU, a model's load (3 uops_retired, 1 instr_retired, global_power_events a cycle,\n"
           "     branch_retired every 5th; the same 18 ESCRs programmed), %ld cycles:\n", cycles);
    printf("  no counter enabled   %12.0f cycles/s\n", quiet);
    printf("  18 counters enabled  %12.0f cycles/s\n", busy);
    printf("  overhead of 18       %12.2f (time ratio)\n", quiet / busy);
    return 0;
}
