/* The programming library: writes one planned run (pmu/programming/alloc.h) into the
 * PMU through the MSR backend interface, then starts, stops, reads and
 * resets its counters.  The same code programs the simulated PMUs and a
 * real processor behind the Linux msr driver.
 *
 * NetBurst, program_setup() writes, in this order:
 *   1. each CCCR with ENABLE clear (nothing counts while it is set up);
 *   2. each ESCR, then each upstream ESCR (an ESCR two counters share once);
 *   3. each counter, with its preset;
 *   4. IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT: the run's replay-tagging
 *      values, or 0 when it has none (they are global and would linger).
 * program_start() writes each CCCR with ENABLE, program_stop() without.
 *
 * P5: program_setup() writes CESR 0 (both counters stopped), then CTR0 and
 * CTR1 with their presets; program_start() writes the run's CESR and
 * program_stop() the CESR with both CC fields clear.
 *
 * program_reload() is a PMI handler's: the counters' presets, then the
 * CCCRs (the CESR) as started or stopped.
 *
 * Every function returns the status of the first failing access and leaves
 * its MSR in program.failed_msr; it stops at that access.
 */
#ifndef PMU_PROGRAMMING_PROGRAM_H
#define PMU_PROGRAMMING_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc.h"
#include "msr.h"

struct program {
    struct msr_backend *backend;
    int cpu;                      /* the logical CPU the accesses go to */
    const struct alloc_run *run;
    uint32_t failed_msr;          /* the MSR of the failing access */
};

void program_init(struct program *program, struct msr_backend *backend, int cpu,
                  const struct alloc_run *run);

/* presets[i] is the starting value of assignment i's counter; NULL: 0. */
msr_status program_setup(struct program *program, const uint64_t *presets);
msr_status program_start(struct program *program);
msr_status program_stop(struct program *program);

/* Gives the PMU back: the run's CCCRs, ESCRs (upstream ones too) and the
 * replay-tagging MSRs are written 0 (P5: the CESR). */
msr_status program_release(struct program *program);

/* counts[i]: assignment i's counter (40 bits). */
msr_status program_read(struct program *program, uint64_t *counts);

/* Zeroes the run's counters. */
msr_status program_reset(struct program *program);

/* The overflow handler's reload: each counter with its preset (presets as
 * program_setup's), then the CCCRs (P5: the CESR) as program_start
 * (`running`) or program_stop writes them, which clears a CCCR's OVF. */
msr_status program_reload(struct program *program, const uint64_t *presets, bool running);

#endif
