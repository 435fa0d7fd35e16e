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
static inline bool block_builder_continues(const struct block_builder *b,
                                           const struct trace_insn *insn)
{
    return !b->closed && insn->address == b->next_address && insn->thread == b->thread &&
           insn->cpl == b->cpl && !insn->has_registers && b->n_insns < TRACE_MAX_BLOCK_INSNS &&
           b->n_accesses + (uint32_t)insn->n_accesses <= TRACE_MAX_BLOCK_ACCESSES;
}

/* The first instruction's thread, CPL and registers are the block's. */
static inline void block_builder_start(struct block_builder *b, const struct trace_insn *insn)
{
    b->thread = insn->thread;
    b->cpl = insn->cpl;
    b->has_registers = insn->has_registers;
    if (insn->has_registers)
        memcpy(b->regs, insn->regs, sizeof b->regs);
}

/* Counts `insn` in, its instruction and accesses stored, and says where
 * the block goes on. */
static inline void block_builder_count(struct block_builder *b, const struct trace_insn *insn,
                                       bool target_known)
{
    b->n_insns++;
    b->n_accesses += (uint32_t)insn->n_accesses;
    b->next_address = insn->address + insn->length;
    b->closed = insn->branch != TRACE_NOT_BRANCH || insn->has_registers;
    if (insn->branch == TRACE_BRANCH_TAKEN && target_known)
        b->next_address = insn->target;
    b->awaiting_target = insn->branch == TRACE_BRANCH_TAKEN && !target_known;
}
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
    enum trace_branch last_branch;    /* its last instruction's branch (beside the others
                                        * a writer's execution reads) */
    struct trace_block_insn *insns;
    struct trace_access *accesses;
    uint64_t *strides;       /* each access's last address change (mod 2^64) */
};

/* Whether `code`, of `length` (1-15) bytes, is `bi`'s code (0 past its
 * length): compared in two overlapping words, bytes 0-7 and 7-14, masked
 * to the length (mask[16 - length + i] is 0xff for i < length). */
static inline bool block_code_is(const struct trace_block_insn *bi, const uint8_t *code,
                                 unsigned length)
{
    static const uint8_t mask[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    uint64_t have[2], want[2], keep[2];
    memcpy(&have[0], code, 8);
    memcpy(&have[1], code + 7, 8);
    memcpy(&want[0], bi->bytes, 8);
    memcpy(&want[1], bi->bytes + 7, 8);
    memcpy(&keep[0], mask + 16 - length, 8);
    memcpy(&keep[1], mask + 16 - length + 7, 8);
    return ((have[0] & keep[0]) ^ want[0]) == 0 && ((have[1] & keep[1]) ^ want[1]) == 0;
}

/* Whether `insn`, code bytes given, is `bi` but for its accesses' kinds
 * and sizes. */
static inline bool block_insn_is(const struct trace_block_insn *bi, const struct trace_insn *insn)
{
    return bi->address == insn->address && bi->length == insn->length &&
           bi->branch == insn->branch && bi->n_accesses == insn->n_accesses && bi->has_bytes &&
           insn->has_bytes && block_code_is(bi, insn->bytes, insn->length);
}

/* Appends `insn` if it is, code bytes given, instruction b->n_insns of
 * `e`, whose instructions before it the block has: then only its accesses'
 * addresses are stored, the instructions and access shapes being e's until
 * block_builder_copy().  False, the block unchanged, if not.  An
 * instruction appended is valid as e's is (length, access kinds and
 * sizes). */
static inline bool block_builder_add_as(struct block_builder *b, const struct block_entry *e,
                                        const struct trace_insn *insn, bool target_known)
{
    if (b->n_insns == e->block.n_insns)
        return false;
    const struct trace_block_insn *bi = &e->insns[b->n_insns];
    if (!block_insn_is(bi, insn))
        return false;
    const struct trace_access *shapes = &e->accesses[bi->first_access];
    struct trace_access *to = &b->accesses[b->n_accesses];
    for (int i = 0; i < insn->n_accesses; i++) {
        const struct trace_access *a = &insn->accesses[i];
        if (shapes[i].kind != a->kind || shapes[i].size != a->size)
            return false;
        to[i].address = a->address; /* past the block's accesses until counted */
    }
    if (b->n_insns == 0)
        block_builder_start(b, insn);
    block_builder_count(b, insn, target_known);
    return true;
}
/* Stores the instructions and access shapes of the block that `e` has
 * (after block_builder_add_as()). */
void block_builder_copy(struct block_builder *b, const struct block_entry *e);
/* Whether `e` starts with the first `n_insns` instructions and
 * `n_accesses` access shapes of `f` (which has them). */
bool block_entry_starts_as(const struct block_entry *e, const struct block_entry *f,
                           uint32_t n_insns, uint32_t n_accesses);

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
