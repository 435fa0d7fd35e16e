/* libFuzzer target: `pmubench sample`'s sampling through the library, as
 * cli/cmd_sample.c does it: a PEBS metric (:pebs, with the DS save area
 * set up in the simulated PMU's memory) or an event with a PMI on
 * overflow (IEBS, whose handler reloads the counter), planned by the
 * allocator, programmed by the programming library with the period's
 * preset, then the NetBurst model over a trace made from the input
 * (fuzz_model.h), counting all of it or a region.  The input chooses the
 * preset and parameters, the event, the period and the region, then the
 * trace (with registers, or not, for the PEBS records).  Seeds:
 * tests/fuzz/corpus_sample. */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "pmu/netburst_msrs.h"
#include "pmu/netburst_pmu.h"
#include "pmu/program.h"
#include "pmu/sim_memory.h"
#include "tests/fuzz/fuzz_model.h"

enum { DS_AREA = 0x10000, BUFFER = 0x100000, PEBS_RECORDS = 64 };
#define COUNTER_LIMIT (1ull << 40)

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

struct sampler {
    struct program *program;
    uint64_t preset;
    long region;
    bool running;
    msr_status status;
};

static void gate(void *context, int thread, bool begin, uint32_t region)
{
    (void)thread;
    struct sampler *s = context;
    if ((long)region != s->region || s->status != MSR_OK)
        return;
    s->running = begin;
    s->status = begin ? program_start(s->program) : program_stop(s->program);
}

/* The PMI handler: reloads the counter with the period, clears OVF. */
static void take_sample(void *context, int thread, uint64_t cycle, uint64_t eip, bool precise)
{
    (void)thread, (void)cycle, (void)eip;
    struct sampler *s = context;
    if (precise || s->status != MSR_OK)
        return;
    const struct alloc_assignment *a = &s->program->run->assignments[0];
    uint64_t cccr = s->running ? a->cccr_value : a->cccr_value & ~(1ull << 12);
    s->status = msr_write(s->program->backend, 0, NB_COUNTER_BASE + (uint32_t)a->counter,
                          s->preset);
    if (s->status == MSR_OK)
        s->status = msr_write(s->program->backend, 0, NB_CCCR_BASE + (uint32_t)a->counter, cccr);
}

/* The DS save area: the buffer, its absolute maximum, an interrupt
 * threshold past it and the counter reset (cmd_sample.c's layout). */
static bool setup_ds(struct msr_backend *backend, bool ia32e, uint64_t preset)
{
    struct sim_memory *memory = &nb_backend_pmu(backend)->memory;
    unsigned field = ia32e ? 8 : 4;
    uint64_t record = ia32e ? 144 : 40, base = DS_AREA + (ia32e ? 0x20 : 0x10);
    uint64_t maximum = BUFFER + record * PEBS_RECORDS;
    return msr_write(backend, 0, MSR_IA32_DS_AREA, DS_AREA) == MSR_OK &&
           sim_memory_write(memory, base, field, BUFFER) &&
           sim_memory_write(memory, base + field, field, BUFFER) &&
           sim_memory_write(memory, base + 2 * field, field, maximum) &&
           sim_memory_write(memory, base + 3 * field, field, maximum + record) &&
           sim_memory_write(memory, base + 4 * field, 8, preset);
}

/* The event or metric, with the PMI (and PEBS), planned alone. */
static bool make_plan(struct fuzz_input *in, const struct stat_model *model, bool pebs,
                 struct alloc_request *request, struct alloc_plan *plan)
{
    struct nb_pmu_config config = {model->netburst.model, false};
    char text[256], error[512];
    snprintf(text, sizeof text, "%s%s%s:ovf_pmi=t0", nb_model_prefix(config.model),
             pebs ? metrics[fuzz_byte(in) % METRICS] : events[fuzz_byte(in) % EVENTS],
             pebs ? ":pebs" : "");
    request->group = ALLOC_NO_GROUP;
    struct alloc_error why;
    return event_spec_parse(text, &config, &request->spec, error, sizeof error) &&
           alloc_plan_make(request, 1, &config, plan, &why);
}

static void sample(const char *path, const struct stat_model *model,
                   const struct alloc_plan *plan, struct sampler *s, bool ia32e, bool pebs)
{
    struct msr_backend *backend = nb_backend_create((struct nb_pmu_config){model->netburst.model,
                                                                       false});
    if (!backend)
        return;
    struct program program;
    program_init(&program, backend, 0, &plan->runs[0]);
    s->program = &program;
    uint64_t preset = s->preset;
    bool ok = program_setup(&program, &preset) == MSR_OK &&
              (!pebs || setup_ds(backend, ia32e, preset));
    s->running = s->region < 0;
    if (ok && s->running)
        ok = program_start(&program) == MSR_OK;
    struct nbm_hooks hooks = {.region = gate, .sample = take_sample, .context = s};
    struct nbm_result result;
    char error[1024];
    const char *traces[] = {path};
    if (ok)
        nbm_simulate(traces, 1, &model->netburst, backend, &hooks, &result, error, sizeof error);
    msr_backend_destroy(backend);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = {data, size, 0};
    struct stat_model model;
    struct fuzz_bound bound;
    if (!fuzz_netburst(&in, &model, &bound))
        return 0;
    bool pebs = fuzz_byte(&in) & 1;
    struct alloc_request request;
    struct alloc_plan events_plan;
    if (!make_plan(&in, &model, pebs, &request, &events_plan))
        return 0;
    long region = fuzz_byte(&in) % 5;
    struct sampler s = {.preset = COUNTER_LIMIT - 1 - fuzz_byte(&in) % 64,
                        .region = region == 4 ? -1 : region, .status = MSR_OK};
    bool ia32e = in.at < in.size && (in.data[in.at] & 1) &&
                 nb_model_info(model.netburst.model)->addr64; /* the trace's ISA flag */
    char path[64];
    int fd = fuzz_memory_file(path, sizeof path);
    if (fd >= 0 && fuzz_trace_write(&in, fd, bound))
        sample(path, &model, &events_plan, &s, ia32e, pebs);
    if (fd >= 0)
        close(fd);
    alloc_plan_free(&events_plan);
    return 0;
}
