/* What the bytes of an instruction say without capstone (docs/isa.md):
 * prefixes, the opcode, the branch kind and direct target, string and
 * serializing instructions, x87 and VEX, operand and address size.  The
 * decoder applies this to every instruction, whoever decoded its length. */
#include <string.h>

#include "isa/x86_internal.h"

/* ---- prefixes ---- */

struct legacy_prefix {
    uint8_t byte;
    uint16_t bit;
    uint8_t segment;
};

static const struct legacy_prefix legacy_prefixes[] = {
    {0xf0, X86_PFX_LOCK, X86_SEG_NONE},    {0xf3, X86_PFX_REP, X86_SEG_NONE},
    {0xf2, X86_PFX_REPNE, X86_SEG_NONE},   {0x66, X86_PFX_OPSIZE, X86_SEG_NONE},
    {0x67, X86_PFX_ADDRSIZE, X86_SEG_NONE}, {0x26, X86_PFX_SEGMENT, X86_SEG_ES},
    {0x2e, X86_PFX_SEGMENT, X86_SEG_CS},   {0x36, X86_PFX_SEGMENT, X86_SEG_SS},
    {0x3e, X86_PFX_SEGMENT, X86_SEG_DS},   {0x64, X86_PFX_SEGMENT, X86_SEG_FS},
    {0x65, X86_PFX_SEGMENT, X86_SEG_GS},
};

static const struct legacy_prefix *legacy_prefix(uint8_t byte)
{
    for (size_t i = 0; i < sizeof legacy_prefixes / sizeof legacy_prefixes[0]; i++)
        if (legacy_prefixes[i].byte == byte)
            return &legacy_prefixes[i];
    return NULL;
}

/* Scans the prefixes into IN (when not NULL); returns the opcode position. */
static size_t scan_prefixes(const uint8_t *b, size_t size, enum x86_mode mode,
                            struct x86_insn *in)
{
    size_t i = 0;
    uint16_t bits = 0;
    uint8_t seg = X86_SEG_NONE;
    for (; i < size && i < X86_MAX_LENGTH; i++) {
        const struct legacy_prefix *p = legacy_prefix(b[i]);
        if (p) {
            bits = (uint16_t)((bits | p->bit) & ~(X86_PFX_REX | X86_PFX_REX_W));
            /* F2 and F3: the last one counts (SDM vol. 2, 2.1.1) */
            if (p->bit == X86_PFX_REP)
                bits &= (uint16_t)~X86_PFX_REPNE;
            if (p->bit == X86_PFX_REPNE)
                bits &= (uint16_t)~X86_PFX_REP;
            if (p->segment != X86_SEG_NONE)
                seg = p->segment;
        } else if (mode == X86_MODE_64 && (b[i] & 0xf0) == 0x40) {
            bits |= X86_PFX_REX;
            bits = (uint16_t)((b[i] & 8) ? bits | X86_PFX_REX_W : bits & ~X86_PFX_REX_W);
        } else {
            break;
        }
    }
    if (in) {
        in->prefixes = bits;
        in->segment = seg;
    }
    return i;
}

size_t x86_skip_prefixes(const uint8_t *bytes, size_t size, enum x86_mode mode)
{
    return scan_prefixes(bytes, size, mode, NULL);
}

/* ---- the opcode ---- */

static uint8_t byte_at(const struct x86_insn *in, size_t i)
{
    return i < in->length ? in->bytes[i] : 0;
}

/* VEX (C4, C5), EVEX (62) and XOP (8F) escapes: in 32-bit mode only when
 * the next byte would be an invalid ModRM for LES, LDS, BOUND (mod 11); XOP
 * when its map field is 8 or more (POP r/m has reg 0). */
static bool is_vex(const struct x86_insn *in, size_t p, enum x86_mode mode)
{
    uint8_t b = byte_at(in, p), next = byte_at(in, p + 1);
    if (b == 0x8f)
        return (next & 0x1f) >= 8;
    if (b != 0xc4 && b != 0xc5 && b != 0x62)
        return false;
    return mode == X86_MODE_64 || (next & 0xc0) == 0xc0;
}

static const uint8_t map_escape[4][2] = {{0, 0}, {0x0f, 0}, {0x0f, 0x38}, {0x0f, 0x3a}};

static void set_vex_opcode(struct x86_insn *in, size_t p)
{
    uint8_t b = byte_at(in, p);
    unsigned map = 1;
    size_t op = p + 2;
    if (b == 0xc4 || b == 0x8f) {
        map = byte_at(in, p + 1) & 0x1f;
        op = p + 3;
        if (byte_at(in, p + 2) & 0x80)
            in->prefixes |= X86_PFX_REX_W;
    } else if (b == 0x62) {
        map = byte_at(in, p + 1) & 3;
        op = p + 4;
        if (byte_at(in, p + 2) & 0x80)
            in->prefixes |= X86_PFX_REX_W;
    }
    in->prefixes |= X86_PFX_VEX;
    in->fp = X86_FP_AVX;
    if (b == 0x8f || map > 3) { /* XOP maps 8-10 */
        in->opcode[0] = 0x8f;
        in->opcode[1] = (uint8_t)map;
        in->opcode[2] = byte_at(in, op);
        in->opcode_len = 3;
        return;
    }
    in->opcode_len = 0;
    for (int i = 0; i < 2 && map_escape[map][i]; i++)
        in->opcode[in->opcode_len++] = map_escape[map][i];
    in->opcode[in->opcode_len++] = byte_at(in, op);
}

static void set_legacy_opcode(struct x86_insn *in, size_t p)
{
    in->opcode[0] = byte_at(in, p);
    in->opcode_len = 1;
    if (in->opcode[0] != 0x0f)
        return;
    in->opcode[1] = byte_at(in, p + 1);
    in->opcode_len = 2;
    if (in->opcode[1] == 0x38 || in->opcode[1] == 0x3a) {
        in->opcode[2] = byte_at(in, p + 2);
        in->opcode_len = 3;
    }
}

/* The ModRM byte of a legacy instruction (its position is fixed by the
 * opcode; used only for the group opcodes below). */
static uint8_t legacy_modrm(const struct x86_insn *in, size_t p)
{
    return byte_at(in, p + in->opcode_len);
}

/* ---- branch kinds (docs/isa.md, "Branch kinds") ---- */

struct opcode_kind {
    uint8_t op0, op1; /* op1: the second byte after 0F, or 0 */
    uint8_t kind;
};

static const struct opcode_kind branch_opcodes[] = {
    {0xe0, 0, X86_BRANCH_COND},      {0xe1, 0, X86_BRANCH_COND},      /* LOOPNE, LOOPE */
    {0xe2, 0, X86_BRANCH_COND},      {0xe3, 0, X86_BRANCH_COND},      /* LOOP, JCXZ */
    {0xeb, 0, X86_BRANCH_JUMP},      {0xe9, 0, X86_BRANCH_JUMP},
    {0xe8, 0, X86_BRANCH_CALL},      {0xc3, 0, X86_BRANCH_RETURN},
    {0xc2, 0, X86_BRANCH_RETURN},    {0xcb, 0, X86_BRANCH_FAR},       /* RETF */
    {0xca, 0, X86_BRANCH_FAR},       {0xcf, 0, X86_BRANCH_FAR},       /* IRET */
    {0xea, 0, X86_BRANCH_FAR},       {0x9a, 0, X86_BRANCH_FAR},       /* JMP/CALL ptr16:32 */
    {0xcc, 0, X86_BRANCH_SOFT_INT},  {0xcd, 0, X86_BRANCH_SOFT_INT},  /* INT3, INT n */
    {0xce, 0, X86_BRANCH_SOFT_INT},  {0xf1, 0, X86_BRANCH_SOFT_INT},  /* INTO, INT1 */
    {0x0f, 0x05, X86_BRANCH_SOFT_INT}, {0x0f, 0x34, X86_BRANCH_SOFT_INT}, /* SYSCALL, SYSENTER */
    {0x0f, 0x07, X86_BRANCH_FAR},    {0x0f, 0x35, X86_BRANCH_FAR},    /* SYSRET, SYSEXIT */
};

/* FF /2../5 by the reg field of ModRM. */
static const uint8_t ff_branch[8] = {
    X86_BRANCH_NONE, X86_BRANCH_NONE, X86_BRANCH_INDIRECT_CALL, X86_BRANCH_FAR,
    X86_BRANCH_INDIRECT_JUMP, X86_BRANCH_FAR, X86_BRANCH_NONE, X86_BRANCH_NONE,
};

static uint8_t branch_kind(const struct x86_insn *in, size_t p)
{
    if (in->prefixes & X86_PFX_VEX)
        return X86_BRANCH_NONE;
    uint8_t op0 = in->opcode[0], op1 = in->opcode_len > 1 ? in->opcode[1] : 0;
    if ((op0 & 0xf0) == 0x70 || (op0 == 0x0f && (op1 & 0xf0) == 0x80))
        return X86_BRANCH_COND;
    if (op0 == 0xff)
        return ff_branch[(legacy_modrm(in, p) >> 3) & 7];
    for (size_t i = 0; i < sizeof branch_opcodes / sizeof branch_opcodes[0]; i++)
        if (branch_opcodes[i].op0 == op0 && branch_opcodes[i].op1 == op1)
            return branch_opcodes[i].kind;
    return X86_BRANCH_NONE;
}

/* A direct branch's target: the relative field is the rest of the bytes. */
static void set_target(struct x86_insn *in, size_t p, enum x86_mode mode)
{
    size_t at = p + in->opcode_len;
    size_t n = in->length > at ? in->length - at : 0;
    if (n != 1 && n != 2 && n != 4)
        return;
    int64_t rel = 0;
    if (n == 1)
        rel = (int8_t)in->bytes[at];
    else if (n == 2)
        rel = (int16_t)(in->bytes[at] | in->bytes[at + 1] << 8);
    else
        rel = (int32_t)((uint32_t)in->bytes[at] | (uint32_t)in->bytes[at + 1] << 8 |
                        (uint32_t)in->bytes[at + 2] << 16 | (uint32_t)in->bytes[at + 3] << 24);
    uint64_t t = in->address + in->length + (uint64_t)rel;
    if (mode == X86_MODE_32)
        t &= in->operand_size == 2 ? 0xffffu : 0xffffffffu;
    in->has_target = true;
    in->target = t;
}

/* ---- string, serializing, sizes ---- */

static bool is_string(const struct x86_insn *in)
{
    uint8_t op = in->opcode[0];
    if (in->opcode_len != 1 || (in->prefixes & X86_PFX_VEX))
        return false;
    return (op >= 0x6c && op <= 0x6f) || (op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf);
}

/* Serializing instructions, SDM vol. 3A "Serializing instructions" (9.3;
 * 8.3 in editions before 2023): 0F xx, with a ModRM reg field or any (8). */
struct serializing_op {
    uint8_t op1, reg;
};

static const struct serializing_op serializing_ops[] = {
    {0xa2, 8}, /* CPUID */       {0xaa, 8}, /* RSM */
    {0x08, 8}, /* INVD */        {0x09, 8}, /* WBINVD */
    {0x30, 8}, /* WRMSR */       {0x22, 8}, /* MOV CRn, r */
    {0x23, 8}, /* MOV DRn, r */  {0x00, 2}, /* LLDT */
    {0x00, 3}, /* LTR */
};

static bool is_serializing(const struct x86_insn *in, size_t p)
{
    if (in->prefixes & X86_PFX_VEX)
        return false;
    if (in->opcode_len == 1)
        return in->opcode[0] == 0xcf; /* IRET */
    if (in->opcode_len == 3) /* INVEPT, INVVPID: 66 0F 38 80/81 */
        return in->opcode[1] == 0x38 && (in->opcode[2] == 0x80 || in->opcode[2] == 0x81) &&
               (in->prefixes & X86_PFX_OPSIZE);
    uint8_t modrm = legacy_modrm(in, p), reg = (modrm >> 3) & 7;
    if (in->opcode[1] == 0x01) /* LGDT, LIDT (mem), INVLPG (mem), SERIALIZE (E8) */
        return ((reg == 2 || reg == 3 || reg == 7) && modrm < 0xc0) || modrm == 0xe8;
    for (size_t i = 0; i < sizeof serializing_ops / sizeof serializing_ops[0]; i++)
        if (serializing_ops[i].op1 == in->opcode[1] &&
            (serializing_ops[i].reg == 8 || serializing_ops[i].reg == reg))
            return true;
    return false;
}

/* Implicit stack accesses (PUSH, POP, CALL, RET, ENTER, LEAVE...). */
static bool is_stack(const struct x86_insn *in, size_t p)
{
    uint8_t op = in->opcode[0];
    if (in->prefixes & X86_PFX_VEX)
        return false;
    if (in->opcode_len == 2)
        return in->opcode[1] == 0xa0 || in->opcode[1] == 0xa1 || in->opcode[1] == 0xa8 ||
               in->opcode[1] == 0xa9;
    if (in->opcode_len != 1)
        return false;
    if (op == 0xff || op == 0x8f) {
        uint8_t reg = (legacy_modrm(in, p) >> 3) & 7;
        return op == 0x8f ? reg == 0 : reg == 2 || reg == 3 || reg == 6;
    }
    static const uint8_t ops[] = {0x06, 0x07, 0x0e, 0x16, 0x17, 0x1e, 0x1f, 0x60, 0x61, 0x68,
                                  0x6a, 0x9a, 0x9c, 0x9d, 0xc2, 0xc3, 0xc8, 0xc9, 0xca, 0xcb,
                                  0xcf, 0xe8};
    if (op >= 0x50 && op <= 0x5f)
        return true;
    return memchr(ops, op, sizeof ops) != NULL;
}

/* One-byte opcodes whose operand size is 64 bits by default in 64-bit mode
 * (SDM vol. 1, 3.6.1; vol. 2, table "instructions that default to 64-bit"). */
static bool default64(const struct x86_insn *in, size_t p)
{
    uint8_t op = in->opcode[0];
    if (in->opcode_len == 2)
        return (in->opcode[1] & 0xf0) == 0x80 || in->opcode[1] == 0xa0 ||
               in->opcode[1] == 0xa1 || in->opcode[1] == 0xa8 || in->opcode[1] == 0xa9;
    if (in->opcode_len != 1)
        return false;
    if (op == 0xff || op == 0x8f) {
        uint8_t reg = (legacy_modrm(in, p) >> 3) & 7;
        return op == 0x8f ? reg == 0 : reg == 2 || reg == 4 || reg == 6;
    }
    return (op >= 0x50 && op <= 0x5f) || op == 0x68 || op == 0x6a || (op & 0xf0) == 0x70 ||
           op == 0x9c || op == 0x9d || op == 0xc2 || op == 0xc3 || op == 0xc8 || op == 0xc9 ||
           (op >= 0xe0 && op <= 0xe3) || op == 0xe8 || op == 0xe9 || op == 0xeb;
}

static void set_sizes(struct x86_insn *in, size_t p, enum x86_mode mode)
{
    bool opsize = in->prefixes & X86_PFX_OPSIZE, addrsize = in->prefixes & X86_PFX_ADDRSIZE;
    if (in->prefixes & X86_PFX_REX_W)
        in->operand_size = 8;
    else if (opsize)
        in->operand_size = 2;
    else if (mode == X86_MODE_64 && !(in->prefixes & X86_PFX_VEX) && default64(in, p))
        in->operand_size = 8;
    else
        in->operand_size = 4;
    if (mode == X86_MODE_64)
        in->address_size = addrsize ? 4 : 8;
    else
        in->address_size = addrsize ? 2 : 4;
}

void x86_fill_from_bytes(struct x86_insn *in, enum x86_mode mode)
{
    size_t p = scan_prefixes(in->bytes, in->length, mode, in);
    if (is_vex(in, p, mode))
        set_vex_opcode(in, p);
    else
        set_legacy_opcode(in, p);
    set_sizes(in, p, mode);
    uint8_t op0 = in->opcode[0];
    if (!(in->prefixes & X86_PFX_VEX) && in->opcode_len == 1 &&
        ((op0 >= 0xd8 && op0 <= 0xdf) || op0 == 0x9b))
        in->fp = X86_FP_X87;
    in->branch = branch_kind(in, p);
    if (in->branch == X86_BRANCH_COND || in->branch == X86_BRANCH_JUMP ||
        in->branch == X86_BRANCH_CALL)
        set_target(in, p, mode);
    in->string = is_string(in);
    in->rep = in->string && (in->prefixes & (X86_PFX_REP | X86_PFX_REPNE));
    in->serializing = is_serializing(in, p);
    in->stack = is_stack(in, p);
}
