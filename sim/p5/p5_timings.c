/* The Pentium's instruction timings (sim/p5/p5_timings.h; docs/p5-timings.md
 * says how each source's columns were read and lists where they disagree).
 *
 * Sources, by the short names of docs/references.md:
 *   "Pentium ISR"    Intel's Pentium instruction set reference: integer
 *                    clocks and pairing per operand form.  Where a page has
 *                    a protected-mode table, that one (Linux programs run in
 *                    protected mode).
 *   "Agner P1"       Agner Fog's measured Pentium/Pentium MMX x87 table:
 *                    clocks, FXCH pairing, overlap with later instructions.
 *   "FPU list"       the Intel FPU timing list (Pentium column).
 *   "iAPx86 NG"      the iAPx86 Norton Guide (FXCH).
 *   "GCC pentium.md" GCC's Pentium pipeline description (FMUL).
 *   "PCem"           PCem's Pentium/Pentium MMX timing tables, for forms no
 *                    publication above gives (MMX, a few x87 and integer).
 *   "AP-559"         Intel application note AP-559 (PMADDWD).
 *   "CMSC 411 MMX"   a summary of the Pentium MMX implementation (MMX
 *                    memory forms in one clock).
 *
 * x87 rows: clocks is how long the FPU is busy before the next x87
 * instruction can start (Agner P1's clocks less its fp-ov column), latency
 * is Agner P1's clocks (when the result can be used); by_precision gives
 * that latency at single, double and extended precision, the FPU being busy
 * for it less (latency - clocks).
 */
#include "sim/p5/p5_timings.h"

#include <stddef.h>
#include <string.h>
#include <threads.h>

#include "isa/x86.h"
#include "sim/common/timing_key.h"

#define ROW(fam, frm, lo, hi, pair, lat, src)                                                     \
    {.family = fam, .form = frm, .clocks = lo, .clocks_max = hi, .pairing = X86_P5_##pair,        \
     .latency = lat, .source = src}
/* One figure; a range; an x87 instruction whose result comes later. */
#define ONE(fam, frm, c, pair, src) ROW(fam, frm, c, c, pair, 0, src)
#define SPAN(fam, frm, lo, hi, pair, src) ROW(fam, frm, lo, hi, pair, 0, src)
#define FP(fam, frm, c, lat, pair, src) ROW(fam, frm, c, c, pair, lat, src)
#define FPSPAN(fam, frm, lo, hi, lat, pair, src) ROW(fam, frm, lo, hi, pair, lat, src)
/* FDIV-like: busy clocks and latency at extended precision, latency per precision. */
#define PREC(fam, frm, c, s, d, e, pair, src)                                                     \
    {.family = fam, .form = frm, .clocks = c, .clocks_max = c, .pairing = X86_P5_##pair,          \
     .latency = e, .by_precision = {s, d, e}, .source = src}
/* A string instruction: alone, and with REP (base + per * count). */
#define STR(fam, frm, c, base, per, src)                                                          \
    {.family = fam, .form = frm, .clocks = c, .clocks_max = c, .pairing = X86_P5_NP,              \
     .rep_base = base, .rep_per = per, .source = src}
/* An MMX instruction (Pentium MMX only). */
#define MMX(fam, frm, c, lat, pair, src)                                                          \
    {.family = fam, .form = frm, .clocks = c, .clocks_max = c, .pairing = X86_P5_##pair,          \
     .latency = lat, .mmx_only = 1, .source = src}

/* ALU register, memory and immediate forms (the accumulator short forms
 * time as the register ones). */
#define ALU(fam, rm, mr, mi, pair, src)                                                           \
    ONE(fam, "r,r", 1, pair, src), ONE(fam, "r,m", rm, pair, src),                                 \
        ONE(fam, "m,r", mr, pair, src), ONE(fam, "r,i", 1, pair, src),                             \
        ONE(fam, "m,i", mi, pair, src)
/* Shifts and rotates other than through carry: by 1 and by an immediate
 * share the form "r,i" (and take the same clocks). */
#define SHIFT(fam, src)                                                                           \
    ONE(fam, "r,i", 1, PU, src), ONE(fam, "m,i", 3, PU, src), ONE(fam, "r,cl", 4, NP, src),        \
        ONE(fam, "m,cl", 4, NP, src)
/* Divide and one-operand multiply by operand size. */
#define BYSIZE(fam, c8, c16, c32, src)                                                            \
    ONE(fam, "r8", c8, NP, src), ONE(fam, "r16", c16, NP, src), ONE(fam, "r32", c32, NP, src),     \
        ONE(fam, "m8", c8, NP, src), ONE(fam, "m16", c16, NP, src), ONE(fam, "m32", c32, NP, src)
/* x87 arithmetic with ST(i) (capstone writes "st" or "st,st") or memory. */
#define FARITH(fam, c, lat, src)                                                                  \
    FP(fam, "st", c, lat, FX, src), FP(fam, "st,st", c, lat, FX, src), FP(fam, "m", c, lat, FX, src)
#define FDIV(fam, src)                                                                            \
    PREC(fam, "st", 37, 19, 33, 39, FX, src), PREC(fam, "st,st", 37, 19, 33, 39, FX, src),         \
        PREC(fam, "m", 37, 19, 33, 39, FX, src)
/* MMX register, general-register and memory forms. */
#define MMXOP(fam, lat, src)                                                                      \
    MMX(fam, "mm,mm", 1, lat, UV, src), MMX(fam, "mm,m", 1, lat, PU, src)
#define MMXSHIFT(fam, src) MMXOP(fam, 0, src), MMX(fam, "mm,i", 1, 0, UV, src)

#define ISR(page) "Pentium ISR, " page
#define ISRP(page) "Pentium ISR, " page " (protected mode)"
#define AGNER "Agner P1, x87"
#define PCEM(what) "PCem, " what
#define MMXSRC "PCem, MMX pairing; CMSC 411 MMX, one clock"

const struct p5_timing p5_timings[] = {
    /* ---- integer: moves, arithmetic and logic */
    ONE("mov", "r,r", 1, UV, ISR("MOV")),
    ONE("mov", "r,m", 1, UV, ISR("MOV")),
    ONE("mov", "m,r", 1, UV, ISR("MOV")),
    ONE("mov", "r,i", 1, UV, ISR("MOV")),
    ONE("mov", "m,i", 1, UV, ISR("MOV")),
    SPAN("mov", "sreg,r", 2, 11, NP, ISRP("MOV")),
    SPAN("mov", "sreg,m", 3, 12, NP, ISRP("MOV")),
    ONE("mov", "r,sreg", 1, NP, ISR("MOV")),
    ONE("mov", "m,sreg", 1, NP, ISR("MOV")),
    ONE("lea", "r,m", 1, UV, ISR("LEA")),
    ALU("add", 2, 3, 3, UV, ISR("ADD")),
    ALU("sub", 2, 3, 3, UV, ISR("SUB")),
    ALU("and", 2, 3, 3, UV, ISR("AND")),
    ALU("or", 2, 3, 3, UV, ISR("OR")),
    ALU("xor", 2, 3, 3, UV, ISR("XOR")),
    ALU("cmp", 2, 2, 2, UV, ISR("CMP")),
    /* capstone writes TEST's memory operand first: no "r,m" form.  With
     * an immediate NP, as Agner Fog measured it, where the reference says
     * UV; the accumulator form (A8, A9), which pairs, shares the key "r,i"
     * and keeps its UV in the decoder (docs/p5-timings.md). */
    ONE("test", "r,r", 1, UV, ISR("TEST")),
    ONE("test", "m,r", 2, UV, ISR("TEST")),
    ONE("test", "r,i", 1, NP, ISR("TEST") "; Agner Fog, P1 pairing: NP"),
    ONE("test", "m,i", 2, NP, ISR("TEST") "; Agner Fog, P1 pairing: NP"),
    /* ADC's page gives 4 for reg,mem, SBB's 2: see docs/p5-timings.md */
    ALU("adc", 2, 3, 3, PU, ISR("SBB; ADC's page says 4 for r,m")),
    ALU("sbb", 2, 3, 3, PU, ISR("SBB")),
    ONE("inc", "r", 1, UV, ISR("INC")),
    ONE("inc", "m", 3, UV, ISR("INC")),
    ONE("dec", "r", 1, UV, ISR("DEC")),
    ONE("dec", "m", 3, UV, ISR("DEC")),
    ONE("neg", "r", 1, NP, ISR("NEG")),
    ONE("neg", "m", 3, NP, ISR("NEG")),
    ONE("not", "r", 1, NP, ISR("NOT")),
    ONE("not", "m", 3, NP, ISR("NOT")),
    ONE("nop", "", 1, UV, ISR("NOP")),
    ONE("xchg", "r,r", 3, NP, ISR("XCHG")),
    ONE("xchg", "m,r", 3, NP, ISR("XCHG")),
    ONE("xadd", "r,r", 3, NP, ISR("XADD")),
    ONE("xadd", "m,r", 4, NP, ISR("XADD")),
    ONE("cmpxchg", "r,r", 5, NP, ISR("CMPXCHG")),
    ONE("cmpxchg", "m,r", 6, NP, ISR("CMPXCHG")),
    ONE("cmpxchg8b", "m", 10, NP, ISR("CMPXCHG8B")),
    ONE("movzx", "r,r", 3, NP, ISR("MOVZX")),
    ONE("movzx", "r,m", 3, NP, ISR("MOVZX")),
    ONE("movsx", "r,r", 3, NP, ISR("MOVSX")),
    ONE("movsx", "r,m", 3, NP, ISR("MOVSX")),
    ONE("bswap", "r", 1, NP, ISR("BSWAP")),
    ONE("xlatb", "", 4, NP, ISR("XLAT")),
    ONE("cbw", "", 3, NP, ISR("CBW")),
    ONE("cwde", "", 3, NP, ISR("CBW")),
    ONE("cwd", "", 2, NP, ISR("CDQ")),
    ONE("cdq", "", 2, NP, ISR("CDQ")),
    ONE("lahf", "", 2, NP, ISR("LAHF")),
    ONE("sahf", "", 2, NP, ISR("SAHF")),
    ONE("clc", "", 2, NP, ISR("CLC")),
    ONE("stc", "", 2, NP, ISR("STC")),
    ONE("cmc", "", 2, NP, ISR("CMC")),
    ONE("cld", "", 2, NP, ISR("CLD")),
    ONE("std", "", 2, NP, ISR("STD")),
    ONE("cli", "", 7, NP, ISR("CLI")),
    ONE("sti", "", 7, NP, ISR("STI")),
    SPAN("setcc", "r", 1, 2, NP, ISR("SETcc")),
    SPAN("setcc", "m", 1, 2, NP, ISR("SETcc")),
    ONE("aaa", "", 3, NP, ISR("AAA")),
    ONE("aas", "", 3, NP, ISR("AAS")),
    ONE("daa", "", 3, NP, ISR("DAA")),
    ONE("das", "", 3, NP, ISR("DAS")),
    ONE("aad", "", 10, NP, ISR("AAD")),
    ONE("aam", "", 18, NP, ISR("AAM")),
    /* ---- bit tests and scans */
    ONE("bt", "r,r", 4, NP, ISR("BT")),
    ONE("bt", "m,r", 9, NP, ISR("BT")),
    ONE("bt", "r,i", 4, NP, ISR("BT")),
    ONE("bt", "m,i", 4, NP, ISR("BT")),
    ONE("btc", "r,r", 7, NP, ISR("BTC")),
    ONE("btc", "m,r", 13, NP, ISR("BTC")),
    ONE("btc", "r,i", 7, NP, ISR("BTC")),
    ONE("btc", "m,i", 8, NP, ISR("BTC")),
    ONE("btr", "r,r", 7, NP, ISR("BTR")),
    ONE("btr", "m,r", 13, NP, ISR("BTR")),
    ONE("btr", "r,i", 7, NP, ISR("BTR")),
    ONE("btr", "m,i", 8, NP, ISR("BTR")),
    ONE("bts", "r,r", 7, NP, ISR("BTS")),
    ONE("bts", "m,r", 13, NP, ISR("BTS")),
    ONE("bts", "r,i", 7, NP, ISR("BTS")),
    ONE("bts", "m,i", 8, NP, ISR("BTS")),
    SPAN("bsf", "r16,r16", 6, 34, NP, ISR("BSF")),
    SPAN("bsf", "r32,r32", 6, 42, NP, ISR("BSF")),
    SPAN("bsf", "r16,m16", 6, 35, NP, ISR("BSF")),
    SPAN("bsf", "r32,m32", 6, 43, NP, ISR("BSF")),
    SPAN("bsr", "r16,r16", 7, 39, NP, ISR("BSR")),
    SPAN("bsr", "r32,r32", 7, 71, NP, ISR("BSR")),
    SPAN("bsr", "r16,m16", 7, 40, NP, ISR("BSR")),
    SPAN("bsr", "r32,m32", 7, 72, NP, ISR("BSR")),
    /* ---- shifts and rotates */
    SHIFT("shl", ISR("SAL/SAR/SHL/SHR")),
    SHIFT("sal", ISR("SAL/SAR/SHL/SHR")),
    SHIFT("shr", ISR("SAL/SAR/SHL/SHR")),
    SHIFT("sar", ISR("SAL/SAR/SHL/SHR")),
    SHIFT("rol", ISR("ROL")),
    SHIFT("ror", ISR("ROR")),
    /* RCL/RCR by 1 pair (PU) in one clock, by an immediate take 8-25 (NP):
     * both are "r,i"; the rows give the by-1 figures (docs/p5-timings.md). */
    ONE("rcl", "r,1", 1, PU, ISR("RCL, by 1")),
    ONE("rcl", "m,1", 3, PU, ISR("RCL, by 1")),
    SPAN("rcl", "r,i", 8, 25, NP, ISR("RCL, by imm8")),
    SPAN("rcl", "m,i", 10, 27, NP, ISR("RCL, by imm8")),
    SPAN("rcl", "r,cl", 7, 24, NP, ISR("RCL")),
    SPAN("rcl", "m,cl", 9, 26, NP, ISR("RCL")),
    ONE("rcr", "r,1", 1, PU, ISR("RCR, by 1")),
    ONE("rcr", "m,1", 3, PU, ISR("RCR, by 1")),
    SPAN("rcr", "r,i", 8, 25, NP, ISR("RCR, by imm8")),
    SPAN("rcr", "m,i", 10, 27, NP, ISR("RCR, by imm8")),
    SPAN("rcr", "r,cl", 7, 24, NP, ISR("RCR")),
    SPAN("rcr", "m,cl", 9, 26, NP, ISR("RCR")),
    ONE("shld", "r,r,i", 4, NP, ISR("SHLD")),
    ONE("shld", "m,r,i", 4, NP, ISR("SHLD")),
    ONE("shld", "r,r,cl", 4, NP, ISR("SHLD")),
    ONE("shld", "m,r,cl", 5, NP, ISR("SHLD")),
    ONE("shrd", "r,r,i", 4, NP, ISR("SHRD")),
    ONE("shrd", "m,r,i", 4, NP, ISR("SHRD")),
    ONE("shrd", "r,r,cl", 4, NP, ISR("SHRD")),
    ONE("shrd", "m,r,cl", 5, NP, ISR("SHRD")),
    /* ---- multiply and divide */
    BYSIZE("mul", 11, 11, 10, ISR("MUL")),
    BYSIZE("imul", 11, 11, 10, ISR("IMUL")),
    ONE("imul", "r,r", 10, NP, ISR("IMUL")),
    ONE("imul", "r,m", 10, NP, ISR("IMUL")),
    ONE("imul", "r,r,i", 10, NP, ISR("IMUL")),
    ONE("imul", "r,m,i", 10, NP, ISR("IMUL")),
    BYSIZE("div", 17, 25, 41, ISR("DIV")),
    BYSIZE("idiv", 22, 30, 46, ISR("IDIV")),
    /* ---- stack */
    ONE("push", "r", 1, UV, ISR("PUSH")),
    ONE("push", "m", 2, NP, ISR("PUSH")),
    ONE("push", "i", 1, NP, ISR("PUSH")),
    ONE("push", "sreg", 1, NP, ISR("PUSH")),
    ONE("pop", "r", 1, UV, ISR("POP")),
    ONE("pop", "m", 3, NP, ISR("POP")),
    SPAN("pop", "sreg", 3, 12, NP, ISRP("POP")),
    ONE("pushal", "", 5, NP, ISR("PUSHA")),
    ONE("pushaw", "", 5, NP, ISR("PUSHA")),
    ONE("popal", "", 5, NP, ISR("POPA")),
    ONE("popaw", "", 5, NP, ISR("POPA")),
    ONE("pushfd", "", 3, NP, ISRP("PUSHF")),
    ONE("pushf", "", 3, NP, ISRP("PUSHF")),
    ONE("popfd", "", 6, NP, ISRP("POPF")),
    ONE("popf", "", 6, NP, ISRP("POPF")),
    SPAN("enter", "i,i", 11, 77, NP, ISR("ENTER, 11; 15 + 2 x level")),
    ONE("leave", "", 3, NP, ISR("LEAVE")),
    /* ---- control transfers */
    ONE("jcc", "rel", 1, PV, ISR("Jcc")),
    ONE("jmp", "rel", 1, PV, ISR("JMP")),
    ONE("jmp", "r", 2, NP, ISR("JMP")),
    ONE("jmp", "m", 2, NP, ISR("JMP")),
    ONE("ljmp", "i,i", 3, NP, ISR("JMP, far")),
    ONE("ljmp", "m", 4, NP, ISR("JMP, mem48")),
    ONE("call", "rel", 1, PV, ISR("CALL")),
    ONE("call", "r", 2, NP, ISR("CALL")),
    ONE("call", "m", 2, NP, ISR("CALL")),
    SPAN("lcall", "i,i", 4, 13, NP, ISRP("CALL, far")),
    SPAN("lcall", "m", 5, 14, NP, ISRP("CALL, far mem")),
    ONE("ret", "", 2, NP, ISR("RET")),
    ONE("ret", "i", 3, NP, ISR("RET")),
    ONE("retf", "", 4, NP, ISR("RET")),
    ONE("retf", "i", 4, NP, ISR("RET")),
    SPAN("loop", "rel", 5, 6, NP, ISR("LOOP")),
    SPAN("loope", "rel", 5, 6, NP, ISR("LOOP")),
    SPAN("loopne", "rel", 5, 6, NP, ISR("LOOP")),
    ONE("jecxz", "rel", 5, NP, PCEM("JCXZ")),
    ONE("jcxz", "rel", 5, NP, PCEM("JCXZ")),
    SPAN("int", "i", 27, 82, NP, ISRP("INT")),
    SPAN("int3", "", 27, 82, NP, ISRP("INT")),
    ONE("into", "", 4, NP, PCEM("INTO, no overflow")),
    SPAN("iretd", "", 10, 27, NP, ISR("IRET")),
    SPAN("iret", "", 8, 27, NP, ISR("IRET")),
    ONE("bound", "r,m", 8, NP, ISR("BOUND")),
    /* ---- strings: alone, and with REP */
    STR("movsb", "m,m", 4, 3, 1, ISR("MOVS")),
    STR("movsw", "m,m", 4, 3, 1, ISR("MOVS")),
    STR("movsd", "m,m", 4, 3, 1, ISR("MOVS")),
    STR("stosb", "m,r", 3, 3, 1, ISR("STOS")),
    STR("stosw", "m,r", 3, 3, 1, ISR("STOS")),
    STR("stosd", "m,r", 3, 3, 1, ISR("STOS")),
    STR("cmpsb", "m,m", 5, 9, 4, ISR("CMPS")),
    STR("cmpsw", "m,m", 5, 9, 4, ISR("CMPS")),
    STR("cmpsd", "m,m", 5, 9, 4, ISR("CMPS")),
    STR("scasb", "r,m", 4, 8, 4, ISR("SCAS")),
    STR("scasw", "r,m", 4, 8, 4, ISR("SCAS")),
    STR("scasd", "r,m", 4, 8, 4, ISR("SCAS")),
    STR("lodsb", "r,m", 2, 0, 0, ISR("LODS")),
    STR("lodsw", "r,m", 2, 0, 0, ISR("LODS")),
    STR("lodsd", "r,m", 2, 0, 0, ISR("LODS")),
    /* ---- input and output: CPL <= IOPL to CPL > IOPL */
    SPAN("in", "r,i", 4, 21, NP, ISRP("IN")),
    SPAN("in", "r,r", 4, 21, NP, ISRP("IN")),
    SPAN("out", "i,r", 9, 26, NP, ISRP("OUT")),
    SPAN("out", "r,r", 9, 26, NP, ISRP("OUT")),
    SPAN("insb", "m,r", 6, 24, NP, ISRP("INS")),
    SPAN("insw", "m,r", 6, 24, NP, ISRP("INS")),
    SPAN("insd", "m,r", 6, 24, NP, ISRP("INS")),
    SPAN("outsb", "r,m", 10, 27, NP, ISRP("OUTS")),
    SPAN("outsw", "r,m", 10, 27, NP, ISRP("OUTS")),
    SPAN("outsd", "r,m", 10, 27, NP, ISRP("OUTS")),
    /* ---- system */
    ONE("hlt", "", 4, NP, ISR("HLT")),
    ONE("wait", "", 1, NP, ISR("WAIT")),
    ONE("cpuid", "", 14, NP, ISR("CPUID")),
    SPAN("rdtsc", "", 6, 7, NP, ISR("RDTSC")),
    SPAN("rdmsr", "", 20, 24, NP, ISR("RDMSR")),
    SPAN("wrmsr", "", 30, 45, NP, ISR("WRMSR")),
    ONE("rsm", "", 83, NP, ISR("RSM")),
    ONE("invd", "", 15, NP, ISR("INVD")),
    ONE("invlpg", "m", 25, NP, ISR("INVLPG")),
    ONE("clts", "", 10, NP, ISR("CLTS")),
    ONE("arpl", "r,r", 7, NP, ISR("ARPL")),
    ONE("arpl", "m,r", 7, NP, ISR("ARPL")),
    ONE("lar", "r,r", 8, NP, ISR("LAR")),
    ONE("lar", "r,m", 8, NP, ISR("LAR")),
    ONE("lsl", "r,r", 8, NP, ISR("LSL")),
    ONE("lsl", "r,m", 8, NP, ISR("LSL")),
    ONE("lds", "r,m", 4, NP, ISR("LDS")),
    ONE("les", "r,m", 4, NP, ISR("LDS")),
    ONE("lfs", "r,m", 4, NP, ISR("LDS")),
    ONE("lgs", "r,m", 4, NP, ISR("LDS")),
    ONE("lss", "r,m", 4, NP, ISR("LDS")),
    ONE("lgdt", "m", 6, NP, ISR("LGDT")),
    ONE("lidt", "m", 6, NP, ISR("LGDT")),
    ONE("sgdt", "m", 4, NP, ISR("SGDT")),
    ONE("sidt", "m", 4, NP, ISR("SGDT")),
    ONE("lldt", "r", 9, NP, ISR("LLDT")),
    ONE("lldt", "m", 9, NP, ISR("LLDT")),
    ONE("sldt", "r", 2, NP, ISR("SLDT")),
    ONE("sldt", "m", 2, NP, ISR("SLDT")),
    ONE("ltr", "r", 10, NP, ISR("LTR")),
    ONE("ltr", "m", 10, NP, ISR("LTR")),
    ONE("str", "r", 2, NP, ISR("STR")),
    ONE("str", "m", 2, NP, ISR("STR")),
    ONE("lmsw", "r", 8, NP, ISR("LMSW")),
    ONE("lmsw", "m", 8, NP, ISR("LMSW")),
    ONE("smsw", "r", 4, NP, ISR("SMSW")),
    ONE("smsw", "m", 4, NP, ISR("SMSW")),
    ONE("verr", "r", 7, NP, ISR("VERR")),
    ONE("verr", "m", 7, NP, ISR("VERR")),
    ONE("verw", "r", 7, NP, ISR("VERR")),
    ONE("verw", "m", 7, NP, ISR("VERR")),

    /* ---- x87: loads and stores */
    ONE("fld", "st", 1, FX, AGNER),
    ONE("fld", "m32", 1, FX, AGNER),
    ONE("fld", "m64", 1, FX, AGNER),
    ONE("fld", "m80", 3, NP, AGNER),
    ONE("fst", "st", 1, NP, AGNER),
    ONE("fst", "m", 2, NP, AGNER),
    ONE("fstp", "st", 1, NP, AGNER),
    ONE("fstp", "m", 2, NP, AGNER),
    ONE("fstp", "m80", 3, NP, AGNER),
    FP("fild", "m", 1, 3, NP, AGNER),
    ONE("fist", "m", 6, NP, AGNER),
    ONE("fistp", "m", 6, NP, AGNER),
    SPAN("fbld", "m", 48, 58, NP, AGNER),
    SPAN("fbstp", "m", 148, 154, NP, AGNER),
    ONE("fldz", "", 2, NP, AGNER),
    ONE("fld1", "", 2, NP, AGNER),
    FP("fldpi", "", 3, 5, NP, AGNER),
    FP("fldl2e", "", 3, 5, NP, AGNER),
    FP("fldl2t", "", 3, 5, NP, AGNER),
    FP("fldlg2", "", 3, 5, NP, AGNER),
    FP("fldln2", "", 3, 5, NP, AGNER),
    ONE("fxch", "st", 1, PV, "iAPx86 NG, FXCH"),
    /* ---- x87: arithmetic */
    FARITH("fadd", 1, 3, AGNER),
    FP("faddp", "st", 1, 3, FX, AGNER),
    FARITH("fsub", 1, 3, AGNER),
    FP("fsubp", "st", 1, 3, FX, AGNER),
    FARITH("fsubr", 1, 3, AGNER),
    FP("fsubrp", "st", 1, 3, FX, AGNER),
    /* An FMUL cannot start the clock after another (GCC pentium.md). */
    FARITH("fmul", 2, 3, AGNER "; GCC pentium.md"),
    FP("fmulp", "st", 2, 3, FX, AGNER "; GCC pentium.md"),
    FDIV("fdiv", AGNER),
    PREC("fdivp", "st", 37, 19, 33, 39, FX, AGNER),
    FDIV("fdivr", AGNER),
    PREC("fdivrp", "st", 37, 19, 33, 39, FX, AGNER),
    FP("fiadd", "m", 4, 6, NP, AGNER),
    FP("fisub", "m", 4, 6, NP, AGNER),
    FP("fisubr", "m", 4, 6, NP, AGNER),
    FP("fimul", "m", 4, 6, NP, AGNER),
    PREC("fidiv", "m", 40, 22, 36, 42, NP, AGNER),
    PREC("fidivr", "m", 40, 22, 36, 42, NP, AGNER),
    ONE("fchs", "", 1, FX, AGNER),
    ONE("fabs", "", 1, FX, AGNER),
    FP("fsqrt", "", 68, 70, NP, AGNER),
    SPAN("frndint", "", 9, 20, NP, AGNER),
    SPAN("fscale", "", 20, 32, NP, AGNER),
    SPAN("fxtract", "", 12, 66, NP, AGNER),
    FPSPAN("fprem", "", 14, 62, 16, NP, AGNER),
    FPSPAN("fprem1", "", 18, 68, 20, NP, AGNER),
    /* ---- x87: compares */
    ONE("fcom", "st", 1, FX, AGNER),
    ONE("fcom", "m", 1, FX, AGNER),
    ONE("fcomp", "st", 1, FX, AGNER),
    ONE("fcomp", "m", 1, FX, AGNER),
    ONE("fcompp", "", 1, FX, AGNER),
    ONE("fucom", "st", 1, FX, AGNER),
    ONE("fucomp", "st", 1, FX, AGNER),
    ONE("fucompp", "", 1, FX, AGNER),
    ONE("ficom", "m", 4, NP, AGNER),
    ONE("ficomp", "m", 4, NP, AGNER),
    ONE("ftst", "", 1, NP, AGNER),
    SPAN("fxam", "", 17, 21, NP, AGNER),
    /* ---- x87: transcendental */
    FPSPAN("fsin", "", 63, 98, 65, NP, AGNER),
    FPSPAN("fcos", "", 63, 98, 65, NP, AGNER),
    FPSPAN("fsincos", "", 87, 110, 89, NP, AGNER),
    FPSPAN("f2xm1", "", 51, 57, 53, NP, AGNER),
    FP("fyl2x", "", 101, 103, NP, AGNER),
    ONE("fyl2xp1", "", 105, NP, AGNER ", fp-ov not given"),
    ONE("fptan", "", 120, NP, PCEM("FPTAN")),
    FP("fpatan", "", 110, 112, NP, PCEM("FPATAN")),
    /* ---- x87: control */
    ONE("fnstsw", "r", 6, NP, AGNER),
    ONE("fnstsw", "m", 6, NP, AGNER),
    ONE("fldcw", "m", 8, NP, AGNER),
    ONE("fnstcw", "m", 2, NP, AGNER),
    ONE("fnclex", "", 9, NP, "FPU list, FNCLEX"),
    ONE("fninit", "", 17, NP, PCEM("FINIT")),
    ONE("fnop", "", 3, NP, PCEM("FNOP")),
    ONE("fincstp", "", 2, NP, PCEM("FINCSTP")),
    ONE("fdecstp", "", 2, NP, PCEM("FDECSTP")),
    ONE("ffree", "st", 2, NP, PCEM("FFREE")),
    ONE("fldenv", "m", 32, NP, PCEM("FLDENV")),
    ONE("fnstenv", "m", 48, NP, PCEM("FSTENV")),
    ONE("frstor", "m", 70, NP, PCEM("FRSTOR")),
    ONE("fnsave", "m", 127, NP, PCEM("FSAVE")),

    /* ---- MMX (Pentium MMX): register forms in either pipe, memory forms U */
    MMX("movd", "mm,r", 1, 0, UV, MMXSRC),
    MMX("movd", "r,mm", 1, 0, UV, MMXSRC),
    MMX("movd", "mm,m", 1, 0, PU, MMXSRC),
    MMX("movd", "m,mm", 1, 0, PU, MMXSRC),
    MMX("movq", "mm,mm", 1, 0, UV, MMXSRC),
    MMX("movq", "mm,m", 1, 0, PU, MMXSRC),
    MMX("movq", "m,mm", 1, 0, PU, MMXSRC),
    MMXOP("paddb", 0, MMXSRC),
    MMXOP("paddw", 0, MMXSRC),
    MMXOP("paddd", 0, MMXSRC),
    MMXOP("paddsb", 0, MMXSRC),
    MMXOP("paddsw", 0, MMXSRC),
    MMXOP("paddusb", 0, MMXSRC),
    MMXOP("paddusw", 0, MMXSRC),
    MMXOP("psubb", 0, MMXSRC),
    MMXOP("psubw", 0, MMXSRC),
    MMXOP("psubd", 0, MMXSRC),
    MMXOP("psubsb", 0, MMXSRC),
    MMXOP("psubsw", 0, MMXSRC),
    MMXOP("psubusb", 0, MMXSRC),
    MMXOP("psubusw", 0, MMXSRC),
    MMXOP("pand", 0, MMXSRC),
    MMXOP("pandn", 0, MMXSRC),
    MMXOP("por", 0, MMXSRC),
    MMXOP("pxor", 0, MMXSRC),
    MMXOP("pcmpeqb", 0, MMXSRC),
    MMXOP("pcmpeqw", 0, MMXSRC),
    MMXOP("pcmpeqd", 0, MMXSRC),
    MMXOP("pcmpgtb", 0, MMXSRC),
    MMXOP("pcmpgtw", 0, MMXSRC),
    MMXOP("pcmpgtd", 0, MMXSRC),
    MMXOP("packsswb", 0, MMXSRC),
    MMXOP("packssdw", 0, MMXSRC),
    MMXOP("packuswb", 0, MMXSRC),
    MMXOP("punpcklbw", 0, MMXSRC),
    MMXOP("punpcklwd", 0, MMXSRC),
    MMXOP("punpckldq", 0, MMXSRC),
    MMXOP("punpckhbw", 0, MMXSRC),
    MMXOP("punpckhwd", 0, MMXSRC),
    MMXOP("punpckhdq", 0, MMXSRC),
    MMXSHIFT("psllw", MMXSRC),
    MMXSHIFT("pslld", MMXSRC),
    MMXSHIFT("psllq", MMXSRC),
    MMXSHIFT("psrlw", MMXSRC),
    MMXSHIFT("psrld", MMXSRC),
    MMXSHIFT("psrlq", MMXSRC),
    MMXSHIFT("psraw", MMXSRC),
    MMXSHIFT("psrad", MMXSRC),
    /* One multiply per clock, its result three clocks later (AP-559). */
    MMXOP("pmaddwd", 3, MMXSRC "; AP-559, latency"),
    MMXOP("pmulhw", 0, MMXSRC),
    MMXOP("pmullw", 0, MMXSRC),
};

const size_t p5_timings_count = sizeof p5_timings / sizeof p5_timings[0];
_Static_assert(sizeof p5_timings / sizeof p5_timings[0] <= UINT16_MAX, "row indices are 16-bit");

/* ---- look-up: by family (sim/common/timing_key.h), the index built once */

enum { ROWS = sizeof p5_timings / sizeof p5_timings[0] };

static uint16_t by_family[ROWS];
static struct timing_index index_ = {(const char *)p5_timings, ROWS, sizeof p5_timings[0],
                                     offsetof(struct p5_timing, form), by_family};
static once_flag index_once = ONCE_FLAG_INIT;

static void build_index(void)
{
    timing_index_build(&index_);
}

const struct p5_timing *p5_timing_find(const char *family, const char *form)
{
    call_once(&index_once, build_index);
    return timing_index_find(&index_, family, form);
}
