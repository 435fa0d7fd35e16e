/* Instruction facts for the P5 model: execution clocks, FLOPs, segment
 * loads (docs/p5-model.md cites the sources), and the decode cache. */
#include "sim/p5/p5_op.h"

#include <string.h>

/* Multi-clock instructions by opcode and ModRM reg (-1: any), clocks by
 * operand size 1, 2, 4 and 8 bytes (Pentium instruction timings;
 * docs/p5-model.md, "Clocks"). */
struct timing {
    uint8_t opcode_len;
    uint8_t opcode[2];
    int8_t reg;
    uint8_t clocks[4];
};

static const struct timing timings[] = {
    {1, {0xf6}, 4, {11, 11, 11, 11}}, /* MUL r/m8 */
    {1, {0xf6}, 5, {11, 11, 11, 11}}, /* IMUL r/m8 */
    {1, {0xf6}, 6, {17, 17, 17, 17}}, /* DIV r/m8 */
    {1, {0xf6}, 7, {22, 22, 22, 22}}, /* IDIV r/m8 */
    {1, {0xf7}, 4, {11, 11, 10, 10}}, /* MUL */
    {1, {0xf7}, 5, {11, 11, 10, 10}}, /* IMUL */
    {1, {0xf7}, 6, {25, 25, 41, 41}}, /* DIV */
    {1, {0xf7}, 7, {30, 30, 46, 46}}, /* IDIV */
    {2, {0x0f, 0xaf}, -1, {10, 10, 10, 10}}, /* IMUL r, r/m */
    {1, {0x69}, -1, {10, 10, 10, 10}},       /* IMUL r, r/m, imm */
    {1, {0x6b}, -1, {10, 10, 10, 10}},
    {1, {0xd8}, 6, {39, 39, 39, 39}}, /* FDIV m32 / ST(i) */
    {1, {0xd8}, 7, {39, 39, 39, 39}}, /* FDIVR */
    {1, {0xdc}, 6, {39, 39, 39, 39}},
    {1, {0xdc}, 7, {39, 39, 39, 39}},
    {1, {0xde}, 6, {39, 39, 39, 39}}, /* FDIVP... */
    {1, {0xde}, 7, {39, 39, 39, 39}},
};

static unsigned modrm_reg(const struct x86_insn *insn)
{
    return (insn->modrm >> 3) & 7;
}

static unsigned size_index(uint8_t operand_size)
{
    return operand_size >= 8 ? 3 : operand_size >= 4 ? 2 : operand_size >= 2 ? 1 : 0;
}

static bool is_opcode(const struct x86_insn *insn, uint8_t len, uint8_t op0, uint8_t op1)
{
    return insn->opcode_len == len && insn->opcode[0] == op0 && (len == 1 || insn->opcode[1] == op1);
}

static unsigned table_clocks(const struct x86_insn *insn)
{
    for (size_t i = 0; i < sizeof timings / sizeof timings[0]; i++) {
        const struct timing *t = &timings[i];
        if (!is_opcode(insn, t->opcode_len, t->opcode[0], t->opcode[1]))
            continue;
        if (t->reg < 0 || (insn->has_modrm && (int)modrm_reg(insn) == t->reg))
            return t->clocks[size_index(insn->operand_size)];
    }
    /* FSQRT */
    if (is_opcode(insn, 1, 0xd9, 0) && insn->modrm == 0xfa)
        return 70;
    return 0;
}

/* Simple instructions: 1 clock; ALU reg,mem 2 and ALU mem,reg 3 (Pentium
 * Processor User's Manual 3.1.2). */
static unsigned memory_clocks(const struct x86_insn *insn)
{
    unsigned access = 0;
    for (int i = 0; i < insn->n_mem; i++)
        access |= insn->mem[i].access;
    if (access == X86_ACCESS_READ_WRITE)
        return 3;
    if (access == X86_ACCESS_READ && insn->flags_written)
        return 2;
    return 1;
}

/* x87 arithmetic (add, subtract, multiply, divide, square root, remainder,
 * scale, transcendental) and integer multiply count 1 FLOP (Safford 1997,
 * appendix A, event 0x22; docs/p5-model.md says what is left out). */
static unsigned flops_of(const struct x86_insn *insn)
{
    if (insn->opcode_len == 0)
        return 0;
    uint8_t op = insn->opcode[0];
    if (insn->opcode_len == 1 && (op == 0xf6 || op == 0xf7) && insn->has_modrm &&
        (modrm_reg(insn) == 4 || modrm_reg(insn) == 5))
        return 1;
    if (is_opcode(insn, 2, 0x0f, 0xaf) || is_opcode(insn, 1, 0x69, 0) || is_opcode(insn, 1, 0x6b, 0))
        return 1;
    if (insn->fp != X86_FP_X87 || insn->opcode_len != 1 || !insn->has_modrm)
        return 0;
    unsigned reg = modrm_reg(insn);
    bool arithmetic_group = op == 0xd8 || op == 0xdc || op == 0xda || op == 0xde;
    if (arithmetic_group) {
        /* /2 and /3 are compares; DE D9 is FCOMPP, DA E9 FUCOMPP. */
        bool compare = reg == 2 || reg == 3;
        bool fcmov = op == 0xda && insn->modrm >= 0xc0;
        return compare || fcmov ? 0 : 1;
    }
    /* D9 F0-F5, F8-FF: F2XM1 FYL2X FPTAN FPATAN FXTRACT FPREM1, FPREM
     * FYL2XP1 FSQRT FSINCOS FRNDINT FSCALE FSIN FCOS. */
    if (op == 0xd9 && insn->modrm >= 0xf0 && insn->modrm != 0xf6 && insn->modrm != 0xf7)
        return 1;
    return 0;
}

/* Loads of segment registers (SDM event 0x0f): MOV Sreg, POP Sreg, LDS,
 * LES, LSS, LFS, LGS, and far transfers (CS). */
static unsigned segment_loads_of(const struct x86_insn *insn)
{
    if (insn->branch == X86_BRANCH_FAR)
        return 1;
    if (insn->opcode_len == 1) {
        uint8_t op = insn->opcode[0];
        bool vex = insn->prefixes & X86_PFX_VEX;
        return op == 0x8e || op == 0x07 || op == 0x17 || op == 0x1f ||
               (!vex && (op == 0xc4 || op == 0xc5));
    }
    if (insn->opcode_len == 2 && insn->opcode[0] == 0x0f) {
        uint8_t op = insn->opcode[1];
        return op == 0xa1 || op == 0xa9 || op == 0xb2 || op == 0xb4 || op == 0xb5;
    }
    return 0;
}

/* FST/FSTP m32, m64 and FSTP m80 (D9 /2 /3, DD /2 /3, DB /7). */
static bool is_fst(const struct x86_insn *insn)
{
    if (insn->opcode_len != 1 || !insn->has_modrm || insn->modrm >= 0xc0)
        return false;
    uint8_t op = insn->opcode[0];
    unsigned reg = modrm_reg(insn);
    return ((op == 0xd9 || op == 0xdd) && (reg == 2 || reg == 3)) || (op == 0xdb && reg == 7);
}

/* The P5 runs every locked operation on the bus (SDM event 0x1c): the
 * LOCK prefix, and XCHG with a memory operand (implicitly locked). */
static bool is_locked(const struct x86_insn *insn)
{
    bool xchg_memory = insn->opcode_len == 1 && (insn->opcode[0] == 0x86 || insn->opcode[0] == 0x87) &&
                       insn->has_modrm && insn->modrm < 0xc0;
    return (insn->prefixes & X86_PFX_LOCK) || xchg_memory;
}

static uint32_t address_regs_of(const struct x86_insn *insn)
{
    uint32_t regs = 0;
    for (int i = 0; i < insn->n_mem; i++) {
        if (insn->mem[i].base < X86_GPR_IP)
            regs |= X86_REG_BIT(insn->mem[i].base);
        if (insn->mem[i].index < X86_GPR_IP)
            regs |= X86_REG_BIT(insn->mem[i].index);
    }
    return regs;
}

static void op_from_insn(const struct x86_insn *insn, struct p5_op *op)
{
    memset(op, 0, sizeof *op);
    op->address = insn->address;
    op->length = insn->length;
    op->cls = insn->p5_class;
    op->branch = insn->branch;
    unsigned clocks = table_clocks(insn);
    op->clocks = (uint8_t)(clocks ? clocks : memory_clocks(insn));
    op->flops = (uint8_t)flops_of(insn);
    op->segment_loads = (uint8_t)segment_loads_of(insn);
    op->fxch = is_opcode(insn, 1, 0xd9, 0) && insn->modrm >= 0xc8 && insn->modrm <= 0xcf;
    op->fst = is_fst(insn);
    op->stack = insn->stack;
    op->rep_string = insn->rep;
    op->locked = is_locked(insn);
    op->rare_events = op->flops || op->segment_loads || op->locked;
    op->regs_read = insn->regs_read;
    op->regs_written = insn->regs_written;
    op->address_regs = address_regs_of(insn);
}

void p5_op_generic(uint64_t address, uint8_t length, struct p5_op *op)
{
    memset(op, 0, sizeof *op);
    op->address = address;
    op->length = length;
    op->cls = X86_P5_UV;
    op->branch = X86_BRANCH_NONE;
    op->clocks = 1;
}

/* ---- the decode cache */

static void fill_slot(const struct x86_insn *insn, struct decode_key *slot)
{
    op_from_insn(insn, &((struct p5_decoded *)slot)->op);
}

bool p5_decode_cache_init(struct p5_decode_cache *cache, enum x86_mode mode)
{
    return decode_cache_init(&cache->slots, mode, sizeof(struct p5_decoded), fill_slot);
}

void p5_decode_cache_free(struct p5_decode_cache *cache)
{
    decode_cache_free(&cache->slots);
}

enum decode_status p5_decode_miss(struct p5_decode_cache *cache, const struct trace_insn *insn,
                                  const struct p5_op **op)
{
    const struct decode_key *slot;
    enum decode_status status = decode_cache_miss(&cache->slots, insn, &slot);
    if (status == DECODE_OK)
        *op = p5_op_of(slot);
    return status;
}
