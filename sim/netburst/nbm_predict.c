/* Branch prediction (the Pentium 4 monitoring study, section 4.4): a 4K-entry 4-way BTB with a 2-bit
 * counter per branch, the static rule on a BTB miss (backward taken,
 * forward not taken; unconditional taken) and a 16-entry return stack.
 * It predicts and learns in program order, with the trace's outcome.
 * With Hyper-Threading the BTB is shared (entries tagged with the logical
 * processor) and the return stack replicated (Optimization manual ch. 1). */
#include <stdlib.h>

#include "sim/netburst/nbm_machine.h"

bool nbm_ras_init(struct nbm_ras *ras, uint32_t size)
{
    ras->top = ras->count = 0;
    ras->size = size;
    ras->entries = calloc(size, sizeof *ras->entries);
    return ras->entries != NULL;
}

void nbm_ras_free(struct nbm_ras *ras)
{
    free(ras->entries);
    ras->entries = NULL;
}

/* ---- the return stack: a circular stack that overwrites its oldest entry */

static void ras_push(struct nbm_ras *ras, uint64_t address)
{
    ras->top = (ras->top + 1) % ras->size;
    ras->entries[ras->top] = address;
    if (ras->count < ras->size)
        ras->count++;
}

static bool ras_pop(struct nbm_ras *ras, uint64_t *address)
{
    if (!ras->count)
        return false;
    *address = ras->entries[ras->top];
    ras->top = (ras->top + ras->size - 1) % ras->size;
    ras->count--;
    return true;
}

/* ---- the BTB */

static long btb_entry(struct nbm_machine *m, uint64_t address)
{
    uint64_t key = address ^ m->cur->address_tag;
    long i = set_assoc_find(&m->btb, key);
    if (i < 0) {
        i = set_assoc_insert(&m->btb, key, NULL);
        m->btb.state[i] = 0xff; /* new: no history yet */
    }
    return i;
}

/* Whether a branch at `address` to `target` (0: unknown) is predicted
 * taken by the static rule (the Pentium 4 monitoring study, section 4.4.2). */
static bool static_taken(uint64_t address, uint64_t target)
{
    return target && target < address;
}

static bool conditional(struct nbm_machine *m, const struct nbm_insn *insn,
                        const struct nbm_op *op, bool taken)
{
    long i = btb_entry(m, insn->address);
    uint8_t *counter = &m->btb.state[i];
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

/* An indirect branch: the BTB's last target (*followed: the predicted
 * target, 0 on a miss). */
static bool indirect(struct nbm_machine *m, const struct nbm_insn *insn, uint64_t *followed)
{
    long i = btb_entry(m, insn->address);
    bool known = m->btb.state[i] != 0xff;
    *followed = known ? m->btb.data[i] : 0;
    bool hit = known && m->btb.data[i] == insn->target;
    m->btb.state[i] = 0;
    m->btb.data[i] = insn->target;
    return !hit;
}

/* Where the front end went after a mispredicted conditional branch. */
static uint64_t conditional_followed(const struct nbm_insn *insn, const struct nbm_op *op,
                                     bool taken)
{
    if (taken)
        return insn->address + insn->length; /* predicted not taken */
    return op->has_target ? op->target : 0;
}

struct nbm_prediction nbm_predict(struct nbm_machine *m, const struct nbm_insn *insn,
                                  const struct nbm_op *op)
{
    bool taken = insn->branch == TRACE_BRANCH_TAKEN;
    struct nbm_prediction p = {taken, false, 0};
    struct nbm_ras *ras = &m->cur->ras;
    uint64_t next = insn->address + insn->length, expected;
    switch (op->branch) {
    case X86_BRANCH_COND:
        p.mispredicted = conditional(m, insn, op, taken);
        p.followed = conditional_followed(insn, op, taken);
        break;
    case X86_BRANCH_CALL:
        ras_push(ras, next);
        break;
    case X86_BRANCH_INDIRECT_CALL:
        p.mispredicted = indirect(m, insn, &p.followed);
        ras_push(ras, next);
        break;
    case X86_BRANCH_INDIRECT_JUMP:
        p.mispredicted = indirect(m, insn, &p.followed);
        break;
    case X86_BRANCH_RETURN: {
        bool known = ras_pop(ras, &expected);
        p.mispredicted = !known || expected != insn->target;
        p.followed = known ? expected : 0;
        break;
    }
    case X86_BRANCH_FAR:
    case X86_BRANCH_SOFT_INT:
        p.mispredicted = true; /* not predicted (the Pentium 4 monitoring study, section 4.4): no wrong path */
        break;
    default:
        break;
    }
    return p;
}

uint64_t nbm_predict_wrong_path(struct nbm_machine *m, uint64_t address, const struct nbm_op *op)
{
    uint64_t next = address + op->length;
    switch (op->branch) {
    case X86_BRANCH_NONE:
        return next;
    case X86_BRANCH_COND: {
        long i = set_assoc_peek(&m->btb, address ^ m->cur->address_tag);
        uint64_t target = op->has_target ? op->target : 0;
        bool taken = i >= 0 && m->btb.state[i] != 0xff ? m->btb.state[i] >= 2
                                                       : static_taken(address, target);
        return taken ? target : next;
    }
    case X86_BRANCH_JUMP:
    case X86_BRANCH_CALL:
        return op->has_target ? op->target : 0;
    default:
        return 0; /* indirect, return, far: the target is not known */
    }
}
