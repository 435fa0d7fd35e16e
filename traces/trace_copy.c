/* Copying a trace record by record (traces/trace_copy.h). */
#include "traces/trace_copy.h"

/* One record written; false when the writer fails. */
static bool write_record(struct trace_writer *writer, const struct trace_record *record)
{
    switch (record->kind) {
    case TRACE_RECORD_INSN:
        return trace_write_insn(writer, &record->insn);
    case TRACE_RECORD_REGION_BEGIN:
    case TRACE_RECORD_REGION_END:
        return trace_write_region(writer, record->kind == TRACE_RECORD_REGION_BEGIN,
                                  record->region);
    case TRACE_RECORD_END:
        return trace_write_end(writer, &record->end);
    }
    return false;
}

enum trace_copy_status trace_copy(struct trace_reader *reader, struct trace_writer *writer)
{
    const struct trace_record *record;
    do {
        if (trace_next(reader, &record) != TRACE_OK)
            return TRACE_COPY_READ_FAILED;
        if (!write_record(writer, record))
            return TRACE_COPY_WRITE_FAILED;
    } while (record->kind != TRACE_RECORD_END);
    return TRACE_COPIED;
}
