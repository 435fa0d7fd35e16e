#include "sim/p5/p5_bus.h"

#include <string.h>

void p5_bus_init(struct p5_bus *bus)
{
    memset(bus, 0, sizeof *bus);
}

static unsigned ring_index(unsigned first, unsigned i, unsigned size)
{
    return (first + i) % size;
}

uint64_t p5_bus_transfer(struct p5_bus *bus, uint64_t t, uint32_t clocks)
{
    uint64_t start = t > bus->free_at ? t : bus->free_at;
    if (clocks == 0)
        return start;
    bus->free_at = start + clocks;
    unsigned last = ring_index(bus->first, bus->count + P5_BUS_INTERVALS - 1, P5_BUS_INTERVALS);
    if (bus->count && bus->end[last] == start) { /* back to back: one interval */
        bus->end[last] = bus->free_at;
        return start;
    }
    if (bus->count == P5_BUS_INTERVALS) { /* the oldest is long past (p5_bus_run prunes lazily) */
        bus->first = ring_index(bus->first, 1, P5_BUS_INTERVALS);
        bus->count--;
    }
    unsigned slot = ring_index(bus->first, bus->count, P5_BUS_INTERVALS);
    bus->start[slot] = start;
    bus->end[slot] = bus->free_at;
    bus->count++;
    return start;
}

uint64_t p5_bus_run_slow(struct p5_bus *bus, uint64_t now, uint64_t n, bool *busy)
{
    while (bus->count && bus->end[bus->first] <= now) {
        bus->first = ring_index(bus->first, 1, P5_BUS_INTERVALS);
        bus->count--;
    }
    *busy = bus->count && bus->start[bus->first] <= now;
    if (!bus->count)
        return n;
    uint64_t until = *busy ? bus->end[bus->first] : bus->start[bus->first];
    return until - now < n ? until - now : n;
}

uint64_t p5_bus_buffer_write(struct p5_bus *bus, uint64_t t, uint32_t buffers, uint32_t clocks)
{
    while (bus->buffer_count && bus->buffer_done[bus->buffer_first] <= t) {
        bus->buffer_first = ring_index(bus->buffer_first, 1, P5_MAX_WRITE_BUFFERS);
        bus->buffer_count--;
    }
    uint64_t stall = 0;
    if (bus->buffer_count >= buffers) {
        uint64_t freed = bus->buffer_done[bus->buffer_first];
        stall = freed - t;
        t = freed;
        bus->buffer_first = ring_index(bus->buffer_first, 1, P5_MAX_WRITE_BUFFERS);
        bus->buffer_count--;
    }
    uint64_t start = p5_bus_transfer(bus, t, clocks);
    unsigned slot = ring_index(bus->buffer_first, bus->buffer_count, P5_MAX_WRITE_BUFFERS);
    bus->buffer_done[slot] = start + clocks;
    bus->buffer_count++;
    return stall;
}
