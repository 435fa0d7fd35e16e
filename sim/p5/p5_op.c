/* Instruction facts for the P5 model: clocks from the instruction's timing
 * row (sim/p5/p5_timings.c), looked up once per static instruction, FLOPs,
 * segment loads, prefixes, the x87 stack (docs/p5-model.md cites the
 * sources), and the decode cache. */
#include "sim/p5/p5_op.h"

#include <string.h>

static unsigned modrm_reg(const struct x86_insn *insn)
{
    return (insn->modrm >> 3) & 7;
}

static bool is_opcode(const struct x86_insn *insn, uint8_t len, uint8_t op0, uint8_t op1)
{
    return insn->opcode_len == len && insn->opcode[0] == op0 && (len == 1 || insn->opcode[1] == op1);
}

/* The clocks of an instruction without a timing row: 1, 2 when it reads
 * memory and computes (ALU reg,mem), 3 when it reads and writes memory
 * (ALU mem,reg), as Intel's Pentium Processor User's Manual, 3.1.2, gives
 * the simple instructions (docs/p5-model.md, "Instruction clocks"). */
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

/* The prefix bytes the P5 spends a decode clock on: LOCK, the segment
 * overrides, operand size and address size (Intel VTune's Pentium "Prefix
 * Penalty Indicator"); not REP/REPNE, not the 0F opcode byte (whose
 * instructions' published clocks include it), not REX, which ends the
 * prefixes (the P5 has none). */
static unsigned decode_prefixes(const struct x86_insn *insn)
{
    unsigned n = 0;
    for (unsigned i = 0; i < insn->length; i++) {
        switch (insn->bytes[i]) {
        case 0xf0: case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
        case 0x66: case 0x67:
            n++;
            break;
        case 0xf2: case 0xf3:
            break;
        default:
            return n;
        }
    }
    return n;
}

/* The instruction's row; NULL for none, and for an MMX row but on the
 * Pentium MMX: the P5 has no MMX (docs/p5-model.md, "Instruction
 * clocks"). */
static const struct p5_timing *row_of(const struct x86_insn *insn, bool mmx)
{
    if (!insn->family[0])
        return NULL; /* the fallback decoder's: no key */
    const struct p5_timing *row = p5_timing_find(insn->family, insn->form);
    return row && (mmx || !row->mmx_only) ? row : NULL;
}

/* On the Pentium MMX, an MMX instruction pairs as its row says (PCem,
 * where isa gives the P5's NP) and its MM registers are tracked; the
 * prefixes and the 0F byte cost no decode clock (Intel VTune's "Prefix
 * Penalty Indicator": on the Pentium with MMX technology a prefix already
 * in the instruction FIFO costs none). */
static void mmx_of(const struct x86_insn *insn, const struct p5_timing *row, struct p5_op *op)
{
    op->prefixes = 0;
    if (!row || !row->mmx_only)
        return;
    op->cls = row->pairing;
    op->mm_read = insn->mm_read;
    op->mm_written = insn->mm_written;
}

static uint8_t at_least_1(unsigned clocks)
{
    return (uint8_t)(clocks ? clocks : 1);
}

/* The bytes one iteration of a string instruction accesses: each of its
 * memory operands once (MOVS reads and writes an element, STOS writes
 * one). */
static unsigned iteration_bytes(const struct x86_insn *insn)
{
    unsigned bytes = 0;
    for (int i = 0; i < insn->n_mem; i++)
        bytes += insn->mem[i].size;
    return bytes;
}

/* A REP string instruction: rep_base + rep_per clocks per iteration from
 * the row; without a published REP figure, unclassified, at the default
 * of one clock per iteration. */
static void rep_timing_of(const struct x86_insn *insn, const struct p5_timing *row,
                          struct p5_op *op)
{
    op->rep_string = true;
    op->rep_bytes = (uint8_t)iteration_bytes(insn);
    if (row && (row->rep_base || row->rep_per)) {
        op->rep_base = row->rep_base;
        op->rep_per = row->rep_per;
    } else {
        op->unclassified = true;
        op->rep_per = 1;
    }
}

/* Clocks, precision-dependent clocks and latency from the row (a range's
 * low end), or the default and `unclassified` without one.  An x87 row's
 * clocks are how long the FPU is busy before the next x87 instruction,
 * its latency when the result can be used; by precision, the latency is
 * the row's figure for it and the FPU is busy for it less the same
 * difference (sim/p5/p5_timings.c). */
static void timing_of(const struct x86_insn *insn, const struct p5_timing *row, struct p5_op *op)
{
    if (insn->rep)
        rep_timing_of(insn, row, op);
    if (!row) {
        op->unclassified = true;
        op->clocks = (uint8_t)memory_clocks(insn);
        return;
    }
    op->clocks = at_least_1(row->clocks);
    if (row->latency > row->clocks)
        op->latency_beyond = (uint8_t)(row->latency - row->clocks);
    for (int p = 0; p < P5_NUM_PRECISIONS; p++) {
        unsigned latency = row->by_precision[p];
        op->by_precision |= latency != 0;
        op->precision_clocks[p] = latency > op->latency_beyond
                                      ? at_least_1(latency - op->latency_beyond)
                                      : op->clocks;
    }
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

static void op_from_insn(const struct x86_insn *insn, bool mmx, struct p5_op *op)
{
    memset(op, 0, sizeof *op);
    op->address = insn->address;
    op->length = insn->length;
    op->cls = insn->p5_class;
    op->branch = insn->branch;
    const struct p5_timing *row = row_of(insn, mmx);
    timing_of(insn, row, op);
    op->clocks_vary = op->rep_string || op->by_precision;
    op->flops = (uint8_t)flops_of(insn);
    op->segment_loads = (uint8_t)segment_loads_of(insn);
    op->prefixes = (uint8_t)decode_prefixes(insn);
    op->fxch = is_opcode(insn, 1, 0xd9, 0) && insn->modrm >= 0xc8 && insn->modrm <= 0xcf;
    op->fst = is_fst(insn);
    op->stack = insn->stack;
    op->locked = is_locked(insn);
    op->rare_events = op->flops || op->segment_loads || op->locked;
    op->st_read = insn->st_read;
    op->st_written = insn->st_written;
    op->st_pops = insn->st_pops;
    op->st_pushes = insn->st_pushes;
    op->x87 = (insn->st_read | insn->st_written | insn->st_pops | insn->st_pushes) != 0;
    op->regs_read = insn->regs_read;
    op->regs_written = insn->regs_written;
    op->address_regs = address_regs_of(insn);
    if (mmx)
        mmx_of(insn, row, op);
}

void p5_op_generic(uint64_t address, uint8_t length, struct p5_op *op)
{
    memset(op, 0, sizeof *op);
    op->address = address;
    op->length = length;
    op->cls = X86_P5_UV;
    op->branch = X86_BRANCH_NONE;
    op->clocks = 1;
    op->unclassified = true;
}

/* ---- the decode cache */

static void fill_slot(const struct x86_insn *insn, struct decode_key *slot)
{
    op_from_insn(insn, false, &((struct p5_decoded *)slot)->op);
}

static void fill_slot_mmx(const struct x86_insn *insn, struct decode_key *slot)
{
    op_from_insn(insn, true, &((struct p5_decoded *)slot)->op);
}

bool p5_decode_cache_init(struct p5_decode_cache *cache, enum x86_mode mode, bool mmx)
{
    return decode_cache_init(&cache->slots, mode, sizeof(struct p5_decoded),
                             mmx ? fill_slot_mmx : fill_slot);
}

void p5_decode_cache_free(struct p5_decode_cache *cache)
{
    decode_cache_free(&cache->slots);
}

enum decode_status p5_decode_miss(struct p5_decode_cache *cache, uint64_t address,
                                  uint8_t length, const uint8_t *bytes, const struct p5_op **op)
{
    const struct decode_key *slot;
    enum decode_status status = decode_cache_miss_code(&cache->slots, address, length, bytes, &slot);
    if (status == DECODE_OK)
        *op = p5_op_of(slot);
    return status;
}
