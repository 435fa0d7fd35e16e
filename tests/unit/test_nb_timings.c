/* The NetBurst timing table (sim/netburst/nbm_timings.h,
 * docs/netburst-timings.md): exact rows in half cycles for both CPUID
 * groups, Intel's, InstLatX64's and derived ones, the lookup's fallbacks
 * (sizes dropped, "cl" as "r", memory operands as registers), a missing
 * row, the group of each model, and checks over every row: a source of a
 * known kind, a unit, ranges in order, a form of known tokens, no key
 * twice, each row found under its own key, and each derived row a copy of
 * the published row it names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/common/timing_key.h"
#include "sim/netburst/nbm_timings.h"

static const struct nbm_timing *row(const char *family, const char *form)
{
    const struct nbm_timing *t = nbm_timing_find(family, form);
    assert_non_null(t);
    return t;
}

static void assert_cell(const struct nbm_timing_cell *c, unsigned lat, unsigned lat_max,
                        unsigned thr, unsigned thr_max)
{
    assert_int_equal(c->latency, lat);
    assert_int_equal(c->latency_max, lat_max);
    assert_int_equal(c->throughput, thr);
    assert_int_equal(c->throughput_max, thr_max);
}

/* ADD: 0.5 cycle on the 0F2n double-speed ALU, 1 cycle on 0F3n. */
static void test_add_register_form(void **state)
{
    (void)state;
    const struct nbm_timing *t = row("add", "r32,r32");
    assert_string_equal(t->form, "r,r");
    assert_cell(&t->t[NBM_TG_0F2N], 1, 1, 1, 1);
    assert_cell(&t->t[NBM_TG_0F3N], 2, 2, 1, 1);
    assert_int_equal(t->unit, NBM_EU_ALU);
    assert_string_equal(t->source, "Intel opt. manual App. C, ADD");
}

static void test_addsd(void **state)
{
    (void)state;
    const struct nbm_timing *t = row("addsd", "xmm,xmm");
    assert_cell(&t->t[NBM_TG_0F2N], 8, 8, 4, 4);
    assert_cell(&t->t[NBM_TG_0F3N], 10, 10, 4, 4);
    assert_int_equal(t->unit, NBM_EU_FP_ADD);
}

/* MMX and SSE2 forms of one instruction are separate rows. */
static void test_paddd_mmx_and_xmm(void **state)
{
    (void)state;
    const struct nbm_timing *mm = row("paddd", "mm,mm");
    const struct nbm_timing *xmm = row("paddd", "xmm,xmm");
    assert_ptr_not_equal(mm, xmm);
    assert_cell(&mm->t[NBM_TG_0F2N], 4, 4, 2, 2);
    assert_cell(&xmm->t[NBM_TG_0F2N], 4, 4, 4, 4);
    assert_int_equal(xmm->unit, NBM_EU_MMX_ALU);
}

/* The sized form falls back to the unsized row; "cl" falls back to "r". */
static void test_fallbacks(void **state)
{
    (void)state;
    assert_ptr_equal(nbm_timing_find("add", "r8,r8"), row("add", "r,r"));
    assert_ptr_equal(nbm_timing_find("sub", "r16,i"), row("sub", "r,i"));
    /* "mov al, cl"-style forms: the decoder writes a second-operand CL as "cl" */
    assert_ptr_equal(nbm_timing_find("add", "r8,cl"), row("add", "r,r"));
    const struct nbm_timing *shl = row("shl", "r32,cl");
    assert_string_equal(shl->form, "r,cl");
    assert_int_equal(shl->unit, NBM_EU_INT);
    assert_int_equal(shl->t[NBM_TG_0F2N].latency, 8);
    assert_int_equal(shl->t[NBM_TG_0F3N].latency, 2);
}

static void test_missing_rows(void **state)
{
    (void)state;
    assert_null(nbm_timing_find("nosuch", ""));
    assert_null(nbm_timing_find("add", ""));
    assert_null(nbm_timing_find("nosuch", "xmm,m64"));
}

/* Intel publishes register forms only: a memory form is timed by its
 * register form's row (its load and store are uops of their own). */
static void test_memory_forms(void **state)
{
    (void)state;
    assert_ptr_equal(nbm_timing_find("addsd", "xmm,m64"), nbm_timing_find("addsd", "xmm,xmm"));
    assert_ptr_equal(nbm_timing_find("add", "m32,r32"), nbm_timing_find("add", "r32,r32"));
    assert_ptr_equal(nbm_timing_find("add", "r32,m32"), nbm_timing_find("add", "r32,r32"));
    assert_ptr_equal(nbm_timing_find("add", "m32,i"), nbm_timing_find("add", "r32,i"));
    assert_ptr_equal(nbm_timing_find("shl", "m32,cl"), nbm_timing_find("shl", "r32,cl"));
    assert_ptr_equal(nbm_timing_find("fadd", "m64"), nbm_timing_find("fadd", "st"));
    assert_non_null(nbm_timing_find("fadd", "m64"));
    assert_null(nbm_timing_find("addsd", "m64,m64"));
}

/* A range is kept as its two ends; the two groups differ. */
static void test_div_ranges(void **state)
{
    (void)state;
    const struct nbm_timing *t = row("div", "r32");
    assert_cell(&t->t[NBM_TG_0F2N], 112, 140, 46, 46);
    assert_cell(&t->t[NBM_TG_0F3N], 132, 160, 60, 60);
    assert_int_equal(t->unit, NBM_EU_COMPLEX);
}

/* One printed figure is the 0F2n column's; an SSE3 row is 0F3n only. */
static void test_one_column_rows(void **state)
{
    (void)state;
    const struct nbm_timing *call = row("call", "rel");
    assert_cell(&call->t[NBM_TG_0F2N], 10, 10, 2, 2);
    assert_cell(&call->t[NBM_TG_0F3N], 0, 0, 0, 0);
    assert_int_equal(call->unit, NBM_EU_BRANCH);
    const struct nbm_timing *hadd = row("haddpd", "xmm,xmm");
    assert_cell(&hadd->t[NBM_TG_0F2N], 0, 0, 0, 0);
    assert_cell(&hadd->t[NBM_TG_0F3N], 26, 26, 8, 8);
    /* "-" for 0F3n with both columns printed */
    const struct nbm_timing *imul = row("imul", "r32,r32,i");
    assert_cell(&imul->t[NBM_TG_0F2N], 28, 28, 6, 6);
    assert_cell(&imul->t[NBM_TG_0F3N], 0, 0, 2, 2);
    assert_int_equal(imul->unit, NBM_EU_MUL);
}

static void test_x87_forms(void **state)
{
    (void)state;
    assert_ptr_not_equal(row("fadd", "st"), row("fadd", "st,st"));
    const struct nbm_timing *fdiv = row("fdiv", "st");
    /* the extended-precision row */
    assert_cell(&fdiv->t[NBM_TG_0F2N], 86, 86, 86, 86);
    assert_cell(&fdiv->t[NBM_TG_0F3N], 88, 88, 88, 88);
    assert_int_equal(fdiv->unit, NBM_EU_FP_DIV);
    assert_int_equal(row("fxch", "st")->unit, NBM_EU_FP_MOVE);
}

/* Rows beyond appendix C, measured by InstLatX64 (0F29, 0F43), rounded to
 * half cycles. */
static void test_instlatx64_rows(void **state)
{
    (void)state;
    const struct nbm_timing *mov = row("mov", "r32,r32");
    assert_string_equal(mov->form, "r,r");
    assert_cell(&mov->t[NBM_TG_0F2N], 1, 1, 1, 1);
    assert_cell(&mov->t[NBM_TG_0F3N], 2, 2, 1, 1);
    assert_int_equal(mov->unit, NBM_EU_ALU);
    assert_string_equal(mov->source, "InstLatX64 0F29/0F43, MOV r32, r32");
    /* a load: 2 cycles on Northwood, 4 on Prescott */
    const struct nbm_timing *load = row("mov", "r32,m32");
    assert_string_equal(load->form, "r,m");
    assert_cell(&load->t[NBM_TG_0F2N], 4, 4, 2, 2);
    assert_cell(&load->t[NBM_TG_0F3N], 8, 8, 2, 2);
    assert_int_equal(load->unit, NBM_EU_LOAD);
    /* a store: throughput 1.75 and 1.83 cycles, no latency */
    const struct nbm_timing *store = row("mov", "m32,r32");
    assert_cell(&store->t[NBM_TG_0F2N], 0, 0, 4, 4);
    assert_cell(&store->t[NBM_TG_0F3N], 0, 0, 4, 4);
    assert_int_equal(store->unit, NBM_EU_STORE);
    assert_ptr_equal(nbm_timing_find("mov", "m8,cl"), store);
    assert_ptr_equal(nbm_timing_find("mov", "m32,i"), row("mov", "r,i"));
    /* LEA by its address's shape: 0.5 to 5 cycles on Northwood, 1 to 3 on Prescott */
    assert_cell(&row("lea", "r32,a")->t[NBM_TG_0F2N], 1, 1, 1, 1);
    assert_cell(&row("lea", "r32,a3")->t[NBM_TG_0F2N], 2, 2, 1, 1);
    assert_cell(&row("lea", "r32,as")->t[NBM_TG_0F2N], 8, 8, 2, 2);
    assert_cell(&row("lea", "r32,as3")->t[NBM_TG_0F2N], 10, 10, 2, 2);
    assert_cell(&row("lea", "r32,as3")->t[NBM_TG_0F3N], 6, 6, 3, 3);
    assert_null(nbm_timing_find("lea", "r32,m32"));
    const struct nbm_timing *cmov = row("cmovcc", "r32,r32");
    assert_cell(&cmov->t[NBM_TG_0F2N], 12, 12, 2, 2);
    assert_cell(&cmov->t[NBM_TG_0F3N], 19, 19, 1, 1);
    assert_int_equal(cmov->unit, NBM_EU_COMPLEX);
    const struct nbm_timing *shld = row("shld", "r32,r32,cl");
    assert_string_equal(shld->form, "r,r,cl");
    assert_cell(&shld->t[NBM_TG_0F2N], 16, 16, 8, 8);
    assert_cell(&shld->t[NBM_TG_0F3N], 18, 18, 16, 16);
    assert_cell(&row("lahf", "")->t[NBM_TG_0F2N], 207, 207, 207, 207);
    assert_cell(&row("cdq", "")->t[NBM_TG_0F3N], 1, 1, 1, 1);
}

/* The string MOVSD and CMPSD are not SSE2's MOVSD and CMPSD. */
static void test_string_and_sse_forms(void **state)
{
    (void)state;
    const struct nbm_timing *string = row("movsd", "m32,m32");
    assert_cell(&string->t[NBM_TG_0F2N], 12, 12, 12, 12);
    assert_cell(&string->t[NBM_TG_0F3N], 16, 16, 16, 16);
    assert_int_equal(string->unit, NBM_EU_COMPLEX);
    assert_ptr_equal(nbm_timing_find("movsd", "xmm,m64"), row("movsd", "xmm,xmm"));
    assert_ptr_equal(nbm_timing_find("movsd", "m64,xmm"), row("movsd", "xmm,xmm"));
    assert_ptr_not_equal(row("cmpsd", "m8,m8"), row("cmpsd", "xmm,xmm"));
    assert_cell(&row("cmpsd", "xmm,xmm")->t[NBM_TG_0F3N], 10, 10, 4, 4);
}

/* Derived rows copy the published row they name. */
static void test_derived_rows(void **state)
{
    (void)state;
    const struct nbm_timing *jmp = row("jmp", "rel");
    assert_memory_equal(jmp->t, row("jcc", "rel")->t, sizeof jmp->t);
    assert_int_equal(jmp->unit, NBM_EU_BRANCH);
    assert_ptr_not_equal(row("jmp", "r32"), jmp);
    const struct nbm_timing *fld = row("fld", "st");
    assert_memory_equal(fld->t, row("movq", "mm,mm")->t, sizeof fld->t);
    assert_int_equal(fld->unit, NBM_EU_FP_MOVE);
    assert_ptr_equal(nbm_timing_find("fld", "m64"), fld);
    assert_ptr_equal(nbm_timing_find("fstp", "m80"), row("fstp", "st"));
    assert_memory_equal(row("fsubrp", "st")->t, row("fsubp", "st")->t, sizeof fld->t);
    assert_memory_equal(row("fdivr", "m64")->t, row("fdiv", "st")->t, sizeof fld->t);
    /* FCOMI: FCOM's latency, InstLatX64's throughput (3 and 2.17 cycles) */
    const struct nbm_timing *fcomi = row("fucomip", "st");
    assert_cell(&fcomi->t[NBM_TG_0F2N], 4, 4, 6, 6);
    assert_cell(&fcomi->t[NBM_TG_0F3N], 6, 6, 4, 4);
    assert_true(strncmp(fcomi->source, "derived: ", 9) == 0);
    const struct nbm_timing *fild = row("fild", "m32");
    assert_memory_equal(fild->t, row("cvtdq2ps", "xmm,xmm")->t, sizeof fild->t);
}

/* A lone memory operand stands for the register kind the instruction
 * takes there: a general register, an XMM or an MMX register. */
static void test_memory_operand_kinds(void **state)
{
    (void)state;
    assert_ptr_equal(nbm_timing_find("cvtsi2sd", "xmm,m32"), row("cvtsi2sd", "xmm,r32"));
    assert_ptr_equal(nbm_timing_find("cvttsd2si", "r32,m64"), row("cvttsd2si", "r32,xmm"));
    assert_ptr_equal(nbm_timing_find("cvtpi2pd", "xmm,m64"), row("cvtpi2pd", "xmm,mm"));
    assert_ptr_equal(nbm_timing_find("pop", "m32"), row("pop", "r32"));
    assert_null(nbm_timing_find("pop", "m32,m32"));
    assert_null(nbm_timing_find("cvtsi2sd", "m32,m32"));
}

static void test_group_of_model(void **state)
{
    (void)state;
    assert_int_equal(nbm_timing_group_of(0), NBM_TG_0F2N);
    assert_int_equal(nbm_timing_group_of(1), NBM_TG_0F2N);
    assert_int_equal(nbm_timing_group_of(2), NBM_TG_0F2N);
    assert_int_equal(nbm_timing_group_of(3), NBM_TG_0F3N);
    assert_int_equal(nbm_timing_group_of(4), NBM_TG_0F3N);
    assert_int_equal(nbm_timing_group_of(5), NBM_TG_0F3N);
    assert_int_equal(nbm_timing_group_of(6), NBM_TG_0F3N);
}

static bool published(const struct nbm_timing_cell *c)
{
    return c->latency || c->latency_max || c->throughput || c->throughput_max;
}

static const char *const published_sources[] = {"Intel opt. manual App. C, ",
                                                 "InstLatX64 0F29/0F43, "};

/* The length of the published source's name SOURCE begins with, or 0. */
static size_t cited_length(const char *source)
{
    for (size_t i = 0; i < sizeof published_sources / sizeof published_sources[0]; i++)
        if (strncmp(source, published_sources[i], strlen(published_sources[i])) == 0)
            return strlen(published_sources[i]);
    return 0;
}

static bool derived(const struct nbm_timing *t)
{
    return strncmp(t->source, "derived: ", 9) == 0;
}

/* The published row whose source is CITATION (up to a ";"), or NULL. */
static const struct nbm_timing *published_row(const char *citation)
{
    size_t len = strcspn(citation, ";");
    for (size_t i = 0; i < nbm_timings_count; i++) {
        const struct nbm_timing *t = &nbm_timings[i];
        if (!derived(t) && strlen(t->source) == len && strncmp(t->source, citation, len) == 0)
            return t;
    }
    return NULL;
}

/* A derived row names the published row it copies after "from ": one of
 * the table's own (then the row's latencies, and throughputs unless
 * another source gives them, are that row's, and so is its unit), or an
 * InstLatX64 measurement of an instruction the table times otherwise. */
static void check_derived(const struct nbm_timing *t)
{
    const char *from = strstr(t->source, "; from ");
    assert_non_null(from);
    from += 7;
    assert_true(cited_length(from) > 0);
    const struct nbm_timing *copied = published_row(from);
    if (strncmp(from, published_sources[0], strlen(published_sources[0])) == 0)
        assert_non_null(copied);
    if (!copied)
        return;
    bool own_throughput = strstr(t->source, "; throughput from ") != NULL;
    for (int g = 0; g < NBM_NUM_TIMING_GROUPS; g++) {
        assert_int_equal(t->t[g].latency, copied->t[g].latency);
        assert_int_equal(t->t[g].latency_max, copied->t[g].latency_max);
        if (!own_throughput) {
            assert_int_equal(t->t[g].throughput, copied->t[g].throughput);
            assert_int_equal(t->t[g].throughput_max, copied->t[g].throughput_max);
        }
    }
    assert_int_equal(t->unit, copied->unit);
}

static void check_row(const struct nbm_timing *t)
{
    assert_non_null(t->family);
    assert_true(t->family[0] != '\0');
    assert_true(strspn(t->family, "abcdefghijklmnopqrstuvwxyz0123456789") == strlen(t->family));
    assert_true(timing_form_valid(t->form));
    assert_non_null(t->source);
    size_t cited = cited_length(t->source);
    assert_true(cited > 0 || derived(t));
    assert_true(strlen(t->source) > (derived(t) ? 9 : cited));
    assert_true(t->unit < NBM_NUM_EXEC_UNITS);
    bool any = false;
    for (int g = 0; g < NBM_NUM_TIMING_GROUPS; g++) {
        const struct nbm_timing_cell *c = &t->t[g];
        assert_true(c->latency_max >= c->latency);
        assert_true(c->throughput_max >= c->throughput);
        any = any || published(c);
    }
    assert_true(any);
}

static void test_every_row(void **state)
{
    (void)state;
    assert_true(nbm_timings_count > 300);
    for (size_t i = 0; i < nbm_timings_count; i++) {
        const struct nbm_timing *t = &nbm_timings[i];
        check_row(t);
        if (derived(t))
            check_derived(t);
        for (size_t j = i + 1; j < nbm_timings_count; j++)
            assert_false(strcmp(t->family, nbm_timings[j].family) == 0 &&
                         strcmp(t->form, nbm_timings[j].form) == 0);
        assert_ptr_equal(nbm_timing_find(t->family, t->form), t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_register_form),
        cmocka_unit_test(test_addsd),
        cmocka_unit_test(test_paddd_mmx_and_xmm),
        cmocka_unit_test(test_fallbacks),
        cmocka_unit_test(test_missing_rows),
        cmocka_unit_test(test_memory_forms),
        cmocka_unit_test(test_div_ranges),
        cmocka_unit_test(test_one_column_rows),
        cmocka_unit_test(test_x87_forms),
        cmocka_unit_test(test_instlatx64_rows),
        cmocka_unit_test(test_string_and_sse_forms),
        cmocka_unit_test(test_derived_rows),
        cmocka_unit_test(test_memory_operand_kinds),
        cmocka_unit_test(test_group_of_model),
        cmocka_unit_test(test_every_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
