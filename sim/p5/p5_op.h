/* What the P5 model needs of one instruction, derived once from the x86
 * decoder (isa/x86.h) and its timing row (sim/p5/p5_timings.h), and kept
 * in a decode cache (sim/decode). */
#ifndef SIM_P5_P5_OP_H
#define SIM_P5_P5_OP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/x86.h"
#include "sim/decode/decode_cache.h"
#include "sim/p5/p5_timings.h"
#include "traces/trace.h"

struct p5_op {
    uint64_t address;
    uint8_t length;
    uint8_t cls;             /* enum x86_p5_class */
    uint8_t branch;          /* enum x86_branch */
    uint8_t clocks;          /* clocks in the pipe, at least 1: the row's, or the default */
    uint8_t flops;           /* event 0x22 */
    uint8_t segment_loads;   /* event 0x0f */
    uint8_t prefixes;        /* prefix bytes that take a decode clock each */
    bool fxch;               /* pairs in the V pipe after an FX instruction */
    bool fst;                /* FST/FSTP to memory (erratum on 0x0b) */
    bool stack;              /* PUSH, POP...: pairs with another despite ESP */
    bool rep_string;         /* REP string: rep_base + rep_per clocks per iteration */
    bool locked;             /* LOCK prefix, or XCHG with memory: a locked bus cycle */
    bool rare_events;        /* flops, segment_loads or locked: events to count */
    bool unclassified;       /* no timing row: clocks are the default (memory_clocks) */
    bool x87;                /* uses the x87 stack: p5_pipeline.c's x87 steps */
    bool by_precision;       /* clocks by the precision control: precision_clocks */
    bool clocks_vary;        /* rep_string or by_precision: not `clocks` alone */
    uint8_t precision_clocks[P5_NUM_PRECISIONS];
    uint8_t latency_beyond;  /* x87: clocks from the end of `clocks` to the result */
    uint8_t st_read, st_written, st_pops, st_pushes; /* isa/x86.h's x87 stack effect */
    uint8_t mm_read, mm_written; /* MM0-MM7 (tracked on the Pentium MMX only) */
    uint8_t rep_base, rep_per; /* REP string clocks: base + per x iterations */
    uint8_t rep_bytes;       /* bytes one iteration accesses (the trace merges them) */
    uint32_t regs_read, regs_written; /* X86_REG_BIT(), X86_REG_FLAGS */
    uint32_t address_regs;   /* base and index registers (AGI) */
};

/* A record without code bytes (an import without lengths): a simple
 * instruction pairable in either pipe, with no known registers, of one
 * clock; unclassified (it has no timing row). */
void p5_op_generic(uint64_t address, uint8_t length, struct p5_op *op);

/* A slot of the decode cache. */
struct p5_decoded {
    struct decode_key key;
    struct p5_op op;
};

/* The decode cache of p5_ops. */
struct p5_decode_cache {
    struct decode_cache slots;
};

/* `mmx`: decode for the Pentium MMX (p5_config.mmx: docs/p5-model.md, "The
 * pmmx preset"). */
bool p5_decode_cache_init(struct p5_decode_cache *cache, enum x86_mode mode, bool mmx);
void p5_decode_cache_free(struct p5_decode_cache *cache);

/* The op of the slot that begins with `slot`. */
static inline const struct p5_op *p5_op_of(const struct decode_key *slot)
{
    return &((const struct p5_decoded *)slot)->op;
}

/* Decodes into the cache the instruction of `length` bytes at `address`
 * (decode_cache_miss_code()); the cache may move, invalidating the ops it
 * gave before. */
enum decode_status p5_decode_miss(struct p5_decode_cache *cache, uint64_t address,
                                  uint8_t length, const uint8_t *bytes, const struct p5_op **op);

/* The cached op of that instruction, or NULL when it must be decoded
 * (p5_decode_miss()). */
static inline const struct p5_op *p5_decode_hit(const struct p5_decode_cache *cache,
                                                uint64_t address, uint8_t length,
                                                const uint8_t *bytes)
{
    const struct decode_key *slot = decode_cache_hit_code(&cache->slots, address, length, bytes);
    return slot ? p5_op_of(slot) : NULL;
}

#endif
