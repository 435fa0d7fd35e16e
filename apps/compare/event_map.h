/* Which generic event (perf's names, lackey's loads and stores) each P5
 * event corresponds to, which perf event lackey's counts correspond to,
 * and whether the two count the same thing (docs/compare.md, "The
 * mapping").  The data is event_map.c's table. */
#ifndef APPS_COMPARE_EVENT_MAP_H
#define APPS_COMPARE_EVENT_MAP_H

#include <stdbool.h>
#include <stddef.h>

struct event_mapping {
    const char *event;      /* a pmu/catalog/p5_events.c name, or lackey's "loads"/"stores" */
    const char *counterpart; /* the generic event, as event_canonical_name() gives it */
    bool like_for_like;     /* the two count the same occurrences */
    const char *note;       /* one line printed under the table */
};

extern const struct event_mapping event_mappings[];
extern const size_t n_event_mappings;

/* Names compare by their first EVENT_CANONICAL_SIZE - 1 canonical bytes. */
enum { EVENT_CANONICAL_SIZE = 128 };

/* `name` in lower case without a perf modifier suffix (":u", ":uk"...)
 * and with perf's aliases resolved: "Branch-Instructions:u" gives
 * "branches". */
void event_canonical_name(const char *name, char *out, size_t size);

/* The row mapping one of the names to the other (either order), or NULL. */
const struct event_mapping *event_mapping_find(const char *name_a, const char *name_b);

/* The next canonical name a mapping row pairs with `canonical` (a
 * canonical name), looking from row *row on (start with 0); NULL after the
 * last. */
const char *event_mapping_partner(const char *canonical, size_t *row);

/* The two names mean the same event: equal once canonical. */
bool event_same_name(const char *name_a, const char *name_b);

#endif
