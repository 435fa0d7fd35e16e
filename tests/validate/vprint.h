/* The validation suite's arithmetic and verdicts (docs/validate.md, "How
 * to read the output"): the per-unit figure from the two runs' cycles,
 * the 10% rule against a published figure or range, and the 90% rule per
 * preset.  Published figures are in half cycles (the NetBurst tables'
 * unit; a P5 clock is 2). */
#ifndef TESTS_VALIDATE_VPRINT_H
#define TESTS_VALIDATE_VPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A measurement: the long run (2K units per iteration) less the short run
 * (K units), over L iterations: `diff` cycles for K x L units. */
struct vprint_result {
    int64_t diff;
    uint64_t units;
};

/* The difference of two runs' cycles for K x L units. */
struct vprint_result vprint_difference(uint64_t short_cycles, uint64_t long_cycles,
                                         int copies, int iterations);

/* Whether diff / units cycles lies within 10% of the published figure
 * [lo, hi] (half cycles): 0.9 lo <= value <= 1.1 hi, in exact integers. */
bool vprint_within(uint32_t lo_half, uint32_t hi_half, struct vprint_result r);

/* "0.5", "3", "66-80": a published figure in cycles. */
void vprint_published(char *out, size_t size, uint32_t lo_half, uint32_t hi_half);

/* The same two in sixths of a cycle, for an expected figure that is not a
 * whole number of half cycles (a third: three uops allocated a cycle):
 * "0.33-0.5". */
bool vprint_within_sixths(uint32_t lo_sixths, uint32_t hi_sixths, struct vprint_result r);
void vprint_published_sixths(char *out, size_t size, uint32_t lo_sixths, uint32_t hi_sixths);

/* The simulated cycles per unit, two decimals: "0.50", "-1.25". */
void vprint_simulated(char *out, size_t size, struct vprint_result r);

/* Whether a preset passes: at least 90% of its measured rows within. */
bool vprint_passes(unsigned within, unsigned measured);

/* "p5: 312 of 340 rows within 10% (91.8%), 25 not measured", and
 * ", 18 without a published figure" when `unpublished` is not 0. */
void vprint_summary(char *out, size_t size, const char *preset, unsigned within,
                     unsigned measured, unsigned not_measured, unsigned unpublished);

#endif
