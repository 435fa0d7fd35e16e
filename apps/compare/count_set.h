/* Count sets: named event counts from one source (a pmubench result, a
 * perf stat -x, CSV file, a run_p5mon output file, or a measurement taken
 * now), the input of `pmubench compare` (docs/compare.md).
 *
 *   struct count_set set;
 *   if (!count_set_read_file("wc.json", &set, error, sizeof error)) ...
 *   const struct count *c = count_set_find(&set, "data_read");
 *   count_set_free(&set);
 *
 * The readers take the whole input in memory and fail on the first bad
 * line with one line in `error`: "PATH: line N: expected ..." (CSV,
 * run_p5mon) or "PATH: byte offset N: expected ..." (JSON, N from 0).
 * Counts are kept exact, as integers (a mean with its fraction), and found
 * by name through a hash index: reading and pairing take linear time. */
#ifndef APPS_COMPARE_COUNT_SET_H
#define APPS_COMPARE_COUNT_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "name_index.h"

/* Every reader rejects a count above 2^64 - 1 with this message. */
#define COUNT_TOO_BIG "count above 18446744073709551615"

enum count_status {
    COUNT_COUNTED,
    COUNT_NOT_SUPPORTED, /* the machine cannot count it: no number */
    COUNT_NOT_COUNTED,   /* supported but not counted in this run: no number */
};

struct count {
    char *name;             /* as the source names it: "data_read", "instructions:u" */
    enum count_status status;
    uint64_t value;         /* COUNT_COUNTED: the count, or the mean of repetitions,
                               exact: its whole part ... */
    uint32_t fraction;      /* ... and its fraction, in billionths (0 for an integer) */
    int decimals;           /* digits after the point the source gave (0: an integer;
                               at most 9, more are rounded) */
    bool has_interval;      /* value is a mean with a confidence interval (run_p5mon) */
    double interval;        /* its half width: value +/- interval */
    int interval_decimals;
    int region;             /* the run_p5mon region, or -1 */
    char *reason;           /* why there is no number (a one-line phrase), or NULL */
};

struct count_set {
    char *source;           /* one line saying where the counts come from */
    bool p5_names;          /* names are pmu/catalog/p5_events.c's, not generic (perf's) */
    char *model, *trace;    /* a pmubench stat result's model and trace, or NULL */
    char *trace1;           /* ... and its second trace (logical processor 1), or NULL */
    struct count *counts;   /* in the source's order */
    size_t n_counts, capacity;
    struct name_index index; /* (name, region) -> the first count of that name */
};

enum count_format { COUNT_FORMAT_JSON, COUNT_FORMAT_PERF_CSV, COUNT_FORMAT_P5MON };

void count_set_init(struct count_set *set, const char *source);
void count_set_free(struct count_set *set);

/* Appends a copy of `count` (its strings copied too); the new entry, or
 * NULL when out of memory. */
struct count *count_set_add(struct count_set *set, const struct count *count);

/* The count named `name` (case-insensitive) in `region` (-1: none), or NULL. */
const struct count *count_set_find(const struct count_set *set, const char *name, int region);

/* Keeps the counts of one run_p5mon region, which then count as not in a
 * region; a set without regions is left whole.  region -1 chooses the only
 * region when the set has exactly one.  False with "PATH: ..." in `error`
 * when there is no such region or several to choose from. */
bool count_set_keep_region(struct count_set *set, long region, const char *path, char *error,
                           size_t error_size);

/* The format of a file's text: JSON when its first non-blank byte is '{',
 * run_p5mon when its first line is "# run_p5mon results file", otherwise
 * perf stat -x, CSV. */
enum count_format count_format_detect(const char *text, size_t size);

/* The readers: text of `size` bytes (need not end with NUL), `path` for
 * messages; `set` is initialised by them and freed on failure. */
bool count_set_read_json(const char *text, size_t size, const char *path, struct count_set *set,
                         char *error, size_t error_size);
bool count_set_read_perf_csv(const char *text, size_t size, const char *path,
                             struct count_set *set, char *error, size_t error_size);
bool count_set_read_p5mon(const char *text, size_t size, const char *path, struct count_set *set,
                          char *error, size_t error_size);
bool count_set_read(const char *text, size_t size, enum count_format format, const char *path,
                    struct count_set *set, char *error, size_t error_size);

/* Reads the file at `path` ("-": standard input) in `format`, or in the
 * format count_format_detect() finds when `format` is NULL. */
bool count_set_read_file(const char *path, const enum count_format *format,
                         struct count_set *set, char *error, size_t error_size);

#endif
