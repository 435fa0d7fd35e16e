#include "line_stream.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "error_line.h"

/* The first size of the line's buffer, and the bytes read at a time. */
enum { FIRST_CAPACITY = 128, CHUNK = 64 * 1024 };

void line_stream_init(struct line_stream *lines, FILE *in, const char *path, size_t max)
{
    *lines = (struct line_stream){.in = in, .path = path, .max = max};
}

void line_stream_free(struct line_stream *lines)
{
    free(lines->text);
    free(lines->chunk);
    lines->text = lines->chunk = NULL;
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
    va_list ap;
    va_start(ap, format);
    error_at_vline(EINVAL, error, error_size, lines->path, lines->line, format, ap);
    va_end(ap);
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

/* Reads the next chunk of the input: LINE_READ when it has bytes,
 * LINE_END at the end of the input, LINE_FAILED. */
static enum line_result fill(struct line_stream *lines, char *error, size_t error_size)
{
    if (lines->ended)
        return LINE_END;
    if (!lines->chunk && !(lines->chunk = malloc(CHUNK)))
        return out_of_memory(lines, error, error_size);
    errno = 0;
    size_t n = fread(lines->chunk, 1, CHUNK, lines->in);
    lines->begin = 0;
    lines->end = n;
    if (n > 0)
        return LINE_READ;
    if (ferror(lines->in))
        return read_failed(lines, errno, error, error_size);
    lines->ended = true;
    return LINE_END;
}

/* Appends the chunk's bytes up to the next '\n' (consumed, not kept) to
 * the line of `*length` characters; *complete when the '\n' was there. */
static enum line_result take(struct line_stream *lines, size_t *length, bool *complete,
                             char *error, size_t error_size)
{
    const char *start = lines->chunk + lines->begin;
    size_t available = lines->end - lines->begin;
    const char *newline = memchr(start, '\n', available);
    size_t n = newline ? (size_t)(newline - start) : available;
    if (n > lines->max - *length)
        return bad(lines, error, error_size, "expected a line of at most %zu characters",
                   lines->max);
    if (!reserve(lines, *length + n + 1))
        return out_of_memory(lines, error, error_size);
    memcpy(lines->text + *length, start, n);
    *length += n;
    lines->begin += n + (newline != NULL);
    *complete = newline != NULL;
    return LINE_READ;
}

enum line_result line_stream_next(struct line_stream *lines, char *error, size_t error_size)
{
    size_t length = 0;
    bool complete = false, any = false;
    lines->line++;
    while (!complete) {
        enum line_result result = lines->begin < lines->end ? LINE_READ
                                                            : fill(lines, error, error_size);
        if (result == LINE_END)
            break;
        if (result == LINE_READ)
            result = take(lines, &length, &complete, error, error_size);
        if (result != LINE_READ)
            return result;
        any = true;
    }
    if (!any) {
        lines->line--;
        return LINE_END;
    }
    lines->text[length] = '\0';
    lines->length = length;
    if (memchr(lines->text, '\0', length))
        return bad(lines, error, error_size, "unexpected NUL byte");
    return LINE_READ;
}
