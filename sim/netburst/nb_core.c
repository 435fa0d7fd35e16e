/* The out-of-order core (the Pentium 4 monitoring study, section 5): allocation in order into the ROB and
 * the load and store buffers, execution when operands and a unit are free
 * (times in half cycles: the fast ALUs are double pumped), retirement in
 * order.  One instruction is timed whole, fetch to retirement, and its
 * events are put in the cycles they happen in. */
#include <stdlib.h>
#include <string.h>

#include "sim/netburst/nb_machine.h"

/* The unit of each class (latencies: set_latencies()); `full` units
 * schedule on whole cycles (the Pentium 4 monitoring study, section 5.3: only the fast ALUs' schedulers
 * work in half cycles). */
static const struct {
    uint8_t unit;
    bool full;
} class_unit[NB_NUM_CLASSES] = {
    [NB_CLASS_FAST] = {NB_UNIT_FAST_ALU, false},
    [NB_CLASS_SHIFT] = {NB_UNIT_SLOW_INT, true},
    [NB_CLASS_MULTIPLY] = {NB_UNIT_SLOW_INT, true},
    [NB_CLASS_DIVIDE] = {NB_UNIT_SLOW_INT, true},
    [NB_CLASS_BRANCH] = {NB_UNIT_SLOW_INT, true},
    [NB_CLASS_FP_ADD] = {NB_UNIT_FP_EXEC, true},
    [NB_CLASS_FP_MULTIPLY] = {NB_UNIT_FP_EXEC, true},
    [NB_CLASS_FP_DIVIDE] = {NB_UNIT_FP_EXEC, true},
    [NB_CLASS_FP_MOVE] = {NB_UNIT_FP_MOVE, true},
    [NB_CLASS_SIMD_INTEGER] = {NB_UNIT_FP_EXEC, true},
};

static void set_latencies(struct nb_machine *m, const struct nbm_config *c)
{
    const uint32_t cycles[NB_NUM_CLASSES] = {
        [NB_CLASS_SHIFT] = c->shift_latency, [NB_CLASS_MULTIPLY] = c->multiply_latency,
        [NB_CLASS_DIVIDE] = c->divide_latency, [NB_CLASS_BRANCH] = 1,
        [NB_CLASS_FP_ADD] = c->fp_add_latency, [NB_CLASS_FP_MULTIPLY] = c->fp_multiply_latency,
        [NB_CLASS_FP_DIVIDE] = c->fp_divide_latency, [NB_CLASS_FP_MOVE] = c->fp_move_latency,
        [NB_CLASS_SIMD_INTEGER] = c->simd_integer_latency,
    };
    for (int k = 0; k < NB_NUM_CLASSES; k++) {
        m->latency_half[k] = 2 * cycles[k];
        m->occupancy_half[k] = 2; /* pipelined: a new uop every cycle */
    }
    m->latency_half[NB_CLASS_FAST] = 1; /* half a cycle (the Pentium 4 monitoring study, section 5.3.1) */
    m->occupancy_half[NB_CLASS_FAST] = 1;
    m->occupancy_half[NB_CLASS_DIVIDE] = m->latency_half[NB_CLASS_DIVIDE];
    m->occupancy_half[NB_CLASS_FP_DIVIDE] = m->latency_half[NB_CLASS_FP_DIVIDE];
}

static bool units_init(struct nb_machine *m)
{
    for (int u = 0; u < NB_NUM_UNITS; u++) {
        struct nb_unit *unit = &m->units[u];
        unit->copies = u == NB_UNIT_FAST_ALU ? 2 : 1;
        for (int k = 0; k < unit->copies; k++) {
            unit->stamp[k] = malloc(NB_UNIT_WINDOW * sizeof *unit->stamp[k]);
            if (!unit->stamp[k])
                return false;
            memset(unit->stamp[k], 0xff, NB_UNIT_WINDOW * sizeof *unit->stamp[k]);
        }
    }
    set_latencies(m, m->config);
    return true;
}

static void units_free(struct nb_machine *m)
{
    for (int u = 0; u < NB_NUM_UNITS; u++)
        for (int k = 0; k < 2; k++) {
            free(m->units[u].stamp[k]);
            m->units[u].stamp[k] = NULL;
        }
}

/* The shared structures (Optimization manual ch. 1: trace cache, BTB,
 * execution units, caches) and the logical processors. */
static bool shared_init(struct nb_machine *m, const struct nbm_config *c)
{
    bool ok = set_assoc_init(&m->tc, c->tc_uops / c->tc_line_uops, c->tc_ways, 1) &&
              set_assoc_init(&m->btb, c->btb_entries, c->btb_ways, 1) && units_init(m) &&
              nb_memory_init(m, c);
    if (ok && m->threads == 2)
        ok = nb_arbiter_init(&m->fetch) && nb_arbiter_init(&m->alloc) &&
             nb_arbiter_init(&m->retire);
    return ok;
}

bool nb_machine_init(struct nb_machine *m, const struct nbm_config *c, struct nb_pmu *pmu,
                     int threads, struct nbm_result *result)
{
    memset(m, 0, sizeof *m);
    m->config = c;
    m->result = result;
    m->threads = threads;
    m->cur = &m->lp[0];
    if (!nb_schedule_init(&m->schedule, pmu, threads))
        return false;
    bool ok = shared_init(m, c);
    for (int t = 0; t < threads && ok; t++)
        ok = nb_lp_init(&m->lp[t], t, c);
    if (ok) {
        nb_set_shared(m, threads == 2);
        return true;
    }
    nb_machine_free(m);
    return false;
}

void nb_machine_free(struct nb_machine *m)
{
    for (int t = 0; t < m->threads; t++)
        nb_lp_free(&m->lp[t]);
    nb_arbiter_free(&m->fetch);
    nb_arbiter_free(&m->alloc);
    nb_arbiter_free(&m->retire);
    nb_memory_free(m);
    units_free(m);
    set_assoc_free(&m->tc);
    set_assoc_free(&m->btb);
    nb_schedule_free(&m->schedule);
}

/* ---- execution units */

static bool unit_free(const uint32_t *stamp, uint64_t h, uint32_t occupancy)
{
    for (uint32_t i = 0; i < occupancy; i++)
        if (stamp[(h + i) & (NB_UNIT_WINDOW - 1)] == (uint32_t)(h + i))
            return false;
    return true;
}

static inline uint64_t reserve_before(struct nb_unit *u, uint64_t earliest, uint32_t occupancy,
                                      bool full, uint64_t limit)
{
    uint64_t h = full ? (earliest + 1) & ~1ull : earliest;
    for (; h < limit; h += full ? 2 : 1)
        for (int k = 0; k < u->copies; k++)
            if (unit_free(u->stamp[k], h, occupancy)) {
                for (uint32_t i = 0; i < occupancy; i++)
                    u->stamp[k][(h + i) & (NB_UNIT_WINDOW - 1)] = (uint32_t)(h + i);
                return h;
            }
    return UINT64_MAX;
}

static uint64_t reserve(struct nb_unit *u, uint64_t earliest, uint32_t occupancy, bool full)
{
    return reserve_before(u, earliest, occupancy, full, UINT64_MAX);
}

uint64_t nb_reserve(struct nb_unit *u, uint64_t earliest, uint32_t occupancy, bool full,
                    uint64_t limit)
{
    return reserve_before(u, earliest, occupancy, full, limit);
}

struct nb_unit *nb_class_unit(struct nb_machine *m, enum nb_class cls, bool *full)
{
    *full = class_unit[cls].full;
    return &m->units[class_unit[cls].unit];
}

/* ---- allocation */

/* Cycles the allocator waits for a store buffer entry: resource_stall SBFULL. */
static uint64_t store_buffer(struct nb_machine *m, uint64_t a)
{
    const struct nb_lp *lp = m->cur;
    const struct nb_store_buffer *sb = &lp->sb;
    uint64_t in_flight = sb->n_stores + lp->core.pending_stores;
    if (in_flight < lp->limits.store_buffers)
        return a;
    uint64_t freed = sb->stores[(in_flight - lp->limits.store_buffers) & sb->mask].drain + 1;
    if (freed <= a)
        return a;
    nb_occur_span(&m->schedule, a, freed, NB_SBFULL, lp->level);
    return freed;
}

/* The cycle uop `seq` can allocate: in order, alloc_width a cycle, once
 * its ROB entry (and load buffer) is free. */
static uint64_t alloc_cycle(const struct nb_machine *m, uint64_t seq, uint64_t q,
                            enum nb_role role)
{
    const struct nbm_config *c = m->config;
    const struct nb_lp *lp = m->cur;
    const struct nb_core *core = &lp->core;
    uint64_t a = q + c->queue_to_alloc;
    if (a < core->last_alloc)
        a = core->last_alloc;
    if (a == core->last_alloc && core->alloc_in_cycle >= c->alloc_width)
        a++;
    uint32_t rob = lp->limits.rob, loads = lp->limits.load_buffers;
    if (seq >= rob && core->retire_ring[(seq - rob) & core->ring_mask] + 1 > a)
        a = core->retire_ring[(seq - rob) & core->ring_mask] + 1;
    if (role == NB_ROLE_LOAD && core->load_seq >= loads &&
        core->load_free[(core->load_seq - loads) & core->load_mask] + 1 > a)
        a = core->load_free[(core->load_seq - loads) & core->load_mask] + 1;
    return a;
}

static inline uint64_t allocate(struct nb_machine *m, uint64_t seq, uint64_t q, enum nb_role role,
                                uint64_t limit)
{
    struct nb_core *core = &m->cur->core;
    uint64_t a = alloc_cycle(m, seq, q, role);
    if (role == NB_ROLE_STA && limit == UINT64_MAX) /* the wrong path's take none */
        a = store_buffer(m, a);
    if (a > core->last_alloc && m->shared && a < limit)
        a = nb_arbiter_claim(&m->alloc, a, m->cur->id);
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

uint64_t nb_allocate(struct nb_machine *m, uint64_t seq, uint64_t q, enum nb_role role,
                     uint64_t limit)
{
    return allocate(m, seq, q, role, limit);
}

/* ---- one instruction */

/* Its uops: loads, computing uops, then store-address/store-data pairs
 * (isa/netburst_uops.c's model), from the trace's accesses. */
struct shape {
    unsigned n, loads, computes, stores;   /* uops of each role (stores: pairs) */
    const struct trace_access *load[TRACE_MAX_ACCESSES], *store[TRACE_MAX_ACCESSES];
    unsigned n_load, n_store;              /* the accesses */
};

static void shape_of(const struct trace_insn *insn, const struct nb_op *op, struct shape *s)
{
    s->n_load = s->n_store = 0;
    for (int i = 0; i < insn->n_accesses; i++) {
        const struct trace_access *a = &insn->accesses[i];
        if (a->kind & TRACE_LOAD)
            s->load[s->n_load++] = a;
        if (a->kind & TRACE_STORE)
            s->store[s->n_store++] = a;
    }
    s->n = op->uops < NB_MAX_UOPS ? op->uops : NB_MAX_UOPS;
    s->loads = s->n_load < s->n ? s->n_load : s->n;
    unsigned left = s->n - s->loads;
    s->stores = s->n_store < left / 2 ? s->n_store : left / 2;
    s->computes = left - 2 * s->stores;
}

static enum nb_role role_of(const struct shape *s, unsigned k)
{
    if (k < s->loads)
        return NB_ROLE_LOAD;
    if (k < s->loads + s->computes)
        return NB_ROLE_COMPUTE;
    return (k - s->loads - s->computes) % 2 ? NB_ROLE_STD : NB_ROLE_STA;
}

struct timing {
    uint64_t alloc[NB_MAX_UOPS], done_half[NB_MAX_UOPS], load_seq[NB_MAX_UOPS];
    uint16_t cause[NB_MAX_UOPS]; /* each uop's replay conditions (enum nb_replay_cause) */
    uint64_t result_half;      /* the instruction's result (and its branch's resolution) */
};

static uint64_t exec_earliest(const struct nb_machine *m, uint64_t alloc)
{
    return 2 * (alloc + m->config->alloc_to_exec);
}

static void front_and_allocate(struct nb_machine *m, const struct trace_insn *insn,
                               const struct nb_op *op, const struct shape *s, struct timing *t)
{
    struct nb_core *core = &m->cur->core;
    nb_fetch_begin(m, insn->address, insn->length, op);
    core->pending_stores = 0;
    for (unsigned k = 0; k < s->n; k++) {
        uint64_t seq = core->uop_seq++;
        enum nb_role role = role_of(s, k);
        t->alloc[k] = allocate(m, seq, nb_fetch_uop(m, op, seq, UINT64_MAX), role, UINT64_MAX);
        if (role == NB_ROLE_LOAD)
            t->load_seq[k] = core->load_seq++;
        if (role == NB_ROLE_STA)
            core->pending_stores++;
    }
}

/* The latest operand, and whether any came late from an L1-missing load. */
static uint64_t sources(const struct nb_machine *m, const struct nb_op *op, uint64_t schedule,
                        bool *replay)
{
    uint64_t ready = 0;
    for (uint32_t regs = op->regs_read; regs; regs &= regs - 1) {
        int r = __builtin_ctz(regs);
        if (m->cur->core.reg_ready[r] > ready)
            ready = m->cur->core.reg_ready[r];
        if (m->cur->core.reg_miss[r] && m->cur->core.reg_ready[r] > schedule)
            *replay = true;
    }
    return ready;
}

static uint64_t execute_loads(struct nb_machine *m, const struct nb_op *op,
                              const struct shape *s, struct timing *t, uint64_t src,
                              bool *missed)
{
    uint64_t done = src;
    for (unsigned j = 0; j < s->n_load; j++) {
        unsigned k = j < s->loads ? j : s->loads - 1; /* extra accesses: the last load uop */
        uint64_t from = s->loads ? exec_earliest(m, t->alloc[k]) : exec_earliest(m, t->alloc[0]);
        uint64_t start = reserve(&m->units[NB_UNIT_LOAD], from > src ? from : src, 2, true);
        if (op->simd)
            nb_occur(&m->schedule, start / 2, NB_MOVES_P2, m->cur->level, 1);
        uint16_t causes = 0;
        uint64_t data = nb_load(m, s->load[j], start, &causes);
        *missed = *missed || (causes & NB_CAUSE_L1_MISS);
        if (s->loads) {
            t->done_half[k] = data;
            t->cause[k] |= causes;
        }
        if (data > done)
            done = data;
    }
    return done;
}

static const uint8_t fp_source[] = {
    [NB_FP_KIND_NONE] = NB_NO_SOURCE, [NB_FP_KIND_X87] = NB_X87_UOP,
    [NB_FP_KIND_PACKED_SP] = NB_PACKED_SP, [NB_FP_KIND_PACKED_DP] = NB_PACKED_DP,
    [NB_FP_KIND_SCALAR_SP] = NB_SCALAR_SP, [NB_FP_KIND_SCALAR_DP] = NB_SCALAR_DP,
    [NB_FP_KIND_MMX64] = NB_MMX64, [NB_FP_KIND_MMX128] = NB_MMX128,
};

void nb_compute_events(struct nb_machine *m, const struct nb_op *op, uint64_t start)
{
    if (op->cls == NB_CLASS_FP_MOVE)
        nb_occur(&m->schedule, start / 2, NB_MOVES_P0, m->cur->level, 1);
    else if (op->fp_kind != NB_FP_KIND_NONE)
        nb_occur(&m->schedule, start / 2, (enum nb_source_id)fp_source[op->fp_kind],
                 m->cur->level, 1);
}

/* The computing uops, a dependent chain; the first is replayed when an
 * operand came from an L1-missing load after it was scheduled. */
static uint64_t execute_computes(struct nb_machine *m, const struct nb_op *op,
                                 const struct shape *s, struct timing *t, uint64_t ready)
{
    struct nb_unit *unit = &m->units[class_unit[op->cls].unit];
    for (unsigned k = s->loads; k < s->loads + s->computes; k++) {
        uint64_t from = exec_earliest(m, t->alloc[k]);
        uint64_t start = reserve(unit, from > ready ? from : ready, m->occupancy_half[op->cls],
                                 class_unit[op->cls].full);
        nb_compute_events(m, op, start);
        ready = start + m->latency_half[op->cls];
        t->done_half[k] = ready;
    }
    return ready;
}

static void execute_stores(struct nb_machine *m, const struct nb_op *op, const struct shape *s,
                           struct timing *t, uint64_t address_half, uint64_t data_half)
{
    unsigned first = s->loads + s->computes;
    for (unsigned j = 0; j < s->n_store; j++) {
        unsigned k = first + 2 * (j < s->stores ? j : s->stores - 1);
        uint64_t sta_from = s->stores ? exec_earliest(m, t->alloc[k]) : data_half;
        uint64_t std_from = s->stores ? exec_earliest(m, t->alloc[k + 1]) : data_half;
        uint64_t sta = reserve(&m->units[NB_UNIT_STORE],
                               sta_from > address_half ? sta_from : address_half, 2, true);
        uint64_t data = std_from > data_half ? std_from : data_half;
        if (op->simd)
            nb_occur(&m->schedule, data / 2, NB_MOVES_P0, m->cur->level, 1);
        uint16_t causes = nb_store_execute(m, s->store[j], sta, data);
        if (s->stores) {
            t->cause[k] |= causes;
            t->done_half[k] = sta + 2;
            t->done_half[k + 1] = data + 1;
        }
    }
}

static void execute(struct nb_machine *m, const struct nb_op *op, const struct shape *s,
                    struct timing *t)
{
    struct nb_core *core = &m->cur->core;
    unsigned first_compute = s->computes ? s->loads : 0;
    bool replay = false, missed = false;
    memset(t->cause, 0, s->n * sizeof t->cause[0]);
    uint64_t src = sources(m, op, exec_earliest(m, t->alloc[first_compute]), &replay);
    uint64_t loaded = execute_loads(m, op, s, t, src, &missed);
    uint64_t result = s->computes ? execute_computes(m, op, s, t, loaded) : loaded;
    if (s->computes && (replay || missed))
        m->result->replays++;
    execute_stores(m, op, s, t, src, result);
    for (uint32_t regs = op->regs_written; regs; regs &= regs - 1) {
        int r = __builtin_ctz(regs);
        core->reg_ready[r] = result;
        core->reg_miss[r] = !s->computes && missed;
    }
    t->result_half = result;
}

/* ---- retirement */

uint64_t nb_retire_slot(struct nb_machine *m, uint64_t r)
{
    struct nb_core *core = &m->cur->core;
    if (r < core->last_retire)
        r = core->last_retire;
    if (r == core->last_retire && core->retire_in_cycle >= m->config->retire_width)
        r++;
    if (r > core->last_retire && m->shared)
        r = nb_arbiter_claim(&m->retire, r, m->cur->id);
    if (r > core->last_retire) {
        core->last_retire = r;
        core->retire_in_cycle = 0;
    }
    core->retire_in_cycle++;
    return r;
}

static uint64_t retire_uop(struct nb_machine *m, uint64_t done_half)
{
    uint64_t r = nb_retire_slot(m, (done_half + 1) / 2 + 1); /* the cycle after it completes */
    nb_occur(&m->schedule, r, NB_UOPS_RETIRED, m->cur->level, 1);
    return r;
}

static void store_retire(struct nb_machine *m, uint64_t r)
{
    uint64_t drain = nb_store_retire(m, r);
    if (drain + 1 > m->cur->core.end)
        m->cur->core.end = drain + 1;
}

/* retired_branch_type and retired_mispred_branch_type, by branch kind
 * (NB_NO_SOURCE: neither counts it; a direct call is never mispredicted). */
static const struct {
    uint8_t type, mispredicted;
} branch_type[] = {
    [X86_BRANCH_NONE] = {NB_NO_SOURCE, NB_NO_SOURCE},
    [X86_BRANCH_COND] = {NB_TYPE_COND, NB_MTYPE_COND},
    [X86_BRANCH_JUMP] = {NB_NO_SOURCE, NB_NO_SOURCE},
    [X86_BRANCH_CALL] = {NB_TYPE_CALL, NB_NO_SOURCE},
    [X86_BRANCH_RETURN] = {NB_TYPE_RETURN, NB_MTYPE_RETURN},
    [X86_BRANCH_INDIRECT_JUMP] = {NB_TYPE_INDIRECT, NB_MTYPE_INDIRECT},
    [X86_BRANCH_INDIRECT_CALL] = {NB_TYPE_INDIRECT_CALL, NB_MTYPE_INDIRECT_CALL},
    [X86_BRANCH_FAR] = {NB_NO_SOURCE, NB_NO_SOURCE},
    [X86_BRANCH_SOFT_INT] = {NB_NO_SOURCE, NB_NO_SOURCE},
};

static void branch_events(struct nb_machine *m, const struct nb_op *op, struct nb_prediction p,
                          uint64_t r)
{
    if (op->branch == X86_BRANCH_NONE)
        return;
    static const enum nb_source_id outcome[2][2] = {{NB_BR_MMNP, NB_BR_MMNM}, {NB_BR_MMTP, NB_BR_MMTM}};
    nb_occur(&m->schedule, r, outcome[p.taken][p.mispredicted], m->cur->level, 1);
    if (p.mispredicted)
        nb_occur(&m->schedule, r, NB_MISPRED, m->cur->level, 1);
    if (op->branch >= sizeof branch_type / sizeof branch_type[0] ||
        branch_type[op->branch].type == NB_NO_SOURCE)
        return;
    nb_occur(&m->schedule, r, (enum nb_source_id)branch_type[op->branch].type, m->cur->level, 1);
    if (p.mispredicted && branch_type[op->branch].mispredicted != NB_NO_SOURCE)
        nb_occur(&m->schedule, r, (enum nb_source_id)branch_type[op->branch].mispredicted,
                 m->cur->level, 1);
}

/* ---- tagging (docs/netburst-model.md, "Tagging"): the model says what a
 * retiring uop did (struct nb_uop), the PMU which mechanisms tag it. */

/* The source whose upstream event a uop's execution reports (execute_loads,
 * nb_compute_events, execute_stores), or NB_NO_SOURCE. */
static uint8_t execution_source(const struct nb_op *op, enum nb_role role)
{
    switch (role) {
    case NB_ROLE_LOAD:
        return op->simd ? NB_MOVES_P2 : NB_NO_SOURCE;
    case NB_ROLE_COMPUTE:
        return op->cls == NB_CLASS_FP_MOVE ? NB_MOVES_P0 : fp_source[op->fp_kind];
    case NB_ROLE_STD:
        return op->simd ? NB_MOVES_P0 : NB_NO_SOURCE;
    default:
        return NB_NO_SOURCE;
    }
}

static uint8_t uop_tags(const struct nb_machine *m, const struct nb_op *op,
                        const struct timing *t, enum nb_role role, unsigned k)
{
    struct nb_uop uop = {
        .kind = role == NB_ROLE_LOAD  ? NB_UOP_LOAD
                : role == NB_ROLE_STA ? NB_UOP_STORE_ADDRESS
                                      : NB_UOP_OTHER,
        .source = execution_source(op, role),
        .causes = t->cause[k],
    };
    return nb_schedule_uop_tags(&m->schedule, m->cur->level, &uop);
}

/* Counts a retiring uop's tags (NB_UOP_TAG_*) in cycle `r`, by the tagging
 * mechanisms' counting events; returns the mechanisms (NB_TAG_*). */
static uint8_t count_tags(struct nb_machine *m, uint8_t uop_tags, uint64_t r)
{
    unsigned level = m->cur->level;
    if (uop_tags & NB_UOP_TAG_FRONT_END)
        nb_occur(&m->schedule, r, NB_FE_TAGGED, level, 1);
    for (unsigned bits = uop_tags & NB_UOP_TAG_VALUE; bits; bits &= bits - 1)
        nb_occur(&m->schedule, r, (enum nb_source_id)(NB_EXEC_TAG0 + __builtin_ctz(bits)), level,
                 1);
    if (uop_tags & NB_UOP_TAG_REPLAY)
        nb_occur(&m->schedule, r, NB_REPLAY_TAGGED, level, 1);
    return nb_uop_mechanisms(uop_tags);
}

/* The registers after `insn` in enum nb_reg order (traces/trace.h's
 * TRACE_REG_* follow the encoding: AX CX DX BX SP BP SI DI), the state
 * before the thread's next instruction. */
static void note_registers(struct nb_lp *lp, const struct trace_insn *insn)
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
    lp->regs_known = insn->has_registers;
    for (int i = 0; i < NB_NUM_REGS && insn->has_registers; i++)
        lp->regs[i] = insn->regs[from[i]];
}

/* With sampling programmed, the instruction's retirement for nb_pmu_retire. */
static void report_retirement(struct nb_machine *m, const struct trace_insn *insn,
                              uint8_t mechanisms, uint64_t r)
{
    struct nb_lp *lp = m->cur;
    struct nb_retirement ret = {insn->address, mechanisms, lp->ia32e,
                                lp->regs_known ? lp->regs : NULL};
    nb_schedule_retire(&m->schedule, lp->id, r, &ret);
    note_registers(lp, insn);
}

/* Retires the instruction's uops.  With sampling, it is reported in the
 * cycle its last uop retires or, tagged, its first tagged uop: the PEBS
 * assist comes just before that uop retires (docs/semantics.md, "PEBS"),
 * so an earlier uop of it overflowing IQ_COUNTER4 cannot record it. */
static void retire(struct nb_machine *m, const struct trace_insn *insn, const struct nb_op *op,
                   const struct shape *s, const struct timing *t, struct nb_prediction p)
{
    struct nb_core *core = &m->cur->core;
    uint64_t seq = core->uop_seq - s->n, r = 0, first_tagged = 0;
    unsigned stores = 0;
    uint8_t mechanisms = 0;
    bool tagging = nb_schedule_tagging(&m->schedule);
    for (unsigned k = 0; k < s->n; k++) {
        r = retire_uop(m, t->done_half[k]);
        uint8_t uop = tagging ? count_tags(m, uop_tags(m, op, t, role_of(s, k), k), r) : 0;
        if (uop && !mechanisms)
            first_tagged = r;
        mechanisms |= uop;
        core->retire_ring[(seq + k) & core->ring_mask] = r;
        enum nb_role role = role_of(s, k);
        if (role == NB_ROLE_LOAD)
            core->load_free[t->load_seq[k] & core->load_mask] = r;
        if (role == NB_ROLE_STD && stores < s->n_store) {
            store_retire(m, r);
            stores++;
        }
    }
    for (; stores < s->n_store; stores++)
        store_retire(m, r);
    if (r + 1 > core->end)
        core->end = r + 1;
    nb_occur(&m->schedule, r, nb_instruction_tagged(mechanisms) ? NB_INSTR_TAGGED : NB_INSTR_RETIRED,
             m->cur->level, 1);
    nb_occur(&m->schedule, r, NB_INSTR_COMPLETED, m->cur->level, 1);
    branch_events(m, op, p, r);
    if (nb_schedule_sampling(&m->schedule))
        report_retirement(m, insn, mechanisms, mechanisms ? first_tagged : r);
    else
        m->cur->regs_known = false;
}

/* A branch instruction's branch uop: its last computing uop (whose result
 * resolves the branch), or its last uop when it has none. */
static unsigned branch_uop(const struct shape *s)
{
    return s->computes ? s->loads + s->computes - 1 : s->n - 1;
}

void nb_instruction(struct nb_machine *m, const struct trace_insn *insn, const struct nb_op *op)
{
    struct nb_lp *lp = m->cur;
    lp->level = (uint8_t)(lp->id << 1 | (insn->cpl != 0));
    struct shape s;
    shape_of(insn, op, &s);
    struct nb_prediction p = {false, false, 0};
    if (op->branch != X86_BRANCH_NONE)
        p = nb_predict(m, insn, op);
    struct timing t; /* front_and_allocate() and execute() set every uop's times */
    front_and_allocate(m, insn, op, &s, &t);
    nb_fetch_end(m, op, p.taken || p.mispredicted);
    execute(m, op, &s, &t);
    if (p.mispredicted)
        t.cause[branch_uop(&s)] |= NB_CAUSE_MISPREDICTED;
    retire(m, insn, op, &s, &t, p);
    if (p.mispredicted) {
        /* The clear and the wrong path wait for the next record (nb_wrongpath.c). */
        lp->clear = (struct nb_pending_clear){true, p.followed, (t.result_half + 1) / 2};
        m->result->mispredicts++;
    }
    m->result->instructions[lp->id]++;
    m->result->uops[lp->id] += s.n;
}

uint64_t nb_drain(struct nb_machine *m)
{
    struct nb_frontend *fe = &m->cur->fe;
    uint64_t end = m->cur->core.end;
    if (fe->t + (fe->in_cycle ? 1 : 0) > end)
        end = fe->t + 1;
    if (fe->redirect > end)
        end = fe->redirect;
    fe->t = end;
    fe->in_cycle = 0;
    return end;
}
