/* A set-associative array with LRU replacement, for both timing models:
 * the P5's caches and TLBs (sim/p5/p5_memory.c) and BTB (sim/p5/p5_btb.h),
 * the NetBurst's trace cache, TLBs, BTB and data caches (sim/netburst).
 *
 * A key is a block number (a line, a page) or any number the model makes
 * (an address tagged with the logical processor): any 64-bit value, 0 and
 * UINT64_MAX included; its set is its low bits.  Entries are numbered set
 * x ways + way and stay where they were put: the LRU order is kept by
 * stamps (0: an empty way), so an entry's number, dirty bit, state and
 * data stay its own until it is evicted. */
#ifndef SIM_COMMON_SET_ASSOC_H
#define SIM_COMMON_SET_ASSOC_H

#include <stdbool.h>
#include <stdint.h>

struct set_assoc {
    uint64_t mru_key;     /* the key of entry `mru` (any value while it is -1) */
    long mru;             /* the entry last found or put in; -1: none yet */
    long previous;        /* the one before (two alternating streams hit these two);
                           * -1: none yet */
    uint64_t *keys;       /* each entry's key, when its stamp is not 0 */
    uint64_t *stamps;     /* when each entry was last used: the LRU order; 0: an
                           * empty way */
    bool *dirty;          /* written since it was put in */
    uint8_t *state;       /* the model's, per entry; 0 when put in */
    uint64_t *data;       /* the model's, per entry; 0 when put in */
    uint64_t set_mask;    /* sets - 1 */
    uint32_t ways;
    unsigned block_shift; /* log2 of the bytes a key stands for */
    uint64_t clock;       /* the last stamp given */
};

/* What set_assoc_insert() evicted. */
struct set_assoc_victim {
    bool dirty;           /* a dirty entry: a write-back is due (false for an empty way) */
};

/* `entries` entries in sets of `ways` (entries / ways sets, a power of
 * two); a key stands for `block_bytes` bytes (a power of two:
 * set_assoc_block()), 1 when the model makes its keys.  False when out
 * of memory. */
bool set_assoc_init(struct set_assoc *c, uint32_t entries, uint32_t ways, uint32_t block_bytes);
void set_assoc_free(struct set_assoc *c);

/* The key of the block holding `address`. */
static inline uint64_t set_assoc_block(const struct set_assoc *c, uint64_t address)
{
    return address >> c->block_shift;
}

/* Entry `i`, just found or put in, becomes the most recently used.  An
 * entry once put in is never empty again, so `previous` (read from keys[],
 * not cached: the entry may have been put in again since) stays valid. */
static inline void set_assoc_make_most_recent(struct set_assoc *c, long i)
{
    c->stamps[i] = ++c->clock;
    c->previous = c->mru;
    c->mru = i;
    c->mru_key = c->keys[i];
}

/* Whether `key` is in the entry found or put in last: set_assoc_find()
 * would find it there and change nothing. */
static inline bool set_assoc_is_mru(const struct set_assoc *c, uint64_t key)
{
    return c->mru_key == key && c->mru >= 0;
}

/* The first entry of `key`'s set. */
static inline uint32_t set_assoc_first_of_set(const struct set_assoc *c, uint64_t key)
{
    return (uint32_t)(key & c->set_mask) * c->ways;
}

/* The entry holding `key`, or -1, leaving the LRU order as it is. */
static inline long set_assoc_peek(const struct set_assoc *c, uint64_t key)
{
    uint32_t first = set_assoc_first_of_set(c, key);
    for (uint32_t i = first; i < first + c->ways; i++)
        if (c->keys[i] == key && c->stamps[i] != 0)
            return i;
    return -1;
}

/* set_assoc_find() of a key that is not mru_key. */
static inline long set_assoc_find_not_mru(struct set_assoc *c, uint64_t key)
{
    long previous = c->previous;
    if (previous >= 0 && c->keys[previous] == key) {
        set_assoc_make_most_recent(c, previous);
        return previous;
    }
    long i = set_assoc_peek(c, key);
    if (i >= 0)
        set_assoc_make_most_recent(c, i);
    return i;
}

/* The entry holding `key`, made the most recently used of its set, or -1.
 * Inline, its set's search too (the models look up every instruction's
 * line, page and branch): first the entry found or put in last (already
 * the most recently used; in an empty array mru is -1, and -1 is the
 * answer whatever the key) and the one before it (two streams that
 * alternate). */
static inline long set_assoc_find(struct set_assoc *c, uint64_t key)
{
    if (c->mru_key == key)
        return c->mru;
    return set_assoc_find_not_mru(c, key);
}

/* set_assoc_find() for a look-up made again and again (a given branch, a
 * given instruction's line or reference): *last is the entry it found the
 * time before (any entry number, 0 at first), updated when another is
 * found.  When that entry still holds `key`, one compare replaces the
 * set's search; the effect is set_assoc_find()'s, on the LRU order and
 * everything else (a key is in one entry at most, and the entry found or
 * put in last holds mru_key). */
__attribute__((always_inline)) static inline long set_assoc_find_from(struct set_assoc *c,
                                                                      uint64_t key,
                                                                      uint32_t *last)
{
    if (c->mru_key == key)
        return c->mru;
    uint32_t i = *last;
    if (c->keys[i] == key && c->stamps[i] != 0) {
        set_assoc_make_most_recent(c, i);
        return i;
    }
    long found = set_assoc_find_not_mru(c, key);
    if (found >= 0)
        *last = (uint32_t)found;
    return found;
}

/* Puts `key` (absent) in its set's least recently used way (an empty one
 * first), clean, with state and data 0, as the most recently used; returns
 * the entry.  *victim (unless NULL) gets what the way held. */
long set_assoc_insert(struct set_assoc *c, uint64_t key, struct set_assoc_victim *victim);

#endif
