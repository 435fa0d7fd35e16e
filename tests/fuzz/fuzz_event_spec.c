/* libFuzzer target: event strings, as `pmubench encode` and `alloc` read
 * them, on every NetBurst model with and without Hyper-Threading; a parsed
 * NetBurst string is encoded too. */
#include <stdint.h>
#include <string.h>

#include "pmu/catalog/event_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[600];
    if (size >= sizeof text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    static const struct nb_pmu_config configs[] = {
        {0, false}, {2, true}, {3, true}, {6, false},
    };
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) {
        struct event_spec spec;
        char error[512];
        if (!event_spec_parse(text, &configs[i], &spec, error, sizeof error))
            continue;
        if (spec.pmu == PMU_NETBURST) {
            struct nb_encoding encoding;
            nb_encode(&spec.nb, &configs[i], &encoding);
        } else {
            (void)p5_encode_half(&spec.p5);
        }
    }
    return 0;
}
