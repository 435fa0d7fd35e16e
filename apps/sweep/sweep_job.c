/* A sweep's jobs: their order, ids, command lines and results, and the
 * Slurm script that runs them (sweep.h, docs/sweep.md). */
#include "sweep.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pmu/catalog/event_spec.h"

enum { MAX_RESULT = 64 << 20 }; /* bytes of a job's result read: stat's JSON is a few kB */

size_t sweep_job_count(const struct sweep_spec *spec)
{
    size_t n = spec->n_traces * spec->n_models;
    for (size_t p = 0; p < spec->n_params; p++)
        n *= spec->params[p].n_values;
    return n;
}

/* 64-bit FNV-1a (Fowler, Noll and Vo), over `text` and its NUL. */
static uint64_t fnv1a(uint64_t hash, const char *text)
{
    do
        hash = (hash ^ (unsigned char)*text) * 0x100000001b3u;
    while (*text++);
    return hash;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const struct sweep_param *const *)a)->name,
                  (*(const struct sweep_param *const *)b)->name);
}

/* The hash of "trace", T, "model", M, each param's name and value in the
 * order of their names, and "events", E when the spec names events: the
 * same job has the same id whatever else the spec holds. */
static void job_id(const struct sweep_spec *spec, struct sweep_job *job)
{
    uint64_t hash = 0xcbf29ce484222325u;
    hash = fnv1a(fnv1a(hash, "trace"), spec->traces[job->trace]);
    hash = fnv1a(fnv1a(hash, "model"), spec->models[job->model]);
    const struct sweep_param *sorted[SWEEP_MAX_PARAMS];
    for (size_t p = 0; p < spec->n_params; p++)
        sorted[p] = &spec->params[p];
    qsort(sorted, spec->n_params, sizeof sorted[0], by_name);
    for (size_t p = 0; p < spec->n_params; p++) {
        size_t which = (size_t)(sorted[p] - spec->params);
        hash = fnv1a(fnv1a(hash, sorted[p]->name), sorted[p]->values[job->values[which]]);
    }
    if (spec->events)
        hash = fnv1a(fnv1a(hash, "events"), spec->events);
    snprintf(job->id, sizeof job->id, "%016llx", (unsigned long long)hash);
}

void sweep_job_at(const struct sweep_spec *spec, size_t index, struct sweep_job *job)
{
    *job = (struct sweep_job){.index = index};
    for (size_t p = spec->n_params; p-- > 0;) {
        job->values[p] = index % spec->params[p].n_values;
        index /= spec->params[p].n_values;
    }
    job->model = index % spec->n_models;
    job->trace = index / spec->n_models;
    job_id(spec, job);
}

char *sweep_job_describe(const struct sweep_spec *spec, const struct sweep_job *job)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        return NULL;
    fprintf(out, "trace=%s model=%s", spec->traces[job->trace], spec->models[job->model]);
    for (size_t p = 0; p < spec->n_params; p++)
        fprintf(out, " %s=%s", spec->params[p].name, spec->params[p].values[job->values[p]]);
    return fclose(out) == 0 ? text : (free(text), NULL);
}

/* `text` for inside single quotes in sh: a quote as '\''. */
static void quote_inside(FILE *out, const char *text)
{
    for (; *text; text++)
        if (*text == '\'')
            fputs("'\\''", out);
        else
            fputc(*text, out);
}

/* A word in single quotes: `before`, then `after` (may be ""). */
static void quoted(FILE *out, const char *before, const char *after)
{
    fputc('\'', out);
    quote_inside(out, before);
    quote_inside(out, after);
    fputc('\'', out);
}

char *sweep_trace_path(const struct sweep_spec *spec, size_t trace)
{
    const char *written = spec->traces[trace];
    if (written[0] == '/')
        return strdup(written);
    size_t size = strlen(spec->base) + strlen(written) + 2;
    char *path = malloc(size);
    if (path)
        snprintf(path, size, "%s/%s", spec->base, written);
    return path;
}

/* False when out of memory (the line is then incomplete). */
static bool job_command(FILE *out, const struct sweep_spec *spec, const struct sweep_job *job,
                        const char *pmubench, const char *dir)
{
    char *trace = sweep_trace_path(spec, job->trace);
    if (!trace)
        return false;
    char name[32];
    quoted(out, pmubench, "");
    fputs(" stat -m ", out);
    quoted(out, spec->models[job->model], "");
    for (size_t p = 0; p < spec->n_params; p++) {
        fputs(" -F ", out);
        fputc('\'', out);
        quote_inside(out, spec->params[p].name);
        fputc('=', out);
        quote_inside(out, spec->params[p].values[job->values[p]]);
        fputc('\'', out);
    }
    if (spec->events) {
        fputs(" -e ", out);
        quoted(out, spec->events, "");
    }
    snprintf(name, sizeof name, "/%s.json", job->id);
    fputs(" --json -o ", out);
    quoted(out, dir, name);
    fputs(" --trace ", out);
    quoted(out, trace, "");
    free(trace);
    snprintf(name, sizeof name, "/%s.err", job->id);
    fputs(" 2>", out);
    quoted(out, dir, name);
    return true;
}

char *sweep_job_command(const struct sweep_spec *spec, const struct sweep_job *job,
                        const char *pmubench, const char *dir)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        return NULL;
    bool whole = job_command(out, spec, job, pmubench, dir);
    return fclose(out) == 0 && whole ? text : (free(text), NULL);
}

char *sweep_job_file(const char *dir, const struct sweep_job *job, const char *suffix)
{
    size_t size = strlen(dir) + strlen(job->id) + strlen(suffix) + 3;
    char *path = malloc(size);
    if (path)
        snprintf(path, size, "%s/%s.%s", dir, job->id, suffix);
    return path;
}

/* Whether the result has a count of every event the spec names. */
static bool has_events(const struct sweep_spec *spec, const struct count_set *set)
{
    for (int e = 0; e < spec->n_event_names; e++)
        if (!count_set_find(set, event_spec_key(spec->event_names[e]), -1))
            return false;
    return true;
}

/* The whole of `in`, a regular file of at most MAX_RESULT bytes; NULL
 * when it is larger, cannot be read or memory runs out. */
static char *read_whole(FILE *in, size_t *size)
{
    struct stat st;
    if (fstat(fileno(in), &st) != 0 || st.st_size > MAX_RESULT)
        return NULL;
    char *text = malloc((size_t)st.st_size + 1);
    *size = text ? fread(text, 1, (size_t)st.st_size + 1, in) : 0;
    if (text && (ferror(in) || *size > (size_t)st.st_size)) {
        free(text);
        return NULL;
    }
    return text;
}

bool sweep_job_result(const struct sweep_spec *spec, const struct sweep_job *job,
                        const char *dir, struct count_set *set)
{
    char *path = sweep_job_file(dir, job, "json");
    FILE *in = path ? sweep_job_open(path) : NULL;
    size_t size = 0;
    char *text = in ? read_whole(in, &size) : NULL;
    if (in)
        fclose(in);
    char ignored[1024];
    bool ok = text && count_set_read_json(text, size, path, set, ignored, sizeof ignored);
    free(text);
    free(path);
    if (ok && (!set->model || strcmp(set->model, spec->models[job->model]) != 0 ||
               !has_events(spec, set))) {
        count_set_free(set);
        ok = false;
    }
    return ok;
}

bool sweep_job_done(const struct sweep_spec *spec, const struct sweep_job *job, const char *dir)
{
    struct count_set set;
    if (!sweep_job_result(spec, job, dir, &set))
        return false;
    count_set_free(&set);
    return true;
}

/* ---- the Slurm script */

/* `text` with its newlines as spaces, for a comment line. */
static void comment_text(FILE *out, const char *text)
{
    for (; *text; text++)
        fputc(*text == '\n' || *text == '\r' ? ' ' : *text, out);
}

/* Ascending indexes as Slurm's --array list: "0-11", "3,5,7-9". */
static void array_ranges(FILE *out, const size_t *pending, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && pending[j + 1] == pending[j] + 1)
            j++;
        fprintf(out, "%s%zu", i ? "," : "", pending[i]);
        if (j > i)
            fprintf(out, "-%zu", pending[j]);
        i = j + 1;
    }
}

bool sweep_slurm_script(FILE *out, const struct sweep_spec *spec, const size_t *pending,
                        size_t n_pending, const char *pmubench, const char *dir)
{
    fputs("#!/bin/bash\n# The jobs of the sweep ", out);
    comment_text(out, spec->path);
    fprintf(out, " without a result yet, %zu of %zu, one Slurm\n"
                 "# array task each, the task id being the job's index.  Submit with\n"
                 "# `sbatch THIS-FILE`; when the array has ended, `pmubench sweep --merge SPEC`\n"
                 "# merges the results (docs/sweep.md).\n",
            n_pending, sweep_job_count(spec));
    fputs("#SBATCH --job-name=pmubench-sweep\n#SBATCH --array=", out);
    array_ranges(out, pending, n_pending);
    fputs("\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\nset -u\nmkdir -p ", out);
    quoted(out, dir, "");
    fputs(" || exit 1\n"
          "case \"${SLURM_ARRAY_TASK_ID:?not run as a Slurm array task}\" in\n", out);
    bool whole = true;
    for (size_t i = 0; i < n_pending; i++) {
        struct sweep_job job;
        sweep_job_at(spec, pending[i], &job);
        char *describe = sweep_job_describe(spec, &job);
        fprintf(out, "%zu) # job %s: ", job.index, job.id);
        comment_text(out, describe ? describe : "");
        free(describe);
        fputs("\n    exec ", out);
        whole = job_command(out, spec, &job, pmubench, dir) && whole;
        fputs(" ;;\n", out);
    }
    fputs("*) echo \"pmubench sweep: no job $SLURM_ARRAY_TASK_ID in this script\" >&2; exit 2 ;;\n"
          "esac\n", out);
    return whole;
}

enum sweep_pending_status sweep_pending_jobs(const struct sweep_spec *spec, const char *dir,
                                             size_t **pending, size_t *n, char *error,
                                             size_t error_size)
{
    size_t total = sweep_job_count(spec);
    *n = 0;
    *pending = malloc((total ? total : 1) * sizeof **pending);
    if (!*pending)
        return SWEEP_PENDING_NO_MEMORY;
    for (size_t i = 0; i < total; i++) {
        struct sweep_job job;
        sweep_job_at(spec, i, &job);
        if (!sweep_job_files_check(dir, &job, error, error_size)) {
            free(*pending);
            *pending = NULL;
            *n = 0;
            return SWEEP_PENDING_BAD_FILE;
        }
        if (!sweep_job_done(spec, &job, dir))
            (*pending)[(*n)++] = i;
    }
    return SWEEP_PENDING_OK;
}

char **sweep_job_commands(const struct sweep_spec *spec, const size_t *pending, size_t n,
                          const char *pmubench, const char *dir)
{
    char **commands = calloc(n ? n : 1, sizeof *commands);
    for (size_t i = 0; commands && i < n; i++) {
        struct sweep_job job;
        sweep_job_at(spec, pending[i], &job);
        if (!(commands[i] = sweep_job_command(spec, &job, pmubench, dir))) {
            sweep_job_commands_free(commands, i);
            return NULL;
        }
    }
    return commands;
}

void sweep_job_commands_free(char **commands, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(commands[i]);
    free(commands);
}
