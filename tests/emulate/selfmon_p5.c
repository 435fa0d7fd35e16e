/*
 * selfmon_p5: selfmon's measurement on the P5 (Pentium): CESR programs
 * instructions_executed at CPL 3 on CTR0, read back with pread of
 * /dev/cpu/0/msr.
 *
 *   selfmon_p5 N   (run as: pmubench emulate -m p5 -- selfmon_p5 N)
 *
 * Output and exit status as selfmon's: the difference between the counts
 * of the loop with N and with 0 iterations must be exactly 2 * N
 * (tests/emulate/README.md, "Expected counts").
 *
 * Registers (SDM Vol. 3B, Pentium section: SDM-old 18.26, SDM-new 18.23;
 * Safford 1997, Table 2.1; pmu/catalog/p5_msrs.h): CESR 0x11, CTR0 0x12.
 */
#include <stdint.h>
#include <stdio.h>

#include "counted_loop.h"
#include "loop_counter.h"
#include "msr_file.h"

#define P5_MSR_CESR 0x11u
#define P5_MSR_CTR0 0x12u

/* CESR, counter 0's half: ES0 bits 5:0 (the event), CC0 8:6 (010 = count
 * at CPL 3), PC0 9 (SDM Pentium section, figure "CESR MSR"; Safford 1997,
 * section 2.2 and Table 2.2; pmu/catalog/p5_msrs.h). */
#define CESR_ES0(e) ((uint64_t)(e))
#define CESR_CC0(c) ((uint64_t)(c) << 6)
#define CC_CPL3 2u

/* instructions_executed: event code 0x16, instructions executed in both
 * pipes (SDM-old Table A-19, SDM-new chapter 19's Pentium table;
 * docs/events.md, "P5"; pmu/catalog/p5_events.c). */
#define INSTRUCTIONS_EXECUTED 0x16u

#define CESR_VALUE (CESR_ES0(INSTRUCTIONS_EXECUTED) | CESR_CC0(CC_CPL3))

/* The project's encoder gives the same value:
 *   pmubench encode p5::instructions_executed:u
 *   CESR (0x11) = 0x0000000000000096 on CTR0 */
_Static_assert(CESR_VALUE == 0x96ull, "CESR value differs from pmubench encode");

int main(int argc, char **argv)
{
    const char *program = "selfmon_p5";
    unsigned long n = counted_loop_operand(program, argc, argv);
    int fd = msr_file_open(program);

    /* A read before the measurements, as selfmon's ESCR read-back: in a
     * dynamically linked build pread's first call also resolves its PLT
     * entry, which would count in the first measurement only. */
    printf("CESR (0x%x) = 0x%llx before, 0x%llx while counting CTR0 (0x%x)\n", P5_MSR_CESR,
           (unsigned long long)msr_file_get(fd, program, P5_MSR_CESR),
           (unsigned long long)CESR_VALUE, P5_MSR_CTR0);
    struct loop_counter counter = {P5_MSR_CESR, CESR_VALUE, P5_MSR_CTR0};
    return loop_counter_check(fd, program, &counter, n);
}
