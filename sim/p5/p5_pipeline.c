/* The U and V pipes: pairing, prefix decode clocks, address-generation
 * interlocks, the x87 registers' dependences, branch prediction and the
 * clocks of one issue, reported clock by clock to the PMU
 * (docs/p5-model.md, "Pipeline", cites each rule). */
#include "sim/p5/p5_machine.h"

/* One instruction of an issue: its op and its execution's data accesses
 * (for the steps that need more than the group's summary). */
struct p5_slot {
    const struct p5_op *op;
    const struct trace_access *accesses;
    uint32_t n_accesses;
};

/* The group's u and v (v.op NULL when u issues alone). */
static void slots_of(const struct p5_group *g, const struct p5_execution *x, struct p5_slot *u,
                     struct p5_slot *v)
{
    *u = (struct p5_slot){g->u_op, x->accesses + g->u_first, g->u_accesses};
    *v = (struct p5_slot){g->v_op, x->accesses + g->v_first, g->v_accesses};
}

/* ---- reporting clocks */

/* end_clocks() where the bus is looked up: each run of clocks in which it
 * stays busy, or idle, is one report. */
static void end_clocks_watching_bus(struct p5_machine *m, uint64_t n, uint64_t holding)
{
    while (n > 0) {
        bool busy;
        uint64_t run = p5_bus_run(&m->bus, m->now, n, &busy);
        uint64_t bus = busy ? p5_code_bit(P5_EV_CLOCKS_WHILE_BUS_CYCLE_IN_PROGRESS) : 0;
        p5_report_clocks(m, run, holding | bus);
        m->now += run;
        n -= run;
    }
}

/* Ends the clock being issued and the n - 1 after it, in which the
 * duration events of `holding` hold, and so does 0x18 in the clocks the bus
 * is busy (looked up in the bus timeline only when the PMU counts it).  The
 * bus transfers of an issue start at or after the clock being issued when
 * they are asked for, so the clocks ended are final. */
__attribute__((always_inline)) static inline void end_clocks(struct p5_machine *m, uint64_t n,
                                                             uint64_t holding)
{
    if (p5_feed_counts(m->feed, P5_EV_CLOCKS_WHILE_BUS_CYCLE_IN_PROGRESS)) {
        end_clocks_watching_bus(m, n, holding);
        return;
    }
    p5_report_clocks(m, n, holding);
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
static uint32_t agi_pipes(const struct p5_machine *m, const struct p5_group *g)
{
    return ((g->u_address_regs & m->agi_regs) != 0) + ((g->v_address_regs & m->agi_regs) != 0);
}

/* A REP string instruction's iterations: the bytes its data accesses
 * cover (the trace merges the iterations' accesses into ranges,
 * docs/traces.md) over the bytes of one iteration; at least a clock. */
static uint32_t rep_clocks(const struct p5_slot *s)
{
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < s->n_accesses; i++)
        bytes += s->accesses[i].size;
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

/* Whether both pipes access memory in the same bank but another dword
 * (the accesses of group `g`). */
static bool conflicts(const struct p5_machine *m, const struct p5_group *g,
                      const struct p5_execution *x)
{
    uint64_t a = x->accesses[g->u_first].address, b = x->accesses[g->v_first].address;
    return bank_of(m, a) == bank_of(m, b) && (a >> 2) != (b >> 2);
}

/* Both pipes accessing memory (event 0x09, a static one); the same bank
 * but another dword is a bank conflict (one clock, Intel VTune's Pentium
 * "Bank Conflict"). */
static uint32_t bank_conflict(struct p5_machine *m, const struct p5_group *g,
                              const struct p5_execution *x)
{
    if (!conflicts(m, g, x))
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
static uint32_t predicted_branch(struct p5_machine *m, const struct p5_op *op, bool taken,
                                 uint64_t target, bool in_v, uint32_t *found)
{
    long entry = set_assoc_find_from(&m->btb, op->address, found);
    bool hit = entry >= 0;
    if (hit)
        p5_report_event(m, P5_EV_BTB_HITS, 1);
    if (taken || hit)
        p5_report_event(m, P5_EV_TAKEN_BRANCH_OR_BTB_HIT, 1);
    bool predicted_taken = hit && m->btb.state[entry] >= 2;
    bool mispredicted = taken != predicted_taken || (taken && m->btb.data[entry] != target);
    if (hit)
        p5_btb_update(&m->btb, entry, taken, target);
    else if (taken)
        p5_btb_allocate(&m->btb, op->address, target);
    if (!mispredicted)
        return 0;
    p5_report_event(m, P5_EV_PIPELINE_FLUSHES, 1);
    return m->config->mispredict_penalty + in_v;
}

/* A branch: its events (but 0x12, a static one), and the clocks of a
 * flush; *found: its BTB entry found last (struct p5_found). */
static uint32_t resolve_branch(struct p5_machine *m, const struct p5_op *op, bool taken,
                               uint64_t target, bool in_v, uint32_t *found)
{
    if (taken)
        m->fetch_line = 0;
    if (op->branch == X86_BRANCH_FAR || op->branch == X86_BRANCH_SOFT_INT)
        return unpredicted_branch(m, taken);
    return predicted_branch(m, op, taken, target, in_v, found);
}

/* The static events of an issue (p5_block.h) among `codes` that the PMU
 * counts now. */
static void report_static(struct p5_machine *m, const struct p5_static_events *e, uint64_t codes)
{
    for (codes &= e->codes & m->feed->counted; codes; codes &= codes - 1) {
        unsigned code = (unsigned)__builtin_ctzll(codes);
        p5_pmu_batch_counted_event(&m->batch, code, p5_static_count(e, code));
    }
}

/* Those of its first clock; the others come in its first clock of
 * execution. */
static const uint64_t issue_codes =
    1ull << P5_EV_INSTRUCTIONS_EXECUTED | 1ull << P5_EV_INSTRUCTIONS_EXECUTED_IN_V_PIPE |
    1ull << P5_EV_FLOPS | 1ull << P5_EV_SEGMENT_REGISTER_LOADED | 1ull << P5_EV_LOCKED_BUS_CYCLE;

static void report_at_issue(struct p5_machine *m, const struct p5_static_events *e)
{
    report_static(m, e, issue_codes);
}

static void report_at_execution(struct p5_machine *m, const struct p5_static_events *e)
{
    report_static(m, e, ~issue_codes);
}

/* The longer pipe's execution clocks when they vary. */
static uint32_t varying_group_clocks(const struct p5_machine *m, const struct p5_group *g,
                                     const struct p5_execution *x)
{
    struct p5_slot u, v;
    slots_of(g, x, &u, &v);
    uint32_t clocks = execute_clocks(m, &u);
    uint32_t v_clocks = v.op ? execute_clocks(m, &v) : 0;
    return v_clocks > clocks ? v_clocks : clocks;
}

/* The pipes' execution clocks (the longer of a pair) and the data
 * accesses' stalls (`steps`: the group's, as issue() takes them). */
static inline uint32_t execute(struct p5_machine *m, const struct p5_group *g,
                               const struct p5_execution *x, unsigned steps,
                               struct p5_stalls *stalls)
{
    if (g->u_accesses)
        p5_data_accesses(m, g->u_op, x->accesses + g->u_first, g->u_accesses, stalls);
    if (g->v_accesses)
        p5_data_accesses(m, g->v_op, x->accesses + g->v_first, g->v_accesses, stalls);
    return (steps & P5_STEP_VARY) ? varying_group_clocks(m, g, x) : g->clocks;
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
static uint64_t mm_wait(const struct p5_machine *m, const struct p5_group *g)
{
    return mm_ready_of(m, g->u_op->mm_read | (g->v_op ? g->v_op->mm_read : 0), m->now) - m->now;
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

/* ---- one issue */

/* Decode clocks for the prefixes of u (a prefixed instruction issues in
 * the U pipe only): one per prefix byte, less the clocks the decoder had
 * while the issue before was held past its first clock (Intel VTune's
 * Pentium "Prefix Penalty Indicator": no penalty after a multi-clock
 * instruction), none of them after a flush or while code was fetched. */
static uint64_t prefix_clocks(const struct p5_machine *m, const struct p5_op *u,
                              const struct p5_stalls *stalls)
{
    uint64_t ahead = stalls->fetch ? 0 : m->now - m->decode_free;
    return u->prefixes > ahead ? u->prefixes - ahead : 0;
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

/* Clocks until the operands in x87 or MMX registers hold their values. */
static void wait_operands(struct p5_machine *m, const struct p5_group *g)
{
    uint64_t x87 = (g->steps & P5_STEP_X87) ? x87_wait(m, g->u_op) : 0;
    if (x87)
        end_clocks(m, x87, 0);
    uint64_t mm = (g->steps & P5_STEP_MMX) ? mm_wait(m, g) : 0;
    if (mm)
        end_clocks(m, mm, 0);
}

/* The x87 and MMX registers written, from the clock execution started. */
static void write_results(struct p5_machine *m, const struct p5_group *g,
                          const struct p5_execution *x, uint64_t start, uint64_t read)
{
    struct p5_slot u, v;
    slots_of(g, x, &u, &v);
    if (g->steps & P5_STEP_X87)
        x87_issued(m, &u, v.op ? &v : NULL, start, read);
    if (g->steps & P5_STEP_MMX) {
        mm_done(m, &u, start, read);
        if (v.op)
            mm_done(m, &v, start, read);
    }
}

static uint32_t resolve_branches(struct p5_machine *m, const struct p5_group *g,
                                 const struct p5_execution *x, uint32_t *btb_found)
{
    if (g->steps & P5_STEP_BRANCH_U)
        return resolve_branch(m, g->u_op, g->taken, x->target, false, btb_found);
    return resolve_branch(m, g->v_op, g->taken, x->target, true, btb_found);
}

/* From the issue's first clock, before execution: the code-read stalls and
 * the prefixes' decode clocks (`before`), an AGI clock in `agi` pipes (none
 * after a prefix clock: the address register was written by then), the
 * x87 and MMX operands' wait. */
static void before_execution(struct p5_machine *m, const struct p5_group *g, uint64_t before,
                             uint32_t agi)
{
    if (before)
        end_clocks(m, before, 0);
    m->decode_free = m->now + 1; /* the decoder may go on to the next instruction */
    if (agi) {
        p5_report_event(m, P5_EV_PIPELINE_STALLED_ADDRESS_GENERATION_INTERLOCK, agi);
        end_clocks(m, 1, 0);
    }
    if (g->steps & (P5_STEP_X87 | P5_STEP_MMX))
        wait_operands(m, g);
}

/* After the execution clocks: the stalls and a flush. */
static void after_execution(struct p5_machine *m, const struct p5_stalls *stalls, uint32_t flush)
{
    end_stalls(m, stalls, flush);
    if (flush)
        m->decode_free = m->now; /* the pipeline refills: nothing decoded ahead */
    m->agi_regs = 0;
}

/* Issues group `g` (p5_issue()), taking only the steps of `possible`
 * (enum p5_step) that it has: inline with a constant `possible`, the code
 * of the steps a group cannot have is left out.  *btb_found: the BTB entry
 * its branch found last (struct p5_found). */
__attribute__((always_inline)) static inline void issue_steps(struct p5_machine *m,
                                                              const struct p5_group *g,
                                                              const struct p5_execution *x,
                                                              uint32_t *btb_found,
                                                              bool statics, unsigned possible)
{
    unsigned steps = g->steps & possible;
    if (statics)
        report_at_issue(m, &g->events);
    struct p5_stalls stalls = {0};
    if (steps & P5_STEP_FETCH_U)
        p5_fetch(m, g->u_op, &stalls);
    if (steps & P5_STEP_FETCH_V)
        p5_fetch(m, g->v_op, &stalls);
    uint64_t prefix = (steps & P5_STEP_PREFIX) ? prefix_clocks(m, g->u_op, &stalls) : 0;
    bool interlocked = ((g->u_address_regs | g->v_address_regs) & m->agi_regs) != 0;
    uint32_t agi = !prefix && interlocked ? agi_pipes(m, g) : 0;
    if (stalls.fetch | prefix | agi | (steps & (P5_STEP_X87 | P5_STEP_MMX)))
        before_execution(m, g, stalls.fetch + prefix, agi);
    else
        m->decode_free = m->now + 1;
    stalls.fetch = 0;

    /* The clocks the pipes execute in, then the stalls and a flush. */
    if (statics)
        report_at_execution(m, &g->events);
    uint64_t start = m->now;
    uint32_t clocks = execute(m, g, x, steps, &stalls);
    if (steps & P5_STEP_BANKS)
        clocks += bank_conflict(m, g, x);
    uint32_t flush = (steps & (P5_STEP_BRANCH_U | P5_STEP_BRANCH_V))
                         ? resolve_branches(m, g, x, btb_found)
                         : 0;
    if (steps & (P5_STEP_X87 | P5_STEP_MMX))
        write_results(m, g, x, start, stalls.read);
    end_clocks(m, clocks, 0);
    if (stalls.read | stalls.buffers | stalls.other | flush)
        after_execution(m, &stalls, flush);
    else
        m->agi_regs = g->regs_written;
}

/* The steps of a group that only executes (and accesses data). */
enum { PLAIN_STEPS = 0, ALL_STEPS = ~0u };

/* Issues group `g`: inline in the loop over a block's groups, the plain
 * groups (most of those after a block's first) apart. */
__attribute__((always_inline)) static inline void issue(struct p5_machine *m,
                                                        const struct p5_group *g,
                                                        const struct p5_execution *x,
                                                        uint32_t *btb_found, bool statics)
{
    if (g->steps & ~(unsigned)PLAIN_STEPS)
        issue_steps(m, g, x, btb_found, statics, ALL_STEPS);
    else
        issue_steps(m, g, x, btb_found, statics, PLAIN_STEPS);
}

void p5_issue(struct p5_machine *m, const struct p5_group *g, const struct p5_execution *x,
              bool statics)
{
    issue(m, g, x, &m->btb_found, statics);
}

/* ---- a clean replay of a plan (docs/p5-model.md, "Speed") */

/* Whether every look-up of the plan's execution hits and no group has a
 * bank conflict: then no issue stalls (p5_code_hits(), p5_data_hits()).
 * The code line read last may be the plan's first. */
static bool clean(struct p5_machine *m, const struct p5_plan *plan, const struct p5_execution *x,
                  unsigned skip)
{
    if (!p5_data_hits(m, x->accesses + plan->access_first,
                      (unsigned)(plan->access_end - plan->access_first),
                      plan->found.data + plan->access_first) ||
        !p5_code_hits(m, plan->lines + skip, plan->n_lines - skip, plan->found.lines + skip))
        return false;
    for (unsigned i = 0; plan->banks && i < plan->n_groups; i++)
        if ((plan->groups[i].steps & P5_STEP_BANKS) && conflicts(m, &plan->groups[i], x))
            return false;
    return true;
}

/* Group `g` of a clean execution: issue_steps() when every look-up hits,
 * with its code reads and writes counted before (`last`: the plan's last
 * group, whose static events come as they come). */
__attribute__((always_inline)) static inline void replay_group(struct p5_machine *m,
                                                               const struct p5_group *g,
                                                               const struct p5_execution *x,
                                                               uint32_t *btb_found,
                                                               unsigned code_reads, bool last)
{
    if (last)
        report_at_issue(m, &g->events);
    if (code_reads)
        p5_report_event(m, P5_EV_CODE_READ, code_reads);
    bool interlocked = ((g->u_address_regs | g->v_address_regs) & m->agi_regs) != 0;
    m->decode_free = m->now + 1;
    if (interlocked) {
        p5_report_event(m, P5_EV_PIPELINE_STALLED_ADDRESS_GENERATION_INTERLOCK, agi_pipes(m, g));
        end_clocks(m, 1, 0);
    }
    if (last)
        report_at_execution(m, &g->events);
    if (g->writes)
        p5_report_event(m, P5_EV_WRITE_TO_M_OR_E_LINES, g->writes);
    uint32_t flush = (g->steps & (P5_STEP_BRANCH_U | P5_STEP_BRANCH_V))
                         ? resolve_branches(m, g, x, btb_found)
                         : 0;
    end_clocks(m, g->clocks, 0);
    if (flush) {
        end_clocks(m, flush, 0);
        m->decode_free = m->now;
        m->agi_regs = 0;
    } else {
        m->agi_regs = g->regs_written;
    }
}

/* The codes a clean group may raise beyond its static events, and 0x18,
 * which makes end_clocks() look the bus up. */
static const uint64_t replay_codes =
    1ull << P5_EV_CODE_READ | 1ull << P5_EV_PIPELINE_STALLED_ADDRESS_GENERATION_INTERLOCK |
    1ull << P5_EV_WRITE_TO_M_OR_E_LINES | 1ull << P5_EV_CLOCKS_WHILE_BUS_CYCLE_IN_PROGRESS;

/* All groups but the last (two or more groups), when the PMU counts none
 * of replay_codes: their static events, reported first, are all they
 * report, and clocks in which nothing is reported end as one run
 * (p5_pmu_batch_ticks()), so their clocks are ended at once.  The decoder's
 * clock (decode_free) is the last group's to set. */
static void replay_bulk(struct p5_machine *m, const struct p5_plan *plan)
{
    const struct p5_group *first = &plan->groups[0];
    uint32_t agi = ((first->u_address_regs | first->v_address_regs) & m->agi_regs) != 0;
    report_static(m, &plan->bulk, ~0ull);
    m->agi_regs = plan->groups[plan->n_groups - 2].regs_written;
    p5_report_clocks(m, plan->bulk_clocks + agi, 0);
    m->now += plan->bulk_clocks + agi;
}

/* The plan's execution replayed when clean (clean()); false, the look-ups
 * redone by the caller's steps, when not. */
static bool replay(struct p5_machine *m, struct p5_plan *plan, const struct p5_execution *x)
{
    unsigned skip = plan->n_lines && plan->lines[0] + 1 == m->fetch_line;
    if (!clean(m, plan, x, skip))
        return false;
    if (plan->n_lines)
        m->fetch_line = plan->lines[plan->n_lines - 1] + 1;
    unsigned last = plan->n_groups - 1;
    if (last && !(m->feed->counted & replay_codes)) {
        replay_bulk(m, plan);
    } else if (last) {
        report_static(m, &plan->bulk, ~0ull);
        for (unsigned i = 0; i < last; i++)
            replay_group(m, &plan->groups[i], x, &plan->found.btb,
                         plan->groups[i].code_reads - (skip && i == plan->first_line_group),
                         false);
    }
    replay_group(m, &plan->groups[last], x, &plan->found.btb,
                 plan->groups[last].code_reads - (skip && last == plan->first_line_group), true);
    return true;
}

/* After n replays in a row that were not clean, the next 2^n - 2
 * executions are not tried (n at most 4): a block whose look-ups miss
 * every time (a write to a line never allocated) would do them twice each
 * time.  Either way counts the same. */
enum { MAX_REPLAY_FAILS = 4 };

void p5_issue_plan(struct p5_machine *m, struct p5_plan *plan, const struct p5_execution *x)
{
    if (plan->replay && !m->config->step_by_step) {
        if (plan->replay_after == 0) {
            if (replay(m, plan, x)) {
                if (plan->replay_fails)
                    plan->replay_fails = 0;
                return;
            }
            if (plan->replay_fails < MAX_REPLAY_FAILS)
                plan->replay_fails++;
            plan->replay_after = (uint8_t)((1u << plan->replay_fails) - 2);
        } else {
            plan->replay_after--;
        }
    }
    if (plan->n_groups > 1)
        report_static(m, &plan->bulk, ~0ull);
    for (unsigned i = 0; i + 1 < plan->n_groups; i++)
        issue(m, &plan->groups[i], x, &plan->found.btb, false);
    if (plan->n_groups)
        issue(m, &plan->groups[plan->n_groups - 1], x, &plan->found.btb, true);
}
