/* What the importers share: reading lines, parsing numbers, collecting an
 * instruction's data accesses until the next instruction, and "PATH:LINE:"
 * error messages. */
#ifndef TRACES_IMPORT_COMMON_H
#define TRACES_IMPORT_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace.h"

/* The longest line of an import's input, in characters: longer than any
 * line valgrind or Dinero writes.  Lackey's longest is valgrind's
 * "==PID== Command: PROGRAM ARGS" line, and Linux holds a program's
 * arguments and environment in at most 6 MiB (three quarters of _STK_LIM,
 * fs/exec.c); docs/traces.md, "Text inputs". */
enum { IMPORT_MAX_LINE = 8 << 20 };

struct import {
    const char *path;
    const struct import_format *format;
    struct trace_writer *writer;
    char *error;
    size_t error_size;
    unsigned long line;          /* of the input being parsed, from 1 */
    bool have_insn;              /* `insn` waits for its data accesses */
    unsigned long insn_line;
    struct trace_insn insn;
};

/* Parses one line, trimmed of white space at both ends and not blank;
 * false after import_fail(). */
typedef bool import_line_parser(struct import *import, char *line);

/* What an importer gives import_run: its line parser and the base of the
 * sizes its lines hold (10: lackey; 16, with or without 0x: din). */
struct import_format {
    import_line_parser *parse_line;
    int size_base;
};

/* Reads `in` to its end, line by line (util/line_stream.h, lines of at
 * most IMPORT_MAX_LINE characters), then writes the pending instruction
 * and the END record; false with one line in `error` and errno EIO or
 * ENOMEM for a run-time failure (a read, memory), EINVAL for bad input. */
bool import_run(FILE *in, const char *path, struct trace_writer *writer, char *error,
                size_t error_size, const struct import_format *format);

/* Formats "PATH:LINE: " and the message into the error, sets errno to
 * EINVAL (bad input); returns false. */
__attribute__((format(printf, 2, 3))) bool import_fail(struct import *import, const char *format,
                                                       ...);

/* Starts a new instruction of `length` bytes (the text of a size, in the
 * format's base), writing the previous one.  A bad size is refused as the
 * input wrote it. */
bool import_instruction(struct import *import, uint64_t address, const char *length);

/* Adds a data access of `size` bytes (as import_instruction's length) to
 * the current instruction. */
bool import_access(struct import *import, enum trace_access_kind kind, uint64_t address,
                   const char *size);

/* `text` without white space at either end (modified in place). */
char *import_trim(char *text);

/* The next field of `*cursor` delimited by white space (NUL-terminated in
 * place), or NULL at the end; advances `*cursor`. */
char *import_next_field(char **cursor);

/* `text` as a whole is a hexadecimal (base 16) or decimal (base 10)
 * number that fits in 64 bits. */
bool import_parse_number(const char *text, int base, uint64_t *value);

/* A hexadecimal number with or without a leading 0x (din's numbers). */
bool import_parse_hex(const char *text, uint64_t *value);

#endif
