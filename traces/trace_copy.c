/* Copying a trace record by record (traces/trace_copy.h). */
#include "traces/trace_copy.h"

/* Where the thread goes on after instruction `insn`: a taken branch's
 * target, else its fall-through. */
static uint64_t next_address(const struct trace_insn *insn)
{
    return insn->branch == TRACE_BRANCH_TAKEN ? insn->target : insn->address + insn->length;
}

/* One record written, `next` the address after the last instruction;
 * false when the writer fails. */
static bool write_record(struct trace_writer *writer, const struct trace_record *record,
                         uint64_t next)
{
    switch (record->kind) {
    case TRACE_RECORD_INSN:
        return trace_write_insn(writer, &record->insn);
    case TRACE_RECORD_REGION_BEGIN:
    case TRACE_RECORD_REGION_END:
        return trace_write_region(writer, record->kind == TRACE_RECORD_REGION_BEGIN,
                                  record->region);
    case TRACE_RECORD_MSR:
        return trace_write_msr(writer, &record->msr, next);
    case TRACE_RECORD_END:
        return trace_write_end(writer, &record->end);
    case TRACE_RECORD_ISA:
        break; /* trace_copy's */
    }
    return false;
}

enum trace_copy_status trace_copy(struct trace_reader *reader, struct trace_writer *writer)
{
    const struct trace_record *record;
    uint64_t next = 0;
    do {
        if (trace_next(reader, &record) != TRACE_OK)
            return TRACE_COPY_READ_FAILED;
        if (record->kind == TRACE_RECORD_INSN)
            next = next_address(&record->insn);
        if (record->kind == TRACE_RECORD_ISA)
            return TRACE_COPY_TWO_ISAS;
        if (!write_record(writer, record, next))
            return TRACE_COPY_WRITE_FAILED;
    } while (record->kind != TRACE_RECORD_END);
    return TRACE_COPIED;
}
