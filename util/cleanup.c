/* What a fatal signal undoes before it ends pmubench (cleanup.h). */
#include "cleanup.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- The lists.  They change only with the fatal signals blocked, so the
 * handler never sees one half-changed. */

static const int fatal_signals[] = {SIGHUP, SIGINT, SIGPIPE, SIGTERM};
enum { N_FATAL = sizeof fatal_signals / sizeof fatal_signals[0] };

enum { MAX_CHILDREN = 8 };

static struct cleanup_file *files;
static volatile pid_t children[MAX_CHILDREN]; /* 0: a free slot */
static volatile int child_fds[MAX_CHILDREN];  /* what each writes to pmubench, or -1 */
static volatile sig_atomic_t foreground;      /* the foreground child, or 0 */
static struct sigaction quit_before;          /* SIGQUIT's action before it */

/* How the handler ends a child: SIGTERM every RESEND_MS, SIGKILL from
 * KILL_MS on, looking every POLL_MS. */
enum { POLL_MS = 10, RESEND_MS = 200, KILL_MS = 3000 };

/* ---- The handler: async-signal-safe calls only. */

static void stop_children(void)
{
    /* A child that writes at its end (valgrind's last frame, lackey's
     * summary) would wait forever on a full pipe that nothing reads. */
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (children[i] > 0 && child_fds[i] >= 0)
            close(child_fds[i]);
    for (int waited = 0;; waited += POLL_MS) {
        int alive = 0;
        for (int i = 0; i < MAX_CHILDREN; i++) {
            pid_t pid = children[i];
            if (pid <= 0)
                continue;
            if (waited > 0 && waitpid(pid, NULL, WNOHANG) != 0) {
                children[i] = 0;
                continue;
            }
            if (waited % RESEND_MS == 0)
                kill(pid, waited >= KILL_MS ? SIGKILL : SIGTERM);
            alive++;
        }
        if (!alive)
            return;
        poll(NULL, 0, POLL_MS);
    }
}

static void on_fatal_signal(int sig, siginfo_t *info, void *context)
{
    (void)context;
    /* The terminal's interrupt reached the foreground child too: it is
     * the child's (the kernel sends the terminal's signals with
     * SI_KERNEL, kill() with SI_USER). */
    if (sig == SIGINT && foreground && info && info->si_code == SI_KERNEL)
        return;
    stop_children();
    for (struct cleanup_file *file = files; file; file = file->next)
        unlink(file->path);
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    /* Blocked until the handler returns, then delivered: the end. */
    raise(sig);
}

static void block_fatal_signals(sigset_t *saved)
{
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < N_FATAL; i++)
        sigaddset(&set, fatal_signals[i]);
    sigprocmask(SIG_BLOCK, &set, saved);
}

/* The handler, on each signal that has its default action (an ignored
 * signal stays ignored). */
static void install_handler(void)
{
    static bool installed;
    if (installed)
        return;
    installed = true;
    struct sigaction action = {.sa_sigaction = on_fatal_signal, .sa_flags = SA_SIGINFO};
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < N_FATAL; i++)
        sigaddset(&action.sa_mask, fatal_signals[i]);
    for (int i = 0; i < N_FATAL; i++) {
        struct sigaction old;
        if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(fatal_signals[i], &action, NULL);
    }
}

/* ---- Temporary files */

int cleanup_mkstemp(struct cleanup_file *file, char *template)
{
    sigset_t saved;
    install_handler();
    block_fatal_signals(&saved);
    int fd = mkstemp(template);
    if (fd >= 0) {
        file->path = template;
        file->next = files;
        files = file;
    }
    int err = errno;
    sigprocmask(SIG_SETMASK, &saved, NULL);
    errno = err;
    return fd;
}

void cleanup_forget_file(struct cleanup_file *file)
{
    sigset_t saved;
    block_fatal_signals(&saved);
    struct cleanup_file **link = &files;
    while (*link && *link != file)
        link = &(*link)->next;
    if (*link)
        *link = file->next;
    sigprocmask(SIG_SETMASK, &saved, NULL);
}

void cleanup_remove_file(struct cleanup_file *file)
{
    unlink(file->path);
    cleanup_forget_file(file);
}

bool cleanup_temporary(struct cleanup_file *file, const char *prefix, char *path, size_t size,
                       char *error, size_t error_size)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    snprintf(path, size, "%s/%s-XXXXXX", dir, prefix);
    int fd = cleanup_mkstemp(file, path);
    if (fd >= 0) {
        close(fd);
        return true;
    }
    snprintf(error, error_size, "cannot create a temporary file in %s: %s", dir,
             strerror(errno));
    return false;
}

/* ---- Children */

static void end_foreground(pid_t pid)
{
    if (!foreground || foreground != pid)
        return;
    foreground = 0;
    sigaction(SIGQUIT, &quit_before, NULL);
}

/* In the child of cleanup_fork, the fatal signals blocked: nothing of the
 * parent's to clean up, and a signal when the parent dies. */
static void become_child(pid_t parent, bool foreground_child, const sigset_t *mask)
{
    files = NULL;
    for (int i = 0; i < MAX_CHILDREN; i++)
        children[i] = 0;
    foreground = 0;
    if (foreground_child)
        sigaction(SIGQUIT, &quit_before, NULL);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    /* The parent died before the line above. */
    if (getppid() != parent)
        _exit(127);
    sigprocmask(SIG_SETMASK, mask, NULL);
}

pid_t cleanup_fork(bool foreground_child, int reading)
{
    install_handler();
    int slot = 0;
    while (slot < MAX_CHILDREN && children[slot])
        slot++;
    if (slot == MAX_CHILDREN) {
        errno = EAGAIN;
        return -1;
    }
    if (foreground_child) {
        struct sigaction ignore = {.sa_handler = SIG_IGN};
        sigemptyset(&ignore.sa_mask);
        sigaction(SIGQUIT, &ignore, &quit_before);
    }
    fflush(NULL);
    sigset_t saved;
    block_fatal_signals(&saved);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        become_child(parent, foreground_child, &saved);
        return 0;
    }
    int err = errno;
    if (pid > 0) {
        child_fds[slot] = reading;
        children[slot] = pid;
        if (foreground_child)
            foreground = pid;
    }
    sigprocmask(SIG_SETMASK, &saved, NULL);
    if (pid < 0 && foreground_child)
        sigaction(SIGQUIT, &quit_before, NULL);
    errno = err;
    return pid;
}

static void forget_child(pid_t pid)
{
    sigset_t saved;
    block_fatal_signals(&saved);
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (children[i] == pid)
            children[i] = 0;
    end_foreground(pid);
    sigprocmask(SIG_SETMASK, &saved, NULL);
}

int cleanup_wait(pid_t pid)
{
    siginfo_t info;
    int rc;
    while ((rc = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT)) < 0 && errno == EINTR)
        ;
    int err = errno;
    forget_child(pid);
    int status = 0;
    pid_t waited = -1;
    if (rc == 0)
        while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
            ;
    if (waited < 0 && rc == 0)
        err = errno;
    errno = err;
    return waited < 0 ? -1 : status;
}
