#include "cpu_option.h"

#include <string.h>

#include "exit_status.h"
#include "util/number.h"

int cpu_option(const char *command, int argc, char **argv, int *i, struct nb_pmu_config *config)
{
    bool model = strcmp(argv[*i], "--model") == 0;
    bool ht = strcmp(argv[*i], "--ht") == 0;
    if (!model && !ht)
        return 0;
    if (*i + 1 == argc) {
        usage_error(command, "%s needs a value", argv[*i]);
        return -1;
    }
    const char *value = argv[++*i];
    if (ht) {
        if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0) {
            usage_error(command, "bad --ht '%s' (expected on or off)", value);
            return -1;
        }
        config->ht = strcmp(value, "on") == 0;
        return 1;
    }
    uint64_t m;
    char error[MESSAGE_SIZE];
    if (!number_read("--model", value, 0, 15, &m, error, sizeof error) ||
        !nb_cpuid_model_supported((int)m)) {
        usage_error(command, "bad --model '%s' (expected 0, 1, 2, 3, 4 or 6)", value);
        return -1;
    }
    config->model = (int)m;
    return 1;
}
