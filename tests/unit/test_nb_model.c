/* The NetBurst timing model (sim/netburst): tiny traces written with
 * trace_writer, counted by the emulated PMU programmed through its MSRs;
 * every expected count is worked out by hand from docs/netburst-model.md's
 * rules. */
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

#include "isa/x86.h"
#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/emulated/netburst_pmu.h"
#include "sim/netburst/nbm_model.h"
#include "tests/unit/model_trace.h"
#include "traces/trace.h"

#define ADD_EAX_1 "\x83\xc0\x01", 3   /* 1 uop, fast ALU */
#define LOAD "\x8b\x06", 2            /* mov eax, [rsi]: 1 uop */
#define STORE "\x89\x07", 2           /* mov [rdi], eax: 2 uops */
#define FADD "\xd8\xc1", 2            /* fadd st, st(1) */
#define FLD "\xd9\x06", 2             /* fld dword [rsi] */
#define CPUID "\x0f\xa2", 2           /* microcode ROM, 5 uops */
#define NOP "\x90", 1
#define ADDPS_MEM "\x0f\x58\x06", 3      /* addps xmm0, [rsi]: load + packed SP */
#define ADDPD "\x66\x0f\x58\xc1", 4     /* addpd xmm0, xmm1 */
#define ADDSS "\xf3\x0f\x58\xc1", 4     /* addss xmm0, xmm1 */
#define ADDSD "\xf2\x0f\x58\xc1", 4     /* addsd xmm0, xmm1 */
#define PADDD_MM "\x0f\xfe\xc1", 3       /* paddd mm0, mm1: 64-bit MMX */
#define PADDD_XMM "\x66\x0f\xfe\xc1", 4 /* paddd xmm0, xmm1: 128-bit integer SIMD */

/* ---- the PMU, programmed by ESCR and CCCR writes */

struct request {
    const char *event;
    const char *subevents; /* '|'-separated */
};

/* Puts the request on a free ESCR and a free counter behind it: ESCR
 * T0_OS|T0_USR, CCCR ENABLE with ACTIVE_THREAD 11 (the Pentium 4 monitoring study, section 9.1). */
static int program_one(struct nb_pmu *pmu, const struct request *r, uint64_t *escrs_used,
                       uint32_t *counters_used)
{
    int e = nb_event_find(r->event);
    assert_true(e >= 0);
    const struct nb_event_info *event = &nb_event_table[e];
    for (int x = 0; x < NB_NUM_ESCRS; x++) {
        if (!(event->escrs >> x & 1) || (*escrs_used >> x & 1))
            continue;
        uint32_t free_counters = nb_escrs[x].counters & ~*counters_used;
        if (!free_counters)
            continue;
        int c = __builtin_ctz(free_counters);
        uint64_t escr = (uint64_t)event->select << 25 | (uint64_t)tb_subevent_mask(e, r->subevents) << 9 |
                        0xc;
        uint64_t cccr = 1u << 12 | (uint64_t)nb_escrs[x].select << 13 | 3u << 16;
        assert_int_equal(nb_pmu_wrmsr(pmu, nb_escrs[x].msr, escr), MSR_OK);
        assert_int_equal(nb_pmu_wrmsr(pmu, NB_CCCR_BASE + (uint32_t)c, cccr), MSR_OK);
        *escrs_used |= 1ull << x;
        *counters_used |= 1u << c;
        return c;
    }
    fail_msg("no free ESCR and counter for %s", r->event);
    return -1;
}

/* Simulates the trace with the PMU counting `request` (none: NULL). */
static uint64_t simulate_counting(const char *path, const struct nbm_config *config,
                                  const struct request *request, struct nbm_result *result)
{
    char error[512];
    struct msr_backend *backend = nb_backend_create((struct nb_pmu_config){config->model, false});
    assert_non_null(backend);
    struct nb_pmu *pmu = nb_backend_pmu(backend);
    uint64_t escrs = 0;
    uint32_t counters = 0;
    int counter = request ? program_one(pmu, request, &escrs, &counters) : 0;
    const char *traces[] = {path};
    if (!nbm_simulate(traces, 1, config, backend, NULL, result, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(nb_pmu_cycles(pmu), result->cycles);
    uint64_t count = request ? nb_pmu_counter(pmu, counter) : 0;
    msr_backend_destroy(backend);
    return count;
}

static struct nbm_config preset(const char *name)
{
    struct nbm_config config;
    char error[256];
    assert_true(nbm_config_preset(name, &config, error, sizeof error));
    return config;
}

/* An expected count: the run's cycles. */
#define EVERY_CYCLE UINT64_MAX

/* An event, its sub-events ('|'-separated) and the count a trace gives it. */
struct expected_count {
    const char *event;
    const char *subevents;
    uint64_t count;
};

/* Simulates the trace on the northwood preset once, then once for each
 * expected count (a unit's ESCRs could not take them all at once), and
 * checks the count and that every run takes the same cycles. */
static struct nbm_result expect_counts(const char *path, const struct expected_count *expected,
                                       int n)
{
    struct nbm_config config = preset("northwood");
    struct nbm_result result;
    simulate_counting(path, &config, NULL, &result);
    for (int i = 0; i < n; i++) {
        const struct expected_count *e = &expected[i];
        const struct request request = {e->event, e->subevents};
        struct nbm_result again;
        uint64_t count = simulate_counting(path, &config, &request, &again);
        assert_int_equal(again.cycles, result.cycles);
        uint64_t want = e->count == EVERY_CYCLE ? result.cycles : e->count;
        if (count != want)
            fail_msg("%s:%s counted %" PRIu64 ", expected %" PRIu64, e->event, e->subevents,
                     count, want);
    }
    return result;
}

/* One event's count on the northwood preset. */
static uint64_t count_of(const char *path, const char *event, const char *subevents)
{
    struct nbm_config config = preset("northwood");
    const struct request request = {event, subevents};
    struct nbm_result result;
    return simulate_counting(path, &config, &request, &result);
}

/* The backward branch: a BTB miss predicted taken by the static rule
 * (MMTP), then taken by its counter 8 times (MMTP), then the exit,
 * predicted taken and not taken (MMNM). */
static void test_loop_retirement(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_loop(&t, 10);
    tb_close(&t);
    static const struct expected_count expected[] = {
        {"instr_retired", "NBOGUSNTAG", 30},
        {"uops_retired", "NBOGUS", 30},
        {"branch_retired", "MMTP", 9},
        {"branch_retired", "MMNM", 1},
        {"branch_retired", "MMNP|MMTM", 0},
        {"mispred_branch_retired", "NBOGUS", 1},
        {"retired_branch_type", "CONDITIONAL", 10},
        {"retired_mispred_branch_type", "CONDITIONAL", 1},
        {"global_power_events", "RUNNING", EVERY_CYCLE},
    };
    struct nbm_result result = expect_counts(t.path, expected, 9);
    assert_int_equal(result.instructions[0], 30);
    assert_int_equal(result.uops[0], 30);
    assert_int_equal(result.mispredicts, 1);
    assert_true(result.cycles > 30 / 3);
    unlink(t.path);
}

/* One trace line (0x1000: add, dec, jnz), built once then delivered: one
 * TC miss, 3 uops from build mode and 27 from deliver mode; the build
 * reads one code chunk: one ITLB miss and walk, one L2 read miss.  Every
 * cycle is in deliver or build mode (no ROM). */
static void test_loop_front_end(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_loop(&t, 10);
    tb_close(&t);
    static const struct expected_count expected[] = {
        {"BPU_fetch_request", "TCMISS", 1},
        {"uop_queue_writes", "FROM_TC_BUILD", 3},
        {"uop_queue_writes", "FROM_TC_DELIVER", 27},
        {"uop_queue_writes", "FROM_ROM", 0},
        {"ITLB_reference", "MISS", 1},
        {"page_walk_type", "ITMISS", 1},
        {"BSQ_cache_reference", "RD_2ndL_MISS", 1},
        {"TC_deliver_mode", "DI|BI", EVERY_CYCLE},
        {"tc_ms_xfer", "CISC", 0},
    };
    expect_counts(t.path, expected, 9);
    unlink(t.path);
}

/* Two trace lines: 7 single-uop instructions, the line of 6 is full and
 * the seventh starts another; looped twice: 2 misses, then 2 hits. */
static void test_trace_lines(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < 6; i++)
            tb_plain(&t, 0x2000 + (uint64_t)i, NOP);
        tb_branch(&t, 0x2006, "\xeb\xf8", 2, TRACE_BRANCH_TAKEN, 0x2000); /* jmp 0x2000 */
    }
    tb_close(&t);
    static const struct expected_count expected[] = {
        {"BPU_fetch_request", "TCMISS", 2},
        {"uop_queue_writes", "FROM_TC_BUILD", 7},
        {"uop_queue_writes", "FROM_TC_DELIVER", 7},
        {"branch_retired", "MMTP", 2}, /* a direct jump: static taken, then the BTB */
    };
    expect_counts(t.path, expected, 4);
    unlink(t.path);
}

/* The ITLB: code on two pages, then a second chunk of the second page. */
static void test_itlb_per_page(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, 0x1ffe, NOP);
    tb_plain(&t, 0x1fff, NOP);
    tb_plain(&t, 0x2000, NOP);
    tb_plain(&t, 0x2040, NOP);
    tb_close(&t);
    static const struct expected_count expected[] = {
        {"ITLB_reference", "MISS", 2},
        {"ITLB_reference", "HIT", 1},
        {"page_walk_type", "ITMISS", 2},
        {"page_walk_type", "DTMISS", 0},
    };
    expect_counts(t.path, expected, 4);
    unlink(t.path);
}

/* Loads and the L2: the code chunk and 0x10000 miss the L2; 0x10008 hits
 * the L1; 0x10040 is the other sector of the same 128-byte L2 line (L1
 * miss, L2 hit, exclusive); a store to 0x20000 reads it for ownership (an
 * L2 miss) and makes it modified, so a load of 0x20040 hits it modified. */
static void test_l2_references(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_access(&t, 0x1000, LOAD, TRACE_LOAD, 0x10000, 4);
    tb_access(&t, 0x1002, LOAD, TRACE_LOAD, 0x10008, 4);
    tb_access(&t, 0x1004, LOAD, TRACE_LOAD, 0x10040, 4);
    tb_access(&t, 0x1006, STORE, TRACE_STORE, 0x20000, 4);
    tb_access(&t, 0x1008, LOAD, TRACE_LOAD, 0x20040, 4);
    tb_close(&t);
    static const struct expected_count expected[] = {
        {"BSQ_cache_reference", "RD_2ndL_MISS", 3},
        {"BSQ_cache_reference", "RD_2ndL_HITE", 1},
        {"BSQ_cache_reference", "RD_2ndL_HITM", 1},
        {"BSQ_allocation", "REQ_LEN0", 6}, /* 2 sectors per miss */
        {"IOQ_allocation", "ALL_READ", 6},
        {"FSB_data_activity", "DRDY_OWN", 6},
        {"page_walk_type", "DTMISS", 2},   /* pages 0x10 and 0x20 */
        {"uops_retired", "NBOGUS", 6},
    };
    expect_counts(t.path, expected, 8);
    unlink(t.path);
}

/* Accesses across a 64-byte line: a load and a store. */
static void test_split_accesses(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_access(&t, 0x1000, LOAD, TRACE_LOAD, 0x1003e, 4);
    tb_access(&t, 0x1002, LOAD, TRACE_LOAD, 0x1003c, 4);
    tb_access(&t, 0x1004, STORE, TRACE_STORE, 0x3007f, 2);
    tb_close(&t);
    static const struct expected_count expected[] = {
        {"load_port_replay", "SPLIT_LD", 1},
        {"memory_complete", "LSC", 1},
        {"store_port_replay", "SPLIT_ST", 1},
        {"memory_complete", "SSC", 1},
    };
    expect_counts(t.path, expected, 4);
    unlink(t.path);
}

/* Store-to-load forwarding (the Pentium 4 monitoring study, section 5.3.3): a load of the stored bytes is
 * forwarded; one starting elsewhere inside them, and one wider than the
 * store, are replayed by the MOB. */
static void test_store_forwarding(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_access(&t, 0x1000, STORE, TRACE_STORE, 0x30000, 4);
    tb_access(&t, 0x1002, LOAD, TRACE_LOAD, 0x30000, 4);
    tb_access(&t, 0x1004, LOAD, TRACE_LOAD, 0x30002, 4);
    tb_access(&t, 0x1006, LOAD, TRACE_LOAD, 0x30000, 8);
    tb_close(&t);
    /* L2 misses: the code chunk and the store's read for ownership.  The
     * forwarded load reads no cache; the L1 does not allocate on a store,
     * so the first replayed load misses it and hits the modified L2 line,
     * and the second hits the L1. */
    static const struct expected_count expected[] = {
        {"MOB_load_replay", "PARTIAL_DATA", 1},
        {"MOB_load_replay", "UNALGN_ADDR", 1},
        {"BSQ_cache_reference", "RD_2ndL_MISS", 2},
        {"BSQ_cache_reference", "RD_2ndL_HITM", 1},
    };
    expect_counts(t.path, expected, 4);
    unlink(t.path);
}

/* The store buffer's search finds a store a load overlaps whatever lines
 * they share (sim/netburst/nbm_memory.c keeps a count of the stores by
 * line to skip the search when there can be none): a load in the second
 * line of a split store, a split load whose second line holds a store, a
 * load inside a 256-byte store (more than two lines), each replayed by
 * the MOB; a load beside a store in its line, and one into lines no store
 * touches, are not. */
static void test_store_buffer_search(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_access(&t, 0x1000, STORE, TRACE_STORE, 0x5103e, 4);
    tb_access(&t, 0x1002, LOAD, TRACE_LOAD, 0x51040, 2);
    tb_access(&t, 0x1004, STORE, TRACE_STORE, 0x72040, 4);
    tb_access(&t, 0x1006, LOAD, TRACE_LOAD, 0x7203e, 4);
    tb_access(&t, 0x1008, STORE, TRACE_STORE, 0x93000, 4);
    tb_access(&t, 0x100a, LOAD, TRACE_LOAD, 0x93004, 4);
    tb_access(&t, 0x100c, LOAD, TRACE_LOAD, 0xb4000, 4);
    /* last: while it is in the buffer no load skips the search */
    tb_access(&t, 0x100e, STORE, TRACE_STORE, 0x30000, 256);
    tb_access(&t, 0x1010, LOAD, TRACE_LOAD, 0x30080, 4);
    tb_close(&t);
    static const struct expected_count expected[] = {
        {"MOB_load_replay", "UNALGN_ADDR", 3},
        {"MOB_load_replay", "PARTIAL_DATA", 0},
        {"MOB_load_replay", "NO_STD", 0},
    };
    expect_counts(t.path, expected, 3);
    unlink(t.path);
}

/* A load missing the L1, and an add of its result: the add was scheduled
 * for an L1 hit and is replayed once. */
static void test_replay(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_access(&t, 0x1000, LOAD, TRACE_LOAD, 0x40000, 4);
    tb_plain(&t, 0x1002, ADD_EAX_1);
    tb_access(&t, 0x1005, LOAD, TRACE_LOAD, 0x40004, 4);
    tb_plain(&t, 0x1007, ADD_EAX_1);
    tb_close(&t);
    struct nbm_result result = expect_counts(t.path, NULL, 0);
    assert_int_equal(result.replays, 1); /* the second load hits */
    unlink(t.path);
}

/* x87: three FADDs are x87 uops; FLD from memory is an x87/SIMD load (port 2). */
static void test_x87_uops(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_access(&t, 0x1000, FLD, TRACE_LOAD, 0x50000, 4);
    for (int i = 0; i < 3; i++)
        tb_plain(&t, 0x1002 + 2 * (uint64_t)i, FADD);
    tb_close(&t);
    static const struct expected_count expected[] = {
        {"x87_FP_uop", "ALL", 3},
        {"x87_SIMD_moves_uop", "ALLP2", 1},
        {"x87_SIMD_moves_uop", "ALLP0", 0},
        {"scalar_SP_uop", "ALL", 0},
    };
    expect_counts(t.path, expected, 4);
    unlink(t.path);
}

/* SSE, SSE2 and MMX: each computing uop counts in its format's event
 * only (a different number of each); addps's load is an x87/SIMD load. */
static void test_simd_uops(void **state)
{
    (void)state;
    static const struct {
        const char *bytes;
        int length, n;
    } code[] = {{ADDPS_MEM, 1}, {ADDPD, 2}, {ADDSS, 3}, {ADDSD, 4}, {PADDD_MM, 5},
                {PADDD_XMM, 6}};
    struct tb t;
    tb_open(&t);
    uint64_t at = 0x1000;
    for (size_t i = 0; i < sizeof code / sizeof code[0]; i++)
        for (int k = 0; k < code[i].n; k++, at += (uint64_t)code[i].length)
            tb_insn(&t, at, code[i].bytes, code[i].length, TRACE_NOT_BRANCH, 0,
                    i == 0 ? TRACE_LOAD : 0, 0x50000, 16);
    tb_close(&t);
    static const struct expected_count expected[] = {
        {"packed_SP_uop", "ALL", 1},
        {"packed_DP_uop", "ALL", 2},
        {"scalar_SP_uop", "ALL", 3},
        {"scalar_DP_uop", "ALL", 4},
        {"64bit_MMX_uop", "ALL", 5},
        {"128bit_MMX_uop", "ALL", 6},
        {"x87_FP_uop", "ALL", 0},
        {"x87_SIMD_moves_uop", "ALLP2", 1},
        {"x87_SIMD_moves_uop", "ALLP0", 0},
        {"uops_retired", "NBOGUS", 22},
    };
    expect_counts(t.path, expected, 10);
    unlink(t.path);
}

/* CPUID comes from the microcode ROM: 5 uops, a transfer there and back. */
static void test_microcode_rom(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, 0x1000, NOP);
    tb_plain(&t, 0x1001, CPUID);
    tb_plain(&t, 0x1003, NOP);
    tb_close(&t);
    static const struct expected_count expected[] = {
        {"tc_ms_xfer", "CISC", 2},
        {"uop_queue_writes", "FROM_ROM", 5},
        {"uop_queue_writes", "FROM_TC_BUILD", 2},
        {"uops_retired", "NBOGUS", 7},
        {"global_power_events", "RUNNING", EVERY_CYCLE},
    };
    struct nbm_result result = expect_counts(t.path, expected, 5);
    /* The ROM's cycles are in neither mode: 5 uops, 3 a cycle. */
    assert_int_equal(result.cycles - count_of(t.path, "TC_deliver_mode", "DI|BI"), 2);
    unlink(t.path);
}

/* call, ret (predicted by the return stack), then an indirect jump missing
 * the BTB (mispredicted). */
static void test_branch_types(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_insn(&t, 0x1000, "\xe8\xfb\x0f\x00\x00", 5, TRACE_BRANCH_TAKEN, 0x2000, TRACE_STORE,
            0x7ff8, 8);
    tb_insn(&t, 0x2000, "\xc3", 1, TRACE_BRANCH_TAKEN, 0x1005, TRACE_LOAD, 0x7ff8, 8);
    tb_branch(&t, 0x1005, "\xff\xe0", 2, TRACE_BRANCH_TAKEN, 0x3000);
    tb_plain(&t, 0x3000, NOP);
    tb_close(&t);
    static const struct expected_count expected[] = {
        {"retired_branch_type", "CALL", 1},
        {"retired_branch_type", "RETURN", 1},
        {"retired_branch_type", "INDIRECT", 2}, /* the return and the indirect jump */
        {"retired_mispred_branch_type", "INDIRECT", 1},
        {"branch_retired", "MMTP", 2},
        {"branch_retired", "MMTM", 1},
        {"mispred_branch_retired", "NBOGUS", 1},
        {"uops_retired", "NBOGUS", 3 + 2 + 1 + 1},
    };
    expect_counts(t.path, expected, 8);
    unlink(t.path);
}

/* Kernel-mode instructions count only with T0_OS: the same loop at CPL 0
 * counted by a USR-only ESCR gives 0. */
static void test_privilege_levels(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    struct trace_insn insn;
    memset(&insn, 0, sizeof insn);
    insn.address = 0x1000;
    insn.length = 1;
    insn.has_bytes = true;
    insn.bytes[0] = 0x90;
    insn.cpl = 0;
    assert_true(trace_write_insn(t.writer, &insn));
    tb_plain(&t, 0x1001, NOP);
    tb_close(&t);

    char error[512];
    struct nbm_config config = preset("northwood");
    struct msr_backend *backend = nb_backend_create((struct nb_pmu_config){2, false});
    struct nb_pmu *pmu = nb_backend_pmu(backend);
    /* instr_retired NBOGUSNTAG, T0_USR only, on CRU_ESCR0 and counter 12. */
    assert_int_equal(nb_pmu_wrmsr(pmu, 0x3b8, 0x04000204), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(pmu, NB_CCCR_BASE + 12, 0x00039000), MSR_OK);
    struct nbm_result result;
    const char *traces[] = {t.path};
    if (!nbm_simulate(traces, 1, &config, backend, NULL, &result, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(nb_pmu_counter(pmu, 12), 1);
    assert_int_equal(result.instructions[0], 2);
    msr_backend_destroy(backend);
    unlink(t.path);
}

/* ---- region markers: the hook starts and stops counter 12 */

struct regions {
    struct nb_pmu *pmu;
    int calls;
};

static void on_region(void *context, int thread, bool begin, uint32_t region)
{
    struct regions *r = context;
    assert_int_equal(thread, 0);
    assert_int_equal(region, 7);
    r->calls++;
    assert_int_equal(nb_pmu_wrmsr(r->pmu, NB_CCCR_BASE + 12, begin ? 0x00039000 : 0x00038000),
                     MSR_OK);
}

/* Runs `path` on Northwood with counter 12 counting instr_retired
 * (CRU ESCR0) started and stopped by region 7's hooks; its count. */
static uint64_t run_region_hooks(const char *path, struct nbm_result *result)
{
    char error[512];
    struct nbm_config config = preset("northwood");
    struct msr_backend *backend = nb_backend_create((struct nb_pmu_config){2, false});
    struct nb_pmu *pmu = nb_backend_pmu(backend);
    assert_int_equal(nb_pmu_wrmsr(pmu, 0x3b8, 0x0400020c), MSR_OK);
    struct regions regions = {pmu, 0};
    struct nbm_hooks hooks = {.region = on_region, .context = &regions};
    const char *traces[] = {path};
    if (!nbm_simulate(traces, 1, &config, backend, &hooks, result, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(regions.calls, 2);
    uint64_t count = nb_pmu_counter(pmu, 12);
    msr_backend_destroy(backend);
    return count;
}

static void test_region_hooks(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, 0x1000, NOP);
    assert_true(trace_write_region(t.writer, true, 7));
    tb_loop(&t, 4);
    assert_true(trace_write_region(t.writer, false, 7));
    tb_plain(&t, 0x1007, NOP);
    tb_close(&t);
    struct nbm_result result;
    assert_int_equal(run_region_hooks(t.path, &result), 12); /* exactly the loop's instructions */
    assert_int_equal(result.regions, 2);
    unlink(t.path);
}

/* A marker right after a mispredicted branch, with no store in flight:
 * the hook is called once, at the drain.  (tests/cli_stat.sh's recorded
 * regions trace is where a pending hook that drained again on every step,
 * one cycle further each time, never caught up.) */
static void test_region_after_mispredict(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, 0x1000, NOP);
    tb_loop(&t, 3); /* its exit mispredicted: the loop was taken twice */
    assert_true(trace_write_region(t.writer, true, 7));
    tb_plain(&t, 0x1007, NOP);
    assert_true(trace_write_region(t.writer, false, 7));
    tb_plain(&t, 0x1008, NOP);
    tb_close(&t);
    struct nbm_result result;
    assert_int_equal(run_region_hooks(t.path, &result), 1); /* the one NOP */
    assert_true(result.mispredicts >= 1);
    assert_true(result.cycles < 1000);
    unlink(t.path);
}

static uint64_t cycles_of(const char *path, const char *preset_name)
{
    struct nbm_config config = preset(preset_name);
    struct nbm_result result;
    simulate_counting(path, &config, NULL, &result);
    return result.cycles;
}

/* The add/dec/jnz loop in steady state.  Its 3-uop line is delivered in
 * one cycle (each line starts a cycle) and 3 uops retire a cycle.  DEC
 * leaves CF alone, so it waits for the ADD's flags (docs/netburst-model.md,
 * "Instructions"), and JNZ for DEC's.  On Willamette and Northwood (ADD
 * half a cycle, DEC one) the two double-speed ALUs keep up: one iteration
 * a cycle, 200 more iterations take 200 more cycles.  On Prescott ADD
 * takes a cycle too: ADD, DEC and JNZ each a cycle after the other, so
 * each cycle the ADD, DEC and JNZ of three successive iterations want the
 * same half cycle; the two ALUs take two (JNZ only ALU 0), and the third
 * slips half a cycle every other iteration: 5 half cycles per 2
 * iterations, 250 cycles for 200. */
static void test_loop_cycles_per_iteration(void **state)
{
    (void)state;
    struct tb short_loop, long_loop;
    tb_open(&short_loop);
    tb_loop(&short_loop, 200);
    tb_close(&short_loop);
    tb_open(&long_loop);
    tb_loop(&long_loop, 400);
    tb_close(&long_loop);
    const struct {
        const char *name;
        uint64_t cycles;
    } presets[] = {{"willamette", 200}, {"northwood", 200}, {"prescott", 250}};
    for (int i = 0; i < 3; i++)
        assert_int_equal(cycles_of(long_loop.path, presets[i].name) -
                             cycles_of(short_loop.path, presets[i].name),
                         presets[i].cycles);
    unlink(short_loop.path);
    unlink(long_loop.path);
}

/* Dependent FADDs (FADD ST(0), ST(1): through ST(0)) take Northwood's 5
 * cycles each (Intel's 0F2n row; Sprunt 2002 measured the same): a loop
 * of 5 FADDs and a jump takes 25 cycles an iteration. */
static void write_fadd_loop(struct tb *t, int iterations)
{
    for (int i = 0; i < iterations; i++) {
        for (int k = 0; k < 5; k++)
            tb_plain(t, 0x1000 + 2 * (uint64_t)k, FADD);
        tb_branch(t, 0x100a, "\xeb\xf4", 2, TRACE_BRANCH_TAKEN, 0x1000);
    }
}

static void test_fp_add_latency(void **state)
{
    (void)state;
    struct tb short_loop, long_loop;
    tb_open(&short_loop);
    write_fadd_loop(&short_loop, 40);
    tb_close(&short_loop);
    tb_open(&long_loop);
    write_fadd_loop(&long_loop, 80);
    tb_close(&long_loop);
    assert_int_equal(cycles_of(long_loop.path, "northwood") - cycles_of(short_loop.path, "northwood"),
                     40 * 25);
    unlink(short_loop.path);
    unlink(long_loop.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_retirement),
        cmocka_unit_test(test_loop_front_end),
        cmocka_unit_test(test_trace_lines),
        cmocka_unit_test(test_itlb_per_page),
        cmocka_unit_test(test_l2_references),
        cmocka_unit_test(test_split_accesses),
        cmocka_unit_test(test_store_forwarding),
        cmocka_unit_test(test_store_buffer_search),
        cmocka_unit_test(test_replay),
        cmocka_unit_test(test_x87_uops),
        cmocka_unit_test(test_simd_uops),
        cmocka_unit_test(test_microcode_rom),
        cmocka_unit_test(test_branch_types),
        cmocka_unit_test(test_privilege_levels),
        cmocka_unit_test(test_region_hooks),
        cmocka_unit_test(test_region_after_mispredict),
        cmocka_unit_test(test_loop_cycles_per_iteration),
        cmocka_unit_test(test_fp_add_latency),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    x86_decode_release();
    return failed;
}
