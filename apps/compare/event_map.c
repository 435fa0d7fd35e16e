/* The P5 event <-> generic event table (event_map.h).  Sources of the
 * notes: Safford 1997, appendix A and section 5.5.2, a measurement of
 * L1-dcache-loads on the development machine, perf-list(1);
 * docs/compare.md. */
#include "event_map.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "pmu/catalog/generic_events.h"

const struct event_mapping event_mappings[] = {
    {"instructions_executed", "instructions", true,
     "retired instructions, a REP string instruction counting once in both"},
    {"branches", "branches", true,
     "every control transfer, SYSCALL included (the SDM's P5 also counts serializing "
     "instructions, the model does not: docs/p5-model.md)"},
    {"data_read", "loads", true,
     "P5 data_read counts each half of a misaligned access (Safford 1997, section 5.5.2) and each 8 bytes "
     "of a wider one, lackey once"},
    {"data_write", "stores", true,
     "P5 data_write counts each half of a misaligned access (Safford 1997, section 5.5.2) and each 8 bytes "
     "of a wider one, lackey once"},
    {"data_read", "l1-dcache-loads", false,
     "L1-dcache-loads counts dispatched load operations, about 1.5x retired loads: not like "
     "for like"},
    {"data_write", "l1-dcache-stores", false,
     "L1-dcache-stores is the host CPU's own store event, not retired stores: not like for "
     "like"},
    {"data_read_miss", "l1-dcache-load-misses", false,
     "the host's L1 data cache is not the P5's (8 KB, 2-way, 32-byte lines): not like for like"},
    {"data_write_miss", "l1-dcache-store-misses", false,
     "the host's L1 data cache is not the P5's and allocates on writes: not like for like"},
    {"code_cache_miss", "l1-icache-load-misses", false,
     "the host's L1 code cache is not the P5's (8 KB): not like for like"},
    {"data_tlb_miss", "dtlb-load-misses", false,
     "the host's data TLB is not the P5's and counts loads only: not like for like"},
    {"code_tlb_miss", "itlb-load-misses", false,
     "the host's code TLB is not the P5's: not like for like"},
    {"count_clocks", "cycles", false,
     "clocks of another processor (the host's, at its own frequency): not like for like"},
    {"loads", "l1-dcache-loads", false,
     "L1-dcache-loads counts dispatched load operations, about 1.5x lackey's loads: not like "
     "for like"},
    {"stores", "l1-dcache-stores", false,
     "L1-dcache-stores is the host CPU's own store event, not lackey's stores: not like for "
     "like"},
};
const size_t n_event_mappings = sizeof event_mappings / sizeof event_mappings[0];

/* A perf modifier suffix: ":" and letters perf-list(1) defines. */
static bool is_modifier(const char *colon)
{
    return colon[1] && strspn(colon + 1, "ukhHGIpPSDWe") == strlen(colon + 1);
}

void event_canonical_name(const char *name, char *out, size_t size)
{
    if (size == 0)
        return;
    const char *colon = strrchr(name, ':');
    size_t n = colon && is_modifier(colon) ? (size_t)(colon - name) : strlen(name);
    if (n >= size)
        n = size - 1;
    for (size_t i = 0; i < n; i++)
        out[i] = (char)tolower((unsigned char)name[i]);
    out[n] = '\0';
    const struct generic_event *generic = generic_event_named(out);
    if (generic)
        snprintf(out, size, "%s", generic->name);
}

bool event_same_name(const char *name_a, const char *name_b)
{
    char a[EVENT_CANONICAL_SIZE], b[EVENT_CANONICAL_SIZE];
    event_canonical_name(name_a, a, sizeof a);
    event_canonical_name(name_b, b, sizeof b);
    return strcmp(a, b) == 0;
}

const char *event_mapping_partner(const char *canonical, size_t *row)
{
    while (*row < n_event_mappings) {
        const struct event_mapping *m = &event_mappings[(*row)++];
        if (strcmp(canonical, m->event) == 0)
            return m->counterpart;
        if (strcmp(canonical, m->counterpart) == 0)
            return m->event;
    }
    return NULL;
}

const struct event_mapping *event_mapping_find(const char *name_a, const char *name_b)
{
    char a[EVENT_CANONICAL_SIZE], b[EVENT_CANONICAL_SIZE];
    event_canonical_name(name_a, a, sizeof a);
    event_canonical_name(name_b, b, sizeof b);
    for (size_t i = 0; i < n_event_mappings; i++) {
        const struct event_mapping *m = &event_mappings[i];
        if ((strcmp(a, m->event) == 0 && strcmp(b, m->counterpart) == 0) ||
            (strcmp(b, m->event) == 0 && strcmp(a, m->counterpart) == 0))
            return m;
    }
    return NULL;
}
