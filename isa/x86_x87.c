/* What an x87 instruction does to the register stack (docs/isa.md, "x87
 * stack"): which ST(i) it reads and writes, relative to the top before it,
 * and how many times it pops and pushes.  From the opcode maps of the SDM
 * vol. 2, appendix A.2.7 ("Escape opcode instructions") and each
 * instruction's Operation section; capstone 4's register lists leave the
 * implicit ST(0) and the pops out. */
#include "isa/x86_internal.h"

enum { ST0 = 1u << 0, ST1 = 1u << 1 };

static void effect(struct x86_insn *in, uint8_t read, uint8_t written, uint8_t pops,
                   uint8_t pushes)
{
    in->st_read = read;
    in->st_written = written;
    in->st_pops = pops;
    in->st_pushes = pushes;
}

/* D8 and DC with a memory operand, DA and DE with one (integer): ST(0) op
 * m; /2 FCOM and /3 FCOMP compare. */
static void arithmetic_memory(struct x86_insn *in, unsigned reg)
{
    if (reg == 2 || reg == 3)
        effect(in, ST0, 0, reg == 3, 0);
    else
        effect(in, ST0, ST0, 0, 0);
}

/* D8 C0+i (ST(0) = ST(0) op ST(i)), DC C0+i and DE C0+i (ST(i) = ST(i) op
 * ST(0), DE popping); /2 and /3 compare ST(0) with ST(i). */
static void arithmetic_registers(struct x86_insn *in, uint8_t op, unsigned reg, unsigned i)
{
    uint8_t sti = (uint8_t)(1u << i);
    if (reg == 2 || reg == 3) {
        effect(in, ST0 | sti, 0, reg == 3, 0);
        return;
    }
    if (op == 0xd8)
        effect(in, ST0 | sti, ST0, 0, 0);
    else
        effect(in, ST0 | sti, sti, op == 0xde, 0);
}

/* D9 with a register operand. */
static void d9_registers(struct x86_insn *in, uint8_t modrm)
{
    unsigned i = modrm & 7;
    if (modrm < 0xc8) {                       /* FLD ST(i) */
        effect(in, (uint8_t)(1u << i), 0, 0, 1);
    } else if (modrm < 0xd0) {                /* FXCH ST(i) */
        effect(in, (uint8_t)(ST0 | 1u << i), (uint8_t)(ST0 | 1u << i), 0, 0);
    } else if (modrm >= 0xe8 && modrm <= 0xee) { /* FLD1 ... FLDZ */
        effect(in, 0, 0, 0, 1);
    } else if (modrm == 0xe4 || modrm == 0xe5) { /* FTST, FXAM */
        effect(in, ST0, 0, 0, 0);
    } else if (modrm == 0xf1 || modrm == 0xf3 || modrm == 0xf9) { /* FYL2X FPATAN FYL2XP1 */
        effect(in, ST0 | ST1, ST1, 1, 0);
    } else if (modrm == 0xf2 || modrm == 0xf4 || modrm == 0xfb) { /* FPTAN FXTRACT FSINCOS */
        effect(in, ST0, ST0, 0, 1);
    } else if (modrm == 0xf5 || modrm == 0xf8 || modrm == 0xfd) { /* FPREM1 FPREM FSCALE */
        effect(in, ST0 | ST1, ST0, 0, 0);
    } else if (modrm == 0xf6) {               /* FDECSTP: the top moves down */
        effect(in, 0, 0, 0, 1);
    } else if (modrm == 0xf7) {               /* FINCSTP */
        effect(in, 0, 0, 1, 0);
    } else if (modrm >= 0xe0) {               /* FCHS FABS F2XM1 FSQRT FRNDINT FSIN FCOS */
        effect(in, ST0, ST0, 0, 0);
    }                                         /* FNOP: nothing */
}

/* D9, DB, DD, DF with a memory operand: loads push, stores read ST(0),
 * the P forms pop; environment and control words touch no register. */
static void load_store_memory(struct x86_insn *in, uint8_t op, unsigned reg)
{
    static const char *const kinds[4] = {
        /* per reg field: L load, S store, P store and pop, - none */
        [0] = "L-SP----", /* D9: FLD m32, FST, FSTP; FLDENV FLDCW FNSTENV FNSTCW */
        [1] = "LPSP-L-P", /* DB: FILD, FISTTP, FIST, FISTP, FLD m80, FSTP m80 */
        [2] = "LPSP----", /* DD: FLD m64, FISTTP, FST, FSTP; FRSTOR FNSAVE FNSTSW */
        [3] = "LPSPLLPP", /* DF: FILD m16, FISTTP, FIST, FISTP, FBLD, FILD m64, FBSTP, FISTP m64 */
    };
    unsigned k = op == 0xd9 ? 0 : op == 0xdb ? 1 : op == 0xdd ? 2 : 3;
    switch (kinds[k][reg]) {
    case 'L': effect(in, 0, 0, 0, 1); break;
    case 'S': effect(in, ST0, 0, 0, 0); break;
    case 'P': effect(in, ST0, 0, 1, 0); break;
    default: break;
    }
}

/* DA, DB, DD, DE, DF with a register operand (other than DE's arithmetic). */
static void other_registers(struct x86_insn *in, uint8_t op, uint8_t modrm)
{
    unsigned i = modrm & 7;
    uint8_t sti = (uint8_t)(1u << i);
    unsigned row = (modrm >> 3) & 7;
    if ((op == 0xda || op == 0xdb) && row < 4) {          /* FCMOVcc ST(0), ST(i) */
        effect(in, ST0 | sti, ST0, 0, 0);
    } else if (op == 0xda && modrm == 0xe9) {             /* FUCOMPP */
        effect(in, ST0 | ST1, 0, 2, 0);
    } else if (op == 0xdb && row >= 5 && row <= 6) {      /* FUCOMI, FCOMI */
        effect(in, ST0 | sti, 0, 0, 0);
    } else if (op == 0xdf && row >= 5 && row <= 6) {      /* FUCOMIP, FCOMIP */
        effect(in, ST0 | sti, 0, 1, 0);
    } else if (op == 0xdd && (row == 2 || row == 3)) {    /* FST, FSTP ST(i) */
        effect(in, ST0, sti, row == 3, 0);
    } else if (op == 0xdd && (row == 4 || row == 5)) {    /* FUCOM, FUCOMP */
        effect(in, ST0 | sti, 0, row == 5, 0);
    } else if (op == 0xdd && row == 0) {                  /* FFREE ST(i) */
        effect(in, 0, sti, 0, 0);
    } else if (op == 0xde && modrm == 0xd9) {             /* FCOMPP */
        effect(in, ST0 | ST1, 0, 2, 0);
    }                                                     /* FCLEX, FINIT, FNSTSW AX */
}

void x86_x87_stack_of(struct x86_insn *in)
{
    effect(in, 0, 0, 0, 0);
    if (in->fp != X86_FP_X87 || in->opcode_len != 1 || !in->has_modrm)
        return; /* FWAIT, or the fallback without a ModRM */
    uint8_t op = in->opcode[0], modrm = in->modrm;
    unsigned reg = (modrm >> 3) & 7;
    bool memory = modrm < 0xc0;
    if (op == 0xd8 || op == 0xdc || op == 0xda || op == 0xde) {
        if (memory)
            arithmetic_memory(in, reg);
        else if (op == 0xda)
            other_registers(in, op, modrm);
        else if (op == 0xde && modrm == 0xd9)
            other_registers(in, op, modrm);
        else
            arithmetic_registers(in, op, reg, modrm & 7);
    } else if (memory) {
        load_store_memory(in, op, reg);
    } else if (op == 0xd9) {
        d9_registers(in, modrm);
    } else {
        other_registers(in, op, modrm);
    }
}
