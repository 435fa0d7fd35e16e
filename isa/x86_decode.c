/* The x86 decoder (isa/x86.h, docs/isa.md): capstone decodes, this file
 * turns its detail into struct x86_insn.  Prefixes, the opcode bytes, the
 * branch kind, string and serializing instructions are read from the bytes
 * themselves with the tables below, so that they do not depend on capstone's
 * instruction ids and also hold for the fallback (isa/x86_length.c). */
#include "isa/x86.h"

#include "isa/x86_capstone.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/x86_internal.h"

enum { X86_DECODE_CACHE_BITS = 14, X86_DECODE_CACHE = 1 << X86_DECODE_CACHE_BITS };

struct x86_decoder {
    csh handle;
    cs_insn *insn;
    enum x86_mode mode;
    uint8_t gpr_of[X86_REG_ENDING]; /* capstone register -> enum x86_gpr */
    /* Decoded instructions by address (docs/isa.md, "Speed"): a hit needs
     * the same address and the same bytes. */
    struct x86_insn cache[X86_DECODE_CACHE];
};

/* ---- capstone registers to general-register numbers ---- */

struct reg_map {
    uint16_t reg;
    uint8_t gpr;
};

static const struct reg_map gpr_map[] = {
    {X86_REG_AL, 0}, {X86_REG_AH, 0}, {X86_REG_AX, 0}, {X86_REG_EAX, 0}, {X86_REG_RAX, 0},
    {X86_REG_CL, 1}, {X86_REG_CH, 1}, {X86_REG_CX, 1}, {X86_REG_ECX, 1}, {X86_REG_RCX, 1},
    {X86_REG_DL, 2}, {X86_REG_DH, 2}, {X86_REG_DX, 2}, {X86_REG_EDX, 2}, {X86_REG_RDX, 2},
    {X86_REG_BL, 3}, {X86_REG_BH, 3}, {X86_REG_BX, 3}, {X86_REG_EBX, 3}, {X86_REG_RBX, 3},
    {X86_REG_SPL, 4}, {X86_REG_SP, 4}, {X86_REG_ESP, 4}, {X86_REG_RSP, 4},
    {X86_REG_BPL, 5}, {X86_REG_BP, 5}, {X86_REG_EBP, 5}, {X86_REG_RBP, 5},
    {X86_REG_SIL, 6}, {X86_REG_SI, 6}, {X86_REG_ESI, 6}, {X86_REG_RSI, 6},
    {X86_REG_DIL, 7}, {X86_REG_DI, 7}, {X86_REG_EDI, 7}, {X86_REG_RDI, 7},
    {X86_REG_R8B, 8}, {X86_REG_R8W, 8}, {X86_REG_R8D, 8}, {X86_REG_R8, 8},
    {X86_REG_R9B, 9}, {X86_REG_R9W, 9}, {X86_REG_R9D, 9}, {X86_REG_R9, 9},
    {X86_REG_R10B, 10}, {X86_REG_R10W, 10}, {X86_REG_R10D, 10}, {X86_REG_R10, 10},
    {X86_REG_R11B, 11}, {X86_REG_R11W, 11}, {X86_REG_R11D, 11}, {X86_REG_R11, 11},
    {X86_REG_R12B, 12}, {X86_REG_R12W, 12}, {X86_REG_R12D, 12}, {X86_REG_R12, 12},
    {X86_REG_R13B, 13}, {X86_REG_R13W, 13}, {X86_REG_R13D, 13}, {X86_REG_R13, 13},
    {X86_REG_R14B, 14}, {X86_REG_R14W, 14}, {X86_REG_R14D, 14}, {X86_REG_R14, 14},
    {X86_REG_R15B, 15}, {X86_REG_R15W, 15}, {X86_REG_R15D, 15}, {X86_REG_R15, 15},
    {X86_REG_IP, X86_GPR_IP}, {X86_REG_EIP, X86_GPR_IP}, {X86_REG_RIP, X86_GPR_IP},
};

enum { GPR_FLAGS = 17 }; /* gpr_of[] value of EFLAGS */

static void fill_gpr_map(uint8_t *gpr_of)
{
    memset(gpr_of, X86_GPR_NONE, X86_REG_ENDING);
    for (size_t i = 0; i < sizeof gpr_map / sizeof gpr_map[0]; i++)
        gpr_of[gpr_map[i].reg] = gpr_map[i].gpr;
    gpr_of[X86_REG_EFLAGS] = GPR_FLAGS;
}

/* ---- decoders ---- */

struct x86_decoder *x86_decoder_create(enum x86_mode mode)
{
    if (mode != X86_MODE_32 && mode != X86_MODE_64)
        return NULL;
    struct x86_decoder *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->mode = mode;
    cs_mode cm = mode == X86_MODE_64 ? CS_MODE_64 : CS_MODE_32;
    if (cs_open(CS_ARCH_X86, cm, &d->handle) != CS_ERR_OK) {
        free(d);
        return NULL;
    }
    cs_option(d->handle, CS_OPT_DETAIL, CS_OPT_ON);
    d->insn = cs_malloc(d->handle);
    if (!d->insn) {
        cs_close(&d->handle);
        free(d);
        return NULL;
    }
    fill_gpr_map(d->gpr_of);
    return d;
}

void x86_decoder_destroy(struct x86_decoder *d)
{
    if (!d)
        return;
    cs_free(d->insn, 1);
    cs_close(&d->handle);
    free(d);
}

static _Thread_local struct x86_decoder *thread_decoders[2];

bool x86_decode(const uint8_t *bytes, size_t size, uint64_t address, enum x86_mode mode,
                struct x86_insn *out)
{
    if (mode != X86_MODE_32 && mode != X86_MODE_64)
        return false;
    int slot = mode == X86_MODE_64;
    if (!thread_decoders[slot])
        thread_decoders[slot] = x86_decoder_create(mode);
    return thread_decoders[slot] &&
           x86_decoder_decode(thread_decoders[slot], bytes, size, address, out);
}

void x86_decode_release(void)
{
    for (int i = 0; i < 2; i++) {
        x86_decoder_destroy(thread_decoders[i]);
        thread_decoders[i] = NULL;
    }
}

/* ---- from capstone's detail ---- */

static uint8_t segment_of_reg(x86_reg reg)
{
    switch (reg) {
    case X86_REG_ES: return X86_SEG_ES;
    case X86_REG_CS: return X86_SEG_CS;
    case X86_REG_SS: return X86_SEG_SS;
    case X86_REG_DS: return X86_SEG_DS;
    case X86_REG_FS: return X86_SEG_FS;
    case X86_REG_GS: return X86_SEG_GS;
    default: return X86_SEG_NONE;
    }
}

/* Instructions whose memory operand is an address only. */
static bool address_only(const struct x86_insn *in)
{
    if (in->prefixes & X86_PFX_VEX)
        return false;
    if (in->opcode_len == 1)
        return in->opcode[0] == 0x8d; /* LEA */
    /* 0F 18-1F: hint NOPs (and PREFETCHh, 0F 18 /0-3, which only hint) */
    return in->opcode_len == 2 && in->opcode[1] >= 0x18 && in->opcode[1] <= 0x1f;
}

static void fill_mem(const struct x86_decoder *d, const cs_x86_op *op, struct x86_insn *out)
{
    struct x86_mem *m = &out->mem[out->n_mem++];
    m->base = op->mem.base == X86_REG_INVALID ? X86_GPR_NONE : d->gpr_of[op->mem.base];
    m->index = op->mem.index == X86_REG_INVALID ? X86_GPR_NONE : d->gpr_of[op->mem.index];
    m->scale = m->index == X86_GPR_NONE ? 1 : (uint8_t)op->mem.scale;
    m->disp = op->mem.disp;
    m->size = op->size;
    m->segment = segment_of_reg(op->mem.segment);
    if (m->segment == X86_SEG_NONE)
        m->segment = m->base == X86_GPR_SP || m->base == X86_GPR_BP ? X86_SEG_SS : X86_SEG_DS;
    m->access = op->access & X86_ACCESS_READ_WRITE;
    if (m->access == X86_ACCESS_NONE)
        m->access = X86_ACCESS_READ; /* capstone left it out: a read is the safe guess */
    if (address_only(out))
        m->access = X86_ACCESS_NONE;
}

static void fill_operands(const struct x86_decoder *d, const cs_x86 *x, struct x86_insn *out)
{
    out->n_mem = 0;
    uint8_t first_size = 0;
    for (int i = 0; i < x->op_count; i++) {
        const cs_x86_op *op = &x->operands[i];
        if (op->type == X86_OP_MEM && out->n_mem < X86_MAX_MEM)
            fill_mem(d, op, out);
        if (i == 0 && (op->type == X86_OP_REG || op->type == X86_OP_MEM))
            first_size = op->size;
        if (op->type == X86_OP_IMM && out->has_target)
            out->target = (uint64_t)op->imm;
    }
    if (first_size == 1 || first_size == 2 || first_size == 4 || first_size == 8)
        out->operand_size = first_size;
}

/* ---- the form (docs/isa.md, "Forms") */

static const char *reg_kind(const struct x86_decoder *d, x86_reg reg, bool first, char *buf,
                            size_t size, uint8_t bytes)
{
    uint8_t g = d->gpr_of[reg];
    if (reg == X86_REG_CL && !first)
        return "cl";
    if (g < 16) {
        snprintf(buf, size, "r%u", 8u * bytes);
        return buf;
    }
    if (reg >= X86_REG_ST0 && reg <= X86_REG_ST7)
        return "st";
    if (reg >= X86_REG_MM0 && reg <= X86_REG_MM7)
        return "mm";
    if (reg >= X86_REG_XMM0 && reg <= X86_REG_XMM31)
        return "xmm";
    if (reg >= X86_REG_YMM0 && reg <= X86_REG_YMM31)
        return "ymm";
    if (segment_of_reg(reg) != X86_SEG_NONE)
        return "sreg";
    return "x";
}

/* Shifts and rotates by one (D0, D1): timed apart from those by an
 * immediate on both machines (docs/isa.md, "Forms"). */
static bool by_one(const struct x86_insn *in)
{
    return in->opcode_len == 1 && (in->opcode[0] == 0xd0 || in->opcode[0] == 0xd1);
}

/* The address an LEA (or a hint NOP) computes, by its shape: the
 * NetBurst's address arithmetic takes longer with three parts or a scaled
 * index (docs/isa.md, "Forms"; docs/netburst-timings.md). */
static const char *address_shape(const cs_x86_op *op)
{
    bool base = op->mem.base != X86_REG_INVALID, index = op->mem.index != X86_REG_INVALID;
    bool scaled = index && op->mem.scale > 1;
    unsigned parts = base + index + (op->mem.disp != 0);
    if (scaled)
        return parts >= 3 ? "as3" : "as";
    return parts >= 3 ? "a3" : "a";
}

static void fill_form(const struct x86_decoder *d, const cs_x86 *x, struct x86_insn *out)
{
    size_t used = 0;
    out->form[0] = '\0';
    for (int i = 0; i < x->op_count && used < sizeof out->form; i++) {
        const cs_x86_op *op = &x->operands[i];
        char buf[8];
        const char *kind = "x";
        if (op->type == X86_OP_REG)
            kind = reg_kind(d, op->reg, i == 0, buf, sizeof buf, op->size);
        else if (op->type == X86_OP_IMM)
            kind = out->has_target ? "rel" : by_one(out) ? "1" : "i";
        else if (op->type == X86_OP_MEM && address_only(out))
            kind = address_shape(op);
        else if (op->type == X86_OP_MEM && op->size)
            kind = (snprintf(buf, sizeof buf, "m%u", 8u * op->size), buf);
        else if (op->type == X86_OP_MEM)
            kind = "m";
        int n = snprintf(out->form + used, sizeof out->form - used, "%s%s", i ? "," : "", kind);
        used += n > 0 ? (size_t)n : 0;
    }
    if (used >= sizeof out->form)
        out->form[sizeof out->form - 1] = '\0';
}

/* MMX and XMM registers read and written. */
static void note_vector_reg(x86_reg reg, uint8_t *mm, uint16_t *xmm)
{
    if (reg >= X86_REG_MM0 && reg <= X86_REG_MM7)
        *mm |= (uint8_t)(1u << (reg - X86_REG_MM0));
    else if (reg >= X86_REG_XMM0 && reg <= X86_REG_XMM15)
        *xmm |= (uint16_t)(1u << (reg - X86_REG_XMM0));
    else if (reg >= X86_REG_YMM0 && reg <= X86_REG_YMM15)
        *xmm |= (uint16_t)(1u << (reg - X86_REG_YMM0));
}

static void fill_regs(const struct x86_decoder *d, const cs_insn *ci, struct x86_insn *out)
{
    cs_regs rd, wr;
    uint8_t nr = 0, nw = 0;
    out->regs_read = out->regs_written = 0;
    if (cs_regs_access(d->handle, ci, rd, &nr, wr, &nw) != CS_ERR_OK)
        return;
    for (unsigned i = 0; i < nr; i++) {
        note_vector_reg(rd[i], &out->mm_read, &out->xmm_read);
        uint8_t g = d->gpr_of[rd[i]];
        if (g < 16)
            out->regs_read |= X86_REG_BIT(g);
        else if (g == GPR_FLAGS)
            out->regs_read |= X86_REG_FLAGS;
    }
    for (unsigned i = 0; i < nw; i++) {
        note_vector_reg(wr[i], &out->mm_written, &out->xmm_written);
        uint8_t g = d->gpr_of[wr[i]];
        if (g < 16)
            out->regs_written |= X86_REG_BIT(g);
        else if (g == GPR_FLAGS)
            out->regs_written |= X86_REG_FLAGS;
    }
}

/* capstone's EFLAGS bits (capstone/x86.h) folded to X86_FLAG_*. */
struct flag_fold {
    uint64_t test, write;
    uint8_t flag;
};

#define WRITES(f) (X86_EFLAGS_MODIFY_##f | X86_EFLAGS_RESET_##f | X86_EFLAGS_SET_##f)
static const struct flag_fold flag_folds[] = {
    {X86_EFLAGS_TEST_CF, WRITES(CF) | X86_EFLAGS_UNDEFINED_CF, X86_FLAG_CF},
    {X86_EFLAGS_TEST_PF, WRITES(PF) | X86_EFLAGS_UNDEFINED_PF, X86_FLAG_PF},
    {X86_EFLAGS_TEST_AF, WRITES(AF) | X86_EFLAGS_UNDEFINED_AF, X86_FLAG_AF},
    {X86_EFLAGS_TEST_ZF, WRITES(ZF) | X86_EFLAGS_UNDEFINED_ZF, X86_FLAG_ZF},
    {X86_EFLAGS_TEST_SF, WRITES(SF) | X86_EFLAGS_UNDEFINED_SF, X86_FLAG_SF},
    {X86_EFLAGS_TEST_OF, WRITES(OF) | X86_EFLAGS_UNDEFINED_OF, X86_FLAG_OF},
    {X86_EFLAGS_TEST_DF, WRITES(DF), X86_FLAG_DF},
    {X86_EFLAGS_TEST_IF | X86_EFLAGS_TEST_TF | X86_EFLAGS_TEST_NT | X86_EFLAGS_TEST_RF,
     X86_EFLAGS_MODIFY_IF | X86_EFLAGS_RESET_IF | X86_EFLAGS_SET_IF | X86_EFLAGS_MODIFY_TF |
         X86_EFLAGS_RESET_TF | X86_EFLAGS_MODIFY_NT | X86_EFLAGS_RESET_NT |
         X86_EFLAGS_MODIFY_RF | X86_EFLAGS_RESET_RF | X86_EFLAGS_RESET_AC,
     X86_FLAG_OTHER},
};
#undef WRITES

static void fill_flags(const cs_detail *det, struct x86_insn *out)
{
    out->flags_read = out->flags_written = 0;
    if (out->fp == X86_FP_X87)
        return; /* the union holds FPU flags then */
    uint64_t e = det->x86.eflags;
    for (size_t i = 0; i < sizeof flag_folds / sizeof flag_folds[0]; i++) {
        if (e & flag_folds[i].test)
            out->flags_read |= flag_folds[i].flag;
        if (e & flag_folds[i].write)
            out->flags_written |= flag_folds[i].flag;
    }
    if (out->flags_read)
        out->regs_read |= X86_REG_FLAGS;
    if (out->flags_written)
        out->regs_written |= X86_REG_FLAGS;
}

static bool in_group(const cs_detail *det, uint8_t group)
{
    for (int i = 0; i < det->groups_count; i++)
        if (det->groups[i] == group)
            return true;
    return false;
}

static void fill_fp(const cs_detail *det, struct x86_insn *out)
{
    if (out->fp != X86_FP_NONE)
        return; /* x87 or VEX, from the bytes */
    if (in_group(det, X86_GRP_MMX) || in_group(det, X86_GRP_3DNOW))
        out->fp = X86_FP_MMX;
    else if (in_group(det, X86_GRP_SSE1) || in_group(det, X86_GRP_SSE2) ||
             in_group(det, X86_GRP_SSE3) || in_group(det, X86_GRP_SSSE3) ||
             in_group(det, X86_GRP_SSE41) || in_group(det, X86_GRP_SSE42) ||
             in_group(det, X86_GRP_SSE4A) || in_group(det, X86_GRP_AES) ||
             in_group(det, X86_GRP_SHA) || in_group(det, X86_GRP_PCLMUL))
        out->fp = X86_FP_SSE;
}

static void fill_from_capstone(const struct x86_decoder *d, const cs_insn *ci,
                               struct x86_insn *out)
{
    const cs_detail *det = ci->detail;
    const cs_x86 *x = &det->x86;
    out->capstone = true;
    out->id = (uint16_t)ci->id;
    memcpy(out->mnemonic, ci->mnemonic, sizeof out->mnemonic - 1);
    out->mnemonic[sizeof out->mnemonic - 1] = '\0';
    x86_family_of(ci->mnemonic, out->family, sizeof out->family);
    out->has_modrm = x->encoding.modrm_offset != 0;
    out->modrm = x->modrm;
    out->has_disp = x->encoding.disp_offset != 0;
    out->has_imm = x->encoding.imm_offset != 0 && !out->has_target;
    fill_operands(d, x, out);
    fill_form(d, x, out);
    fill_regs(d, ci, out);
    fill_fp(det, out);
    fill_flags(det, out);
}

static bool x86_decode_uncached(struct x86_decoder *d, const uint8_t *bytes, size_t size,
                                uint64_t address, struct x86_insn *out);

static struct x86_insn *cache_slot(struct x86_decoder *d, uint64_t address)
{
    return &d->cache[(address * 0x9e3779b97f4a7c15u) >> (64 - X86_DECODE_CACHE_BITS)];
}

static bool cache_hit(const struct x86_insn *c, const uint8_t *bytes, size_t size,
                      uint64_t address)
{
    return c->length && c->address == address && size >= c->length &&
           memcmp(c->bytes, bytes, c->length) == 0;
}

bool x86_decoder_decode(struct x86_decoder *d, const uint8_t *bytes, size_t size,
                        uint64_t address, struct x86_insn *out)
{
    struct x86_insn *slot = cache_slot(d, address);
    if (cache_hit(slot, bytes, size, address)) {
        *out = *slot;
        return true;
    }
    if (!x86_decode_uncached(d, bytes, size, address, out))
        return false;
    *slot = *out;
    return true;
}

/* capstone 4 drops an operand-size prefix (66) that comes before a REP
 * prefix (F2, F3) on a string instruction: it reads 66 F3 A5, GNU as's
 * encoding of `rep movsw`, as REP MOVSD (the processor takes legacy
 * prefixes in any order, SDM vol. 2, 2.1.1).  Such bytes are given to
 * capstone with the 66s moved after the REP prefixes, into COPY; the
 * instruction keeps its own bytes. */
static const uint8_t *capstone_order(const uint8_t *bytes, size_t size, enum x86_mode mode,
                                     uint8_t copy[static X86_MAX_LENGTH])
{
    size_t n = x86_skip_prefixes(bytes, size, mode);
    size_t legacy = n;
    while (legacy > 0 && mode == X86_MODE_64 && (bytes[legacy - 1] & 0xf0) == 0x40)
        legacy--; /* REX stays last */
    uint8_t op = n < size ? bytes[n] : 0;
    bool string = (op >= 0x6c && op <= 0x6f) || (op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf);
    if (!string || !memchr(bytes, 0x66, legacy) ||
        (!memchr(bytes, 0xf3, legacy) && !memchr(bytes, 0xf2, legacy)))
        return bytes;
    size_t k = 0;
    for (size_t i = 0; i < legacy; i++)
        if (bytes[i] != 0x66)
            copy[k++] = bytes[i];
    for (size_t i = 0; i < legacy; i++)
        if (bytes[i] == 0x66)
            copy[k++] = 0x66;
    memcpy(copy + k, bytes + legacy, size - legacy);
    return copy;
}

/* capstone's reading of the instruction at `bytes` into d->insn (its
 * prefixes in capstone's order); false when it reads none. */
static bool disassemble(struct x86_decoder *d, const uint8_t *bytes, size_t size,
                        uint64_t address)
{
    uint8_t reordered[X86_MAX_LENGTH];
    size_t window = size < X86_MAX_LENGTH ? size : X86_MAX_LENGTH;
    const uint8_t *code = capstone_order(bytes, window, d->mode, reordered);
    size_t left = code == bytes ? size : window;
    return cs_disasm_iter(d->handle, &code, &left, &address, d->insn);
}

bool x86_decoder_text(struct x86_decoder *d, const uint8_t *bytes, size_t size,
                      uint64_t address, char *out, size_t out_size)
{
    if (!disassemble(d, bytes, size, address))
        return false;
    snprintf(out, out_size, "%s%s%s", d->insn->mnemonic, d->insn->op_str[0] ? " " : "",
             d->insn->op_str);
    return true;
}

static bool x86_decode_uncached(struct x86_decoder *d, const uint8_t *bytes, size_t size,
                                uint64_t address, struct x86_insn *out)
{
    memset(out, 0, sizeof *out);
    bool ok = disassemble(d, bytes, size, address);
    size_t length = ok ? d->insn->size : x86_length_fallback(bytes, size, d->mode);
    if (length == 0 || length > X86_MAX_LENGTH || length > size)
        return false;
    out->address = address;
    out->length = (uint8_t)length;
    memcpy(out->bytes, bytes, length);
    x86_fill_from_bytes(out, d->mode);
    if (ok)
        fill_from_capstone(d, d->insn, out);
    else
        x86_fill_fallback(out, d->mode);
    out->feature = (uint8_t)x86_feature_of(out, d->mode, ok ? d->insn->detail->groups : NULL,
                                           ok ? d->insn->detail->groups_count : 0);
    x86_x87_stack_of(out);
    out->p5_class = (uint8_t)x86_p5_class_of(out);
    x86_netburst_uops_of(out);
    return true;
}

/* ---- the family */

static bool is_condition(const char *cc)
{
    static const char *const codes[] = {"o", "no", "b", "ae", "e", "ne", "be", "a", "s", "ns",
                                        "p", "np", "l", "ge", "le", "g",
                                        /* FCMOVcc's spellings */
                                        "nb", "nbe", "u", "nu"};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (strcmp(cc, codes[i]) == 0)
            return true;
    return false;
}

/* CMPPS/CMPPD/CMPSS/CMPSD with an immediate predicate: capstone writes the
 * predicate into the mnemonic (cmpltps, vcmpneq_uqsd); one family each. */
static bool compare_predicate(const char *m, char *family, size_t size)
{
    static const char *const suffixes[] = {"ps", "pd", "ss", "sd"};
    const char *stem = strncmp(m, "vcmp", 4) == 0 ? "vcmp" : strncmp(m, "cmp", 3) == 0 ? "cmp" : NULL;
    size_t n = strlen(m);
    if (!stem || n < strlen(stem) + 2 + 2)
        return false; /* cmpsd, the string compare, has no predicate */
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (strcmp(m + n - 2, suffixes[i]) == 0) {
            snprintf(family, size, "%s%s", stem, suffixes[i]);
            return true;
        }
    return false;
}

void x86_family_of(const char *mnemonic, char *family, size_t size)
{
    const char *last = strrchr(mnemonic, ' ');
    const char *m = last ? last + 1 : mnemonic;
    if (compare_predicate(m, family, size))
        return;
    static const char *const stems[] = {"fcmov", "cmov", "set", "j"};
    for (size_t i = 0; i < sizeof stems / sizeof stems[0]; i++) {
        size_t n = strlen(stems[i]);
        if (strncmp(m, stems[i], n) == 0 && is_condition(m + n)) {
            snprintf(family, size, "%scc", stems[i]);
            return;
        }
    }
    snprintf(family, size, "%s", m);
}

const char *x86_branch_name(enum x86_branch branch)
{
    static const char *const names[] = {
        "none", "conditional", "jump", "call", "return",
        "indirect-jump", "indirect-call", "far", "soft-int",
    };
    return (unsigned)branch < sizeof names / sizeof names[0] ? names[branch] : "?";
}
