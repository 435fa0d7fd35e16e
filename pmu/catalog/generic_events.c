/* The generic event table (data) and its look-ups (generic_events.h).
 * NetBurst: Linux's p4_general_events (arch/x86/events/intel/p4.c) where
 * the SDM agrees, the SDM's events where it does not; P5: Safford 1997,
 * Table 2.3; the aliases are perf's (event_symbols_hw in Linux's
 * tools/perf/util/parse-events.c).  docs/events.md, "Generic events", has
 * each row's sources. */
#include "generic_events.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const struct generic_event generic_events[] = {
    {"cycles", "cpu-cycles", "global_power_events:RUNNING", "clocks", NULL},
    {"instructions", NULL, "instr_retired:NBOGUSNTAG:NBOGUSTAG", "instructions_executed", NULL},
    {"branches", "branch-instructions", "branch_retired:MMNP:MMNM:MMTP:MMTM", "branches", NULL},
    {"branch-misses", NULL, "mispred_branch_retired:NBOGUS", "pipeline_flushes", NULL},
    {"cache-references", NULL,
     "BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_HITE:RD_2ndL_HITM:RD_2ndL_MISS",
     "data_read_or_write", NULL},
    {"cache-misses", NULL, "BSQ_cache_reference:RD_2ndL_MISS", "data_read_or_write_miss", NULL},
    {"bus-cycles", NULL, "FSB_data_activity:DRDY_DRV:DRDY_OWN:e",
     "clocks_while_bus_cycle_in_progress", NULL},
    {"ref-cycles", NULL, NULL, NULL,
     "reference cycles, a clock of constant rate"},
};

const int generic_num_events = sizeof generic_events / sizeof generic_events[0];

/* Whether `candidate` (a name or alias, or NULL) is the `length` bytes at
 * `text`, in any case. */
static bool names(const char *candidate, const char *text, size_t length)
{
    return candidate && strlen(candidate) == length && strncasecmp(candidate, text, length) == 0;
}

/* The generic event named by the `length` bytes at `text`, or NULL. */
static const struct generic_event *find_name(const char *text, size_t length)
{
    for (int i = 0; i < generic_num_events; i++)
        if (names(generic_events[i].name, text, length) ||
            names(generic_events[i].alias, text, length))
            return &generic_events[i];
    return NULL;
}

const struct generic_event *generic_event_find(const char *text)
{
    return find_name(text, strcspn(text, ":"));
}

const struct generic_event *generic_event_named(const char *name)
{
    return find_name(name, strlen(name));
}

bool generic_event_native(const struct generic_event *event, const char *text,
                          enum pmu_kind pmu, char *native, size_t size, char *error,
                          size_t error_size)
{
    const char *counted = pmu == PMU_P5 ? event->p5 : event->netburst;
    if (!counted) {
        snprintf(error, error_size, "%s: the %s has no event counting %s (docs/events.md, "
                 "\"Generic events\")", event->name, pmu == PMU_P5 ? "P5" : "NetBurst PMU",
                 event->lacking);
        return false;
    }
    snprintf(native, size, "%s%s", counted, text + strcspn(text, ":"));
    return true;
}
