/* The memo of each basic block: ops and issue groups (p5_block.h). */
#include "sim/p5/p5_block.h"

#include <stdlib.h>
#include <string.h>

#include "pmu/emulated/p5_pmu.h"
#include "sim/common/block_table.h"

void p5_block_memos_init(struct p5_block_memos *memos)
{
    memos->by_id = NULL;
    memos->capacity = 0;
}

void p5_block_memos_free(struct p5_block_memos *memos)
{
    for (uint32_t id = 0; id < memos->capacity; id++) {
        struct p5_block_memo *memo = memos->by_id[id];
        if (memo) {
            free(memo->plans[0]);
            free(memo->plans[1]);
            free(memo);
        }
    }
    free(memos->by_id);
    p5_block_memos_init(memos);
}

/* ---- pairing (Pentium Processor User's Manual 3.1.2; isa/p5_pairing.c) */

bool p5_op_leads_pair(const struct p5_op *op)
{
    return op->branch == X86_BRANCH_NONE &&
           (op->cls == X86_P5_UV || op->cls == X86_P5_PU || op->cls == X86_P5_FX);
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
    return !(written & v->regs_read) && !(written & ~X86_REG_FLAGS & v->regs_written) &&
           !(u->mm_written & (v->mm_read | v->mm_written));
}

bool p5_ops_pair(const struct p5_op *u, const struct p5_op *v)
{
    return p5_op_leads_pair(u) && classes_pair(u, v) && independent(u, v);
}

/* ---- static events */

const uint8_t p5_static_slot[P5_NUM_CODES] = {
    [P5_EV_INSTRUCTIONS_EXECUTED] = P5_SLOT_ISSUED,
    [P5_EV_INSTRUCTIONS_EXECUTED_IN_V_PIPE] = P5_SLOT_V_PIPE,
    [P5_EV_FLOPS] = P5_SLOT_FLOPS,
    [P5_EV_SEGMENT_REGISTER_LOADED] = P5_SLOT_SEGMENT_LOADS,
    [P5_EV_LOCKED_BUS_CYCLE] = P5_SLOT_LOCKED,
    [P5_EV_DATA_READ] = P5_SLOT_READS,
    [P5_EV_DATA_WRITE] = P5_SLOT_WRITES,
    [P5_EV_DATA_READ_OR_WRITE] = P5_SLOT_REFERENCES,
    [P5_EV_MEMORY_ACCESSES_IN_BOTH_PIPES] = P5_SLOT_BOTH_PIPES,
    [P5_EV_BRANCHES] = P5_SLOT_BRANCHES,
};

void p5_static_codes(struct p5_static_events *e)
{
    static const enum p5_event_code codes[] = {
        P5_EV_INSTRUCTIONS_EXECUTED, P5_EV_INSTRUCTIONS_EXECUTED_IN_V_PIPE, P5_EV_FLOPS,
        P5_EV_SEGMENT_REGISTER_LOADED, P5_EV_LOCKED_BUS_CYCLE, P5_EV_DATA_READ, P5_EV_DATA_WRITE,
        P5_EV_DATA_READ_OR_WRITE, P5_EV_MEMORY_ACCESSES_IN_BOTH_PIPES, P5_EV_BRANCHES,
    };
    e->count[P5_SLOT_REFERENCES] = e->count[P5_SLOT_READS] + e->count[P5_SLOT_WRITES];
    e->codes = 0;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (p5_static_count(e, codes[i]))
            e->codes |= p5_code_bit(codes[i]);
}

/* ---- groups */

/* The references of at most 8 bytes an access makes: the P5's data bus is
 * 64 bits wide (p5_memory.c). */
static uint32_t references(const struct trace_access *a)
{
    return a->size <= 8 ? 1 : (a->size + 7) / 8;
}

static void count_references(const struct p5_shape *shape, struct p5_static_events *e)
{
    for (uint32_t i = shape->first; i < shape->first + shape->n; i++) {
        const struct trace_access *a = &shape->accesses[i];
        if (a->kind & TRACE_LOAD)
            e->count[P5_SLOT_READS] += references(a);
        if (a->kind & TRACE_STORE)
            e->count[P5_SLOT_WRITES] += references(a);
    }
}

/* What one instruction adds to its issue's static events. */
static void count_insn(const struct p5_op *op, const struct p5_shape *shape,
                       struct p5_static_events *e)
{
    e->count[P5_SLOT_ISSUED]++;
    e->count[P5_SLOT_FLOPS] += op->flops;
    e->count[P5_SLOT_SEGMENT_LOADS] += op->segment_loads;
    e->count[P5_SLOT_LOCKED] += op->locked;
    e->count[P5_SLOT_BRANCHES] += op->branch != X86_BRANCH_NONE;
    count_references(shape, e);
}

static bool uses_mm(const struct p5_op *op)
{
    return (op->mm_read | op->mm_written) != 0;
}

static uint16_t steps_of(const struct p5_op *u, const struct p5_op *v)
{
    uint16_t steps = 0;
    if (u->prefixes)
        steps |= P5_STEP_PREFIX;
    if (u->x87)
        steps |= P5_STEP_X87;
    if (uses_mm(u) || (v && uses_mm(v)))
        steps |= P5_STEP_MMX;
    if (u->clocks_vary || (v && v->clocks_vary))
        steps |= P5_STEP_VARY;
    if (u->branch != X86_BRANCH_NONE)
        steps |= P5_STEP_BRANCH_U;
    if (v && v->branch != X86_BRANCH_NONE)
        steps |= P5_STEP_BRANCH_V;
    return steps;
}

/* What v adds to the group of u. */
static void add_v(struct p5_group *group, const struct p5_op *v, const struct p5_shape *u_shape,
                  const struct p5_shape *v_shape)
{
    group->v_op = v;
    if (v->clocks > group->clocks)
        group->clocks = v->clocks;
    group->v_first = (uint8_t)v_shape->first;
    group->v_accesses = (uint8_t)v_shape->n;
    group->regs_written |= v->regs_written;
    group->v_address_regs = v->address_regs;
    count_insn(v, v_shape, &group->events);
    group->events.count[P5_SLOT_V_PIPE] = 1;
    group->events.count[P5_SLOT_BOTH_PIPES] = u_shape->n && v_shape->n;
    if (group->events.count[P5_SLOT_BOTH_PIPES])
        group->steps |= P5_STEP_BANKS;
}

void p5_group_make(const struct p5_op *u, const struct p5_shape *u_shape, const struct p5_op *v,
                   const struct p5_shape *v_shape, bool taken, struct p5_group *group)
{
    memset(group, 0, sizeof *group);
    group->u_op = u;
    group->v = P5_ALONE;
    group->steps = steps_of(u, v) | P5_STEP_FETCH_U | (v ? P5_STEP_FETCH_V : 0);
    group->clocks = u->clocks;
    group->u_first = (uint8_t)u_shape->first;
    group->u_accesses = (uint8_t)u_shape->n;
    group->taken = taken;
    group->regs_written = u->regs_written;
    group->u_address_regs = u->address_regs;
    count_insn(u, u_shape, &group->events);
    if (v)
        add_v(group, v, u_shape, v_shape);
    p5_static_codes(&group->events);
}

/* ---- plans */

static void add_events(struct p5_static_events *sum, const struct p5_static_events *e)
{
    for (unsigned i = 0; i < P5_STATIC_SLOTS; i++)
        sum->count[i] += e->count[i];
}

static struct p5_shape shape_of(const struct trace_block *block, unsigned i)
{
    const struct trace_block_insn *insn = &block->insns[i];
    return (struct p5_shape){block->accesses, insn->first_access, insn->n_accesses};
}

static bool taken(const struct trace_block *block, unsigned i)
{
    return block->insns[i].branch == TRACE_BRANCH_TAKEN;
}

/* Whether instruction i of the memo (not the first) may start a code line
 * (p5_fetch(), p5_machine.h): not when it lies in the line the one before
 * ends in, as the code read last is that one's. */
static bool may_start_line(const struct p5_block_memo *memo, unsigned i)
{
    const struct p5_op *before = &memo->ops[i - 1], *op = &memo->ops[i];
    uint64_t line = op->address >> memo->line_shift;
    return (op->address + op->length - 1) >> memo->line_shift != line ||
           (before->address + before->length - 1) >> memo->line_shift != line;
}

/* Instruction u alone (v P5_ALONE) or u and v: the plan's next group. */
static void add_group(struct p5_plan *plan, const struct p5_block_memo *memo,
                      const struct trace_block *block, unsigned u, unsigned v)
{
    struct p5_group *group = &plan->groups[plan->n_groups++];
    struct p5_shape u_shape = shape_of(block, u), v_shape;
    if (v == P5_ALONE) {
        p5_group_make(&memo->ops[u], &u_shape, NULL, NULL, taken(block, u), group);
    } else {
        v_shape = shape_of(block, v);
        p5_group_make(&memo->ops[u], &u_shape, &memo->ops[v], &v_shape, taken(block, v), group);
        group->v = (uint8_t)v;
        if (!may_start_line(memo, v))
            group->steps &= (uint16_t)~P5_STEP_FETCH_V;
    }
    group->u = (uint8_t)u;
    if (u > 0 && !may_start_line(memo, u))
        group->steps &= (uint16_t)~P5_STEP_FETCH_U;
}

/* ---- a plan's clean replay (p5_plan's `replay`) */

enum { MAX_REPLAY_LINES = 255 };

/* The code lines group `g` reads (p5_fetch_lines()) after the line before
 * *fetch_line (0: none yet); false when more than lines[] holds. */
static bool group_lines(const struct p5_group *g, unsigned shift, uint64_t *fetch_line,
                        uint64_t *lines, unsigned *n)
{
    const struct p5_op *ops[2] = {(g->steps & P5_STEP_FETCH_U) ? g->u_op : NULL,
                                  (g->steps & P5_STEP_FETCH_V) ? g->v_op : NULL};
    for (unsigned k = 0; k < 2; k++) {
        if (!ops[k])
            continue;
        uint64_t first = ops[k]->address >> shift;
        uint64_t last = (ops[k]->address + ops[k]->length - 1) >> shift;
        for (uint64_t line = first; line <= last; line++) {
            if (line + 1 == *fetch_line)
                continue;
            if (*n == MAX_REPLAY_LINES)
                return false;
            *fetch_line = line + 1;
            lines[(*n)++] = line;
        }
    }
    return true;
}

/* The writes of accesses[first, first + n); false when one is wider than
 * a reference (8 bytes) or when they do not follow *next. */
static bool pipe_accesses(const struct trace_access *accesses, unsigned first, unsigned n,
                          int *next, unsigned *writes)
{
    if (n == 0)
        return true;
    if (*next >= 0 && (unsigned)*next != first)
        return false;
    *next = (int)(first + n);
    for (unsigned i = first; i < first + n; i++) {
        if (accesses[i].size > 8)
            return false;
        *writes += (accesses[i].kind & TRACE_STORE) != 0;
    }
    return true;
}

/* The plan's bulk_clocks: in a clean execution, a group after the first
 * has an AGI clock when it uses a register the group before wrote
 * (p5_pipeline.c). */
static void bulk_clocks(struct p5_plan *plan)
{
    uint32_t clocks = 0;
    for (unsigned i = 0; i + 1 < plan->n_groups; i++) {
        const struct p5_group *g = &plan->groups[i];
        if (i > 0 && ((g->u_address_regs | g->v_address_regs) & plan->groups[i - 1].regs_written))
            clocks++;
        clocks += g->clocks;
    }
    plan->bulk_clocks = clocks;
}

/* Sets what a clean replay of the plan needs but its lines, which go to
 * lines[] (*n_lines of them); false when it cannot be replayed. */
static bool make_replay(struct p5_plan *plan, const struct trace_block *block,
                        unsigned line_shift, uint64_t *lines, unsigned *n_lines)
{
    uint64_t fetch_line = 0;
    int first_access = -1, next = -1;
    const uint16_t dynamic = P5_STEP_PREFIX | P5_STEP_X87 | P5_STEP_MMX | P5_STEP_VARY;
    const uint16_t branch = P5_STEP_BRANCH_U | P5_STEP_BRANCH_V;
    *n_lines = 0;
    if (plan->n_groups == 0)
        return false;
    for (unsigned i = 0; i < plan->n_groups; i++) {
        struct p5_group *g = &plan->groups[i];
        unsigned before = *n_lines, writes = 0;
        bool last = i + 1 == plan->n_groups;
        if ((g->steps & dynamic) || (!last && (g->steps & branch)) ||
            !group_lines(g, line_shift, &fetch_line, lines, n_lines))
            return false;
        if (!pipe_accesses(block->accesses, g->u_first, g->u_accesses, &next, &writes) ||
            !pipe_accesses(block->accesses, g->v_first, g->v_accesses, &next, &writes))
            return false;
        if (first_access < 0 && next >= 0)
            first_access = next - g->u_accesses - g->v_accesses;
        if (before == 0 && *n_lines > 0)
            plan->first_line_group = (uint8_t)i;
        plan->banks |= (g->steps & P5_STEP_BANKS) != 0;
        g->code_reads = (uint8_t)(*n_lines - before);
        g->writes = (uint8_t)writes;
    }
    bulk_clocks(plan);
    plan->access_first = (uint8_t)(first_access < 0 ? 0 : first_access);
    plan->access_end = (uint8_t)(first_access < 0 ? 0 : next);
    return true;
}

/* The plan moved to make room after its groups for its lines (a clean
 * replay's) and the entries its look-ups find (p5_found), all 0; NULL
 * when out of memory (the plan is then freed). */
static struct p5_plan *add_tail(struct p5_plan *plan, const struct trace_block *block,
                                const uint64_t *lines, unsigned n_lines)
{
    size_t size = sizeof *plan + plan->n_groups * sizeof plan->groups[0];
    size_t n_entries = block->n_accesses + n_lines;
    struct p5_plan *moved =
        realloc(plan, size + n_lines * sizeof lines[0] + n_entries * sizeof(struct p5_entries));
    if (!moved) {
        free(plan);
        return NULL;
    }
    plan = moved;
    uint64_t *copy = (uint64_t *)((char *)plan + size);
    memcpy(copy, lines, n_lines * sizeof lines[0]);
    plan->lines = copy;
    plan->n_lines = (uint8_t)n_lines;
    struct p5_entries *entries = (struct p5_entries *)(copy + n_lines);
    memset(entries, 0, n_entries * sizeof *entries);
    plan->found.data = entries;
    plan->found.lines = entries + block->n_accesses;
    return plan;
}

/* The groups the driver forms from instruction `first` on, holding an
 * instruction back while it may lead a pair. */
static struct p5_plan *make_plan(const struct p5_block_memo *memo, const struct trace_block *block,
                                 unsigned first)
{
    struct p5_plan *plan =
        calloc(1, sizeof *plan + (memo->n_insns - first) * sizeof plan->groups[0]);
    if (!plan)
        return NULL;
    plan->first = (uint8_t)first;
    unsigned held = P5_ALONE;
    for (unsigned i = first; i < memo->n_insns; i++) {
        const struct p5_op *op = &memo->ops[i];
        if (held != P5_ALONE && p5_ops_pair(&memo->ops[held], op)) {
            add_group(plan, memo, block, held, i);
            held = P5_ALONE;
            continue;
        }
        if (held != P5_ALONE)
            add_group(plan, memo, block, held, P5_ALONE);
        held = P5_ALONE;
        if (p5_op_leads_pair(op))
            held = i;
        else
            add_group(plan, memo, block, i, P5_ALONE);
    }
    for (unsigned g = 0; g + 1 < plan->n_groups; g++)
        add_events(&plan->bulk, &plan->groups[g].events);
    p5_static_codes(&plan->bulk);
    plan->hold_last = held != P5_ALONE;
    if (plan->hold_last) {
        /* Its accesses are the driver's copy of them (p5_simulate.c). */
        struct p5_shape shape = shape_of(block, held);
        shape.accesses += shape.first;
        shape.first = 0;
        p5_group_make(&memo->ops[held], &shape, NULL, NULL, false, &plan->held_alone);
        plan->held_alone.u = (uint8_t)held;
    }
    uint64_t lines[MAX_REPLAY_LINES];
    unsigned n_lines;
    plan->replay = make_replay(plan, block, memo->line_shift, lines, &n_lines);
    return add_tail(plan, block, lines, plan->replay ? n_lines : 0);
}

struct p5_plan *p5_block_plan_make(struct p5_block_memo *memo, const struct trace_block *block,
                                   unsigned first)
{
    memo->plans[first] = make_plan(memo, block, first);
    return memo->plans[first];
}

/* ---- memos */

/* Records without code bytes (imports): a simple instruction, or a
 * conditional branch when the trace says it branched. */
static void generic_op(const struct trace_block_insn *insn, struct p5_op *op)
{
    p5_op_generic(insn->address, insn->length, op);
    if (insn->branch != TRACE_NOT_BRANCH) {
        op->branch = X86_BRANCH_COND;
        op->cls = X86_P5_PV;
    }
}

static enum decode_status op_of(const struct p5_memo_context *context,
                                const struct trace_block_insn *insn, struct p5_op *op)
{
    struct p5_decode_cache *cache = context->cache;
    if (!context->code_known || !insn->has_bytes) {
        generic_op(insn, op);
        return DECODE_OK;
    }
    const struct p5_op *decoded = p5_decode_hit(cache, insn->address, insn->length, insn->bytes);
    enum decode_status status = DECODE_OK;
    if (!decoded)
        status = p5_decode_miss(cache, insn->address, insn->length, insn->bytes, &decoded);
    if (status == DECODE_OK)
        *op = *decoded;
    return status;
}

static struct p5_block_memo *make_memo(const struct p5_memo_context *context,
                                       const struct trace_block *block,
                                       struct p5_memo_failure *failure)
{
    struct p5_block_memo *memo = malloc(sizeof *memo + block->n_insns * sizeof memo->ops[0]);
    if (!memo) {
        failure->status = DECODE_OUT_OF_MEMORY;
        return NULL;
    }
    memo->n_insns = block->n_insns;
    memo->line_shift = context->line_shift;
    memo->unclassified = 0;
    for (uint32_t i = 0; i < block->n_insns; i++) {
        failure->status = op_of(context, &block->insns[i], &memo->ops[i]);
        failure->insn = i;
        if (failure->status != DECODE_OK) {
            free(memo);
            return NULL;
        }
        memo->unclassified += memo->ops[i].unclassified;
    }
    memo->plans[1] = NULL;
    memo->plans[0] = make_plan(memo, block, 0);
    if (!memo->plans[0]) {
        free(memo);
        failure->status = DECODE_OUT_OF_MEMORY;
        return NULL;
    }
    return memo;
}

/* Room for block `id` in the table. */
static bool make_room(struct p5_block_memos *memos, uint32_t id)
{
    struct p5_block_memo **by_id =
        block_table_reserve(memos->by_id, &memos->capacity, id, sizeof *by_id);
    if (by_id)
        memos->by_id = by_id;
    return by_id != NULL;
}

struct p5_block_memo *p5_block_memo_make(struct p5_block_memos *memos,
                                         const struct p5_memo_context *context,
                                         const struct trace_block *block,
                                         struct p5_memo_failure *failure)
{
    failure->insn = 0;
    failure->status = DECODE_OUT_OF_MEMORY;
    if (!make_room(memos, block->id))
        return NULL;
    struct p5_block_memo *memo = make_memo(context, block, failure);
    memos->by_id[block->id] = memo;
    return memo;
}
