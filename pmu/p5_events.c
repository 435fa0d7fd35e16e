/* The P5 event table (data only): codes and names from seed 001 Table 2.3
 * and Table 3.2, duration class from Table 2.3.  docs/events.md lists the
 * errata of seed 001 appendix A per event. */
#include "p5_events.h"

#include <stddef.h>
#include <strings.h>

#define OCCURRENCE false
#define DURATION true

const struct p5_event p5_events[] = {
    {0x00, "data_read", "data read", OCCURRENCE},
    {0x01, "data_write", "data write", OCCURRENCE},
    {0x28, "data_read_or_write", "data read or write", OCCURRENCE},
    {0x02, "data_tlb_miss", "data TLB miss", OCCURRENCE},
    {0x03, "data_read_miss", "data read miss", OCCURRENCE},
    {0x04, "data_write_miss", "data write miss", OCCURRENCE},
    {0x29, "data_read_or_write_miss", "data read or write miss", OCCURRENCE},
    {0x05, "write_to_M_or_E_lines", "write (hit) to M or E state lines", OCCURRENCE},
    {0x06, "data_cache_lines_written_back", "data cache lines written back", OCCURRENCE},
    {0x07, "external_snoops", "external snoops", OCCURRENCE},
    {0x08, "data_cache_snooping_hits", "data cache snoop hits", OCCURRENCE},
    {0x09, "memory_accesses_in_both_pipes", "memory access in both pipes", OCCURRENCE},
    {0x0a, "bank_conflicts", "bank conflicts", OCCURRENCE},
    {0x0b, "misaligned_data_memory_or_IO_references", "misaligned data memory or I/O references", OCCURRENCE},
    {0x0c, "code_read", "code read", OCCURRENCE},
    {0x0d, "code_tlb_miss", "code TLB miss", OCCURRENCE},
    {0x0e, "code_cache_miss", "code cache miss", OCCURRENCE},
    {0x0f, "segment_register_loaded", "any segment register loaded", OCCURRENCE},
    {0x12, "branches", "branches", OCCURRENCE},
    {0x13, "btb_hits", "BTB hits", OCCURRENCE},
    {0x14, "taken_branch_or_btb_hit", "taken branch or BTB hit", OCCURRENCE},
    {0x15, "pipeline_flushes", "pipeline flushes", OCCURRENCE},
    {0x16, "instructions_executed", "instructions executed", OCCURRENCE},
    {0x17, "instructions_executed_in_v_pipe", "instructions executed in the v-pipe", OCCURRENCE},
    {0x18, "clocks_while_bus_cycle_in_progress", "clocks while a bus cycle is in progress", DURATION},
    {0x19, "clocks_stalled_full_write_buffers", "number of clocks stalled due to full write buffers", DURATION},
    {0x1a, "clocks_stalled_waiting_data_read", "pipeline stalled waiting for data memory read", DURATION},
    {0x1b, "clocks_stalled_write_to_M_or_E_line", "stall on write to an E or M state line", DURATION},
    {0x1c, "locked_bus_cycle", "locked bus cycle", OCCURRENCE},
    {0x1d, "IO_read_or_write_cycle", "I/O read or write cycle", OCCURRENCE},
    {0x1e, "non_cacheable_memory_reads", "non-cacheable memory reads", OCCURRENCE},
    {0x1f, "pipeline_stalled_address_generation_interlock", "pipeline stalled due to address generation interlock", DURATION},
    {0x22, "flops", "floating point operations (FLOPs)", OCCURRENCE},
    {0x23, "breakpoint_match_DR0", "breakpoint match on DR0 register", OCCURRENCE},
    {0x24, "breakpoint_match_DR1", "breakpoint match on DR1 register", OCCURRENCE},
    {0x25, "breakpoint_match_DR2", "breakpoint match on DR2 register", OCCURRENCE},
    {0x26, "breakpoint_match_DR3", "breakpoint match on DR3 register", OCCURRENCE},
    {0x27, "hardware_interrupts", "hardware interrupts", OCCURRENCE},
};

const int p5_num_events = sizeof p5_events / sizeof p5_events[0];

const struct p5_event *p5_event_by_name(const char *name)
{
    for (int i = 0; i < p5_num_events; i++)
        if (strcasecmp(p5_events[i].name, name) == 0)
            return &p5_events[i];
    return NULL;
}

const struct p5_event *p5_event_by_code(unsigned code)
{
    for (int i = 0; i < p5_num_events; i++)
        if (p5_events[i].code == code)
            return &p5_events[i];
    return NULL;
}
