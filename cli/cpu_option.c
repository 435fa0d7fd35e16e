#include "cpu_option.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cpu_option(const char *command, int argc, char **argv, int *i, struct nb_config *config)
{
    bool model = strcmp(argv[*i], "--model") == 0;
    bool ht = strcmp(argv[*i], "--ht") == 0;
    if (!model && !ht)
        return 0;
    if (*i + 1 == argc) {
        fprintf(stderr, "pmubench %s: %s needs a value\n", command, argv[*i]);
        return -1;
    }
    const char *value = argv[++*i];
    if (ht) {
        if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0) {
            fprintf(stderr, "pmubench %s: bad --ht '%s' (expected on or off)\n", command, value);
            return -1;
        }
        config->ht = strcmp(value, "on") == 0;
        return 1;
    }
    char *end;
    long m = strtol(value, &end, 10);
    if (*value == '\0' || *end || !nb_model_supported((int)m) || m > 15) {
        fprintf(stderr, "pmubench %s: bad --model '%s' (expected 0, 1, 2, 3, 4 or 6)\n", command,
                value);
        return -1;
    }
    config->model = (int)m;
    return 1;
}
