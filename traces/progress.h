/* How far a long run is: the library's trace readers (the timing models'
 * drivers, sim/common/trace_driver.h; the recorder's check of its stream,
 * traces/record.h) tell a hook every PROGRESS_EVERY instructions or so; the
 * hook's owner shows it (cli/progress.c, docs/stat.md).  The library prints
 * nothing, and a run without a hook pays one compare per basic block. */
#ifndef TRACES_PROGRESS_H
#define TRACES_PROGRESS_H

#include <stdint.h>

/* Instructions between two reports: a report every few milliseconds at the
 * models' rates, so that the hook's clock reads cost nothing measurable. */
#define PROGRESS_EVERY 65536

struct progress_point {
    uint64_t instructions; /* read so far (in every pass before this one too) */
    uint64_t bytes;        /* of the traces read in this pass; 0: not known (a pipe) */
    int pass, passes;      /* this pass of the traces, from 1, of `passes`; 0: one pass */
};

struct progress_hook {
    void (*report)(void *context, const struct progress_point *point);
    void *context;
};

#endif
