/* Merging a sweep's results into one table (sweep.h, docs/sweep.md
 * "Outputs"). */
#include "sweep.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/json.h"
#include "util/text.h"

enum { MAX_ERR_READ = 64 << 10 }; /* bytes of a job's stderr read: its last line is the error */

const char *sweep_status_name(enum sweep_status status)
{
    return status == SWEEP_OK ? "ok" : status == SWEEP_FAILED ? "failed" : "not-run";
}

/* The last line of `text` that is neither blank nor a warning. */
static char *error_line(const char *text, size_t size)
{
    const char *found = NULL;
    size_t found_length = 0;
    for (size_t at = 0; at < size;) {
        const char *newline = memchr(text + at, '\n', size - at);
        size_t length = newline ? (size_t)(newline - (text + at)) : size - at;
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(length < 1023 ? length : 1023), text + at);
        if (line[strspn(line, " \t\r")] && !strstr(line, ": warning: ")) {
            found = text + at;
            found_length = length;
        }
        at += length + 1;
    }
    if (!found)
        return strdup("no result, and no error message");
    return strndup(found, found_length);
}

/* A job without a result: failed with its error line when it left an
 * error file, else not run. */
static bool read_failure(const char *dir, struct sweep_row *row)
{
    row->status = SWEEP_NOT_RUN;
    char *path = sweep_job_file(dir, &row->job, "err");
    if (!path)
        return false;
    FILE *f = sweep_job_open(path);
    free(path);
    if (!f)
        return true;
    char *text = malloc(MAX_ERR_READ);
    size_t size = 0;
    if (text && fseek(f, 0, SEEK_END) == 0) {
        long end = ftell(f);
        fseek(f, end > MAX_ERR_READ ? end - MAX_ERR_READ : 0, SEEK_SET);
        size = fread(text, 1, MAX_ERR_READ, f);
    }
    fclose(f);
    row->status = SWEEP_FAILED;
    row->error = text ? error_line(text, size) : NULL;
    free(text);
    return row->error != NULL;
}

static bool known(char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(names[i], name) == 0)
            return true;
    return false;
}

/* Each count's name the table has no column for yet. */
static bool add_columns(struct sweep_merge *merge, const struct count_set *set)
{
    for (size_t c = 0; c < set->n_counts; c++) {
        if (known(merge->events, merge->n_events, set->counts[c].name))
            continue;
        char **grown = realloc(merge->events, (merge->n_events + 1) * sizeof *grown);
        if (!grown)
            return false;
        merge->events = grown;
        if (!(grown[merge->n_events] = strdup(set->counts[c].name)))
            return false;
        merge->n_events++;
    }
    return true;
}

bool sweep_merge_read(const struct sweep_spec *spec, const char *dir, struct sweep_merge *merge)
{
    *merge = (struct sweep_merge){0};
    size_t n = sweep_job_count(spec);
    if (!(merge->rows = calloc(n ? n : 1, sizeof *merge->rows)))
        return false;
    for (size_t i = 0; i < n; i++) {
        struct sweep_row *row = &merge->rows[i];
        sweep_job_at(spec, i, &row->job);
        merge->n_rows++;
        bool ok = sweep_job_result(spec, &row->job, dir, &row->counts)
                      ? add_columns(merge, &row->counts)
                      : read_failure(dir, row);
        if (!ok)
            return false;
    }
    return true;
}

void sweep_merge_free(struct sweep_merge *merge)
{
    for (size_t i = 0; i < merge->n_rows; i++) {
        if (merge->rows[i].status == SWEEP_OK)
            count_set_free(&merge->rows[i].counts);
        free(merge->rows[i].error);
    }
    free(merge->rows);
    for (size_t i = 0; i < merge->n_events; i++)
        free(merge->events[i]);
    free(merge->events);
    *merge = (struct sweep_merge){0};
}

/* ---- CSV */

static void csv_row(FILE *out, const struct sweep_spec *spec, const struct sweep_merge *merge,
                    const struct sweep_row *row)
{
    fprintf(out, "%zu,%s,", row->job.index, row->job.id);
    text_print_field(out, spec->traces[row->job.trace], ",");
    fputc(',', out);
    text_print_field(out, spec->models[row->job.model], ",");
    for (size_t p = 0; p < spec->n_params; p++) {
        fputc(',', out);
        text_print_field(out, spec->params[p].values[row->job.values[p]], ",");
    }
    fprintf(out, ",%s", sweep_status_name(row->status));
    for (size_t e = 0; e < merge->n_events; e++) {
        const struct count *count = row->status == SWEEP_OK
                                        ? count_set_find(&row->counts, merge->events[e], -1)
                                        : NULL;
        if (count)
            fprintf(out, ",%llu", (unsigned long long)count->value);
        else
            fputc(',', out);
    }
    fputc(',', out);
    text_print_field(out, row->error ? row->error : "", ",");
    fputc('\n', out);
}

void sweep_write_csv(FILE *out, const struct sweep_spec *spec, const struct sweep_merge *merge)
{
    fputs("job,id,trace,model", out);
    for (size_t p = 0; p < spec->n_params; p++) {
        fputc(',', out);
        text_print_field(out, spec->params[p].name, ",");
    }
    fputs(",status", out);
    for (size_t e = 0; e < merge->n_events; e++) {
        fputc(',', out);
        text_print_field(out, merge->events[e], ",");
    }
    fputs(",error\n", out);
    for (size_t i = 0; i < merge->n_rows; i++)
        csv_row(out, spec, merge, &merge->rows[i]);
}

/* ---- JSON */

static void json_row(FILE *out, const struct sweep_spec *spec, const struct sweep_row *row)
{
    fprintf(out, "  {\"job\": %zu, \"id\": \"%s\", \"trace\": ", row->job.index, row->job.id);
    json_fprint_string(out, spec->traces[row->job.trace]);
    fputs(", \"model\": ", out);
    json_fprint_string(out, spec->models[row->job.model]);
    fputs(", \"params\": {", out);
    for (size_t p = 0; p < spec->n_params; p++) {
        fputs(p ? ", " : "", out);
        json_fprint_string(out, spec->params[p].name);
        fputs(": ", out);
        json_fprint_string(out, spec->params[p].values[row->job.values[p]]);
    }
    fprintf(out, "}, \"status\": \"%s\"", sweep_status_name(row->status));
    if (row->status == SWEEP_OK) {
        fputs(", \"counts\": {", out);
        for (size_t c = 0; c < row->counts.n_counts; c++) {
            fputs(c ? ", " : "", out);
            json_fprint_string(out, row->counts.counts[c].name);
            fprintf(out, ": %llu", (unsigned long long)row->counts.counts[c].value);
        }
        fputc('}', out);
    } else if (row->error) {
        fputs(", \"error\": ", out);
        json_fprint_string(out, row->error);
    }
    fputc('}', out);
}

void sweep_write_json(FILE *out, const struct sweep_spec *spec, const struct sweep_merge *merge)
{
    fputs("{\"spec\": ", out);
    json_fprint_string(out, spec->path);
    fputs(", \"jobs\": [\n", out);
    for (size_t i = 0; i < merge->n_rows; i++) {
        json_row(out, spec, &merge->rows[i]);
        fputs(i + 1 < merge->n_rows ? ",\n" : "\n", out);
    }
    fputs("]}\n", out);
}
