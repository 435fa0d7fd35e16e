/* The U and V pipes: pairing, prefix decode clocks, address-generation
 * interlocks, the x87 registers' dependences, branch prediction and the
 * clocks of one issue, reported clock by clock to the PMU
 * (docs/p5-model.md, "Pipeline", cites each rule). */
#include "sim/p5/p5_machine.h"

/* ---- reporting clocks */

/* end_clocks() where the bus is looked up: each run of clocks in which it
 * stays busy, or idle, is one report. */
static void end_clocks_watching_bus(struct p5_machine *m, uint64_t n, uint64_t holding)
{
    while (n > 0) {
        bool busy;
        uint64_t run = p5_bus_run(&m->bus, m->now, n, &busy);
        uint64_t bus = busy ? p5_code_bit(P5_EV_CLOCKS_WHILE_BUS_CYCLE_IN_PROGRESS) : 0;
        p5_pmu_ticks(m->pmu, run, holding | bus);
        m->now += run;
        n -= run;
    }
}

/* Ends the clock being issued and the n - 1 after it, in which the
 * duration events of `holding` hold, and so does 0x18 in the clocks the bus
 * is busy (looked up in the bus timeline only when the PMU counts it).  The
 * bus transfers of an issue start at or after the clock being issued when
 * they are asked for, so the clocks ended are final. */
static inline void end_clocks(struct p5_machine *m, uint64_t n, uint64_t holding)
{
    if (p5_feed_counts(m->feed, P5_EV_CLOCKS_WHILE_BUS_CYCLE_IN_PROGRESS)) {
        end_clocks_watching_bus(m, n, holding);
        return;
    }
    p5_pmu_ticks(m->pmu, n, holding);
    m->now += n;
}

/* The clocks of an issue after its execution: data-read stalls (0x1a),
 * full write buffers (0x19), the other stalls and a flush. */
static void end_stalls(struct p5_machine *m, const struct p5_stalls *stalls, uint32_t flush)
{
    if (stalls->read)
        end_clocks(m, stalls->read, p5_code_bit(P5_EV_CLOCKS_STALLED_WAITING_DATA_READ));
    if (stalls->buffers)
        end_clocks(m, stalls->buffers, p5_code_bit(P5_EV_CLOCKS_STALLED_FULL_WRITE_BUFFERS));
    if (stalls->other + flush)
        end_clocks(m, stalls->other + flush, 0);
}

/* ---- the parts of an issue */

/* AGI: a base or index register written in the clock before (SDM;
 * counted once per pipe, Safford 1997, appendix A, event 0x1F). */
static uint32_t agi_pipes(const struct p5_machine *m, const struct p5_slot *u,
                          const struct p5_slot *v)
{
    return ((u->op->address_regs & m->agi_regs) != 0) +
           (v && (v->op->address_regs & m->agi_regs) != 0);
}

/* A REP string instruction's iterations: the bytes its data accesses
 * cover (the trace merges the iterations' accesses into ranges,
 * docs/traces.md) over the bytes of one iteration; at least a clock. */
static uint32_t rep_clocks(const struct p5_slot *s)
{
    uint64_t bytes = 0;
    for (int i = 0; i < s->insn->n_accesses; i++)
        bytes += s->insn->accesses[i].size;
    uint64_t iterations = s->op->rep_bytes ? bytes / s->op->rep_bytes : 0;
    uint64_t clocks = s->op->rep_base + s->op->rep_per * iterations;
    return clocks ? (uint32_t)clocks : 1;
}

/* The row's clocks (by the precision control for FDIV, FIDIV...: a trace
 * holds no control-word values, so the `fpu_precision` parameter says
 * which); a REP string instruction's by its iterations. */
static uint32_t varying_clocks(const struct p5_machine *m, const struct p5_slot *s)
{
    if (s->op->rep_string)
        return rep_clocks(s);
    return s->op->precision_clocks[m->config->fpu_precision];
}

static inline uint32_t execute_clocks(const struct p5_machine *m, const struct p5_slot *s)
{
    return s->op->clocks_vary ? varying_clocks(m, s) : s->op->clocks;
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
    p5_report_event(m, P5_EV_MEMORY_ACCESSES_IN_BOTH_PIPES, 1);
    uint64_t a = u->insn->accesses[0].address, b = v->insn->accesses[0].address;
    if (bank_of(m, a) != bank_of(m, b) || (a >> 2) == (b >> 2))
        return 0;
    p5_report_event(m, P5_EV_BANK_CONFLICTS, 1);
    return m->config->bank_conflict_penalty;
}

/* Far transfers and software interrupts: not predicted, the pipeline
 * flushed. */
static uint32_t unpredicted_branch(struct p5_machine *m, bool taken)
{
    if (taken)
        p5_report_event(m, P5_EV_TAKEN_BRANCH_OR_BTB_HIT, 1);
    p5_report_event(m, P5_EV_PIPELINE_FLUSHES, 1);
    return m->config->mispredict_penalty;
}

/* A branch through the BTB; the clocks lost when mispredicted (3 in the
 * U pipe, 4 in the V pipe). */
static uint32_t predicted_branch(struct p5_machine *m, const struct p5_slot *s, bool taken,
                                 bool in_v)
{
    struct p5_btb_entry *entry = p5_btb_lookup(&m->btb, s->op->address);
    if (entry)
        p5_report_event(m, P5_EV_BTB_HITS, 1);
    if (taken || entry)
        p5_report_event(m, P5_EV_TAKEN_BRANCH_OR_BTB_HIT, 1);
    bool predicted_taken = entry && entry->history >= 2;
    bool mispredicted = taken != predicted_taken || (taken && entry->target != s->insn->target);
    if (entry)
        p5_btb_update(entry, taken, s->insn->target);
    else if (taken)
        p5_btb_allocate(&m->btb, s->op->address, s->insn->target);
    if (!mispredicted)
        return 0;
    p5_report_event(m, P5_EV_PIPELINE_FLUSHES, 1);
    return m->config->mispredict_penalty + in_v;
}

/* A branch: its events, and the clocks of a flush. */
static uint32_t resolve_branch(struct p5_machine *m, const struct p5_slot *s, bool in_v)
{
    bool taken = s->insn->branch == TRACE_BRANCH_TAKEN;
    p5_report_event(m, P5_EV_BRANCHES, 1);
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
        p5_report_event(m, P5_EV_FLOPS, s->op->flops);
    if (s->op->segment_loads)
        p5_report_event(m, P5_EV_SEGMENT_REGISTER_LOADED, s->op->segment_loads);
    if (s->op->locked)
        p5_report_event(m, P5_EV_LOCKED_BUS_CYCLE, 1);
}

/* The occurrences every issue has: instructions, the V pipe, rare ones. */
static void count_issue(struct p5_machine *m, const struct p5_slot *u, const struct p5_slot *v)
{
    p5_report_event(m, P5_EV_INSTRUCTIONS_EXECUTED, v ? 2 : 1);
    if (u->op->rare_events)
        count_rare_events(m, u);
    if (!v)
        return;
    if (v->op->rare_events)
        count_rare_events(m, v);
    p5_report_event(m, P5_EV_INSTRUCTIONS_EXECUTED_IN_V_PIPE, 1);
}

/* The pipes' execution clocks (the longer of a pair) and the data
 * accesses' stalls. */
static uint32_t execute(struct p5_machine *m, const struct p5_slot *u, const struct p5_slot *v,
                        struct p5_stalls *stalls)
{
    if (u->insn->n_accesses)
        p5_data_accesses(m, u, stalls);
    uint32_t clocks = execute_clocks(m, u);
    if (!v)
        return clocks;
    if (v->insn->n_accesses)
        p5_data_accesses(m, v, stalls);
    uint32_t v_clocks = execute_clocks(m, v);
    return v_clocks > clocks ? v_clocks : clocks;
}

/* ---- the x87 stack by register (docs/p5-model.md, "x87 registers"):
 * the clock each of R0-R7 holds its value from, with the top of the
 * stack. */

static uint64_t *st_register(struct p5_machine *m, unsigned i)
{
    return &m->st_ready[(m->st_top + i) & 7];
}

/* Clocks until the ST(i) an instruction reads hold their values; FXCH
 * waits for none (it exchanges them, ready or not). */
static uint64_t x87_wait(struct p5_machine *m, const struct p5_op *op)
{
    if (op->fxch)
        return 0;
    uint64_t ready = m->now;
    for (unsigned i = 0; i < 8; i++)
        if ((op->st_read >> i & 1) && *st_register(m, i) > ready)
            ready = *st_register(m, i);
    return ready - m->now;
}

/* FXCH ST(i): ST(0) and ST(i) exchange registers, and a value still being
 * computed goes with its register: renaming (Agner Fog's P1 chapter,
 * "FXCH"). */
static void x87_exchange(struct p5_machine *m, const struct p5_op *op)
{
    unsigned i = 0;
    while (op->st_read >> (i + 1))
        i++;
    uint64_t st0 = *st_register(m, 0);
    *st_register(m, 0) = *st_register(m, i);
    *st_register(m, i) = st0;
}

/* The registers an instruction writes hold their values from `ready`: the
 * ST(i) written (relative to the top before it), then its pops, then its
 * pushes, each push writing the new top. */
static void x87_write(struct p5_machine *m, const struct p5_op *op, uint64_t ready)
{
    for (unsigned i = 0; i < 8; i++)
        if (op->st_written >> i & 1)
            *st_register(m, i) = ready;
    m->st_top = (m->st_top + op->st_pops) & 7;
    for (unsigned k = 0; k < op->st_pushes; k++) {
        m->st_top = (m->st_top - 1) & 7;
        *st_register(m, 0) = ready;
    }
}

/* After an x87 instruction began to execute at `start`: its result is
 * ready when its data has come (`read` stall clocks), its clocks have run
 * and its latency beyond them (FADD: 1 clock in the pipe, 3 to the
 * result). */
static void x87_done(struct p5_machine *m, const struct p5_slot *s, uint64_t start,
                     uint64_t read)
{
    if (s->op->fxch)
        x87_exchange(m, s->op);
    else
        x87_write(m, s->op, start + read + execute_clocks(m, s) + s->op->latency_beyond);
}

/* ---- the MMX registers (the Pentium MMX): the clock each of MM0-MM7
 * holds its value from, as the x87 registers' (docs/p5-model.md, "The
 * pmmx preset"). */

static uint64_t mm_ready_of(const struct p5_machine *m, uint8_t regs, uint64_t ready)
{
    for (unsigned i = 0; i < 8; i++)
        if ((regs >> i & 1) && m->mm_ready[i] > ready)
            ready = m->mm_ready[i];
    return ready;
}

/* Clocks until the MM registers the pair reads hold their values. */
static uint64_t mm_wait(const struct p5_machine *m, const struct p5_slot *u,
                        const struct p5_slot *v)
{
    return mm_ready_of(m, u->op->mm_read | (v ? v->op->mm_read : 0), m->now) - m->now;
}

/* The MM registers an instruction writes hold their values when its data
 * has come (`read` stall clocks), its clocks have run and its latency
 * beyond them (PMULLW: 1 clock in the pipe, 3 to the result: AP-559). */
static void mm_done(struct p5_machine *m, const struct p5_slot *s, uint64_t start, uint64_t read)
{
    uint64_t ready = start + read + execute_clocks(m, s) + s->op->latency_beyond;
    for (unsigned i = 0; i < 8; i++)
        if (s->op->mm_written >> i & 1)
            m->mm_ready[i] = ready;
}

static bool uses_mm(const struct p5_slot *s)
{
    return s && (s->op->mm_read | s->op->mm_written);
}

/* ---- one issue */

/* Decode clocks for the prefixes of u (a prefixed instruction issues in
 * the U pipe only): one per prefix byte, less the clocks the decoder had
 * while the issue before was held past its first clock (Intel VTune's
 * Pentium "Prefix Penalty Indicator": no penalty after a multi-clock
 * instruction), none of them after a flush or while code was fetched. */
static uint64_t prefix_clocks(const struct p5_machine *m, const struct p5_slot *u,
                              const struct p5_stalls *stalls)
{
    uint64_t ahead = stalls->fetch ? 0 : m->now - m->decode_free;
    return u->op->prefixes > ahead ? u->op->prefixes - ahead : 0;
}

/* An x87 instruction's registers after it executed from `start` (the U
 * pipe's, and an FXCH paired with it in the V pipe). */
static void x87_issued(struct p5_machine *m, const struct p5_slot *u, const struct p5_slot *v,
                       uint64_t start, uint64_t read)
{
    x87_done(m, u, start, read);
    if (v && v->op->x87)
        x87_done(m, v, start, read);
}

void p5_issue(struct p5_machine *m, const struct p5_slot *u, const struct p5_slot *v)
{
    p5_pmu_set_cpl(m->pmu, u->insn->cpl);
    count_issue(m, u, v);

    /* From the issue's first clock: the code-read stalls, the prefixes'
     * decode clocks, an AGI clock (none after a prefix clock: the address
     * register was written by then), the x87 operands' wait. */
    struct p5_stalls stalls = {0};
    p5_fetch(m, u, &stalls);
    if (v)
        p5_fetch(m, v, &stalls);
    uint64_t prefix = u->op->prefixes ? prefix_clocks(m, u, &stalls) : 0;
    uint32_t agi = prefix ? 0 : agi_pipes(m, u, v);
    if (stalls.fetch)
        end_clocks(m, stalls.fetch, 0);
    stalls.fetch = 0;
    if (prefix)
        end_clocks(m, prefix, 0);
    m->decode_free = m->now + 1; /* the decoder may go on to the next instruction */
    if (agi) {
        p5_report_event(m, P5_EV_PIPELINE_STALLED_ADDRESS_GENERATION_INTERLOCK, agi);
        end_clocks(m, 1, 0);
    }
    uint64_t x87 = u->op->x87 ? x87_wait(m, u->op) : 0;
    if (x87)
        end_clocks(m, x87, 0);
    bool mmx = uses_mm(u) || uses_mm(v);
    uint64_t mm = mmx ? mm_wait(m, u, v) : 0;
    if (mm)
        end_clocks(m, mm, 0);

    /* The clocks the pipes execute in, then the stalls and a flush. */
    uint64_t start = m->now;
    uint32_t clocks = execute(m, u, v, &stalls) + both_pipes_memory(m, u, v);
    uint32_t flush = (p5_is_branch(u->op) ? resolve_branch(m, u, false) : 0) +
                     (v && p5_is_branch(v->op) ? resolve_branch(m, v, true) : 0);
    if (u->op->x87)
        x87_issued(m, u, v, start, stalls.read);
    if (mmx) {
        mm_done(m, u, start, stalls.read);
        if (v)
            mm_done(m, v, start, stalls.read);
    }
    end_clocks(m, clocks, 0);
    bool stalled_after = stalls.read + stalls.buffers + stalls.other + flush > 0;
    if (stalled_after) {
        end_stalls(m, &stalls, flush);
        if (flush)
            m->decode_free = m->now; /* the pipeline refills: nothing decoded ahead */
    }
    m->agi_regs = stalled_after ? 0 : u->op->regs_written | (v ? v->op->regs_written : 0);
}
