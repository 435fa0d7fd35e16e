/* A command's options as a table: each option's name and whether it takes
 * a value.  main.c splits every command's arguments with it before the
 * command parses them, so that each option's value may be attached as
 * getopt and perf take it -- "-x," for "-x ,", "-j2", "-eEVENT",
 * "--field=VALUE" for "--field VALUE" -- in every command alike (README,
 * "Options").  tests/cli_options.sh checks that each command's --help names
 * every option of its table. */
#ifndef CLI_OPTION_TABLE_H
#define CLI_OPTION_TABLE_H

#include <stdbool.h>

struct cli_option {
    const char *name;  /* "-x" or "--long" */
    bool value;        /* takes a value: the next argument, or attached */
};

struct option_table {
    const struct cli_option *options;  /* ends with {NULL, false}; --help and -h not listed */
    /* The first operand ends the options: what follows is PROGRAM
     * [ARGS...] or event strings, passed on as they are. */
    bool operands_end;
};

/* Whether `arg` is an option of the table that takes a value. */
bool option_takes_value(const struct option_table *table, const char *arg);

/* argv (argc strings) with each attached value of a value-taking option
 * apart: "-xVAL" as "-x" "VAL", "--name=VAL" as "--name" "VAL".  An
 * argument after a value-taking option is its value and is left alone, as
 * is everything after "--" (and after the first operand with
 * operands_end); an attached form of an option the table does not list as
 * taking a value stays whole, for the command to refuse.  "-h" becomes
 * "--help", so that every command takes both and compares with "--help"
 * alone.  Returns a new array of *split_argc pointers and a NULL (free it;
 * the strings are argv's, the table's, inside argv's or "--help"), or NULL
 * when out of memory. */
char **option_table_split(const struct option_table *table, int argc, char **argv,
                          int *split_argc);

/* The long option of the table (or --help) nearest `arg`, an option the
 * table does not list, when one is near (util/suggest.h); else NULL.  An
 * attached form, "--NAME=VALUE", is NAME against the options that take a
 * value ("--json=yes" gets no guess).  Short options are never guessed:
 * every one letter is one edit from every other. */
const char *option_table_nearest(const struct option_table *table, const char *arg);

/* The argument error for `arg`, an option `command` does not take:
 * "pmubench COMMAND: unknown option 'ARG'", with "(did you mean
 * '--NAME'?)" after it when option_table_nearest finds one, and the try
 * line (cli/exit_status.h).  EXIT_BAD_INPUT. */
int option_table_unknown(const struct option_table *table, const char *command, const char *arg);

#endif
