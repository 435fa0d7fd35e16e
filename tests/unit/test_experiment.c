/* Experiment files: groups, comments, line numbers, bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pmu/experiment.h"

static struct experiment_set set;
static char error[1024];
static const struct nb_config config = {2, true};

static bool read_text(const char *text, size_t size)
{
    memset(&set, 0, sizeof set);
    error[0] = '\0';
    FILE *in = fmemopen((void *)text, size, "r");
    bool ok = experiment_read(&set, in, "x.exp", &config, error, sizeof error);
    fclose(in);
    return ok;
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
        cmocka_unit_test(test_too_many_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
