/* Which file a path names: the rule that no command writes an output over
 * one of its inputs or over another of its outputs.  Files are compared by
 * identity (device and inode, symbolic links followed), not by spelling:
 * `X`, `./X`, a link to X and a hard link of X are all X.  An output that
 * does not exist yet is the name it will get in its directory.  No output
 * is a directory either. */
#ifndef UTIL_FILE_IDENTITY_H
#define UTIL_FILE_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

enum file_use {
    FILE_READ,       /* an input named by its path */
    FILE_READ_STDIN, /* an input given as "-": standard input, whatever it is */
    FILE_WRITE,      /* an output */
};

/* A file a command reads or writes, as the user named it. */
struct named_file {
    const char *what; /* how the user named it: "-o", "--trace", "PROGRAM"... */
    const char *path; /* NULL: none given (skipped) */
    enum file_use use;
};

/* True when every output of `files` is a file of its own; false with
 * "PATH: is a directory" in `error` when an output names a directory (a
 * directory given as a file is bad input, whatever the command), or with
 * "WHAT 'PATH' and WHAT 'PATH' are the same file" when an output is the
 * same file as an input or as another output.  Inputs that do not exist
 * are skipped (they can come to no harm). */
bool files_distinct(const struct named_file *files, int n, char *error, size_t error_size);

/* `path` with the symbolic links of its last component followed, into
 * `out`: the file an open(2) of `path` would reach (the path itself when
 * it is not a link, or names nothing yet).  False with errno ELOOP or
 * ENAMETOOLONG. */
bool path_follow_links(const char *path, char *out, size_t size);

#endif
