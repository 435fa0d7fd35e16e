/* Sampling on the simulated NetBurst PMU (docs/semantics.md, "Simulated
 * memory", "PEBS", "IEBS"): the sparse memory, the retirement interface,
 * the PEBS microassist and the pending PMIs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/catalog/netburst_metrics.h"
#include "pmu/emulated/netburst_pmu_state.h" /* white-box: the PMU's state */
#include "pmu/emulated/sim_memory.h"

static struct nb_pmu *pmu;

/* Frees the PMU under test; another init may follow. */
static void release(void)
{
    nb_pmu_destroy(pmu);
    pmu = NULL;
}

#define PEBS_CTR (NB_COUNTER_BASE + NB_PEBS_COUNTER)
#define PEBS_CCCR (NB_CCCR_BASE + NB_PEBS_COUNTER)
#define CRU_ESCR2 0x3ccu
#define REPLAY_NBOGUS_T0_USR 0x12000204u  /* replay_event NBOGUS T0_USR */
#define CCCR4_PMI_T0 0x0403b000u          /* ENABLE, select 5, any thread, OVF_PMI_T0 */
#define DS 0x1000u
#define BUF 0x2000u

static int teardown(void **state)
{
    (void)state;
    release();
    return 0;
}

static void wr(uint32_t msr, uint64_t value)
{
    assert_int_equal(nb_pmu_wrmsr(pmu, msr, value), MSR_OK);
}

static uint64_t mem(uint64_t addr, unsigned size)
{
    return sim_memory_read(&pmu->memory, addr, size);
}

static void set_mem(uint64_t addr, unsigned size, uint64_t value)
{
    assert_true(sim_memory_write(&pmu->memory, addr, size, value));
}

/* A 32-bit DS save area at DS: buffer BUF, `records` records of 40
 * bytes, threshold after `threshold` records, counter reset `reset`. */
static void setup_ds32(unsigned records, unsigned threshold, uint64_t reset)
{
    set_mem(DS + 0x10, 4, BUF);
    set_mem(DS + 0x14, 4, BUF);
    set_mem(DS + 0x18, 4, BUF + 40 * records);
    set_mem(DS + 0x1c, 4, BUF + 40 * threshold);
    set_mem(DS + 0x20, 8, reset);
    wr(MSR_IA32_DS_AREA, DS);
}

/* PEBS for thread 0 on replay tagging, IQ_COUNTER4 one count from overflow. */
static void setup_pebs(int model)
{
    assert_non_null(pmu = nb_pmu_create((struct nb_pmu_config){.model = model, .ht = true}));
    setup_ds32(4, 2, 0xffffffffff);
    wr(MSR_IA32_PEBS_ENABLE, PEBS_ENABLE_UOP_TAG | PEBS_ENABLE_PEBS | 1);
    wr(MSR_PEBS_MATRIX_VERT, 1);
    wr(CRU_ESCR2, REPLAY_NBOGUS_T0_USR);
    wr(PEBS_CTR, 0xffffffffff);
    wr(PEBS_CCCR, CCCR4_PMI_T0);
}

static void overflow_pebs_counter(void)
{
    assert_true(nb_pmu_event(pmu, nb_event_find("replay_event"), 1, 0, 1));
    nb_pmu_tick(pmu);
    assert_true(pmu->last.overflow[NB_PEBS_COUNTER]);
}

static bool retire(int thread, uint64_t eip, uint8_t tags, const uint64_t *regs)
{
    struct nb_retirement r = {.eip = eip, .tags = tags, .regs = regs};
    return nb_pmu_retire(pmu, thread, &r);
}

/* Pages are made on write; reads of unwritten bytes are zero; accesses
 * straddle pages and wrap at 2^64; many pages keep their order. */
static void test_sim_memory(void **state)
{
    (void)state;
    struct sim_memory m;
    sim_memory_init(&m);
    assert_int_equal(sim_memory_read(&m, 0x1234, 8), 0);
    assert_true(sim_memory_write(&m, 0x1ffe, 4, 0xa1b2c3d4));
    assert_int_equal(sim_memory_read(&m, 0x1ffe, 4), 0xa1b2c3d4);
    assert_int_equal(sim_memory_read(&m, 0x2000, 2), 0xa1b2);
    assert_int_equal(sim_memory_read(&m, 0x1fff, 1), 0xc3);
    assert_true(sim_memory_write(&m, UINT64_MAX, 2, 0x1122));
    assert_int_equal(sim_memory_read(&m, UINT64_MAX, 1), 0x22);
    assert_int_equal(sim_memory_read(&m, 0, 1), 0x11);
    for (uint64_t page = 40; page > 0; page--)
        assert_true(sim_memory_write(&m, page << 12, 8, page));
    for (uint64_t page = 1; page <= 40; page++)
        assert_int_equal(sim_memory_read(&m, page << 12, 8), page);
    assert_int_equal(sim_memory_read(&m, 0x1ffe, 2), 0xc3d4);
    sim_memory_fini(&m);
    assert_int_equal(m.n_pages, 0);
}

/* The record holds EFLAGS, the EIP and the registers in the SDM's order;
 * the index advances by 40; the counter is reloaded. */
static void test_record_32(void **state)
{
    (void)state;
    setup_pebs(2);
    overflow_pebs_counter();
    uint64_t regs[NB_NUM_REGS];
    for (int i = 0; i < NB_NUM_REGS; i++)
        regs[i] = 0x100000000ull + (uint64_t)i * 0x11;
    pmu->counter[NB_PEBS_COUNTER] = 5;
    set_mem(DS + 0x20, 8, 0xffffff0000ull | 0xff00000000000000ull); /* bits above 39 dropped */
    assert_true(retire(0, 0x401000, NB_TAG_REPLAY, regs));
    assert_int_equal(mem(BUF, 4), regs[NB_REG_FLAGS] & 0xffffffff);
    assert_int_equal(mem(BUF + 4, 4), 0x401000);
    static const int order[] = {NB_REG_AX, NB_REG_BX, NB_REG_CX, NB_REG_DX,
                                NB_REG_SI, NB_REG_DI, NB_REG_BP, NB_REG_SP};
    for (int k = 0; k < 8; k++)
        assert_int_equal(mem(BUF + 8 + 4 * (unsigned)k, 4), regs[order[k]] & 0xffffffff);
    assert_int_equal(mem(BUF + 40, 4), 0);
    assert_int_equal(mem(DS + 0x14, 4), BUF + 40);
    assert_int_equal(pmu->counter[NB_PEBS_COUNTER], 0xffffff0000ull);
    assert_int_equal(pmu->pebs_armed, 0);
    assert_int_equal(pmu->pebs_pmi_raised, 0);
}

/* The PEBS-threshold PMI is delivered at the end of the record's cycle and
 * becomes pending like any PMI. */
static void test_threshold_pmi_pending(void **state)
{
    (void)state;
    setup_pebs(2);
    set_mem(DS + 0x1c, 4, BUF + 40);
    overflow_pebs_counter();
    assert_true(retire(0, 0x401000, NB_TAG_REPLAY, NULL));
    nb_pmu_tick(pmu);
    assert_int_equal(pmu->last.pebs_pmi, 1);
    uint64_t since = 0;
    assert_true(nb_pmu_pending_pmi(pmu, 0, &since));
    assert_int_equal(since, pmu->cycles);
    nb_pmu_tick(pmu);
    assert_int_equal(pmu->last.pebs_pmi, 0);
    struct nb_pmi_sample sample;
    assert_true(nb_pmu_take_pmi(pmu, 0, &sample));
    assert_int_equal(sample.delivered, 2);
    assert_int_equal(sample.eip, 0x401000);
    assert_false(nb_pmu_take_pmi(pmu, 0, &sample));
    assert_false(nb_pmu_pending_pmi(pmu, 1, &since));
    assert_false(nb_pmu_pending_pmi(pmu, 2, &since));
    assert_false(nb_pmu_pending_pmi(pmu, -1, &since));
}

/* Bad threads, and IA-32e retirements on a 32-bit model, are refused. */
static void test_retire_refuses(void **state)
{
    (void)state;
    assert_non_null(pmu = nb_pmu_create((struct nb_pmu_config){.model = 2, .ht = false}));
    assert_false(retire(1, 0x1000, 0, NULL));
    assert_false(retire(-1, 0x1000, 0, NULL));
    struct nb_retirement r = {.eip = 0x1000, .ia32e = true};
    assert_false(nb_pmu_retire(pmu, 0, &r));
    assert_true(retire(0, 0x1000, NB_TAG_REPLAY, NULL));
    assert_int_equal(pmu->last_eip[0], 0x1000);
}

/* Without an ESCR behind IQ_CCCR4's select, or with IQ_COUNTER4 counting
 * an event that cannot tag, no uop takes the assist. */
static void test_no_mechanism(void **state)
{
    (void)state;
    setup_pebs(2);
    overflow_pebs_counter();
    wr(CRU_ESCR2, 0);  /* no event selected */
    assert_true(retire(0, 0x401000, 0xff, NULL));
    assert_int_equal(pmu->pebs_armed, 1);
    wr(CRU_ESCR2, 0x0c001e0f);  /* branch_retired */
    assert_true(retire(0, 0x401000, 0xff, NULL));
    assert_int_equal(pmu->pebs_armed, 1);
    wr(PEBS_CCCR, CCCR4_PMI_T0 | (7ull << CCCR_ESCR_SELECT_SHIFT));  /* select 7: no ESCR */
    assert_true(retire(0, 0x401000, 0xff, NULL));
    assert_int_equal(pmu->pebs_armed, 1);
    assert_int_equal(mem(DS + 0x14, 4), BUF);
}

/* A counter reset of 0, an absolute maximum below one record, and DS
 * fields that wrap the 32-bit linear address space. */
static void test_ds_edges(void **state)
{
    (void)state;
    setup_pebs(2);
    set_mem(DS + 0x18, 4, 39);  /* smaller than a record */
    overflow_pebs_counter();
    assert_true(retire(0, 0x401000, NB_TAG_REPLAY, NULL));
    assert_int_equal(mem(DS + 0x14, 4), BUF);
    assert_int_equal(pmu->counter[NB_PEBS_COUNTER], 0);

    /* DS_AREA near the top: the fields wrap to low addresses. */
    wr(MSR_IA32_DS_AREA, 0xfffffff8);
    set_mem(0x08, 4, 0xffffffd0);  /* +0x10 buffer base */
    set_mem(0x0c, 4, 0xffffffd0);  /* +0x14 index */
    set_mem(0x10, 4, 0xffffffff);  /* +0x18 absolute maximum */
    set_mem(0x14, 4, 0xffffffff);  /* +0x1c threshold */
    set_mem(0x18, 8, 0x1234);      /* +0x20 counter reset */
    wr(PEBS_CTR, 0xffffffffff);
    overflow_pebs_counter();
    assert_true(retire(0, 0x401004, NB_TAG_REPLAY, NULL));
    assert_int_equal(mem(0xffffffd4, 4), 0x401004);
    assert_int_equal(mem(0x0c, 4), 0xfffffff8);
    assert_int_equal(pmu->counter[NB_PEBS_COUNTER], 0x1234);
    /* the next record would pass the absolute maximum: none */
    wr(PEBS_CTR, 0xffffffffff);
    overflow_pebs_counter();
    assert_true(retire(0, 0x401008, NB_TAG_REPLAY, NULL));
    assert_int_equal(mem(0x0c, 4), 0xfffffff8);
    assert_int_equal(mem(0xfffffffc, 4), 0);
}

/* PEBS off costs nothing per cycle: an overflow of IQ_COUNTER4 arms an
 * ordinary PMI and nothing else. */
static void test_pebs_off_is_ordinary(void **state)
{
    (void)state;
    setup_pebs(2);
    wr(MSR_IA32_PEBS_ENABLE, PEBS_ENABLE_UOP_TAG | 1);
    overflow_pebs_counter();
    assert_int_equal(pmu->pebs_armed, 0);
    assert_int_equal(pmu->pmi_armed[NB_PEBS_COUNTER], 1);
}

/* The tagging queries a timing model asks (docs/semantics.md, "Tagging
 * queries"), on an HT PMU: uop_type TAGLOADS T0_USR on RAT_ESCR0 (select
 * 2 << 25, mask bit 1 << 9 + 1, T0_USR 4); x87_FP_uop ALL (select 4, bit
 * 15) on FIRM_ESCR0 with Tag Enable and tag value 0101 for T0 OS and USR. */
static void test_tag_queries(void **state)
{
    (void)state;
    assert_non_null(pmu = nb_pmu_create((struct nb_pmu_config){.model = 2, .ht = true}));
    int uop_type = nb_event_find("uop_type"), x87 = nb_event_find("x87_FP_uop");
    int fe = nb_event_find("front_end_event");
    uint16_t all = 1u << 15;
    assert_int_equal(nb_pmu_selected_mask(pmu, uop_type, 0, 3), 0);
    wr(0x3bc, 0x04000404); /* MSR_RAT_ESCR0 */
    assert_int_equal(nb_pmu_selected_mask(pmu, uop_type, 0, 3), 2);
    assert_int_equal(nb_pmu_selected_mask(pmu, uop_type, 0, 0), 0); /* OS: not selected */
    assert_int_equal(nb_pmu_selected_mask(pmu, uop_type, 1, 3), 0); /* thread 1 (TS) */
    assert_int_equal(nb_pmu_selected_mask(pmu, fe, 0, 3), 0);       /* another event */
    uint64_t x87_escr = 0x08000000ull | (uint64_t)all << 9 | 0x5u << 5 | 0xc;
    wr(0x3a4, x87_escr); /* MSR_FIRM_ESCR0, without Tag Enable */
    assert_int_equal(nb_pmu_tag_bits(pmu, x87, all, 0, 3), 0);
    wr(0x3a4, x87_escr | ESCR_TAG_ENABLE);
    assert_int_equal(nb_pmu_tag_bits(pmu, x87, all, 0, 3), 5);
    assert_int_equal(nb_pmu_tag_bits(pmu, x87, all, 0, 0), 5);
    assert_int_equal(nb_pmu_tag_bits(pmu, x87, 1, 0, 3), 0);   /* a sub-event it does not select */
    /* ALL is thread independent (SDM Table A-15): thread 1 qualifies too. */
    assert_int_equal(nb_pmu_tag_bits(pmu, x87, all, 1, 3), 5);
    assert_int_equal(nb_pmu_tag_bits(pmu, uop_type, 2, 0, 3), 0); /* no Tag Enable there */
}

int main(void)
{
#define T(f) cmocka_unit_test_teardown(f, teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sim_memory),
        T(test_record_32),
        T(test_threshold_pmi_pending),
        T(test_retire_refuses),
        T(test_no_mechanism),
        T(test_ds_edges),
        T(test_pebs_off_is_ordinary),
        T(test_tag_queries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
