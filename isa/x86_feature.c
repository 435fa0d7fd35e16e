/* The CPUID feature each instruction needs, and whether a CPU view has it
 * (isa/x86.h, docs/isa.md "CPUID features").
 *
 * The feature of an instruction comes, in this order, from the encoding
 * (EVEX: AVX-512), capstone's instruction id (where capstone 4's groups
 * say nothing or the wrong thing: POPCNT has none, CLFLUSH says SSE2,
 * PAUSE SSE2, RDTSCP "privilege"), capstone's groups, and the opcode (the
 * hint NOPs); for what capstone rejects (isa/x86_length.c), from the
 * encoding alone. */
#include "isa/x86.h"

#include "isa/x86_capstone.h"
#include "isa/x86_internal.h"
#include "traces/cpu_view.h"

/* ---- the feature flags: one row per feature */

enum cpuid_reg {
    REG_NONE,        /* no flag: every part has it */
    REG_EAX, REG_EBX, REG_ECX, REG_EDX,
    REG_FAMILY,      /* EAX's 4-bit field from `bit`, the family: 6 or 15 */
};

struct feature_flag {
    const char *name;
    uint32_t leaf, subleaf;
    uint8_t reg;     /* enum cpuid_reg */
    uint8_t bit;
};

#define EXT 0x80000000u

/* Intel SDM Vol. 2A, CPUID: leaf 01H "Feature Information Returned in the
 * ECX Register" and "More on Feature Information Returned in the EDX
 * Register"; leaf 07H subleaf 0 EBX; leaf 0DH subleaf 1 EAX; leaf
 * 80000001H ECX and EDX.  The AMD-only flags (3DNow!, SSE4A, XOP, FMA4,
 * TBM) from AMD64 Architecture Programmer's Manual Vol. 3, appendix E,
 * CPUID Fn8000_0001_ECX and _EDX.  The long NOP from Intel SDM Vol. 2B,
 * NOP: "The multi-byte form of NOP is available on processors with model
 * encoding: CPUID.01H.EAX[Bytes 11:8] = 0110B or 1111B". */
static const struct feature_flag flags[X86_FEATURE_COUNT] = {
    [X86_FEATURE_NONE] = {"none", 0, 0, REG_NONE, 0},
    [X86_FEATURE_CMOV] = {"CMOV", 1, 0, REG_EDX, 15},
    [X86_FEATURE_MMX] = {"MMX", 1, 0, REG_EDX, 23},
    [X86_FEATURE_SSE] = {"SSE", 1, 0, REG_EDX, 25},
    [X86_FEATURE_SSE2] = {"SSE2", 1, 0, REG_EDX, 26},
    [X86_FEATURE_SSE3] = {"SSE3", 1, 0, REG_ECX, 0},
    [X86_FEATURE_SSSE3] = {"SSSE3", 1, 0, REG_ECX, 9},
    [X86_FEATURE_SSE4_1] = {"SSE4.1", 1, 0, REG_ECX, 19},
    [X86_FEATURE_SSE4_2] = {"SSE4.2", 1, 0, REG_ECX, 20},
    [X86_FEATURE_AVX] = {"AVX", 1, 0, REG_ECX, 28},
    [X86_FEATURE_AVX2] = {"AVX2", 7, 0, REG_EBX, 5},
    [X86_FEATURE_FMA] = {"FMA", 1, 0, REG_ECX, 12},
    [X86_FEATURE_AVX512] = {"AVX-512", 7, 0, REG_EBX, 16},          /* AVX512F */
    [X86_FEATURE_BMI1] = {"BMI1", 7, 0, REG_EBX, 3},
    [X86_FEATURE_BMI2] = {"BMI2", 7, 0, REG_EBX, 8},
    [X86_FEATURE_ADX] = {"ADX", 7, 0, REG_EBX, 19},
    [X86_FEATURE_AES] = {"AES", 1, 0, REG_ECX, 25},
    [X86_FEATURE_PCLMULQDQ] = {"PCLMULQDQ", 1, 0, REG_ECX, 1},
    [X86_FEATURE_SHA] = {"SHA", 7, 0, REG_EBX, 29},
    [X86_FEATURE_F16C] = {"F16C", 1, 0, REG_ECX, 29},
    [X86_FEATURE_3DNOW] = {"3DNow!", EXT | 1, 0, REG_EDX, 31},
    [X86_FEATURE_SSE4A] = {"SSE4A", EXT | 1, 0, REG_ECX, 6},
    [X86_FEATURE_XOP] = {"XOP", EXT | 1, 0, REG_ECX, 11},
    [X86_FEATURE_FMA4] = {"FMA4", EXT | 1, 0, REG_ECX, 16},
    [X86_FEATURE_TBM] = {"TBM", EXT | 1, 0, REG_ECX, 21},
    [X86_FEATURE_RTM] = {"RTM", 7, 0, REG_EBX, 11},
    [X86_FEATURE_POPCNT] = {"POPCNT", 1, 0, REG_ECX, 23},
    [X86_FEATURE_LZCNT] = {"LZCNT", EXT | 1, 0, REG_ECX, 5},       /* AMD's ABM */
    [X86_FEATURE_MOVBE] = {"MOVBE", 1, 0, REG_ECX, 22},
    [X86_FEATURE_RDRAND] = {"RDRAND", 1, 0, REG_ECX, 30},
    [X86_FEATURE_RDSEED] = {"RDSEED", 7, 0, REG_EBX, 18},
    [X86_FEATURE_TSC] = {"TSC", 1, 0, REG_EDX, 4},
    [X86_FEATURE_CX8] = {"CX8", 1, 0, REG_EDX, 8},
    [X86_FEATURE_CX16] = {"CX16", 1, 0, REG_ECX, 13},
    [X86_FEATURE_CLFSH] = {"CLFSH", 1, 0, REG_EDX, 19},
    [X86_FEATURE_CLFLUSHOPT] = {"CLFLUSHOPT", 7, 0, REG_EBX, 23},
    [X86_FEATURE_CLWB] = {"CLWB", 7, 0, REG_EBX, 24},
    [X86_FEATURE_FXSR] = {"FXSR", 1, 0, REG_EDX, 24},
    [X86_FEATURE_XSAVE] = {"XSAVE", 1, 0, REG_ECX, 26},
    [X86_FEATURE_XSAVEOPT] = {"XSAVEOPT", 0xd, 1, REG_EAX, 0},
    [X86_FEATURE_XSAVEC] = {"XSAVEC", 0xd, 1, REG_EAX, 1},
    [X86_FEATURE_XSAVES] = {"XSAVES", 0xd, 1, REG_EAX, 3},
    [X86_FEATURE_SYSCALL] = {"SYSCALL", EXT | 1, 0, REG_EDX, 11},
    [X86_FEATURE_SEP] = {"SEP", 1, 0, REG_EDX, 11},
    [X86_FEATURE_RDTSCP] = {"RDTSCP", EXT | 1, 0, REG_EDX, 27},
    [X86_FEATURE_MONITOR] = {"MONITOR", 1, 0, REG_ECX, 3},
    [X86_FEATURE_FSGSBASE] = {"FSGSBASE", 7, 0, REG_EBX, 0},
    [X86_FEATURE_PRFCHW] = {"PRFCHW", EXT | 1, 0, REG_ECX, 8},
    [X86_FEATURE_LONG_NOP] = {"long NOP", 1, 0, REG_FAMILY, 8},
};

const char *x86_feature_name(enum x86_feature f)
{
    return (unsigned)f < X86_FEATURE_COUNT ? flags[f].name : "?";
}

static uint32_t reg_value(struct cpuid_regs r, enum cpuid_reg reg)
{
    switch (reg) {
    case REG_EAX: return r.eax;
    case REG_EBX: return r.ebx;
    case REG_ECX: return r.ecx;
    default: return r.edx;
    }
}

bool x86_feature_present(enum x86_feature f, const struct cpu_view *view)
{
    if ((unsigned)f >= X86_FEATURE_COUNT || flags[f].reg == REG_NONE || view->n == 0)
        return true;
    const struct feature_flag *flag = &flags[f];
    if (!cpu_view_in_range(view, flag->leaf))
        return false;
    struct cpuid_regs r = cpu_view_answer(view, flag->leaf, flag->subleaf);
    if (flag->reg == REG_FAMILY) {
        /* Every processor with long mode (Intel's of family 6 or 15, AMD's
         * of 15 and above) has the long NOP: so has a part's view widened
         * with the x86-64 baseline for a 64-bit program (cpu_view_widen_64),
         * whose family field is still the part's. */
        uint32_t family = r.eax >> flag->bit & 0xf;
        bool long_mode = cpu_view_in_range(view, EXT | 1) &&
                         (cpu_view_answer(view, EXT | 1, 0).edx >> 29 & 1);
        return family == 6 || family == 15 || long_mode;
    }
    return reg_value(r, (enum cpuid_reg)flag->reg) >> flag->bit & 1;
}

/* ---- the feature of an instruction */

struct id_feature {
    uint16_t id;      /* capstone's X86_INS_* */
    uint8_t feature;  /* enum x86_feature */
};

/* Instructions capstone 4 gives no group, or the wrong one, for (the SDM's
 * CPUID Feature Flag column of each instruction, Intel SDM Vol. 2). */
static const struct id_feature id_features[] = {
    /* "CPUID.01H:EDX.CMOV[bit 15] = 1 and CPUID.01H:EDX.FPU[bit 0] = 1"
     * (FCOMI/FCOMIP/FUCOMI/FUCOMIP): capstone says fpu only */
    {X86_INS_FCOMI, X86_FEATURE_CMOV}, {X86_INS_FCOMIP, X86_FEATURE_CMOV},
    {X86_INS_FUCOMI, X86_FEATURE_CMOV}, {X86_INS_FUCOMIP, X86_FEATURE_CMOV},
    /* capstone: sse2; a NOP before the Pentium 4 (SDM, PAUSE) */
    {X86_INS_PAUSE, X86_FEATURE_NONE},
    /* capstone: bmi; BSF without BMI1 (SDM, TZCNT), the same result for a
     * nonzero source: compilers emit its bytes as REP BSF for any part */
    {X86_INS_TZCNT, X86_FEATURE_NONE},
    {X86_INS_POPCNT, X86_FEATURE_POPCNT}, {X86_INS_LZCNT, X86_FEATURE_LZCNT},
    {X86_INS_MOVBE, X86_FEATURE_MOVBE},
    {X86_INS_RDRAND, X86_FEATURE_RDRAND}, {X86_INS_RDSEED, X86_FEATURE_RDSEED},
    {X86_INS_RDTSC, X86_FEATURE_TSC}, {X86_INS_RDTSCP, X86_FEATURE_RDTSCP},
    {X86_INS_CMPXCHG8B, X86_FEATURE_CX8}, {X86_INS_CMPXCHG16B, X86_FEATURE_CX16},
    {X86_INS_CLFLUSH, X86_FEATURE_CLFSH}, /* capstone: sse2 */
    {X86_INS_CLFLUSHOPT, X86_FEATURE_CLFLUSHOPT}, {X86_INS_CLWB, X86_FEATURE_CLWB},
    {X86_INS_FXSAVE, X86_FEATURE_FXSR}, {X86_INS_FXSAVE64, X86_FEATURE_FXSR},
    {X86_INS_FXRSTOR, X86_FEATURE_FXSR}, {X86_INS_FXRSTOR64, X86_FEATURE_FXSR},
    {X86_INS_XSAVE, X86_FEATURE_XSAVE}, {X86_INS_XSAVE64, X86_FEATURE_XSAVE},
    {X86_INS_XRSTOR, X86_FEATURE_XSAVE}, {X86_INS_XRSTOR64, X86_FEATURE_XSAVE},
    {X86_INS_XGETBV, X86_FEATURE_XSAVE}, {X86_INS_XSETBV, X86_FEATURE_XSAVE},
    {X86_INS_XSAVEOPT, X86_FEATURE_XSAVEOPT}, {X86_INS_XSAVEOPT64, X86_FEATURE_XSAVEOPT},
    {X86_INS_XSAVEC, X86_FEATURE_XSAVEC}, {X86_INS_XSAVEC64, X86_FEATURE_XSAVEC},
    {X86_INS_XSAVES, X86_FEATURE_XSAVES}, {X86_INS_XSAVES64, X86_FEATURE_XSAVES},
    {X86_INS_XRSTORS, X86_FEATURE_XSAVES}, {X86_INS_XRSTORS64, X86_FEATURE_XSAVES},
    {X86_INS_SYSCALL, X86_FEATURE_SYSCALL}, {X86_INS_SYSRET, X86_FEATURE_SYSCALL},
    {X86_INS_SYSENTER, X86_FEATURE_SEP}, {X86_INS_SYSEXIT, X86_FEATURE_SEP},
    {X86_INS_MONITOR, X86_FEATURE_MONITOR}, {X86_INS_MWAIT, X86_FEATURE_MONITOR}, /* sse3 */
    {X86_INS_PREFETCHW, X86_FEATURE_PRFCHW},
    {X86_INS_XTEST, X86_FEATURE_RTM},
};

/* The MMX-register forms SSE and SSE2 added to MMX (Intel SDM Vol. 1,
 * 10.4.4 "SSE 64-Bit SIMD Integer Instructions", 11.4.2 "SSE2 64-Bit and
 * 128-Bit SIMD Integer Instructions"), which capstone puts in its mmx
 * group; their XMM forms it puts in sse2, rightly. */
static const struct id_feature mmx_extensions[] = {
    {X86_INS_PAVGB, X86_FEATURE_SSE}, {X86_INS_PAVGW, X86_FEATURE_SSE},
    {X86_INS_PEXTRW, X86_FEATURE_SSE}, {X86_INS_PINSRW, X86_FEATURE_SSE},
    {X86_INS_PMAXSW, X86_FEATURE_SSE}, {X86_INS_PMAXUB, X86_FEATURE_SSE},
    {X86_INS_PMINSW, X86_FEATURE_SSE}, {X86_INS_PMINUB, X86_FEATURE_SSE},
    {X86_INS_PMOVMSKB, X86_FEATURE_SSE}, {X86_INS_PMULHUW, X86_FEATURE_SSE},
    {X86_INS_PSADBW, X86_FEATURE_SSE}, {X86_INS_PSHUFW, X86_FEATURE_SSE},
    {X86_INS_MOVNTQ, X86_FEATURE_SSE}, {X86_INS_MASKMOVQ, X86_FEATURE_SSE},
    {X86_INS_PADDQ, X86_FEATURE_SSE2}, {X86_INS_PSUBQ, X86_FEATURE_SSE2},
    {X86_INS_PMULUDQ, X86_FEATURE_SSE2},
};

static bool find_id(const struct id_feature *table, size_t n, uint16_t id,
                    enum x86_feature *feature)
{
    for (size_t i = 0; i < n; i++)
        if (table[i].id == id) {
            *feature = (enum x86_feature)table[i].feature;
            return true;
        }
    return false;
}

struct group_feature {
    uint8_t group;    /* capstone's X86_GRP_* */
    uint8_t feature;  /* enum x86_feature */
};

/* capstone's groups in the order they are tried: the first an instruction
 * is in gives its feature.  A VEX form before the extension it widens
 * (VAESENC is in avx and aes: AVX); AVX-512's subsets (cdi, eri, pfi, dqi,
 * bwi, vlx) all need AVX512F.  The fpu, mode and privilege groups, hle
 * (prefixes) and novlx (a predicate) name no feature. */
static const struct group_feature group_features[] = {
    {X86_GRP_AVX512, X86_FEATURE_AVX512}, {X86_GRP_CDI, X86_FEATURE_AVX512},
    {X86_GRP_ERI, X86_FEATURE_AVX512}, {X86_GRP_PFI, X86_FEATURE_AVX512},
    {X86_GRP_DQI, X86_FEATURE_AVX512}, {X86_GRP_BWI, X86_FEATURE_AVX512},
    {X86_GRP_VLX, X86_FEATURE_AVX512},
    {X86_GRP_XOP, X86_FEATURE_XOP}, {X86_GRP_FMA4, X86_FEATURE_FMA4},
    {X86_GRP_TBM, X86_FEATURE_TBM}, {X86_GRP_FMA, X86_FEATURE_FMA},
    {X86_GRP_AVX2, X86_FEATURE_AVX2}, {X86_GRP_AVX, X86_FEATURE_AVX},
    {X86_GRP_F16C, X86_FEATURE_F16C}, {X86_GRP_AES, X86_FEATURE_AES},
    {X86_GRP_PCLMUL, X86_FEATURE_PCLMULQDQ}, {X86_GRP_SHA, X86_FEATURE_SHA},
    {X86_GRP_SSE4A, X86_FEATURE_SSE4A}, {X86_GRP_SSE42, X86_FEATURE_SSE4_2},
    {X86_GRP_SSE41, X86_FEATURE_SSE4_1}, {X86_GRP_SSSE3, X86_FEATURE_SSSE3},
    {X86_GRP_SSE3, X86_FEATURE_SSE3}, {X86_GRP_SSE2, X86_FEATURE_SSE2},
    {X86_GRP_SSE1, X86_FEATURE_SSE}, {X86_GRP_3DNOW, X86_FEATURE_3DNOW},
    {X86_GRP_MMX, X86_FEATURE_MMX}, {X86_GRP_CMOV, X86_FEATURE_CMOV},
    {X86_GRP_BMI2, X86_FEATURE_BMI2}, {X86_GRP_BMI, X86_FEATURE_BMI1},
    {X86_GRP_ADX, X86_FEATURE_ADX}, {X86_GRP_RTM, X86_FEATURE_RTM},
    {X86_GRP_FSGSBASE, X86_FEATURE_FSGSBASE},
};

static enum x86_feature by_groups(const uint8_t *groups, unsigned n_groups)
{
    for (size_t i = 0; i < sizeof group_features / sizeof group_features[0]; i++)
        for (unsigned k = 0; k < n_groups; k++)
            if (groups[k] == group_features[i].group)
                return (enum x86_feature)group_features[i].feature;
    return X86_FEATURE_NONE;
}

/* EVEX (62): AVX-512's encoding (Intel SDM Vol. 2, 2.7). */
static bool evex(const struct x86_insn *in, enum x86_mode mode)
{
    if (!(in->prefixes & X86_PFX_VEX))
        return false;
    size_t p = x86_skip_prefixes(in->bytes, in->length, mode);
    return p < in->length && in->bytes[p] == 0x62;
}

/* 0F 18-0F 1F without VEX: NOP r/m (0F 1F /0), the hint NOPs, ENDBR32/64
 * (F3 0F 1E FB/FA); PREFETCHh (0F 18 /0-3) is SSE by capstone's group. */
static bool hint_nop(const struct x86_insn *in)
{
    return !(in->prefixes & X86_PFX_VEX) && in->opcode_len == 2 && in->opcode[0] == 0x0f &&
           in->opcode[1] >= 0x18 && in->opcode[1] <= 0x1f;
}

/* The VEX-encoded opmask instructions (KMOV, KAND, KORTEST... at 0F 41-4B
 * and 0F 90-99, KSHIFT at 0F 3A 30-33): AVX-512's, though not EVEX. */
static bool opmask(const struct x86_insn *in)
{
    if (in->opcode_len < 2 || in->opcode[0] != 0x0f)
        return false;
    uint8_t op = in->opcode[in->opcode_len - 1];
    if (in->opcode_len == 2)
        return (op >= 0x41 && op <= 0x4b) || (op >= 0x90 && op <= 0x99);
    return in->opcode[1] == 0x3a && op >= 0x30 && op <= 0x33;
}

/* What capstone rejects (the fallback): by the encoding alone. */
static enum x86_feature by_encoding(const struct x86_insn *in)
{
    if (in->prefixes & X86_PFX_VEX) {
        if (in->opcode[0] == 0x8f)
            return X86_FEATURE_XOP;
        return opmask(in) ? X86_FEATURE_AVX512 : X86_FEATURE_AVX;
    }
    return hint_nop(in) ? X86_FEATURE_LONG_NOP : X86_FEATURE_NONE;
}

enum x86_feature x86_feature_of(const struct x86_insn *in, enum x86_mode mode,
                                const uint8_t *groups, unsigned n_groups)
{
    enum x86_feature f;
    if (evex(in, mode))
        return X86_FEATURE_AVX512;
    if (!in->capstone)
        return by_encoding(in);
    if (find_id(id_features, sizeof id_features / sizeof id_features[0], in->id, &f))
        return f;
    f = by_groups(groups, n_groups);
    if (f == X86_FEATURE_MMX)
        find_id(mmx_extensions, sizeof mmx_extensions / sizeof mmx_extensions[0], in->id, &f);
    else if (f == X86_FEATURE_NONE && hint_nop(in))
        f = X86_FEATURE_LONG_NOP;
    return f;
}
