/* Tagging and sampling in the NetBurst timing model (docs/netburst-model.md,
 * "Tagging" and "Sampling"): hand-made traces, the PMU programmed by MSR
 * writes, exact counts. */
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
#include "pmu/catalog/netburst_metrics.h"
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/emulated/netburst_pmu.h"
#include "sim/netburst/nbm_model.h"
#include "tests/unit/model_trace.h"
#include "traces/trace.h"

/* ---- traces with registers (the PEBS record's) */

static void tb_open_registers(struct tb *t)
{
    tb_open_header(t, (struct trace_header){.isa = TRACE_ISA_64, .lengths_known = true,
                                            .registers = true});
}

#define ADD_EAX_1 "\x83\xc0\x01", 3 /* 1 uop */
#define LOAD "\x8b\x06", 2          /* mov eax, [rsi]: 1 load uop */
#define STORE "\x89\x07", 2         /* mov [rdi], eax: store address + data */
#define FADD "\xd8\xc1", 2          /* fadd st, st(1): 1 x87_FP_uop */
#define ADDPS_MEM "\x0f\x58\x06", 3      /* addps xmm0, [rsi]: load + packed SP */
#define ADDPD "\x66\x0f\x58\xc1", 4     /* addpd xmm0, xmm1 */
#define ADDSS "\xf3\x0f\x58\xc1", 4     /* addss xmm0, xmm1 */
#define ADDSD "\xf2\x0f\x58\xc1", 4     /* addsd xmm0, xmm1 */
#define PADDD_MM "\x0f\xfe\xc1", 3       /* paddd mm0, mm1: 64-bit MMX */
#define PADDD_XMM "\x66\x0f\xfe\xc1", 4 /* paddd xmm0, xmm1: 128-bit integer SIMD */

/* ---- the PMU */

enum { ESCR_T0 = 0xc }; /* T0_OS | T0_USR */

/* Programs `event` with `subevents` ('|'-separated) and the extra ESCR bits
 * on ESCR `escr`, read by counter `counter` with the extra CCCR bits
 * (ENABLE, ACTIVE_THREAD 11 always; `counter` < 0: no counter). */
static void program(struct nb_pmu *pmu, const char *name, const char *subevents, int escr,
                    uint64_t escr_bits, int counter, uint64_t cccr_bits)
{
    const struct nb_event_info *event = &nb_event_table[nb_event_find(name)];
    uint64_t mask = tb_subevent_mask(nb_event_find(name), subevents);
    uint64_t value = (uint64_t)event->select << 25 | mask << 9 | ESCR_T0 | escr_bits;
    assert_int_equal(nb_pmu_wrmsr(pmu, nb_escrs[escr].msr, value), MSR_OK);
    if (counter < 0)
        return;
    uint64_t cccr = CCCR_ENABLE | (uint64_t)nb_escrs[escr].select << 13 | 3u << 16 | cccr_bits;
    assert_int_equal(nb_pmu_wrmsr(pmu, NB_CCCR_BASE + (uint32_t)counter, cccr), MSR_OK);
}

struct model {
    struct msr_backend *backend;
    struct nb_pmu *pmu;
    struct nbm_config config;
    struct nbm_result result;
};

static void model_open(struct model *m)
{
    char error[256];
    assert_true(nbm_config_preset("northwood", &m->config, error, sizeof error));
    m->backend = nb_backend_create((struct nb_pmu_config){m->config.model, false});
    assert_non_null(m->backend);
    m->pmu = nb_backend_pmu(m->backend);
}

static void model_run(struct model *m, const char *path, const struct nbm_hooks *hooks)
{
    char error[512];
    const char *traces[] = {path};
    if (!nbm_simulate(traces, 1, &m->config, m->backend, hooks, &m->result, error, sizeof error))
        fail_msg("%s", error);
}

/* ---- front-end tagging: uop_type TAGLOADS/TAGSTORES, front_end_event */

/* 3 loads, 2 stores, 2 adds. */
static void write_memory_mix(struct tb *t)
{
    tb_access(t, 0x1000, LOAD, TRACE_LOAD, 0x8000, 4);
    tb_access(t, 0x1002, STORE, TRACE_STORE, 0x9000, 4);
    tb_plain(t, 0x1004, ADD_EAX_1);
    tb_access(t, 0x1007, LOAD, TRACE_LOAD, 0x8040, 4);
    tb_access(t, 0x1009, STORE, TRACE_STORE, 0x9040, 4);
    tb_access(t, 0x100b, LOAD, TRACE_LOAD, 0x8080, 4);
    tb_plain(t, 0x100d, ADD_EAX_1);
}

/* front_end_event NBOGUS (IQ_COUNTER4) and instr_retired NBOGUSTAG and
 * NBOGUSNTAG (IQ_COUNTER0/1) with uop_type `tag` on RAT_ESCR0. */
static void front_end_counts(const char *path, const char *tag, uint64_t out[3])
{
    struct model m;
    model_open(&m);
    program(m.pmu, "uop_type", tag, NB_ESCR_RAT0, 0, -1, 0);
    program(m.pmu, "front_end_event", "NBOGUS", NB_ESCR_CRU2, 0, 16, 0);
    program(m.pmu, "instr_retired", "NBOGUSTAG", NB_ESCR_CRU0, 0, 12, 0);
    program(m.pmu, "instr_retired", "NBOGUSNTAG", NB_ESCR_CRU1, 0, 14, 0);
    model_run(&m, path, NULL);
    out[0] = nb_pmu_counter(m.pmu, 16);
    out[1] = nb_pmu_counter(m.pmu, 12);
    out[2] = nb_pmu_counter(m.pmu, 14);
    assert_int_equal(m.result.instructions[0], 7);
    msr_backend_destroy(m.backend);
}

static void test_front_end_tagging(void **state)
{
    (void)state;
    struct tb t;
    tb_open_registers(&t);
    write_memory_mix(&t);
    tb_close(&t);
    uint64_t loads[3], stores[3];
    front_end_counts(t.path, "TAGLOADS", loads);
    assert_int_equal(loads[0], 3); /* the load uops */
    assert_int_equal(loads[1], 3); /* their instructions */
    assert_int_equal(loads[2], 4); /* the others */
    front_end_counts(t.path, "TAGSTORES", stores);
    assert_int_equal(stores[0], 2); /* the store-address uops */
    assert_int_equal(stores[1], 2);
    assert_int_equal(stores[2], 5);
    unlink(t.path);
}

/* ---- execution tagging: x87_FP_uop ALL with Tag Enable, tag value 1 */

static void test_execution_tagging(void **state)
{
    (void)state;
    struct tb t;
    tb_open_registers(&t);
    for (int k = 0; k < 5; k++)
        tb_plain(&t, 0x1000 + 2 * (uint64_t)k, FADD);
    tb_plain(&t, 0x100a, ADD_EAX_1);
    tb_access(&t, 0x100d, LOAD, TRACE_LOAD, 0x8000, 4);
    tb_close(&t);
    struct model m;
    model_open(&m);
    uint64_t tag1 = ESCR_TAG_ENABLE | 1u << ESCR_TAG_VALUE_SHIFT;
    program(m.pmu, "x87_FP_uop", "ALL", NB_ESCR_FIRM0, tag1, 8, 0);
    program(m.pmu, "execution_event", "NBOGUS0", NB_ESCR_CRU2, 0, 12, 0);
    program(m.pmu, "execution_event", "NBOGUS1|NBOGUS2|NBOGUS3", NB_ESCR_CRU3, 0, 14, 0);
    model_run(&m, t.path, NULL);
    assert_int_equal(nb_pmu_counter(m.pmu, 8), 5);   /* the upstream event's detections */
    assert_int_equal(nb_pmu_counter(m.pmu, 12), 5);  /* exactly those uops, at retirement */
    assert_int_equal(nb_pmu_counter(m.pmu, 14), 0);  /* no other tag bit */
    msr_backend_destroy(m.backend);
    unlink(t.path);
}

/* ---- execution tagging of the SIMD metrics (packed_SP_retired ...) */

/* addps xmm0, [rsi] once, addpd twice, addss 3, addsd 4, paddd mm 5 and
 * paddd xmm 6 times: one computing uop each, addps's load a SIMD load. */
static void write_simd_mix(struct tb *t)
{
    static const struct {
        const char *bytes;
        int length, n;
    } code[] = {{ADDPS_MEM, 1}, {ADDPD, 2}, {ADDSS, 3}, {ADDSD, 4}, {PADDD_MM, 5},
                {PADDD_XMM, 6}};
    uint64_t at = 0x1000;
    for (size_t i = 0; i < sizeof code / sizeof code[0]; i++)
        for (int k = 0; k < code[i].n; k++, at += (uint64_t)code[i].length)
            tb_insn(t, at, code[i].bytes, code[i].length, TRACE_NOT_BRANCH, 0,
                    i == 0 ? TRACE_LOAD : 0, 0x50000, 16);
}

/* Each execution metric's upstream event with Tag Enable and tag value 2
 * on FIRM_ESCR0: execution_event NBOGUS1 counts exactly its uops at
 * retirement, NBOGUS0 nothing. */
static void test_execution_tagging_simd(void **state)
{
    (void)state;
    static const struct {
        const char *metric, *upstream, *subevents;
        uint64_t count;
    } metrics[] = {
        {"packed_SP_retired", "packed_SP_uop", "ALL", 1},
        {"packed_DP_retired", "packed_DP_uop", "ALL", 2},
        {"scalar_SP_retired", "scalar_SP_uop", "ALL", 3},
        {"scalar_DP_retired", "scalar_DP_uop", "ALL", 4},
        {"64_bit_MMX_retired", "64bit_MMX_uop", "ALL", 5},
        {"128_bit_MMX_retired", "128bit_MMX_uop", "ALL", 6},
        {"x87_FP_retired", "x87_FP_uop", "ALL", 0},
        {"x87_SIMD_memory_moves_retired", "x87_SIMD_moves_uop", "ALLP0|ALLP2", 1},
    };
    struct tb t;
    tb_open_registers(&t);
    write_simd_mix(&t);
    tb_close(&t);
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
        const struct nb_metric *metric = nb_metric_find(metrics[i].metric);
        assert_non_null(metric);
        /* the catalog's */
        assert_int_equal(metric->upstream_event, nb_event_find(metrics[i].upstream));
        struct model m;
        model_open(&m);
        uint64_t tag2 = ESCR_TAG_ENABLE | 2u << ESCR_TAG_VALUE_SHIFT;
        program(m.pmu, metrics[i].upstream, metrics[i].subevents, NB_ESCR_FIRM0, tag2, 8, 0);
        program(m.pmu, "execution_event", "NBOGUS1", NB_ESCR_CRU2, 0, 12, 0);
        program(m.pmu, "execution_event", "NBOGUS0", NB_ESCR_CRU3, 0, 14, 0);
        model_run(&m, t.path, NULL);
        if (nb_pmu_counter(m.pmu, 8) != metrics[i].count || nb_pmu_counter(m.pmu, 12) != metrics[i].count ||
            nb_pmu_counter(m.pmu, 14) != 0)
            fail_msg("%s: upstream %" PRIu64 ", NBOGUS1 %" PRIu64 ", NBOGUS0 %" PRIu64
                     ", expected %" PRIu64 ", %" PRIu64 ", 0",
                     metrics[i].metric, nb_pmu_counter(m.pmu, 8), nb_pmu_counter(m.pmu, 12),
                     nb_pmu_counter(m.pmu, 14), metrics[i].count, metrics[i].count);
        msr_backend_destroy(m.backend);
    }
    unlink(t.path);
}

/* ---- replay tagging (IA32_PEBS_ENABLE, MSR_PEBS_MATRIX_VERT, an upstream ESCR) */

enum { UOP_TAG = 1u << 24 };

/* A replay metric's registers: IA32_PEBS_ENABLE, MSR_PEBS_MATRIX_VERT and
 * the upstream ESCR (event NULL: none), given counter `counter` (< 0: none). */
struct replay {
    uint64_t pebs_enable, vert;
    const char *event, *subevents;
    int escr, counter;
};

/* replay_event NBOGUS (IQ_COUNTER0); *upstream gets the upstream ESCR's
 * counter (when it has one). */
static uint64_t replay_run(const char *path, struct replay r, uint64_t *upstream)
{
    struct model m;
    model_open(&m);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, MSR_IA32_PEBS_ENABLE, r.pebs_enable), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, MSR_PEBS_MATRIX_VERT, r.vert), MSR_OK);
    if (r.event)
        program(m.pmu, r.event, r.subevents, r.escr, 0, r.counter, 0);
    program(m.pmu, "replay_event", "NBOGUS", NB_ESCR_CRU2, 0, 12, 0);
    model_run(&m, path, NULL);
    uint64_t count = nb_pmu_counter(m.pmu, 12);
    if (upstream && r.counter >= 0)
        *upstream = nb_pmu_counter(m.pmu, r.counter);
    msr_backend_destroy(m.backend);
    return count;
}

/* A metric without an upstream ESCR. */
static uint64_t replay_count(const char *path, uint64_t pebs_enable, uint64_t vert)
{
    return replay_run(path, (struct replay){pebs_enable, vert, NULL, NULL, -1, -1}, NULL);
}

/* Three loads of distinct lines (L1 misses; 0x8000 and 0x8040 share a
 * 128-byte L2 line: 2 L2 misses), then the same three (hits). */
static void write_miss_then_hit(struct tb *t)
{
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < 3; k++) {
            uint64_t at = 0x1000 + 5 * (uint64_t)(3 * pass + k);
            tb_plain(t, at, ADD_EAX_1);
            tb_access(t, at + 3, LOAD, TRACE_LOAD, 0x8000 + 0x40 * (uint64_t)k, 4);
        }
}

/* 1stL_cache_load_miss_retired (bit 0) and 2ndL_cache_load_miss_retired
 * (bit 1), both with MATRIX_VERT bit 0 (loads). */
static void test_replay_cache_misses(void **state)
{
    (void)state;
    struct tb t;
    tb_open_registers(&t);
    write_miss_then_hit(&t);
    tb_close(&t);
    assert_int_equal(replay_count(t.path, UOP_TAG | 1, 1), 3); /* the L1 misses */
    assert_int_equal(replay_count(t.path, 1, 1), 0);           /* no UOP_TAG: no tagging */
    assert_int_equal(replay_count(t.path, UOP_TAG | 2, 1), 2); /* the L2 misses */
    assert_int_equal(replay_count(t.path, UOP_TAG | 3, 1), 3); /* either */
    assert_int_equal(replay_count(t.path, UOP_TAG | 1, 2), 0); /* VERT stores: no metric */
    assert_int_equal(replay_count(t.path, UOP_TAG | 2, 0x10), 0);
    unlink(t.path);
}

/* DTLB_load_miss_retired, DTLB_store_miss_retired, DTLB_all_miss_retired
 * (IA32_PEBS_ENABLE bit 2; MATRIX_VERT bit 0, 1, both): loads of pages
 * A, A, B and stores to pages C, C, D, E, each new page a DTLB miss. */
static void test_replay_dtlb_misses(void **state)
{
    (void)state;
    static const uint64_t loads[] = {0x100000, 0x100040, 0x101000};
    static const uint64_t stores[] = {0x200000, 0x200040, 0x202000, 0x203000};
    struct tb t;
    tb_open_registers(&t);
    for (uint64_t k = 0; k < 3; k++)
        tb_access(&t, 0x1000 + 2 * k, LOAD, TRACE_LOAD, loads[k], 4);
    for (uint64_t k = 0; k < 4; k++)
        tb_access(&t, 0x1006 + 2 * k, STORE, TRACE_STORE, stores[k], 4);
    tb_close(&t);
    assert_int_equal(replay_count(t.path, UOP_TAG | 4, 1), 2);    /* the load uops */
    assert_int_equal(replay_count(t.path, UOP_TAG | 4, 2), 3);    /* the store-address uops */
    assert_int_equal(replay_count(t.path, UOP_TAG | 4, 3), 5);    /* both */
    assert_int_equal(replay_count(t.path, UOP_TAG | 4, 0x10), 0); /* VERT branches: no metric */
    assert_int_equal(replay_count(t.path, 4, 3), 0);              /* no UOP_TAG */
    assert_int_equal(replay_count(t.path, UOP_TAG | 1, 3), 3);    /* L1 misses: loads only */
    unlink(t.path);
}

/* Tagged_mispred_branch (IA32_PEBS_ENABLE bits 15 and 16, MATRIX_VERT
 * bit 4): a 10-iteration loop whose exit is its one mispredicted branch. */
static void test_replay_mispredicted_branch(void **state)
{
    (void)state;
    struct tb t;
    tb_open_registers(&t);
    tb_loop(&t, 10);
    tb_close(&t);
    enum { MISPRED = 3u << 15 };
    assert_int_equal(replay_count(t.path, UOP_TAG | MISPRED, 0x10), 1);
    assert_int_equal(replay_count(t.path, UOP_TAG | 1u << 15, 0x10), 0); /* bit 16 missing */
    assert_int_equal(replay_count(t.path, UOP_TAG | MISPRED, 1), 0);     /* VERT loads */
    assert_int_equal(replay_count(t.path, MISPRED, 0x10), 0);            /* no UOP_TAG */
    unlink(t.path);
}

/* MOB_load_replay_retired (IA32_PEBS_ENABLE bit 9, MATRIX_VERT bit 0, an
 * ESCR selecting MOB_load_replay): a load inside a 4-byte store but not at
 * its start (UNALGN_ADDR), one wider than a 2-byte store (PARTIAL_DATA),
 * and one forwarded from a store whose data comes from a missing load
 * (NO_STD: not tagged, the SDM's metric counts loads whose data is not an
 * aligned subset of the store's). */
static void test_replay_mob(void **state)
{
    (void)state;
    struct tb t;
    tb_open_registers(&t);
    tb_access(&t, 0x1000, STORE, TRACE_STORE, 0x9000, 4);
    tb_access(&t, 0x1002, LOAD, TRACE_LOAD, 0x9002, 4);
    tb_access(&t, 0x1004, STORE, TRACE_STORE, 0x9100, 2);
    tb_access(&t, 0x1006, LOAD, TRACE_LOAD, 0x9100, 4);
    tb_access(&t, 0x1008, LOAD, TRACE_LOAD, 0xa000, 4);
    tb_access(&t, 0x100a, STORE, TRACE_STORE, 0x9200, 4);
    tb_access(&t, 0x100c, LOAD, TRACE_LOAD, 0x9200, 4);
    tb_close(&t);
    const uint64_t mob = UOP_TAG | 1u << 9;
    uint64_t replays = 0;
    struct replay r = {mob, 1, "MOB_load_replay", "NO_STD|PARTIAL_DATA|UNALGN_ADDR",
                       NB_ESCR_MOB0, 0};
    assert_int_equal(replay_run(t.path, r, &replays), 2);
    assert_int_equal(replays, 3); /* one of each */
    r.subevents = "PARTIAL_DATA|UNALGN_ADDR";
    r.counter = -1;
    assert_int_equal(replay_run(t.path, r, NULL), 2);
    r.subevents = "PARTIAL_DATA";
    assert_int_equal(replay_run(t.path, r, NULL), 1);
    r.subevents = "NO_STD";
    assert_int_equal(replay_run(t.path, r, NULL), 0);
    r.subevents = "PARTIAL_DATA|UNALGN_ADDR";
    r.vert = 2;
    assert_int_equal(replay_run(t.path, r, NULL), 0);   /* VERT stores */
    assert_int_equal(replay_count(t.path, mob, 1), 0);  /* no upstream ESCR */
    unlink(t.path);
}

/* An upstream ESCR at CPL 0 only does not tag the trace's CPL 3 loads. */
static void test_replay_upstream_cpl(void **state)
{
    (void)state;
    struct tb t;
    tb_open_registers(&t);
    tb_access(&t, 0x1000, LOAD, TRACE_LOAD, 0x803e, 4);
    tb_close(&t);
    struct model m;
    model_open(&m);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, MSR_IA32_PEBS_ENABLE, UOP_TAG | 1u << 10), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, MSR_PEBS_MATRIX_VERT, 1), MSR_OK);
    const struct nb_event_info *ld = &nb_event_table[nb_event_find("load_port_replay")];
    uint64_t escr = (uint64_t)ld->select << 25 | 1u << (9 + nb_subevent_find(ld, "SPLIT_LD")->bit) |
                    ESCR_T0_OS;
    assert_int_equal(nb_pmu_wrmsr(m.pmu, nb_escrs[NB_ESCR_SAAT1].msr, escr), MSR_OK);
    program(m.pmu, "replay_event", "NBOGUS", NB_ESCR_CRU2, 0, 12, 0);
    model_run(&m, t.path, NULL);
    assert_int_equal(nb_pmu_counter(m.pmu, 12), 0);
    msr_backend_destroy(m.backend);
    assert_int_equal(replay_run(t.path, (struct replay){UOP_TAG | 1u << 10, 1, "load_port_replay",
                                                        "SPLIT_LD", NB_ESCR_SAAT1, -1},
                                NULL),
                     1); /* T0_OS and T0_USR: tagged */
    unlink(t.path);
}

/* split_load_retired (IA32_PEBS_ENABLE bit 10, MATRIX_VERT bit 0,
 * load_port_replay SPLIT_LD on SAAT_ESCR1) and split_store_retired (bit
 * 10, VERT bit 1, store_port_replay SPLIT_ST on SAAT_ESCR0): two loads and
 * a store crossing a 64-byte line, a load and a store that do not. */
static void test_replay_splits(void **state)
{
    (void)state;
    struct tb t;
    tb_open_registers(&t);
    tb_access(&t, 0x1000, LOAD, TRACE_LOAD, 0x803e, 4);
    tb_access(&t, 0x1002, LOAD, TRACE_LOAD, 0x8080, 4);
    tb_access(&t, 0x1004, STORE, TRACE_STORE, 0x903e, 4);
    tb_access(&t, 0x1006, STORE, TRACE_STORE, 0x907c, 4);
    tb_access(&t, 0x1008, LOAD, TRACE_LOAD, 0x80fe, 4);
    tb_close(&t);
    const uint64_t split = UOP_TAG | 1u << 10;
    struct replay ld = {split, 1, "load_port_replay", "SPLIT_LD", NB_ESCR_SAAT1, -1};
    struct replay st = {split, 2, "store_port_replay", "SPLIT_ST", NB_ESCR_SAAT0, -1};
    assert_int_equal(replay_run(t.path, ld, NULL), 2);
    assert_int_equal(replay_run(t.path, st, NULL), 1);
    assert_int_equal(replay_count(t.path, split, 3), 0); /* no upstream ESCR */
    ld.escr = NB_ESCR_SAAT0;                             /* not the SDM's ESCR */
    st.escr = NB_ESCR_SAAT1;
    assert_int_equal(replay_run(t.path, ld, NULL), 0);
    assert_int_equal(replay_run(t.path, st, NULL), 0);
    ld.escr = NB_ESCR_SAAT1;
    ld.vert = 2;                                         /* VERT stores, the load upstream */
    assert_int_equal(replay_run(t.path, ld, NULL), 0);
    ld.pebs_enable = UOP_TAG | 1u << 9;                  /* the MOB metric's bit */
    ld.vert = 1;
    assert_int_equal(replay_run(t.path, ld, NULL), 0);
    unlink(t.path);
}

/* ---- the samples a run took */

struct samples {
    int n;
    int thread;
    uint64_t cycle, eip;
    bool precise;
};

static void on_sample(void *context, int thread, uint64_t cycle, uint64_t eip, bool precise)
{
    struct samples *s = context;
    s->n++;
    s->thread = thread;
    s->cycle = cycle;
    s->eip = eip;
    s->precise = precise;
}

/* ---- PEBS end to end: the record of the second missing load */

/* 32-bit DS save area at 0x1000 (tests/bench/pebs_record.pmu): buffer and
 * index 0x2000, absolute maximum 0x2079, threshold 0x2028 (the first
 * record interrupts), reset 0. */
static void set_up_ds(struct nb_pmu *pmu)
{
    static const struct {
        uint64_t addr;
        unsigned size;
        uint64_t value;
    } fields[] = {{0x1010, 4, 0x2000}, {0x1014, 4, 0x2000}, {0x1018, 4, 0x2079},
                  {0x101c, 4, 0x2028}, {0x1020, 8, 0}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        assert_true(nb_pmu_memory_write(pmu, fields[i].addr, fields[i].size,
                                     fields[i].value));
    assert_int_equal(nb_pmu_wrmsr(pmu, MSR_IA32_DS_AREA, 0x1000), MSR_OK);
}

static void test_pebs_record(void **state)
{
    (void)state;
    /* The add before the second load leaves EFLAGS, EAX, ECX, EDX, EBX,
     * ESP, EBP, ESI, EDI (TRACE_REG_* order) = 0x202, 1 ... 8. */
    const uint64_t regs[TRACE_REGS_32] = {0x202, 1, 2, 3, 4, 5, 6, 7, 8};
    struct tb t;
    tb_open_registers(&t);
    tb_access(&t, 0x1000, LOAD, TRACE_LOAD, 0x8000, 4);  /* miss: overflows */
    struct trace_insn add = tb_make(0x1002, ADD_EAX_1, TRACE_NOT_BRANCH, 0, 0, 0, 0);
    add.has_registers = true;
    memcpy(add.regs, regs, sizeof regs);
    tb_write(&t, &add);
    tb_access(&t, 0x1005, LOAD, TRACE_LOAD, 0x8040, 4);  /* miss: the record */
    tb_access(&t, 0x1007, LOAD, TRACE_LOAD, 0x8080, 4);  /* miss: disarmed */
    tb_close(&t);
    struct model m;
    model_open(&m);
    set_up_ds(m.pmu);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, MSR_IA32_PEBS_ENABLE, 0x03000001), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, MSR_PEBS_MATRIX_VERT, 1), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, NB_COUNTER_BASE + 16, 0xffffffffff), MSR_OK);
    program(m.pmu, "replay_event", "NBOGUS", NB_ESCR_CRU2, 0, 16, CCCR_OVF_PMI_T0);
    m.config.pmi_latency = 0;
    m.config.bus_ratio = 1; /* an edge every cycle: no wait for the bus clock */
    struct samples s = {0};
    struct nbm_hooks hook = {.sample = on_sample, .context = &s};
    model_run(&m, t.path, &hook);
    assert_int_equal(nb_pmu_memory_read(m.pmu, 0x1014, 4), 0x2028); /* one record */
    assert_int_equal(nb_pmu_memory_read(m.pmu, 0x2004, 4), 0x1005); /* its EIP: precise */
    /* EFLAGS, then EAX EBX ECX EDX ESI EDI EBP ESP (enum nb_reg order). */
    const uint64_t want[] = {0x202, 0x1005, 1, 4, 2, 3, 7, 8, 6, 5};
    for (unsigned k = 0; k < 10; k++)
        assert_int_equal(nb_pmu_memory_read(m.pmu, 0x2000 + 4 * (uint64_t)k, 4), want[k]);
    /* Reset to 0, then the recorded uop and the third miss count. */
    assert_int_equal(nb_pmu_counter(m.pmu, 16), 2);
    /* The threshold PMI, recognized at once (pmi_latency 0), flagged
     * precise: the third load, whose miss overlapped the second's, was
     * allocated already; the interrupt returns to the instruction after
     * it, 0x1009, which the trace's END leaves unexecuted: the PMI is not
     * taken.  (The sampling tests below take theirs.) */
    assert_int_equal(s.n, 0);
    uint64_t since;
    assert_true(nb_pmu_pending_pmi(m.pmu, 0, &since));
    msr_backend_destroy(m.backend);
    unlink(t.path);
}

/* PEBS on DTLB_store_miss_retired: three calls pushing to new pages, the
 * first overflowing IQ_COUNTER4.  A call's tagged store-address uop
 * retires a cycle before its store-data uop: the assist comes with the
 * next tagged uop, the second call's, not with the rest of the first. */
static void test_pebs_store_metric(void **state)
{
    (void)state;
    struct tb t;
    tb_open_registers(&t);
    for (uint64_t k = 0; k < 3; k++)
        tb_insn(&t, 0x1000 * (k + 1), "\xe8\xfb\x0f\x00\x00", 5, TRACE_BRANCH_TAKEN,
                0x1000 * (k + 2), TRACE_STORE, 0x200ff8 + 0x1000 * k, 8); /* call +0x1000 */
    tb_plain(&t, 0x4000, ADD_EAX_1);
    tb_close(&t);
    struct model m;
    model_open(&m);
    set_up_ds(m.pmu);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, MSR_IA32_PEBS_ENABLE, 0x03000004), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, MSR_PEBS_MATRIX_VERT, 2), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, NB_COUNTER_BASE + 16, 0xffffffffff), MSR_OK);
    program(m.pmu, "replay_event", "NBOGUS", NB_ESCR_CRU2, 0, 16, CCCR_OVF_PMI_T0);
    model_run(&m, t.path, NULL);
    assert_int_equal(nb_pmu_memory_read(m.pmu, 0x1014, 4), 0x2028); /* one record */
    assert_int_equal(nb_pmu_memory_read(m.pmu, 0x2004, 4), 0x2000); /* the second call */
    assert_int_equal(nb_pmu_counter(m.pmu, 16), 2); /* reset to 0, then the second and third */
    msr_backend_destroy(m.backend);
    unlink(t.path);
}

/* ---- IEBS: the interrupt of a PMI (docs/netburst-model.md, "Sampling"):
 * recognized pmi_latency cycles after its delivery, taken once the
 * instructions allocated before have retired, sampling the next one. */

/* instr_retired NBOGUSNTAG on IQ_COUNTER0 with OVF_PMI_T0, one count from
 * overflow after `counts`: the PMI comes with the next count. */
static struct samples iebs_run_bus(const char *path, uint32_t latency, uint32_t bus_ratio,
                                   uint64_t counts)
{
    struct model m;
    model_open(&m);
    m.config.pmi_latency = latency;
    m.config.bus_ratio = bus_ratio;
    assert_int_equal(nb_pmu_wrmsr(m.pmu, NB_COUNTER_BASE + 12, (1ull << 40) - counts), MSR_OK);
    program(m.pmu, "instr_retired", "NBOGUSNTAG", NB_ESCR_CRU0, 0, 12, CCCR_OVF_PMI_T0);
    struct samples s = {0};
    struct nbm_hooks hook = {.sample = on_sample, .context = &s};
    model_run(&m, path, &hook);
    uint64_t since;
    assert_false(nb_pmu_pending_pmi(m.pmu, 0, &since)); /* taken */
    assert_int_equal(s.n, 1);
    assert_int_equal(s.thread, 0);
    assert_false(s.precise);
    msr_backend_destroy(m.backend);
    return s;
}

/* With an APIC edge every cycle: the delivery takes pmi_latency alone. */
static struct samples iebs_run(const char *path, uint32_t latency, uint64_t counts)
{
    return iebs_run_bus(path, latency, 1, counts);
}

/* 24 adds, built one a cycle (all in the first 64-byte chunk of code but
 * the last three), each retiring alloc_to_exec + 2 cycles after it
 * allocates.  The second add overflows the counter, the third's
 * retirement delivers the PMI: recognized at once, the adds allocated by
 * then are the 13 after it, and the interrupt returns to the 17th (add
 * 16); recognized 4 cycles later, 4 more have allocated: add 20. */
static void test_iebs_delivery_latency(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    for (int k = 0; k < 24; k++)
        tb_plain(&t, 0x1000 + 3 * (uint64_t)k, ADD_EAX_1);
    tb_close(&t);
    struct model probe;
    model_open(&probe);
    assert_int_equal(probe.config.alloc_to_exec + 2, 13);
    msr_backend_destroy(probe.backend);
    struct samples now = iebs_run(t.path, 0, 2), later = iebs_run(t.path, 4, 2);
    assert_int_equal(now.cycle, later.cycle); /* the same delivery */
    assert_int_equal(now.eip, 0x1000 + 3 * 16);
    assert_int_equal(later.eip, 0x1000 + 3 * 20);
    unlink(t.path);
}

/* The local APIC takes the PMI in at the first bus-clock edge from its
 * delivery (edges every bus_ratio cycles from cycle 0): the wait depends on
 * the delivery's phase, and each cycle of it lets one more add allocate. */
static void test_iebs_bus_clock_edge(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    for (int k = 0; k < 24; k++)
        tb_plain(&t, 0x1000 + 3 * (uint64_t)k, ADD_EAX_1);
    tb_close(&t);
    uint64_t delivered = iebs_run(t.path, 0, 2).cycle;
    static const uint32_t ratios[] = {2, 3, 5, 7, 8};
    uint64_t waits = 0;
    for (size_t i = 0; i < sizeof ratios / sizeof ratios[0]; i++) {
        uint32_t r = ratios[i];
        uint64_t wait = (r - delivered % r) % r;
        waits += wait;
        struct samples s = iebs_run_bus(t.path, 0, r, 2);
        assert_int_equal(s.cycle, delivered);
        assert_int_equal(s.eip, 0x1000 + 3 * (16 + wait));
    }
    assert_true(waits >= 5); /* the phases differ: some ratios wait */
}

/* Three adds, a load that misses the DTLB, the L1 and the L2 (over 200
 * cycles), then a loop from the trace cache (add eax, 1; dec ecx; jnz)
 * that fills the ROB behind it.  The third add delivers the PMI; recognized
 * 150 or 200 cycles later, the ROB holds the load and the 125 uops after
 * it, and nothing allocates until the load retires: the interrupt returns
 * to the 126th instruction after the load, the jnz (0x1015) of the loop's
 * 42nd iteration, whatever the latency in between. */
static void test_iebs_rob_in_flight(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    for (int k = 0; k < 3; k++)
        tb_plain(&t, 0x1000 + 3 * (uint64_t)k, ADD_EAX_1);
    tb_access(&t, 0x1009, LOAD, TRACE_LOAD, 0x800000, 4);
    for (int i = 0; i < 60; i++) {
        tb_plain(&t, 0x1010, ADD_EAX_1);
        tb_plain(&t, 0x1013, "\xff\xc9", 2);                     /* dec ecx */
        tb_branch(&t, 0x1015, "\x75\xf9", 2, i < 59 ? TRACE_BRANCH_TAKEN : TRACE_BRANCH_NOT_TAKEN,
                  i < 59 ? 0x1010 : 0);                           /* jnz 0x1010 */
    }
    tb_close(&t);
    struct model probe;
    model_open(&probe);
    assert_int_equal(probe.config.rob, 126);
    msr_backend_destroy(probe.backend);
    struct samples a = iebs_run(t.path, 150, 2), b = iebs_run(t.path, 200, 2);
    assert_int_equal(a.cycle, b.cycle);
    assert_int_equal(a.eip, 0x1015);
    assert_int_equal(b.eip, 0x1015);
    unlink(t.path);
}

/* ---- the PEBS assist's cost (docs/netburst-model.md, "Sampling") */

#define LOAD_VIA_EAX "\x8b\x00", 2 /* mov eax, [rax]: a load after the previous one */

/* The code at 0x10000: loads of the DS save area's line (0x1000) and,
 * when `warm`, of the PEBS buffer's (0x2000), bringing them into the L1
 * and the L2; a load missing to memory (0x8000), then one that depends on
 * it (0x8040); then `adds` adds. */
static void write_assist_trace(struct tb *t, bool warm, int adds)
{
    tb_open_registers(t);
    uint64_t at = 0x10000;
    tb_access(t, at, LOAD, TRACE_LOAD, 0x1000, 4);
    at += 2;
    if (warm) {
        tb_access(t, at, LOAD, TRACE_LOAD, 0x2000, 4);
        at += 2;
    }
    tb_access(t, at, LOAD, TRACE_LOAD, 0x8000, 4);
    tb_access(t, at + 2, LOAD_VIA_EAX, TRACE_LOAD, 0x8040, 4);
    at += 4;
    for (int k = 0; k < adds; k++)
        tb_plain(t, at + 3 * (uint64_t)k, ADD_EAX_1);
    tb_close(t);
}

struct assist_counts {
    uint64_t cycles, clears, l2_misses, records;
};

/* 1stL_cache_load_miss_retired on IQ_COUNTER4 (replay_event NBOGUS),
 * overflowing at the third-missing load, so that the fourth, the last
 * load, takes the assist (32-bit DS save area of set_up_ds: one record of
 * 40 bytes at 0x2000) with `pebs`; without it the same counting, no
 * assist.  machine_clear CLEAR and BSQ_cache_reference RD_2ndL_MISS
 * counted beside. */
static struct assist_counts assist_run(const char *path, bool pebs, unsigned missing)
{
    struct model m;
    model_open(&m);
    set_up_ds(m.pmu);
    uint64_t enable = 0x01000001 | (pebs ? 0x02000000 : 0);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, MSR_IA32_PEBS_ENABLE, enable), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, MSR_PEBS_MATRIX_VERT, 1), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, NB_COUNTER_BASE + 16, (1ull << 40) - (missing - 1)),
                     MSR_OK);
    program(m.pmu, "replay_event", "NBOGUS", NB_ESCR_CRU2, 0, 16, CCCR_OVF_PMI_T0);
    program(m.pmu, "machine_clear", "CLEAR", NB_ESCR_CRU3, 0, 14, 0);
    program(m.pmu, "BSQ_cache_reference", "RD_2ndL_MISS", NB_ESCR_BSU0, 0, 0, 0);
    model_run(&m, path, NULL);
    struct assist_counts c = {m.result.cycles, nb_pmu_counter(m.pmu, 14),
                              nb_pmu_counter(m.pmu, 0),
                              (nb_pmu_memory_read(m.pmu, 0x1014, 4) - 0x2000) / 40};
    msr_backend_destroy(m.backend);
    return c;
}

/* The assist of the trace's last instruction, its DS save area and buffer
 * in the caches: from the cycle after the tagged uop's retirement, X, its
 * 26 uops come from the ROM three a cycle, allocate a cycle later and
 * execute alloc_to_exec (11) later: the reads of the index and the maximum
 * at X + 13 and X + 14 (L1 hits, 2 cycles), the ten record slots and the
 * index stored one a cycle from X + 16, once both are read, retiring
 * two a cycle from X + 18 to X + 28, the counter reset and the threshold
 * read and retiring at X + 28 and X + 29.  The machine is done at X + 30,
 * not X + 1: 29 cycles, one machine clear, no L2 miss more. */
static void test_pebs_assist_cost(void **state)
{
    (void)state;
    struct tb t;
    write_assist_trace(&t, true, 0);
    struct assist_counts with = assist_run(t.path, true, 4), without = assist_run(t.path, false, 4);
    assert_int_equal(with.records, 1);
    assert_int_equal(without.records, 0);
    assert_int_equal(with.cycles - without.cycles, 29);
    assert_int_equal(with.clears, 1);
    assert_int_equal(without.clears, 0);
    assert_int_equal(with.l2_misses, without.l2_misses);
    unlink(t.path);
}

/* The PEBS buffer not in the caches: the record's first store, written to
 * the caches at its retirement (X + 18), misses the L2: a read for
 * ownership from memory, L2 latency + memory latency (207 cycles) before
 * its store-buffer entry is free.  One L2 miss more (the other slots are
 * in the same line), and the machine is done at X + 18 + 1 + 207 + 1. */
static void test_pebs_assist_stores(void **state)
{
    (void)state;
    struct tb t;
    write_assist_trace(&t, false, 0);
    struct assist_counts with = assist_run(t.path, true, 3), without = assist_run(t.path, false, 3);
    assert_int_equal(with.records, 1);
    assert_int_equal(with.l2_misses, without.l2_misses + 1);
    assert_int_equal(with.cycles - without.cycles, 18 + 1 + 207);
    unlink(t.path);
}

/* 30 adds after the tagged load: the model timed them before the PMU's
 * assist (they retire from X + 1 on: the first needs the load's EAX), but
 * the assist flushed them: they run again after it, the first retiring
 * queue_to_alloc + alloc_to_exec + 2 (14) cycles after the restart at
 * X + 30, the others over the span they took: the machine is done
 * (X + 44) - (X + 1) = 43 cycles later. */
static void test_pebs_assist_flush(void **state)
{
    (void)state;
    struct tb t;
    write_assist_trace(&t, true, 30);
    struct assist_counts with = assist_run(t.path, true, 4), without = assist_run(t.path, false, 4);
    assert_int_equal(with.records, 1);
    assert_int_equal(with.cycles - without.cycles, 43);
    assert_int_equal(with.clears, 1);
    unlink(t.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_front_end_tagging),
        cmocka_unit_test(test_execution_tagging),
        cmocka_unit_test(test_execution_tagging_simd),
        cmocka_unit_test(test_replay_cache_misses),
        cmocka_unit_test(test_replay_dtlb_misses),
        cmocka_unit_test(test_replay_mispredicted_branch),
        cmocka_unit_test(test_replay_mob),
        cmocka_unit_test(test_replay_upstream_cpl),
        cmocka_unit_test(test_replay_splits),
        cmocka_unit_test(test_pebs_record),
        cmocka_unit_test(test_pebs_store_metric),
        cmocka_unit_test(test_iebs_delivery_latency),
        cmocka_unit_test(test_iebs_bus_clock_edge),
        cmocka_unit_test(test_iebs_rob_in_flight),
        cmocka_unit_test(test_pebs_assist_cost),
        cmocka_unit_test(test_pebs_assist_stores),
        cmocka_unit_test(test_pebs_assist_flush),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
