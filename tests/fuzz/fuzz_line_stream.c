/* libFuzzer target: the line reader of every text input
 * (util/line_stream.h), against a plain split of the input at '\n'.
 * The first byte is the cap (0 to 255 characters), so that lines over it,
 * at it and one under it are common; the second, when odd, repeats the
 * rest to 70,000 bytes, past the first of the reader's 64 KiB chunks (an input
 * of libFuzzer's 4096 bytes fits in one), so that lines cross chunks; the
 * rest is the text.  Any difference from the split, in a line, its
 * number, the message or the memory held, aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/line_stream.h"

enum { REPEATED = 70000 };

static void check(int ok)
{
    if (!ok)
        abort();
}

/* The message the reader must give for line `number` of `length`
 * characters (`nul`: it holds a NUL byte); "" when it must read it. */
static void expected_error(char *want, size_t size, size_t cap, unsigned long number,
                           size_t length, int nul)
{
    if (length > cap)
        snprintf(want, size, "fuzz:%lu: expected a line of at most %zu characters", number, cap);
    else if (nul)
        snprintf(want, size, "fuzz:%lu: unexpected NUL byte", number);
    else
        want[0] = '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t cap = data[0], body = size - 2, left = body;
    if (data[1] % 2 && body > 0)
        left = REPEATED;
    char *text = malloc(left ? left : 1);
    if (!text)
        return 0;
    for (size_t at = 0; at < left; at += body)
        memcpy(text + at, data + 2, left - at < body ? left - at : body);
    FILE *in = left ? fmemopen(text, left, "r") : fopen("/dev/null", "r");
    if (!in) {
        free(text);
        return 0;
    }
    struct line_stream lines;
    line_stream_init(&lines, in, "fuzz", cap);
    char error[128], want[128];
    unsigned long number = 0;
    for (size_t at = 0;;) {
        enum line_result result = line_stream_next(&lines, error, sizeof error);
        check(lines.capacity <= cap + 1);
        if (at == left) {
            check(result == LINE_END && lines.line == number);
            break;
        }
        const char *newline = memchr(text + at, '\n', left - at);
        size_t length = newline ? (size_t)(newline - (text + at)) : left - at;
        expected_error(want, sizeof want, cap, ++number, length,
                       memchr(text + at, '\0', length) != NULL);
        if (want[0]) {
            check(result == LINE_BAD && strcmp(error, want) == 0);
            break;
        }
        check(result == LINE_READ && lines.line == number && lines.length == length &&
              memcmp(lines.text, text + at, length) == 0 && lines.text[length] == '\0');
        at += length + (newline != NULL);
    }
    line_stream_free(&lines);
    fclose(in);
    free(text);
    return 0;
}
