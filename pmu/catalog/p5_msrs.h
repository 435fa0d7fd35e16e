/* The P5 (Pentium) PMU's MSRs: TSC 0x10, CESR 0x11, CTR0 0x12, CTR1 0x13,
 * and the fields of the CESR: ES0 5:0, CC0 8:6, PC0 9, ES1 21:16, CC1 24:22,
 * PC1 25 (Safford 1997, section 2.2 and its example of Fig. 3.4; SDM
 * Pentium section).  docs/semantics.md, "P5". */
#ifndef PMU_CATALOG_P5_MSRS_H
#define PMU_CATALOG_P5_MSRS_H

#include <stdint.h>

enum {
    P5_MSR_TSC = 0x10,
    P5_MSR_CESR = 0x11,
    P5_MSR_CTR0 = 0x12,
    P5_MSR_CTR1 = 0x13,
};

/* The CESR bits that exist; writing any other faults. */
#define P5_CESR_DEFINED_BITS 0x03ff03ffull

/* The CC field of a counter (Safford 1997, Table 2.2). */
#define P5_CC_CPL0_2 1u  /* count at CPL 0, 1, 2 */
#define P5_CC_CPL3 2u    /* count at CPL 3 */
#define P5_CC_CLOCKS 4u  /* count clocks instead of events */

/* The CESR fields of counter 0 or 1: ES (the event code), CC (the
 * control: bit 2 clocks, bit 1 CPL 3, bit 0 CPL 0-2) and PC (the pin). */
unsigned p5_cesr_event(uint64_t cesr, int counter);
unsigned p5_cesr_control(uint64_t cesr, int counter);
unsigned p5_cesr_pin(uint64_t cesr, int counter);

/* The CESR bits of counter 0 or 1 whose half (ES in bits 5:0, CC in 8:6,
 * PC in 9; p5_encode_half) is `half`. */
uint64_t p5_cesr_place(uint32_t half, int counter);

/* `cesr` with both CC fields 000: both counters stopped. */
uint64_t p5_cesr_stopped(uint64_t cesr);

/* Address of "TSC", "CESR", "CTR0" or "CTR1" (case-insensitive, optional
 * "MSR_" prefix); 0 when unknown. */
uint32_t p5_msr_by_name(const char *name);

#endif
