/* The simulated NetBurst PMU: reset state, RDMSR/WRMSR and reserved bits,
 * RDPMC, threads, events and the per-cycle pipeline (docs/semantics.md,
 * "Reserved bits (NetBurst)", "Per-cycle order", "Counters and overflow",
 * "PMI", "Cascading", "RDPMC", "Hyper-Threading off", "Models"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/emulated/netburst_pmu_state.h" /* white-box: the PMU's state */

static struct nb_pmu *pmu;

/* Frees the PMU under test; another init may follow. */
static void release(void)
{
    nb_pmu_destroy(pmu);
    pmu = NULL;
}
static const int models[] = {0, 1, 2, 3, 4, 6};
#define N_MODELS (sizeof models / sizeof models[0])

#define CTR(c) (NB_COUNTER_BASE + (uint32_t)(c))
#define CCCR(c) (NB_CCCR_BASE + (uint32_t)(c))
#define SEL(s) ((uint64_t)(s) << CCCR_ESCR_SELECT_SHIFT)
#define AT(n) ((uint64_t)(n) << CCCR_ACTIVE_THREAD_SHIFT)
#define THR(n) ((uint64_t)(n) << CCCR_THRESHOLD_SHIFT)
#define ESCR(select, mask, tbits) \
    (((uint64_t)(select) << 25) | ((uint64_t)(mask) << 9) | (uint64_t)(tbits))
#define CRU_ESCR2 0x3ccu
#define CRU_ESCR3 0x3cdu
#define MAX40 0xffffffffffull
/* branch_retired: select 6, MMNP 0 MMNM 1 MMTP 2 MMTM 3 */
#define MMTP 0x4
#define MMTM 0x8
#define BR_T0_USR ESCR(6, 0xf, ESCR_T0_USR)
/* a counter that counts 1 in every enabled cycle whatever its output: output <= 15 */
#define ALWAYS_ONE (CCCR_ENABLE | CCCR_COMPARE | CCCR_COMPLEMENT | THR(15) | AT(3))

static int br;

static void init(int model, bool ht)
{
    assert_non_null(pmu = nb_pmu_create((struct nb_pmu_config){.model = model, .ht = ht}));
}

static int teardown(void **state)
{
    (void)state;
    release();
    return 0;
}

static uint64_t rd(uint32_t msr)
{
    uint64_t v = 0x5555;
    assert_int_equal(nb_pmu_rdmsr(pmu, msr, &v), MSR_OK);
    return v;
}

static void wr(uint32_t msr, uint64_t value)
{
    assert_int_equal(nb_pmu_wrmsr(pmu, msr, value), MSR_OK);
    (void)rd(msr);
}

/* A write that must #GP and change nothing. */
static void gp(uint32_t msr, uint64_t value)
{
    uint64_t before = 0, after = 0;
    msr_status readable = nb_pmu_rdmsr(pmu, msr, &before);
    struct nb_pmu copy = *pmu;
    assert_int_equal(nb_pmu_wrmsr(pmu, msr, value), MSR_GP);
    if (readable == MSR_OK) {
        assert_int_equal(nb_pmu_rdmsr(pmu, msr, &after), MSR_OK);
        assert_int_equal(after, before);
    }
    assert_memory_equal(pmu->escr, copy.escr, sizeof pmu->escr);
    assert_memory_equal(pmu->cccr, copy.cccr, sizeof pmu->cccr);
    assert_memory_equal(pmu->counter, copy.counter, sizeof pmu->counter);
    assert_memory_equal(pmu->edge_history, copy.edge_history, sizeof pmu->edge_history);
    assert_memory_equal(pmu->pmi_armed, copy.pmi_armed, sizeof pmu->pmi_armed);
    assert_memory_equal(pmu->escr_event, copy.escr_event, sizeof pmu->escr_event);
    assert_int_equal(pmu->pebs_enable, copy.pebs_enable);
    assert_int_equal(pmu->pebs_matrix_vert, copy.pebs_matrix_vert);
    assert_int_equal(pmu->tc_precise_event, copy.tc_precise_event);
    assert_int_equal(pmu->ds_area, copy.ds_area);
    assert_int_equal(pmu->misc_enable, copy.misc_enable);
}

static void event(int ev, uint16_t mask, int thread, uint32_t count)
{
    assert_true(nb_pmu_event(pmu, ev, mask, thread, count));
}

/* A cycle in which thread 0 retires `count` branches (MMTP). */
static void branch_cycle(uint32_t count)
{
    event(br, MMTP, 0, count);
    nb_pmu_tick(pmu);
}

/* ---- reset, models */

static void test_reset_values(void **state)
{
    (void)state;
    for (size_t m = 0; m < N_MODELS; m++) {
        for (int ht = 0; ht < 2; ht++) {
            init(models[m], ht);
            assert_int_equal(rd(0x1a0), 0x80); /* MISC_ENABLE: bit 7 set, 11 and 12 clear */
            assert_int_equal(rd(0x3f0), 0xfc00);
            assert_int_equal(rd(0x3f1), 0);
            assert_int_equal(rd(0x3f2), 0);
            assert_int_equal(rd(0x600), 0);
            for (int c = 0; c < NB_NUM_COUNTERS; c++) {
                assert_int_equal(rd(CTR(c)), 0);
                assert_int_equal(rd(CCCR(c)), 0);
            }
            for (int e = 0; e < NB_NUM_ESCRS; e++) {
                if (nb_escr_present(e, models[m]))
                    assert_int_equal(rd(nb_escrs[e].msr), 0);
                assert_int_equal(pmu->escr_event[e], -1);
            }
            assert_true(pmu->thread[0].active);
            assert_int_equal(pmu->thread[0].cpl, 3);
            assert_false(pmu->thread[1].active);
            assert_int_equal(pmu->thread[1].cpl, 3);
            assert_int_equal(pmu->cycles, 0);
            assert_int_equal(pmu->config.model, models[m]);
            assert_int_equal(pmu->config.ht, ht);
            release();
        }
    }
}

static void test_models(void **state)
{
    (void)state;
    for (int m = -2; m < 20; m++) {
        bool want = m == 0 || m == 1 || m == 2 || m == 3 || m == 4 || m == 6;
        assert_int_equal(nb_cpuid_model_supported(m), want);
        assert_int_equal(((pmu = nb_pmu_create((struct nb_pmu_config){.model = m, .ht = true})) != NULL), want);
        release();
    }
}

/* ---- reserved bits */

static void test_unknown_msrs_gp(void **state)
{
    (void)state;
    static const uint32_t bad[] = {0x0, 0x10, 0x11, 0x2ff, 0x312, 0x35f, 0x372, 0x39f,
                                   0x3bf, 0x3c6, 0x3c7, 0x3ce, 0x3d5, 0x3df, 0x3e2, 0x3f3,
                                   0x19f, 0x1a1, 0x5ff, 0x601, 0xffffffff};
    for (size_t m = 0; m < N_MODELS; m++) {
        init(models[m], true);
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            uint64_t v = 0x1234;
            assert_int_equal(nb_pmu_rdmsr(pmu, bad[i], &v), MSR_GP);
            gp(bad[i], 0);
            gp(bad[i], 1);
        }
        release();
    }
}

static void test_iq_escr_models(void **state)
{
    (void)state;
    for (size_t m = 0; m < N_MODELS; m++) {
        init(models[m], true);
        uint64_t v;
        if (models[m] <= 2) {
            wr(0x3ba, 0x12345678);
            assert_int_equal(rd(0x3ba), 0x12345678);
            wr(0x3bb, 0x7fffffff);
            assert_int_equal(rd(0x3bb), 0x7fffffff);
        } else {
            assert_int_equal(nb_pmu_rdmsr(pmu, 0x3ba, &v), MSR_GP);
            assert_int_equal(nb_pmu_rdmsr(pmu, 0x3bb, &v), MSR_GP);
            gp(0x3ba, 0);
            gp(0x3bb, 0x4);
        }
        release();
    }
}

static void test_escr_reserved_bits(void **state)
{
    (void)state;
    init(2, true);
    for (int e = 0; e < NB_NUM_ESCRS; e++) {
        uint32_t msr = nb_escrs[e].msr;
        wr(msr, 0x7fffffff);
        assert_int_equal(rd(msr), 0x7fffffff);
        gp(msr, 0x80000000ull);
        gp(msr, 1ull << 32);
        gp(msr, 1ull << 63);
        assert_int_equal(rd(msr), 0x7fffffff);
        wr(msr, 0x3);
        assert_int_equal(rd(msr), 0x3);
    }
    release();

    init(2, false); /* T1_OS, T1_USR reserved */
    for (int e = 0; e < NB_NUM_ESCRS; e++) {
        uint32_t msr = nb_escrs[e].msr;
        wr(msr, 0x7ffffffc);
        assert_int_equal(rd(msr), 0x7ffffffc);
        gp(msr, 0x1);
        gp(msr, 0x2);
        gp(msr, 0x7fffffff);
        gp(msr, 0x80000000ull);
        assert_int_equal(rd(msr), 0x7ffffffc);
    }
}

static bool has_bit11(int model, int c)
{
    return model >= 2 && (c == 12 || c == 15 || c == 16 || c == 17);
}

static void test_cccr_reserved_bits_ht(void **state)
{
    (void)state;
    for (size_t m = 0; m < N_MODELS; m++) {
        init(models[m], true);
        for (int c = 0; c < NB_NUM_COUNTERS; c++) {
            wr(CCCR(c), 0xcffff000ull);
            assert_int_equal(rd(CCCR(c)), 0xcffff000ull);
            for (int b = 0; b < 64; b++) {
                uint64_t v = 1ull << b;
                bool writable = (b >= 12 && b <= 27) || b == 30 || b == 31 ||
                                (b == 11 && has_bit11(models[m], c));
                if (writable) {
                    wr(CCCR(c), v);
                    assert_int_equal(rd(CCCR(c)), v);
                } else {
                    gp(CCCR(c), v | CCCR_ENABLE | AT(3));
                }
            }
            /* every ACTIVE_THREAD value is allowed with HT */
            for (unsigned at = 0; at < 4; at++) {
                wr(CCCR(c), CCCR_ENABLE | AT(at));
                assert_int_equal(rd(CCCR(c)), CCCR_ENABLE | AT(at));
            }
        }
        release();
    }
}

static void test_cccr_reserved_bits_no_ht(void **state)
{
    (void)state;
    for (size_t m = 0; m < N_MODELS; m++) {
        init(models[m], false);
        for (int c = 0; c < NB_NUM_COUNTERS; c++) {
            wr(CCCR(c), 0xc7fff000ull);
            assert_int_equal(rd(CCCR(c)), 0xc7fff000ull);
            gp(CCCR(c), 0xcffff000ull);                   /* bit 27 OVF_PMI_T1 */
            gp(CCCR(c), AT(3) | CCCR_OVF_PMI_T1);
            wr(CCCR(c), 0);            /* stopping a counter: ACTIVE_THREAD may be 00 */
            assert_int_equal(rd(CCCR(c)), 0);
            gp(CCCR(c), CCCR_CASCADE);                    /* can count: must be 11 */
            gp(CCCR(c), CCCR_ENABLE | AT(1));
            gp(CCCR(c), CCCR_ENABLE | AT(2));
            gp(CCCR(c), CCCR_ENABLE);
            gp(CCCR(c), AT(3) | (1ull << 28));
            gp(CCCR(c), AT(3) | 1);
            wr(CCCR(c), AT(3));
            assert_int_equal(rd(CCCR(c)), AT(3));
            if (has_bit11(models[m], c)) {
                wr(CCCR(c), AT(3) | CCCR_EXTENDED_CASCADE);
                assert_int_equal(rd(CCCR(c)), AT(3) | CCCR_EXTENDED_CASCADE);
            } else {
                gp(CCCR(c), AT(3) | CCCR_EXTENDED_CASCADE);
            }
        }
        release();
    }
}

static void test_counters_drop_high_bits(void **state)
{
    (void)state;
    init(2, true);
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        wr(CTR(c), ~0ull);
        assert_int_equal(rd(CTR(c)), MAX40);
        wr(CTR(c), 0xffffff0000000001ull);
        assert_int_equal(rd(CTR(c)), 1);
        wr(CTR(c), 0x123456789aull);
        assert_int_equal(rd(CTR(c)), 0x123456789aull);
        wr(CTR(c), 1ull << 40);
        assert_int_equal(rd(CTR(c)), 0);
    }
}

static void test_pebs_enable_bits(void **state)
{
    (void)state;
    for (int ht = 0; ht < 2; ht++) {
        init(2, ht);
        for (int b = 0; b < 64; b++) {
            bool writable = b <= 12 || b == 15 || b == 16 || b == 24 || b == 25 || (b == 26 && ht);
            if (writable) {
                wr(0x3f1, 1ull << b);
                assert_int_equal(rd(0x3f1), 1ull << b);
            } else {
                gp(0x3f1, 1ull << b);
            }
        }
        uint64_t all = 0x1fffull | (1ull << 15) | (1ull << 16) | (1ull << 24) | (1ull << 25) |
                       (ht ? 1ull << 26 : 0);
        wr(0x3f1, all);
        assert_int_equal(rd(0x3f1), all);
        release();
    }
}

static void test_matrix_vert_bits(void **state)
{
    (void)state;
    init(2, true);
    for (int b = 0; b < 64; b++) {
        if (b == 0 || b == 1 || b == 4) {
            wr(0x3f2, 1ull << b);
            assert_int_equal(rd(0x3f2), 1ull << b);
        } else {
            gp(0x3f2, 1ull << b);
        }
    }
    wr(0x3f2, 0x13);
    assert_int_equal(rd(0x3f2), 0x13);
}

static void test_tc_precise_event_bits(void **state)
{
    (void)state;
    init(2, true);
    wr(0x3f0, 0xffffffff);
    assert_int_equal(rd(0x3f0), 0xffffffff);
    gp(0x3f0, 1ull << 32);
    gp(0x3f0, ~0ull);
    wr(0x3f0, 0);
    assert_int_equal(rd(0x3f0), 0);
}

static void test_ds_area_bits(void **state)
{
    (void)state;
    for (size_t m = 0; m < N_MODELS; m++) {
        init(models[m], true);
        wr(0x600, 0xfffff000);
        assert_int_equal(rd(0x600), 0xfffff000);
        if (models[m] <= 2) {
            gp(0x600, 1ull << 32);
            gp(0x600, 0xffff800000001000ull);
        } else {
            wr(0x600, 0xffff800000001000ull);
            assert_int_equal(rd(0x600), 0xffff800000001000ull);
            wr(0x600, ~0ull);
            assert_int_equal(rd(0x600), ~0ull);
        }
        release();
    }
}

static void test_misc_enable_read_only_bits(void **state)
{
    (void)state;
    init(2, true);
    wr(0x1a0, 0);
    assert_int_equal(rd(0x1a0), 0x80);
    wr(0x1a0, ~0ull);
    assert_int_equal(rd(0x1a0), ~0ull & ~0x1800ull);
    wr(0x1a0, 0x1801);
    assert_int_equal(rd(0x1a0), 0x81);
    wr(0x1a0, 0x8);
    assert_int_equal(rd(0x1a0), 0x88);
}

/* ---- RDPMC */

static void test_rdpmc(void **state)
{
    (void)state;
    init(2, true);
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        wr(CTR(c), 0xab00000000ull + (uint64_t)c * 0x11111111ull);
    for (uint32_t c = 0; c < NB_NUM_COUNTERS; c++) {
        uint64_t v = 0;
        uint64_t full = 0xab00000000ull + (uint64_t)c * 0x11111111ull;
        assert_int_equal(nb_pmu_rdpmc(pmu, c, &v), MSR_OK);
        assert_int_equal(v, full);
        assert_int_equal(nb_pmu_rdpmc(pmu, c | 0x80000000u, &v), MSR_OK);
        assert_int_equal(v, full & 0xffffffffull);
    }
    uint64_t v = 0x77;
    assert_int_equal(nb_pmu_rdpmc(pmu, 18, &v), MSR_GP);
    assert_int_equal(nb_pmu_rdpmc(pmu, 0x80000012u, &v), MSR_GP);
    assert_int_equal(nb_pmu_rdpmc(pmu, 0x40000000u, &v), MSR_GP);
    assert_int_equal(nb_pmu_rdpmc(pmu, 0x4000000eu, &v), MSR_GP);
    assert_int_equal(nb_pmu_rdpmc(pmu, 0x7fffffffu, &v), MSR_GP);
    assert_int_equal(nb_pmu_rdpmc(pmu, 0xffffffffu, &v), MSR_GP);
    /* perfex's 0x8000000E for counter 14 */
    wr(CTR(14), 0x0123456789ull);
    assert_int_equal(nb_pmu_rdpmc(pmu, 0x8000000eu, &v), MSR_OK);
    assert_int_equal(v, 0x23456789ull);
}

/* ---- threads and events */

static void test_set_thread_and_event_args(void **state)
{
    (void)state;
    init(2, true);
    assert_true(nb_pmu_set_thread(pmu, 1, true, 0));
    assert_true(pmu->thread[1].active);
    assert_int_equal(pmu->thread[1].cpl, 0);
    assert_true(nb_pmu_set_thread(pmu, 0, false, 2));
    assert_false(pmu->thread[0].active);
    assert_int_equal(pmu->thread[0].cpl, 2);
    assert_false(nb_pmu_set_thread(pmu, 2, true, 3));
    assert_false(nb_pmu_set_thread(pmu, -1, true, 3));
    assert_false(nb_pmu_set_thread(pmu, 0, true, 4));
    assert_false(nb_pmu_set_thread(pmu, 0, true, -1));
    assert_false(pmu->thread[0].active); /* unchanged by the refusals */
    assert_int_equal(pmu->thread[0].cpl, 2);

    assert_false(nb_pmu_event(pmu, -1, 1, 0, 1));
    assert_false(nb_pmu_event(pmu, NB_NUM_EVENTS, 1, 0, 1));
    assert_false(nb_pmu_event(pmu, br, 1, 2, 1));
    assert_false(nb_pmu_event(pmu, br, 1, -1, 1));
    assert_int_equal(pmu->n_occurrences, 0);
    assert_true(nb_pmu_event(pmu, br, MMTP, 1, 1));
    assert_true(nb_pmu_event(pmu, NB_NUM_EVENTS - 1, 1, 0, 1));
    assert_int_equal(pmu->n_occurrences, 2);
    assert_int_equal(pmu->occurrences[0].event, br);
    assert_int_equal(pmu->occurrences[0].mask, MMTP);
    assert_int_equal(pmu->occurrences[0].thread, 1);
    assert_int_equal(pmu->occurrences[0].cpl[0], 2);
    assert_int_equal(pmu->occurrences[0].cpl[1], 0);
    nb_pmu_tick(pmu);
    assert_int_equal(pmu->n_occurrences, 0);
    release();

    init(2, false);
    assert_false(nb_pmu_set_thread(pmu, 1, true, 3));
    assert_false(nb_pmu_event(pmu, br, MMTP, 1, 1));
    assert_true(nb_pmu_event(pmu, br, MMTP, 0, 1));
}

/* ---- the pipeline */

static void program_counter12(uint64_t extra_cccr)
{
    wr(CRU_ESCR2, BR_T0_USR);
    wr(CCCR(12), CCCR_ENABLE | SEL(5) | AT(3) | extra_cccr);
}

static void test_basic_count_and_report(void **state)
{
    (void)state;
    init(2, true);
    /* events before the register writes of the same cycle still count: the
     * cycle runs on the registers as they stand at its end */
    event(br, MMTP, 0, 3);
    program_counter12(0);
    nb_pmu_tick(pmu);
    assert_int_equal(rd(CTR(12)), 3);
    assert_int_equal(pmu->cycles, 1);
    assert_int_equal(pmu->last.output[NB_ESCR_CRU2], 3);
    assert_int_equal(pmu->last.output[NB_ESCR_CRU3], 0);
    assert_true(pmu->last.counted[12]);
    assert_false(pmu->last.counted[13]);
    assert_false(pmu->last.counted[14]);
    assert_false(pmu->last.compare[12]);
    assert_int_equal(pmu->last.increment[12], 3);
    assert_false(pmu->last.overflow[12]);
    assert_int_equal(pmu->last.pmi[12], 0);
    assert_int_equal(rd(CCCR(12)), CCCR_ENABLE | SEL(5) | AT(3));

    /* an empty cycle clears the report */
    nb_pmu_tick(pmu);
    assert_int_equal(pmu->last.output[NB_ESCR_CRU2], 0);
    assert_true(pmu->last.counted[12]);
    assert_int_equal(pmu->last.increment[12], 0);
    assert_int_equal(rd(CTR(12)), 3);
    assert_int_equal(pmu->cycles, 2);

    /* not qualified (thread 0 at CPL 0 with T0_USR only), wrong sub-event,
     * thread 1 (TS: needs T1 bits) */
    assert_true(nb_pmu_set_thread(pmu, 0, true, 0));
    event(br, MMTP, 0, 2);
    assert_true(nb_pmu_set_thread(pmu, 0, true, 3));
    event(br, MMTP, 1, 2);
    nb_pmu_tick(pmu);
    assert_int_equal(rd(CTR(12)), 3);
    assert_int_equal(pmu->last.output[NB_ESCR_CRU2], 0);

    /* the ESCR's mask selects: an occurrence naming a selected sub-event counts */
    wr(CRU_ESCR2, ESCR(6, MMTP, ESCR_T0_USR | ESCR_T1_USR));
    event(br, MMTM, 0, 5);
    event(br, MMTP | MMTM, 1, 2);
    nb_pmu_tick(pmu);
    assert_int_equal(pmu->last.output[NB_ESCR_CRU2], 2);
    assert_int_equal(rd(CTR(12)), 5);
}

/* The CPL is the thread's CPL when the event was injected. */
static void test_event_cpl_snapshot(void **state)
{
    (void)state;
    init(2, true);
    program_counter12(0);
    event(br, MMTP, 0, 1);            /* at CPL 3 */
    assert_true(nb_pmu_set_thread(pmu, 0, true, 0));
    branch_cycle(4);            /* at CPL 0: T0_OS not set */
    assert_int_equal(rd(CTR(12)), 1);
}

/* Thread activity does not gate detection, only ACTIVE_THREAD. */
static void test_idle_thread_events_detected(void **state)
{
    (void)state;
    init(2, true);
    wr(CRU_ESCR2, ESCR(6, 0xf, ESCR_T1_USR));
    wr(CCCR(12), CCCR_ENABLE | SEL(5) | AT(3));
    assert_false(pmu->thread[1].active);
    event(br, MMTP, 1, 2);
    nb_pmu_tick(pmu);
    assert_int_equal(pmu->last.output[NB_ESCR_CRU2], 2);
    assert_int_equal(rd(CTR(12)), 2);
}

static void test_both_escrs_see_occurrence(void **state)
{
    (void)state;
    init(2, true);
    wr(CRU_ESCR2, BR_T0_USR);
    wr(CRU_ESCR3, BR_T0_USR);
    wr(CCCR(12), CCCR_ENABLE | SEL(5) | AT(3));
    wr(CCCR(14), CCCR_ENABLE | SEL(5) | AT(3));
    wr(CCCR(16), CCCR_ENABLE | SEL(5) | AT(3)); /* CRU_ESCR2 too */
    wr(CCCR(13), CCCR_ENABLE | SEL(4) | AT(3)); /* CRU_ESCR0: nothing programmed */
    branch_cycle(2);
    assert_int_equal(rd(CTR(12)), 2);
    assert_int_equal(rd(CTR(14)), 2);
    assert_int_equal(rd(CTR(16)), 2);
    assert_int_equal(rd(CTR(13)), 0);
    /* an ESCR whose select names another event does not see it */
    wr(CRU_ESCR3, ESCR(2, 0xf, ESCR_T0_USR)); /* machine_clear */
    branch_cycle(1);
    assert_int_equal(rd(CTR(14)), 2);
    assert_int_equal(rd(CTR(12)), 3);
    /* a select with no event on that ESCR */
    wr(CRU_ESCR2, ESCR(0x3f, 0xffff, 0xf));
    event(br, 0xf, 0, 1);
    nb_pmu_tick(pmu);
    assert_int_equal(rd(CTR(12)), 3);
    assert_int_equal(pmu->escr_event[NB_ESCR_CRU2], -1);
}

/* The CCCR's ESCR select picks the output; no ESCR behind it means input 0. */
static void test_escr_select_routing(void **state)
{
    (void)state;
    init(2, true);
    wr(CRU_ESCR2, BR_T0_USR);
    wr(CRU_ESCR3, BR_T0_USR);
    wr(CCCR(12), CCCR_ENABLE | SEL(5) | AT(3));
    branch_cycle(2);
    assert_int_equal(rd(CTR(12)), 2);
    wr(CCCR(12), CCCR_ENABLE | SEL(6) | AT(3)); /* CRU_ESCR4: nothing programmed */
    branch_cycle(2);
    assert_int_equal(rd(CTR(12)), 2);
    gp(CCCR(12), CCCR_ENABLE | SEL(5) | AT(3) | 1); /* faulted: routing unchanged */
    branch_cycle(2);
    assert_int_equal(rd(CTR(12)), 2);
    wr(CCCR(12), CCCR_ENABLE | SEL(5) | AT(3));
    branch_cycle(2);
    assert_int_equal(rd(CTR(12)), 4);

    /* counter 14, select 3: no ESCR (SSU_ESCR0 has no partner): output 0, so
     * "output <= 0" holds in every cycle */
    const uint64_t le0 = CCCR_ENABLE | AT(3) | CCCR_COMPARE | CCCR_COMPLEMENT;
    wr(CCCR(14), le0 | SEL(3));
    branch_cycle(1);
    assert_int_equal(rd(CTR(14)), 1);
    wr(CCCR(14), le0 | SEL(5)); /* CRU_ESCR3, output 1 */
    branch_cycle(1);
    assert_int_equal(rd(CTR(14)), 1);
    assert_int_equal(pmu->last.output[NB_ESCR_CRU3], 1);
    release();

    /* after a cascade start the started counter reads its own select */
    init(2, true);
    wr(CRU_ESCR3, BR_T0_USR);
    wr(CCCR(14), CCCR_CASCADE | SEL(5) | AT(3));
    wr(CCCR(12), ALWAYS_ONE | CCCR_FORCE_OVF);
    nb_pmu_tick(pmu);
    branch_cycle(7);
    assert_int_equal(rd(CTR(14)), 7);
}

static void test_bus_saturation_in_pipeline(void **state)
{
    (void)state;
    init(2, true);
    program_counter12(0);
    event(br, MMTP, 0, 10);
    event(br, MMTM, 0, 10);
    nb_pmu_tick(pmu);
    assert_int_equal(pmu->last.output[NB_ESCR_CRU2], 15);
    assert_int_equal(rd(CTR(12)), 15);
    /* many occurrences (more than any initial buffer) */
    for (int i = 0; i < 40; i++)
        event(br, MMTP, 0, 1);
    nb_pmu_tick(pmu);
    assert_int_equal(pmu->last.output[NB_ESCR_CRU2], 15);
    assert_int_equal(rd(CTR(12)), 30);
}

/* instr_completed exists on models 3, 4, 6 only; elsewhere the ESCR reads
 * it as nothing. */
static void test_event_models(void **state)
{
    (void)state;
    int ic = nb_event_find("instr_completed");
    assert_true(ic >= 0);
    for (size_t m = 0; m < N_MODELS; m++) {
        init(models[m], true);
        wr(0x3b8, ESCR(7, 0x1, ESCR_T0_USR)); /* CRU_ESCR0 */
        wr(CCCR(12), CCCR_ENABLE | SEL(4) | AT(3));
        event(ic, 0x1, 0, 2);
        nb_pmu_tick(pmu);
        uint64_t want = models[m] >= 3 ? 2 : 0;
        assert_int_equal(rd(CTR(12)), want);
        assert_int_equal(pmu->escr_event[NB_ESCR_CRU0], models[m] >= 3 ? ic : -1);
        release();
    }
}

/* A thread-independent event through the pipeline: TC_deliver_mode on
 * TC_ESCR0 (select 1), MS_COUNTER0. */
static void test_ti_event_pipeline(void **state)
{
    (void)state;
    int tc = nb_event_find("TC_deliver_mode");
    init(2, true);
    wr(0x3c4, ESCR(1, 0x1, ESCR_T1_OS)); /* DD, T1_OS */
    wr(CCCR(4), CCCR_ENABLE | SEL(1) | AT(3));
    event(tc, 0x1, 0, 1); /* thread 0 at CPL 3, thread 1 at CPL 3 */
    nb_pmu_tick(pmu);
    assert_int_equal(rd(CTR(4)), 0);
    assert_true(nb_pmu_set_thread(pmu, 1, false, 0)); /* idle, but at CPL 0 */
    event(tc, 0x1, 0, 3);
    nb_pmu_tick(pmu);
    assert_int_equal(rd(CTR(4)), 3);
    release();

    /* without HT thread 1 does not exist: only thread 0's CPL counts */
    init(2, false);
    wr(0x3c4, ESCR(1, 0x1, ESCR_T0_OS));
    wr(CCCR(4), CCCR_ENABLE | SEL(1) | AT(3));
    event(tc, 0x1, 0, 1); /* thread 0 at CPL 3 */
    nb_pmu_tick(pmu);
    assert_int_equal(rd(CTR(4)), 0);
    assert_true(nb_pmu_set_thread(pmu, 0, true, 0));
    event(tc, 0x1, 0, 1);
    nb_pmu_tick(pmu);
    assert_int_equal(rd(CTR(4)), 1);
}

static void test_compare_threshold_readme_example(void **state)
{
    (void)state;
    init(2, true);
    wr(CRU_ESCR3, 0x0c001804);
    wr(CCCR(14), 0x0027b000);
    branch_cycle(3);
    assert_true(pmu->last.compare[14]);
    assert_int_equal(pmu->last.increment[14], 1);
    event(br, MMTM, 0, 2);
    nb_pmu_tick(pmu);
    assert_false(pmu->last.compare[14]);
    assert_int_equal(pmu->last.increment[14], 0);
    assert_int_equal(rd(CTR(14)), 1);
}

static void test_active_thread_pipeline(void **state)
{
    (void)state;
    init(2, true);
    wr(CRU_ESCR2, ESCR(6, 0xf, 0xf));
    wr(CCCR(12), CCCR_ENABLE | SEL(5) | AT(0));
    wr(CCCR(13), CCCR_ENABLE | SEL(5) | AT(1));
    wr(CCCR(16), CCCR_ENABLE | SEL(5) | AT(2));
    /* counter 16 uses CRU_ESCR2 too; counter 14/15/17 use CRU_ESCR3 */
    wr(CRU_ESCR3, ESCR(6, 0xf, 0xf));
    wr(CCCR(14), CCCR_ENABLE | SEL(5) | AT(3));
    /* states: (t0, t1) = (1, 0) -> 1 active; (1, 1) -> 2; (0, 0) -> 0; (0, 1) -> 1 */
    static const bool t0[] = {true, true, false, false};
    static const bool t1[] = {false, true, false, true};
    uint64_t c12 = 0, c13 = 0, c16 = 0, c14 = 0;
    for (int i = 0; i < 4; i++) {
        assert_true(nb_pmu_set_thread(pmu, 0, t0[i], 3));
        assert_true(nb_pmu_set_thread(pmu, 1, t1[i], 3));
        branch_cycle(2);
        int n = t0[i] + t1[i];
        c12 += n == 0 ? 2 : 0;
        c13 += n == 1 ? 2 : 0;
        c16 += n == 2 ? 2 : 0;
        c14 += n >= 1 ? 2 : 0;
        assert_int_equal(rd(CTR(12)), c12);
        assert_int_equal(rd(CTR(13)), c13);
        assert_int_equal(rd(CTR(16)), c16);
        assert_int_equal(rd(CTR(14)), c14);
        assert_true(pmu->last.counted[12]); /* enabled even when blocked */
    }
    release();

    /* HT off: ACTIVE_THREAD 11 counts while thread 0 is active */
    init(2, false);
    wr(CRU_ESCR2, ESCR(6, 0xf, 0xc));
    wr(CCCR(12), CCCR_ENABLE | SEL(5) | AT(3));
    branch_cycle(2);
    assert_int_equal(rd(CTR(12)), 2);
    assert_true(nb_pmu_set_thread(pmu, 0, false, 3));
    branch_cycle(2);
    assert_int_equal(rd(CTR(12)), 2);
}

static void test_overflow_wrap_and_sticky_ovf(void **state)
{
    (void)state;
    init(2, true);
    program_counter12(0);
    wr(CTR(12), MAX40 - 1);
    branch_cycle(3);
    assert_int_equal(rd(CTR(12)), 1);
    assert_true(pmu->last.overflow[12]);
    assert_int_equal(rd(CCCR(12)), CCCR_OVF | CCCR_ENABLE | SEL(5) | AT(3));
    /* sticky */
    branch_cycle(1);
    assert_false(pmu->last.overflow[12]);
    assert_int_equal(rd(CTR(12)), 2);
    nb_pmu_tick(pmu);
    assert_true(rd(CCCR(12)) & CCCR_OVF);
    /* only software clears it */
    wr(CCCR(12), CCCR_ENABLE | SEL(5) | AT(3));
    assert_int_equal(rd(CCCR(12)) & CCCR_OVF, 0);
    /* reaching exactly 2^40 - 1 is no overflow; the next count is */
    wr(CTR(12), MAX40 - 15);
    branch_cycle(15);
    assert_int_equal(rd(CTR(12)), MAX40);
    assert_false(pmu->last.overflow[12]);
    assert_int_equal(rd(CCCR(12)) & CCCR_OVF, 0);
    branch_cycle(15);
    assert_int_equal(rd(CTR(12)), 14);
    assert_true(pmu->last.overflow[12]);
    /* software may set OVF itself */
    wr(CCCR(12), CCCR_OVF | AT(3));
    assert_int_equal(rd(CCCR(12)), CCCR_OVF | AT(3));
}

static void test_force_ovf(void **state)
{
    (void)state;
    init(2, true);
    program_counter12(CCCR_FORCE_OVF);
    nb_pmu_tick(pmu); /* no increment: no overflow */
    assert_false(pmu->last.overflow[12]);
    assert_int_equal(rd(CCCR(12)) & CCCR_OVF, 0);
    branch_cycle(1);
    assert_true(pmu->last.overflow[12]);
    assert_int_equal(rd(CTR(12)), 1);
    assert_true(rd(CCCR(12)) & CCCR_OVF);
    wr(CCCR(12), CCCR_ENABLE | SEL(5) | AT(3) | CCCR_FORCE_OVF);
    branch_cycle(4);
    assert_true(pmu->last.overflow[12]);
    assert_int_equal(rd(CTR(12)), 5);
    branch_cycle(1);
    assert_true(pmu->last.overflow[12]);
    nb_pmu_tick(pmu);
    assert_false(pmu->last.overflow[12]);
}

static void test_pmi_next_increment(void **state)
{
    (void)state;
    init(2, true);
    program_counter12(CCCR_OVF_PMI_T0);
    wr(CTR(12), MAX40);
    branch_cycle(1); /* overflow: armed, not delivered */
    assert_true(pmu->last.overflow[12]);
    assert_int_equal(pmu->last.pmi[12], 0);
    nb_pmu_tick(pmu); /* no increment: still waiting */
    assert_int_equal(pmu->last.pmi[12], 0);
    nb_pmu_tick(pmu);
    assert_int_equal(pmu->last.pmi[12], 0);
    branch_cycle(1); /* the next count delivers it */
    assert_int_equal(pmu->last.pmi[12], 1);
    assert_false(pmu->last.overflow[12]);
    branch_cycle(1); /* delivered once */
    assert_int_equal(pmu->last.pmi[12], 0);
    assert_int_equal(rd(CTR(12)), 2);
    release();

    /* both threads */
    init(2, true);
    program_counter12(CCCR_OVF_PMI_T0 | CCCR_OVF_PMI_T1);
    wr(CTR(12), MAX40);
    branch_cycle(1);
    assert_int_equal(pmu->last.pmi[12], 0);
    branch_cycle(1);
    assert_int_equal(pmu->last.pmi[12], 3);
    release();

    /* thread 1 only */
    init(2, true);
    program_counter12(CCCR_OVF_PMI_T1);
    wr(CTR(12), MAX40);
    branch_cycle(1);
    branch_cycle(1);
    assert_int_equal(pmu->last.pmi[12], 2);
    release();

    /* no OVF_PMI bit: overflow without PMI */
    init(2, true);
    program_counter12(0);
    wr(CTR(12), MAX40);
    branch_cycle(1);
    branch_cycle(1);
    assert_int_equal(pmu->last.pmi[12], 0);
    release();

    /* FORCE_OVF with PMI: every count delivers the previous one's PMI */
    init(2, true);
    program_counter12(CCCR_OVF_PMI_T0 | CCCR_FORCE_OVF);
    branch_cycle(1);
    assert_int_equal(pmu->last.pmi[12], 0);
    for (int i = 0; i < 3; i++) {
        branch_cycle(1);
        assert_int_equal(pmu->last.pmi[12], 1);
        assert_true(pmu->last.overflow[12]);
    }
}

static void test_pmi_cancelled_by_cccr_write(void **state)
{
    (void)state;
    const uint64_t base = CCCR_ENABLE | SEL(5) | AT(3);
    /* clearing OVF_PMI cancels */
    init(2, true);
    program_counter12(CCCR_OVF_PMI_T0);
    wr(CTR(12), MAX40);
    branch_cycle(1);
    wr(CCCR(12), base);
    wr(CCCR(12), base | CCCR_OVF_PMI_T0); /* setting it again does not re-arm */
    branch_cycle(1);
    assert_int_equal(pmu->last.pmi[12], 0);
    release();

    /* a write keeping OVF_PMI keeps the PMI (even clearing OVF) */
    init(2, true);
    program_counter12(CCCR_OVF_PMI_T0);
    wr(CTR(12), MAX40);
    branch_cycle(1);
    wr(CCCR(12), base | CCCR_OVF_PMI_T0);
    branch_cycle(1);
    assert_int_equal(pmu->last.pmi[12], 1);
    release();

    /* per thread: keep T1, drop T0 */
    init(2, true);
    program_counter12(CCCR_OVF_PMI_T0 | CCCR_OVF_PMI_T1);
    wr(CTR(12), MAX40);
    branch_cycle(1);
    wr(CCCR(12), base | CCCR_OVF_PMI_T1);
    branch_cycle(1);
    assert_int_equal(pmu->last.pmi[12], 2);
    release();

    /* a faulting CCCR write changes nothing, the PMI stays armed */
    init(2, true);
    program_counter12(CCCR_OVF_PMI_T0);
    wr(CTR(12), MAX40);
    branch_cycle(1);
    gp(CCCR(12), base | 1); /* bit 0 reserved, OVF_PMI_T0 clear */
    branch_cycle(1);
    assert_int_equal(pmu->last.pmi[12], 1);
    release();

    /* disabling keeps the counter from incrementing: no delivery */
    init(2, true);
    program_counter12(CCCR_OVF_PMI_T0);
    wr(CTR(12), MAX40);
    branch_cycle(1);
    wr(CCCR(12), SEL(5) | AT(3) | CCCR_OVF_PMI_T0);
    branch_cycle(1);
    assert_int_equal(pmu->last.pmi[12], 0);
    assert_false(pmu->last.counted[12]);
    wr(CCCR(12), base | CCCR_OVF_PMI_T0);
    branch_cycle(1);
    assert_int_equal(pmu->last.pmi[12], 1);
}

static void test_cascade_start(void **state)
{
    (void)state;
    init(2, true);
    wr(CRU_ESCR2, BR_T0_USR);
    wr(CRU_ESCR3, BR_T0_USR);
    wr(CCCR(12), CCCR_ENABLE | SEL(5) | AT(3));
    wr(CCCR(14), CCCR_CASCADE | SEL(5) | AT(3));
    wr(CTR(12), MAX40 - 1);
    branch_cycle(1);
    assert_int_equal(rd(CCCR(14)), CCCR_CASCADE | SEL(5) | AT(3));
    assert_int_equal(rd(CTR(14)), 0);
    branch_cycle(2); /* counter 12 overflows in this cycle */
    assert_true(pmu->last.overflow[12]);
    assert_false(pmu->last.counted[14]); /* did not count in the overflow's cycle */
    assert_int_equal(rd(CTR(14)), 0);
    assert_int_equal(rd(CCCR(14)), CCCR_CASCADE | CCCR_ENABLE | SEL(5) | AT(3));
    branch_cycle(3); /* counts from the next cycle */
    assert_true(pmu->last.counted[14]);
    assert_int_equal(rd(CTR(14)), 3);
    /* and keeps running until software clears ENABLE */
    nb_pmu_tick(pmu);
    branch_cycle(1);
    assert_int_equal(rd(CTR(14)), 4);
    wr(CCCR(14), CCCR_CASCADE | SEL(5) | AT(3));
    branch_cycle(1);
    assert_int_equal(rd(CTR(14)), 4);
}

/* Which counters' overflow start counter `dst` (docs: 0<->2, 1<->3 per
 * block, 12<->14, 13<->15, 16 from 14, 17 from 15). */
static uint32_t cascade_sources(int dst)
{
    static const int src[NB_NUM_COUNTERS] = {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
                                             14, 15, 12, 13, 14, 15};
    return 1u << src[dst];
}

static uint32_t extended_sources(int dst)
{
    switch (dst) {
    case 12: return 1u << 16; /* CASCNT4INTO0 */
    case 15: return 1u << 17; /* CASCNT5INTO3 */
    case 16: return 1u << 17; /* CASCNT5INTO4 */
    case 17: return 1u << 16; /* CASCNT4INTO5 */
    default: return 0;
    }
}

static void test_cascade_pairs_exhaustive(void **state)
{
    (void)state;
    for (int src = 0; src < NB_NUM_COUNTERS; src++)
        for (int dst = 0; dst < NB_NUM_COUNTERS; dst++) {
            if (src == dst)
                continue;
            init(2, true);
            wr(CCCR(dst), CCCR_CASCADE | AT(3));
            wr(CCCR(src), ALWAYS_ONE | CCCR_FORCE_OVF);
            nb_pmu_tick(pmu);
            assert_true(pmu->last.overflow[src]);
            bool started = (cascade_sources(dst) & (1u << src)) != 0;
            assert_int_equal((rd(CCCR(dst)) & CCCR_ENABLE) != 0, started);
            assert_false(pmu->last.counted[dst]);
            release();
        }
}

static void test_extended_cascade_exhaustive(void **state)
{
    (void)state;
    for (size_t m = 0; m < N_MODELS; m++)
        for (int src = 0; src < NB_NUM_COUNTERS; src++)
            for (int dst = 12; dst < NB_NUM_COUNTERS; dst++) {
                if (src == dst)
                    continue;
                init(models[m], true);
                if (!has_bit11(models[m], dst)) {
                    gp(CCCR(dst), CCCR_EXTENDED_CASCADE | AT(3));
                    release();
                    continue;
                }
                wr(CCCR(dst), CCCR_EXTENDED_CASCADE | AT(3)); /* no CASCADE needed */
                wr(CCCR(src), ALWAYS_ONE | CCCR_FORCE_OVF);
                nb_pmu_tick(pmu);
                bool started = (extended_sources(dst) & (1u << src)) != 0;
                assert_int_equal((rd(CCCR(dst)) & CCCR_ENABLE) != 0, started);
                release();
            }
}

/* Extended cascade 16 -> 12 as in the SDM example, counting from the next
 * cycle; and the target must have ENABLE clear. */
static void test_extended_cascade_16_to_12(void **state)
{
    (void)state;
    init(2, true);
    wr(CCCR(12), 0x04038800); /* the SDM's example value */
    assert_int_equal(rd(CCCR(12)), 0x04038800);
    wr(CCCR(12), CCCR_EXTENDED_CASCADE | (ALWAYS_ONE & ~CCCR_ENABLE));
    wr(CCCR(16), ALWAYS_ONE);
    wr(CTR(16), MAX40);
    nb_pmu_tick(pmu);
    assert_true(pmu->last.overflow[16]);
    assert_false(pmu->last.counted[12]);
    assert_int_equal(rd(CTR(12)), 0);
    assert_true(rd(CCCR(12)) & CCCR_ENABLE);
    nb_pmu_tick(pmu);
    assert_int_equal(rd(CTR(12)), 1);
    release();

    /* 17 -> 15, 17 -> 16 at once */
    init(6, true);
    wr(CCCR(15), CCCR_EXTENDED_CASCADE | AT(3));
    wr(CCCR(16), CCCR_EXTENDED_CASCADE | AT(3));
    wr(CCCR(17), ALWAYS_ONE);
    wr(CTR(17), MAX40);
    nb_pmu_tick(pmu);
    assert_true(rd(CCCR(15)) & CCCR_ENABLE);
    assert_true(rd(CCCR(16)) & CCCR_ENABLE);
    release();

    /* an enabled target is left alone (its value is not touched) */
    init(2, true);
    wr(CCCR(12), CCCR_EXTENDED_CASCADE | CCCR_CASCADE | ALWAYS_ONE);
    wr(CCCR(16), ALWAYS_ONE | CCCR_FORCE_OVF);
    nb_pmu_tick(pmu);
    assert_int_equal(rd(CCCR(12)), CCCR_EXTENDED_CASCADE | CCCR_CASCADE | ALWAYS_ONE);
    assert_int_equal(rd(CTR(12)), 1);
}

/* Counter 16 starts nothing by CASCADE: counter 12 with CASCADE only. */
static void test_16_17_start_nothing_by_cascade(void **state)
{
    (void)state;
    init(2, true);
    for (int c = 0; c < 16; c++)
        wr(CCCR(c), CCCR_CASCADE | AT(3));
    wr(CCCR(16), ALWAYS_ONE | CCCR_FORCE_OVF);
    wr(CCCR(17), ALWAYS_ONE | CCCR_FORCE_OVF);
    nb_pmu_tick(pmu);
    for (int c = 0; c < 16; c++)
        assert_int_equal(rd(CCCR(c)) & CCCR_ENABLE, 0);
}

static void test_edge_history_reset_by_cccr_write(void **state)
{
    (void)state;
    const uint64_t edge = CCCR_ENABLE | SEL(5) | AT(3) | CCCR_COMPARE | CCCR_EDGE; /* output > 0 */
    init(2, true);
    wr(CRU_ESCR2, BR_T0_USR);
    wr(CCCR(12), edge);
    branch_cycle(1);
    assert_int_equal(rd(CTR(12)), 1); /* rising edge after reset */
    branch_cycle(1);
    assert_int_equal(rd(CTR(12)), 1); /* still true: no edge */
    wr(CCCR(12), edge);                 /* rewrite: history false again */
    branch_cycle(1);
    assert_int_equal(rd(CTR(12)), 2);
    /* a faulting write does not reset the history */
    gp(CCCR(12), edge | 1);
    branch_cycle(1);
    assert_int_equal(rd(CTR(12)), 2);
    /* a write of another CCCR does not either */
    wr(CCCR(13), edge);
    branch_cycle(1);
    assert_int_equal(rd(CTR(12)), 2);
    nb_pmu_tick(pmu);  /* false */
    branch_cycle(1);  /* rising */
    assert_int_equal(rd(CTR(12)), 3);
}

/* The history is sampled in enabled cycles ACTIVE_THREAD blocks. */
static void test_edge_history_sampled_when_blocked(void **state)
{
    (void)state;
    init(2, true);
    wr(CRU_ESCR2, BR_T0_USR);
    wr(CCCR(12), CCCR_ENABLE | SEL(5) | AT(1) | CCCR_COMPARE | CCCR_EDGE);
    assert_true(nb_pmu_set_thread(pmu, 1, true, 3)); /* two active: blocked */
    branch_cycle(1);
    assert_true(pmu->last.compare[12]);
    assert_int_equal(pmu->last.increment[12], 0);
    assert_true(nb_pmu_set_thread(pmu, 1, false, 3)); /* one active */
    branch_cycle(1);
    assert_int_equal(rd(CTR(12)), 0); /* no rising edge: it was true already */
}

/* Disabled cycles do not sample the history: a counter started by a
 * cascade sees a rising edge on its first enabled cycle. */
static void test_edge_history_not_sampled_when_disabled(void **state)
{
    (void)state;
    init(2, true);
    wr(CRU_ESCR2, BR_T0_USR);
    wr(CRU_ESCR3, BR_T0_USR);
    wr(CCCR(14), CCCR_CASCADE | SEL(5) | AT(3) | CCCR_COMPARE | CCCR_EDGE);
    wr(CCCR(12), ALWAYS_ONE);
    wr(CTR(12), MAX40 - 2);
    for (int i = 0; i < 3; i++) {
        branch_cycle(1); /* CRU_ESCR3's output is 1 while 14 waits */
    }
    assert_true(rd(CCCR(14)) & CCCR_ENABLE);
    assert_int_equal(rd(CTR(14)), 0);
    branch_cycle(1);
    assert_int_equal(rd(CTR(14)), 1);
}

/* ---- the cycle's short cuts (docs/semantics.md, "Speed"): a tick skips
 * counters whose output is 0, so these check the ones that must not be */

/* COMPLEMENT counts on a zero output: with no occurrence at all, and with no
 * ESCR behind the select. */
static void test_complement_counts_without_occurrences(void **state)
{
    (void)state;
    init(2, true);
    program_counter12(CCCR_COMPARE | CCCR_COMPLEMENT);  /* output <= 0 */
    wr(CCCR(14), ALWAYS_ONE | SEL(3));                   /* no ESCR: input 0 */
    for (int i = 0; i < 3; i++)
        nb_pmu_tick(pmu);
    assert_int_equal(rd(CTR(12)), 3);
    assert_int_equal(rd(CTR(14)), 3);
    assert_true(pmu->last.compare[12]);
    assert_int_equal(pmu->last.increment[14], 1);
    branch_cycle(1);  /* output 1 > 0 */
    assert_int_equal(rd(CTR(12)), 3);
    assert_false(pmu->last.compare[12]);
}

/* The edge history falls in a cycle without occurrences, so the next
 * occurrence is a rising edge again. */
static void test_edge_history_falls_without_occurrences(void **state)
{
    (void)state;
    init(2, true);
    program_counter12(CCCR_COMPARE | CCCR_EDGE);
    branch_cycle(1);
    branch_cycle(1);
    assert_int_equal(rd(CTR(12)), 1);
    assert_true(pmu->last.compare[12]);
    nb_pmu_tick(pmu);
    assert_false(pmu->last.compare[12]);
    branch_cycle(1);
    assert_int_equal(rd(CTR(12)), 2);
}

/* Without COMPARE the output is added every cycle it is non-zero; an ESCR
 * written after the cycle's occurrences decides with its new value, and
 * one that stops selecting the event drives nothing. */
static void test_escr_rewritten_within_cycle(void **state)
{
    (void)state;
    init(2, true);
    program_counter12(0);
    event(br, MMTP, 0, 2);
    wr(CRU_ESCR2, ESCR(6, MMTM, ESCR_T0_USR));
    event(br, MMTM, 0, 3);
    nb_pmu_tick(pmu);
    assert_int_equal(rd(CTR(12)), 3);
    event(br, MMTM, 0, 3);
    wr(CRU_ESCR2, ESCR(7, MMTM, ESCR_T0_USR));  /* select 7: no event on CRU_ESCR2 */
    nb_pmu_tick(pmu);
    assert_int_equal(rd(CTR(12)), 3);
    assert_int_equal(pmu->last.output[NB_ESCR_CRU2], 0);
    assert_int_equal(pmu->last.increment[12], 0);
}

/* The report's `counted` follows ENABLE from cycle to cycle. */
static void test_report_counted_follows_enable(void **state)
{
    (void)state;
    init(2, true);
    program_counter12(0);
    nb_pmu_tick(pmu);
    assert_true(pmu->last.counted[12]);
    wr(CCCR(12), SEL(5) | AT(3));
    assert_true(pmu->last.counted[12]);  /* a write does not change the last cycle */
    nb_pmu_tick(pmu);
    assert_false(pmu->last.counted[12]);
    wr(CCCR(13), CCCR_ENABLE | SEL(5) | AT(3));
    nb_pmu_tick(pmu);
    assert_false(pmu->last.counted[12]);
    assert_true(pmu->last.counted[13]);
}

int main(void)
{
    br = nb_event_find("branch_retired");
#define T(f) cmocka_unit_test_teardown(f, teardown)
    const struct CMUnitTest tests[] = {
        T(test_reset_values),
        T(test_models),
        T(test_unknown_msrs_gp),
        T(test_iq_escr_models),
        T(test_escr_reserved_bits),
        T(test_cccr_reserved_bits_ht),
        T(test_cccr_reserved_bits_no_ht),
        T(test_counters_drop_high_bits),
        T(test_pebs_enable_bits),
        T(test_matrix_vert_bits),
        T(test_tc_precise_event_bits),
        T(test_ds_area_bits),
        T(test_misc_enable_read_only_bits),
        T(test_rdpmc),
        T(test_set_thread_and_event_args),
        T(test_basic_count_and_report),
        T(test_event_cpl_snapshot),
        T(test_idle_thread_events_detected),
        T(test_both_escrs_see_occurrence),
        T(test_escr_select_routing),
        T(test_bus_saturation_in_pipeline),
        T(test_event_models),
        T(test_ti_event_pipeline),
        T(test_compare_threshold_readme_example),
        T(test_active_thread_pipeline),
        T(test_overflow_wrap_and_sticky_ovf),
        T(test_force_ovf),
        T(test_pmi_next_increment),
        T(test_pmi_cancelled_by_cccr_write),
        T(test_cascade_start),
        T(test_cascade_pairs_exhaustive),
        T(test_extended_cascade_exhaustive),
        T(test_extended_cascade_16_to_12),
        T(test_16_17_start_nothing_by_cascade),
        T(test_edge_history_reset_by_cccr_write),
        T(test_edge_history_sampled_when_blocked),
        T(test_edge_history_not_sampled_when_disabled),
        T(test_complement_counts_without_occurrences),
        T(test_edge_history_falls_without_occurrences),
        T(test_escr_rewritten_within_cycle),
        T(test_report_counted_follows_enable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
