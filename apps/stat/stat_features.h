/* The instructions a trace executed that the CPU it was recorded for
 * lacks (docs/stat.md, "Instructions the CPU lacks"): `pmubench record
 * --cpu p5` makes a program see a Pentium's CPUID, but its code (or its
 * compiler's: CMOV, long NOPs) may still run instructions the part does
 * not have, which the models time all the same.  One pass over the trace
 * by blocks, each block's instructions decoded once per block id
 * (isa/x86.h: each instruction's CPUID feature) and checked against the
 * header's CPU view (x86_feature_present). */
#ifndef APPS_STAT_STAT_FEATURES_H
#define APPS_STAT_STAT_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/x86.h"
#include "traces/cpu_view.h"
#include "traces/trace.h"

struct stat_features {
    bool has_view;                     /* the header has a CPU view (else nothing is read) */
    char cpu[CPU_VIEW_MAX_NAME];       /* its name ("p5", "host"...) */
    uint64_t instructions;             /* executed */
    uint64_t lacking;                  /* of them, needing a feature the view lacks */
    uint64_t by_feature[X86_FEATURE_COUNT]; /* `lacking` by enum x86_feature */
    /* The first of them in execution order (when lacking > 0). */
    uint64_t first_address;
    char first_mnemonic[16];           /* capstone's, as x86_insn.mnemonic */
    enum x86_feature first_feature;
};

/* Reads the trace of `reader` (opened, not read yet) to its END record
 * by blocks and counts into `out`; without a view in its header reads
 * nothing (has_view false, zeros).  Instructions without code bytes, or
 * whose bytes do not decode, need nothing.  Memory: the reader's, a
 * decoder, and a pointer per block id (plus a byte per lacking
 * instruction of each block that has any).  False with the reader's
 * message, or "out of memory", in `error`. */
bool stat_features_read(struct trace_reader *reader, struct stat_features *out, char *error,
                        size_t error_size);

/* The same for the trace at `path`, unless it is there and not a regular
 * file (a FIFO, which the simulation read: has_view false, zeros); false
 * with the message of the open, the reader's, or "out of memory ...". */
bool stat_features_count(const char *path, struct stat_features *out, char *error,
                         size_t error_size);

#endif
