/* The summary of a trace (`pmubench trace info`): its instructions,
 * branches, loads, stores and regions, how the program ended and the file's
 * size, read by blocks (traces/trace.h, trace_next_block). */
#ifndef TRACES_TRACE_INFO_H
#define TRACES_TRACE_INFO_H

#include <stdint.h>
#include <stdio.h>

#include "traces/trace.h"

struct trace_info {
    uint64_t instructions, branches, taken, loads, stores, regions;
    struct trace_end end; /* the end record's */
    long long bytes;      /* the file's size; 0 when it cannot be found */
};

enum trace_info_status {
    TRACE_INFO_OK,
    TRACE_INFO_READ_ERROR, /* the reader's (trace_reader_error) or the file's */
    TRACE_INFO_NO_MEMORY,  /* for the block counts */
};

/* Reads `reader`'s records to the end record into *info; `file` is the
 * stream the reader reads, for its size.  A modify is a load and a store. */
enum trace_info_status trace_info_read(FILE *file, struct trace_reader *reader,
                                       struct trace_info *info);

/* The file's bytes per instruction; 0 for a trace without instructions. */
double trace_info_bytes_per_instruction(const struct trace_info *info);

#endif
