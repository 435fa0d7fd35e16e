/* Small helpers the unit tests share: a machine chosen by name and the
 * entries of a folder.  Failures are cmocka assertions. */
#ifndef TESTS_UNIT_UNIT_HELPERS_H
#define TESTS_UNIT_UNIT_HELPERS_H

#include "sim/machine/machine.h"

/* The machine `name` names (machine_config_choose); fails the test with
 * its message if it names none. */
struct machine_config unit_machine(const char *name);

/* The number of entries of `dir` other than . and .. */
int unit_dir_entries(const char *dir);

#endif
