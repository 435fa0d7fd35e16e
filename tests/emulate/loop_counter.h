/* loop_counter: counted_loop measured by a counter programmed over the msr
 * device (selfmon, selfmon_p5).  tests/emulate/README.md, "Expected
 * counts". */
#ifndef TESTS_EMULATE_LOOP_COUNTER_H
#define TESTS_EMULATE_LOOP_COUNTER_H

#include <stdint.h>

/* A counter and the control register that starts and stops it. */
struct loop_counter {
    uint32_t control;    /* the MSR that starts the counter */
    uint64_t control_on; /* its value while counting */
    uint32_t counter;    /* the counter's MSR */
};

/* Measures counted_loop(0) and counted_loop(n) with `counter`, prints
 * "loop N: counted C" for each and their difference against 2 * n, and
 * returns the exit status: 0 when the difference is exactly 2 * n, else 1. */
int loop_counter_check(int fd, const char *program, const struct loop_counter *counter,
                       unsigned long n);

#endif
