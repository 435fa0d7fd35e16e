/* l1_miss_profile (Sprunt 2002, "Benchmark program" and Table 1;
 * traces/paper/README.md): the data-address profile's benchmark.  A load
 * `mov (%eax), %eax` (%rax on x86-64) follows a ring of eight pointers 8 KB
 * apart, all with the same low 12 bits (0x760, as Table 1's EAX values
 * 0x08049760 ... 0x08057760): on the Pentium 4 (8 KB, 4-way L1) they share
 * one set and every load misses L1.  "One million executions of an
 * eight-iteration loop": the inner loop runs the load eight times.  The load
 * is at the global label l1_miss_profile_load (nm), its address register
 * holds one of the eight addresses before it and the next one after it, so
 * PEBS samples of either give Table 1's eight values.
 *
 *   l1_miss_profile [ITERATIONS]    (default 1000000, as in the paper)
 *
 * Region 1 is the loop; it prints the eight addresses' offsets from the
 * first (0x0 0x2000 ... 0xe000). */
#include <stdint.h>
#include <stdio.h>

#include "traces/paper/paper_common.h"
#include "traces/pmubench_region.h"

enum { RING = 8, LOW_BITS = 0x760 };

static unsigned char raw[(RING + 1) * PAPER_L1_SIZE];

int main(int argc, char **argv)
{
    unsigned long n = paper_count(argc, argv, 1000000);
    unsigned char *array = paper_align(raw);
    void **slot[RING];
    for (int i = 0; i < RING; i++)
        slot[i] = (void **)(array + LOW_BITS + (size_t)i * PAPER_L1_SIZE);
    for (int i = 0; i < RING; i++)
        *slot[i] = slot[(i + 1) % RING];
    void *p = slot[0];
    unsigned long inner;
    pmubench_region_begin(1);
    __asm__ volatile("1:\n\t"
                     "mov $8, %[inner]\n\t"
                     "2:\n\t"
                     ".globl l1_miss_profile_load\n"
                     "l1_miss_profile_load:\n\t"
                     "mov (%[p]), %[p]\n\t"
                     "dec %[inner]\n\t"
                     "jnz 2b\n\t"
                     "dec %[n]\n\t"
                     "jnz 1b\n\t"
                     : [n] "+r"(n), [p] "+a"(p), [inner] "=&r"(inner)
                     : "m"(raw)
                     : "cc");
    pmubench_region_end(1);
    for (int i = 0; i < RING; i++)
        printf("%s0x%lx", i ? " " : "",
               (unsigned long)((unsigned char *)slot[i] - (unsigned char *)slot[0]));
    printf("\n");
    return p == slot[0] ? 0 : 1;
}
