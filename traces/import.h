/* Importers of other tools' memory traces into pmubench traces
 * (docs/traces.md, "Importing traces").
 *
 *   if (trace_import(TRACE_IMPORT_LACKEY, in, path, out, out_path, error, size)) ...
 *
 * or, writing the trace oneself:
 *
 *   struct trace_header header;
 *   trace_import_header(&header, TRACE_IMPORT_LACKEY);
 *   struct trace_writer *w = trace_writer_open(out, &header, error, size);
 *   if (trace_import_lackey(in, path, w, error, size)) ...
 *
 * Each importer streams its input line by line in constant memory (lines
 * of at most 8 MiB, traces/import_common.h) and ends the trace with an END
 * record (exited, status 0).  Neither format records
 * code bytes, branches, threads or privilege: every instruction has no
 * bytes, thread 0, CPL 3 and branch TRACE_NOT_BRANCH (branch facts come from
 * decoding the bytes, which an import does not have).
 *
 * On bad input they return false with one line "PATH:LINE: what was
 * expected" in `error` and errno EINVAL; on a failed read, write or
 * allocation, false with one line and errno EIO or ENOMEM (a failed write
 * also sets ferror() on the trace's stream).  The trace is then incomplete
 * (no END record) and must be discarded. */
#ifndef TRACES_IMPORT_H
#define TRACES_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "trace.h"

enum trace_import_format { TRACE_IMPORT_LACKEY, TRACE_IMPORT_DINERO };

/* The header of an imported trace: 64-bit addresses, no program or
 * arguments (neither format names them), the importer as recorder, and
 * lengths_known false for Dinero (din has no instruction lengths). */
void trace_import_header(struct trace_header *header, enum trace_import_format format);

/* Imports `in` (named `path` in messages) of `format` into `out` (named
 * `out_path`) as a whole trace: trace_import_header's header, then the
 * importer's records.  True on success; false with one line in `error`
 * and errno: the importer's (above), or "OUT_PATH: cannot write" and EIO
 * when `out` failed, or "OUT_PATH: " and the writer's message when the
 * header could not be written (EIO, or ENOMEM).  `out` is left open,
 * its trace to be discarded after a failure. */
bool trace_import(enum trace_import_format format, FILE *in, const char *path, FILE *out,
                  const char *out_path, char *error, size_t size);

/* valgrind lackey --trace-mem=yes output: "I  ADDR,SIZE" for an
 * instruction, then " L ADDR,SIZE", " S ADDR,SIZE" and " M ADDR,SIZE" for
 * its loads, stores and modifies (read-modify-write); ADDR hexadecimal,
 * SIZE decimal.  Lines starting "==" are valgrind's own and skipped. */
bool trace_import_lackey(FILE *in, const char *path, struct trace_writer *w, char *error,
                         size_t size);

/* Dinero IV din: "LABEL ADDRESS [SIZE]", LABEL 0 read, 1 write,
 * 2 instruction fetch, 3 escape and 4 cache flush (both skipped); ADDRESS
 * and SIZE hexadecimal (an optional 0x), SIZE 4 by default for data and 1
 * for fetches.  Reads and writes belong to the latest fetch. */
bool trace_import_dinero(FILE *in, const char *path, struct trace_writer *w, char *error,
                         size_t size);

#endif
