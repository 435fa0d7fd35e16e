/* Counts taken now: a program run natively under perf_event_open, or
 * under valgrind lackey (docs/compare.md, "Measuring now").
 *
 * Both run argv (argv[0] found in PATH) with the environment of recorded
 * runs (traces/run_env.h: each variable set unless already set), wait
 * for it, and store its wait status in *status.  False with one line in
 * `error` when the program cannot run; a count the machine cannot take is
 * not a failure: the set says so for that event. */
#ifndef APPS_COMPARE_MEASURE_H
#define APPS_COMPARE_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "count_set.h"

/* instructions:u, branches:u, L1-dcache-loads:u, L1-dcache-stores:u and
 * L1-dcache-load-misses:u of the program and its children, user mode only,
 * counted from its exec. */
bool measure_perf(char *const argv[], struct count_set *set, int *status, char *error,
                  size_t error_size);

/* `valgrind --tool=lackey --trace-mem=yes`, its records counted as they
 * arrive: "instructions" (I records, one REP string instruction's
 * repeated records once), "loads" (L and M) and "stores" (S and M).
 * `valgrind` is the launcher to run. */
bool measure_lackey(const char *valgrind, char *const argv[], struct count_set *set, int *status,
                    char *error, size_t error_size);

struct lackey_counts {
    uint64_t instructions, loads, stores, modifies;
    uint64_t last_instruction;  /* the address of the latest I record */
    bool have_instruction;
};

/* Counts one line of lackey's output (a record, or valgrind's own "=="
 * lines and anything else, ignored); false when it is not a record. */
bool lackey_count_line(struct lackey_counts *counts, const char *line);

/* The counts as a set ("valgrind lackey" and `program`). */
bool lackey_count_set(const struct lackey_counts *counts, const char *program,
                      struct count_set *set);

#endif
