#include "exit_status.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>

#include "util/text.h"

/* One line on stderr: "pmubench COMMAND: " ("pmubench: " for NULL, nothing
 * without `prefixed`), then the message escaped. */
static void print_line(bool prefixed, const char *command, const char *format, va_list ap)
{
    char message[2 * MESSAGE_SIZE]; /* a message and its context */
    vsnprintf(message, sizeof message, format, ap);
    if (prefixed)
        fprintf(stderr, "pmubench%s%s: ", command ? " " : "", command ? command : "");
    text_print_escaped(stderr, message);
    fputc('\n', stderr);
}

int usage_error(const char *command, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    print_line(true, command, format, ap);
    va_end(ap);
    fprintf(stderr, "try 'pmubench%s%s --help'\n", command ? " " : "", command ? command : "");
    return EXIT_BAD_INPUT;
}

int command_error(int status, const char *command, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    print_line(true, command, format, ap);
    va_end(ap);
    return status;
}

int file_error(int status, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    print_line(false, NULL, format, ap);
    va_end(ap);
    return status;
}

int failure_status(int error_number)
{
    switch (error_number) {
    case ENOMEM:
    case EIO:
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
    case EMFILE:
    case ENFILE:
        return EXIT_RUNTIME;
    default:
        return EXIT_BAD_INPUT;
    }
}
