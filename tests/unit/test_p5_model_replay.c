/* The P5 model's clean replay of a block (sim/p5/p5_pipeline.c,
 * docs/p5-model.md "Speed") against issuing every group step by step
 * (p5_config's step_by_step): on random traces made to miss and to
 * conflict (code and data lines and pages that share cache and TLB sets,
 * misaligned and wide references, AGIs, prefixes, x87, bank conflicts,
 * branches the BTB mispredicts), with code rewritten in the middle (the
 * same addresses, other bytes), region markers and CPL changes between any
 * two instructions, every event code under every CPL and clock setting
 * (the CESR changed at region markers), on several machines: the counters
 * and the time stamp counter at every marker and at the end are the same. */
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
#include "sim/p5/p5_model.h"
#include "traces/trace.h"

struct encoding {
    const char *bytes;
    uint8_t length;
    uint8_t access;       /* 0, TRACE_LOAD, TRACE_STORE, TRACE_MODIFY */
    uint16_t size;
    bool branch;          /* a conditional branch */
};

/* 64-bit code: the registers of the AGIs (rbx, rsi written and used as
 * addresses), pairs, prefixes, a lock, x87, MMX (pmmx), wide accesses. */
static const struct encoding pool[] = {
    {"\x89\xc1", 2, 0, 0, false},               /* mov ecx, eax */
    {"\x01\xc2", 2, 0, 0, false},               /* add edx, eax */
    {"\x83\xc3\x04", 3, 0, 0, false},           /* add ebx, 4 */
    {"\x83\xc6\x04", 3, 0, 0, false},           /* add esi, 4 */
    {"\x8b\x03", 2, TRACE_LOAD, 4, false},      /* mov eax, [rbx] */
    {"\x8b\x0e", 2, TRACE_LOAD, 4, false},      /* mov ecx, [rsi] */
    {"\x8b\x16", 2, TRACE_LOAD, 4, false},      /* mov edx, [rsi] */
    {"\x89\x03", 2, TRACE_STORE, 4, false},     /* mov [rbx], eax */
    {"\x89\x0e", 2, TRACE_STORE, 4, false},     /* mov [rsi], ecx */
    {"\x01\x03", 2, TRACE_MODIFY, 4, false},    /* add [rbx], eax */
    {"\x50", 1, TRACE_STORE, 8, false},         /* push rax */
    {"\x58", 1, TRACE_LOAD, 8, false},          /* pop rax */
    {"\x66\x89\xc3", 3, 0, 0, false},           /* mov bx, ax */
    {"\xf0\x01\x03", 3, TRACE_MODIFY, 4, false}, /* lock add [rbx], eax */
    {"\xdd\x03", 2, TRACE_LOAD, 8, false},      /* fld qword [rbx] */
    {"\xd8\xc1", 2, 0, 0, false},               /* fadd st(0), st(1) */
    {"\xd9\xc9", 2, 0, 0, false},               /* fxch st(1) */
    {"\xdb\x3b", 2, TRACE_STORE, 10, false},    /* fstp tbyte [rbx] */
    {"\x0f\x28\x03", 3, TRACE_LOAD, 16, false}, /* movaps xmm0, [rbx] */
    {"\x0f\xfd\xc1", 3, 0, 0, false},           /* paddw mm0, mm1 */
    {"\x90", 1, 0, 0, false},                   /* nop */
    {"\x75\x00", 2, 0, 0, true},                /* jne */
    {"\x74\x00", 2, 0, 0, true},                /* je */
};
enum { POOL = sizeof pool / sizeof pool[0], CHUNKS = 48, CHUNK = 12 };
enum { PROGRAM = CHUNKS * CHUNK };

/* Chunks of code: the odd ones side by side, the even ones 36 KB apart,
 * in the same code cache sets and in pages beyond the code TLB's. */
struct program {
    uint64_t address[PROGRAM];
    unsigned encoding[PROGRAM];
    unsigned target[PROGRAM];
};

static unsigned random_encoding(struct rng *g)
{
    if (below(g, 5) == 0)
        return POOL - 1 - below(g, 2); /* a branch */
    return below(g, POOL - 2);
}

static void make_program(struct rng *g, struct program *p)
{
    for (unsigned c = 0; c < CHUNKS; c++) {
        uint64_t address = c % 2 ? 0x401000 + c * 0x40 : 0x500000 + c * 0x9000 + c * 13 % 64;
        for (unsigned i = c * CHUNK; i < (c + 1) * CHUNK; i++) {
            p->address[i] = address;
            p->encoding[i] = random_encoding(g);
            address += pool[p->encoding[i]].length;
        }
    }
    for (unsigned i = 0; i < PROGRAM; i++) {
        unsigned near = below(g, 4) != 0;
        p->target[i] = near ? i / CHUNK * CHUNK + below(g, CHUNK) : below(g, PROGRAM);
    }
}

/* Another encoding of the same length: code rewritten in place. */
static void rewrite(struct rng *g, struct program *p, unsigned i)
{
    for (int tries = 0; tries < 50; tries++) {
        unsigned e = random_encoding(g);
        if (pool[e].length == pool[p->encoding[i]].length) {
            p->encoding[i] = e;
            return;
        }
    }
}

/* Mostly a few hot lines; else lines of one data cache set, pages of one
 * data TLB set, anywhere in 24 KB; misaligned now and then. */
static uint64_t data_address(struct rng *g)
{
    unsigned kind = below(g, 10);
    uint64_t address;
    if (kind < 6)
        address = 0x7ff000 + 8 * below(g, 24);
    else if (kind < 7)
        address = 0x600000 + 0x1000 * below(g, 6) + 8 * below(g, 4);
    else if (kind < 8)
        address = 0x800000 + 0x10000 * below(g, 8);
    else
        address = 0x600000 + 4 * below(g, 0x1800);
    if (below(g, 16) == 0)
        address += 1 + below(g, 7);
    return address;
}

static char *write_random_trace(uint64_t seed, unsigned n)
{
    struct rng g = {seed};
    struct program *program = malloc(sizeof *program);
    assert_non_null(program);
    make_program(&g, program);
    static char path[64];
    strcpy(path, "/tmp/test_p5_model_replay_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "wb");
    assert_non_null(out);
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true};
    strcpy(header.recorder, "test_p5_model_replay");
    char error[256];
    struct trace_writer *w = trace_writer_open(out, &header, error, sizeof error);
    assert_non_null(w);
    unsigned pc = 0;
    uint8_t cpl = 3;
    bool in_region = false;
    for (unsigned i = 0; i < n; i++) {
        if (i == n / 2)
            for (unsigned k = 0; k < PROGRAM / 8; k++)
                rewrite(&g, program, below(&g, PROGRAM));
        const struct encoding *e = &pool[program->encoding[pc]];
        struct trace_insn insn;
        memset(&insn, 0, sizeof insn);
        insn.address = program->address[pc];
        insn.length = e->length;
        insn.has_bytes = true;
        memcpy(insn.bytes, e->bytes, e->length);
        if (below(&g, 200) == 0)
            cpl = cpl == 3 ? 0 : 3;
        insn.cpl = cpl;
        unsigned next_pc = (pc + 1) % PROGRAM;
        if (e->branch) {
            bool taken = below(&g, 3) != 0;
            insn.branch = taken ? TRACE_BRANCH_TAKEN : TRACE_BRANCH_NOT_TAKEN;
            if (taken)
                next_pc = program->target[pc];
            insn.target = taken ? program->address[next_pc] : insn.address + insn.length;
        }
        if (e->access) {
            insn.n_accesses = 1;
            insn.accesses[0] = (struct trace_access){e->access, e->size, data_address(&g)};
        }
        assert_true(trace_write_insn(w, &insn));
        if (below(&g, 150) == 0) {
            in_region = !in_region;
            assert_true(trace_write_region(w, in_region, 1));
        }
        pc = next_pc;
    }
    struct trace_end end = {n, TRACE_EXITED, 0};
    assert_true(trace_write_end(w, &end));
    assert_true(trace_writer_close(w));
    assert_int_equal(fclose(out), 0);
    free(program);
    return path;
}

/* ---- the two ways of issuing, on one trace */

enum { MAX_MARKERS = 1000 };

/* The counters at each marker; the hook then switches between the two
 * CESR values (another CPL and clock setting, counter 1 off), as a
 * driver's stubs may. */
struct counts {
    struct p5_pmu *pmu;
    uint64_t cesr[2];
    uint64_t at[MAX_MARKERS][3];
    unsigned n;
};

static uint64_t rd(struct p5_pmu *pmu, uint32_t msr)
{
    uint64_t value = 0;
    assert_int_equal(p5_pmu_rdmsr(pmu, msr, &value), MSR_OK);
    return value;
}

static void at_marker(void *context, bool begin, uint32_t region)
{
    (void)region;
    struct counts *c = context;
    assert_true(c->n < MAX_MARKERS);
    c->at[c->n][0] = rd(c->pmu, P5_MSR_TSC);
    c->at[c->n][1] = rd(c->pmu, P5_MSR_CTR0);
    c->at[c->n][2] = rd(c->pmu, P5_MSR_CTR1);
    c->n++;
    assert_int_equal(p5_pmu_wrmsr(c->pmu, P5_MSR_CESR, c->cesr[begin]), MSR_OK);
}

static void run(const char *path, const struct p5_config *config, const uint64_t cesr[2],
                struct counts *c)
{
    struct msr_backend *backend = p5_backend_create();
    assert_non_null(backend);
    c->pmu = p5_backend_pmu(backend);
    c->cesr[0] = cesr[0];
    c->cesr[1] = cesr[1];
    c->n = 0;
    assert_int_equal(p5_pmu_wrmsr(c->pmu, P5_MSR_CESR, cesr[0]), MSR_OK);
    struct p5_sim_hooks hooks = {.region = at_marker, .context = c};
    struct p5_sim_result result;
    char error[512];
    if (!p5_simulate_trace(path, config, backend, &hooks, &result, error, sizeof error))
        fail_msg("%s", error);
    at_marker(c, false, 0);
    msr_backend_destroy(backend);
}

static const unsigned codes[] = {
    P5_EV_DATA_READ, P5_EV_DATA_WRITE, P5_EV_DATA_TLB_MISS, P5_EV_DATA_READ_MISS,
    P5_EV_DATA_WRITE_MISS, P5_EV_WRITE_TO_M_OR_E_LINES, P5_EV_DATA_CACHE_LINES_WRITTEN_BACK,
    P5_EV_EXTERNAL_SNOOPS, P5_EV_DATA_CACHE_SNOOPING_HITS, P5_EV_MEMORY_ACCESSES_IN_BOTH_PIPES,
    P5_EV_BANK_CONFLICTS, P5_EV_MISALIGNED_DATA_MEMORY_OR_IO_REFERENCES, P5_EV_CODE_READ,
    P5_EV_CODE_TLB_MISS, P5_EV_CODE_CACHE_MISS, P5_EV_SEGMENT_REGISTER_LOADED, P5_EV_BRANCHES,
    P5_EV_BTB_HITS, P5_EV_TAKEN_BRANCH_OR_BTB_HIT, P5_EV_PIPELINE_FLUSHES,
    P5_EV_INSTRUCTIONS_EXECUTED, P5_EV_INSTRUCTIONS_EXECUTED_IN_V_PIPE,
    P5_EV_CLOCKS_WHILE_BUS_CYCLE_IN_PROGRESS, P5_EV_CLOCKS_STALLED_FULL_WRITE_BUFFERS,
    P5_EV_CLOCKS_STALLED_WAITING_DATA_READ, P5_EV_CLOCKS_STALLED_WRITE_TO_M_OR_E_LINE,
    P5_EV_LOCKED_BUS_CYCLE, P5_EV_IO_READ_OR_WRITE_CYCLE, P5_EV_NON_CACHEABLE_MEMORY_READS,
    P5_EV_PIPELINE_STALLED_ADDRESS_GENERATION_INTERLOCK, P5_EV_FLOPS,
    P5_EV_BREAKPOINT_MATCH_DR0, P5_EV_BREAKPOINT_MATCH_DR1, P5_EV_BREAKPOINT_MATCH_DR2,
    P5_EV_BREAKPOINT_MATCH_DR3, P5_EV_HARDWARE_INTERRUPTS, P5_EV_DATA_READ_OR_WRITE,
    P5_EV_DATA_READ_OR_WRITE_MISS,
};
enum { N_CODES = sizeof codes / sizeof codes[0] };

/* A counter's CC field: events or clocks, at CPL 0-2, 3 or any. */
static uint64_t random_cc(struct rng *g)
{
    static const uint64_t cc[] = {1, 2, 3, 5, 6, 7};
    return cc[below(g, 6)];
}

static uint64_t cesr_of(unsigned code0, uint64_t cc0, unsigned code1, uint64_t cc1)
{
    return code0 | cc0 << 6 | (uint64_t)code1 << 16 | cc1 << 22;
}

/* Every code on either counter, both ways; the same counts. */
static void check_machine(const char *path, const struct p5_config *machine, uint64_t seed)
{
    struct rng g = {seed};
    struct p5_config replayed = *machine, stepped = *machine;
    stepped.step_by_step = true;
    struct counts *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    for (unsigned i = 0; i < N_CODES; i++) {
        unsigned code0 = codes[i];
        unsigned code1 = codes[(i * 7 + 3) % N_CODES];
        uint64_t cc0 = random_cc(&g);
        uint64_t cc1 = random_cc(&g);
        uint64_t cc_other = random_cc(&g);
        uint64_t cesr[2] = {cesr_of(code0, cc0, code1, cc1), cesr_of(code0, cc_other, code1, 0)};
        run(path, &replayed, cesr, a);
        run(path, &stepped, cesr, b);
        assert_int_equal(a->n, b->n);
        assert_true(a->n > 10); /* the trace has markers */
        for (unsigned k = 0; k < a->n; k++)
            for (unsigned r = 0; r < 3; r++)
                if (a->at[k][r] != b->at[k][r])
                    fail_msg("codes %#x %#x, marker %u, register %u: replayed %llu, "
                             "step by step %llu",
                             code0, code1, k, r, (unsigned long long)a->at[k][r],
                             (unsigned long long)b->at[k][r]);
    }
    free(a);
    free(b);
}

static struct p5_config machine(const char *preset, const char *name, const char *value)
{
    struct p5_config config;
    char error[256];
    assert_true(p5_config_preset(preset, &config, error, sizeof error));
    if (name)
        assert_true(p5_config_set(&config, name, value, error, sizeof error));
    return config;
}

static void test_replay_counts_as_step_by_step(void **state)
{
    (void)state;
    static const char *const settings[][3] = {
        {"p5", NULL, NULL},
        {"pmmx", NULL, NULL},
        {"p5", "dcache_write_back", "off"},
        {"p5", "dcache_write_allocate", "on"},
        {"p5", "l2_size", "0"},
        {"p5", "errata", "none"},
        {"p5", "icache_line", "16"},
        {"p5", "btb_entries", "16"},
        {"p5", "dtlb_page", "4"},
    };
    for (uint64_t seed = 1; seed <= 2; seed++) {
        char *path = write_random_trace(seed, 20000);
        for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
            struct p5_config config = machine(settings[i][0], settings[i][1], settings[i][2]);
            check_machine(path, &config, seed * 100 + i);
        }
        unlink(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_counts_as_step_by_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
