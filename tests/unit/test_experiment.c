/* Experiment files: groups, comments, line numbers, bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pmu/programming/experiment.h"
#include "pmu/catalog/netburst_events.h"

static struct experiment_set set;
static char error[1024];
static const struct nb_pmu_config config = {2, true};
static struct nb_pmu_config settled; /* the configuration experiment_read left */

/* Reads `text` for a NetBurst of `model` (NB_CPUID_MODEL_UNSET: the file's
 * strings choose it). */
static bool read_for_model(const char *text, size_t size, int model)
{
    memset(&set, 0, sizeof set);
    error[0] = '\0';
    settled = (struct nb_pmu_config){.model = model, .ht = true};
    FILE *in = fmemopen((void *)text, size, "r");
    bool ok = experiment_read(&set, in, "x.exp", &settled, error, sizeof error);
    fclose(in);
    return ok;
}

static bool read_text(const char *text, size_t size)
{
    return read_for_model(text, size, config.model);
}

static void test_groups_comments_lines(void **state)
{
    (void)state;
    const char text[] = "# a comment\n"
                        "netburst::branch_retired:MMTP   # taken\n"
                        "  netburst::uops_retired:NBOGUS\n"
                        "\n"
                        "# comment lines do not end an experiment\n"
                        "\n"
                        "netburst::memory_loads\n"
                        "# between\n"
                        "p5::data_read\n";
    /* the P5 event parses; mixing PMUs is the allocator's error */
    assert_true(read_text(text, sizeof text - 1));
    assert_int_equal(set.n, 4);
    assert_string_equal(set.text[0], "netburst::branch_retired:MMTP");
    assert_string_equal(set.text[1], "netburst::uops_retired:NBOGUS");
    assert_int_equal(set.line[0], 2);
    assert_int_equal(set.line[1], 3);
    assert_int_equal(set.line[2], 7);
    assert_int_equal(set.line[3], 9);
    assert_int_equal(set.requests[0].group, 0);
    assert_int_equal(set.requests[1].group, 0);
    assert_int_equal(set.requests[2].group, 1);
    assert_int_equal(set.requests[3].group, 1);
}

static void test_bad_event_names_line(void **state)
{
    (void)state;
    const char text[] = "netburst::branch_retired:MMTP\n\nnetburst::no_such_event\n";
    assert_false(read_text(text, sizeof text - 1));
    assert_string_equal(error, "x.exp:3: netburst::no_such_event: unknown NetBurst event "
                               "'no_such_event' ('pmubench list netburst' shows the events and "
                               "tagging metrics)");
}

static void test_nul_byte(void **state)
{
    (void)state;
    const char text[] = "netburst::branch_retired:MMTP\nnetburst::uops\0_retired:NBOGUS\n";
    assert_false(read_text(text, sizeof text - 1));
    assert_string_equal(error, "x.exp:2: unexpected NUL byte");
}

static void test_empty_file(void **state)
{
    (void)state;
    const char text[] = "# nothing but comments\n\n";
    assert_false(read_text(text, sizeof text - 1));
    assert_string_equal(error, "x.exp: no events");
}

/* A netburst_p:: line anywhere in the file chooses model 3 for every line
 * unless the model was given; a given model it conflicts with is an error
 * on its line. */
static void test_model_from_prefixes(void **state)
{
    (void)state;
    const char text[] = "netburst::uops_retired:NBOGUS\n\nnetburst_p::instr_completed:NBOGUS\n";
    assert_true(read_for_model(text, sizeof text - 1, NB_CPUID_MODEL_UNSET));
    assert_int_equal(settled.model, 3);
    assert_int_equal(set.n, 2);
    assert_int_equal(set.requests[1].spec.nb.event, nb_event_find("instr_completed"));

    const char plain[] = "netburst::uops_retired:NBOGUS\n";
    assert_true(read_for_model(plain, sizeof plain - 1, NB_CPUID_MODEL_UNSET));
    assert_int_equal(settled.model, 2);

    assert_true(read_for_model(text, sizeof text - 1, 4));
    assert_int_equal(settled.model, 4);
    assert_false(read_for_model(text, sizeof text - 1, 2));
    assert_string_equal(error, "x.exp:3: netburst_p::instr_completed:NBOGUS: netburst_p:: names "
                               "models 3, 4, 6; it conflicts with model 2");
}

/* A line too long gets the parser's message, on its line. */
static void test_long_line(void **state)
{
    (void)state;
    char text[700];
    memset(text, 'a', sizeof text);
    memcpy(text, "netburst::uops_retired:NBOGUS\n", 30);
    text[sizeof text - 1] = '\n';
    assert_false(read_text(text, sizeof text));
    assert_string_equal(error, "x.exp:2: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...: "
                               "event string longer than 511 characters");
}

static void test_too_many_events(void **state)
{
    (void)state;
    memset(&set, 0, sizeof set);
    for (int i = 0; i < ALLOC_MAX_REQUESTS; i++)
        assert_true(experiment_add(&set, &config, "netburst::uops_retired:NBOGUS", ALLOC_NO_GROUP,
                                   0, error, sizeof error));
    assert_false(experiment_add(&set, &config, "netburst::uops_retired:NBOGUS", ALLOC_NO_GROUP, 0,
                                error, sizeof error));
    assert_string_equal(error, "too many events (at most 256)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_groups_comments_lines),
        cmocka_unit_test(test_bad_event_names_line),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_model_from_prefixes),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_too_many_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
