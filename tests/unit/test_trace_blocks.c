/* Trace format version 2 (docs/traces.md, "Format (version 2)"): generated
 * instruction streams through the writer and back, by records and by
 * blocks, exactly; version-1 traces read by blocks too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "traces/trace.h"
#include "traces/trace_block.h"

/* ---- a generated stream: the records given to the writer */

struct stream {
    struct trace_header header;
    struct trace_record *records;
    size_t n, capacity;
    uint64_t seed;
};

static uint32_t next_random(struct stream *s)
{
    s->seed = s->seed * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(s->seed >> 33);
}

static uint32_t below(struct stream *s, uint32_t n)
{
    return next_random(s) % n;
}

static struct trace_record *add_record(struct stream *s, enum trace_record_kind kind)
{
    if (s->n == s->capacity) {
        s->capacity = s->capacity ? 2 * s->capacity : 1024;
        s->records = realloc(s->records, s->capacity * sizeof *s->records);
        assert_non_null(s->records);
    }
    struct trace_record *rec = &s->records[s->n++];
    memset(rec, 0, sizeof *rec);
    rec->kind = kind;
    return rec;
}

/* The code bytes at `address`, the same every time (the length in the
 * first byte keeps two lengths at one address apart). */
static void code_bytes(uint64_t address, uint8_t length, uint8_t *bytes)
{
    for (int i = 0; i < length; i++)
        bytes[i] = (uint8_t)(address * 7 + (uint64_t)i * 13 + length);
}

/* The state of the generated program. */
struct program {
    uint64_t pc;
    uint8_t thread, cpl;
    uint64_t regs[TRACE_MAX_REGS];
    uint64_t sp, scan;      /* a stack pointer and a strided scan */
    uint64_t returns[16];   /* call stack */
    int depth;
};

enum { CODE = 0x400000, CODE_SIZE = 0x3000, DATA = 0x7fff0000 };

static void random_access(struct stream *s, struct program *p, struct trace_access *a)
{
    static const uint32_t sizes[] = {1, 2, 4, 8, 16, 32, 62, 63, 64, 512, TRACE_MAX_ACCESS_SIZE};
    a->kind = (enum trace_access_kind)(1 + below(s, 3));
    a->size = below(s, 4) ? 8 : sizes[below(s, sizeof sizes / sizeof sizes[0])];
    switch (below(s, 4)) {
    case 0:
        a->address = p->sp + 8 * below(s, 4); /* the same few stack slots */
        break;
    case 1:
        a->address = p->scan += 4;            /* strided */
        break;
    case 2:
        a->address = DATA + (uint64_t)next_random(s) * 8; /* random */
        break;
    default:
        a->address = (uint64_t)next_random(s) << 32 | next_random(s); /* anywhere */
    }
}

/* The accesses of the instruction at `address`: mostly the same shape
 * each time, sometimes another (an irregular instruction). */
static void add_accesses(struct stream *s, struct program *p, struct trace_insn *insn)
{
    uint32_t kind = (uint32_t)(insn->address * 2654435761u >> 7) % 4;
    int n = kind == 0 ? 0 : kind == 1 ? 1 : kind == 2 ? 2 : 0;
    if (below(s, 50) == 0)
        n = (int)below(s, 5);
    if (below(s, 2000) == 0)
        n = TRACE_MAX_ACCESSES;
    insn->n_accesses = n;
    for (int i = 0; i < n; i++) {
        struct trace_access *a = &insn->accesses[i];
        if (below(s, 8)) { /* the usual shape of slot i at this address */
            a->kind = (enum trace_access_kind)(1 + (insn->address + (uint64_t)i) % 3);
            a->size = 1u << ((insn->address + (uint64_t)i) % 4);
            a->address = i == 0 ? p->sp : (p->scan += a->size);
        } else {
            random_access(s, p, a);
        }
    }
}

static void add_registers(struct stream *s, struct program *p, struct trace_insn *insn)
{
    int n = s->header.isa == TRACE_ISA_64 ? TRACE_MAX_REGS : TRACE_REGS_32;
    for (int i = 0; i < n; i++)
        if (below(s, 3) == 0) {
            p->regs[i] += next_random(s);
            if (n == TRACE_REGS_32)
                p->regs[i] &= UINT32_MAX;
        }
    insn->has_registers = true;
    memcpy(insn->regs, p->regs, sizeof insn->regs);
}

/* Where control goes after a branch at the end of a straight run. */
static void branch(struct stream *s, struct program *p, struct trace_insn *insn)
{
    uint64_t fallthrough = insn->address + insn->length;
    uint32_t what = below(s, 10);
    insn->branch = TRACE_BRANCH_TAKEN;
    if (what < 4) { /* conditional: a fixed target, taken or not */
        insn->branch = below(s, 3) ? TRACE_BRANCH_TAKEN : TRACE_BRANCH_NOT_TAKEN;
        p->pc = insn->branch == TRACE_BRANCH_TAKEN ? CODE + (insn->address * 31) % CODE_SIZE
                                                   : fallthrough;
    } else if (what < 6 && p->depth < 16) { /* call */
        p->returns[p->depth++] = fallthrough;
        p->pc = CODE + 0x100 * below(s, 8);
        p->sp -= 8;
    } else if (what < 8 && p->depth > 0) { /* return: an indirect branch */
        p->pc = p->returns[--p->depth];
        p->sp += 8;
    } else { /* indirect jump to one of many targets */
        p->pc = CODE + 16 * below(s, CODE_SIZE / 16);
    }
}

/* An instruction at p->pc; its branch decided after a straight run. */
static void add_insn(struct stream *s, struct program *p, bool ends_run)
{
    struct trace_insn *insn = &add_record(s, TRACE_RECORD_INSN)->insn;
    insn->address = p->pc;
    insn->length = (uint8_t)(1 + (p->pc * 0x9e3779b9u >> 5) % TRACE_MAX_INSN_LENGTH);
    insn->has_bytes = s->header.lengths_known;
    if (insn->has_bytes)
        code_bytes(insn->address, insn->length, insn->bytes);
    if (insn->has_bytes && below(s, 3000) == 0)
        insn->bytes[0] ^= 0x55; /* self-modifying code */
    insn->thread = p->thread;
    insn->cpl = p->cpl;
    add_accesses(s, p, insn);
    if (s->header.registers && below(s, 20) == 0)
        add_registers(s, p, insn);
    p->pc += insn->length;
    if (ends_run)
        branch(s, p, insn);
}

static void add_controls(struct stream *s, struct program *p)
{
    uint32_t what = below(s, 400);
    if (what == 0)
        p->thread ^= 1;
    else if (what == 1)
        p->cpl = (uint8_t)below(s, 4);
    else if (what < 5)
        add_record(s, below(s, 2) ? TRACE_RECORD_REGION_BEGIN : TRACE_RECORD_REGION_END)
            ->region = below(s, 4) ? below(s, 8) : next_random(s);
}

/* A stream of about `n` instructions. */
static void generate(struct stream *s, enum trace_isa isa, bool registers, bool lengths_known,
                     uint64_t seed, size_t n)
{
    memset(s, 0, sizeof *s);
    s->header = (struct trace_header){.isa = isa, .lengths_known = lengths_known,
                                      .registers = registers};
    strcpy(s->header.program, "/generated");
    s->seed = seed;
    struct program p = {.pc = CODE, .cpl = 3, .sp = DATA - 0x1000, .scan = DATA};
    size_t insns = 0;
    while (insns < n) {
        /* straight runs of 1-20 instructions, sometimes over 64 */
        uint32_t run = below(s, 40) == 0 ? 70 + below(s, 100) : 1 + below(s, 20);
        for (uint32_t i = 0; i < run; i++, insns++) {
            add_insn(s, &p, i + 1 == run);
            add_controls(s, &p);
        }
        if (below(s, 30) == 0)
            p.pc += 1 + below(s, 64); /* a jump without a branch (a signal) */
        if (p.pc >= CODE + CODE_SIZE)
            p.pc = CODE; /* likewise */
    }
    /* a taken branch at the very end: no target */
    struct trace_insn *last = &add_record(s, TRACE_RECORD_INSN)->insn;
    *last = (struct trace_insn){.address = p.pc, .length = 2, .cpl = p.cpl, .thread = p.thread,
                                .branch = TRACE_BRANCH_TAKEN};
    add_record(s, TRACE_RECORD_REGION_END)->region = 1;
}

/* What a reader returns for the stream: a taken branch's target is the
 * next instruction's address (0 at the end); bytes known from an earlier
 * execution of the same address and length are returned too. */
static void expected_records(const struct stream *s, struct trace_record *want)
{
    static uint8_t known_length[0x10000];
    static uint8_t known[0x10000][TRACE_MAX_INSN_LENGTH];
    memset(known_length, 0, sizeof known_length);
    for (size_t i = 0; i < s->n; i++) {
        want[i] = s->records[i];
        struct trace_insn *insn = &want[i].insn;
        if (want[i].kind != TRACE_RECORD_INSN)
            continue;
        if (insn->branch == TRACE_BRANCH_TAKEN) {
            insn->target = 0;
            for (size_t j = i + 1; j < s->n && !insn->target; j++)
                if (s->records[j].kind == TRACE_RECORD_INSN)
                    insn->target = s->records[j].insn.address;
        }
        size_t slot = insn->address - CODE;
        if (slot >= sizeof known_length)
            continue;
        if (insn->has_bytes) {
            known_length[slot] = insn->length;
            memcpy(known[slot], insn->bytes, insn->length);
        } else if (known_length[slot] == insn->length) {
            insn->has_bytes = true;
            memcpy(insn->bytes, known[slot], insn->length);
        }
    }
}

/* ---- writing and reading */

struct memfile {
    char *data;
    size_t size;
};

static struct memfile write_stream(const struct stream *s)
{
    struct memfile m = {0};
    FILE *out = open_memstream(&m.data, &m.size);
    char error[256];
    struct trace_writer *w = trace_writer_open(out, &s->header, error, sizeof error);
    assert_non_null(w);
    for (size_t i = 0; i < s->n; i++) {
        const struct trace_record *rec = &s->records[i];
        if (rec->kind == TRACE_RECORD_INSN)
            assert_true(trace_write_insn(w, &rec->insn));
        else
            assert_true(trace_write_region(w, rec->kind == TRACE_RECORD_REGION_BEGIN,
                                           rec->region));
    }
    struct trace_end end = {0, TRACE_KILLED, 9};
    assert_true(trace_write_end(w, &end));
    assert_true(trace_writer_close(w));
    assert_int_equal(fclose(out), 0);
    return m;
}

static struct trace_reader *open_memory(const void *data, size_t size, FILE **in)
{
    char error[512];
    *in = fmemopen((void *)data, size, "r");
    assert_non_null(*in);
    struct trace_reader *r = trace_reader_open(*in, "mem", error, sizeof error);
    if (!r)
        fail_msg("%s", error);
    return r;
}

static void expect_same_insn(const struct trace_insn *got, const struct trace_insn *want,
                             size_t index)
{
    if (got->address != want->address || got->length != want->length ||
        got->has_bytes != want->has_bytes ||
        (want->has_bytes && memcmp(got->bytes, want->bytes, want->length) != 0) ||
        got->thread != want->thread || got->cpl != want->cpl || got->branch != want->branch ||
        (want->branch == TRACE_BRANCH_TAKEN && got->target != want->target) ||
        got->n_accesses != want->n_accesses || got->has_registers != want->has_registers)
        fail_msg("record %zu: instruction 0x%llx differs", index,
                 (unsigned long long)want->address);
    for (int i = 0; i < want->n_accesses; i++)
        if (got->accesses[i].kind != want->accesses[i].kind ||
            got->accesses[i].size != want->accesses[i].size ||
            got->accesses[i].address != want->accesses[i].address)
            fail_msg("record %zu: access %d differs", index, i);
    if (want->has_registers && memcmp(got->regs, want->regs, sizeof got->regs) != 0)
        fail_msg("record %zu: registers differ", index);
}

static void expect_same_record(const struct trace_record *got, const struct trace_record *want,
                               size_t index)
{
    if (got->kind != want->kind)
        fail_msg("record %zu: kind %d, expected %d", index, got->kind, want->kind);
    if (want->kind == TRACE_RECORD_INSN)
        expect_same_insn(&got->insn, &want->insn, index);
    else if (want->kind != TRACE_RECORD_END && got->region != want->region)
        fail_msg("record %zu: region %u, expected %u", index, got->region, want->region);
}

/* Reads the records (trace_read) and compares them with `want`, then the
 * END record. */
static void expect_records(const void *data, size_t size, const struct trace_record *want,
                           size_t n)
{
    FILE *in;
    struct trace_reader *r = open_memory(data, size, &in);
    struct trace_record *got = malloc(sizeof *got);
    assert_non_null(got);
    uint64_t insns = 0;
    for (size_t i = 0; i < n; i++) {
        if (trace_read(r, got) != TRACE_OK)
            fail_msg("record %zu: %s", i, trace_reader_error(r));
        expect_same_record(got, &want[i], i);
        insns += want[i].kind == TRACE_RECORD_INSN;
    }
    assert_int_equal(trace_read(r, got), TRACE_OK);
    assert_int_equal(got->kind, TRACE_RECORD_END);
    assert_int_equal(got->end.instructions, insns);
    assert_int_equal(trace_read(r, got), TRACE_ERROR);
    assert_non_null(strstr(trace_reader_error(r), "read past the END record"));
    free(got);
    trace_reader_close(r);
    fclose(in);
}

/* A block's static part, as first seen. */
struct seen_block {
    uint32_t n_insns, n_accesses;
    uint64_t next_address;
    struct trace_block_insn insns[TRACE_MAX_BLOCK_INSNS];
    struct trace_access shapes[TRACE_MAX_BLOCK_ACCESSES];
};

struct seen_blocks {
    struct seen_block *by_id;
    uint32_t n;
};

/* Ids are dense in order of first appearance; the static part never
 * changes; a block follows the rules of trace.h. */
static void check_static(struct seen_blocks *seen, const struct trace_block *b)
{
    assert_true(b->id <= seen->n);
    assert_in_range(b->n_insns, 1, TRACE_MAX_BLOCK_INSNS);
    assert_in_range(b->n_accesses, 0, TRACE_MAX_BLOCK_ACCESSES);
    if (b->id == seen->n) {
        seen->by_id = realloc(seen->by_id, (seen->n + 1) * sizeof *seen->by_id);
        assert_non_null(seen->by_id);
        struct seen_block *sb = &seen->by_id[seen->n++];
        sb->n_insns = b->n_insns;
        sb->n_accesses = b->n_accesses;
        sb->next_address = b->next_address;
        memcpy(sb->insns, b->insns, b->n_insns * sizeof b->insns[0]);
        memcpy(sb->shapes, b->accesses, b->n_accesses * sizeof b->accesses[0]);
    }
    const struct seen_block *sb = &seen->by_id[b->id];
    assert_int_equal(sb->n_insns, b->n_insns);
    assert_int_equal(sb->n_accesses, b->n_accesses);
    assert_int_equal(sb->next_address, b->next_address);
    uint32_t accesses = 0;
    for (uint32_t i = 0; i < b->n_insns; i++) {
        const struct trace_block_insn *x = &b->insns[i], *y = &sb->insns[i];
        assert_true(x->address == y->address && x->length == y->length &&
                    x->has_bytes == y->has_bytes && memcmp(x->bytes, y->bytes, 15) == 0 &&
                    x->branch == y->branch && x->n_accesses == y->n_accesses &&
                    x->first_access == y->first_access);
        assert_int_equal(x->first_access, accesses);
        accesses += x->n_accesses;
        if (i > 0)
            assert_int_equal(x->address, b->insns[i - 1].address + b->insns[i - 1].length);
        if (i + 1 < b->n_insns)
            assert_int_equal(x->branch, TRACE_NOT_BRANCH);
    }
    assert_int_equal(accesses, b->n_accesses);
    for (uint32_t i = 0; i < b->n_accesses; i++)
        assert_true(b->accesses[i].kind == sb->shapes[i].kind &&
                    b->accesses[i].size == sb->shapes[i].size);
    const struct trace_block_insn *last = &b->insns[b->n_insns - 1];
    if (last->branch != TRACE_BRANCH_TAKEN)
        assert_int_equal(b->next_address, last->address + last->length);
    if (b->regs)
        assert_int_equal(b->n_insns, 1);
}

/* Reads by blocks (trace_next_block): the blocks' instructions and the
 * other records are `want`, the blocks as trace.h promises.  The number
 * of distinct blocks. */
static uint32_t expect_blocks(const void *data, size_t size, const struct trace_record *want,
                              size_t n)
{
    FILE *in;
    struct trace_reader *r = open_memory(data, size, &in);
    struct seen_blocks seen = {0};
    struct trace_record *got = malloc(sizeof *got);
    assert_non_null(got);
    size_t i = 0;
    for (;;) {
        const struct trace_block *b;
        const struct trace_record *rec;
        if (trace_next_block(r, &b, &rec) != TRACE_OK)
            fail_msg("record %zu: %s", i, trace_reader_error(r));
        assert_true((b == NULL) != (rec == NULL));
        if (rec && rec->kind == TRACE_RECORD_END)
            break;
        if (rec) {
            assert_true(i < n);
            expect_same_record(rec, &want[i], i);
            i++;
            continue;
        }
        check_static(&seen, b);
        for (uint32_t k = 0; k < b->n_insns; k++) {
            assert_true(i < n);
            got->kind = TRACE_RECORD_INSN;
            memset(&got->insn, 0, sizeof got->insn);
            trace_block_insn_expand(b, k, &got->insn);
            expect_same_record(got, &want[i], i);
            i++;
        }
    }
    assert_int_equal(i, n);
    const struct trace_block *b;
    const struct trace_record *rec;
    assert_int_equal(trace_next_block(r, &b, &rec), TRACE_ERROR);
    free(got);
    free(seen.by_id);
    trace_reader_close(r);
    fclose(in);
    return seen.n;
}

/* The stream written, and read back by records and by blocks. */
static void round_trip(const struct stream *s)
{
    struct trace_record *want = malloc(s->n * sizeof *want);
    assert_non_null(want);
    expected_records(s, want);
    struct memfile m = write_stream(s);
    assert_int_equal(m.data[8], 2); /* version 2 */
    expect_records(m.data, m.size, want, s->n);
    expect_blocks(m.data, m.size, want, s->n);
    free(m.data);
    free(want);
}

static void free_stream(struct stream *s)
{
    free(s->records);
}

/* ---- round trips */

static void test_round_trip_64(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        struct stream s;
        generate(&s, TRACE_ISA_64, false, true, seed, 20000);
        round_trip(&s);
        free_stream(&s);
    }
}

static void test_round_trip_registers(void **state)
{
    (void)state;
    struct stream s;
    generate(&s, TRACE_ISA_64, true, true, 11, 20000);
    round_trip(&s);
    free_stream(&s);
    generate(&s, TRACE_ISA_32, true, true, 12, 20000);
    round_trip(&s);
    free_stream(&s);
}

/* Without code bytes (an import): the bytes are absent throughout. */
static void test_round_trip_without_bytes(void **state)
{
    (void)state;
    struct stream s;
    generate(&s, TRACE_ISA_32, false, false, 21, 20000);
    round_trip(&s);
    free_stream(&s);
}

/* An instruction given without its bytes after it was given with them is
 * read back with them, as in version 1. */
static void test_bytes_known_from_earlier(void **state)
{
    (void)state;
    struct stream s;
    generate(&s, TRACE_ISA_64, false, true, 31, 5000);
    for (size_t i = 0; i < s.n; i += 3)
        s.records[i].insn.has_bytes = false;
    round_trip(&s);
    free_stream(&s);
}

/* A loop: one definition, then runs; a few bytes an iteration. */
static void test_loop_is_small(void **state)
{
    (void)state;
    struct stream s = {.header = {.isa = TRACE_ISA_64, .lengths_known = true}};
    for (int round = 0; round < 10000; round++)
        for (int i = 0; i < 4; i++) {
            struct trace_insn *insn = &add_record(&s, TRACE_RECORD_INSN)->insn;
            insn->address = 0x1000 + 3 * (uint64_t)i;
            insn->length = 3;
            insn->has_bytes = true;
            code_bytes(insn->address, 3, insn->bytes);
            insn->cpl = 3;
            insn->n_accesses = 1;
            insn->accesses[0] = (struct trace_access){TRACE_LOAD, 4,
                                                      0x8000 + 4 * (uint64_t)(4 * round + i)};
            if (i == 3)
                insn->branch = round == 9999 ? TRACE_BRANCH_NOT_TAKEN : TRACE_BRANCH_TAKEN;
        }
    struct memfile m = write_stream(&s);
    /* the header (13 bytes); the taken loop's definition (35: tag, address,
     * count, 4 x 6 for the instructions, target, 6 for the addresses); its
     * second iteration by id with a mask and 4 deltas (7: the strides are
     * learnt); 9997 iterations as predicted, 16 a byte (625); the last
     * iteration, not taken, a new block (33); END (6) */
    assert_int_equal(m.size, 13 + 35 + 7 + 625 + 33 + 6);
    struct trace_record *want = malloc(s.n * sizeof *want);
    expected_records(&s, want);
    expect_records(m.data, m.size, want, s.n);
    assert_int_equal(expect_blocks(m.data, m.size, want, s.n), 2);
    free(want);
    free(m.data);
    free_stream(&s);
}

/* The instructions a reader reads by blocks from `size` bytes of a trace
 * that may end without its END record. */
static uint64_t instructions_readable(const void *data, size_t size)
{
    FILE *in;
    struct trace_reader *r = open_memory(data, size, &in);
    const struct trace_block *b;
    const struct trace_record *rec;
    uint64_t n = 0;
    while (trace_next_block(r, &b, &rec) == TRACE_OK)
        n += b ? b->n_insns : 0;
    trace_reader_close(r);
    fclose(in);
    return n;
}

/* test_loop_is_small's loop for `rounds` rounds, flushed with
 * trace_writer_flush() after round `flush_after` (-1: never); the
 * instructions a reader reads of what was handed over then in `readable`. */
static struct memfile loop_trace(int rounds, int flush_after, uint64_t *readable)
{
    struct memfile m = {0};
    FILE *out = open_memstream(&m.data, &m.size);
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true};
    char error[256];
    struct trace_writer *w = trace_writer_open(out, &header, error, sizeof error);
    assert_non_null(w);
    for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < 4; i++) {
            struct trace_insn insn = {.address = 0x1000 + 3 * (uint64_t)i, .length = 3,
                                      .has_bytes = true, .cpl = 3, .n_accesses = 1};
            code_bytes(insn.address, 3, insn.bytes);
            insn.accesses[0] = (struct trace_access){TRACE_LOAD, 4,
                                                     0x8000 + 4 * (uint64_t)(4 * round + i)};
            if (i == 3)
                insn.branch = round == rounds - 1 ? TRACE_BRANCH_NOT_TAKEN : TRACE_BRANCH_TAKEN;
            assert_true(trace_write_insn(w, &insn));
        }
        if (round == flush_after) {
            assert_true(trace_writer_flush(w));
            assert_int_equal(fflush(out), 0);
            *readable = instructions_readable(m.data, m.size);
        }
    }
    struct trace_end end = {0, TRACE_EXITED, 0};
    assert_true(trace_write_end(w, &end));
    assert_true(trace_writer_close(w));
    assert_int_equal(fclose(out), 0);
    return m;
}

/* trace_writer_flush() mid-loop hands the sink the loop's executions
 * counted so far in whole tags of 16: after the 1000th round, the first
 * two rounds (the block's definition, its first execution by id) and 992
 * of the 997 predicted since (62 tags), where without it nothing past the
 * header would have reached the sink (the writer's buffer holds 64 KiB);
 * the trace then goes on, byte for byte the trace of a writer never
 * flushed. */
static void test_flush_hands_over_the_loop(void **state)
{
    (void)state;
    uint64_t readable = 0;
    struct memfile flushed = loop_trace(2000, 999, &readable);
    assert_int_equal(readable, 4 * (2 + 992));
    struct memfile plain = loop_trace(2000, -1, &readable);
    assert_int_equal(flushed.size, plain.size);
    assert_memory_equal(flushed.data, plain.data, plain.size);
    assert_int_equal(instructions_readable(flushed.data, flushed.size), 4 * 2000);
    free(flushed.data);
    free(plain.data);
}

/* trace_next() by records: each record stays valid through the next
 * call. */
static void test_next_holds_one_back(void **state)
{
    (void)state;
    struct stream s;
    generate(&s, TRACE_ISA_64, false, true, 41, 3000);
    struct trace_record *want = malloc(s.n * sizeof *want);
    expected_records(&s, want);
    struct memfile m = write_stream(&s);
    FILE *in;
    struct trace_reader *r = open_memory(m.data, m.size, &in);
    const struct trace_record *before = NULL, *rec;
    for (size_t i = 0; i < s.n; i++) {
        assert_int_equal(trace_next(r, &rec), TRACE_OK);
        expect_same_record(rec, &want[i], i);
        if (before)
            expect_same_record(before, &want[i - 1], i - 1);
        assert_int_equal(trace_reader_record_number(r), i + 1);
        before = rec;
    }
    trace_reader_close(r);
    fclose(in);
    free(m.data);
    free(want);
    free_stream(&s);
}

/* ---- version 1, read by records and by blocks */

#define MAGIC 'P', 'M', 'U', 'T', 'R', 'A', 'C', 'E'

/* A version-1 trace: a loop of two instructions three times (a load, a
 * taken branch with a region marker before its target), a thread switch,
 * registers, END. */
static const uint8_t v1_trace[] = {
    MAGIC, 1, 5, 0, 0, 0,
    0x73, 0x80, 0x40, 0x48, 0x8b, 0x07, 0x01, 0x21, 0x80, 0x80, 0x04, /* 0x1000 load 0x8000 */
    0x82, 0x42, 0xeb, 0xfb,                                           /* jmp 0x1000 */
    0x85, 0x07,                                                       /* region begin 7 */
    0x33, 0x09, 0x01, 0x21, 0x08,                                     /* 0x1000 load 0x8004 */
    0x82, 0x02,                                                       /* jmp 0x1000 */
    0x33, 0x09, 0x01, 0x21, 0x08,                                     /* 0x1000 load 0x8008 */
    0x81, 0x02,                                                       /* jmp, not taken */
    0x83, 0x01, 0x87, 0x02, 0x54,                                     /* thread 1, rax = 42 */
    0x01,                                                             /* 0x1005 nop */
    0x8f, 0x07, 0x00, 0x00,                                           /* END, 7 instructions */
};

static void test_v1_by_records_and_blocks(void **state)
{
    (void)state;
    struct trace_record want[8];
    memset(want, 0, sizeof want);
    static const uint64_t addresses[] = {0x1000, 0x1003, 0, 0x1000, 0x1003, 0x1000, 0x1003, 0x1005};
    static const uint64_t loads[] = {0x8000, 0, 0, 0x8004, 0, 0x8008};
    for (int i = 0; i < 8; i++) {
        struct trace_insn *insn = &want[i].insn;
        if (i == 2) {
            want[i].kind = TRACE_RECORD_REGION_BEGIN;
            want[i].region = 7;
            continue;
        }
        insn->address = addresses[i];
        insn->length = insn->address == 0x1000 ? 3 : insn->address == 0x1003 ? 2 : 1;
        insn->has_bytes = insn->address != 0x1005;
        memcpy(insn->bytes, insn->address == 0x1000 ? "\x48\x8b\x07" : "\xeb\xfb", insn->length);
        insn->cpl = 3;
        if (insn->address == 0x1000) {
            insn->n_accesses = 1;
            insn->accesses[0] = (struct trace_access){TRACE_LOAD, 8, loads[i]};
        }
        if (insn->address == 0x1003) {
            insn->branch = i == 6 ? TRACE_BRANCH_NOT_TAKEN : TRACE_BRANCH_TAKEN;
            insn->target = 0x1000;
        }
    }
    want[7].insn.address = 0x1005;
    want[7].insn.thread = 1;
    want[7].insn.has_registers = true;
    want[7].insn.regs[TRACE_REG_AX] = 42;
    want[7].insn.length = 1;
    expect_records(v1_trace, sizeof v1_trace, want, 8);
    /* blocks: {load, jmp taken} twice (one id), {load, jmp not taken}, {nop} */
    assert_int_equal(expect_blocks(v1_trace, sizeof v1_trace, want, 8), 3);
}

/* A version-1 trace converted (read, written again) reads the same. */
static void test_v1_converted(void **state)
{
    (void)state;
    FILE *in;
    struct trace_reader *r = open_memory(v1_trace, sizeof v1_trace, &in);
    struct stream s = {.header = *trace_reader_header(r)};
    const struct trace_record *rec;
    while (trace_next(r, &rec) == TRACE_OK && rec->kind != TRACE_RECORD_END)
        *add_record(&s, rec->kind) = *rec;
    assert_int_equal(rec->kind, TRACE_RECORD_END);
    trace_reader_close(r);
    fclose(in);
    round_trip(&s);
    free_stream(&s);
}

/* ---- version 2, corrupt: each error with its message */

/* magic, version 2, flags 1 (64-bit), three empty strings: 13 bytes */
#define HEADER2 MAGIC, 2, 1, 0, 0, 0
#define HEADER2_REGS MAGIC, 2, 5, 0, 0, 0
/* a definition: block 0 at 0x10 (delta +0x10 from 0), one instruction of
 * length 2 that loads 8 bytes at 0x100 */
#define DEFINE_LOAD 0x03, 0x20, 0x01, 0x82, 0x01, 0x21, 0x80, 0x04
/* the same without accesses: a taken branch to 0x10 */
#define DEFINE_LOOP 0x03, 0x20, 0x01, 0x22, 0x03

static void expect_error(const uint8_t *bytes, size_t size, const char *message)
{
    FILE *in;
    struct trace_reader *r = open_memory(bytes, size, &in);
    struct trace_record record;
    while (trace_read(r, &record) == TRACE_OK && record.kind != TRACE_RECORD_END)
        ;
    assert_string_equal(trace_reader_error(r), message);
    trace_reader_close(r);
    fclose(in);
    /* by blocks: the same */
    r = open_memory(bytes, size, &in);
    const struct trace_block *b;
    const struct trace_record *rec;
    while (trace_next_block(r, &b, &rec) == TRACE_OK && (b || rec->kind != TRACE_RECORD_END))
        ;
    assert_string_equal(trace_reader_error(r), message);
    trace_reader_close(r);
    fclose(in);
}

#define EXPECT_ERROR(message, ...)                                                                \
    do {                                                                                          \
        static const uint8_t bytes_[] = {__VA_ARGS__};                                            \
        expect_error(bytes_, sizeof bytes_, message);                                             \
    } while (0)

static void test_v2_valid(void **state)
{
    (void)state;
    /* the definitions above, twice each, read to END */
    static const uint8_t bytes[] = {HEADER2, DEFINE_LOAD, 0x02, 0x00, 0x8f, 0x02, 0x00, 0x00};
    FILE *in;
    struct trace_reader *r = open_memory(bytes, sizeof bytes, &in);
    struct trace_record rec;
    assert_int_equal(trace_read(r, &rec), TRACE_OK);
    assert_int_equal(rec.insn.address, 0x10);
    assert_int_equal(rec.insn.accesses[0].address, 0x100);
    assert_int_equal(trace_read(r, &rec), TRACE_OK); /* by id, as predicted */
    assert_int_equal(rec.insn.accesses[0].address, 0x100);
    assert_int_equal(trace_read(r, &rec), TRACE_OK);
    assert_int_equal(rec.kind, TRACE_RECORD_END);
    trace_reader_close(r);
    fclose(in);
}

static void test_v2_unknown_block_id(void **state)
{
    (void)state;
    EXPECT_ERROR("mem: byte offset 23: unknown block id 1 (expected 0-0)", HEADER2, DEFINE_LOAD,
                 0x02, 0x01);
    EXPECT_ERROR("mem: byte offset 15: unknown block id 5 (no block defined yet)", HEADER2, 0x02,
                 0x05);
}

static void test_v2_bad_tags(void **state)
{
    (void)state;
    /* a run of successor 1; a run with addresses; a definition with them */
    EXPECT_ERROR("mem: byte offset 22: bad block tag 0x09", HEADER2, DEFINE_LOAD, 0x09);
    EXPECT_ERROR("mem: byte offset 22: bad block tag 0x0c", HEADER2, DEFINE_LOAD, 0x0c);
    EXPECT_ERROR("mem: byte offset 14: bad block tag 0x07", HEADER2, 0x07);
    EXPECT_ERROR("mem: byte offset 14: unknown record tag 0x81", HEADER2, 0x81);
    EXPECT_ERROR("mem: byte offset 14: unknown record tag 0x88", HEADER2, 0x88);
}

static void test_v2_missing_successor(void **state)
{
    (void)state;
    EXPECT_ERROR("mem: byte offset 14: a reference to successor 0 of a block that has none "
                 "(tag 0x00)", HEADER2, 0x00);
    /* block 0 followed itself once; successor 1 is unknown */
    EXPECT_ERROR("mem: byte offset 24: a reference to successor 1 of a block that has none "
                 "(tag 0x01)", HEADER2, DEFINE_LOAD, 0x02, 0x00, 0x01);
    /* blocks 0 and 1 in thread 0; in thread 1 block 0, then a run of two:
     * block 1 (block 0's successor), then block 1's, which it has none */
    EXPECT_ERROR("mem: byte offset 27: a run of successors through a block that has none",
                 HEADER2, DEFINE_LOOP, 0x03, 0x20, 0x01, 0x01, 0x83, 0x01, 0x02, 0x00, 0x08);
}

static void test_v2_truncated_definition(void **state)
{
    (void)state;
    EXPECT_ERROR("mem: byte offset 15: truncated: expected the number of instructions of a block",
                 HEADER2, 0x03, 0x20);
    EXPECT_ERROR("mem: byte offset 16: truncated: expected an instruction of a block definition",
                 HEADER2, 0x03, 0x20, 0x01);
    EXPECT_ERROR("mem: byte offset 17: truncated: expected the number of data accesses",
                 HEADER2, 0x03, 0x20, 0x01, 0x82);
    EXPECT_ERROR("mem: byte offset 18: truncated: expected a data access", HEADER2, 0x03, 0x20,
                 0x01, 0x82, 0x01);
    EXPECT_ERROR("mem: byte offset 19: truncated: expected a data address", HEADER2, 0x03, 0x20,
                 0x01, 0x82, 0x01, 0x21);
    EXPECT_ERROR("mem: byte offset 18: truncated: expected 2 code bytes", HEADER2, 0x03, 0x20,
                 0x01, 0x42, 0x90);
    EXPECT_ERROR("mem: byte offset 17: truncated: expected a branch target", HEADER2, 0x03, 0x20,
                 0x01, 0x22);
}

static void test_v2_bad_definitions(void **state)
{
    (void)state;
    EXPECT_ERROR("mem: byte offset 16: a block of 0 instructions (expected 1-64)", HEADER2,
                 0x03, 0x20, 0x00);
    EXPECT_ERROR("mem: byte offset 16: a block of 65 instructions (expected 1-64)", HEADER2,
                 0x03, 0x20, 0x41);
    EXPECT_ERROR("mem: byte offset 17: instruction of length 0 (expected 1-15)", HEADER2, 0x03,
                 0x20, 0x01, 0x00);
    EXPECT_ERROR("mem: byte offset 17: branch kind 3 of instruction 1 of 1 in a block definition "
                 "(expected a branch only at the end)", HEADER2, 0x03, 0x20, 0x01, 0x32);
    EXPECT_ERROR("mem: byte offset 17: branch kind 1 of instruction 1 of 2 in a block definition "
                 "(expected a branch only at the end)", HEADER2, 0x03, 0x20, 0x02, 0x12, 0x02);
    EXPECT_ERROR("mem: byte offset 18: 0 data accesses in one instruction (expected 1-64)",
                 HEADER2, 0x03, 0x20, 0x01, 0x82, 0x00);
    EXPECT_ERROR("mem: byte offset 19: data access of kind 0 (expected load, store or modify)",
                 HEADER2, 0x03, 0x20, 0x01, 0x82, 0x01, 0x20);
    EXPECT_ERROR("mem: byte offset 19: data access of 0 bytes (expected 1-16384)", HEADER2, 0x03,
                 0x20, 0x01, 0x82, 0x01, 0x01);
    EXPECT_ERROR("mem: byte offset 22: data access of 16385 bytes (expected 1-16384)", HEADER2,
                 0x03, 0x20, 0x01, 0x82, 0x01, 0xfd, 0x81, 0x80, 0x01);
    /* the same block again */
    EXPECT_ERROR("mem: byte offset 23: a block defined again (block 0)", HEADER2, DEFINE_LOOP,
                 0x03, 0x00, 0x01, 0x22, 0x03);
}

/* More than 64 accesses in a block: 64 in its first instruction, one in
 * the second. */
static void test_v2_too_many_accesses(void **state)
{
    (void)state;
    uint8_t bytes[13 + 5 + 64 + 3] = {HEADER2, 0x03, 0x20, 0x02, 0x82, 0x40};
    size_t n = 18;
    for (int i = 0; i < 64; i++)
        bytes[n++] = 0x21;
    bytes[n++] = 0x82;
    bytes[n++] = 0x01;
    bytes[n++] = 0x21;
    expect_error(bytes, n, "mem: byte offset 84: more than 64 data accesses in a block");
}

static void test_v2_bad_masks(void **state)
{
    (void)state;
    EXPECT_ERROR("mem: byte offset 24: access mask 0x0 for a block of 1 data accesses", HEADER2,
                 DEFINE_LOAD, 0x06, 0x00, 0x00);
    EXPECT_ERROR("mem: byte offset 24: access mask 0x2 for a block of 1 data accesses", HEADER2,
                 DEFINE_LOAD, 0x06, 0x00, 0x02);
    EXPECT_ERROR("mem: byte offset 24: truncated: expected a data address", HEADER2,
                 DEFINE_LOAD, 0x06, 0x00, 0x01);
    EXPECT_ERROR("mem: byte offset 23: truncated: expected an access mask", HEADER2,
                 DEFINE_LOAD, 0x06, 0x00);
}

static void test_v2_registers(void **state)
{
    (void)state;
    /* registers before a block of two instructions */
    EXPECT_ERROR("mem: byte offset 21: a register record before a block of 2 instructions "
                 "(expected 1)", HEADER2_REGS, 0x87, 0x02, 0x02, 0x03, 0x00, 0x02, 0x01, 0x01);
    EXPECT_ERROR("mem: byte offset 17: record 0x85 between a register record and its block",
                 HEADER2_REGS, 0x87, 0x02, 0x02, 0x85, 0x01);
    EXPECT_ERROR("mem: byte offset 14: a register record in a trace without the registers "
                 "header flag", HEADER2, 0x87, 0x02, 0x02);
}

static void test_v2_end(void **state)
{
    (void)state;
    EXPECT_ERROR("mem: byte offset 22: the END record counts 2 instructions, the trace holds 1",
                 HEADER2, DEFINE_LOOP, 0x8f, 0x02, 0x00, 0x00);
    EXPECT_ERROR("mem: byte offset 22: data after the END record", HEADER2, DEFINE_LOOP, 0x8f,
                 0x01, 0x00, 0x00, 0x00);
    EXPECT_ERROR("mem: byte offset 18: truncated: expected a record (a trace ends with an END "
                 "record)", HEADER2, DEFINE_LOOP);
}

/* A written trace cut anywhere: an error at or before the cut, never a
 * crash or an END. */
static void test_v2_truncated_anywhere(void **state)
{
    (void)state;
    struct stream s;
    generate(&s, TRACE_ISA_64, true, true, 51, 300);
    struct memfile m = write_stream(&s);
    for (size_t size = 1; size < m.size; size++) {
        char error[512];
        FILE *in = fmemopen(m.data, size, "r");
        struct trace_reader *r = trace_reader_open(in, "mem", error, sizeof error);
        const struct trace_block *b;
        const struct trace_record *rec;
        while (r && trace_next_block(r, &b, &rec) == TRACE_OK)
            assert_true(b || rec->kind != TRACE_RECORD_END);
        if (r)
            snprintf(error, sizeof error, "%s", trace_reader_error(r));
        unsigned long offset = strtoul(error + strlen("mem: byte offset "), NULL, 10);
        if (strncmp(error, "mem: byte offset ", 17) != 0 || offset > size)
            fail_msg("cut at %zu: %s", size, error);
        trace_reader_close(r);
        fclose(in);
    }
    free(m.data);
    free_stream(&s);
}

/* ---- the builder's fast path (traces/trace_block.h) */

/* Instruction `i` of a test block: 15 bytes of code, its accesses' kinds
 * and sizes by position, the last a taken branch. */
static void block_test_insn(struct trace_insn *insn, int i, int n, uint64_t data)
{
    memset(insn, 0, sizeof *insn);
    insn->address = 0x1000 + 15 * (uint64_t)i;
    insn->length = 15;
    insn->has_bytes = true;
    code_bytes(insn->address, insn->length, insn->bytes);
    insn->cpl = 3;
    insn->branch = i == n - 1 ? TRACE_BRANCH_TAKEN : TRACE_NOT_BRANCH;
    insn->n_accesses = i % 3;
    for (int a = 0; a < insn->n_accesses; a++)
        insn->accesses[a] = (struct trace_access){(enum trace_access_kind)(1 + a), 4u << a,
                                                  data + 64 * (uint64_t)(i + a)};
}

/* A block of `n` test instructions, built whole, in table `t`. */
static struct block_entry *add_test_block(struct block_table *t, int n)
{
    struct block_builder b;
    struct trace_insn insn;
    block_builder_clear(&b);
    for (int i = 0; i < n; i++) {
        block_test_insn(&insn, i, n, 0x5000);
        block_builder_add(&b, &insn, false);
    }
    block_builder_set_target(&b, 0x1000);
    struct block_entry *e = block_table_add(t, &b);
    assert_non_null(e);
    return e;
}

/* A block built by block_builder_add_as() and block_builder_copy() is the
 * one built whole (what the writer relies on to write the same bytes). */
static void test_add_as_builds_the_same_block(void **state)
{
    (void)state;
    struct block_table t;
    assert_true(block_table_init(&t));
    struct block_entry *e = add_test_block(&t, 5);
    static struct block_builder whole, fast;
    struct trace_insn insn;
    block_builder_clear(&whole);
    block_builder_clear(&fast);
    for (int i = 0; i < 5; i++) {
        block_test_insn(&insn, i, 5, 0x9000); /* other addresses than e's */
        block_builder_add(&whole, &insn, false);
        assert_true(block_builder_add_as(&fast, e, &insn, false));
        assert_int_equal(fast.n_insns, whole.n_insns);
        assert_int_equal(fast.n_accesses, whole.n_accesses);
        assert_true(fast.next_address == whole.next_address);
        assert_int_equal(fast.closed, whole.closed);
        assert_int_equal(fast.awaiting_target, whole.awaiting_target);
    }
    block_test_insn(&insn, 5, 6, 0x9000);
    assert_false(block_builder_add_as(&fast, e, &insn, false)); /* e has 5 */
    block_builder_copy(&fast, e);
    assert_memory_equal(fast.insns, whole.insns, whole.n_insns * sizeof whole.insns[0]);
    assert_memory_equal(fast.accesses, whole.accesses,
                        whole.n_accesses * sizeof whole.accesses[0]);
    block_builder_set_target(&fast, 0x1000);
    assert_int_equal(block_table_find(&t, &fast), e->block.id);
    block_table_free(&t);
}

/* An instruction that differs from the block's in its code (within its
 * length, not past it), length, branch or an access's kind or size is not
 * appended, and the block is unchanged. */
static void test_add_as_refuses_other_insns(void **state)
{
    (void)state;
    struct block_table t;
    assert_true(block_table_init(&t));
    struct block_entry *e = add_test_block(&t, 3);
    static struct block_builder b;
    struct trace_insn insn;
    block_builder_clear(&b);
    block_test_insn(&insn, 0, 3, 0);
    assert_true(block_builder_add_as(&b, e, &insn, false));
    for (int change = 0; change < 7; change++) {
        block_test_insn(&insn, 1, 3, 0);
        switch (change) {
        case 0: insn.bytes[0] ^= 1; break;
        case 1: insn.bytes[7] ^= 1; break;
        case 2: insn.bytes[14] ^= 1; break;
        case 3: insn.length = 14; break;
        case 4: insn.branch = TRACE_BRANCH_NOT_TAKEN; break;
        case 5: insn.accesses[0].size = 8; break;
        default: insn.has_bytes = false;
        }
        assert_false(block_builder_add_as(&b, e, &insn, false));
        assert_int_equal(b.n_insns, 1);
        assert_int_equal(b.n_accesses, 0);
    }
    /* a shorter instruction: the bytes past its length do not count */
    static struct block_builder whole;
    block_builder_clear(&whole);
    block_test_insn(&insn, 0, 1, 0);
    insn.length = 3;
    block_builder_add(&whole, &insn, false);
    struct block_entry *short_block = block_table_add(&t, &whole);
    assert_non_null(short_block);
    block_builder_clear(&b);
    insn.bytes[3] ^= 0xff;
    assert_true(block_builder_add_as(&b, short_block, &insn, false));
    block_table_free(&t);
}

/* Many blocks of one instruction each (as a trace with registers has):
 * every one found by its content, one not added not found. */
static void test_one_insn_blocks_found(void **state)
{
    (void)state;
    struct block_table t;
    assert_true(block_table_init(&t));
    static struct block_builder b;
    struct trace_insn insn;
    enum { N = 20000 };
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < N; i++) {
            memset(&insn, 0, sizeof insn);
            insn.address = 0x400000 + 3 * (uint64_t)i;
            insn.length = 3;
            insn.cpl = 3;
            insn.has_registers = true;
            block_builder_clear(&b);
            block_builder_add(&b, &insn, false);
            if (pass == 0)
                assert_non_null(block_table_add(&t, &b));
            else
                assert_int_equal(block_table_find(&t, &b), i);
        }
    insn.address = 0x400001;
    block_builder_clear(&b);
    block_builder_add(&b, &insn, false);
    assert_int_equal(block_table_find(&t, &b), BLOCK_NONE);
    block_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_64),
        cmocka_unit_test(test_round_trip_registers),
        cmocka_unit_test(test_round_trip_without_bytes),
        cmocka_unit_test(test_bytes_known_from_earlier),
        cmocka_unit_test(test_loop_is_small),
        cmocka_unit_test(test_flush_hands_over_the_loop),
        cmocka_unit_test(test_next_holds_one_back),
        cmocka_unit_test(test_v1_by_records_and_blocks),
        cmocka_unit_test(test_v1_converted),
        cmocka_unit_test(test_v2_valid),
        cmocka_unit_test(test_v2_unknown_block_id),
        cmocka_unit_test(test_v2_bad_tags),
        cmocka_unit_test(test_v2_missing_successor),
        cmocka_unit_test(test_v2_truncated_definition),
        cmocka_unit_test(test_v2_bad_definitions),
        cmocka_unit_test(test_v2_too_many_accesses),
        cmocka_unit_test(test_v2_bad_masks),
        cmocka_unit_test(test_v2_registers),
        cmocka_unit_test(test_v2_end),
        cmocka_unit_test(test_v2_truncated_anywhere),
        cmocka_unit_test(test_add_as_builds_the_same_block),
        cmocka_unit_test(test_add_as_refuses_other_insns),
        cmocka_unit_test(test_one_insn_blocks_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
