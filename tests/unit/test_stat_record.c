/* What `stat` does through apps/stat/stat_run.h besides counting:
 * stat_record_program's temporary trace (created under $TMPDIR as
 * "pmubench-stat-XXXXXX", gone when the recording fails, and the failure
 * to make it), and stat_msr_backend's target, the model's kind (the
 * processor it refuses to write MSRs on). */
#include <dirent.h>
#include <errno.h>
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

#include "pmu/programming/msr_linux.h"
#include "apps/stat/stat_run.h"

/* The entries of `dir` other than . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

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
    assert_int_equal(entries(dir), 0);
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

/* stat_msr_backend of `pmu` writing `msr` (one the target allows): the
 * refusal names the target's family, unless this is such a processor. */
static void check_target(enum pmu_kind pmu, enum msr_target target, uint32_t msr,
                         const char *family)
{
    assert_true(msr_linux_allows_write(target, msr));
    struct machine_config model = {.pmu = pmu};
    struct msr_backend *backend = stat_msr_backend("/nonexistent/cpu/%d/msr", &model);
    assert_non_null(backend);
    struct cpu_identity id = {{0}, 0, 0};
    bool identified = cpu_identity_read(&id);
    assert_int_not_equal(msr_write(backend, 0, msr, 0), MSR_OK);
    char want[256];
    if (!identified)
        snprintf(want, sizeof want, "refusing to write MSRs: CPUID is not available");
    else if (strcmp(id.vendor, "GenuineIntel") != 0 ||
             id.family != (target == MSR_TARGET_P5 ? 5u : 15u))
        snprintf(want, sizeof want,
                 "refusing to write MSRs: CPUID reports %s family %u model %u, not a "
                 "GenuineIntel %s processor",
                 id.vendor, id.family, id.model, family);
    else
        snprintf(want, sizeof want, "cannot open /nonexistent/cpu/0/msr: No such file or "
                                    "directory (load the msr driver: modprobe msr)");
    assert_string_equal(msr_error_message(backend), want);
    msr_backend_destroy(backend);
}

static void test_msr_backend_target(void **state)
{
    (void)state;
    check_target(PMU_P5, MSR_TARGET_P5, 0x11, "family 5 (P5 Pentium)");
    check_target(PMU_NETBURST, MSR_TARGET_NETBURST, 0x360, "family 15 (NetBurst)");
}

static void test_msr_backend_long_path(void **state)
{
    (void)state;
    static char device[PATH_MAX + 1];
    memset(device, 'a', PATH_MAX);
    struct machine_config model = {.pmu = PMU_P5};
    errno = 0;
    assert_null(stat_msr_backend(device, &model));
    assert_int_equal(errno, ENAMETOOLONG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_failed_recording_leaves_nothing),
        cmocka_unit_test(test_no_temporary_folder),
        cmocka_unit_test(test_msr_backend_target),
        cmocka_unit_test(test_msr_backend_long_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
