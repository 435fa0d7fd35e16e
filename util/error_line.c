/* One-line errors of library calls (util/error_line.h). */
#include "util/error_line.h"

#include <errno.h>
#include <stdio.h>

/* The message after the `used` characters already in error[]. */
static bool error_after(int error_number, char *error, size_t error_size, int used,
                        const char *format, va_list ap)
{
    if (used >= 0 && (size_t)used < error_size)
        vsnprintf(error + used, error_size - (size_t)used, format, ap);
    if (error_number)
        errno = error_number;
    return false;
}

bool error_vline(int error_number, char *error, size_t error_size, const char *format,
                 va_list ap)
{
    return error_after(error_number, error, error_size, 0, format, ap);
}

bool error_line(int error_number, char *error, size_t error_size, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    error_vline(error_number, error, error_size, format, ap);
    va_end(ap);
    return false;
}

bool error_at_vline(int error_number, char *error, size_t error_size, const char *path,
                    unsigned long line, const char *format, va_list ap)
{
    int used = snprintf(error, error_size, "%s:%lu: ", path, line);
    return error_after(error_number, error, error_size, used, format, ap);
}

bool error_at_line(int error_number, char *error, size_t error_size, const char *path,
                   unsigned long line, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    error_at_vline(error_number, error, error_size, path, line, format, ap);
    va_end(ap);
    return false;
}

bool error_at_vfile(int error_number, char *error, size_t error_size, const char *path,
                    const char *format, va_list ap)
{
    int used = snprintf(error, error_size, "%s: ", path);
    return error_after(error_number, error, error_size, used, format, ap);
}

bool error_at_voffset(int error_number, char *error, size_t error_size, const char *path,
                      unsigned long long offset, const char *format, va_list ap)
{
    int used = snprintf(error, error_size, "%s: byte offset %llu: ", path, offset);
    return error_after(error_number, error, error_size, used, format, ap);
}

bool error_at_offset(int error_number, char *error, size_t error_size, const char *path,
                     unsigned long long offset, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    error_at_voffset(error_number, error, error_size, path, offset, format, ap);
    va_end(ap);
    return false;
}
