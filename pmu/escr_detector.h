/* The ESCR as an event detector: does an occurrence count on this ESCR, and
 * what does the ESCR drive onto its 4-bit bus this cycle?
 * docs/semantics.md, "Detector (ESCR)".
 */
#ifndef PMU_ESCR_DETECTOR_H
#define PMU_ESCR_DETECTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "netburst_pmu.h"

/* The ESCR's privilege/thread qualification of an occurrence: for a
 * thread-specific sub-event, the bit of the occurring thread at its CPL
 * (SDM Table 18-29); for a thread-independent one, the OR of the two
 * threads' OS bits and of their USR bits, applied to either thread's CPL
 * (SDM Table 18-30). */
bool escr_qualifies(uint64_t escr, const struct nb_occurrence *occ, bool thread_independent,
                    bool ht);

/* Adds the occurrence to `bus` if `escr` counts it; the bus saturates at
 * 15 (seed 000 section 6.2: "at most 15 detections per cycle"). */
void escr_detect(uint64_t escr, const struct nb_occurrence *occ, uint16_t ti_mask, bool ht,
                 uint8_t *bus);

#endif
