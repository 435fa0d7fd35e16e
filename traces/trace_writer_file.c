/* The trace writer bound to a FILE (traces/trace.h): its core
 * (traces/trace_writer.c) writes through a sink. */
#include <stdio.h>

#include "trace.h"

static bool file_sink(void *context, const uint8_t *bytes, size_t n)
{
    return fwrite(bytes, 1, n, context) == n;
}

struct trace_writer *trace_writer_open(FILE *out, const struct trace_header *header, char *error,
                                       size_t error_size)
{
    struct trace_writer *w = trace_writer_create(header, file_sink, out);
    if (!w)
        snprintf(error, error_size, "out of memory");
    return w;
}
