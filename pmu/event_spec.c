/* Parser of event strings (README.md, "Event strings").  Modifier meanings
 * follow libpfm4's NetBurst PMU: k/u given select exactly the privilege
 * levels given (neither given: both); thr, cmpl and e turn COMPARE on; an
 * event with a single sub-event defaults to it. */
#include "event_spec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "netburst_events.h"
#include "p5_events.h"

enum { MAX_TEXT = 512 };

struct parse {
    const struct nb_config *config;
    struct event_spec *spec;
    const char *text;
    char *error;
    size_t error_size;
    bool k_given, u_given, thread_given;
};

__attribute__((format(printf, 2, 3))) static bool fail(struct parse *p, const char *fmt, ...)
{
    int used = strlen(p->text) > 80 ? snprintf(p->error, p->error_size, "%.60s...: ", p->text)
                                    : snprintf(p->error, p->error_size, "%s: ", p->text);
    va_list ap;
    va_start(ap, fmt);
    if (used >= 0 && (size_t)used < p->error_size)
        vsnprintf(p->error + used, p->error_size - (size_t)used, fmt, ap);
    va_end(ap);
    return false;
}

/* Accepts "key" (meaning 1), "key=0" or "key=1". */
static bool flag_value(struct parse *p, const char *token, const char *value, bool *out)
{
    if (!value || strcmp(value, "1") == 0) {
        *out = true;
        return true;
    }
    if (strcmp(value, "0") == 0) {
        *out = false;
        return true;
    }
    return fail(p, "bad value in '%s' (expected 0 or 1)", token);
}

static bool small_number(struct parse *p, const char *token, const char *value, unsigned max,
                         uint8_t *out)
{
    char *end;
    errno = 0;
    unsigned long v = value ? strtoul(value, &end, 0) : 0;
    if (!value || !*value || *end || errno || v > max)
        return fail(p, "bad value in '%s' (expected a number from 0 to %u)", token, max);
    *out = (uint8_t)v;
    return true;
}

static bool choice(struct parse *p, const char *token, const char *value,
                   const char *const *names, int n, uint8_t *out)
{
    for (int i = 0; i < n; i++)
        if (value && strcmp(value, names[i]) == 0) {
            *out = (uint8_t)i;
            return true;
        }
    char list[128] = "";
    for (int i = 0, used = 0; i < n; i++)
        used += snprintf(list + used, sizeof list - (size_t)used, "%s%s", i ? ", " : "",
                         names[i]);
    return fail(p, "bad value in '%s' (expected one of %s)", token, list);
}

/* Cuts the next ':'-separated field off *rest (NULL after the last). */
static char *next_field(char **rest)
{
    char *field = *rest;
    *rest = strchr(field, ':');
    if (*rest)
        *(*rest)++ = '\0';
    return field;
}

/* ---- NetBurst modifiers */

enum { NOT_A_MODIFIER, MODIFIER_OK, MODIFIER_BAD };

static int netburst_modifier(struct parse *p, char *token)
{
    char whole[MAX_TEXT];
    snprintf(whole, sizeof whole, "%s", token); /* for messages: key=value */
    static const char *const active_threads[] = {"none", "single", "both", "any"};
    static const char *const pmi_targets[] = {"", "t0", "t1", "both"};
    struct nb_event_spec *nb = &p->spec->nb;
    char *value = strchr(token, '=');
    if (value)
        *value++ = '\0';
    bool on = false;
    bool ok = true;

    if (strcmp(token, "k") == 0) {
        ok = flag_value(p, whole, value, &nb->os);
        p->k_given = true;
    } else if (strcmp(token, "u") == 0) {
        ok = flag_value(p, whole, value, &nb->usr);
        p->u_given = true;
    } else if (strcmp(token, "e") == 0) {
        ok = flag_value(p, whole, value, &nb->edge);
    } else if (strcmp(token, "cmpl") == 0) {
        ok = flag_value(p, whole, value, &nb->complement);
    } else if (strcmp(token, "thr") == 0) {
        ok = small_number(p, whole, value, 15, &nb->threshold);
    } else if (strcmp(token, "t0") == 0 || strcmp(token, "t1") == 0) {
        ok = flag_value(p, whole, value, &on);
        if (!p->thread_given)
            nb->t0 = nb->t1 = false;
        p->thread_given = true;
        *(token[1] == '0' ? &nb->t0 : &nb->t1) = on;
    } else if (strcmp(token, "at") == 0) {
        ok = choice(p, whole, value, active_threads, 4, &nb->active_thread);
    } else if (strcmp(token, "ovf_pmi") == 0) {
        ok = choice(p, whole, value, pmi_targets + 1, 3, &nb->ovf_pmi);
        nb->ovf_pmi++;
    } else if (strcmp(token, "force_ovf") == 0) {
        ok = flag_value(p, whole, value, &nb->force_ovf);
    } else if (strcmp(token, "tag") == 0) {
        ok = small_number(p, whole, value, 15, &nb->tag_value);
        nb->tag_enable = true;
    } else if (strcmp(token, "pebs") == 0) {
        ok = flag_value(p, whole, value, &nb->pebs);
    } else {
        return NOT_A_MODIFIER;
    }
    return ok ? MODIFIER_OK : MODIFIER_BAD;
}

static const char modifier_list[] =
    "k, u, e, cmpl, thr, t0, t1, at, ovf_pmi, force_ovf, tag, pebs";

/* libpfm4's pseudo sub-events TAG0-TAG3 of the execution-tagging upstream
 * events set tag enable and one bit of the tag value. */
static bool libpfm4_tag_subevent(struct nb_event_spec *nb, const char *name)
{
    if (!(nb_events[nb->event].flags & NB_EVENT_EXEC_TAG_UPSTREAM) ||
        strncasecmp(name, "TAG", 3) != 0 || name[3] < '0' || name[3] > '3' || name[4])
        return false;
    nb->tag_enable = true;
    nb->tag_value |= (uint8_t)(1u << (name[3] - '0'));
    return true;
}

static bool netburst_subevent(struct parse *p, const char *name)
{
    struct nb_event_spec *nb = &p->spec->nb;
    const struct nb_event *event = &nb_events[nb->event];
    const struct nb_subevent *sub = nb_subevent_find(event, name);
    if (sub && nb->metric)
        return fail(p, "'%s': a tagging metric fixes its sub-events; it takes modifiers only "
                       "(%s)", name, modifier_list);
    if (sub) {
        nb->mask |= (uint16_t)(1u << sub->bit);
        return true;
    }
    if (libpfm4_tag_subevent(nb, name))
        return true;
    char names[400];
    nb_subevent_names(event, names, sizeof names);
    if (nb->metric)
        return fail(p, "unknown modifier '%s' (valid: %s)", name, modifier_list);
    return fail(p, "unknown sub-event or modifier '%s' of %s (sub-events: %s; modifiers: %s)",
                name, event->name, names, modifier_list);
}

/* libpfm4 spells uop_type "uops_type". */
static int find_netburst_event(const char *name)
{
    if (strcasecmp(name, "uops_type") == 0)
        return nb_event_find("uop_type");
    return nb_event_find(name);
}

static bool netburst_name(struct parse *p, const char *name)
{
    struct nb_event_spec *nb = &p->spec->nb;
    const struct nb_metric *metric = nb_metric_find(name);
    if (metric) {
        nb->metric = metric;
        nb->event = nb_event_find(metric->counting_event);
        nb->mask = (uint16_t)(1u << nb_subevent_find(&nb_events[nb->event],
                                                      metric->counting_subevent)->bit);
        return true;
    }
    nb->event = find_netburst_event(name);
    if (nb->event < 0)
        return fail(p, "unknown NetBurst event '%s' ('pmubench list netburst' shows the "
                       "events and tagging metrics)", name);
    const struct nb_event *event = &nb_events[nb->event];
    if (!(event->models & (1u << p->config->model)))
        return fail(p, "event %s does not exist on model %d (it needs netburst_p: models 3, 4, "
                       "6)", event->name, p->config->model);
    return true;
}

/* On an execution-tagging metric, :tag=N picks the tag bit its upstream
 * sets and execution_event counts (NBOGUSn for tag value 1 << n). */
static bool metric_tag(struct parse *p)
{
    struct nb_event_spec *nb = &p->spec->nb;
    if (nb->metric->kind != NB_EXECUTION_TAGGING)
        return fail(p, "':tag' applies to execution-tagging metrics and upstream events, not "
                       "to %s", nb->metric->name);
    static const uint8_t one_bit[] = {1, 2, 4, 8};
    for (uint8_t bit = 0; bit < 4; bit++)
        if (nb->tag_value == one_bit[bit]) {
            nb->exec_tag_bit = bit;
            nb->exec_tag_given = true;
            nb->tag_enable = false; /* the tag goes on the upstream ESCR */
            nb->tag_value = 0;
            return true;
        }
    return fail(p, "':tag' on a tagging metric takes one tag bit: 1, 2, 4 or 8");
}

static bool check_netburst(struct parse *p)
{
    struct nb_event_spec *nb = &p->spec->nb;
    const struct nb_event *event = &nb_events[nb->event];
    char names[400];
    if (nb->mask == 0 && event->n_subevents == 1)
        nb->mask = (uint16_t)(1u << event->subevents[0].bit);
    if (nb->mask == 0) {
        nb_subevent_names(event, names, sizeof names);
        return fail(p, "%s needs a sub-event (one or more of %s)", event->name, names);
    }
    if (p->k_given || p->u_given) {
        nb->os = p->k_given && nb->os;
        nb->usr = p->u_given && nb->usr;
    }
    nb->compare = nb->threshold > 0 || nb->complement || nb->edge;
    if (!nb->t0 && !nb->t1)
        return fail(p, "no logical processor selected (':t0=0' alone leaves none; give :t0 "
                       "or :t1)");
    if (!p->config->ht) {
        if (nb->t1 && p->thread_given)
            return fail(p, "':t1' needs Hyper-Threading (this model runs with ht=off)");
        if (nb->active_thread != 3)
            return fail(p, "':at' must be 'any' without Hyper-Threading");
        if (nb->ovf_pmi & 2)
            return fail(p, "':ovf_pmi' can only name t0 without Hyper-Threading");
        nb->t1 = false;
    }
    if (nb->tag_enable && nb->metric && !metric_tag(p))
        return false;
    if (nb->tag_enable && !(event->flags & NB_EVENT_EXEC_TAG_UPSTREAM))
        return fail(p, "':tag' applies to the execution-tagging upstream events (the FIRM "
                       "uop events such as x87_FP_uop), not %s", event->name);
    if (nb->pebs && !(nb->metric && nb->metric->kind == NB_REPLAY_TAGGING))
        return fail(p, "':pebs' applies to the replay-tagging metrics (e.g. "
                       "1stL_cache_load_miss_retired)");
    return true;
}

static bool parse_netburst(struct parse *p, char *rest)
{
    struct nb_event_spec *nb = &p->spec->nb;
    *nb = (struct nb_event_spec){
        .event = -1, .os = true, .usr = true, .t0 = true, .t1 = true, .active_thread = 3,
    };
    if (!netburst_name(p, next_field(&rest)))
        return false;
    while (rest) {
        char *token = next_field(&rest);
        if (!*token)
            return fail(p, "empty field between ':' separators");
        int modifier = netburst_modifier(p, token);
        if (modifier == MODIFIER_BAD)
            return false;
        if (modifier == NOT_A_MODIFIER && !netburst_subevent(p, token))
            return false;
    }
    return check_netburst(p);
}

/* ---- P5 */

static bool parse_p5(struct parse *p, char *rest)
{
    struct p5_event_spec *p5 = &p->spec->p5;
    *p5 = (struct p5_event_spec){0};
    char *name = next_field(&rest);
    const struct p5_event *event = p5_event_by_name(name);
    if (event)
        p5->code = event->code;
    else if (strcasecmp(name, "clocks") == 0)
        p5->clocks = true;
    else
        return fail(p, "unknown P5 event '%s' ('pmubench list p5' shows the events; "
                       "p5::clocks counts clocks)", name);
    bool any_given = false;
    while (rest) {
        char *token = next_field(&rest);
        if (!*token)
            return fail(p, "empty field between ':' separators");
        if (strcmp(token, "u") == 0)
            p5->usr = true;
        else if (strcmp(token, "k") == 0)
            p5->os = true;
        else
            return fail(p, "unknown P5 modifier '%s' (valid: u, k)", token);
        any_given = true;
    }
    if (!any_given)
        p5->os = p5->usr = true;
    return true;
}

bool event_spec_parse(const char *text, const struct nb_config *config, struct event_spec *spec,
                      char *error, size_t error_size)
{
    struct parse p = {.config = config, .spec = spec, .text = text, .error = error,
                      .error_size = error_size};
    error[0] = '\0';
    memset(spec, 0, sizeof *spec);
    char buf[MAX_TEXT];
    if (strlen(text) >= sizeof buf)
        return fail(&p, "event string longer than %d characters", MAX_TEXT - 1);
    snprintf(buf, sizeof buf, "%s", text);

    char *rest = buf;
    char *sep = strstr(buf, "::");
    const char *pmu = "netburst";
    if (sep) {
        *sep = '\0';
        pmu = buf;
        rest = sep + 2;
    }
    if (strcasecmp(pmu, "p5") == 0) {
        spec->pmu = PMU_P5;
        return parse_p5(&p, rest);
    }
    if (strcasecmp(pmu, "netburst") != 0 && strcasecmp(pmu, "netburst_p") != 0)
        return fail(&p, "unknown PMU '%s' (expected netburst, netburst_p or p5)", pmu);
    if (strcasecmp(pmu, "netburst_p") == 0 && config->model < 3)
        return fail(&p, "netburst_p is the PMU of models 3, 4 and 6, not model %d",
                    config->model);
    spec->pmu = PMU_NETBURST;
    return parse_netburst(&p, rest);
}

/* ES in bits 5:0, CC in 8:6 (bit 2 clocks, bit 1 CPL 3, bit 0 CPL 0-2). */
uint32_t p5_encode_half(const struct p5_event_spec *spec)
{
    uint32_t cc = (spec->clocks ? 4u : 0u) | (spec->usr ? 2u : 0u) | (spec->os ? 1u : 0u);
    return (spec->clocks ? 0u : spec->code) | cc << 6;
}
