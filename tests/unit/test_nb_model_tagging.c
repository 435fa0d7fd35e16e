/* Tagging and sampling in the NetBurst timing model (docs/netburst-model.md,
 * "Tagging" and "Sampling"): hand-made traces, the PMU programmed by MSR
 * writes, exact counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmu/netburst_events.h"
#include "pmu/netburst_fields.h"
#include "pmu/netburst_msrs.h"
#include "pmu/netburst_pmu.h"
#include "sim/netburst/nb_model.h"
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

/* ---- the PMU */

enum { ESCR_T0 = 0xc }; /* T0_OS | T0_USR */

/* Programs `event` with `subevents` ('|'-separated) and the extra ESCR bits
 * on ESCR `escr`, read by counter `counter` with the extra CCCR bits
 * (ENABLE, ACTIVE_THREAD 11 always; `counter` < 0: no counter). */
static void program(struct nb_pmu *pmu, const char *name, const char *subevents, int escr,
                    uint64_t escr_bits, int counter, uint64_t cccr_bits)
{
    const struct nb_event *event = &nb_events[nb_event_find(name)];
    char copy[128];
    snprintf(copy, sizeof copy, "%s", subevents);
    uint64_t mask = 0;
    for (char *save, *sub = strtok_r(copy, "|", &save); sub; sub = strtok_r(NULL, "|", &save)) {
        assert_non_null(nb_subevent_find(event, sub));
        mask |= 1u << nb_subevent_find(event, sub)->bit;
    }
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
    m->backend = nb_backend_create((struct nb_config){m->config.model, false});
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
    out[0] = m.pmu->counter[16];
    out[1] = m.pmu->counter[12];
    out[2] = m.pmu->counter[14];
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
    assert_int_equal(m.pmu->counter[8], 5);   /* the upstream event's detections */
    assert_int_equal(m.pmu->counter[12], 5);  /* exactly those uops, at retirement */
    assert_int_equal(m.pmu->counter[14], 0);  /* no other tag bit */
    msr_backend_destroy(m.backend);
    unlink(t.path);
}

/* ---- replay tagging: 1stL_cache_load_miss_retired */

/* Three loads of distinct lines (L1 misses), then the same three (hits). */
static void write_miss_then_hit(struct tb *t)
{
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < 3; k++) {
            uint64_t at = 0x1000 + 5 * (uint64_t)(3 * pass + k);
            tb_plain(t, at, ADD_EAX_1);
            tb_access(t, at + 3, LOAD, TRACE_LOAD, 0x8000 + 0x40 * (uint64_t)k, 4);
        }
}

static uint64_t replay_count(const char *path, uint64_t pebs_enable)
{
    struct model m;
    model_open(&m);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, MSR_IA32_PEBS_ENABLE, pebs_enable), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(m.pmu, MSR_PEBS_MATRIX_VERT, 1), MSR_OK);
    program(m.pmu, "replay_event", "NBOGUS", NB_ESCR_CRU2, 0, 12, 0);
    model_run(&m, path, NULL);
    uint64_t count = m.pmu->counter[12];
    msr_backend_destroy(m.backend);
    return count;
}

static void test_replay_tagging(void **state)
{
    (void)state;
    struct tb t;
    tb_open_registers(&t);
    write_miss_then_hit(&t);
    tb_close(&t);
    assert_int_equal(replay_count(t.path, 0x01000001), 3); /* bit 0 + UOP_TAG (24) */
    assert_int_equal(replay_count(t.path, 0x00000001), 0); /* no UOP_TAG: no tagging */
    assert_int_equal(replay_count(t.path, 0x01000002), 0); /* the L2 metric: not modelled */
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
        assert_true(sim_memory_write(&pmu->memory, fields[i].addr, fields[i].size,
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
    m.config.pmi_skid = 0;
    struct samples s = {0};
    struct nbm_hooks hook = {.sample = on_sample, .context = &s};
    model_run(&m, t.path, &hook);
    const struct sim_memory *mem = &m.pmu->memory;
    assert_int_equal(sim_memory_read(mem, 0x1014, 4), 0x2028); /* one record */
    assert_int_equal(sim_memory_read(mem, 0x2004, 4), 0x1005); /* its EIP: precise */
    /* EFLAGS, then EAX EBX ECX EDX ESI EDI EBP ESP (enum nb_reg order). */
    const uint64_t want[] = {0x202, 0x1005, 1, 4, 2, 3, 7, 8, 6, 5};
    for (unsigned k = 0; k < 10; k++)
        assert_int_equal(sim_memory_read(mem, 0x2000 + 4 * (uint64_t)k, 4), want[k]);
    /* Reset to 0, then the recorded uop and the third miss count. */
    assert_int_equal(m.pmu->counter[16], 2);
    /* The threshold PMI, taken at once (pmi_skid 0), flagged precise; its
     * EIP is the cycle's last retirement: the third load, whose miss
     * overlapped the second's and retired in the same cycle. */
    assert_int_equal(s.n, 1);
    assert_true(s.precise);
    assert_int_equal(s.eip, 0x1007);
    msr_backend_destroy(m.backend);
    unlink(t.path);
}

/* ---- IEBS: PMIs taken pmi_skid cycles after delivery */

/* 60 adds; instr_retired overflows on the 10th: the PMI's sample. */
static struct samples iebs_sample(const char *path, uint32_t skid)
{
    struct model m;
    model_open(&m);
    m.config.pmi_skid = skid;
    assert_int_equal(nb_pmu_wrmsr(m.pmu, NB_COUNTER_BASE + 12, 0xffffffffffull - 9), MSR_OK);
    program(m.pmu, "instr_retired", "NBOGUSNTAG", NB_ESCR_CRU0, 0, 12, CCCR_OVF_PMI_T0);
    struct samples s = {0};
    struct nbm_hooks hook = {.sample = on_sample, .context = &s};
    model_run(&m, path, &hook);
    uint64_t since;
    assert_false(nb_pmu_pending_pmi(m.pmu, 0, &since)); /* taken */
    msr_backend_destroy(m.backend);
    return s;
}

static void test_iebs_skid(void **state)
{
    (void)state;
    struct tb t;
    tb_open_registers(&t);
    for (int k = 0; k < 60; k++)
        tb_plain(&t, 0x1000 + 3 * (uint64_t)k, ADD_EAX_1);
    tb_close(&t);
    struct samples now = iebs_sample(t.path, 0), later = iebs_sample(t.path, 4);
    assert_int_equal(now.n, 1);
    assert_int_equal(later.n, 1);
    assert_int_equal(now.thread, 0);
    assert_false(now.precise);
    assert_int_equal(now.cycle, later.cycle);   /* the same delivery */
    /* Delivered after cycle 252 (the first fetch waits for the ITLB walk
     * and a memory read); by then the 11th add (0x101e) has retired.  The
     * adds are all built, one a cycle: 4 cycles later, 4 adds later. */
    assert_int_equal(now.cycle, 252);
    assert_int_equal(now.eip, 0x101e);
    assert_int_equal(later.eip, 0x101e + 4 * 3);
    unlink(t.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_front_end_tagging),
        cmocka_unit_test(test_execution_tagging),
        cmocka_unit_test(test_replay_tagging),
        cmocka_unit_test(test_pebs_record),
        cmocka_unit_test(test_iebs_skid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
