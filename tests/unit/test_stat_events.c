/* stat's event strings planned on a model (sim/stat/stat_events.c): the
 * model's prefix added, the plan, the messages and errno of bad input,
 * and which names repeat an event. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sim/stat/stat_events.h"

static struct stat_model choose(const char *name)
{
    struct stat_model model;
    char error[256];
    if (!stat_model_choose(name, &model, error, sizeof error))
        fail_msg("%s", error);
    return model;
}

/* The default sets plan on their models, without a prefix: the P5's six
 * events on its two counters in three runs, the NetBurst's in one. */
static void plans_the_default_sets(void **state)
{
    (void)state;
    static const char *const names[] = {"p5", "netburst-willamette", "netburst-prescott"};
    static const int runs[] = {3, 1, 1};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct stat_model model = choose(names[i]);
        const char *const *events = stat_model_default_events(&model);
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
    struct stat_model model = choose(model_name);
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
    struct stat_model model = choose("netburst");
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
    struct stat_model model = choose("p5");
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plans_the_default_sets),
        cmocka_unit_test(refuses_bad_events),
        cmocka_unit_test(refuses_too_many),
        cmocka_unit_test(finds_repeated_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
