/* The ESCR as an event detector: does an occurrence count on this ESCR, and
 * what does the ESCR drive onto its 4-bit output this cycle?
 * docs/semantics.md, "Detector (ESCR)".
 */
#ifndef PMU_EMULATED_ESCR_DETECTOR_H
#define PMU_EMULATED_ESCR_DETECTOR_H

#include <stdbool.h>
#include <stdint.h>

/* Where an occurrence happened, as one number: bits 3:2 the ESCR bit
 * (T1_USR 0, T1_OS 1, T0_USR 2, T0_OS 3) of the occurring thread at its CPL
 * (SDM Table 18-29), bits 1:0 the privilege levels at which some logical
 * processor was: ESCR_CONTEXT_OS and/or ESCR_CONTEXT_USR (Table 18-30). */
enum { ESCR_CONTEXT_OS = 1, ESCR_CONTEXT_USR = 2, ESCR_CONTEXTS = 16 };

/* One occurrence of an event in the current cycle. */
struct nb_occurrence {
    uint16_t event;   /* index into nb_event_table */
    uint16_t mask;    /* its sub-event bits */
    uint8_t thread;
    uint8_t cpl[2];   /* both logical processors' CPLs when it occurred */
    uint8_t context;  /* escr_context_of(thread, cpl); set by nb_pmu_event */
    uint32_t count;
};

/* What an ESCR value means to detection, decoded once when it is written:
 * for each context, the event-mask bits whose occurrences count. */
struct escr_rules {
    uint16_t counting[ESCR_CONTEXTS];
};

/* The rules of ESCR value `escr` for an event whose thread-independent mask
 * bits are `ti_mask`. */
struct escr_rules escr_rules_of(uint64_t escr, uint16_t ti_mask);

/* The context of an occurrence by `thread` while the logical processors
 * are at `cpl`; without HT only thread 0's CPL exists. */
uint8_t escr_context_of(int thread, const uint8_t cpl[2], bool ht);

/* Whether an occurrence with sub-event bits `mask` in `context` counts: an
 * occurrence naming several sub-events counts if any selected one
 * qualifies. */
static inline bool escr_rules_count(const struct escr_rules *rules, uint16_t mask,
                                    uint8_t context)
{
    return (rules->counting[context] & mask) != 0;
}

/* A 4-bit output saturates at 15 (the Pentium 4 monitoring study, section
 * 6.2: "at most 15 detections per cycle"). */
enum { ESCR_OUTPUT_MAX = 15 };

/* Adds `count` to an output. */
static inline void escr_output_add(uint8_t *output, uint32_t count)
{
    uint64_t sum = (uint64_t)*output + count;
    *output = (uint8_t)(sum > ESCR_OUTPUT_MAX ? ESCR_OUTPUT_MAX : sum);
}

/* The ESCR's privilege/thread qualification of an occurrence: for a
 * thread-specific sub-event, the bit of the occurring thread at its CPL
 * (SDM Table 18-29); for a thread-independent one, the OR of the two
 * threads' OS bits and of their USR bits, applied to either thread's CPL
 * (SDM Table 18-30). */
bool escr_qualifies(uint64_t escr, const struct nb_occurrence *occ, bool thread_independent,
                    bool ht);

/* Adds the occurrence to `output` if `escr` counts it. */
void escr_detect(uint64_t escr, const struct nb_occurrence *occ, uint16_t ti_mask, bool ht,
                 uint8_t *output);

#endif
