/* The NetBurst model's two ways of reporting occurrences give the same
 * counts (docs/pmu-interface.md, "Routing ahead, checked by the PMU";
 * docs/netburst-model.md, "Speed"): with one logical processor and no
 * sampling programmed it routes each occurrence onto the cycle's outputs
 * when it records it (routing ahead); with sampling programmed (here a
 * counter with OVF_PMI that never overflows) it keeps occurrences by
 * source and routes them when it reports each cycle.  The same trace (a
 * loop of loads, stores, split accesses, SSE operations, a conditional
 * branch and a block run at CPL 0) runs with the same 17 counters
 * programmed, once as is and once with the 18th counter programmed with
 * OVF_PMI: the 17 counts must be identical, and they are pinned.  With two
 * logical processors (no routing ahead either way) the same, pinned too.
 *
 * The pinned values are the model's, not worked out by hand: they change
 * when the model's timing does (docs/netburst-model.md), and then both
 * runs must still agree.  With instruction timings from the timing table,
 * ADDSS and ADDPS wait for XMM0 (the XMM registers are dependences), ADDSS
 * takes its 0F2n 4 cycles and the FP adder holds each packed add 2 cycles:
 * the loop runs 57,701 cycles, and packed_SP_uop 2,214 and scalar_SP_uop
 * 1,457 wrong-path SSE uops reach a unit before their clear; no two scalar
 * SP uops issue in consecutive cycles, so the rising edges equal the
 * uops. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/emulated/netburst_pmu.h"
#include "sim/netburst/nbm_model.h"
#include "tests/unit/model_trace.h"
#include "traces/trace.h"

/* ---- The trace */

/* The loop body at 0x1000 (64-bit code). */
#define ADD_EAX_1 "\x83\xc0\x01", 3       /* add eax, 1 */
#define LOAD "\x8b\x06", 2                /* mov eax, [rsi] */
#define STORE "\x89\x07", 2               /* mov [rdi], eax */
#define ADDPS_MEM "\x0f\x58\x06", 3       /* addps xmm0, [rsi]: a load and a packed SP uop */
#define ADDSS "\xf3\x0f\x58\xc1", 4       /* addss xmm0, xmm1: a scalar SP uop */
#define JNZ_LOOP "\x75\xf0", 2            /* 0x100e: jnz 0x1000 */
#define JMP_KERNEL "\xe9\xeb\x7f\x00\x00", 5 /* 0x1010: jmp 0x9000 */
#define JMP_LOOP "\xe9\xf4\x7f\xff\xff", 5   /* 0x9007: jmp 0x1000 */

enum { ITERATIONS = 700 };

static void tb_cpl(struct tb *t, int cpl, uint64_t address, const char *bytes, int length,
                   enum trace_branch branch, uint64_t target, enum trace_access_kind kind,
                   uint64_t data, uint32_t size)
{
    struct trace_insn insn = tb_make(address, bytes, length, branch, target, kind, data, size);
    insn.cpl = (uint8_t)cpl;
    tb_write(t, &insn);
}

/* ITERATIONS of the loop body; every 7th leaves the loop (jnz not taken)
 * for a block at 0x9000 run at CPL 0 (a load and a store) and jumps back.
 * Loads stride 192 bytes over 256 KiB (L1 and some L2 misses), stores 64
 * bytes over 64 KiB; every 16th load and store crosses a 64-byte line.
 * `data` moves the data of a second logical processor elsewhere: 5,000
 * instructions or so. */
static void build_trace(struct tb *t, uint64_t data)
{
    tb_open(t);
    for (uint64_t i = 0; i < ITERATIONS; i++) {
        bool split = i % 16 == 15;
        uint64_t load = data + 0x100000 + (i * 192) % 0x40000 + (split ? 0x3e : 0);
        uint64_t store = data + 0x400000 + (i * 64) % 0x10000 + (split ? 0x3e : 0);
        uint64_t sse = data + 0x200000 + (i * 16) % 0x1000;
        bool leave = i % 7 == 6;
        tb_plain(t, 0x1000, ADD_EAX_1);
        tb_access(t, 0x1003, LOAD, TRACE_LOAD, load, 4);
        tb_access(t, 0x1005, STORE, TRACE_STORE, store, 4);
        tb_access(t, 0x1007, ADDPS_MEM, TRACE_LOAD, sse, 16);
        tb_plain(t, 0x100a, ADDSS);
        tb_branch(t, 0x100e, JNZ_LOOP, leave ? TRACE_BRANCH_NOT_TAKEN : TRACE_BRANCH_TAKEN,
                  leave ? 0 : 0x1000);
        if (!leave)
            continue;
        tb_branch(t, 0x1010, JMP_KERNEL, TRACE_BRANCH_TAKEN, 0x9000);
        tb_cpl(t, 0, 0x9000, ADD_EAX_1, TRACE_NOT_BRANCH, 0, 0, 0, 0);
        tb_cpl(t, 0, 0x9003, LOAD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, load + 0x80000, 4);
        tb_cpl(t, 0, 0x9005, STORE, TRACE_NOT_BRANCH, 0, TRACE_STORE, store + 0x80000, 4);
        tb_cpl(t, 0, 0x9007, JMP_LOOP, TRACE_BRANCH_TAKEN, 0x1000, 0, 0, 0);
    }
    tb_close(t);
}

/* ---- The counters */

#define OS ESCR_T0_OS
#define USR ESCR_T0_USR
#define BOTH (ESCR_T0_OS | ESCR_T0_USR)

/* A counter reading an ESCR programmed with an event, its sub-events
 * ('|'-separated) and T0 OS/USR bits (with two logical processors the T1
 * bits too), with extra CCCR bits. */
struct slot {
    int counter, escr;
    const char *event, *subevents;
    uint64_t threads, cccr;
};

/* The 17 counters, over every unit, a few counting at one privilege
 * level only, three reading an output another counter reads through a filter;
 * uop_type on RAT_ESCR0 (no counter) tags loads and stores at CPL 3 for
 * front_end_event.  Counter 17 is left for the sampling run. */
static const struct slot slots[] = {
    {0, NB_ESCR_BPU0, "BPU_fetch_request", "TCMISS", BOTH, 0},
    {1, NB_ESCR_FSB0, "global_power_events", "RUNNING", USR, 0},
    {2, NB_ESCR_ITLB1, "ITLB_reference", "HIT|MISS", BOTH, 0},
    {3, NB_ESCR_BSU1, "BSQ_cache_reference", "RD_2ndL_HITE|RD_2ndL_HITM|RD_2ndL_MISS", BOTH, 0},
    {4, NB_ESCR_MS0, "uop_queue_writes", "FROM_TC_BUILD|FROM_TC_DELIVER|FROM_ROM", BOTH, 0},
    {5, NB_ESCR_TBPU0, "retired_mispred_branch_type", "CONDITIONAL|CALL|RETURN|INDIRECT", BOTH,
     0},
    {6, NB_ESCR_TBPU1, "retired_branch_type", "CONDITIONAL|CALL|RETURN|INDIRECT", USR, 0},
    {7, NB_ESCR_TC1, "TC_deliver_mode", "DD|DB|DI|BD|BB|BI|ID|IB", BOTH, 0},
    {8, NB_ESCR_FIRM0, "packed_SP_uop", "ALL", BOTH, 0},
    {9, NB_ESCR_SAAT0, "memory_complete", "LSC|SSC", BOTH, 0},
    {10, NB_ESCR_FIRM1, "scalar_SP_uop", "ALL", BOTH, 0},
    /* the same output: rising edges of cycles with a scalar SP uop */
    {11, NB_ESCR_FIRM1, "scalar_SP_uop", "ALL", BOTH, CCCR_COMPARE | CCCR_EDGE},
    {12, NB_ESCR_CRU0, "instr_retired", "NBOGUSNTAG|NBOGUSTAG", BOTH, 0},
    {13, NB_ESCR_CRU2, "branch_retired", "MMNP|MMNM|MMTP|MMTM", BOTH, 0},
    {14, NB_ESCR_CRU1, "uops_retired", "NBOGUS", OS, 0},
    {15, NB_ESCR_CRU3, "front_end_event", "NBOGUS", BOTH, 0},
    /* counter 13's output through COMPLEMENT, threshold 0: cycles retiring no branch */
    {16, NB_ESCR_CRU2, "branch_retired", "MMNP|MMNM|MMTP|MMTM", BOTH,
     CCCR_COMPARE | CCCR_COMPLEMENT},
};
enum { N_SLOTS = sizeof slots / sizeof slots[0] };

/* The sampling run's 18th counter: front_end_event on CRU_ESCR3 again,
 * with OVF_PMI_T0, from 0: it counts as counter 15 and never overflows. */
static const struct slot sampler = {17, NB_ESCR_CRU3, "front_end_event", "NBOGUS", BOTH,
                                    CCCR_OVF_PMI_T0};

static void wr(struct nb_pmu *pmu, uint32_t msr, uint64_t value)
{
    assert_int_equal(nb_pmu_wrmsr(pmu, msr, value), MSR_OK);
}

static void program_slot(struct nb_pmu *pmu, const struct slot *s, bool ht)
{
    int e = nb_event_find(s->event);
    assert_true(e >= 0);
    assert_true(nb_event_table[e].escrs >> s->escr & 1);
    assert_true(nb_escrs[s->escr].counters >> s->counter & 1);
    /* T1_OS and T1_USR sit two bits below T0_OS and T0_USR */
    uint64_t threads = ht ? s->threads | s->threads >> 2 : s->threads;
    uint64_t escr = (uint64_t)nb_event_table[e].select << ESCR_EVENT_SELECT_SHIFT |
                    (uint64_t)tb_subevent_mask(e, s->subevents) << ESCR_EVENT_MASK_SHIFT |
                    threads;
    wr(pmu, nb_escrs[s->escr].msr, escr);
    wr(pmu, NB_CCCR_BASE + (uint32_t)s->counter,
       CCCR_ENABLE | (uint64_t)nb_escrs[s->escr].select << CCCR_ESCR_SELECT_SHIFT |
           CCCR_ACTIVE_THREAD_ANY | s->cccr);
}

/* Frees the run's backend and traces also when an assertion failed. */
static struct msr_backend *backend;
static struct tb traces[2];
static int n_traces;

static int teardown(void **state)
{
    (void)state;
    msr_backend_destroy(backend);
    backend = NULL;
    for (int i = 0; i < n_traces; i++)
        unlink(traces[i].path);
    n_traces = 0;
    return 0;
}

/* Runs the traces with the 17 counters, and the sampler if `sampling`;
 * their counts go to `counts` (the sampler's to counts[N_SLOTS]). */
static struct nbm_result run(int n, bool sampling, uint64_t counts[N_SLOTS + 1])
{
    char error[512];
    struct nbm_config config;
    assert_true(nbm_config_preset("northwood", &config, error, sizeof error));
    backend = nb_backend_create((struct nb_pmu_config){config.model, n == 2});
    assert_non_null(backend);
    struct nb_pmu *pmu = nb_backend_pmu(backend);
    /* front-end tagging: uop_type TAGLOADS|TAGSTORES at CPL 3, no counter */
    int uop_type = nb_event_find("uop_type");
    uint64_t tag_threads = n == 2 ? ESCR_T0_USR | ESCR_T1_USR : ESCR_T0_USR;
    wr(pmu, nb_escrs[NB_ESCR_RAT0].msr,
       (uint64_t)nb_event_table[uop_type].select << ESCR_EVENT_SELECT_SHIFT |
           (uint64_t)tb_subevent_mask(uop_type, "TAGLOADS|TAGSTORES")
               << ESCR_EVENT_MASK_SHIFT |
           tag_threads);
    for (int i = 0; i < N_SLOTS; i++)
        program_slot(pmu, &slots[i], n == 2);
    if (sampling)
        program_slot(pmu, &sampler, n == 2);
    const char *paths[2] = {traces[0].path, traces[1].path};
    struct nbm_result result;
    if (!nbm_simulate(paths, n, &config, backend, NULL, &result, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(nb_pmu_cycles(pmu), result.cycles);
    for (int i = 0; i < N_SLOTS; i++)
        counts[i] = nb_pmu_counter(pmu, slots[i].counter);
    counts[N_SLOTS] = nb_pmu_counter(pmu, sampler.counter);
    /* nothing overflowed: no PMI waits, no counter's OVF is set */
    uint64_t since;
    assert_false(nb_pmu_pending_pmi(pmu, 0, &since));
    assert_false(nb_pmu_pending_pmi(pmu, 1, &since));
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        uint64_t cccr = 0;
        assert_int_equal(nb_pmu_rdmsr(pmu, NB_CCCR_BASE + (uint32_t)c, &cccr), MSR_OK);
        assert_false(cccr & CCCR_OVF);
    }
    msr_backend_destroy(backend);
    backend = NULL;
    return result;
}

/* Both runs of `n` traces: the same cycles, instructions and 17 counts
 * (printed, for re-pinning), which must equal `want`; the sampler counts
 * as counter 15 and nothing without sampling. */
static void compare_runs(int n, const uint64_t want[N_SLOTS], uint64_t want_cycles)
{
    uint64_t plain[N_SLOTS + 1], sampled[N_SLOTS + 1];
    struct nbm_result a = run(n, false, plain);
    struct nbm_result b = run(n, true, sampled);
    print_message("%d logical processor(s): cycles %" PRIu64 ", instructions %" PRIu64
                  " + %" PRIu64 "\n",
                  n, a.cycles, a.instructions[0], a.instructions[1]);
    for (int i = 0; i < N_SLOTS; i++)
        print_message("  counter %2d %-28s %-10s %" PRIu64 " / %" PRIu64 "\n", slots[i].counter,
                      slots[i].event, slots[i].subevents, plain[i], sampled[i]);
    assert_int_equal(a.cycles, b.cycles);
    for (int t = 0; t < 2; t++) {
        assert_int_equal(a.instructions[t], b.instructions[t]);
        assert_int_equal(a.uops[t], b.uops[t]);
    }
    for (int i = 0; i < N_SLOTS; i++)
        if (plain[i] != sampled[i])
            fail_msg("counter %d (%s:%s): %" PRIu64 " routed ahead, %" PRIu64
                     " routed when reported",
                     slots[i].counter, slots[i].event, slots[i].subevents, plain[i], sampled[i]);
    assert_int_equal(plain[N_SLOTS], 0);
    assert_int_equal(sampled[N_SLOTS], sampled[15]);
    assert_int_equal(a.cycles, want_cycles);
    for (int i = 0; i < N_SLOTS; i++)
        if (plain[i] != want[i])
            fail_msg("counter %d (%s:%s): %" PRIu64 ", pinned %" PRIu64, slots[i].counter,
                     slots[i].event, slots[i].subevents, plain[i], want[i]);
}

static void test_one_thread_routed_ahead_or_at_report(void **state)
{
    (void)state;
    build_trace(&traces[0], 0);
    n_traces = 1;
    /* 4,700 instructions: 700 iterations of 6, 100 of them leaving for
     * the CPL 0 block (5 more: add, load, store, jmp; 5 uops); 900
     * branches (700 jnz, 200 jmp), 100 mispredicted; 2,100
     * loads and store addresses tagged at CPL 3; 98 split accesses (43
     * iterations' load and store, 6 of the CPL 0 block's); counter 16 is
     * the cycles less the 900 with a branch. */
    static const uint64_t want[N_SLOTS] = {
        4,     /*  0 BPU_fetch_request TCMISS */
        56842, /*  1 global_power_events RUNNING, CPL 3 */
        3,     /*  2 ITLB_reference */
        1483,  /*  3 BSQ_cache_reference */
        18174, /*  4 uop_queue_writes */
        100,   /*  5 retired_mispred_branch_type */
        700,   /*  6 retired_branch_type, CPL 3: the jnz */
        57701, /*  7 TC_deliver_mode: every cycle */
        2214,  /*  8 packed_SP_uop (wrong-path uops too) */
        98,    /*  9 memory_complete LSC|SSC */
        1457,  /* 10 scalar_SP_uop */
        1457,  /* 11 its rising edges */
        4700,  /* 12 instr_retired */
        900,   /* 13 branch_retired */
        500,   /* 14 uops_retired, CPL 0 */
        2100,  /* 15 front_end_event NBOGUS */
        56801, /* 16 cycles without a retired branch */
    };
    compare_runs(1, want, 57701);
}

static void test_two_threads_with_or_without_sampling(void **state)
{
    (void)state;
    build_trace(&traces[0], 0);
    n_traces = 1;
    build_trace(&traces[1], 0x1000000);
    n_traces = 2;
    /* Twice the retirement counts of one thread; the rest from the
     * threads' sharing of the core. */
    static const uint64_t want[N_SLOTS] = {
        8,      /*  0 BPU_fetch_request TCMISS */
        183374, /*  1 global_power_events RUNNING, CPL 3, both threads */
        6,      /*  2 ITLB_reference */
        2966,   /*  3 BSQ_cache_reference */
        23157,  /*  4 uop_queue_writes */
        200,    /*  5 retired_mispred_branch_type */
        1400,   /*  6 retired_branch_type, CPL 3 */
        92758,  /*  7 TC_deliver_mode: every cycle */
        3424,   /*  8 packed_SP_uop */
        196,    /*  9 memory_complete LSC|SSC */
        2415,   /* 10 scalar_SP_uop */
        2415,   /* 11 its rising edges */
        9400,   /* 12 instr_retired */
        1800,   /* 13 branch_retired */
        1000,   /* 14 uops_retired, CPL 0 */
        4200,   /* 15 front_end_event NBOGUS */
        90958,  /* 16 cycles without a retired branch */
    };
    compare_runs(2, want, 92758);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_one_thread_routed_ahead_or_at_report, teardown),
        cmocka_unit_test_teardown(test_two_threads_with_or_without_sampling, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
