/* One-line errors of library calls (traces/error_line.h). */
#include "traces/error_line.h"

#include <errno.h>
#include <stdio.h>

bool error_vline(int error_number, char *error, size_t error_size, const char *format,
                 va_list ap)
{
    if (error_size > 0)
        vsnprintf(error, error_size, format, ap);
    if (error_number)
        errno = error_number;
    return false;
}

bool error_line(int error_number, char *error, size_t error_size, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    error_vline(error_number, error, error_size, format, ap);
    va_end(ap);
    return false;
}
