#include "option_once.h"

#include <string.h>

#include "exit_status.h"

bool option_once(struct options_given *given, const char *command, const char *option)
{
    for (int i = 0; i < given->n; i++)
        if (strcmp(given->names[i], option) == 0) {
            usage_error(command, "%s given twice (each option once)", option);
            return false;
        }
    if (given->n < MAX_ONCE_OPTIONS)
        given->names[given->n++] = option;
    return true;
}
