/* Counting one region of a trace (sim/stat/region_gate.h). */
#include "region_gate.h"

msr_status region_gate_start(struct region_gate *gate, struct program *program, long region)
{
    *gate = (struct region_gate){.program = program, .region = region, .status = MSR_OK};
    if (region != REGION_WHOLE_TRACE)
        return MSR_OK;
    gate->status = program_start(program);
    gate->counting = gate->status == MSR_OK;
    return gate->status;
}

void region_gate_marker(struct region_gate *gate, bool begin, uint32_t region)
{
    if ((long)region != gate->region || gate->status != MSR_OK)
        return;
    if (begin)
        gate->entries++;
    gate->status = begin ? program_start(gate->program) : program_stop(gate->program);
    if (gate->status == MSR_OK)
        gate->counting = begin;
}

void region_gate_hook(void *gate, bool begin, uint32_t region)
{
    region_gate_marker(gate, begin, region);
}

void region_gate_thread_hook(void *gate, int thread, bool begin, uint32_t region)
{
    (void)thread;
    region_gate_marker(gate, begin, region);
}
