/* The result `pmubench stat --json` prints:
 *   {"model": "p5", "trace": "PATH", "counts": {"data_read": 45, ...}}
 * and with -I N also
 *   "interval": {"unit": "instructions", "every": N},
 *   "intervals": [{"end": E, "instructions": I, "cycles": C, "uops": U,
 *                  "counts": {"data_read": 4, ...}}, ...]
 * A strict reader of exactly this JSON subset: objects, arrays, strings and
 * non-negative integers (docs/compare.md, docs/plot.md).  Other members of
 * the objects are allowed and skipped when they are of those kinds. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "count_set.h"
#include "intervals.h"
#include "util/error_line.h"
#include "util/grow_array.h"

enum { MAX_DEPTH = 16, MAX_STRING = 4096 };

struct json_in {
    const char *text;
    size_t size, pos;
    size_t key_at;          /* where the latest object key starts */
    const char *path;
    char *error;
    size_t error_size;
};

__attribute__((format(printf, 2, 3))) static bool json_fail(struct json_in *in,
                                                            const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    error_at_voffset(0, in->error, in->error_size, in->path, in->pos, format, ap);
    va_end(ap);
    return false;
}

static void skip_space(struct json_in *in)
{
    while (in->pos < in->size && strchr(" \t\r\n", in->text[in->pos]) && in->text[in->pos])
        in->pos++;
}

/* The next byte after white space, or -1 at the end. */
static int peek(struct json_in *in)
{
    skip_space(in);
    return in->pos < in->size ? (unsigned char)in->text[in->pos] : -1;
}

static bool expect_byte(struct json_in *in, char byte)
{
    if (peek(in) != byte)
        return json_fail(in, "expected '%c'", byte);
    in->pos++;
    return true;
}

static int hex_digit(char c)
{
    const char *digits = "0123456789abcdef";
    const char *at = c ? strchr(digits, c | 0x20) : NULL;
    return at ? (int)(at - digits) : -1;
}

/* \uXXXX after the backslash and 'u': the code point, or -1. */
static long read_hex4(struct json_in *in)
{
    if (in->size - in->pos < 4)
        return -1;
    long value = 0;
    for (int i = 0; i < 4; i++) {
        int digit = hex_digit(in->text[in->pos + (size_t)i]);
        if (digit < 0)
            return -1;
        value = value * 16 + digit;
    }
    in->pos += 4;
    return value;
}

static void put_utf8(char *out, size_t *n, long code)
{
    if (code < 0x80) {
        out[(*n)++] = (char)code;
    } else if (code < 0x800) {
        out[(*n)++] = (char)(0xc0 | (code >> 6));
        out[(*n)++] = (char)(0x80 | (code & 0x3f));
    } else {
        out[(*n)++] = (char)(0xe0 | (code >> 12));
        out[(*n)++] = (char)(0x80 | ((code >> 6) & 0x3f));
        out[(*n)++] = (char)(0x80 | (code & 0x3f));
    }
}

/* One escape after its backslash, appended to out. */
static bool read_escape(struct json_in *in, char *out, size_t *n)
{
    static const char simple[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
    char c = in->pos < in->size ? in->text[in->pos] : '\0';
    for (const char *s = simple; *s; s += 2)
        if (c == s[0]) {
            in->pos++;
            out[(*n)++] = s[1];
            return true;
        }
    if (c != 'u')
        return json_fail(in, "expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)");
    in->pos++;
    long code = read_hex4(in);
    if (code < 0)
        return json_fail(in, "expected four hexadecimal digits after \\u");
    if (code == 0 || (code >= 0xd800 && code < 0xe000))
        return json_fail(in, "unsupported \\u%04lx (NUL or a UTF-16 surrogate)", code);
    put_utf8(out, n, code);
    return true;
}

/* A string into out (MAX_STRING bytes with its NUL). */
static bool read_string(struct json_in *in, char *out)
{
    if (peek(in) != '"')
        return json_fail(in, "expected a string");
    in->pos++;
    size_t n = 0;
    while (in->pos < in->size) {
        char c = in->text[in->pos];
        if (c == '"') {
            in->pos++;
            out[n] = '\0';
            return true;
        }
        if ((unsigned char)c < 0x20)
            return json_fail(in, "expected '\"' (a control character in a string)");
        if (n + 4 >= MAX_STRING)
            return json_fail(in, "string longer than %d bytes", MAX_STRING - 4);
        in->pos++;
        if (c != '\\')
            out[n++] = c;
        else if (!read_escape(in, out, &n))
            return false;
    }
    return json_fail(in, "expected '\"' (the string is not closed)");
}

static bool read_integer(struct json_in *in, uint64_t *value)
{
    int c = peek(in);
    if (c < '0' || c > '9')
        return json_fail(in, "expected a count (a non-negative integer)");
    size_t start = in->pos;
    *value = 0;
    while (in->pos < in->size && in->text[in->pos] >= '0' && in->text[in->pos] <= '9') {
        unsigned digit = (unsigned)(in->text[in->pos] - '0');
        if (in->pos > start && *value == 0)
            return json_fail(in, "expected a count without leading zeros");
        if (*value > (UINT64_MAX - digit) / 10) {
            in->pos = start;
            return json_fail(in, COUNT_TOO_BIG);
        }
        *value = *value * 10 + digit;
        in->pos++;
    }
    if (in->pos < in->size && strchr(".eE", in->text[in->pos]) && in->text[in->pos])
        return json_fail(in, "expected a count (a non-negative integer), not a fraction");
    return true;
}

/* Calls member() for each member of an object after its "{"; member reads
 * the value after the ':'. */
typedef bool member_reader(struct json_in *in, const char *key, void *context);

static bool read_object(struct json_in *in, member_reader *member, void *context)
{
    if (!expect_byte(in, '{'))
        return false;
    if (peek(in) == '}') {
        in->pos++;
        return true;
    }
    char *key = malloc(MAX_STRING);
    bool ok = key != NULL || json_fail(in, "out of memory");
    while (ok) {
        skip_space(in);
        in->key_at = in->pos;
        ok = read_string(in, key) && expect_byte(in, ':') && member(in, key, context);
        if (!ok)
            break;
        int c = peek(in);
        if (c == '}') {
            in->pos++;
            break;
        }
        ok = c == ',' ? (in->pos++, true) : json_fail(in, "expected ',' or '}'");
    }
    free(key);
    return ok;
}

/* Calls element() for each element of an array, which reads it. */
typedef bool element_reader(struct json_in *in, void *context);

static bool read_array(struct json_in *in, element_reader *element, void *context)
{
    if (!expect_byte(in, '['))
        return false;
    if (peek(in) == ']') {
        in->pos++;
        return true;
    }
    for (;;) {
        if (!element(in, context))
            return false;
        int c = peek(in);
        if (c == ']') {
            in->pos++;
            return true;
        }
        if (c != ',')
            return json_fail(in, "expected ',' or ']'");
        in->pos++;
    }
}

static bool skip_value(struct json_in *in, int depth);

static bool skip_member(struct json_in *in, const char *key, void *context)
{
    (void)key;
    return skip_value(in, *(int *)context + 1);
}

static bool skip_element(struct json_in *in, void *context)
{
    return skip_value(in, *(int *)context + 1);
}

/* An object, an array, a string or a non-negative integer, read and
 * ignored. */
static bool skip_value(struct json_in *in, int depth)
{
    int c = peek(in);
    if ((c == '{' || c == '[') && depth >= MAX_DEPTH)
        return json_fail(in, "objects or arrays nested deeper than %d", MAX_DEPTH);
    if (c == '{')
        return read_object(in, skip_member, &depth);
    if (c == '[')
        return read_array(in, skip_element, &depth);
    if (c == '"') {
        char *ignored = malloc(MAX_STRING);
        bool ok = ignored ? read_string(in, ignored) : json_fail(in, "out of memory");
        free(ignored);
        return ok;
    }
    if (c >= '0' && c <= '9') {
        uint64_t ignored;
        return read_integer(in, &ignored);
    }
    return json_fail(in, "expected a value (an object, an array, a string or a non-negative integer)");
}

struct result {
    struct count_set *set;
    struct interval_series *series;
    bool *seen;             /* per event: counted in the interval being read */
    size_t events_capacity, seen_capacity, intervals_capacity, counts_capacity; /* room for */
    char model[MAX_STRING], trace[MAX_STRING], trace1[MAX_STRING];
    bool have_model, have_trace, have_trace1, have_counts, have_interval, have_intervals;
    size_t intervals_at;    /* where the "intervals" key starts */
};

/* A member of an object; `seen` its flag. */
static bool first_time(struct json_in *in, bool *seen, const char *key)
{
    if (*seen) {
        in->pos = in->key_at;
        return json_fail(in, "duplicate key '%s'", key);
    }
    *seen = true;
    return true;
}

static bool read_count(struct json_in *in, const char *key, void *context)
{
    struct count_set *set = context;
    uint64_t value;
    if (!read_integer(in, &value))
        return false;
    if (count_set_find(set, key, -1)) {
        in->pos = in->key_at;
        return json_fail(in, "duplicate count '%.64s'", key);
    }
    struct count count = {.name = (char *)key, .value = value, .region = -1};
    return count_set_add(set, &count) || json_fail(in, "out of memory");
}

/* The trace's name, or null: counted on hardware, no trace (left ""). */
static bool read_trace(struct json_in *in, char *trace)
{
    if (peek(in) != 'n')
        return read_string(in, trace);
    if (in->size - in->pos < 4 || memcmp(in->text + in->pos, "null", 4) != 0)
        return json_fail(in, "expected a string or null");
    in->pos += 4;
    return true;
}

/* ---- "interval" and "intervals" (stat -I) ---- */

struct interval_spec {
    struct interval_series *series;
    bool have_unit, have_every;
};

static bool read_unit(struct json_in *in, struct interval_series *series)
{
    char unit[MAX_STRING];
    size_t at = (peek(in), in->pos);
    if (!read_string(in, unit))
        return false;
    series->in_cycles = strcmp(unit, "cycles") == 0;
    if (series->in_cycles || strcmp(unit, "instructions") == 0)
        return true;
    in->pos = at;
    return json_fail(in, "expected \"instructions\" or \"cycles\"");
}

static bool read_every(struct json_in *in, struct interval_series *series)
{
    size_t at = (peek(in), in->pos);
    if (!read_integer(in, &series->every))
        return false;
    if (series->every > 0)
        return true;
    in->pos = at;
    return json_fail(in, "expected an interval of 1 or more");
}

static bool read_spec_member(struct json_in *in, const char *key, void *context)
{
    struct interval_spec *spec = context;
    if (strcmp(key, "unit") == 0)
        return first_time(in, &spec->have_unit, key) && read_unit(in, spec->series);
    if (strcmp(key, "every") == 0)
        return first_time(in, &spec->have_every, key) && read_every(in, spec->series);
    return skip_value(in, 2);
}

static bool read_interval_spec(struct json_in *in, struct interval_series *series)
{
    struct interval_spec spec = {.series = series};
    if (!read_object(in, read_spec_member, &spec))
        return false;
    return (spec.have_unit && spec.have_every) ||
           json_fail(in, "expected \"unit\" and \"every\" members in \"interval\"");
}

/* One interval being read. */
struct interval_in {
    struct result *result;
    struct interval interval;
    bool have_end, have_instructions, have_cycles, have_uops, have_counts;
    size_t end_at;          /* where its "end" value starts */
};

/* The index of event `name` in the series, or n_events. */
static size_t event_index(const struct interval_series *series, const char *name)
{
    size_t e = 0;
    while (e < series->n_events && strcasecmp(series->events[e], name) != 0)
        e++;
    return e;
}

/* The first interval names the events: a new one is added, with room
 * for its seen flag and its count in the first row. */
static bool add_event(struct json_in *in, struct result *result, const char *name)
{
    struct interval_series *series = result->series;
    size_t n = series->n_events + 1;
    char *copy = strdup(name);
    if (!copy ||
        !grow_array(&series->events, &result->events_capacity, n, sizeof *series->events, 8) ||
        !grow_array(&result->seen, &result->seen_capacity, n, sizeof *result->seen, 8) ||
        !grow_array(&series->counts, &result->counts_capacity, n, sizeof *series->counts, 64)) {
        free(copy);
        return json_fail(in, "out of memory");
    }
    series->events[series->n_events] = copy;
    result->seen[series->n_events++] = false;
    return true;
}

static bool read_interval_count(struct json_in *in, const char *key, void *context)
{
    struct result *result = context;
    struct interval_series *series = result->series;
    uint64_t value;
    if (!read_integer(in, &value))
        return false;
    size_t e = event_index(series, key);
    if (e == series->n_events && series->n_intervals == 0 && !add_event(in, result, key))
        return false;
    in->pos = e == series->n_events || result->seen[e] ? in->key_at : in->pos;
    if (e == series->n_events)
        return json_fail(in, "count '%.64s' is not in the first interval", key);
    if (result->seen[e])
        return json_fail(in, "duplicate count '%.64s'", key);
    result->seen[e] = true;
    series->counts[series->n_intervals * series->n_events + e] = value;
    return true;
}

/* The interval's "counts": its row, zeroed, filled by event name. */
static bool read_interval_counts(struct json_in *in, struct result *result)
{
    struct interval_series *series = result->series;
    size_t row = series->n_intervals * series->n_events;
    if (!grow_array(&series->counts, &result->counts_capacity, row + series->n_events,
                    sizeof *series->counts, 64))
        return json_fail(in, "out of memory");
    for (size_t e = 0; e < series->n_events; e++) {
        series->counts[row + e] = 0;
        result->seen[e] = false;
    }
    if (!read_object(in, read_interval_count, result))
        return false;
    for (size_t e = 0; e < series->n_events; e++)
        if (!result->seen[e])
            return json_fail(in, "expected a count of '%.64s' in the interval (as in the first)",
                             series->events[e]);
    return true;
}

static bool read_fact(struct json_in *in, bool *seen, const char *key, uint64_t *value)
{
    return first_time(in, seen, key) && read_integer(in, value);
}

static bool read_interval_member(struct json_in *in, const char *key, void *context)
{
    struct interval_in *one = context;
    struct interval *interval = &one->interval;
    if (strcmp(key, "end") == 0) {
        bool ok = first_time(in, &one->have_end, key);
        one->end_at = (peek(in), in->pos);
        return ok && read_integer(in, &interval->end);
    }
    if (strcmp(key, "instructions") == 0)
        return read_fact(in, &one->have_instructions, key, &interval->instructions);
    if (strcmp(key, "cycles") == 0)
        return read_fact(in, &one->have_cycles, key, &interval->cycles);
    if (strcmp(key, "uops") == 0)
        return read_fact(in, &one->have_uops, key, &interval->uops);
    if (strcmp(key, "counts") == 0)
        return first_time(in, &one->have_counts, key) && read_interval_counts(in, one->result);
    return skip_value(in, 3);
}

/* The interval read fits the ones before it: ends increase, "uops" in all
 * or none. */
static bool check_interval(struct json_in *in, struct interval_in *one)
{
    const struct interval_series *series = one->result->series;
    if (!one->have_end || !one->have_instructions || !one->have_cycles || !one->have_counts)
        return json_fail(in, "expected \"end\", \"instructions\", \"cycles\" and \"counts\" in "
                             "an interval");
    if (series->n_intervals > 0 && one->have_uops != series->has_uops)
        return json_fail(in, "expected \"uops\" in every interval or in none");
    uint64_t previous = series->n_intervals ? series->intervals[series->n_intervals - 1].end : 0;
    if (series->n_intervals > 0 && one->interval.end <= previous) {
        in->pos = one->end_at;
        return json_fail(in, "expected an \"end\" above the previous interval's (%llu)",
                         (unsigned long long)previous);
    }
    return true;
}

static bool read_interval(struct json_in *in, void *context)
{
    struct result *result = context;
    struct interval_series *series = result->series;
    struct interval_in one = {.result = result};
    if (!read_object(in, read_interval_member, &one) || !check_interval(in, &one))
        return false;
    if (!grow_array(&series->intervals, &result->intervals_capacity, series->n_intervals + 1,
                    sizeof *series->intervals, 64))
        return json_fail(in, "out of memory");
    series->has_uops = one.have_uops;
    series->intervals[series->n_intervals++] = one.interval;
    return true;
}

/* Each event's intervals sum to its total, and the intervals count the
 * total's events (with no intervals, every total is 0). */
static bool check_sums(struct json_in *in, const struct result *result)
{
    const struct interval_series *series = result->series;
    const struct count_set *set = result->set;
    in->pos = result->intervals_at;
    for (size_t e = 0; e < series->n_events; e++)
        if (!count_set_find(set, series->events[e], -1))
            return json_fail(in, "count '%.64s' of the intervals is not in \"counts\"",
                             series->events[e]);
    for (size_t c = 0; c < set->n_counts; c++) {
        size_t e = event_index(series, set->counts[c].name);
        if (e == series->n_events && series->n_intervals > 0)
            return json_fail(in, "expected a count of '%.64s' in the intervals",
                             set->counts[c].name);
        uint64_t sum = 0;
        bool over = false;
        for (size_t i = 0; i < series->n_intervals; i++) {
            uint64_t v = series->counts[i * series->n_events + e];
            over |= sum > UINT64_MAX - v;
            sum += v;
        }
        if (over || sum != set->counts[c].value)
            return json_fail(in, "the intervals' counts of '%.64s' sum to %s%llu, not to its "
                                 "total %llu", set->counts[c].name, over ? "more than " : "",
                             over ? (unsigned long long)UINT64_MAX : (unsigned long long)sum,
                             (unsigned long long)set->counts[c].value);
    }
    return true;
}

static bool check_series(struct json_in *in, struct result *result)
{
    if (result->have_interval != result->have_intervals)
        return json_fail(in, "expected \"interval\" and \"intervals\" together");
    result->series->present = result->have_interval;
    return !result->series->present || check_sums(in, result);
}

static bool read_result_member(struct json_in *in, const char *key, void *context)
{
    struct result *result = context;
    if (strcmp(key, "model") == 0)
        return first_time(in, &result->have_model, key) && read_string(in, result->model);
    if (strcmp(key, "trace") == 0)
        return first_time(in, &result->have_trace, key) && read_trace(in, result->trace);
    if (strcmp(key, "trace_thread1") == 0)
        return first_time(in, &result->have_trace1, key) && read_string(in, result->trace1);
    if (strcmp(key, "counts") == 0)
        return first_time(in, &result->have_counts, key) &&
               read_object(in, read_count, result->set);
    if (strcmp(key, "interval") == 0)
        return first_time(in, &result->have_interval, key) &&
               read_interval_spec(in, result->series);
    if (strcmp(key, "intervals") == 0) {
        result->intervals_at = in->key_at;
        return first_time(in, &result->have_intervals, key) &&
               read_array(in, read_interval, result);
    }
    return skip_value(in, 1);
}

/* Names a stat result's `set` (its source empty, as count_set_init(set,
 * NULL) leaves it): the line "pmubench MODEL[, trace TRACE]", or with a
 * second trace (Hyper-Threading) "pmubench MODEL, traces TRACE (thread 0)
 * and TRACE1 (thread 1)", its model, its traces (`trace` NULL or "":
 * counted on hardware; `trace1` NULL: one trace) and whether its names
 * are the P5's; false when out of memory (count_set_free frees what was
 * made). */
static bool stat_result_name(struct count_set *set, const char *model, const char *trace,
                             const char *trace1)
{
    trace = trace ? trace : "";
    size_t size = strlen(model) + strlen(trace) + (trace1 ? strlen(trace1) : 0) +
                  sizeof "pmubench , traces  (thread 0) and  (thread 1)";
    set->source = malloc(size);
    if (set->source && trace1)
        snprintf(set->source, size, "pmubench %s, traces %s (thread 0) and %s (thread 1)", model,
                 trace, trace1);
    else if (set->source)
        snprintf(set->source, size, "pmubench %s%s%s", model, trace[0] ? ", trace " : "", trace);
    /* "host" is the P5 model with this machine's caches. */
    set->p5_names = strcmp(model, "p5") == 0 || strcmp(model, "host") == 0;
    set->model = strdup(model);
    set->trace = trace[0] ? strdup(trace) : NULL;
    set->trace1 = trace1 ? strdup(trace1) : NULL;
    return set->source && set->model && (!trace[0] || set->trace) && (!trace1 || set->trace1);
}

void interval_series_free(struct interval_series *series)
{
    for (size_t e = 0; e < series->n_events; e++)
        free(series->events[e]);
    free(series->events);
    free(series->intervals);
    free(series->counts);
    *series = (struct interval_series){0};
}

bool stat_result_read_json(const char *text, size_t size, const char *path,
                           struct count_set *set, struct interval_series *series, char *error,
                           size_t error_size)
{
    struct json_in in = {.text = text, .size = size, .path = path, .error = error,
                         .error_size = error_size};
    count_set_init(set, NULL);
    *series = (struct interval_series){0};
    struct result *result = calloc(1, sizeof *result);
    bool ok = result != NULL || json_fail(&in, "out of memory");
    if (ok) {
        result->set = set;
        result->series = series;
        ok = read_object(&in, read_result_member, result);
    }
    if (ok && peek(&in) != -1)
        ok = json_fail(&in, "expected the end of the input after the object");
    if (ok && (!result->have_model || !result->have_counts))
        ok = json_fail(&in, "expected \"model\" and \"counts\" members (pmubench stat --json)");
    ok = ok && check_series(&in, result);
    if (ok)
        ok = stat_result_name(set, result->model, result->trace,
                              result->have_trace1 ? result->trace1 : NULL) ||
             json_fail(&in, "out of memory");
    if (result)
        free(result->seen);
    free(result);
    if (!ok) {
        count_set_free(set);
        interval_series_free(series);
    }
    return ok;
}

bool count_set_read_json(const char *text, size_t size, const char *path, struct count_set *set,
                         char *error, size_t error_size)
{
    struct interval_series series;
    bool ok = stat_result_read_json(text, size, path, set, &series, error, error_size);
    if (ok)
        interval_series_free(&series);
    return ok;
}
