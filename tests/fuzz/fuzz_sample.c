/* libFuzzer target: `pmubench sample`'s sampling through its library
 * (apps/sample/sample_run.h), as cli/cmd_sample.c runs it: a PEBS metric
 * (with the DS save area the library sets up in the simulated PMU's
 * memory, and its records read back) or an event with a PMI on overflow
 * (IEBS, whose handler reloads the counter), planned by the allocator,
 * programmed with the period's preset, then the NetBurst model over a
 * trace made from the input (fuzz_model.h), counting all of it or a
 * region.  The input chooses the preset and parameters, the event, the
 * period, the region and the PEBS buffer's size (1 to 64 records, so that
 * it fills and the assist finds it full), then the trace (with registers,
 * or not, for the PEBS records).  Seeds: tests/fuzz/corpus_sample. */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "apps/sample/sample_run.h"
#include "tests/fuzz/fuzz_model.h"

/* IEBS events, then the PEBS metrics (replay tagging, docs/semantics.md). */
static const char *const events[] = {
    "instr_retired:NBOGUSNTAG", "uops_retired:NBOGUS", "branch_retired:MMTP:MMNP:MMTM:MMNM",
    "BSQ_cache_reference:RD_2ndL_MISS", "global_power_events:RUNNING", "resource_stall:SBFULL",
    "memory_complete:LSC", "x87_SIMD_moves_uop:ALLP2", "memory_loads",
};
static const char *const metrics[] = {
    "1stL_cache_load_miss_retired", "2ndL_cache_load_miss_retired", "DTLB_load_miss_retired",
    "DTLB_store_miss_retired", "DTLB_all_miss_retired", "Tagged_mispred_branch",
    "MOB_load_replay_retired", "split_load_retired", "split_store_retired",
};
enum { EVENTS = sizeof events / sizeof events[0], METRICS = sizeof metrics / sizeof metrics[0] };

/* Samples as `options` say; the samples themselves are not kept. */
static void sample(const struct sample_options *options)
{
    struct sample_session session;
    struct sample_totals totals;
    char error[TRACE_MAX_TEXT + 1024];
    if (sample_plan(&session, options, error, sizeof error) &&
        sample_open(&session, error, sizeof error))
        sample_run(&session, NULL, NULL, &totals, error, sizeof error);
    sample_fini(&session);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = {data, size, 0};
    struct machine_config model;
    struct fuzz_bound bound;
    if (!fuzz_netburst(&in, &model, &bound))
        return 0;
    bool pebs = fuzz_byte(&in) & 1;
    const char *event = pebs ? metrics[fuzz_byte(&in) % METRICS] : events[fuzz_byte(&in) % EVENTS];
    long region = fuzz_byte(&in) % 5;
    /* One byte each, in this order (an initializer's order is not C's). */
    uint64_t period = 1 + fuzz_byte(&in) % 64;
    uint64_t records = 1 + fuzz_byte(&in) % 64;
    char path[64];
    struct sample_options options = {.model = &model, .event = event, .pebs = pebs,
                                     .period = period,
                                     .region = region == 4 ? REGION_WHOLE_TRACE : region,
                                     .trace = path, .no_symbols = true,
                                     .pebs_records = records};
    int fd = fuzz_memory_file(path, sizeof path);
    if (fd >= 0 && fuzz_trace_write(&in, fd, bound))
        sample(&options);
    if (fd >= 0)
        close(fd);
    return 0;
}
