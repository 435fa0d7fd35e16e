/* The timing models' decode cache (decode_cache.h). */
#include "sim/decode/decode_cache.h"

#include <stdlib.h>

enum { INITIAL_CAPACITY = 1024 };

bool decode_cache_init(struct decode_cache *cache, enum x86_mode mode, size_t slot_size,
                       decode_cache_fill *fill)
{
    cache->slot_size = slot_size;
    cache->capacity = INITIAL_CAPACITY;
    cache->used = 0;
    cache->fill = fill;
    cache->slots = calloc(cache->capacity, slot_size);
    cache->decoder = x86_decoder_create(mode);
    if (cache->slots && cache->decoder)
        return true;
    decode_cache_free(cache);
    return false;
}

void decode_cache_free(struct decode_cache *cache)
{
    free(cache->slots);
    cache->slots = NULL;
    if (cache->decoder)
        x86_decoder_destroy(cache->decoder);
    cache->decoder = NULL;
}

/* Twice the slots, each moved to its place there. */
static bool grow(struct decode_cache *cache)
{
    struct decode_cache old = *cache;
    cache->capacity *= 2;
    cache->slots = calloc(cache->capacity, cache->slot_size);
    if (!cache->slots) {
        *cache = old;
        return false;
    }
    for (size_t i = 0; i < old.capacity; i++) {
        const struct decode_key *key = decode_cache_key(&old, i);
        if (key->length)
            memcpy(decode_cache_slot(cache, key->address), key, cache->slot_size);
    }
    free(old.slots);
    return true;
}

static void set_key(struct decode_key *key, uint64_t address, uint8_t length,
                    const uint8_t *bytes)
{
    memset(key, 0, sizeof *key);
    key->address = address;
    key->length = length;
    memcpy(key->bytes, bytes, length);
}

enum decode_status decode_cache_miss_code(struct decode_cache *cache, uint64_t address,
                                          uint8_t length, const uint8_t *bytes,
                                          const struct decode_key **slot)
{
    struct x86_insn decoded;
    if (!x86_decoder_decode(cache->decoder, bytes, length, address, &decoded) ||
        decoded.length != length)
        return DECODE_UNDECODABLE;
    struct decode_key *key = decode_cache_slot(cache, address);
    if (!key->length) {
        if (2 * (cache->used + 1) > cache->capacity) {
            if (!grow(cache))
                return DECODE_OUT_OF_MEMORY;
            key = decode_cache_slot(cache, address);
        }
        cache->used++;
    }
    set_key(key, address, length, bytes);
    cache->fill(&decoded, key);
    *slot = key;
    return DECODE_OK;
}
