/* Section 9's worked examples in the Pentium 4 monitoring study, programmed the way a user would:
 * event strings -> allocator -> programming library -> simulated PMU, with
 * the recording backend logging every access.  The ESCR, CCCR and PEBS
 * values the log shows must be the study's (docs/study-examples.md has the
 * study's listings and their decoding), and the counters must count the stimulus. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pmu/programming/alloc.h"
#include "pmu/programming/msr.h"
#include "pmu/catalog/netburst_events.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/programming/program.h"

struct session {
    struct nb_pmu_config config;
    struct msr_backend *sim;
    struct msr_backend *recorder;
    FILE *log;
    char *log_text;
    size_t log_size;
    struct alloc_plan plan;
    struct program program;
};

static void start(struct session *s, struct nb_pmu_config config, const char *const *events, int n)
{
    memset(s, 0, sizeof *s);
    s->config = config;
    struct alloc_request requests[8];
    char error[256];
    for (int i = 0; i < n; i++) {
        assert_true(event_spec_parse(events[i], &config, &requests[i].spec, error, sizeof error));
        requests[i].group = 0;
    }
    struct alloc_error alloc_error;
    assert_true(alloc_plan_make(requests, n, &config, &s->plan, &alloc_error));
    assert_int_equal(s->plan.n_runs, 1);
    s->sim = nb_backend_create(config);
    s->log = open_memstream(&s->log_text, &s->log_size);
    s->recorder = msr_record_create(s->sim, s->log);
    program_init(&s->program, s->recorder, 0, &s->plan.runs[0]);
    assert_int_equal(program_setup(&s->program, NULL), MSR_OK);
    assert_int_equal(program_start(&s->program), MSR_OK);
    fflush(s->log);
}

static void finish(struct session *s)
{
    msr_backend_destroy(s->recorder);
    msr_backend_destroy(s->sim);
    fclose(s->log);
    free(s->log_text);
    alloc_plan_free(&s->plan);
}

/* Whether the log holds a successful write of `value` to one of `msrs`. */
static bool wrote(const struct session *s, const uint32_t *msrs, int n, uint64_t value)
{
    for (int i = 0; i < n; i++) {
        char line[96];
        snprintf(line, sizeof line, "wrmsr cpu=0 0x%x 0x%016llx ok\n", msrs[i],
                 (unsigned long long)value);
        if (strstr(s->log_text, line))
            return true;
    }
    return false;
}

static const uint32_t cru_escr2_3[] = {0x3cc, 0x3cd};
static const uint32_t iq_cccrs[] = {0x36c, 0x36d, 0x36e, 0x36f, 0x370, 0x371};

static void event(struct session *s, const char *name, const char *sub, int thread, uint32_t n)
{
    int e = nb_event_find(name);
    const struct nb_subevent *found = nb_subevent_find(&nb_event_table[e], sub);
    assert_true(nb_pmu_event(nb_backend_pmu(s->sim), e, (uint16_t)(1u << found->bit), thread, n));
}

static uint64_t count_of(struct session *s, int assignment)
{
    uint64_t counts[ALLOC_MAX_PER_RUN];
    assert_int_equal(program_read(&s->program, counts), MSR_OK);
    return counts[assignment];
}

/* 9.1: branch_retired MMTP|MMTM, T0_USR, COMPARE with THRESHOLD 2 on an
 * ESCR-select-5 IQ counter: ESCR 0x0C001804, CCCR 0x0027B000 (the
 * study's section 11.1 listing). */
static void test_section_9_1(void **state)
{
    (void)state;
    struct session s;
    const char *events[] = {"netburst::branch_retired:MMTP:MMTM:u=1:t0:thr=2"};
    start(&s, (struct nb_pmu_config){2, true}, events, 1);
    assert_true(wrote(&s, cru_escr2_3, 2, 0x0c001804));
    assert_true(wrote(&s, iq_cccrs, 6, 0x0027b000));
    struct nb_pmu *pmu = nb_backend_pmu(s.sim);
    event(&s, "branch_retired", "MMTP", 0, 3); /* 3 > 2: +1 */
    nb_pmu_tick(pmu);
    event(&s, "branch_retired", "MMTM", 0, 2); /* 2: no */
    nb_pmu_tick(pmu);
    event(&s, "branch_retired", "MMTM", 0, 2);
    event(&s, "branch_retired", "MMTP", 0, 1); /* 3: +1 */
    nb_pmu_tick(pmu);
    assert_int_equal(count_of(&s, 0), 2);
    finish(&s);
}

/* 9.2: memory loads by front-end tagging: uop_type TAGLOADS with T0_USR and
 * T1_USR (0x04000405) tags, front_end_event NBOGUS (0x10000205) counts on an
 * ESCR-select-5 counter, CCCR 0x0003B000 (the 11.1 listing). */
static void test_section_9_2(void **state)
{
    (void)state;
    struct session s;
    const char *events[] = {"netburst::memory_loads:u=1"};
    start(&s, (struct nb_pmu_config){2, true}, events, 1);
    static const uint32_t rat_escrs[] = {0x3bc, 0x3bd};
    assert_true(wrote(&s, rat_escrs, 2, 0x04000405));
    assert_true(wrote(&s, cru_escr2_3, 2, 0x10000205));
    assert_true(wrote(&s, iq_cccrs, 6, 0x0003b000));
    struct nb_pmu *pmu = nb_backend_pmu(s.sim);
    /* Tagging itself comes with the NetBurst model; the retired tagged
     * loads arrive as front_end_event occurrences. */
    nb_pmu_set_thread(pmu, 1, true, 3);
    event(&s, "front_end_event", "NBOGUS", 0, 4);
    event(&s, "front_end_event", "NBOGUS", 1, 2);
    event(&s, "front_end_event", "BOGUS", 0, 5); /* bogus: not counted */
    nb_pmu_tick(pmu);
    assert_int_equal(count_of(&s, 0), 6);
    finish(&s);
}

/* 9.3, without Hyper-Threading: x87_FP_uop ALL with tag enable and tag 1,
 * T0_USR (0x09000034); execution_event NBOGUS0, T0_USR (0x18000204) on an
 * ESCR-select-5 counter, CCCR 0x0003B000 (the 11.1 listing). */
static void test_section_9_3(void **state)
{
    (void)state;
    struct session s;
    const char *events[] = {"netburst::x87_FP_retired:u=1"};
    start(&s, (struct nb_pmu_config){2, false}, events, 1);
    static const uint32_t firm_escrs[] = {0x3a4, 0x3a5};
    assert_true(wrote(&s, firm_escrs, 2, 0x09000034));
    assert_true(wrote(&s, cru_escr2_3, 2, 0x18000204));
    assert_true(wrote(&s, iq_cccrs, 6, 0x0003b000));
    struct nb_pmu *pmu = nb_backend_pmu(s.sim);
    event(&s, "execution_event", "NBOGUS0", 0, 7);
    event(&s, "execution_event", "NBOGUS1", 0, 3); /* another tag bit */
    nb_pmu_tick(pmu);
    assert_int_equal(count_of(&s, 0), 7);
    finish(&s);
}

/* 9.4: 1stL_cache_load_miss_retired by replay tagging: IA32_PEBS_ENABLE
 * 0x01000001 (bits 0 and 24, not 25), MSR_PEBS_MATRIX_VERT 0x1, replay_event
 * NBOGUS with T0_OS and T0_USR (0x1200020C), CCCR 0x0003B000 (the 11.1
 * listing and command). */
static void test_section_9_4(void **state)
{
    (void)state;
    struct session s;
    const char *events[] = {"netburst::1stL_cache_load_miss_retired:t0"};
    start(&s, (struct nb_pmu_config){2, true}, events, 1);
    static const uint32_t pebs_enable[] = {0x3f1}, matrix_vert[] = {0x3f2};
    assert_true(wrote(&s, pebs_enable, 1, 0x01000001));
    assert_true(wrote(&s, matrix_vert, 1, 0x1));
    assert_true(wrote(&s, cru_escr2_3, 2, 0x1200020c));
    assert_true(wrote(&s, iq_cccrs, 6, 0x0003b000));
    struct nb_pmu *pmu = nb_backend_pmu(s.sim);
    event(&s, "replay_event", "NBOGUS", 0, 2);
    nb_pmu_set_thread(pmu, 0, true, 0);
    event(&s, "replay_event", "NBOGUS", 0, 1); /* CPL 0: T0_OS counts too */
    event(&s, "replay_event", "NBOGUS", 1, 4); /* thread 1: not counted */
    nb_pmu_tick(pmu);
    assert_int_equal(count_of(&s, 0), 3);
    finish(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_section_9_1),
        cmocka_unit_test(test_section_9_2),
        cmocka_unit_test(test_section_9_3),
        cmocka_unit_test(test_section_9_4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
