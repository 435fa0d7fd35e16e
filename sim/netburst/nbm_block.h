/* The memo of each basic block of a trace (traces/trace.h: block ids are
 * dense, a block's static part the same each time its id comes back): its
 * instructions' ops, so that an instruction is neither expanded into a
 * record nor looked up in the decode cache again (docs/netburst-model.md,
 * "Speed").
 *
 * An instruction's op is taken when it first executes, as the per-record
 * driver decoded it then: the decode cache changes at the same points
 * (the wrong path reads it).  A hit changes nothing in the cache, so later
 * executions may use the memo's copy, as long as no op of the cache was
 * ever replaced by another code at its address (nbm_decode_cache.replaced):
 * after that the driver decodes each execution again. */
#ifndef SIM_NETBURST_NBM_BLOCK_H
#define SIM_NETBURST_NBM_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/netburst/nbm_machine.h"
#include "sim/netburst/nbm_op.h"
#include "traces/trace.h"

/* A block instruction's op and uops. */
struct nbm_block_insn {
    struct nbm_op op;
    struct nbm_shape shape;
};

struct nbm_block_memo {
    uint32_t n_known;            /* the first n_known instructions are known */
    struct nbm_block_insn decoded; /* after a replacement: the cache's op, decoded again */
    struct nbm_block_insn insns[];
};

struct nbm_block_memos {
    struct nbm_block_memo **by_id;
    uint32_t capacity;
};

void nbm_block_memos_init(struct nbm_block_memos *memos);
void nbm_block_memos_free(struct nbm_block_memos *memos);

/* The memo of `block`, made (with no instruction known yet) the first
 * time; NULL when out of memory. */
struct nbm_block_memo *nbm_block_memo(struct nbm_block_memos *memos, const struct trace_block *block);

/* nbm_block_insn for an instruction the memo does not know. */
enum decode_status nbm_block_insn_decode(struct nbm_block_memo *memo, const struct trace_block *block,
                                         uint32_t i, bool has_code, struct nbm_decode_cache *cache,
                                         const struct nbm_block_insn **insn);

/* The op and uops of the block's instruction `i` (its instructions run in
 * order from 0): from the memo, or its op decoded through `cache` when it
 * has code (`has_code`) else generic, and kept.  Valid until the next
 * call.  Inline: the memo knows nearly every one. */
static inline enum decode_status nbm_block_insn(struct nbm_block_memo *memo,
                                                const struct trace_block *block, uint32_t i,
                                                bool has_code, struct nbm_decode_cache *cache,
                                                const struct nbm_block_insn **insn)
{
    if (i < memo->n_known && !(has_code && cache->replaced)) {
        *insn = &memo->insns[i];
        return DECODE_OK;
    }
    return nbm_block_insn_decode(memo, block, i, has_code, cache, insn);
}

#endif
