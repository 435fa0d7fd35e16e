/* Count sets: storage, look-up, regions, format detection and reading a
 * file (count_set.h). */
#include "count_set.h"
#include "intervals.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/grow_array.h"
#include "util/input_file.h"

static char *copy_string(const char *text)
{
    return text ? strdup(text) : NULL;
}

void count_set_init(struct count_set *set, const char *source)
{
    *set = (struct count_set){.source = copy_string(source)};
}

static void count_free(struct count *count)
{
    free(count->name);
    free(count->reason);
}

void count_set_free(struct count_set *set)
{
    for (size_t i = 0; i < set->n_counts; i++)
        count_free(&set->counts[i]);
    free(set->counts);
    free(set->source);
    free(set->model);
    free(set->trace);
    free(set->trace1);
    name_index_free(&set->index);
    *set = (struct count_set){0};
}

/* Indexes the count at `position` unless one of its name came first. */
static bool index_count(struct count_set *set, size_t position)
{
    const struct count *count = &set->counts[position];
    return name_index_get(&set->index, count->name, count->region) != NAME_INDEX_NONE ||
           name_index_put(&set->index, count->name, count->region, position);
}

struct count *count_set_add(struct count_set *set, const struct count *count)
{
    if (!grow_array(&set->counts, &set->capacity, set->n_counts + 1, sizeof *set->counts, 16))
        return NULL;
    struct count *added = &set->counts[set->n_counts];
    *added = *count;
    added->name = copy_string(count->name);
    added->reason = copy_string(count->reason);
    if (!added->name || (count->reason && !added->reason) || !index_count(set, set->n_counts)) {
        count_free(added);
        return NULL;
    }
    set->n_counts++;
    return added;
}

const struct count *count_set_find(const struct count_set *set, const char *name, int region)
{
    size_t position = name_index_get(&set->index, name, region);
    return position == NAME_INDEX_NONE ? NULL : &set->counts[position];
}

/* The regions the set's counts are in, in order of first appearance: how
 * many, and up to `max` of them in `regions`. */
static size_t list_regions(const struct count_set *set, int *regions, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < set->n_counts; i++) {
        int region = set->counts[i].region;
        bool seen = region < 0;
        for (size_t j = 0; j < n && j < max && !seen; j++)
            seen = regions[j] == region;
        if (!seen) {
            if (n < max)
                regions[n] = region;
            n++;
        }
    }
    return n;
}

static void format_regions(const int *regions, size_t n, char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++) {
        int wrote = snprintf(text + used, size - used, "%s%d", i ? ", " : "", regions[i]);
        used += wrote > 0 ? (size_t)wrote : 0;
    }
}

bool count_set_keep_region(struct count_set *set, long region, const char *path, char *error,
                           size_t error_size)
{
    int regions[8];
    char listed[128];
    size_t n = list_regions(set, regions, 8);
    format_regions(regions, n < 8 ? n : 8, listed, sizeof listed);
    if (region < 0 && n > 1) {
        snprintf(error, error_size, "%s: has %zu regions (%s%s): choose one with --region N", path,
                 n, listed, n > 8 ? ", ..." : "");
        return false;
    }
    if (n == 0)
        return true; /* a set without regions: all of it */
    if (region < 0)
        region = regions[0];
    size_t kept = 0;
    for (size_t i = 0; i < set->n_counts; i++) {
        if (set->counts[i].region == region) {
            set->counts[kept] = set->counts[i];
            set->counts[kept++].region = -1;
        } else {
            count_free(&set->counts[i]);
        }
    }
    set->n_counts = kept;
    name_index_free(&set->index); /* the kept counts are in no region now */
    for (size_t i = 0; i < kept; i++)
        if (!index_count(set, i)) {
            snprintf(error, error_size, "%s: out of memory", path);
            return false;
        }
    if (kept == 0)
        snprintf(error, error_size, "%s: no region %ld (regions: %s%s)", path, region, listed,
                 n > 8 ? ", ..." : "");
    return kept > 0;
}

enum count_format count_format_detect(const char *text, size_t size)
{
    static const char p5mon_first_line[] = "# run_p5mon results file";
    size_t i = 0;
    while (i < size && strchr(" \t\r\n", text[i]) && text[i])
        i++;
    if (i < size && text[i] == '{')
        return COUNT_FORMAT_JSON;
    size_t n = strlen(p5mon_first_line);
    if (size - i >= n && memcmp(text + i, p5mon_first_line, n) == 0)
        return COUNT_FORMAT_P5MON;
    return COUNT_FORMAT_PERF_CSV;
}

bool count_set_read(const char *text, size_t size, enum count_format format, const char *path,
                    struct count_set *set, char *error, size_t error_size)
{
    switch (format) {
    case COUNT_FORMAT_JSON:
        return count_set_read_json(text, size, path, set, error, error_size);
    case COUNT_FORMAT_P5MON:
        return count_set_read_p5mon(text, size, path, set, error, error_size);
    case COUNT_FORMAT_PERF_CSV:
        break;
    }
    return count_set_read_perf_csv(text, size, path, set, error, error_size);
}

/* The whole of `f` in a new buffer, however large: a stat -I result grows
 * with the trace's length over N and stat bounds it by nothing, so what
 * stat writes is read.  A regular file takes one buffer of its size (and
 * a byte, to see its end); anything else (a pipe) a buffer that doubles.
 * NULL with a message on a read error or when memory runs out. */
static char *read_all(FILE *f, const char *path, size_t *size, char *error, size_t error_size)
{
    struct stat st;
    bool sized = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
                 (uintmax_t)st.st_size < SIZE_MAX;
    size_t first = sized ? (size_t)st.st_size + 1 : 4096, capacity = 0, used = 0;
    char *text = NULL;
    bool room = grow_array(&text, &capacity, first, 1, first);
    while (room) {
        used += fread(text + used, 1, capacity - used, f);
        if (used < capacity)
            break;
        room = grow_array(&text, &capacity, capacity + 1, 1, first);
    }
    if (!room) {
        free(text);
        snprintf(error, error_size, "%s: out of memory", path);
        return NULL;
    }
    if (ferror(f)) {
        snprintf(error, error_size, "%s: cannot read: %s", path, strerror(errno));
        free(text);
        return NULL;
    }
    *size = used;
    return text;
}

/* The whole file at `path` ("-": standard input, named "<stdin>" in
 * `*name`), or NULL with a message. */
static char *read_input(const char *path, const char **name, size_t *size, char *error,
                        size_t error_size)
{
    bool is_stdin = strcmp(path, "-") == 0;
    *name = is_stdin ? "<stdin>" : path;
    FILE *f = is_stdin ? stdin : input_open(path, error, error_size);
    if (!f)
        return NULL;
    char *text = read_all(f, *name, size, error, error_size);
    if (!is_stdin)
        fclose(f);
    return text;
}

bool count_set_read_file(const char *path, const enum count_format *format,
                         struct count_set *set, char *error, size_t error_size)
{
    const char *name;
    size_t size = 0;
    char *text = read_input(path, &name, &size, error, error_size);
    if (!text)
        return false;
    enum count_format found = format ? *format : count_format_detect(text, size);
    bool ok = count_set_read(text, size, found, name, set, error, error_size);
    free(text);
    return ok;
}

/* Whether `text` begins, after white space, with something other than
 * JSON's '{' (CSV, a table); the offset of its first byte then. */
static bool not_json(const char *text, size_t size, size_t *at)
{
    size_t i = 0;
    while (i < size && text[i] && strchr(" \t\r\n", text[i]))
        i++;
    *at = i;
    return i < size && text[i] != '{';
}

bool stat_result_read_file(const char *path, struct count_set *set,
                           struct interval_series *series, char *error, size_t error_size)
{
    const char *name;
    size_t size = 0, at;
    char *text = read_input(path, &name, &size, error, error_size);
    if (!text)
        return false;
    bool ok = !not_json(text, size, &at);
    if (!ok)
        snprintf(error, error_size, "%s: byte offset %zu: expected '{': a 'pmubench stat --json' "
                 "result (not -x's CSV or the table: run stat with --json)", name, at);
    ok = ok && stat_result_read_json(text, size, name, set, series, error, error_size);
    free(text);
    return ok;
}
