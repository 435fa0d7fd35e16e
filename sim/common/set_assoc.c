/* The set-associative LRU array of both timing models (set_assoc.h). */
#include "sim/common/set_assoc.h"

#include <stdlib.h>
#include <string.h>

static unsigned log2_of(uint32_t power_of_two)
{
    unsigned n = 0;
    while (power_of_two > 1) {
        power_of_two >>= 1;
        n++;
    }
    return n;
}

bool set_assoc_init(struct set_assoc *c, uint32_t entries, uint32_t ways, uint32_t block_bytes)
{
    memset(c, 0, sizeof *c);
    c->keys = calloc(entries, sizeof *c->keys);
    c->stamps = calloc(entries, sizeof *c->stamps);
    c->dirty = calloc(entries, sizeof *c->dirty);
    c->state = calloc(entries, sizeof *c->state);
    c->data = calloc(entries, sizeof *c->data);
    if (!c->keys || !c->stamps || !c->dirty || !c->state || !c->data) {
        set_assoc_free(c);
        return false;
    }
    c->set_mask = entries / ways - 1;
    c->ways = ways;
    c->block_shift = log2_of(block_bytes);
    c->mru = c->previous = -1;
    return true;
}

void set_assoc_free(struct set_assoc *c)
{
    free(c->keys);
    free(c->stamps);
    free(c->dirty);
    free(c->state);
    free(c->data);
    c->keys = c->stamps = c->data = NULL;
    c->dirty = NULL;
    c->state = NULL;
}

/* The way of `key`'s set to put it in: the first empty one, else the least
 * recently used (an empty way's stamp, 0, is the least of all). */
static uint32_t victim_of_set(const struct set_assoc *c, uint64_t key)
{
    uint32_t first = set_assoc_first_of_set(c, key);
    uint32_t victim = first;
    for (uint32_t i = first; i < first + c->ways && c->stamps[victim]; i++)
        if (c->stamps[i] < c->stamps[victim])
            victim = i;
    return victim;
}

long set_assoc_insert(struct set_assoc *c, uint64_t key, struct set_assoc_victim *victim)
{
    uint32_t i = victim_of_set(c, key);
    if (victim)
        *victim = (struct set_assoc_victim){c->dirty[i]};
    c->keys[i] = key;
    c->dirty[i] = false;
    c->state[i] = 0;
    c->data[i] = 0;
    set_assoc_make_most_recent(c, i);
    return i;
}
