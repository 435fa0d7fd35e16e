/* GNU parallel (Tange 2011), run as a program: the engine that runs a
 * sweep's jobs on this machine's cores or over ssh (sweep.h). */
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Starts argv[0] (found on PATH) with its standard input from `in` and
 * its standard output to `out` (-1: /dev/null); the pid, or -1 with
 * errno set. */
static pid_t start(char *const *argv, int in, int out, char *const *envp)
{
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions))
        return -1;
    int rc = 0;
    if (in >= 0)
        rc |= posix_spawn_file_actions_adddup2(&actions, in, STDIN_FILENO);
    else
        rc |= posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (out >= 0)
        rc |= posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO);
    else
        rc |= posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    if (rc == 0 && (rc = posix_spawnp(&pid, argv[0], &actions, NULL, argv, envp)) != 0)
        pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    if (rc)
        errno = rc;
    return pid;
}

static int wait_for(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return status;
}

bool sweep_parallel_check(char *error, size_t error_size)
{
    int pipe_fds[2];
    if (pipe(pipe_fds) < 0) {
        snprintf(error, error_size, "GNU parallel: %s", strerror(errno));
        return false;
    }
    fcntl(pipe_fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(pipe_fds[1], F_SETFD, FD_CLOEXEC);
    char *argv[] = {"parallel", "--version", NULL};
    pid_t pid = start(argv, -1, pipe_fds[1], environ);
    int start_error = errno;
    close(pipe_fds[1]);
    char text[256] = "";
    size_t n = 0;
    ssize_t got;
    while (pid > 0 && n < sizeof text - 1 &&
           (got = read(pipe_fds[0], text + n, sizeof text - 1 - n)) != 0)
        if (got > 0)
            n += (size_t)got;
        else if (errno != EINTR)
            break;
    close(pipe_fds[0]); /* a --version that prints more ends with SIGPIPE */
    if (pid < 0) {
        snprintf(error, error_size, "GNU parallel: cannot run 'parallel': %s (install Debian's "
                 "package parallel)", strerror(start_error));
        return false;
    }
    wait_for(pid);
    text[n] = '\0';
    if (strncmp(text, "GNU parallel", 12) == 0)
        return true;
    snprintf(error, error_size, "'parallel' on PATH is not GNU parallel (moreutils' parallel, "
             "which Debian also ships?): install Debian's package parallel");
    return false;
}

/* The environment with PARALLEL_SHELL=/bin/sh unless it names one: the
 * jobs' command lines are sh's (GNU parallel would use the user's shell). */
static char **job_environment(void)
{
    size_t n = 0;
    bool given = false;
    for (; environ[n]; n++)
        given |= strncmp(environ[n], "PARALLEL_SHELL=", 15) == 0;
    char **envp = malloc((n + 2) * sizeof *envp);
    if (!envp)
        return NULL;
    memcpy(envp, environ, n * sizeof *envp);
    if (!given)
        envp[n++] = "PARALLEL_SHELL=/bin/sh";
    envp[n] = NULL;
    return envp;
}

/* The commands, each ended by a NUL (--null): a path may hold a newline. */
static bool feed(int fd, char *const *commands, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *at = commands[i];
        size_t left = strlen(at) + 1;
        while (left) {
            ssize_t put = write(fd, at, left);
            if (put < 0 && errno == EINTR)
                continue;
            if (put <= 0)
                return false;
            at += put;
            left -= (size_t)put;
        }
    }
    return true;
}

bool sweep_parallel_run(char *const *commands, size_t n_commands, int jobs,
                        const char *sshloginfile, char *error, size_t error_size)
{
    char j[32];
    snprintf(j, sizeof j, "%d", jobs);
    char *argv[16] = {"parallel", "--will-cite", "--halt", "never", "--null"};
    int argc = 5;
    if (jobs > 0) {
        argv[argc++] = "-j";
        argv[argc++] = j;
    }
    if (sshloginfile) {
        argv[argc++] = "--sshloginfile";
        argv[argc++] = (char *)sshloginfile;
    }
    argv[argc] = NULL;
    int pipe_fds[2];
    char **envp = job_environment();
    if (!envp || pipe(pipe_fds) < 0) {
        snprintf(error, error_size, "GNU parallel: %s", strerror(envp ? errno : ENOMEM));
        free(envp);
        return false;
    }
    fcntl(pipe_fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(pipe_fds[1], F_SETFD, FD_CLOEXEC);
    pid_t pid = start(argv, pipe_fds[0], STDERR_FILENO, envp);
    int start_error = errno;
    close(pipe_fds[0]);
    free(envp);
    /* A parallel that ends early closes the pipe: a write error, not SIGPIPE. */
    struct sigaction ignore = {.sa_handler = SIG_IGN}, before;
    sigaction(SIGPIPE, &ignore, &before);
    bool fed = pid > 0 && feed(pipe_fds[1], commands, n_commands);
    close(pipe_fds[1]);
    sigaction(SIGPIPE, &before, NULL);
    if (pid < 0) {
        snprintf(error, error_size, "GNU parallel: cannot run 'parallel': %s",
                 strerror(start_error));
        return false;
    }
    int status = wait_for(pid);
    if (status < 0 || WIFSIGNALED(status))
        snprintf(error, error_size, "GNU parallel ended by signal %d",
                 status < 0 ? 0 : WTERMSIG(status));
    else if (WEXITSTATUS(status) == 255 || !fed)
        snprintf(error, error_size, "GNU parallel failed (exit status %d; its message is above)",
                 WEXITSTATUS(status));
    else
        return true;
    return false;
}
