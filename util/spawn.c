/* Starting a program (util/spawn.h). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET, execvpe */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/cleanup.h"

extern char **environ;

/* ---- The child: it prints nothing, and exits 127 when it cannot run
 * the program. */

/* The failure of `step`, errno's, to the parent; the end. */
static void report(int report_fd, enum spawn_step step)
{
    struct spawn_failure failure = {step, errno};
    /* A parent that cannot read it sees the child exit with 127. */
    ssize_t written = write(report_fd, &failure, sizeof failure);
    (void)written;
    _exit(127);
}

/* `from` (SPAWN_NULL: /dev/null opened with `flags`, and closed once it
 * is `onto`) as descriptor `onto`. */
static bool redirect(int from, int onto, int flags)
{
    if (from == SPAWN_KEEP)
        return true;
    int fd = from == SPAWN_NULL ? open("/dev/null", flags) : from;
    if (fd < 0 || dup2(fd, onto) < 0)
        return false;
    if (from == SPAWN_NULL && fd != onto)
        close(fd);
    return true;
}

static bool pin(int cpu)
{
    if (cpu == SPAWN_KEEP)
        return true;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0;
}

static void run_child(char *const argv[], const struct spawn_options *o, int go_fd,
                      int report_fd)
{
    char go;
    if (go_fd >= 0 && read(go_fd, &go, 1) != 0)
        _exit(127);
    if (!redirect(o->in, STDIN_FILENO, O_RDONLY) || !redirect(o->out, STDOUT_FILENO, O_WRONLY))
        report(report_fd, SPAWN_REDIRECT);
    if (!pin(o->cpu))
        report(report_fd, SPAWN_PIN);
    if (o->prepare)
        o->prepare(o->prepare_arg);
    /* The environment as `prepare` left it. */
    char *const *envp = o->envp ? o->envp : environ;
    if (o->path)
        execve(o->path, argv, envp);
    else
        execvpe(argv[0], argv, envp);
    report(report_fd, SPAWN_EXEC);
}

/* ---- pmubench */

bool spawn_pipe(int fds[2])
{
    if (pipe(fds) != 0)
        return false;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return true;
}

static void close_pair(const int fds[2])
{
    close(fds[0]);
    close(fds[1]);
}

bool spawn_start(struct spawn *child, char *const argv[], const struct spawn_options *options,
                 struct spawn_failure *failure)
{
    int go[2] = {-1, -1}, report_pipe[2];
    if ((options->hold && !spawn_pipe(go)) || !spawn_pipe(report_pipe)) {
        *failure = (struct spawn_failure){SPAWN_FORK, errno};
        if (go[0] >= 0)
            close_pair(go);
        return false;
    }
    pid_t pid = cleanup_fork(options->foreground, options->reading);
    if (pid == 0) {
        close(report_pipe[0]);
        if (options->hold)
            close(go[1]);
        run_child(argv, options, go[0], report_pipe[1]);
    }
    int fork_errno = errno;
    close(report_pipe[1]);
    if (options->hold)
        close(go[0]);
    *child = (struct spawn){pid, go[1], report_pipe[0]};
    if (pid < 0) {
        close(child->report_fd);
        if (options->hold)
            close(child->go_fd);
        *failure = (struct spawn_failure){SPAWN_FORK, fork_errno};
        return false;
    }
    return options->hold || spawn_release(child, failure);
}

bool spawn_release(struct spawn *child, struct spawn_failure *failure)
{
    if (child->go_fd >= 0)
        close(child->go_fd);
    child->go_fd = -1;
    struct spawn_failure got;
    ssize_t n;
    while ((n = read(child->report_fd, &got, sizeof got)) < 0 && errno == EINTR)
        ;
    close(child->report_fd);
    child->report_fd = -1;
    if (n != (ssize_t)sizeof got) {
        *failure = (struct spawn_failure){SPAWN_STARTED, 0};
        return true;
    }
    /* The child has exited (127): reaped here. */
    cleanup_wait(child->pid);
    *failure = got;
    return false;
}

int spawn_wait(struct spawn *child)
{
    return cleanup_wait(child->pid);
}

void spawn_message(const struct spawn_failure *failure, const char *program, char *error,
                   size_t error_size)
{
    snprintf(error, error_size, "cannot %s '%s': %s",
             failure->step == SPAWN_FORK ? "start" : "run", program,
             strerror(failure->error_number));
    /* pmubench that cannot fork fails at run time (docs/exit-status.md);
     * a program that cannot be run is bad input. */
    errno = failure->step == SPAWN_FORK ? EIO : failure->error_number;
}
