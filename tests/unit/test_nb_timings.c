/* The NetBurst timing table (sim/netburst/nb_timings.h,
 * docs/netburst-timings.md): exact rows in half cycles for both CPUID
 * groups, the lookup's fallbacks (sizes dropped, "cl" as "r"), a missing
 * row, the group of each model, and checks over every row: a source, a
 * unit, ranges in order, a form of known tokens, no key twice, each row
 * found under its own key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/netburst/nb_timings.h"

static const struct nb_timing *row(const char *family, const char *form)
{
    const struct nb_timing *t = nb_timing_find(family, form);
    assert_non_null(t);
    return t;
}

static void assert_cell(const struct nb_timing_cell *c, unsigned lat, unsigned lat_max,
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
    const struct nb_timing *t = row("add", "r32,r32");
    assert_string_equal(t->form, "r,r");
    assert_cell(&t->t[NB_TG_0F2N], 1, 1, 1, 1);
    assert_cell(&t->t[NB_TG_0F3N], 2, 2, 1, 1);
    assert_int_equal(t->unit, NB_EU_ALU);
    assert_string_equal(t->source, "Intel opt. manual App. C, ADD");
}

static void test_addsd(void **state)
{
    (void)state;
    const struct nb_timing *t = row("addsd", "xmm,xmm");
    assert_cell(&t->t[NB_TG_0F2N], 8, 8, 4, 4);
    assert_cell(&t->t[NB_TG_0F3N], 10, 10, 4, 4);
    assert_int_equal(t->unit, NB_EU_FP_ADD);
}

/* MMX and SSE2 forms of one instruction are separate rows. */
static void test_paddd_mmx_and_xmm(void **state)
{
    (void)state;
    const struct nb_timing *mm = row("paddd", "mm,mm");
    const struct nb_timing *xmm = row("paddd", "xmm,xmm");
    assert_ptr_not_equal(mm, xmm);
    assert_cell(&mm->t[NB_TG_0F2N], 4, 4, 2, 2);
    assert_cell(&xmm->t[NB_TG_0F2N], 4, 4, 4, 4);
    assert_int_equal(xmm->unit, NB_EU_MMX_ALU);
}

/* The sized form falls back to the unsized row; "cl" falls back to "r". */
static void test_fallbacks(void **state)
{
    (void)state;
    assert_ptr_equal(nb_timing_find("add", "r8,r8"), row("add", "r,r"));
    assert_ptr_equal(nb_timing_find("sub", "r16,i"), row("sub", "r,i"));
    /* "mov al, cl"-style forms: the decoder writes a second-operand CL as "cl" */
    assert_ptr_equal(nb_timing_find("add", "r8,cl"), row("add", "r,r"));
    const struct nb_timing *shl = row("shl", "r32,cl");
    assert_string_equal(shl->form, "r,cl");
    assert_int_equal(shl->unit, NB_EU_INT);
    assert_int_equal(shl->t[NB_TG_0F2N].latency, 8);
    assert_int_equal(shl->t[NB_TG_0F3N].latency, 2);
}

static void test_missing_rows(void **state)
{
    (void)state;
    assert_null(nb_timing_find("nosuch", ""));
    assert_null(nb_timing_find("add", ""));
    assert_null(nb_timing_find("nosuch", "xmm,m64"));
}

/* Intel publishes register forms only: a memory form is timed by its
 * register form's row (its load and store are uops of their own). */
static void test_memory_forms(void **state)
{
    (void)state;
    assert_ptr_equal(nb_timing_find("addsd", "xmm,m64"), nb_timing_find("addsd", "xmm,xmm"));
    assert_ptr_equal(nb_timing_find("add", "m32,r32"), nb_timing_find("add", "r32,r32"));
    assert_ptr_equal(nb_timing_find("add", "r32,m32"), nb_timing_find("add", "r32,r32"));
    assert_ptr_equal(nb_timing_find("add", "m32,i"), nb_timing_find("add", "r32,i"));
    assert_ptr_equal(nb_timing_find("shl", "m32,cl"), nb_timing_find("shl", "r32,cl"));
    assert_ptr_equal(nb_timing_find("fadd", "m64"), nb_timing_find("fadd", "st"));
    assert_non_null(nb_timing_find("fadd", "m64"));
    assert_null(nb_timing_find("addsd", "m64,m64"));
}

/* A range is kept as its two ends; the two groups differ. */
static void test_div_ranges(void **state)
{
    (void)state;
    const struct nb_timing *t = row("div", "r32");
    assert_cell(&t->t[NB_TG_0F2N], 112, 140, 46, 46);
    assert_cell(&t->t[NB_TG_0F3N], 132, 160, 60, 60);
    assert_int_equal(t->unit, NB_EU_COMPLEX);
}

/* One printed figure is the 0F2n column's; an SSE3 row is 0F3n only. */
static void test_one_column_rows(void **state)
{
    (void)state;
    const struct nb_timing *call = row("call", "rel");
    assert_cell(&call->t[NB_TG_0F2N], 10, 10, 2, 2);
    assert_cell(&call->t[NB_TG_0F3N], 0, 0, 0, 0);
    assert_int_equal(call->unit, NB_EU_BRANCH);
    const struct nb_timing *hadd = row("haddpd", "xmm,xmm");
    assert_cell(&hadd->t[NB_TG_0F2N], 0, 0, 0, 0);
    assert_cell(&hadd->t[NB_TG_0F3N], 26, 26, 8, 8);
    /* "-" for 0F3n with both columns printed */
    const struct nb_timing *imul = row("imul", "r32,r32,i");
    assert_cell(&imul->t[NB_TG_0F2N], 28, 28, 6, 6);
    assert_cell(&imul->t[NB_TG_0F3N], 0, 0, 2, 2);
    assert_int_equal(imul->unit, NB_EU_MUL);
}

static void test_x87_forms(void **state)
{
    (void)state;
    assert_ptr_not_equal(row("fadd", "st"), row("fadd", "st,st"));
    const struct nb_timing *fdiv = row("fdiv", "st");
    /* the extended-precision row */
    assert_cell(&fdiv->t[NB_TG_0F2N], 86, 86, 86, 86);
    assert_cell(&fdiv->t[NB_TG_0F3N], 88, 88, 88, 88);
    assert_int_equal(fdiv->unit, NB_EU_FP_DIV);
    assert_int_equal(row("fxch", "st")->unit, NB_EU_FP_MOVE);
}

static void test_group_of_model(void **state)
{
    (void)state;
    assert_int_equal(nb_timing_group_of(0), NB_TG_0F2N);
    assert_int_equal(nb_timing_group_of(1), NB_TG_0F2N);
    assert_int_equal(nb_timing_group_of(2), NB_TG_0F2N);
    assert_int_equal(nb_timing_group_of(3), NB_TG_0F3N);
    assert_int_equal(nb_timing_group_of(4), NB_TG_0F3N);
    assert_int_equal(nb_timing_group_of(5), NB_TG_0F3N);
    assert_int_equal(nb_timing_group_of(6), NB_TG_0F3N);
}

static bool known_token(const char *tok, size_t len)
{
    static const char *const tokens[] = {"r8",  "r16", "r32", "r64", "r",  "m8",  "m16",
                                         "m32", "m64", "m80", "m128", "m", "i",   "cl",
                                         "st",  "mm",  "xmm", "sreg", "rel"};
    for (size_t i = 0; i < sizeof tokens / sizeof tokens[0]; i++)
        if (strlen(tokens[i]) == len && strncmp(tokens[i], tok, len) == 0)
            return true;
    return false;
}

static bool known_form(const char *form)
{
    if (!*form)
        return true;
    for (const char *p = form;; p++) {
        size_t len = strcspn(p, ",");
        if (!known_token(p, len))
            return false;
        p += len;
        if (!*p)
            return true;
    }
}

static bool published(const struct nb_timing_cell *c)
{
    return c->latency || c->latency_max || c->throughput || c->throughput_max;
}

static void check_row(const struct nb_timing *t)
{
    assert_non_null(t->family);
    assert_true(t->family[0] != '\0');
    assert_true(strspn(t->family, "abcdefghijklmnopqrstuvwxyz0123456789") == strlen(t->family));
    assert_true(known_form(t->form));
    assert_non_null(t->source);
    assert_true(strncmp(t->source, "Intel opt. manual App. C, ", 26) == 0);
    assert_true(strlen(t->source) > 26);
    assert_true(t->unit < NB_NUM_EXEC_UNITS);
    bool any = false;
    for (int g = 0; g < NB_NUM_TIMING_GROUPS; g++) {
        const struct nb_timing_cell *c = &t->t[g];
        assert_true(c->latency_max >= c->latency);
        assert_true(c->throughput_max >= c->throughput);
        any = any || published(c);
    }
    assert_true(any);
}

static void test_every_row(void **state)
{
    (void)state;
    assert_true(nb_timings_count > 300);
    for (size_t i = 0; i < nb_timings_count; i++) {
        const struct nb_timing *t = &nb_timings[i];
        check_row(t);
        for (size_t j = i + 1; j < nb_timings_count; j++)
            assert_false(strcmp(t->family, nb_timings[j].family) == 0 &&
                         strcmp(t->form, nb_timings[j].form) == 0);
        assert_ptr_equal(nb_timing_find(t->family, t->form), t);
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
        cmocka_unit_test(test_group_of_model),
        cmocka_unit_test(test_every_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
