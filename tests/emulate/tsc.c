/*
 * tsc: the time-stamp counter around counted_loop(N), read with RDTSC and
 * through the msr device (IA32_TIME_STAMP_COUNTER, MSR 0x10).  Under
 * `pmubench emulate` both give the simulated clock: the cycle at which the
 * model has retired every instruction before the read.
 *
 *   tsc N
 *
 * prints
 *
 *   rdtsc T0, loop N, rdtsc T1, msr 0x10 T2
 *   loop N: T1 - T0 cycles
 *
 * and exits 0 when T0 < T1 < T2 (the clock runs forward, and the device's
 * read comes after the second RDTSC), else 1.  docs/emulate.md, "What the
 * program sees".
 */
#include <inttypes.h>
#include <stdio.h>

#include "counted_loop.h"
#include "msr_file.h"

enum { MSR_TSC = 0x10 };

static uint64_t rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}

int main(int argc, char **argv)
{
    unsigned long n = counted_loop_operand("tsc", argc, argv);
    int fd = msr_file_open("tsc");
    uint64_t t0 = rdtsc();
    counted_loop(n);
    uint64_t t1 = rdtsc();
    uint64_t t2 = msr_file_get(fd, "tsc", MSR_TSC);
    printf("rdtsc %" PRIu64 ", loop %lu, rdtsc %" PRIu64 ", msr 0x10 %" PRIu64 "\n", t0, n, t1,
           t2);
    printf("loop %lu: %" PRIu64 " cycles\n", n, t1 - t0);
    return t0 < t1 && t1 < t2 ? 0 : 1;
}
