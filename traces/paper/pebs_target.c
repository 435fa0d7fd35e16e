/* pebs_target (Sprunt 2002, "Benchmark program" and Figure 5;
 * traces/paper/README.md): the PEBS-versus-IEBS benchmark.  In a nested
 * loop one load, the target, at the global label pebs_target_load (nm),
 * misses the L1 data cache every time: it walks eight addresses 8 KB apart
 * (one L1 set of the Pentium 4's 8 KB, 4-way cache).  It is preceded and
 * followed by blocks of 100 loads that always hit (sequential words of a
 * 400-byte block).  PEBS attributes every miss to the
 * target ("+0"); Sprunt's IEBS samples fell 65 or more instructions after
 * it, 46.5% at +69, inside the block that follows.
 *
 *   pebs_target [ITERATIONS]    (default 100000; 8 target loads each)
 *
 * Region 1 is the loop. */
#include <stdio.h>

#include "traces/paper/paper_common.h"
#include "traces/pmubench_region.h"

enum { BLOCK = 100 }; /* hitting loads before and after the target */

static unsigned char raw[9 * PAPER_L1_SIZE];
static _Alignas(64) unsigned int hot[BLOCK];

int main(int argc, char **argv)
{
    unsigned long n = paper_count(argc, argv, 100000);
    unsigned char *far_array = paper_align(raw);
    unsigned char *p = far_array + 0x760;
    unsigned long inner, v = 0;
    pmubench_region_begin(1);
    __asm__ volatile("1:\n\t"
                     "mov $8, %[inner]\n\t"
                     "2:\n\t"
                     ".set pmb_off, 0\n\t"
                     ".rept 100\n\t"
                     "movl pmb_off(%[hot]), %k[v]\n\t"
                     ".set pmb_off, pmb_off + 4\n\t"
                     ".endr\n\t"
                     ".globl pebs_target_load\n"
                     "pebs_target_load:\n\t"
                     "mov (%[p]), %[v]\n\t"
                     ".set pmb_off, 0\n\t"
                     ".rept 100\n\t"
                     "movl pmb_off(%[hot]), %k[v]\n\t"
                     ".set pmb_off, pmb_off + 4\n\t"
                     ".endr\n\t"
                     "add $0x2000, %[p]\n\t"
                     "dec %[inner]\n\t"
                     "jnz 2b\n\t"
                     "sub $0x10000, %[p]\n\t" /* back to the first of the eight */
                     "dec %[n]\n\t"
                     "jnz 1b\n\t"
                     : [n] "+r"(n), [p] "+r"(p), [inner] "=&r"(inner), [v] "+r"(v)
                     : [hot] "r"(hot), "m"(raw), "m"(hot)
                     : "cc");
    pmubench_region_end(1);
    printf("%lu\n", v + (unsigned long)(p - far_array));
    return 0;
}
