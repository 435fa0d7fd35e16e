/* The exit statuses of every pmubench command, and the one way each
 * reports a failure (docs/exit-status.md):
 *   0  success
 *   1  a run-time failure: a device error, an output that cannot be
 *      written, memory, the msr backend's CPUID refusal
 *   2  bad input: arguments, or a file that is not what it should be (a
 *      script, a PARMS or experiment file, a count set, a corrupt trace,
 *      a directory, a file that does not exist)
 * (decode's verdict "invalid" is 1 too, and record and stat pass the
 * program's own status through.)  A failure is one line on stderr, its
 * user text escaped (util/text.h); an argument error adds a second line,
 * "try 'pmubench COMMAND --help'". */
#ifndef CLI_EXIT_STATUS_H
#define CLI_EXIT_STATUS_H

#include <limits.h>

enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_BAD_INPUT = 2 };

/* The size of a buffer that holds one message whole: a path of PATH_MAX
 * bytes (or two cut to 1000, util/file_identity.h) with the reason after
 * it.  Every buffer a library writes a message into is this size, so that
 * no path pushes the reason out. */
enum { MESSAGE_SIZE = PATH_MAX + 1024 };

/* "pmubench COMMAND: MESSAGE" and "try 'pmubench COMMAND --help'"
 * (COMMAND NULL: pmubench's own arguments): EXIT_BAD_INPUT. */
__attribute__((format(printf, 2, 3))) int usage_error(const char *command, const char *format,
                                                      ...);

/* "pmubench COMMAND: MESSAGE": `status` (EXIT_OK for a warning or a
 * note, which end nothing). */
__attribute__((format(printf, 3, 4))) int command_error(int status, const char *command,
                                                        const char *format, ...);

/* MESSAGE alone, for one that starts with the file it is about
 * ("FILE:LINE: ...", "FILE: ..."): `status`. */
__attribute__((format(printf, 2, 3))) int file_error(int status, const char *format, ...);

/* The status of a library call that failed with `error_number` in errno
 * (cleared before the call): EXIT_RUNTIME when memory, a read or a write
 * failed (ENOMEM, EIO, ENOSPC, EDQUOT, EFBIG, EMFILE, ENFILE), else
 * EXIT_BAD_INPUT (the input was not what it should be). */
int failure_status(int error_number);

#endif
