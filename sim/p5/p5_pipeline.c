/* The U and V pipes: pairing, address-generation interlocks, branch
 * prediction and the clocks of one issue, emitted clock by clock into the
 * PMU (docs/p5-model.md, "Pipeline", cites each rule). */
#include "sim/p5/p5_machine.h"

/* ---- counting clocks */

/* The clocks of one issue, in this order (docs/p5-model.md, "Pipeline"). */
struct issue_clocks {
    uint64_t fetch;    /* code-read stalls */
    uint32_t agi;      /* the pipes an AGI holds (one clock when any) */
    uint32_t execute;  /* at least 1: every op takes a clock */
    uint64_t read;     /* 0x1a */
    uint64_t buffers;  /* 0x19 */
    uint64_t other;    /* other stalls, then a flush */
};

/* What counter c counts in a clock with `count` occurrences of `code`. */
static uint64_t counted_in(const struct p5_counting *k, int c, unsigned code, uint32_t count)
{
    return code == k->code[c] ? count & k->event_mask[c] : 0;
}

/* The clocks of [from, from + n) in which the bus is busy; *last_busy:
 * whether it is in the last. */
static uint64_t bus_busy_clocks(struct p5_bus *bus, uint64_t from, uint64_t n, bool *last_busy)
{
    uint64_t busy_clocks = 0;
    *last_busy = false;
    while (n > 0) {
        uint64_t run = p5_bus_run(bus, from, n, last_busy);
        busy_clocks += *last_busy ? run : 0;
        from += run;
        n -= run;
    }
    return busy_clocks;
}

/* The codes counted per clock rather than per occurrence. */
#define DURATION_CODES                                                                           \
    (1ull << EV_AGI | 1ull << EV_DATA_READ_STALL | 1ull << EV_WRITE_BUFFERS_FULL |              \
     1ull << EV_BUS_BUSY)

/* Adds to counted[] and last[] (the last clock's increments) the duration
 * events of the issue of t's clocks from `start`.  The bus transfers of an
 * issue start at or after the clock being issued when they are asked for,
 * so its busy clocks are all known at its end. */
static void count_durations(struct p5_machine *m, uint64_t start, const struct issue_clocks *t,
                            uint64_t counted[2], uint64_t last[2])
{
    const struct p5_counting *k = &m->counting;
    uint64_t n = m->now - start;
    for (int c = 0; c < 2; c++) {
        uint64_t read = counted_in(k, c, EV_DATA_READ_STALL, 1);
        uint64_t buffers = counted_in(k, c, EV_WRITE_BUFFERS_FULL, 1);
        counted[c] += counted_in(k, c, EV_AGI, t->agi) + read * t->read + buffers * t->buffers;
        if (!t->other)
            last[c] += t->buffers ? buffers : t->read ? read : 0;
        if (k->code[c] == EV_BUS_BUSY && k->event_mask[c]) {
            bool last_busy;
            counted[c] += bus_busy_clocks(&m->bus, start, n, &last_busy);
            last[c] += last_busy;
        }
    }
}

/* Hands the issue's clocks from `start` to the PMU: `first` the
 * occurrences of its first clock, k->occurred those of its first execution
 * clock (they are one when nothing stalled before it). */
static void count_clocks(struct p5_machine *m, uint64_t start, const struct issue_clocks *t,
                         const uint64_t first[2])
{
    struct p5_counting *k = &m->counting;
    uint64_t counted[2], last[2];
    uint64_t n = m->now - start;
    bool execution_last = t->read + t->buffers + t->other == 0;
    bool execution_first = t->fetch + t->agi == 0;
    for (int c = 0; c < 2; c++) {
        counted[c] = first[c] + k->occurred[c] + k->clock_increment[c] * n;
        last[c] = k->clock_increment[c];
        if (execution_last && t->execute == 1)
            last[c] += k->occurred[c] + (execution_first ? first[c] : 0);
        k->occurred[c] = 0;
    }
    if (k->selected & DURATION_CODES)
        count_durations(m, start, t, counted, last);
    p5_pmu_add_cycles(m->pmu, n, counted, last);
}

/* Sets up the counting of an issue at `cpl` (the CESR may have changed
 * since the last one, in a region hook). */
static void start_counting(struct p5_machine *m, unsigned cpl)
{
    struct p5_pmu *pmu = m->pmu;
    struct p5_counting *k = &m->counting;
    if (pmu->cpl != cpl)
        p5_pmu_set_cpl(pmu, (int)cpl);
    if (pmu->cesr == k->cesr && cpl == k->cpl)
        return;
    if (pmu->cesr != pmu->selected_cesr)
        p5_pmu_select(pmu);
    k->cesr = pmu->cesr;
    k->cpl = cpl;
    for (int c = 0; c < 2; c++) {
        k->code[c] = pmu->select[c].code;
        k->event_mask[c] = pmu->select[c].events[cpl == 3];
        k->clock_increment[c] = pmu->select[c].clocks[cpl == 3];
    }
    k->selected = 1ull << k->code[0] | 1ull << k->code[1];
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

/* A branch: its events, and the clocks of a flush. */
static uint32_t resolve_branch(struct p5_machine *m, const struct p5_slot *s, bool in_v)
{
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
    start_counting(m, u->insn->cpl);
    count_issue(m, u, v);

    struct issue_clocks clocks = {0};
    struct p5_stalls stalls = {0};
    p5_fetch(m, u, &stalls);
    if (v)
        p5_fetch(m, v, &stalls);
    clocks.fetch = stalls.fetch;
    stalls.fetch = 0;
    clocks.agi = agi_pipes(m, u, v);
    uint64_t start = m->now;
    m->now += clocks.fetch + (clocks.agi ? 1 : 0); /* the clock the pipes execute in */
    struct p5_counting *k = &m->counting;
    uint64_t first[2] = {k->occurred[0], k->occurred[1]};
    k->occurred[0] = k->occurred[1] = 0;

    clocks.execute = execute(m, u, v, &stalls) + both_pipes_memory(m, u, v);
    uint32_t flush = (p5_is_branch(u->op) ? resolve_branch(m, u, false) : 0) +
                     (v && p5_is_branch(v->op) ? resolve_branch(m, v, true) : 0);
    clocks.read = stalls.read;
    clocks.buffers = stalls.buffers;
    clocks.other = stalls.other + flush;
    m->now += clocks.execute + clocks.read + clocks.buffers + clocks.other;
    count_clocks(m, start, &clocks, first);

    bool stalled_after = stalls.read + stalls.buffers + stalls.other + flush > 0;
    m->agi_regs = stalled_after ? 0 : u->op->regs_written | (v ? v->op->regs_written : 0);
}
