/* nb_pmu_route() and nb_pmu_tick_buses(), the detection ahead and the
 * unreported cycle a timing model uses, against nb_pmu_event() and
 * nb_pmu_tick(): two PMUs programmed alike, fed the same random
 * occurrences (one through its routes onto buses, the other as
 * occurrences, some cycles both ways at once), must count the same, with
 * and without Hyper-Threading: counters, OVF flags, armed and delivered
 * PMIs, edge histories, cascade starts (docs/semantics.md, "Per-cycle
 * order"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/netburst_events.h"
#include "pmu/netburst_fields.h"
#include "pmu/netburst_metrics.h"
#include "pmu/netburst_msrs.h"
#include "pmu/netburst_pmu.h"

enum { CYCLES = 3000, MAX_OCCURRENCES = 6 };

static struct nb_pmu listed, driven;
static struct nb_buses buses;
/* What the random runs exercised: counter overflows, PMIs delivered on
 * the next increment, cascade starts, edge filters' edges. */
static unsigned overflows, pmis, cascades, edges;

/* Tallies what the reference PMU's last cycle did. */
static void tally(const uint64_t cccr_before[NB_NUM_COUNTERS])
{
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        overflows += listed.last.overflow[c];
        pmis += listed.last.pmi[c] != 0;
        cascades += !(cccr_before[c] & CCCR_ENABLE) && (listed.cccr[c] & CCCR_ENABLE);
        edges += (listed.cccr[c] & CCCR_EDGE) && listed.last.increment[c];
    }
}

static void write_both(uint32_t msr, uint64_t value)
{
    msr_status a = nb_pmu_wrmsr(&listed, msr, value);
    assert_int_equal(nb_pmu_wrmsr(&driven, msr, value), a);
}

/* Each present ESCR selects a random event it can detect, with random
 * sub-event and T0/T1 OS/USR bits. */
static void program_escrs(int model, bool ht)
{
    for (int e = 0; e < NB_NUM_ESCRS; e++) {
        if (!nb_escr_present(e, model))
            continue;
        unsigned select = (unsigned)(rand() % 64);
        int event = nb_event_on_escr(e, select);
        if (event < 0)
            continue;
        uint64_t threads = (uint64_t)(rand() % 16) & (ht ? 0xf : ESCR_T0_OS | ESCR_T0_USR);
        uint64_t mask = (uint64_t)(rand() & 0xffff);
        write_both(nb_escrs[e].msr, (uint64_t)select << ESCR_EVENT_SELECT_SHIFT |
                                        mask << ESCR_EVENT_MASK_SHIFT | threads);
    }
}

/* A random CCCR: it counts from a random ESCR it can read, sometimes
 * through COMPARE with a threshold, COMPLEMENT or EDGE, sometimes with
 * FORCE_OVF or OVF_PMI; a few wait for a cascade instead. */
static uint64_t random_cccr(bool ht)
{
    uint64_t cccr = (uint64_t)(rand() % 8) << CCCR_ESCR_SELECT_SHIFT |
                    (ht ? (uint64_t)(rand() % 4) << CCCR_ACTIVE_THREAD_SHIFT
                        : CCCR_ACTIVE_THREAD_ANY);
    cccr |= rand() % 5 ? CCCR_ENABLE : CCCR_CASCADE;
    if (rand() % 2)
        cccr |= CCCR_COMPARE | (uint64_t)(rand() % 16) << CCCR_THRESHOLD_SHIFT |
                (rand() % 3 ? 0 : CCCR_COMPLEMENT) | (rand() % 3 ? 0 : CCCR_EDGE);
    if (rand() % 16 == 0)
        cccr |= CCCR_FORCE_OVF;
    if (rand() % 4 == 0)
        cccr |= CCCR_OVF_PMI_T0 | (ht && rand() % 2 ? CCCR_OVF_PMI_T1 : 0);
    return cccr;
}

/* A counter (re)programmed: its CCCR, and a value a few counts short of
 * overflowing or anywhere. */
static void program_counter(int c, bool ht)
{
    write_both(NB_CCCR_BASE + (uint32_t)c, random_cccr(ht));
    uint64_t value = rand() % 2 ? PMU_COUNTER_MASK - (uint64_t)(rand() % 64)
                                : (uint64_t)rand();
    write_both(NB_COUNTER_BASE + (uint32_t)c, value);
}

/* Both PMUs' threads: active or not, at a random CPL. */
static void set_threads(bool ht)
{
    for (int t = 0; t < (ht ? 2 : 1); t++) {
        bool active = rand() % 4 != 0;
        int cpl = rand() % 4;
        assert_true(nb_pmu_set_thread(&listed, t, active, cpl));
        assert_true(nb_pmu_set_thread(&driven, t, active, cpl));
    }
}

/* One random occurrence: as an occurrence for `listed`; through its route
 * onto the buses for `driven`, or as an occurrence there too. */
static void occur(int model, bool ht)
{
    int event;
    do
        event = rand() % NB_NUM_EVENTS;
    while (!(nb_event_table[event].models & (1u << model)));
    uint16_t mask = (uint16_t)(1u << (rand() % 16));
    int thread = ht ? rand() % 2 : 0;
    uint32_t count = 1 + (uint32_t)(rand() % (rand() % 8 ? 3 : 20));
    assert_true(nb_pmu_event(&listed, event, mask, thread, count));
    if (rand() % 4 == 0) {
        assert_true(nb_pmu_event(&driven, event, mask, thread, count));
        return;
    }
    nb_buses_add(&buses, nb_pmu_route(&driven, event, mask, driven.thread_context[thread]),
                 count);
}

/* A handler takes each thread's pending PMI now and then (IEBS). */
static void take_pmis(void)
{
    for (int t = 0; t < 2; t++) {
        if (rand() % 4)
            continue;
        struct nb_pmi_sample a, b;
        bool taken = nb_pmu_take_pmi(&listed, t, &a);
        assert_int_equal(nb_pmu_take_pmi(&driven, t, &b), taken);
        if (taken)
            assert_int_equal(a.delivered, b.delivered);
    }
}

static void check_same(void)
{
    assert_memory_equal(listed.counter, driven.counter, sizeof listed.counter);
    assert_memory_equal(listed.cccr, driven.cccr, sizeof listed.cccr);
    assert_memory_equal(listed.pmi_armed, driven.pmi_armed, sizeof listed.pmi_armed);
    assert_memory_equal(listed.edge_history, driven.edge_history, sizeof listed.edge_history);
    assert_memory_equal(listed.pending, driven.pending, sizeof listed.pending);
    assert_int_equal(listed.pebs_armed, driven.pebs_armed);
    assert_int_equal(listed.last.pebs_pmi, driven.last.pebs_pmi);
    assert_int_equal(listed.cycles, driven.cycles);
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        assert_int_equal(driven.armed >> c & 1, driven.pmi_armed[c] != 0);
}

static void run(int model, bool ht)
{
    struct nb_pmu_config config = {model, ht};
    assert_true(nb_pmu_init(&listed, config));
    assert_true(nb_pmu_init(&driven, config));
    program_escrs(model, ht);
    if (rand() % 2)
        write_both(MSR_IA32_PEBS_ENABLE, PEBS_ENABLE_PEBS);
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        program_counter(c, ht);
    for (int cycle = 0; cycle < CYCLES; cycle++) {
        if (rand() % 16 == 0)
            set_threads(ht);
        if (rand() % 64 == 0)
            program_counter(rand() % NB_NUM_COUNTERS, ht);
        for (int n = rand() % MAX_OCCURRENCES; n > 0; n--)
            occur(model, ht);
        uint64_t cccr_before[NB_NUM_COUNTERS];
        memcpy(cccr_before, listed.cccr, sizeof cccr_before);
        nb_pmu_tick(&listed);
        nb_pmu_tick_buses(&driven, &buses);
        tally(cccr_before);
        assert_int_equal(buses.driven, 0);
        for (int e = 0; e < NB_NUM_ESCRS; e++)
            assert_int_equal(buses.bus[e], 0);
        check_same();
        take_pmis();
    }
    nb_pmu_fini(&listed);
    nb_pmu_fini(&driven);
}

static void test_routes_count_as_occurrences(void **state)
{
    (void)state;
    srand(6);
    static const int models[] = {0, 1, 2, 3, 4, 6};
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++)
        for (int programming = 0; programming < 8; programming++) {
            run(models[m], false);
            run(models[m], true);
        }
    assert_true(overflows > 100 && pmis > 100 && cascades > 10 && edges > 100);
}

/* A route is what the ESCRs count: an ESCR selecting another event, or
 * whose T bits exclude the context, is not on it. */
static void test_route_of_one_escr(void **state)
{
    (void)state;
    assert_true(nb_pmu_init(&driven, (struct nb_pmu_config){2, false}));
    int br = nb_event_find("branch_retired");
    const struct nb_event_info *event = &nb_event_table[br];
    uint64_t escr = (uint64_t)event->select << ESCR_EVENT_SELECT_SHIFT |
                    1ull << ESCR_EVENT_MASK_SHIFT | ESCR_T0_USR;
    assert_int_equal(nb_pmu_wrmsr(&driven, nb_escrs[NB_ESCR_CRU2].msr, escr), MSR_OK);
    uint8_t user = driven.thread_context[0]; /* thread 0 starts at CPL 3 */
    assert_int_equal(nb_pmu_route(&driven, br, 1, user), 1ull << NB_ESCR_CRU2);
    assert_int_equal(nb_pmu_route(&driven, br, 2, user), 0);
    assert_true(nb_pmu_set_thread(&driven, 0, true, 0));
    assert_int_equal(nb_pmu_route(&driven, br, 1, driven.thread_context[0]), 0);
    assert_int_equal(nb_pmu_route(&driven, nb_event_find("uops_retired"), 1, user), 0);
    nb_pmu_fini(&driven);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_routes_count_as_occurrences),
        cmocka_unit_test(test_route_of_one_escr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
