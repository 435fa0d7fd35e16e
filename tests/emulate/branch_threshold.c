/*
 * branch_threshold: the monitoring study's worked example of section 9.1
 * run as a program: branch_retired's taken branches (MMTP|MMTM) of logical
 * processor 0 in user mode on MSR_CRU_ESCR3, counted by IQ_COUNTER2
 * (counter 14) through the study's CCCR, COMPARE with THRESHOLD 2: the
 * cycles in which more than two taken branches retire.  Counter 15, the
 * pair's other counter, reads the same ESCR through the same CCCR value
 * with COMPARE cleared, the variant the section ends with: every taken
 * branch.
 *
 *   branch_threshold N   (run as: pmubench emulate -- branch_threshold N)
 *
 * It measures counted_loop with 0 and with N iterations on both counters
 * at once and checks the differences (docs/emulate.md, "A worked
 * example"):
 *   counter 15: taken(N) - taken(0), where the loop's asm block has
 *     taken(0) = 1 (jz) and taken(n) = n - 1 for n >= 1 (every jnz but the
 *     last): N - 2 for N >= 1;
 *   counter 14: 0.  At most 3 uops retire a cycle, and in the loop every
 *     jnz follows its dec, so no 3 uops the loop retires together hold more
 *     than 2 taken branches: the threshold lets none of the loop's cycles
 *     through.
 * Exit status 0 when both hold, 1 when not or the device cannot be opened,
 * read or written, 2 for a bad N.
 *
 * Registers (SDM Vol. 3B, 2008-2009 edition "SDM-old", Table 18-26;
 * pmu/catalog/netburst_msrs.c, docs/semantics.md "NetBurst register map"):
 *   MSR_CRU_ESCR3   0x3CD  ESCR select 5, feeds IQ_COUNTER2/3 and 5
 *   MSR_IQ_CCCR2    0x36E  = 0x360 + counter 14;  MSR_IQ_CCCR3 0x36F (15)
 *   MSR_IQ_COUNTER2 0x30E  = 0x300 + counter 14;  MSR_IQ_COUNTER3 0x30F (15)
 */
#include <stdint.h>
#include <stdio.h>

#include "counted_loop.h"
#include "loop_counter.h"
#include "msr_file.h"

#define MSR_CRU_ESCR3 0x3cdu
#define MSR_IQ_CCCR2 0x36eu
#define MSR_IQ_CCCR3 0x36fu
#define MSR_IQ_COUNTER2 0x30eu
#define MSR_IQ_COUNTER3 0x30fu

/* ESCR fields (SDM figure "Event Selection Control Register (ESCR) for
 * Pentium 4 and Intel Xeon Processors"; pmu/catalog/netburst_fields.h):
 * event select 30:25, event mask 24:9, T0_USR bit 2. */
#define ESCR_EVENT_SELECT(s) ((uint64_t)(s) << 25)
#define ESCR_EVENT_MASK(m) ((uint64_t)(m) << 9)
#define ESCR_T0_USR (1ull << 2)

/* branch_retired: event select 0x06 on CRU_ESCR2/3, ESCR select 5; mask
 * bit 2 MMTP (taken, predicted), bit 3 MMTM (taken, mispredicted) (the
 * study reads them in the 2002 SDM's Table A-2; SDM-old Table A-10,
 * SDM-new Table 19-29 p. 19-193; pmu/catalog/netburst_events.c). */
#define BRANCH_RETIRED 0x06u
#define MMTP (1u << 2)
#define MMTM (1u << 3)
#define CRU_ESCR_SELECT 5u

/* CCCR fields (SDM-old 18.18.3, figure "Counter Configuration Control
 * Register (CCCR)"; pmu/catalog/netburst_fields.h): ENABLE 12, ESCR select
 * 15:13, ACTIVE_THREAD 17:16 (11: either logical processor active, the
 * value required without Hyper-Threading), COMPARE 18, COMPLEMENT 19
 * (clear: the counter adds 1 in a cycle whose ESCR output is greater than
 * THRESHOLD), THRESHOLD 23:20. */
#define CCCR_ENABLE (1ull << 12)
#define CCCR_ESCR_SELECT(s) ((uint64_t)(s) << 13)
#define CCCR_ACTIVE_THREAD(t) ((uint64_t)(t) << 16)
#define CCCR_COMPARE (1ull << 18)
#define CCCR_THRESHOLD(t) ((uint64_t)(t) << 20)

#define ESCR_VALUE \
    (ESCR_EVENT_SELECT(BRANCH_RETIRED) | ESCR_EVENT_MASK(MMTP | MMTM) | ESCR_T0_USR)
#define CCCR_ALL_TAKEN \
    (CCCR_ENABLE | CCCR_ESCR_SELECT(CRU_ESCR_SELECT) | CCCR_ACTIVE_THREAD(3) | CCCR_THRESHOLD(2))
#define CCCR_MORE_THAN_2 (CCCR_ALL_TAKEN | CCCR_COMPARE)

/* The study's values (section 9.1's derivation, its listing in 11.1:
 * 0C001804H, 0027B000H), which the project's encoder also gives:
 *   pmubench encode 'netburst::branch_retired:MMTP:MMTM:u:thr=2:t0'
 *   ESCR MSR_CRU_ESCR2 (0x3cc) = 0x000000000c001804, or MSR_CRU_ESCR3 (0x3cd)
 *   CCCR 0x000000000027b000 */
_Static_assert(ESCR_VALUE == 0x0c001804ull, "ESCR value differs from the study's");
_Static_assert(CCCR_MORE_THAN_2 == 0x0027b000ull, "CCCR value differs from the study's");
_Static_assert(CCCR_ALL_TAKEN == 0x0023b000ull, "the study's CCCR without COMPARE");

/* Taken branches of counted_loop's asm block for n iterations. */
static long long loop_taken(unsigned long n)
{
    return n == 0 ? 1 : (long long)n - 1;
}

int main(int argc, char **argv)
{
    const char *program = "branch_threshold";
    unsigned long n = counted_loop_operand(program, argc, argv);
    int fd = msr_file_open(program);

    /* The read-back also makes pread's first call before the measurements
     * (selfmon.c says why). */
    msr_file_set(fd, program, MSR_CRU_ESCR3, ESCR_VALUE);
    uint64_t escr = msr_file_get(fd, program, MSR_CRU_ESCR3);
    printf("MSR_CRU_ESCR3 (0x%x) = 0x%llx: branch_retired MMTP|MMTM, T0_USR\n", MSR_CRU_ESCR3,
           (unsigned long long)escr);
    if (escr != ESCR_VALUE) {
        printf("MSR_CRU_ESCR3 reads back 0x%llx, written 0x%llx: FAIL\n", (unsigned long long)escr,
               (unsigned long long)ESCR_VALUE);
        return 1;
    }
    const struct loop_counter counters[2] = {
        {MSR_IQ_CCCR2, CCCR_MORE_THAN_2, MSR_IQ_COUNTER2},
        {MSR_IQ_CCCR3, CCCR_ALL_TAKEN, MSR_IQ_COUNTER3},
    };
    printf("counter 14: MSR_IQ_CCCR2 (0x%x) = 0x%llx: COMPARE, THRESHOLD 2: cycles of more than 2\n",
           MSR_IQ_CCCR2, (unsigned long long)CCCR_MORE_THAN_2);
    printf("counter 15: MSR_IQ_CCCR3 (0x%x) = 0x%llx: no COMPARE: every taken branch\n",
           MSR_IQ_CCCR3, (unsigned long long)CCCR_ALL_TAKEN);
    uint64_t base[2], counted[2];
    loop_counter_measure(fd, program, counters, 2, 0, base);
    printf("loop 0: counter 14 %llu, counter 15 %llu\n", (unsigned long long)base[0],
           (unsigned long long)base[1]);
    loop_counter_measure(fd, program, counters, 2, n, counted);
    printf("loop %lu: counter 14 %llu, counter 15 %llu\n", n, (unsigned long long)counted[0],
           (unsigned long long)counted[1]);
    long long more_than_2 = (long long)(counted[0] - base[0]);
    long long taken = (long long)(counted[1] - base[1]);
    long long expected = loop_taken(n) - loop_taken(0);
    int ok = more_than_2 == 0 && taken == expected;
    printf("differences: counter 14 %lld, counter 15 %lld; expected 0 and %lld: %s\n", more_than_2,
           taken, expected, ok ? "ok" : "FAIL");
    return ok ? 0 : 1;
}
