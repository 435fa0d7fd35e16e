/* libFuzzer target: the sweep spec parser of `pmubench sweep`
 * (apps/sweep/sweep.h), with its checks against the models; an accepted
 * spec has every job enumerated and its command line and Slurm script
 * written.  Seeds: tests/fuzz/corpus_sweep_spec. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "apps/sweep/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sweep_spec spec;
    char error[8192];
    if (!sweep_spec_parse((const char *)data, size, "fuzz", "/base", &spec, error, sizeof error))
        return 0;
    size_t n = sweep_job_count(&spec);
    size_t *pending = malloc((n < 64 ? n : 64) * sizeof *pending + 1);
    for (size_t i = 0; pending && i < n && i < 64; i++) {
        struct sweep_job job;
        sweep_job_at(&spec, i, &job);
        free(sweep_job_command(&spec, &job, "/bin/pmubench", "/results"));
        free(sweep_job_describe(&spec, &job));
        pending[i] = i;
    }
    FILE *out = fopen("/dev/null", "w");
    if (out && pending)
        sweep_slurm_script(out, &spec, pending, n < 64 ? n : 64, "/bin/pmubench", "/results");
    if (out)
        fclose(out);
    free(pending);
    sweep_spec_free(&spec);
    return 0;
}
