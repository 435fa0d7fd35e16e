/* The P5 event table (data only): codes (enum p5_event_code) and names from
 * Safford 1997, Table 2.3 and Table 3.2, duration class from Table 2.3 (the
 * PMU repeats a duration event over the clocks its condition holds,
 * p5_pmu.h), the errata of its appendix A (from the Pentium specification
 * update).  docs/events.md has the sources. */
#include "p5_events.h"

#include <stddef.h>
#include <strings.h>

#define OCCURRENCE false
#define DURATION true

const struct p5_event p5_events[] = {
    {P5_EV_DATA_READ, "data_read", "data read", OCCURRENCE, NULL},
    {P5_EV_DATA_WRITE, "data_write", "data write", OCCURRENCE, NULL},
    {P5_EV_DATA_READ_OR_WRITE, "data_read_or_write", "data read or write", OCCURRENCE, NULL},
    {P5_EV_DATA_TLB_MISS, "data_tlb_miss", "data TLB miss",
     OCCURRENCE, "counts twice when the access that misses also raises an exception"},
    {P5_EV_DATA_READ_MISS, "data_read_miss", "data read miss",
     OCCURRENCE, "counts twice for a misaligned access"},
    {P5_EV_DATA_WRITE_MISS, "data_write_miss", "data write miss",
     OCCURRENCE, "counts twice for a misaligned access"},
    {P5_EV_DATA_READ_OR_WRITE_MISS, "data_read_or_write_miss", "data read or write miss",
     OCCURRENCE, NULL},
    {P5_EV_WRITE_TO_M_OR_E_LINES, "write_to_M_or_E_lines", "write (hit) to M or E state lines",
     OCCURRENCE, NULL},
    {P5_EV_DATA_CACHE_LINES_WRITTEN_BACK,
     "data_cache_lines_written_back", "data cache lines written back", OCCURRENCE, NULL},
    {P5_EV_EXTERNAL_SNOOPS, "external_snoops", "external snoops", OCCURRENCE, NULL},
    {P5_EV_DATA_CACHE_SNOOPING_HITS, "data_cache_snooping_hits", "data cache snoop hits",
     OCCURRENCE, NULL},
    {P5_EV_MEMORY_ACCESSES_IN_BOTH_PIPES,
     "memory_accesses_in_both_pipes", "memory access in both pipes", OCCURRENCE, NULL},
    {P5_EV_BANK_CONFLICTS, "bank_conflicts", "bank conflicts", OCCURRENCE, NULL},
    {P5_EV_MISALIGNED_DATA_MEMORY_OR_IO_REFERENCES,
     "misaligned_data_memory_or_IO_references", "misaligned data memory or I/O references",
     OCCURRENCE, "counts twice for FST/FSTP"},
    {P5_EV_CODE_READ, "code_read", "code read", OCCURRENCE, NULL},
    {P5_EV_CODE_TLB_MISS, "code_tlb_miss", "code TLB miss",
     OCCURRENCE, "counts twice when the instruction that misses also raises an exception"},
    {P5_EV_CODE_CACHE_MISS, "code_cache_miss", "code cache miss", OCCURRENCE, NULL},
    {P5_EV_SEGMENT_REGISTER_LOADED, "segment_register_loaded", "any segment register loaded",
     OCCURRENCE, NULL},
    {P5_EV_BRANCHES, "branches", "branches", OCCURRENCE, NULL},
    {P5_EV_BTB_HITS, "btb_hits", "BTB hits", OCCURRENCE, NULL},
    {P5_EV_TAKEN_BRANCH_OR_BTB_HIT, "taken_branch_or_btb_hit", "taken branch or BTB hit",
     OCCURRENCE, NULL},
    {P5_EV_PIPELINE_FLUSHES, "pipeline_flushes", "pipeline flushes",
     OCCURRENCE, "may count some segment-descriptor loads and VERR, which flush nothing"},
    {P5_EV_INSTRUCTIONS_EXECUTED, "instructions_executed", "instructions executed",
     OCCURRENCE, NULL},
    {P5_EV_INSTRUCTIONS_EXECUTED_IN_V_PIPE, "instructions_executed_in_v_pipe",
     "instructions executed in the v-pipe",
     OCCURRENCE,
     "a faulting v-pipe instruction is not counted when "
     "a second exception arrives before the first handler"},
    {P5_EV_CLOCKS_WHILE_BUS_CYCLE_IN_PROGRESS,
     "clocks_while_bus_cycle_in_progress", "clocks while a bus cycle is in progress",
     DURATION, NULL},
    {P5_EV_CLOCKS_STALLED_FULL_WRITE_BUFFERS,
     "clocks_stalled_full_write_buffers", "number of clocks stalled due to full write buffers",
     DURATION, NULL},
    {P5_EV_CLOCKS_STALLED_WAITING_DATA_READ,
     "clocks_stalled_waiting_data_read", "pipeline stalled waiting for data memory read",
     DURATION, "a misaligned access counts 2 stall clocks instead of 3 unless it misses the TLB"},
    {P5_EV_CLOCKS_STALLED_WRITE_TO_M_OR_E_LINE,
     "clocks_stalled_write_to_M_or_E_line", "stall on write to an E or M state line",
     DURATION, NULL},
    {P5_EV_LOCKED_BUS_CYCLE, "locked_bus_cycle", "locked bus cycle", OCCURRENCE, NULL},
    {P5_EV_IO_READ_OR_WRITE_CYCLE, "IO_read_or_write_cycle", "I/O read or write cycle",
     OCCURRENCE, NULL},
    {P5_EV_NON_CACHEABLE_MEMORY_READS, "non_cacheable_memory_reads", "non-cacheable memory reads",
     OCCURRENCE, "reads of I/O space are counted"},
    {P5_EV_PIPELINE_STALLED_ADDRESS_GENERATION_INTERLOCK,
     "pipeline_stalled_address_generation_interlock",
     "pipeline stalled due to address generation interlock", DURATION, NULL},
    {P5_EV_FLOPS, "flops", "floating point operations (FLOPs)", OCCURRENCE, NULL},
    {P5_EV_BREAKPOINT_MATCH_DR0, "breakpoint_match_DR0", "breakpoint match on DR0 register",
     OCCURRENCE, "has errata Safford 1997 names without describing them"},
    {P5_EV_BREAKPOINT_MATCH_DR1, "breakpoint_match_DR1", "breakpoint match on DR1 register",
     OCCURRENCE, "has errata Safford 1997 names without describing them"},
    {P5_EV_BREAKPOINT_MATCH_DR2, "breakpoint_match_DR2", "breakpoint match on DR2 register",
     OCCURRENCE, "has errata Safford 1997 names without describing them"},
    {P5_EV_BREAKPOINT_MATCH_DR3, "breakpoint_match_DR3", "breakpoint match on DR3 register",
     OCCURRENCE, "has errata Safford 1997 names without describing them"},
    {P5_EV_HARDWARE_INTERRUPTS, "hardware_interrupts", "hardware interrupts", OCCURRENCE, NULL},
};

const int p5_num_events = sizeof p5_events / sizeof p5_events[0];

const struct p5_event *p5_event_by_name(const char *name)
{
    for (int i = 0; i < p5_num_events; i++)
        if (strcasecmp(p5_events[i].name, name) == 0)
            return &p5_events[i];
    return NULL;
}

void p5_events_suggest(struct suggestion *near)
{
    for (int i = 0; i < p5_num_events; i++)
        suggestion_consider(near, p5_events[i].name);
}

const struct p5_event *p5_event_by_code(unsigned code)
{
    for (int i = 0; i < p5_num_events; i++)
        if (p5_events[i].code == code)
            return &p5_events[i];
    return NULL;
}
