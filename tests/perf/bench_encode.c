/* make bench: event-string encoding speed of pmubench against libpfm4 (the
 * peer), on the same strings in the same run, and the PMU's cycle rate with
 * 18 counters programmed against none.  Prints figures; asserts nothing. */
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmu/event_spec.h"
#include "pmu/netburst_events.h"
#include "pmu/netburst_fields.h"
#include "pmu/netburst_pmu.h"

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
    for (int e = 0; e < nb_num_events && n < MAX_STRINGS; e++) {
        const struct nb_event *event = &nb_events[e];
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
    struct nb_config config = {2, true};
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
    struct nb_pmu pmu;
    nb_pmu_init(&pmu, (struct nb_config){2, true});
    int branch = nb_event_find("branch_retired");
    uint64_t escr = 0x06ull << 25 | 0xfull << 9 | ESCR_T0_USR;
    nb_pmu_wrmsr(&pmu, 0x3cc, escr); /* CRU_ESCR2 */
    nb_pmu_wrmsr(&pmu, 0x3cd, escr); /* CRU_ESCR3 */
    for (int c = 0; c < programmed; c++)
        nb_pmu_wrmsr(&pmu, NB_CCCR_BASE + (uint32_t)c, CCCR_ENABLE | 5ull << 13 | 3ull << 16);
    double start = now();
    for (long i = 0; i < cycles; i++) {
        nb_pmu_event(&pmu, branch, 1u << 2, 0, 1);
        nb_pmu_tick(&pmu);
    }
    double seconds = now() - start;
    nb_pmu_fini(&pmu);
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
    return 0;
}
