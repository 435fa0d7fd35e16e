/* pmubench run SCRIPT [--vcd FILE] [--record FILE] [--msr-device PATH] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/atomic_file.h"
#include "bench/bench.h"
#include "commands.h"
#include "pmu/msr_linux.h"

static const char run_usage[] =
    "usage: pmubench run SCRIPT [--vcd FILE] [--record FILE] [--msr-device PATH]\n"
    "  SCRIPT             a bench script ('-' for standard input); see README.md\n"
    "  --vcd FILE         write a waveform (Value Change Dump) of the run\n"
    "  --record FILE      log every MSR access, one line each\n"
    "  --msr-device PATH  run the script's wrmsr/rdmsr on a real processor through\n"
    "                     the Linux msr driver, e.g. /dev/cpu/%d/msr (never writes\n"
    "                     unless CPUID shows the script's processor family)\n";

struct run_args {
    const char *script;
    const char *vcd;
    const char *record;
    const char *device;
};

static int parse_args(int argc, char **argv, struct run_args *args)
{
    memset(args, 0, sizeof *args);
    for (int i = 1; i < argc; i++) {
        const char **slot = NULL;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
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
            if (++i == argc) {
                fprintf(stderr, "pmubench run: %s needs a value\n", argv[i - 1]);
                return 2;
            }
            *slot = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "pmubench run: unknown option '%s'\n%s", argv[i], run_usage);
            return 2;
        } else if (args->script) {
            fprintf(stderr, "pmubench run: one script at a time ('%s' and '%s')\n",
                    args->script, argv[i]);
            return 2;
        } else {
            args->script = argv[i];
        }
    }
    if (!args->script) {
        fprintf(stderr, "pmubench run: no script given\n%s", run_usage);
        return 2;
    }
    if (args->vcd && args->device) {
        fprintf(stderr, "pmubench run: --vcd needs the simulated PMU, not --msr-device\n");
        return 2;
    }
    if (args->vcd && args->record && strcmp(args->vcd, args->record) == 0) {
        fprintf(stderr, "pmubench run: --vcd and --record name the same file '%s'\n", args->vcd);
        return 2;
    }
    return 0;
}

static int load_script(const char *path, struct bench_script *script, char *error, size_t size)
{
    bool from_stdin = strcmp(path, "-") == 0;
    FILE *in = from_stdin ? stdin : fopen(path, "r");
    if (!in) {
        snprintf(error, size, "%s: cannot open: %s", path, strerror(errno));
        return BENCH_SCRIPT_ERROR;
    }
    int rc = bench_parse(in, from_stdin ? "<stdin>" : path, script, error, size);
    if (!from_stdin)
        fclose(in);
    return rc;
}

static int open_device(const char *device, const struct bench_script *script,
                       struct msr_backend **backend, char *error, size_t size)
{
    enum msr_target target = script->cpu == BENCH_P5 ? MSR_TARGET_P5 : MSR_TARGET_NETBURST;
    *backend = msr_linux_create(device, target, cpu_identity_read);
    if (*backend)
        return BENCH_OK;
    snprintf(error, size, "%.200s: %s", device, strerror(errno));
    return BENCH_RUNTIME_ERROR;
}

/* Runs with the statement output collected in memory, so that stdout gets
 * all of it after a successful run and none of it after a failure. */
static int run_collecting_output(const struct bench_script *script, struct bench_options *options,
                                 char *error, size_t size)
{
    char *text = NULL;
    size_t length = 0;
    options->out = open_memstream(&text, &length);
    if (!options->out) {
        snprintf(error, size, "out of memory");
        return BENCH_RUNTIME_ERROR;
    }
    int rc = bench_run(script, options, error, size);
    fclose(options->out);
    if (rc == BENCH_OK)
        fwrite(text, 1, length, stdout);
    free(text);
    return rc;
}

static int run_script(const struct run_args *args, const struct bench_script *script,
                      char *error, size_t size)
{
    struct bench_options options = {.vcd_path = args->vcd};
    struct atomic_file record = {0};
    if (args->device && open_device(args->device, script, &options.hardware, error, size))
        return BENCH_RUNTIME_ERROR;
    if (args->record && !atomic_open(&record, args->record, error, size)) {
        msr_backend_destroy(options.hardware);
        return BENCH_RUNTIME_ERROR;
    }
    options.record_log = record.stream;
    int rc = run_collecting_output(script, &options, error, size);
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

    char error[1024];
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
    if (rc != BENCH_OK)
        fprintf(stderr, "%s\n", error);
    return rc;
}
