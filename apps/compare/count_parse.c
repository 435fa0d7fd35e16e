/* Shared parts of the line-based count readers (count_parse.h). */
#include "count_parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void line_reader_init(struct line_reader *r, const char *text, size_t size, const char *path,
                      char *error, size_t error_size)
{
    *r = (struct line_reader){.text = text, .size = size, .path = path, .error = error,
                              .error_size = error_size};
    error[0] = '\0';
}

void line_reader_free(struct line_reader *r)
{
    free(r->line);
    r->line = NULL;
}

bool line_fail(struct line_reader *r, const char *format, ...)
{
    int used = snprintf(r->error, r->error_size, "%s: line %lu: ", r->path, r->number);
    if (used >= 0 && (size_t)used < r->error_size) {
        va_list ap;
        va_start(ap, format);
        vsnprintf(r->error + used, r->error_size - (size_t)used, format, ap);
        va_end(ap);
    }
    return false;
}

bool line_reader_failed(const struct line_reader *r)
{
    return r->error[0] != '\0';
}

bool line_reader_next(struct line_reader *r)
{
    if (r->pos >= r->size)
        return false;
    const char *start = r->text + r->pos;
    const char *newline = memchr(start, '\n', r->size - r->pos);
    size_t length = newline ? (size_t)(newline - start) : r->size - r->pos;
    r->pos += length + (newline != NULL);
    r->number++;
    if (length > 0 && start[length - 1] == '\r')
        length--;
    if (length + 1 > r->capacity) {
        char *line = realloc(r->line, length + 1);
        if (!line)
            return line_fail(r, "out of memory");
        r->line = line;
        r->capacity = length + 1;
    }
    memcpy(r->line, start, length);
    r->line[length] = '\0';
    if (strlen(r->line) != length)
        return line_fail(r, "expected text (found a NUL byte)");
    return true;
}

bool parse_decimal(const char *text, double *value, int *decimals)
{
    size_t whole = strspn(text, "0123456789");
    size_t fraction = 0;
    if (whole == 0 || whole > 20)
        return false; /* not a number, or above 64 bits */
    if (text[whole] == '.') {
        fraction = strspn(text + whole + 1, "0123456789");
        if (fraction == 0)
            return false;
    }
    if (text[whole + (fraction ? fraction + 1 : 0)] != '\0')
        return false;
    *value = strtod(text, NULL);
    *decimals = fraction > 9 ? 9 : (int)fraction; /* the digits shown */
    return true;
}

enum { BILLION = 1000000000 };

/* The first 9 digits of a fraction's `n` digits at `digits`, in
 * billionths, rounded by the tenth; *carry when that makes a whole one. */
static uint32_t billionths(const char *digits, size_t n, bool *carry)
{
    uint32_t value = 0;
    for (size_t i = 0; i < 9; i++)
        value = value * 10 + (uint32_t)(i < n ? digits[i] - '0' : 0);
    if (n > 9 && digits[9] >= '5')
        value++;
    *carry = value == BILLION;
    return *carry ? 0 : value;
}

enum count_parse parse_count(const char *text, struct count *count)
{
    size_t whole = strspn(text, "0123456789");
    const char *point = text + whole;
    size_t fraction = *point == '.' ? strspn(point + 1, "0123456789") : 0;
    if (whole == 0 || (*point == '.' && fraction == 0) || point[fraction ? fraction + 1 : 0])
        return COUNT_MALFORMED;
    uint64_t value = 0;
    for (size_t i = 0; i < whole; i++) {
        unsigned digit = (unsigned)(text[i] - '0');
        if (value > (UINT64_MAX - digit) / 10)
            return COUNT_OUT_OF_RANGE;
        value = value * 10 + digit;
    }
    bool carry;
    count->fraction = billionths(point + 1, fraction, &carry);
    if (carry && value == UINT64_MAX)
        return COUNT_OUT_OF_RANGE;
    count->value = value + carry;
    count->decimals = fraction > 9 ? 9 : (int)fraction;
    return COUNT_PARSED;
}

bool count_add(struct count *sum, const struct count *part)
{
    uint32_t fraction = sum->fraction + part->fraction; /* below 2 x BILLION */
    uint64_t carry = fraction >= BILLION;
    if (sum->value > UINT64_MAX - part->value || sum->value + part->value > UINT64_MAX - carry)
        return false;
    sum->value += part->value + carry;
    sum->fraction = carry ? fraction - BILLION : fraction;
    if (part->decimals > sum->decimals)
        sum->decimals = part->decimals;
    return true;
}

bool add_count(struct line_reader *r, struct count_set *set, const struct count *count)
{
    return count_set_add(set, count) != NULL || line_fail(r, "out of memory");
}
