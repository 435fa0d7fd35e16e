/* GNU parallel (Tange 2011), run as a program: the engine that runs a
 * sweep's jobs on this machine's cores or over ssh (sweep.h). */
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "traces/run_env.h"

extern char **environ;

/* The child of start(): its standard input from `in`, its standard output
 * to `out` (-1: /dev/null), then `path`. */
static void exec_child(const char *path, char *const *argv, int in, int out, char *const *envp)
{
    int from = in >= 0 ? in : open("/dev/null", O_RDONLY);
    int to = out >= 0 ? out : open("/dev/null", O_WRONLY);
    if (from < 0 || to < 0 || dup2(from, STDIN_FILENO) < 0 || dup2(to, STDOUT_FILENO) < 0)
        _exit(127);
    execve(path, argv, envp);
    _exit(127);
}

/* Starts argv[0] (found on PATH) with its standard input from `in` and
 * its standard output to `out` (-1: /dev/null), a child that a signal
 * ending pmubench ends (util/cleanup.h; `reading`: the end of `out` read
 * here, or -1); the pid, or -1 with a message in `why`. */
static pid_t start(char *const *argv, int in, int out, int reading, char *const *envp,
                   char *why, size_t why_size)
{
    char path[PATH_MAX];
    if (!run_find_program(argv[0], path, sizeof path, why, why_size))
        return -1;
    pid_t pid = cleanup_fork(false, reading);
    if (pid == 0)
        exec_child(path, argv, in, out, envp);
    if (pid < 0)
        snprintf(why, why_size, "%s", strerror(errno));
    return pid;
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
    char why[256];
    pid_t pid = start(argv, -1, pipe_fds[1], pipe_fds[0], environ, why, sizeof why);
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
                 "package parallel)", why);
        return false;
    }
    cleanup_wait(pid);
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
    char why[256];
    pid_t pid = start(argv, pipe_fds[0], STDERR_FILENO, -1, envp, why, sizeof why);
    close(pipe_fds[0]);
    free(envp);
    /* A parallel that ends early closes the pipe: a write error, not SIGPIPE. */
    struct sigaction ignore = {.sa_handler = SIG_IGN}, before;
    sigaction(SIGPIPE, &ignore, &before);
    bool fed = pid > 0 && feed(pipe_fds[1], commands, n_commands);
    close(pipe_fds[1]);
    sigaction(SIGPIPE, &before, NULL);
    if (pid < 0) {
        snprintf(error, error_size, "GNU parallel: cannot run 'parallel': %s", why);
        return false;
    }
    int status = cleanup_wait(pid);
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
