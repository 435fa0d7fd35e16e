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

/* The i-th slot of a ring of `size` from `first`. */
static inline unsigned p5_bus_ring_index(unsigned first, unsigned i, unsigned size)
{
    return (first + i) % size;
}

/* A transfer of `clocks` clocks asked for at clock `t`: it starts when the
 * bus is free (returned) and keeps it busy for `clocks`.  Inline, as
 * p5_bus_buffer_write(): a store that misses goes out through a buffer. */
static inline uint64_t p5_bus_transfer(struct p5_bus *bus, uint64_t t, uint32_t clocks)
{
    uint64_t start = t > bus->free_at ? t : bus->free_at;
    if (clocks == 0)
        return start;
    bus->free_at = start + clocks;
    unsigned last =
        p5_bus_ring_index(bus->first, bus->count + P5_BUS_INTERVALS - 1, P5_BUS_INTERVALS);
    if (bus->count && bus->end[last] == start) { /* back to back: one interval */
        bus->end[last] = bus->free_at;
        return start;
    }
    if (bus->count == P5_BUS_INTERVALS) { /* the oldest is long past (p5_bus_run prunes lazily) */
        bus->first = p5_bus_ring_index(bus->first, 1, P5_BUS_INTERVALS);
        bus->count--;
    }
    unsigned slot = p5_bus_ring_index(bus->first, bus->count, P5_BUS_INTERVALS);
    bus->start[slot] = start;
    bus->end[slot] = bus->free_at;
    bus->count++;
    return start;
}

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
static inline uint64_t p5_bus_buffer_write(struct p5_bus *bus, uint64_t t, uint32_t buffers,
                                           uint32_t clocks)
{
    while (bus->buffer_count && bus->buffer_done[bus->buffer_first] <= t) {
        bus->buffer_first = p5_bus_ring_index(bus->buffer_first, 1, P5_MAX_WRITE_BUFFERS);
        bus->buffer_count--;
    }
    uint64_t stall = 0;
    if (bus->buffer_count >= buffers) {
        uint64_t freed = bus->buffer_done[bus->buffer_first];
        stall = freed - t;
        t = freed;
        bus->buffer_first = p5_bus_ring_index(bus->buffer_first, 1, P5_MAX_WRITE_BUFFERS);
        bus->buffer_count--;
    }
    uint64_t start = p5_bus_transfer(bus, t, clocks);
    unsigned slot = p5_bus_ring_index(bus->buffer_first, bus->buffer_count, P5_MAX_WRITE_BUFFERS);
    bus->buffer_done[slot] = start + clocks;
    bus->buffer_count++;
    return stall;
}

#endif
