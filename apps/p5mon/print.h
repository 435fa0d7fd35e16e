/* run_p5mon's report on stdout (Safford 1997, Figures 4.2-4.6) and its output
 * file (Figures 4.7-4.9).  docs/p5mon.md shows each layout and how it
 * differs from Safford 1997's. */
#ifndef APPS_P5MON_PRINT_H
#define APPS_P5MON_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "driver.h"

struct p5mon_header {
    const char *started;     /* ctime() without the newline */
    const char *directory;
    const char *parms_file;  /* "(none)" when none was read */
    const char *arguments;   /* the -F arguments, space-separated */
    const char *command;
    const char *trace;
};

void p5mon_print_header(FILE *out, const struct p5mon_header *header);

/* The "Results (...)" section: summaries, per repetition with
 * output_all_results, per region with use_assembly_regions. */
void p5mon_print_results(FILE *out, const struct p5mon_results *results);

void p5mon_print_timing(FILE *out, double elapsed_seconds, int executions);

/* Writes the output file whole or not at all; false with one line. */
bool p5mon_write_output(const char *path, const struct p5mon_results *results, char *error,
                        size_t error_size);

#endif
