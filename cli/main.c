/* pmubench: one binary, subcommands like git or perf. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "exit_status.h"
#include "traces/trace.h"

/* pmubench's release; traces carry a format version of their own
 * (TRACE_VERSION, docs/traces.md). */
#define PMUBENCH_VERSION "0.11.0"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"run", cmd_run, "run a bench script cycle by cycle against the simulated PMU"},
    {"encode", cmd_encode, "print the ESCR/CCCR (or CESR) values for event strings"},
    {"decode", cmd_decode, "decode raw ESCR/CCCR/PEBS/CESR values and check them"},
    {"list", cmd_list, "list the event catalogs"},
    {"alloc", cmd_alloc, "plan events onto ESCRs and counters in the fewest runs"},
    {"trace", cmd_trace, "import, summarise and print traces"},
    {"record", cmd_record, "record a program's run as a trace (valgrind pmutrace)"},
    {"stat", cmd_stat, "count events of a trace or program on a simulated model (or hardware)"},
    {"p5mon", cmd_p5mon, "run_p5mon-compatible driver: PARMS file, event pairs, confidence intervals"},
    {"sample", cmd_sample, "PEBS records or IEBS samples of a trace on the simulated NetBurst"},
    {"compare", cmd_compare, "put two count sets side by side (Table 5.6 layout)"},
    {"sweep", cmd_sweep, "stat jobs over traces x models x parameters (GNU parallel, Slurm)"},
    {"plot", cmd_plot, "draw a stat result as SVG: counts per interval, IPC, or bars"},
};

static void usage(FILE *to)
{
    fprintf(to, "usage: pmubench COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(to, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(to, "\n'pmubench COMMAND --help' describes a command; 'pmubench --version' (-V)\n"
                "prints the version.\n");
}

/* A command that succeeded but whose standard output could not be written
 * (a full disk, a closed pipe) failed: EXIT_RUNTIME. */
static int output_written(const char *command, int status)
{
    if (status != EXIT_OK || (fflush(stdout) == 0 && !ferror(stdout)))
        return status;
    return command_error(EXIT_RUNTIME, command, "standard output: %s", strerror(errno));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("pmubench %s (trace format %d)\n", PMUBENCH_VERSION, TRACE_VERSION);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return output_written(commands[i].name, commands[i].run(argc - 1, argv + 1));
    return usage_error(NULL, "unknown command '%s'", argv[1]);
}
