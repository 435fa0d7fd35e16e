/* libFuzzer target: experiment files, as `pmubench alloc --exp` reads them,
 * then planned by the allocator. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pmu/programming/experiment.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    static struct experiment_set set;
    set.n = 0;
    char error[1024];
    /* The model unset, as `alloc --exp` without --model: the file's
     * prefixes choose it. */
    struct nb_pmu_config config = NB_CONFIG_DEFAULT;
    if (experiment_read(&set, in, "fuzz", &config, error, sizeof error)) {
        struct alloc_plan plan;
        struct alloc_error alloc_error;
        if (alloc_plan_make(set.requests, set.n, &config, &plan, &alloc_error))
            alloc_plan_free(&plan);
    }
    fclose(in);
    return 0;
}
