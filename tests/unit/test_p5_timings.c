/* The Pentium timing table (sim/p5/p5_timings.c, docs/p5-timings.md) and
 * its key (sim/common/timing_key.c): the candidate forms in order; exact
 * rows for sized forms, the unsized and the "cl as r" fallbacks, no row for
 * a family or form the table lacks; keys the decoder gives real encodings;
 * and every row well formed: cited, a pairing class, clocks >= 1, a range
 * the right way round, a form of known tokens, found by its own key, no two
 * rows with one key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "isa/x86.h"
#include "sim/common/timing_key.h"
#include "sim/p5/p5_timings.h"

static const struct p5_timing *must_find(const char *family, const char *form)
{
    const struct p5_timing *row = p5_timing_find(family, form);
    assert_non_null(row);
    return row;
}

static void test_candidates_in_order(void **state)
{
    (void)state;
    char out[TIMING_FORM_CANDIDATES][TIMING_FORM_MAX];
    assert_int_equal(timing_form_candidates("r32,cl", out), 3);
    assert_string_equal(out[0], "r32,cl");
    assert_string_equal(out[1], "r,cl");
    assert_string_equal(out[2], "r,r");
    assert_int_equal(timing_form_candidates("r32,m32", out), 2);
    assert_string_equal(out[0], "r32,m32");
    assert_string_equal(out[1], "r,m");
    assert_int_equal(timing_form_candidates("mm,m64", out), 2);
    assert_string_equal(out[1], "mm,m");
    assert_int_equal(timing_form_candidates("m80", out), 2);
    assert_string_equal(out[1], "m");
    assert_int_equal(timing_form_candidates("r64,i", out), 2);
    assert_string_equal(out[1], "r,i");
}

/* Shifts by one and LEA's address shapes fall back in the third candidate. */
static void test_general_candidates(void **state)
{
    (void)state;
    char out[TIMING_FORM_CANDIDATES][TIMING_FORM_MAX];
    assert_int_equal(timing_form_candidates("r32,1", out), 3);
    assert_string_equal(out[1], "r,1");
    assert_string_equal(out[2], "r,i");
    assert_int_equal(timing_form_candidates("r32,as3", out), 3);
    assert_string_equal(out[1], "r,as3");
    assert_string_equal(out[2], "r,m");
    char reg[TIMING_FORM_MAX];
    assert_int_equal(timing_form_memory_as("m32,i", "r", reg), 1);
    assert_string_equal(reg, "r32,i");
    assert_int_equal(timing_form_memory_as("m64", "st", reg), 1);
    assert_string_equal(reg, "st");
    assert_int_equal(timing_form_memory_as("xmm,m128", NULL, reg), 1);
    assert_string_equal(reg, "xmm,xmm");
    assert_int_equal(timing_form_memory_as("m32,r32", NULL, reg), 1);
    assert_string_equal(reg, "r32,r32");
    assert_int_equal(timing_form_memory_as("m8,cl", NULL, reg), 1);
    assert_string_equal(reg, "r8,cl");
    assert_int_equal(timing_form_memory_as("m32,m32", "r", reg), 2);
    assert_string_equal(reg, "r32,r32");
    assert_int_equal(timing_form_memory_as("m32,i", NULL, reg), 0); /* no register to copy */
    assert_int_equal(timing_form_memory_as("r32,r32", "r", reg), 0);
}

static void test_valid_forms(void **state)
{
    (void)state;
    static const char *const valid[] = {"", "r32,m32", "r,m", "xmm,m64", "r32,1", "r32,as3",
                                        "st", "rel", "r,r,cl", "sreg,r16", "x"};
    static const char *const invalid[] = {"r33", "q", "r32,", ",r32", "r32,,m", "xmm m64",
                                          "R32"};
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++)
        assert_true(timing_form_valid(valid[i]));
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++)
        assert_false(timing_form_valid(invalid[i]));
}

static void test_unsized_forms_have_one_candidate(void **state)
{
    (void)state;
    char out[TIMING_FORM_CANDIDATES][TIMING_FORM_MAX];
    static const char *const forms[] = {"", "rel", "st", "st,st", "xmm,xmm", "mm,mm",
                                        "r,m", "sreg", "i,i", "m,r"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        assert_int_equal(timing_form_candidates(forms[i], out), 1);
        assert_string_equal(out[0], forms[i]);
    }
}

static void test_exact_rows(void **state)
{
    (void)state;
    const struct p5_timing *add = must_find("add", "r32,r32");
    assert_int_equal(add->clocks, 1);
    assert_int_equal(add->clocks_max, 1);
    assert_int_equal(add->pairing, X86_P5_UV);
    assert_non_null(strstr(add->source, "ADD"));
    const struct p5_timing *add_mr = must_find("add", "m32,r32");
    assert_int_equal(add_mr->clocks, 3);
    assert_int_equal(must_find("add", "r32,m32")->clocks, 2);
    assert_int_equal(must_find("cmp", "m32,i")->clocks, 2);
    assert_int_equal(must_find("adc", "r32,r32")->pairing, X86_P5_PU);
    assert_int_equal(must_find("jcc", "rel")->pairing, X86_P5_PV);
    assert_int_equal(must_find("movzx", "r32,m8")->clocks, 3);
    assert_int_equal(must_find("movzx", "r32,m8")->pairing, X86_P5_NP);
    assert_int_equal(must_find("imul", "r32,r32,i")->clocks, 10);
    assert_int_equal(must_find("pushfd", "")->clocks, 3);
}

static void test_sized_rows_before_unsized(void **state)
{
    (void)state;
    /* sized rows in the table */
    const struct p5_timing *bsr32 = must_find("bsr", "r32,r32");
    assert_int_equal(bsr32->clocks, 7);
    assert_int_equal(bsr32->clocks_max, 71);
    assert_int_equal(must_find("bsr", "r16,r16")->clocks_max, 39);
    assert_int_equal(must_find("div", "r32")->clocks, 41);
    assert_int_equal(must_find("div", "r16")->clocks, 25);
    assert_int_equal(must_find("div", "m8")->clocks, 17);
    assert_int_equal(must_find("idiv", "m32")->clocks, 46);
    assert_int_equal(must_find("mul", "r8")->clocks, 11);
    assert_int_equal(must_find("fld", "m80")->clocks, 3);
    assert_int_equal(must_find("fld", "m80")->pairing, X86_P5_NP);
    assert_int_equal(must_find("fld", "m64")->pairing, X86_P5_FX);
    assert_int_equal(must_find("fstp", "m80")->clocks, 3);
    /* ... and the unsized ones: fstp m32 is fstp "m" */
    const struct p5_timing *fstp32 = must_find("fstp", "m32");
    assert_string_equal(fstp32->form, "m");
    assert_int_equal(fstp32->clocks, 2);
    const struct p5_timing *mov8 = must_find("mov", "r8,m8");
    assert_string_equal(mov8->form, "r,m");
    assert_ptr_equal(mov8, must_find("mov", "r32,m32"));
    assert_ptr_equal(must_find("push", "r16"), must_find("push", "r32"));
}

static void test_cl_falls_back_to_r(void **state)
{
    (void)state;
    /* a shift by CL has its own row */
    const struct p5_timing *shl = must_find("shl", "r32,cl");
    assert_string_equal(shl->form, "r,cl");
    assert_int_equal(shl->clocks, 4);
    assert_int_equal(shl->pairing, X86_P5_NP);
    assert_int_equal(must_find("rcl", "m32,cl")->clocks_max, 26);
    assert_int_equal(must_find("shld", "m32,r32,cl")->clocks, 5);
    /* ADD AL, CL is an ALU register form */
    const struct p5_timing *add = must_find("add", "r8,cl");
    assert_string_equal(add->form, "r,r");
    assert_ptr_equal(add, must_find("add", "r32,r32"));
}

static void test_missing_rows(void **state)
{
    (void)state;
    assert_null(p5_timing_find("cmovcc", "r32,r32")); /* not a Pentium instruction */
    assert_null(p5_timing_find("addps", "xmm,xmm"));
    assert_null(p5_timing_find("add", "xmm,xmm"));
    assert_null(p5_timing_find("pxor", "xmm,xmm")); /* the SSE2 form of an MMX family */
    assert_null(p5_timing_find("", ""));
    assert_null(p5_timing_find("fld", "r32"));
}

static void test_x87_rows(void **state)
{
    (void)state;
    const struct p5_timing *fadd = must_find("fadd", "m64");
    assert_int_equal(fadd->clocks, 1);
    assert_int_equal(fadd->latency, 3);
    assert_int_equal(fadd->pairing, X86_P5_FX);
    const struct p5_timing *fmul = must_find("fmul", "st");
    assert_int_equal(fmul->clocks, 2);
    assert_int_equal(fmul->latency, 3);
    const struct p5_timing *fdiv = must_find("fdiv", "st,st");
    assert_int_equal(fdiv->by_precision[P5_PRECISION_SINGLE], 19);
    assert_int_equal(fdiv->by_precision[P5_PRECISION_DOUBLE], 33);
    assert_int_equal(fdiv->by_precision[P5_PRECISION_EXTENDED], 39);
    assert_int_equal(fdiv->latency, 39);
    assert_int_equal(fdiv->clocks, 37);
    assert_int_equal(must_find("fidiv", "m16")->by_precision[P5_PRECISION_SINGLE], 22);
    assert_int_equal(must_find("fxch", "st")->pairing, X86_P5_PV);
    assert_int_equal(must_find("fsqrt", "")->latency, 70);
    assert_int_equal(must_find("fild", "m32")->latency, 3);
}

static void test_string_and_mmx_rows(void **state)
{
    (void)state;
    const struct p5_timing *movsd = must_find("movsd", "m32,m32");
    assert_int_equal(movsd->clocks, 4);
    assert_int_equal(movsd->rep_base, 3);
    assert_int_equal(movsd->rep_per, 1);
    assert_int_equal(must_find("scasb", "r8,m8")->rep_per, 4);
    assert_int_equal(must_find("lodsd", "r32,m32")->rep_per, 0);
    assert_null(p5_timing_find("movsd", "xmm,xmm")); /* SSE2's MOVSD */
    const struct p5_timing *paddb = must_find("paddb", "mm,m64");
    assert_int_equal(paddb->mmx_only, 1);
    assert_int_equal(paddb->pairing, X86_P5_PU);
    assert_int_equal(must_find("paddb", "mm,mm")->pairing, X86_P5_UV);
    assert_int_equal(must_find("pmaddwd", "mm,mm")->latency, 3);
    assert_int_equal(must_find("add", "r32,r32")->mmx_only, 0);
}

/* The decoder's key for real encodings finds the row meant. */
static void test_decoded_keys(void **state)
{
    (void)state;
    static const struct {
        uint8_t bytes[4];
        const char *family, *form;
        uint8_t clocks;
    } cases[] = {
        {{0x01, 0xd8}, "add", "r,r", 1},          /* add eax, ebx */
        {{0xd3, 0xe0}, "shl", "r,cl", 4},         /* shl eax, cl */
        {{0xc1, 0xe0, 0x03}, "shl", "r,i", 1},    /* shl eax, 3 */
        {{0x74, 0x05}, "jcc", "rel", 1},          /* je */
        {{0xf7, 0xf3}, "div", "r32", 41},         /* div ebx */
        {{0xd8, 0xf1}, "fdiv", "st", 37},         /* fdiv st, st(1) */
        {{0xdd, 0x03}, "fld", "m64", 1},          /* fld qword [ebx] */
        {{0xa5}, "movsd", "m,m", 4},              /* movsd */
        {{0x0f, 0xfc, 0xc1}, "paddb", "mm,mm", 1}, /* paddb mm0, mm1 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct x86_insn insn;
        assert_true(x86_decode(cases[i].bytes, sizeof cases[i].bytes, 0x1000, X86_MODE_32, &insn));
        const struct p5_timing *row = must_find(insn.family, insn.form);
        assert_string_equal(row->family, cases[i].family);
        assert_string_equal(row->form, cases[i].form);
        assert_int_equal(row->clocks, cases[i].clocks);
    }
    x86_decode_release();
}

/* The settled disagreements (docs/p5-timings.md): TEST with an immediate
 * is NP by its row and in the decoder but for the accumulator form, which
 * shares the key; PUSH imm is NP in both. */
static void test_settled_pairing(void **state)
{
    (void)state;
    static const struct {
        uint8_t bytes[6];
        const char *form;
        uint8_t decoder, row;
    } cases[] = {
        {{0xa9, 0x05, 0, 0, 0}, "r,i", X86_P5_UV, X86_P5_NP},        /* test eax, 5 */
        {{0xf7, 0xc3, 0x05, 0, 0, 0}, "r,i", X86_P5_NP, X86_P5_NP},  /* test ebx, 5 */
        {{0xf7, 0x03, 0x05, 0, 0, 0}, "m,i", X86_P5_NP, X86_P5_NP},  /* test [ebx], 5 */
        {{0x85, 0xd8}, "r,r", X86_P5_UV, X86_P5_UV},                 /* test eax, ebx */
        {{0x6a, 0x05}, "i", X86_P5_NP, X86_P5_NP},                   /* push 5 */
        {{0x68, 0x00, 0x01, 0, 0}, "i", X86_P5_NP, X86_P5_NP},       /* push 0x100 */
        {{0x53}, "r", X86_P5_UV, X86_P5_UV},                         /* push ebx */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct x86_insn insn;
        assert_true(x86_decode(cases[i].bytes, sizeof cases[i].bytes, 0x1000, X86_MODE_32, &insn));
        assert_int_equal(insn.p5_class, cases[i].decoder);
        const struct p5_timing *row = must_find(insn.family, insn.form);
        assert_string_equal(row->form, cases[i].form);
        assert_int_equal(row->pairing, cases[i].row);
    }
    x86_decode_release();
}

static void test_every_row_well_formed(void **state)
{
    (void)state;
    assert_true(p5_timings_count >= 400);
    for (size_t i = 0; i < p5_timings_count; i++) {
        const struct p5_timing *row = &p5_timings[i];
        assert_non_null(row->family);
        assert_true(row->family[0] != '\0');
        assert_non_null(row->form);
        assert_true(timing_form_valid(row->form));
        assert_non_null(row->source);
        assert_true(strlen(row->source) > 4);
        assert_true(row->pairing <= X86_P5_FX);
        assert_true(row->clocks >= 1);
        assert_true(row->clocks_max >= row->clocks);
        assert_true(row->latency == 0 || row->latency >= row->clocks);
        uint8_t extended = row->by_precision[P5_PRECISION_EXTENDED];
        if (extended) { /* the latency at each precision, rising with it */
            assert_int_equal(extended, row->latency);
            assert_true(row->by_precision[P5_PRECISION_SINGLE] <
                        row->by_precision[P5_PRECISION_DOUBLE]);
            assert_true(row->by_precision[P5_PRECISION_DOUBLE] < extended);
        }
        assert_true(row->mmx_only <= 1);
        assert_true(row->rep_per == 0 || row->rep_base > 0);
        /* found by its own key: nothing before it shadows it */
        assert_ptr_equal(p5_timing_find(row->family, row->form), row);
    }
}

static void test_no_two_rows_share_a_key(void **state)
{
    (void)state;
    for (size_t i = 0; i < p5_timings_count; i++)
        for (size_t j = i + 1; j < p5_timings_count; j++)
            assert_false(strcmp(p5_timings[i].family, p5_timings[j].family) == 0 &&
                         strcmp(p5_timings[i].form, p5_timings[j].form) == 0);
}

/* The look-up by family (an index built once) finds what a scan of the
 * whole table in row order finds, for every family of the table with
 * every form of the table, sized forms and forms no row has. */
static const struct p5_timing *scan_table(const char *family, const char *form)
{
    char forms[TIMING_FORM_CANDIDATES][TIMING_FORM_MAX];
    size_t n = timing_form_candidates(form, forms);
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < p5_timings_count; i++)
            if (strcmp(p5_timings[i].family, family) == 0 &&
                strcmp(p5_timings[i].form, forms[k]) == 0)
                return &p5_timings[i];
    return NULL;
}

static void test_index_finds_what_a_scan_finds(void **state)
{
    (void)state;
    static const char *const extra[] = {"r32,r32", "r8,cl", "r32,cl", "m32,i", "r32,m32",
                                        "m80", "m64", "mm,m64", "r16", "xmm,xmm", "r,x"};
    size_t found = 0;
    for (size_t f = 0; f < p5_timings_count; f++) {
        const char *family = p5_timings[f].family;
        for (size_t g = 0; g < p5_timings_count + sizeof extra / sizeof extra[0]; g++) {
            const char *form = g < p5_timings_count ? p5_timings[g].form
                                                    : extra[g - p5_timings_count];
            const struct p5_timing *row = p5_timing_find(family, form);
            assert_ptr_equal(row, scan_table(family, form));
            found += row != NULL;
        }
    }
    assert_true(found > p5_timings_count);
    assert_null(p5_timing_find("aaa_", ""));  /* before, between and after families */
    assert_null(p5_timing_find("zzz", ""));
    assert_null(p5_timing_find("adda", "r,r"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_candidates_in_order),
        cmocka_unit_test(test_general_candidates),
        cmocka_unit_test(test_valid_forms),
        cmocka_unit_test(test_unsized_forms_have_one_candidate),
        cmocka_unit_test(test_exact_rows),
        cmocka_unit_test(test_sized_rows_before_unsized),
        cmocka_unit_test(test_cl_falls_back_to_r),
        cmocka_unit_test(test_missing_rows),
        cmocka_unit_test(test_x87_rows),
        cmocka_unit_test(test_string_and_mmx_rows),
        cmocka_unit_test(test_decoded_keys),
        cmocka_unit_test(test_settled_pairing),
        cmocka_unit_test(test_every_row_well_formed),
        cmocka_unit_test(test_no_two_rows_share_a_key),
        cmocka_unit_test(test_index_finds_what_a_scan_finds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
