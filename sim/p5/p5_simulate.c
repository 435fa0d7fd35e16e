/* The trace driver: reads the trace as a stream, decodes each instruction
 * once (p5_op.h's decode cache), holds one back to see whether the next pairs
 * with it, and issues them through p5_pipeline.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "sim/p5/p5_machine.h"
#include "traces/input_file.h"

bool p5_machine_init(struct p5_machine *m, const struct p5_config *c, struct p5_pmu *pmu)
{
    memset(m, 0, sizeof *m);
    m->config = c;
    m->pmu = pmu;
    m->counting.cpl = ~0u; /* set up at the first issue */
    p5_bus_init(&m->bus);
    bool ok = p5_cache_init(&m->dcache, c->dcache.size / c->dcache.line, c->dcache.ways,
                            c->dcache.line) &&
              p5_cache_init(&m->icache, c->icache.size / c->icache.line, c->icache.ways,
                            c->icache.line) &&
              p5_cache_init(&m->dtlb, c->dtlb.entries, c->dtlb.ways, c->dtlb.page) &&
              p5_cache_init(&m->itlb, c->itlb.entries, c->itlb.ways, c->itlb.page) &&
              (!c->l2_size || p5_cache_init(&m->l2, c->l2_size / c->l2_line, c->l2_ways,
                                            c->l2_line)) &&
              p5_btb_init(&m->btb, c->btb_entries, c->btb_ways);
    if (!ok)
        p5_machine_free(m);
    return ok;
}

void p5_machine_free(struct p5_machine *m)
{
    p5_cache_free(&m->dcache);
    p5_cache_free(&m->icache);
    p5_cache_free(&m->dtlb);
    p5_cache_free(&m->itlb);
    p5_cache_free(&m->l2);
    p5_btb_free(&m->btb);
}

/* ---- one run */

struct run {
    struct p5_machine machine;
    struct p5_decode_cache decoded;
    struct trace_reader *reader;
    const char *path;
    bool lengths_known;
    struct p5_slot held;            /* its record stays valid through the next trace_next() */
    struct p5_op held_op;           /* a copy when the cache or `generic` may change */
    struct p5_op generic;           /* the op of a record without code bytes */
    bool holding;
    char *error;
    size_t error_size;
    bool out_of_memory;             /* the failure is the run's, not the trace's */
};

__attribute__((format(printf, 2, 3))) static bool fail(struct run *run, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run->error, run->error_size, fmt, ap);
    va_end(ap);
    return false;
}

/* fail() for want of memory (p5_simulate_trace sets errno). */
static bool out_of_memory(struct run *run, const char *what)
{
    run->out_of_memory = true;
    return fail(run, "%s: out of memory %s", run->path, what);
}

/* Records without code bytes (imports): a simple instruction, or a
 * conditional branch when the trace says it branched. */
static void generic_op(const struct trace_insn *insn, struct p5_op *op)
{
    p5_op_generic(insn->address, insn->length, op);
    if (insn->branch != TRACE_NOT_BRANCH) {
        op->branch = X86_BRANCH_COND;
        op->cls = X86_P5_PV;
    }
}

/* The held op, when it is not a copy already, before what it points to
 * changes. */
static void copy_held_op(struct run *run)
{
    if (run->holding && run->held.op != &run->held_op) {
        run->held_op = *run->held.op;
        run->held.op = &run->held_op;
    }
}

static bool make_slot(struct run *run, const struct trace_insn *insn, struct p5_slot *slot)
{
    slot->insn = insn;
    if (!run->lengths_known || !insn->has_bytes) {
        copy_held_op(run);
        generic_op(insn, &run->generic);
        slot->op = &run->generic;
        return true;
    }
    slot->op = p5_decode_hit(&run->decoded, insn);
    if (slot->op)
        return true;
    copy_held_op(run);
    switch (p5_decode_miss(&run->decoded, insn, &slot->op)) {
    case DECODE_OK:
        return true;
    case DECODE_UNDECODABLE:
        return fail(run, "%s: record %" PRIu64 ": instruction at 0x%" PRIx64 ": its %u code "
                    "bytes do not decode", run->path, trace_reader_record_number(run->reader),
                    insn->address, insn->length);
    default:
        return out_of_memory(run, "for the decoder");
    }
}

static void issue_held(struct run *run)
{
    if (run->holding)
        p5_issue(&run->machine, &run->held, NULL);
    run->holding = false;
}

static bool instruction(struct run *run, const struct trace_insn *insn)
{
    struct p5_slot slot;
    if (!make_slot(run, insn, &slot))
        return false;
    if (run->holding && p5_can_pair(&run->held, &slot)) {
        p5_issue(&run->machine, &run->held, &slot);
        run->holding = false;
        return true;
    }
    issue_held(run);
    if (!p5_can_lead_pair(slot.op)) {
        p5_issue(&run->machine, &slot, NULL);
        return true;
    }
    run->held = slot;
    run->holding = true;
    return true;
}

static bool simulate(struct run *run, const struct p5_sim_hooks *hooks,
                     struct p5_sim_result *result)
{
    for (;;) {
        const struct trace_record *rec;
        if (trace_next(run->reader, &rec) != TRACE_OK) {
            run->out_of_memory = trace_reader_out_of_memory(run->reader);
            return fail(run, "%s", trace_reader_error(run->reader));
        }
        switch (rec->kind) {
        case TRACE_RECORD_INSN:
            result->instructions++;
            if (!instruction(run, &rec->insn))
                return false;
            break;
        case TRACE_RECORD_REGION_BEGIN:
        case TRACE_RECORD_REGION_END:
            issue_held(run);
            result->regions++;
            if (hooks && hooks->region)
                hooks->region(hooks->context, rec->kind == TRACE_RECORD_REGION_BEGIN,
                              rec->region);
            break;
        case TRACE_RECORD_END:
            issue_held(run);
            return true;
        }
    }
}

static bool run_file(struct run *run, FILE *in, const char *path, const struct p5_sim_hooks *hooks,
                     struct p5_sim_result *result)
{
    run->path = path;
    errno = 0;
    run->reader = trace_reader_open(in, path, run->error, run->error_size);
    if (!run->reader) {
        run->out_of_memory = errno == ENOMEM;
        return false;
    }
    const struct trace_header *header = trace_reader_header(run->reader);
    run->lengths_known = header->lengths_known;
    enum x86_mode mode = header->isa == TRACE_ISA_64 ? X86_MODE_64 : X86_MODE_32;
    bool ok = p5_decode_cache_init(&run->decoded, mode) || out_of_memory(run, "for the decoder");
    ok = ok && simulate(run, hooks, result);
    result->cycles = run->machine.now;
    p5_decode_cache_free(&run->decoded);
    trace_reader_close(run->reader);
    return ok;
}

bool p5_simulate_trace(const char *path, const struct p5_config *config,
                       struct msr_backend *backend, const struct p5_sim_hooks *hooks,
                       struct p5_sim_result *result, char *error, size_t error_size)
{
    memset(result, 0, sizeof *result);
    if (!p5_config_check(config, error, error_size))
        return false;
    struct p5_pmu *pmu = p5_backend_pmu(backend);
    if (!pmu) {
        snprintf(error, error_size, "the P5 model needs the simulated P5 backend, not '%s'",
                 backend->kind);
        return false;
    }
    FILE *in = input_open(path, error, error_size);
    if (!in)
        return false;
    __fsetlocking(in, FSETLOCKING_BYCALLER); /* one thread reads it: no stdio locks */
    struct run *run = calloc(1, sizeof *run);
    bool ok = run != NULL;
    if (!ok)
        snprintf(error, error_size, "%s: out of memory", path);
    else if (!(ok = p5_machine_init(&run->machine, config, pmu)))
        snprintf(error, error_size, "%s: out of memory for the model's caches", path);
    bool memory_ran_out = !ok;
    if (ok) {
        run->error = error;
        run->error_size = error_size;
        ok = run_file(run, in, path, hooks, result);
        memory_ran_out = run->out_of_memory;
        p5_machine_free(&run->machine);
    }
    free(run);
    fclose(in);
    if (memory_ran_out)
        errno = ENOMEM;
    return ok;
}
