/* Counting one region of a trace (apps/stat/region_gate.h). */
#include "region_gate.h"

/* Starts (or stops) every program of the gate, in order, up to the first
 * that fails: its status, and the program in gate->failed. */
static msr_status switch_programs(struct region_gate *gate, bool start)
{
    for (int i = 0; i < gate->n_programs; i++) {
        struct program *program = &gate->programs[i];
        msr_status status = start ? program_start(program) : program_stop(program);
        if (status != MSR_OK) {
            gate->failed = program;
            return status;
        }
    }
    return MSR_OK;
}

msr_status region_gate_start_runs(struct region_gate *gate, struct program *programs, int n,
                                  long region)
{
    *gate = (struct region_gate){.programs = programs, .n_programs = n, .region = region,
                                 .status = MSR_OK};
    if (region != REGION_WHOLE_TRACE)
        return MSR_OK;
    gate->status = switch_programs(gate, true);
    gate->counting = gate->status == MSR_OK;
    return gate->status;
}

msr_status region_gate_start(struct region_gate *gate, struct program *program, long region)
{
    return region_gate_start_runs(gate, program, 1, region);
}

void region_gate_marker(struct region_gate *gate, bool begin, uint32_t region)
{
    if ((long)region != gate->region || gate->status != MSR_OK)
        return;
    if (begin)
        gate->entries++;
    gate->status = switch_programs(gate, begin);
    if (gate->status == MSR_OK)
        gate->counting = begin;
}

void region_gate_hook(void *gate, int thread, bool begin, uint32_t region)
{
    (void)thread;
    region_gate_marker(gate, begin, region);
}
