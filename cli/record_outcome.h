/* Recording as `pmubench record` reports it, for record itself and for
 * the commands that record a program before they simulate it (stat --
 * PROGRAM, p5mon's command). */
#ifndef CLI_RECORD_OUTCOME_H
#define CLI_RECORD_OUTCOME_H

#include <stdbool.h>

#include "traces/record.h"

/* Reports a recording's outcome (traces/record.h: record_run's, or a
 * library function's that records through it: `recorded`, `result` and
 * `error`) as `pmubench record` does, for `command` ("record", "stat",
 * "p5mon"): a failure is one line "pmubench COMMAND: ...", and a
 * `program` that called execve gets a note.  True when the trace was
 * written, with the program's exit status in *status; false with the exit
 * status of the failure (docs/exit-status.md) in *status. */
bool record_outcome(const char *command, const char *program, enum record_status recorded,
                   const struct record_result *result, const char *error, int *status);

#endif
