/* Parser of event strings (README.md, "Event strings").  Modifier meanings
 * follow libpfm4's NetBurst PMU: k/u given select exactly the privilege
 * levels given (neither given: both); thr, cmpl and e turn COMPARE on; an
 * event with a single sub-event defaults to it.  Spellings follow libpfm4's
 * parser too (pfmlib_common.c): names in any case, flags "=1", "=y", "=t"
 * or "=0", "=n", "=f", and libpfm4's own names (libpfm4_names). */
#include "event_spec.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "netburst_events.h"
#include "util/number.h"
#include "p5_events.h"
#include "p5_msrs.h"
#include "util/suggest.h"

enum { MAX_TEXT = 512 };

struct parse {
    const struct nb_pmu_config *config;
    struct event_spec *spec;
    const char *text;
    char *error;
    size_t error_size;
    bool k_given, u_given, thread_given;
    bool metric_named;  /* the event is a tagging metric's name */
    uint32_t modifiers_given; /* bit m: modifier_names[m] was given */
    bool tag_subevent;  /* a libpfm4 TAG0-TAG3 pseudo sub-event was given */
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

/* Accepts "key" (meaning 1) and libpfm4's one-character values: "key=1",
 * "key=y" or "key=t" (1), "key=0", "key=n" or "key=f" (0), in either case. */
static bool flag_value(struct parse *p, const char *token, const char *value, bool *out)
{
    bool one_char = value && value[0] && !value[1];
    if (!value || (one_char && strchr("1yYtT", value[0]))) {
        *out = true;
        return true;
    }
    if (one_char && strchr("0nNfF", value[0])) {
        *out = false;
        return true;
    }
    return fail(p, "bad value in '%s' (expected 0, 1, y, n, t or f)", token);
}

/* The value of modifier `key` ("thr"), a number from 0 to `max`. */
static bool small_number(struct parse *p, const char *key, const char *value, unsigned max,
                         uint8_t *out)
{
    uint64_t v;
    char message[MAX_TEXT + 128];
    if (!number_read(key, value ? value : "", 0, max, &v, message, sizeof message))
        return fail(p, "%s", message);
    *out = (uint8_t)v;
    return true;
}

static bool choice(struct parse *p, const char *token, const char *value,
                   const char *const *names, int n, uint8_t *out)
{
    for (int i = 0; i < n; i++)
        if (value && strcasecmp(value, names[i]) == 0) {
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

/* Each modifier may be given once, in any spelling: libpfm4 rejects a
 * second value ("attribute value already set"), pmubench any repeat. */
static const char *const modifier_names[] = {
    "k", "u", "e", "cmpl", "thr", "t0", "t1", "at", "ovf_pmi", "force_ovf", "tag", "pebs",
};

static uint32_t modifier_bit(const char *name)
{
    for (size_t m = 0; m < sizeof modifier_names / sizeof modifier_names[0]; m++)
        if (strcasecmp(name, modifier_names[m]) == 0)
            return 1u << m;
    return 0;
}

/* Notes the modifier `name` (without its value) as given; true when it was
 * given before (the caller then checks the value is the same). */
static bool modifier_seen(struct parse *p, const char *name)
{
    uint32_t bit = modifier_bit(name);
    bool seen = p->modifiers_given & bit;
    p->modifiers_given |= bit;
    return seen;
}

static int netburst_modifier_apply(struct parse *p, char *token);

/* A modifier applied; given again, it must set what it set before:
 * libpfm4 accepts `k:K` and `thr=3:thr=0x3` and rejects `k=1:k=0`
 * ("attribute value already set"). */
static int netburst_modifier(struct parse *p, char *token)
{
    char whole[MAX_TEXT];
    snprintf(whole, sizeof whole, "%s", token); /* for messages: key=value */
    char *eq = strchr(whole, '=');
    char name[MAX_TEXT];
    snprintf(name, sizeof name, "%.*s", (int)(eq ? eq - whole : (ptrdiff_t)strlen(whole)), whole);
    struct nb_event_spec before;
    memcpy(&before, &p->spec->nb, sizeof before);
    bool repeated = modifier_seen(p, name);
    int rc = netburst_modifier_apply(p, token);
    if (rc != MODIFIER_OK || !repeated || memcmp(&before, &p->spec->nb, sizeof before) == 0)
        return rc;
    fail(p, "'%s' sets modifier '%s' again to another value (each modifier once)", whole,
         modifier_names[__builtin_ctz(modifier_bit(name))]);
    return MODIFIER_BAD;
}

static int netburst_modifier_apply(struct parse *p, char *token)
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

    if (strcasecmp(token, "k") == 0) {
        ok = flag_value(p, whole, value, &nb->os);
        p->k_given = true;
    } else if (strcasecmp(token, "u") == 0) {
        ok = flag_value(p, whole, value, &nb->usr);
        p->u_given = true;
    } else if (strcasecmp(token, "e") == 0) {
        ok = flag_value(p, whole, value, &nb->edge);
    } else if (strcasecmp(token, "cmpl") == 0) {
        ok = flag_value(p, whole, value, &nb->complement);
    } else if (strcasecmp(token, "thr") == 0) {
        ok = small_number(p, token, value, 15, &nb->threshold);
    } else if (strcasecmp(token, "t0") == 0 || strcasecmp(token, "t1") == 0) {
        ok = flag_value(p, whole, value, &on);
        if (!p->thread_given)
            nb->t0 = nb->t1 = false;
        p->thread_given = true;
        *(token[1] == '0' ? &nb->t0 : &nb->t1) = on;
    } else if (strcasecmp(token, "at") == 0) {
        ok = choice(p, whole, value, active_threads, 4, &nb->active_thread);
    } else if (strcasecmp(token, "ovf_pmi") == 0) {
        ok = choice(p, whole, value, pmi_targets + 1, 3, &nb->ovf_pmi);
        nb->ovf_pmi++;
    } else if (strcasecmp(token, "force_ovf") == 0) {
        ok = flag_value(p, whole, value, &nb->force_ovf);
    } else if (strcasecmp(token, "tag") == 0) {
        ok = small_number(p, token, value, 15, &nb->tag_value);
        nb->tag_enable = true;
    } else if (strcasecmp(token, "pebs") == 0) {
        ok = flag_value(p, whole, value, &nb->pebs);
    } else {
        return NOT_A_MODIFIER;
    }
    return ok ? MODIFIER_OK : MODIFIER_BAD;
}

static const char modifier_list[] =
    "k, u, e, cmpl, thr, t0, t1, at, ovf_pmi, force_ovf, tag, pebs";

/* libpfm4's names for the catalog's (docs/events.md, NetBurst items 5 and
 * 6): an event's when `event` is NULL, else a sub-event's of `event`. */
static const struct {
    const char *event, *libpfm4, *name;
} libpfm4_names[] = {
    {NULL, "uops_type", "uop_type"},
    {"mispred_branch_retired", "BOGUS", "NBOGUS"},
    {"IOQ_allocation", "TYPE_BIT0", "ReqA0"},
    {"IOQ_allocation", "TYPE_BIT1", "ReqA1"},
    {"IOQ_allocation", "TYPE_BIT2", "ReqA2"},
    {"IOQ_allocation", "TYPE_BIT3", "ReqA3"},
    {"IOQ_allocation", "TYPE_BIT4", "ReqA4"},
    {"IOQ_active_entries", "TYPE_BIT0", "ReqA0"},
    {"IOQ_active_entries", "TYPE_BIT1", "ReqA1"},
    {"IOQ_active_entries", "TYPE_BIT2", "ReqA2"},
    {"IOQ_active_entries", "TYPE_BIT3", "ReqA3"},
    {"IOQ_active_entries", "TYPE_BIT4", "ReqA4"},
};

/* The catalog's name for `name`, an event (event NULL) or a sub-event of
 * `event` in libpfm4's spelling or the catalog's. */
static const char *catalog_name(const char *event, const char *name)
{
    for (size_t i = 0; i < sizeof libpfm4_names / sizeof libpfm4_names[0]; i++) {
        const char *of = libpfm4_names[i].event;
        bool same_event = of ? event && strcmp(of, event) == 0 : !event;
        if (same_event && strcasecmp(libpfm4_names[i].libpfm4, name) == 0)
            return libpfm4_names[i].name;
    }
    return name;
}

/* The counting event's mask of a tagging metric: its sub-event (NBOGUS,
 * the SDM's tagging tables). */
static uint16_t metric_mask(const struct nb_metric *metric)
{
    const struct nb_event_info *event = &nb_event_table[nb_taggings[metric->kind].counting_event];
    return (uint16_t)(1u << nb_subevent_find(event, nb_taggings[metric->kind].counting_subevent)->bit);
}

/* libpfm4's pseudo sub-events TAG0-TAG3 of the execution-tagging upstream
 * events set tag enable and one bit of the tag value. */
static bool libpfm4_tag_subevent(struct nb_event_spec *nb, const char *name)
{
    if (!(nb_event_table[nb->event].flags & NB_EVENT_EXEC_TAG_UPSTREAM) ||
        strncasecmp(name, "TAG", 3) != 0 || name[3] < '0' || name[3] > '3' || name[4])
        return false;
    nb->tag_enable = true;
    nb->tag_value |= (uint8_t)(1u << (name[3] - '0'));
    return true;
}

/* libpfm4's replay_event pseudo sub-events (L1_LD_MISS ... SP_ST_RET) ask
 * for the replay metric each names (nb_metrics' libpfm4 names); several
 * together ask for all of theirs. */
static bool libpfm4_replay_subevent(struct parse *p, const char *name)
{
    struct nb_event_spec *nb = &p->spec->nb;
    const struct nb_metric *metric = nb_metric_find_libpfm4(name);
    if (p->metric_named || !metric || (int)nb_taggings[metric->kind].counting_event != nb->event)
        return false;
    if (!nb->metric)
        nb->metric = metric;
    nb->metrics |= 1u << (metric - nb_metrics);
    return true;
}

static bool netburst_subevent(struct parse *p, const char *name)
{
    struct nb_event_spec *nb = &p->spec->nb;
    const struct nb_event_info *event = &nb_event_table[nb->event];
    const struct nb_subevent *sub = nb_subevent_find(event, catalog_name(event->name, name));
    if (sub && p->metric_named)
        return fail(p, "'%s': a tagging metric fixes its sub-events; it takes modifiers only "
                       "(%s)", name, modifier_list);
    if (sub) {
        nb->mask |= (uint16_t)(1u << sub->bit);
        return true;
    }
    if (libpfm4_tag_subevent(nb, name))
        return p->tag_subevent = true;
    if (libpfm4_replay_subevent(p, name))
        return true;
    struct suggestion near;
    suggestion_start(&near, name);
    if (!p->metric_named)
        nb_subevents_suggest(event, &near);
    for (size_t m = 0; m < sizeof modifier_names / sizeof modifier_names[0]; m++)
        suggestion_consider(&near, modifier_names[m]);
    const char *what = p->metric_named ? "modifier" : "sub-event or modifier";
    if (near.best)
        return fail(p, "unknown %s '%s'%s%s (did you mean '%s'?)", what, name,
                    p->metric_named ? "" : " of ", p->metric_named ? "" : event->name, near.best);
    char names[400];
    nb_subevent_names(event, names, sizeof names);
    if (p->metric_named)
        return fail(p, "unknown modifier '%s' (valid: %s)", name, modifier_list);
    return fail(p, "unknown sub-event or modifier '%s' of %s (sub-events: %s; modifiers: %s)",
                name, event->name, names, modifier_list);
}

/* "3, 4, 6": the models of the set `models`. */
static void model_list(uint8_t models, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int m = 0; m < 8 && used < size; m++)
        if (models & (1u << m))
            used += (size_t)snprintf(buf + used, size - used, "%s%d", used ? ", " : "", m);
}

static bool netburst_name(struct parse *p, const char *name)
{
    struct nb_event_spec *nb = &p->spec->nb;
    const struct nb_metric *metric = nb_metric_find(name);
    if (metric) {
        p->metric_named = true;
        nb->metric = metric;
        nb->metrics = 1u << (metric - nb_metrics);
        nb->event = (int)nb_taggings[metric->kind].counting_event;
        nb->mask = metric_mask(metric);
        return true;
    }
    nb->event = nb_event_find(catalog_name(NULL, name));
    if (nb->event < 0) {
        struct suggestion near;
        suggestion_start(&near, name);
        nb_events_suggest(&near);
        for (int i = 0; i < nb_num_metrics; i++)
            suggestion_consider(&near, nb_metrics[i].name);
        if (near.best)
            return fail(p, "unknown NetBurst event '%s' (did you mean '%s'?)", name, near.best);
        return fail(p, "unknown NetBurst event '%s' ('pmubench list netburst' shows the "
                       "events and tagging metrics)", name);
    }
    const struct nb_event_info *event = &nb_event_table[nb->event];
    if (event->models & (1u << p->config->model))
        return true;
    char models[32];
    model_list(event->models, models, sizeof models);
    return fail(p, "event %s does not exist on model %d (it needs netburst_p: models %s)",
                event->name, p->config->model, models);
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
    const struct nb_event_info *event = &nb_event_table[nb->event];
    char names[400];
    if (nb->mask == 0 && event->n_subevents == 1)
        nb->mask = (uint16_t)(1u << event->subevents[0].bit);
    /* libpfm4's replay_event pseudo sub-events alone: the SDM's replay
     * tagging counts NBOGUS (libpfm4 leaves the mask empty). */
    if (nb->mask == 0 && nb->metric)
        nb->mask = metric_mask(nb->metric);
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
    if (p->tag_subevent && (p->modifiers_given & modifier_bit("tag")))
        return fail(p, "':tag' and libpfm4's TAG0-TAG3 both set the tag value (give one of "
                       "them)");
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

static bool unknown_p5_event(struct parse *p, const char *name)
{
    struct suggestion near;
    suggestion_start(&near, name);
    p5_events_suggest(&near);
    suggestion_consider(&near, "clocks");
    if (near.best)
        return fail(p, "unknown P5 event '%s' (did you mean '%s'?)", name, near.best);
    return fail(p, "unknown P5 event '%s' ('pmubench list p5' shows the events; "
                   "p5::clocks counts clocks)", name);
}

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
        return unknown_p5_event(p, name);
    bool any_given = false;
    while (rest) {
        char *token = next_field(&rest);
        if (!*token)
            return fail(p, "empty field between ':' separators");
        bool *level = strcasecmp(token, "u") == 0   ? &p5->usr
                      : strcasecmp(token, "k") == 0 ? &p5->os
                                                    : NULL;
        if (!level)
            return fail(p, "unknown P5 modifier '%s' (valid: u, k)", token);
        /* Given twice it sets the same again, which libpfm4's rule allows. */
        *level = true;
        any_given = true;
    }
    if (!any_given)
        p5->os = p5->usr = true;
    return true;
}

/* ---- The PMU and the model the prefixes name */

bool event_spec_prefix(const char *text, enum pmu_kind *pmu, const char **rest)
{
    static const struct {
        const char *prefix;
        enum pmu_kind pmu;
    } prefixes[] = {{"p5::", PMU_P5}, {"netburst::", PMU_NETBURST}, {"netburst_p::", PMU_NETBURST}};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncasecmp(text, prefixes[i].prefix, strlen(prefixes[i].prefix)) == 0) {
            *pmu = prefixes[i].pmu;
            *rest = text + strlen(prefixes[i].prefix);
            return true;
        }
    *rest = text;
    return false;
}

const char *event_spec_key(const char *text)
{
    enum pmu_kind pmu;
    const char *rest;
    event_spec_prefix(text, &pmu, &rest);
    return rest;
}

#define NETBURST_P "netburst_p::"

/* libpfm4's netburst_p: the models with instr_completed. */
static uint8_t netburst_p_models(void)
{
    return nb_event_table[NB_EV_INSTR_COMPLETED].models;
}

static bool netburst_p_model(int model)
{
    return model >= 0 && model < 8 && (netburst_p_models() & (1u << model));
}

const char *nb_cpuid_model_prefix(int model)
{
    return netburst_p_model(model) ? NETBURST_P : "netburst::";
}

int event_spec_cpuid_model(int given, const char *const *texts, int n)
{
    if (given != NB_CPUID_MODEL_UNSET)
        return given;
    for (int i = 0; i < n; i++)
        if (strncasecmp(texts[i], NETBURST_P, strlen(NETBURST_P)) == 0)
            return __builtin_ctz(netburst_p_models());
    return NB_CPUID_MODEL_DEFAULT;
}

static bool netburst_p_conflict(struct parse *p, int model)
{
    char models[32];
    model_list(netburst_p_models(), models, sizeof models);
    return fail(p, "netburst_p:: names models %s; it conflicts with model %d", models, model);
}

bool event_spec_parse(const char *text, const struct nb_pmu_config *config, struct event_spec *spec,
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
    if (strcasecmp(pmu, "netburst") != 0 && strcasecmp(pmu, "netburst_p") != 0) {
        struct suggestion near;
        suggestion_start(&near, pmu);
        suggestion_consider(&near, "netburst");
        suggestion_consider(&near, "netburst_p");
        suggestion_consider(&near, "p5");
        if (near.best)
            return fail(&p, "unknown PMU '%s' (did you mean '%s'?)", pmu, near.best);
        return fail(&p, "unknown PMU '%s' (expected netburst, netburst_p or p5)", pmu);
    }
    if (!nb_cpuid_model_supported(config->model))
        return fail(&p, "no NetBurst model (%d) to parse it for: event_spec_cpuid_model chooses one",
                    config->model);
    if (strcasecmp(pmu, "netburst_p") == 0 && !netburst_p_model(config->model))
        return netburst_p_conflict(&p, config->model);
    spec->pmu = PMU_NETBURST;
    return parse_netburst(&p, rest);
}

/* ES in bits 5:0, CC in 8:6 (bit 2 clocks, bit 1 CPL 3, bit 0 CPL 0-2). */
uint32_t p5_encode_half(const struct p5_event_spec *spec)
{
    uint32_t cc = (spec->clocks ? 4u : 0u) | (spec->usr ? 2u : 0u) | (spec->os ? 1u : 0u);
    return (spec->clocks ? 0u : spec->code) | cc << 6;
}

bool event_spec_cesr(const struct event_spec *spec, uint64_t cesr[2])
{
    if (spec->pmu != PMU_P5)
        return false;
    uint32_t half = p5_encode_half(&spec->p5);
    cesr[0] = p5_cesr_place(half, 0);
    cesr[1] = p5_cesr_place(half, 1);
    return true;
}
