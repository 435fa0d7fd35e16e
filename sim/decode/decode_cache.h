/* The timing models' decode cache: each instruction is decoded once
 * (isa/x86.h) into the model's own op, kept by address and checked against
 * the code bytes, as code may change.  A model keeps its ops in slots of
 * its own type that begin with a struct decode_key, e.g.
 *
 *   struct p5_decoded { struct decode_key key; struct p5_op op; };
 *
 * and gives their size and the function that fills one's op from a decoded
 * instruction; the cache gives slots back as their keys. */
#ifndef SIM_DECODE_DECODE_CACHE_H
#define SIM_DECODE_DECODE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "isa/x86.h"
#include "traces/trace.h"

_Static_assert((int)TRACE_MAX_INSN_LENGTH == (int)X86_MAX_LENGTH,
               "a trace's code bytes are an instruction's");

/* The instruction a slot holds the op of: its bytes are 0 past the length,
 * as the trace reader's are. */
struct decode_key {
    uint64_t address;
    uint8_t length;          /* 0: an empty slot */
    uint8_t bytes[X86_MAX_LENGTH];
};

/* Fills the op of the slot that begins with `key` from a decoded
 * instruction. */
typedef void decode_cache_fill(const struct x86_insn *insn, struct decode_key *key);

struct decode_cache {
    void *slots;             /* open addressing, linear probing */
    size_t slot_size;
    size_t capacity, used;   /* capacity a power of two, at most half used */
    decode_cache_fill *fill;
    struct x86_decoder *decoder;
};

enum decode_status { DECODE_OK, DECODE_UNDECODABLE, DECODE_OUT_OF_MEMORY };

bool decode_cache_init(struct decode_cache *cache, enum x86_mode mode, size_t slot_size,
                       decode_cache_fill *fill);
void decode_cache_free(struct decode_cache *cache);

/* Decodes into the cache the instruction of `length` bytes at `address`
 * (`bytes`: X86_MAX_LENGTH of them, 0 past the length), not there or whose
 * bytes changed; the cache may move, invalidating the slots it gave
 * before. */
enum decode_status decode_cache_miss_code(struct decode_cache *cache, uint64_t address,
                                          uint8_t length, const uint8_t *bytes,
                                          const struct decode_key **slot);

/* The same for a trace instruction. */
static inline enum decode_status decode_cache_miss(struct decode_cache *cache,
                                                   const struct trace_insn *insn,
                                                   const struct decode_key **slot)
{
    return decode_cache_miss_code(cache, insn->address, insn->length, insn->bytes, slot);
}

static inline struct decode_key *decode_cache_key(const struct decode_cache *cache, size_t i)
{
    return (struct decode_key *)((unsigned char *)cache->slots + i * cache->slot_size);
}

/* The slot of `address`: the one holding it, or the empty one where it
 * would go. */
static inline struct decode_key *decode_cache_slot(const struct decode_cache *cache,
                                                   uint64_t address)
{
    size_t mask = cache->capacity - 1;
    size_t i = (size_t)((address * 0x9e3779b97f4a7c15ull) >> 32) & mask;
    struct decode_key *key = decode_cache_key(cache, i);
    while (key->length && key->address != address) {
        i = (i + 1) & mask;
        key = decode_cache_key(cache, i);
    }
    return key;
}

/* The slot last decoded at `address`, or NULL. */
static inline const struct decode_key *decode_cache_lookup(const struct decode_cache *cache,
                                                           uint64_t address)
{
    const struct decode_key *key = decode_cache_slot(cache, address);
    return key->length ? key : NULL;
}

/* Whether two instructions' code bytes are the same: both arrays hold
 * X86_MAX_LENGTH bytes, 0 past the length, compared in two loads. */
static inline bool decode_same_code(const uint8_t *a, const uint8_t *b)
{
    uint64_t a0, b0, a1, b1;
    memcpy(&a0, a, 8);
    memcpy(&b0, b, 8);
    memcpy(&a1, a + X86_MAX_LENGTH - 8, 8);
    memcpy(&b1, b + X86_MAX_LENGTH - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

/* The slot of the instruction of `length` bytes at `address` (`bytes` as
 * decode_cache_miss_code()'s), or NULL when it must be decoded.  Inline: a
 * hit is the models' most frequent path. */
static inline const struct decode_key *decode_cache_hit_code(const struct decode_cache *cache,
                                                             uint64_t address, uint8_t length,
                                                             const uint8_t *bytes)
{
    const struct decode_key *key = decode_cache_slot(cache, address);
    if (key->length == length && decode_same_code(key->bytes, bytes))
        return key;
    return NULL;
}

/* The same for a trace instruction with code bytes (decode_cache_miss()
 * when NULL). */
static inline const struct decode_key *decode_cache_hit(const struct decode_cache *cache,
                                                        const struct trace_insn *insn)
{
    return decode_cache_hit_code(cache, insn->address, insn->length, insn->bytes);
}

#endif
