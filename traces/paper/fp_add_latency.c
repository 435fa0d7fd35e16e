/* fp_add_latency (Sprunt 2002, "Benchmark results"; traces/paper/README.md):
 * a long chain of serially dependent floating-point adds.  Each x87
 * `fadd %st(1), %st` adds 1.0 to the top of the stack and needs the
 * previous add's result, so the adds run one per FP-add latency (5 cycles
 * on the Pentium 4 Xeon: about 0.21 uops per cycle in the paper).
 *
 *   fp_add_latency [ITERATIONS]    (default 100000; 32 adds each)
 *
 * Region 1 is the loop; it prints the sum (32 * ITERATIONS). */
#include <stdio.h>

#include "traces/paper/paper_common.h"
#include "traces/pmubench_region.h"

int main(int argc, char **argv)
{
    unsigned long n = paper_count(argc, argv, 100000);
    double sum;
    pmubench_region_begin(1);
    __asm__ volatile("fld1\n\t"               /* st(1) = 1.0 */
                     "fldz\n\t"               /* st(0) = 0.0: the sum */
                     "1:\n\t"
                     ".rept 32\n\t"
                     "fadd %%st(1), %%st\n\t" /* st(0) += 1.0, dependent on the last */
                     ".endr\n\t"
                     "dec %[n]\n\t"
                     "jnz 1b\n\t"
                     "fstpl %[sum]\n\t"
                     "fstp %%st(0)\n\t"
                     : [n] "+r"(n), [sum] "=m"(sum)
                     :
                     : "cc", "st", "st(1)");
    pmubench_region_end(1);
    printf("%.0f\n", sum);
    return 0;
}
