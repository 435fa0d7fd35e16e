/* libFuzzer target: the NetBurst timing model (sim/netburst) on two
 * traces, its logical processors 0 and 1 with Hyper-Threading, through
 * `pmubench stat`'s library path (apps/stat/stat_run.h): a preset and
 * parameters chosen by the input, then two traces made from it
 * (fuzz_model.h; the first ends at a zero byte between records), counted
 * by eighteen events over the whole traces or a region.  Seeds:
 * tests/fuzz/corpus_nb_model_ht. */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "apps/stat/stat_run.h"
#include "tests/fuzz/fuzz_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = {data, size, 0};
    struct machine_config model;
    struct fuzz_bound bound;
    if (!fuzz_netburst(&in, &model, &bound))
        return 0;
    long region = fuzz_byte(&in) % 5;
    char paths[2][64];
    int fds[2] = {fuzz_memory_file(paths[0], sizeof paths[0]),
                  fuzz_memory_file(paths[1], sizeof paths[1])};
    if (fds[0] >= 0 && fds[1] >= 0 && fuzz_trace_write(&in, fds[0], bound) &&
        fuzz_trace_write(&in, fds[1], bound)) {
        const char *const traces[2] = {paths[0], paths[1]};
        fuzz_nb_count(traces, 2, &model, region == 4 ? REGION_WHOLE_TRACE : region);
    }
    for (int t = 0; t < 2; t++)
        if (fds[t] >= 0)
            close(fds[t]);
    return 0;
}
