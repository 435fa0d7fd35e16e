/* What `stat` does through apps/stat/stat_run.h besides counting:
 * stat_record_program's temporary trace (created under $TMPDIR as
 * "pmubench-stat-XXXXXX", gone when the recording fails, and the failure
 * to make it). */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "apps/stat/stat_run.h"
#include "tests/unit/unit_helpers.h"

static void test_failed_recording_leaves_nothing(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_stat_record.XXXXXX", prefix[64];
    assert_non_null(mkdtemp(dir));
    assert_int_equal(setenv("TMPDIR", dir, 1), 0);
    char *missing[] = {"/nonexistent/prog", NULL};
    struct cleanup_file temporary;
    char trace[PATH_MAX], error[PATH_MAX + 2048];
    struct record_result result;
    assert_int_equal(stat_record_program(missing, NULL, "p5", NULL, &temporary, trace,
                                         sizeof trace, &result, error, sizeof error),
                     RECORD_BAD_INPUT);
    assert_string_equal(error, "cannot run '/nonexistent/prog': No such file or directory");
    snprintf(prefix, sizeof prefix, "%s/pmubench-stat-", dir);
    assert_int_equal(strncmp(trace, prefix, strlen(prefix)), 0);
    assert_int_equal(strlen(trace), strlen(prefix) + 6);
    assert_int_equal(unit_dir_entries(dir), 0);
    assert_false(result.execed);
    assert_int_equal(rmdir(dir), 0);
}

static void test_no_temporary_folder(void **state)
{
    (void)state;
    assert_int_equal(setenv("TMPDIR", "/nonexistent/folder", 1), 0);
    char *program[] = {"true", NULL};
    struct cleanup_file temporary;
    char trace[PATH_MAX], error[PATH_MAX + 2048];
    struct record_result result;
    assert_int_equal(stat_record_program(program, "p5", "host", NULL, &temporary, trace,
                                         sizeof trace, &result, error, sizeof error),
                     RECORD_FAILED);
    assert_string_equal(error, "cannot create a temporary file in /nonexistent/folder: No such "
                               "file or directory");
    assert_false(result.execed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_failed_recording_leaves_nothing),
        cmocka_unit_test(test_no_temporary_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
