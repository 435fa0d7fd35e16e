/* The checks of `pmubench decode` (pmu/catalog/explain.c, docs/decode.md): each
 * fires, with its exact text and kind, on a value built for it by hand from
 * the SDM field layouts (pmu/catalog/netburst_fields.h), and a clean value gives no
 * problem. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>


#include "pmu/catalog/explain.h"
#include "pmu/catalog/netburst_msrs.h"

static const struct nb_pmu_config HT = {.model = 2, .ht = true};
static const struct nb_pmu_config NOHT = {.model = 2, .ht = false};
static const struct nb_pmu_config M1 = {.model = 1, .ht = true};
static const struct nb_pmu_config M3 = {.model = 3, .ht = true};

/* The Pentium 4 monitoring study, section 9.1: branch_retired MMTP|MMTM, T0_USR (0x0c001804) on
 * CRU_ESCR3; CCCR ENABLE, select 5, AT 11, COMPARE, THRESHOLD 2
 * (0x0027b000) on counter 14. */
#define BR_ESCR 0x0c001804ull
#define BR_CCCR 0x0027b000ull
#define CCCR_SEL5 0x0003b000ull

static struct nb_explain_input none(void)
{
    return (struct nb_explain_input){.escr_index = -1, .counter = -1};
}

static struct nb_explain_input escr_on(int index, uint64_t escr)
{
    struct nb_explain_input in = none();
    in.has_escr = true;
    in.escr = escr;
    in.escr_index = index;
    return in;
}

static struct nb_explain_input cccr_on(int counter, uint64_t cccr)
{
    struct nb_explain_input in = none();
    in.has_cccr = true;
    in.cccr = cccr;
    in.counter = counter;
    return in;
}

static void dump(const struct explain_problems *r)
{
    for (int i = 0; i < r->n; i++)
        print_error("  %s: %s\n", r->problems[i].error ? "error" : "warning",
                    r->problems[i].text);
}

static void expect_clean(const struct nb_explain_input *in, const struct nb_pmu_config *config)
{
    struct explain_problems r;
    nb_explain_check(in, config, &r);
    if (r.n)
        dump(&r);
    assert_int_equal(r.n, 0);
    assert_false(explain_has_errors(&r));
    assert_false(explain_has_warnings(&r));
}

/* Exactly the problems given, in order: (error?, text) pairs. */
static void expect_problems(const struct explain_problems *r, int n, ...)
{
    if (r->n != n)
        dump(r);
    assert_int_equal(r->n, n);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        int error = va_arg(ap, int);
        const char *text = va_arg(ap, const char *);
        assert_string_equal(r->problems[i].text, text);
        assert_int_equal(r->problems[i].error, error);
    }
    va_end(ap);
}

#define ERR 1
#define WARN 0

static void check1(const struct nb_explain_input *in, const struct nb_pmu_config *config, int error,
                   const char *text)
{
    struct explain_problems r;
    nb_explain_check(in, config, &r);
    expect_problems(&r, 1, error, text);
    assert_int_equal(explain_has_errors(&r), error);
    assert_int_equal(explain_has_warnings(&r), !error);
}

/* ---- which ESCR */

static void test_decode_escr(void **state)
{
    (void)state;
    struct nb_explain_input in = cccr_on(14, BR_CCCR);
    assert_int_equal(nb_explain_escr(&in, &HT), NB_ESCR_CRU3); /* counter 14, select 5 */
    in = cccr_on(12, CCCR_SEL5);
    assert_int_equal(nb_explain_escr(&in, &HT), NB_ESCR_CRU2);
    in = cccr_on(8, 0x00033000); /* select 1 on FLAME_COUNTER0: FIRM_ESCR0 */
    assert_int_equal(nb_explain_escr(&in, &HT), NB_ESCR_FIRM0);
    in = cccr_on(14, 0x00035000); /* select 2 on IQ_COUNTER2: RAT_ESCR1 */
    assert_int_equal(nb_explain_escr(&in, &HT), NB_ESCR_RAT1);
    in = cccr_on(14, 0x00039000); /* select 4: CRU_ESCR1 */
    assert_int_equal(nb_explain_escr(&in, &HT), NB_ESCR_CRU1);
    in = cccr_on(12, 0x00031000); /* select 0: IQ_ESCR0, models 0-2 only */
    assert_int_equal(nb_explain_escr(&in, &HT), NB_ESCR_IQ0);
    assert_int_equal(nb_explain_escr(&in, &M3), -1);
    in = cccr_on(12, 0x0003f000); /* select 7: BSU_ESCR0/1, counters 0-3 only */
    assert_int_equal(nb_explain_escr(&in, &HT), -1);
    /* An explicit ESCR wins over the routing. */
    in.escr_index = NB_ESCR_CRU3;
    assert_int_equal(nb_explain_escr(&in, &HT), NB_ESCR_CRU3);
    /* No counter, or no CCCR: unknown. */
    in = cccr_on(-1, CCCR_SEL5);
    assert_int_equal(nb_explain_escr(&in, &HT), -1);
    in = none();
    in.counter = 12;
    assert_int_equal(nb_explain_escr(&in, &HT), -1);
}

/* ---- clean values */

static void test_clean(void **state)
{
    (void)state;
    struct nb_explain_input in = escr_on(NB_ESCR_CRU3, BR_ESCR);
    in.has_cccr = true;
    in.cccr = BR_CCCR;
    in.counter = 14;
    expect_clean(&in, &HT);
    expect_clean(&in, &NOHT);
    in.escr_index = -1; /* routed from counter 14 */
    expect_clean(&in, &HT);

    /* Section 9.4 of the Pentium 4 monitoring study, with its PEBS MSRs. */
    in = escr_on(NB_ESCR_CRU2, 0x1200020c);
    in.has_cccr = in.has_pebs_enable = in.has_matrix_vert = true;
    in.cccr = CCCR_SEL5;
    in.counter = 12;
    in.pebs_enable = 0x01000001;
    in.matrix_vert = 0x1;
    expect_clean(&in, &HT);

    /* The upstream of section 9.3 (the Pentium 4 monitoring study) on FIRM_ESCR0 (tag bits on an upstream event). */
    in = escr_on(NB_ESCR_FIRM0, 0x09000034);
    in.has_cccr = true;
    in.cccr = 0x00033000;
    in.counter = 8;
    expect_clean(&in, &NOHT);

    /* instr_completed on model 3; bit 11 on IQ_CCCR0 of model 2. */
    in = escr_on(NB_ESCR_CRU0, 0x0e00020c);
    expect_clean(&in, &M3);
    in = cccr_on(12, 0x0003b800);
    expect_clean(&in, &HT);
    /* CASCADE alone; a stopped CCCR (0) without HT is legal. */
    in = cccr_on(14, 0x4003a000);
    expect_clean(&in, &HT);
    in = escr_on(NB_ESCR_CRU3, 0x0c00180c);
    expect_clean(&in, &NOHT);
}

/* ---- ESCR checks */

static void test_escr_checks(void **state)
{
    (void)state;
    struct nb_explain_input in = escr_on(NB_ESCR_CRU3, BR_ESCR | 0x80000000ull);
    check1(&in, &HT, ERR, "reserved ESCR bits set: 0x80000000 (#GP)");
    in = escr_on(NB_ESCR_CRU3, BR_ESCR | (1ull << 32));
    check1(&in, &HT, ERR, "reserved ESCR bits set: 0x100000000 (#GP)");

    in = escr_on(NB_ESCR_CRU3, BR_ESCR | 0x1); /* T1_USR */
    check1(&in, &NOHT, ERR,
           "T1_OS/T1_USR set on a processor without Hyper-Threading (reserved: #GP)");
    in = escr_on(NB_ESCR_CRU3, BR_ESCR | 0x2); /* T1_OS */
    check1(&in, &NOHT, ERR,
           "T1_OS/T1_USR set on a processor without Hyper-Threading (reserved: #GP)");
    expect_clean(&in, &HT);

    in = escr_on(NB_ESCR_IQ0, 0x0000020cull);
    check1(&in, &M3, ERR, "MSR_IQ_ESCR0 does not exist on model 3 (IQ_ESCR0/1: models 0-2 only)");
    in = escr_on(NB_ESCR_IQ1, 0x0000020cull);
    check1(&in, &M3, ERR, "MSR_IQ_ESCR1 does not exist on model 3 (IQ_ESCR0/1: models 0-2 only)");

    /* Select 3FH on CRU_ESCR2 (0x7e000000), NBOGUS, T0. */
    in = escr_on(NB_ESCR_CRU2, 0x7e00020cull);
    check1(&in, &HT, ERR,
           "event select 0x3f is not defined on MSR_CRU_ESCR2 (defined there: front_end_event "
           "0x08, execution_event 0x0c, replay_event 0x09, branch_retired 0x06, x87_assist "
           "0x03, machine_clear 0x02)");
    in = escr_on(NB_ESCR_ALF0, 0x18000204ull); /* execution_event's select on ALF_ESCR0 */
    check1(&in, &NOHT, ERR,
           "event select 0x0c is not defined on MSR_ALF_ESCR0 (defined there: resource_stall "
           "0x01)");

    in = escr_on(NB_ESCR_CRU0, 0x0e00020cull); /* instr_completed 07H, NBOGUS */
    check1(&in, &HT, ERR, "instr_completed does not exist on model 2");

    in = escr_on(NB_ESCR_CRU3, 0x0c00200cull); /* branch_retired mask bit 4 */
    check1(&in, &HT, ERR, "event mask bits 0x0010 are not defined by branch_retired");
    in = escr_on(NB_ESCR_CRU3, 0x0c00380cull); /* bits 2, 3 and 4 */
    check1(&in, &HT, ERR, "event mask bits 0x0010 are not defined by branch_retired");
    in = escr_on(NB_ESCR_RAT1, 0x04000205ull); /* 9.2's uop_type in the Pentium 4 monitoring study's command line: bit 0 */
    check1(&in, &HT, ERR, "event mask bits 0x0001 are not defined by uop_type");

    in = escr_on(NB_ESCR_CRU3, 0x0c00000cull);
    check1(&in, &HT, WARN, "no sub-event selected (event mask 0): the ESCR detects nothing");

    in = escr_on(NB_ESCR_CRU3, BR_ESCR | 0x30); /* tag value 1, tag enable */
    check1(&in, &HT, WARN,
           "tag enable/value set on branch_retired, which is not an execution-tagging upstream "
           "event");
    in = escr_on(NB_ESCR_CRU3, BR_ESCR | 0x100); /* tag value 8 without enable */
    check1(&in, &HT, WARN,
           "tag enable/value set on branch_retired, which is not an execution-tagging upstream "
           "event");

    in = escr_on(NB_ESCR_CRU3, 0x0c001800ull);
    check1(&in, &HT, WARN, "no T0_OS/T0_USR/T1_OS/T1_USR bit set: counts nothing");
}

/* The "defined there" list of an ESCR with many events must not be cut
 * off: FSB_ESCR1 has eight. */
static void test_escr_event_list_complete(void **state)
{
    (void)state;
    struct nb_explain_input in = escr_on(NB_ESCR_FSB1, 0x7e000201ull);
    check1(&in, &HT, ERR,
           "event select 0x3f is not defined on MSR_FSB_ESCR1 (defined there: IOQ_allocation "
           "0x03, IOQ_active_entries 0x1a, FSB_data_activity 0x17, global_power_events 0x13, "
           "b2b_cycles 0x16, bnr 0x08, snoop 0x06, response 0x04)");
}

static void test_escr_several_problems(void **state)
{
    (void)state;
    /* The command-line upstream 0x18008035 of section 9.3 (the Pentium 4 monitoring study) on FIRM_ESCR0, no
     * HT: select 0CH = packed_DP_uop, mask bit 6, tag 0001, T0_USR|T1_USR. */
    struct nb_explain_input in = escr_on(NB_ESCR_FIRM0, 0x18008035ull);
    struct explain_problems r;
    nb_explain_check(&in, &NOHT, &r);
    expect_problems(&r, 2, ERR,
                    "T1_OS/T1_USR set on a processor without Hyper-Threading (reserved: #GP)",
                    ERR, "event mask bits 0x0040 are not defined by packed_DP_uop");
    nb_explain_check(&in, &HT, &r);
    expect_problems(&r, 1, ERR, "event mask bits 0x0040 are not defined by packed_DP_uop");
}

/* ---- CCCR checks */

static void test_cccr_checks(void **state)
{
    (void)state;
    struct nb_explain_input in = cccr_on(13, 0x0003b800ull); /* IQ_CCCR1: no bit 11 */
    check1(&in, &HT, ERR,
           "bit 11 (extended cascading) exists only on IQ_CCCR0/3/4/5 of models 2, 3, 4 and 6 "
           "(#GP)");
    in = cccr_on(12, 0x0003b800ull); /* IQ_CCCR0 of model 1 */
    check1(&in, &M1, ERR,
           "bit 11 (extended cascading) exists only on IQ_CCCR0/3/4/5 of models 2, 3, 4 and 6 "
           "(#GP)");
    in = cccr_on(-1, 0x0003b800ull); /* counter unknown */
    check1(&in, &HT, ERR,
           "bit 11 (extended cascading) exists only on IQ_CCCR0/3/4/5 of models 2, 3, 4 and 6 "
           "(#GP)");

    in = cccr_on(12, 0x0803b000ull);
    check1(&in, &NOHT, ERR, "OVF_PMI_T1 set on a processor without Hyper-Threading (reserved: #GP)");
    expect_clean(&in, &HT);

    in = cccr_on(12, CCCR_SEL5 | 0x1);
    check1(&in, &HT, ERR, "reserved CCCR bits set: 0x1 (#GP)");
    in = cccr_on(12, CCCR_SEL5 | 0x30000000ull);
    check1(&in, &HT, ERR, "reserved CCCR bits set: 0x30000000 (#GP)");
    in = cccr_on(12, CCCR_SEL5 | (1ull << 40));
    check1(&in, &HT, ERR, "reserved CCCR bits set: 0x10000000000 (#GP)");

    in = cccr_on(12, 0x0002b000ull); /* AT 10 */
    check1(&in, &NOHT, ERR, "ACTIVE_THREAD must be 11 on a processor without Hyper-Threading (#GP)");
    expect_clean(&in, &HT);
    in = cccr_on(12, 0x0000b000ull); /* AT 00 */
    check1(&in, &NOHT, ERR, "ACTIVE_THREAD must be 11 on a processor without Hyper-Threading (#GP)");

    const char *no_compare =
        "THRESHOLD, COMPLEMENT or EDGE set while COMPARE is clear: they have no effect";
    in = cccr_on(14, 0x0023b000ull); /* threshold 2 */
    check1(&in, &HT, WARN, no_compare);
    in = cccr_on(14, 0x000bb000ull); /* complement */
    check1(&in, &HT, WARN, no_compare);
    in = cccr_on(14, 0x0103b000ull); /* edge */
    check1(&in, &HT, WARN, no_compare);
    in = cccr_on(14, 0x0107b000ull); /* edge with compare */
    expect_clean(&in, &HT);

    in = cccr_on(14, 0x4003b000ull);
    check1(&in, &HT, WARN,
           "CASCADE together with ENABLE: the counter counts from the start, so the cascade "
           "does nothing");
    in = cccr_on(14, 0x0003a000ull);
    check1(&in, &HT, WARN, "neither ENABLE nor CASCADE set: the counter does not count");

    in = cccr_on(12, 0x0003f000ull); /* select 7 */
    check1(&in, &HT, ERR, "ESCR select 7 reaches no ESCR from MSR_IQ_COUNTER0");
    in = cccr_on(12, 0x00031000ull); /* select 0: IQ_ESCR0, gone on model 3 */
    check1(&in, &M3, ERR, "ESCR select 0 reaches no ESCR from MSR_IQ_COUNTER0");
    expect_clean(&in, &HT);

    in = escr_on(NB_ESCR_CRU3, BR_ESCR);
    in.has_cccr = true;
    in.cccr = BR_CCCR;
    in.counter = 12;
    check1(&in, &HT, ERR,
           "MSR_CRU_ESCR3 is unreachable from MSR_IQ_COUNTER0 with ESCR select 5 (that select "
           "reads MSR_CRU_ESCR2)");
}

/* ---- PEBS */

static struct nb_explain_input pebs(uint64_t enable, bool has_vert, uint64_t vert, int counter)
{
    struct nb_explain_input in = none();
    in.has_pebs_enable = true;
    in.pebs_enable = enable;
    in.has_matrix_vert = has_vert;
    in.matrix_vert = vert;
    in.counter = counter;
    return in;
}

static void test_pebs_checks(void **state)
{
    (void)state;
    const char *bit25 = "IA32_PEBS_ENABLE bit 25 (ENABLE_PEBS) set: precise sampling, not just "
                        "replay tagging; the Pentium 4 monitoring study (section 9.4) reports suspicious counts with it";
    const char *no_metric =
        "IA32_PEBS_ENABLE/MSR_PEBS_MATRIX_VERT match no replay-tagging metric of the SDM's table";

    struct nb_explain_input in = pebs(0x01000001, true, 0x1, -1);
    expect_clean(&in, &HT);
    in = pebs(0x01000001, false, 0, -1);
    expect_clean(&in, &HT);
    in = pebs(0x01018000, true, 0x10, -1); /* Tagged_mispred_branch */
    expect_clean(&in, &HT);
    in = pebs(0x01000400, true, 0x2, -1); /* split_store_retired */
    expect_clean(&in, &HT);

    in = pebs(0x03000001, true, 0x1, 12);
    check1(&in, &HT, WARN, bit25);
    in = pebs(0x03000001, true, 0x1, -1);
    check1(&in, &HT, WARN, bit25);
    in = pebs(0x03000001, true, 0x1, 16); /* PEBS proper, on IQ_COUNTER4 */
    expect_clean(&in, &HT);

    in = pebs(0x00000001, true, 0x1, -1);
    check1(&in, &HT, WARN, "replay-tagging metric bits set without bit 24 (UOP_TAG): nothing is tagged");

    in = pebs(0x01000001, true, 0x2, -1); /* bit 0 with vertical bit 1: no metric */
    check1(&in, &HT, WARN, no_metric);
    /* Several metrics together, their bits ORed (encode's
     * replay_event:L1_LD_MISS:L2_LD_MISS): 1stL and 2ndL. */
    in = pebs(0x01000003, false, 0, -1);
    expect_clean(&in, &HT);
    in = pebs(0x01000003, true, 0x1, -1);
    expect_clean(&in, &HT);
    in = pebs(0x01000003, true, 0x2, -1); /* neither fits vertical bit 1 alone */
    check1(&in, &HT, WARN, no_metric);
    in = pebs(0x01000003, true, 0x3, -1); /* vertical bit 1 that no metric present asks for */
    check1(&in, &HT, WARN, no_metric);

    /* Reserved: bit 20 (and, being a metric bit, it matches no metric). */
    in = pebs(0x01100001, true, 0x1, -1);
    struct explain_problems r;
    nb_explain_check(&in, &HT, &r);
    expect_problems(&r, 2, ERR, "reserved IA32_PEBS_ENABLE bits set: 0x100000 (#GP)", WARN,
                    no_metric);
    /* Bit 26 (ENABLE_PEBS_OTH_THR) exists only with HT. */
    in = pebs(0x05000001, true, 0x1, 16);
    nb_explain_check(&in, &HT, &r);
    assert_false(explain_has_errors(&r));
    nb_explain_check(&in, &NOHT, &r);
    assert_true(r.n >= 1);
    assert_string_equal(r.problems[0].text, "reserved IA32_PEBS_ENABLE bits set: 0x4000000 (#GP)");
    assert_true(r.problems[0].error);

    in = none();
    in.has_matrix_vert = true;
    in.matrix_vert = 0x4;
    check1(&in, &HT, ERR, "reserved MSR_PEBS_MATRIX_VERT bits set: 0x4 (#GP)");
    in.matrix_vert = 0x13; /* bits 0, 1, 4 */
    expect_clean(&in, &HT);
}

/* ---- P5 CESR: ES0 5:0, CC0 8:6, PC0 9, ES1 21:16, CC1 24:22, PC1 25 */

static void p5_check1(uint64_t cesr, int error, const char *text)
{
    struct explain_problems r;
    p5_explain_check(cesr, &r);
    expect_problems(&r, 1, error, text);
}

static void test_p5_checks(void **state)
{
    (void)state;
    struct explain_problems r;
    p5_explain_check(0x00c300c3, &r); /* data_read_miss at any CPL on both */
    assert_int_equal(r.n, 0);
    p5_explain_check(0x02c302c3, &r); /* PC0 and PC1 */
    assert_int_equal(r.n, 0);
    p5_explain_check(0x01d001d0, &r); /* clocks: the code does not matter */
    assert_int_equal(r.n, 0);

    p5_check1(0x00c304c3, ERR, "reserved CESR bits set: 0x400 (bits 15:10 and 63:26)");
    p5_check1(0x04c300c3, ERR, "reserved CESR bits set: 0x4000000 (bits 15:10 and 63:26)");
    p5_check1(0x00c3c0c3ull | (1ull << 40), ERR,
              "reserved CESR bits set: 0x1000000c000 (bits 15:10 and 63:26)");
    p5_check1(0x00c30003, WARN, "CC0 = 000: counter 0 is disabled");
    p5_check1(0x00c30103, WARN, "CC0 = 100: counter 0 is disabled");
    p5_check1(0x000300c3, WARN, "CC1 = 000: counter 1 is disabled");
    p5_check1(0x010300c3, WARN, "CC1 = 100: counter 1 is disabled");
    p5_check1(0x00c300d0, ERR, "ES0 = 0x10 is not a defined P5 event code");
    p5_check1(0x00c30051, ERR, "ES0 = 0x11 is not a defined P5 event code");
    p5_check1(0x00ea00c3, ERR, "ES1 = 0x2a is not a defined P5 event code");
    p5_check1(0x00e000c3, ERR, "ES1 = 0x20 is not a defined P5 event code");

    p5_explain_check(0, &r);
    expect_problems(&r, 2, WARN, "CC0 = 000: counter 0 is disabled", WARN,
                    "CC1 = 000: counter 1 is disabled");
    assert_false(explain_has_errors(&r));
    assert_true(explain_has_warnings(&r));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_escr),
        cmocka_unit_test(test_clean),
        cmocka_unit_test(test_escr_checks),
        cmocka_unit_test(test_escr_event_list_complete),
        cmocka_unit_test(test_escr_several_problems),
        cmocka_unit_test(test_cccr_checks),
        cmocka_unit_test(test_pebs_checks),
        cmocka_unit_test(test_p5_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
