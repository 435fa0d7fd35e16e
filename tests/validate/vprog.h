/* The validation suite's program (docs/validate.md, "The program"): every
 * kernel twice, a short run of K units per iteration and a long one of 2K,
 * each as a region of its own (pmubench_region_begin/end, which the
 * recorder turns into markers), after a warm-up run of the same code.
 * 32-bit GNU as source; _start runs every kernel and exits. */
#ifndef TESTS_VALIDATE_VPROG_H
#define TESTS_VALIDATE_VPROG_H

#include <stdint.h>
#include <stdio.h>

#include "vgen.h"

struct vprog_entry {
    const struct vgen_kernel *kernel;
    uint32_t region;          /* the short run's region; the long run's is region + 1 */
    int first_line, last_line; /* set by vprog_write: the lines of its code, from 1 */
};

/* Writes the program of the entries to `out`; false when a write failed. */
bool vprog_write(FILE *out, struct vprog_entry *entries, size_t n);

/* The entry whose code holds line `line`, or -1. */
long vprog_entry_of_line(const struct vprog_entry *entries, size_t n, int line);

#endif
