/* pmubench record [-o FILE] [--registers] [--cpu CPU] -- PROGRAM ARGS...
 * pmubench record --env
 *
 * The arguments and the messages of recording a run of PROGRAM as a
 * pmubench trace (docs/traces.md, "Recording"); the recording itself is
 * traces/record.h's. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "exit_status.h"
#include "option_once.h"
#include "progress.h"
#include "record_outcome.h"
#include "traces/run_env.h"

static const char record_usage[] =
    "usage: pmubench record [-o FILE] [--registers] [--cpu CPU] [--] PROGRAM [ARGS...]\n"
    "       pmubench record --env\n"
    "  -o FILE   the trace (default: PROGRAM's basename + \".pmutrace\")\n"
    "  --registers  record the general registers and flags after every\n"
    "            instruction (a larger trace, a slower recording)\n"
    "  --cpu CPU the CPU PROGRAM's CPUID describes: host (default: this machine's,\n"
    "            without the features the recorder does not execute), p5, pmmx,\n"
    "            netburst (= netburst-northwood), netburst-willamette,\n"
    "            netburst-willamette0, netburst-northwood, netburst-prescott or\n"
    "            netburst-prescott4 (the parts of stat -m's models)\n"
    "  --env     print the environment variables host-view recordings use\n"
    "            (NAME=VALUE lines); native runs to compare with must use the same\n"
    "Runs PROGRAM under valgrind with the pmutrace tool (from $PMUBENCH_RECORDER_DIR\n"
    "or recorder/ beside pmubench) and exits with PROGRAM's exit status (128 + the\n"
    "signal if a signal killed it).  The trace is written whole or not at all.\n";

/* The options of 'pmubench record' (cli/option_table.h); --help and -h besides. */
static const struct cli_option record_option_list[] = {
    {"-o", true}, {"--registers", false}, {"--cpu", true}, {"--env", false}, {NULL, false}
};
const struct option_table record_option_table = {record_option_list, true};

bool record_outcome(const char *command, const char *program, enum record_status recorded,
                   const struct record_result *result, const char *error, int *status)
{
    if (result->execed)
        command_error(EXIT_OK, command,
                      "%s called execve: the trace ends there (the new program is not recorded)",
                      program);
    if (recorded == RECORD_OK) {
        *status = result->exit_status;
        return true;
    }
    *status = command_error(recorded == RECORD_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_RUNTIME,
                            command, "%s", error);
    return false;
}

static int print_env(void)
{
    for (int i = 0; i < run_env_count; i++)
        printf("%s=%s\n", run_env[i].name, run_env[i].value);
    return 0;
}

int cmd_record(int argc, char **argv)
{
    const char *out = NULL, *cpu = NULL;
    bool registers = false;
    struct options_given given = {0};
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--help") == 0) {
            fputs(record_usage, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--env") == 0)
            return print_env();
        if (argv[i][0] == '-' && !option_once(&given, "record", argv[i]))
            return EXIT_BAD_INPUT;
        if (strcmp(argv[i], "--registers") == 0) {
            registers = true;
        } else if (strcmp(argv[i], "-o") == 0) {
            if (++i == argc)
                return usage_error("record", "-o needs a value");
            out = argv[i];
        } else if (strcmp(argv[i], "--cpu") == 0) {
            if (++i == argc)
                return usage_error("record", "--cpu needs a value");
            cpu = argv[i];
        } else if (argv[i][0] == '-') {
            return option_table_unknown(&record_option_table, "record", argv[i]);
        } else {
            break;
        }
    }
    if (i == argc)
        return usage_error("record", "no program to record");
    struct cli_progress progress;
    cli_progress_start_recording(&progress);
    struct record_options options = {.argv = argv + i, .output = out, .registers = registers,
                                     .progress = cli_progress_hook(&progress), .cpu = cpu};
    char error[PATH_MAX + 2048];
    struct record_result result;
    enum record_status recorded = record_run(&options, &result, error, sizeof error);
    cli_progress_end(&progress);
    int status;
    /* stat and p5mon say it of 64-bit code on such a model themselves */
    if (record_outcome("record", options.argv[0], recorded, &result, error, &status) &&
        result.cpu_widened)
        command_error(EXIT_OK, "record",
                      "warning: %s is a 64-bit program, which the %s could not run: it saw the "
                      "part's CPUID with the x86-64 baseline added (docs/traces.md, \"The CPU "
                      "view\")",
                      options.argv[0], cpu);
    return status;
}
