#include "sim/netburst/nb_cache.h"

#include <stdlib.h>

bool nb_cache_init(struct nb_cache *c, uint32_t entries, uint32_t ways)
{
    c->sets = entries / ways;
    c->ways = ways;
    c->clock = 0;
    c->mru = c->previous = 0;
    c->keys = calloc(entries, sizeof *c->keys);
    c->used = calloc(entries, sizeof *c->used);
    c->state = calloc(entries, sizeof *c->state);
    c->data = calloc(entries, sizeof *c->data);
    if (c->keys && c->used && c->state && c->data)
        return true;
    nb_cache_free(c);
    return false;
}

void nb_cache_free(struct nb_cache *c)
{
    free(c->keys);
    free(c->used);
    free(c->state);
    free(c->data);
    c->keys = c->used = c->data = NULL;
    c->state = NULL;
}

long nb_cache_find(struct nb_cache *c, uint64_t key)
{
    if (c->keys[c->mru] == key + 1)
        return c->mru; /* already the most recently used */
    uint32_t first = (uint32_t)(key & (c->sets - 1)) * c->ways;
    uint32_t i = c->previous;
    if (c->keys[i] != key + 1) /* not the one before either: search the set */
        for (i = first; i < first + c->ways && c->keys[i] != key + 1; i++)
            ;
    if (i == first + c->ways)
        return -1;
    c->used[i] = ++c->clock;
    c->previous = c->mru;
    c->mru = i;
    return i;
}

long nb_cache_peek(const struct nb_cache *c, uint64_t key)
{
    uint32_t first = (uint32_t)(key & (c->sets - 1)) * c->ways;
    for (uint32_t i = first; i < first + c->ways; i++)
        if (c->keys[i] == key + 1)
            return i;
    return -1;
}

long nb_cache_insert(struct nb_cache *c, uint64_t key, uint64_t *evicted, bool *had)
{
    uint32_t first = (uint32_t)(key & (c->sets - 1)) * c->ways;
    uint32_t victim = first;
    for (uint32_t i = first; i < first + c->ways; i++) {
        if (!c->keys[i]) {
            victim = i;
            break;
        }
        if (c->used[i] < c->used[victim])
            victim = i;
    }
    *had = c->keys[victim] != 0;
    *evicted = c->keys[victim] - 1;
    c->keys[victim] = key + 1;
    c->used[victim] = ++c->clock;
    c->previous = c->mru;
    c->mru = victim;
    return victim;
}
