#include <stdio.h>

#include "bench.h"

void bench_format_error(char *error, size_t error_size, const char *path, int line,
                        const char *fmt, va_list ap)
{
    int used = path ? snprintf(error, error_size, "%s:%d: ", path, line) : 0;
    if (used >= 0 && (size_t)used < error_size)
        vsnprintf(error + used, error_size - (size_t)used, fmt, ap);
}
