/* The trace driver: reads each trace as a stream, decodes each instruction
 * once (nb_op.c's cache) and times it through the machine; region markers
 * drain the logical processor and call the hook.  With two traces (logical
 * processors 0 and 1) the one whose front end is furthest behind goes
 * next, so the cycles before both front ends are final. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/netburst_msrs.h"
#include "sim/netburst/nb_machine.h"
#include "traces/input_file.h"

struct thread_run {
    const char *path;
    FILE *in;
    struct trace_reader *reader;
    struct nb_decode_cache decoded;
    bool lengths_known;
    bool running;                /* its trace has not ended */
    bool hook_pending;           /* a region marker waits for its drain */
    bool region_begin;
    uint32_t region;
    struct nb_op generic;
};

struct run {
    struct nb_machine machine;
    struct thread_run thread[2];
    int threads;
    const struct nbm_hooks *hooks;
    char *error;
    size_t error_size;
    bool out_of_memory;          /* the failure is the run's, not the input's */
};

__attribute__((format(printf, 2, 3))) static bool fail(struct run *run, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run->error, run->error_size, fmt, ap);
    va_end(ap);
    return false;
}

/* fail() for want of memory (nbm_simulate sets errno). */
static bool out_of_memory(struct run *run, const char *path, const char *what)
{
    run->out_of_memory = true;
    return fail(run, "%s: out of memory %s", path, what);
}

static bool instruction(struct run *run, struct thread_run *tr, const struct trace_insn *insn)
{
    const struct nb_op *op = &tr->generic;
    if (!tr->lengths_known || !insn->has_bytes) {
        nb_op_generic(insn, &tr->generic);
    } else {
        switch (nb_decode(&tr->decoded, insn, &op)) {
        case DECODE_OK:
            break;
        case DECODE_UNDECODABLE:
            return fail(run, "%s: record %" PRIu64 ": instruction at 0x%" PRIx64 ": its %u "
                        "code bytes do not decode", tr->path,
                        trace_reader_record_number(tr->reader), insn->address, insn->length);
        default:
            return out_of_memory(run, tr->path, "for the decoder");
        }
    }
    nb_instruction(&run->machine, insn, op);
    return true;
}

/* The cycle every running logical processor has reached: nothing earlier
 * can get another event. */
static uint64_t horizon(const struct run *run)
{
    uint64_t h = UINT64_MAX;
    for (int t = 0; t < run->threads; t++) {
        uint64_t next = nb_lp_next(&run->machine.lp[t]);
        if (run->thread[t].running && next < h)
            h = next;
    }
    return h;
}

/* The running logical processor furthest behind, or -1. */
static int next_thread(const struct run *run)
{
    if (run->threads == 1)
        return run->thread[0].running ? 0 : -1;
    int best = -1;
    for (int t = 0; t < run->threads; t++)
        if (run->thread[t].running &&
            (best < 0 || nb_lp_next(&run->machine.lp[t]) < nb_lp_next(&run->machine.lp[best])))
            best = t;
    return best;
}

static void call_hook(struct run *run, int t)
{
    struct thread_run *tr = &run->thread[t];
    tr->hook_pending = false;
    if (run->hooks && run->hooks->region) {
        run->hooks->region(run->hooks->context, t, tr->region_begin, tr->region);
        nb_events_watch(&run->machine.events); /* the hook may have programmed the PMU */
    }
}

/* The trace of logical processor `t` has ended at cycle `end`. */
static void finish(struct run *run, int t, uint64_t end)
{
    run->thread[t].running = false;
    nb_events_thread_end(&run->machine.events, t, end);
    nb_set_shared(&run->machine, false);
}

/* The next record of logical processor `t`. */
static bool step(struct run *run, int t)
{
    struct thread_run *tr = &run->thread[t];
    struct nb_machine *m = &run->machine;
    m->cur = &m->lp[t];
    if (tr->hook_pending) {
        call_hook(run, t);
        return true;
    }
    /* In place: the model keeps nothing of a record past its step. */
    const struct trace_record *rec;
    if (trace_next(tr->reader, &rec) != TRACE_OK) {
        run->out_of_memory = trace_reader_out_of_memory(tr->reader);
        return fail(run, "%s", trace_reader_error(tr->reader));
    }
    nb_clear_resolve(m, rec->kind != TRACE_RECORD_END); /* the last instruction's: no wrong path */
    switch (rec->kind) {
    case TRACE_RECORD_INSN:
        return instruction(run, tr, &rec->insn);
    case TRACE_RECORD_REGION_BEGIN:
    case TRACE_RECORD_REGION_END:
        nb_drain(m);
        m->result->regions++;
        tr->hook_pending = true;
        tr->region_begin = rec->kind == TRACE_RECORD_REGION_BEGIN;
        tr->region = rec->region;
        return true;
    case TRACE_RECORD_END:
        finish(run, t, nb_drain(m));
        return true;
    }
    return true;
}

static bool simulate(struct run *run)
{
    uint64_t end = 0;
    for (int t; (t = next_thread(run)) >= 0;) {
        nb_events_advance(&run->machine.events, horizon(run));
        if (!step(run, t))
            return false;
        if (run->machine.events.failed)
            return out_of_memory(run, run->thread[t].path, "for the model's events");
        if (!run->thread[t].running && run->machine.lp[t].fe.t > end)
            end = run->machine.lp[t].fe.t;
    }
    nb_events_advance(&run->machine.events, end);
    return !run->machine.events.failed ||
           out_of_memory(run, run->thread[0].path, "for the model's events");
}

static bool open_trace(struct run *run, struct thread_run *tr, const char *path)
{
    tr->path = path;
    tr->in = input_open(path, run->error, run->error_size);
    if (!tr->in)
        return false;
    __fsetlocking(tr->in, FSETLOCKING_BYCALLER); /* one thread reads it: no stdio locks */
    errno = 0;
    tr->reader = trace_reader_open(tr->in, path, run->error, run->error_size);
    if (!tr->reader) {
        run->out_of_memory = errno == ENOMEM;
        return false;
    }
    const struct trace_header *header = trace_reader_header(tr->reader);
    tr->lengths_known = header->lengths_known;
    /* IA-32e retirements (the PEBS layout) need a model with EM64T. */
    run->machine.lp[tr - run->thread].ia32e =
        header->isa == TRACE_ISA_64 && nb_model_info(run->machine.config->model)->addr64;
    enum x86_mode mode = header->isa == TRACE_ISA_64 ? X86_MODE_64 : X86_MODE_32;
    if (!nb_decode_cache_init(&tr->decoded, mode))
        return out_of_memory(run, path, "for the decoder");
    tr->running = true;
    return true;
}

static void close_trace(struct thread_run *tr)
{
    nb_decode_cache_free(&tr->decoded);
    if (tr->reader)
        trace_reader_close(tr->reader);
    if (tr->in)
        fclose(tr->in);
}

static bool check_arguments(int n_traces, const struct nbm_config *config,
                            struct msr_backend *backend, struct nb_pmu **pmu, char *error,
                            size_t error_size)
{
    if (n_traces != 1 && n_traces != 2) {
        snprintf(error, error_size, "the NetBurst model runs one trace, or two with "
                 "Hyper-Threading, not %d", n_traces);
        return false;
    }
    if (!nbm_config_check(config, error, error_size))
        return false;
    *pmu = nb_backend_pmu(backend);
    if (!*pmu) {
        snprintf(error, error_size, "the NetBurst model needs the simulated NetBurst backend, "
                 "not '%s'", backend->kind);
        return false;
    }
    if ((*pmu)->config.model != config->model) {
        snprintf(error, error_size, "the backend emulates model %d, the configuration model %d",
                 (*pmu)->config.model, config->model);
        return false;
    }
    if (n_traces == 2 && !(*pmu)->config.ht) {
        snprintf(error, error_size, "two traces need a backend with Hyper-Threading "
                 "(nb_backend_create with ht=true)");
        return false;
    }
    return true;
}

bool nbm_simulate(const char *const traces[], int n_traces, const struct nbm_config *config,
                  struct msr_backend *backend, const struct nbm_hooks *hooks,
                  struct nbm_result *result, char *error, size_t error_size)
{
    memset(result, 0, sizeof *result);
    struct nb_pmu *pmu;
    if (!check_arguments(n_traces, config, backend, &pmu, error, error_size))
        return false;
    struct run *run = calloc(1, sizeof *run);
    if (!run) {
        snprintf(error, error_size, "%s: out of memory", traces[0]);
        errno = ENOMEM;
        return false;
    }
    *run = (struct run){.threads = n_traces, .hooks = hooks, .error = error,
                        .error_size = error_size};
    bool ok = nb_machine_init(&run->machine, config, pmu, n_traces, result) ||
              out_of_memory(run, traces[0], "for the model");
    run->machine.events.pmi_skid = config->pmi_skid;
    if (hooks) {
        run->machine.events.sample = hooks->sample;
        run->machine.events.context = hooks->context;
    }
    for (int t = 0; t < n_traces && ok; t++) {
        ok = open_trace(run, &run->thread[t], traces[t]);
        run->machine.lp[t].decoded = &run->thread[t].decoded;
    }
    ok = ok && simulate(run);
    result->cycles = run->machine.events.now;
    for (int t = 0; t < n_traces; t++)
        close_trace(&run->thread[t]);
    nb_machine_free(&run->machine);
    if (run->out_of_memory)
        errno = ENOMEM;
    free(run);
    return ok;
}
