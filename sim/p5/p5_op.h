/* What the P5 model needs of one instruction, derived once from the x86
 * decoder (isa/x86.h) and kept in a decode cache keyed by address, checked
 * against the code bytes (code may change). */
#ifndef SIM_P5_OP_H
#define SIM_P5_OP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "isa/x86.h"
#include "traces/trace.h"

struct p5_op {
    uint64_t address;
    uint8_t length;          /* 0: an empty decode-cache slot */
    uint8_t bytes[X86_MAX_LENGTH];
    uint8_t cls;             /* enum x86_p5_class */
    uint8_t branch;          /* enum x86_branch */
    uint8_t clocks;          /* execution clocks, at least 1 */
    uint8_t flops;           /* event 0x22 */
    uint8_t segment_loads;   /* event 0x0f */
    bool fxch;               /* pairs in the V pipe after an FX instruction */
    bool fst;                /* FST/FSTP to memory (erratum on 0x0b) */
    bool stack;              /* PUSH, POP...: pairs with another despite ESP */
    bool rep_string;         /* a clock per data access */
    bool locked;             /* LOCK prefix, or XCHG with memory: a locked bus cycle */
    bool rare_events;        /* flops, segment_loads or locked: events to count */
    uint32_t regs_read, regs_written; /* X86_REG_BIT(), X86_REG_FLAGS */
    uint32_t address_regs;   /* base and index registers (AGI) */
};

/* From a decoded instruction. */
void p5_op_from_insn(const struct x86_insn *insn, struct p5_op *op);

/* A record without code bytes (an import without lengths): a simple
 * instruction pairable in either pipe, with no known registers. */
void p5_op_generic(uint64_t address, uint8_t length, struct p5_op *op);

struct p5_decode_cache {
    struct p5_op *slots;     /* open addressing, linear probing */
    size_t capacity, used;   /* capacity a power of two, at most half used */
    struct x86_decoder *decoder;
};

bool p5_decode_cache_init(struct p5_decode_cache *cache, enum x86_mode mode);
void p5_decode_cache_free(struct p5_decode_cache *cache);

enum p5_decode_status { P5_DECODED, P5_UNDECODABLE, P5_OUT_OF_MEMORY };

/* Whether two instructions' code bytes are the same: both arrays hold
 * X86_MAX_LENGTH bytes, 0 past the length (the trace reader's and
 * p5_op_from_insn()'s), compared in two loads (the decode cache's hot
 * path). */
static inline bool p5_same_code(const uint8_t *a, const uint8_t *b)
{
    uint64_t a0, b0, a1, b1;
    memcpy(&a0, a, 8);
    memcpy(&b0, b, 8);
    memcpy(&a1, a + X86_MAX_LENGTH - 8, 8);
    memcpy(&b1, b + X86_MAX_LENGTH - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

static inline size_t p5_hash_address(uint64_t address, size_t capacity)
{
    return (size_t)((address * 0x9e3779b97f4a7c15ull) >> 32) & (capacity - 1);
}

static inline struct p5_op *p5_decode_slot(struct p5_op *slots, size_t capacity, uint64_t address)
{
    size_t i = p5_hash_address(address, capacity);
    while (slots[i].length && slots[i].address != address)
        i = (i + 1) & (capacity - 1);
    return &slots[i];
}

/* Decodes into the cache an instruction not there (or whose bytes
 * changed); the cache may move, invalidating the ops it gave before. */
enum p5_decode_status p5_decode_miss(struct p5_decode_cache *cache, const struct trace_insn *insn,
                                     const struct p5_op **op);

/* The cached op of a trace instruction with code bytes, or NULL when it
 * must be decoded (p5_decode_miss()).  Inline: the hit is the model's most
 * frequent path. */
static inline const struct p5_op *p5_decode_hit(const struct p5_decode_cache *cache,
                                                const struct trace_insn *insn)
{
    const struct p5_op *slot = p5_decode_slot(cache->slots, cache->capacity, insn->address);
    if (slot->length == insn->length && p5_same_code(slot->bytes, insn->bytes))
        return slot;
    return NULL;
}

#endif
