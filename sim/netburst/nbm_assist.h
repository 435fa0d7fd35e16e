/* The cost of a PEBS microcode assist to the NetBurst model's timing
 * (docs/netburst-model.md, "Sampling"). */
#ifndef SIM_NETBURST_NBM_ASSIST_H
#define SIM_NETBURST_NBM_ASSIST_H

#include "sim/netburst/nbm_occurrences.h"

/* The assist `flush` the PMU took for logical processor `thread` of the
 * machine (a struct nbm_machine), as its retirement is reported
 * (occs->assist): the machine is cleared after the tagged uop, the
 * assist's microcode makes its accesses through the data cache from the
 * next cycle, and the thread starts again after it, the instructions the
 * model had already timed past the tagged one run again first. */
void nbm_pebs_assist(void *machine, int thread, const struct nbm_flush *flush);

#endif
