/* The trace driver: reads the trace as a stream (sim/common/trace_driver.h),
 * decodes each instruction once (p5_op.h's decode cache), holds one back to
 * see whether the next pairs with it, and issues them through
 * p5_pipeline.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/common/trace_driver.h"
#include "sim/p5/p5_machine.h"

bool p5_machine_init(struct p5_machine *m, const struct p5_config *c, struct p5_pmu *pmu)
{
    memset(m, 0, sizeof *m);
    m->config = c;
    m->pmu = pmu;
    m->feed = p5_pmu_feed(pmu);
    p5_bus_init(&m->bus);
    bool ok = set_assoc_init(&m->dcache, c->dcache.size / c->dcache.line, c->dcache.ways,
                             c->dcache.line) &&
              set_assoc_init(&m->icache, c->icache.size / c->icache.line, c->icache.ways,
                             c->icache.line) &&
              set_assoc_init(&m->dtlb, c->dtlb.entries, c->dtlb.ways, c->dtlb.page) &&
              set_assoc_init(&m->itlb, c->itlb.entries, c->itlb.ways, c->itlb.page) &&
              (!c->l2_size || set_assoc_init(&m->l2, c->l2_size / c->l2_line, c->l2_ways,
                                             c->l2_line)) &&
              p5_btb_init(&m->btb, c->btb_entries, c->btb_ways);
    if (!ok)
        p5_machine_free(m);
    return ok;
}

void p5_machine_free(struct p5_machine *m)
{
    set_assoc_free(&m->dcache);
    set_assoc_free(&m->icache);
    set_assoc_free(&m->dtlb);
    set_assoc_free(&m->itlb);
    set_assoc_free(&m->l2);
    p5_btb_free(&m->btb);
}

/* ---- one run */

struct run {
    struct p5_machine machine;
    struct p5_decode_cache decoded;
    struct driver_trace trace;
    struct p5_slot held;            /* its record stays valid through the next record's read */
    struct p5_op held_op;           /* a copy when the cache or `generic` may change */
    struct p5_op generic;           /* the op of a record without code bytes */
    bool holding;
    uint64_t unclassified;          /* INSN records whose op has no timing row */
    struct driver_failure failure;
};

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
    if (!driver_has_code(&run->trace, insn)) {
        copy_held_op(run);
        generic_op(insn, &run->generic);
        slot->op = &run->generic;
        return true;
    }
    slot->op = p5_decode_hit(&run->decoded, insn);
    if (slot->op)
        return true;
    copy_held_op(run);
    enum decode_status status = p5_decode_miss(&run->decoded, insn, &slot->op);
    return status == DECODE_OK || driver_decode_failed(&run->failure, &run->trace, insn, status);
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
    run->unclassified += slot.op->unclassified;
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
        if (!driver_trace_next(&run->trace, &rec, &run->failure))
            return false;
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

/* The opened trace through the machine. */
static bool run_trace(struct run *run, const struct p5_sim_hooks *hooks,
                      struct p5_sim_result *result)
{
    bool ok = p5_decode_cache_init(&run->decoded, driver_trace_mode(&run->trace),
                                   run->machine.config->mmx) ||
              driver_out_of_memory(&run->failure, run->trace.path, "for the decoder");
    ok = ok && simulate(run, hooks, result);
    result->cycles = run->machine.now;
    result->unclassified = run->unclassified;
    p5_decode_cache_free(&run->decoded);
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
    struct run *run = calloc(1, sizeof *run);
    if (!run) {
        snprintf(error, error_size, "%s: out of memory", path);
        errno = ENOMEM;
        return false;
    }
    run->failure = (struct driver_failure){error, error_size, 0};
    bool ok = (p5_machine_init(&run->machine, config, pmu) ||
               driver_out_of_memory(&run->failure, path, "for the model's caches")) &&
              driver_trace_open(&run->trace, path, &run->failure) && run_trace(run, hooks, result);
    driver_trace_close(&run->trace);
    p5_machine_free(&run->machine);
    driver_set_errno(&run->failure);
    free(run);
    return ok;
}
