#include "sim/p5/p5_btb.h"

#include <stdlib.h>
#include <string.h>

bool p5_btb_init(struct p5_btb *btb, uint32_t entries, uint32_t ways)
{
    btb->entries = calloc(entries, sizeof *btb->entries);
    btb->ways = ways;
    btb->set_mask = entries / ways - 1;
    return btb->entries != NULL;
}

void p5_btb_free(struct p5_btb *btb)
{
    free(btb->entries);
    btb->entries = NULL;
}

static struct p5_btb_entry *set_of(struct p5_btb *btb, uint64_t address)
{
    return &btb->entries[(address & btb->set_mask) * btb->ways];
}

static struct p5_btb_entry *make_most_recent(struct p5_btb_entry *set, uint32_t way)
{
    if (way == 0)
        return set;
    struct p5_btb_entry entry = set[way];
    memmove(&set[1], &set[0], way * sizeof *set);
    set[0] = entry;
    return &set[0];
}

struct p5_btb_entry *p5_btb_lookup_slow(struct p5_btb *btb, struct p5_btb_entry *set,
                                        uint64_t address)
{
    for (uint32_t way = 1; way < btb->ways; way++)
        if (set[way].branch == address + 1)
            return make_most_recent(set, way);
    return NULL;
}

void p5_btb_allocate(struct p5_btb *btb, uint64_t address, uint64_t target)
{
    struct p5_btb_entry *entry = make_most_recent(set_of(btb, address), btb->ways - 1);
    *entry = (struct p5_btb_entry){address + 1, target, P5_BTB_STRONGLY_TAKEN};
}
