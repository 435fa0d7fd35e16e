/* A trace copied record by record into a writer: `pmubench trace convert`
 * (docs/traces.md, "The trace command") rewrites a trace of any version the
 * reader reads in the version the writer writes.
 *
 *   struct trace_reader *r = trace_reader_open(in, path, error, size);
 *   struct trace_writer *w = trace_writer_open(out, trace_reader_header(r), error, size);
 *   enum trace_copy_status copied = trace_copy(r, w);
 *   if (!trace_writer_close(w) || copied != TRACE_COPIED) ...
 */
#ifndef TRACES_TRACE_COPY_H
#define TRACES_TRACE_COPY_H

#include "traces/trace.h"

enum trace_copy_status {
    TRACE_COPIED,            /* every record up to and including the END record */
    TRACE_COPY_READ_FAILED,  /* trace_reader_error(), or the input FILE's ferror() */
    TRACE_COPY_WRITE_FAILED, /* the writer refused a record (its FILE's ferror()) */
    TRACE_COPY_TWO_ISAS,     /* code of the other instruction set than the header's, of
                              * a process of an emulated run (docs/traces.md,
                              * "Processes"), which one header cannot describe */
};

/* Copies the records of `reader` from the next one through the END record
 * into `writer`, stopping at the first failure; the writer is left open
 * (trace_writer_close says whether its last bytes were written). */
enum trace_copy_status trace_copy(struct trace_reader *reader, struct trace_writer *writer);

#endif
