#include "code_cache.h"

#include <stdlib.h>
#include <string.h>

#include "trace.h"

_Static_assert((int)CODE_CACHE_BYTES == (int)TRACE_MAX_INSN_LENGTH,
               "a slot holds the longest instruction");

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

static bool grow(struct code_cache *cache)
{
    struct code_cache bigger = {.capacity = cache->capacity * 2};
    bigger.slots = calloc(bigger.capacity, sizeof *bigger.slots);
    if (!bigger.slots)
        return false;
    for (size_t i = 0; i < cache->capacity; i++)
        if (cache->slots[i].length)
            *code_cache_slot(&bigger, cache->slots[i].address) = cache->slots[i];
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
    struct code_cache_slot *slot = code_cache_slot(cache, address);
    if (!slot->length)
        cache->used++;
    slot->address = address;
    slot->length = length;
    memset(slot->bytes, 0, sizeof slot->bytes);
    memcpy(slot->bytes, bytes, length);
    return true;
}
