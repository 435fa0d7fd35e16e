/* The NetBurst timing model (sim/netburst): tiny traces written with
 * trace_writer, counted by the emulated PMU programmed through its MSRs;
 * every expected count is worked out by hand from docs/netburst-model.md's
 * rules. */
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
#include "pmu/netburst_events.h"
#include "pmu/netburst_msrs.h"
#include "pmu/netburst_pmu.h"
#include "sim/netburst/nb_model.h"
#include "traces/trace.h"

/* ---- a trace in a temporary file */

struct tb {
    char path[64];
    FILE *out;
    struct trace_writer *writer;
};

static void tb_open(struct tb *t)
{
    char error[256];
    strcpy(t->path, "/tmp/test_nb_model_XXXXXX");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    t->out = fdopen(fd, "wb");
    assert_non_null(t->out);
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true};
    strcpy(header.recorder, "test_nb_model");
    t->writer = trace_writer_open(t->out, &header, error, sizeof error);
    assert_non_null(t->writer);
}

static void tb_close(struct tb *t)
{
    struct trace_end end = {trace_writer_instructions(t->writer), TRACE_EXITED, 0};
    assert_true(trace_write_end(t->writer, &end));
    assert_true(trace_writer_close(t->writer));
    assert_int_equal(fclose(t->out), 0);
}

/* An instruction with its bytes and at most one data access (kind 0: none). */
static void tb_insn(struct tb *t, uint64_t address, const char *bytes, int length,
                    enum trace_branch branch, uint64_t target, enum trace_access_kind kind,
                    uint64_t data, uint32_t size)
{
    struct trace_insn insn;
    memset(&insn, 0, sizeof insn);
    insn.address = address;
    insn.length = (uint8_t)length;
    insn.has_bytes = true;
    memcpy(insn.bytes, bytes, (size_t)length);
    insn.cpl = 3;
    insn.branch = branch;
    insn.target = target;
    if (kind) {
        insn.n_accesses = 1;
        insn.accesses[0] = (struct trace_access){kind, size, data};
    }
    assert_true(trace_write_insn(t->writer, &insn));
}

static void tb_plain(struct tb *t, uint64_t address, const char *bytes, int length)
{
    tb_insn(t, address, bytes, length, TRACE_NOT_BRANCH, 0, 0, 0, 0);
}

#define ADD_EAX_1 "\x83\xc0\x01", 3   /* 1 uop, fast ALU */
#define DEC_ECX "\xff\xc9", 2
#define JNZ_BACK7 "\x75\xf9", 2       /* jnz .-5: back to 7 bytes before its end */
#define LOAD "\x8b\x06", 2            /* mov eax, [rsi]: 1 uop */
#define STORE "\x89\x07", 2           /* mov [rdi], eax: 2 uops */
#define FADD "\xd8\xc1", 2            /* fadd st, st(1) */
#define FLD "\xd9\x06", 2             /* fld dword [rsi] */
#define CPUID "\x0f\xa2", 2           /* microcode ROM, 5 uops */
#define NOP "\x90", 1

/* ---- the PMU, programmed by ESCR and CCCR writes */

enum { MAX_COUNTS = 18 };

struct request {
    const char *event;
    const char *subevents; /* '|'-separated */
};

struct run {
    struct nbm_result result;
    uint64_t count[MAX_COUNTS];
};

static uint16_t mask_of(const struct nb_event *event, const char *names)
{
    char copy[128];
    snprintf(copy, sizeof copy, "%s", names);
    uint16_t mask = 0;
    for (char *save, *name = strtok_r(copy, "|", &save); name; name = strtok_r(NULL, "|", &save)) {
        const struct nb_subevent *sub = nb_subevent_find(event, name);
        assert_non_null(sub);
        mask |= (uint16_t)(1u << sub->bit);
    }
    return mask;
}

/* Puts the request on a free ESCR and a free counter behind it: ESCR
 * T0_OS|T0_USR, CCCR ENABLE with ACTIVE_THREAD 11 (seed 000 9.1). */
static int program_one(struct nb_pmu *pmu, const struct request *r, uint64_t *escrs_used,
                       uint32_t *counters_used)
{
    int e = nb_event_find(r->event);
    assert_true(e >= 0);
    const struct nb_event *event = &nb_events[e];
    for (int x = 0; x < NB_NUM_ESCRS; x++) {
        if (!(event->escrs >> x & 1) || (*escrs_used >> x & 1))
            continue;
        uint32_t free_counters = nb_escrs[x].counters & ~*counters_used;
        if (!free_counters)
            continue;
        int c = __builtin_ctz(free_counters);
        uint64_t escr = (uint64_t)event->select << 25 | (uint64_t)mask_of(event, r->subevents) << 9 |
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
    struct msr_backend *backend = nb_backend_create((struct nb_config){config->model, false});
    assert_non_null(backend);
    struct nb_pmu *pmu = nb_backend_pmu(backend);
    uint64_t escrs = 0;
    uint32_t counters = 0;
    int counter = request ? program_one(pmu, request, &escrs, &counters) : 0;
    const char *traces[] = {path};
    if (!nbm_simulate(traces, 1, config, backend, NULL, result, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(pmu->cycles, result->cycles);
    uint64_t count = request ? pmu->counter[counter] : 0;
    msr_backend_destroy(backend);
    return count;
}

/* One simulation per request (a unit's ESCRs could not take them all at
 * once); the model is deterministic, so every run has the same result. */
static struct run run_config(const char *path, const struct nbm_config *config,
                             const struct request *requests, int n)
{
    struct run run;
    simulate_counting(path, config, NULL, &run.result);
    for (int i = 0; i < n; i++) {
        struct nbm_result again;
        run.count[i] = simulate_counting(path, config, &requests[i], &again);
        assert_int_equal(again.cycles, run.result.cycles);
    }
    return run;
}

static struct nbm_config preset(const char *name)
{
    struct nbm_config config;
    char error[256];
    assert_true(nbm_config_preset(name, &config, error, sizeof error));
    return config;
}

static struct run run_on(const char *path, const struct request *requests, int n)
{
    struct nbm_config config = preset("northwood");
    return run_config(path, &config, requests, n);
}

/* ---- a 10-iteration loop of add, dec, jnz */

static void write_loop(struct tb *t, int iterations)
{
    for (int i = 0; i < iterations; i++) {
        bool last = i == iterations - 1;
        tb_plain(t, 0x1000, ADD_EAX_1);
        tb_plain(t, 0x1003, DEC_ECX);
        tb_insn(t, 0x1005, JNZ_BACK7, last ? TRACE_BRANCH_NOT_TAKEN : TRACE_BRANCH_TAKEN,
                last ? 0 : 0x1000, 0, 0, 0);
    }
}

/* The backward branch: a BTB miss predicted taken by the static rule
 * (MMTP), then taken by its counter 8 times (MMTP), then the exit,
 * predicted taken and not taken (MMNM). */
static void test_loop_retirement(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    write_loop(&t, 10);
    tb_close(&t);
    const struct request requests[] = {
        {"instr_retired", "NBOGUSNTAG"}, {"uops_retired", "NBOGUS"},
        {"branch_retired", "MMTP"}, {"branch_retired", "MMNM"},
        {"branch_retired", "MMNP|MMTM"}, {"mispred_branch_retired", "NBOGUS"},
        {"retired_branch_type", "CONDITIONAL"}, {"retired_mispred_branch_type", "CONDITIONAL"},
        {"global_power_events", "RUNNING"},
    };
    struct run r = run_on(t.path, requests, 9);
    assert_int_equal(r.count[0], 30);
    assert_int_equal(r.count[1], 30);
    assert_int_equal(r.count[2], 9);
    assert_int_equal(r.count[3], 1);
    assert_int_equal(r.count[4], 0);
    assert_int_equal(r.count[5], 1);
    assert_int_equal(r.count[6], 10);
    assert_int_equal(r.count[7], 1);
    assert_int_equal(r.count[8], r.result.cycles);
    assert_int_equal(r.result.instructions[0], 30);
    assert_int_equal(r.result.uops[0], 30);
    assert_int_equal(r.result.mispredicts, 1);
    assert_true(r.result.cycles > 30 / 3);
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
    write_loop(&t, 10);
    tb_close(&t);
    const struct request requests[] = {
        {"BPU_fetch_request", "TCMISS"}, {"uop_queue_writes", "FROM_TC_BUILD"},
        {"uop_queue_writes", "FROM_TC_DELIVER"}, {"uop_queue_writes", "FROM_ROM"},
        {"ITLB_reference", "MISS"}, {"page_walk_type", "ITMISS"},
        {"BSQ_cache_reference", "RD_2ndL_MISS"}, {"TC_deliver_mode", "DI|BI"},
        {"tc_ms_xfer", "CISC"},
    };
    struct run r = run_on(t.path, requests, 9);
    assert_int_equal(r.count[0], 1);
    assert_int_equal(r.count[1], 3);
    assert_int_equal(r.count[2], 27);
    assert_int_equal(r.count[3], 0);
    assert_int_equal(r.count[4], 1);
    assert_int_equal(r.count[5], 1);
    assert_int_equal(r.count[6], 1);
    assert_int_equal(r.count[7], r.result.cycles);
    assert_int_equal(r.count[8], 0);
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
        tb_insn(&t, 0x2006, "\xeb\xf8", 2, TRACE_BRANCH_TAKEN, 0x2000, 0, 0, 0); /* jmp 0x2000 */
    }
    tb_close(&t);
    const struct request requests[] = {
        {"BPU_fetch_request", "TCMISS"}, {"uop_queue_writes", "FROM_TC_BUILD"},
        {"uop_queue_writes", "FROM_TC_DELIVER"}, {"branch_retired", "MMTP"},
    };
    struct run r = run_on(t.path, requests, 4);
    assert_int_equal(r.count[0], 2);
    assert_int_equal(r.count[1], 7);
    assert_int_equal(r.count[2], 7);
    assert_int_equal(r.count[3], 2); /* a direct jump: static taken, then the BTB */
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
    const struct request requests[] = {
        {"ITLB_reference", "MISS"}, {"ITLB_reference", "HIT"}, {"page_walk_type", "ITMISS"},
        {"page_walk_type", "DTMISS"},
    };
    struct run r = run_on(t.path, requests, 4);
    assert_int_equal(r.count[0], 2);
    assert_int_equal(r.count[1], 1);
    assert_int_equal(r.count[2], 2);
    assert_int_equal(r.count[3], 0);
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
    tb_insn(&t, 0x1000, LOAD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, 0x10000, 4);
    tb_insn(&t, 0x1002, LOAD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, 0x10008, 4);
    tb_insn(&t, 0x1004, LOAD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, 0x10040, 4);
    tb_insn(&t, 0x1006, STORE, TRACE_NOT_BRANCH, 0, TRACE_STORE, 0x20000, 4);
    tb_insn(&t, 0x1008, LOAD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, 0x20040, 4);
    tb_close(&t);
    const struct request requests[] = {
        {"BSQ_cache_reference", "RD_2ndL_MISS"}, {"BSQ_cache_reference", "RD_2ndL_HITE"},
        {"BSQ_cache_reference", "RD_2ndL_HITM"}, {"BSQ_allocation", "REQ_LEN0"},
        {"IOQ_allocation", "ALL_READ"}, {"FSB_data_activity", "DRDY_OWN"},
        {"page_walk_type", "DTMISS"}, {"uops_retired", "NBOGUS"},
    };
    struct run r = run_on(t.path, requests, 8);
    assert_int_equal(r.count[0], 3);
    assert_int_equal(r.count[1], 1);
    assert_int_equal(r.count[2], 1);
    assert_int_equal(r.count[3], 6); /* 2 sectors per miss */
    assert_int_equal(r.count[4], 6);
    assert_int_equal(r.count[5], 6);
    assert_int_equal(r.count[6], 2); /* pages 0x10 and 0x20 */
    assert_int_equal(r.count[7], 6);
    unlink(t.path);
}

/* Accesses across a 64-byte line: a load and a store. */
static void test_split_accesses(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_insn(&t, 0x1000, LOAD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, 0x1003e, 4);
    tb_insn(&t, 0x1002, LOAD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, 0x1003c, 4);
    tb_insn(&t, 0x1004, STORE, TRACE_NOT_BRANCH, 0, TRACE_STORE, 0x3007f, 2);
    tb_close(&t);
    const struct request requests[] = {
        {"load_port_replay", "SPLIT_LD"}, {"memory_complete", "LSC"},
        {"store_port_replay", "SPLIT_ST"}, {"memory_complete", "SSC"},
    };
    struct run r = run_on(t.path, requests, 4);
    assert_int_equal(r.count[0], 1);
    assert_int_equal(r.count[1], 1);
    assert_int_equal(r.count[2], 1);
    assert_int_equal(r.count[3], 1);
    unlink(t.path);
}

/* Store-to-load forwarding (seed 000 5.3.3): a load of the stored bytes is
 * forwarded; one starting elsewhere inside them, and one wider than the
 * store, are replayed by the MOB. */
static void test_store_forwarding(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_insn(&t, 0x1000, STORE, TRACE_NOT_BRANCH, 0, TRACE_STORE, 0x30000, 4);
    tb_insn(&t, 0x1002, LOAD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, 0x30000, 4);
    tb_insn(&t, 0x1004, LOAD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, 0x30002, 4);
    tb_insn(&t, 0x1006, LOAD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, 0x30000, 8);
    tb_close(&t);
    const struct request requests[] = {
        {"MOB_load_replay", "PARTIAL_DATA"}, {"MOB_load_replay", "UNALGN_ADDR"},
        {"BSQ_cache_reference", "RD_2ndL_MISS"}, {"BSQ_cache_reference", "RD_2ndL_HITM"},
    };
    struct run r = run_on(t.path, requests, 4);
    assert_int_equal(r.count[0], 1);
    assert_int_equal(r.count[1], 1);
    /* L2 misses: the code chunk and the store's read for ownership.  The
     * forwarded load reads no cache; the L1 does not allocate on a store,
     * so the first replayed load misses it and hits the modified L2 line,
     * and the second hits the L1. */
    assert_int_equal(r.count[2], 2);
    assert_int_equal(r.count[3], 1);
    unlink(t.path);
}

/* A load missing the L1, and an add of its result: the add was scheduled
 * for an L1 hit and is replayed once. */
static void test_replay(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_insn(&t, 0x1000, LOAD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, 0x40000, 4);
    tb_plain(&t, 0x1002, ADD_EAX_1);
    tb_insn(&t, 0x1005, LOAD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, 0x40004, 4);
    tb_plain(&t, 0x1007, ADD_EAX_1);
    tb_close(&t);
    struct run r = run_on(t.path, NULL, 0);
    assert_int_equal(r.result.replays, 1); /* the second load hits */
    unlink(t.path);
}

/* x87: three FADDs are x87 uops; FLD from memory is an x87/SIMD load (port 2). */
static void test_x87_uops(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_insn(&t, 0x1000, FLD, TRACE_NOT_BRANCH, 0, TRACE_LOAD, 0x50000, 4);
    for (int i = 0; i < 3; i++)
        tb_plain(&t, 0x1002 + 2 * (uint64_t)i, FADD);
    tb_close(&t);
    const struct request requests[] = {
        {"x87_FP_uop", "ALL"}, {"x87_SIMD_moves_uop", "ALLP2"}, {"x87_SIMD_moves_uop", "ALLP0"},
        {"scalar_SP_uop", "ALL"},
    };
    struct run r = run_on(t.path, requests, 4);
    assert_int_equal(r.count[0], 3);
    assert_int_equal(r.count[1], 1);
    assert_int_equal(r.count[2], 0);
    assert_int_equal(r.count[3], 0);
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
    const struct request requests[] = {
        {"tc_ms_xfer", "CISC"}, {"uop_queue_writes", "FROM_ROM"},
        {"uop_queue_writes", "FROM_TC_BUILD"}, {"uops_retired", "NBOGUS"},
        {"TC_deliver_mode", "DI|BI"}, {"global_power_events", "RUNNING"},
    };
    struct run r = run_on(t.path, requests, 6);
    assert_int_equal(r.count[0], 2);
    assert_int_equal(r.count[1], 5);
    assert_int_equal(r.count[2], 2);
    assert_int_equal(r.count[3], 7);
    /* The ROM's cycles are in neither mode: 5 uops, 3 a cycle. */
    assert_int_equal(r.count[5] - r.count[4], 2);
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
    tb_insn(&t, 0x1005, "\xff\xe0", 2, TRACE_BRANCH_TAKEN, 0x3000, 0, 0, 0);
    tb_plain(&t, 0x3000, NOP);
    tb_close(&t);
    const struct request requests[] = {
        {"retired_branch_type", "CALL"}, {"retired_branch_type", "RETURN"},
        {"retired_branch_type", "INDIRECT"}, {"retired_mispred_branch_type", "INDIRECT"},
        {"branch_retired", "MMTP"}, {"branch_retired", "MMTM"},
        {"mispred_branch_retired", "NBOGUS"}, {"uops_retired", "NBOGUS"},
    };
    struct run r = run_on(t.path, requests, 8);
    assert_int_equal(r.count[0], 1);
    assert_int_equal(r.count[1], 1);
    assert_int_equal(r.count[2], 2); /* the return and the indirect jump */
    assert_int_equal(r.count[3], 1);
    assert_int_equal(r.count[4], 2);
    assert_int_equal(r.count[5], 1);
    assert_int_equal(r.count[6], 1);
    assert_int_equal(r.count[7], 3 + 2 + 1 + 1);
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
    struct msr_backend *backend = nb_backend_create((struct nb_config){2, false});
    struct nb_pmu *pmu = nb_backend_pmu(backend);
    /* instr_retired NBOGUSNTAG, T0_USR only, on CRU_ESCR0 and counter 12. */
    assert_int_equal(nb_pmu_wrmsr(pmu, 0x3b8, 0x04000204), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(pmu, NB_CCCR_BASE + 12, 0x00039000), MSR_OK);
    struct nbm_result result;
    const char *traces[] = {t.path};
    if (!nbm_simulate(traces, 1, &config, backend, NULL, &result, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(pmu->counter[12], 1);
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

static void test_region_hooks(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, 0x1000, NOP);
    assert_true(trace_write_region(t.writer, true, 7));
    write_loop(&t, 4);
    assert_true(trace_write_region(t.writer, false, 7));
    tb_plain(&t, 0x1007, NOP);
    tb_close(&t);

    char error[512];
    struct nbm_config config = preset("northwood");
    struct msr_backend *backend = nb_backend_create((struct nb_config){2, false});
    struct nb_pmu *pmu = nb_backend_pmu(backend);
    assert_int_equal(nb_pmu_wrmsr(pmu, 0x3b8, 0x0400020c), MSR_OK);
    struct regions regions = {pmu, 0};
    struct nbm_hooks hooks = {on_region, &regions};
    struct nbm_result result;
    const char *traces[] = {t.path};
    if (!nbm_simulate(traces, 1, &config, backend, &hooks, &result, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(regions.calls, 2);
    assert_int_equal(result.regions, 2);
    assert_int_equal(pmu->counter[12], 12); /* exactly the loop's instructions */
    msr_backend_destroy(backend);
    unlink(t.path);
}

static uint64_t cycles_of(const char *path, const char *preset_name)
{
    struct nbm_config config = preset(preset_name);
    struct nbm_result result;
    simulate_counting(path, &config, NULL, &result);
    return result.cycles;
}

/* The add/dec/jnz loop in steady state, on every preset: its 3-uop line is
 * delivered in one cycle (each line starts a cycle), the two fast ALUs
 * and the branch unit keep up, and 3 uops retire a cycle: one iteration a
 * cycle, so 200 more iterations take 200 more cycles. */
static void test_loop_cycles_per_iteration(void **state)
{
    (void)state;
    struct tb short_loop, long_loop;
    tb_open(&short_loop);
    write_loop(&short_loop, 200);
    tb_close(&short_loop);
    tb_open(&long_loop);
    write_loop(&long_loop, 400);
    tb_close(&long_loop);
    const char *names[] = {"willamette", "northwood", "prescott"};
    for (int i = 0; i < 3; i++)
        assert_int_equal(cycles_of(long_loop.path, names[i]) - cycles_of(short_loop.path, names[i]),
                         200);
    unlink(short_loop.path);
    unlink(long_loop.path);
}

/* Dependent FADDs (through the x87 stack) take Sprunt's 5 cycles each:
 * a loop of 5 FADDs and a jump takes 25 cycles an iteration. */
static void write_fadd_loop(struct tb *t, int iterations)
{
    for (int i = 0; i < iterations; i++) {
        for (int k = 0; k < 5; k++)
            tb_plain(t, 0x1000 + 2 * (uint64_t)k, FADD);
        tb_insn(t, 0x100a, "\xeb\xf4", 2, TRACE_BRANCH_TAKEN, 0x1000, 0, 0, 0);
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
        cmocka_unit_test(test_replay),
        cmocka_unit_test(test_x87_uops),
        cmocka_unit_test(test_microcode_rom),
        cmocka_unit_test(test_branch_types),
        cmocka_unit_test(test_privilege_levels),
        cmocka_unit_test(test_region_hooks),
        cmocka_unit_test(test_loop_cycles_per_iteration),
        cmocka_unit_test(test_fp_add_latency),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    x86_decode_release();
    return failed;
}
