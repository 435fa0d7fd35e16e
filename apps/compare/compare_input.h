/* One side of `pmubench compare` (docs/compare.md): "measure:" or
 * "lackey:" (the program measured now, perf_event_open or valgrind lackey:
 * measure.h), "json:FILE", "csv:FILE" (perf stat -x), "p5mon:FILE"
 * (run_p5mon's output file), or FILE alone, its format found from its
 * content (count_format_detect); FILE "-" is standard input. */
#ifndef APPS_COMPARE_COMPARE_INPUT_H
#define APPS_COMPARE_COMPARE_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "count_set.h"

enum compare_input_kind { COMPARE_INPUT_FILE, COMPARE_INPUT_PERF, COMPARE_INPUT_LACKEY };

struct compare_input {
    enum compare_input_kind kind;
    const char *path;                /* FILE after its prefix; NULL for a measurement */
    const enum count_format *format; /* the prefix's, or NULL: from the content */
};

/* What `spec` names; `path` points into it. */
void compare_input_parse(const char *spec, struct compare_input *input);

/* The input's count set: the file's, with only region `region` kept
 * (count_set_keep_region; -1: the file's only region), or `program` (a
 * program and its arguments, NULL-terminated) measured now, its wait
 * status in *status (0 for a file).  False with one line in `error` and
 * errno (the set freed). */
bool compare_input_read(const struct compare_input *input, char *const *program, long region,
                        struct count_set *set, int *status, char *error, size_t error_size);

#endif
