/* The U and V pipes: pairing, address-generation interlocks, branch
 * prediction and the clocks of one issue, emitted clock by clock into the
 * PMU (docs/p5-model.md, "Pipeline", cites each rule). */
#include "sim/p5/p5_machine.h"

/* ---- pairing (Pentium Processor User's Manual 3.1.2; isa/p5_pairing.c) */

static bool is_branch(const struct p5_op *op)
{
    return op->branch != X86_BRANCH_NONE;
}

bool p5_can_lead_pair(const struct p5_op *op)
{
    return !is_branch(op) && (op->cls == X86_P5_UV || op->cls == X86_P5_PU || op->cls == X86_P5_FX);
}

static bool classes_pair(const struct p5_op *u, const struct p5_op *v)
{
    if (u->cls == X86_P5_FX || v->fxch) /* FXCH pairs only after an FX instruction */
        return u->cls == X86_P5_FX && v->fxch;
    return (u->cls == X86_P5_UV || u->cls == X86_P5_PU) &&
           (v->cls == X86_P5_UV || v->cls == X86_P5_PV);
}

/* No read-after-write or write-after-write register dependence, except
 * a flags-setting instruction followed by a conditional branch, and two
 * stack instructions (ESP). Writing the flags twice is no dependence. */
static bool independent(const struct p5_op *u, const struct p5_op *v)
{
    uint32_t written = u->regs_written;
    if (v->branch == X86_BRANCH_COND)
        written &= ~X86_REG_FLAGS;
    if (u->stack && v->stack)
        written &= ~X86_REG_BIT(X86_GPR_SP);
    return !(written & v->regs_read) && !(written & ~X86_REG_FLAGS & v->regs_written);
}

bool p5_can_pair(const struct p5_slot *u, const struct p5_slot *v)
{
    return p5_can_lead_pair(u->op) && classes_pair(u->op, v->op) &&
           u->insn->cpl == v->insn->cpl && independent(u->op, v->op);
}

/* ---- emitting clocks */

/* n clocks, each with `count` occurrences of the duration event `code`
 * (EV_NONE: none) and one of bus-cycle-in-progress while the bus is busy.
 * Occurrences waiting from p5_event() go into the first clock alone: the
 * rest are ended in bulk, p5_pmu_ticks() repeating only the durations. */
static void emit_run(struct p5_machine *m, uint32_t n, unsigned code, uint32_t count)
{
    while (n > 0) {
        bool busy;
        uint32_t run = p5_bus_run(&m->bus, m->now, n, &busy);
        if (m->occurrences_pending) {
            run = 1;
            m->occurrences_pending = false;
        }
        if (code != EV_NONE && ((m->wanted >> code) & 1))
            p5_pmu_event(m->pmu, code, count);
        if (busy && ((m->wanted >> EV_BUS_BUSY) & 1))
            p5_pmu_event(m->pmu, EV_BUS_BUSY, 1);
        p5_pmu_ticks(m->pmu, run);
        m->now += run;
        n -= run;
    }
}

static inline void emit_clocks(struct p5_machine *m, uint32_t n, unsigned code, uint32_t count)
{
    if (n)
        emit_run(m, n, code, count);
}

/* The codes the CESR selects (ES0 bits 5:0, CC0 8:6, ES1 21:16, CC1
 * 24:22; pmu/p5_pmu.c): a counter whose CC counts at some CPL. */
static void select_codes(struct p5_machine *m)
{
    uint64_t cesr = m->pmu->cesr;
    if (cesr == m->cesr_seen)
        return;
    m->cesr_seen = cesr;
    m->wanted = 0;
    for (unsigned shift = 0; shift <= 16; shift += 16)
        if ((cesr >> (shift + 6)) & 3)
            m->wanted |= 1ull << ((cesr >> shift) & 0x3f);
}

/* ---- the parts of an issue */

/* AGI: a base or index register written in the clock before (SDM;
 * counted once per pipe, seed L1529). */
static uint32_t agi_pipes(const struct p5_machine *m, const struct p5_slot *u,
                          const struct p5_slot *v)
{
    return ((u->op->address_regs & m->agi_regs) != 0) +
           (v && (v->op->address_regs & m->agi_regs) != 0);
}

static uint32_t execute_clocks(const struct p5_slot *s)
{
    uint32_t clocks = s->op->clocks;
    if (s->op->rep_string && (uint32_t)s->insn->n_accesses > clocks)
        clocks = (uint32_t)s->insn->n_accesses;
    return clocks;
}

static uint32_t bank_of(const struct p5_machine *m, uint64_t address)
{
    return (uint32_t)(address >> 2) & (m->config->dcache_banks - 1);
}

/* Both pipes accessing memory; the same bank but another dword is a bank
 * conflict (one clock, Intel VTune's Pentium "Bank Conflict"). */
static uint32_t both_pipes_memory(struct p5_machine *m, const struct p5_slot *u,
                                  const struct p5_slot *v)
{
    if (!v || !u->insn->n_accesses || !v->insn->n_accesses)
        return 0;
    p5_event(m, EV_BOTH_PIPES_MEMORY, 1);
    uint64_t a = u->insn->accesses[0].address, b = v->insn->accesses[0].address;
    if (bank_of(m, a) != bank_of(m, b) || (a >> 2) == (b >> 2))
        return 0;
    p5_event(m, EV_BANK_CONFLICT, 1);
    return m->config->bank_conflict_penalty;
}

/* Far transfers and software interrupts: not predicted, the pipeline
 * flushed. */
static uint32_t unpredicted_branch(struct p5_machine *m, bool taken)
{
    if (taken)
        p5_event(m, EV_TAKEN_OR_BTB_HIT, 1);
    p5_event(m, EV_PIPELINE_FLUSH, 1);
    return m->config->mispredict_penalty;
}

/* A branch through the BTB; the clocks lost when mispredicted (3 in the
 * U pipe, 4 in the V pipe). */
static uint32_t predicted_branch(struct p5_machine *m, const struct p5_slot *s, bool taken,
                                 bool in_v)
{
    struct p5_btb_entry *entry = p5_btb_lookup(&m->btb, s->op->address);
    if (entry)
        p5_event(m, EV_BTB_HIT, 1);
    if (taken || entry)
        p5_event(m, EV_TAKEN_OR_BTB_HIT, 1);
    bool predicted_taken = entry && entry->history >= 2;
    bool mispredicted = taken != predicted_taken || (taken && entry->target != s->insn->target);
    if (entry)
        p5_btb_update(entry, taken, s->insn->target);
    else if (taken)
        p5_btb_allocate(&m->btb, s->op->address, s->insn->target);
    if (!mispredicted)
        return 0;
    p5_event(m, EV_PIPELINE_FLUSH, 1);
    return m->config->mispredict_penalty + in_v;
}

static uint32_t resolve_branch(struct p5_machine *m, const struct p5_slot *s, bool in_v)
{
    if (!is_branch(s->op))
        return 0;
    bool taken = s->insn->branch == TRACE_BRANCH_TAKEN;
    p5_event(m, EV_BRANCH, 1);
    if (taken)
        m->fetch_line = 0;
    if (s->op->branch == X86_BRANCH_FAR || s->op->branch == X86_BRANCH_SOFT_INT)
        return unpredicted_branch(m, taken);
    return predicted_branch(m, s, taken, in_v);
}

/* The events of an instruction other than 0x16 and 0x17 (rare). */
static void count_rare_events(struct p5_machine *m, const struct p5_slot *s)
{
    if (s->op->flops)
        p5_event(m, EV_FLOP, s->op->flops);
    if (s->op->segment_loads)
        p5_event(m, EV_SEGMENT_LOAD, s->op->segment_loads);
    if (s->op->locked)
        p5_event(m, EV_LOCKED_BUS_CYCLE, 1);
}

/* The occurrences every issue has: instructions, the V pipe, rare ones. */
static void count_issue(struct p5_machine *m, const struct p5_slot *u, const struct p5_slot *v)
{
    p5_event(m, EV_INSTRUCTION, v ? 2 : 1);
    if (u->op->rare_events)
        count_rare_events(m, u);
    if (!v)
        return;
    if (v->op->rare_events)
        count_rare_events(m, v);
    p5_event(m, EV_V_PIPE, 1);
}

/* The pipes' execution clocks (the longer of a pair) and the data
 * accesses' stalls. */
static uint32_t execute(struct p5_machine *m, const struct p5_slot *u, const struct p5_slot *v,
                        struct p5_stalls *stalls)
{
    if (u->insn->n_accesses)
        p5_data_accesses(m, u, stalls);
    uint32_t clocks = execute_clocks(u);
    if (!v)
        return clocks;
    if (v->insn->n_accesses)
        p5_data_accesses(m, v, stalls);
    uint32_t v_clocks = execute_clocks(v);
    return v_clocks > clocks ? v_clocks : clocks;
}

void p5_issue(struct p5_machine *m, const struct p5_slot *u, const struct p5_slot *v)
{
    if (m->pmu->cpl != u->insn->cpl)
        p5_pmu_set_cpl(m->pmu, u->insn->cpl);
    select_codes(m);
    count_issue(m, u, v);

    struct p5_stalls stalls = {0};
    p5_fetch(m, u, &stalls);
    if (v)
        p5_fetch(m, v, &stalls);
    emit_clocks(m, stalls.fetch, EV_NONE, 0);
    stalls.fetch = 0;
    uint32_t agi = agi_pipes(m, u, v);
    emit_clocks(m, agi ? 1 : 0, EV_AGI, agi);

    uint32_t clocks = execute(m, u, v, &stalls) + both_pipes_memory(m, u, v);
    uint32_t flush = resolve_branch(m, u, false) + (v ? resolve_branch(m, v, true) : 0);
    emit_clocks(m, clocks, EV_NONE, 0);
    emit_clocks(m, stalls.read, EV_DATA_READ_STALL, 1);
    emit_clocks(m, stalls.buffers, EV_WRITE_BUFFERS_FULL, 1);
    emit_clocks(m, stalls.other + flush, EV_NONE, 0);

    bool stalled_after = stalls.read + stalls.buffers + stalls.other + flush > 0;
    m->agi_regs = stalled_after ? 0 : u->op->regs_written | (v ? v->op->regs_written : 0);
}
