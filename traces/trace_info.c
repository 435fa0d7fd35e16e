/* The summary of a trace (traces/trace_info.h). */
#include "traces/trace_info.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/grow_array.h"

/* What a block adds to the summary is static: it is found once per id
 * (ids are dense, in order of first appearance), and the summary is the
 * sum over the ids of that times the block's executions. */
struct block_counts {
    uint64_t executions;
    uint32_t instructions, loads, stores;
    uint8_t branches, taken;
};

struct block_memo {
    struct block_counts *by_id;
    uint32_t n;
    size_t capacity;
};

static void count_new_block(struct block_counts *counts, const struct trace_block *block)
{
    enum trace_branch branch = block->insns[block->n_insns - 1].branch;
    counts->executions = 0;
    counts->instructions = block->n_insns;
    counts->branches = branch != TRACE_NOT_BRANCH;
    counts->taken = branch == TRACE_BRANCH_TAKEN;
    /* a modify (TRACE_LOAD | TRACE_STORE) is a load and a store */
    counts->loads = counts->stores = 0;
    for (uint32_t i = 0; i < block->n_accesses; i++) {
        counts->loads += (block->accesses[i].kind & TRACE_LOAD) != 0;
        counts->stores += (block->accesses[i].kind & TRACE_STORE) != 0;
    }
}

/* Counts an execution of `block`; false when out of memory. */
static bool count_block(struct block_memo *memo, const struct trace_block *block)
{
    if (block->id == memo->n) {
        if (!grow_array(&memo->by_id, &memo->capacity, (size_t)memo->n + 1, sizeof *memo->by_id,
                        1024))
            return false;
        count_new_block(&memo->by_id[memo->n++], block);
    }
    memo->by_id[block->id].executions++;
    return true;
}

static void add_blocks(struct trace_info *info, const struct block_memo *memo)
{
    for (uint32_t id = 0; id < memo->n; id++) {
        const struct block_counts *c = &memo->by_id[id];
        info->instructions += c->executions * c->instructions;
        info->branches += c->executions * c->branches;
        info->taken += c->executions * c->taken;
        info->loads += c->executions * c->loads;
        info->stores += c->executions * c->stores;
    }
}

enum trace_info_status trace_info_read(FILE *file, struct trace_reader *reader,
                                       struct trace_info *info)
{
    memset(info, 0, sizeof *info);
    struct block_memo memo = {0};
    const struct trace_block *block;
    const struct trace_record *record;
    enum trace_info_status status = TRACE_INFO_OK;
    do {
        if (trace_next_block(reader, &block, &record) != TRACE_OK)
            status = TRACE_INFO_READ_ERROR;
        else if (block && !count_block(&memo, block))
            status = TRACE_INFO_NO_MEMORY;
        else if (!block)
            info->regions += record->kind == TRACE_RECORD_REGION_BEGIN;
    } while (status == TRACE_INFO_OK && (block || record->kind != TRACE_RECORD_END));
    add_blocks(info, &memo);
    free(memo.by_id);
    if (status != TRACE_INFO_OK)
        return status;
    info->end = record->end;
    struct stat st;
    info->bytes = fstat(fileno(file), &st) == 0 ? (long long)st.st_size : 0;
    return TRACE_INFO_OK;
}

double trace_info_bytes_per_instruction(const struct trace_info *info)
{
    return info->instructions ? (double)info->bytes / (double)info->instructions : 0;
}
