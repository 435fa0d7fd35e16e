/* A model's occurrences onto the ESCRs' outputs through the PMU
 * (pmu/emulated/netburst_feed.h): routed when reported (nb_feed_occur,
 * nb_feed_occur_counts) and routed ahead by the router (nb_router_*),
 * exact output values, drive bits and stamps, and when routing ahead is
 * allowed and when its routes are stale.
 *
 * Northwood without Hyper-Threading: CRU_ESCR2 counts branch_retired MMNP
 * and MMNM of thread 0 at CPL 3, CRU_ESCR3 MMNP at every CPL; IQ_COUNTER0
 * reads CRU_ESCR2.  The sources: MMNP, MMNM, MMTP (which nothing counts). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pmu/programming/msr.h"
#include "pmu/catalog/netburst_events.h"
#include "pmu/emulated/netburst_feed.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/emulated/netburst_pmu.h"

enum { MMNP, MMNM, MMTP };

#define SELECT_CRU2 5u /* IQ_COUNTER0's ESCR select for CRU_ESCR2 */

static const struct nb_source sources[] = {{NB_EV_BRANCH_RETIRED, 1u << 0},
                                           {NB_EV_BRANCH_RETIRED, 1u << 1},
                                           {NB_EV_BRANCH_RETIRED, 1u << 2}};

struct fixture {
    struct nb_pmu *pmu;
    const struct nb_feed *feed;
    struct nb_escr_outputs outputs;
};

static uint64_t escr_value(uint16_t mask, uint64_t threads)
{
    return (uint64_t)nb_event_table[NB_EV_BRANCH_RETIRED].select << ESCR_EVENT_SELECT_SHIFT |
           (uint64_t)mask << ESCR_EVENT_MASK_SHIFT | threads;
}

static void wrmsr(struct fixture *f, uint32_t msr, uint64_t value)
{
    assert_int_equal(nb_pmu_wrmsr(f->pmu, msr, value), MSR_OK);
}

static uint64_t cccr_of(uint64_t more)
{
    return CCCR_ENABLE | (uint64_t)SELECT_CRU2 << CCCR_ESCR_SELECT_SHIFT |
           CCCR_ACTIVE_THREAD_ANY | more;
}

static int setup(void **state)
{
    static struct fixture f;
    memset(&f, 0, sizeof f);
    f.pmu = nb_pmu_create((struct nb_pmu_config){.model = 2, .ht = false});
    if (!f.pmu || !(f.feed = nb_pmu_attach(f.pmu, sources, 3)))
        return -1;
    wrmsr(&f, nb_escrs[NB_ESCR_CRU2].msr, escr_value(1u << 0 | 1u << 1, ESCR_T0_USR));
    wrmsr(&f, nb_escrs[NB_ESCR_CRU3].msr, escr_value(1u << 0, ESCR_T0_USR | ESCR_T0_OS));
    wrmsr(&f, NB_CCCR_BASE + 12, cccr_of(0));
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    nb_pmu_destroy(f->pmu);
    return 0;
}

static const uint64_t cru2 = 1ull << NB_ESCR_CRU2, cru3 = 1ull << NB_ESCR_CRU3;

static uint64_t iq_counter0(const struct fixture *f)
{
    return nb_pmu_counter(f->pmu, 12);
}

/* Routed when reported: by the context of the level, each ESCR's output
 * adding up to 15, the outputs stamped with the routes' generation. */
static void test_occur_drives_the_routed_buses(void **state)
{
    struct fixture *f = *state;
    struct nb_escr_outputs *b = &f->outputs;
    nb_feed_occur(f->feed, b, 0, true, MMNP, 3);
    assert_int_equal(b->driven, cru2 | cru3);
    assert_int_equal(b->output[NB_ESCR_CRU2], 3);
    assert_int_equal(b->output[NB_ESCR_CRU3], 3);
    assert_int_equal(b->generation, f->feed->generation);
    nb_feed_occur(f->feed, b, 0, false, MMNP, 2); /* CPL 0: CRU_ESCR3 only */
    nb_feed_occur(f->feed, b, 0, true, MMNM, 20);
    nb_feed_occur(f->feed, b, 0, true, MMTP, 7);  /* nothing counts it */
    assert_int_equal(b->output[NB_ESCR_CRU2], 15);
    assert_int_equal(b->output[NB_ESCR_CRU3], 5);
    assert_int_equal(b->driven, cru2 | cru3);
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if (e != NB_ESCR_CRU2 && e != NB_ESCR_CRU3)
            assert_int_equal(b->output[e], 0);
    assert_true(nb_pmu_tick_routed(f->pmu, b));
    assert_int_equal(iq_counter0(f), 15);
    assert_int_equal(b->driven, 0);
}

/* A level's counts by source, routed and cleared. */
static void test_occur_counts_routes_and_clears(void **state)
{
    struct fixture *f = *state;
    struct nb_escr_outputs *b = &f->outputs;
    uint64_t used[2] = {1u << MMNP | 1u << MMNM | 1u << MMTP, 0};
    uint16_t counts[NB_MAX_SOURCES] = {[MMNP] = 1, [MMNM] = 2, [MMTP] = 4};
    nb_feed_occur_counts(f->feed, b, 0, true, used, counts);
    assert_int_equal(b->output[NB_ESCR_CRU2], 3);
    assert_int_equal(b->output[NB_ESCR_CRU3], 1);
    assert_int_equal(b->driven, cru2 | cru3);
    assert_int_equal(used[0], 0);
    for (unsigned s = 0; s < 3; s++)
        assert_int_equal(counts[s], 0);
    /* At CPL 0 only CRU_ESCR3's MMNP. */
    used[0] = 1u << MMNP | 1u << MMNM;
    counts[MMNP] = 4;
    counts[MMNM] = 8;
    nb_feed_occur_counts(f->feed, b, 0, false, used, counts);
    assert_int_equal(b->output[NB_ESCR_CRU2], 3);
    assert_int_equal(b->output[NB_ESCR_CRU3], 5);
    assert_true(nb_pmu_tick_routed(f->pmu, b));
    assert_int_equal(iq_counter0(f), 3);
}

/* Routed ahead with one logical processor and no sampling, by level
 * (0: CPL 0, 1: CPL 3); an ESCR write makes the router stale and what it
 * routed refused, until it watches again. */
static void test_router_routes_ahead_until_stale(void **state)
{
    struct fixture *f = *state;
    struct nb_escr_outputs *b = &f->outputs;
    struct nb_router r;
    nb_router_init(&r, f->feed, 1);
    assert_false(nb_router_ahead(&r)); /* not watched yet */
    nb_router_watch(&r);
    assert_true(nb_router_ahead(&r));
    assert_false(nb_router_stale(&r));
    assert_true(nb_router_counts(&r, 1, MMNP));
    assert_true(nb_router_counts(&r, 1, MMNM));
    assert_true(nb_router_counts(&r, 0, MMNP));
    assert_false(nb_router_counts(&r, 0, MMNM));
    assert_false(nb_router_counts(&r, 1, MMTP));
    nb_router_occur(&r, b, 1, MMNP, 2);
    nb_router_occur(&r, b, 0, MMNM, 9);
    nb_router_occur(&r, b, 1, MMNM, 4);
    assert_int_equal(b->output[NB_ESCR_CRU2], 6);
    assert_int_equal(b->output[NB_ESCR_CRU3], 2);
    assert_int_equal(b->generation, f->feed->generation);
    assert_true(nb_pmu_tick_routed(f->pmu, b));
    assert_int_equal(iq_counter0(f), 6);

    /* Routed, then CRU_ESCR2 no longer counts MMNM: refused. */
    nb_router_occur(&r, b, 1, MMNM, 4);
    wrmsr(f, nb_escrs[NB_ESCR_CRU2].msr, escr_value(1u << 0, ESCR_T0_USR));
    assert_true(nb_router_stale(&r));
    assert_false(nb_pmu_tick_routed(f->pmu, b));
    assert_int_equal(iq_counter0(f), 6);
    nb_router_watch(&r);
    assert_false(nb_router_stale(&r));
    assert_false(nb_router_counts(&r, 1, MMNM));
    nb_router_occur(&r, b, 1, MMNM, 4);
    nb_router_occur(&r, b, 1, MMNP, 1);
    assert_true(nb_pmu_tick_routed(f->pmu, b));
    assert_int_equal(iq_counter0(f), 7);
}

/* Sampling (a counter with OVF_PMI) or two logical processors: nothing is
 * routed ahead. */
static void test_router_not_ahead_when_sampling_or_two_threads(void **state)
{
    struct fixture *f = *state;
    struct nb_router r, two;
    nb_router_init(&r, f->feed, 1);
    nb_router_watch(&r);
    assert_true(nb_router_ahead(&r));
    wrmsr(f, NB_CCCR_BASE + 12, cccr_of(CCCR_OVF_PMI_T0));
    assert_true(nb_router_stale(&r)); /* sampling changed; the routes did not */
    nb_router_watch(&r);
    assert_false(nb_router_ahead(&r));
    wrmsr(f, NB_CCCR_BASE + 12, cccr_of(0));
    nb_router_watch(&r);
    assert_true(nb_router_ahead(&r));
    nb_router_init(&two, f->feed, 2);
    nb_router_watch(&two);
    assert_false(nb_router_ahead(&two));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_occur_drives_the_routed_buses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_occur_counts_routes_and_clears, setup, teardown),
        cmocka_unit_test_setup_teardown(test_router_routes_ahead_until_stale, setup, teardown),
        cmocka_unit_test_setup_teardown(test_router_not_ahead_when_sampling_or_two_threads,
                                        setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
