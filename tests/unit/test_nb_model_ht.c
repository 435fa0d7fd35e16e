/* The NetBurst model's Hyper-Threading and wrong-path speculation
 * (docs/netburst-model.md): hand-made traces run alone or as logical
 * processors 0 and 1, counted by the emulated PMU through ESCR and CCCR
 * values from `pmubench encode`. */
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
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/emulated/netburst_pmu.h"
#include "sim/netburst/nbm_model.h"
#include "tests/unit/model_trace.h"
#include "traces/trace.h"

#define JMP_BACK9 "\xeb\xf7", 2       /* jmp 0x1000 from 0x1007, after tb_loop()'s */
#define NOP "\x90", 1

static void tb_nops(struct tb *t, uint64_t address, int n)
{
    for (int i = 0; i < n; i++)
        tb_plain(t, address + (uint64_t)i, NOP);
}

/* ---- the PMU, programmed with `pmubench encode`'s values */

struct counter {
    uint32_t escr_msr;
    uint64_t escr;
    int counter;
    uint64_t cccr;
};

/* Simulates the traces (one: no Hyper-Threading) counting `counters`;
 * their counts go to `counts`. */
static struct nbm_result simulate(const char *const *paths, int n_paths,
                                  const struct counter *counters, int n, uint64_t *counts)
{
    char error[512];
    struct nbm_config config;
    assert_true(nbm_config_preset("northwood", &config, error, sizeof error));
    struct msr_backend *backend = nb_backend_create((struct nb_pmu_config){2, n_paths == 2});
    struct nb_pmu *pmu = nb_backend_pmu(backend);
    for (int i = 0; i < n; i++) {
        assert_int_equal(nb_pmu_wrmsr(pmu, counters[i].escr_msr, counters[i].escr), MSR_OK);
        assert_int_equal(nb_pmu_wrmsr(pmu, NB_CCCR_BASE + (uint32_t)counters[i].counter,
                                      counters[i].cccr),
                         MSR_OK);
    }
    struct nbm_result result;
    if (!nbm_simulate(paths, n_paths, &config, backend, NULL, &result, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(nb_pmu_cycles(pmu), result.cycles);
    for (int i = 0; i < n; i++)
        counts[i] = nb_pmu_counter(pmu, counters[i].counter);
    msr_backend_destroy(backend);
    return result;
}

/* instr_retired NBOGUSNTAG (select 0x02, CRU_ESCR0/1, CCCR select 4). */
#define INSTR_RETIRED_T0_USR 0x04000204   /* netburst::instr_retired:NBOGUSNTAG:u=1:k=0:t0 */
#define INSTR_RETIRED_T1_USR 0x04000201   /* ...:t1 */
#define CRU_ESCR0 0x3b8
#define CRU_ESCR1 0x3b9
#define CRU_ESCR2 0x3cc
#define CRU_ESCR3 0x3cd
#define FSB_ESCR0 0x3a2
#define FSB_ESCR1 0x3a3
#define CCCR_CRU01 0x00039000             /* ENABLE, select 4, ACTIVE_THREAD any */
#define CCCR_CRU23 0x0003b000             /* select 5 */
#define CCCR_CRU01_BOTH 0x00029000        /* select 4, ACTIVE_THREAD both */
#define CCCR_CRU01_SINGLE 0x00019000      /* select 4, ACTIVE_THREAD single */

/* Each thread's instructions counted by its own ESCR bits. */
static void test_instructions_per_thread(void **state)
{
    (void)state;
    struct tb a, b;
    tb_open(&a);
    tb_nops(&a, 0x1000, 5);
    tb_close(&a);
    tb_open(&b);
    tb_loop(&b, 4);
    tb_nops(&b, 0x1007, 2);
    tb_close(&b);
    const char *paths[] = {a.path, b.path};
    const struct counter counters[] = {
        {CRU_ESCR0, INSTR_RETIRED_T0_USR, 12, CCCR_CRU01},
        {CRU_ESCR1, INSTR_RETIRED_T1_USR, 14, CCCR_CRU01},
    };
    uint64_t counts[2];
    struct nbm_result r = simulate(paths, 2, counters, 2, counts);
    assert_int_equal(counts[0], 5);
    assert_int_equal(counts[1], 14);
    assert_int_equal(r.instructions[0], 5);
    assert_int_equal(r.instructions[1], 14);
    assert_int_equal(r.uops[0], 5);
    assert_int_equal(r.uops[1], 14);
    unlink(a.path);
    unlink(b.path);
}

/* global_power_events RUNNING (select 0x13, FSB_ESCR0/1, CCCR select 6) by
 * ACTIVE_THREAD: thread 0's short trace ends first; thread 1 runs on alone. */
#define RUNNING_T0 0x2600020c             /* netburst::global_power_events:RUNNING:t0 */
#define RUNNING_T1 0x26000203             /* ...:t1 */
#define CCCR_RUNNING_ANY 0x0003d000       /* at=any */
#define CCCR_RUNNING_SINGLE 0x0001d000    /* at=single: exactly one active */
#define CCCR_RUNNING_BOTH 0x0002d000      /* at=both */

static void test_active_thread(void **state)
{
    (void)state;
    struct tb a, b;
    tb_open(&a);
    tb_nops(&a, 0x1000, 1);
    tb_close(&a);
    tb_open(&b);
    tb_loop(&b, 300);
    tb_nops(&b, 0x1007, 1);
    tb_close(&b);
    const char *paths[] = {a.path, b.path};
    const struct counter counters[] = {
        {FSB_ESCR0, RUNNING_T0, 0, CCCR_RUNNING_ANY},
        {FSB_ESCR1, RUNNING_T1, 2, CCCR_RUNNING_SINGLE},
    };
    const struct counter both[] = {
        {FSB_ESCR0, RUNNING_T1, 0, CCCR_RUNNING_BOTH},
        {FSB_ESCR1, RUNNING_T0, 2, CCCR_RUNNING_SINGLE},
    };
    uint64_t counts[2], counts_both[2];
    struct nbm_result r = simulate(paths, 2, counters, 2, counts);
    simulate(paths, 2, both, 2, counts_both);
    /* Thread 0 alone: one NOP, built from the L2 after an ITLB walk and
     * an L2 miss: 1 + 20 + 7 + 200 cycles to its queue write (cycle 227),
     * allocated at 228, executed at 239 (half a cycle), retired at 241:
     * active in cycles 0-241. */
    const uint64_t thread0_end = 242;
    assert_int_equal(counts[0], thread0_end);
    assert_int_equal(counts_both[0], thread0_end);      /* thread 1 while both run */
    assert_int_equal(counts[1], r.cycles - thread0_end); /* thread 1 alone */
    assert_int_equal(counts_both[1], 0);                 /* thread 0 is never alone */
    /* Thread 0's NOP retires while thread 1 is active, whether or not
     * anything of thread 1 is counted. */
    const struct counter retired[] = {
        {CRU_ESCR0, INSTR_RETIRED_T0_USR, 12, CCCR_CRU01_BOTH},
        {CRU_ESCR1, INSTR_RETIRED_T0_USR, 14, CCCR_CRU01_SINGLE},
    };
    uint64_t counts_retired[2];
    simulate(paths, 2, retired, 2, counts_retired);
    assert_int_equal(counts_retired[0], 1);
    assert_int_equal(counts_retired[1], 0);
    unlink(a.path);
    unlink(b.path);
}

/* Wrong path: uops_retired BOGUS (select 0x01, mask BOGUS), instr_retired
 * BOGUSNTAG, machine_clear CLEAR (CRU_ESCR2), uop_queue_writes. */
#define UOPS_RETIRED_BOGUS 0x0200040c     /* netburst::uops_retired:BOGUS:t0 (no HT: no T1 bits) */
#define INSTR_RETIRED_BOGUS 0x0400080c    /* netburst::instr_retired:BOGUSNTAG:t0 */
#define MACHINE_CLEAR 0x0400020c          /* netburst::machine_clear:CLEAR:t0 */
#define MACHINE_CLEAR_T1 0x04000203       /* ...:t1 */
#define MISPRED_RETIRED 0x0600020f        /* netburst::mispred_branch_retired:NBOGUS */
#define MS_ESCR0 0x3c0
#define UOP_QUEUE_DELIVER 0x1200040c      /* netburst::uop_queue_writes:FROM_TC_DELIVER:t0 */
#define CCCR_MS 0x00031000

/* The loop of 10 in steady state: the exit jnz is fetched in cycle F,
 * allocated in F+1; its flags (dec, on a fast ALU from half cycle
 * 2(F+12)) are ready at 2F+25, so the branch starts at the next whole
 * cycle F+13 and resolves, with the machine clear, at F+14.  The wrong
 * path is the loop again (predicted taken), one 3-uop line a cycle in
 * cycles F+1 .. F+13: 39 uops written into the queue, of which those of
 * F+1 .. F+12 allocate before the clear: 36 uops, 36 instructions. */
static void test_loop_exit_bogus(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_loop(&t, 10);
    tb_nops(&t, 0x1007, 1); /* the trace goes on: the wrong path is fetched */
    tb_close(&t);
    const char *paths[] = {t.path};
    const struct counter counters[] = {
        {CRU_ESCR0, UOPS_RETIRED_BOGUS, 12, CCCR_CRU01},
        {CRU_ESCR1, INSTR_RETIRED_BOGUS, 14, CCCR_CRU01},
        {CRU_ESCR2, MACHINE_CLEAR, 13, CCCR_CRU23},
        {MS_ESCR0, UOP_QUEUE_DELIVER, 4, CCCR_MS},
    };
    uint64_t counts[4];
    struct nbm_result r = simulate(paths, 1, counters, 4, counts);
    assert_int_equal(counts[0], 36);
    assert_int_equal(counts[1], 36);
    assert_int_equal(counts[2], 1);
    assert_int_equal(counts[3], 27 + 39); /* iterations 2-10, and the wrong path */
    assert_int_equal(r.bogus_uops[0], 36);
    assert_int_equal(r.uops[0], 31); /* bogus uops are not in the retired count */
    unlink(t.path);
}

/* The same loop ending the trace: nothing follows it to be cancelled,
 * so no wrong path (docs: the last instruction's clear has none). */
static void test_last_branch_no_wrong_path(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_loop(&t, 10);
    tb_close(&t);
    const char *paths[] = {t.path};
    const struct counter counters[] = {
        {CRU_ESCR0, UOPS_RETIRED_BOGUS, 12, CCCR_CRU01},
        {CRU_ESCR2, MACHINE_CLEAR, 13, CCCR_CRU23},
    };
    uint64_t counts[2];
    simulate(paths, 1, counters, 2, counts);
    assert_int_equal(counts[0], 0);
    assert_int_equal(counts[1], 1);
    unlink(t.path);
}

/* Three loops of 10 joined by a jmp back (never mispredicted): the three
 * exits are the only mispredictions, and the only clears, all on thread
 * 1 (thread 0 runs NOPs). */
static void test_clears_are_mispredictions(void **state)
{
    (void)state;
    struct tb a, b;
    tb_open(&a);
    tb_nops(&a, 0x1000, 20);
    tb_close(&a);
    tb_open(&b);
    for (int pass = 0; pass < 3; pass++) {
        tb_loop(&b, 10);
        tb_branch(&b, 0x1007, JMP_BACK9, TRACE_BRANCH_TAKEN, 0x1000);
    }
    tb_close(&b);
    const char *paths[] = {a.path, b.path};
    const struct counter counters[] = {
        {CRU_ESCR2, MACHINE_CLEAR_T1, 13, CCCR_CRU23},
        {CRU_ESCR3, MACHINE_CLEAR, 15, CCCR_CRU23},
        {CRU_ESCR0, MISPRED_RETIRED, 12, CCCR_CRU01},
    };
    uint64_t counts[3];
    struct nbm_result r = simulate(paths, 2, counters, 3, counts);
    assert_int_equal(counts[0], 3);
    assert_int_equal(counts[1], 0);
    assert_int_equal(counts[2], 3);
    assert_int_equal(r.mispredicts, 3);
    assert_true(r.bogus_uops[1] > 0);
    assert_int_equal(r.bogus_uops[0], 0);
    unlink(a.path);
    unlink(b.path);
}

/* Two copies of the loop share the machine: the front end alternates, so
 * together they run at one iteration a cycle, as one copy alone. */
static void test_two_loops_share_the_front_end(void **state)
{
    (void)state;
    struct tb a;
    tb_open(&a);
    tb_loop(&a, 400);
    tb_nops(&a, 0x1007, 1);
    tb_close(&a);
    const char *one[] = {a.path};
    const char *two[] = {a.path, a.path};
    struct nbm_result alone = simulate(one, 1, NULL, 0, NULL);
    struct nbm_result both = simulate(two, 2, NULL, 0, NULL);
    assert_int_equal(both.instructions[0], 1201);
    assert_int_equal(both.instructions[1], 1201);
    /* Both build their line (own ITLB walk, own L2 miss: the same
     * cycles), then the decodes alternate: thread 0 in cycles 227, 229,
     * 231 instead of 227-229 (+2); each of the 399 delivered iterations
     * takes two cycles instead of one (+399); thread 1, a cycle behind
     * from its first decode, ends a cycle later (+1). */
    assert_int_equal(both.cycles, alone.cycles + 2 + 399 + 1);
    unlink(a.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_instructions_per_thread),
        cmocka_unit_test(test_active_thread),
        cmocka_unit_test(test_loop_exit_bogus),
        cmocka_unit_test(test_last_branch_no_wrong_path),
        cmocka_unit_test(test_clears_are_mispredictions),
        cmocka_unit_test(test_two_loops_share_the_front_end),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    x86_decode_release();
    return failed;
}
