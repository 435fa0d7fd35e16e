/* libFuzzer target: the P5 timing model (sim/p5) through `pmubench stat`'s
 * library path (apps/stat/stat_run.h): a trace made from the input
 * (fuzz_model.h), two of the P5's events, a few parameters and the region
 * counted, all chosen by the input.  Seeds: tests/fuzz/corpus_p5_model. */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "pmu/programming/alloc.h"
#include "pmu/catalog/p5_events.h"
#include "apps/stat/stat_run.h"
#include "tests/fuzz/fuzz_model.h"

/* Clocks, up to the largest the model takes (sums of them pass 2^32), and
 * sizes and counts, small enough for the fuzzer's memory limit. */
static const char *const clock_parameters[] = {
    "memory_latency", "l2_latency", "memory_burst", "l2_burst", "tlb_miss_penalty",
    "misaligned_penalty", "bus_write", "bus_writeback", "mispredict_penalty",
    "bank_conflict_penalty",
};
static const char *const clock_values[] = {"0", "1", "3", "29", "1073741824"};
static const char *const size_parameters[] = {
    "write_buffers", "l2_size", "dcache_write_back", "dcache_write_allocate", "dcache_size",
    "dcache_line", "btb_entries", "dcache_banks", "dtlb_entries", "icache_size",
};
static const char *const size_values[] = {"0", "1", "2", "8", "32", "4096"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Up to three parameters (a value the model refuses is left out). */
static void set_parameters(struct fuzz_input *in, struct machine_config *model)
{
    char error[256];
    for (int n = fuzz_byte(in) % 4; n > 0; n--) {
        uint8_t p = fuzz_byte(in), v = fuzz_byte(in);
        if (p & 1)
            machine_config_set(model, clock_parameters[p / 2 % COUNT(clock_parameters)],
                           clock_values[v % COUNT(clock_values)], error, sizeof error);
        else
            machine_config_set(model, size_parameters[p / 2 % COUNT(size_parameters)],
                           size_values[v % COUNT(size_values)], error, sizeof error);
    }
}

/* Two events, each at CPL 0, 1-3 or both: the plan of one run (or two). */
static bool plan_events(struct fuzz_input *in, const struct machine_config *model,
                        struct alloc_request requests[2], struct alloc_plan *plan)
{
    static const char *const levels[] = {"", ":u", ":k"};
    struct nb_pmu_config config = {model->netburst.model, false};
    char text[128], error[256];
    for (int i = 0; i < 2; i++) {
        const struct p5_event *event = &p5_events[fuzz_byte(in) % p5_num_events];
        snprintf(text, sizeof text, "p5::%s%s", event->name, levels[fuzz_byte(in) % 3]);
        requests[i].group = ALLOC_NO_GROUP;
        if (!event_spec_parse(text, &config, &requests[i].spec, error, sizeof error))
            return false;
    }
    struct alloc_error why;
    return alloc_plan_make(requests, 2, &config, plan, &why);
}

static void simulate(struct fuzz_input *in, const char *path)
{
    struct machine_config model;
    char error[1024];
    if (!machine_config_choose("p5", &model, error, sizeof error))
        return;
    set_parameters(in, &model);
    long region = fuzz_byte(in) % 5;
    struct alloc_request requests[2];
    struct alloc_plan plan;
    if (!plan_events(in, &model, requests, &plan))
        return;
    uint64_t counts[2];
    struct stat_totals totals;
    const char *traces[] = {path};
    stat_simulate(traces, 1, &model, &plan, STAT_RUNS_ONE, region == 4 ? REGION_WHOLE_TRACE : region,
                  NULL, counts, &totals, error, sizeof error);
    alloc_plan_free(&plan);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = {data, size, 0};
    char path[64];
    int fd = fuzz_memory_file(path, sizeof path);
    if (fd < 0)
        return 0;
    if (fuzz_trace_write(&in, fd, fuzz_usual))
        simulate(&in, path);
    close(fd);
    return 0;
}
