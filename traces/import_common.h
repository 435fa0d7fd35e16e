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

struct import {
    const char *path;
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

/* Reads `in` to its end, line by line, then writes the pending
 * instruction and the END record. */
bool import_run(FILE *in, const char *path, struct trace_writer *writer, char *error,
                size_t error_size, import_line_parser *parse_line);

/* Formats "PATH:LINE: " and the message into the error; returns false. */
__attribute__((format(printf, 2, 3))) bool import_fail(struct import *import, const char *format,
                                                       ...);

/* Starts a new instruction, writing the previous one. */
bool import_instruction(struct import *import, uint64_t address, uint64_t length);

/* Adds a data access to the current instruction. */
bool import_access(struct import *import, enum trace_access_kind kind, uint64_t address,
                   uint64_t size);

/* `text` without white space at either end (modified in place). */
char *import_trim(char *text);

/* The next field of `*cursor` delimited by white space (NUL-terminated in
 * place), or NULL at the end; advances `*cursor`. */
char *import_next_field(char **cursor);

/* `text` as a whole is a hexadecimal (base 16) or decimal (base 10)
 * number that fits in 64 bits. */
bool import_parse_number(const char *text, int base, uint64_t *value);

#endif
