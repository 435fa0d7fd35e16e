/* The DS save area of the simulated NetBurst PMU as software sets it up
 * for PEBS, and the PEBS records the microassist stores in its buffer
 * (docs/semantics.md, "PEBS"), in the two layouts of netburst_sampling.c:
 * 32-bit (4-byte fields, 40-byte records) and IA-32e mode (8-byte fields,
 * 144-byte records).
 *
 *   struct nb_ds_config ds = {.area = 0x10000, .buffer = 0x100000,
 *                             .records = 64, .threshold = 65, .counter_reset = preset};
 *   nb_pmu_ds_setup(pmu, false, &ds);
 *   ... the run ...
 *   for (uint64_t k = 0; nb_pmu_pebs_record(pmu, false, k, &record); k++) ...
 */
#ifndef PMU_EMULATED_NETBURST_SAMPLING_H
#define PMU_EMULATED_NETBURST_SAMPLING_H

#include <stdbool.h>
#include <stdint.h>

#include "netburst_pmu.h"

/* The PEBS part of a DS save area (SDM Vol. 3B, "DS Save Area"). */
struct nb_ds_config {
    uint64_t area;          /* IA32_DS_AREA: the save area's linear address */
    uint64_t buffer;        /* the PEBS buffer's base, where the index starts */
    uint64_t records;       /* the records the buffer holds: the absolute maximum */
    uint64_t threshold;     /* the records after which the assist raises a PMI: the
                             * interrupt threshold (past `records`: never) */
    uint64_t counter_reset; /* IQ_COUNTER4's value after each record (40 bits) */
};

/* The slots of a PEBS record: EFLAGS, EIP, EAX, EBX, ECX, EDX, ESI, EDI,
 * EBP, ESP; in IA-32e mode RFLAGS, RIP, RAX ... RSP, then R8-R15 (SDM Vol.
 * 3B, figures "PEBS Record Format" and "64-bit PEBS Record Format"). */
enum { NB_PEBS_SLOTS_32 = 10, NB_PEBS_SLOTS_64 = 18 };

struct nb_pebs_record {
    unsigned n_slots;                 /* NB_PEBS_SLOTS_32 or NB_PEBS_SLOTS_64 */
    uint64_t slot[NB_PEBS_SLOTS_64];  /* in the record's order; slot 1 is the EIP */
};

/* Writes the DS save area's PEBS fields (the buffer base, the index at the
 * base, the absolute maximum, the interrupt threshold, the counter reset)
 * at ds->area in the layout of `ia32e`, into the PMU's memory, and
 * IA32_DS_AREA.  False when the MSR write faults (an address the model
 * cannot hold: nothing is written) or memory ran out (IA32_DS_AREA is
 * written, the fields maybe in part). */
bool nb_pmu_ds_setup(struct nb_pmu *pmu, bool ia32e, const struct nb_ds_config *ds);

/* Record `k` (0: the first stored) of the PEBS buffer of the DS save area
 * IA32_DS_AREA points to, read in the layout of `ia32e`: the records are
 * those between the buffer base and the index.  False past the last. */
bool nb_pmu_pebs_record(const struct nb_pmu *pmu, bool ia32e, uint64_t k,
                        struct nb_pebs_record *record);

#endif
