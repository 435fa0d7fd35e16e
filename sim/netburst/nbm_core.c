/* The out-of-order core (the Pentium 4 monitoring study, section 5): allocation in order into the ROB and
 * the load and store buffers, execution when operands and a unit are free
 * (times in half cycles: the fast ALUs are double pumped), retirement in
 * order.  One instruction is timed whole, fetch to retirement, and its
 * events are put in the cycles they happen in. */
#include <stdlib.h>
#include <string.h>

#include "sim/netburst/nbm_machine.h"

/* Where each unit issues (nbm_machine.h's enum nbm_slots): its copies, the
 * port each dispatches through, whether it may issue in either half of a
 * cycle (only the double-speed ALUs: the Optimization manual ch. 1, "the
 * second half of the cycle" takes "one similar ALU uop"). */
enum { NO_PORT = NBM_NUM_SLOTS };
static const struct {
    uint8_t copies;
    bool half;
    uint8_t unit[2], port[2];
} issue_of[NBM_NUM_ISSUE_UNITS] = {
    [NBM_EU_ALU] = {2, true, {NBM_SLOTS_ALU0, NBM_SLOTS_ALU1}, {NBM_SLOTS_PORT0, NBM_SLOTS_PORT1}},
    [NBM_EU_ALU0] = {1, true, {NBM_SLOTS_ALU0}, {NBM_SLOTS_PORT0}},
    [NBM_EU_BRANCH] = {1, true, {NBM_SLOTS_ALU0}, {NBM_SLOTS_PORT0}},
    [NBM_EU_INT] = {1, false, {NBM_SLOTS_INT}, {NBM_SLOTS_PORT1}},
    [NBM_EU_MUL] = {1, false, {NBM_SLOTS_FP_MUL}, {NBM_SLOTS_PORT1}},
    [NBM_EU_COMPLEX] = {1, false, {NBM_SLOTS_COMPLEX}, {NO_PORT}},
    [NBM_EU_FP_ADD] = {1, false, {NBM_SLOTS_FP_ADD}, {NBM_SLOTS_PORT1}},
    [NBM_EU_FP_MUL] = {1, false, {NBM_SLOTS_FP_MUL}, {NBM_SLOTS_PORT1}},
    [NBM_EU_FP_DIV] = {1, false, {NBM_SLOTS_FP_DIV}, {NBM_SLOTS_PORT1}},
    [NBM_EU_FP_MISC] = {1, false, {NBM_SLOTS_FP_MISC}, {NBM_SLOTS_PORT1}},
    [NBM_EU_FP_MOVE] = {1, false, {NBM_SLOTS_FP_MOVE}, {NBM_SLOTS_PORT0}},
    [NBM_EU_MMX_ALU] = {1, false, {NBM_SLOTS_MMX_ALU}, {NBM_SLOTS_PORT1}},
    [NBM_EU_MMX_SHFT] = {1, false, {NBM_SLOTS_MMX_SHFT}, {NBM_SLOTS_PORT1}},
    [NBM_EU_MMX_MISC] = {1, false, {NBM_SLOTS_MMX_MISC}, {NBM_SLOTS_PORT1}},
    [NBM_EU_LOAD] = {1, false, {NBM_SLOTS_LOAD}, {NO_PORT}},
    [NBM_EU_STORE] = {1, false, {NBM_SLOTS_STORE}, {NO_PORT}},
};

static bool units_init(struct nbm_machine *m)
{
    for (int u = 0; u < NBM_NUM_SLOTS; u++) {
        uint64_t *stamp = calloc(NBM_UNIT_WINDOW, sizeof *stamp);
        if (!stamp)
            return false;
        m->slots[u] = (struct nbm_reservations){stamp, 0};
    }
    for (int e = 0; e < NBM_NUM_ISSUE_UNITS; e++) {
        struct nbm_issue *is = &m->issue[e];
        is->copies = issue_of[e].copies;
        is->half = issue_of[e].half;
        for (int k = 0; k < is->copies; k++) {
            is->unit[k] = &m->slots[issue_of[e].unit[k]];
            is->port[k] = issue_of[e].port[k] == NO_PORT ? NULL : &m->slots[issue_of[e].port[k]];
        }
    }
    m->group = (uint8_t)nbm_timing_group_of(m->config->model);
    return true;
}

static void units_free(struct nbm_machine *m)
{
    for (int u = 0; u < NBM_NUM_SLOTS; u++) {
        free(m->slots[u].stamp);
        m->slots[u].stamp = NULL;
    }
}

/* The shared structures (Optimization manual ch. 1: trace cache, BTB,
 * execution units, caches) and the logical processors. */
static bool shared_init(struct nbm_machine *m, const struct nbm_config *c)
{
    bool ok = set_assoc_init(&m->tc, c->tc_uops / c->tc_line_uops, c->tc_ways, 1) &&
              set_assoc_init(&m->btb, c->btb_entries, c->btb_ways, 1) && units_init(m) &&
              nbm_memory_init(m, c);
    if (ok && m->threads == 2)
        ok = nbm_arbiter_init(&m->fetch) && nbm_arbiter_init(&m->alloc) &&
             nbm_arbiter_init(&m->retire);
    return ok;
}

bool nbm_machine_init(struct nbm_machine *m, const struct nbm_config *c, struct nb_pmu *pmu,
                      int threads, struct nbm_result *result)
{
    memset(m, 0, sizeof *m);
    m->config = c;
    m->result = result;
    m->threads = threads;
    m->cur = &m->lp[0];
    if (!nbm_occurrences_init(&m->occurrences, pmu, threads))
        return false;
    bool ok = shared_init(m, c);
    for (int t = 0; t < threads && ok; t++)
        ok = nbm_lp_init(&m->lp[t], t, c);
    if (ok) {
        nbm_set_shared(m, threads == 2);
        return true;
    }
    nbm_machine_free(m);
    return false;
}

void nbm_machine_free(struct nbm_machine *m)
{
    for (int t = 0; t < m->threads; t++)
        nbm_lp_free(&m->lp[t]);
    nbm_arbiter_free(&m->fetch);
    nbm_arbiter_free(&m->alloc);
    nbm_arbiter_free(&m->retire);
    nbm_memory_free(m);
    units_free(m);
    set_assoc_free(&m->tc);
    set_assoc_free(&m->btb);
    nbm_occurrences_free(&m->occurrences);
}

/* ---- execution units */

static inline bool busy(const struct nbm_reservations *t, uint64_t h)
{
    return t->stamp[h & (NBM_UNIT_WINDOW - 1)] > h;
}

static inline bool free_for(const struct nbm_reservations *t, uint64_t h, uint32_t interval)
{
    if (interval == 1) /* most rows: one test */
        return !busy(t, h);
    for (uint32_t i = 0; i < interval; i++)
        if (busy(t, h + i))
            return false;
    return true;
}

static inline void take(struct nbm_reservations *t, uint64_t h, uint32_t interval)
{
    if (interval == 1)
        t->stamp[h & (NBM_UNIT_WINDOW - 1)] = h + 1;
    else
        for (uint32_t i = 0; i < interval; i++)
            t->stamp[(h + i) & (NBM_UNIT_WINDOW - 1)] = h + i + 1;
    if (h + interval > t->end)
        t->end = h + interval;
}

/* The first half cycle from `earliest` (before `limit`) a copy of the unit
 * and its port are free; takes the port's slot and the unit for
 * `interval` half cycles.  UINT64_MAX when none.  The search starts no
 * earlier than a window before the first copy's latest reservation: a
 * longer backlog (the divider's, not pipelined) has taken or lost the
 * slots before. */
static inline uint64_t reserve(const struct nbm_issue *is, uint64_t earliest, uint32_t interval,
                               uint64_t limit)
{
    unsigned step = is->half ? 1 : 2;
    if (earliest + NBM_UNIT_WINDOW < is->unit[0]->end)
        earliest = is->unit[0]->end - NBM_UNIT_WINDOW;
    for (uint64_t h = is->half ? earliest : (earliest + 1) & ~1ull; h < limit; h += step)
        for (int k = 0; k < is->copies; k++) {
            if ((is->port[k] && busy(is->port[k], h)) || !free_for(is->unit[k], h, interval))
                continue;
            if (is->port[k])
                take(is->port[k], h, 1);
            take(is->unit[k], h, interval);
            return h;
        }
    return UINT64_MAX;
}

/* reserve for the load and store units (issue_of: one copy, full speed,
 * no port of their own), with no limit: the first even half cycle from
 * `earliest` the unit is free for `interval`. */
static inline uint64_t reserve_memory_unit(struct nbm_reservations *unit, uint64_t earliest,
                                           uint32_t interval)
{
    if (earliest + NBM_UNIT_WINDOW < unit->end)
        earliest = unit->end - NBM_UNIT_WINDOW;
    uint64_t h = (earliest + 1) & ~1ull;
    while (!free_for(unit, h, interval))
        h += 2;
    take(unit, h, interval);
    return h;
}

static inline uint64_t issue(struct nbm_machine *m, const struct nbm_op *op, uint64_t earliest,
                             uint64_t limit)
{
    const struct nbm_op_timing *t = nbm_timing(m, op);
    return reserve(&m->issue[t->unit], earliest, t->interval, limit);
}

uint64_t nbm_issue(struct nbm_machine *m, const struct nbm_op *op, uint64_t earliest,
                   uint64_t limit)
{
    return issue(m, op, earliest, limit);
}

/* ---- allocation */

/* Cycles the allocator waits for a store buffer entry: resource_stall SBFULL. */
static uint64_t store_buffer(struct nbm_machine *m, uint64_t a)
{
    const struct nbm_lp *lp = m->cur;
    const struct nbm_store_buffer *sb = &lp->sb;
    uint64_t in_flight = sb->n_stores + lp->core.pending_stores;
    if (in_flight < lp->limits.store_buffers)
        return a;
    uint64_t freed = sb->stores[(in_flight - lp->limits.store_buffers) & sb->mask].drain + 1;
    if (freed <= a)
        return a;
    nbm_occur_span(&m->occurrences, a, freed, NBM_SBFULL, lp->level);
    return freed;
}

/* The cycle uop `seq` can allocate: in order, alloc_width a cycle, once
 * its ROB entry (and load buffer) is free. */
__attribute__((always_inline)) static inline uint64_t alloc_cycle(const struct nbm_machine *m,
                                                             uint64_t seq, uint64_t q,
                                                             enum nbm_role role)
{
    const struct nbm_config *c = m->config;
    const struct nbm_lp *lp = m->cur;
    const struct nbm_core *core = &lp->core;
    uint64_t a = q + c->queue_to_alloc;
    if (a < core->last_alloc)
        a = core->last_alloc;
    if (a == core->last_alloc && core->alloc_in_cycle >= c->alloc_width)
        a++;
    uint32_t rob = lp->limits.rob, loads = lp->limits.load_buffers;
    if (seq >= rob && core->retire_ring[(seq - rob) & core->ring_mask] + 1 > a)
        a = core->retire_ring[(seq - rob) & core->ring_mask] + 1;
    if (role == NBM_ROLE_LOAD && core->load_seq >= loads &&
        core->load_free[(core->load_seq - loads) & core->load_mask] + 1 > a)
        a = core->load_free[(core->load_seq - loads) & core->load_mask] + 1;
    return a;
}

__attribute__((always_inline)) static inline uint64_t allocate(struct nbm_machine *m, uint64_t seq,
                                                          uint64_t q, enum nbm_role role,
                                                          uint64_t limit)
{
    struct nbm_core *core = &m->cur->core;
    uint64_t a = alloc_cycle(m, seq, q, role);
    if (role == NBM_ROLE_STA && limit == UINT64_MAX) /* the wrong path's take none */
        a = store_buffer(m, a);
    if (a > core->last_alloc && m->shared && a < limit)
        a = nbm_arbiter_claim(&m->alloc, a, m->cur->id);
    if (a >= limit)
        return UINT64_MAX;
    if (a > core->last_alloc) {
        core->last_alloc = a;
        core->alloc_in_cycle = 0;
    }
    core->alloc_in_cycle++;
    core->alloc_ring[seq & core->ring_mask] = a;
    return a;
}

uint64_t nbm_allocate(struct nbm_machine *m, uint64_t seq, uint64_t q, enum nbm_role role,
                      uint64_t limit)
{
    return allocate(m, seq, q, role, limit);
}

/* ---- one instruction */

_Static_assert(TRACE_MAX_ACCESSES <= UINT8_MAX && NBM_MAX_UOPS <= UINT8_MAX,
               "a shape's counts and indexes fit a byte");

static enum nbm_role role_of(const struct nbm_shape *s, unsigned k)
{
    if (k < s->loads)
        return NBM_ROLE_LOAD;
    if (k < s->loads + s->computes)
        return NBM_ROLE_COMPUTE;
    return (k - s->loads - s->computes) % 2 ? NBM_ROLE_STD : NBM_ROLE_STA;
}

static const uint8_t fp_source[] = {
    [NBM_FP_KIND_NONE] = NB_NO_SOURCE, [NBM_FP_KIND_X87] = NBM_X87_UOP,
    [NBM_FP_KIND_PACKED_SP] = NBM_PACKED_SP, [NBM_FP_KIND_PACKED_DP] = NBM_PACKED_DP,
    [NBM_FP_KIND_SCALAR_SP] = NBM_SCALAR_SP, [NBM_FP_KIND_SCALAR_DP] = NBM_SCALAR_DP,
    [NBM_FP_KIND_MMX64] = NBM_MMX64, [NBM_FP_KIND_MMX128] = NBM_MMX128,
};

/* The source whose upstream event a uop's execution reports (execute_loads,
 * nbm_compute_events, execute_stores), or NB_NO_SOURCE. */
static uint8_t execution_source(const struct nbm_op *op, enum nbm_role role)
{
    switch (role) {
    case NBM_ROLE_LOAD:
        return op->simd ? NBM_MOVES_P2 : NB_NO_SOURCE;
    case NBM_ROLE_COMPUTE:
        return op->fp_move ? NBM_MOVES_P0 : fp_source[op->fp_kind];
    case NBM_ROLE_STD:
        return op->simd ? NBM_MOVES_P0 : NB_NO_SOURCE;
    default:
        return NB_NO_SOURCE;
    }
}

void nbm_shape_of(const struct trace_access *accesses, unsigned n_accesses, const struct nbm_op *op,
                  struct nbm_shape *s)
{
    s->n_load = s->n_store = 0;
    for (unsigned i = 0; i < n_accesses; i++) {
        if (accesses[i].kind & TRACE_LOAD)
            s->load[s->n_load++] = (uint8_t)i;
        if (accesses[i].kind & TRACE_STORE)
            s->store[s->n_store++] = (uint8_t)i;
    }
    s->n = op->uops < NBM_MAX_UOPS ? op->uops : NBM_MAX_UOPS;
    s->loads = s->n_load < s->n ? s->n_load : s->n;
    unsigned left = s->n - s->loads;
    s->stores = (uint8_t)(s->n_store < left / 2 ? s->n_store : left / 2);
    s->computes = (uint8_t)(left - 2 * s->stores);
    for (unsigned k = 0; k < s->n; k++)
        s->role[k] = (uint8_t)role_of(s, k);
    for (unsigned role = 0; role < sizeof s->source; role++)
        s->source[role] = execution_source(op, (enum nbm_role)role);
}

struct timing {
    uint64_t queue[NBM_MAX_UOPS], alloc[NBM_MAX_UOPS], load_seq[NBM_MAX_UOPS];
    uint64_t start_half[NBM_MAX_UOPS], done_half[NBM_MAX_UOPS]; /* execution */
    uint16_t cause[NBM_MAX_UOPS]; /* each uop's replay conditions (enum nb_replay_cause) */
    uint64_t result_half;      /* the instruction's result (and its branch's resolution) */
    bool replayed;             /* its first computing uop was replayed */
};

static uint64_t exec_earliest(const struct nbm_machine *m, uint64_t alloc)
{
    return 2 * (alloc + m->config->alloc_to_exec);
}

static void front_and_allocate(struct nbm_machine *m, const struct nbm_insn *insn,
                               const struct nbm_op *op, const struct nbm_shape *s, struct timing *t)
{
    struct nbm_core *core = &m->cur->core;
    nbm_fetch_begin(m, insn->address, insn->length, op);
    core->pending_stores = 0;
    for (unsigned k = 0; k < s->n; k++) {
        uint64_t seq = core->uop_seq++;
        enum nbm_role role = s->role[k];
        t->queue[k] = nbm_fetch_uop(m, op, seq, UINT64_MAX);
        t->alloc[k] = allocate(m, seq, t->queue[k], role, UINT64_MAX);
        t->cause[k] = 0;
        if (role == NBM_ROLE_LOAD)
            t->load_seq[k] = core->load_seq++;
        if (role == NBM_ROLE_STA)
            core->pending_stores++;
    }
}

/* The x87 physical registers of stack registers `st` (bit i: ST(i)) with
 * the top at `top`, as NBM_DEP_R0 bits. */
static inline uint64_t stack_registers(uint8_t st, unsigned top)
{
    uint32_t r = (uint32_t)st << top;
    return (uint64_t)((r | r >> 8) & 0xff) << NBM_DEP_R0;
}

static inline uint64_t registers_read(const struct nbm_core *core, const struct nbm_op *op)
{
    if (!op->stack || op->fxch)
        return op->regs_read;
    return op->regs_read | stack_registers(op->st_read, core->x87_top);
}

uint64_t nbm_operands(const struct nbm_core *core, const struct nbm_op *op)
{
    uint64_t ready = 0;
    for (uint64_t regs = registers_read(core, op); regs; regs &= regs - 1) {
        int r = __builtin_ctzll(regs);
        if (core->reg_ready[r] > ready)
            ready = core->reg_ready[r];
    }
    return ready;
}

/* The latest operand, and whether any came late from an L1-missing load. */
static uint64_t sources(const struct nbm_core *core, const struct nbm_op *op, uint64_t schedule,
                        bool *replay)
{
    uint64_t ready = 0;
    for (uint64_t regs = registers_read(core, op); regs; regs &= regs - 1) {
        int r = __builtin_ctzll(regs);
        if (core->reg_ready[r] > ready)
            ready = core->reg_ready[r];
        if (core->reg_miss[r] && core->reg_ready[r] > schedule)
            *replay = true;
    }
    return ready;
}

static uint64_t execute_loads(struct nbm_machine *m, const struct nbm_insn *insn,
                              const struct nbm_op *op, const struct nbm_shape *s, struct timing *t,
                              uint64_t src, bool *missed)
{
    uint64_t done = src;
    for (unsigned j = 0; j < s->n_load; j++) {
        unsigned k = j < s->loads ? j : s->loads - 1u; /* extra accesses: the last load uop */
        uint64_t from = s->loads ? exec_earliest(m, t->alloc[k]) : exec_earliest(m, t->alloc[0]);
        uint64_t start = reserve_memory_unit(&m->slots[NBM_SLOTS_LOAD], from > src ? from : src,
                                             nbm_timing(m, op)->load_interval);
        if (op->simd)
            nbm_occur(&m->occurrences, start / 2, NBM_MOVES_P2, m->cur->level, 1);
        uint16_t causes = 0;
        uint64_t data = nbm_load(m, &insn->accesses[s->load[j]], start, &causes);
        *missed = *missed || (causes & NB_CAUSE_L1_MISS);
        if (j < s->loads)
            t->start_half[k] = start;
        if (s->loads) {
            t->done_half[k] = data;
            t->cause[k] |= causes;
        }
        if (data > done)
            done = data;
    }
    return done;
}


void nbm_compute_events(struct nbm_machine *m, const struct nbm_op *op, uint64_t start)
{
    if (op->fp_move)
        nbm_occur(&m->occurrences, start / 2, NBM_MOVES_P0, m->cur->level, 1);
    else if (op->fp_kind != NBM_FP_KIND_NONE)
        nbm_occur(&m->occurrences, start / 2, (enum nbm_source_id)fp_source[op->fp_kind],
                  m->cur->level, 1);
}

/* The half cycles from the first computing uop's issue to the result: the
 * row's latency, less an L1 hit's when the row is a memory form's and so
 * counts from the load's issue (the load uop before has taken those). */
static uint32_t compute_latency(const struct nbm_machine *m, const struct nbm_op *op)
{
    uint32_t latency = nbm_timing(m, op)->latency, load = 2 * m->config->l1d_latency;
    if (!op->load_in_latency)
        return latency;
    return latency > load ? latency - load : 0;
}

/* The computing uops: the first issues when its operands are ready and
 * its unit is free, and the instruction's result comes its latency later
 * (Intel's latencies and throughputs are per instruction); the others
 * issue with it or, allocated later, when allocated, without a unit of
 * their own.  The first is replayed when an operand came from an
 * L1-missing load after it was scheduled. */
static uint64_t execute_computes(struct nbm_machine *m, const struct nbm_op *op,
                                 const struct nbm_shape *s, struct timing *t, uint64_t ready)
{
    uint64_t start = 0, result = ready;
    for (unsigned k = s->loads; k < s->loads + s->computes; k++) {
        uint64_t from = exec_earliest(m, t->alloc[k]);
        if (k == s->loads) {
            start = issue(m, op, from > ready ? from : ready, UINT64_MAX);
            result = start + compute_latency(m, op);
        } else if (from > start) {
            start = from;
        }
        if (start > result)
            result = start;
        nbm_compute_events(m, op, start);
        t->start_half[k] = start;
        t->done_half[k] = result;
    }
    return result;
}

static void execute_stores(struct nbm_machine *m, const struct nbm_insn *insn,
                           const struct nbm_op *op, const struct nbm_shape *s,
                           struct timing *t, uint64_t address_half, uint64_t data_half)
{
    unsigned first = s->loads + s->computes;
    for (unsigned j = 0; j < s->n_store; j++) {
        unsigned k = first + 2 * (j < s->stores ? j : s->stores - 1u);
        uint64_t sta_from = s->stores ? exec_earliest(m, t->alloc[k]) : data_half;
        uint64_t std_from = s->stores ? exec_earliest(m, t->alloc[k + 1]) : data_half;
        uint64_t sta = reserve_memory_unit(&m->slots[NBM_SLOTS_STORE],
                                           sta_from > address_half ? sta_from : address_half,
                                           nbm_timing(m, op)->store_interval);
        uint64_t data = std_from > data_half ? std_from : data_half;
        if (op->simd)
            nbm_occur(&m->occurrences, data / 2, NBM_MOVES_P0, m->cur->level, 1);
        uint16_t causes = nbm_store_execute(m, &insn->accesses[s->store[j]], sta, data);
        if (s->stores) {
            t->start_half[k] = sta;
            t->start_half[k + 1] = data;
            t->cause[k] |= causes;
            t->done_half[k] = sta + 2;
            t->done_half[k + 1] = data + 1;
        }
    }
}

/* FXCH ST(i) renames (Intel's appendix C: latency 0): the two physical
 * registers swap their ready times, no value moves. */
static void exchange(struct nbm_core *core, const struct nbm_op *op)
{
    unsigned a = NBM_DEP_R0 + core->x87_top;
    unsigned i = 31u - (unsigned)__builtin_clz(op->st_read | 1u); /* ST(0) and ST(i) */
    unsigned b = NBM_DEP_R0 + ((core->x87_top + i) & 7);
    uint64_t ready = core->reg_ready[a];
    bool miss = core->reg_miss[a];
    core->reg_ready[a] = core->reg_ready[b];
    core->reg_miss[a] = core->reg_miss[b];
    core->reg_ready[b] = ready;
    core->reg_miss[b] = miss;
}

/* The x87 stack registers the instruction writes (as NBM_DEP_R0 bits);
 * the top moves by its pops and pushes (a push writes the new top); an
 * instruction naming an MMX register sets the top to 0 (SDM vol. 3,
 * 12.2). */
static uint64_t stack_written(struct nbm_core *core, const struct nbm_op *op)
{
    unsigned top = core->x87_top;
    uint64_t regs = 0;
    if (op->fxch)
        exchange(core, op);
    else
        regs = stack_registers(op->st_written, top);
    top = (top + op->st_pops - op->st_pushes) & 7;
    if (op->st_pushes)
        regs |= 1ull << (NBM_DEP_R0 + top);
    core->x87_top = (uint8_t)(op->mmx ? 0 : top);
    return regs;
}

/* The registers the instruction writes get their value at `result`. */
static void write_registers(struct nbm_core *core, const struct nbm_op *op, uint64_t result,
                            bool miss)
{
    uint64_t regs = op->regs_written;
    if (op->stack)
        regs |= stack_written(core, op);
    for (; regs; regs &= regs - 1) {
        int r = __builtin_ctzll(regs);
        core->reg_ready[r] = result;
        core->reg_miss[r] = miss;
    }
}

/* The stack pointer of PUSH, POP, CALL and RET moves by a fast ALU uop of
 * its own (the Optimization manual, ch. 1: the double-speed ALUs do the
 * simple integer arithmetic; nbm_op.c): half a cycle after the old value,
 * whatever the row's latency (a load's, a branch's) says of the rest. */
static void move_stack_pointer(struct nbm_core *core, uint64_t old_ready, uint64_t earliest)
{
    uint64_t from = old_ready > earliest ? old_ready : earliest;
    core->reg_ready[X86_GPR_SP] = from + 1;
    core->reg_miss[X86_GPR_SP] = false;
}

static void execute(struct nbm_machine *m, const struct nbm_insn *insn, const struct nbm_op *op,
                    const struct nbm_shape *s, struct timing *t)
{
    struct nbm_core *core = &m->cur->core;
    unsigned first_compute = s->computes ? s->loads : 0;
    bool replay = false, missed = false;
    uint64_t esp = core->reg_ready[X86_GPR_SP];
    uint64_t src = sources(core, op, exec_earliest(m, t->alloc[first_compute]), &replay);
    uint64_t loaded = execute_loads(m, insn, op, s, t, src, &missed);
    uint64_t result = s->computes ? execute_computes(m, op, s, t, loaded) : loaded;
    t->replayed = s->computes && (replay || missed);
    m->result->replays += t->replayed;
    execute_stores(m, insn, op, s, t, src, result);
    write_registers(core, op, result, !s->computes && missed);
    if (op->stack_pointer)
        move_stack_pointer(core, esp, exec_earliest(m, t->alloc[0]));
    t->result_half = result;
}

/* ---- retirement */

static inline uint64_t retire_slot(struct nbm_machine *m, uint64_t r)
{
    struct nbm_core *core = &m->cur->core;
    if (r < core->last_retire)
        r = core->last_retire;
    if (r == core->last_retire && core->retire_in_cycle >= m->config->retire_width)
        r++;
    if (r > core->last_retire && m->shared)
        r = nbm_arbiter_claim(&m->retire, r, m->cur->id);
    if (r > core->last_retire) {
        core->last_retire = r;
        core->retire_in_cycle = 0;
    }
    core->retire_in_cycle++;
    return r;
}

uint64_t nbm_retire_slot(struct nbm_machine *m, uint64_t r)
{
    return retire_slot(m, r);
}

/* The retirement cycle of a uop done at `done_half`: the cycle after it
 * completes, in a retirement slot. */
static uint64_t retire_uop(struct nbm_machine *m, uint64_t done_half)
{
    return retire_slot(m, (done_half + 1) / 2 + 1);
}

static void store_retire(struct nbm_machine *m, uint64_t r)
{
    uint64_t drain = nbm_store_retire(m, r);
    if (drain + 1 > m->cur->core.end)
        m->cur->core.end = drain + 1;
}

/* retired_branch_type and retired_mispred_branch_type, by branch kind
 * (NB_NO_SOURCE: neither counts it; a direct call is never mispredicted). */
static const struct {
    uint8_t type, mispredicted;
} branch_type[] = {
    [X86_BRANCH_NONE] = {NB_NO_SOURCE, NB_NO_SOURCE},
    [X86_BRANCH_COND] = {NBM_TYPE_COND, NBM_MTYPE_COND},
    [X86_BRANCH_JUMP] = {NB_NO_SOURCE, NB_NO_SOURCE},
    [X86_BRANCH_CALL] = {NBM_TYPE_CALL, NB_NO_SOURCE},
    [X86_BRANCH_RETURN] = {NBM_TYPE_RETURN, NBM_MTYPE_RETURN},
    [X86_BRANCH_INDIRECT_JUMP] = {NBM_TYPE_INDIRECT, NBM_MTYPE_INDIRECT},
    [X86_BRANCH_INDIRECT_CALL] = {NBM_TYPE_INDIRECT_CALL, NBM_MTYPE_INDIRECT_CALL},
    [X86_BRANCH_FAR] = {NB_NO_SOURCE, NB_NO_SOURCE},
    [X86_BRANCH_SOFT_INT] = {NB_NO_SOURCE, NB_NO_SOURCE},
};

static void branch_events(struct nbm_machine *m, const struct nbm_op *op, struct nbm_prediction p,
                          uint64_t r)
{
    if (op->branch == X86_BRANCH_NONE)
        return;
    static const enum nbm_source_id outcome[2][2] = {{NBM_BR_MMNP, NBM_BR_MMNM}, {NBM_BR_MMTP, NBM_BR_MMTM}};
    nbm_occur(&m->occurrences, r, outcome[p.taken][p.mispredicted], m->cur->level, 1);
    if (p.mispredicted)
        nbm_occur(&m->occurrences, r, NBM_MISPRED, m->cur->level, 1);
    if (op->branch >= sizeof branch_type / sizeof branch_type[0] ||
        branch_type[op->branch].type == NB_NO_SOURCE)
        return;
    nbm_occur(&m->occurrences, r, (enum nbm_source_id)branch_type[op->branch].type, m->cur->level, 1);
    if (p.mispredicted && branch_type[op->branch].mispredicted != NB_NO_SOURCE)
        nbm_occur(&m->occurrences, r, (enum nbm_source_id)branch_type[op->branch].mispredicted,
                  m->cur->level, 1);
}

/* ---- tagging (docs/netburst-model.md, "Tagging"): the model says what a
 * retiring uop did (struct nb_uop), the PMU which mechanisms tag it. */


static uint8_t uop_tags(const struct nbm_machine *m, const struct nbm_shape *s,
                        const struct timing *t, unsigned k)
{
    static const uint8_t kind[] = {[NBM_ROLE_LOAD] = NB_UOP_LOAD, [NBM_ROLE_COMPUTE] = NB_UOP_OTHER,
                                   [NBM_ROLE_STA] = NB_UOP_STORE_ADDRESS,
                                   [NBM_ROLE_STD] = NB_UOP_OTHER};
    struct nb_uop uop = {
        .kind = kind[s->role[k]],
        .source = s->source[s->role[k]],
        .causes = t->cause[k],
    };
    return nbm_occurrences_uop_tags(&m->occurrences, m->cur->level, &uop);
}

/* Counts a retiring uop's tags (NB_UOP_TAG_*) in cycle `r`, by the tagging
 * mechanisms' counting events; returns the mechanisms (NB_TAG_*). */
static uint8_t count_tags(struct nbm_machine *m, uint8_t uop_tags, uint64_t r)
{
    unsigned level = m->cur->level;
    if (uop_tags & NB_UOP_TAG_FRONT_END)
        nbm_occur(&m->occurrences, r, NBM_FE_TAGGED, level, 1);
    for (unsigned bits = uop_tags & NB_UOP_TAG_VALUE; bits; bits &= bits - 1)
        nbm_occur(&m->occurrences, r, (enum nbm_source_id)(NBM_EXEC_TAG0 + __builtin_ctz(bits)), level,
                  1);
    if (uop_tags & NB_UOP_TAG_REPLAY)
        nbm_occur(&m->occurrences, r, NBM_REPLAY_TAGGED, level, 1);
    return nb_uop_mechanisms(uop_tags);
}

/* The registers after `insn` in enum nb_reg order (traces/trace.h's
 * TRACE_REG_* follow the encoding: AX CX DX BX SP BP SI DI), the state
 * before the thread's next instruction. */
static void note_registers(struct nbm_lp *lp, const struct nbm_insn *insn)
{
    static const uint8_t from[NB_NUM_REGS] = {
        [NB_REG_FLAGS] = TRACE_REG_FLAGS, [NB_REG_AX] = TRACE_REG_AX, [NB_REG_BX] = TRACE_REG_BX,
        [NB_REG_CX] = TRACE_REG_CX, [NB_REG_DX] = TRACE_REG_DX, [NB_REG_SI] = TRACE_REG_SI,
        [NB_REG_DI] = TRACE_REG_DI, [NB_REG_BP] = TRACE_REG_BP, [NB_REG_SP] = TRACE_REG_SP,
        [NB_REG_R8] = TRACE_REG_R8, [NB_REG_R9] = TRACE_REG_R9, [NB_REG_R10] = TRACE_REG_R10,
        [NB_REG_R11] = TRACE_REG_R11, [NB_REG_R12] = TRACE_REG_R12,
        [NB_REG_R13] = TRACE_REG_R13, [NB_REG_R14] = TRACE_REG_R14,
        [NB_REG_R15] = TRACE_REG_R15,
    };
    lp->regs_known = insn->regs != NULL;
    for (int i = 0; i < NB_NUM_REGS && insn->regs; i++)
        lp->regs[i] = insn->regs[from[i]];
}

/* With sampling programmed, the instruction's retirement for nb_pmu_retire,
 * with the cycle its first uop allocated (interrupts are taken by it:
 * docs/netburst-model.md, "Sampling"). */
static void report_retirement(struct nbm_machine *m, const struct nbm_insn *insn,
                              uint8_t mechanisms, uint64_t r, uint64_t allocated)
{
    struct nbm_lp *lp = m->cur;
    struct nb_retirement ret = {insn->address, mechanisms, lp->ia32e,
                                lp->regs_known ? lp->regs : NULL};
    nbm_occurrences_retire(&m->occurrences, lp->id, r, allocated, &ret);
    note_registers(lp, insn);
}

/* The uop hook told of uop `k`, retiring in cycle `r`. */
static void report_uop(struct nbm_machine *m, const struct nbm_insn *insn, const struct nbm_shape *s,
                       const struct timing *t, unsigned k, uint64_t r)
{
    struct nbm_uop uop = {
        .thread = m->cur->id, .address = insn->address, .bytes = insn->bytes,
        .length = insn->length, .code64 = m->cur->code64, .index = (uint8_t)k, .uops = s->n,
        .replayed = t->replayed && k == s->loads, .queued = t->queue[k],
        .allocated = t->alloc[k], .issued = t->start_half[k] / 2,
        .completed = (t->done_half[k] + 1) / 2, .retired = r,
    };
    m->uop_hook->report(m->uop_hook->context, &uop);
}

/* Retires the instruction's uops.  With sampling, it is reported in the
 * cycle its last uop retires or, tagged, its first tagged uop: the PEBS
 * assist comes just before that uop retires (docs/semantics.md, "PEBS"),
 * so an earlier uop of it overflowing IQ_COUNTER4 cannot record it. */
static void retire(struct nbm_machine *m, const struct nbm_insn *insn, const struct nbm_op *op,
                   const struct nbm_shape *s, const struct timing *t, struct nbm_prediction p)
{
    struct nbm_core *core = &m->cur->core;
    uint64_t seq = core->uop_seq - s->n, r = 0, first_tagged = 0;
    unsigned stores = 0;
    uint8_t mechanisms = 0;
    bool tagging = nbm_occurrences_tagging(&m->occurrences);
    /* uops_retired: the uops retiring in one cycle recorded as one count
     * (the same sums and saturated outputs as one occurrence each). */
    unsigned in_cycle = 0;
    for (unsigned k = 0; k < s->n; k++) {
        uint64_t slot = retire_uop(m, t->done_half[k]);
        if (in_cycle && slot != r) {
            nbm_occur(&m->occurrences, r, NBM_UOPS_RETIRED, m->cur->level, in_cycle);
            in_cycle = 0;
        }
        r = slot;
        in_cycle++;
        if (m->uop_hook)
            report_uop(m, insn, s, t, k, r);
        uint8_t tags = tagging ? uop_tags(m, s, t, k) : 0;
        uint8_t uop = tags ? count_tags(m, tags, r) : 0;
        if (uop && !mechanisms)
            first_tagged = r;
        mechanisms |= uop;
        core->retire_ring[(seq + k) & core->ring_mask] = r;
        enum nbm_role role = s->role[k];
        if (role == NBM_ROLE_LOAD)
            core->load_free[t->load_seq[k] & core->load_mask] = r;
        if (role == NBM_ROLE_STD && stores < s->n_store) {
            store_retire(m, r);
            stores++;
        }
    }
    if (in_cycle)
        nbm_occur(&m->occurrences, r, NBM_UOPS_RETIRED, m->cur->level, in_cycle);
    for (; stores < s->n_store; stores++)
        store_retire(m, r);
    if (r + 1 > core->end)
        core->end = r + 1;
    nbm_occur(&m->occurrences, r, nb_instruction_tagged(mechanisms) ? NBM_INSTR_TAGGED : NBM_INSTR_RETIRED,
              m->cur->level, 1);
    nbm_occur(&m->occurrences, r, NBM_INSTR_COMPLETED, m->cur->level, 1);
    branch_events(m, op, p, r);
    if (nbm_occurrences_sampling(&m->occurrences))
        report_retirement(m, insn, mechanisms, mechanisms ? first_tagged : r, t->alloc[0]);
    else
        m->cur->regs_known = false;
}

/* A branch instruction's branch uop: its last computing uop (whose result
 * resolves the branch), or its last uop when it has none. */
static unsigned branch_uop(const struct nbm_shape *s)
{
    return s->computes ? s->loads + s->computes - 1 : s->n - 1;
}

void nbm_instruction(struct nbm_machine *m, const struct nbm_insn *insn, const struct nbm_op *op)
{
    struct nbm_lp *lp = m->cur;
    lp->level = (uint8_t)(lp->id << 1 | (insn->cpl != 0));
    const struct nbm_shape *s = insn->shape;
    struct nbm_prediction p = {false, false, 0};
    if (op->branch != X86_BRANCH_NONE)
        p = nbm_predict(m, insn, op);
    struct timing t; /* front_and_allocate() sets every uop's queue and allocation cycles (and
                      * clears its causes), execute() its execution times */
    front_and_allocate(m, insn, op, s, &t);
    nbm_fetch_end(m, op, p.taken || p.mispredicted);
    execute(m, insn, op, s, &t);
    if (p.mispredicted)
        t.cause[branch_uop(s)] |= NB_CAUSE_MISPREDICTED;
    retire(m, insn, op, s, &t, p);
    if (p.mispredicted) {
        /* The clear and the wrong path wait for the next record (nbm_wrongpath.c). */
        lp->clear = (struct nbm_pending_clear){true, p.followed, (t.result_half + 1) / 2};
        m->result->mispredicts++;
    }
    m->result->instructions[lp->id]++;
    m->result->uops[lp->id] += s->n;
    m->result->unclassified[lp->id] += !op->classified;
}

uint64_t nbm_drain(struct nbm_machine *m)
{
    struct nbm_frontend *fe = &m->cur->fe;
    uint64_t end = m->cur->core.end;
    if (fe->t + (fe->in_cycle ? 1 : 0) > end)
        end = fe->t + 1;
    if (fe->redirect > end)
        end = fe->redirect;
    fe->t = end;
    fe->in_cycle = 0;
    return end;
}
