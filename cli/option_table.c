#include "option_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_status.h"
#include "util/suggest.h"

/* The table's option named by the first `length` characters of `name`,
 * when it takes a value; else NULL. */
static const char *value_option(const struct option_table *table, const char *name,
                                size_t length)
{
    for (const struct cli_option *o = table->options; o->name; o++)
        if (o->value && strlen(o->name) == length && strncmp(o->name, name, length) == 0)
            return o->name;
    return NULL;
}

bool option_takes_value(const struct option_table *table, const char *arg)
{
    return value_option(table, arg, strlen(arg)) != NULL;
}

/* Where an attached value of `arg` starts ("-xVAL": VAL; "--name=VAL":
 * VAL), with *option the table's name; NULL when `arg` has none. */
static char *attached_value(const struct option_table *table, char *arg, const char **option)
{
    if (arg[0] != '-' || arg[1] == '\0')
        return NULL;
    if (arg[1] == '-') {
        char *equals = strchr(arg, '=');
        *option = equals ? value_option(table, arg, (size_t)(equals - arg)) : NULL;
        return *option ? equals + 1 : NULL;
    }
    *option = arg[2] ? value_option(table, arg, 2) : NULL;
    return *option ? arg + 2 : NULL;
}

char **option_table_split(const struct option_table *table, int argc, char **argv,
                          int *split_argc)
{
    char **out = malloc((2 * (size_t)argc + 1) * sizeof *out);
    if (!out)
        return NULL;
    int n = 0, i = 0;
    if (argc > 0)
        out[n++] = argv[i++]; /* the command's name */
    for (; i < argc; i++) {
        char *arg = argv[i];
        const char *option;
        char *value = attached_value(table, arg, &option);
        bool operand = arg[0] != '-' || arg[1] == '\0';
        if (strcmp(arg, "--") == 0 || (operand && table->operands_end))
            break;
        if (value) {
            out[n++] = (char *)option;
            out[n++] = value;
        } else {
            out[n++] = strcmp(arg, "-h") == 0 ? "--help" : arg;
            if (!operand && option_takes_value(table, arg) && i + 1 < argc)
                out[n++] = argv[++i];
        }
    }
    while (i < argc)
        out[n++] = argv[i++];
    out[n] = NULL;
    *split_argc = n;
    return out;
}

const char *option_table_nearest(const struct option_table *table, const char *arg)
{
    /* "--NAME=VALUE": NAME, against the options that take a value */
    char name[256];
    size_t length = strcspn(arg, "=");
    bool attached = arg[length] == '=';
    snprintf(name, sizeof name, "%.*s", (int)length, arg);
    struct suggestion near;
    suggestion_start(&near, name);
    for (const struct cli_option *o = table->options; o->name; o++)
        if (strncmp(o->name, "--", 2) == 0 && (o->value || !attached))
            suggestion_consider(&near, o->name);
    if (!attached)
        suggestion_consider(&near, "--help");
    return near.best;
}

int option_table_unknown(const struct option_table *table, const char *command, const char *arg)
{
    const char *near = option_table_nearest(table, arg);
    if (near)
        return usage_error(command, "unknown option '%s' (did you mean '%s'?)", arg, near);
    return usage_error(command, "unknown option '%s'", arg);
}
