/* The code bytes seen so far, by instruction address: a trace stores an
 * instruction's bytes only the first time (or when they change, for
 * self-modifying code).  Grows with the program's code, not with the
 * trace's length. */
#ifndef TRACES_CODE_CACHE_H
#define TRACES_CODE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of each entry: an instruction's, then zeros. */
enum { CODE_CACHE_BYTES = 15 };

/* Open addressing with linear probing; the table doubles at half full. */
struct code_cache_slot {
    uint64_t address;
    uint8_t length; /* 0: empty */
    uint8_t bytes[CODE_CACHE_BYTES];
};

struct code_cache {
    struct code_cache_slot *slots;
    size_t capacity, used;
};

struct code_cache *code_cache_create(void);
void code_cache_free(struct code_cache *cache);

static inline struct code_cache_slot *code_cache_slot(const struct code_cache *cache,
                                                      uint64_t address)
{
    size_t i = (size_t)((address * 0x9e3779b97f4a7c15ull) >> 20) & (cache->capacity - 1);
    while (cache->slots[i].length && cache->slots[i].address != address)
        i = (i + 1) & (cache->capacity - 1);
    return &cache->slots[i];
}

/* The CODE_CACHE_BYTES bytes cached for `address`, or NULL.  Inline: the
 * trace reader looks up nearly every instruction. */
static inline const uint8_t *code_cache_find(const struct code_cache *cache, uint64_t address,
                                             uint8_t length)
{
    const struct code_cache_slot *slot = code_cache_slot(cache, address);
    return slot->length == length ? slot->bytes : NULL;
}

/* Remembers `length` bytes at `address`; false when out of memory. */
bool code_cache_put(struct code_cache *cache, uint64_t address, uint8_t length,
                    const uint8_t *bytes);

#endif
