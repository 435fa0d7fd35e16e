/* pmubench emulate [-m MODEL] [-F NAME=VALUE]... [-o TRACE] [--vcd FILE] [--ht] -- PROGRAM
 * ARGS...
 *
 * The arguments and the messages of running PROGRAM on a simulated
 * machine (docs/emulate.md); the run itself is apps/emulate/emulate.h's. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "apps/emulate/emulate.h"
#include "commands.h"
#include "exit_status.h"
#include "option_once.h"
#include "pmu/waveform/gtkw.h"
#include "util/file_identity.h"

static const char emulate_usage[] =
    "usage: pmubench emulate [-m MODEL] [-F NAME=VALUE]... [-o TRACE] [--vcd FILE] [--ht]\n"
    "                        [--] PROGRAM [ARGS...]\n"
    "  -m MODEL       the machine: netburst (default), netburst-PRESET, p5, pmmx, host\n"
    "  -F NAME=VALUE  set one model parameter (the model's docs list them)\n"
    "  -o TRACE       also write the run's trace to TRACE (docs/traces.md)\n"
    "  --vcd FILE     also write the PMU's waveform, every cycle, to FILE, and a\n"
    "                 GTKWave save file beside it (FILE.vcd -> FILE.gtkw)\n"
    "  --ht           Hyper-Threading (NetBurst): PROGRAM on logical processor 0,\n"
    "                 /dev/cpu/1/msr the PMU as logical processor 1 sees it\n"
    "Runs PROGRAM under valgrind with the pmutrace tool, its instructions simulated\n"
    "as they retire; its pread and pwrite of /dev/cpu/N/msr reach the machine's\n"
    "emulated PMU (docs/emulate.md), and so do the programs it runs.  Exits with\n"
    "PROGRAM's exit status.\n";

static const struct cli_option emulate_option_list[] = {
    {"-m", true}, {"-F", true}, {"-o", true}, {"--vcd", true}, {"--ht", false}, {NULL, false}
};
const struct option_table emulate_option_table = {emulate_option_list, true};

enum { MAX_PARAMS = 32 };

/* The machine of -m and the -F parameters; the exit status of a bad one,
 * or -1. */
static int choose_machine(const char *model, char **params, int n_params,
                          struct machine_config *config)
{
    char error[512];
    if (!machine_config_choose(model, config, error, sizeof error))
        return command_error(EXIT_BAD_INPUT, "emulate", "-m: %s", error);
    for (int i = 0; i < n_params; i++) {
        enum machine_assignment set = machine_config_assign(config, params[i], error, sizeof error);
        if (set == MACHINE_NOT_ASSIGNMENT)
            return usage_error("emulate", "bad -F '%s' (expected NAME=VALUE)", params[i]);
        if (set == MACHINE_REFUSED)
            return command_error(EXIT_BAD_INPUT, "emulate", "-F: %s", error);
    }
    return -1;
}

int cmd_emulate(int argc, char **argv)
{
    const char *model = "netburst";
    const char *output = NULL, *vcd = NULL;
    bool hyper_threading = false;
    char *params[MAX_PARAMS];
    int n_params = 0;
    struct options_given given = {0}; /* -F may repeat */
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--help") == 0) {
            fputs(emulate_usage, stdout);
            return 0;
        }
        if (strcmp(argv[i], "-F") != 0 && argv[i][0] == '-' &&
            !option_once(&given, "emulate", argv[i]))
            return EXIT_BAD_INPUT;
        if (strcmp(argv[i], "-m") == 0) {
            if (++i == argc)
                return usage_error("emulate", "-m needs a value");
            model = argv[i];
        } else if (strcmp(argv[i], "-o") == 0) {
            if (++i == argc)
                return usage_error("emulate", "-o needs a value");
            output = argv[i];
        } else if (strcmp(argv[i], "--vcd") == 0) {
            if (++i == argc)
                return usage_error("emulate", "--vcd needs a value");
            vcd = argv[i];
        } else if (strcmp(argv[i], "--ht") == 0) {
            hyper_threading = true;
        } else if (strcmp(argv[i], "-F") == 0) {
            if (++i == argc)
                return usage_error("emulate", "-F needs a value");
            if (n_params == MAX_PARAMS)
                return usage_error("emulate", "more than %d -F parameters", MAX_PARAMS);
            params[n_params++] = argv[i];
        } else if (argv[i][0] == '-') {
            return option_table_unknown(&emulate_option_table, "emulate", argv[i]);
        } else {
            break;
        }
    }
    if (i == argc)
        return usage_error("emulate", "no program to run");
    char gtkw[PATH_MAX + 8];
    if (vcd && !gtkw_path_for(vcd, gtkw, sizeof gtkw))
        return usage_error("emulate", "--vcd '%.100s...': name too long", vcd);
    const struct named_file outputs[] = {{"-o", output, FILE_WRITE},
                                         {"--vcd", vcd, FILE_WRITE},
                                         {"the .gtkw of --vcd", vcd ? gtkw : NULL, FILE_WRITE}};
    char message[MESSAGE_SIZE];
    if (!files_distinct(outputs, 3, message, sizeof message))
        return command_error(EXIT_BAD_INPUT, "emulate", "%s", message);
    struct machine_config config;
    int bad = choose_machine(model, params, n_params, &config);
    if (bad >= 0)
        return bad;
    /* The program's CPUID describes the part of the model, as record --cpu
     * MODEL's (the same names). */
    struct emulate_options options = {.argv = argv + i, .config = &config, .output = output,
                                      .cpu = model, .hyper_threading = hyper_threading,
                                      .vcd_path = vcd, .gtkw_path = vcd ? gtkw : NULL};
    struct emulate_result result;
    char error[PATH_MAX + 2048];
    enum emulate_status ran = emulate_run(&options, &result, error, sizeof error);
    if (ran != EMULATE_OK)
        return command_error(ran == EMULATE_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_RUNTIME,
                             "emulate", "%s", error);
    fprintf(stderr,
            "pmubench emulate: %s: %" PRIu64 " instructions, %" PRIu64 " cycles, %" PRIu64
            " MSR reads, %" PRIu64 " MSR writes (%" PRIu64 " failed)\n",
            argv[i], result.simulated.instructions[0], result.simulated.cycles,
            result.msr_reads, result.msr_writes, result.msr_failed);
    return result.exit_status;
}
