/* The P5 (Pentium, without MMX) pairing class of an instruction
 * (docs/isa.md, "P5 pairing").  Sources:
 *   [PUM]  Pentium Processor User's Manual, Vol. 1 (Intel, 1993), 3.1.2
 *          "Instruction pairing rules": the simple instructions, "no
 *          displacement and immediate together", "prefixes other than 0F of
 *          Jcc only in the U pipe", "shift/rotate by 1 and shift by imm pair
 *          as the first instruction", "branches pair only as the second".
 *   [AF]   Agner Fog, The microarchitecture of Intel, AMD and VIA CPUs,
 *          chapter "Pentium 1 and Pentium MMX": ADC, SBB in the U pipe only
 *          (PU); RCL/RCR by an immediate other than 1 not pairable; TEST
 *          r/m,imm not pairable except TEST accumulator,imm; the x87
 *          instructions that pair with a following FXCH.
 *   [ISR]  Intel's Pentium instruction set reference (per form): ROL and
 *          ROR reg,imm and mem,imm PU; PUSH mem 2 clocks NP and PUSH imm NP
 *          (68, 6A: [PUM]'s list has "push reg/mem", no immediate;
 *          docs/p5-model.md, "Pairing classes", says why the reference wins).
 *   [PDM]  Pentium Processor Family Developer's Manual, Vol. 3 (Intel, 1995),
 *          instruction timings: the FX class and FXCH as PV.
 * The class describes the instruction as the P5 would see it; in 64-bit
 * mode the REX prefix is not counted as a prefix. */
#include "isa/x86_internal.h"

/* One-byte opcodes: U = UV, u = PU, V = PV, N = NP, g = by ModRM reg (below),
 * x = x87 escape (below), p = prefix or escape (NP if reached). */
static const char p5_one_byte[257] =
    /* 00 */ "UUUUUUNNUUUUUUNp" /* 10 */ "uuuuuuNNuuuuuuNN"
    /* 20 */ "UUUUUUpNUUUUUUpN" /* 30 */ "UUUUUUpNUUUUUUpN"
    /* 40 */ "UUUUUUUUUUUUUUUU" /* 50 */ "UUUUUUUUUUUUUUUU"
    /* 60 */ "NNNNppppNNNNNNNN" /* 70 */ "VVVVVVVVVVVVVVVV"
    /* 80 */ "ggggUUNNUUUUNUNN" /* 90 */ "UNNNNNNNNNNNNNNN"
    /* a0 */ "UUUUNNNNUUNNNNNN" /* b0 */ "UUUUUUUUUUUUUUUU"
    /* c0 */ "ggNNNNUUNNNNNNNN" /* d0 */ "ggNNNNNNxxxxxxxx"
    /* e0 */ "NNNNNNNNVVNVNNNN" /* f0 */ "pNppNNggNNNNNNgg";

/* Groups by the ModRM reg field. */
struct p5_group {
    uint8_t opcode;
    char cls[9];
};

static const struct p5_group p5_groups[] = {
    {0x80, "UUuuUUUU"}, /* ADD OR ADC SBB AND SUB XOR CMP r/m8,imm8 */
    {0x81, "UUuuUUUU"},
    {0x82, "UUuuUUUU"},
    {0x83, "UUuuUUUU"},
    {0xc0, "uuNNuuuu"}, /* ROL ROR by imm: PU [ISR]; RCL RCR: NP [AF]; shifts: PU */
    {0xc1, "uuNNuuuu"},
    {0xd0, "uuuuuuuu"}, /* shift and rotate by 1: PU [PUM] */
    {0xd1, "uuuuuuuu"},
    {0xf6, "NNNNNNNN"}, /* TEST r/m,imm NOT NEG MUL IMUL DIV IDIV */
    {0xf7, "NNNNNNNN"},
    {0xfe, "UUNNNNNN"}, /* INC DEC r/m8 */
    {0xff, "UUNNNNNN"}, /* INC DEC CALL CALLF JMP JMPF; PUSH r/m NP [ISR] */
};

static enum x86_p5_class class_of_char(char c)
{
    switch (c) {
    case 'U': return X86_P5_UV;
    case 'u': return X86_P5_PU;
    case 'V': return X86_P5_PV;
    default: return X86_P5_NP;
    }
}

static enum x86_p5_class group_class(uint8_t opcode, uint8_t modrm)
{
    for (size_t i = 0; i < sizeof p5_groups / sizeof p5_groups[0]; i++)
        if (p5_groups[i].opcode == opcode)
            return class_of_char(p5_groups[i].cls[(modrm >> 3) & 7]);
    return X86_P5_NP;
}

/* x87 [AF], [PDM]: FLD m32/m64/ST(i); FADD FSUB FSUBR FMUL FDIV FDIVR
 * FCOM FCOMP (m32, m64, ST(i) and the P forms); FUCOM FUCOMP FUCOMPP FCOMPP;
 * FABS FCHS are FX; FTST is NP (Agner Fog's measured x87 list, "np", over
 * [PDM]'s FX: docs/p5-timings.md, "Disagreements").  FXCH is PV.  The
 * rest (integer operands, stores, control, transcendental) are NP. */
static enum x86_p5_class x87_class(uint8_t op, uint8_t modrm)
{
    uint8_t reg = (modrm >> 3) & 7;
    bool mem = modrm < 0xc0;
    switch (op) {
    case 0xd8: case 0xdc:
        return X86_P5_FX;
    case 0xd9:
        if (mem)
            return reg == 0 ? X86_P5_FX : X86_P5_NP;
        if (modrm >= 0xc8 && modrm <= 0xcf)
            return X86_P5_PV; /* FXCH */
        return modrm <= 0xc7 || modrm == 0xe0 || modrm == 0xe1 ? X86_P5_FX : X86_P5_NP;
    case 0xda:
        return modrm == 0xe9 ? X86_P5_FX : X86_P5_NP;
    case 0xdd:
        if (mem)
            return reg == 0 ? X86_P5_FX : X86_P5_NP;
        return modrm >= 0xe0 && modrm <= 0xef ? X86_P5_FX : X86_P5_NP;
    case 0xde:
        if (mem)
            return X86_P5_NP;
        return (modrm >= 0xd0 && modrm <= 0xd7) ? X86_P5_NP
               : (modrm >= 0xd8 && modrm <= 0xdf && modrm != 0xd9) ? X86_P5_NP
                                                                    : X86_P5_FX;
    default:
        return X86_P5_NP;
    }
}

static enum x86_p5_class base_class(const struct x86_insn *in)
{
    if (in->prefixes & X86_PFX_VEX)
        return X86_P5_NP;
    uint8_t op = in->opcode[0];
    if (in->opcode_len > 1) /* 0F: only the near Jcc pair [PUM] */
        return in->opcode_len == 2 && (in->opcode[1] & 0xf0) == 0x80 ? X86_P5_PV : X86_P5_NP;
    char c = p5_one_byte[op];
    if (c == 'g')
        return group_class(op, in->modrm);
    if (c == 'x')
        return x87_class(op, in->modrm);
    return class_of_char(c);
}

enum x86_p5_class x86_p5_class_of(const struct x86_insn *in)
{
    enum x86_p5_class cls = base_class(in);
    if (cls == X86_P5_NP || cls == X86_P5_FX)
        return cls;
    /* [PUM]: no displacement together with an immediate (branch targets are
     * not immediates here) */
    if (in->has_disp && in->has_imm)
        return X86_P5_NP;
    /* [PUM]: a prefixed instruction issues to the U pipe only */
    if (in->prefixes & (X86_PFX_LOCK | X86_PFX_REP | X86_PFX_REPNE | X86_PFX_OPSIZE |
                        X86_PFX_ADDRSIZE | X86_PFX_SEGMENT))
        return cls == X86_P5_PV ? X86_P5_NP : X86_P5_PU;
    return cls;
}

const char *x86_p5_class_name(enum x86_p5_class cls)
{
    static const char *const names[] = {"NP", "UV", "PU", "PV", "FX"};
    return (unsigned)cls < sizeof names / sizeof names[0] ? names[cls] : "?";
}
