/* What pmubench leaves behind when a signal ends it: nothing.  One
 * mechanism for every command: it lists the temporary files and the child
 * processes (valgrind, GNU parallel, a program measured) alive now, and on
 * SIGHUP, SIGINT, SIGPIPE or SIGTERM (each one that had its default action
 * when the first file or child was listed: an ignored signal stays
 * ignored) it
 *
 *   1. closes the pipes it reads from children (a child that writes at
 *      its end, as valgrind does, would wait on a full pipe forever),
 *      sends each child SIGTERM, again every 200 ms while it lives (GNU
 *      parallel ignores SIGTERM until its first job has started), SIGKILL
 *      after 3 s, and waits for every child to end;
 *   2. removes every temporary file;
 *   3. ends pmubench by the signal with its default action, so that the
 *      shell sees 128 + its number (docs/exit-status.md, "Signals").
 *
 * The handler does only what is async-signal-safe (close, kill, waitpid,
 * poll, unlink, sigaction, raise: signal-safety(7)).  Each child also gets PR_SET_PDEATHSIG
 * (SIGTERM), so that a pmubench ended by SIGKILL, which nothing can
 * catch, still ends its children; its temporary files then stay.
 *
 * A foreground child runs as under system(): while it runs, SIGQUIT is
 * ignored and the terminal's SIGINT (the interrupt key, which the
 * terminal sends to the whole foreground process group, the child
 * included) is left to the child, which decides; a SIGINT sent by a
 * process (kill, timeout) ends pmubench and the child as above. */
#ifndef UTIL_CLEANUP_H
#define UTIL_CLEANUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A temporary file, removed by a fatal signal while it is listed.  It must
 * stay where it is while listed: the handler finds the path through it. */
struct cleanup_file {
    const char *path;
    struct cleanup_file *next;
};

/* mkstemp(template), the file listed under `file` in the same breath: no
 * signal comes between them.  The descriptor, or -1 with errno (nothing
 * listed). */
int cleanup_mkstemp(struct cleanup_file *file, char *template);

/* Takes the file off the list, after it was renamed or removed (a signal
 * in between unlinks a name that is gone, which is harmless). */
void cleanup_forget_file(struct cleanup_file *file);

/* unlink(file->path), then cleanup_forget_file. */
void cleanup_remove_file(struct cleanup_file *file);

/* A temporary file "$TMPDIR/PREFIX-XXXXXX" (TMPDIR unset or empty: /tmp),
 * created empty and listed under `file`, its name in `path`; false with
 * "cannot create a temporary file in DIR: REASON" in `error`. */
bool cleanup_temporary(struct cleanup_file *file, const char *prefix, char *path, size_t size,
                       char *error, size_t error_size);

/* fork(), the child listed in the same breath; in the child (0 returned)
 * the lists are empty and PR_SET_PDEATHSIG is SIGTERM.  `foreground`: the
 * child runs as under system() (above) until cleanup_wait; one at a time.
 * `reading`: the descriptor pmubench reads the child's output from (the
 * handler closes it first; closed already by then, or reused, it is closed
 * all the same, which is harmless in a process about to end), or -1.  -1 with errno when it could not fork
 * (EAGAIN: 8 children are listed).  util/spawn.h starts every program
 * through it. */
pid_t cleanup_fork(bool foreground, int reading);

/* Waits for a child of cleanup_fork to end, takes it off the list before
 * it is reaped (so that a signal never kills another process that got its
 * number), and reaps it: its wait status, or -1 with errno. */
int cleanup_wait(pid_t pid);

#endif
