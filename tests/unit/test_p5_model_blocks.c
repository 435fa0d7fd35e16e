/* The P5 model's block memos (docs/p5-model.md, "Speed"; sim/p5/p5_block.h:
 * issue groups worked out once per block, static events reported for many
 * issues at once) against what they replace: the pairing decided
 * instruction by instruction and the events counted from the trace
 * itself, on random traces whose blocks come back in other contexts.  The
 * PMU's batching of the reports: test_p5_pmu_batch.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/unit/test_rng.h"

#include "pmu/catalog/p5_events.h"
#include "pmu/emulated/p5_pmu.h"
#include "sim/p5/p5_block.h"
#include "sim/p5/p5_model.h"
#include "sim/p5/p5_op.h"
#include "traces/trace.h"

static uint64_t rd(struct p5_pmu *pmu, uint32_t msr)
{
    uint64_t value = 0;
    assert_int_equal(p5_pmu_rdmsr(pmu, msr, &value), MSR_OK);
    return value;
}

/* ---- random traces */

struct encoding {
    const char *bytes;
    uint8_t length;
    uint8_t access;       /* 0, TRACE_LOAD, TRACE_STORE, TRACE_MODIFY */
    uint16_t size;
    bool branch;          /* a conditional branch (rel8 0: its target is drawn) */
};

/* 64-bit: pairable and not, stack pairs, prefixes, x87 with FXCH, wide
 * and misaligned accesses, branches. */
static const struct encoding pool[] = {
    {"\x89\xc3", 2, 0, 0, false},             /* mov ebx, eax */
    {"\x89\xc1", 2, 0, 0, false},             /* mov ecx, eax */
    {"\x01\xc2", 2, 0, 0, false},             /* add edx, eax */
    {"\x83\xc3\x04", 3, 0, 0, false},         /* add ebx, 4 */
    {"\x8b\x03", 2, TRACE_LOAD, 4, false},    /* mov eax, [rbx] */
    {"\x8b\x0e", 2, TRACE_LOAD, 4, false},    /* mov ecx, [rsi] */
    {"\x89\x03", 2, TRACE_STORE, 4, false},   /* mov [rbx], eax */
    {"\x01\x03", 2, TRACE_MODIFY, 4, false},  /* add [rbx], eax */
    {"\x50", 1, TRACE_STORE, 8, false},       /* push rax */
    {"\x58", 1, TRACE_LOAD, 8, false},        /* pop rax */
    {"\x66\x89\xc3", 3, 0, 0, false},         /* mov bx, ax */
    {"\xf7\xe1", 2, 0, 0, false},             /* mul ecx */
    {"\xd8\xc1", 2, 0, 0, false},             /* fadd st(0), st(1) */
    {"\xd9\xc9", 2, 0, 0, false},             /* fxch st(1) */
    {"\xdb\x3b", 2, TRACE_STORE, 10, false},  /* fstp tbyte [rbx] */
    {"\x0f\x28\x03", 3, TRACE_LOAD, 16, false}, /* movaps xmm0, [rbx] */
    {"\x90", 1, 0, 0, false},                 /* nop */
    {"\x75\x00", 2, 0, 0, true},              /* jne */
    {"\x74\x00", 2, 0, 0, true},              /* je */
};
enum { POOL = sizeof pool / sizeof pool[0], PROGRAM = 400 };

/* A static program: instructions laid out one after the other, a gap now
 * and then (a block that ends without a branch), each branch with a
 * target. */
struct program {
    uint64_t address[PROGRAM];
    unsigned encoding[PROGRAM];
    unsigned target[PROGRAM];
};

static void make_program(struct rng *g, struct program *p)
{
    uint64_t address = 0x401000;
    for (unsigned i = 0; i < PROGRAM; i++) {
        p->address[i] = address;
        p->encoding[i] = below(g, POOL);
        p->target[i] = below(g, PROGRAM);
        address += pool[p->encoding[i]].length;
        if (below(g, 30) == 0)
            address += 1 + below(g, 64);
    }
}

static uint64_t data_address(struct rng *g)
{
    uint64_t address = 0x600000 + below(g, 0x6000);
    if (below(g, 4))
        address &= ~7ull;
    return address;
}

/* What the reference counts need of one executed instruction. */
struct executed {
    unsigned encoding;
    uint64_t address;
    uint8_t cpl;
    uint32_t access_size;
    bool region_after;        /* a region marker follows it */
};

struct random_trace {
    char path[64];
    struct executed *insns;
    unsigned n;
};

/* `n` instructions of a walk through a random program: conditional
 * branches taken at random, a CPL change and a region marker now and
 * then; the trace, and what each instruction was. */
static void write_random_trace(struct rng *g, unsigned n, struct random_trace *t)
{
    struct program program;
    make_program(g, &program);
    strcpy(t->path, "/tmp/test_p5_model_blocks_XXXXXX");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "wb");
    assert_non_null(out);
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true};
    strcpy(header.recorder, "test_p5_model_blocks");
    char error[256];
    struct trace_writer *w = trace_writer_open(out, &header, error, sizeof error);
    assert_non_null(w);
    t->insns = calloc(n, sizeof *t->insns);
    assert_non_null(t->insns);
    t->n = n;
    unsigned pc = 0;
    uint8_t cpl = 3;
    for (unsigned i = 0; i < n; i++) {
        const struct encoding *e = &pool[program.encoding[pc]];
        struct trace_insn insn;
        memset(&insn, 0, sizeof insn);
        insn.address = program.address[pc];
        insn.length = e->length;
        insn.has_bytes = true;
        memcpy(insn.bytes, e->bytes, e->length);
        if (below(g, 500) == 0)
            cpl = cpl == 3 ? 0 : 3;
        insn.cpl = cpl;
        unsigned next_pc = (pc + 1) % PROGRAM;
        if (e->branch) {
            bool taken = below(g, 3) != 0;
            insn.branch = taken ? TRACE_BRANCH_TAKEN : TRACE_BRANCH_NOT_TAKEN;
            if (taken)
                next_pc = program.target[pc];
            insn.target = taken ? program.address[next_pc] : insn.address + insn.length;
        }
        if (e->access) {
            insn.n_accesses = 1;
            insn.accesses[0] = (struct trace_access){e->access, e->size, data_address(g)};
        }
        assert_true(trace_write_insn(w, &insn));
        t->insns[i] = (struct executed){program.encoding[pc], insn.address, cpl, e->size, false};
        if (below(g, 300) == 0) {
            assert_true(trace_write_region(w, below(g, 2), 1));
            t->insns[i].region_after = true;
        }
        pc = next_pc;
    }
    struct trace_end end = {n, TRACE_EXITED, 0};
    assert_true(trace_write_end(w, &end));
    assert_true(trace_writer_close(w));
    assert_int_equal(fclose(out), 0);
}

/* ---- reference counts, instruction by instruction */

/* The occurrences the trace decides, counted as the model did before its
 * block memos: each instruction decoded and held back to see whether the
 * next pairs with it, each issue's events then. */
struct reference {
    uint64_t issued, v_pipe, reads, writes, both_pipes, branches;
};

/* The reference's counts at each region marker, in order. */
struct at_markers {
    struct reference *counts;
    unsigned n;
};

static uint32_t references_of(uint32_t size)
{
    return size <= 8 ? 1 : (size + 7) / 8;
}

/* An issue of u alone (v NULL) or u and v. */
static void count_issue(const struct executed *u, const struct executed *v,
                        struct reference *r)
{
    const struct executed *insns[2] = {u, v};
    r->issued += v ? 2 : 1;
    r->v_pipe += v != NULL;
    for (int i = 0; i < 2 && insns[i]; i++) {
        const struct encoding *e = &pool[insns[i]->encoding];
        if (e->access & TRACE_LOAD)
            r->reads += references_of(insns[i]->access_size);
        if (e->access & TRACE_STORE)
            r->writes += references_of(insns[i]->access_size);
        r->branches += e->branch;
    }
    r->both_pipes += v && pool[u->encoding].access && pool[v->encoding].access;
}

static const struct p5_op *op_of(struct p5_decode_cache *cache, const struct executed *x)
{
    const struct encoding *e = &pool[x->encoding];
    uint8_t bytes[TRACE_MAX_INSN_LENGTH] = {0};
    memcpy(bytes, e->bytes, e->length);
    const struct p5_op *op = p5_decode_hit(cache, x->address, e->length, bytes);
    if (!op)
        assert_int_equal(p5_decode_miss(cache, x->address, e->length, bytes, &op), DECODE_OK);
    return op;
}

static void reference_counts(const struct random_trace *t, bool mmx, struct reference *total,
                             struct at_markers *markers)
{
    struct p5_decode_cache cache;
    assert_true(p5_decode_cache_init(&cache, X86_MODE_64, mmx));
    memset(total, 0, sizeof *total);
    markers->counts = calloc(t->n, sizeof *markers->counts);
    assert_non_null(markers->counts);
    markers->n = 0;
    const struct executed *held = NULL;
    struct p5_op held_op;
    for (unsigned i = 0; i < t->n; i++) {
        const struct executed *x = &t->insns[i];
        struct p5_op op = *op_of(&cache, x); /* a copy: the cache may move */
        if (held && held->cpl == x->cpl && p5_ops_pair(&held_op, &op)) {
            count_issue(held, x, total);
            held = NULL;
        } else {
            if (held)
                count_issue(held, NULL, total);
            held = NULL;
            if (p5_op_leads_pair(&op)) {
                held = x;
                held_op = op;
            } else {
                count_issue(x, NULL, total);
            }
        }
        if (x->region_after) {
            if (held)
                count_issue(held, NULL, total);
            held = NULL;
            markers->counts[markers->n++] = *total;
        }
    }
    if (held)
        count_issue(held, NULL, total);
    p5_decode_cache_free(&cache);
}

/* ---- the model on the random traces */

struct hook_check {
    struct p5_pmu *pmu;
    const struct at_markers *markers;
    unsigned seen;
    unsigned code0, code1;
};

static uint64_t field_of(const struct reference *r, unsigned code)
{
    switch (code) {
    case P5_EV_INSTRUCTIONS_EXECUTED:
        return r->issued;
    case P5_EV_INSTRUCTIONS_EXECUTED_IN_V_PIPE:
        return r->v_pipe;
    case P5_EV_DATA_READ:
        return r->reads;
    case P5_EV_DATA_WRITE:
        return r->writes;
    case P5_EV_DATA_READ_OR_WRITE:
        return r->reads + r->writes;
    case P5_EV_MEMORY_ACCESSES_IN_BOTH_PIPES:
        return r->both_pipes;
    default:
        return r->branches;
    }
}

/* At each marker, what the counters hold is what the reference counted
 * up to it: the model reported everything before the hook. */
static void check_at_marker(void *context, bool begin, uint32_t region)
{
    (void)begin;
    (void)region;
    struct hook_check *h = context;
    assert_true(h->seen < h->markers->n);
    const struct reference *r = &h->markers->counts[h->seen++];
    assert_int_equal(rd(h->pmu, P5_MSR_CTR0), field_of(r, h->code0));
    assert_int_equal(rd(h->pmu, P5_MSR_CTR1), field_of(r, h->code1));
}

static void check_codes(const struct random_trace *t, const struct p5_config *config,
                        const struct reference *total, const struct at_markers *markers,
                        unsigned code0, unsigned code1)
{
    struct msr_backend *backend = p5_backend_create();
    assert_non_null(backend);
    struct p5_pmu *pmu = p5_backend_pmu(backend);
    uint64_t cesr = code0 | 3u << 6 | (uint64_t)code1 << 16 | 3u << 22;
    assert_int_equal(p5_pmu_wrmsr(pmu, P5_MSR_CESR, cesr), MSR_OK);
    struct hook_check check = {pmu, markers, 0, code0, code1};
    struct p5_sim_hooks hooks = {.region = check_at_marker, .context = &check};
    struct p5_sim_result result;
    char error[512];
    if (!p5_simulate_trace(t->path, config, backend, &hooks, &result, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(check.seen, markers->n);
    assert_int_equal(result.instructions, t->n);
    assert_int_equal(rd(pmu, P5_MSR_CTR0), field_of(total, code0));
    assert_int_equal(rd(pmu, P5_MSR_CTR1), field_of(total, code1));
    assert_int_equal(rd(pmu, P5_MSR_TSC), result.cycles);
    msr_backend_destroy(backend);
}

static void check_random_trace(uint64_t seed, const char *preset)
{
    struct rng g = {seed};
    struct random_trace t;
    write_random_trace(&g, 30000, &t);
    struct p5_config config;
    char error[256];
    assert_true(p5_config_preset(preset, &config, error, sizeof error));
    assert_true(p5_config_set(&config, "errata", "none", error, sizeof error));
    struct reference total;
    struct at_markers markers;
    reference_counts(&t, config.mmx, &total, &markers);
    assert_true(total.v_pipe > 1000 && markers.n > 10); /* the trace pairs, and has markers */
    check_codes(&t, &config, &total, &markers, P5_EV_INSTRUCTIONS_EXECUTED,
                P5_EV_INSTRUCTIONS_EXECUTED_IN_V_PIPE);
    check_codes(&t, &config, &total, &markers, P5_EV_DATA_READ, P5_EV_DATA_WRITE);
    check_codes(&t, &config, &total, &markers, P5_EV_DATA_READ_OR_WRITE,
                P5_EV_MEMORY_ACCESSES_IN_BOTH_PIPES);
    check_codes(&t, &config, &total, &markers, P5_EV_BRANCHES, P5_EV_INSTRUCTIONS_EXECUTED);
    free(markers.counts);
    free(t.insns);
    unlink(t.path);
}

static void test_random_traces_pair_and_count_as_per_instruction(void **state)
{
    (void)state;
    check_random_trace(1, "p5");
    check_random_trace(2, "p5");
    check_random_trace(3, "pmmx");
}

/* ---- pairing across a block boundary, by hand */

enum { CODE = 0x401000 };

struct hand_trace {
    char path[64];
    FILE *out;
    struct trace_writer *w;
};

static void hand_open(struct hand_trace *t)
{
    strcpy(t->path, "/tmp/test_p5_model_blocks_XXXXXX");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    t->out = fdopen(fd, "wb");
    assert_non_null(t->out);
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true};
    char error[256];
    t->w = trace_writer_open(t->out, &header, error, sizeof error);
    assert_non_null(t->w);
}

static void hand_insn(struct hand_trace *t, uint64_t address, const char *bytes, uint8_t length,
                      uint8_t cpl, enum trace_branch branch, uint64_t target)
{
    struct trace_insn insn;
    memset(&insn, 0, sizeof insn);
    insn.address = address;
    insn.length = length;
    insn.has_bytes = true;
    memcpy(insn.bytes, bytes, length);
    insn.cpl = cpl;
    insn.branch = branch;
    insn.target = target;
    assert_true(trace_write_insn(t->w, &insn));
}

static void hand_close(struct hand_trace *t)
{
    struct trace_end end = {trace_writer_instructions(t->w), TRACE_EXITED, 0};
    assert_true(trace_write_end(t->w, &end));
    assert_true(trace_writer_close(t->w));
    assert_int_equal(fclose(t->out), 0);
}

static uint64_t v_pipe_of(const char *path)
{
    struct p5_config config;
    char error[512];
    assert_true(p5_config_preset("p5", &config, error, sizeof error));
    struct msr_backend *backend = p5_backend_create();
    assert_non_null(backend);
    struct p5_pmu *pmu = p5_backend_pmu(backend);
    uint64_t cesr = P5_EV_INSTRUCTIONS_EXECUTED_IN_V_PIPE | 3u << 6;
    assert_int_equal(p5_pmu_wrmsr(pmu, P5_MSR_CESR, cesr), MSR_OK);
    struct p5_sim_result result;
    if (!p5_simulate_trace(path, &config, backend, NULL, &result, error, sizeof error))
        fail_msg("%s", error);
    uint64_t v = rd(pmu, P5_MSR_CTR0);
    msr_backend_destroy(backend);
    return v;
}

#define MOV_EBX_EAX "\x89\xc3"
#define MOV_ECX_EAX "\x89\xc1"
#define ADD_EDX_EAX "\x01\xc2"
#define JMP_BACK "\xeb\x00"

/* mov ebx, eax ends a block (the next instruction is elsewhere, no branch
 * between): it pairs with mov ecx, eax, the first of the next block, whose
 * plan then begins at its second instruction: add edx, eax + jmp.  The
 * block comes back after the jmp, its plan from its first instruction:
 * mov ecx, eax + add edx, eax, then jmp alone.  At another CPL the first
 * two do not pair: mov ebx, eax issues alone, and the block's plan from
 * its first instruction serves twice. */
static void test_pairs_across_a_block_boundary(void **state)
{
    (void)state;
    for (uint8_t second_cpl = 3; second_cpl != 1; second_cpl = second_cpl == 3 ? 0 : 1) {
        struct hand_trace t;
        hand_open(&t);
        hand_insn(&t, CODE, MOV_EBX_EAX, 2, 3, TRACE_NOT_BRANCH, 0);
        hand_insn(&t, CODE + 0x100, MOV_ECX_EAX, 2, second_cpl, TRACE_NOT_BRANCH, 0);
        hand_insn(&t, CODE + 0x102, ADD_EDX_EAX, 2, second_cpl, TRACE_NOT_BRANCH, 0);
        hand_insn(&t, CODE + 0x104, JMP_BACK, 2, second_cpl, TRACE_BRANCH_TAKEN, CODE + 0x100);
        hand_insn(&t, CODE + 0x100, MOV_ECX_EAX, 2, second_cpl, TRACE_NOT_BRANCH, 0);
        hand_insn(&t, CODE + 0x102, ADD_EDX_EAX, 2, second_cpl, TRACE_NOT_BRANCH, 0);
        hand_insn(&t, CODE + 0x104, JMP_BACK, 2, second_cpl, TRACE_BRANCH_TAKEN, CODE + 0x100);
        hand_close(&t);
        /* mov ebx+mov ecx | add+jmp | mov ecx+add | jmp; or, at another
         * CPL, mov ebx | mov ecx+add | jmp | mov ecx+add | jmp */
        assert_int_equal(v_pipe_of(t.path), second_cpl == 3 ? 3 : 2);
        unlink(t.path);
    }
}

/* A region marker between them: the held instruction issues alone before
 * the hook. */
static void test_no_pair_across_a_marker(void **state)
{
    (void)state;
    struct hand_trace t;
    hand_open(&t);
    hand_insn(&t, CODE, MOV_EBX_EAX, 2, 3, TRACE_NOT_BRANCH, 0);
    assert_true(trace_write_region(t.w, true, 1));
    hand_insn(&t, CODE + 2, MOV_ECX_EAX, 2, 3, TRACE_NOT_BRANCH, 0);
    hand_insn(&t, CODE + 4, ADD_EDX_EAX, 2, 3, TRACE_NOT_BRANCH, 0);
    hand_close(&t);
    assert_int_equal(v_pipe_of(t.path), 1); /* mov ebx | marker | mov ecx+add */
    unlink(t.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_traces_pair_and_count_as_per_instruction),
        cmocka_unit_test(test_pairs_across_a_block_boundary),
        cmocka_unit_test(test_no_pair_across_a_marker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
