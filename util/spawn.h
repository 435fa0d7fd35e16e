/* Starting a program: the one fork and exec of pmubench.  The child is
 * one of util/cleanup.h's (cleanup_fork: a signal that ends pmubench ends
 * it, PR_SET_PDEATHSIG), set up as asked (its standard input and output,
 * a CPU, its environment), held before its exec if asked, and then runs
 * the program; when the setup or the exec fails, the child says nothing
 * and exits 127, and its errno comes back through a close-on-exec pipe
 * (which a successful exec closes), so that the caller reports "cannot
 * run 'PROG': REASON" itself. */
#ifndef UTIL_SPAWN_H
#define UTIL_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What the child gets before its exec.  Zero-initialised with in, out and
 * cpu set to SPAWN_KEEP: the program as execvp finds it, the environment,
 * descriptors and CPUs of pmubench, started at once. */
struct spawn_options {
    const char *path;       /* the file to run; NULL: argv[0] as execvp finds it */
    char *const *envp;      /* the program's environment; NULL: pmubench's */
    int in, out;            /* its standard input, output: a descriptor, or: */
    int cpu;                /* the one CPU it runs on, or SPAWN_KEEP */
    bool foreground;        /* cleanup_fork's `foreground` */
    int reading;            /* cleanup_fork's `reading`: the descriptor read here, or -1 */
    bool hold;              /* the child waits before its exec until spawn_release */
    /* In the child, before its exec (after the others above): sets what
     * else it needs, e.g. environment variables; NULL: nothing. */
    void (*prepare)(const void *arg);
    const void *prepare_arg;
};

/* `in`, `out`, `cpu`: as pmubench has them; `in`, `out`: /dev/null. */
enum { SPAWN_KEEP = -1, SPAWN_NULL = -2 };

/* What failed. */
enum spawn_step {
    SPAWN_STARTED,  /* nothing: the child runs the program */
    SPAWN_FORK,     /* in pmubench, the pipes or the fork */
    SPAWN_REDIRECT, /* in the child, its standard input or output */
    SPAWN_PIN,      /* in the child, sched_setaffinity to `cpu` */
    SPAWN_EXEC,     /* in the child, the exec */
};

struct spawn_failure {
    enum spawn_step step;
    int error_number;
};

/* A started child. */
struct spawn {
    pid_t pid;
    int go_fd;     /* held: closing it lets the child go on; else -1 */
    int report_fd; /* the failure of the child's setup or exec; EOF when it execs */
};

/* A pipe whose two ends are closed on exec (a program started gets only
 * the descriptors its options give it); false with errno. */
bool spawn_pipe(int fds[2]);

/* Forks the child of `argv` with `options`.  Not held: waits for the
 * exec, as spawn_release.  False with *failure when the fork or (not
 * held) the child failed: a child that failed is reaped. */
bool spawn_start(struct spawn *child, char *const argv[], const struct spawn_options *options,
                 struct spawn_failure *failure);

/* Lets a held child go on and waits for its exec; false with *failure
 * (the child reaped) when its setup or exec failed. */
bool spawn_release(struct spawn *child, struct spawn_failure *failure);

/* Waits for the child that runs the program: its wait status, or -1 with
 * errno (cleanup_wait). */
int spawn_wait(struct spawn *child);

/* "cannot start 'PROGRAM': REASON" (SPAWN_FORK), else "cannot run
 * 'PROGRAM': REASON", in error[error_size]; errno set to the failure's. */
void spawn_message(const struct spawn_failure *failure, const char *program, char *error,
                   size_t error_size);

#endif
