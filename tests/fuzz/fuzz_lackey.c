/* libFuzzer target: valgrind lackey text, as `pmubench trace import
 * --lackey` reads it, into a trace in memory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "traces/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    char *trace = NULL;
    size_t trace_size = 0;
    FILE *out = open_memstream(&trace, &trace_size);
    if (in && out) {
        char error[512];
        struct trace_header header;
        trace_import_header(&header, TRACE_IMPORT_LACKEY);
        struct trace_writer *writer = trace_writer_open(out, &header, error, sizeof error);
        if (writer) {
            trace_import_lackey(in, "fuzz", writer, error, sizeof error);
            trace_writer_close(writer);
        }
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    free(trace);
    return 0;
}
