#include "number.h"

#include <stdio.h>

static int digit_value(char c, unsigned base)
{
    int value = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : 16;
    return (unsigned)value < base ? value : -1;
}

/* The digits after the prefix, in their base; false on anything else,
 * an empty number or an overflow of 64 bits. */
static bool parse(const char *text, uint64_t *value)
{
    unsigned base = 10;
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text += 2;
    } else if (text[0] == '0' && text[1] != '\0') {
        return false;
    }
    if (*text == '\0')
        return false;
    uint64_t v = 0;
    for (; *text; text++) {
        int digit = digit_value(*text, base);
        if (digit < 0 || v > (UINT64_MAX - (uint64_t)digit) / base)
            return false;
        v = v * base + (uint64_t)digit;
    }
    *value = v;
    return true;
}

bool number_parse(const char *text, uint64_t min, uint64_t max, uint64_t *value)
{
    uint64_t v;
    if (!parse(text, &v) || v < min || v > max)
        return false;
    *value = v;
    return true;
}

bool number_read(const char *what, const char *text, uint64_t min, uint64_t max,
                 uint64_t *value, char *error, size_t error_size)
{
    if (number_parse(text, min, max, value))
        return true;
    snprintf(error, error_size,
             "bad %s '%s' (expected a number: decimal or 0x hex, %llu to %llu)", what, text,
             (unsigned long long)min, (unsigned long long)max);
    return false;
}
