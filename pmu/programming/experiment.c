#include "experiment.h"

#include <stdlib.h>
#include <string.h>

#include "util/error_line.h"
#include "util/line_stream.h"

/* Keeps one event string, unparsed; false with a message when it cannot
 * (a string too long gets the parser's message). */
static bool keep_line(struct experiment_set *set, const char *text, int group, int line,
                      char *message, size_t size)
{
    if (set->n == ALLOC_MAX_REQUESTS) {
        snprintf(message, size, "too many events (at most %d)", ALLOC_MAX_REQUESTS);
        return false;
    }
    if (strlen(text) >= EXPERIMENT_MAX_TEXT) {
        snprintf(message, size, "%.60s...: event string longer than %d characters", text,
                 EXPERIMENT_MAX_TEXT - 1);
        return false;
    }
    set->requests[set->n].group = group;
    snprintf(set->text[set->n], EXPERIMENT_MAX_TEXT, "%s", text);
    set->line[set->n++] = line;
    return true;
}

bool experiment_add(struct experiment_set *set, const struct nb_pmu_config *config, const char *text,
                    int group, int line, char *error, size_t error_size)
{
    if (!keep_line(set, text, group, line, error, error_size))
        return false;
    if (event_spec_parse(text, config, &set->requests[set->n - 1].spec, error, error_size))
        return true;
    set->n--;
    return false;
}

/* Strips a '#' comment and surrounding white space, in place. */
static char *trim_line(char *line)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    line += strspn(line, " \t");
    size_t n = strlen(line);
    while (n > 0 && strchr(" \t\r\n", line[n - 1]))
        line[--n] = '\0';
    return line;
}

static bool blank_line(const char *line)
{
    return line[strspn(line, " \t\r\n")] == '\0';
}

/* The event lines of the file; each experiment (the lines between blank
 * lines) is one group; comment lines separate nothing.  False with the
 * line reader's message in `error`, or with the line's in `message` and
 * its number in *line_no. */
static bool read_lines(struct experiment_set *set, FILE *in, const char *path, int *line_no,
                       char *message, size_t size, char *error, size_t error_size)
{
    struct line_stream lines;
    line_stream_init(&lines, in, path, TEXT_MAX_LINE);
    int group = 0;
    bool in_experiment = false, ok = true;
    enum line_result result;
    while (ok && (result = line_stream_next(&lines, error, error_size)) == LINE_READ) {
        *line_no = (int)lines.line;
        if (blank_line(lines.text)) {
            group += in_experiment;
            in_experiment = false;
        } else if (*trim_line(lines.text)) {
            ok = keep_line(set, trim_line(lines.text), group, *line_no, message, size);
            in_experiment = true;
        }
    }
    line_stream_free(&lines);
    return ok && result == LINE_END;
}

/* Parses the lines kept, for the model their prefixes choose unless
 * config has one (event_spec_cpuid_model). */
static bool parse_lines(struct experiment_set *set, struct nb_pmu_config *config, int *line_no,
                        char *message, size_t size)
{
    const char *texts[ALLOC_MAX_REQUESTS];
    for (int i = 0; i < set->n; i++)
        texts[i] = set->text[i];
    config->model = event_spec_cpuid_model(config->model, texts, set->n);
    for (int i = 0; i < set->n; i++)
        if (!event_spec_parse(set->text[i], config, &set->requests[i].spec, message, size)) {
            *line_no = set->line[i];
            return false;
        }
    return true;
}

bool experiment_read(struct experiment_set *set, FILE *in, const char *path,
                     struct nb_pmu_config *config, char *error, size_t error_size)
{
    char message[EXPERIMENT_MAX_TEXT + 200] = "";
    int line_no = 0;
    if (!read_lines(set, in, path, &line_no, message, sizeof message, error, error_size)) {
        if (message[0])
            error_at_line(0, error, error_size, path, (unsigned long)line_no, "%s", message);
        return false;
    }
    if (!parse_lines(set, config, &line_no, message, sizeof message)) {
        error_at_line(0, error, error_size, path, (unsigned long)line_no, "%s", message);
        return false;
    }
    if (set->n == 0) {
        snprintf(error, error_size, "%s: no events", path);
        return false;
    }
    return true;
}
