/* pmubench run SCRIPT [--vcd FILE] [--record FILE] [--msr-device PATH] */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/atomic_file.h"
#include "bench/bench.h"
#include "util/file_identity.h"
#include "pmu/waveform/gtkw.h"
#include "commands.h"
#include "exit_status.h"
#include "option_once.h"
#include "pmu/programming/msr_linux.h"
#include "util/input_file.h"

static const char run_usage[] =
    "usage: pmubench run SCRIPT [--vcd FILE] [--record FILE] [--msr-device PATH]\n"
    "  SCRIPT             a bench script ('-' for standard input); see README.md\n"
    "  --vcd FILE         write a waveform (Value Change Dump) of the run, and a\n"
    "                     GTKWave save file beside it (FILE.vcd -> FILE.gtkw)\n"
    "  --record FILE      log every MSR access, one line each\n"
    "  --msr-device PATH  run the script's wrmsr/rdmsr on a real processor through\n"
    "                     the Linux msr driver, e.g. /dev/cpu/%d/msr (never writes\n"
    "                     unless CPUID shows the script's processor family)\n";

/* The options of 'pmubench run' (cli/option_table.h); --help and -h besides. */
static const struct cli_option run_option_list[] = {
    {"--vcd", true}, {"--record", true}, {"--msr-device", true}, {NULL, false}
};
const struct option_table run_option_table = {run_option_list, false};

struct run_args {
    const char *script;
    const char *vcd;
    char gtkw[4200]; /* the save file beside the VCD (pmu/waveform/gtkw.h) */
    const char *record;
    const char *device;
};

static int parse_args(int argc, char **argv, struct run_args *args)
{
    memset(args, 0, sizeof *args);
    struct options_given given = {0};
    for (int i = 1; i < argc; i++) {
        const char **slot = NULL;
        if (argv[i][0] == '-' && argv[i][1] != '\0' && !option_once(&given, "run", argv[i]))
            return EXIT_BAD_INPUT;
        if (strcmp(argv[i], "--help") == 0) {
            fputs(run_usage, stdout);
            return -1;
        }
        if (strcmp(argv[i], "--vcd") == 0)
            slot = &args->vcd;
        else if (strcmp(argv[i], "--record") == 0)
            slot = &args->record;
        else if (strcmp(argv[i], "--msr-device") == 0)
            slot = &args->device;
        if (slot) {
            if (++i == argc)
                return usage_error("run", "%s needs a value", argv[i - 1]);
            *slot = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return option_table_unknown(&run_option_table, "run", argv[i]);
        } else if (args->script) {
            return usage_error("run", "one script at a time ('%s' and '%s')", args->script,
                               argv[i]);
        } else {
            args->script = argv[i];
        }
    }
    if (!args->script)
        return usage_error("run", "no script given");
    if (args->vcd && args->device)
        return usage_error("run", "--vcd needs the simulated PMU, not --msr-device");
    if (args->vcd && !gtkw_path_for(args->vcd, args->gtkw, sizeof args->gtkw))
        return usage_error("run", "--vcd '%.100s...': name too long", args->vcd);
    return 0;
}

/* No output over the script, the device or the other output. */
static int check_files(const struct run_args *args)
{
    bool from_stdin = strcmp(args->script, "-") == 0;
    const struct named_file files[] = {
        {"SCRIPT", args->script, from_stdin ? FILE_READ_STDIN : FILE_READ},
        {"--msr-device", args->device, FILE_READ},
        {"--vcd", args->vcd, FILE_WRITE},
        {"--record", args->record, FILE_WRITE},
        {"the .gtkw of --vcd", args->vcd ? args->gtkw : NULL, FILE_WRITE},
    };
    char error[MESSAGE_SIZE];
    if (files_distinct(files, sizeof files / sizeof files[0], error, sizeof error))
        return 0;
    return command_error(EXIT_BAD_INPUT, "run", "%s", error);
}

/* --msr-device naming a directory is bad input, as every file given is
 * (docs/exit-status.md): said before the script runs, not as the first
 * rdmsr's read error.  (A path with %d is a CPU's, checked when opened.) */
static int check_device(const char *device)
{
    struct stat st;
    if (device && stat(device, &st) == 0 && S_ISDIR(st.st_mode))
        return file_error(EXIT_BAD_INPUT, "%s: is a directory", device);
    return 0;
}

static int load_script(const char *path, struct bench_script *script, char *error, size_t size)
{
    bool from_stdin = strcmp(path, "-") == 0;
    FILE *in = from_stdin ? stdin : input_open(path, error, size);
    if (!in)
        return failure_status(errno);
    int rc = bench_parse(in, from_stdin ? "<stdin>" : path, script, error, size);
    if (!from_stdin)
        fclose(in);
    return rc;
}

static int open_device(const char *device, const struct bench_script *script,
                       struct msr_backend **backend, char *error, size_t size)
{
    *backend = msr_linux_open(device, script->cpu);
    if (*backend)
        return BENCH_OK;
    snprintf(error, size, "%s: %s", device, strerror(errno));
    return BENCH_RUNTIME_ERROR;
}

static int run_script(const struct run_args *args, const struct bench_script *script,
                      char *error, size_t size)
{
    struct bench_options options = {.out = stdout, .vcd_path = args->vcd,
                                    .gtkw_path = args->vcd ? args->gtkw : NULL};
    struct atomic_file record = {0};
    if (args->device && open_device(args->device, script, &options.hardware, error, size))
        return BENCH_RUNTIME_ERROR;
    if (args->record && !atomic_open(&record, args->record, error, size)) {
        msr_backend_destroy(options.hardware);
        return BENCH_RUNTIME_ERROR;
    }
    options.record_log = record.stream;
    int rc = bench_run_whole(script, &options, error, size);
    msr_backend_destroy(options.hardware);
    if (args->record) {
        if (rc == BENCH_OK) {
            if (!atomic_commit(&record, error, size))
                rc = BENCH_RUNTIME_ERROR;
        } else {
            atomic_abort(&record);
        }
    }
    return rc;
}

int cmd_run(int argc, char **argv)
{
    struct run_args args;
    int rc = parse_args(argc, argv, &args);
    if (rc)
        return rc < 0 ? 0 : rc;
    if ((rc = check_files(&args)) || (rc = check_device(args.device)))
        return rc;

    char error[MESSAGE_SIZE];
    struct bench_script script;
    rc = load_script(args.script, &script, error, sizeof error);
    if (rc == BENCH_OK) {
        rc = run_script(&args, &script, error, sizeof error);
        bench_script_free(&script);
    }
    if (fflush(stdout) != 0 && rc == BENCH_OK) {
        snprintf(error, sizeof error, "standard output: %s", strerror(errno));
        rc = BENCH_RUNTIME_ERROR;
    }
    return rc == BENCH_OK ? EXIT_OK : file_error(rc, "%s", error);
}
