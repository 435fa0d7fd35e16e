/* The CPUID feature each instruction needs (isa/x86_feature.c): the
 * decoder's classification of instruction bytes in 32- and 64-bit mode,
 * and x86_feature_present() against the parts' views, the host view's
 * masks and hand-made views. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "isa/x86.h"
#include "traces/cpu_view.h"

/* ---- classification */

struct case_ {
    const char *hex;          /* the bytes, two hex digits each, spaces between */
    enum x86_feature feature;
    const char *mnemonic;     /* capstone's; "(fallback)" for what it rejects */
};

static size_t parse_hex(const char *hex, uint8_t *bytes)
{
    size_t n = 0;
    for (const char *p = hex; *p;) {
        char *end;
        bytes[n++] = (uint8_t)strtoul(p, &end, 16);
        p = end;
        while (*p == ' ')
            p++;
    }
    return n;
}

static void expect_cases(enum x86_mode mode, const struct case_ *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t bytes[16];
        size_t size = parse_hex(cases[i].hex, bytes);
        struct x86_insn insn;
        if (!x86_decode(bytes, size, 0x1000, mode, &insn))
            fail_msg("%s: does not decode", cases[i].hex);
        if (insn.feature != cases[i].feature || strcmp(insn.mnemonic, cases[i].mnemonic) != 0)
            fail_msg("%d-bit %s: %s %s, expected %s %s", (int)mode, cases[i].hex, insn.mnemonic,
                     x86_feature_name((enum x86_feature)insn.feature), cases[i].mnemonic,
                     x86_feature_name(cases[i].feature));
        assert_int_equal(insn.length, size);
    }
}

static const struct case_ both_modes[] = {
    {"0f 44 c3", X86_FEATURE_CMOV, "cmove"},
    {"da c9", X86_FEATURE_CMOV, "fcmove"},
    {"db f1", X86_FEATURE_CMOV, "fcomi"},
    {"df e9", X86_FEATURE_CMOV, "fucomip"},
    {"0f 6f c1", X86_FEATURE_MMX, "movq"},
    {"0f 77", X86_FEATURE_MMX, "emms"},
    {"0f 70 c1 00", X86_FEATURE_SSE, "pshufw"},       /* SSE's MMX-register forms */
    {"0f d4 c1", X86_FEATURE_SSE2, "paddq"},          /* and SSE2's */
    {"66 0f d4 c1", X86_FEATURE_SSE2, "paddq"},
    {"0f 58 c1", X86_FEATURE_SSE, "addps"},
    {"0f 18 00", X86_FEATURE_SSE, "prefetchnta"},
    {"66 0f 58 c1", X86_FEATURE_SSE2, "addpd"},
    {"f2 0f 7c c1", X86_FEATURE_SSE3, "haddps"},
    {"66 0f 38 00 c1", X86_FEATURE_SSSE3, "pshufb"},
    {"66 0f 3a 0f c1 08", X86_FEATURE_SSSE3, "palignr"},
    {"66 0f 3a 17 c0 00", X86_FEATURE_SSE4_1, "extractps"},
    {"66 0f 3a 63 c1 00", X86_FEATURE_SSE4_2, "pcmpistri"},
    {"c5 fc 58 c1", X86_FEATURE_AVX, "vaddps"},
    {"c4 e2 79 dc c1", X86_FEATURE_AVX, "vaesenc"},   /* avx and aes: the VEX form's AVX */
    {"c5 fd fe c1", X86_FEATURE_AVX2, "vpaddd"},
    {"c4 e2 71 a8 c2", X86_FEATURE_FMA, "vfmadd213ps"},
    {"62 f1 75 48 fe c2", X86_FEATURE_AVX512, "vpaddd"},
    {"c4 e2 70 f2 c3", X86_FEATURE_BMI1, "andn"},
    {"f3 0f bc c3", X86_FEATURE_NONE, "tzcnt"},        /* BSF without BMI1 */
    {"c4 e2 73 f5 c3", X86_FEATURE_BMI2, "pdep"},
    {"66 0f 38 f6 c1", X86_FEATURE_ADX, "adcx"},
    {"66 0f 38 dc c1", X86_FEATURE_AES, "aesenc"},
    {"66 0f 3a 44 c1 00", X86_FEATURE_PCLMULQDQ, "pclmulqdq"},
    {"0f 38 c8 c1", X86_FEATURE_SHA, "sha1nexte"},
    {"c4 e2 79 13 c1", X86_FEATURE_F16C, "vcvtph2ps"},
    {"0f 0f c1 9e", X86_FEATURE_3DNOW, "pfadd"},
    {"f2 0f 79 c1", X86_FEATURE_SSE4A, "insertq"},
    {"8f e9 78 e1 c1", X86_FEATURE_XOP, "vphsubbw"},
    {"c4 e3 71 68 c2 30", X86_FEATURE_FMA4, "vfmaddps"},
    {"0f 01 d5", X86_FEATURE_RTM, "xend"},
    {"0f 01 d6", X86_FEATURE_RTM, "xtest"},
    {"f3 0f b8 c3", X86_FEATURE_POPCNT, "popcnt"},
    {"f3 0f bd c3", X86_FEATURE_LZCNT, "lzcnt"},
    {"0f 38 f0 03", X86_FEATURE_MOVBE, "movbe"},
    {"0f c7 f0", X86_FEATURE_RDRAND, "rdrand"},
    {"0f c7 f8", X86_FEATURE_RDSEED, "rdseed"},
    {"0f 31", X86_FEATURE_TSC, "rdtsc"},
    {"0f 01 f9", X86_FEATURE_RDTSCP, "rdtscp"},
    {"0f c7 0b", X86_FEATURE_CX8, "cmpxchg8b"},
    {"0f ae 38", X86_FEATURE_CLFSH, "clflush"},
    {"66 0f ae 38", X86_FEATURE_CLFLUSHOPT, "clflushopt"},
    {"0f ae 00", X86_FEATURE_FXSR, "fxsave"},
    {"0f ae 08", X86_FEATURE_FXSR, "fxrstor"},
    {"0f ae 20", X86_FEATURE_XSAVE, "xsave"},
    {"0f 01 d0", X86_FEATURE_XSAVE, "xgetbv"},
    {"0f ae 30", X86_FEATURE_XSAVEOPT, "xsaveopt"},
    {"0f c7 20", X86_FEATURE_XSAVEC, "xsavec"},
    {"0f 05", X86_FEATURE_SYSCALL, "syscall"},
    {"0f 34", X86_FEATURE_SEP, "sysenter"},
    {"0f 01 c8", X86_FEATURE_MONITOR, "monitor"},
    {"0f 0d 08", X86_FEATURE_PRFCHW, "prefetchw"},
    {"0f 1f 40 00", X86_FEATURE_LONG_NOP, "nop"},
    {"66 0f 1f 44 00 00", X86_FEATURE_LONG_NOP, "nop"},
    {"0f 19 00", X86_FEATURE_LONG_NOP, "nop"},
    {"f3 0f 1e fb", X86_FEATURE_LONG_NOP, "endbr32"},
    {"90", X86_FEATURE_NONE, "nop"},
    {"f3 90", X86_FEATURE_NONE, "pause"},
    {"01 d8", X86_FEATURE_NONE, "add"},
    {"0f a2", X86_FEATURE_NONE, "cpuid"},
    {"d8 c1", X86_FEATURE_NONE, "fadd"},
    /* HLE's prefix is ignored (the mnemonic is cut at 15 characters) */
    {"f2 f0 01 03", X86_FEATURE_NONE, "xacquire lock a"},
    /* capstone rejects these (the fallback): VEX opmask, EVEX compare into k0 */
    {"c5 fb 93 c0", X86_FEATURE_AVX512, "(fallback)"},
    {"62 f1 7d 48 74 c1", X86_FEATURE_AVX512, "(fallback)"},
};

static const struct case_ only_64[] = {
    {"48 0f 44 c3", X86_FEATURE_CMOV, "cmove"},
    {"48 0f c7 0e", X86_FEATURE_CX16, "cmpxchg16b"},
    {"48 0f ae 00", X86_FEATURE_FXSR, "fxsave64"},
    {"f2 48 0f 2a c0", X86_FEATURE_SSE2, "cvtsi2sd"},
    {"66 48 0f 6e c0", X86_FEATURE_SSE2, "movq"},
    {"f3 48 0f ae c0", X86_FEATURE_FSGSBASE, "rdfsbase"},
    {"62 f1 7c 08 58 c1", X86_FEATURE_AVX512, "vaddps"},   /* EVEX xmm: AVX512VL */
    {"c5 f9 92 c0", X86_FEATURE_AVX512, "kmovb"},
    {"66 2e 0f 1f 84 00 00 00 00 00", X86_FEATURE_LONG_NOP, "nop"},
    {"f3 0f 1e fa", X86_FEATURE_LONG_NOP, "endbr64"},
    {"48 01 d8", X86_FEATURE_NONE, "add"},
};

static const struct case_ only_32[] = {
    {"0f f7 c1", X86_FEATURE_SSE, "maskmovq"},    /* not in 64-bit mode for capstone */
    {"8f e9 78 01 c9", X86_FEATURE_TBM, "blcfill"},
    {"0f 35", X86_FEATURE_SEP, "sysexit"},
};

static void test_classify_32(void **state)
{
    (void)state;
    expect_cases(X86_MODE_32, both_modes, sizeof both_modes / sizeof both_modes[0]);
    expect_cases(X86_MODE_32, only_32, sizeof only_32 / sizeof only_32[0]);
}

static void test_classify_64(void **state)
{
    (void)state;
    expect_cases(X86_MODE_64, both_modes, sizeof both_modes / sizeof both_modes[0]);
    expect_cases(X86_MODE_64, only_64, sizeof only_64 / sizeof only_64[0]);
}

/* ---- names */

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(x86_feature_name(X86_FEATURE_NONE), "none");
    assert_string_equal(x86_feature_name(X86_FEATURE_CMOV), "CMOV");
    assert_string_equal(x86_feature_name(X86_FEATURE_SSE4_1), "SSE4.1");
    assert_string_equal(x86_feature_name(X86_FEATURE_AVX512), "AVX-512");
    assert_string_equal(x86_feature_name(X86_FEATURE_3DNOW), "3DNow!");
    assert_string_equal(x86_feature_name(X86_FEATURE_LONG_NOP), "long NOP");
    assert_string_equal(x86_feature_name(X86_FEATURE_COUNT), "?");
    for (int f = 0; f < X86_FEATURE_COUNT; f++)
        assert_true(x86_feature_name((enum x86_feature)f)[0] != '?');
}

/* ---- presence */

static void named(const char *name, int bits, struct cpu_view *view)
{
    char error[256];
    if (!cpu_view_named(name, bits, view, error, sizeof error))
        fail_msg("%s", error);
}

/* The features of `present` present in `view`, those of `absent` not. */
static void expect_view(const struct cpu_view *view, const enum x86_feature *present,
                        size_t n_present, const enum x86_feature *absent, size_t n_absent)
{
    for (size_t i = 0; i < n_present; i++)
        if (!x86_feature_present(present[i], view))
            fail_msg("%s: %s absent", view->name, x86_feature_name(present[i]));
    for (size_t i = 0; i < n_absent; i++)
        if (x86_feature_present(absent[i], view))
            fail_msg("%s: %s present", view->name, x86_feature_name(absent[i]));
}

#define EXPECT_VIEW(view, present, absent) \
    expect_view(view, present, sizeof present / sizeof present[0], absent, \
                sizeof absent / sizeof absent[0])

static void test_p5(void **state)
{
    (void)state;
    struct cpu_view view;
    named("p5", 32, &view);
    static const enum x86_feature present[] = {X86_FEATURE_NONE, X86_FEATURE_TSC,
                                               X86_FEATURE_CX8};
    static const enum x86_feature absent[] = {
        X86_FEATURE_CMOV, X86_FEATURE_MMX, X86_FEATURE_SSE, X86_FEATURE_SSE2,
        X86_FEATURE_FXSR, X86_FEATURE_SEP, X86_FEATURE_SYSCALL, X86_FEATURE_LONG_NOP,
        X86_FEATURE_3DNOW, X86_FEATURE_BMI1, X86_FEATURE_CLFSH};
    EXPECT_VIEW(&view, present, absent);
}

static void test_pmmx(void **state)
{
    (void)state;
    struct cpu_view view;
    named("pmmx", 32, &view);
    static const enum x86_feature present[] = {X86_FEATURE_MMX, X86_FEATURE_TSC,
                                               X86_FEATURE_CX8};
    static const enum x86_feature absent[] = {X86_FEATURE_CMOV, X86_FEATURE_SSE,
                                              X86_FEATURE_LONG_NOP, X86_FEATURE_FXSR};
    EXPECT_VIEW(&view, present, absent);
}

static void test_northwood(void **state)
{
    (void)state;
    struct cpu_view view;
    named("netburst", 32, &view);
    static const enum x86_feature present[] = {
        X86_FEATURE_CMOV, X86_FEATURE_MMX, X86_FEATURE_SSE, X86_FEATURE_SSE2,
        X86_FEATURE_FXSR, X86_FEATURE_SEP, X86_FEATURE_CLFSH, X86_FEATURE_LONG_NOP};
    static const enum x86_feature absent[] = {
        X86_FEATURE_SSE3, X86_FEATURE_MONITOR, X86_FEATURE_BMI1, X86_FEATURE_FSGSBASE,
        X86_FEATURE_RTM, X86_FEATURE_AVX2, X86_FEATURE_SYSCALL, X86_FEATURE_RDTSCP,
        X86_FEATURE_LZCNT, X86_FEATURE_XSAVEOPT, X86_FEATURE_POPCNT};
    EXPECT_VIEW(&view, present, absent);
}

static void test_prescott(void **state)
{
    (void)state;
    struct cpu_view view;
    named("netburst-prescott", 32, &view);
    static const enum x86_feature present[] = {X86_FEATURE_SSE2, X86_FEATURE_SSE3,
                                               X86_FEATURE_MONITOR, X86_FEATURE_LONG_NOP};
    static const enum x86_feature absent[] = {X86_FEATURE_SSSE3, X86_FEATURE_CX16,
                                              X86_FEATURE_SYSCALL, X86_FEATURE_XSAVE};
    EXPECT_VIEW(&view, present, absent);
    named("netburst-prescott4", 32, &view);
    static const enum x86_feature present4[] = {X86_FEATURE_SSE3, X86_FEATURE_CX16};
    static const enum x86_feature absent4[] = {X86_FEATURE_SSSE3, X86_FEATURE_SYSCALL};
    EXPECT_VIEW(&view, present4, absent4);
    named("netburst-prescott4", 64, &view); /* SYSCALL in 64-bit mode */
    static const enum x86_feature present64[] = {X86_FEATURE_SYSCALL, X86_FEATURE_CX16};
    static const enum x86_feature absent64[] = {X86_FEATURE_RDTSCP, X86_FEATURE_LZCNT};
    EXPECT_VIEW(&view, present64, absent64);
}

/* A 64-bit program's P5: the x86-64 baseline added, still family 5. */
static void test_p5_widened(void **state)
{
    (void)state;
    struct cpu_view view;
    named("p5", 64, &view);
    assert_true(cpu_view_widen_64(&view));
    /* with long mode, the long NOP (every processor with it has it) */
    static const enum x86_feature present[] = {X86_FEATURE_CMOV, X86_FEATURE_MMX,
                                               X86_FEATURE_SSE, X86_FEATURE_SSE2,
                                               X86_FEATURE_FXSR, X86_FEATURE_SYSCALL,
                                               X86_FEATURE_LONG_NOP};
    static const enum x86_feature absent[] = {X86_FEATURE_SSE3, X86_FEATURE_RDTSCP,
                                              X86_FEATURE_CX16, X86_FEATURE_LZCNT};
    EXPECT_VIEW(&view, present, absent);
}

/* The host view keeps what the recorder executes (traces/cpu_view.c's
 * masks), whatever this machine has. */
static void test_host(void **state)
{
    (void)state;
    struct cpu_view view;
    cpu_view_host(64, &view);
    static const enum x86_feature present[] = {X86_FEATURE_CMOV, X86_FEATURE_SSE2,
                                               X86_FEATURE_SYSCALL, X86_FEATURE_LONG_NOP};
    static const enum x86_feature absent[] = {X86_FEATURE_AVX512, X86_FEATURE_SHA,
                                              X86_FEATURE_ADX, X86_FEATURE_RDSEED,
                                              X86_FEATURE_XSAVEOPT, X86_FEATURE_XSAVEC,
                                              X86_FEATURE_RTM, X86_FEATURE_3DNOW};
    EXPECT_VIEW(&view, present, absent);
    cpu_view_host(32, &view);
    static const enum x86_feature present32[] = {X86_FEATURE_CMOV, X86_FEATURE_SSE2,
                                                 X86_FEATURE_LONG_NOP};
    static const enum x86_feature absent32[] = {X86_FEATURE_SSE4_1, X86_FEATURE_AVX,
                                                X86_FEATURE_AVX2, X86_FEATURE_BMI1,
                                                X86_FEATURE_RDTSCP, X86_FEATURE_SYSCALL,
                                                X86_FEATURE_POPCNT};
    EXPECT_VIEW(&view, present32, absent32);
}

#define ANY CPUID_ANY_SUBLEAF

static void set_view(struct cpu_view *view, const char *name, const struct cpuid_leaf *leaves,
                     uint32_t n)
{
    memset(view, 0, sizeof *view);
    snprintf(view->name, sizeof view->name, "%s", name);
    view->n = n;
    memcpy(view->leaves, leaves, n * sizeof *leaves);
}

/* The rows' leaves, registers and bits: an Intel view with some flags of
 * each leaf set (present) and their neighbours clear (absent), and an AMD
 * one with AMD's flags (AMD answers zeros past the maximum). */
static const struct cpuid_leaf modern[] = {
    {0, ANY, {0xd, 0x756e6547u, 0x6c65746eu, 0x49656e69u}},
    /* SSE3 (0), PCLMULQDQ (1), SSSE3 (9), FMA (12), SSE4.2 (20), AVX (28);
     * family 6; CMOV (15), SSE2 (26) */
    {1, ANY, {0x000306c3u, 0, 1u | 1u << 1 | 1u << 9 | 1u << 12 | 1u << 20 | 1u << 28,
              1u << 15 | 1u << 26}},
    {7, 0, {0, 1u << 3 | 1u << 5 | 1u << 29, 0, 0}},   /* BMI1, AVX2, SHA */
    {0xd, 0, {7, 832, 832, 0}},
    {0xd, 1, {1u << 1, 0, 0, 0}},                       /* XSAVEC */
    {0x80000000u, ANY, {0x80000001u, 0, 0, 0}},
    {0x80000001u, ANY, {0, 0, 1u << 5, 1u << 27}},      /* LZCNT, RDTSCP */
};

static const struct cpuid_leaf amd[] = {
    {0, ANY, {1, 0x68747541u, 0x444d4163u, 0x69746e65u}}, /* AuthenticAMD, max 1 */
    {1, ANY, {0x00000f48u, 0xffffffffu, 0, 1u << 15}},   /* family 15; CMOV */
    {0x80000000u, ANY, {0x80000001u, 0, 0, 0}},
    {0x80000001u, ANY, {0, 0, 1u << 6 | 1u << 11, 1u << 31}}, /* SSE4A, XOP, 3DNow! */
};

static void test_bits(void **state)
{
    (void)state;
    struct cpu_view view;
    set_view(&view, "modern", modern, sizeof modern / sizeof modern[0]);
    static const enum x86_feature present[] = {
        X86_FEATURE_SSE3, X86_FEATURE_PCLMULQDQ, X86_FEATURE_SSSE3, X86_FEATURE_FMA,
        X86_FEATURE_SSE4_2, X86_FEATURE_AVX, X86_FEATURE_CMOV, X86_FEATURE_SSE2,
        X86_FEATURE_BMI1, X86_FEATURE_AVX2, X86_FEATURE_SHA, X86_FEATURE_XSAVEC,
        X86_FEATURE_LZCNT, X86_FEATURE_RDTSCP, X86_FEATURE_LONG_NOP};
    static const enum x86_feature absent[] = {
        X86_FEATURE_SSE4_1, X86_FEATURE_MOVBE, X86_FEATURE_MMX, X86_FEATURE_SSE,
        X86_FEATURE_BMI2, X86_FEATURE_AVX512, X86_FEATURE_XSAVEOPT, X86_FEATURE_XSAVES,
        X86_FEATURE_SYSCALL, X86_FEATURE_PRFCHW, X86_FEATURE_SSE4A};
    EXPECT_VIEW(&view, present, absent);
    set_view(&view, "amd", amd, sizeof amd / sizeof amd[0]);
    static const enum x86_feature present_amd[] = {X86_FEATURE_CMOV, X86_FEATURE_SSE4A,
                                                   X86_FEATURE_XOP, X86_FEATURE_3DNOW,
                                                   X86_FEATURE_LONG_NOP};
    static const enum x86_feature absent_amd[] = {X86_FEATURE_FMA4, X86_FEATURE_TBM,
                                                  X86_FEATURE_BMI1, X86_FEATURE_SSE3};
    EXPECT_VIEW(&view, present_amd, absent_amd);
}

/* An Intel view answers a leaf past its maximum with its highest basic
 * leaf (cpu_view_answer): here leaf 1, whose EBX (brand index 8, CLFLUSH
 * line size 8: bits 3 and 11) would say BMI1 and RTM in leaf 7, and whose
 * EAX bit 0 XSAVEOPT in leaf 0xD, were the maximum not checked first. */
static void test_past_maximum(void **state)
{
    (void)state;
    static const struct cpuid_leaf leaves[] = {
        {0, ANY, {1, 0x756e6547u, 0x6c65746eu, 0x49656e69u}},
        {1, ANY, {0x00000f13u, 0x00010808u, 0, 1u << 15}},
    };
    struct cpu_view view;
    set_view(&view, "max1", leaves, 2);
    assert_true(cpu_view_answer(&view, 7, 0).ebx & (1u << 3 | 1u << 11));
    assert_true(cpu_view_answer(&view, 0xd, 1).eax & 1u);
    static const enum x86_feature present[] = {X86_FEATURE_CMOV, X86_FEATURE_LONG_NOP};
    static const enum x86_feature absent[] = {X86_FEATURE_BMI1, X86_FEATURE_RTM,
                                              X86_FEATURE_XSAVEOPT, X86_FEATURE_SYSCALL,
                                              X86_FEATURE_LZCNT};
    EXPECT_VIEW(&view, present, absent);
}

/* A view without leaves (a trace from before views): nothing is lacking. */
static void test_no_view(void **state)
{
    (void)state;
    struct cpu_view view;
    memset(&view, 0, sizeof view);
    for (int f = 0; f < X86_FEATURE_COUNT; f++)
        assert_true(x86_feature_present((enum x86_feature)f, &view));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classify_32), cmocka_unit_test(test_classify_64),
        cmocka_unit_test(test_names),       cmocka_unit_test(test_p5),
        cmocka_unit_test(test_pmmx),        cmocka_unit_test(test_northwood),
        cmocka_unit_test(test_prescott),    cmocka_unit_test(test_p5_widened),
        cmocka_unit_test(test_host),        cmocka_unit_test(test_bits),
        cmocka_unit_test(test_past_maximum), cmocka_unit_test(test_no_view),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    x86_decode_release();
    return failed;
}
