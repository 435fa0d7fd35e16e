/* util/fd_write.h: a whole buffer through a pipe smaller than it, and a
 * write that fails with its errno. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/fd_write.h"

/* 1 MiB through a pipe (64 KiB of buffer): short writes, all written. */
static void test_whole_through_a_pipe(void **state)
{
    (void)state;
    enum { SIZE = 1 << 20 };
    char *data = malloc(SIZE);
    assert_non_null(data);
    for (size_t i = 0; i < SIZE; i++)
        data[i] = (char)(i * 7);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        _exit(fd_write_all(fds[1], data, SIZE) == SIZE ? 0 : 1);
    }
    close(fds[1]);
    size_t got = 0;
    bool same = true;
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) {
        same = same && got + (size_t)n <= SIZE && memcmp(buf, data + got, (size_t)n) == 0;
        got += (size_t)n;
    }
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(got, SIZE);
    assert_true(same);
    free(data);
}

static void test_failure_keeps_errno(void **state)
{
    (void)state;
    int fd = open("/dev/full", O_WRONLY);
    assert_true(fd >= 0);
    errno = 0;
    assert_int_equal(fd_write_all(fd, "abc", 3), 0);
    assert_int_equal(errno, ENOSPC);
    close(fd);
    errno = 0;
    assert_int_equal(fd_write_all(-1, "abc", 3), 0);
    assert_int_equal(errno, EBADF);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_through_a_pipe),
        cmocka_unit_test(test_failure_keeps_errno),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
