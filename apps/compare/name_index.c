/* Open addressing with linear probing (name_index.h). */
#include "name_index.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <strings.h>

/* FNV-1a over the lower-case name, then the region. */
static size_t hash(const char *name, int region)
{
    uint64_t h = 14695981039346656037ull;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        h = (h ^ (uint64_t)tolower(*c)) * 1099511628211ull;
    h = (h ^ (uint64_t)(unsigned)region) * 1099511628211ull;
    return (size_t)(h ^ (h >> 32));
}

/* The slot holding (name, region), or the free slot where it would go;
 * *probes counts the slots examined. */
static struct name_slot *find_slot(const struct name_index *index, const char *name, int region,
                                   size_t *probes)
{
    size_t mask = index->n_slots - 1;
    for (size_t i = hash(name, region) & mask;; i = (i + 1) & mask) {
        struct name_slot *slot = &index->slots[i];
        ++*probes;
        if (!slot->name || (slot->region == region && strcasecmp(slot->name, name) == 0))
            return slot;
    }
}

size_t name_index_get(const struct name_index *index, const char *name, int region)
{
    size_t probes = 0;
    if (index->n_used == 0)
        return NAME_INDEX_NONE;
    const struct name_slot *slot = find_slot(index, name, region, &probes);
    return slot->name ? slot->position : NAME_INDEX_NONE;
}

/* Doubles the table (64 slots at first) and moves every entry over. */
static bool grow(struct name_index *index)
{
    struct name_index bigger = {.n_slots = index->n_slots ? 2 * index->n_slots : 64,
                                .n_used = index->n_used, .probes = index->probes};
    bigger.slots = calloc(bigger.n_slots, sizeof *bigger.slots);
    if (!bigger.slots)
        return false;
    for (size_t i = 0; i < index->n_slots; i++)
        if (index->slots[i].name)
            *find_slot(&bigger, index->slots[i].name, index->slots[i].region, &bigger.probes) =
                index->slots[i];
    free(index->slots);
    *index = bigger;
    return true;
}

bool name_index_put(struct name_index *index, const char *name, int region, size_t position)
{
    if (2 * (index->n_used + 1) > index->n_slots && !grow(index))
        return false;
    struct name_slot *slot = find_slot(index, name, region, &index->probes);
    if (!slot->name)
        index->n_used++;
    *slot = (struct name_slot){.name = name, .region = region, .position = position};
    return true;
}

void name_index_free(struct name_index *index)
{
    free(index->slots);
    *index = (struct name_index){0};
}
