/* The progress line of a long `pmubench stat` on stderr, when stderr is a
 * terminal, or of a long `pmubench record` on its controlling terminal,
 * when the recorded program's output goes elsewhere (docs/stat.md,
 * "Progress"): the library's progress hook (traces/progress.h) feeds it;
 * the line is rewritten in place at most PROGRESS_LINE_EVERY seconds apart,
 * first once the run has lasted `after` seconds, and cleared at the end.
 * Nothing else writes to the terminal while it is shown. */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "traces/progress.h"

#define PROGRESS_LINE_EVERY 0.25 /* seconds */

struct cli_progress {
    const char *command;   /* the line's prefix: "record", "stat" */
    FILE *out;             /* NULL: no line (no terminal to itself) */
    bool own_out;          /* `out` was opened for the line (closed at the end) */
    double (*clock)(void); /* seconds, from any origin */
    double start;          /* the run's start on the clock */
    double after;          /* seconds of run before the first line */
    double next;           /* the earliest time of the next line */
    uint64_t total_bytes;  /* of the traces; 0: not known (not all regular files) */
    size_t shown;          /* characters of the line on the terminal; 0: none */
    struct progress_hook hook;
};

/* A run's line on `out` (NULL: none) with `clock`, the first after `after`
 * seconds; `total_bytes` of traces (0: not known). */
void cli_progress_init(struct cli_progress *p, const char *command, FILE *out,
                       double (*clock)(void), double after, uint64_t total_bytes);

/* `command`'s run of the `n` traces at `paths`: its line on stderr if that
 * is a terminal, the first after one second or $PMUBENCH_PROGRESS_AFTER_MS
 * milliseconds (for tests). */
void cli_progress_start(struct cli_progress *p, const char *command, const char *const paths[],
                        int n);

/* A recording's line: on the controlling terminal (/dev/tty) when neither
 * stdout nor stderr is a terminal, else none -- the recorded program
 * writes to them whenever it likes, and a line drawn on the same terminal
 * would run into its output; the first after the same wait. */
void cli_progress_start_recording(struct cli_progress *p);

/* The hook to give the library; NULL when there is no line to show, so
 * that the run pays nothing for it. */
const struct progress_hook *cli_progress_hook(struct cli_progress *p);

/* Clears the line, if one was shown, and closes the terminal opened for
 * it. */
void cli_progress_end(struct cli_progress *p);

/* The line's text for `point`, `seconds` into the run: "stat: 12.3M
 * instructions, 45.6M/s, 37% of the trace, pass 2 of 3". */
void cli_progress_format(char *line, size_t size, const char *command,
                         const struct progress_point *point, double seconds,
                         uint64_t total_bytes);

#endif
