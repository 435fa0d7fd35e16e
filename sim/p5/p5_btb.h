/* The branch target buffer: a set_assoc (sim/common/set_assoc.h) keyed by
 * the branch's address, LRU, each entry's data its target and its state a
 * 2-bit history (SDM, Pentium branch prediction; docs/p5-model.md,
 * "Branches"). */
#ifndef SIM_P5_P5_BTB_H
#define SIM_P5_P5_BTB_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/common/set_assoc.h"

enum { P5_BTB_STRONGLY_TAKEN = 3 }; /* history 0-3: predicted taken from 2 */

/* Allocates the entry of a taken branch at `address` that missed,
 * evicting the least recently used: history 3 (strongly taken), the given
 * target. */
static inline void p5_btb_allocate(struct set_assoc *btb, uint64_t address, uint64_t target)
{
    long i = set_assoc_insert(btb, address, NULL);
    btb->state[i] = P5_BTB_STRONGLY_TAKEN;
    btb->data[i] = target;
}

/* The outcome of the branch of entry `i`: its history moves one step
 * towards it. */
static inline void p5_btb_update(struct set_assoc *btb, long i, bool taken, uint64_t target)
{
    if (taken) {
        btb->data[i] = target;
        if (btb->state[i] < P5_BTB_STRONGLY_TAKEN)
            btb->state[i]++;
    } else if (btb->state[i] > 0) {
        btb->state[i]--;
    }
}

#endif
