/* The programming library (pmu/programming/program.h) on the simulated backends,
 * checked with the recording backend and by counting. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/emulated/p5_pmu.h"
#include "pmu/programming/program.h"

static struct nb_pmu_config config = {.model = 2, .ht = true};
static struct alloc_request requests[4];
static struct alloc_plan plan;

/* Plans the events into one run. */
static const struct alloc_run *plan_one_run(const char *const *texts, int n)
{
    char error[512];
    for (int i = 0; i < n; i++) {
        if (!event_spec_parse(texts[i], &config, &requests[i].spec, error, sizeof error))
            fail_msg("%s", error);
        requests[i].group = 0;
    }
    struct alloc_error failure;
    alloc_plan_free(&plan);
    if (!alloc_plan_make(requests, n, &config, &plan, &failure))
        fail_msg("%s", failure.message);
    assert_int_equal(plan.n_runs, 1);
    return &plan.runs[0];
}

/* A recording backend around `inner`, logging to a memory stream. */
struct recording {
    char *log;
    size_t size, checked;  /* the log up to `checked` was expected already */
    FILE *stream;
    struct msr_backend *backend;
};

static void record(struct recording *rec, struct msr_backend *inner)
{
    rec->checked = 0;
    rec->stream = open_memstream(&rec->log, &rec->size);
    assert_non_null(rec->stream);
    rec->backend = msr_record_create(inner, rec->stream);
    assert_non_null(rec->backend);
}

static void expect_log(struct recording *rec, const char *want)
{
    fflush(rec->stream);
    assert_string_equal(rec->log + rec->checked, want);
    rec->checked = rec->size;
}

static void recording_close(struct recording *rec)
{
    msr_backend_destroy(rec->backend);
    fclose(rec->stream);
    free(rec->log);
}

static int teardown(void **state)
{
    (void)state;
    alloc_plan_free(&plan);
    return 0;
}

/* branch_retired with a threshold (the event of section 9.1 of the Pentium 4 monitoring study, both
 * threads) and replay tagging of L1 load misses (section 9.4). */
static void test_netburst_sequence(void **state)
{
    (void)state;
    static const char *const events[] = {"netburst::branch_retired:MMTP:MMTM:u=1:thr=2",
                                         "netburst::1stL_cache_load_miss_retired"};
    struct program program;
    struct recording rec;
    struct msr_backend *nb = nb_backend_create(config);
    record(&rec, nb);
    program_init(&program, rec.backend, 0, plan_one_run(events, 2));

    assert_int_equal(program_setup(&program, NULL), MSR_OK);
    expect_log(&rec, "wrmsr cpu=0 0x36c 0x000000000027a000 ok\n"  /* IQ_CCCR0, ENABLE clear */
                     "wrmsr cpu=0 0x36e 0x000000000003a000 ok\n"  /* IQ_CCCR2 */
                     "wrmsr cpu=0 0x3cc 0x000000000c001805 ok\n"  /* CRU_ESCR2: branch_retired */
                     "wrmsr cpu=0 0x3cd 0x000000001200020f ok\n"  /* CRU_ESCR3: replay_event */
                     "wrmsr cpu=0 0x30c 0x0000000000000000 ok\n"
                     "wrmsr cpu=0 0x30e 0x0000000000000000 ok\n"
                     "wrmsr cpu=0 0x3f1 0x0000000001000001 ok\n"  /* PEBS_ENABLE: UOP_TAG, bit 0 */
                     "wrmsr cpu=0 0x3f2 0x0000000000000001 ok\n");
    assert_int_equal(program_start(&program), MSR_OK);
    expect_log(&rec, "wrmsr cpu=0 0x36c 0x000000000027b000 ok\n"
                     "wrmsr cpu=0 0x36e 0x000000000003b000 ok\n");
    assert_int_equal(program_stop(&program), MSR_OK);
    expect_log(&rec, "wrmsr cpu=0 0x36c 0x000000000027a000 ok\n"
                     "wrmsr cpu=0 0x36e 0x000000000003a000 ok\n");
    uint64_t counts[2];
    assert_int_equal(program_read(&program, counts), MSR_OK);
    expect_log(&rec, "rdmsr cpu=0 0x30c 0x0000000000000000 ok\n"
                     "rdmsr cpu=0 0x30e 0x0000000000000000 ok\n");
    assert_int_equal(program_reset(&program), MSR_OK);
    expect_log(&rec, "wrmsr cpu=0 0x30c 0x0000000000000000 ok\n"
                     "wrmsr cpu=0 0x30e 0x0000000000000000 ok\n");
    /* a PMI handler's reload: the presets, then the CCCRs started or stopped */
    const uint64_t presets[2] = {0xfffffff000ull, 7};
    assert_int_equal(program_reload(&program, presets, true), MSR_OK);
    expect_log(&rec, "wrmsr cpu=0 0x30c 0x000000fffffff000 ok\n"
                     "wrmsr cpu=0 0x30e 0x0000000000000007 ok\n"
                     "wrmsr cpu=0 0x36c 0x000000000027b000 ok\n"
                     "wrmsr cpu=0 0x36e 0x000000000003b000 ok\n");
    assert_int_equal(program_reload(&program, presets, false), MSR_OK);
    expect_log(&rec, "wrmsr cpu=0 0x30c 0x000000fffffff000 ok\n"
                     "wrmsr cpu=0 0x30e 0x0000000000000007 ok\n"
                     "wrmsr cpu=0 0x36c 0x000000000027a000 ok\n"
                     "wrmsr cpu=0 0x36e 0x000000000003a000 ok\n");
    recording_close(&rec);
    msr_backend_destroy(nb);
}

/* Execution tagging of x87 (section 9.3): the upstream ESCR is written
 * after the counting ESCR, with tag bit 0. */
static void test_upstream_escr(void **state)
{
    (void)state;
    static const char *const events[] = {"netburst::x87_FP_retired:u=1:k=0"};
    struct program program;
    struct recording rec;
    struct msr_backend *nb = nb_backend_create(config);
    record(&rec, nb);
    program_init(&program, rec.backend, 1, plan_one_run(events, 1));
    assert_int_equal(program_setup(&program, NULL), MSR_OK);
    expect_log(&rec, "wrmsr cpu=1 0x36c 0x000000000003a000 ok\n"
                     "wrmsr cpu=1 0x3cc 0x0000000018000205 ok\n"  /* execution_event NBOGUS0 */
                     "wrmsr cpu=1 0x3a4 0x0000000009000035 ok\n"
                     "wrmsr cpu=1 0x30c 0x0000000000000000 ok\n"
                     /* no replay metric: the global tagging MSRs are cleared */
                     "wrmsr cpu=1 0x3f1 0x0000000000000000 ok\n"
                     "wrmsr cpu=1 0x3f2 0x0000000000000000 ok\n");
    /* releasing zeroes the CCCR, both ESCRs and the tagging MSRs */
    assert_int_equal(program_release(&program), MSR_OK);
    expect_log(&rec, "wrmsr cpu=1 0x36c 0x0000000000000000 ok\n"
                     "wrmsr cpu=1 0x3cc 0x0000000000000000 ok\n"
                     "wrmsr cpu=1 0x3a4 0x0000000000000000 ok\n"
                     "wrmsr cpu=1 0x3f1 0x0000000000000000 ok\n"
                     "wrmsr cpu=1 0x3f2 0x0000000000000000 ok\n");
    recording_close(&rec);
    msr_backend_destroy(nb);
}

/* Two counters sharing one ESCR: it is written once. */
static void test_shared_escr_written_once(void **state)
{
    (void)state;
    static const char *const events[] = {"netburst::branch_retired:MMTP",
                                         "netburst::branch_retired:MMTP:thr=1"};
    struct program program;
    struct recording rec;
    struct msr_backend *nb = nb_backend_create(config);
    record(&rec, nb);
    program_init(&program, rec.backend, 0, plan_one_run(events, 2));
    assert_int_equal(program_setup(&program, NULL), MSR_OK);
    expect_log(&rec, "wrmsr cpu=0 0x36c 0x000000000003a000 ok\n"
                     "wrmsr cpu=0 0x36d 0x000000000017a000 ok\n"
                     "wrmsr cpu=0 0x3cc 0x000000000c00080f ok\n"
                     "wrmsr cpu=0 0x30c 0x0000000000000000 ok\n"
                     "wrmsr cpu=0 0x30d 0x0000000000000000 ok\n"
                     "wrmsr cpu=0 0x3f1 0x0000000000000000 ok\n"
                     "wrmsr cpu=0 0x3f2 0x0000000000000000 ok\n");
    recording_close(&rec);
    msr_backend_destroy(nb);
}

/* libpfm4's replay_event pseudo sub-events with three upstream events:
 * each upstream ESCR is written once, after the counting ESCRs, though two
 * counters ask for it; then the replay-tagging MSRs. */
static void test_replay_upstream_escrs(void **state)
{
    (void)state;
    static const char *const events[] = {
        "netburst::replay_event:MOB_LD_REPLAY:SP_LD_RET:SP_ST_RET",
        "netburst::replay_event:MOB_LD_REPLAY:SP_LD_RET:SP_ST_RET:thr=1"};
    struct program program;
    struct recording rec;
    struct msr_backend *nb = nb_backend_create(config);
    record(&rec, nb);
    program_init(&program, rec.backend, 0, plan_one_run(events, 2));
    assert_int_equal(program_setup(&program, NULL), MSR_OK);
    expect_log(&rec, "wrmsr cpu=0 0x36c 0x000000000003a000 ok\n"
                     "wrmsr cpu=0 0x36d 0x000000000017a000 ok\n"
                     "wrmsr cpu=0 0x3cc 0x000000001200020f ok\n" /* replay_event NBOGUS */
                     "wrmsr cpu=0 0x3aa 0x000000000600600f ok\n" /* MOB_ESCR0 */
                     "wrmsr cpu=0 0x3af 0x000000000800040f ok\n" /* SAAT_ESCR1 */
                     "wrmsr cpu=0 0x3ae 0x000000000a00040f ok\n" /* SAAT_ESCR0 */
                     "wrmsr cpu=0 0x30c 0x0000000000000000 ok\n"
                     "wrmsr cpu=0 0x30d 0x0000000000000000 ok\n"
                     /* PEBS_ENABLE bits 9, 10, 24; MATRIX_VERT bits 0, 1 */
                     "wrmsr cpu=0 0x3f1 0x0000000001000600 ok\n"
                     "wrmsr cpu=0 0x3f2 0x0000000000000003 ok\n");
    recording_close(&rec);
    msr_backend_destroy(nb);
}

static void occur(struct nb_pmu *pmu, const char *event, uint16_t mask, uint32_t count)
{
    assert_true(nb_pmu_event(pmu, nb_event_find(event), mask, 0, count));
}

/* Counting on the simulated PMU, then program_read. */
static void test_counts(void **state)
{
    (void)state;
    static const char *const events[] = {"netburst::branch_retired:MMTP:u=1",
                                         "netburst::machine_clear:CLEAR:u=1"};
    struct msr_backend *nb = nb_backend_create(config);
    struct nb_pmu *pmu = nb_backend_pmu(nb);
    struct program program;
    program_init(&program, nb, 0, plan_one_run(events, 2));
    static const uint64_t presets[] = {100, 200};
    assert_int_equal(program_setup(&program, presets), MSR_OK);
    occur(pmu, "branch_retired", 1u << 2, 3); /* before start: not counted */
    nb_pmu_tick(pmu);
    assert_int_equal(program_start(&program), MSR_OK);
    occur(pmu, "branch_retired", 1u << 2, 3);
    nb_pmu_tick(pmu);
    occur(pmu, "branch_retired", 1u << 2, 2);
    occur(pmu, "machine_clear", 1u << 0, 1);
    occur(pmu, "branch_retired", 1u << 0, 4); /* MMNP: not selected */
    nb_pmu_tick(pmu);
    assert_int_equal(program_stop(&program), MSR_OK);
    occur(pmu, "branch_retired", 1u << 2, 7);
    nb_pmu_tick(pmu);
    uint64_t counts[2];
    assert_int_equal(program_read(&program, counts), MSR_OK);
    assert_int_equal(counts[0], 105);
    assert_int_equal(counts[1], 201);
    assert_int_equal(program_reset(&program), MSR_OK);
    assert_int_equal(program_read(&program, counts), MSR_OK);
    assert_int_equal(counts[0], 0);
    assert_int_equal(counts[1], 0);
    msr_backend_destroy(nb);
}

static void test_p5(void **state)
{
    (void)state;
    static const char *const events[] = {"p5::data_read:u", "p5::clocks"};
    struct msr_backend *p5 = p5_backend_create();
    struct p5_pmu *pmu = p5_backend_pmu(p5);
    struct program program;
    struct recording rec;
    record(&rec, p5);
    program_init(&program, rec.backend, 0, plan_one_run(events, 2));
    assert_int_equal(program_setup(&program, NULL), MSR_OK);
    expect_log(&rec, "wrmsr cpu=0 0x11 0x0000000000000000 ok\n"
                     "wrmsr cpu=0 0x12 0x0000000000000000 ok\n"
                     "wrmsr cpu=0 0x13 0x0000000000000000 ok\n");
    assert_int_equal(program_start(&program), MSR_OK);
    expect_log(&rec, "wrmsr cpu=0 0x11 0x0000000001c00080 ok\n");
    p5_pmu_event(pmu, 0x00, 2);
    p5_pmu_tick(pmu);
    p5_pmu_tick(pmu);
    assert_int_equal(program_stop(&program), MSR_OK);
    expect_log(&rec, "wrmsr cpu=0 0x11 0x0000000000000000 ok\n");
    p5_pmu_tick(pmu);
    uint64_t counts[2];
    assert_int_equal(program_read(&program, counts), MSR_OK);
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[1], 2);
    assert_int_equal(program_release(&program), MSR_OK);
    expect_log(&rec, "rdmsr cpu=0 0x12 0x0000000000000002 ok\n"
                     "rdmsr cpu=0 0x13 0x0000000000000002 ok\n"
                     "wrmsr cpu=0 0x11 0x0000000000000000 ok\n");
    recording_close(&rec);
    msr_backend_destroy(p5);
}

/* A failing access stops the sequence and names its MSR. */
static void test_failures(void **state)
{
    (void)state;
    static const char *const netburst[] = {"netburst::branch_retired:MMTP"};
    struct msr_backend *no_ht = nb_backend_create((struct nb_pmu_config){.model = 2, .ht = false});
    struct program program;
    program_init(&program, no_ht, 0, plan_one_run(netburst, 1));
    assert_int_equal(program_setup(&program, NULL), MSR_GP); /* T1 bits without HT */
    assert_int_equal(program.failed_msr, 0x3cc);

    static const char *const p5[] = {"p5::data_read"};
    program_init(&program, no_ht, 0, plan_one_run(p5, 1));
    assert_int_equal(program_setup(&program, NULL), MSR_GP);
    assert_int_equal(program.failed_msr, P5_MSR_CESR);
    uint64_t count;
    assert_int_equal(program_read(&program, &count), MSR_GP);
    assert_int_equal(program.failed_msr, P5_MSR_CTR0);
    msr_backend_destroy(no_ht);

    /* the replay MSRs on a PMU without them: the P5 */
    static const char *const replay[] = {"netburst::1stL_cache_load_miss_retired"};
    struct msr_backend *other = p5_backend_create();
    program_init(&program, other, 0, plan_one_run(replay, 1));
    assert_int_equal(program_setup(&program, NULL), MSR_GP);
    assert_int_equal(program.failed_msr, 0x36c);
    assert_int_equal(program_start(&program), MSR_GP);
    msr_backend_destroy(other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_netburst_sequence, teardown),
        cmocka_unit_test_teardown(test_upstream_escr, teardown),
        cmocka_unit_test_teardown(test_shared_escr_written_once, teardown),
        cmocka_unit_test_teardown(test_replay_upstream_escrs, teardown),
        cmocka_unit_test_teardown(test_counts, teardown),
        cmocka_unit_test_teardown(test_p5, teardown),
        cmocka_unit_test_teardown(test_failures, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
