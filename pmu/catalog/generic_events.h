/* perf's generic hardware event names (perf-list(1): cycles, instructions,
 * branches, ...), with perf's aliases (cpu-cycles, branch-instructions),
 * and the event string of each PMU's catalog that counts
 * each.  The table is data (generic_events.c); docs/events.md, "Generic
 * events", gives every row's sources and where pmubench differs from
 * Linux's encodings.
 *
 *   const struct generic_event *g = generic_event_find("cycles:u");
 *   char native[GENERIC_NATIVE_SIZE], error[256];
 *   if (g && generic_event_native(g, "cycles:u", PMU_P5, native, sizeof native,
 *                                 error, sizeof error))
 *       ... native is "clocks:u" ...
 */
#ifndef PMU_CATALOG_GENERIC_EVENTS_H
#define PMU_CATALOG_GENERIC_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "event_spec.h"

struct generic_event {
    const char *name;      /* perf's name, e.g. "branch-misses" */
    const char *alias;     /* perf's other name for it ("cpu-cycles" for cycles), or NULL */
    const char *netburst;  /* the NetBurst event string counting it (no PMU prefix), or NULL */
    const char *p5;        /* the P5 event string counting it, or NULL */
    const char *lacking;   /* for a NULL string: what no event of that PMU counts */
};

extern const struct generic_event generic_events[];
extern const int generic_num_events;

/* Room for any generic event's native string with the modifiers of an
 * event string (event_spec_parse takes at most 511 characters). */
enum { GENERIC_NATIVE_SIZE = 640 };

/* The generic event `text` names: its name or alias before any ':' (the
 * modifiers), in any case; NULL when it names none.  `text` has no PMU
 * prefix (event_spec_key). */
const struct generic_event *generic_event_find(const char *text);

/* The generic event whose name or alias is the whole of `name`, in any
 * case; NULL when none is. */
const struct generic_event *generic_event_named(const char *name);

/* The event string `text` (which names `event`) counts on `pmu`: the
 * PMU's string for `event` with text's modifiers (":u") after it, into
 * `native`.  False when the PMU has no such event, with one line in
 * `error`: "NAME: no event of the P5 counts ... (docs/events.md, ...)". */
bool generic_event_native(const struct generic_event *event, const char *text,
                          enum pmu_kind pmu, char *native, size_t size, char *error,
                          size_t error_size);

#endif
