/* Recording as `pmubench record` reports it, for record itself and for
 * the commands that record a program before they simulate it (stat --
 * PROGRAM, p5mon's command). */
#ifndef CLI_RECORD_REPORT_H
#define CLI_RECORD_REPORT_H

#include <stdbool.h>

#include "traces/record.h"

/* Records (traces/record.h) and reports as `pmubench record` does, for
 * `command` ("record", "stat", "p5mon"): a failure is one line "pmubench
 * COMMAND: ...", and a program that called execve gets a note.  True when the trace was written, with the
 * program's exit status in *status; false with the exit status of the
 * failure (docs/exit-status.md) in *status.  `result`, when not NULL,
 * gets the recording's result. */
bool record_report(const char *command, const struct record_options *options, int *status,
                   struct record_result *result);

#endif
