/* libFuzzer target: the count set readers of `pmubench compare`
 * (apps/compare/count_set.h) on any input, in the format their content
 * suggests, as `pmubench compare FILE` reads it; a set read is paired with
 * itself, its regions narrowed and every difference computed.  A JSON
 * input is also read with its intervals (apps/compare/intervals.h) and drawn
 * as `pmubench plot` draws it (apps/compare/stat_plot.h).  Also each line as
 * lackey output (apps/compare/measure.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/compare/compare.h"
#include "apps/compare/intervals.h"
#include "apps/compare/measure.h"
#include "apps/compare/stat_plot.h"

static void use_set(struct count_set *set)
{
    struct compare_table table;
    if (compare_pair(set, set, &table)) {
        for (size_t i = 0; i < table.n_rows; i++)
            compare_difference(&table.rows[i]);
        compare_table_free(&table);
    }
    char error[512];
    count_set_keep_region(set, -1, "fuzz", error, sizeof error);
}

static void count_lackey_lines(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = '\0';
    struct lackey_counts counts = {0};
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        lackey_count_line(&counts, line);
    free(text);
}

/* The result with its intervals, drawn both ways into a memory stream. */
static void plot_result(const char *text, size_t size)
{
    char error[512];
    struct count_set set;
    struct interval_series series;
    if (!stat_result_read_json(text, size, "fuzz", &set, &series, error, sizeof error))
        return;
    char *svg = NULL;
    size_t svg_size = 0;
    FILE *out = open_memstream(&svg, &svg_size);
    if (out) {
        stat_plot_write(out, &set, &series, false);
        if (series.present)
            stat_plot_write(out, &set, &series, true);
        fclose(out);
    }
    free(svg);
    interval_series_free(&series);
    count_set_free(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    char error[512];
    struct count_set set;
    if (count_set_read(text, size, count_format_detect(text, size), "fuzz", &set, error,
                       sizeof error)) {
        use_set(&set);
        count_set_free(&set);
    }
    if (count_format_detect(text, size) == COUNT_FORMAT_JSON)
        plot_result(text, size);
    count_lackey_lines(data, size);
    return 0;
}
