/* Output files that exist whole or not at all: written under a temporary
 * name beside the target and renamed into place on success.  A target that
 * exists and is not a regular file (/dev/null, a FIFO, a terminal) is
 * written directly: renaming over it would replace the device. */
#ifndef BENCH_ATOMIC_FILE_H
#define BENCH_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct atomic_file {
    FILE *stream;
    bool direct;     /* writing straight to a non-regular target */
    char path[4096];
    char temp[4096 + 8];
};

/* Opens a temporary file beside `path`; false with a message on failure. */
bool atomic_open(struct atomic_file *file, const char *path, char *error, size_t error_size);

/* Closes and renames into place; false with a message (and nothing left
 * behind) when any write failed. */
bool atomic_commit(struct atomic_file *file, char *error, size_t error_size);

/* Closes and removes the temporary file. */
void atomic_abort(struct atomic_file *file);

#endif
