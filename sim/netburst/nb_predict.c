/* Branch prediction (seed 000 4.4): a 4K-entry 4-way BTB with a 2-bit
 * counter per branch, the static rule on a BTB miss (backward taken,
 * forward not taken; unconditional taken) and a 16-entry return stack.
 * It predicts and learns in program order, with the trace's outcome. */
#include <stdlib.h>

#include "sim/netburst/nb_machine.h"

bool nb_predictor_init(struct nb_predictor *bp, const struct nbm_config *c)
{
    bp->ras_top = bp->ras_count = 0;
    bp->ras_entries = c->ras_entries;
    bp->ras = calloc(c->ras_entries, sizeof *bp->ras);
    if (bp->ras && nb_cache_init(&bp->btb, c->btb_entries, c->btb_ways))
        return true;
    free(bp->ras);
    bp->ras = NULL;
    return false;
}

void nb_predictor_free(struct nb_predictor *bp)
{
    nb_cache_free(&bp->btb);
    free(bp->ras);
    bp->ras = NULL;
}

/* ---- the return stack: a circular stack that overwrites its oldest entry */

static void ras_push(struct nb_predictor *bp, uint64_t address, uint32_t entries)
{
    bp->ras_top = (bp->ras_top + 1) % entries;
    bp->ras[bp->ras_top] = address;
    if (bp->ras_count < entries)
        bp->ras_count++;
}

static bool ras_pop(struct nb_predictor *bp, uint64_t *address, uint32_t entries)
{
    if (!bp->ras_count)
        return false;
    *address = bp->ras[bp->ras_top];
    bp->ras_top = (bp->ras_top + entries - 1) % entries;
    bp->ras_count--;
    return true;
}

/* ---- the BTB */

static long btb_entry(struct nb_predictor *bp, uint64_t address)
{
    long i = nb_cache_find(&bp->btb, address);
    if (i < 0) {
        uint64_t evicted;
        bool had;
        i = nb_cache_insert(&bp->btb, address, &evicted, &had);
        bp->btb.state[i] = 0xff; /* new: no history yet */
    }
    return i;
}

static bool conditional(struct nb_predictor *bp, const struct trace_insn *insn,
                        const struct nb_op *op, bool taken)
{
    long i = btb_entry(bp, insn->address);
    uint8_t *counter = &bp->btb.state[i];
    bool predicted;
    if (*counter == 0xff) {
        uint64_t target = op->has_target ? op->target : insn->target;
        predicted = target < insn->address && (op->has_target || taken);
        *counter = taken ? 2 : 1;
    } else {
        predicted = *counter >= 2;
        if (taken && *counter < 3)
            ++*counter;
        if (!taken && *counter > 0)
            --*counter;
    }
    return predicted != taken;
}

/* An indirect branch: the BTB's last target. */
static bool indirect(struct nb_predictor *bp, const struct trace_insn *insn)
{
    long i = btb_entry(bp, insn->address);
    bool hit = bp->btb.state[i] != 0xff && bp->btb.data[i] == insn->target;
    bp->btb.state[i] = 0;
    bp->btb.data[i] = insn->target;
    return !hit;
}

struct nb_prediction nb_predict(struct nb_predictor *bp, const struct trace_insn *insn,
                                const struct nb_op *op)
{
    bool taken = insn->branch == TRACE_BRANCH_TAKEN;
    struct nb_prediction p = {taken, false};
    uint64_t next = insn->address + insn->length, expected;
    switch (op->branch) {
    case X86_BRANCH_COND:
        p.mispredicted = conditional(bp, insn, op, taken);
        break;
    case X86_BRANCH_CALL:
        ras_push(bp, next, bp->ras_entries);
        break;
    case X86_BRANCH_INDIRECT_CALL:
        p.mispredicted = indirect(bp, insn);
        ras_push(bp, next, bp->ras_entries);
        break;
    case X86_BRANCH_INDIRECT_JUMP:
        p.mispredicted = indirect(bp, insn);
        break;
    case X86_BRANCH_RETURN:
        p.mispredicted = !ras_pop(bp, &expected, bp->ras_entries) || expected != insn->target;
        break;
    case X86_BRANCH_FAR:
    case X86_BRANCH_SOFT_INT:
        p.mispredicted = true; /* not predicted (seed 000 4.4) */
        break;
    default:
        break;
    }
    return p;
}
