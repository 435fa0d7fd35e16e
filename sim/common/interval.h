/* Intervals of a run (`pmubench stat -I`, docs/stat.md "Intervals"): a
 * timing model tells a hook each time its count of completed instructions
 * (or of ticked cycles) has passed the next multiple of `every`, at a
 * point where the PMU has been told everything before it; the hook reads
 * the counters there.  The model says what happened; it never reads a
 * counter itself. */
#ifndef SIM_COMMON_INTERVAL_H
#define SIM_COMMON_INTERVAL_H

#include <stdint.h>

enum interval_unit { INTERVAL_INSTRUCTIONS, INTERVAL_CYCLES };

/* The model's running totals at an interval's end, from the start of the
 * run: instructions completed (both logical processors), cycles the PMU
 * has been ticked, uops retired (the NetBurst; 0 on the P5). */
struct interval_point {
    uint64_t instructions, cycles, uops;
};

struct interval_hook {
    enum interval_unit unit;
    uint64_t every; /* > 0 */
    void (*end)(void *context, const struct interval_point *point);
    void *context;
};

/* The unit's running total at `point`. */
static inline uint64_t interval_position(enum interval_unit unit,
                                         const struct interval_point *point)
{
    return unit == INTERVAL_CYCLES ? point->cycles : point->instructions;
}

#endif
