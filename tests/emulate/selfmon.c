/*
 * selfmon: a Pentium 4 program that counts its own instructions, the way
 * Pentium 4-era tools did it through Linux's msr driver: it programs
 * instr_retired on IQ_COUNTER0 through /dev/cpu/0/msr, runs a loop of a
 * known instruction count and reads the counter back with pread.
 *
 *   selfmon N      (run as: pmubench emulate -- selfmon N)
 *
 * It measures the loop with 0 and with N iterations and prints
 * "loop N: counted C" for both and their difference, which must be exactly
 * 2 * N (tests/emulate/README.md, "Expected counts").  Exit status 0 when
 * it is, 1 when it is not or the device cannot be opened, read or written
 * (outside the emulator /dev/cpu/0/msr does not exist), 2 for a bad N.
 *
 * Registers (SDM Vol. 3B, 2008-2009 edition "SDM-old", Table 18-26; the
 * project's table is nb_escrs[] and the counter/CCCR names in
 * pmu/catalog/netburst_msrs.c, docs/semantics.md "NetBurst register map"):
 *   MSR_CRU_ESCR0  0x3B8  ESCR select 4, feeds IQ_COUNTER0/1 and IQ_COUNTER4
 *   MSR_IQ_CCCR0   0x36C  = 0x360 + counter 12
 *   MSR_IQ_COUNTER0 0x30C = 0x300 + counter 12
 */
#include <stdint.h>
#include <stdio.h>

#include "counted_loop.h"
#include "loop_counter.h"
#include "msr_file.h"

#define MSR_CRU_ESCR0 0x3b8u
#define MSR_IQ_CCCR0 0x36cu
#define MSR_IQ_COUNTER0 0x30cu

/* ESCR fields (SDM figure "Event Selection Control Register (ESCR) for
 * Pentium 4 and Intel Xeon Processors"; pmu/catalog/netburst_fields.h):
 * event select 30:25, event mask 24:9, T0_USR bit 2. */
#define ESCR_EVENT_SELECT(s) ((uint64_t)(s) << 25)
#define ESCR_EVENT_MASK(m) ((uint64_t)(m) << 9)
#define ESCR_T0_USR (1ull << 2)

/* instr_retired: event select 0x02 on CRU_ESCR0/1; mask bit 0 NBOGUSNTAG
 * and bit 1 NBOGUSTAG, the non-bogus instructions untagged and tagged,
 * that is every instruction that retires (SDM-new Table 19-29, p. 19-192;
 * SDM-old Table A-10; pmu/catalog/netburst_events.c, docs/events.md (a)). */
#define INSTR_RETIRED 0x02u
#define NBOGUSNTAG (1u << 0)
#define NBOGUSTAG (1u << 1)

/* CCCR fields (SDM-old 18.18.3, figure "Counter Configuration Control
 * Register (CCCR)"; pmu/catalog/netburst_fields.h): ENABLE bit 12, ESCR
 * select 15:13, ACTIVE_THREAD 17:16 (11 = count when either logical
 * processor is active; the value the SDM requires without Hyper-Threading). */
#define CCCR_ENABLE (1ull << 12)
#define CCCR_ESCR_SELECT(s) ((uint64_t)(s) << 13)
#define CCCR_ACTIVE_THREAD(t) ((uint64_t)(t) << 16)
#define CRU_ESCR_SELECT 4u

#define ESCR_VALUE \
    (ESCR_EVENT_SELECT(INSTR_RETIRED) | ESCR_EVENT_MASK(NBOGUSNTAG | NBOGUSTAG) | ESCR_T0_USR)
#define CCCR_VALUE (CCCR_ENABLE | CCCR_ESCR_SELECT(CRU_ESCR_SELECT) | CCCR_ACTIVE_THREAD(3))

/* The project's encoder gives the same values:
 *   pmubench encode --ht off netburst::instr_retired:NBOGUSNTAG:NBOGUSTAG:u
 *   ESCR MSR_CRU_ESCR0 (0x3b8) = 0x0000000004000604, CCCR 0x0000000000039000 */
_Static_assert(ESCR_VALUE == 0x04000604ull, "ESCR value differs from pmubench encode");
_Static_assert(CCCR_VALUE == 0x39000ull, "CCCR value differs from pmubench encode");

int main(int argc, char **argv)
{
    const char *program = "selfmon";
    unsigned long n = counted_loop_operand(program, argc, argv);
    int fd = msr_file_open(program);

    /* The read-back also makes pread's first call before the measurements:
     * in a dynamically linked build that call resolves its PLT entry, which
     * would count in the first measurement only. */
    msr_file_set(fd, program, MSR_CRU_ESCR0, ESCR_VALUE);
    uint64_t escr = msr_file_get(fd, program, MSR_CRU_ESCR0);
    printf("MSR_CRU_ESCR0 (0x%x) = 0x%llx\n", MSR_CRU_ESCR0, (unsigned long long)escr);
    if (escr != ESCR_VALUE) {
        printf("MSR_CRU_ESCR0 reads back 0x%llx, written 0x%llx: FAIL\n", (unsigned long long)escr,
               (unsigned long long)ESCR_VALUE);
        return 1;
    }
    struct loop_counter counter = {MSR_IQ_CCCR0, CCCR_VALUE, MSR_IQ_COUNTER0};
    printf("MSR_IQ_CCCR0 (0x%x) = 0x%llx while counting MSR_IQ_COUNTER0 (0x%x)\n", MSR_IQ_CCCR0,
           (unsigned long long)CCCR_VALUE, MSR_IQ_COUNTER0);
    return loop_counter_check(fd, program, &counter, n);
}
