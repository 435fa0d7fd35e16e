/* The result `pmubench stat --json` prints:
 *   {"model": "p5", "trace": "PATH", "counts": {"data_read": 45, ...}}
 * A strict reader of exactly this JSON subset: objects, strings and
 * non-negative integers (docs/compare.md).  Other members of the outer
 * object are allowed and skipped when they are of those kinds. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_set.h"

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
    int used = snprintf(in->error, in->error_size, "%s: byte offset %zu: ", in->path, in->pos);
    if (used >= 0 && (size_t)used < in->error_size) {
        va_list ap;
        va_start(ap, format);
        vsnprintf(in->error + used, in->error_size - (size_t)used, format, ap);
        va_end(ap);
    }
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

static bool skip_value(struct json_in *in, int depth);

static bool skip_member(struct json_in *in, const char *key, void *context)
{
    (void)key;
    return skip_value(in, *(int *)context + 1);
}

/* An object, a string or a non-negative integer, read and ignored. */
static bool skip_value(struct json_in *in, int depth)
{
    int c = peek(in);
    if (c == '{') {
        if (depth >= MAX_DEPTH)
            return json_fail(in, "objects nested deeper than %d", MAX_DEPTH);
        return read_object(in, skip_member, &depth);
    }
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
    return json_fail(in, "expected a value (an object, a string or a non-negative integer)");
}

struct result {
    struct count_set *set;
    char model[MAX_STRING], trace[MAX_STRING], trace1[MAX_STRING];
    bool have_model, have_trace, have_trace1, have_counts;
};

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

/* A member of the outer object; `seen` its flag. */
static bool first_time(struct json_in *in, bool *seen, const char *key)
{
    if (*seen) {
        in->pos = in->key_at;
        return json_fail(in, "duplicate key '%s'", key);
    }
    *seen = true;
    return true;
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
    return skip_value(in, 1);
}

static char *describe(const struct result *result)
{
    char source[2 * MAX_STRING + 16];
    snprintf(source, sizeof source, "pmubench %s%s%s", result->model,
             result->trace[0] ? ", trace " : "", result->trace);
    return strdup(source);
}

bool count_set_read_json(const char *text, size_t size, const char *path, struct count_set *set,
                         char *error, size_t error_size)
{
    struct json_in in = {.text = text, .size = size, .path = path, .error = error,
                         .error_size = error_size};
    count_set_init(set, NULL);
    struct result *result = calloc(1, sizeof *result);
    bool ok = result != NULL || json_fail(&in, "out of memory");
    if (ok) {
        result->set = set;
        ok = read_object(&in, read_result_member, result);
    }
    if (ok && peek(&in) != -1)
        ok = json_fail(&in, "expected the end of the input after the object");
    if (ok && (!result->have_model || !result->have_counts))
        ok = json_fail(&in, "expected \"model\" and \"counts\" members (pmubench stat --json)");
    if (ok) {
        /* "host" is the P5 model with this machine's caches. */
        set->p5_names = strcmp(result->model, "p5") == 0 || strcmp(result->model, "host") == 0;
        ok = ((set->source = describe(result)) && (set->model = strdup(result->model)) &&
              (!result->trace[0] || (set->trace = strdup(result->trace)))) ||
             json_fail(&in, "out of memory");
    }
    free(result);
    if (!ok)
        count_set_free(set);
    return ok;
}
