/* Basic blocks of a trace (docs/traces.md, "Blocks"), shared by the
 * trace writer and reader: cutting a stream of instructions into blocks
 * (struct block_builder), and the table of the blocks seen, by id, with
 * each block's prediction state (struct block_table).  Memory grows with
 * the number of distinct blocks, that is with the program's code, not with
 * the trace's length. */
#ifndef TRACES_TRACE_BLOCK_H
#define TRACES_TRACE_BLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "trace.h"

enum { BLOCK_NONE = UINT32_MAX }; /* no block: an unknown successor */

/* A block under construction, or read from a definition. */
struct block_builder {
    uint32_t n_insns, n_accesses;
    bool closed;             /* ended by a branch or by registers: nothing more joins */
    bool awaiting_target;    /* ends with a taken branch whose target is not known yet */
    uint64_t next_address;   /* struct trace_block's */
    uint8_t thread, cpl;
    bool has_registers;
    uint64_t regs[TRACE_MAX_REGS];
    struct trace_block_insn insns[TRACE_MAX_BLOCK_INSNS];
    struct trace_access accesses[TRACE_MAX_BLOCK_ACCESSES];
};

void block_builder_clear(struct block_builder *b);
/* Whether `insn` joins the block (which is not empty). */
bool block_builder_continues(const struct block_builder *b, const struct trace_insn *insn);
/* Appends `insn` (the block is empty or it continues it); a taken branch's
 * target is insn->target if `target_known`, else set later with
 * block_builder_set_target(). */
void block_builder_add(struct block_builder *b, const struct trace_insn *insn, bool target_known);
void block_builder_set_target(struct block_builder *b, uint64_t target);
/* The block's instruction `i` (< n_insns) as a trace_insn, with this
 * execution's thread, CPL, accesses and registers from `block`. */
void trace_block_insn_expand(const struct trace_block *block, uint32_t i, struct trace_insn *out);

/* A block in the table.  `block` is what the reader hands out: its insns
 * and accesses point into this entry; the accesses' addresses are those of
 * the last execution, which with `strides` predict the next one's. */
struct block_entry {
    struct trace_block block;
    uint64_t hash;
    struct block_entry *successors[2]; /* the blocks that followed this one, most recent
                                        * first; NULL: none */
    struct trace_block_insn *insns;
    struct trace_access *accesses;
    uint64_t *strides;       /* each access's last address change (mod 2^64) */
};

struct block_table {
    struct block_entry **entries; /* by id */
    uint32_t n, capacity;
    uint32_t *index;              /* open addressing by hash: ids, BLOCK_NONE for empty */
    uint32_t index_capacity;
};

bool block_table_init(struct block_table *t);
void block_table_free(struct block_table *t);
/* The id of the block with the static content of `b`, or BLOCK_NONE. */
uint32_t block_table_find(const struct block_table *t, const struct block_builder *b);
/* The block with the static content of `b`, or NULL, trying first the
 * successors of `last` (those most likely). */
struct block_entry *block_table_find_after(const struct block_table *t,
                                           const struct block_entry *last,
                                           const struct block_builder *b);
/* Adds the block `b` (not in the table yet), its accesses' addresses as
 * the last execution's and strides 0; NULL when out of memory. */
struct block_entry *block_table_add(struct block_table *t, const struct block_builder *b);

/* The state of a thread before its first block: no successors known,
 * address 0 expected. */
static inline void block_start_init(struct block_entry *start)
{
    memset(start, 0, sizeof *start);
    start->block.id = BLOCK_NONE;
}

/* The prediction of access `i` of `e`'s next execution. */
static inline uint64_t block_predicted_address(const struct block_entry *e, uint32_t i)
{
    return e->accesses[i].address + e->strides[i];
}

/* Makes `e` the most recent successor of `last`. */
static inline void block_note_successor(struct block_entry *last, struct block_entry *e)
{
    if (last->successors[0] == e)
        return;
    last->successors[1] = last->successors[0];
    last->successors[0] = e;
}

#endif
