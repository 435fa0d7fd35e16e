/* The external bus (Safford 1997, Table 5.5: L2 and memory behind one 66 MHz
 * bus) as a timeline of busy intervals in core clocks, and the write
 * buffers that drain into it (SDM: two write buffers, one per pipe). */
#ifndef SIM_P5_P5_BUS_H
#define SIM_P5_P5_BUS_H

#include <stdbool.h>
#include <stdint.h>

enum {
    P5_BUS_INTERVALS = 32,
    P5_MAX_WRITE_BUFFERS = 16,
};

struct p5_bus {
    uint64_t start[P5_BUS_INTERVALS], end[P5_BUS_INTERVALS]; /* a ring, in time order */
    unsigned first, count;
    uint64_t free_at;                         /* end of the last transfer */
    uint64_t buffer_done[P5_MAX_WRITE_BUFFERS]; /* a ring: when each buffered write completes */
    unsigned buffer_first, buffer_count;
};

void p5_bus_init(struct p5_bus *bus);

/* A transfer of `clocks` clocks asked for at clock `t`: it starts when the
 * bus is free (returned) and keeps it busy for `clocks`. */
uint64_t p5_bus_transfer(struct p5_bus *bus, uint64_t t, uint32_t clocks);

/* From clock `now`, the number of clocks (at most n, at least 1 when n is)
 * over which the bus stays busy (*busy) or stays idle. */
uint64_t p5_bus_run_slow(struct p5_bus *bus, uint64_t now, uint64_t n, bool *busy);

static inline uint64_t p5_bus_run(struct p5_bus *bus, uint64_t now, uint64_t n, bool *busy)
{
    if (bus->free_at <= now) { /* idle from now on */
        *busy = false;
        return n;
    }
    return p5_bus_run_slow(bus, now, n, busy);
}

/* A write put in a write buffer at clock `t` (of `buffers`), written on
 * the bus in `clocks`; the clocks the pipeline stalls because every
 * buffer is full. */
uint64_t p5_bus_buffer_write(struct p5_bus *bus, uint64_t t, uint32_t buffers, uint32_t clocks);

#endif
