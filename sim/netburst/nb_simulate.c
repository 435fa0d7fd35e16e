/* The trace driver: reads the trace as a stream, decodes each instruction
 * once (nb_op.c's cache) and times it through the machine; region markers
 * drain the pipeline and call the hook. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "sim/netburst/nb_machine.h"

struct run {
    struct nb_machine machine;
    struct nb_decode_cache decoded;
    struct trace_reader *reader;
    bool lengths_known;
    struct trace_record record;
    struct nb_op generic;
    char *error;
    size_t error_size;
};

__attribute__((format(printf, 2, 3))) static bool fail(struct run *run, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run->error, run->error_size, fmt, ap);
    va_end(ap);
    return false;
}

static bool instruction(struct run *run, const struct trace_insn *insn)
{
    const struct nb_op *op = &run->generic;
    if (!run->lengths_known || !insn->has_bytes) {
        nb_op_generic(insn, &run->generic);
    } else {
        switch (nb_decode(&run->decoded, insn, &op)) {
        case NB_DECODED:
            break;
        case NB_UNDECODABLE:
            return fail(run, "instruction at 0x%" PRIx64 ": its %u code bytes do not decode",
                        insn->address, insn->length);
        default:
            return fail(run, "out of memory decoding the instruction at 0x%" PRIx64,
                        insn->address);
        }
    }
    nb_instruction(&run->machine, insn, op);
    return true;
}

static void region(struct run *run, const struct nbm_hooks *hooks, bool begin, uint32_t id)
{
    nb_drain(&run->machine);
    run->machine.result->regions++;
    if (hooks && hooks->region) {
        hooks->region(hooks->context, 0, begin, id);
        nb_events_watch(&run->machine.events); /* the hook may have programmed the PMU */
    }
}

static bool simulate(struct run *run, const struct nbm_hooks *hooks)
{
    for (;;) {
        struct trace_record *rec = &run->record;
        if (trace_read(run->reader, rec) != TRACE_OK)
            return fail(run, "%s", trace_reader_error(run->reader));
        switch (rec->kind) {
        case TRACE_RECORD_INSN:
            if (!instruction(run, &rec->insn))
                return false;
            break;
        case TRACE_RECORD_REGION_BEGIN:
        case TRACE_RECORD_REGION_END:
            region(run, hooks, rec->kind == TRACE_RECORD_REGION_BEGIN, rec->region);
            break;
        case TRACE_RECORD_END:
            nb_drain(&run->machine);
            return true;
        }
    }
}

static bool run_file(struct run *run, FILE *in, const char *path, const struct nbm_hooks *hooks)
{
    run->reader = trace_reader_open(in, path, run->error, run->error_size);
    if (!run->reader)
        return false;
    const struct trace_header *header = trace_reader_header(run->reader);
    run->lengths_known = header->lengths_known;
    enum x86_mode mode = header->isa == TRACE_ISA_64 ? X86_MODE_64 : X86_MODE_32;
    bool ok = nb_decode_cache_init(&run->decoded, mode);
    if (!ok)
        fail(run, "%s: out of memory for the decoder", path);
    ok = ok && simulate(run, hooks);
    run->machine.result->cycles = run->machine.events.now;
    nb_decode_cache_free(&run->decoded);
    trace_reader_close(run->reader);
    return ok;
}

static bool check_arguments(int n_traces, const struct nbm_config *config,
                            struct msr_backend *backend, struct nb_pmu **pmu, char *error,
                            size_t error_size)
{
    if (n_traces != 1) {
        snprintf(error, error_size, "the NetBurst model runs one trace for now, not %d",
                 n_traces);
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
    FILE *in = fopen(traces[0], "rb");
    if (!in) {
        snprintf(error, error_size, "%s: %s", traces[0], strerror(errno));
        return false;
    }
    __fsetlocking(in, FSETLOCKING_BYCALLER); /* one thread reads it: no stdio locks */
    struct run *run = calloc(1, sizeof *run);
    bool ok = run != NULL;
    if (!ok)
        snprintf(error, error_size, "%s: out of memory", traces[0]);
    else if (!(ok = nb_machine_init(&run->machine, config, pmu, result)))
        snprintf(error, error_size, "%s: out of memory for the model", traces[0]);
    if (ok) {
        run->error = error;
        run->error_size = error_size;
        ok = run_file(run, in, traces[0], hooks);
        nb_machine_free(&run->machine);
    }
    free(run);
    fclose(in);
    return ok;
}
