#include "code_cache.h"

#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* Open addressing with linear probing; the table doubles at half full. */
struct slot {
    uint64_t address;
    uint8_t length; /* 0: empty */
    uint8_t bytes[TRACE_MAX_INSN_LENGTH];
};

struct code_cache {
    struct slot *slots;
    size_t capacity, used;
};

static size_t hash(uint64_t address, size_t capacity)
{
    return (size_t)((address * 0x9e3779b97f4a7c15ull) >> 20) & (capacity - 1);
}

struct code_cache *code_cache_create(void)
{
    struct code_cache *cache = calloc(1, sizeof *cache);
    if (!cache)
        return NULL;
    cache->capacity = 1024;
    cache->slots = calloc(cache->capacity, sizeof *cache->slots);
    if (!cache->slots) {
        free(cache);
        return NULL;
    }
    return cache;
}

void code_cache_free(struct code_cache *cache)
{
    if (cache)
        free(cache->slots);
    free(cache);
}

static struct slot *find_slot(const struct code_cache *cache, uint64_t address)
{
    size_t i = hash(address, cache->capacity);
    while (cache->slots[i].length && cache->slots[i].address != address)
        i = (i + 1) & (cache->capacity - 1);
    return &cache->slots[i];
}

const uint8_t *code_cache_find(const struct code_cache *cache, uint64_t address, uint8_t length)
{
    const struct slot *slot = find_slot(cache, address);
    return slot->length == length ? slot->bytes : NULL;
}

static bool grow(struct code_cache *cache)
{
    struct code_cache bigger = {.capacity = cache->capacity * 2};
    bigger.slots = calloc(bigger.capacity, sizeof *bigger.slots);
    if (!bigger.slots)
        return false;
    for (size_t i = 0; i < cache->capacity; i++)
        if (cache->slots[i].length)
            *find_slot(&bigger, cache->slots[i].address) = cache->slots[i];
    bigger.used = cache->used;
    free(cache->slots);
    *cache = bigger;
    return true;
}

bool code_cache_put(struct code_cache *cache, uint64_t address, uint8_t length,
                    const uint8_t *bytes)
{
    if (2 * (cache->used + 1) > cache->capacity && !grow(cache))
        return false;
    struct slot *slot = find_slot(cache, address);
    if (!slot->length)
        cache->used++;
    slot->address = address;
    slot->length = length;
    memcpy(slot->bytes, bytes, length);
    return true;
}
