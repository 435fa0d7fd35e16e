/* The one-line error of a library call (docs/exit-status.md: a failure is
 * one line), written into the caller's buffer: recording
 * (traces/record.c), the timing models' trace drivers
 * (sim/common/trace_driver.c) and sampling (apps/sample/sample_run.c); with
 * a file's line or byte offset in front, the readers' and parsers' errors of
 * bad input. */
#ifndef UTIL_ERROR_LINE_H
#define UTIL_ERROR_LINE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Writes the line `format` says into error[error_size] (cut to fit) and,
 * unless `error_number` is 0, sets errno to it: the run-time failure
 * (ENOMEM, EIO...) or the bad input (EINVAL...) the caller reports
 * (cli/exit_status.h, failure_status).  False, for `return
 * error_line(...)`. */
__attribute__((format(printf, 4, 5))) bool error_line(int error_number, char *error,
                                                      size_t error_size, const char *format,
                                                      ...);
__attribute__((format(printf, 4, 0))) bool error_vline(int error_number, char *error,
                                                       size_t error_size, const char *format,
                                                       va_list ap);

/* The same line after "PATH:LINE: " (the bad line of a text file). */
__attribute__((format(printf, 6, 7))) bool error_at_line(int error_number, char *error,
                                                         size_t error_size, const char *path,
                                                         unsigned long line, const char *format,
                                                         ...);
__attribute__((format(printf, 6, 0))) bool error_at_vline(int error_number, char *error,
                                                          size_t error_size, const char *path,
                                                          unsigned long line, const char *format,
                                                          va_list ap);

/* The same line after "PATH: " (a text file as a whole). */
__attribute__((format(printf, 5, 0))) bool error_at_vfile(int error_number, char *error,
                                                          size_t error_size, const char *path,
                                                          const char *format, va_list ap);

/* The same line after "PATH: byte offset OFFSET: " (the bad byte of a
 * binary or JSON file). */
__attribute__((format(printf, 6, 7))) bool error_at_offset(int error_number, char *error,
                                                           size_t error_size, const char *path,
                                                           unsigned long long offset,
                                                           const char *format, ...);
__attribute__((format(printf, 6, 0))) bool error_at_voffset(int error_number, char *error,
                                                            size_t error_size, const char *path,
                                                            unsigned long long offset,
                                                            const char *format, va_list ap);

#endif
