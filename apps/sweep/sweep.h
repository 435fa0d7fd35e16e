/* Sweeps (`pmubench sweep SPEC`, docs/sweep.md): the cross product of
 * traces, models and -F parameter values, each an independent
 * `pmubench stat --json -o RESULT` job, run through GNU parallel or a
 * Slurm job array, and merged into one table with a row per job.
 *
 *   struct sweep_spec spec;
 *   if (!sweep_spec_read_file("a.sweep", &spec, error, sizeof error)) ...
 *   for (size_t i = 0; i < sweep_job_count(&spec); i++) {
 *       struct sweep_job job;
 *       sweep_job_at(&spec, i, &job);  ... job.id ...
 *   }
 *   sweep_spec_free(&spec);
 *
 * A job's result is DIR/ID.json (stat's -o: whole or not at all) and its
 * standard error DIR/ID.err; ID is a hash of the job's parameters, so it
 * stays the same when values are appended to the spec. */
#ifndef APPS_SWEEP_SWEEP_H
#define APPS_SWEEP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/file_identity.h"
#include "apps/compare/count_set.h"

enum {
    SWEEP_MAX_PARAMS = 32,      /* param names in a spec */
    SWEEP_MAX_JOBS = 1000000,   /* jobs in the cross product */
    SWEEP_MAX_WORD = 4096,      /* bytes in a word of the spec (a path) */
};

/* One `param NAME=V1,V2...`: its values in the spec's order. */
struct sweep_param {
    char *name;
    char **values;
    size_t n_values;
    int line;
};

struct sweep_spec {
    char *path;               /* as given, for messages */
    char *base;               /* the directory relative traces are in */
    char **traces;            /* as written in the spec */
    size_t n_traces;
    char **models;
    size_t n_models;
    struct sweep_param params[SWEEP_MAX_PARAMS];
    size_t n_params;
    char *events;             /* stat's -e list, or NULL: stat's default set */
    const char **event_names; /* its distinct events, as stat counts them (into event_words) */
    int n_event_names;
    char *event_words;        /* the list split at its commas */
};

/* Parses and checks a spec of `size` bytes: every model is one stat knows,
 * every parameter value one each model takes (machine_config_set), every event
 * prefix one of each model's PMU.  False with "PATH:LINE: ..." (or
 * "PATH: ..." for what the whole file lacks) in `error`.  `base` is the
 * directory relative traces are in. */
bool sweep_spec_parse(const char *text, size_t size, const char *path, const char *base,
                      struct sweep_spec *spec, char *error, size_t error_size);

/* Reads and parses the file at `path`; relative traces are in its
 * directory (made absolute). */
bool sweep_spec_read_file(const char *path, struct sweep_spec *spec, char *error,
                          size_t error_size);

void sweep_spec_free(struct sweep_spec *spec);

/* ---- jobs: trace outermost, then model, then each param in the spec's
 * order, its last value varying fastest. */

struct sweep_job {
    size_t index;                  /* its place in that order, from 0 */
    size_t trace, model;           /* indexes into the spec's lists */
    size_t values[SWEEP_MAX_PARAMS]; /* the value of each param */
    char id[17];                   /* 16 hex digits */
};

size_t sweep_job_count(const struct sweep_spec *spec);
void sweep_job_at(const struct sweep_spec *spec, size_t index, struct sweep_job *job);

/* "trace=T model=M NAME=VALUE...": the job's parameters, for messages;
 * malloc'd, NULL when out of memory. */
char *sweep_job_describe(const struct sweep_spec *spec, const struct sweep_job *job);

/* The path of trace `trace`: as the spec writes it when absolute, else in
 * the spec's directory; malloc'd, NULL when out of memory. */
char *sweep_trace_path(const struct sweep_spec *spec, size_t trace);

/* The shell command line of the job: PMUBENCH stat ... --json -o
 * DIR/ID.json --trace TRACE 2>DIR/ID.err, every word quoted for sh;
 * `pmubench` and `dir` absolute.  malloc'd, NULL when out of memory. */
char *sweep_job_command(const struct sweep_spec *spec, const struct sweep_job *job,
                        const char *pmubench, const char *dir);

/* The results' directory of the sweep whose spec is at `spec_path`:
 * `dir` (--dir) when not NULL, else SPEC_PATH.results; made absolute from
 * the working directory, not resolved (it may not exist yet).  malloc'd,
 * NULL with errno when out of memory or the working directory is
 * unknown. */
char *sweep_results_dir(const char *spec_path, const char *dir);

enum sweep_dir_status {
    SWEEP_DIR_READY,
    SWEEP_DIR_BAD,        /* not a directory, or absent for a merge: bad input */
    SWEEP_DIR_UNREADABLE, /* could not be examined: errno says why */
    SWEEP_DIR_NOT_MADE,   /* could not be made: a run-time failure, errno says why */
};

/* The results directory `dir` as the sweep needs it: when `make` (jobs
 * are to write there: a run, a Slurm script) made unless it exists
 * (`*made` when this call made it); otherwise (--merge, which makes
 * nothing) there already.  Either way it must be a directory.  Not
 * SWEEP_DIR_READY with one line in `error`: "DIR: cannot create:
 * STRERROR", "DIR: no such directory (expected the jobs' results: --merge
 * runs no job and makes no directory)", "DIR: cannot open: STRERROR" or
 * "DIR: not a directory (expected the results' directory)". */
enum sweep_dir_status sweep_results_dir_prepare(const char *dir, bool make, bool *made,
                                                char *error, size_t error_size);

/* DIR/ID.SUFFIX ("json": the result, "err": stat's standard error);
 * malloc'd, NULL when out of memory. */
char *sweep_job_file(const char *dir, const struct sweep_job *job, const char *suffix);

/* The job's result when DIR/ID.json is one: a regular file (no other is
 * opened: sweep_job_open) of JSON stat's reader takes, of the job's model,
 * with a count of every event the spec names; `set` then holds it
 * (count_set_free frees it). */
bool sweep_job_result(const struct sweep_spec *spec, const struct sweep_job *job,
                      const char *dir, struct count_set *set);

/* The same, the result read and let go: whether a rerun skips the job. */
bool sweep_job_done(const struct sweep_spec *spec, const struct sweep_job *job, const char *dir);

enum sweep_pending_status {
    SWEEP_PENDING_OK,
    SWEEP_PENDING_BAD_FILE,  /* a job's file is not a regular file: sweep_job_files_check's
                              * line in `error` */
    SWEEP_PENDING_NO_MEMORY,
};

/* The jobs to run: those without a result in `dir` (sweep_job_done),
 * their indexes ascending in *pending (malloc'd, the caller frees it) and
 * their number in *n.  Every job's files are checked before any is read
 * (sweep_job_files_check).  On failure *pending is NULL and *n 0. */
enum sweep_pending_status sweep_pending_jobs(const struct sweep_spec *spec, const char *dir,
                                             size_t **pending, size_t *n, char *error,
                                             size_t error_size);

/* The shell command lines (sweep_job_command) of the jobs whose indexes
 * are `pending`, in that order; NULL when out of memory.  Freed by
 * sweep_job_commands_free. */
char **sweep_job_commands(const struct sweep_spec *spec, const size_t *pending, size_t n,
                          const char *pmubench, const char *dir);
void sweep_job_commands_free(char **commands, size_t n);

/* The Slurm batch script running the jobs whose indexes are `pending`
 * (ascending), one array task each, the task id being the job's index;
 * the script makes DIR (mkdir -p) before its task runs.  False when out
 * of memory (the script is then incomplete). */
bool sweep_slurm_script(FILE *out, const struct sweep_spec *spec, const size_t *pending,
                        size_t n_pending, const char *pmubench, const char *dir);

/* ---- the files a sweep reads and writes (sweep_files.c) */

/* Whether each of the job's files, DIR/ID.json and DIR/ID.err, is absent
 * or a regular file (symbolic links followed); false with "DIR/ID.json: a
 * FIFO, not a regular file (expected job N's result or nothing)" in
 * `error`.  The job writes them and the merge reads them: a FIFO would
 * block both. */
bool sweep_job_files_check(const char *dir, const struct sweep_job *job, char *error,
                           size_t error_size);

/* A job's file (sweep_job_file) opened for reading when it is a regular
 * file; NULL when it is absent, cannot be opened or is anything else
 * (opened without blocking, so a FIFO is refused, not waited on). */
FILE *sweep_job_open(const char *path);

/* True when no output among `files` (the command's own files: its
 * outputs, FILE_WRITE, path NULL when not written, and inputs such as a
 * host list) is one of the sweep's inputs or another output: the spec,
 * a trace, the results directory `dir`, or a job's DIR/ID.json or
 * DIR/ID.err, whether it exists yet or not (the jobs write them, now or
 * in a later run).  False with files_distinct's "WHAT 'PATH' and WHAT
 * 'PATH' are the same file" in `error` (or "out of memory"). */
bool sweep_files_distinct(const struct sweep_spec *spec, const char *dir,
                          const struct named_file *files, int n_files, char *error,
                          size_t error_size);

/* ---- merging */

enum sweep_status { SWEEP_OK, SWEEP_FAILED, SWEEP_NOT_RUN };

struct sweep_row {
    struct sweep_job job;
    enum sweep_status status;
    struct count_set counts;  /* SWEEP_OK: the result */
    char *error;              /* SWEEP_FAILED: stat's error line */
};

struct sweep_merge {
    struct sweep_row *rows;   /* one per job, in job order */
    size_t n_rows;
    char **events;            /* every count's name, in order of first appearance */
    size_t n_events;
};

/* Reads every job's result in `dir`.  A job without a valid result
 * failed when DIR/ID.err exists (its last line that is not a warning is
 * the error), else it did not run; a file that is not a regular file is
 * not read (sweep_job_open).  False only when out of memory. */
bool sweep_merge_read(const struct sweep_spec *spec, const char *dir, struct sweep_merge *merge);
void sweep_merge_free(struct sweep_merge *merge);

/* "ok", "failed" or "not-run". */
const char *sweep_status_name(enum sweep_status status);

/* One header line, then a row per job: job,id,trace,model,PARAM...,status,
 * EVENT...,error (RFC 4180 quoting). */
void sweep_write_csv(FILE *out, const struct sweep_spec *spec, const struct sweep_merge *merge);

/* {"spec": PATH, "jobs": [{"job", "id", "trace", "model", "params",
 * "status", "counts" | "error"}, ...]} */
void sweep_write_json(FILE *out, const struct sweep_spec *spec, const struct sweep_merge *merge);

/* ---- GNU parallel, run as a program */

/* Whether `parallel --version` says GNU parallel; false with a line saying
 * what is there instead (nothing, or moreutils' parallel). */
bool sweep_parallel_check(char *error, size_t error_size);

/* Runs the commands through `parallel --will-cite --halt never --null`
 * (-j `jobs` when above 0, --sshloginfile when not NULL), its output on
 * standard error; false with a line when it could not run or ended with
 * an error of its own (status 255 or a signal).  Failed jobs are not its
 * failure: their results are missing. */
bool sweep_parallel_run(char *const *commands, size_t n_commands, int jobs,
                        const char *sshloginfile, char *error, size_t error_size);

#endif
