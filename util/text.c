#include "text.h"

#include <stdbool.h>
#include <string.h>

static bool continuation(unsigned char c)
{
    return (c & 0xc0) == 0x80;
}

/* A multi-byte sequence's length by its first byte and the range its
 * second byte must fall in (RFC 3629, section 4); 0 for a byte that starts
 * none. */
static size_t sequence(unsigned char first, unsigned char *low, unsigned char *high)
{
    *low = 0x80;
    *high = 0xbf;
    if (first >= 0xc2 && first <= 0xdf)
        return 2;
    if (first >= 0xe0 && first <= 0xef) {
        *low = first == 0xe0 ? 0xa0 : 0x80;
        *high = first == 0xed ? 0x9f : 0xbf;
        return 3;
    }
    if (first >= 0xf0 && first <= 0xf4) {
        *low = first == 0xf0 ? 0x90 : 0x80;
        *high = first == 0xf4 ? 0x8f : 0xbf;
        return 4;
    }
    return 0;
}

size_t text_printable_length(const char *p)
{
    const unsigned char *s = (const unsigned char *)p;
    if (s[0] < 0x80)
        return s[0] >= 0x20 && s[0] != 0x7f ? 1 : 0;
    unsigned char low, high;
    size_t n = sequence(s[0], &low, &high);
    if (n == 0 || s[1] < low || s[1] > high)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (!continuation(s[i]))
            return 0;
    return n;
}

void text_escape(char *out, size_t size, const char *text)
{
    size_t used = 0;
    while (*text && used + 1 < size) {
        size_t n = text_printable_length(text);
        if (n == 0) {
            if (used + 5 > size)
                break;
            snprintf(out + used, 5, "\\x%02x", (unsigned char)*text++);
            used += 4;
            continue;
        }
        if (used + n + 1 > size)
            break;
        for (size_t i = 0; i < n; i++)
            out[used++] = *text++;
    }
    if (size)
        out[used] = '\0';
}

void text_print_escaped(FILE *out, const char *text)
{
    while (*text) {
        size_t n = text_printable_length(text);
        if (n == 0)
            fprintf(out, "\\x%02x", (unsigned char)*text++);
        for (size_t i = 0; i < n; i++)
            fputc(*text++, out);
    }
}

void text_print_field(FILE *out, const char *text, const char *separator)
{
    if (!strstr(text, separator) && !strpbrk(text, "\"\r\n")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (; *text; text++) {
        if (*text == '"')
            fputc('"', out);
        fputc(*text, out);
    }
    fputc('"', out);
}
