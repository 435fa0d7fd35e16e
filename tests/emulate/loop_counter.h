/* loop_counter: counted_loop measured by counters programmed over the msr
 * device (selfmon, selfmon_p5, branch_threshold).  tests/emulate/README.md,
 * "Expected counts". */
#ifndef TESTS_EMULATE_LOOP_COUNTER_H
#define TESTS_EMULATE_LOOP_COUNTER_H

#include <stddef.h>
#include <stdint.h>

/* A counter and the control register that starts and stops it. */
struct loop_counter {
    uint32_t control;    /* the MSR that starts the counter */
    uint64_t control_on; /* its value while counting */
    uint32_t counter;    /* the counter's MSR */
};

/* The values of `count` counters after counted_loop(n), into counted[]:
 * each stopped and zeroed, each started in order, the loop, each read in
 * order while they all still count, each stopped.  Every instruction
 * between the first start's pwrite and the last read's pread is the same
 * for every n but the loop's own. */
void loop_counter_measure(int fd, const char *program, const struct loop_counter *counters,
                          size_t count, unsigned long n, uint64_t *counted);

/* Measures counted_loop(0) and counted_loop(n) with `counter`, prints
 * "loop N: counted C" for each and their difference against 2 * n, and
 * returns the exit status: 0 when the difference is exactly 2 * n, else 1. */
int loop_counter_check(int fd, const char *program, const struct loop_counter *counter,
                       unsigned long n);

#endif
