/* libFuzzer target: binary traces, as `pmubench trace info` and `dump` read
 * them, to their END record or the first error. */
#include <stdint.h>
#include <stdio.h>

#include "traces/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    char error[512];
    struct trace_reader *reader = trace_reader_open(in, "fuzz", error, sizeof error);
    if (reader) {
        static struct trace_record record;
        while (trace_read(reader, &record) == TRACE_OK && record.kind != TRACE_RECORD_END)
            continue;
        trace_reader_close(reader);
    }
    fclose(in);
    return 0;
}
