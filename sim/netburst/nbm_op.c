/* Instruction facts for the NetBurst model and the decode cache. */
#include "sim/netburst/nbm_op.h"

#include <stdio.h>
#include <string.h>

/* ---- the default timing of an instruction without a row */

/* Defaults by kind of instruction, for an instruction the timing table
 * has no row for (counted in nbm_result.unclassified): the unit and the
 * latencies the model used before the table (docs/netburst-model.md,
 * "Instructions": the Pentium 4 monitoring study, section 5.3.1, for the
 * slow integer unit's 4, 14 and 60 cycles; Sprunt 2002 for the FP add's
 * 5; the rest assumptions).  Half cycles; a divide occupies its unit for
 * its whole latency, the others issue one a cycle (the fast ALU one each
 * half cycle). */
enum nbm_default {
    NBM_DEFAULT_FAST, NBM_DEFAULT_SHIFT, NBM_DEFAULT_MULTIPLY, NBM_DEFAULT_DIVIDE,
    NBM_DEFAULT_BRANCH, NBM_DEFAULT_FP_ADD, NBM_DEFAULT_FP_MULTIPLY, NBM_DEFAULT_FP_DIVIDE,
    NBM_DEFAULT_FP_MOVE, NBM_DEFAULT_SIMD_INTEGER,
};

enum { ONE_A_CYCLE = 2 }; /* a load or store port's interval without a row for it */

static const struct nbm_op_timing default_timing[] = {
    [NBM_DEFAULT_FAST] = {1, 1, NBM_EU_ALU, ONE_A_CYCLE, ONE_A_CYCLE},
    [NBM_DEFAULT_SHIFT] = {8, 2, NBM_EU_INT, ONE_A_CYCLE, ONE_A_CYCLE},
    [NBM_DEFAULT_MULTIPLY] = {28, 2, NBM_EU_MUL, ONE_A_CYCLE, ONE_A_CYCLE},
    [NBM_DEFAULT_DIVIDE] = {120, 120, NBM_EU_COMPLEX, ONE_A_CYCLE, ONE_A_CYCLE},
    [NBM_DEFAULT_BRANCH] = {2, 1, NBM_EU_ALU0, ONE_A_CYCLE, ONE_A_CYCLE},
    [NBM_DEFAULT_FP_ADD] = {10, 2, NBM_EU_FP_ADD, ONE_A_CYCLE, ONE_A_CYCLE},
    [NBM_DEFAULT_FP_MULTIPLY] = {14, 2, NBM_EU_FP_MUL, ONE_A_CYCLE, ONE_A_CYCLE},
    [NBM_DEFAULT_FP_DIVIDE] = {76, 76, NBM_EU_FP_DIV, ONE_A_CYCLE, ONE_A_CYCLE},
    [NBM_DEFAULT_FP_MOVE] = {12, 2, NBM_EU_FP_MOVE, ONE_A_CYCLE, ONE_A_CYCLE},
    [NBM_DEFAULT_SIMD_INTEGER] = {4, 2, NBM_EU_MMX_ALU, ONE_A_CYCLE, ONE_A_CYCLE},
};

static bool is_one_of(const char *m, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(m, *names) == 0)
            return true;
    return false;
}

static bool ends_with(const char *m, const char *suffix)
{
    size_t n = strlen(m), k = strlen(suffix);
    return n >= k && strcmp(m + n - k, suffix) == 0;
}

static enum nbm_default integer_default(const char *m)
{
    static const char *const shifts[] = {"shl", "shr", "sar", "sal", "rol", "ror",
                                         "rcl", "rcr", "shld", "shrd", NULL};
    static const char *const multiplies[] = {"mul", "imul", NULL};
    static const char *const divides[] = {"div", "idiv", NULL};
    if (is_one_of(m, shifts))
        return NBM_DEFAULT_SHIFT;
    if (is_one_of(m, multiplies))
        return NBM_DEFAULT_MULTIPLY;
    if (is_one_of(m, divides))
        return NBM_DEFAULT_DIVIDE;
    return NBM_DEFAULT_FAST;
}

static bool is_move(const char *m)
{
    return strstr(m, "mov") || strncmp(m, "fld", 3) == 0 || strncmp(m, "fst", 3) == 0 ||
           strncmp(m, "fild", 4) == 0 || strncmp(m, "fist", 4) == 0 || strcmp(m, "fxch") == 0;
}

static enum nbm_default fp_default(const char *m, bool vector_integer)
{
    if (strstr(m, "div") || strstr(m, "sqrt") || strncmp(m, "fprem", 5) == 0)
        return NBM_DEFAULT_FP_DIVIDE;
    if (is_move(m))
        return NBM_DEFAULT_FP_MOVE;
    if (vector_integer)
        return NBM_DEFAULT_SIMD_INTEGER;
    if (strstr(m, "mul"))
        return NBM_DEFAULT_FP_MULTIPLY;
    return NBM_DEFAULT_FP_ADD;
}

/* SSE/AVX by mnemonic: P... is 128-bit integer, ...PS/PD/SS/SD the FP
 * formats (docs/netburst-model.md says what this misses). */
static enum nbm_fp_kind sse_kind(const char *m)
{
    const char *base = m[0] == 'v' ? m + 1 : m;
    if (base[0] == 'p')
        return NBM_FP_KIND_MMX128;
    if (ends_with(m, "ps"))
        return NBM_FP_KIND_PACKED_SP;
    if (ends_with(m, "pd"))
        return NBM_FP_KIND_PACKED_DP;
    if (ends_with(m, "ss"))
        return NBM_FP_KIND_SCALAR_SP;
    if (ends_with(m, "sd"))
        return NBM_FP_KIND_SCALAR_DP;
    return NBM_FP_KIND_NONE;
}

/* Sets the op's execution-event family (an x87/SIMD move counts as one
 * whatever unit runs it); returns its default timing. */
static enum nbm_default classify(const struct x86_insn *in, struct nbm_op *op)
{
    const char *m = in->mnemonic;
    op->simd = in->fp != X86_FP_NONE;
    op->fp_move = op->simd && is_move(m);
    switch (in->fp) {
    case X86_FP_X87:
        op->fp_kind = NBM_FP_KIND_X87;
        return fp_default(m, false);
    case X86_FP_MMX:
        op->fp_kind = NBM_FP_KIND_MMX64;
        return fp_default(m, true);
    case X86_FP_SSE:
    case X86_FP_AVX:
        op->fp_kind = (uint8_t)sse_kind(m);
        return fp_default(m, op->fp_kind == NBM_FP_KIND_MMX128);
    default:
        op->fp_kind = NBM_FP_KIND_NONE;
        return in->branch != X86_BRANCH_NONE ? NBM_DEFAULT_BRANCH : integer_default(m);
    }
}

/* ---- the timing row */

/* A form's operands ("r32,m32": "r32" and "m32"). */
enum { MAX_OPERANDS = 4 };
struct operands {
    int n;
    char kind[MAX_OPERANDS][8];
};

static void split(const char *form, struct operands *o)
{
    o->n = 0;
    for (const char *p = form; *p && o->n < MAX_OPERANDS;) {
        size_t len = strcspn(p, ",");
        snprintf(o->kind[o->n++], sizeof o->kind[0], "%.*s", (int)len, p);
        p += len;
        p += *p == ',';
    }
}

static bool is_memory(const char *kind)
{
    return kind[0] == 'm' && (kind[1] == '\0' || (kind[1] >= '0' && kind[1] <= '9'));
}

static bool is_register(const char *kind)
{
    return !is_memory(kind) && strcmp(kind, "i") != 0 && strcmp(kind, "rel") != 0;
}

/* The form with each memory operand as the register it stands for: the
 * kind of the instruction's first register operand ("r32,m32" and
 * "m32,r32": "r32,r32"; "xmm,m64": "xmm,xmm"), else for x87 "st", else a
 * general register of the memory operand's size ("m32,i": "r32,i").
 * Intel's rows are for register operands; the load is the model's own.
 * False when the form has no memory operand. */
static bool register_form(const struct x86_insn *in, char *out, size_t size)
{
    struct operands o;
    split(in->form, &o);
    const char *reg = NULL;
    bool memory = false;
    for (int i = 0; i < o.n; i++) {
        memory |= is_memory(o.kind[i]);
        if (!reg && is_register(o.kind[i]))
            reg = o.kind[i];
    }
    size_t used = 0;
    for (int i = 0; i < o.n && used < size; i++) {
        char kind[8];
        if (!is_memory(o.kind[i]))
            snprintf(kind, sizeof kind, "%s", o.kind[i]);
        else if (reg)
            snprintf(kind, sizeof kind, "%s", reg);
        else if (in->fp == X86_FP_X87)
            snprintf(kind, sizeof kind, "st");
        else
            snprintf(kind, sizeof kind, "r%s", o.kind[i] + 1);
        int n = snprintf(out + used, size - used, "%s%s", i ? "," : "", kind);
        used += n > 0 ? (size_t)n : 0;
    }
    return memory;
}

static bool has_memory(const char *form)
{
    struct operands o;
    split(form, &o);
    for (int i = 0; i < o.n; i++)
        if (is_memory(o.kind[i]))
            return true;
    return false;
}

/* The instruction's row: its own form's (*memory: a memory form's), else
 * its register form's. */
static const struct nbm_timing *row_of(const struct x86_insn *in, bool *memory)
{
    *memory = false;
    if (!in->family[0])
        return NULL; /* the fallback decoder's */
    const struct nbm_timing *row = nbm_timing_find(in->family, in->form);
    char form[sizeof in->form];
    if (row) {
        *memory = has_memory(row->form);
        return row;
    }
    return register_form(in, form, sizeof form) ? nbm_timing_find(in->family, form) : NULL;
}

/* A published range's middle: DIV's and the transcendentals' depend on
 * the operands, which a trace does not carry. */
static uint16_t middle(uint16_t low, uint16_t high)
{
    return high > low ? (uint16_t)((low + high) / 2) : low;
}

/* Group g's timing from its cell; a figure Intel left out for g (0) is
 * the other group's, the same instruction on the sibling core (0 when
 * neither has it: no latency, a unit held for its issue slot only).  A
 * throughput of half a cycle is the double-speed ALU's only (the
 * Optimization manual ch. 1: no other unit takes a uop each half cycle):
 * Prescott's shifts and rotates, which Northwood runs on the slow
 * integer unit, run there. */
static struct nbm_op_timing row_timing(const struct nbm_timing *row, int g)
{
    const struct nbm_timing_cell *own = &row->t[g];
    const struct nbm_timing_cell *other = &row->t[NBM_NUM_TIMING_GROUPS - 1 - g];
    const struct nbm_timing_cell *l = own->latency || own->latency_max ? own : other;
    const struct nbm_timing_cell *i = own->throughput ? own : other;
    struct nbm_op_timing t = {middle(l->latency, l->latency_max),
                             middle(i->throughput, i->throughput_max), row->unit, ONE_A_CYCLE,
                             ONE_A_CYCLE};
    if (t.interval == 1)
        t.unit = NBM_EU_ALU;
    return t;
}

bool nbm_alu1_accepts(const char *family)
{
    static const char *const families[] = {"add", "sub", "cmp", "inc", "dec", "neg",
                                           "adc", "sbb", NULL};
    return is_one_of(family, families);
}

/* The unit its computing uops issue to: the ALU's logic operations and
 * branches run on ALU 0 alone. */
static uint8_t issue_unit(const struct x86_insn *in, uint8_t unit)
{
    if (unit == NBM_EU_BRANCH || (unit == NBM_EU_ALU && in->branch != X86_BRANCH_NONE))
        return NBM_EU_ALU0;
    if (unit == NBM_EU_ALU && !nbm_alu1_accepts(in->family))
        return NBM_EU_ALU0;
    return unit;
}

/* A row naming the load or store unit times the memory access, which the
 * model's load or store uops do with the memory model's latency: they hold
 * their port for the row's interval; the instruction's computing uops
 * (POP's and PUSH's stack pointer update) are fast ALU uops. */
static struct nbm_op_timing memory_timing(struct nbm_op_timing row)
{
    struct nbm_op_timing t = default_timing[NBM_DEFAULT_FAST];
    uint8_t interval = (uint8_t)(row.interval > ONE_A_CYCLE ? row.interval : ONE_A_CYCLE);
    if (row.unit == NBM_EU_LOAD)
        t.load_interval = interval;
    else
        t.store_interval = interval;
    return t;
}

static bool reads_memory(const struct x86_insn *in)
{
    for (unsigned i = 0; i < in->n_mem; i++)
        if (in->mem[i].access & X86_ACCESS_READ)
            return true;
    return false;
}

/* The op's timing in each group (docs/netburst-model.md, "Instructions"):
 * its row's or its kind's default.  A row of a memory form of its own that
 * reads memory times the whole instruction: its latency counts from the
 * load's issue (nbm_core.c takes an L1 hit's off). */
static void set_timing(const struct x86_insn *in, struct nbm_op *op)
{
    enum nbm_default fallback = classify(in, op);
    bool memory;
    const struct nbm_timing *row = row_of(in, &memory);
    op->classified = row != NULL;
    op->load_in_latency = memory && row->unit != NBM_EU_LOAD && row->unit != NBM_EU_STORE &&
                          reads_memory(in);
    for (int g = 0; g < NBM_NUM_TIMING_GROUPS; g++) {
        struct nbm_op_timing t = row ? row_timing(row, g) : default_timing[fallback];
        if (row && (t.unit == NBM_EU_LOAD || t.unit == NBM_EU_STORE))
            t = memory_timing(t);
        else if (row)
            t.unit = issue_unit(in, t.unit);
        op->timing[g] = t;
    }
}

/* ---- registers */

enum { ARITHMETIC_FLAGS = X86_FLAG_CF | X86_FLAG_PF | X86_FLAG_AF | X86_FLAG_ZF |
                          X86_FLAG_SF | X86_FLAG_OF };

/* Whether it reads or writes the arithmetic flags: isa's flags, or its
 * register lists when it has none (x87's FCOMI, FCMOVcc). */
static bool flags_of(uint8_t flags, uint32_t regs)
{
    return flags ? (flags & ARITHMETIC_FLAGS) != 0 : (regs & X86_REG_FLAGS) != 0;
}

/* The flags are one renamed register: an instruction that writes some of
 * the arithmetic flags but not all merges its result with the older ones,
 * so it depends on the last flags writer ("a dependence on all previous
 * writes of the flag register": the IA-32 Optimization manual's "Use of
 * the inc and dec Instructions"). */
static void set_registers(const struct x86_insn *in, struct nbm_op *op)
{
    uint8_t partial = in->flags_written & ARITHMETIC_FLAGS;
    bool reads_flags = flags_of(in->flags_read, in->regs_read) ||
                       (partial && partial != ARITHMETIC_FLAGS);
    uint64_t gprs = 0xffffu;
    op->regs_read = (in->regs_read & gprs) | (uint64_t)reads_flags << NBM_DEP_FLAGS |
                    (uint64_t)in->xmm_read << NBM_DEP_XMM0 | (uint64_t)in->mm_read << NBM_DEP_R0;
    op->regs_written = (in->regs_written & gprs) |
                       (uint64_t)flags_of(in->flags_written, in->regs_written) << NBM_DEP_FLAGS |
                       (uint64_t)in->xmm_written << NBM_DEP_XMM0 |
                       (uint64_t)in->mm_written << NBM_DEP_R0;
    op->mmx = (in->mm_read | in->mm_written) != 0;
    op->stack = in->fp == X86_FP_X87 || op->mmx;
    op->stack_pointer = in->stack && (in->regs_written & X86_REG_BIT(X86_GPR_SP)) &&
                        !(in->regs_read & X86_REG_BIT(X86_GPR_BP));
    /* FXCH renames: it only swaps two registers' names (the Optimization
     * manual's appendix C: latency 0) */
    op->fxch = strcmp(in->family, "fxch") == 0;
    op->st_read = in->st_read;
    op->st_written = in->st_written;
    op->st_pops = in->st_pops;
    op->st_pushes = in->st_pushes;
}

static void op_from_insn(const struct x86_insn *in, struct nbm_op *op)
{
    memset(op, 0, sizeof *op);
    op->address = in->address;
    op->length = in->length;
    op->uops = in->netburst_uops ? in->netburst_uops : 1;
    op->msrom = in->netburst_msrom;
    op->branch = in->branch;
    op->has_target = in->has_target;
    op->target = in->target;
    set_registers(in, op);
    set_timing(in, op);
}

void nbm_op_generic(uint64_t address, uint8_t length, enum trace_branch branch, struct nbm_op *op)
{
    memset(op, 0, sizeof *op);
    op->address = address;
    op->length = length;
    op->uops = 1;
    enum nbm_default d = NBM_DEFAULT_FAST;
    if (branch != TRACE_NOT_BRANCH) {
        op->branch = X86_BRANCH_COND;
        d = NBM_DEFAULT_BRANCH;
    }
    for (int g = 0; g < NBM_NUM_TIMING_GROUPS; g++)
        op->timing[g] = default_timing[d];
}

/* ---- the decode cache */

/* A slot of the decode cache. */
struct nbm_decoded {
    struct decode_key key;
    struct nbm_op op;
};

static void fill_slot(const struct x86_insn *insn, struct decode_key *slot)
{
    op_from_insn(insn, &((struct nbm_decoded *)slot)->op);
}

/* The op of the slot that begins with `slot`. */
static const struct nbm_op *op_of(const struct decode_key *slot)
{
    return &((const struct nbm_decoded *)slot)->op;
}

bool nbm_decode_cache_init(struct nbm_decode_cache *cache, enum x86_mode mode)
{
    cache->replaced = false;
    return decode_cache_init(&cache->slots, mode, sizeof(struct nbm_decoded), fill_slot);
}

void nbm_decode_cache_free(struct nbm_decode_cache *cache)
{
    decode_cache_free(&cache->slots);
}

const struct nbm_op *nbm_decode_lookup(const struct nbm_decode_cache *cache, uint64_t address)
{
    const struct decode_key *slot = decode_cache_lookup(&cache->slots, address);
    return slot ? op_of(slot) : NULL;
}

const uint8_t *nbm_decode_code(const struct nbm_decode_cache *cache, uint64_t address)
{
    const struct decode_key *slot = decode_cache_lookup(&cache->slots, address);
    return slot ? slot->bytes : NULL;
}

enum decode_status nbm_decode(struct nbm_decode_cache *cache, uint64_t address, uint8_t length,
                              const uint8_t *bytes, const struct nbm_op **op)
{
    const struct decode_key *slot = decode_cache_hit_code(&cache->slots, address, length, bytes);
    enum decode_status status = DECODE_OK;
    if (!slot) {
        cache->replaced = cache->replaced || decode_cache_lookup(&cache->slots, address);
        status = decode_cache_miss_code(&cache->slots, address, length, bytes, &slot);
    }
    if (status == DECODE_OK)
        *op = op_of(slot);
    return status;
}
