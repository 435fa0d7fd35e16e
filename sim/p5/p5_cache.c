#include "sim/p5/p5_cache.h"

#include <stdlib.h>
#include <string.h>

static unsigned log2_of(uint64_t power_of_two)
{
    unsigned n = 0;
    while (power_of_two > 1) {
        power_of_two >>= 1;
        n++;
    }
    return n;
}

bool p5_cache_init(struct p5_cache *c, uint32_t blocks, uint32_t ways, uint32_t block_bytes)
{
    memset(c, 0, sizeof *c);
    c->tags = calloc(blocks, sizeof *c->tags);
    c->dirty = calloc(blocks, sizeof *c->dirty);
    if (!c->tags || !c->dirty) {
        p5_cache_free(c);
        return false;
    }
    c->ways = ways;
    c->set_mask = blocks / ways - 1;
    c->block_shift = log2_of(block_bytes);
    return true;
}

void p5_cache_free(struct p5_cache *c)
{
    free(c->tags);
    free(c->dirty);
    c->tags = NULL;
    c->dirty = NULL;
}

/* Moves way `way` of the set starting at `first` to the front (a loop:
 * sets have a few ways, too few for memmove's call). */
static void make_most_recent(struct p5_cache *c, long first, uint32_t way)
{
    uint64_t tag = c->tags[first + way];
    bool dirty = c->dirty[first + way];
    for (long i = first + way; i > first; i--) {
        c->tags[i] = c->tags[i - 1];
        c->dirty[i] = c->dirty[i - 1];
    }
    c->tags[first] = tag;
    c->dirty[first] = dirty;
}

long p5_cache_lookup_slow(struct p5_cache *c, uint64_t address)
{
    uint64_t block = p5_cache_block(c, address);
    long first = (long)((block & c->set_mask) * c->ways);
    for (uint32_t way = 1; way < c->ways; way++)
        if (c->tags[first + way] == block + 1) {
            make_most_recent(c, first, way);
            return first;
        }
    return -1;
}

bool p5_cache_fill(struct p5_cache *c, uint64_t address, long *slot)
{
    uint64_t block = p5_cache_block(c, address);
    long first = (long)((block & c->set_mask) * c->ways);
    uint32_t last = c->ways - 1;
    bool victim_dirty = c->tags[first + last] != 0 && c->dirty[first + last];
    make_most_recent(c, first, last);
    c->tags[first] = block + 1;
    c->dirty[first] = false;
    *slot = first;
    return victim_dirty;
}
