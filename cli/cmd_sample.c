/* pmubench sample: event-based sampling on the simulated NetBurst, PEBS
 * (the records the PEBS assist writes into the DS save area) or IEBS (the
 * EIPs the model samples when it takes a counter-overflow PMI).  The event
 * is planned by the allocator and programmed through the programming
 * library, as `pmubench stat` does; the DS save area is set up in the
 * simulated PMU's memory (docs/netburst-model.md, "Sampling"; README,
 * Commands). */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/atomic_file.h"
#include "commands.h"
#include "pmu/alloc.h"
#include "pmu/netburst_msrs.h"
#include "pmu/netburst_pmu.h"
#include "pmu/program.h"
#include "sim/netburst/nb_model.h"
#include "traces/trace.h"

static const char sample_usage[] =
    "usage: pmubench sample [-m netburst[-PRESET]] (--pebs METRIC | -e EVENT) --period N\n"
    "                       [--region N] [-o FILE] --trace FILE\n"
    "  --pebs METRIC  precise sampling on IQ_COUNTER4 (a replay-tagging metric, e.g.\n"
    "                 1stL_cache_load_miss_retired): one line per PEBS record,\n"
    "                 'pebs eip=0x... eflags=... eax=... ...' (the record's registers)\n"
    "  -e EVENT       imprecise sampling: a PMI to thread 0 on each overflow; one line\n"
    "                 per PMI the model takes, 'sample thread T cycle C eip 0x... precise 0'\n"
    "  --period N     events between samples (1 to 2^39)\n"
    "  --region N     count only inside region N (docs/traces.md, \"Regions\")\n";

enum { PEBS_DS_AREA = 0x10000, PEBS_BUFFER = 0x100000, PEBS_MAX_RECORDS = 1 << 20 };
#define COUNTER_LIMIT (1ull << 40)

struct sample_args {
    const char *model, *event, *trace, *output;
    bool pebs;
    uint64_t period;
    long region;
};

struct sampler {
    struct program *program;
    struct msr_backend *backend;
    long region;
    bool running;
    uint64_t preset;
    msr_status status;
    FILE *out;
    uint64_t samples;
};

static int usage_error(const char *message, const char *what)
{
    fprintf(stderr, "pmubench sample: ");
    fprintf(stderr, message, what);
    fprintf(stderr, "\n%s", sample_usage);
    return 2;
}

static bool parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *value)
{
    char *end;
    if (!*text || *text == '-')
        return false;
    unsigned long long v = strtoull(text, &end, 0);
    if (*end || v < min || v > max)
        return false;
    *value = v;
    return true;
}

static int parse_args(int argc, char **argv, struct sample_args *args)
{
    *args = (struct sample_args){.model = "netburst", .region = -1};
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            fputs(sample_usage, stdout);
            return 0;
        }
        static const char *const with_value[] = {"-m", "--pebs", "-e", "--period", "--region",
                                                 "--trace", "-o"};
        bool known = false;
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
            known |= strcmp(opt, with_value[k]) == 0;
        if (!known)
            return usage_error("unknown option '%s'", opt);
        if (i + 1 >= argc)
            return usage_error("%s needs a value", opt);
        const char *value = argv[++i];
        uint64_t number;
        if (strcmp(opt, "-m") == 0) {
            args->model = value;
        } else if (strcmp(opt, "--pebs") == 0 || strcmp(opt, "-e") == 0) {
            if (args->event)
                return usage_error("%s: one event only (--pebs or -e, once)", opt);
            args->event = value;
            args->pebs = strcmp(opt, "--pebs") == 0;
        } else if (strcmp(opt, "--period") == 0) {
            if (!parse_u64(value, 1, COUNTER_LIMIT / 2, &args->period))
                return usage_error("bad --period '%s' (expected 1 to 2^39)", value);
        } else if (strcmp(opt, "--region") == 0) {
            if (!parse_u64(value, 0, UINT32_MAX, &number))
                return usage_error("bad --region '%s'", value);
            args->region = (long)number;
        } else if (strcmp(opt, "--trace") == 0) {
            if (args->trace)
                return usage_error("%s: one trace only", opt);
            args->trace = value;
        } else {
            args->output = value;
        }
    }
    if (!args->event)
        return usage_error("%s", "no event (--pebs METRIC or -e EVENT)");
    if (!args->period)
        return usage_error("%s", "no --period");
    if (!args->trace)
        return usage_error("%s", "no --trace");
    return -1;
}

/* The trace's ISA, for the DS save area's layout. */
static bool trace_isa(const char *path, enum trace_isa *isa, char *error, size_t size)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        snprintf(error, size, "%s: cannot open", path);
        return false;
    }
    struct trace_reader *reader = trace_reader_open(in, path, error, size);
    if (reader) {
        *isa = trace_reader_header(reader)->isa;
        trace_reader_close(reader);
    }
    fclose(in);
    return reader != NULL;
}

static void gate(void *context, int thread, bool begin, uint32_t region)
{
    (void)thread;
    struct sampler *s = context;
    if ((long)region != s->region || s->status != MSR_OK)
        return;
    s->running = begin;
    s->status = begin ? program_start(s->program) : program_stop(s->program);
}

/* IEBS: the handler's work: print the sample, reload the counter with the
 * period and clear the CCCR's OVF (writing it as planned, with ENABLE only
 * while counting). */
static void take_sample(void *context, int thread, uint64_t cycle, uint64_t eip, bool precise)
{
    struct sampler *s = context;
    s->samples++;
    fprintf(s->out, "sample thread %d cycle %llu eip 0x%llx precise %d\n", thread,
            (unsigned long long)cycle, (unsigned long long)eip, precise ? 1 : 0);
    if (precise || s->status != MSR_OK)
        return;
    const struct alloc_assignment *a = &s->program->run->assignments[0];
    uint64_t cccr = a->cccr_value;
    if (!s->running)
        cccr &= ~(1ull << 12); /* ENABLE */
    s->status = msr_write(s->backend, 0, NB_COUNTER_BASE + (uint32_t)a->counter, s->preset);
    if (s->status == MSR_OK)
        s->status = msr_write(s->backend, 0, NB_CCCR_BASE + (uint32_t)a->counter, cccr);
}

static bool plan_event(const struct sample_args *args, const struct nbm_config *config,
                       struct alloc_request *request, struct alloc_plan *plan)
{
    struct nb_config nb = {config->model, false};
    char error[1024], text[1024];
    const char *prefix = strstr(args->event, "::") ? ""
                         : config->model >= 3     ? "netburst_p::"
                                                  : "netburst::";
    /* PEBS: ENABLE_PEBS, and OVF_PMI_T0 so that an overflow arms the
     * assist (docs/semantics.md, "PEBS", Arming); IEBS: the PMI. */
    snprintf(text, sizeof text, "%s%s%s%s", prefix, args->event, args->pebs ? ":pebs" : "",
             strstr(args->event, ":ovf_pmi=") ? "" : ":ovf_pmi=t0");
    request->group = ALLOC_NO_GROUP;
    if (!event_spec_parse(text, &nb, &request->spec, error, sizeof error)) {
        fprintf(stderr, "pmubench sample: %s\n", error);
        return false;
    }
    if (request->spec.pmu != PMU_NETBURST) {
        fprintf(stderr, "pmubench sample: '%s': not a NetBurst event\n", args->event);
        return false;
    }
    struct alloc_error why;
    if (!alloc_plan_make(request, 1, &nb, plan, &why)) {
        fprintf(stderr, "pmubench sample: %s: %s\n", args->event, why.message);
        return false;
    }
    return true;
}

/* The DS save area (SDM "DS Save Area", the PEBS fields; the layout of
 * pmu/netburst_sampling.c): the buffer base and index, the absolute
 * maximum, an interrupt threshold past it (no PMI: the records are read
 * back at the end) and the counter reset. */
static bool setup_ds(struct msr_backend *backend, bool ia32e, uint64_t preset)
{
    struct nb_pmu *pmu = nb_backend_pmu(backend);
    unsigned field = ia32e ? 8 : 4;
    uint64_t record = ia32e ? 144 : 40;
    uint64_t base = ia32e ? 0x20 : 0x10;
    uint64_t maximum = PEBS_BUFFER + record * PEBS_MAX_RECORDS;
    return msr_write(backend, 0, MSR_IA32_DS_AREA, PEBS_DS_AREA) == MSR_OK &&
           sim_memory_write(&pmu->memory, PEBS_DS_AREA + base, field, PEBS_BUFFER) &&
           sim_memory_write(&pmu->memory, PEBS_DS_AREA + base + field, field, PEBS_BUFFER) &&
           sim_memory_write(&pmu->memory, PEBS_DS_AREA + base + 2 * field, field, maximum) &&
           sim_memory_write(&pmu->memory, PEBS_DS_AREA + base + 3 * field, field,
                            maximum + record) &&
           sim_memory_write(&pmu->memory, PEBS_DS_AREA + base + 4 * field, 8, preset);
}

/* One line per PEBS record between the buffer base and the index. */
static uint64_t print_records(FILE *out, struct msr_backend *backend, bool ia32e)
{
    static const char *const names32[] = {"eflags", "eip", "eax", "ebx", "ecx",
                                          "edx",    "esi", "edi", "ebp", "esp"};
    static const char *const names64[] = {"rflags", "rip", "rax", "rbx", "rcx", "rdx",
                                          "rsi",    "rdi", "rbp", "rsp", "r8",  "r9",
                                          "r10",    "r11", "r12", "r13", "r14", "r15"};
    const struct nb_pmu *pmu = nb_backend_pmu(backend);
    unsigned field = ia32e ? 8 : 4, slots = ia32e ? 18 : 10;
    uint64_t index = sim_memory_read(&pmu->memory, PEBS_DS_AREA + (ia32e ? 0x28 : 0x14), field);
    uint64_t n = 0;
    for (uint64_t at = PEBS_BUFFER; at + (uint64_t)slots * field <= index;
         at += (uint64_t)slots * field, n++) {
        fprintf(out, "pebs %s=0x%llx", (ia32e ? names64 : names32)[1],
                (unsigned long long)sim_memory_read(&pmu->memory, at + field, field));
        for (unsigned k = 0; k < slots; k++)
            if (k != 1)
                fprintf(out, " %s=0x%llx", (ia32e ? names64 : names32)[k],
                        (unsigned long long)sim_memory_read(&pmu->memory, at + k * field, field));
        fputc('\n', out);
    }
    return n;
}

static int run_sampling(const struct sample_args *args, const struct nbm_config *config,
                        const struct alloc_plan *plan, FILE *out)
{
    char error[1024];
    enum trace_isa isa;
    if (!trace_isa(args->trace, &isa, error, sizeof error)) {
        fprintf(stderr, "pmubench sample: %s\n", error);
        return 2;
    }
    bool ia32e = isa == TRACE_ISA_64 && nb_model_info(config->model)->addr64;
    struct msr_backend *backend = nb_backend_create((struct nb_config){config->model, false});
    if (!backend) {
        fprintf(stderr, "pmubench sample: out of memory\n");
        return 2;
    }
    struct program program;
    program_init(&program, backend, 0, &plan->runs[0]);
    uint64_t preset = COUNTER_LIMIT - args->period;
    struct sampler s = {&program, backend, args->region, false, preset, MSR_OK, out, 0};
    bool ok = program_setup(&program, &preset) == MSR_OK && (!args->pebs || setup_ds(backend, ia32e, preset));
    if (ok && args->region < 0) {
        s.running = true;
        ok = program_start(&program) == MSR_OK;
    }
    if (!ok) {
        fprintf(stderr, "pmubench sample: programming the PMU failed (MSR 0x%x)\n",
                program.failed_msr);
        msr_backend_destroy(backend);
        return 2;
    }
    struct nbm_hooks hooks = {gate, &s};
    struct nbm_sample_hook hook = {take_sample, &s};
    struct nbm_result result;
    memset(&result, 0, sizeof result);
    const char *traces[1] = {args->trace};
    ok = nbm_simulate_sampling(traces, 1, config, backend, &hooks, &hook, &result, error,
                               sizeof error);
    if (ok && s.status != MSR_OK)
        snprintf(error, sizeof error, "an MSR access in a region or sample hook failed");
    if (ok && s.status == MSR_OK) {
        if (args->pebs)
            s.samples = print_records(out, backend, ia32e);
        fprintf(out, "samples %llu instructions %llu cycles %llu\n",
                (unsigned long long)s.samples, (unsigned long long)result.instructions[0],
                (unsigned long long)result.cycles);
    }
    msr_backend_destroy(backend);
    if (!ok || s.status != MSR_OK) {
        fprintf(stderr, "pmubench sample: %s\n", error);
        return 2;
    }
    return 0;
}

int cmd_sample(int argc, char **argv)
{
    struct sample_args args;
    int rc = parse_args(argc, argv, &args);
    if (rc >= 0)
        return rc;
    struct nbm_config config;
    char error[1024];
    const char *preset = strcmp(args.model, "netburst") == 0      ? "northwood"
                         : strncmp(args.model, "netburst-", 9) == 0 ? args.model + 9
                                                                    : NULL;
    if (!preset)
        return usage_error("unknown model '%s' (expected netburst or netburst-PRESET)",
                           args.model);
    if (!nbm_config_preset(preset, &config, error, sizeof error)) {
        fprintf(stderr, "pmubench sample: -m: %s\n", error);
        return 2;
    }
    struct alloc_request request;
    struct alloc_plan plan;
    if (!plan_event(&args, &config, &request, &plan))
        return 2;
    struct atomic_file file;
    FILE *out = stdout;
    if (args.output) {
        if (!atomic_open(&file, args.output, error, sizeof error)) {
            fprintf(stderr, "pmubench sample: %s\n", error);
            alloc_plan_free(&plan);
            return 2;
        }
        out = file.stream;
    }
    rc = run_sampling(&args, &config, &plan, out);
    alloc_plan_free(&plan);
    if (args.output) {
        if (rc != 0) {
            atomic_abort(&file);
        } else if (!atomic_commit(&file, error, sizeof error)) {
            fprintf(stderr, "pmubench sample: %s\n", error);
            rc = 2;
        }
    }
    return rc;
}
