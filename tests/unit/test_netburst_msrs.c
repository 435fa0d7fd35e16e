/* The NetBurst register map: docs/semantics.md, "NetBurst register map". */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "pmu/catalog/netburst_msrs.h"

/* SDM Table 18-26: name, address, ESCR select, block half. */
static const struct {
    const char *name;
    uint32_t msr;
    unsigned select;
    uint32_t counters;
} sdm[NB_NUM_ESCRS] = {
#define B0 0x3u
#define B1 0xcu
#define M0 0x30u
#define M1 0xc0u
#define F0 0x300u
#define F1 0xc00u
#define I0 ((1u << 12) | (1u << 13) | (1u << 16))
#define I1 ((1u << 14) | (1u << 15) | (1u << 17))
    {"MSR_BSU_ESCR0", 0x3a0, 7, B0},   {"MSR_BSU_ESCR1", 0x3a1, 7, B1},
    {"MSR_FSB_ESCR0", 0x3a2, 6, B0},   {"MSR_FSB_ESCR1", 0x3a3, 6, B1},
    {"MSR_FIRM_ESCR0", 0x3a4, 1, F0},  {"MSR_FIRM_ESCR1", 0x3a5, 1, F1},
    {"MSR_FLAME_ESCR0", 0x3a6, 0, F0}, {"MSR_FLAME_ESCR1", 0x3a7, 0, F1},
    {"MSR_DAC_ESCR0", 0x3a8, 5, F0},   {"MSR_DAC_ESCR1", 0x3a9, 5, F1},
    {"MSR_MOB_ESCR0", 0x3aa, 2, B0},   {"MSR_MOB_ESCR1", 0x3ab, 2, B1},
    {"MSR_PMH_ESCR0", 0x3ac, 4, B0},   {"MSR_PMH_ESCR1", 0x3ad, 4, B1},
    {"MSR_SAAT_ESCR0", 0x3ae, 2, F0},  {"MSR_SAAT_ESCR1", 0x3af, 2, F1},
    {"MSR_U2L_ESCR0", 0x3b0, 3, F0},   {"MSR_U2L_ESCR1", 0x3b1, 3, F1},
    {"MSR_BPU_ESCR0", 0x3b2, 0, B0},   {"MSR_BPU_ESCR1", 0x3b3, 0, B1},
    {"MSR_IS_ESCR0", 0x3b4, 1, B0},    {"MSR_IS_ESCR1", 0x3b5, 1, B1},
    {"MSR_ITLB_ESCR0", 0x3b6, 3, B0},  {"MSR_ITLB_ESCR1", 0x3b7, 3, B1},
    {"MSR_CRU_ESCR0", 0x3b8, 4, I0},   {"MSR_CRU_ESCR1", 0x3b9, 4, I1},
    {"MSR_IQ_ESCR0", 0x3ba, 0, I0},    {"MSR_IQ_ESCR1", 0x3bb, 0, I1},
    {"MSR_RAT_ESCR0", 0x3bc, 2, I0},   {"MSR_RAT_ESCR1", 0x3bd, 2, I1},
    {"MSR_SSU_ESCR0", 0x3be, 3, I0},
    {"MSR_MS_ESCR0", 0x3c0, 0, M0},    {"MSR_MS_ESCR1", 0x3c1, 0, M1},
    {"MSR_TBPU_ESCR0", 0x3c2, 2, M0},  {"MSR_TBPU_ESCR1", 0x3c3, 2, M1},
    {"MSR_TC_ESCR0", 0x3c4, 1, M0},    {"MSR_TC_ESCR1", 0x3c5, 1, M1},
    {"MSR_IX_ESCR0", 0x3c8, 5, B0},    {"MSR_IX_ESCR1", 0x3c9, 5, B1},
    {"MSR_ALF_ESCR0", 0x3ca, 1, I0},   {"MSR_ALF_ESCR1", 0x3cb, 1, I1},
    {"MSR_CRU_ESCR2", 0x3cc, 5, I0},   {"MSR_CRU_ESCR3", 0x3cd, 5, I1},
    {"MSR_CRU_ESCR4", 0x3e0, 6, I0},   {"MSR_CRU_ESCR5", 0x3e1, 6, I1},
};

static const int models[] = {0, 1, 2, 3, 4, 6};

static void test_escr_table_matches_sdm(void **state)
{
    (void)state;
    for (int i = 0; i < NB_NUM_ESCRS; i++) {
        assert_string_equal(nb_escrs[i].name, sdm[i].name);
        assert_int_equal(nb_escrs[i].msr, sdm[i].msr);
        assert_int_equal(nb_escrs[i].select, sdm[i].select);
        assert_int_equal(nb_escrs[i].counters, sdm[i].counters);
        assert_int_equal(nb_escrs[i].iq_escr,
                         i == NB_ESCR_IQ0 || i == NB_ESCR_IQ1);
        assert_int_equal(nb_escr_index(sdm[i].msr), i);
    }
}

static void test_escr_count_addresses_gaps(void **state)
{
    (void)state;
    assert_int_equal(NB_NUM_ESCRS, 45);
    int n = 0;
    for (uint32_t msr = 0x3a0; msr <= 0x3e1; msr++) {
        bool gap = msr == 0x3bf || msr == 0x3c6 || msr == 0x3c7 || (msr >= 0x3ce && msr <= 0x3df);
        int idx = nb_escr_index(msr);
        if (gap) {
            assert_int_equal(idx, -1);
        } else {
            assert_true(idx >= 0);
            assert_int_equal(nb_escrs[idx].msr, msr);
            n++;
        }
    }
    assert_int_equal(n, 45);
    assert_int_equal(nb_escr_index(0x39f), -1);
    assert_int_equal(nb_escr_index(0x3e2), -1);
    assert_int_equal(nb_escr_index(0x360), -1);
    assert_int_equal(nb_escr_index(0), -1);
    /* unique addresses and names, in ascending address order */
    for (int i = 0; i < NB_NUM_ESCRS; i++)
        for (int j = i + 1; j < NB_NUM_ESCRS; j++) {
            assert_true(nb_escrs[i].msr < nb_escrs[j].msr);
            assert_true(strcmp(nb_escrs[i].name, nb_escrs[j].name) != 0);
        }
}

static void test_routing_sdm_facts(void **state)
{
    (void)state;
    assert_int_equal(nb_escr_routed(12, 5, 2), NB_ESCR_CRU2);
    assert_int_equal(nb_escrs[nb_escr_routed(12, 5, 2)].msr, 0x3cc);
    assert_int_equal(nb_escr_routed(14, 5, 2), NB_ESCR_CRU3);
    assert_int_equal(nb_escrs[nb_escr_routed(14, 5, 2)].msr, 0x3cd);
    assert_int_equal(nb_escr_routed(14, 3, 2), -1); /* SSU_ESCR0 has no partner */
    assert_int_equal(nb_escr_routed(15, 3, 2), -1);
    assert_int_equal(nb_escr_routed(17, 3, 2), -1);
    assert_int_equal(nb_escr_routed(12, 3, 2), NB_ESCR_SSU0);
    assert_int_equal(nb_escr_routed(13, 3, 2), NB_ESCR_SSU0);
    assert_int_equal(nb_escr_routed(16, 3, 2), NB_ESCR_SSU0);
    assert_int_equal(nb_escr_routed(0, 7, 2), NB_ESCR_BSU0);
    assert_int_equal(nb_escr_routed(3, 7, 2), NB_ESCR_BSU1);
    assert_int_equal(nb_escr_routed(8, 1, 2), NB_ESCR_FIRM0);
    assert_int_equal(nb_escr_routed(11, 1, 2), NB_ESCR_FIRM1);
    assert_int_equal(nb_escr_routed(4, 1, 2), NB_ESCR_TC0);
    assert_int_equal(nb_escr_routed(7, 1, 2), NB_ESCR_TC1);
    assert_int_equal(nb_escr_routed(16, 6, 2), NB_ESCR_CRU4);
    assert_int_equal(nb_escr_routed(17, 6, 2), NB_ESCR_CRU5);
    assert_int_equal(nb_escr_routed(13, 4, 2), NB_ESCR_CRU0);
    assert_int_equal(nb_escr_routed(15, 4, 2), NB_ESCR_CRU1);
    /* selects with nothing behind them in a block */
    assert_int_equal(nb_escr_routed(4, 3, 2), -1); /* MS block has selects 0, 1, 2 */
    assert_int_equal(nb_escr_routed(4, 7, 2), -1);
    assert_int_equal(nb_escr_routed(8, 4, 2), -1); /* FLAME: 0, 1, 2, 3, 5 */
    assert_int_equal(nb_escr_routed(12, 7, 2), -1);
    /* IQ_ESCR0/1 only on models 0, 1, 2 */
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        int want0 = models[m] <= 2 ? NB_ESCR_IQ0 : -1;
        int want1 = models[m] <= 2 ? NB_ESCR_IQ1 : -1;
        assert_int_equal(nb_escr_routed(12, 0, models[m]), want0);
        assert_int_equal(nb_escr_routed(16, 0, models[m]), want0);
        assert_int_equal(nb_escr_routed(14, 0, models[m]), want1);
        assert_int_equal(nb_escr_routed(17, 0, models[m]), want1);
        assert_int_equal(nb_escr_present(NB_ESCR_IQ0, models[m]), models[m] <= 2);
        assert_int_equal(nb_escr_present(NB_ESCR_IQ1, models[m]), models[m] <= 2);
        assert_true(nb_escr_present(NB_ESCR_CRU2, models[m]));
        assert_true(nb_escr_present(NB_ESCR_SSU0, models[m]));
    }
}

/* Every ESCR is reachable, with its select, from exactly the counters of its
 * block half, and every (counter, select) reaches at most one ESCR. */
static void test_routing_exhaustive(void **state)
{
    (void)state;
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        int model = models[m];
        for (int c = 0; c < NB_NUM_COUNTERS; c++)
            for (unsigned s = 0; s < 8; s++) {
                int want = -1;
                for (int e = 0; e < NB_NUM_ESCRS; e++)
                    if (sdm[e].select == s && (sdm[e].counters & (1u << c)) &&
                        !((e == NB_ESCR_IQ0 || e == NB_ESCR_IQ1) && model > 2)) {
                        assert_int_equal(want, -1); /* unique */
                        want = e;
                    }
                assert_int_equal(nb_escr_routed(c, s, model), want);
            }
        for (int e = 0; e < NB_NUM_ESCRS; e++) {
            if ((e == NB_ESCR_IQ0 || e == NB_ESCR_IQ1) && model > 2)
                continue;
            uint32_t reach = 0;
            for (int c = 0; c < NB_NUM_COUNTERS; c++)
                if (nb_escr_routed(c, nb_escrs[e].select, model) == e)
                    reach |= 1u << c;
            assert_int_equal(reach, sdm[e].counters);
        }
    }
}

static void test_names_by_address(void **state)
{
    (void)state;
    for (int i = 0; i < NB_NUM_ESCRS; i++)
        assert_string_equal(nb_msr_name(sdm[i].msr), sdm[i].name);
    assert_string_equal(nb_msr_name(0x300), "MSR_BPU_COUNTER0");
    assert_string_equal(nb_msr_name(0x304), "MSR_MS_COUNTER0");
    assert_string_equal(nb_msr_name(0x30b), "MSR_FLAME_COUNTER3");
    assert_string_equal(nb_msr_name(0x30c), "MSR_IQ_COUNTER0");
    assert_string_equal(nb_msr_name(0x311), "MSR_IQ_COUNTER5");
    assert_string_equal(nb_msr_name(0x360), "MSR_BPU_CCCR0");
    assert_string_equal(nb_msr_name(0x36c), "MSR_IQ_CCCR0");
    assert_string_equal(nb_msr_name(0x371), "MSR_IQ_CCCR5");
    assert_string_equal(nb_msr_name(0x1a0), "IA32_MISC_ENABLE");
    assert_string_equal(nb_msr_name(0x3f0), "MSR_TC_PRECISE_EVENT");
    assert_string_equal(nb_msr_name(0x3f1), "IA32_PEBS_ENABLE");
    assert_string_equal(nb_msr_name(0x3f2), "MSR_PEBS_MATRIX_VERT");
    assert_string_equal(nb_msr_name(0x600), "IA32_DS_AREA");
    assert_null(nb_msr_name(0x3bf));
    assert_null(nb_msr_name(0x312));
    assert_null(nb_msr_name(0x372));
    assert_null(nb_msr_name(0x3f3));
    assert_null(nb_msr_name(0x10));
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        assert_string_equal(nb_msr_name(NB_COUNTER_BASE + (uint32_t)c), nb_counter_name(c));
        assert_string_equal(nb_msr_name(NB_CCCR_BASE + (uint32_t)c), nb_cccr_name(c));
    }
    assert_string_equal(nb_counter_name(14), "MSR_IQ_COUNTER2");
    assert_string_equal(nb_cccr_name(7), "MSR_MS_CCCR3");
}

static void test_names_lookup(void **state)
{
    (void)state;
    for (int i = 0; i < NB_NUM_ESCRS; i++) {
        assert_int_equal(nb_msr_by_name(sdm[i].name), sdm[i].msr);
        assert_int_equal(nb_msr_by_name(sdm[i].name + 4), sdm[i].msr); /* no prefix */
    }
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        assert_int_equal(nb_msr_by_name(nb_counter_name(c)), NB_COUNTER_BASE + (uint32_t)c);
        assert_int_equal(nb_msr_by_name(nb_cccr_name(c)), NB_CCCR_BASE + (uint32_t)c);
    }
    assert_int_equal(nb_msr_by_name("MSR_IQ_CCCR0"), 0x36c);
    assert_int_equal(nb_msr_by_name("iq_cccr0"), 0x36c);
    assert_int_equal(nb_msr_by_name("msr_iq_cccr0"), 0x36c);
    assert_int_equal(nb_msr_by_name("Iq_Counter4"), 0x310);
    assert_int_equal(nb_msr_by_name("cru_escr2"), 0x3cc);
    assert_int_equal(nb_msr_by_name("MSR_CRU_ESCR5"), 0x3e1);
    assert_int_equal(nb_msr_by_name("PEBS_ENABLE"), 0x3f1);
    assert_int_equal(nb_msr_by_name("IA32_PEBS_ENABLE"), 0x3f1);
    assert_int_equal(nb_msr_by_name("ia32_pebs_enable"), 0x3f1);
    assert_int_equal(nb_msr_by_name("MISC_ENABLE"), 0x1a0);
    assert_int_equal(nb_msr_by_name("IA32_MISC_ENABLE"), 0x1a0);
    assert_int_equal(nb_msr_by_name("ds_area"), 0x600);
    assert_int_equal(nb_msr_by_name("IA32_DS_AREA"), 0x600);
    assert_int_equal(nb_msr_by_name("TC_PRECISE_EVENT"), 0x3f0);
    assert_int_equal(nb_msr_by_name("msr_tc_precise_event"), 0x3f0);
    assert_int_equal(nb_msr_by_name("PEBS_MATRIX_VERT"), 0x3f2);
    assert_int_equal(nb_msr_by_name("MSR_PEBS_MATRIX_VERT"), 0x3f2);
    /* unknown */
    assert_int_equal(nb_msr_by_name("MSR_SSU_ESCR1"), 0); /* Linux's guess, not the SDM */
    assert_int_equal(nb_msr_by_name("IQ_CCCR6"), 0);
    assert_int_equal(nb_msr_by_name("IQ_COUNTER6"), 0);
    assert_int_equal(nb_msr_by_name("CESR"), 0);
    assert_int_equal(nb_msr_by_name("TSC"), 0);
    assert_int_equal(nb_msr_by_name(""), 0);
    assert_int_equal(nb_msr_by_name("MSR_"), 0);
    assert_int_equal(nb_msr_by_name("iq_cccr"), 0);
    assert_int_equal(nb_msr_by_name("iq_cccr00"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escr_table_matches_sdm),
        cmocka_unit_test(test_escr_count_addresses_gaps),
        cmocka_unit_test(test_routing_sdm_facts),
        cmocka_unit_test(test_routing_exhaustive),
        cmocka_unit_test(test_names_by_address),
        cmocka_unit_test(test_names_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
