/* The trace driver: reads the trace as a stream of basic blocks
 * (sim/common/trace_driver.h), takes each block's ops and issue groups from
 * its memo (p5_block.h), holds the last instruction of a block back when it
 * may pair with the first of the next, and issues the groups through
 * p5_pipeline.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/common/trace_driver.h"
#include "sim/p5/p5_block.h"
#include "sim/p5/p5_machine.h"

bool p5_machine_init(struct p5_machine *m, const struct p5_config *c, struct p5_pmu *pmu)
{
    memset(m, 0, sizeof *m);
    m->config = c;
    m->pmu = pmu;
    m->feed = p5_pmu_feed(pmu);
    p5_pmu_batch_init(&m->batch, pmu);
    m->cpl = -1;
    m->aligned_fits = c->dtlb.page >= 8;
    p5_bus_init(&m->bus);
    bool ok = set_assoc_init(&m->dcache, c->dcache.size / c->dcache.line, c->dcache.ways,
                             c->dcache.line) &&
              set_assoc_init(&m->icache, c->icache.size / c->icache.line, c->icache.ways,
                             c->icache.line) &&
              set_assoc_init(&m->dtlb, c->dtlb.entries, c->dtlb.ways, c->dtlb.page) &&
              set_assoc_init(&m->itlb, c->itlb.entries, c->itlb.ways, c->itlb.page) &&
              (!c->l2_size || set_assoc_init(&m->l2, c->l2_size / c->l2_line, c->l2_ways,
                                             c->l2_line)) &&
              set_assoc_init(&m->btb, c->btb_entries, c->btb_ways, 1);
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
    set_assoc_free(&m->btb);
}

/* ---- one run */

/* The instruction held back to see whether the next pairs with it (never
 * a branch): its op and its group alone in its block's memo, and a copy of
 * its execution's data accesses (the block's change with its next
 * execution), with room for those of the instruction it may pair with. */
struct held {
    const struct p5_op *op;
    const struct p5_group *alone;
    uint8_t cpl;
    uint32_t n_accesses;
    struct trace_access accesses[TRACE_MAX_ACCESSES + TRACE_MAX_BLOCK_ACCESSES];
};

struct run {
    struct p5_machine machine;
    /* The decoder of each instruction set (32-bit, 64-bit), made when code
     * of it first comes: an emulated run's processes may have both
     * (TRACE_RECORD_ISA). */
    struct p5_decode_cache decoded[2];
    bool decoder_made[2];
    struct p5_block_memos memos;
    struct p5_memo_context memo_context;
    struct driver_trace trace;
    struct held held;
    bool holding;
    uint64_t records;               /* records read before the current one */
    uint64_t unclassified;          /* instructions whose op has no timing row */
    struct driver_progress progress;
    struct driver_interval interval;
    struct driver_failure failure;
};

/* Holds the last instruction of `block` back. */
static void hold(struct run *run, const struct p5_plan *plan, const struct p5_block_memo *memo,
                 const struct trace_block *block)
{
    struct held *held = &run->held;
    const struct trace_block_insn *insn = &block->insns[memo->n_insns - 1];
    held->op = &memo->ops[memo->n_insns - 1];
    held->alone = &plan->held_alone;
    held->cpl = block->cpl;
    held->n_accesses = insn->n_accesses;
    memcpy(held->accesses, &block->accesses[insn->first_access],
           insn->n_accesses * sizeof held->accesses[0]);
    run->holding = true;
}

static void issue_held(struct run *run)
{
    if (!run->holding)
        return;
    struct p5_execution x = {run->held.accesses, 0};
    p5_set_cpl(&run->machine, run->held.cpl);
    p5_issue(&run->machine, run->held.alone, &x, true);
    run->holding = false;
}

/* The held instruction paired with the first of `block`: the accesses of
 * both in the held copy. */
static void issue_pair(struct run *run, const struct p5_block_memo *memo,
                       const struct trace_block *block)
{
    struct held *held = &run->held;
    const struct trace_block_insn *first = &block->insns[0];
    memcpy(&held->accesses[held->n_accesses], &block->accesses[first->first_access],
           first->n_accesses * sizeof held->accesses[0]);
    struct p5_shape u_shape = {held->accesses, 0, held->n_accesses};
    struct p5_shape v_shape = {held->accesses, held->n_accesses, first->n_accesses};
    struct p5_group pair;
    p5_group_make(held->op, &u_shape, &memo->ops[0], &v_shape,
                  first->branch == TRACE_BRANCH_TAKEN, &pair);
    struct p5_execution x = {held->accesses, block->next_address};
    p5_set_cpl(&run->machine, block->cpl);
    p5_issue(&run->machine, &pair, &x, true);
    run->holding = false;
}

/* The held instruction, paired with the block's first or alone; the
 * instruction the block's plan starts from. */
static unsigned issue_held_before(struct run *run, const struct p5_block_memo *memo,
                                  const struct trace_block *block)
{
    if (!run->holding)
        return 0;
    if (run->held.cpl != block->cpl || !p5_ops_pair(run->held.op, &memo->ops[0])) {
        issue_held(run);
        return 0;
    }
    issue_pair(run, memo, block);
    return 1;
}

static bool memo_failed(struct run *run, const struct trace_block *block,
                        const struct p5_memo_failure *failure)
{
    const struct trace_block_insn *insn = &block->insns[failure->insn];
    return driver_decode_failed_at(&run->failure, &run->trace, run->records + failure->insn + 1,
                                   insn->address, insn->length, failure->status);
}

static bool run_block(struct run *run, const struct trace_block *block)
{
    struct p5_block_memo *memo = p5_block_memo_of(&run->memos, block);
    struct p5_memo_failure failure;
    if (!memo)
        memo = p5_block_memo_make(&run->memos, &run->memo_context, block, &failure);
    if (!memo)
        return memo_failed(run, block, &failure);
    run->unclassified += memo->unclassified;
    struct p5_plan *plan = p5_block_plan(memo, block, issue_held_before(run, memo, block));
    if (!plan)
        return driver_out_of_memory(&run->failure, run->trace.path, "for the model");
    p5_set_cpl(&run->machine, block->cpl);
    struct p5_execution x = {block->accesses, block->next_address};
    p5_issue_plan(&run->machine, plan, &x);
    if (plan->hold_last)
        hold(run, plan, memo, block);
    return true;
}

/* A region marker: the held instruction issues first. */
static void region(struct run *run, const struct trace_record *record,
                   const struct p5_sim_hooks *hooks)
{
    issue_held(run);
    if (hooks && hooks->region) {
        p5_report_to_pmu(&run->machine);
        hooks->region(hooks->context, record->kind == TRACE_RECORD_REGION_BEGIN, record->region);
        run->machine.cpl = -1; /* whatever the hook did, the next issue sets it */
    }
}

static void msr_access(struct run *run, const struct trace_record *record,
                       const struct p5_sim_hooks *hooks)
{
    issue_held(run);
    if (hooks && hooks->msr) {
        p5_report_to_pmu(&run->machine);
        hooks->msr(hooks->context, run->machine.now, &record->msr);
        run->machine.cpl = -1; /* as after a region hook */
    }
}

/* The decoder of `isa`'s code, which the memos made from now on use;
 * false when it cannot be made. */
static bool use_decoder(struct run *run, enum trace_isa isa)
{
    int k = isa == TRACE_ISA_64;
    if (!run->decoder_made[k]) {
        if (!p5_decode_cache_init(&run->decoded[k], k ? X86_MODE_64 : X86_MODE_32,
                                  run->machine.config->mmx))
            return driver_out_of_memory(&run->failure, run->trace.path, "for the decoder");
        run->decoder_made[k] = true;
    }
    run->memo_context.cache = &run->decoded[k];
    return true;
}

/* An interval ends after this block: the PMU told everything so far. */
static void interval_end(struct run *run, uint64_t issued)
{
    p5_report_to_pmu(&run->machine);
    struct interval_point point = {issued, run->machine.now, 0};
    driver_interval_end(&run->interval, &point);
}

static bool simulate(struct run *run, const struct p5_sim_hooks *hooks,
                     struct p5_sim_result *result)
{
    for (;;) {
        const struct trace_block *block;
        const struct trace_record *rec;
        if (!driver_trace_next_block(&run->trace, &block, &rec, &run->failure))
            return false;
        if (block) {
            result->instructions += block->n_insns;
            if (!run_block(run, block))
                return false;
            run->records += block->n_insns;
            if (driver_progress_due(&run->progress, block->n_insns))
                driver_progress_update(&run->progress, driver_trace_bytes(&run->trace));
            uint64_t issued = result->instructions - run->holding;
            if (driver_interval_due(&run->interval, issued, run->machine.now))
                interval_end(run, issued);
            continue;
        }
        run->records++;
        switch (rec->kind) {
        case TRACE_RECORD_INSN:
            break; /* not handed out between blocks */
        case TRACE_RECORD_REGION_BEGIN:
        case TRACE_RECORD_REGION_END:
            result->regions++;
            region(run, rec, hooks);
            break;
        case TRACE_RECORD_MSR:
            msr_access(run, rec, hooks);
            break;
        case TRACE_RECORD_ISA:
            if (!use_decoder(run, rec->isa))
                return false;
            break;
        case TRACE_RECORD_END:
            issue_held(run);
            p5_report_to_pmu(&run->machine);
            return true;
        }
    }
}

/* The opened trace through the machine. */
static bool run_trace(struct run *run, const struct p5_sim_hooks *hooks,
                      struct p5_sim_result *result)
{
    p5_block_memos_init(&run->memos);
    driver_progress_init(&run->progress, hooks ? hooks->progress : NULL);
    driver_interval_init(&run->interval, hooks ? hooks->interval : NULL);
    run->memo_context = (struct p5_memo_context){NULL, run->trace.lengths_known,
                                                 run->machine.icache.block_shift};
    bool ok = use_decoder(run, run->trace.isa) && simulate(run, hooks, result);
    result->cycles = run->machine.now;
    result->unclassified = run->unclassified;
    p5_block_memos_free(&run->memos);
    for (int k = 0; k < 2; k++)
        if (run->decoder_made[k])
            p5_decode_cache_free(&run->decoded[k]);
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
              driver_trace_open(&run->trace, path, hooks ? hooks->trace_copy : NULL,
                                &run->failure) &&
              run_trace(run, hooks, result);
    driver_trace_close(&run->trace);
    p5_machine_free(&run->machine);
    driver_set_errno(&run->failure);
    free(run);
    return ok;
}
