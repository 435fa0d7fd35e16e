#include "experiment.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool experiment_add(struct experiment_set *set, const struct nb_config *config, const char *text,
                    int group, int line, char *error, size_t error_size)
{
    if (set->n == ALLOC_MAX_REQUESTS) {
        snprintf(error, error_size, "too many events (at most %d)", ALLOC_MAX_REQUESTS);
        return false;
    }
    struct alloc_request *request = &set->requests[set->n];
    if (!event_spec_parse(text, config, &request->spec, error, error_size))
        return false;
    request->group = group;
    snprintf(set->text[set->n], EXPERIMENT_MAX_TEXT, "%s", text);
    set->line[set->n] = line;
    set->n++;
    return true;
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

/* Each experiment (the lines between blank lines) is one group; comment
 * lines separate nothing. */
bool experiment_read(struct experiment_set *set, FILE *in, const char *path,
                     const struct nb_config *config, char *error, size_t error_size)
{
    char *line = NULL, message[EXPERIMENT_MAX_TEXT + 200];
    size_t size = 0;
    int group = 0, line_no = 0;
    bool in_experiment = false, ok = true;
    ssize_t length;
    message[0] = '\0';
    while (ok && (length = getline(&line, &size, in)) >= 0) {
        line_no++;
        if (memchr(line, '\0', (size_t)length)) {
            snprintf(message, sizeof message, "unexpected NUL byte");
            ok = false;
        } else if (blank_line(line)) {
            group += in_experiment;
            in_experiment = false;
        } else if (*trim_line(line)) {
            ok = experiment_add(set, config, trim_line(line), group, line_no, message,
                                sizeof message);
            in_experiment = true;
        }
    }
    free(line);
    if (!ok)
        snprintf(error, error_size, "%s:%d: %s", path, line_no, message);
    else if (ferror(in))
        snprintf(error, error_size, "%s: read error: %s", path, strerror(errno));
    else if (set->n == 0)
        snprintf(error, error_size, "%s: no events", path);
    return ok && !ferror(in) && set->n > 0;
}
