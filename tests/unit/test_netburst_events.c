/* The NetBurst event catalog (pmu/catalog/netburst_events.c): invariants and SDM
 * spot checks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_msrs.h"

#define E(id) (1ull << NB_ESCR_##id)
#define ALL_MODELS 0x5f /* 0, 1, 2, 3, 4, 6 */

static const struct nb_event_info *ev(const char *name)
{
    int i = nb_event_find(name);
    assert_true(i >= 0);
    assert_true(i < NB_NUM_EVENTS);
    return &nb_event_table[i];
}

static void test_catalog_invariants(void **state)
{
    (void)state;
    assert_true(NB_NUM_EVENTS > 40);
    uint64_t all_escrs = (1ull << NB_NUM_ESCRS) - 1;
    for (int i = 0; i < NB_NUM_EVENTS; i++) {
        const struct nb_event_info *e = &nb_event_table[i];
        assert_non_null(e->name);
        assert_true(e->escrs != 0);
        assert_int_equal(e->escrs & ~all_escrs, 0);
        assert_true(e->select < 64); /* 6-bit field */
        assert_true(e->models != 0);
        assert_int_equal(e->models & ~ALL_MODELS, 0);
        assert_true(e->n_subevents > 0);
        assert_non_null(e->subevents);
        uint32_t seen = 0;
        for (int s = 0; s < e->n_subevents; s++) {
            const struct nb_subevent *sub = &e->subevents[s];
            assert_true(sub->bit < 16);
            assert_int_equal(seen & (1u << sub->bit), 0); /* unique bit */
            seen |= 1u << sub->bit;
            for (int t = s + 1; t < e->n_subevents; t++)
                assert_true(strcasecmp(sub->name, e->subevents[t].name) != 0);
        }
        for (int j = i + 1; j < NB_NUM_EVENTS; j++) {
            assert_true(strcasecmp(e->name, nb_event_table[j].name) != 0);
            if (nb_event_table[j].select == e->select)
                assert_int_equal(nb_event_table[j].escrs & e->escrs, 0); /* no shared (select, ESCR) */
        }
    }
}

static void test_find_case_insensitive(void **state)
{
    (void)state;
    int i = nb_event_find("branch_retired");
    assert_true(i >= 0);
    assert_string_equal(nb_event_table[i].name, "branch_retired");
    assert_int_equal(nb_event_find("BRANCH_RETIRED"), i);
    assert_int_equal(nb_event_find("Branch_Retired"), i);
    assert_int_equal(nb_event_find("tc_deliver_mode"), nb_event_find("TC_deliver_mode"));
    assert_true(nb_event_find("tc_deliver_mode") >= 0);
    assert_int_equal(nb_event_find("branch_retire"), -1);
    assert_int_equal(nb_event_find("branch_retired:MMTP"), -1);
    assert_int_equal(nb_event_find(""), -1);
    assert_int_equal(nb_event_find("no_such_event"), -1);
    for (int k = 0; k < NB_NUM_EVENTS; k++) {
        char upper[64];
        size_t n = strlen(nb_event_table[k].name);
        assert_true(n < sizeof upper);
        for (size_t c = 0; c <= n; c++)
            upper[c] = (char)toupper((unsigned char)nb_event_table[k].name[c]);
        assert_int_equal(nb_event_find(upper), k);
    }

    const struct nb_event_info *br = &nb_event_table[i];
    const struct nb_subevent *s = nb_subevent_find(br, "mmtp");
    assert_non_null(s);
    assert_string_equal(s->name, "MMTP");
    assert_int_equal(s->bit, 2);
    assert_ptr_equal(nb_subevent_find(br, "MMTP"), s);
    assert_ptr_equal(nb_subevent_find(br, "MmTp"), s);
    assert_null(nb_subevent_find(br, "MMT"));
    assert_null(nb_subevent_find(br, "NBOGUS"));
    assert_null(nb_subevent_find(br, ""));
}

static void test_event_on_escr(void **state)
{
    (void)state;
    int br = nb_event_find("branch_retired");
    assert_int_equal(nb_event_on_escr(NB_ESCR_CRU2, 0x06), br);
    assert_int_equal(nb_event_on_escr(NB_ESCR_CRU3, 0x06), br);
    assert_int_equal(nb_event_on_escr(NB_ESCR_CRU0, 0x06), -1);
    assert_int_equal(nb_event_on_escr(NB_ESCR_CRU2, 0x3f), -1);
    assert_int_equal(nb_event_on_escr(NB_ESCR_RAT0, 0x02), nb_event_find("uop_type"));
    assert_int_equal(nb_event_on_escr(NB_ESCR_CRU0, 0x02), nb_event_find("instr_retired"));
    assert_int_equal(nb_event_on_escr(NB_ESCR_CRU2, 0x02), nb_event_find("machine_clear"));
    assert_int_equal(nb_event_on_escr(NB_ESCR_FSB0, 0x13), nb_event_find("global_power_events"));
    assert_int_equal(nb_event_on_escr(NB_ESCR_FSB1, 0x1a), nb_event_find("IOQ_active_entries"));
    assert_int_equal(nb_event_on_escr(NB_ESCR_FSB0, 0x1a), -1);
    assert_int_equal(nb_event_on_escr(NB_ESCR_IQ0, 0x00), -1);
    /* consistency with the table, every ESCR and select */
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        for (unsigned s = 0; s < 64; s++) {
            int want = -1;
            for (int i = 0; i < NB_NUM_EVENTS; i++)
                if (nb_event_table[i].select == s && (nb_event_table[i].escrs & (1ull << e)))
                    want = i;
            assert_int_equal(nb_event_on_escr(e, s), want);
        }
}

static void test_ti_mask(void **state)
{
    (void)state;
    assert_int_equal(nb_event_ti_mask(ev("TC_deliver_mode")), 0xff);
    assert_int_equal(nb_event_ti_mask(ev("branch_retired")), 0);
    assert_int_equal(nb_event_ti_mask(ev("page_walk_type")), 0x3);
    assert_int_equal(nb_event_ti_mask(ev("x87_FP_uop")), 0x8000);
    for (int i = 0; i < NB_NUM_EVENTS; i++) {
        uint16_t want = 0;
        for (int s = 0; s < nb_event_table[i].n_subevents; s++)
            if (nb_event_table[i].subevents[s].thread_independent)
                want |= (uint16_t)(1u << nb_event_table[i].subevents[s].bit);
        assert_int_equal(nb_event_ti_mask(&nb_event_table[i]), want);
    }
}

static void check_sub(const struct nb_event_info *e, const char *name, unsigned bit, bool ti)
{
    const struct nb_subevent *s = nb_subevent_find(e, name);
    assert_non_null(s);
    assert_int_equal(s->bit, bit);
    assert_int_equal(s->thread_independent, ti);
}

static void test_sdm_spot_checks(void **state)
{
    (void)state;
    const struct nb_event_info *e = ev("branch_retired");
    assert_int_equal(e->select, 0x06);
    assert_int_equal(e->escrs, E(CRU2) | E(CRU3));
    assert_int_equal(e->n_subevents, 4);
    check_sub(e, "MMNP", 0, false);
    check_sub(e, "MMNM", 1, false);
    check_sub(e, "MMTP", 2, false);
    check_sub(e, "MMTM", 3, false);
    assert_int_equal(e->models, ALL_MODELS);
    assert_true(e->flags & NB_EVENT_AT_RETIREMENT);

    e = ev("uop_type");
    assert_int_equal(e->select, 0x02);
    assert_int_equal(e->escrs, E(RAT0) | E(RAT1));
    assert_int_equal(e->n_subevents, 2);
    check_sub(e, "TAGLOADS", 1, false);
    check_sub(e, "TAGSTORES", 2, false);

    e = ev("global_power_events");
    assert_int_equal(e->select, 0x13);
    assert_int_equal(e->escrs, E(FSB0) | E(FSB1));
    check_sub(e, "RUNNING", 0, false);

    /* SDM Vol. 3B Table 19-29 and Table 19-34: SMCLEAR is bit 6, not the
     * bit 3 of perfctr and PAPI (docs/events.md, NetBurst item 2). */
    e = ev("machine_clear");
    assert_int_equal(e->select, 0x02);
    assert_int_equal(e->escrs, E(CRU2) | E(CRU3));
    assert_int_equal(e->n_subevents, 3);
    check_sub(e, "CLEAR", 0, false);
    check_sub(e, "MOCLEAR", 2, false);
    check_sub(e, "SMCLEAR", 6, false);

    e = ev("instr_completed");
    assert_int_equal(e->select, 0x07);
    assert_int_equal(e->escrs, E(CRU0) | E(CRU1));
    assert_int_equal(e->models, (1u << 3) | (1u << 4) | (1u << 6));
    check_sub(e, "NBOGUS", 0, false);
    check_sub(e, "BOGUS", 1, false);
    for (int i = 0; i < NB_NUM_EVENTS; i++)
        if (&nb_event_table[i] != e)
            assert_int_equal(nb_event_table[i].models, ALL_MODELS);

    e = ev("TC_deliver_mode");
    assert_int_equal(e->select, 0x01);
    assert_int_equal(e->escrs, E(TC0) | E(TC1));
    assert_int_equal(e->n_subevents, 8);
    static const char *const tc[] = {"DD", "DB", "DI", "BD", "BB", "BI", "ID", "IB"};
    for (unsigned b = 0; b < 8; b++)
        check_sub(e, tc[b], b, true);

    e = ev("mispred_branch_retired");
    assert_int_equal(e->select, 0x03);
    assert_int_equal(e->escrs, E(CRU0) | E(CRU1));
    check_sub(e, "NBOGUS", 0, false);

    e = ev("instr_retired");
    assert_int_equal(e->select, 0x02);
    assert_int_equal(e->escrs, E(CRU0) | E(CRU1));
    check_sub(e, "NBOGUSNTAG", 0, false);
    check_sub(e, "BOGUSTAG", 3, false);

    e = ev("uops_retired");
    assert_int_equal(e->select, 0x01);
    assert_int_equal(e->escrs, E(CRU0) | E(CRU1));

    e = ev("front_end_event");
    assert_int_equal(e->select, 0x08);
    assert_int_equal(e->escrs, E(CRU2) | E(CRU3));
    assert_int_equal(e->flags, NB_EVENT_AT_RETIREMENT | NB_EVENT_PEBS);

    e = ev("ITLB_reference");
    assert_int_equal(e->select, 0x18);
    assert_int_equal(e->escrs, E(ITLB0) | E(ITLB1));

    e = ev("BSQ_allocation");
    assert_int_equal(e->select, 0x05);
    assert_int_equal(e->escrs, E(BSU0));
    e = ev("BSQ_active_entries");
    assert_int_equal(e->select, 0x06);
    assert_int_equal(e->escrs, E(BSU1));
    e = ev("IOQ_active_entries");
    assert_int_equal(e->select, 0x1a);
    assert_int_equal(e->escrs, E(FSB1));

    e = ev("x87_FP_uop");
    assert_int_equal(e->select, 0x04);
    assert_int_equal(e->escrs, E(FIRM0) | E(FIRM1));
    check_sub(e, "ALL", 15, true);

    e = ev("page_walk_type");
    assert_int_equal(e->select, 0x01);
    assert_int_equal(e->escrs, E(PMH0) | E(PMH1));
    check_sub(e, "DTMISS", 0, true);
    check_sub(e, "ITMISS", 1, true);

    e = ev("memory_cancel");
    assert_int_equal(e->select, 0x02);
    assert_int_equal(e->escrs, E(DAC0) | E(DAC1));
    check_sub(e, "ST_RB_FULL", 2, false);
    check_sub(e, "64K_CONF", 3, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalog_invariants),
        cmocka_unit_test(test_find_case_insensitive),
        cmocka_unit_test(test_event_on_escr),
        cmocka_unit_test(test_ti_mask),
        cmocka_unit_test(test_sdm_spot_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
