/* stat's event strings planned on a simulated machine (stat_events.h). */
#include "apps/stat/stat_events.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pmu/catalog/generic_events.h"

static bool bad_input(void)
{
    errno = EINVAL;
    return false;
}

bool stat_events_plan(const struct machine_config *model, const char *const *events, int n_events,
                      bool hyper_threading, struct alloc_plan *plan, char *error, size_t size)
{
    struct nb_pmu_config config = machine_pmu_config(model, hyper_threading);
    struct machine_caps caps = machine_caps(model);
    if (!machine_check_events(model, events, n_events, error, size))
        return bad_input();
    if (n_events > ALLOC_MAX_REQUESTS) {
        snprintf(error, size, "events: %d events: at most %d can be planned at once", n_events,
                 ALLOC_MAX_REQUESTS);
        return bad_input();
    }
    struct alloc_request requests[ALLOC_MAX_REQUESTS];
    char text[GENERIC_NATIVE_SIZE + 64], native[GENERIC_NATIVE_SIZE];
    for (int i = 0; i < n_events; i++) {
        const char *key = event_spec_key(events[i]);
        const struct generic_event *generic = generic_event_find(key);
        if (generic && !generic_event_native(generic, key, caps.pmu, native, sizeof native,
                                             error, size))
            return bad_input();
        /* the user's PMU prefix, or the model's when none was given (the
         * NetBurst models with instr_completed are libpfm4's netburst_p) */
        const char *prefix = strstr(events[i], "::") ? events[i] : caps.event_prefix;
        int prefix_length = prefix == events[i] ? (int)(key - events[i]) : (int)strlen(prefix);
        snprintf(text, sizeof text, "%.*s%s", prefix_length, prefix, generic ? native : key);
        requests[i].group = ALLOC_NO_GROUP;
        if (!event_spec_parse(text, &config, &requests[i].spec, error, size))
            return bad_input();
    }
    struct alloc_error why;
    errno = 0;
    if (alloc_plan_make(requests, n_events, &config, plan, &why))
        return true;
    bool memory = why.request < 0 && errno == ENOMEM;
    snprintf(error, size, "%s: %s", why.request >= 0 ? events[why.request] : "events",
             why.message);
    errno = memory ? ENOMEM : EINVAL;
    return false;
}

bool stat_events_generic(enum pmu_kind pmu, const char *event, char *native, size_t size)
{
    const char *key = event_spec_key(event);
    const struct generic_event *generic = generic_event_find(key);
    char ignored[256];
    return generic && generic_event_native(generic, key, pmu, native, size, ignored,
                                           sizeof ignored) &&
           strcasecmp(native, key) != 0;
}

bool stat_events_repeated(const char *const *events, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(event_spec_key(events[i]), event_spec_key(name)) == 0)
            return true;
    return false;
}
