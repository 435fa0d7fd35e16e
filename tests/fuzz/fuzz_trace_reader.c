/* libFuzzer target: binary traces of either version, as `pmubench trace
 * info` (by blocks) and `dump` (by records) read them, to their END record
 * or the first error. */
#include <stdint.h>
#include <stdio.h>

#include "traces/trace.h"

static void read_records(struct trace_reader *reader)
{
    static struct trace_record record;
    while (trace_read(reader, &record) == TRACE_OK && record.kind != TRACE_RECORD_END)
        continue;
}

static void read_blocks(struct trace_reader *reader)
{
    const struct trace_block *block;
    const struct trace_record *record;
    while (trace_next_block(reader, &block, &record) == TRACE_OK &&
           (block || record->kind != TRACE_RECORD_END))
        continue;
}

static void read_all(const uint8_t *data, size_t size, void (*read)(struct trace_reader *))
{
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return;
    char error[512];
    struct trace_reader *reader = trace_reader_open(in, "fuzz", error, sizeof error);
    if (reader) {
        read(reader);
        trace_reader_close(reader);
    }
    fclose(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    read_all(data, size, read_records);
    read_all(data, size, read_blocks);
    return 0;
}
