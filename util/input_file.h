/* Opening an input file the user named (a trace, a script, a PARMS file,
 * a count set, an ELF file...): one message for each way it can fail, a
 * directory among them (fopen opens one for reading on Linux, and reading
 * it fails later with a misleading message). */
#ifndef UTIL_INPUT_FILE_H
#define UTIL_INPUT_FILE_H

#include <stddef.h>
#include <stdio.h>

/* `path` opened for reading (binary); NULL with "PATH: cannot open:
 * REASON" or "PATH: is a directory" in `error` and errno set (EISDIR for
 * a directory). */
FILE *input_open(const char *path, char *error, size_t error_size);

#endif
