/* stat's event strings planned on a model (apps/stat/stat_events.c): the
 * model's prefix added, the plan, the messages and errno of bad input,
 * and which names repeat an event. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pmu/catalog/generic_events.h"
#include "apps/stat/stat_events.h"
#include "tests/unit/unit_helpers.h"

/* The default sets plan on their models, without a prefix: the P5's six
 * events on its two counters in three runs, the NetBurst's in one. */
static void plans_the_default_sets(void **state)
{
    (void)state;
    static const char *const names[] = {"p5", "netburst-willamette", "netburst-prescott"};
    static const int runs[] = {3, 1, 1};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct machine_config model = unit_machine(names[i]);
        const char *const *events = machine_default_events(&model);
        int n = 0;
        while (events[n])
            n++;
        struct alloc_plan plan;
        char error[1024] = "";
        assert_true(stat_events_plan(&model, events, n, false, &plan, error, sizeof error));
        assert_int_equal(plan.n_runs, runs[i]);
        assert_int_equal(plan.runs[0].pmu, model.pmu);
        alloc_plan_free(&plan);
    }
}

static void refuses(const char *model_name, const char *event, bool hyper_threading,
                    const char *message)
{
    struct machine_config model = unit_machine(model_name);
    struct alloc_plan plan;
    char error[1024] = "";
    errno = 0;
    assert_false(stat_events_plan(&model, &event, 1, hyper_threading, &plan, error,
                                  sizeof error));
    assert_int_equal(errno, EINVAL);
    assert_string_equal(error, message);
}

/* Bad input: the parser's line with the prefixed name, the PMU check's,
 * Hyper-Threading's. */
static void refuses_bad_events(void **state)
{
    (void)state;
    refuses("p5", "bogus", false,
            "p5::bogus: unknown P5 event 'bogus' ('pmubench list p5' shows the events; "
            "p5::clocks counts clocks)");
    refuses("p5", "clocks:q", false, "p5::clocks:q: unknown P5 modifier 'q' (valid: u, k)");
    refuses("netburst", "p5::clocks", false,
            "'p5::clocks': not an event of the model's PMU (-m)");
    refuses("netburst", "instr_completed:NBOGUS", false,
            "netburst::instr_completed:NBOGUS: event instr_completed does not exist on model 2 "
            "(it needs netburst_p: models 3, 4, 6)");
    refuses("netburst", "instr_retired:NBOGUSNTAG:t1", false,
            "netburst::instr_retired:NBOGUSNTAG:t1: ':t1' needs Hyper-Threading (this model "
            "runs with ht=off)");
    struct machine_config model = unit_machine("netburst");
    const char *t1 = "instr_retired:NBOGUSNTAG:t1";
    struct alloc_plan plan;
    char error[1024] = "";
    assert_true(stat_events_plan(&model, &t1, 1, true, &plan, error, sizeof error));
    alloc_plan_free(&plan);
}

/* More events than the allocator plans: "events: ...". */
static void refuses_too_many(void **state)
{
    (void)state;
    struct machine_config model = unit_machine("p5");
    const char *events[ALLOC_MAX_REQUESTS + 1];
    for (int i = 0; i <= ALLOC_MAX_REQUESTS; i++)
        events[i] = "clocks";
    struct alloc_plan plan;
    char error[1024] = "";
    errno = 0;
    assert_false(stat_events_plan(&model, events, ALLOC_MAX_REQUESTS + 1, false, &plan, error,
                                  sizeof error));
    assert_int_equal(errno, EINVAL);
    assert_string_equal(error, "events: 257 events: at most 256 can be planned at once");
}

static void finds_repeated_events(void **state)
{
    (void)state;
    const char *const events[] = {"p5::clocks", "data_read:u"};
    assert_true(stat_events_repeated(events, 2, "CLOCKS"));
    assert_true(stat_events_repeated(events, 2, "p5::Data_Read:U"));
    assert_false(stat_events_repeated(events, 2, "data_read:k"));
    assert_false(stat_events_repeated(events, 1, "data_read:u"));
}

/* The two plans are the same: runs, counters, ESCRs and register values. */
static void assert_same_plan(const struct alloc_plan *a, const struct alloc_plan *b)
{
    assert_int_equal(a->n_runs, b->n_runs);
    for (int r = 0; r < a->n_runs; r++) {
        assert_int_equal(a->runs[r].n, b->runs[r].n);
        for (int i = 0; i < a->runs[r].n; i++) {
            const struct alloc_assignment *x = &a->runs[r].assignments[i];
            const struct alloc_assignment *y = &b->runs[r].assignments[i];
            assert_int_equal(x->request, y->request);
            assert_int_equal(x->counter, y->counter);
            assert_int_equal(x->escr, y->escr);
            assert_int_equal(x->escr_value, y->escr_value);
            assert_int_equal(x->cccr_value, y->cccr_value);
        }
    }
}

static struct alloc_plan plan_of(const struct machine_config *model, const char *const *events, int n)
{
    struct alloc_plan plan;
    char error[1024] = "";
    if (!stat_events_plan(model, events, n, false, &plan, error, sizeof error))
        fail_msg("%s", error);
    return plan;
}

/* perf's generic names plan as the events of the model's PMU they name
 * (pmu/catalog/generic_events.c), with a prefix or without, with modifiers. */
static void plans_generic_names(void **state)
{
    (void)state;
    static const char *const models[] = {"p5", "netburst-willamette", "netburst-prescott"};
    static const char *const names[] = {"cycles", "instructions:u", "p5::branches",
                                        "branch-misses", "cache-references", "cache-misses:k",
                                        "bus-cycles"};
    enum { N = sizeof names / sizeof names[0] };
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        struct machine_config model = unit_machine(models[m]);
        const char *generic[N];
        char native[N][GENERIC_NATIVE_SIZE], error[256];
        const char *natives[N];
        for (int i = 0; i < N; i++) {
            /* the P5's prefix on the P5, the NetBurst's on the NetBurst */
            generic[i] = model.pmu == PMU_P5 || i != 2 ? names[i] : "netburst::branches";
            const char *key = event_spec_key(generic[i]);
            assert_true(generic_event_native(generic_event_find(key), key, model.pmu, native[i],
                                             sizeof native[i], error, sizeof error));
            natives[i] = native[i];
        }
        struct alloc_plan by_generic = plan_of(&model, generic, N);
        struct alloc_plan by_native = plan_of(&model, natives, N);
        assert_same_plan(&by_generic, &by_native);
        alloc_plan_free(&by_generic);
        alloc_plan_free(&by_native);
    }
    refuses("p5", "ref-cycles", false,
            "ref-cycles: the P5 has no event counting reference cycles, a clock of constant "
            "rate (docs/events.md, \"Generic events\")");
    refuses("netburst", "netburst::ref-cycles:u", false,
            "ref-cycles: the NetBurst PMU has no event counting reference cycles, a clock of "
            "constant rate (docs/events.md, \"Generic events\")");
    refuses("p5", "cycles:q", false, "p5::clocks:q: unknown P5 modifier 'q' (valid: u, k)");
    refuses("netburst-prescott", "foo::cycles", false,
            "foo::cycles: unknown PMU 'foo' (expected netburst, netburst_p or p5)");
    refuses("netburst-northwood", "netburst_p::cycles", false,
            "netburst_p::global_power_events:RUNNING: netburst_p:: names models 3, 4, 6; it "
            "conflicts with model 2");
}

/* Which names stat's output shows with the event they counted. */
static void names_what_generic_names_count(void **state)
{
    (void)state;
    char native[GENERIC_NATIVE_SIZE];
    assert_true(stat_events_generic(PMU_P5, "p5::Cycles:u", native, sizeof native));
    assert_string_equal(native, "clocks:u");
    assert_true(stat_events_generic(PMU_NETBURST, "cache-misses", native, sizeof native));
    assert_string_equal(native, "BSQ_cache_reference:RD_2ndL_MISS");
    /* the P5's branches is its own event; the others are no generic names,
     * or one the PMU lacks */
    static const char *const plain[] = {"branches", "BRANCHES:u", "clocks", "data_read",
                                        "ref-cycles"};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        assert_false(stat_events_generic(PMU_P5, plain[i], native, sizeof native));
    assert_true(stat_events_generic(PMU_NETBURST, "branches", native, sizeof native));
    assert_string_equal(native, "branch_retired:MMNP:MMNM:MMTP:MMTM");
}

/* The default set asks the generic events' questions with their events,
 * but for the NetBurst's branches: retired_branch_type, Linux's encoding
 * (docs/stat.md, "Default events"). */
static void default_sets_are_generic_events(void **state)
{
    (void)state;
    static const char *const questions[] = {"cycles", "instructions", "cache-references",
                                            "cache-misses", "branches", "branch-misses"};
    static const char *const models[] = {"p5", "netburst"};
    for (size_t m = 0; m < 2; m++) {
        struct machine_config model = unit_machine(models[m]);
        const char *const *defaults = machine_default_events(&model);
        for (size_t i = 0; i < sizeof questions / sizeof questions[0]; i++) {
            char native[GENERIC_NATIVE_SIZE], error[256];
            assert_true(generic_event_native(generic_event_find(questions[i]), questions[i],
                                             model.pmu, native, sizeof native, error,
                                             sizeof error));
            if (model.pmu == PMU_NETBURST && i == 4)
                assert_string_equal(defaults[i],
                                    "retired_branch_type:CONDITIONAL:CALL:RETURN:INDIRECT");
            else
                assert_string_equal(defaults[i], native);
        }
        assert_null(defaults[6]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plans_the_default_sets),
        cmocka_unit_test(refuses_bad_events),
        cmocka_unit_test(refuses_too_many),
        cmocka_unit_test(finds_repeated_events),
        cmocka_unit_test(plans_generic_names),
        cmocka_unit_test(names_what_generic_names_count),
        cmocka_unit_test(default_sets_are_generic_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
