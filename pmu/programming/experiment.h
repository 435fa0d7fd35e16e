/* Sets of events to plan together: event strings from the command line or
 * from an experiment file (brink's design, the Pentium 4 monitoring study): one event string per
 * line, '#' starts a comment, and a blank line ends an experiment, whose
 * events must count in the same run.  docs/alloc.md, "The experiment file". */
#ifndef PMU_PROGRAMMING_EXPERIMENT_H
#define PMU_PROGRAMMING_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "alloc.h"

enum { EXPERIMENT_MAX_TEXT = 512 };

struct experiment_set {
    int n;
    struct alloc_request requests[ALLOC_MAX_REQUESTS];
    char text[ALLOC_MAX_REQUESTS][EXPERIMENT_MAX_TEXT]; /* each event string */
    int line[ALLOC_MAX_REQUESTS];                       /* its file line; 0 elsewhere */
};

/* Adds one event string to the set, parsed for config (a model, not
 * NB_CPUID_MODEL_UNSET); false with one line in `error`. */
bool experiment_add(struct experiment_set *set, const struct nb_pmu_config *config, const char *text,
                    int group, int line, char *error, size_t error_size);

/* Reads an experiment file into an empty set; config->model, when
 * NB_CPUID_MODEL_UNSET, becomes the one the file's event strings choose
 * (event_spec_cpuid_model).  Lines have at most TEXT_MAX_LINE characters
 * (util/line_stream.h).  False with "PATH:LINE: ..." (or "PATH: ...")
 * in `error`, errno EIO or ENOMEM when reading failed. */
bool experiment_read(struct experiment_set *set, FILE *in, const char *path,
                     struct nb_pmu_config *config, char *error, size_t error_size);

#endif
