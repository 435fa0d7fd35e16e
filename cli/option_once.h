/* Options a command takes at most once: a repeat would silently replace
 * the first value (`decode --escr 1 --escr 2`), so it is an error. */
#ifndef CLI_OPTION_ONCE_H
#define CLI_OPTION_ONCE_H

#include <stdbool.h>

enum { MAX_ONCE_OPTIONS = 16 };

/* The options given so far; start with {0}. */
struct options_given {
    const char *names[MAX_ONCE_OPTIONS];
    int n;
};

/* Notes `option` (an argv string, kept by pointer) as given.  False, after
 * the usage error "pmubench COMMAND: OPTION given twice (each option
 * once)" (cli/exit_status.h; the command exits EXIT_BAD_INPUT), when it
 * was given before. */
bool option_once(struct options_given *given, const char *command, const char *option);

#endif
