/* libFuzzer target: the merge of a sweep's results directory
 * (apps/sweep/sweep.h) as `pmubench sweep --merge` runs it: the reader of a
 * job's result JSON (of the job's model, with the spec's events), the
 * error line of a job without one, and the CSV and JSON tables.  The spec
 * is fixed, two jobs (models p5 and pmmx); the input is cut at form feeds
 * into job 0's ID.json, job 0's ID.err, job 1's ID.json and job 1's
 * ID.err, written into a directory of their own (a part the input does not
 * reach is no file).  Seeds: tests/fuzz/corpus_sweep_merge. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps/sweep/sweep.h"

static const char spec_text[] = "trace a.trace\nmodel p5 pmmx\nevents clocks,data_read\n";

/* The job's file DIR/ID.SUFFIX holding `size` bytes of `data`, or none
 * when `data` is NULL. */
static void put(const char *dir, const struct sweep_job *job, const char *suffix,
                const uint8_t *data, size_t size)
{
    char *path = sweep_job_file(dir, job, suffix);
    if (!path)
        return;
    unlink(path);
    FILE *f = data ? fopen(path, "wb") : NULL;
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
    }
    free(path);
}

static struct sweep_spec spec;
static struct sweep_job jobs[2];
static char dir[] = "/tmp/fuzz_sweep_merge_XXXXXX";

/* The directory and the files the last input left. */
static void clean_up(void)
{
    for (size_t part = 0; part < 4; part++)
        put(dir, &jobs[part / 2], part % 2 ? "err" : "json", NULL, 0);
    rmdir(dir);
    sweep_spec_free(&spec);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char error[1024];
    if (!mkdtemp(dir) || !sweep_spec_parse(spec_text, sizeof spec_text - 1, "fuzz.sweep",
                                           "/base", &spec, error, sizeof error))
        abort(); /* the fixed spec is valid */
    for (size_t j = 0; j < 2; j++)
        sweep_job_at(&spec, j, &jobs[j]);
    atexit(clean_up);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *at = data, *end = data + size;
    for (size_t part = 0; part < 4; part++) {
        const uint8_t *cut = at ? memchr(at, '\f', (size_t)(end - at)) : NULL;
        const uint8_t *stop = cut ? cut : end;
        put(dir, &jobs[part / 2], part % 2 ? "err" : "json", at, at ? (size_t)(stop - at) : 0);
        at = cut ? cut + 1 : NULL;
    }
    char error[1024];
    for (size_t j = 0; j < 2; j++)
        if (!sweep_job_files_check(dir, &jobs[j], error, sizeof error))
            abort(); /* only regular files were written */
    struct sweep_merge merge;
    FILE *out = fopen("/dev/null", "w");
    if (sweep_merge_read(&spec, dir, &merge) && out) {
        sweep_write_csv(out, &spec, &merge);
        sweep_write_json(out, &spec, &merge);
    }
    sweep_merge_free(&merge);
    if (out)
        fclose(out);
    return 0;
}
