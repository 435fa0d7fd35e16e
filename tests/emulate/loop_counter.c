#include "loop_counter.h"

#include <stdio.h>

#include "counted_loop.h"
#include "msr_file.h"

/* The counter's value after counted_loop(n): stopped, zeroed, started,
 * the loop, then read while it still counts.  Every instruction between
 * the start's pwrite and the read's pread is the same for every n but the
 * loop's own. */
__attribute__((noinline)) static uint64_t measure(int fd, const char *program,
                                                  const struct loop_counter *counter,
                                                  unsigned long n)
{
    msr_file_set(fd, program, counter->control, 0);
    msr_file_set(fd, program, counter->counter, 0);
    msr_file_set(fd, program, counter->control, counter->control_on);
    counted_loop(n);
    uint64_t counted = msr_file_get(fd, program, counter->counter);
    msr_file_set(fd, program, counter->control, 0);
    return counted;
}

int loop_counter_check(int fd, const char *program, const struct loop_counter *counter,
                       unsigned long n)
{
    uint64_t base = measure(fd, program, counter, 0);
    printf("loop 0: counted %llu\n", (unsigned long long)base);
    uint64_t counted = measure(fd, program, counter, n);
    printf("loop %lu: counted %llu\n", n, (unsigned long long)counted);
    uint64_t expected = 2 * (uint64_t)n;
    long long difference = (long long)(counted - base);
    int ok = counted >= base && counted - base == expected;
    printf("difference %lld, expected 2 * %lu = %llu: %s\n", difference, n,
           (unsigned long long)expected, ok ? "ok" : "FAIL");
    return ok ? 0 : 1;
}
