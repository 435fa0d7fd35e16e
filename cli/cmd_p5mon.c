/* pmubench p5mon [PARMS] [-F name=value ...]
 *
 * run_p5mon (Safford 1997, chapter 4, appendix C) on the simulated P5: reads
 * the IMPACT PARMS file, measures the selected events two at a time over
 * the repetitions by simulating a trace (recording `command` first when no
 * trace is given), prints the report and writes the output file.
 * docs/p5mon.md. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/file_identity.h"
#include "commands.h"
#include "exit_status.h"
#include "progress.h"
#include "record_outcome.h"
#include "util/text.h"
#include "sim/machine/machine.h"
#include "apps/p5mon/command.h"
#include "apps/p5mon/driver.h"
#include "apps/p5mon/parms.h"
#include "apps/p5mon/print.h"
#include "traces/run_env.h"

static const char p5mon_usage[] =
    "usage: pmubench p5mon [PARMS] [-F name=value | -Fname=value ...]\n"
    "  PARMS     an IMPACT parameter file with a (p5mon section (default:\n"
    "            ./STD_PARMS when it exists)\n"
    "  -F        sets or replaces one parameter\n"
    "Parameters: Table C.1 of Safford 1997 (command, repetitions, the 38 events,\n"
    "count_clocks...), and trace, model, model_NAME, interval (docs/p5mon.md).\n";

/* The options of 'pmubench p5mon' (cli/option_table.h); --help and -h besides. */
static const struct cli_option p5mon_option_list[] = {
    {"-F", true}, {NULL, false}
};
const struct option_table p5mon_option_table = {p5mon_option_list, false};

static const char default_parms[] = "./STD_PARMS";

struct options {
    const char *parms_file;       /* NULL: none */
    int n_overrides;
    char **overrides;             /* "name=value", in order */
    char arguments[8192];         /* the -F arguments, for the header */
};

/* One -F argument for the header, in run_p5mon's form "-Fname=value"
 * (Safford 1997, Figure 4.2) however it was typed. */
static void note_argument(struct options *options, const char *setting)
{
    size_t used = strlen(options->arguments);
    snprintf(options->arguments + used, sizeof options->arguments - used, "%s-F%s",
             used ? " " : "", setting);
}

/* 0 on success, else the exit status. */
static int parse_options(int argc, char **argv, struct options *options)
{
    options->overrides = calloc((size_t)argc, sizeof *options->overrides);
    if (!options->overrides)
        return command_error(EXIT_RUNTIME, "p5mon", "out of memory");
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0) {
            fputs(p5mon_usage, stdout);
            return -1;
        }
        if (strcmp(arg, "-F") == 0) {
            if (i + 1 == argc)
                return usage_error("p5mon", "%s needs name=value", arg);
            note_argument(options, argv[i + 1]);
            options->overrides[options->n_overrides++] = argv[++i];
        } else if (arg[0] == '-' && arg[1]) {
            return option_table_unknown(&p5mon_option_table, "p5mon", arg);
        } else if (options->parms_file) {
            return usage_error("p5mon", "one PARMS file at a time (also '%s')", arg);
        } else {
            options->parms_file = arg;
        }
    }
    return 0;
}

/* Reads PARMS (or ./STD_PARMS), applies the -F arguments, checks
 * (apps/p5mon/parms.h). */
static bool load_parms(struct options *options, struct p5mon_parms *parms, char *error,
                       size_t error_size)
{
    if (!options->parms_file && access(default_parms, F_OK) == 0)
        options->parms_file = default_parms;
    return p5mon_parms_load(options->parms_file, options->overrides, options->n_overrides, parms,
                            error, error_size);
}

/* ---- Recording `command` when no trace is given (apps/p5mon/command.h) */

/* Records the command into a temporary trace as `pmubench record` does:
 * 0, or the exit status after the message (record's own, when it said
 * why). */
static int record_command(const struct p5mon_parms *parms, const struct p5mon_command *command,
                          struct cleanup_file *temporary, char *trace, size_t size)
{
    char error[PATH_MAX + 2048];
    enum record_status recorded;
    struct record_result result;
    struct cli_progress progress;
    cli_progress_start_recording(&progress);
    errno = 0;
    enum p5mon_record_status status =
        p5mon_record_command(command, parms->model.value, cli_progress_hook(&progress),
                             temporary, trace, size, &recorded, &result, error, sizeof error);
    int failure = errno;
    cli_progress_end(&progress);
    int exit_status; /* the program's is not p5mon's */
    switch (status) {
    case P5MON_RECORDED:
        break;
    case P5MON_NO_INPUT:
        return file_error(failure_status(failure), "%s", error);
    case P5MON_NO_OUTPUT:
        return file_error(EXIT_RUNTIME, "%s", error);
    case P5MON_NOT_RECORDED:
        record_outcome("p5mon", command->words[0], recorded, &result, error, &exit_status);
        return exit_status;
    }
    return EXIT_OK;
}

/* ---- Simulating */

struct simulation {
    const char *trace;
    bool failed; /* the model's message, which names the trace */
};

static bool simulate(void *context, struct machine *machine, const struct machine_hooks *hooks,
                     char *error, size_t error_size)
{
    struct simulation *simulation = context;
    struct machine_result result;
    simulation->failed =
        !machine_simulate(machine, &simulation->trace, hooks, &result, error, error_size);
    return !simulation->failed;
}

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

static void print_header(const struct options *options, const struct p5mon_parms *parms,
                         const char *trace)
{
    time_t now = time(NULL);
    char started[64], directory[4096];
    snprintf(started, sizeof started, "%s", ctime(&now));
    started[strcspn(started, "\n")] = '\0';
    if (!getcwd(directory, sizeof directory))
        snprintf(directory, sizeof directory, "(unknown)");
    /* the user's text escaped (util/text.h) */
    static char where[4 * sizeof directory], parms_file[4 * PATH_MAX],
        arguments[4 * sizeof options->arguments], command[4 * P5MON_MAX_LINE],
        trace_name[4 * PATH_MAX];
    text_escape(where, sizeof where, directory);
    text_escape(parms_file, sizeof parms_file, options->parms_file ? options->parms_file : "(none)");
    text_escape(arguments, sizeof arguments, options->arguments);
    text_escape(command, sizeof command,
                parms->command.value[0] ? parms->command.value : "(none)");
    text_escape(trace_name, sizeof trace_name, trace);
    struct p5mon_header header = {
        .started = started,
        .directory = where,
        .parms_file = parms_file,
        .arguments = arguments,
        .command = command,
        .trace = trace_name,
    };
    p5mon_print_header(stdout, &header);
}

/* Measures, reports, writes the output file: the exit status. */
static int measure(const struct options *options, const struct p5mon_parms *parms,
                   const struct machine_config *config, const char *trace)
{
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    print_header(options, parms, trace);
    struct simulation simulation = {trace, false};
    struct p5mon_results results;
    char error[MESSAGE_SIZE];
    /* A trace recorded from `command` is named by the program. */
    const char *name = parms->trace.value[0] ? trace : parms->command.value;
    if (machine_isa_warning(config, trace, name, error, sizeof error))
        command_error(EXIT_OK, "p5mon", "warning: %s", error);
    errno = 0;
    if (!p5mon_measure(parms, config, simulate, &simulation, stderr, &results, error,
                       sizeof error))
        return simulation.failed ? file_error(failure_status(errno), "%s", error)
                                 : file_error(failure_status(errno), "%s: %s", name, error);
    p5mon_print_results(stdout, &results);
    p5mon_print_timing(stdout, seconds_since(&start), results.executions);
    int status = 0;
    if (parms->output_file.value[0] &&
        !p5mon_write_output(parms->output_file.value, &results, error, sizeof error))
        status = file_error(EXIT_RUNTIME, "%s", error);
    p5mon_results_free(&results);
    return status;
}

/* Records the command into a temporary trace and measures that. */
static int record_and_measure(const struct options *options, const struct p5mon_parms *parms,
                              const struct machine_config *config,
                              const struct p5mon_command *command)
{
    char trace[PATH_MAX];
    struct cleanup_file temporary; /* removed by a signal too */
    int status = record_command(parms, command, &temporary, trace, sizeof trace);
    if (status == EXIT_OK) {
        status = measure(options, parms, config, trace);
        cleanup_remove_file(&temporary);
    }
    return status;
}

/* No output (output_file, the command's > file) over an input (PARMS, the
 * trace, the command's program and < file) or over the other output; `line`
 * is NULL when nothing is recorded.  0 or 2. */
static int check_files(const struct options *options, const struct p5mon_parms *parms,
                       const struct p5mon_command *line)
{
    char program[PATH_MAX], error[2200];
    bool found = line && run_find_program(line->words[0], program, sizeof program, error,
                                          sizeof error);
    const struct named_file files[] = {
        {"PARMS", options->parms_file, FILE_READ},
        {"trace", parms->trace.value[0] ? parms->trace.value : NULL, FILE_READ},
        {"command", found ? program : NULL, FILE_READ},
        {"command <", line ? line->input : NULL, FILE_READ},
        {"output_file", parms->output_file.value[0] ? parms->output_file.value : NULL,
         FILE_WRITE},
        {"command >", line ? line->output : NULL, FILE_WRITE},
    };
    if (files_distinct(files, sizeof files / sizeof files[0], error, sizeof error))
        return 0;
    return command_error(EXIT_BAD_INPUT, "p5mon", "%s", error);
}

static int run(struct options *options, struct p5mon_parms *parms)
{
    char error[8192];
    struct machine_config config;
    errno = 0;
    if (!load_parms(options, parms, error, sizeof error) ||
        !p5mon_parms_model(parms, &config, error, sizeof error))
        return file_error(failure_status(errno), "%s", error);
    if (!parms->user_events && !parms->kernel_events)
        command_error(EXIT_OK, "p5mon", "warning: user_events and kernel_events are both no: "
                                        "nothing is counted");
    struct p5mon_command line = {0};
    bool recording = !parms->trace.value[0];
    errno = 0;
    if (recording && !p5mon_command_parse(&parms->command, &line, error, sizeof error)) {
        p5mon_command_free(&line);
        return file_error(failure_status(errno), "%s", error);
    }
    int status = check_files(options, parms, recording ? &line : NULL);
    if (status == 0)
        status = recording ? record_and_measure(options, parms, &config, &line)
                           : measure(options, parms, &config, parms->trace.value);
    p5mon_command_free(&line);
    return status;
}

int cmd_p5mon(int argc, char **argv)
{
    struct options options = {0};
    struct p5mon_parms *parms = malloc(sizeof *parms);
    int status = parms ? parse_options(argc, argv, &options)
                       : command_error(EXIT_RUNTIME, "p5mon", "out of memory");
    if (status == 0)
        status = run(&options, parms);
    free(options.overrides);
    free(parms);
    return status < 0 ? 0 : status;
}
