#include "line_stream.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "error_line.h"

enum { FIRST_CAPACITY = 128 };

void line_stream_init(struct line_stream *lines, FILE *in, const char *path, size_t max)
{
    *lines = (struct line_stream){.in = in, .path = path, .max = max};
}

void line_stream_free(struct line_stream *lines)
{
    free(lines->text);
    lines->text = NULL;
    lines->capacity = 0;
}

/* Room for `needed` bytes (at most max + 1: a line and its NUL), by
 * doubling up to that. */
static bool reserve(struct line_stream *lines, size_t needed)
{
    if (needed <= lines->capacity)
        return true;
    size_t capacity = lines->capacity ? lines->capacity : FIRST_CAPACITY;
    while (capacity < needed)
        capacity *= 2;
    if (capacity > lines->max + 1)
        capacity = lines->max + 1;
    char *text = realloc(lines->text, capacity);
    if (!text)
        return false;
    lines->text = text;
    lines->capacity = capacity;
    return true;
}

/* "PATH:LINE: " and the message: bad input. */
__attribute__((format(printf, 4, 5))) static enum line_result
bad(const struct line_stream *lines, char *error, size_t error_size, const char *format, ...)
{
    int used = snprintf(error, error_size, "%s:%lu: ", lines->path, lines->line);
    va_list ap;
    va_start(ap, format);
    if (used >= 0 && (size_t)used < error_size)
        vsnprintf(error + used, error_size - (size_t)used, format, ap);
    va_end(ap);
    errno = EINVAL;
    return LINE_BAD;
}

static enum line_result out_of_memory(struct line_stream *lines, char *error,
                                      size_t error_size)
{
    error_line(ENOMEM, error, error_size, "%s: out of memory", lines->path);
    return LINE_FAILED;
}

static enum line_result read_failed(struct line_stream *lines, int reason, char *error,
                                    size_t error_size)
{
    error_line(EIO, error, error_size, "%s: cannot read: %s", lines->path,
               strerror(reason ? reason : EIO));
    return LINE_FAILED;
}

enum line_result line_stream_next(struct line_stream *lines, char *error, size_t error_size)
{
    size_t length = 0;
    int c;
    lines->line++;
    errno = 0;
    while ((c = getc_unlocked(lines->in)) != EOF && c != '\n') {
        if (length == lines->max)
            return bad(lines, error, error_size, "expected a line of at most %zu characters",
                       lines->max);
        if (!reserve(lines, length + 2))
            return out_of_memory(lines, error, error_size);
        lines->text[length++] = (char)c;
    }
    if (c == EOF && ferror(lines->in))
        return read_failed(lines, errno, error, error_size);
    if (c == EOF && length == 0) {
        lines->line--;
        return LINE_END;
    }
    if (!reserve(lines, length + 1))
        return out_of_memory(lines, error, error_size);
    lines->text[length] = '\0';
    lines->length = length;
    if (memchr(lines->text, '\0', length))
        return bad(lines, error, error_size, "unexpected NUL byte");
    return LINE_READ;
}
