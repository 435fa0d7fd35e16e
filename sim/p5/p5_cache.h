/* A set-associative LRU array of blocks: the L1 data and code caches, the
 * L2 and the TLBs (whose blocks are pages). */
#ifndef SIM_P5_CACHE_H
#define SIM_P5_CACHE_H

#include <stdbool.h>
#include <stdint.h>

struct p5_cache {
    uint64_t *tags;   /* sets x ways, most recently used first; block number + 1, 0 empty */
    bool *dirty;      /* parallel to tags */
    uint32_t ways;
    uint64_t set_mask;
    unsigned block_shift; /* log2 of the block size in bytes */
};

/* `blocks` blocks of `block_bytes` (powers of two; blocks / ways sets, a
 * power of two).  False when out of memory. */
bool p5_cache_init(struct p5_cache *cache, uint32_t blocks, uint32_t ways, uint32_t block_bytes);
void p5_cache_free(struct p5_cache *cache);

static inline uint64_t p5_cache_block(const struct p5_cache *cache, uint64_t address)
{
    return address >> cache->block_shift;
}

long p5_cache_lookup_slow(struct p5_cache *cache, uint64_t address);

/* The slot holding `address`'s block, made most recently used; -1 when
 * it is not there.  Inline for the common hit on the most recent way. */
static inline long p5_cache_lookup(struct p5_cache *cache, uint64_t address)
{
    uint64_t block = p5_cache_block(cache, address);
    long first = (long)((block & cache->set_mask) * cache->ways);
    if (cache->tags[first] == block + 1)
        return first;
    return p5_cache_lookup_slow(cache, address);
}

/* Puts `address`'s block (absent) in as most recently used, evicting the
 * least recently used; true when the evicted block was dirty.  Returns its
 * slot in *slot. */
bool p5_cache_fill(struct p5_cache *cache, uint64_t address, long *slot);

#endif
