#include "trace_block.h"

#include <stdlib.h>
#include <string.h>

/* ---- building blocks */

void block_builder_clear(struct block_builder *b)
{
    b->n_insns = 0;
    b->n_accesses = 0;
    b->closed = false;
    b->awaiting_target = false;
    b->has_registers = false;
}

/* The code bytes, 0 past the length (blocks are compared whole): copied
 * whole and masked, in two words, which costs less than a copy of
 * `length` bytes.  mask[16 - length + i] is 0xff for i < length. */
static void copy_code(uint8_t *to, const uint8_t *from, uint8_t length)
{
    static const uint8_t mask[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    uint8_t code[16];
    uint64_t word[2], keep[2];
    memcpy(code, from, TRACE_MAX_INSN_LENGTH);
    code[15] = 0;
    memcpy(word, code, sizeof word);
    memcpy(keep, mask + 16 - length, sizeof keep);
    word[0] &= keep[0];
    word[1] &= keep[1];
    memcpy(code, word, sizeof word);
    memcpy(to, code, TRACE_MAX_INSN_LENGTH);
}

void block_builder_add(struct block_builder *b, const struct trace_insn *insn, bool target_known)
{
    if (b->n_insns == 0)
        block_builder_start(b, insn);
    /* Cleared whole, padding included: blocks are compared with memcmp. */
    struct trace_block_insn *bi = &b->insns[b->n_insns];
    memset(bi, 0, sizeof *bi);
    bi->address = insn->address;
    bi->length = insn->length;
    bi->has_bytes = insn->has_bytes;
    copy_code(bi->bytes, insn->bytes, insn->has_bytes ? insn->length : 0);
    bi->branch = insn->branch;
    bi->n_accesses = (uint16_t)insn->n_accesses;
    bi->first_access = (uint16_t)b->n_accesses;
    for (int i = 0; i < insn->n_accesses; i++)
        b->accesses[b->n_accesses + (uint32_t)i] = insn->accesses[i];
    block_builder_count(b, insn, target_known);
}

void block_builder_copy(struct block_builder *b, const struct block_entry *e)
{
    memcpy(b->insns, e->insns, b->n_insns * sizeof b->insns[0]);
    for (uint32_t i = 0; i < b->n_accesses; i++) {
        b->accesses[i].kind = e->accesses[i].kind;
        b->accesses[i].size = e->accesses[i].size;
    }
}

bool block_entry_starts_as(const struct block_entry *e, const struct block_entry *f,
                           uint32_t n_insns, uint32_t n_accesses)
{
    if (e->block.n_insns < n_insns || e->block.n_accesses < n_accesses ||
        memcmp(e->insns, f->insns, n_insns * sizeof e->insns[0]) != 0)
        return false;
    for (uint32_t i = 0; i < n_accesses; i++)
        if (e->accesses[i].kind != f->accesses[i].kind || e->accesses[i].size != f->accesses[i].size)
            return false;
    return true;
}

void block_builder_set_target(struct block_builder *b, uint64_t target)
{
    b->next_address = target;
    b->awaiting_target = false;
}

void trace_block_insn_expand(const struct trace_block *block, uint32_t i, struct trace_insn *out)
{
    const struct trace_block_insn *bi = &block->insns[i];
    out->address = bi->address;
    out->length = bi->length;
    out->has_bytes = bi->has_bytes;
    memcpy(out->bytes, bi->bytes, sizeof out->bytes);
    out->thread = block->thread;
    out->cpl = block->cpl;
    out->branch = bi->branch;
    out->target = bi->branch == TRACE_BRANCH_TAKEN ? block->next_address : 0;
    out->has_registers = block->regs != NULL;
    out->n_accesses = bi->n_accesses;
    memcpy(out->accesses, &block->accesses[bi->first_access],
           bi->n_accesses * sizeof out->accesses[0]);
    if (block->regs)
        memcpy(out->regs, block->regs, sizeof out->regs);
}

/* ---- the table */

enum { INITIAL_BLOCKS = 256 };

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x9e3779b97f4a7c15ull;
}

/* A hash of the static content (enough of it to tell blocks apart).  The
 * start address is mixed in before the next address: their xor alone
 * takes few values (that of a one-instruction block only depends on the
 * length and the carries), which filled the index with long chains of
 * equal hashes. */
static uint64_t builder_hash(const struct block_builder *b)
{
    uint64_t h = mix(mix(0, b->insns[0].address), b->next_address);
    h = mix(h, (uint64_t)b->n_insns << 32 | b->n_accesses);
    const struct trace_block_insn *last = &b->insns[b->n_insns - 1];
    h = mix(h, (uint64_t)last->branch << 8 | last->length);
    for (uint32_t i = 0; i < b->n_accesses; i++)
        h = mix(h, (uint64_t)b->accesses[i].kind << 32 | b->accesses[i].size);
    return h;
}

static bool same_block(const struct block_entry *e, const struct block_builder *b)
{
    if (e->block.n_insns != b->n_insns || e->block.n_accesses != b->n_accesses ||
        e->block.next_address != b->next_address ||
        memcmp(e->insns, b->insns, b->n_insns * sizeof b->insns[0]) != 0)
        return false;
    for (uint32_t i = 0; i < b->n_accesses; i++)
        if (e->accesses[i].kind != b->accesses[i].kind ||
            e->accesses[i].size != b->accesses[i].size)
            return false;
    return true;
}

bool block_table_init(struct block_table *t)
{
    memset(t, 0, sizeof *t);
    t->capacity = INITIAL_BLOCKS;
    t->index_capacity = 2 * INITIAL_BLOCKS;
    t->entries = malloc(t->capacity * sizeof *t->entries);
    t->index = malloc(t->index_capacity * sizeof *t->index);
    if (!t->entries || !t->index) {
        block_table_free(t);
        return false;
    }
    memset(t->index, 0xff, t->index_capacity * sizeof *t->index);
    return true;
}

void block_table_free(struct block_table *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        free(t->entries[i]);
    free(t->entries);
    free(t->index);
    memset(t, 0, sizeof *t);
}

static uint32_t index_slot(const struct block_table *t, uint64_t hash)
{
    return (uint32_t)(hash >> 32) & (t->index_capacity - 1);
}

uint32_t block_table_find(const struct block_table *t, const struct block_builder *b)
{
    uint64_t hash = builder_hash(b);
    for (uint32_t i = index_slot(t, hash);; i = (i + 1) & (t->index_capacity - 1)) {
        uint32_t id = t->index[i];
        if (id == BLOCK_NONE)
            return BLOCK_NONE;
        const struct block_entry *e = t->entries[id];
        if (e->hash == hash && same_block(e, b))
            return id;
    }
}

struct block_entry *block_table_find_after(const struct block_table *t,
                                           const struct block_entry *last,
                                           const struct block_builder *b)
{
    for (int i = 0; i < 2; i++)
        if (last->successors[i] && same_block(last->successors[i], b))
            return last->successors[i];
    uint32_t id = block_table_find(t, b);
    return id == BLOCK_NONE ? NULL : t->entries[id];
}

static void index_put(struct block_table *t, uint32_t id)
{
    uint32_t i = index_slot(t, t->entries[id]->hash);
    while (t->index[i] != BLOCK_NONE)
        i = (i + 1) & (t->index_capacity - 1);
    t->index[i] = id;
}

/* Room for one more block: the index stays at most half full. */
static bool make_room(struct block_table *t)
{
    if (t->n == UINT32_MAX - 1)
        return false;
    if (t->n == t->capacity) {
        struct block_entry **bigger = realloc(t->entries, 2 * (size_t)t->capacity * sizeof *bigger);
        if (!bigger)
            return false;
        t->entries = bigger;
        t->capacity *= 2;
    }
    if (2 * (t->n + 1) <= t->index_capacity)
        return true;
    uint32_t *index = malloc(2 * (size_t)t->index_capacity * sizeof *index);
    if (!index)
        return false;
    free(t->index);
    t->index = index;
    t->index_capacity *= 2;
    memset(t->index, 0xff, t->index_capacity * sizeof *t->index);
    for (uint32_t id = 0; id < t->n; id++)
        index_put(t, id);
    return true;
}

/* One allocation: the entry, its accesses, strides and instructions (what
 * each execution touches first). */
static struct block_entry *new_entry(const struct block_builder *b)
{
    size_t insns = b->n_insns * sizeof(struct trace_block_insn);
    size_t accesses = b->n_accesses * sizeof(struct trace_access);
    size_t strides = b->n_accesses * sizeof(uint64_t);
    struct block_entry *e = malloc(sizeof *e + accesses + strides + insns);
    if (!e)
        return NULL;
    memset(e, 0, sizeof *e);
    e->accesses = (struct trace_access *)(e + 1);
    e->strides = (uint64_t *)((char *)e->accesses + accesses);
    e->insns = (struct trace_block_insn *)((char *)e->strides + strides);
    memcpy(e->insns, b->insns, insns);
    memcpy(e->accesses, b->accesses, accesses);
    memset(e->strides, 0, b->n_accesses * sizeof(uint64_t));
    e->block.n_insns = b->n_insns;
    e->block.n_accesses = b->n_accesses;
    e->block.insns = e->insns;
    e->block.accesses = e->accesses;
    e->block.next_address = b->next_address;
    e->last_branch = b->insns[b->n_insns - 1].branch;
    e->hash = builder_hash(b);
    return e;
}

struct block_entry *block_table_add(struct block_table *t, const struct block_builder *b)
{
    struct block_entry *e = make_room(t) ? new_entry(b) : NULL;
    if (!e)
        return NULL;
    e->block.id = t->n;
    t->entries[t->n++] = e;
    index_put(t, e->block.id);
    return e;
}
