/* l1_miss (Sprunt 2002, "Benchmark results"; traces/paper/README.md):
 * a steady stream of independent loads that all miss the L1 data cache.
 * Each iteration loads the eight words at 8 KB strides (0, 8 KB, ... 56
 * KB past an 8 KB-aligned base): on the Pentium 4 (8 KB, 4-way L1) they
 * share one set, which holds four of them, so with LRU replacement every
 * load misses L1 (and hits L2).  The loads go to two registers in turn
 * and nothing depends on them: about 1.23 uops per cycle in the paper.
 *
 *   l1_miss [ITERATIONS]    (default 1000000; 16 loads each)
 *
 * Region 1 is the loop. */
#include <stdio.h>

#include "traces/paper/paper_common.h"
#include "traces/pmubench_region.h"

static unsigned char raw[9 * PAPER_L1_SIZE];

int main(int argc, char **argv)
{
    unsigned long n = paper_count(argc, argv, 1000000);
    unsigned char *p = paper_align(raw);
    unsigned long a, b;
    pmubench_region_begin(1);
    __asm__ volatile("1:\n\t"
                     ".rept 2\n\t"
                     "mov 0x0000(%[p]), %[a]\n\t"
                     "mov 0x2000(%[p]), %[b]\n\t"
                     "mov 0x4000(%[p]), %[a]\n\t"
                     "mov 0x6000(%[p]), %[b]\n\t"
                     "mov 0x8000(%[p]), %[a]\n\t"
                     "mov 0xa000(%[p]), %[b]\n\t"
                     "mov 0xc000(%[p]), %[a]\n\t"
                     "mov 0xe000(%[p]), %[b]\n\t"
                     ".endr\n\t"
                     "dec %[n]\n\t"
                     "jnz 1b\n\t"
                     : [n] "+r"(n), [a] "=&r"(a), [b] "=&r"(b)
                     : [p] "r"(p), "m"(raw)
                     : "cc");
    pmubench_region_end(1);
    printf("%lu\n", a + b);
    return 0;
}
