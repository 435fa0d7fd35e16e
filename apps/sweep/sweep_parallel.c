/* GNU parallel (Tange 2011), run as a program: the engine that runs a
 * sweep's jobs on this machine's cores or over ssh (sweep.h). */
#include "sweep.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/fd_write.h"
#include "util/spawn.h"
#include "traces/run_env.h"

extern char **environ;

/* Starts argv[0] (found on PATH) with its standard input from `in` and
 * its standard output to `out` (SPAWN_NULL: /dev/null), a child that a
 * signal ending pmubench ends (util/spawn.h, util/cleanup.h; `reading`:
 * the end of `out` read here, or -1); false with a short reason in
 * `why`. */
static bool start(struct spawn *child, char *const *argv, int in, int out, int reading,
                  char *const *envp, char *why, size_t why_size)
{
    char path[PATH_MAX];
    if (!run_find_program(argv[0], path, sizeof path, why, why_size))
        return false;
    struct spawn_options options = {.path = path, .envp = envp, .in = in, .out = out,
                                    .cpu = SPAWN_KEEP, .reading = reading};
    struct spawn_failure failure;
    if (spawn_start(child, argv, &options, &failure))
        return true;
    snprintf(why, why_size, "%s", strerror(failure.error_number));
    return false;
}

bool sweep_parallel_check(char *error, size_t error_size)
{
    int pipe_fds[2];
    if (!spawn_pipe(pipe_fds)) {
        snprintf(error, error_size, "GNU parallel: %s", strerror(errno));
        return false;
    }
    char *argv[] = {"parallel", "--version", NULL};
    char why[256];
    struct spawn child;
    bool started = start(&child, argv, SPAWN_NULL, pipe_fds[1], pipe_fds[0], NULL, why,
                         sizeof why);
    close(pipe_fds[1]);
    char text[256] = "";
    size_t n = 0;
    ssize_t got;
    while (started && n < sizeof text - 1 &&
           (got = read(pipe_fds[0], text + n, sizeof text - 1 - n)) != 0)
        if (got > 0)
            n += (size_t)got;
        else if (errno != EINTR)
            break;
    close(pipe_fds[0]); /* a --version that prints more ends with SIGPIPE */
    if (!started) {
        snprintf(error, error_size, "GNU parallel: cannot run 'parallel': %s (install Debian's "
                 "package parallel)", why);
        return false;
    }
    spawn_wait(&child);
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
        size_t size = strlen(commands[i]) + 1;
        if (fd_write_all(fd, commands[i], size) < size)
            return false;
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
    if (!envp || !spawn_pipe(pipe_fds)) {
        snprintf(error, error_size, "GNU parallel: %s", strerror(envp ? errno : ENOMEM));
        free(envp);
        return false;
    }
    char why[256];
    struct spawn child;
    bool started = start(&child, argv, pipe_fds[0], STDERR_FILENO, -1, envp, why, sizeof why);
    close(pipe_fds[0]);
    free(envp);
    /* A parallel that ends early closes the pipe: a write error, not SIGPIPE. */
    struct sigaction ignore = {.sa_handler = SIG_IGN}, before;
    sigaction(SIGPIPE, &ignore, &before);
    bool fed = started && feed(pipe_fds[1], commands, n_commands);
    close(pipe_fds[1]);
    sigaction(SIGPIPE, &before, NULL);
    if (!started) {
        snprintf(error, error_size, "GNU parallel: cannot run 'parallel': %s", why);
        return false;
    }
    int status = spawn_wait(&child);
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
