/* pmubench sweep: the cross product of traces, models and parameter values
 * as `pmubench stat` jobs through GNU parallel or a Slurm job array,
 * merged into one table (docs/sweep.md). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/atomic_file.h"
#include "commands.h"
#include "exit_status.h"
#include "option_once.h"
#include "util/number.h"
#include "apps/sweep/sweep.h"

static const char sweep_usage[] =
    "usage: pmubench sweep [--dir DIR] [-j N] [--sshloginfile FILE] [--csv FILE] [--json FILE]\n"
    "                      [--dry-run | --slurm SCRIPT | --merge] SPEC\n"
    "  runs every job of SPEC (traces x models x param values, docs/sweep.md) still\n"
    "  without a result as 'pmubench stat --json' through GNU parallel, then merges\n"
    "  the results into one table, a row per job (CSV on standard output by default)\n"
    "  --dir DIR             the jobs' results, one file per job (default SPEC.results)\n"
    "  -j N                  N jobs at a time on each machine (default: GNU parallel's,\n"
    "                        one per core)\n"
    "  --sshloginfile FILE   run the jobs on the machines FILE lists (GNU parallel's\n"
    "                        option; DIR, the traces and pmubench at the same paths on\n"
    "                        every machine)\n"
    "  --csv FILE            write the merged table as CSV to FILE (whole or not at all)\n"
    "  --json FILE           ... and as JSON\n"
    "  --dry-run             print the jobs' command lines, run nothing\n"
    "  --slurm SCRIPT        write a Slurm job-array script of the jobs (sbatch SCRIPT),\n"
    "                        run nothing\n"
    "  --merge               run nothing: merge the results there are (DIR must exist)\n";

/* The options of 'pmubench sweep' (cli/option_table.h); --help and -h besides. */
static const struct cli_option sweep_option_list[] = {
    {"--dir", true}, {"-j", true}, {"--sshloginfile", true}, {"--csv", true}, {"--json", true},
    {"--slurm", true}, {"--dry-run", false}, {"--merge", false}, {NULL, false}
};
const struct option_table sweep_option_table = {sweep_option_list, false};

struct sweep_args {
    const char *spec, *dir, *sshloginfile, *csv, *json, *slurm;
    int jobs;
    bool dry_run, merge_only;
};

/* The option at argv[*i] that takes a value: 0 when handled, 2 on error,
 * -1 when it is not one. */
static int value_option(struct sweep_args *args, int argc, char **argv, int *i)
{
    const char *option = argv[*i];
    const char **to = strcmp(option, "--dir") == 0            ? &args->dir
                      : strcmp(option, "--sshloginfile") == 0 ? &args->sshloginfile
                      : strcmp(option, "--csv") == 0          ? &args->csv
                      : strcmp(option, "--json") == 0         ? &args->json
                      : strcmp(option, "--slurm") == 0        ? &args->slurm
                                                              : NULL;
    if (!to && strcmp(option, "-j") != 0)
        return -1;
    if (++*i == argc)
        return usage_error("sweep", "%s needs a value", option);
    if (to) {
        *to = argv[*i];
        return 0;
    }
    uint64_t jobs;
    char error[MESSAGE_SIZE];
    if (!number_read("-j", argv[*i], 1, 4096, &jobs, error, sizeof error))
        return usage_error("sweep", "%s", error);
    args->jobs = (int)jobs;
    return 0;
}

/* 0 to go on, 2 on a usage error, -1 after --help. */
static int parse_args(int argc, char **argv, struct sweep_args *args)
{
    *args = (struct sweep_args){0};
    struct options_given given = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            fputs(sweep_usage, stdout);
            return -1;
        }
        if (argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
            if (args->spec)
                return usage_error("sweep", "one SPEC at a time ('%s' and '%s')", args->spec,
                                   argv[i]);
            args->spec = argv[i];
            continue;
        }
        if (!option_once(&given, "sweep", argv[i]))
            return EXIT_BAD_INPUT;
        if (strcmp(argv[i], "--dry-run") == 0 || strcmp(argv[i], "--merge") == 0) {
            *(strcmp(argv[i], "--merge") == 0 ? &args->merge_only : &args->dry_run) = true;
            continue;
        }
        int rc = value_option(args, argc, argv, &i);
        if (rc > 0)
            return rc;
        if (rc < 0)
            return option_table_unknown(&sweep_option_table, "sweep", argv[i]);
    }
    if (!args->spec)
        return usage_error("sweep", "no SPEC (expected a sweep spec file)");
    if (args->dry_run + args->merge_only + !!args->slurm > 1)
        return usage_error("sweep", "--dry-run, --slurm or --merge: one of them");
    return 0;
}

/* This program, which each job runs: the same path on every machine. */
static int own_path(char *path, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", path, size - 1);
    if (n < 0 || (size_t)n == size - 1)
        return command_error(EXIT_RUNTIME, "sweep", "/proc/self/exe: cannot find pmubench's "
                             "own path: %s", n < 0 ? strerror(errno) : "too long");
    path[n] = '\0';
    return 0;
}

/* The jobs still without a result (apps/sweep/sweep.h); 0, or the status
 * after the message (2 when a job's file is not a regular file, found
 * before anything reads it). */
static int pending_jobs(const struct sweep_spec *spec, const char *dir, size_t **pending,
                        size_t *n)
{
    char error[4200];
    switch (sweep_pending_jobs(spec, dir, pending, n, error, sizeof error)) {
    case SWEEP_PENDING_OK:
        return 0;
    case SWEEP_PENDING_BAD_FILE:
        return file_error(EXIT_BAD_INPUT, "%s", error);
    case SWEEP_PENDING_NO_MEMORY:
        break;
    }
    return command_error(EXIT_RUNTIME, "sweep", "out of memory");
}

/* The results directory as the run needs it: made when jobs are to
 * write there (a run, a Slurm script; `*made` when this call made it),
 * there already for --merge (which makes nothing), untouched by
 * --dry-run. */
static int prepare_dir(const struct sweep_args *args, const char *dir, bool *made)
{
    char error[MESSAGE_SIZE];
    *made = false;
    if (args->dry_run)
        return 0;
    switch (sweep_results_dir_prepare(dir, !args->merge_only, made, error, sizeof error)) {
    case SWEEP_DIR_READY:
        return 0;
    case SWEEP_DIR_BAD:
        return file_error(EXIT_BAD_INPUT, "%s", error);
    case SWEEP_DIR_UNREADABLE:
        return file_error(failure_status(errno), "%s", error);
    case SWEEP_DIR_NOT_MADE:
        break;
    }
    return file_error(EXIT_RUNTIME, "%s", error);
}

/* No output over the spec, a trace, the results directory, a job's file
 * in it, the host list or another output (outputs this mode does not
 * write are left out). */
static int check_files(const struct sweep_args *args, const struct sweep_spec *spec,
                       const char *dir)
{
    bool merges = !args->dry_run && !args->slurm;
    const struct named_file files[] = {
        {"--csv", merges ? args->csv : NULL, FILE_WRITE},
        {"--json", merges ? args->json : NULL, FILE_WRITE},
        {"--slurm", args->slurm, FILE_WRITE},
        {"--sshloginfile", args->sshloginfile, FILE_READ},
    };
    char error[2400];
    if (sweep_files_distinct(spec, dir, files, sizeof files / sizeof files[0], error,
                             sizeof error))
        return 0;
    return command_error(EXIT_BAD_INPUT, "sweep", "%s", error);
}

/* Writes what `print` prints to `path` whole or not at all. */
static int write_file(const char *path, void (*print)(FILE *, const struct sweep_spec *,
                                                      const struct sweep_merge *),
                      const struct sweep_spec *spec, const struct sweep_merge *merge)
{
    struct atomic_file file;
    char error[MESSAGE_SIZE];
    if (!atomic_open(&file, path, error, sizeof error))
        return command_error(EXIT_RUNTIME, "sweep", "%s", error);
    print(file.stream, spec, merge);
    if (!atomic_commit(&file, error, sizeof error))
        return command_error(EXIT_RUNTIME, "sweep", "%s", error);
    return 0;
}

/* One line per job that failed or did not run, then the outputs. */
static int report(const struct sweep_args *args, const struct sweep_spec *spec,
                  const char *dir)
{
    struct sweep_merge merge;
    if (!sweep_merge_read(spec, dir, &merge)) {
        sweep_merge_free(&merge);
        return command_error(EXIT_RUNTIME, "sweep", "out of memory");
    }
    int rc = 0;
    for (size_t i = 0; i < merge.n_rows; i++) {
        const struct sweep_row *row = &merge.rows[i];
        if (row->status == SWEEP_OK)
            continue;
        char *describe = sweep_job_describe(spec, &row->job);
        if (row->status == SWEEP_NOT_RUN)
            rc = command_error(EXIT_RUNTIME, "sweep", "job %zu (%s) did not run (no result, no "
                               "error file)", row->job.index, describe ? describe : "?");
        else
            rc = command_error(EXIT_RUNTIME, "sweep", "job %zu (%s) failed: %s", row->job.index,
                               describe ? describe : "?", row->error);
        free(describe);
    }
    int written = 0;
    if (args->csv)
        written = write_file(args->csv, sweep_write_csv, spec, &merge);
    if (!written && args->json)
        written = write_file(args->json, sweep_write_json, spec, &merge);
    if (!args->csv && !args->json)
        sweep_write_csv(stdout, spec, &merge);
    sweep_merge_free(&merge);
    return written ? written : rc;
}

/* Runs the jobs still without a result (or prints them, or writes them
 * as a Slurm script). */
static int run_pending(const struct sweep_args *args, const struct sweep_spec *spec,
                       const char *dir, const size_t *pending, size_t n_pending)
{
    char pmubench[PATH_MAX];
    int rc = own_path(pmubench, sizeof pmubench);
    if (rc)
        return rc;
    if (args->slurm) {
        struct atomic_file file;
        char error[MESSAGE_SIZE];
        if (!atomic_open(&file, args->slurm, error, sizeof error))
            return command_error(EXIT_RUNTIME, "sweep", "%s", error);
        if (!sweep_slurm_script(file.stream, spec, pending, n_pending, pmubench, dir)) {
            atomic_abort(&file);
            return command_error(EXIT_RUNTIME, "sweep", "out of memory");
        }
        if (!atomic_commit(&file, error, sizeof error))
            return command_error(EXIT_RUNTIME, "sweep", "%s", error);
        return command_error(EXIT_OK, "sweep", "%s: %zu job%s, one array task each: submit it "
                             "with sbatch, then merge with 'pmubench sweep --merge %s'",
                             args->slurm, n_pending, n_pending == 1 ? "" : "s", args->spec);
    }
    char **commands = sweep_job_commands(spec, pending, n_pending, pmubench, dir);
    if (!commands)
        return command_error(EXIT_RUNTIME, "sweep", "out of memory");
    char error[MESSAGE_SIZE];
    if (args->dry_run)
        for (size_t i = 0; i < n_pending; i++)
            puts(commands[i]);
    else if (!sweep_parallel_run(commands, n_pending, args->jobs, args->sshloginfile, error,
                                 sizeof error))
        rc = command_error(EXIT_RUNTIME, "sweep", "%s", error);
    sweep_job_commands_free(commands, n_pending);
    return rc;
}

int cmd_sweep(int argc, char **argv)
{
    struct sweep_args args;
    int rc = parse_args(argc, argv, &args);
    if (rc)
        return rc < 0 ? 0 : rc;
    struct sweep_spec spec;
    char error[8192];
    errno = 0;
    if (!sweep_spec_read_file(args.spec, &spec, error, sizeof error))
        return file_error(failure_status(errno), "%s", error);
    char *dir = sweep_results_dir(args.spec, args.dir);
    size_t n_pending = 0, *pending = NULL;
    bool made = false;
    if (!dir)
        rc = command_error(EXIT_RUNTIME, "sweep", "results directory: %s", strerror(errno));
    if (!rc && !(rc = prepare_dir(&args, dir, &made)) && (rc = check_files(&args, &spec, dir)) &&
        made)
        rmdir(dir); /* refused: leave nothing made */
    if (!rc)
        rc = pending_jobs(&spec, dir, &pending, &n_pending);
    bool runs = n_pending && !args.merge_only && !args.dry_run && !args.slurm;
    if (!rc && runs && !sweep_parallel_check(error, sizeof error))
        rc = command_error(EXIT_RUNTIME, "sweep", "%s", error); /* before anything runs */
    if (!rc) {
        size_t total = sweep_job_count(&spec);
        if (args.merge_only)
            command_error(EXIT_OK, "sweep", "%zu jobs, %zu with a result in %s, %zu without "
                          "(--merge runs none)", total, total - n_pending, dir, n_pending);
        else
            command_error(EXIT_OK, "sweep", "%zu jobs, %zu with a result in %s, %zu to run",
                          total, total - n_pending, dir, n_pending);
        if (n_pending && !args.merge_only)
            rc = run_pending(&args, &spec, dir, pending, n_pending);
        else if (args.slurm)
            command_error(EXIT_OK, "sweep", "nothing to run: %s not written", args.slurm);
        if (!args.dry_run && !args.slurm) {
            int merged = report(&args, &spec, dir);
            rc = rc ? rc : merged;
        }
    }
    free(pending);
    free(dir);
    sweep_spec_free(&spec);
    return rc;
}
