#include "sim/p5/p5_bus.h"

#include <string.h>

void p5_bus_init(struct p5_bus *bus)
{
    memset(bus, 0, sizeof *bus);
}

uint64_t p5_bus_run_slow(struct p5_bus *bus, uint64_t now, uint64_t n, bool *busy)
{
    while (bus->count && bus->end[bus->first] <= now) {
        bus->first = p5_bus_ring_index(bus->first, 1, P5_BUS_INTERVALS);
        bus->count--;
    }
    *busy = bus->count && bus->start[bus->first] <= now;
    if (!bus->count)
        return n;
    uint64_t until = *busy ? bus->end[bus->first] : bus->start[bus->first];
    return until - now < n ? until - now : n;
}
