/* Counting one region of a trace (sim/stat/region_gate.h). */
#include "region_gate.h"

msr_status region_gate_start(struct region_gate *gate, struct program *program, long region)
{
    *gate = (struct region_gate){.program = program, .region = region, .status = MSR_OK};
    if (region != REGION_WHOLE_TRACE)
        return MSR_OK;
    gate->counting = true;
    return program_start(program);
}

void region_gate_marker(struct region_gate *gate, bool begin, uint32_t region)
{
    if ((long)region != gate->region || gate->status != MSR_OK)
        return;
    if (begin)
        gate->entries++;
    gate->counting = begin;
    gate->status = begin ? program_start(gate->program) : program_stop(gate->program);
}
