#include "loop_counter.h"

#include <stdio.h>

#include "counted_loop.h"
#include "msr_file.h"

__attribute__((noinline)) void loop_counter_measure(int fd, const char *program,
                                                    const struct loop_counter *counters,
                                                    size_t count, unsigned long n,
                                                    uint64_t *counted)
{
    for (size_t i = 0; i < count; i++) {
        msr_file_set(fd, program, counters[i].control, 0);
        msr_file_set(fd, program, counters[i].counter, 0);
    }
    for (size_t i = 0; i < count; i++)
        msr_file_set(fd, program, counters[i].control, counters[i].control_on);
    counted_loop(n);
    for (size_t i = 0; i < count; i++)
        counted[i] = msr_file_get(fd, program, counters[i].counter);
    for (size_t i = 0; i < count; i++)
        msr_file_set(fd, program, counters[i].control, 0);
}

int loop_counter_check(int fd, const char *program, const struct loop_counter *counter,
                       unsigned long n)
{
    uint64_t base, counted;
    loop_counter_measure(fd, program, counter, 1, 0, &base);
    printf("loop 0: counted %llu\n", (unsigned long long)base);
    loop_counter_measure(fd, program, counter, 1, n, &counted);
    printf("loop %lu: counted %llu\n", n, (unsigned long long)counted);
    uint64_t expected = 2 * (uint64_t)n;
    long long difference = (long long)(counted - base);
    int ok = counted >= base && counted - base == expected;
    printf("difference %lld, expected 2 * %lu = %llu: %s\n", difference, n,
           (unsigned long long)expected, ok ? "ok" : "FAIL");
    return ok ? 0 : 1;
}
