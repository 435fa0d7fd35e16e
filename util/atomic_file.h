/* Output files that exist whole or not at all: written under a temporary
 * name in the target's directory (".pmubench-XXXXXX": hidden, and short,
 * so that any name the directory can hold can be written) and renamed
 * into place on success.  A path that names something other than a
 * regular file (/dev/null, /dev/full, a FIFO, a terminal, /dev/stdout or
 * /dev/fd/N on a pipe) is written directly: renaming over it would replace
 * the device, and /proc's links to pipes name no file.
 *
 * A path that is a symbolic link is written through: the link's target
 * gets the content and the link stays.  The file keeps the permission bits
 * of the file it replaces; a new one gets those open(O_CREAT, 0666) would
 * give under the umask.  The temporary file is listed for util/cleanup.h:
 * SIGHUP, SIGINT, SIGPIPE and SIGTERM (those not ignored) remove it
 * before they end the process. */
#ifndef UTIL_ATOMIC_FILE_H
#define UTIL_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cleanup.h"

/* It must stay where it is from atomic_open to atomic_commit or
 * atomic_abort: the signal handler finds its temporary file through it
 * (util/cleanup.h). */
struct atomic_file {
    FILE *stream;
    bool direct;     /* writing straight to a non-regular target */
    int fd;          /* the stream's descriptor */
    int write_errno; /* why the first write (or the close) failed, or 0 */
    char path[4096]; /* as given, for messages */
    char target[4096]; /* the file renamed over: `path` with its links followed
                          (`path` itself when direct) */
    char temp[4096 + sizeof ".pmubench-XXXXXX"];
    struct cleanup_file cleanup; /* `temp`, listed for the signal handler */
};

/* Opens a temporary file beside `path`'s target; false with a message on
 * failure. */
bool atomic_open(struct atomic_file *file, const char *path, char *error, size_t error_size);

/* Closes and renames into place; false with "PATH: cannot write: REASON"
 * (the failed write's errno: "No space left on device"...) and nothing
 * left behind when any write failed. */
bool atomic_commit(struct atomic_file *file, char *error, size_t error_size);

/* Closes and removes the temporary file. */
void atomic_abort(struct atomic_file *file);

/* What atomic_write writes: false when it could not (nothing is kept). */
typedef bool atomic_writer(FILE *out, const void *context);

/* The file at `path`, whole or not at all, with what `write` writes into
 * it; false with a message: the file's, or `write_failed` when `write`
 * returned false. */
bool atomic_write(const char *path, atomic_writer *write, const void *context,
                  const char *write_failed, char *error, size_t error_size);

#endif
