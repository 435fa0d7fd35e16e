/* pmubench: one binary, subcommands like git or perf. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "exit_status.h"
#include "util/suggest.h"
#include "traces/trace.h"

/* pmubench's release; traces carry a format version of their own
 * (TRACE_VERSION, docs/traces.md). */
#define PMUBENCH_VERSION "0.11.0"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const struct option_table *options;
    const char *summary;
} commands[] = {
    {"run", cmd_run, &run_option_table,
     "run a bench script cycle by cycle against the simulated PMU"},
    {"encode", cmd_encode, &encode_option_table,
     "print the ESCR/CCCR (or CESR) values for event strings"},
    {"decode", cmd_decode, &decode_option_table,
     "decode raw ESCR/CCCR/PEBS/CESR values and check them"},
    {"list", cmd_list, &list_option_table,
     "list the event catalogs"},
    {"alloc", cmd_alloc, &alloc_option_table,
     "plan events onto ESCRs and counters in the fewest runs"},
    {"trace", cmd_trace, &trace_option_table,
     "import, summarise and print traces"},
    {"record", cmd_record, &record_option_table,
     "record a program's run as a trace (valgrind pmutrace)"},
    {"emulate", cmd_emulate, &emulate_option_table,
     "run a program on a simulated machine, its /dev/cpu/0/msr emulated"},
    {"stat", cmd_stat, &stat_option_table,
     "count events of a trace or program on a simulated model (or hardware)"},
    {"p5mon", cmd_p5mon, &p5mon_option_table,
     "run_p5mon-compatible driver: PARMS file, event pairs, confidence intervals"},
    {"sample", cmd_sample, &sample_option_table,
     "PEBS records or IEBS samples of a trace on the simulated NetBurst"},
    {"compare", cmd_compare, &compare_option_table,
     "put two count sets side by side (Table 5.6 layout)"},
    {"sweep", cmd_sweep, &sweep_option_table,
     "stat jobs over traces x models x parameters (GNU parallel, Slurm)"},
    {"plot", cmd_plot, &plot_option_table,
     "draw a stat result as SVG: counts per interval, IPC, or bars"},
};

static void usage(FILE *to)
{
    fprintf(to, "usage: pmubench COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(to, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(to, "\n'pmubench COMMAND --help' or 'pmubench help COMMAND' describes a command;\n"
                "'pmubench --version' (-V) prints the version.\n");
}

/* Standard output flushed and closed, and checked: a command that
 * succeeded but whose output could not be written (a full disk, a closed
 * pipe) failed, EXIT_RUNTIME, with one line naming the reason.  A
 * standard output closed before pmubench started (>&-) is no failure
 * when nothing was written to it (the close's EBADF, as gnulib's
 * close_stream has it). */
static int output_written(const char *command, int status)
{
    errno = 0;
    bool failed = fflush(stdout) != 0 || ferror(stdout);
    int err = errno;
    if (fclose(stdout) != 0 && !failed && errno != EBADF) {
        failed = true;
        err = errno;
    }
    if (!failed || status != EXIT_OK)
        return status;
    return command_error(EXIT_RUNTIME, command, "standard output: %s",
                         strerror(err ? err : EIO));
}

/* The command named `name`, or NULL after the usage error "unknown
 * command 'NAME'", with the nearest command's name when one is near
 * (util/suggest.h). */
static const struct command *find_command(const char *name)
{
    struct suggestion near;
    suggestion_start(&near, name);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(name, commands[i].name) == 0)
            return &commands[i];
        suggestion_consider(&near, commands[i].name);
    }
    if (near.best)
        usage_error(NULL, "unknown command '%s' (did you mean '%s'?)", name, near.best);
    else
        usage_error(NULL, "unknown command '%s'", name);
    return NULL;
}

/* The command on argv, its options split by its table (cli/option_table.h). */
static int run_command(const struct command *command, int argc, char **argv)
{
    int split_argc;
    char **split = option_table_split(command->options, argc, argv, &split_argc);
    if (!split)
        return command_error(EXIT_RUNTIME, command->name, "out of memory");
    int status = output_written(command->name, command->run(split_argc, split));
    free(split);
    return status;
}

/* pmubench help COMMAND: the command's --help. */
static int help(int argc, char **argv)
{
    if (argc > 3)
        return usage_error(NULL, "help: one command at a time ('%s' and '%s')", argv[2], argv[3]);
    const struct command *command = find_command(argv[2]);
    if (!command)
        return EXIT_BAD_INPUT;
    char *help_argv[] = {(char *)command->name, "--help", NULL};
    return run_command(command, 2, help_argv);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if (strcmp(argv[1], "help") == 0 && argc > 2)
        return help(argc, argv);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return output_written(NULL, EXIT_OK);
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("pmubench %s (trace format %d)\n", PMUBENCH_VERSION, TRACE_VERSION);
        return output_written(NULL, EXIT_OK);
    }
    const struct command *command = find_command(argv[1]);
    return command ? run_command(command, argc - 1, argv + 1) : EXIT_BAD_INPUT;
}
