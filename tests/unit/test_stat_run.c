/* Counting a program's run (apps/stat/stat_run.h, stat_measure_program),
 * over the simulated P5's backend in place of the Linux msr driver: the
 * program's exit status through, and a program that cannot be run: one
 * line, its errno, nothing printed (the child that failed to exec says
 * nothing), the counters given back; the program a child that a signal
 * ending pmubench ends (util/cleanup.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmu/catalog/event_spec.h"
#include "pmu/emulated/p5_pmu.h"
#include "apps/stat/stat_run.h"

#define CESR 0x11

/* The plan of p5::clocks. */
static void plan_clocks(struct alloc_request *request, struct alloc_plan *plan)
{
    struct nb_pmu_config config = {2, false};
    char error[256];
    *request = (struct alloc_request){.group = ALLOC_NO_GROUP};
    if (!event_spec_parse("p5::clocks", &config, &request->spec, error, sizeof error))
        fail_msg("%s", error);
    struct alloc_error why;
    assert_true(alloc_plan_make(request, 1, &config, plan, &why));
}

struct measured {
    bool ok;
    int error_number, exit_status;
    uint64_t count, cesr;
    char error[1024];
    off_t stderr_bytes;
};

/* stat_measure_program on `argv`, stderr set aside meanwhile. */
static struct measured measure(char *const argv[])
{
    struct alloc_request request;
    struct alloc_plan plan;
    plan_clocks(&request, &plan);
    struct msr_backend *backend = p5_backend_create();
    assert_non_null(backend);
    char err_path[] = "/tmp/test_stat_run_XXXXXX";
    int err = mkstemp(err_path);
    assert_true(err >= 0);
    fflush(stderr);
    int saved = dup(2);
    assert_true(saved >= 0);
    dup2(err, 2);
    close(err);
    struct measured m = {.exit_status = -1};
    errno = 0;
    m.ok = stat_measure_program(backend, 0, &plan, argv, &m.count, &m.exit_status, m.error,
                                sizeof m.error);
    m.error_number = errno;
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    struct stat st;
    assert_int_equal(stat(err_path, &st), 0);
    m.stderr_bytes = st.st_size;
    unlink(err_path);
    assert_int_equal(msr_read(backend, 0, CESR, &m.cesr), MSR_OK);
    msr_backend_destroy(backend);
    alloc_plan_free(&plan);
    return m;
}

static void test_exit_status(void **state)
{
    (void)state;
    char *argv[] = {"/bin/sh", "-c", "exit 5", NULL};
    struct measured m = measure(argv);
    if (!m.ok)
        fail_msg("%s", m.error);
    assert_int_equal(m.exit_status, 5);
    assert_int_equal(m.stderr_bytes, 0);
    assert_int_equal(m.cesr, 0); /* given back */
}

static void test_cannot_run(void **state)
{
    (void)state;
    char *missing[] = {"/nonexistent/prog", NULL};
    struct measured m = measure(missing);
    assert_false(m.ok);
    assert_string_equal(m.error, "cannot run '/nonexistent/prog': No such file or directory");
    assert_int_equal(m.error_number, ENOENT);
    assert_int_equal(m.stderr_bytes, 0);
    assert_int_equal(m.cesr, 0);
    char *directory[] = {"/tmp", NULL};
    m = measure(directory);
    assert_false(m.ok);
    assert_string_equal(m.error, "cannot run '/tmp': Permission denied");
    assert_int_equal(m.error_number, EACCES);
    assert_int_equal(m.stderr_bytes, 0);
}

/* SIGTERM to pmubench while the program runs: the program is ended too
 * (docs/exit-status.md, "Signals"), not left running. */
static void test_signal_ends_program(void **state)
{
    (void)state;
    char pid_path[] = "/tmp/test_stat_run_pid_XXXXXX";
    int fd = mkstemp(pid_path);
    assert_true(fd >= 0);
    close(fd);
    char script[128];
    snprintf(script, sizeof script, "echo $$ > %s; exec sleep 30", pid_path);
    char *argv[] = {"/bin/sh", "-c", script, NULL};
    fflush(NULL);
    pid_t parent = fork();
    if (parent == 0) {
        measure(argv);
        _exit(3);
    }
    assert_true(parent > 0);
    long program = 0;
    for (int i = 0; i < 500 && program <= 0; i++) {
        usleep(10 * 1000);
        FILE *in = fopen(pid_path, "r");
        if (in && fscanf(in, "%ld", &program) != 1)
            program = 0;
        if (in)
            fclose(in);
    }
    unlink(pid_path);
    assert_true(program > 0);
    kill(parent, SIGTERM);
    int status;
    assert_int_equal(waitpid(parent, &status, 0), parent);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    int alive = kill((pid_t)program, 0) == 0;
    if (alive)
        kill((pid_t)program, SIGKILL);
    assert_false(alive);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_status),
        cmocka_unit_test(test_cannot_run),
        cmocka_unit_test(test_signal_ends_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
