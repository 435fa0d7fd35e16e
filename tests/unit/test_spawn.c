/* Starting a program (util/spawn.h): its wait status; a program that does
 * not exist, its errno and line; the setup applied (standard output
 * redirected, the environment prepared, a CPU refused); a held child that
 * runs only once released. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/spawn.h"

static const struct spawn_options plain = {.in = SPAWN_KEEP, .out = SPAWN_KEEP,
                                           .cpu = SPAWN_KEEP, .reading = -1};

/* What `fd` holds from its start, read to its end. */
static void read_all(int fd, char *text, size_t size)
{
    size_t n = 0;
    ssize_t got;
    lseek(fd, 0, SEEK_SET);
    while (n < size - 1 && (got = read(fd, text + n, size - 1 - n)) > 0)
        n += (size_t)got;
    text[n] = '\0';
}

static int temporary_file(void)
{
    char path[] = "/tmp/test_spawn_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    return fd;
}

static void test_status(void **state)
{
    (void)state;
    char *argv[] = {"sh", "-c", "exit 7", NULL}; /* found on PATH */
    struct spawn child;
    struct spawn_failure failure;
    assert_true(spawn_start(&child, argv, &plain, &failure));
    assert_int_equal(failure.step, SPAWN_STARTED);
    int status = spawn_wait(&child);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 7);
}

static void test_missing_program(void **state)
{
    (void)state;
    char *argv[] = {"/nonexistent/prog", NULL};
    struct spawn child;
    struct spawn_failure failure;
    assert_false(spawn_start(&child, argv, &plain, &failure));
    assert_int_equal(failure.step, SPAWN_EXEC);
    assert_int_equal(failure.error_number, ENOENT);
    char error[256];
    errno = 0;
    spawn_message(&failure, argv[0], error, sizeof error);
    assert_string_equal(error, "cannot run '/nonexistent/prog': No such file or directory");
    assert_int_equal(errno, ENOENT);
    /* The child that failed is reaped: no child is left. */
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
    char *on_path[] = {"pmubench-no-such-program", NULL};
    assert_false(spawn_start(&child, on_path, &plain, &failure));
    assert_int_equal(failure.step, SPAWN_EXEC);
    assert_int_equal(failure.error_number, ENOENT);
}

static void test_fork_message(void **state)
{
    (void)state;
    struct spawn_failure failure = {SPAWN_FORK, EAGAIN};
    char error[256];
    spawn_message(&failure, "prog", error, sizeof error);
    assert_string_equal(error, "cannot start 'prog': Resource temporarily unavailable");
    assert_int_equal(errno, EIO);
}

static void set_greeting(const void *arg)
{
    setenv("SPAWN_GREETING", arg, 1);
}

/* Standard output to a file, the input from /dev/null, the environment
 * set by `prepare`, the file run by its path. */
static void test_setup(void **state)
{
    (void)state;
    int out = temporary_file();
    char *argv[] = {"sh", "-c", "cat; echo \"$SPAWN_GREETING\"", NULL};
    struct spawn_options options = plain;
    options.path = "/bin/sh";
    options.in = SPAWN_NULL;
    options.out = out;
    options.prepare = set_greeting;
    options.prepare_arg = "hello";
    struct spawn child;
    struct spawn_failure failure;
    assert_true(spawn_start(&child, argv, &options, &failure));
    int status = spawn_wait(&child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char text[64];
    read_all(out, text, sizeof text);
    close(out);
    assert_string_equal(text, "hello\n");
    assert_null(getenv("SPAWN_GREETING")); /* the child's alone */
}

/* The program's descriptors above 2 open on /dev/null, counted, with
 * standard input `in`. */
static void count_null_descriptors(int in, char *text, size_t size)
{
    int out = temporary_file();
    char *argv[] = {"sh", "-c",
                    "for f in /proc/$$/fd/*; do case $f in */[012]) ;; *) readlink \"$f\";; "
                    "esac; done | grep -c '^/dev/null$'",
                    NULL};
    struct spawn_options options = plain;
    options.in = in;
    options.out = out;
    struct spawn child;
    struct spawn_failure failure;
    assert_true(spawn_start(&child, argv, &options, &failure));
    spawn_wait(&child);
    read_all(out, text, size);
    close(out);
}

/* /dev/null as standard input is descriptor 0 alone: the program has the
 * same other descriptors on /dev/null as with pmubench's input (those
 * pmubench was given), none opened for it. */
static void test_null_input_alone(void **state)
{
    (void)state;
    char kept[16], null[16];
    count_null_descriptors(SPAWN_KEEP, kept, sizeof kept);
    count_null_descriptors(SPAWN_NULL, null, sizeof null);
    assert_string_equal(null, kept);
}

/* A CPU it cannot run on: sched_setaffinity's EINVAL, reported as the pin. */
static void test_pin_refused(void **state)
{
    (void)state;
    char *argv[] = {"/bin/true", NULL};
    struct spawn_options options = plain;
    options.cpu = 1023;
    struct spawn child;
    struct spawn_failure failure;
    assert_false(spawn_start(&child, argv, &options, &failure));
    assert_int_equal(failure.step, SPAWN_PIN);
    assert_int_equal(failure.error_number, EINVAL);
}

/* A held child has not run its program until released. */
static void test_hold(void **state)
{
    (void)state;
    int out = temporary_file();
    char *argv[] = {"/bin/echo", "ran", NULL};
    struct spawn_options options = plain;
    options.out = out;
    options.hold = true;
    struct spawn child;
    struct spawn_failure failure;
    assert_true(spawn_start(&child, argv, &options, &failure));
    usleep(100 * 1000);
    char text[64];
    read_all(out, text, sizeof text);
    assert_string_equal(text, ""); /* held */
    siginfo_t info = {0};
    assert_int_equal(waitid(P_PID, (id_t)child.pid, &info, WEXITED | WNOHANG | WNOWAIT), 0);
    assert_int_equal(info.si_pid, 0); /* still running */
    assert_true(spawn_release(&child, &failure));
    int status = spawn_wait(&child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    read_all(out, text, sizeof text);
    close(out);
    assert_string_equal(text, "ran\n");
}

/* A held child whose exec fails reports it at its release. */
/* Both ends of spawn_pipe's pipe close on exec. */
static void test_pipe_closes_on_exec(void **state)
{
    (void)state;
    int fds[2];
    assert_true(spawn_pipe(fds));
    assert_int_equal(fcntl(fds[0], F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
    assert_int_equal(fcntl(fds[1], F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
    close(fds[0]);
    close(fds[1]);
}

static void test_hold_missing(void **state)
{
    (void)state;
    char *argv[] = {"/nonexistent/prog", NULL};
    struct spawn_options options = plain;
    options.hold = true;
    struct spawn child;
    struct spawn_failure failure;
    assert_true(spawn_start(&child, argv, &options, &failure));
    assert_false(spawn_release(&child, &failure));
    assert_int_equal(failure.step, SPAWN_EXEC);
    assert_int_equal(failure.error_number, ENOENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status),        cmocka_unit_test(test_missing_program),
        cmocka_unit_test(test_fork_message),  cmocka_unit_test(test_setup),
        cmocka_unit_test(test_null_input_alone),
        cmocka_unit_test(test_pin_refused),   cmocka_unit_test(test_hold),
        cmocka_unit_test(test_hold_missing),
        cmocka_unit_test(test_pipe_closes_on_exec),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
