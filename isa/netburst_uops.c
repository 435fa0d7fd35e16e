/* The NetBurst (Pentium 4) micro-op count of an instruction (docs/isa.md,
 * "NetBurst micro-ops").  A structural model on the published rules, with a
 * table of the instructions that come from the microcode ROM:
 *   [OPT]  IA-32 Intel Architecture Optimization Reference Manual (Intel,
 *          order 248966, 2004 and later), chapter 1 "Intel NetBurst
 *          microarchitecture": the trace cache holds up to 4 uops of an
 *          instruction, longer ones come from the microcode ROM; a store is
 *          a store-address and a store-data uop; coding rule "avoid complex
 *          instructions (for example, enter, leave, or loop) that have more
 *          than four uops".
 *   [AF]   Agner Fog, Instruction tables, section "Intel Pentium 4": the
 *          instructions whose uop counts there exceed 4 (string, far
 *          transfers, interrupts, CPUID, RDTSC, BCD, segment loads, RCL/RCR,
 *          SHLD/SHRD, x87 transcendental and state, XCHG/BTx with memory...).
 * The model: 1 uop for the operation (0 for a pure move with a memory
 * operand, whose work is the load or store), +1 per memory read, +2 per
 * memory write (store address + store data), +2 for an implicit stack push,
 * +1 for an implicit stack pop.  More than 4 in all means the microcode ROM;
 * an instruction of the table counts X86_NB_MSROM_UOPS (the least a ROM
 * sequence has; the real length varies and, for REP strings, depends on the
 * count). */
#include "isa/x86_capstone.h"
#include <threads.h>

#include "isa/x86_internal.h"

enum nb_kind {
    NB_DEFAULT = 0,
    NB_MSROM,    /* microcode ROM [OPT], [AF] */
    NB_MOVE,     /* 0 uops of its own with a memory operand */
    NB_PUSH,     /* +2: implicit stack store */
    NB_POP,      /* +1: implicit stack load */
    NB_MEM_ROM,  /* microcode ROM with a memory operand (XCHG m, BTx m,r) */
};

struct nb_entry {
    uint16_t id;
    uint8_t kind;
};

static const struct nb_entry nb_table[] = {
    /* [OPT] coding rule: enter, leave, loop */
    {X86_INS_ENTER, NB_MSROM}, {X86_INS_LEAVE, NB_MSROM}, {X86_INS_LOOP, NB_MSROM},
    {X86_INS_LOOPE, NB_MSROM}, {X86_INS_LOOPNE, NB_MSROM},
    /* [AF]: system, far transfers, interrupts */
    {X86_INS_CPUID, NB_MSROM}, {X86_INS_RDTSC, NB_MSROM}, {X86_INS_RDTSCP, NB_MSROM},
    {X86_INS_RDMSR, NB_MSROM}, {X86_INS_WRMSR, NB_MSROM}, {X86_INS_RDPMC, NB_MSROM},
    {X86_INS_IN, NB_MSROM}, {X86_INS_OUT, NB_MSROM}, {X86_INS_INT, NB_MSROM},
    {X86_INS_INT1, NB_MSROM}, {X86_INS_INT3, NB_MSROM}, {X86_INS_INTO, NB_MSROM},
    {X86_INS_IRET, NB_MSROM}, {X86_INS_IRETD, NB_MSROM}, {X86_INS_IRETQ, NB_MSROM},
    {X86_INS_SYSCALL, NB_MSROM}, {X86_INS_SYSENTER, NB_MSROM}, {X86_INS_SYSEXIT, NB_MSROM},
    {X86_INS_SYSRET, NB_MSROM}, {X86_INS_LCALL, NB_MSROM}, {X86_INS_LJMP, NB_MSROM},
    {X86_INS_RETF, NB_MSROM}, {X86_INS_RETFQ, NB_MSROM}, {X86_INS_HLT, NB_MSROM},
    {X86_INS_INVD, NB_MSROM}, {X86_INS_WBINVD, NB_MSROM}, {X86_INS_LGDT, NB_MSROM},
    {X86_INS_LIDT, NB_MSROM}, {X86_INS_LLDT, NB_MSROM}, {X86_INS_LTR, NB_MSROM},
    {X86_INS_CLTS, NB_MSROM}, {X86_INS_CLI, NB_MSROM}, {X86_INS_STI, NB_MSROM},
    {X86_INS_XGETBV, NB_MSROM},
    /* [AF]: stack images, flags, BCD, segment loads, bounds */
    {X86_INS_PUSHAL, NB_MSROM}, {X86_INS_PUSHAW, NB_MSROM}, {X86_INS_POPAL, NB_MSROM},
    {X86_INS_POPAW, NB_MSROM}, {X86_INS_POPF, NB_MSROM}, {X86_INS_POPFD, NB_MSROM},
    {X86_INS_POPFQ, NB_MSROM}, {X86_INS_PUSHF, NB_MSROM}, {X86_INS_PUSHFD, NB_MSROM},
    {X86_INS_PUSHFQ, NB_MSROM}, {X86_INS_DAA, NB_MSROM}, {X86_INS_DAS, NB_MSROM},
    {X86_INS_AAA, NB_MSROM}, {X86_INS_AAS, NB_MSROM}, {X86_INS_AAM, NB_MSROM},
    {X86_INS_AAD, NB_MSROM}, {X86_INS_BOUND, NB_MSROM}, {X86_INS_LDS, NB_MSROM},
    {X86_INS_LES, NB_MSROM}, {X86_INS_LFS, NB_MSROM}, {X86_INS_LGS, NB_MSROM},
    {X86_INS_LSS, NB_MSROM}, {X86_INS_XLATB, NB_MSROM},
    /* [AF]: rotates through carry, double shifts, 8/16-byte compare-exchange */
    {X86_INS_RCL, NB_MSROM}, {X86_INS_RCR, NB_MSROM}, {X86_INS_SHLD, NB_MSROM},
    {X86_INS_SHRD, NB_MSROM}, {X86_INS_CMPXCHG8B, NB_MSROM}, {X86_INS_CMPXCHG16B, NB_MSROM},
    {X86_INS_CMPXCHG, NB_MSROM},
    /* [AF]: x87 transcendental, BCD and state */
    {X86_INS_FSIN, NB_MSROM}, {X86_INS_FCOS, NB_MSROM}, {X86_INS_FSINCOS, NB_MSROM},
    {X86_INS_FPTAN, NB_MSROM}, {X86_INS_FPATAN, NB_MSROM}, {X86_INS_F2XM1, NB_MSROM},
    {X86_INS_FYL2X, NB_MSROM}, {X86_INS_FYL2XP1, NB_MSROM}, {X86_INS_FSCALE, NB_MSROM},
    {X86_INS_FPREM, NB_MSROM}, {X86_INS_FPREM1, NB_MSROM}, {X86_INS_FXTRACT, NB_MSROM},
    {X86_INS_FBLD, NB_MSROM}, {X86_INS_FBSTP, NB_MSROM}, {X86_INS_FLDENV, NB_MSROM},
    {X86_INS_FNSTENV, NB_MSROM}, {X86_INS_FNSAVE, NB_MSROM}, {X86_INS_FRSTOR, NB_MSROM},
    {X86_INS_FXSAVE, NB_MSROM}, {X86_INS_FXRSTOR, NB_MSROM}, {X86_INS_FXSAVE64, NB_MSROM},
    {X86_INS_FXRSTOR64, NB_MSROM}, {X86_INS_XSAVE, NB_MSROM}, {X86_INS_XRSTOR, NB_MSROM},
    {X86_INS_XSAVEC, NB_MSROM}, {X86_INS_XSAVEOPT, NB_MSROM}, {X86_INS_XSAVE64, NB_MSROM},
    {X86_INS_XRSTOR64, NB_MSROM}, {X86_INS_XSAVEC64, NB_MSROM}, {X86_INS_FNINIT, NB_MSROM},
    /* [AF]: implicitly locked exchange, bit tests on memory */
    {X86_INS_XCHG, NB_MEM_ROM}, {X86_INS_BT, NB_MEM_ROM}, {X86_INS_BTS, NB_MEM_ROM},
    {X86_INS_BTR, NB_MEM_ROM}, {X86_INS_BTC, NB_MEM_ROM},
    /* moves: the load or store is the work */
    {X86_INS_MOV, NB_MOVE}, {X86_INS_MOVZX, NB_MOVE}, {X86_INS_MOVSX, NB_MOVE},
    {X86_INS_MOVSXD, NB_MOVE}, {X86_INS_MOVAPS, NB_MOVE}, {X86_INS_MOVUPS, NB_MOVE},
    {X86_INS_MOVAPD, NB_MOVE}, {X86_INS_MOVUPD, NB_MOVE}, {X86_INS_MOVDQA, NB_MOVE},
    {X86_INS_MOVDQU, NB_MOVE}, {X86_INS_MOVQ, NB_MOVE}, {X86_INS_MOVD, NB_MOVE},
    {X86_INS_MOVSS, NB_MOVE}, {X86_INS_MOVSD, NB_MOVE}, {X86_INS_FLD, NB_MOVE},
    {X86_INS_FST, NB_MOVE}, {X86_INS_FSTP, NB_MOVE},
    /* implicit stack traffic */
    {X86_INS_PUSH, NB_PUSH}, {X86_INS_CALL, NB_PUSH}, {X86_INS_POP, NB_POP},
    {X86_INS_RET, NB_POP},
};

static uint8_t nb_kind_of[X86_INS_ENDING];
static once_flag nb_once = ONCE_FLAG_INIT;

static void nb_init(void)
{
    for (size_t i = 0; i < sizeof nb_table / sizeof nb_table[0]; i++)
        nb_kind_of[nb_table[i].id] = nb_table[i].kind;
}

static unsigned memory_uops(const struct x86_insn *in)
{
    unsigned n = 0;
    for (unsigned i = 0; i < in->n_mem; i++) {
        if (in->mem[i].access & X86_ACCESS_READ)
            n += 1;
        if (in->mem[i].access & X86_ACCESS_WRITE)
            n += 2;
    }
    return n;
}

static bool msrom_by_form(const struct x86_insn *in, uint8_t kind)
{
    if (kind == NB_MSROM || in->string)
        return true;
    if (in->prefixes & X86_PFX_LOCK)
        return true; /* locked read-modify-write [AF] */
    bool mem = false;
    for (unsigned i = 0; i < in->n_mem; i++)
        mem |= in->mem[i].access != X86_ACCESS_NONE;
    return kind == NB_MEM_ROM && mem;
}

void x86_netburst_uops_of(struct x86_insn *in)
{
    call_once(&nb_once, nb_init);
    uint8_t kind = in->id < X86_INS_ENDING ? nb_kind_of[in->id] : NB_DEFAULT;
    if (msrom_by_form(in, kind)) {
        in->netburst_msrom = true;
        in->netburst_uops = X86_NB_MSROM_UOPS;
        return;
    }
    unsigned mem = memory_uops(in);
    unsigned n = (kind == NB_MOVE && mem) ? 0 : 1;
    n += mem;
    if (kind == NB_PUSH)
        n += 2;
    else if (kind == NB_POP)
        n += 1;
    in->netburst_uops = (uint8_t)n;
    in->netburst_msrom = n > 4;
}
