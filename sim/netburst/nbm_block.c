/* The memo of each basic block: its instructions' ops (nbm_block.h). */
#include "sim/netburst/nbm_block.h"

#include <stdlib.h>

#include "sim/common/block_table.h"

void nbm_block_memos_init(struct nbm_block_memos *memos)
{
    memos->by_id = NULL;
    memos->capacity = 0;
}

void nbm_block_memos_free(struct nbm_block_memos *memos)
{
    for (uint32_t id = 0; id < memos->capacity; id++)
        free(memos->by_id[id]);
    free(memos->by_id);
    nbm_block_memos_init(memos);
}

/* Room for id `id`: false when out of memory. */
static bool memos_reserve(struct nbm_block_memos *memos, uint32_t id)
{
    struct nbm_block_memo **by_id =
        block_table_reserve(memos->by_id, &memos->capacity, id, sizeof *by_id);
    if (by_id)
        memos->by_id = by_id;
    return by_id != NULL;
}

struct nbm_block_memo *nbm_block_memo(struct nbm_block_memos *memos, const struct trace_block *block)
{
    if (block->id < memos->capacity && memos->by_id[block->id])
        return memos->by_id[block->id];
    if (!memos_reserve(memos, block->id))
        return NULL;
    struct nbm_block_memo *memo =
        malloc(sizeof *memo + block->n_insns * sizeof memo->insns[0]);
    if (!memo)
        return NULL;
    memo->n_known = 0;
    memos->by_id[block->id] = memo;
    return memo;
}

enum decode_status nbm_block_insn_decode(struct nbm_block_memo *memo, const struct trace_block *block,
                                         uint32_t i, bool has_code, struct nbm_decode_cache *cache,
                                         const struct nbm_block_insn **insn)
{
    const struct trace_block_insn *bi = &block->insns[i];
    struct nbm_block_insn *known = &memo->insns[i];
    if (!has_code) {
        nbm_op_generic(bi->address, bi->length, bi->branch, &known->op);
    } else {
        const struct nbm_op *op;
        enum decode_status status = nbm_decode(cache, bi->address, bi->length, bi->bytes, &op);
        if (status != DECODE_OK)
            return status;
        if (cache->replaced)
            known = &memo->decoded; /* as the per-record driver used it, not kept */
        known->op = *op;
    }
    nbm_shape_of(&block->accesses[bi->first_access], bi->n_accesses, &known->op, &known->shape);
    if (known != &memo->decoded && i == memo->n_known)
        memo->n_known++;
    *insn = known;
    return DECODE_OK;
}
