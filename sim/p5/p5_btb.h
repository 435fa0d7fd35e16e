/* The branch target buffer: set-associative by branch address, LRU, each
 * entry a target and a 2-bit history (SDM, Pentium branch prediction;
 * docs/p5-model.md, "Branches"). */
#ifndef SIM_P5_BTB_H
#define SIM_P5_BTB_H

#include <stdbool.h>
#include <stdint.h>

struct p5_btb_entry {
    uint64_t branch;  /* address + 1; 0 empty */
    uint64_t target;
    uint8_t history;  /* 0-3: predicted taken from 2 */
};

struct p5_btb {
    struct p5_btb_entry *entries; /* sets x ways, most recently used first */
    uint32_t ways;
    uint64_t set_mask;
};

bool p5_btb_init(struct p5_btb *btb, uint32_t entries, uint32_t ways);
void p5_btb_free(struct p5_btb *btb);

/* p5_btb_lookup() past the set's most recently used entry. */
struct p5_btb_entry *p5_btb_lookup_slow(struct p5_btb *btb, struct p5_btb_entry *set,
                                        uint64_t address);

/* The entry of the branch at `address` (made most recently used), or NULL.
 * Inline for the most frequent case: the set's most recently used. */
static inline struct p5_btb_entry *p5_btb_lookup(struct p5_btb *btb, uint64_t address)
{
    struct p5_btb_entry *set = &btb->entries[(address & btb->set_mask) * btb->ways];
    return set[0].branch == address + 1 ? set : p5_btb_lookup_slow(btb, set, address);
}

/* Allocates an entry for a taken branch that missed, evicting the least
 * recently used: history 3 (strongly taken), the given target. */
void p5_btb_allocate(struct p5_btb *btb, uint64_t address, uint64_t target);

enum { P5_BTB_STRONGLY_TAKEN = 3 };

/* The outcome of the branch: history moves one step towards it. */
static inline void p5_btb_update(struct p5_btb_entry *entry, bool taken, uint64_t target)
{
    if (taken) {
        entry->target = target;
        if (entry->history < P5_BTB_STRONGLY_TAKEN)
            entry->history++;
    } else if (entry->history > 0) {
        entry->history--;
    }
}

#endif
