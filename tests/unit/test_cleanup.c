/* What a fatal signal undoes (util/cleanup.h): listed temporary files
 * removed, listed children ended (their output pipe closed first), the
 * process ended by the signal; a child ended by PR_SET_PDEATHSIG when its
 * parent is killed by SIGKILL.  Each case runs in a forked process (the
 * "parent"), which the test process waits for. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/cleanup.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/pmubench-cleanup-XXXXXX");
    return mkdtemp(dir) && setenv("TMPDIR", dir, 1) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return rmdir(dir);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Forks the parent, which runs `body` with the write end of a pipe (to
 * tell the test a path or a pid), then raises `sig`; returns its pid and
 * the read end in *pipe_read. */
static pid_t run_parent(void (*body)(int out), int sig, int *pipe_read)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        body(fds[1]);
        raise(sig);
        _exit(3);
    }
    assert_true(pid > 0);
    close(fds[1]);
    *pipe_read = fds[0];
    return pid;
}

static void assert_killed_by(pid_t pid, int sig)
{
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), sig);
}

/* ---- Temporary files */

static void make_temporary(int out)
{
    static struct cleanup_file file;
    static char path[4096];
    char error[256];
    if (!cleanup_temporary(&file, "pmubench-test", path, sizeof path, error, sizeof error))
        _exit(4);
    if (write(out, path, strlen(path) + 1) < 0)
        _exit(5);
}

static void a_signal_removes_a_temporary_file(void **state)
{
    (void)state;
    int in;
    pid_t pid = run_parent(make_temporary, SIGTERM, &in);
    char path[4096] = "";
    assert_true(read(in, path, sizeof path) > 0);
    close(in);
    assert_killed_by(pid, SIGTERM);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s/pmubench-test-", dir);
    assert_memory_equal(path, prefix, strlen(prefix));
    assert_int_equal(strlen(path), strlen(prefix) + 6);
    assert_false(exists(path));
}

/* A file removed and forgotten is not the handler's: a file made later
 * under its name stays. */
static void remove_and_forget(int out)
{
    static struct cleanup_file file;
    static char path[4096];
    char error[256];
    if (!cleanup_temporary(&file, "pmubench-test", path, sizeof path, error, sizeof error))
        _exit(4);
    cleanup_remove_file(&file);
    FILE *again = fopen(path, "w");
    if (!again || fclose(again) != 0 || write(out, path, strlen(path) + 1) < 0)
        _exit(5);
}

static void a_removed_file_is_forgotten(void **state)
{
    (void)state;
    int in;
    pid_t pid = run_parent(remove_and_forget, SIGINT, &in);
    char path[4096] = "";
    assert_true(read(in, path, sizeof path) > 0);
    close(in);
    assert_killed_by(pid, SIGINT);
    assert_true(exists(path));
    assert_int_equal(unlink(path), 0);
}

static void cannot_create_in_a_missing_directory(void **state)
{
    (void)state;
    char missing[128], path[4096], error[512], want[512];
    snprintf(missing, sizeof missing, "%s/none", dir);
    setenv("TMPDIR", missing, 1);
    struct cleanup_file file;
    assert_false(cleanup_temporary(&file, "x", path, sizeof path, error, sizeof error));
    snprintf(want, sizeof want, "cannot create a temporary file in %s: No such file or directory",
             missing);
    assert_string_equal(error, want);
}

/* ---- Children */

/* A child that sleeps (its pid to the test once it runs), then the
 * signal. */
static void sleeping_child(int out)
{
    int ready[2];
    if (pipe(ready) != 0)
        _exit(4);
    pid_t child = cleanup_fork(false, -1);
    if (child == 0) {
        close(out);
        close(ready[0]);
        close(ready[1]);
        for (;;)
            pause();
    }
    close(ready[1]);
    char byte;
    if (child < 0 || read(ready[0], &byte, 1) != 0 || write(out, &child, sizeof child) < 0)
        _exit(4);
}

static void a_signal_ends_the_children(void **state)
{
    (void)state;
    int in;
    pid_t pid = run_parent(sleeping_child, SIGTERM, &in);
    pid_t child = 0;
    assert_int_equal(read(in, &child, sizeof child), (ssize_t)sizeof child);
    close(in);
    assert_killed_by(pid, SIGTERM);
    /* The parent waited for it (reaped it) before it ended. */
    assert_int_equal(kill(child, 0), -1);
    assert_int_equal(errno, ESRCH);
}

/* A child that ignores SIGTERM and writes to the parent until its pipe is
 * closed: the handler closes it first, so the child ends by SIGPIPE at
 * once (without that, by SIGKILL after 3 s). */
static void writing_child(int out)
{
    int fds[2];
    if (pipe(fds) != 0)
        _exit(4);
    pid_t child = cleanup_fork(false, fds[0]);
    if (child == 0) {
        close(out);
        close(fds[0]);
        signal(SIGTERM, SIG_IGN);
        static const char block[4096];
        for (;;)
            if (write(fds[1], block, sizeof block) < 0)
                _exit(6);
    }
    close(fds[1]);
    if (child < 0 || write(out, &child, sizeof child) < 0)
        _exit(4);
    /* The pipe is full: the child waits on it. */
    sleep(1);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void the_pipe_a_child_writes_is_closed_first(void **state)
{
    (void)state;
    int in;
    pid_t pid = run_parent(writing_child, SIGTERM, &in);
    pid_t child = 0;
    assert_int_equal(read(in, &child, sizeof child), (ssize_t)sizeof child);
    close(in);
    double start = now();
    assert_killed_by(pid, SIGTERM);
    /* Measured from before the parent's sleep of 1 s; SIGKILL comes at 3 s
     * after the signal. */
    assert_true(now() - start < 2.5);
}

/* SIGKILL of the parent: nothing can be done then, but the child gets
 * PR_SET_PDEATHSIG's SIGTERM.  The test process is the subreaper: the
 * orphan becomes its child. */
static void the_parents_death_ends_the_child(void **state)
{
    (void)state;
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    int in;
    pid_t pid = run_parent(sleeping_child, SIGKILL, &in);
    pid_t child = 0;
    assert_int_equal(read(in, &child, sizeof child), (ssize_t)sizeof child);
    close(in);
    assert_killed_by(pid, SIGKILL);
    /* Waited for 5 s at most: a child that lives on is a failure. */
    int status = 0;
    pid_t waited = 0;
    for (int i = 0; i < 500 && (waited = waitpid(child, &status, WNOHANG)) == 0; i++)
        usleep(10000);
    if (waited == 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    assert_int_equal(waited, child);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
}

/* cleanup_wait: the child's wait status. */
static void wait_returns_the_status(void **state)
{
    (void)state;
    pid_t child = cleanup_fork(false, -1);
    if (child == 0) {
        /* exec'd, so that a memory checker running this test ends with the
         * fork (its leak report in the child would change the status). */
        execl("/bin/sh", "sh", "-c", "exit 7", (char *)NULL);
        _exit(127);
    }
    assert_true(child > 0);
    int status = cleanup_wait(child);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 7);
    assert_int_equal(cleanup_wait(child), -1);
    assert_int_equal(errno, ECHILD);
}

int main(void)
{
    /* The tests mean a process started with SIGINT's default action; a
     * shell starts a background job with SIGINT ignored. */
    signal(SIGINT, SIG_DFL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_signal_removes_a_temporary_file, setup, teardown),
        cmocka_unit_test_setup_teardown(a_removed_file_is_forgotten, setup, teardown),
        cmocka_unit_test_setup_teardown(cannot_create_in_a_missing_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(a_signal_ends_the_children, setup, teardown),
        cmocka_unit_test_setup_teardown(the_pipe_a_child_writes_is_closed_first, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(the_parents_death_ends_the_child, setup, teardown),
        cmocka_unit_test_setup_teardown(wait_returns_the_status, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
