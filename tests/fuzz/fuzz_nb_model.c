/* libFuzzer target: the NetBurst timing model (sim/netburst) on one trace,
 * through `pmubench stat`'s library path (apps/stat/stat_run.h): a preset
 * and parameters chosen by the input, then a trace made from it
 * (fuzz_model.h), counted by eighteen events over the whole trace or a
 * region.  Seeds: tests/fuzz/corpus_nb_model. */
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
    char path[64];
    int fd = fuzz_memory_file(path, sizeof path);
    if (fd < 0)
        return 0;
    if (fuzz_trace_write(&in, fd, bound))
        fuzz_nb_count((const char *const[]){path}, 1, &model,
                      region == 4 ? REGION_WHOLE_TRACE : region);
    close(fd);
    return 0;
}
