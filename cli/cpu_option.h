#ifndef CLI_CPU_OPTION_H
#define CLI_CPU_OPTION_H

#include <stdbool.h>

#include "pmu/emulated/netburst_pmu.h"

/* Handles "--model N" and "--ht on|off" at argv[*i] (advancing *i past the
 * value).  Returns 1 when it took the option, 0 when argv[*i] is another
 * argument, -1 after printing an error for a bad value. */
int cpu_option(const char *command, int argc, char **argv, int *i, struct nb_pmu_config *config);

#endif
