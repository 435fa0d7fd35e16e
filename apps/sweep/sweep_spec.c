/* The sweep spec: its parser and its checks against the models
 * (sweep.h, docs/sweep.md "The spec"). */
#include "sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "apps/stat/stat_events.h"
#include "util/error_line.h"
#include "util/input_file.h"

enum { MAX_SPEC = 1 << 20 }; /* bytes: a spec is a few lines */

struct spec_in {
    const char *path;
    int line;
    char *error;
    size_t error_size;
    int events_line;          /* where `events` was, or 0 */
};

__attribute__((format(printf, 3, 4))) static bool spec_fail(struct spec_in *in, int line,
                                                            const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    if (line)
        error_at_vline(0, in->error, in->error_size, in->path, (unsigned long)line, format, ap);
    else
        error_at_vfile(0, in->error, in->error_size, in->path, format, ap);
    va_end(ap);
    return false;
}

/* Appends a copy of `word` to a list; false when out of memory. */
static bool push(char ***list, size_t *n, const char *word, size_t length)
{
    char **grown = realloc(*list, (*n + 1) * sizeof **list);
    if (!grown)
        return false;
    *list = grown;
    if (!(grown[*n] = strndup(word, length)))
        return false;
    ++*n;
    return true;
}

static bool listed(char *const *list, size_t n, const char *word, size_t length)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(list[i]) == length && memcmp(list[i], word, length) == 0)
            return true;
    return false;
}

/* The words of a line, split at blanks: at most 256 of them. */
struct words {
    const char *at[256];
    size_t length[256];
    size_t n;
};

static bool split(struct spec_in *in, const char *line, size_t size, struct words *words)
{
    words->n = 0;
    for (size_t i = 0; i < size;) {
        if (line[i] == ' ' || line[i] == '\t') {
            i++;
            continue;
        }
        size_t start = i;
        while (i < size && line[i] != ' ' && line[i] != '\t')
            i++;
        if (words->n == sizeof words->at / sizeof words->at[0])
            return spec_fail(in, in->line, "more than %zu words",
                             sizeof words->at / sizeof words->at[0]);
        if (i - start > SWEEP_MAX_WORD)
            return spec_fail(in, in->line, "a word longer than %d bytes", SWEEP_MAX_WORD);
        words->at[words->n] = line + start;
        words->length[words->n++] = i - start;
    }
    return true;
}

/* `trace FILE...` or `model NAME...`: each value once in the spec. */
static bool add_values(struct spec_in *in, const struct words *words, const char *what,
                       char ***list, size_t *n)
{
    if (words->n == 1)
        return spec_fail(in, in->line, "%s: no value (expected '%s %s...')", what, what,
                         strcmp(what, "trace") == 0 ? "FILE" : "MODEL");
    for (size_t i = 1; i < words->n; i++) {
        if (listed(*list, *n, words->at[i], words->length[i]))
            return spec_fail(in, in->line, "%s '%.*s' given twice", what, (int)words->length[i],
                             words->at[i]);
        if (!push(list, n, words->at[i], words->length[i]))
            return spec_fail(in, in->line, "out of memory");
        if (strcmp(what, "model") == 0) {
            struct machine_config model;
            char why[512];
            if (!machine_config_choose((*list)[*n - 1], &model, why, sizeof why))
                return spec_fail(in, in->line, "model: %s", why);
        }
    }
    return true;
}

/* One NAME=V1,V2... word. */
static bool add_param(struct spec_in *in, struct sweep_spec *spec, const char *word,
                      size_t length)
{
    const char *eq = memchr(word, '=', length);
    if (!eq || eq == word)
        return spec_fail(in, in->line, "param: bad '%.*s' (expected NAME=VALUE[,VALUE...])",
                         (int)length, word);
    size_t name_length = (size_t)(eq - word);
    for (size_t i = 0; i < spec->n_params; i++)
        if (strlen(spec->params[i].name) == name_length &&
            memcmp(spec->params[i].name, word, name_length) == 0)
            return spec_fail(in, in->line, "param '%.*s' given twice (first on line %d)",
                             (int)name_length, word, spec->params[i].line);
    if (spec->n_params == SWEEP_MAX_PARAMS)
        return spec_fail(in, in->line, "more than %d params", SWEEP_MAX_PARAMS);
    struct sweep_param *param = &spec->params[spec->n_params++];
    *param = (struct sweep_param){.name = strndup(word, name_length), .line = in->line};
    if (!param->name)
        return spec_fail(in, in->line, "out of memory");
    const char *end = word + length;
    for (const char *value = eq + 1;; value++) {
        const char *comma = memchr(value, ',', (size_t)(end - value));
        size_t n = (size_t)((comma ? comma : end) - value);
        if (n == 0)
            return spec_fail(in, in->line, "param '%s': an empty value (expected "
                             "NAME=VALUE[,VALUE...])", param->name);
        if (listed(param->values, param->n_values, value, n))
            return spec_fail(in, in->line, "param '%s': value '%.*s' given twice", param->name,
                             (int)n, value);
        if (!push(&param->values, &param->n_values, value, n))
            return spec_fail(in, in->line, "out of memory");
        if (!comma)
            return true;
        value = comma;
    }
}

static bool add_events(struct spec_in *in, struct sweep_spec *spec, const struct words *words)
{
    if (in->events_line)
        return spec_fail(in, in->line, "events given twice (first on line %d)", in->events_line);
    if (words->n != 2)
        return spec_fail(in, in->line, "events: expected one list, 'events EVENT[,EVENT...]'");
    const char *list = words->at[1];
    size_t n = words->length[1];
    bool empty = list[0] == ',' || list[n - 1] == ',';
    for (size_t i = 1; i < n; i++)
        empty |= list[i] == ',' && list[i - 1] == ',';
    if (empty)
        return spec_fail(in, in->line, "events: an empty event name (expected "
                         "EVENT[,EVENT...])");
    in->events_line = in->line;
    return (spec->events = strndup(list, n)) || spec_fail(in, in->line, "out of memory");
}

static bool parse_line(struct spec_in *in, struct sweep_spec *spec, const char *line,
                       size_t size)
{
    if (memchr(line, '\0', size))
        return spec_fail(in, in->line, "a NUL byte (expected text)");
    struct words words;
    if (!split(in, line, size, &words))
        return false;
    if (words.n == 0 || words.at[0][0] == '#')
        return true;
    const char *keyword = words.at[0];
    size_t length = words.length[0];
    if (length == 5 && memcmp(keyword, "trace", 5) == 0)
        return add_values(in, &words, "trace", &spec->traces, &spec->n_traces);
    if (length == 5 && memcmp(keyword, "model", 5) == 0)
        return add_values(in, &words, "model", &spec->models, &spec->n_models);
    if (length == 6 && memcmp(keyword, "events", 6) == 0)
        return add_events(in, spec, &words);
    if (length == 5 && memcmp(keyword, "param", 5) == 0) {
        if (words.n == 1)
            return spec_fail(in, in->line, "param: no value (expected 'param "
                             "NAME=VALUE[,VALUE...]')");
        for (size_t i = 1; i < words.n; i++)
            if (!add_param(in, spec, words.at[i], words.length[i]))
                return false;
        return true;
    }
    return spec_fail(in, in->line, "unknown keyword '%.*s' (expected trace, model, param or "
                     "events)", (int)(length > 64 ? 64 : length), keyword);
}

/* The events line split at its commas (add_events refused empty names),
 * each event once as stat counts it: `*list` holds the strings, `*events`
 * points into it; false when out of memory. */
static bool split_events(const char *text, char **list, const char ***events, int *n)
{
    size_t count = 1;
    for (const char *c = strchr(text, ','); c; c = strchr(c + 1, ','))
        count++;
    *list = strdup(text);
    *events = malloc(count * sizeof **events);
    if (!*list || !*events)
        return false;
    char *save;
    *n = 0;
    for (char *e = strtok_r(*list, ",", &save); e; e = strtok_r(NULL, ",", &save))
        if (!stat_events_repeated(*events, *n, e))
            (*events)[(*n)++] = e;
    return true;
}

/* Plans the events on `model` as stat would (one trace: no
 * Hyper-Threading); the message names the model and the param value
 * `param`'s `value` set on it, if any. */
static bool plan_on(struct spec_in *in, const struct sweep_spec *spec, size_t m,
                    const struct machine_config *model, const struct sweep_param *param,
                    size_t value, const char *const *events, int n)
{
    struct alloc_plan plan;
    char why[1024];
    if (stat_events_plan(model, events, n, false, &plan, why, sizeof why)) {
        alloc_plan_free(&plan);
        return true;
    }
    if (param)
        return spec_fail(in, in->events_line, "events on model %s with %s=%s: %s",
                         spec->models[m], param->name, param->values[value], why);
    return spec_fail(in, in->events_line, "events on model %s: %s", spec->models[m], why);
}

/* The events on model `m` (set up as stat sets it up) in every job: a
 * plan depends on the CPUID model alone (stat_events_plan), so when a
 * param sets that, on each of its values, else on the model as it is. */
static bool check_events(struct spec_in *in, const struct sweep_spec *spec, size_t m,
                         const struct machine_config *model, const char *const *events, int n)
{
    bool varied = false;
    char why[512];
    for (size_t p = 0; p < spec->n_params; p++) {
        const struct sweep_param *param = &spec->params[p];
        bool sets_cpuid = false;
        for (size_t v = 0; v < param->n_values && !sets_cpuid; v++) {
            struct machine_config set = *model;
            machine_config_set(&set, param->name, param->values[v], why, sizeof why);
            sets_cpuid = machine_pmu_config(&set, false).model !=
                         machine_pmu_config(model, false).model;
        }
        for (size_t v = 0; v < param->n_values && sets_cpuid; v++) {
            struct machine_config set = *model;
            machine_config_set(&set, param->name, param->values[v], why, sizeof why);
            if (!plan_on(in, spec, m, &set, param, v, events, n))
                return false;
        }
        varied |= sets_cpuid;
    }
    return varied || plan_on(in, spec, m, model, NULL, 0, events, n);
}

/* Every value of every param on every model, and the events: what stat
 * would refuse, refused before any job runs. */
static bool check_models(struct spec_in *in, const struct sweep_spec *spec)
{
    const char **events = spec->event_names;
    int n = spec->n_event_names;
    bool ok = true;
    char why[512];
    for (size_t m = 0; ok && m < spec->n_models; m++) {
        struct machine_config model;
        machine_config_choose_for(spec->models[m], events, n, &model, why, sizeof why);
        for (size_t p = 0; ok && p < spec->n_params; p++) {
            const struct sweep_param *param = &spec->params[p];
            for (size_t v = 0; ok && v < param->n_values; v++) {
                struct machine_config set = model;
                if (!machine_config_set(&set, param->name, param->values[v], why, sizeof why))
                    ok = spec_fail(in, param->line, "param '%s' on model %s: %s", param->name,
                                   spec->models[m], why);
            }
        }
        ok = ok && (!spec->events || check_events(in, spec, m, &model, events, n));
    }
    return ok;
}

static bool check_spec(struct spec_in *in, const struct sweep_spec *spec)
{
    if (!spec->n_traces)
        return spec_fail(in, 0, "no trace (expected a line 'trace FILE...')");
    if (!spec->n_models)
        return spec_fail(in, 0, "no model (expected a line 'model MODEL...')");
    size_t jobs = spec->n_traces;
    bool too_many = jobs > SWEEP_MAX_JOBS;
    too_many |= (jobs *= spec->n_models) > SWEEP_MAX_JOBS;
    for (size_t p = 0; p < spec->n_params && !too_many; p++)
        too_many = (jobs *= spec->params[p].n_values) > SWEEP_MAX_JOBS;
    if (too_many)
        return spec_fail(in, 0, "more than %d jobs", SWEEP_MAX_JOBS);
    return check_models(in, spec);
}

bool sweep_spec_parse(const char *text, size_t size, const char *path, const char *base,
                      struct sweep_spec *spec, char *error, size_t error_size)
{
    *spec = (struct sweep_spec){0};
    struct spec_in in = {.path = path, .error = error, .error_size = error_size};
    bool ok = (spec->path = strdup(path)) && (spec->base = strdup(base));
    if (!ok)
        spec_fail(&in, 0, "out of memory");
    for (size_t at = 0; ok && at < size;) {
        const char *newline = memchr(text + at, '\n', size - at);
        size_t length = newline ? (size_t)(newline - (text + at)) : size - at;
        size_t used = length;
        if (used && text[at + used - 1] == '\r')
            used--;
        in.line++;
        ok = parse_line(&in, spec, text + at, used);
        at += length + 1;
    }
    ok = ok && (!spec->events ||
                split_events(spec->events, &spec->event_words, &spec->event_names,
                             &spec->n_event_names) ||
                spec_fail(&in, in.events_line, "out of memory"));
    ok = ok && check_spec(&in, spec);
    if (!ok)
        sweep_spec_free(spec);
    return ok;
}

/* The directory of `path`, absolute. */
static char *directory_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash == path ? strdup("/") : slash ? strndup(path, (size_t)(slash - path))
                                                    : strdup(".");
    char *absolute = dir ? realpath(dir, NULL) : NULL;
    free(dir);
    return absolute;
}

bool sweep_spec_read_file(const char *path, struct sweep_spec *spec, char *error,
                          size_t error_size)
{
    FILE *f = input_open(path, error, error_size);
    if (!f)
        return false;
    char *text = malloc(MAX_SPEC);
    size_t size = text ? fread(text, 1, MAX_SPEC, f) : 0;
    bool read_error = ferror(f);
    bool too_big = size == MAX_SPEC && fgetc(f) != EOF;
    fclose(f);
    char *base = directory_of(path);
    bool ok = false;
    if (!text || !base)
        snprintf(error, error_size, "%s: %s", path, strerror(text ? errno : ENOMEM));
    else if (read_error)
        snprintf(error, error_size, "%s: cannot read", path);
    else if (too_big)
        snprintf(error, error_size, "%s: longer than %d bytes (expected a sweep spec)", path,
                 MAX_SPEC);
    else
        ok = sweep_spec_parse(text, size, path, base, spec, error, error_size);
    free(text);
    free(base);
    return ok;
}

static void free_list(char **list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

void sweep_spec_free(struct sweep_spec *spec)
{
    free(spec->path);
    free(spec->base);
    free_list(spec->traces, spec->n_traces);
    free_list(spec->models, spec->n_models);
    for (size_t p = 0; p < spec->n_params; p++) {
        free(spec->params[p].name);
        free_list(spec->params[p].values, spec->params[p].n_values);
    }
    free(spec->events);
    free(spec->event_names);
    free(spec->event_words);
    *spec = (struct sweep_spec){0};
}
