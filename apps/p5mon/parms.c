/* The IMPACT PARMS reader for run_p5mon's parameters (Safford 1997, Figure C.1,
 * Table C.1).  docs/p5mon.md, "PARMS files". */
#include "parms.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/number.h"
#include "pmu/catalog/p5_events.h"
#include "util/suggest.h"
#include "util/error_line.h"
#include "util/input_file.h"

enum parm_kind { KIND_BOOL, KIND_INT, KIND_STRING, KIND_INTERVAL };

/* One named parameter; exactly one of the targets is used. */
struct parm {
    const char *name;
    enum parm_kind kind;
    size_t offset;   /* of the field in struct p5mon_parms */
    int min, max;    /* KIND_INT */
};

#define FIELD(f) offsetof(struct p5mon_parms, f)
/* Accepted and checked, with no effect (docs/p5mon.md): IMPACT's generic
 * keys, and Figure C.1's repeat_first_run, which Safford 1997 never explains. */
#define IGNORED ((size_t)-1)

static const struct parm parms_table[] = {
    {"command", KIND_STRING, FIELD(command), 0, 0},
    {"repetitions", KIND_INT, FIELD(repetitions), 1, P5MON_MAX_REPETITIONS},
    {"user_events", KIND_BOOL, FIELD(user_events), 0, 0},
    {"kernel_events", KIND_BOOL, FIELD(kernel_events), 0, 0},
    {"output_all_results", KIND_BOOL, FIELD(output_all_results), 0, 0},
    {"confidence_level_99", KIND_BOOL, FIELD(confidence_99), 0, 0},
    {"conf_level_99", KIND_BOOL, FIELD(confidence_99), 0, 0},
    {"use_assembly_regions", KIND_BOOL, FIELD(use_assembly_regions), 0, 0},
    {"max_regions", KIND_INT, FIELD(max_regions), 1, P5MON_MAX_REGIONS},
    {"output_file", KIND_STRING, FIELD(output_file), 0, 0},
    {"skip_initialization_run", KIND_BOOL, FIELD(skip_initialization_run), 0, 0},
    {"verbose_level", KIND_INT, FIELD(verbose_level), 0, 2},
    {"repeat_first_run", KIND_BOOL, IGNORED, 0, 0},
    {"dump_parms", KIND_BOOL, IGNORED, 0, 0},
    {"warn_parm_not_defined", KIND_BOOL, IGNORED, 0, 0},
    {"warn_parm_defined_twice", KIND_BOOL, IGNORED, 0, 0},
    {"warn_parm_not_used", KIND_BOOL, IGNORED, 0, 0},
    {"parm_warn_file_name", KIND_STRING, IGNORED, 0, 0},
    {"parm_dump_file_name", KIND_STRING, IGNORED, 0, 0},
    {"trace", KIND_STRING, FIELD(trace), 0, 0},
    {"model", KIND_STRING, FIELD(model), 0, 0},
    {"interval", KIND_INTERVAL, FIELD(interval), 0, 0},
};
enum { N_PARMS = sizeof parms_table / sizeof parms_table[0] };

static const char model_prefix[] = "model_";

void p5mon_parms_defaults(struct p5mon_parms *parms)
{
    memset(parms, 0, sizeof *parms);
    parms->repetitions = 1;
    parms->user_events = true;
    parms->max_regions = P5MON_MAX_REGIONS;
    parms->interval = P5MON_INTERVAL_RUN_P5MON;
    snprintf(parms->model.value, sizeof parms->model.value, "p5");
    snprintf(parms->model.where, sizeof parms->model.where, "the default model");
}

static const struct parm *find_parm(const char *name)
{
    for (int i = 0; i < N_PARMS; i++)
        if (strcasecmp(parms_table[i].name, name) == 0)
            return &parms_table[i];
    return NULL;
}

static bool parse_bool(const char *value, bool *out)
{
    if (strcasecmp(value, "yes") == 0)
        *out = true;
    else if (strcasecmp(value, "no") == 0)
        *out = false;
    else
        return false;
    return true;
}

static bool parse_interval(const char *value, enum p5mon_interval *out)
{
    if (strcmp(value, "run_p5mon") == 0)
        *out = P5MON_INTERVAL_RUN_P5MON;
    else if (strcmp(value, "student") == 0)
        *out = P5MON_INTERVAL_STUDENT;
    else
        return false;
    return true;
}

static bool set_known(struct p5mon_parms *parms, const struct parm *parm, const char *value,
                      const char *where, char *error, size_t error_size)
{
    /* NULL for the parameters accepted with no effect: checked only. */
    char *field = parm->offset == IGNORED ? NULL : (char *)parms + parm->offset;
    bool flag;
    uint64_t number;
    char message[P5MON_MAX_LINE + 128];
    enum p5mon_interval interval;
    switch (parm->kind) {
    case KIND_BOOL:
        if (!parse_bool(value, &flag)) {
            snprintf(error, error_size, "%s: expected yes or no for %s, got '%s'", where,
                     parm->name, value);
            return false;
        }
        if (field)
            *(bool *)field = flag;
        return true;
    case KIND_INT:
        if (!number_read(parm->name, value, (uint64_t)parm->min, (uint64_t)parm->max, &number,
                         message, sizeof message)) {
            snprintf(error, error_size, "%s: %s", where, message);
            return false;
        }
        *(int *)field = (int)number;
        return true;
    case KIND_INTERVAL:
        if (!parse_interval(value, &interval)) {
            snprintf(error, error_size, "%s: expected run_p5mon or student for interval, got '%s'",
                     where, value);
            return false;
        }
        *(enum p5mon_interval *)field = interval;
        return true;
    case KIND_STRING:
        if (field) {
            struct p5mon_setting *setting = (struct p5mon_setting *)field;
            snprintf(setting->value, sizeof setting->value, "%s", value);
            snprintf(setting->where, sizeof setting->where, "%s", where);
        }
        return true;
    }
    return true;
}

static bool set_event(struct p5mon_parms *parms, const char *name, const char *value,
                      const char *where, char *error, size_t error_size)
{
    const struct p5_event *event = p5_event_by_name(name);
    bool *field = event ? &parms->events[event->code] : &parms->count_clocks;
    if (!parse_bool(value, field)) {
        snprintf(error, error_size, "%s: expected yes or no for %s, got '%s'", where,
                 event ? event->name : "count_clocks", value);
        return false;
    }
    return true;
}

static bool set_model_parm(struct p5mon_parms *parms, const char *name, const char *value,
                           const char *where, char *error, size_t error_size)
{
    const char *key = name + strlen(model_prefix);
    struct p5mon_model_parm *slot = NULL;
    for (int i = 0; i < parms->n_model_parms && !slot; i++)
        if (strcmp(parms->model_parms[i].name, key) == 0)
            slot = &parms->model_parms[i];
    if (!slot && parms->n_model_parms == P5MON_MAX_MODEL_PARMS) {
        snprintf(error, error_size, "%s: expected at most %d model_ parameters", where,
                 P5MON_MAX_MODEL_PARMS);
        return false;
    }
    if (!slot)
        slot = &parms->model_parms[parms->n_model_parms++];
    snprintf(slot->name, sizeof slot->name, "%s", key);
    snprintf(slot->setting.value, sizeof slot->setting.value, "%s", value);
    snprintf(slot->setting.where, sizeof slot->setting.where, "%s", where);
    return true;
}

static bool is_model_parm(const char *name)
{
    size_t prefix = strlen(model_prefix);
    return strncasecmp(name, model_prefix, prefix) == 0 && name[prefix] &&
           strlen(name + prefix) < sizeof ((struct p5mon_model_parm *)0)->name;
}

/* Sets one parameter by name. */
static bool set_parm(struct p5mon_parms *parms, const char *name, const char *value,
                     const char *where, char *error, size_t error_size)
{
    const struct parm *parm = find_parm(name);
    if (parm)
        return set_known(parms, parm, value, where, error, error_size);
    if (p5_event_by_name(name) || strcasecmp(name, "count_clocks") == 0)
        return set_event(parms, name, value, where, error, error_size);
    if (is_model_parm(name))
        return set_model_parm(parms, name, value, where, error, error_size);
    struct suggestion near;
    suggestion_start(&near, name);
    for (int i = 0; i < N_PARMS; i++)
        suggestion_consider(&near, parms_table[i].name);
    p5_events_suggest(&near);
    suggestion_consider(&near, "count_clocks");
    if (near.best) {
        snprintf(error, error_size, "%s: unknown parameter '%s' (did you mean '%s'?)", where, name,
                 near.best);
        return false;
    }
    snprintf(error, error_size,
             "%s: unknown parameter '%s' (expected a run_p5mon parameter, an event name, "
             "count_clocks or model_NAME)",
             where, name);
    return false;
}

/* ---- Lines */

static char *skip_space(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static void trim_end(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
}

static bool is_name_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

/* The identifier at *s, moved past; its length (0 when none). */
static size_t take_name(char **s)
{
    size_t n = 0;
    if (!is_name_start((*s)[0]))
        return 0;
    while (is_name_start((*s)[n]) || isdigit((unsigned char)(*s)[n]))
        n++;
    *s += n;
    return n;
}

/* Splits "name = value;" in place: false with what was expected. */
static bool split_assignment(char *line, char **name, char **value, const char *where,
                             char *error, size_t error_size)
{
    char *s = line;
    *name = s;
    size_t length = take_name(&s);
    if (length == 0) {
        snprintf(error, error_size, "%s: expected 'name = value;' or 'end)', got '%s'", where, line);
        return false;
    }
    char *after_name = s;
    s = skip_space(s);
    if (*s != '=') {
        snprintf(error, error_size, "%s: expected '=' after '%.*s'", where, (int)length, *name);
        return false;
    }
    *after_name = '\0';
    s = skip_space(s + 1);
    char *semicolon = strrchr(s, ';');
    if (!semicolon || semicolon[1] != '\0') {
        snprintf(error, error_size, "%s: expected ';' at the end of the line", where);
        return false;
    }
    *semicolon = '\0';
    trim_end(s);
    if (*s == '\0') {
        snprintf(error, error_size, "%s: expected a value for %s before ';'", where, *name);
        return false;
    }
    *value = s;
    return true;
}

/* Reading state: which section the reader is in, and what it has seen. */
struct reader {
    const char *name;
    bool in_section;
    bool in_p5mon;
    int section_line;   /* where the current section opened */
    int p5mon_line;     /* where the (p5mon section opened, 0: not yet */
    char section[64];
    /* Each parameter set in the file: its canonical name and line. */
    int n_seen;
    struct { char name[72]; int line; } seen[N_PARMS + P5_NUM_CODES + P5MON_MAX_MODEL_PARMS + 1];
};

/* The name a duplicate is detected under: aliases and case folded. */
static void canonical_name(const char *name, char *out, size_t size)
{
    const struct parm *parm = find_parm(name);
    const struct p5_event *event = p5_event_by_name(name);
    if (parm && parm->offset == FIELD(confidence_99))
        snprintf(out, size, "confidence_level_99");
    else if (parm)
        snprintf(out, size, "%s", parm->name);
    else if (event)
        snprintf(out, size, "%s", event->name);
    else {
        snprintf(out, size, "%s", name);
        for (char *c = out; *c; c++)
            *c = (char)tolower((unsigned char)*c);
    }
}

static bool note_seen(struct reader *reader, const char *name, int line, const char *where,
                      char *error, size_t error_size)
{
    char canonical[72];
    canonical_name(name, canonical, sizeof canonical);
    for (int i = 0; i < reader->n_seen; i++)
        if (strcmp(reader->seen[i].name, canonical) == 0) {
            snprintf(error, error_size, "%s: %s is already set at line %d", where, name,
                     reader->seen[i].line);
            return false;
        }
    int capacity = (int)(sizeof reader->seen / sizeof reader->seen[0]);
    if (reader->n_seen < capacity) {
        snprintf(reader->seen[reader->n_seen].name, sizeof reader->seen[0].name, "%s", canonical);
        reader->seen[reader->n_seen++].line = line;
    }
    return true;
}

static bool open_section(struct reader *reader, char *s, int line, const char *where,
                         char *error, size_t error_size)
{
    char *name = ++s;
    size_t length = take_name(&s);
    if (length == 0 || *skip_space(s) != '\0' || length >= sizeof reader->section) {
        snprintf(error, error_size, "%s: expected '(NAME' to open a section, got '%s'", where,
                 name - 1);
        return false;
    }
    snprintf(reader->section, sizeof reader->section, "%.*s", (int)length, name);
    reader->in_section = true;
    reader->section_line = line;
    reader->in_p5mon = strcmp(reader->section, "p5mon") == 0;
    if (reader->in_p5mon && reader->p5mon_line) {
        snprintf(error, error_size, "%s: a second (p5mon section (the first is at line %d)", where,
                 reader->p5mon_line);
        return false;
    }
    if (reader->in_p5mon)
        reader->p5mon_line = line;
    return true;
}

static bool section_line(struct reader *reader, struct p5mon_parms *parms, char *s, int line,
                         const char *where, char *error, size_t error_size)
{
    if (strcmp(s, "end)") == 0) {
        reader->in_section = false;
        return true;
    }
    char *name, *value;
    if (!split_assignment(s, &name, &value, where, error, error_size))
        return false;
    if (!reader->in_p5mon)
        return true;
    return note_seen(reader, name, line, where, error, error_size) &&
           set_parm(parms, name, value, where, error, error_size);
}

static bool read_line(struct reader *reader, struct p5mon_parms *parms, char *text, int line,
                      char *error, size_t error_size)
{
    char where[P5MON_WHERE_SIZE];
    snprintf(where, sizeof where, "%s:%d", reader->name, line);
    trim_end(text);
    char *s = skip_space(text);
    if (*s == '\0' || *s == '#')
        return true;
    if (reader->in_section)
        return section_line(reader, parms, s, line, where, error, error_size);
    if (*s == '(')
        return open_section(reader, s, line, where, error, error_size);
    snprintf(error, error_size, "%s: expected '(NAME' to open a section, got '%s'", where, s);
    return false;
}

bool p5mon_parms_read(FILE *in, const char *name, struct p5mon_parms *parms, char *error,
                      size_t error_size)
{
    struct reader *reader = calloc(1, sizeof *reader);
    if (!reader)
        return error_line(ENOMEM, error, error_size, "%s: out of memory", name);
    reader->name = name;
    struct line_stream lines;
    line_stream_init(&lines, in, name, TEXT_MAX_LINE);
    enum line_result result;
    bool ok = true;
    while (ok && (result = line_stream_next(&lines, error, error_size)) == LINE_READ)
        ok = read_line(reader, parms, lines.text, (int)lines.line, error, error_size);
    ok = ok && result == LINE_END;
    if (ok && reader->in_section) {
        ok = error_at_line(0, error, error_size, name, lines.line,
                           "expected 'end)' to close the section '%s' of line %d",
                           reader->section, reader->section_line);
    }
    if (ok && !reader->p5mon_line) {
        ok = error_at_line(0, error, error_size, name, lines.line,
                           "expected a '(p5mon' section");
    }
    line_stream_free(&lines);
    free(reader);
    return ok;
}

bool p5mon_parms_override(struct p5mon_parms *parms, const char *argument, int index,
                          char *error, size_t error_size)
{
    char where[32];
    snprintf(where, sizeof where, "-F:%d", index);
    const char *equals = strchr(argument, '=');
    size_t length = equals ? (size_t)(equals - argument) : 0;
    char name[128];
    if (!equals || length == 0 || length >= sizeof name || equals[1] == '\0') {
        snprintf(error, error_size, "%s: expected name=value, got '%s'", where, argument);
        return false;
    }
    snprintf(name, sizeof name, "%.*s", (int)length, argument);
    char *cursor = name;
    if (take_name(&cursor) != length) {
        snprintf(error, error_size, "%s: expected a parameter name before '=', got '%s'", where,
                 name);
        return false;
    }
    return set_parm(parms, name, equals + 1, where, error, error_size);
}

bool p5mon_parms_check(const struct p5mon_parms *parms, const char *name, char *error,
                       size_t error_size)
{
    int events[P5MON_MAX_EVENTS];
    if (!parms->command.value[0] && !parms->trace.value[0]) {
        snprintf(error, error_size, "%s: expected command (the program to record) or trace", name);
        return false;
    }
    if (p5mon_parms_events(parms, events) == 0) {
        snprintf(error, error_size,
                 "%s: expected at least one event (an event name or count_clocks = yes)", name);
        return false;
    }
    return true;
}

static bool read_file(const char *path, struct p5mon_parms *parms, char *error,
                      size_t error_size)
{
    FILE *in = input_open(path, error, error_size);
    if (!in)
        return false;
    bool ok = p5mon_parms_read(in, path, parms, error, error_size);
    fclose(in);
    return ok;
}

bool p5mon_parms_load(const char *path, char *const *overrides, int n_overrides,
                      struct p5mon_parms *parms, char *error, size_t error_size)
{
    p5mon_parms_defaults(parms);
    if (path && !read_file(path, parms, error, error_size))
        return false;
    for (int i = 0; i < n_overrides; i++)
        if (!p5mon_parms_override(parms, overrides[i], i + 1, error, error_size))
            return false;
    return p5mon_parms_check(parms, path ? path : "-F", error, error_size);
}

bool p5mon_parms_model(const struct p5mon_parms *parms, struct machine_config *config,
                       char *error, size_t error_size)
{
    char message[512];
    if (!machine_config_p5(parms->model.value, config, message, sizeof message)) {
        snprintf(error, error_size, "%s: %s", parms->model.where, message);
        return false;
    }
    for (int i = 0; i < parms->n_model_parms; i++) {
        const struct p5mon_model_parm *parm = &parms->model_parms[i];
        if (!machine_config_set(config, parm->name, parm->setting.value, message,
                                sizeof message)) {
            snprintf(error, error_size, "%s: %s", parm->setting.where, message);
            return false;
        }
    }
    return true;
}

int p5mon_parms_events(const struct p5mon_parms *parms, int events[P5MON_MAX_EVENTS])
{
    int n = 0;
    for (int i = 0; i < p5_num_events; i++)
        if (parms->events[p5_events[i].code])
            events[n++] = p5_events[i].code;
    if (parms->count_clocks)
        events[n++] = P5MON_CLOCKS;
    return n;
}
