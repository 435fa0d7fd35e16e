/* The P5 timing model (sim/p5): tiny traces written with trace_writer,
 * every count computed by hand (docs/p5-model.md explains the rules). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "isa/x86.h"
#include "pmu/emulated/p5_pmu.h"
#include "sim/p5/p5_model.h"
#include "tests/unit/model_trace.h"
#include "traces/trace.h"

/* ---- running the model */

struct counts {
    uint64_t ctr0, ctr1;
    struct p5_sim_result result;
};

static struct p5_config preset_named(const char *name)
{
    struct p5_config config;
    char error[256];
    assert_true(p5_config_preset(name, &config, error, sizeof error));
    return config;
}

static struct p5_config preset_p5(void)
{
    return preset_named("p5");
}

static void set(struct p5_config *config, const char *name, const char *value)
{
    char error[256];
    if (!p5_config_set(config, name, value, error, sizeof error))
        fail_msg("%s", error);
}

/* A machine without memory latencies: only the pipeline's clocks. */
static struct p5_config zero_latency_of(const char *preset)
{
    struct p5_config config = preset_named(preset);
    static const char *const zero[] = {"l2_size", "memory_latency", "memory_burst",
                                       "tlb_miss_penalty", "bus_writeback"};
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
        set(&config, zero[i], "0");
    return config;
}

static struct p5_config zero_latency(void)
{
    return zero_latency_of("p5");
}

static uint64_t cesr_for(unsigned code0, unsigned code1)
{
    const uint64_t any_cpl = 3;
    return code0 | any_cpl << 6 | (uint64_t)code1 << 16 | any_cpl << 22;
}

static struct counts run_with_hooks(const char *path, const struct p5_config *config,
                                    unsigned code0, unsigned code1,
                                    const struct p5_sim_hooks *hooks)
{
    char error[512];
    struct msr_backend *backend = p5_backend_create();
    assert_non_null(backend);
    struct p5_pmu *pmu = p5_backend_pmu(backend);
    assert_int_equal(p5_pmu_wrmsr(pmu, P5_MSR_CESR, cesr_for(code0, code1)), MSR_OK);
    struct counts c;
    if (!p5_simulate_trace(path, config, backend, hooks, &c.result, error, sizeof error))
        fail_msg("%s", error);
    uint64_t tsc;
    assert_int_equal(p5_pmu_rdmsr(pmu, P5_MSR_CTR0, &c.ctr0), MSR_OK);
    assert_int_equal(p5_pmu_rdmsr(pmu, P5_MSR_CTR1, &c.ctr1), MSR_OK);
    assert_int_equal(p5_pmu_rdmsr(pmu, P5_MSR_TSC, &tsc), MSR_OK);
    assert_int_equal(tsc, c.result.cycles);
    assert_int_equal(p5_pmu_cycles(pmu), c.result.cycles);
    backend->ops->destroy(backend);
    return c;
}

static struct counts run(const char *path, const struct p5_config *config, unsigned code0,
                         unsigned code1)
{
    return run_with_hooks(path, config, code0, code1, NULL);
}

static uint64_t count(const char *path, const struct p5_config *config, unsigned code)
{
    return run(path, config, code, code).ctr0;
}

/* ---- instruction encodings (64-bit) */

#define MOV_EAX_MEM_RBX "\x8b\x03"  /* mov eax, [rbx] */
#define MOV_MEM_RBX_EAX "\x89\x03"  /* mov [rbx], eax */
#define MOV_ECX_MEM_RSI "\x8b\x0e"  /* mov ecx, [rsi] */
#define ADD_EDX_EAX "\x01\xc2"      /* add edx, eax */
#define DEC_ECX "\xff\xc9"          /* dec ecx */
#define JNE_LOOP "\x75\xf8"         /* jne -8 */
#define NOP "\x90"
#define MOV_EBX_EAX "\x89\xc3"      /* mov ebx, eax */
#define MOV_ECX_EBX "\x89\xd9"      /* mov ecx, ebx */
#define MOV_ECX_EAX "\x89\xc1"      /* mov ecx, eax */
#define ADD_EBX_4 "\x83\xc3\x04"    /* add ebx, 4 */
#define ADD_ESI_4 "\x83\xc6\x04"    /* add esi, 4 */
#define ADD_EAX_MEM_RBX "\x03\x03"  /* add eax, [rbx]: 2 clocks */
#define MUL_ECX "\xf7\xe1"          /* mul ecx */
#define MOV_DS_AX "\x8e\xd8"        /* mov ds, ax */
#define FADD_ST1 "\xd8\xc1"         /* fadd st(0), st(1) */
#define FXCH_ST1 "\xd9\xc9"         /* fxch st(1) */
#define FSTP_MEM_RBX "\xd9\x1b"     /* fstp dword [rbx] */
#define LOCK_ADD_MEM "\xf0\x01\x03" /* lock add [rbx], eax */
#define XCHG_MEM "\x87\x03"         /* xchg [rbx], eax */
#define XCHG_REGS "\x87\xc3"        /* xchg ebx, eax */

enum { CODE = 0x401000, DATA = 0x600000 };

/* ---- a counted loop: 10 iterations of mov, add, dec, jne */

enum { ITERATIONS = 10 };

static void write_loop(struct tb *t)
{
    tb_open(t);
    for (int i = 0; i < ITERATIONS; i++) {
        bool last = i == ITERATIONS - 1;
        tb_access(t, CODE, MOV_EAX_MEM_RBX, 2, TRACE_LOAD, DATA, 4);
        tb_plain(t, CODE + 2, ADD_EDX_EAX, 2);
        tb_plain(t, CODE + 4, DEC_ECX, 2);
        tb_branch(t, CODE + 6, JNE_LOOP, 2, last ? TRACE_BRANCH_NOT_TAKEN : TRACE_BRANCH_TAKEN,
                  last ? 0 : CODE);
    }
    tb_close(t);
}

static void test_loop_instructions_and_pairs(void **state)
{
    (void)state;
    struct tb t;
    write_loop(&t);
    struct p5_config config = preset_p5();
    struct counts c = run(t.path, &config, 0x16, 0x17);
    assert_int_equal(c.result.instructions, 4 * ITERATIONS);
    assert_int_equal(c.ctr0, 4 * ITERATIONS);
    /* mov | add+dec | jne: add reads the eax mov writes; jne cannot lead */
    assert_int_equal(c.ctr1, ITERATIONS);
    unlink(t.path);
}

static void test_loop_branches_and_btb(void **state)
{
    (void)state;
    struct tb t;
    write_loop(&t);
    struct p5_config config = preset_p5();
    struct counts c = run(t.path, &config, 0x12, 0x13);
    assert_int_equal(c.ctr0, ITERATIONS);
    /* allocated on the first taken execution, hit from the second on */
    assert_int_equal(c.ctr1, ITERATIONS - 1);
    c = run(t.path, &config, 0x14, 0x15);
    assert_int_equal(c.ctr0, ITERATIONS);  /* taken 1-9, BTB hit 2-10 */
    assert_int_equal(c.ctr1, 2);           /* first taken (BTB miss), last (not taken) */
    unlink(t.path);
}

static void test_loop_memory(void **state)
{
    (void)state;
    struct tb t;
    write_loop(&t);
    struct p5_config config = preset_p5();
    struct counts c = run(t.path, &config, 0x00, 0x03);
    assert_int_equal(c.ctr0, ITERATIONS);
    assert_int_equal(c.ctr1, 1);
    c = run(t.path, &config, 0x02, 0x0d);
    assert_int_equal(c.ctr0, 1);
    assert_int_equal(c.ctr1, 1);
    /* the loop's 8 bytes sit in one line, read again at each taken branch */
    c = run(t.path, &config, 0x0c, 0x0e);
    assert_int_equal(c.ctr0, ITERATIONS);
    assert_int_equal(c.ctr1, 1);
    c = run(t.path, &config, 0x28, 0x29);
    assert_int_equal(c.ctr0, ITERATIONS);
    assert_int_equal(c.ctr1, 1);
    unlink(t.path);
}

/* Clocks, hand-computed (no L2): the first issue waits for the ITLB walk
 * (10) and the code line from memory (15): clocks 0-24, the line's burst
 * keeping the bus busy from 10 to 39.  mov issues at 25; its read waits for
 * the DTLB walk (to 35), then for the bus (39) and the data (+15 = 54): 29
 * stall clocks, 26-54, the burst taking the bus to 68.  add+dec at 55, jne
 * at 56 (BTB miss: 3 clocks flushed).  Iterations 2-9: 3 clocks; the
 * tenth 3 + 3 (predicted taken, not taken). */
static void test_loop_clocks(void **state)
{
    (void)state;
    struct tb t;
    write_loop(&t);
    struct p5_config config = preset_p5();
    set(&config, "l2_size", "0");
    struct counts c = run(t.path, &config, 0x1a, 0x18);
    assert_int_equal(c.ctr0, 29);
    assert_int_equal(c.ctr1, 68 - 10);
    assert_int_equal(c.result.cycles, 55 + 1 + 4 + 8 * 3 + 6);
    unlink(t.path);
}

/* ---- pairing and AGI */

static uint64_t clocks_of(const char *path)
{
    struct p5_config config = zero_latency();
    return run(path, &config, 0x16, 0x16).result.cycles;
}

static void test_pairs_and_dependent_non_pair(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, CODE, NOP, 1);
    tb_plain(&t, CODE + 1, NOP, 1);
    tb_plain(&t, CODE + 2, MOV_EBX_EAX, 2);
    tb_plain(&t, CODE + 4, MOV_ECX_EBX, 2); /* reads the ebx just written: no pair */
    tb_close(&t);
    struct p5_config config = zero_latency();
    struct counts c = run(t.path, &config, 0x16, 0x17);
    assert_int_equal(c.ctr0, 4);
    assert_int_equal(c.ctr1, 1);
    assert_int_equal(c.result.cycles, 3); /* nop+nop | mov ebx | mov ecx */
    unlink(t.path);

    tb_open(&t);
    tb_plain(&t, CODE, MOV_EBX_EAX, 2);
    tb_plain(&t, CODE + 2, MOV_ECX_EAX, 2); /* independent: a pair */
    tb_close(&t);
    c = run(t.path, &config, 0x16, 0x17);
    assert_int_equal(c.ctr1, 1);
    assert_int_equal(c.result.cycles, 1);
    unlink(t.path);
}

static void test_agi_stall(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, CODE, ADD_EBX_4, 3);
    tb_access(&t, CODE + 3, MOV_EAX_MEM_RBX, 2, TRACE_LOAD, DATA, 4);
    tb_close(&t);
    struct p5_config config = zero_latency();
    struct counts c = run(t.path, &config, 0x1f, 0x17);
    assert_int_equal(c.ctr0, 1);
    assert_int_equal(c.ctr1, 0);
    assert_int_equal(c.result.cycles, 3); /* add, AGI, mov */
    unlink(t.path);

    tb_open(&t);
    tb_plain(&t, CODE, ADD_ESI_4, 3); /* another register: the two pair */
    tb_access(&t, CODE + 3, MOV_EAX_MEM_RBX, 2, TRACE_LOAD, DATA, 4);
    tb_close(&t);
    c = run(t.path, &config, 0x1f, 0x17);
    assert_int_equal(c.ctr0, 0);
    assert_int_equal(c.ctr1, 1);
    assert_int_equal(clocks_of(t.path), 1);
    unlink(t.path);
}

/* An issue of 2 clocks after an AGI clock: its occurrences count once. */
static void test_occurrences_once_in_long_issue(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, CODE, ADD_EBX_4, 3);
    tb_access(&t, CODE + 3, ADD_EAX_MEM_RBX, 2, TRACE_LOAD, DATA, 4);
    tb_branch(&t, CODE + 5, "\x75\x10", 2, TRACE_BRANCH_NOT_TAKEN, 0); /* jne: pairs */
    tb_close(&t);
    struct p5_config config = zero_latency();
    struct counts c = run(t.path, &config, 0x12, 0x00);
    assert_int_equal(c.ctr0, 1);
    assert_int_equal(c.ctr1, 1);
    assert_int_equal(c.result.cycles, 1 + 1 + 2); /* add | AGI | add eax,[rbx] + jne */
    c = run(t.path, &config, 0x1f, 0x17);
    assert_int_equal(c.ctr0, 1);
    assert_int_equal(c.ctr1, 1);
    unlink(t.path);
}

static void test_bank_conflict(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_access(&t, CODE, MOV_EAX_MEM_RBX, 2, TRACE_LOAD, DATA, 4);
    tb_access(&t, CODE + 2, MOV_ECX_MEM_RSI, 2, TRACE_LOAD, DATA + 32, 4);
    tb_close(&t);
    struct p5_config config = zero_latency();
    struct counts c = run(t.path, &config, 0x09, 0x0a);
    assert_int_equal(c.ctr0, 1);
    assert_int_equal(c.ctr1, 1); /* bank 0 in both, two dwords */
    assert_int_equal(c.result.cycles, 2);
    unlink(t.path);

    tb_open(&t);
    tb_access(&t, CODE, MOV_EAX_MEM_RBX, 2, TRACE_LOAD, DATA, 4);
    tb_access(&t, CODE + 2, MOV_ECX_MEM_RSI, 2, TRACE_LOAD, DATA + 4, 4);
    tb_close(&t);
    c = run(t.path, &config, 0x09, 0x0a);
    assert_int_equal(c.ctr0, 1);
    assert_int_equal(c.ctr1, 0);
    assert_int_equal(c.result.cycles, 1);
    unlink(t.path);
}

static void test_x87_pair_flops_segment_loads(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, CODE, FADD_ST1, 2);
    tb_plain(&t, CODE + 2, FXCH_ST1, 2); /* FX then FXCH: a pair */
    tb_plain(&t, CODE + 4, MUL_ECX, 2);  /* integer multiply: a FLOP, 10 clocks */
    tb_plain(&t, CODE + 6, MOV_DS_AX, 2);
    tb_close(&t);
    struct p5_config config = zero_latency();
    struct counts c = run(t.path, &config, 0x22, 0x17);
    assert_int_equal(c.ctr0, 2);
    assert_int_equal(c.ctr1, 1);
    /* fadd+fxch 1, mul 10, mov ds,ax 2: MOV Sreg,r is 2-11 clocks in
     * Intel's Pentium instruction set reference, the model taking a
     * range's low end (docs/p5-timings.md) */
    assert_int_equal(c.result.cycles, 1 + 10 + 2);
    assert_int_equal(count(t.path, &config, 0x0f), 1);
    unlink(t.path);
}

static void test_locked_bus_cycles(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_access(&t, CODE, LOCK_ADD_MEM, 3, TRACE_MODIFY, DATA, 4);
    tb_access(&t, CODE + 3, XCHG_MEM, 2, TRACE_MODIFY, DATA, 4);
    tb_plain(&t, CODE + 5, XCHG_REGS, 2);
    tb_close(&t);
    struct p5_config config = zero_latency();
    struct counts c = run(t.path, &config, 0x1c, 0x28);
    assert_int_equal(c.ctr0, 2);
    assert_int_equal(c.ctr1, 4); /* each modify: a read and a write */
    unlink(t.path);
}

/* ---- timing rows, the x87 registers, prefixes, REP strings */

struct code {
    const char *bytes;
    int length;
};

/* The instructions one after another from CODE, without data accesses. */
static void write_codes(struct tb *t, const struct code *codes, int n)
{
    tb_open(t);
    uint64_t address = CODE;
    for (int i = 0; i < n; i++) {
        tb_plain(t, address, codes[i].bytes, codes[i].length);
        address += (uint64_t)codes[i].length;
    }
    tb_close(t);
}

static struct counts run_codes(const struct code *codes, int n, const struct p5_config *config,
                               unsigned code0, unsigned code1)
{
    struct tb t;
    write_codes(&t, codes, n);
    struct counts c = run(t.path, config, code0, code1);
    unlink(t.path);
    return c;
}

static uint64_t cycles_of_codes(const struct code *codes, int n)
{
    struct p5_config config = zero_latency();
    return run_codes(codes, n, &config, 0x16, 0x17).result.cycles;
}

#define CODE_OF(s) {s, (int)sizeof(s) - 1}
#define N_CODES(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* FADD: the FPU busy 1 clock, the result 3 clocks after it starts; FMUL:
 * 2 and 3 (sim/p5/p5_timings.c, Agner Fog's P1 table).  A chain, each
 * reading the ST(0) the one before writes, runs at the latency;
 * independent ones (ST(i) += ST(0), i = 1-4) at the busy clocks. */
static void test_x87_chain_latency_and_throughput(void **state)
{
    (void)state;
    const struct code fadd_chain[] = {CODE_OF("\xd8\xc1"), CODE_OF("\xd8\xc1"),
                                      CODE_OF("\xd8\xc1"), CODE_OF("\xd8\xc1")};
    /* starts at 0, 3, 6, 9: the last ends at 10 */
    assert_int_equal(cycles_of_codes(fadd_chain, 4), 10);
    const struct code fadd_independent[] = {CODE_OF("\xdc\xc1"), CODE_OF("\xdc\xc2"),
                                            CODE_OF("\xdc\xc3"), CODE_OF("\xdc\xc4")};
    assert_int_equal(cycles_of_codes(fadd_independent, 4), 4);
    const struct code fmul_chain[] = {CODE_OF("\xd8\xc9"), CODE_OF("\xd8\xc9"),
                                      CODE_OF("\xd8\xc9")};
    /* starts at 0, 3, 6, each 2 clocks long */
    assert_int_equal(cycles_of_codes(fmul_chain, 3), 8);
    const struct code fmul_independent[] = {CODE_OF("\xdc\xc9"), CODE_OF("\xdc\xca"),
                                            CODE_OF("\xdc\xcb")};
    assert_int_equal(cycles_of_codes(fmul_independent, 3), 6);
}

/* Integer instructions do not wait for x87 results; an FST of the
 * result does (it reads ST(0)); pushes and pops move the top: after FLD
 * (1 clock, a push), FADDP ST(1), ST(0) pops, and the sum it wrote to
 * ST(1) is the new ST(0). */
static void test_x87_stack_top(void **state)
{
    (void)state;
    const struct code integer_after[] = {CODE_OF("\xd8\xc1"), CODE_OF(MOV_EBX_EAX),
                                         CODE_OF(MOV_ECX_EAX)};
    assert_int_equal(cycles_of_codes(integer_after, 3), 2); /* fadd | mov+mov */
    const struct code push_pop[] = {
        CODE_OF("\xd9\xc0"), /* fld st(0): ready 1 clock after it starts */
        CODE_OF("\xde\xc1"), /* faddp st(1), st: starts at 1, the sum at 4 */
        CODE_OF("\xd8\xc0"), /* fadd st, st(0): reads the sum, starts at 4 */
    };
    assert_int_equal(cycles_of_codes(push_pop, 3), 5);
    const struct code pushed_away[] = {
        CODE_OF("\xd8\xc1"), /* fadd st, st(1): ST(0), the sum at 3 */
        CODE_OF("\xd9\xc3"), /* fld st(3): a push, ready at 2; the sum now ST(1) */
        CODE_OF("\xd8\xc0"), /* fadd st, st(0): the loaded value, no wait */
    };
    assert_int_equal(cycles_of_codes(pushed_away, 3), 3);
    const struct code sum_read[] = {
        CODE_OF("\xd8\xc1"), /* fadd st, st(1): the sum at 3 */
        CODE_OF("\xd9\xc3"), /* fld st(3): the sum now ST(1) */
        CODE_OF("\xd9\xc1"), /* fld st(1): waits for the sum, starts at 3 */
    };
    assert_int_equal(cycles_of_codes(sum_read, 3), 4);
}

/* FXCH pairs in the V pipe after an FX instruction, at no cost, and
 * exchanges the registers with their pending results (Agner Fog's P1
 * chapter): the sum FADD is computing goes to ST(1). */
static void test_fxch_pairs_and_renames(void **state)
{
    (void)state;
    const struct code away[] = {CODE_OF("\xd8\xc1"), CODE_OF(FXCH_ST1), CODE_OF("\xd8\xc2")};
    struct p5_config config = zero_latency();
    struct counts c = run_codes(away, 3, &config, 0x16, 0x17);
    assert_int_equal(c.ctr0, 3);
    assert_int_equal(c.ctr1, 1);           /* fadd+fxch */
    assert_int_equal(c.result.cycles, 2); /* fadd st, st(2) reads no pending sum */
    const struct code without[] = {CODE_OF("\xd8\xc1"), CODE_OF("\xd8\xc2")};
    assert_int_equal(cycles_of_codes(without, 2), 4); /* waits for the sum: 0, 3 */
    const struct code follows[] = {CODE_OF("\xd8\xc1"), CODE_OF(FXCH_ST1), CODE_OF("\xd8\xc1")};
    assert_int_equal(cycles_of_codes(follows, 3), 4); /* the sum, now ST(1), read at 3 */
    /* FXCH after an integer instruction: alone, its own clock */
    const struct code alone[] = {CODE_OF(MOV_EBX_EAX), CODE_OF(FXCH_ST1)};
    c = run_codes(alone, 2, &config, 0x16, 0x17);
    assert_int_equal(c.ctr1, 0);
    assert_int_equal(c.result.cycles, 2);
}

/* FDIV's latency by the precision control: 19, 33, 39 clocks at single,
 * double, extended (Agner Fog's P1 table); a dependent FADD starts then
 * and takes its clock. */
static void test_fdiv_by_precision(void **state)
{
    (void)state;
    const struct code fdiv_fadd[] = {CODE_OF("\xd8\xf1"), CODE_OF("\xd8\xc1")};
    static const char *const precisions[] = {"single", "double", "extended"};
    static const uint64_t cycles[] = {19 + 1, 33 + 1, 39 + 1};
    for (int p = 0; p < 3; p++) {
        struct p5_config config = zero_latency();
        set(&config, "fpu_precision", precisions[p]);
        assert_int_equal(run_codes(fdiv_fadd, 2, &config, 0x16, 0x17).result.cycles, cycles[p]);
    }
    /* the default is extended */
    assert_int_equal(cycles_of_codes(fdiv_fadd, 2), 39 + 1);
}

/* Instructions without a timing row: counted, at the default clocks (1,
 * 2 for a read that sets flags, 3 for a read-modify-write).  The P5 has
 * no MMX: PADDD's row is the Pentium MMX's. */
static void test_unclassified_counted(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, CODE, "\x0f\xfe\xc1", 3);                               /* paddd mm0, mm1 */
    tb_plain(&t, CODE + 3, "\x0f\x58\xc1", 3);                           /* addps xmm0, xmm1 */
    tb_access(&t, CODE + 6, "\xf3\x0f\xb8\x03", 4, TRACE_LOAD, DATA, 4); /* popcnt eax, [rbx] */
    tb_plain(&t, CODE + 10, NOP, 1);
    tb_close(&t);
    struct p5_config config = zero_latency();
    struct counts c = run(t.path, &config, 0x16, 0x17);
    assert_int_equal(c.result.instructions, 4);
    assert_int_equal(c.result.unclassified, 3);
    assert_int_equal(c.result.cycles, 1 + 1 + 2 + 1); /* popcnt reads and sets flags: 2 */
    unlink(t.path);
}

/* ---- the Pentium MMX (the pmmx preset; docs/p5-model.md, "The pmmx
 * preset") */

#define PADDD_MM0_MM1 "\x0f\xfe\xc1"
#define PADDD_MM2_MM3 "\x0f\xfe\xd3"
#define PADDD_MM4_MM5 "\x0f\xfe\xe5"
#define PADDD_MM6_MM7 "\x0f\xfe\xf7"
#define PADDD_MM2_MM0 "\x0f\xfe\xd0"
#define PMADDWD_MM0_MM1 "\x0f\xf5\xc1"
#define PMULLW_MM0_MM1 "\x0f\xd5\xc1"

static struct counts run_pmmx(const struct code *codes, int n)
{
    struct p5_config config = zero_latency_of("pmmx");
    return run_codes(codes, n, &config, 0x16, 0x17);
}

/* Four independent PADDDs: on the Pentium MMX two pairs (the row's UV),
 * a clock each; on the P5 four unclassified instructions, NP, one clock
 * each. */
static void test_mmx_pairs_on_pmmx_only(void **state)
{
    (void)state;
    const struct code paddds[] = {CODE_OF(PADDD_MM0_MM1), CODE_OF(PADDD_MM2_MM3),
                                  CODE_OF(PADDD_MM4_MM5), CODE_OF(PADDD_MM6_MM7)};
    struct counts pmmx = run_pmmx(paddds, 4);
    assert_int_equal(pmmx.result.cycles, 2);
    assert_int_equal(pmmx.ctr1, 2);
    assert_int_equal(pmmx.result.unclassified, 0);
    struct p5_config config = zero_latency();
    struct counts p5 = run_codes(paddds, 4, &config, 0x16, 0x17);
    assert_int_equal(p5.result.cycles, 4);
    assert_int_equal(p5.ctr1, 0);
    assert_int_equal(p5.result.unclassified, 4);
}

/* The second reads the MM0 the first writes: no pair, and the result of
 * an adder is ready the next clock. */
static void test_mmx_dependent_no_pair(void **state)
{
    (void)state;
    const struct code dependent[] = {CODE_OF(PADDD_MM0_MM1), CODE_OF(PADDD_MM2_MM0)};
    struct counts c = run_pmmx(dependent, 2);
    assert_int_equal(c.result.cycles, 2);
    assert_int_equal(c.ctr1, 0);
}

/* PMADDWD: one clock in the pipe, its result three clocks after it
 * starts (AP-559): a chain starts at 0, 3, 6 and ends at 7.  PMULLW's
 * row gives no latency (docs/p5-timings.md, "Disagreements"): a chain of
 * three takes a clock each. */
static void test_mmx_multiply_latency(void **state)
{
    (void)state;
    const struct code pmaddwd_chain[] = {CODE_OF(PMADDWD_MM0_MM1), CODE_OF(PMADDWD_MM0_MM1),
                                         CODE_OF(PMADDWD_MM0_MM1)};
    assert_int_equal(run_pmmx(pmaddwd_chain, 3).result.cycles, 7);
    const struct code pmullw_chain[] = {CODE_OF(PMULLW_MM0_MM1), CODE_OF(PMULLW_MM0_MM1),
                                        CODE_OF(PMULLW_MM0_MM1)};
    assert_int_equal(run_pmmx(pmullw_chain, 3).result.cycles, 3);
}

/* On the Pentium MMX the prefixes cost no decode clock (Intel VTune's
 * "Prefix Penalty Indicator"); a prefixed instruction still issues in
 * the U pipe only: two 66-prefixed ADDs take 2 clocks (4 on the P5). */
static void test_pmmx_prefixes_free(void **state)
{
    (void)state;
    const struct code two_prefixed[] = {CODE_OF("\x66\x01\xc3"), CODE_OF("\x66\x01\xd1")};
    struct counts c = run_pmmx(two_prefixed, 2);
    assert_int_equal(c.result.cycles, 2);
    assert_int_equal(c.ctr1, 0);
}

/* LOCK, segment, operand- and address-size prefixes: a decode clock each
 * (Intel VTune's Pentium "Prefix Penalty Indicator"), none after an issue
 * of several clocks (the decoder had them), none for 0F or REP. */
static void test_prefix_clocks(void **state)
{
    (void)state;
    const struct code two_prefixed[] = {CODE_OF("\x66\x01\xc3"), CODE_OF("\x66\x01\xd1")};
    struct p5_config config = zero_latency();
    struct counts c = run_codes(two_prefixed, 2, &config, 0x16, 0x17);
    assert_int_equal(c.ctr1, 0);           /* prefixed: the U pipe only */
    assert_int_equal(c.result.cycles, 4); /* prefix, add bx,ax, prefix, add cx,dx */
    const struct code two_prefixes[] = {CODE_OF("\x2e\x66\x01\xc3")};
    assert_int_equal(cycles_of_codes(two_prefixes, 1), 3);
    const struct code after_mul[] = {CODE_OF(MUL_ECX), CODE_OF("\x66\x01\xc3")};
    assert_int_equal(cycles_of_codes(after_mul, 2), 10 + 1);
    const struct code movzx[] = {CODE_OF("\x0f\xb6\xc0")}; /* movzx eax, al: 3, no prefix */
    assert_int_equal(cycles_of_codes(movzx, 1), 3);
}

/* A prefix clock comes before the address is generated: by then the base
 * register written the clock before is ready, no AGI. */
static void test_prefix_clock_hides_agi(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, CODE, ADD_EBX_4, 3);
    tb_access(&t, CODE + 3, "\x2e\x8b\x03", 3, TRACE_LOAD, DATA, 4); /* mov eax, cs:[rbx] */
    tb_close(&t);
    struct p5_config config = zero_latency();
    struct counts c = run(t.path, &config, 0x1f, 0x17);
    assert_int_equal(c.ctr0, 0);
    assert_int_equal(c.result.cycles, 3); /* add, prefix, mov */
    unlink(t.path);
}

/* REP SCASD: 8 + 4 clocks per iteration (Intel's Pentium instruction set
 * reference), the iterations from the bytes it read (the trace merges
 * them into one access); REP LODSD has no published REP figure:
 * unclassified, a clock per iteration. */
static void test_rep_string_clocks(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_access(&t, CODE, "\xf2\xaf", 2, TRACE_LOAD, DATA, 40);     /* repne scasd: 10 */
    tb_access(&t, CODE + 2, "\xf3\xad", 2, TRACE_LOAD, DATA, 40); /* rep lodsd: 10 */
    tb_plain(&t, CODE + 4, "\xf2\xaf", 2); /* ecx = 0: no iteration (rdi: no AGI after lodsd) */
    tb_close(&t);
    struct p5_config config = zero_latency();
    struct counts c = run(t.path, &config, 0x16, 0x17);
    assert_int_equal(c.result.cycles, (8 + 4 * 10) + 10 + 8);
    assert_int_equal(c.result.unclassified, 1);
    unlink(t.path);
}

/* ROL/ROR by an immediate pair in the U pipe (Intel's Pentium instruction
 * set reference: PU; isa/p5_pairing.c). */
static void test_rotate_by_immediate_pairs(void **state)
{
    (void)state;
    const struct code rol_mov[] = {CODE_OF("\xc1\xc0\x03"), CODE_OF(MOV_ECX_EBX)};
    struct p5_config config = zero_latency();
    struct counts c = run_codes(rol_mov, 2, &config, 0x16, 0x17);
    assert_int_equal(c.ctr1, 1);
    assert_int_equal(c.result.cycles, 1);
}

/* ---- the data cache */

/* One load (or store) per instruction, each its own issue (the same
 * register written: no pairs). */
static void write_accesses(struct tb *t, const enum trace_access_kind *kinds,
                           const uint64_t *addresses, int n)
{
    tb_open(t);
    for (int i = 0; i < n; i++)
        tb_access(t, CODE + 2 * (uint64_t)i,
                  kinds[i] == TRACE_LOAD ? MOV_EAX_MEM_RBX : MOV_MEM_RBX_EAX, 2, kinds[i],
                  addresses[i], 4);
    tb_close(t);
}

static void test_lru_eviction(void **state)
{
    (void)state;
    /* 8 KB, 2 ways, 32-byte lines: 128 sets, addresses 4 KB apart share one */
    enum { A = DATA, B = DATA + 0x1000, C = DATA + 0x2000 };
    const enum trace_access_kind kinds[] = {TRACE_LOAD, TRACE_LOAD, TRACE_LOAD, TRACE_LOAD,
                                            TRACE_LOAD};
    const uint64_t addresses[] = {A, B, A, C, B}; /* miss miss hit miss(evicts B) miss */
    struct tb t;
    write_accesses(&t, kinds, addresses, 5);
    struct p5_config config = preset_p5();
    struct counts c = run(t.path, &config, 0x00, 0x03);
    assert_int_equal(c.ctr0, 5);
    assert_int_equal(c.ctr1, 4);
    set(&config, "dcache_ways", "4"); /* 4 ways of 64 sets: all fit */
    assert_int_equal(count(t.path, &config, 0x03), 3);
    unlink(t.path);
}

static void test_no_write_allocate(void **state)
{
    (void)state;
    const enum trace_access_kind kinds[] = {TRACE_STORE, TRACE_LOAD, TRACE_STORE};
    const uint64_t addresses[] = {DATA, DATA, DATA};
    struct tb t;
    write_accesses(&t, kinds, addresses, 3);
    struct p5_config config = preset_p5();
    struct counts c = run(t.path, &config, 0x04, 0x03);
    assert_int_equal(c.ctr0, 1); /* the store missed, the line was not brought in */
    assert_int_equal(c.ctr1, 1); /* so the load misses */
    c = run(t.path, &config, 0x05, 0x01);
    assert_int_equal(c.ctr0, 1); /* the last store hits the E line */
    assert_int_equal(c.ctr1, 2);
    set(&config, "dcache_write_allocate", "on");
    c = run(t.path, &config, 0x04, 0x03);
    assert_int_equal(c.ctr0, 1);
    assert_int_equal(c.ctr1, 0);
    unlink(t.path);
}

static void test_dirty_line_written_back(void **state)
{
    (void)state;
    enum { A = DATA, B = DATA + 0x1000, C = DATA + 0x2000 };
    const enum trace_access_kind kinds[] = {TRACE_LOAD, TRACE_STORE, TRACE_LOAD, TRACE_LOAD};
    const uint64_t addresses[] = {A, A, B, C}; /* C evicts A, dirty */
    struct tb t;
    write_accesses(&t, kinds, addresses, 4);
    struct p5_config config = preset_p5();
    assert_int_equal(count(t.path, &config, 0x06), 1);
    set(&config, "dcache_write_back", "off"); /* write-through: nothing dirty */
    assert_int_equal(count(t.path, &config, 0x06), 0);
    assert_int_equal(count(t.path, &config, 0x05), 0);
    unlink(t.path);
}

/* Three store misses, two write buffers draining in 10 clocks each. */
static void test_write_buffers_full(void **state)
{
    (void)state;
    const enum trace_access_kind kinds[] = {TRACE_STORE, TRACE_STORE, TRACE_STORE};
    const uint64_t addresses[] = {DATA, DATA, DATA};
    struct tb t;
    write_accesses(&t, kinds, addresses, 3);
    struct p5_config config = zero_latency();
    set(&config, "bus_write", "10");
    struct counts c = run(t.path, &config, 0x19, 0x18);
    /* stores 1+2 pair at clock 0 (buffers done at 10 and 20); store 3 at
     * clock 1 waits for the first buffer until clock 10 */
    assert_int_equal(c.ctr0, 9);
    assert_int_equal(c.ctr1, 11); /* the bus is busy through clock 29 */
    assert_int_equal(c.result.cycles, 11);
    assert_int_equal(count(t.path, &config, 0x04), 3);
    unlink(t.path);
}

/* ---- errata */

struct erratum_case {
    unsigned code;
    const char *erratum;
    uint64_t with, without;
};

static void check_erratum(const char *path, const struct erratum_case *e)
{
    struct p5_config config = zero_latency();
    assert_int_equal(count(path, &config, e->code), e->with);
    set(&config, e->erratum, "off");
    assert_int_equal(count(path, &config, e->code), e->without);
    set(&config, "errata", "none");
    assert_int_equal(count(path, &config, e->code), e->without);
}

static void test_misaligned_errata(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    /* warm the DTLB (another line of the page), then a 4-byte read at
     * offset 2 that crosses a 4-byte boundary and misses */
    tb_access(&t, CODE, MOV_EAX_MEM_RBX, 2, TRACE_LOAD, DATA + 0x40, 4);
    tb_access(&t, CODE + 2, MOV_EAX_MEM_RBX, 2, TRACE_LOAD, DATA + 2, 4);
    tb_close(&t);
    const struct erratum_case cases[] = {
        {0x00, "erratum_misaligned_double_access", 3, 2},
        {0x03, "erratum_misaligned_double_miss", 3, 2},
        {0x1a, "erratum_misaligned_stall_2", 2, 3},
        {0x0b, "erratum_fst_misaligned_twice", 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_erratum(t.path, &cases[i]);
    unlink(t.path);
}

/* Stall clocks past 2^32 in one issue: with a page walk, a memory latency
 * and a misaligned penalty of 2^30 clocks each (their largest), a read
 * crossing a page (two walks, one penalty: Safford 1997, appendix A, 0x1a)
 * and a line (two fills) stalls 4 x 2^30 clocks, and the code's own page
 * walk and line fill 2 x 2^30 more: 6 x 2^30 + 1 clocks, of which 0x1a
 * counts the read's 4 x 2^30.  The 32-bit sums wrapped to 2^31 + 1. */
static void test_stalls_beyond_32_bits(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_access(&t, CODE, MOV_EAX_MEM_RBX, 2, TRACE_LOAD, DATA + 0xffe, 4);
    tb_close(&t);
    struct p5_config config = zero_latency();
    set(&config, "tlb_miss_penalty", "1073741824");
    set(&config, "memory_latency", "1073741824");
    set(&config, "misaligned_penalty", "1073741824");
    struct counts c = run(t.path, &config, 0x1a, 0x1a);
    unlink(t.path);
    assert_int_equal(c.result.cycles, 6 * (1ull << 30) + 1);
    assert_int_equal(c.ctr0, 4 * (1ull << 30));
}

static void test_fst_erratum(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_access(&t, CODE, FSTP_MEM_RBX, 2, TRACE_STORE, DATA + 2, 4);
    tb_close(&t);
    const struct erratum_case fst = {0x0b, "erratum_fst_misaligned_twice", 2, 1};
    check_erratum(t.path, &fst);
    unlink(t.path);
}

/* 40 and 48 are INC and DEC in 32-bit mode (REX prefixes in 64-bit), 07
 * POP ES (invalid in 64-bit). */
static void test_32_bit_trace(void **state)
{
    (void)state;
    struct tb t;
    tb_open_header(&t, (struct trace_header){.isa = TRACE_ISA_32, .lengths_known = true});
    tb_plain(&t, CODE, "\x40", 1);     /* inc eax */
    tb_plain(&t, CODE + 1, "\x48", 1); /* dec eax: writes the eax inc wrote */
    tb_access(&t, CODE + 2, "\x07", 1, TRACE_LOAD, DATA, 2); /* pop es */
    tb_close(&t);
    struct p5_config config = zero_latency();
    struct counts c = run(t.path, &config, 0x16, 0x17);
    assert_int_equal(c.ctr0, 3);
    assert_int_equal(c.ctr1, 0);
    assert_int_equal(count(t.path, &config, 0x0f), 1);
    unlink(t.path);
}

/* Code that changes under the same address is decoded again. */
static void test_changed_code_decoded_again(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, CODE, "\x89\xc2", 2);     /* mov edx, eax */
    tb_plain(&t, CODE + 2, MOV_ECX_EBX, 2); /* independent: a pair */
    tb_plain(&t, CODE, MOV_EBX_EAX, 2);     /* the same address, now writing ebx */
    tb_plain(&t, CODE + 2, MOV_ECX_EBX, 2); /* reads it: no pair */
    tb_close(&t);
    struct p5_config config = zero_latency();
    assert_int_equal(count(t.path, &config, 0x17), 1);
    unlink(t.path);
}

/* More instructions than the decode cache's first 1024 slots hold. */
static void test_decode_cache_grows(void **state)
{
    (void)state;
    enum { N = 5000 };
    struct tb t;
    tb_open(&t);
    for (int i = 0; i < N; i++)
        tb_plain(&t, CODE + (uint64_t)i, NOP, 1);
    for (int i = 0; i < N; i++)
        tb_plain(&t, CODE + (uint64_t)i, NOP, 1);
    tb_close(&t);
    struct p5_config config = zero_latency();
    struct counts c = run(t.path, &config, 0x16, 0x17);
    assert_int_equal(c.ctr0, 2 * N);
    assert_int_equal(c.ctr1, N);
    assert_int_equal(count(t.path, &config, 0x0c), 2 * ((N + 31) / 32)); /* lines entered */
    unlink(t.path);
}

/* ---- imported traces, regions, errors */

static void test_imported_records_without_bytes(void **state)
{
    (void)state;
    struct tb t;
    tb_open_header(&t, (struct trace_header){.isa = TRACE_ISA_64, .lengths_known = false});
    tb_access(&t, CODE, NULL, 1, TRACE_LOAD, DATA, 4);
    tb_branch(&t, CODE + 1, NULL, 1, TRACE_NOT_BRANCH, 0);
    tb_branch(&t, CODE + 2, NULL, 1, TRACE_NOT_BRANCH, 0);
    tb_branch(&t, CODE + 3, NULL, 1, TRACE_BRANCH_TAKEN, CODE);
    tb_branch(&t, CODE, NULL, 1, TRACE_NOT_BRANCH, 0);
    tb_close(&t);
    struct p5_config config = zero_latency();
    struct counts c = run(t.path, &config, 0x12, 0x17);
    assert_int_equal(c.ctr0, 1);
    assert_int_equal(c.ctr1, 2); /* 1+2, 3+branch; the last alone */
    assert_int_equal(c.result.instructions, 5);
    assert_int_equal(c.result.unclassified, 5); /* no bytes: no timing row */
    unlink(t.path);
}

struct region_log {
    struct msr_backend *backend;
    int calls;
    uint64_t at_begin, at_end;
};

/* run_p5mon style: count only inside region 7. */
static void on_region(void *context, bool begin, uint32_t region)
{
    struct region_log *log = context;
    struct p5_pmu *pmu = p5_backend_pmu(log->backend);
    assert_int_equal(region, 7);
    log->calls++;
    assert_int_equal(p5_pmu_rdmsr(pmu, P5_MSR_CTR0, begin ? &log->at_begin : &log->at_end),
                     MSR_OK);
    p5_pmu_wrmsr(pmu, P5_MSR_CESR, begin ? cesr_for(0x16, 0x16) : 0);
}

static void test_region_hooks(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, CODE, NOP, 1);
    assert_true(trace_write_region(t.writer, true, 7));
    tb_plain(&t, CODE + 1, NOP, 1);
    tb_plain(&t, CODE + 2, NOP, 1);
    tb_plain(&t, CODE + 3, NOP, 1);
    assert_true(trace_write_region(t.writer, false, 7));
    tb_plain(&t, CODE + 4, NOP, 1);
    tb_close(&t);

    char error[512];
    struct region_log log = {.backend = p5_backend_create()};
    struct p5_sim_hooks hooks = {.region = on_region, .context = &log};
    struct p5_config config = zero_latency();
    struct p5_sim_result result;
    if (!p5_simulate_trace(t.path, &config, log.backend, &hooks, &result, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(log.calls, 2);
    assert_int_equal(log.at_begin, 0);
    assert_int_equal(log.at_end, 3);
    assert_int_equal(result.regions, 2);
    /* nop | region | nop+nop, nop | region | nop: no pair across a marker */
    assert_int_equal(result.cycles, 4);
    log.backend->ops->destroy(log.backend);
    unlink(t.path);
}

static void test_simulation_errors(void **state)
{
    (void)state;
    char error[512];
    struct p5_config config = preset_p5();
    struct msr_backend *backend = p5_backend_create();
    struct p5_sim_result result;
    assert_false(p5_simulate_trace("/nonexistent/x.trace", &config, backend, NULL, &result, error,
                                   sizeof error));
    assert_non_null(strstr(error, "/nonexistent/x.trace"));

    struct tb t;
    tb_open(&t);
    tb_plain(&t, CODE, "\x06", 1); /* PUSH ES: not valid in 64-bit mode */
    tb_close(&t);
    assert_false(p5_simulate_trace(t.path, &config, backend, NULL, &result, error, sizeof error));
    assert_non_null(strstr(error, "0x401000"));

    set(&config, "dcache_ways", "3");
    assert_false(p5_simulate_trace(t.path, &config, backend, NULL, &result, error, sizeof error));
    assert_non_null(strstr(error, "dcache_size"));
    backend->ops->destroy(backend);
    unlink(t.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_instructions_and_pairs),
        cmocka_unit_test(test_loop_branches_and_btb),
        cmocka_unit_test(test_loop_memory),
        cmocka_unit_test(test_loop_clocks),
        cmocka_unit_test(test_pairs_and_dependent_non_pair),
        cmocka_unit_test(test_agi_stall),
        cmocka_unit_test(test_occurrences_once_in_long_issue),
        cmocka_unit_test(test_bank_conflict),
        cmocka_unit_test(test_x87_pair_flops_segment_loads),
        cmocka_unit_test(test_locked_bus_cycles),
        cmocka_unit_test(test_x87_chain_latency_and_throughput),
        cmocka_unit_test(test_x87_stack_top),
        cmocka_unit_test(test_fxch_pairs_and_renames),
        cmocka_unit_test(test_fdiv_by_precision),
        cmocka_unit_test(test_unclassified_counted),
        cmocka_unit_test(test_mmx_pairs_on_pmmx_only),
        cmocka_unit_test(test_mmx_dependent_no_pair),
        cmocka_unit_test(test_mmx_multiply_latency),
        cmocka_unit_test(test_pmmx_prefixes_free),
        cmocka_unit_test(test_prefix_clocks),
        cmocka_unit_test(test_prefix_clock_hides_agi),
        cmocka_unit_test(test_rep_string_clocks),
        cmocka_unit_test(test_rotate_by_immediate_pairs),
        cmocka_unit_test(test_lru_eviction),
        cmocka_unit_test(test_no_write_allocate),
        cmocka_unit_test(test_dirty_line_written_back),
        cmocka_unit_test(test_write_buffers_full),
        cmocka_unit_test(test_misaligned_errata),
        cmocka_unit_test(test_stalls_beyond_32_bits),
        cmocka_unit_test(test_fst_erratum),
        cmocka_unit_test(test_32_bit_trace),
        cmocka_unit_test(test_changed_code_decoded_again),
        cmocka_unit_test(test_decode_cache_grows),
        cmocka_unit_test(test_imported_records_without_bytes),
        cmocka_unit_test(test_region_hooks),
        cmocka_unit_test(test_simulation_errors),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    x86_decode_release();
    return failed;
}
