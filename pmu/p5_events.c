/* The P5 event table (data only): codes and names from Safford 1997, Table 2.3
 * and Table 3.2, duration class from Table 2.3, the errata of its appendix A
 * (from the Pentium specification update).  docs/events.md has the
 * sources. */
#include "p5_events.h"

#include <stddef.h>
#include <strings.h>

#define OCCURRENCE false
#define DURATION true

const struct p5_event p5_events[] = {
    {0x00, "data_read", "data read", OCCURRENCE, NULL},
    {0x01, "data_write", "data write", OCCURRENCE, NULL},
    {0x28, "data_read_or_write", "data read or write", OCCURRENCE, NULL},
    {0x02, "data_tlb_miss", "data TLB miss", OCCURRENCE,
     "counts twice when the access that misses also raises an exception"},
    {0x03, "data_read_miss", "data read miss", OCCURRENCE, "counts twice for a misaligned access"},
    {0x04, "data_write_miss", "data write miss", OCCURRENCE,
     "counts twice for a misaligned access"},
    {0x29, "data_read_or_write_miss", "data read or write miss", OCCURRENCE, NULL},
    {0x05, "write_to_M_or_E_lines", "write (hit) to M or E state lines", OCCURRENCE, NULL},
    {0x06, "data_cache_lines_written_back", "data cache lines written back", OCCURRENCE, NULL},
    {0x07, "external_snoops", "external snoops", OCCURRENCE, NULL},
    {0x08, "data_cache_snooping_hits", "data cache snoop hits", OCCURRENCE, NULL},
    {0x09, "memory_accesses_in_both_pipes", "memory access in both pipes", OCCURRENCE, NULL},
    {0x0a, "bank_conflicts", "bank conflicts", OCCURRENCE, NULL},
    {0x0b, "misaligned_data_memory_or_IO_references", "misaligned data memory or I/O references", OCCURRENCE,
     "counts twice for FST/FSTP"},
    {0x0c, "code_read", "code read", OCCURRENCE, NULL},
    {0x0d, "code_tlb_miss", "code TLB miss", OCCURRENCE,
     "counts twice when the instruction that misses also raises an exception"},
    {0x0e, "code_cache_miss", "code cache miss", OCCURRENCE, NULL},
    {0x0f, "segment_register_loaded", "any segment register loaded", OCCURRENCE, NULL},
    {0x12, "branches", "branches", OCCURRENCE, NULL},
    {0x13, "btb_hits", "BTB hits", OCCURRENCE, NULL},
    {0x14, "taken_branch_or_btb_hit", "taken branch or BTB hit", OCCURRENCE, NULL},
    {0x15, "pipeline_flushes", "pipeline flushes", OCCURRENCE,
     "may count some segment-descriptor loads and VERR, which flush nothing"},
    {0x16, "instructions_executed", "instructions executed", OCCURRENCE, NULL},
    {0x17, "instructions_executed_in_v_pipe", "instructions executed in the v-pipe", OCCURRENCE,
     "a faulting v-pipe instruction is not counted when a second exception "
     "arrives before the first handler"},
    {0x18, "clocks_while_bus_cycle_in_progress", "clocks while a bus cycle is in progress", DURATION,
     NULL},
    {0x19, "clocks_stalled_full_write_buffers", "number of clocks stalled due to full write buffers", DURATION,
     NULL},
    {0x1a, "clocks_stalled_waiting_data_read", "pipeline stalled waiting for data memory read", DURATION,
     "a misaligned access counts 2 stall clocks instead of 3 unless it misses the TLB"},
    {0x1b, "clocks_stalled_write_to_M_or_E_line", "stall on write to an E or M state line", DURATION,
     NULL},
    {0x1c, "locked_bus_cycle", "locked bus cycle", OCCURRENCE, NULL},
    {0x1d, "IO_read_or_write_cycle", "I/O read or write cycle", OCCURRENCE, NULL},
    {0x1e, "non_cacheable_memory_reads", "non-cacheable memory reads", OCCURRENCE,
     "reads of I/O space are counted"},
    {0x1f, "pipeline_stalled_address_generation_interlock", "pipeline stalled due to address generation interlock", DURATION,
     NULL},
    {0x22, "flops", "floating point operations (FLOPs)", OCCURRENCE, NULL},
    {0x23, "breakpoint_match_DR0", "breakpoint match on DR0 register", OCCURRENCE,
     "has errata Safford 1997 names without describing them"},
    {0x24, "breakpoint_match_DR1", "breakpoint match on DR1 register", OCCURRENCE,
     "has errata Safford 1997 names without describing them"},
    {0x25, "breakpoint_match_DR2", "breakpoint match on DR2 register", OCCURRENCE,
     "has errata Safford 1997 names without describing them"},
    {0x26, "breakpoint_match_DR3", "breakpoint match on DR3 register", OCCURRENCE,
     "has errata Safford 1997 names without describing them"},
    {0x27, "hardware_interrupts", "hardware interrupts", OCCURRENCE, NULL},
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
