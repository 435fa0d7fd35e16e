/* `perf stat -x, -o FILE -e EVENT,...` output: "VALUE,UNIT,EVENT,RUNTIME,
 * PERCENT,..." lines, '#' comments and blank lines (docs/compare.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_parse.h"

static const char expected_line[] = "expected VALUE,UNIT,EVENT,... (perf stat -x, output)";

/* The event without a hybrid CPU's PMU wrapper: "cpu_core/instructions:u/"
 * gives "instructions:u" (in place). */
static char *strip_pmu(char *event, bool *wrapped)
{
    size_t n = strlen(event);
    char *slash = strchr(event, '/');
    *wrapped = strncmp(event, "cpu", 3) == 0 && slash && n > 0 && event[n - 1] == '/' &&
               event + n - 1 > slash + 1;
    if (!*wrapped)
        return event;
    event[n - 1] = '\0';
    return slash + 1;
}

/* Splits `line` at commas into at most `max` fields; how many. */
static int split_fields(char *line, char **fields, int max)
{
    int n = 0;
    for (char *field = line; n < max; n++) {
        fields[n] = field;
        char *comma = strchr(field, ',');
        if (!comma)
            return n + 1;
        *comma = '\0';
        field = comma + 1;
    }
    return n;
}

static bool parse_value(struct line_reader *r, const char *text, struct count *count)
{
    if (strcmp(text, "<not supported>") == 0) {
        count->status = COUNT_NOT_SUPPORTED;
        count->reason = "perf stat: <not supported>";
    } else if (strcmp(text, "<not counted>") == 0) {
        count->status = COUNT_NOT_COUNTED;
        count->reason = "perf stat: <not counted>";
    } else {
        enum count_parse parsed = parse_count(text, count);
        if (parsed == COUNT_OUT_OF_RANGE)
            return line_fail(r, COUNT_TOO_BIG);
        if (parsed == COUNT_MALFORMED)
            return line_fail(
                r, "expected a count, <not supported> or <not counted> (found '%.40s')", text);
    }
    return true;
}

/* A hybrid CPU's second line for an event: its count is added to the first
 * (a core type that did not run the program has <not counted>). */
static bool merge(struct line_reader *r, struct count *into, const struct count *part)
{
    if (part->status != COUNT_COUNTED)
        return true;
    if (into->status != COUNT_COUNTED) {
        into->status = COUNT_COUNTED;
        into->value = into->fraction = 0;
        free(into->reason);
        into->reason = NULL;
    }
    return count_add(into, part) || line_fail(r, COUNT_TOO_BIG " (the core types' sum)");
}

static bool parse_line(struct line_reader *r, struct count_set *set)
{
    char *fields[3];
    if (split_fields(r->line, fields, 3) < 3)
        return line_fail(r, "%s", expected_line);
    bool wrapped;
    struct count count = {.name = strip_pmu(fields[2], &wrapped), .region = -1};
    if (count.name[0] == '\0')
        return line_fail(r, "expected an event name in the third field");
    if (!parse_value(r, fields[0], &count))
        return false;
    struct count *earlier = (struct count *)count_set_find(set, count.name, -1);
    if (earlier && wrapped)
        return merge(r, earlier, &count);
    if (earlier)
        return line_fail(r, "event '%.64s' again (once per event)", count.name);
    return add_count(r, set, &count);
}

bool count_set_read_perf_csv(const char *text, size_t size, const char *path,
                             struct count_set *set, char *error, size_t error_size)
{
    struct line_reader r;
    line_reader_init(&r, text, size, path, error, error_size);
    count_set_init(set, "perf stat");
    bool ok = set->source != NULL || line_fail(&r, "out of memory");
    while (ok && line_reader_next(&r)) {
        if (r.line[0] != '#' && r.line[strspn(r.line, " \t")] != '\0')
            ok = parse_line(&r, set);
    }
    ok = ok && !line_reader_failed(&r);
    if (ok && set->n_counts == 0)
        ok = snprintf(error, error_size, "%s: no counts (expected perf stat -x, output)", path) < 0;
    line_reader_free(&r);
    if (!ok)
        count_set_free(set);
    return ok;
}
