/* escr_qualifies() and escr_detect(): docs/semantics.md, "Detector (ESCR)". */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>

#include "pmu/emulated/escr_detector.h"
#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_fields.h"

#define T1_USR ESCR_T1_USR
#define T1_OS ESCR_T1_OS
#define T0_USR ESCR_T0_USR
#define T0_OS ESCR_T0_OS
#define MASK(bits) ((uint64_t)(bits) << ESCR_EVENT_MASK_SHIFT)
#define SELECT(s) ((uint64_t)(s) << ESCR_EVENT_SELECT_SHIFT)

static struct nb_occurrence occ(int thread, int cpl0, int cpl1, uint16_t mask, uint32_t count)
{
    struct nb_occurrence o = {0};
    o.event = 0;
    o.mask = mask;
    o.thread = (uint8_t)thread;
    o.cpl[0] = (uint8_t)cpl0;
    o.cpl[1] = (uint8_t)cpl1;
    o.count = count;
    return o;
}

/* ---- thread-specific: SDM-old Table 18-29 */

/* All 16 combinations of the T bits x thread x CPL (and the other thread's
 * CPL, which must not matter). */
static void test_ts_all_combinations(void **state)
{
    (void)state;
    for (unsigned tbits = 0; tbits < 16; tbits++)
        for (int thread = 0; thread < 2; thread++)
            for (int cpl = 0; cpl < 4; cpl++)
                for (int other = 0; other < 4; other++) {
                    uint64_t bit;
                    if (thread == 0)
                        bit = cpl == 0 ? T0_OS : T0_USR;
                    else
                        bit = cpl == 0 ? T1_OS : T1_USR;
                    bool want = (tbits & bit) != 0;
                    struct nb_occurrence o =
                        thread == 0 ? occ(0, cpl, other, 1, 1) : occ(1, other, cpl, 1, 1);
                    uint64_t escr = SELECT(6) | MASK(0xffff) | tbits;
                    assert_int_equal(escr_qualifies(escr, &o, false, true), want);
                }
}

static void test_ts_spot_values(void **state)
{
    (void)state;
    struct nb_occurrence t0_user = occ(0, 3, 0, 1, 1);
    struct nb_occurrence t0_kernel = occ(0, 0, 3, 1, 1);
    struct nb_occurrence t1_user = occ(1, 0, 2, 1, 1);
    struct nb_occurrence t1_kernel = occ(1, 3, 0, 1, 1);
    assert_true(escr_qualifies(T0_USR, &t0_user, false, true));
    assert_false(escr_qualifies(T0_OS, &t0_user, false, true));
    assert_false(escr_qualifies(T1_USR | T1_OS, &t0_user, false, true));
    assert_true(escr_qualifies(T0_OS, &t0_kernel, false, true));
    assert_false(escr_qualifies(T0_USR | T1_OS | T1_USR, &t0_kernel, false, true));
    assert_true(escr_qualifies(T1_USR, &t1_user, false, true));
    assert_false(escr_qualifies(T0_USR | T0_OS | T1_OS, &t1_user, false, true));
    assert_true(escr_qualifies(T1_OS, &t1_kernel, false, true));
    assert_false(escr_qualifies(T0_USR | T0_OS | T1_USR, &t1_kernel, false, true));
    /* CPL 1 and 2 are user for the ESCR */
    struct nb_occurrence cpl1 = occ(0, 1, 0, 1, 1);
    struct nb_occurrence cpl2 = occ(0, 2, 0, 1, 1);
    assert_true(escr_qualifies(T0_USR, &cpl1, false, true));
    assert_true(escr_qualifies(T0_USR, &cpl2, false, true));
    assert_false(escr_qualifies(T0_OS, &cpl1, false, true));
    /* without HT, thread 0 is the only one */
    assert_true(escr_qualifies(T0_USR, &t0_user, false, false));
    assert_false(escr_qualifies(T0_OS, &t0_user, false, false));
    assert_true(escr_qualifies(T0_OS, &t0_kernel, false, false));
}

/* ---- thread-independent: SDM-old Table 18-30 as docs/semantics.md states */

/* SDM-old Table 18-30, written out: for each ESCR setting (T0_OS T0_USR
 * T1_OS T1_USR), whether a TI event counts with the logical processors at
 * (T0, T1) = (OS, OS), (OS, USR), (USR, OS), (USR, USR). */
static const struct {
    uint64_t tbits;
    const char *counts; /* one character per state above */
} table_18_30[] = {
    {0, "0000"},
    {T1_USR, "0111"},
    {T1_OS, "1110"},
    {T1_OS | T1_USR, "1111"},
    {T0_USR, "0111"},
    {T0_USR | T1_USR, "0111"},
    {T0_USR | T1_OS, "1111"},
    {T0_USR | T1_OS | T1_USR, "1111"},
    {T0_OS, "1110"},
    {T0_OS | T1_USR, "1111"},
    {T0_OS | T1_OS, "1110"},
    {T0_OS | T1_OS | T1_USR, "1111"},
    {T0_OS | T0_USR, "1111"},
    {T0_OS | T0_USR | T1_USR, "1111"},
    {T0_OS | T0_USR | T1_OS, "1111"},
    {T0_OS | T0_USR | T1_OS | T1_USR, "1111"},
};

static void test_ti_all_combinations_ht(void **state)
{
    (void)state;
    static const int cpl_of_state[4][2] = {{0, 0}, {0, 3}, {3, 0}, {3, 3}};
    for (size_t row = 0; row < sizeof table_18_30 / sizeof table_18_30[0]; row++)
        for (int st = 0; st < 4; st++)
            for (int thread = 0; thread < 2; thread++) {
                struct nb_occurrence o =
                    occ(thread, cpl_of_state[st][0], cpl_of_state[st][1], 1, 1);
                bool want = table_18_30[row].counts[st] == '1';
                assert_int_equal(escr_qualifies(table_18_30[row].tbits, &o, true, true), want);
            }
}

static void test_ti_table_rows(void **state)
{
    (void)state;
    /* T0=00, T1=01: counts while T0 in USR or T1 in USR */
    uint64_t escr = T1_USR;
    struct nb_occurrence both_kernel = occ(0, 0, 0, 1, 1);
    struct nb_occurrence t0_user = occ(1, 3, 0, 1, 1);
    struct nb_occurrence t1_user = occ(0, 0, 3, 1, 1);
    assert_false(escr_qualifies(escr, &both_kernel, true, true));
    assert_true(escr_qualifies(escr, &t0_user, true, true));
    assert_true(escr_qualifies(escr, &t1_user, true, true));
    /* T0=10 (OS), T1=00: counts while either is at CPL 0 */
    escr = T0_OS;
    struct nb_occurrence both_user = occ(0, 3, 3, 1, 1);
    assert_false(escr_qualifies(escr, &both_user, true, true));
    assert_true(escr_qualifies(escr, &t1_user, true, true)); /* T0 at CPL 0 */
    assert_true(escr_qualifies(escr, &t0_user, true, true)); /* T1 at CPL 0 */
    /* no bits: never */
    assert_false(escr_qualifies(0, &both_user, true, true));
    assert_false(escr_qualifies(0, &both_kernel, true, true));
    /* all bits: always */
    assert_true(escr_qualifies(0xf, &both_user, true, true));
    assert_true(escr_qualifies(0xf, &both_kernel, true, true));
    /* The same occurrence as TS would need the occurring thread's own bit. */
    assert_false(escr_qualifies(T1_USR, &t0_user, false, true));
}

/* Without HT only thread 0's CPL exists (T1 bits are reserved then). */
static void test_ti_ht_off(void **state)
{
    (void)state;
    for (unsigned tbits = 0; tbits < 16; tbits += 4) /* T0 bits only */
        for (int c0 = 0; c0 < 4; c0++)
            for (int c1 = 0; c1 < 4; c1++) {
                bool want = c0 == 0 ? (tbits & T0_OS) != 0 : (tbits & T0_USR) != 0;
                struct nb_occurrence o = occ(0, c0, c1, 1, 1);
                assert_int_equal(escr_qualifies(tbits, &o, true, false), want);
            }
    /* thread 1's stale CPL must not make a USR-only ESCR count */
    struct nb_occurrence o = occ(0, 0, 3, 1, 1);
    assert_false(escr_qualifies(T0_USR, &o, true, false));
    assert_true(escr_qualifies(T0_USR, &o, true, true));
}

/* ---- escr_detect */

static void test_detect_mask_selection(void **state)
{
    (void)state;
    /* branch_retired: MMNP 0, MMNM 1, MMTP 2, MMTM 3 */
    uint64_t escr = SELECT(6) | MASK(0x4 | 0x8) | T0_USR; /* MMTP|MMTM */
    uint8_t output = 0;
    struct nb_occurrence o = occ(0, 3, 3, 0x4, 1);
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 1);
    o.mask = 0x1; /* MMNP not selected */
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 1);
    o.mask = 0x3; /* MMNP|MMNM, neither selected */
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 1);
    o.mask = 0x9; /* MMNP|MMTM: one selected is enough, counts once */
    o.count = 2;
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 3);
    o.mask = 0xf; /* all four: still one occurrence of count 1 */
    o.count = 1;
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 4);
    /* mask bit 15 (ESCR bit 24) */
    escr = MASK(0x8000) | T0_USR;
    output = 0;
    o.mask = 0x8000;
    escr_detect(escr, &o, 0x8000, true, &output);
    assert_int_equal(output, 1);
    /* an empty ESCR mask counts nothing */
    output = 0;
    o.mask = 0xffff;
    escr_detect(T0_USR | T0_OS | T1_USR | T1_OS, &o, 0, true, &output);
    assert_int_equal(output, 0);
}

static void test_detect_not_qualified(void **state)
{
    (void)state;
    uint64_t escr = MASK(0x1) | T0_OS;
    uint8_t output = 5;
    struct nb_occurrence o = occ(0, 3, 3, 0x1, 4);
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 5);
    o.cpl[0] = 0;
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 9);
}

static void test_detect_saturates_at_15(void **state)
{
    (void)state;
    uint64_t escr = MASK(0x1) | T0_USR;
    uint8_t output = 0;
    struct nb_occurrence o = occ(0, 3, 3, 0x1, 16);
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 15);
    output = 14;
    o.count = 1;
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 15);
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 15);
    output = 0;
    o.count = 15;
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 15);
    output = 3;
    o.count = 12;
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 15);
    output = 3;
    o.count = 11;
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 14);
}

/* The output saturates for any count a script may give (count= takes up to
 * 0xffffffff): a huge count must not wrap the sum. */
static void test_detect_saturates_huge_counts(void **state)
{
    (void)state;
    uint64_t escr = MASK(0x1) | T0_USR;
    struct nb_occurrence o = occ(0, 3, 3, 0x1, UINT32_MAX);
    uint8_t output = 0;
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 15);
    output = 1;
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 15);
    output = 15;
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 15);
}

/* An occurrence naming TS and TI sub-events counts if either qualifies. */
static void test_detect_mixed_ts_ti(void **state)
{
    (void)state;
    const uint16_t ti = 0x2;  /* bit 1 thread-independent, bit 0 thread-specific */
    uint64_t escr = MASK(0x3) | T1_USR;
    /* thread 0 at user, thread 1 at kernel: TS needs T0_USR (no); TI needs
     * a USR bit while either is at CPL 1-3 (yes) */
    struct nb_occurrence o = occ(0, 3, 0, 0x3, 1);
    uint8_t output = 0;
    escr_detect(escr, &o, ti, true, &output);
    assert_int_equal(output, 1);
    /* only the TS sub-event named: does not count */
    o.mask = 0x1;
    escr_detect(escr, &o, ti, true, &output);
    assert_int_equal(output, 1);
    /* only the TI sub-event: counts */
    o.mask = 0x2;
    escr_detect(escr, &o, ti, true, &output);
    assert_int_equal(output, 2);
    /* TI sub-event named but not selected by the ESCR: the TS one decides */
    escr = MASK(0x1) | T1_USR;
    o.mask = 0x3;
    escr_detect(escr, &o, ti, true, &output);
    assert_int_equal(output, 2);
    /* both qualify: still one occurrence of count 2 */
    escr = MASK(0x3) | T0_OS;
    struct nb_occurrence k = occ(0, 0, 3, 0x3, 2);
    escr_detect(escr, &k, ti, true, &output);
    assert_int_equal(output, 4);
    /* neither qualifies */
    escr = MASK(0x3) | T0_OS;
    struct nb_occurrence u = occ(0, 3, 3, 0x3, 2);
    escr_detect(escr, &u, ti, true, &output);
    assert_int_equal(output, 4);
}

/* With the catalog's TI mask of TC_deliver_mode (all TI). */
static void test_detect_catalog_ti_event(void **state)
{
    (void)state;
    int ev = nb_event_find("TC_deliver_mode");
    assert_true(ev >= 0);
    uint16_t ti = nb_event_ti_mask(&nb_event_table[ev]);
    assert_int_equal(ti, 0xff);
    uint64_t escr = SELECT(1) | MASK(0x1) | T1_OS; /* DD, T1_OS */
    struct nb_occurrence o = occ(0, 0, 3, 0x1, 3); /* by thread 0 at CPL 0 */
    o.event = (uint16_t)ev;
    uint8_t output = 0;
    escr_detect(escr, &o, ti, true, &output);
    assert_int_equal(output, 3); /* TI: T1_OS means "either thread at CPL 0" */
    output = 0;
    escr_detect(escr, &o, 0, true, &output);
    assert_int_equal(output, 0); /* the same as TS would not count */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ts_all_combinations),
        cmocka_unit_test(test_ts_spot_values),
        cmocka_unit_test(test_ti_all_combinations_ht),
        cmocka_unit_test(test_ti_table_rows),
        cmocka_unit_test(test_ti_ht_off),
        cmocka_unit_test(test_detect_mask_selection),
        cmocka_unit_test(test_detect_not_qualified),
        cmocka_unit_test(test_detect_saturates_at_15),
        cmocka_unit_test(test_detect_saturates_huge_counts),
        cmocka_unit_test(test_detect_mixed_ts_ti),
        cmocka_unit_test(test_detect_catalog_ti_event),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
