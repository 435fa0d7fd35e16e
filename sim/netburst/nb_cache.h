/* A set-associative array with LRU replacement, for the trace cache, the
 * TLBs, the BTB and the data caches.  Keys are line or page numbers (or
 * addresses); the set is the key's low bits. */
#ifndef SIM_NETBURST_NB_CACHE_H
#define SIM_NETBURST_NB_CACHE_H

#include <stdbool.h>
#include <stdint.h>

struct nb_cache {
    uint64_t *keys;      /* key + 1; 0: an empty way */
    uint64_t *used;      /* LRU stamps */
    uint8_t *state;      /* per entry, for the user */
    uint64_t *data;      /* per entry, for the user */
    uint32_t sets, ways;
    uint64_t clock;
    uint32_t mru;        /* the last entry found or inserted */
    uint32_t previous;   /* the one before (alternating streams hit these two) */
};

/* `entries` in `ways`: entries / ways must be a power of two. */
bool nb_cache_init(struct nb_cache *c, uint32_t entries, uint32_t ways);
void nb_cache_free(struct nb_cache *c);

/* The entry holding `key` (made most recently used), or -1. */
long nb_cache_find(struct nb_cache *c, uint64_t key);

/* The entry holding `key`, or -1, leaving the LRU order as it is. */
long nb_cache_peek(const struct nb_cache *c, uint64_t key);

/* Puts `key` in its set's least recently used way and returns the entry;
 * *evicted gets the key it replaced and *had whether there was one.  The
 * entry's state and data are still the replaced key's. */
long nb_cache_insert(struct nb_cache *c, uint64_t key, uint64_t *evicted, bool *had);

#endif
