/* One side of a comparison (apps/compare/compare_input.h). */
#include "compare_input.h"

#include <string.h>

#include "measure.h"
#include "traces/run_env.h"

static const struct {
    const char *prefix;
    enum count_format format;
} format_prefixes[] = {
    {"json:", COUNT_FORMAT_JSON},
    {"csv:", COUNT_FORMAT_PERF_CSV},
    {"p5mon:", COUNT_FORMAT_P5MON},
};

void compare_input_parse(const char *spec, struct compare_input *input)
{
    *input = (struct compare_input){COMPARE_INPUT_FILE, spec, NULL};
    if (strcmp(spec, "measure:") == 0 || strcmp(spec, "lackey:") == 0) {
        input->kind = spec[0] == 'l' ? COMPARE_INPUT_LACKEY : COMPARE_INPUT_PERF;
        input->path = NULL;
        return;
    }
    for (size_t i = 0; i < sizeof format_prefixes / sizeof format_prefixes[0]; i++) {
        size_t n = strlen(format_prefixes[i].prefix);
        if (strncmp(spec, format_prefixes[i].prefix, n) == 0) {
            input->format = &format_prefixes[i].format;
            input->path = spec + n;
            return;
        }
    }
}

bool compare_input_read(const struct compare_input *input, char *const *program, long region,
                        struct count_set *set, int *status, char *error, size_t error_size)
{
    *status = 0;
    if (input->kind == COMPARE_INPUT_LACKEY)
        return measure_lackey(run_valgrind_path(), program, set, status, error, error_size);
    if (input->kind == COMPARE_INPUT_PERF)
        return measure_perf(program, set, status, error, error_size);
    if (!count_set_read_file(input->path, input->format, set, error, error_size))
        return false;
    if (count_set_keep_region(set, region, input->path, error, error_size))
        return true;
    count_set_free(set);
    return false;
}
