/* The cost of a PEBS microcode assist to the NetBurst model's timing
 * (docs/netburst-model.md, "Sampling"). */
#ifndef SIM_NETBURST_NB_ASSIST_H
#define SIM_NETBURST_NB_ASSIST_H

#include "sim/netburst/nb_schedule.h"

/* The assist `flush` the PMU took for logical processor `thread` of the
 * machine (a struct nb_machine), as its retirement is reported
 * (sched->assist): the machine is cleared after the tagged uop, the
 * assist's microcode makes its accesses through the data cache from the
 * next cycle, and the thread starts again after it, the instructions the
 * model had already timed past the tagged one run again first. */
void nb_pebs_assist(void *machine, int thread, const struct nb_flush *flush);

#endif
