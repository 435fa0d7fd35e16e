/* The DS save area as software sets it up, and the PEBS records read back
 * (pmu/emulated/netburst_sampling.h): every field where the SDM's layouts put it,
 * and records through the PMU's own assist, exact in both layouts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_metrics.h"
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/emulated/netburst_sampling.h"

#define CRU_ESCR2 0x3ccu
#define REPLAY_NBOGUS_T0_USR 0x12000204u /* replay_event NBOGUS T0_USR */
#define CCCR4_PMI_T0 0x0403b000u         /* ENABLE, select 5, any thread, OVF_PMI_T0 */
#define COUNTER_MAX 0xffffffffffull      /* one count from overflow */

static struct msr_backend *backend;

static int teardown(void **state)
{
    (void)state;
    msr_backend_destroy(backend);
    backend = NULL;
    return 0;
}

/* A fresh simulated PMU of CPUID model `model`. */
static struct nb_pmu *pmu_of_model(int model)
{
    backend = nb_backend_create((struct nb_pmu_config){model, false});
    assert_non_null(backend);
    return nb_backend_pmu(backend);
}

static void wr(struct nb_pmu *pmu, uint32_t msr, uint64_t value)
{
    assert_int_equal(nb_pmu_wrmsr(pmu, msr, value), MSR_OK);
}

static uint64_t rd(struct nb_pmu *pmu, uint32_t msr)
{
    uint64_t value = 0;
    assert_int_equal(nb_pmu_rdmsr(pmu, msr, &value), MSR_OK);
    return value;
}

/* PEBS for thread 0 on 1stL_cache_load_miss_retired (replay tagging). */
static void program_pebs(struct nb_pmu *pmu)
{
    wr(pmu, MSR_IA32_PEBS_ENABLE, PEBS_ENABLE_UOP_TAG | PEBS_ENABLE_PEBS | 1);
    wr(pmu, MSR_PEBS_MATRIX_VERT, 1);
    wr(pmu, CRU_ESCR2, REPLAY_NBOGUS_T0_USR);
    wr(pmu, NB_COUNTER_BASE + NB_PEBS_COUNTER, COUNTER_MAX);
    wr(pmu, NB_CCCR_BASE + NB_PEBS_COUNTER, CCCR4_PMI_T0);
}

/* IQ_COUNTER4 overflows (arming the assist), then a tagged instruction
 * retires at `eip` with `regs`; the cycle ends. */
static void tagged_retirement(struct nb_pmu *pmu, uint64_t eip, bool ia32e, const uint64_t *regs)
{
    assert_true(nb_pmu_event(pmu, nb_event_find("replay_event"), 1, 0, 1));
    nb_pmu_tick(pmu);
    struct nb_retirement r = {.eip = eip, .tags = NB_TAG_REPLAY, .ia32e = ia32e, .regs = regs};
    assert_true(nb_pmu_retire(pmu, 0, &r));
    nb_pmu_tick(pmu);
}

/* The 32-bit layout: 4-byte fields from 10H, the counter reset 8 bytes at
 * 20H, 40-byte records; IA32_DS_AREA written; the buffer empty. */
static void test_setup_32(void **state)
{
    (void)state;
    struct nb_pmu *pmu = pmu_of_model(2);
    struct nb_ds_config ds = {.area = 0x1000, .buffer = 0x2000, .records = 4, .threshold = 2,
                              .counter_reset = 0xff12345678ull};
    assert_true(nb_pmu_ds_setup(pmu, false, &ds));
    assert_int_equal(rd(pmu, MSR_IA32_DS_AREA), 0x1000);
    assert_int_equal(nb_pmu_memory_read(pmu, 0x1010, 4), 0x2000);      /* buffer base */
    assert_int_equal(nb_pmu_memory_read(pmu, 0x1014, 4), 0x2000);      /* index */
    assert_int_equal(nb_pmu_memory_read(pmu, 0x1018, 4), 0x2000 + 160); /* absolute maximum */
    assert_int_equal(nb_pmu_memory_read(pmu, 0x101c, 4), 0x2000 + 80);  /* threshold */
    assert_int_equal(nb_pmu_memory_read(pmu, 0x1020, 8), 0xff12345678ull);
    assert_int_equal(nb_pmu_memory_read(pmu, 0x100c, 4), 0); /* nothing before */
    struct nb_pebs_record record;
    assert_false(nb_pmu_pebs_record(pmu, false, 0, &record));
}

/* The IA-32e layout: 8-byte fields from 20H, 144-byte records. */
static void test_setup_64(void **state)
{
    (void)state;
    struct nb_pmu *pmu = pmu_of_model(3);
    struct nb_ds_config ds = {.area = 0x1234500000ull, .buffer = 0x7f0000100000ull,
                              .records = 3, .threshold = 4, .counter_reset = 7};
    assert_true(nb_pmu_ds_setup(pmu, true, &ds));
    assert_int_equal(rd(pmu, MSR_IA32_DS_AREA), 0x1234500000ull);
    assert_int_equal(nb_pmu_memory_read(pmu, 0x1234500020ull, 8), 0x7f0000100000ull);
    assert_int_equal(nb_pmu_memory_read(pmu, 0x1234500028ull, 8), 0x7f0000100000ull);
    assert_int_equal(nb_pmu_memory_read(pmu, 0x1234500030ull, 8), 0x7f0000100000ull + 432);
    assert_int_equal(nb_pmu_memory_read(pmu, 0x1234500038ull, 8), 0x7f0000100000ull + 576);
    assert_int_equal(nb_pmu_memory_read(pmu, 0x1234500040ull, 8), 7);
}

/* A save area above 4 GB on a model without EM64T: IA32_DS_AREA faults. */
static void test_setup_refused(void **state)
{
    (void)state;
    struct nb_pmu *pmu = pmu_of_model(2);
    struct nb_ds_config ds = {.area = 1ull << 32, .buffer = 0x2000, .records = 1};
    assert_false(nb_pmu_ds_setup(pmu, false, &ds));
    assert_int_equal(rd(pmu, MSR_IA32_DS_AREA), 0);
    /* Nothing written: the fields the 32-bit layout would have put at the
     * area's address (which wraps to 0) stay zero. */
    for (uint64_t addr = 0x10; addr < 0x28; addr += 4)
        assert_int_equal(nb_pmu_memory_read(pmu, addr, 4), 0);
}

/* Two records through the assist, read back in order: EFLAGS, the EIP,
 * then EAX EBX ECX EDX ESI EDI EBP ESP (the low 32 bits); the counter
 * reloaded from the counter reset each time. */
static void test_records_32(void **state)
{
    (void)state;
    struct nb_pmu *pmu = pmu_of_model(2);
    program_pebs(pmu);
    struct nb_ds_config ds = {.area = 0x1000, .buffer = 0x2000, .records = 4, .threshold = 5,
                              .counter_reset = COUNTER_MAX};
    assert_true(nb_pmu_ds_setup(pmu, false, &ds));
    uint64_t regs[NB_NUM_REGS];
    for (int i = 0; i < NB_NUM_REGS; i++)
        regs[i] = 0x100000000ull + (uint64_t)i * 0x11;
    tagged_retirement(pmu, 0x401000, false, regs);
    tagged_retirement(pmu, 0x401008, false, NULL);
    assert_int_equal(rd(pmu, NB_COUNTER_BASE + NB_PEBS_COUNTER), COUNTER_MAX);
    struct nb_pebs_record record;
    assert_true(nb_pmu_pebs_record(pmu, false, 0, &record));
    assert_int_equal(record.n_slots, NB_PEBS_SLOTS_32);
    const uint64_t want[NB_PEBS_SLOTS_32] = {0x00, 0x401000, 0x11, 0x22, 0x33,
                                             0x44, 0x55,     0x66, 0x77, 0x88};
    for (unsigned k = 0; k < NB_PEBS_SLOTS_32; k++)
        assert_int_equal(record.slot[k], want[k]);
    assert_true(nb_pmu_pebs_record(pmu, false, 1, &record));
    assert_int_equal(record.slot[1], 0x401008);
    assert_int_equal(record.slot[0], 0); /* no registers known: zeros */
    assert_int_equal(record.slot[9], 0);
    assert_false(nb_pmu_pebs_record(pmu, false, 2, &record));
    assert_int_equal(nb_pmu_memory_read(pmu, 0x1014, 4), 0x2000 + 80);
}

/* The IA-32e record: RFLAGS, RIP, RAX ... RSP, R8-R15, whole. */
static void test_records_64(void **state)
{
    (void)state;
    struct nb_pmu *pmu = pmu_of_model(3);
    program_pebs(pmu);
    struct nb_ds_config ds = {.area = 0x10000, .buffer = 0x100000, .records = 2, .threshold = 3,
                              .counter_reset = COUNTER_MAX};
    assert_true(nb_pmu_ds_setup(pmu, true, &ds));
    uint64_t regs[NB_NUM_REGS];
    for (int i = 0; i < NB_NUM_REGS; i++)
        regs[i] = 0xabcd000000000000ull + (uint64_t)i;
    tagged_retirement(pmu, 0x7f0000401000ull, true, regs);
    struct nb_pebs_record record;
    assert_true(nb_pmu_pebs_record(pmu, true, 0, &record));
    assert_int_equal(record.n_slots, NB_PEBS_SLOTS_64);
    assert_int_equal(record.slot[0], 0xabcd000000000000ull); /* RFLAGS */
    assert_int_equal(record.slot[1], 0x7f0000401000ull);     /* RIP */
    for (unsigned k = 2; k < NB_PEBS_SLOTS_64; k++)
        assert_int_equal(record.slot[k], 0xabcd000000000000ull + k - 1);
    assert_false(nb_pmu_pebs_record(pmu, true, 1, &record));
    /* The 32-bit layout's fields (from 10H) are not this save area's. */
    assert_false(nb_pmu_pebs_record(pmu, false, 0, &record));
}

/* The absolute maximum: a full buffer takes no record; the interrupt
 * threshold: the record that reaches it raises a PMI, one past the
 * absolute maximum never does. */
static void test_maximum_and_threshold(void **state)
{
    (void)state;
    struct nb_pmu *pmu = pmu_of_model(2);
    program_pebs(pmu);
    struct nb_ds_config ds = {.area = 0x1000, .buffer = 0x2000, .records = 1, .threshold = 1,
                              .counter_reset = COUNTER_MAX};
    assert_true(nb_pmu_ds_setup(pmu, false, &ds));
    assert_true(nb_pmu_event(pmu, nb_event_find("replay_event"), 1, 0, 1));
    nb_pmu_tick(pmu);
    struct nb_retirement r = {.eip = 0x401000, .tags = NB_TAG_REPLAY};
    assert_true(nb_pmu_retire(pmu, 0, &r));
    nb_pmu_tick(pmu);
    assert_int_equal(nb_pmu_last(pmu)->pebs_pmi, 1);
    tagged_retirement(pmu, 0x401008, false, NULL);
    struct nb_pebs_record record;
    assert_true(nb_pmu_pebs_record(pmu, false, 0, &record));
    assert_int_equal(record.slot[1], 0x401000);
    assert_false(nb_pmu_pebs_record(pmu, false, 1, &record));

    ds.records = 2;
    ds.threshold = 3;
    assert_true(nb_pmu_ds_setup(pmu, false, &ds)); /* the index back at the base */
    assert_false(nb_pmu_pebs_record(pmu, false, 0, &record));
    /* The assist that found the buffer full did not reload the counter. */
    wr(pmu, NB_COUNTER_BASE + NB_PEBS_COUNTER, COUNTER_MAX);
    tagged_retirement(pmu, 0x401010, false, NULL);
    assert_int_equal(nb_pmu_last(pmu)->pebs_pmi, 0);
    tagged_retirement(pmu, 0x401018, false, NULL);
    assert_int_equal(nb_pmu_last(pmu)->pebs_pmi, 0);
    assert_true(nb_pmu_pebs_record(pmu, false, 1, &record));
    assert_int_equal(record.slot[1], 0x401018);
}

/* An index below the buffer base (software wrote it) holds no records. */
static void test_index_below_base(void **state)
{
    (void)state;
    struct nb_pmu *pmu = pmu_of_model(2);
    struct nb_ds_config ds = {.area = 0x1000, .buffer = 0x2000, .records = 4};
    assert_true(nb_pmu_ds_setup(pmu, false, &ds));
    assert_true(nb_pmu_memory_write(pmu, 0x1014, 4, 0x1fd8));
    struct nb_pebs_record record;
    assert_false(nb_pmu_pebs_record(pmu, false, 0, &record));
}

int main(void)
{
#define T(f) cmocka_unit_test_teardown(f, teardown)
    const struct CMUnitTest tests[] = {
        T(test_setup_32),   T(test_setup_64),   T(test_setup_refused),
        T(test_records_32), T(test_records_64), T(test_maximum_and_threshold),
        T(test_index_below_base),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
