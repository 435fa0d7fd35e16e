/* Instruction facts for the NetBurst model and the decode cache. */
#include "sim/netburst/nb_op.h"

#include <string.h>

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

/* Integer classes by mnemonic (the Pentium 4 monitoring study, section 5.3.1: shifts, multiplies and
 * divides go to the slow integer unit). */
static enum nb_class integer_class(const char *m)
{
    static const char *const shifts[] = {"shl", "shr", "sar", "sal", "rol", "ror",
                                         "rcl", "rcr", "shld", "shrd", NULL};
    static const char *const multiplies[] = {"mul", "imul", NULL};
    static const char *const divides[] = {"div", "idiv", NULL};
    if (is_one_of(m, shifts))
        return NB_CLASS_SHIFT;
    if (is_one_of(m, multiplies))
        return NB_CLASS_MULTIPLY;
    if (is_one_of(m, divides))
        return NB_CLASS_DIVIDE;
    return NB_CLASS_FAST;
}

static bool is_move(const char *m)
{
    return strstr(m, "mov") || strncmp(m, "fld", 3) == 0 || strncmp(m, "fst", 3) == 0 ||
           strncmp(m, "fild", 4) == 0 || strncmp(m, "fist", 4) == 0 || strcmp(m, "fxch") == 0;
}

static enum nb_class fp_class(const char *m, bool vector_integer)
{
    if (strstr(m, "div") || strstr(m, "sqrt") || strncmp(m, "fprem", 5) == 0)
        return NB_CLASS_FP_DIVIDE;
    if (is_move(m))
        return NB_CLASS_FP_MOVE;
    if (vector_integer)
        return NB_CLASS_SIMD_INTEGER;
    if (strstr(m, "mul"))
        return NB_CLASS_FP_MULTIPLY;
    return NB_CLASS_FP_ADD;
}

/* SSE/AVX by mnemonic: P... is 128-bit integer, ...PS/PD/SS/SD the FP
 * formats (docs/netburst-model.md says what this misses). */
static enum nb_fp_kind sse_kind(const char *m)
{
    const char *base = m[0] == 'v' ? m + 1 : m;
    if (base[0] == 'p')
        return NB_FP_KIND_MMX128;
    if (ends_with(m, "ps"))
        return NB_FP_KIND_PACKED_SP;
    if (ends_with(m, "pd"))
        return NB_FP_KIND_PACKED_DP;
    if (ends_with(m, "ss"))
        return NB_FP_KIND_SCALAR_SP;
    if (ends_with(m, "sd"))
        return NB_FP_KIND_SCALAR_DP;
    return NB_FP_KIND_NONE;
}

static void classify(const struct x86_insn *in, struct nb_op *op)
{
    const char *m = in->mnemonic;
    op->simd = in->fp != X86_FP_NONE;
    switch (in->fp) {
    case X86_FP_X87:
        op->fp_kind = NB_FP_KIND_X87;
        op->cls = (uint8_t)fp_class(m, false);
        break;
    case X86_FP_MMX:
        op->fp_kind = NB_FP_KIND_MMX64;
        op->cls = (uint8_t)fp_class(m, true);
        break;
    case X86_FP_SSE:
    case X86_FP_AVX:
        op->fp_kind = (uint8_t)sse_kind(m);
        op->cls = (uint8_t)fp_class(m, op->fp_kind == NB_FP_KIND_MMX128);
        break;
    default:
        op->fp_kind = NB_FP_KIND_NONE;
        op->cls = (uint8_t)(in->branch != X86_BRANCH_NONE ? NB_CLASS_BRANCH : integer_class(m));
    }
}

static void op_from_insn(const struct x86_insn *in, struct nb_op *op)
{
    memset(op, 0, sizeof *op);
    op->address = in->address;
    op->length = in->length;
    op->uops = in->netburst_uops ? in->netburst_uops : 1;
    op->msrom = in->netburst_msrom;
    op->branch = in->branch;
    op->has_target = in->has_target;
    op->target = in->target;
    op->regs_read = in->regs_read;
    op->regs_written = in->regs_written;
    if (in->fp == X86_FP_X87) {
        op->regs_read |= NB_REG_X87;
        op->regs_written |= NB_REG_X87;
    }
    classify(in, op);
}

void nb_op_generic(const struct trace_insn *insn, struct nb_op *op)
{
    memset(op, 0, sizeof *op);
    op->address = insn->address;
    op->length = insn->length;
    op->uops = 1;
    op->cls = NB_CLASS_FAST;
    if (insn->branch != TRACE_NOT_BRANCH) {
        op->branch = X86_BRANCH_COND;
        op->cls = NB_CLASS_BRANCH;
    }
}

/* ---- the decode cache */

/* A slot of the decode cache. */
struct nb_decoded {
    struct decode_key key;
    struct nb_op op;
};

static void fill_slot(const struct x86_insn *insn, struct decode_key *slot)
{
    op_from_insn(insn, &((struct nb_decoded *)slot)->op);
}

/* The op of the slot that begins with `slot`. */
static const struct nb_op *op_of(const struct decode_key *slot)
{
    return &((const struct nb_decoded *)slot)->op;
}

bool nb_decode_cache_init(struct nb_decode_cache *cache, enum x86_mode mode)
{
    return decode_cache_init(&cache->slots, mode, sizeof(struct nb_decoded), fill_slot);
}

void nb_decode_cache_free(struct nb_decode_cache *cache)
{
    decode_cache_free(&cache->slots);
}

const struct nb_op *nb_decode_lookup(const struct nb_decode_cache *cache, uint64_t address)
{
    const struct decode_key *slot = decode_cache_lookup(&cache->slots, address);
    return slot ? op_of(slot) : NULL;
}

enum decode_status nb_decode(struct nb_decode_cache *cache, const struct trace_insn *insn,
                             const struct nb_op **op)
{
    const struct decode_key *slot = decode_cache_hit(&cache->slots, insn);
    enum decode_status status = slot ? DECODE_OK : decode_cache_miss(&cache->slots, insn, &slot);
    if (status == DECODE_OK)
        *op = op_of(slot);
    return status;
}
