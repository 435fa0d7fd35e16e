/* The 38 P5 (Pentium) events of Safford 1997 (Table 2.3), with the enumerated
 * names of its Table 3.2.  Data in p5_events.c; notes in docs/events.md. */
#ifndef PMU_CATALOG_P5_EVENTS_H
#define PMU_CATALOG_P5_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/suggest.h"

/* The 6-bit CESR event select of each event (Safford 1997, Table 2.3),
 * named after its Table 3.2 name: the only place the codes are written. */
enum p5_event_code {
    P5_EV_DATA_READ = 0x00,
    P5_EV_DATA_WRITE = 0x01,
    P5_EV_DATA_TLB_MISS = 0x02,
    P5_EV_DATA_READ_MISS = 0x03,
    P5_EV_DATA_WRITE_MISS = 0x04,
    P5_EV_WRITE_TO_M_OR_E_LINES = 0x05,
    P5_EV_DATA_CACHE_LINES_WRITTEN_BACK = 0x06,
    P5_EV_EXTERNAL_SNOOPS = 0x07,
    P5_EV_DATA_CACHE_SNOOPING_HITS = 0x08,
    P5_EV_MEMORY_ACCESSES_IN_BOTH_PIPES = 0x09,
    P5_EV_BANK_CONFLICTS = 0x0a,
    P5_EV_MISALIGNED_DATA_MEMORY_OR_IO_REFERENCES = 0x0b,
    P5_EV_CODE_READ = 0x0c,
    P5_EV_CODE_TLB_MISS = 0x0d,
    P5_EV_CODE_CACHE_MISS = 0x0e,
    P5_EV_SEGMENT_REGISTER_LOADED = 0x0f,
    P5_EV_BRANCHES = 0x12,
    P5_EV_BTB_HITS = 0x13,
    P5_EV_TAKEN_BRANCH_OR_BTB_HIT = 0x14,
    P5_EV_PIPELINE_FLUSHES = 0x15,
    P5_EV_INSTRUCTIONS_EXECUTED = 0x16,
    P5_EV_INSTRUCTIONS_EXECUTED_IN_V_PIPE = 0x17,
    P5_EV_CLOCKS_WHILE_BUS_CYCLE_IN_PROGRESS = 0x18,
    P5_EV_CLOCKS_STALLED_FULL_WRITE_BUFFERS = 0x19,
    P5_EV_CLOCKS_STALLED_WAITING_DATA_READ = 0x1a,
    P5_EV_CLOCKS_STALLED_WRITE_TO_M_OR_E_LINE = 0x1b,
    P5_EV_LOCKED_BUS_CYCLE = 0x1c,
    P5_EV_IO_READ_OR_WRITE_CYCLE = 0x1d,
    P5_EV_NON_CACHEABLE_MEMORY_READS = 0x1e,
    P5_EV_PIPELINE_STALLED_ADDRESS_GENERATION_INTERLOCK = 0x1f,
    P5_EV_FLOPS = 0x22,
    P5_EV_BREAKPOINT_MATCH_DR0 = 0x23,
    P5_EV_BREAKPOINT_MATCH_DR1 = 0x24,
    P5_EV_BREAKPOINT_MATCH_DR2 = 0x25,
    P5_EV_BREAKPOINT_MATCH_DR3 = 0x26,
    P5_EV_HARDWARE_INTERRUPTS = 0x27,
    P5_EV_DATA_READ_OR_WRITE = 0x28,
    P5_EV_DATA_READ_OR_WRITE_MISS = 0x29,
};

struct p5_event {
    uint8_t code;          /* the 6-bit CESR event select (enum p5_event_code) */
    const char *name;      /* Safford 1997, Table 3.2, e.g. "data_read_miss" */
    const char *description;
    bool duration;         /* counts clocks while a condition holds */
    const char *erratum;   /* how hardware miscounts it (Safford 1997, appendix A), or NULL */
};

extern const struct p5_event p5_events[];
extern const int p5_num_events;

/* The event with that name (case-insensitive), or NULL. */
const struct p5_event *p5_event_by_name(const char *name);
/* Offer every event's name as what a mistyped name may have meant
 * (util/suggest.h). */
void p5_events_suggest(struct suggestion *near);
/* The event with that code, or NULL when the code is undefined. */
const struct p5_event *p5_event_by_code(unsigned code);

#endif
