/* The writer's core writes through a sink (trace_writer_create()) and
 * uses no libc beyond memory functions and malloc, so that the recorder's
 * valgrind tool runs it too (traces/recorder/pt_libc.c);
 * traces/trace_writer_file.c binds it to a FILE. */
#include <stdlib.h>
#include <string.h>

#include "code_cache.h"
#include "trace.h"
#include "trace_block.h"
#include "trace_encoding.h"

/* A region marker held after a taken branch until its target is known. */
struct held_marker {
    bool begin;
    uint32_t region;
};

/* The writer cuts the instructions into blocks (traces/trace_block.h) and
 * writes each block's execution (docs/traces.md, "Format (version 2)"),
 * keeping the same prediction state as a reader. */
enum { WRITER_BUFFER = 65536 };

struct trace_writer {
    trace_sink *sink;
    void *sink_context;
    uint32_t buffered;        /* bytes in buffer[] not handed to the sink yet */
    struct code_cache *code;  /* code bytes by address, as a version-1 reader keeps them */
    bool code_changed;        /* bytes at an address ever changed (see remember_code()) */
    uint8_t thread, cpl;      /* as of the last thread and CPL records */
    uint64_t instructions;
    bool ended, failed;
    uint32_t serial;          /* this writer's number, for trace_insn_memo */
    int n_regs;               /* registers of the ISA; 0: the trace has none */
    bool msr_accesses;        /* the header allows MSR access records */
    uint64_t regs[TRACE_MAX_REGS]; /* as of the last register record (initially 0) */
    struct block_table blocks;
    struct block_builder pending;  /* the block being built */
    /* The known block the pending one is so far an execution of, its
     * instructions and access shapes not stored (block_builder_add_as());
     * NULL: the pending block is stored whole. */
    struct block_entry *match;
    struct block_entry *last_block[2]; /* each thread's last block written (at first its start) */
    struct block_entry start[2];
    uint32_t run;             /* executions of successor 0 as predicted, not written yet */
    uint64_t last_defined_access;
    struct held_marker markers[TRACE_MAX_MARKERS];
    int n_markers;
    uint8_t buffer[WRITER_BUFFER];
};

/* The bytes buffered, handed to the sink. */
static void flush_buffer(struct trace_writer *w)
{
    if (w->buffered && !w->sink(w->sink_context, w->buffer, w->buffered))
        w->failed = true;
    w->buffered = 0;
}

static void put_byte(struct trace_writer *w, unsigned byte)
{
    if (w->buffered == WRITER_BUFFER)
        flush_buffer(w);
    w->buffer[w->buffered++] = (uint8_t)byte;
}

static void put_bytes(struct trace_writer *w, const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put_byte(w, bytes[i]);
}

/* `value` as a varint into `out` (10 bytes at most); its length. */
static size_t varint_encode(uint8_t *out, uint64_t value)
{
    size_t n = 0;
    for (; value >= 0x80; value >>= 7)
        out[n++] = (uint8_t)(value | 0x80);
    out[n++] = (uint8_t)value;
    return n;
}

static void put_varint(struct trace_writer *w, uint64_t value)
{
    uint8_t bytes[10];
    put_bytes(w, bytes, varint_encode(bytes, value));
}

static void put_string(struct trace_writer *w, const char *text)
{
    size_t length = 0;
    while (length < TRACE_MAX_TEXT - 1 && text[length])
        length++;
    put_varint(w, length);
    put_bytes(w, (const uint8_t *)text, length);
}

static void free_writer(struct trace_writer *w)
{
    code_cache_free(w->code);
    block_table_free(&w->blocks);
    free(w);
}

/* The header's CPU view: its name, the number of leaves, then per leaf
 * the leaf, subleaf, EAX, EBX, ECX and EDX (docs/traces.md, "Header"). */
static void put_cpu_view(struct trace_writer *w, const struct cpu_view *view)
{
    put_string(w, view->name);
    put_varint(w, view->n);
    for (uint32_t i = 0; i < view->n; i++) {
        const struct cpuid_leaf *l = &view->leaves[i];
        const uint32_t words[6] = {l->leaf, l->subleaf, l->regs.eax, l->regs.ebx,
                                   l->regs.ecx, l->regs.edx};
        for (int k = 0; k < 6; k++)
            put_varint(w, words[k]);
    }
}

struct trace_writer *trace_writer_create(const struct trace_header *header, trace_sink *sink,
                                         void *sink_context)
{
    struct trace_writer *w = calloc(1, sizeof *w);
    if (w && !block_table_init(&w->blocks)) {
        free(w);
        w = NULL;
    }
    if (w)
        w->code = code_cache_create();
    if (!w || !w->code) {
        if (w)
            free_writer(w);
        return NULL;
    }
    static uint32_t writers;
    w->serial = ++writers;
    w->sink = sink;
    w->sink_context = sink_context;
    w->cpl = 3;
    w->msr_accesses = header->msr_accesses;
    w->n_regs = !header->registers ? 0 : header->isa == TRACE_ISA_64 ? TRACE_MAX_REGS
                                                                      : TRACE_REGS_32;
    for (int t = 0; t < 2; t++) {
        block_start_init(&w->start[t]);
        w->last_block[t] = &w->start[t];
    }
    block_builder_clear(&w->pending);
    put_bytes(w, (const uint8_t *)TRACE_MAGIC, TRACE_MAGIC_SIZE);
    put_varint(w, TRACE_VERSION);
    put_varint(w, (header->isa == TRACE_ISA_64 ? TRACE_FLAG_ISA64 : 0) |
                      (header->lengths_known ? 0 : TRACE_FLAG_LENGTHS_UNKNOWN) |
                      (header->registers ? TRACE_FLAG_REGISTERS : 0) |
                      (header->cpu.n ? TRACE_FLAG_CPU_VIEW : 0) |
                      (header->msr_accesses ? TRACE_FLAG_MSR : 0));
    put_string(w, header->program);
    put_string(w, header->args);
    put_string(w, header->recorder);
    if (header->cpu.n)
        put_cpu_view(w, &header->cpu);
    flush_buffer(w);
    return w;
}

/* The executions of successor 0 counted but not written: one tag per up
 * to EXEC_MAX_RUN + 1 of them.  Before anything else is written. */
static void put_run(struct trace_writer *w)
{
    while (w->run) {
        uint32_t n = w->run <= EXEC_MAX_RUN + 1 ? w->run : EXEC_MAX_RUN + 1;
        put_byte(w, (n - 1) << EXEC_RUN_SHIFT | EXEC_SUCCESSOR_0);
        w->run -= n;
    }
}

/* The registers that changed since the last register record: a mask, then
 * their zigzag deltas, lowest index first. */
static void put_registers(struct trace_writer *w, const uint64_t *regs)
{
    uint64_t mask = 0;
    for (int i = 0; i < w->n_regs; i++)
        if (regs[i] != w->regs[i])
            mask |= (uint64_t)1 << i;
    put_byte(w, CONTROL_REGISTERS);
    put_varint(w, mask);
    for (int i = 0; i < w->n_regs; i++)
        if (mask & (uint64_t)1 << i) {
            put_varint(w, zigzag((int64_t)(regs[i] - w->regs[i])));
            w->regs[i] = regs[i];
        }
}

/* Registers a writer can store: those of the ISA (32-bit values in a
 * 32-bit trace), the others 0. */
static bool registers_valid(const struct trace_writer *w, const struct trace_insn *insn)
{
    if (!insn->has_registers)
        return true;
    if (w->n_regs == 0)
        return false;
    for (int i = 0; i < TRACE_MAX_REGS; i++)
        if ((i >= w->n_regs && insn->regs[i]) ||
            (w->n_regs == TRACE_REGS_32 && insn->regs[i] > UINT32_MAX))
            return false;
    return true;
}

/* Thread and CPL changes, then the registers (`regs`, or NULL: none),
 * precede a block. */
static inline void put_controls(struct trace_writer *w, uint8_t thread, uint8_t cpl,
                                const uint64_t *regs)
{
    if (thread != w->thread || cpl != w->cpl || regs)
        put_run(w);
    if (thread != w->thread) {
        put_byte(w, CONTROL_THREAD);
        put_byte(w, thread);
        w->thread = thread;
    }
    if (cpl != w->cpl) {
        put_byte(w, CONTROL_CPL);
        put_byte(w, cpl);
        w->cpl = cpl;
    }
    if (regs)
        put_registers(w, regs);
}

/* An instruction given without code bytes gets those last given at its
 * address with its length, as a version-1 reader returns them. */
static void known_bytes(struct trace_writer *w, struct trace_block_insn *bi)
{
    const uint8_t *cached = code_cache_find(w->code, bi->address, bi->length);
    if (!bi->has_bytes && cached) {
        memcpy(bi->bytes, cached, sizeof bi->bytes);
        bi->has_bytes = true;
    }
}

/* Keeps the code bytes of a block written in the cache.  A known block's
 * bytes are there already as long as no address ever had other bytes (or
 * another length): every block's bytes were kept when it was defined, and
 * nothing replaced them.  So only new blocks are kept until then, and
 * every block after. */
static void remember_code(struct trace_writer *w, const struct block_builder *b, bool new_block)
{
    if (!new_block && !w->code_changed)
        return;
    for (uint32_t i = 0; i < b->n_insns; i++) {
        const struct trace_block_insn *bi = &b->insns[i];
        const struct code_cache_slot *slot = code_cache_slot(w->code, bi->address);
        /* both 0 past the length: compared whole */
        if (!bi->has_bytes || (slot->length == bi->length &&
                               memcmp(slot->bytes, bi->bytes, sizeof bi->bytes) == 0))
            continue;
        w->code_changed |= slot->length != 0;
        if (!code_cache_put(w->code, bi->address, bi->length, bi->bytes))
            w->failed = true;
    }
}

static void put_access_shape(struct trace_writer *w, const struct trace_access *a)
{
    uint32_t size_code = a->size < ACCESS_SIZE_ESCAPE ? a->size : ACCESS_SIZE_ESCAPE;
    put_byte(w, (unsigned)a->kind | size_code << 2);
    if (size_code == ACCESS_SIZE_ESCAPE)
        put_varint(w, a->size);
}

static void put_block_insn(struct trace_writer *w, const struct block_builder *b,
                           const struct trace_block_insn *bi)
{
    put_byte(w, bi->length | (unsigned)bi->branch << DEFINE_BRANCH_SHIFT |
                    (bi->has_bytes ? DEFINE_BYTES : 0) | (bi->n_accesses ? DEFINE_ACCESSES : 0));
    if (bi->has_bytes)
        put_bytes(w, bi->bytes, bi->length);
    if (!bi->n_accesses)
        return;
    put_varint(w, bi->n_accesses);
    for (uint32_t i = 0; i < bi->n_accesses; i++)
        put_access_shape(w, &b->accesses[bi->first_access + i]);
}

/* A new block: its definition, then its first execution's addresses. */
static struct block_entry *put_definition(struct trace_writer *w, const struct block_builder *b)
{
    const struct block_entry *last = w->last_block[b->thread];
    const struct trace_block_insn *end = &b->insns[b->n_insns - 1];
    put_run(w);
    put_byte(w, EXEC_DEFINE);
    put_varint(w, zigzag((int64_t)(b->insns[0].address - last->block.next_address)));
    put_varint(w, b->n_insns);
    for (uint32_t i = 0; i < b->n_insns; i++)
        put_block_insn(w, b, &b->insns[i]);
    if (end->branch == TRACE_BRANCH_TAKEN)
        put_varint(w, zigzag((int64_t)(b->next_address - (end->address + end->length))));
    for (uint32_t i = 0; i < b->n_accesses; i++) {
        put_varint(w, zigzag((int64_t)(b->accesses[i].address - w->last_defined_access)));
        w->last_defined_access = b->accesses[i].address;
    }
    struct block_entry *e = block_table_add(&w->blocks, b);
    if (!e)
        w->failed = true;
    return e;
}

/* An execution of a known block in `thread`: which one, and the
 * addresses not as predicted; its accesses' addresses are addresses[0],
 * addresses[stride], ... (a builder's accesses, or an array).  The block
 * becomes the thread's last. */
static inline __attribute__((always_inline)) void
put_execution(struct trace_writer *w, struct block_entry *e, uint8_t thread,
              const uint64_t *addresses, size_t stride)
{
    struct block_entry *last = w->last_block[thread];
    uint32_t n_accesses = e->block.n_accesses;
    uint64_t delta[TRACE_MAX_BLOCK_ACCESSES], any = 0, mask = 0;
    for (uint32_t i = 0; i < n_accesses; i++) {
        uint64_t address = addresses[i * stride];
        delta[i] = address - block_predicted_address(e, i);
        any |= delta[i];
        e->accesses[i].address = address;
        e->strides[i] += delta[i];
    }
    if (any) /* seldom: the mask only then */
        for (uint32_t i = 0; i < n_accesses; i++)
            mask |= (uint64_t)(delta[i] != 0) << i;
    unsigned which = last->successors[0] == e   ? EXEC_SUCCESSOR_0
                     : last->successors[1] == e ? EXEC_SUCCESSOR_1
                                                : EXEC_ID;
    if (which == EXEC_SUCCESSOR_0 && !mask) {
        w->run++;
    } else {
        put_run(w);
        put_byte(w, which | (mask ? EXEC_ADDRESSES : 0));
        if (which == EXEC_ID)
            put_varint(w, e->block.id);
        if (mask) {
            put_varint(w, mask);
            for (uint32_t i = 0; i < n_accesses; i++)
                if (mask >> i & 1)
                    put_varint(w, zigzag((int64_t)delta[i]));
        }
    }
    block_note_successor(last, e);
    w->last_block[thread] = e;
}

/* The other successor of the thread's last block, if it starts as
 * `match`, the pending block's, for the instructions the block has so
 * far. */
static struct block_entry *other_match(const struct trace_writer *w,
                                       const struct block_entry *match)
{
    const struct block_builder *b = &w->pending;
    struct block_entry *const *successors = w->last_block[b->thread]->successors;
    struct block_entry *other = successors[successors[0] == match ? 1 : 0];
    return other && other != match &&
                   block_entry_starts_as(other, match, b->n_insns, b->n_accesses)
               ? other
               : NULL;
}

/* Whether the pending block, which is so far an execution of `e`, is
 * one. */
static bool match_complete(const struct block_builder *b, const struct block_entry *e)
{
    return e && b->n_insns == e->block.n_insns && b->next_address == e->block.next_address;
}

/* The block the pending one is an execution of, found without a look-up:
 * its match or the other successor; else NULL, and the pending block is
 * stored whole. */
static struct block_entry *matched_block(struct trace_writer *w)
{
    struct block_entry *e = w->match;
    if (!e)
        return NULL;
    w->match = NULL;
    if (match_complete(&w->pending, e))
        return e;
    struct block_entry *other = other_match(w, e);
    if (match_complete(&w->pending, other))
        return other;
    block_builder_copy(&w->pending, e);
    return NULL;
}

/* A builder's access addresses as put_execution() takes them. */
_Static_assert(sizeof(struct trace_access) % sizeof(uint64_t) == 0,
               "trace_access holds whole words");
enum { BUILDER_STRIDE = sizeof(struct trace_access) / sizeof(uint64_t) };

/* Writes the pending block's execution and starts a new one. */
static void put_block(struct trace_writer *w)
{
    struct block_builder *b = &w->pending;
    put_controls(w, b->thread, b->cpl, b->has_registers ? b->regs : NULL);
    struct block_entry *e = matched_block(w);
    if (!e) {
        e = block_table_find_after(&w->blocks, w->last_block[b->thread], b);
        remember_code(w, b, e == NULL);
    }
    if (e) {
        put_execution(w, e, b->thread, &b->accesses[0].address, BUILDER_STRIDE);
    } else {
        e = put_definition(w, b);
        if (e) {
            block_note_successor(w->last_block[b->thread], e);
            w->last_block[b->thread] = e;
        }
    }
    block_builder_clear(b);
}

static void put_marker(struct trace_writer *w, bool begin, uint32_t region)
{
    put_run(w);
    put_byte(w, begin ? CONTROL_REGION_BEGIN : CONTROL_REGION_END);
    put_varint(w, region);
}

/* The pending block, its target now known, and the markers held after
 * it. */
static void put_held(struct trace_writer *w, uint64_t target)
{
    block_builder_set_target(&w->pending, target);
    put_block(w);
    for (int i = 0; i < w->n_markers; i++)
        put_marker(w, w->markers[i].begin, w->markers[i].region);
    w->n_markers = 0;
}

static bool accesses_valid(const struct trace_insn *insn)
{
    if (insn->n_accesses < 0 || insn->n_accesses > TRACE_MAX_ACCESSES)
        return false;
    for (int i = 0; i < insn->n_accesses; i++) {
        const struct trace_access *a = &insn->accesses[i];
        if (!trace_access_size_valid(a->size) || a->kind < TRACE_LOAD || a->kind > TRACE_MODIFY)
            return false;
    }
    return true;
}

/* The known block that `insn` likely starts: a successor of the thread's
 * last block starting at its address.  None once code changed (see
 * remember_code()). */
static struct block_entry *predicted(const struct trace_writer *w, uint8_t thread,
                                     uint64_t address)
{
    struct block_entry *const *successors = w->last_block[thread]->successors;
    if (w->code_changed)
        return NULL;
    for (int i = 0; i < 2; i++)
        if (successors[i] && successors[i]->insns[0].address == address)
            return successors[i];
    return NULL;
}

/* Appends `insn` to the pending block: while the instructions are those
 * of a known block, the fast path, only their accesses' addresses are
 * stored (the other successor is tried before giving up). */
static void add_insn(struct trace_writer *w, const struct trace_insn *insn)
{
    struct block_builder *b = &w->pending;
    if (b->n_insns == 0)
        w->match = predicted(w, insn->thread, insn->address);
    if (w->match && block_builder_add_as(b, w->match, insn, false))
        return;
    struct block_entry *other = w->match ? other_match(w, w->match) : NULL;
    if (other && block_builder_add_as(b, other, insn, false)) {
        w->match = other;
        return;
    }
    if (w->match)
        block_builder_copy(b, w->match);
    w->match = NULL;
    block_builder_add(b, insn, false);
    if (!insn->has_bytes)
        known_bytes(w, &b->insns[b->n_insns - 1]);
}

static bool insn_valid(const struct trace_writer *w, const struct trace_insn *insn)
{
    return insn->length >= 1 && insn->length <= TRACE_MAX_INSN_LENGTH && accesses_valid(insn) &&
           insn->thread <= 1 && insn->cpl <= 3 && registers_valid(w, insn);
}

/* trace_write_insn(), noting in `memo` (if any) the known block the
 * instruction was found in. */
static bool write_insn(struct trace_writer *w, const struct trace_insn *insn,
                       struct trace_insn_memo *memo)
{
    struct block_builder *b = &w->pending;
    /* The fast path: the next instruction of the pending block's match,
     * valid as the match's is, of the block's thread and CPL. */
    bool next_of_match = w->match && b->n_insns && block_builder_continues(b, insn) &&
                         block_builder_add_as(b, w->match, insn, false);
    if (!next_of_match) {
        if (w->ended || !insn_valid(w, insn))
            return false;
        if (b->awaiting_target)
            put_held(w, insn->address);
        else if (b->n_insns && !block_builder_continues(b, insn))
            put_block(w);
        add_insn(w, insn);
    }
    w->instructions++;
    /* Appended as instruction n_insns - 1 of its match. */
    if (memo && w->match)
        *memo = (struct trace_insn_memo){w->match, b->n_insns - 1, w->serial};
    if (b->closed && !b->awaiting_target)
        put_block(w);
    return !w->failed;
}

bool trace_write_insn(struct trace_writer *w, const struct trace_insn *insn)
{
    return write_insn(w, insn, NULL);
}

/* Whether `memo` says that `insn` is instruction b->n_insns of `e` but
 * for its branch's outcome and its accesses' addresses: what
 * block_builder_add_as() would find. */
static bool memo_says(const struct trace_writer *w, const struct trace_insn_memo *memo,
                      const struct block_entry *e, const struct trace_insn *insn)
{
    const struct block_builder *b = &w->pending;
    return e && memo->block == e && memo->index == b->n_insns && memo->writer == w->serial &&
           e->insns[b->n_insns].branch == insn->branch;
}

/* Appends `insn`, which memo_says() is the next instruction of the match;
 * as block_builder_add_as() does. */
static bool append_known(struct trace_writer *w, const struct trace_insn *insn)
{
    struct block_builder *b = &w->pending;
    struct trace_access *to = &b->accesses[b->n_accesses];
    for (int i = 0; i < insn->n_accesses; i++)
        to[i].address = insn->accesses[i].address;
    if (b->n_insns == 0)
        block_builder_start(b, insn);
    block_builder_count(b, insn, false);
    w->instructions++;
    if (b->closed && !b->awaiting_target)
        put_block(w);
    return !w->failed;
}

bool trace_write_insn_memo(struct trace_writer *w, const struct trace_insn *insn,
                           struct trace_insn_memo *memo)
{
    struct block_builder *b = &w->pending;
    if (b->n_insns && block_builder_continues(b, insn) && memo_says(w, memo, w->match, insn))
        return append_known(w, insn);
    /* A block's first instruction: as write_insn() and add_insn() go, the
     * match predicted. */
    if (w->ended || insn->has_registers || insn->thread > 1 || insn->cpl > 3 ||
        memo->index != 0 || memo->writer != w->serial)
        return write_insn(w, insn, memo);
    if (b->awaiting_target)
        put_held(w, insn->address);
    else if (b->n_insns && !block_builder_continues(b, insn))
        put_block(w);
    if (b->n_insns == 0) {
        w->match = predicted(w, insn->thread, insn->address);
        if (memo_says(w, memo, w->match, insn))
            return append_known(w, insn);
        w->match = NULL;
    }
    return write_insn(w, insn, memo);
}

/* Appends the run that `memo` places at the end of the pending block:
 * instructions memo->index .. + n - 1 of its block, as append_known()
 * does for each. */
static bool append_run(struct trace_writer *w, uint8_t thread, uint32_t n,
                       const uint64_t *addresses, const struct trace_insn_memo *memo)
{
    struct block_builder *b = &w->pending;
    const struct block_entry *e = memo->block;
    const struct trace_block_insn *last = &e->insns[memo->index + n - 1];
    uint32_t n_accesses = last->first_access + last->n_accesses - b->n_accesses;
    for (uint32_t i = 0; i < n_accesses; i++)
        b->accesses[b->n_accesses + i].address = addresses[i];
    if (b->n_insns == 0) {
        b->thread = thread;
        b->cpl = 3;
        b->has_registers = false;
    }
    b->n_insns += n;
    b->n_accesses += n_accesses;
    b->next_address = last->address + last->length;
    b->closed = last->branch != TRACE_NOT_BRANCH;
    b->awaiting_target = last->branch == TRACE_BRANCH_TAKEN;
    w->instructions += n;
    if (b->closed && !b->awaiting_target)
        put_block(w);
    return !w->failed;
}

/* Whether `memo` places a run of `n` instructions of `thread` at the end
 * of the pending block.  For a new block the memo's block is its match:
 * the memo says that the run's instructions are that block's first ones
 * (whether the block goes on as it did is for put_block() to find), so no
 * prediction is needed; but not once code changed (see remember_code()). */
static bool run_known(struct trace_writer *w, uint8_t thread, uint32_t n,
                      const struct trace_insn_memo *memo)
{
    struct block_builder *b = &w->pending;
    const struct block_entry *e = memo->block;
    if (w->ended || memo->writer != w->serial || n == 0)
        return false;
    uint64_t address = e->insns[memo->index].address;
    if (memo->index != 0)
        return b->n_insns == memo->index && w->match == e && !b->closed &&
               b->next_address == address && b->thread == thread && b->cpl == 3;
    if (b->awaiting_target)
        put_held(w, address);
    else if (b->n_insns && (b->closed || b->next_address != address || b->thread != thread ||
                            b->cpl != 3 || b->n_insns == TRACE_MAX_BLOCK_INSNS ||
                            b->n_accesses + e->insns[0].n_accesses > TRACE_MAX_BLOCK_ACCESSES))
        put_block(w); /* as block_builder_continues() says for the run's first */
    if (b->n_insns || w->code_changed)
        return false;
    w->match = (struct block_entry *)memo->block;
    return true;
}

/* Where the instruction just written is: the known block and its index in
 * it; NULL: none known. */
static const struct block_entry *written_at(const struct trace_writer *w, uint8_t thread,
                                            uint32_t *index)
{
    const struct block_builder *b = &w->pending;
    const struct block_entry *e = b->n_insns ? w->match : w->last_block[thread];
    if (e)
        *index = b->n_insns ? b->n_insns - 1 : e->block.n_insns - 1;
    return e;
}

/* The pending block, ended by a taken branch, goes to `next`: written
 * now rather than with the next instruction, which it would be given
 * (put_held()) with the same bytes. */
static bool put_taken(struct trace_writer *w, uint64_t next)
{
    if (w->pending.awaiting_target)
        put_held(w, next);
    return !w->failed;
}

/* The known block that `memo` says a run of `n` instructions going on at
 * `next` is the whole of, when it is to be written now: no block pending,
 * the run's last instruction a branch, and a taken one's target the
 * block's (an indirect branch may go elsewhere).  Not once code changed
 * (see remember_code()). */
static struct block_entry *whole_block(const struct trace_writer *w, uint32_t n,
                                       const struct trace_insn_memo *memo, uint64_t next)
{
    struct block_entry *e = (struct block_entry *)memo->block;
    if (memo->index != 0 || memo->writer != w->serial || w->pending.n_insns || w->ended ||
        w->code_changed || e->block.n_insns != n)
        return NULL;
    enum trace_branch branch = e->last_branch;
    return branch == TRACE_BRANCH_NOT_TAKEN ||
                   (branch == TRACE_BRANCH_TAKEN && e->block.next_address == next)
               ? e
               : NULL;
}

bool trace_write_run(struct trace_writer *w, uint8_t thread, uint32_t n,
                     const uint64_t *addresses, struct trace_insn_memo *memo,
                     trace_run_insn *insn_at, void *context, uint64_t next)
{
    /* The common case: the run is a block, written as put_block() would. */
    struct block_entry *e = whole_block(w, n, memo, next);
    if (e) {
        put_controls(w, thread, 3, NULL);
        put_execution(w, e, thread, addresses, 1);
        w->instructions += n;
        return !w->failed;
    }
    if (run_known(w, thread, n, memo)) {
        if (!append_run(w, thread, n, addresses, memo) || !put_taken(w, next))
            return false;
        /* A run that began a block and is all of it, which went elsewhere
         * than the memo's (an indirect branch): the memo follows the block
         * written, the one most likely next time. */
        if (memo->index == 0 && w->pending.n_insns == 0)
            memo->block = w->last_block[thread];
        return true;
    }
    struct trace_insn_memo found = {NULL, 0, w->serial};
    for (uint32_t i = 0; i < n; i++) {
        struct trace_insn_memo *insn_memo;
        const struct trace_insn *insn = insn_at(context, i, &insn_memo);
        if (!trace_write_insn_memo(w, insn, insn_memo))
            return false;
        uint32_t index = 0;
        const struct block_entry *e = written_at(w, insn->thread, &index);
        if (i == 0) {
            found.block = e;
            found.index = index;
        } else if (e != found.block || index != found.index + i) {
            found.block = NULL;
        }
    }
    if (found.block)
        *memo = found;
    return put_taken(w, next);
}

bool trace_write_region(struct trace_writer *w, bool begin, uint32_t region)
{
    if (w->ended)
        return false;
    if (w->pending.awaiting_target) {
        /* A reader of version 1 holds these while it looks for the target. */
        if (w->n_markers == TRACE_MAX_MARKERS)
            return false;
        w->markers[w->n_markers++] = (struct held_marker){begin, region};
        return !w->failed;
    }
    if (w->pending.n_insns)
        put_block(w);
    put_marker(w, begin, region);
    return !w->failed;
}

/* The block being built (a taken branch at its end awaiting its target
 * going to `next`) and the run before it, into the buffer. */
static void put_pending(struct trace_writer *w, uint64_t next)
{
    if (w->pending.awaiting_target)
        put_held(w, next);
    else if (w->pending.n_insns)
        put_block(w);
    put_run(w);
}

bool trace_write_msr(struct trace_writer *w, const struct trace_msr *access, uint64_t next)
{
    if (w->ended || !w->msr_accesses || access->op > TRACE_MSR_RDTSC || access->cpu > 1)
        return false;
    put_pending(w, next);
    put_byte(w, CONTROL_MSR);
    put_byte(w, (uint8_t)(access->op | access->cpu << 2));
    put_varint(w, access->msr);
    if (access->op == TRACE_MSR_WRITE)
        put_varint(w, access->value);
    return !w->failed;
}

bool trace_writer_flush(struct trace_writer *w)
{
    /* Whole tags only: put_run() writes these first in any case, so the
     * trace's bytes are those of a writer never flushed. */
    while (w->run >= EXEC_MAX_RUN + 1) {
        put_byte(w, EXEC_MAX_RUN << EXEC_RUN_SHIFT | EXEC_SUCCESSOR_0);
        w->run -= EXEC_MAX_RUN + 1;
    }
    flush_buffer(w);
    return !w->failed;
}

bool trace_writer_flush_all(struct trace_writer *w, uint64_t next)
{
    if (w->ended)
        return false;
    put_pending(w, next);
    flush_buffer(w);
    return !w->failed;
}

bool trace_writer_finish(struct trace_writer *w)
{
    return trace_writer_flush_all(w, 0); /* a trace ended on a taken branch: no target */
}

size_t trace_end_encode(uint64_t instructions, const struct trace_end *end,
                        uint8_t out[TRACE_MAX_END_BYTES])
{
    size_t n = 0;
    out[n++] = CONTROL_END;
    n += varint_encode(out + n, instructions);
    out[n++] = (uint8_t)end->status;
    n += varint_encode(out + n, end->code);
    return n;
}

bool trace_write_end(struct trace_writer *w, const struct trace_end *end)
{
    if (!trace_writer_finish(w))
        return false;
    uint8_t record[TRACE_MAX_END_BYTES];
    put_bytes(w, record, trace_end_encode(w->instructions, end, record));
    w->ended = true;
    flush_buffer(w);
    return !w->failed;
}

uint64_t trace_writer_instructions(const struct trace_writer *w)
{
    return w->instructions;
}

bool trace_writer_close(struct trace_writer *w)
{
    flush_buffer(w);
    bool ok = !w->failed && w->ended;
    free_writer(w);
    return ok;
}
