/* The counter allocator: docs/alloc.md. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "pmu/programming/alloc.h"
#include "pmu/catalog/netburst_fields.h"

enum { MAX = ALLOC_MAX_REQUESTS + 1 };

static struct alloc_request requests[MAX];
static int n_requests;
static struct nb_pmu_config config;
static struct alloc_plan plan;

static int setup(void **state)
{
    (void)state;
    n_requests = 0;
    config = (struct nb_pmu_config){.model = 2, .ht = true};
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    alloc_plan_free(&plan);
    return 0;
}

static void add(const char *text, int group)
{
    char error[512];
    if (!event_spec_parse(text, &config, &requests[n_requests].spec, error, sizeof error))
        fail_msg("%s", error);
    requests[n_requests++].group = group;
}

static void add_all(const char *const *texts, int n)
{
    for (int i = 0; i < n; i++)
        add(texts[i], ALLOC_NO_GROUP);
}

static int plan_runs(void)
{
    struct alloc_error error;
    alloc_plan_free(&plan);
    if (!alloc_plan_make(requests, n_requests, &config, &plan, &error))
        fail_msg("request %d: %s", error.request, error.message);
    return plan.n_runs;
}

static void plan_fails(int request, const char *message)
{
    struct alloc_error error;
    assert_false(alloc_plan_make(requests, n_requests, &config, &plan, &error));
    assert_int_equal(error.request, request);
    assert_string_equal(error.message, message);
}

/* The run and assignment of a request. */
static const struct alloc_assignment *find(int request, int *run)
{
    for (int r = 0; r < plan.n_runs; r++)
        for (int i = 0; i < plan.runs[r].n; i++)
            if (plan.runs[r].assignments[i].request == request) {
                if (run)
                    *run = r;
                return &plan.runs[r].assignments[i];
            }
    fail_msg("request %d not planned", request);
    return NULL;
}

static int run_of(int request)
{
    int run;
    find(request, &run);
    return run;
}

/* Every run obeys the register rules: distinct counters, the routing of
 * the register map, one value per ESCR. */
static void check_runs(void)
{
    for (int r = 0; r < plan.n_runs; r++) {
        uint32_t counters = 0;
        uint64_t value[NB_NUM_ESCRS] = {0};
        for (int i = 0; i < plan.runs[r].n; i++) {
            const struct alloc_assignment *a = &plan.runs[r].assignments[i];
            assert_false(counters & (1u << a->counter));
            counters |= 1u << a->counter;
            assert_int_equal(nb_escr_routed(a->counter, cccr_escr_select(a->cccr_value),
                                             config.model),
                             a->escr);
            assert_true(value[a->escr] == 0 || value[a->escr] == a->escr_value);
            value[a->escr] = a->escr_value;
            for (int u = 0; u < a->n_upstreams; u++) {
                int escr = a->upstream_escr[u];
                assert_true(value[escr] == 0 || value[escr] == a->upstream_value[u]);
                value[escr] = a->upstream_value[u];
            }
        }
    }
}

/* 18 events whose ESCRs cover all 18 counters. */
static const char *const full_set[18] = {
    "netburst::BPU_fetch_request:TCMISS", "netburst::ITLB_reference:HIT",
    "netburst::page_walk_type:DTMISS",    "netburst::MOB_load_replay:NO_STA",
    "netburst::TC_deliver_mode:DD",       "netburst::tc_ms_xfer:CISC",
    "netburst::uop_queue_writes:FROM_ROM", "netburst::retired_branch_type:CONDITIONAL",
    "netburst::memory_cancel:ST_RB_FULL", "netburst::memory_complete:LSC",
    "netburst::SSE_input_assist:ALL",     "netburst::x87_FP_uop:ALL",
    "netburst::instr_retired:NBOGUSNTAG", "netburst::uops_retired:NBOGUS",
    "netburst::branch_retired:MMTP",      "netburst::machine_clear:CLEAR",
    "netburst::uop_type:TAGLOADS",        "netburst::resource_stall:SBFULL",
};

static void test_full_set_one_run(void **state)
{
    (void)state;
    add_all(full_set, 18);
    assert_int_equal(plan_runs(), 1);
    assert_int_equal(plan.runs[0].n, 18);
    uint32_t counters = 0;
    for (int i = 0; i < 18; i++)
        counters |= 1u << plan.runs[0].assignments[i].counter;
    assert_int_equal(counters, 0x3ffff);
    assert_false(plan.runs[0].replay);
    check_runs();
}

static void test_nineteen_events_two_runs(void **state)
{
    (void)state;
    add_all(full_set, 18);
    add("netburst::TC_misc:FLUSH", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 2);
    check_runs();
}

/* Three configurations that only CRU_ESCR2/3 can take. */
static void test_cru2_cru3_conflict(void **state)
{
    (void)state;
    static const char *const set[] = {"netburst::branch_retired:MMTP",
                                      "netburst::machine_clear:CLEAR",
                                      "netburst::x87_assist:FPSU"};
    add_all(set, 3);
    assert_int_equal(plan_runs(), 2);
    for (int r = 0; r < 3; r++) {
        int escr = find(r, NULL)->escr;
        assert_true(escr == NB_ESCR_CRU2 || escr == NB_ESCR_CRU3);
    }
    check_runs();
}

/* Identical ESCR values share an ESCR through two counters. */
static void test_identical_configurations_share(void **state)
{
    (void)state;
    static const char *const set[] = {"netburst::branch_retired:MMTP",
                                      "netburst::branch_retired:MMTP:thr=1",
                                      "netburst::branch_retired:MMTP:e=1",
                                      "netburst::machine_clear:CLEAR"};
    add_all(set, 4);
    assert_int_equal(plan_runs(), 1);
    assert_int_equal(find(0, NULL)->escr, find(1, NULL)->escr);
    assert_int_equal(find(0, NULL)->escr, find(2, NULL)->escr);
    assert_int_not_equal(find(0, NULL)->cccr_value, find(1, NULL)->cccr_value);
    check_runs();
}

static void test_eight_fsb_events_four_runs(void **state)
{
    (void)state;
    static const char *const set[] = {
        "netburst::IOQ_allocation:ReqA0", "netburst::FSB_data_activity:DRDY_DRV",
        "netburst::global_power_events:RUNNING", "netburst::b2b_cycles:BIT1",
        "netburst::bnr:BIT0", "netburst::snoop:BIT2", "netburst::response:BIT1",
        "netburst::IOQ_active_entries:ReqA0"};
    add_all(set, 8);
    assert_int_equal(plan_runs(), 4);
    check_runs();
}

static void test_two_replay_metrics_two_runs(void **state)
{
    (void)state;
    add("netburst::1stL_cache_load_miss_retired", ALLOC_NO_GROUP);
    add("netburst::DTLB_load_miss_retired", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 2);
    assert_true(plan.runs[0].replay);
    assert_int_equal(plan.runs[0].pebs_enable, PEBS_ENABLE_UOP_TAG | 1u);
    assert_int_equal(plan.runs[0].matrix_vert, 1);
    assert_int_equal(plan.runs[1].pebs_enable, PEBS_ENABLE_UOP_TAG | 4u);
    check_runs();
}

/* One replay configuration counted on each thread: one run. */
static void test_same_replay_metric_shares(void **state)
{
    (void)state;
    add("netburst::1stL_cache_load_miss_retired:t0", ALLOC_NO_GROUP);
    add("netburst::1stL_cache_load_miss_retired:t1", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 1);
    check_runs();
}

/* libpfm4's replay_event pseudo sub-events together: their replay
 * configuration and an ESCR for each of their upstream events, which a
 * string asking for the same shares. */
static void test_replay_upstreams(void **state)
{
    (void)state;
    add("netburst::replay_event:MOB_LD_REPLAY:SP_LD_RET:SP_ST_RET", ALLOC_NO_GROUP);
    add("netburst::replay_event:sp_st_ret:SP_LD_RET:MOB_LD_REPLAY:BOGUS", ALLOC_NO_GROUP);
    add("netburst::split_load_retired", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 2);
    int run;
    const struct alloc_assignment *a = find(0, &run);
    assert_int_equal(a->n_upstreams, 3);
    assert_true(a->upstream_escr[0] == NB_ESCR_MOB0 || a->upstream_escr[0] == NB_ESCR_MOB1);
    assert_int_equal(a->upstream_value[0], 0x0600600full); /* MOB_load_replay */
    assert_int_equal(a->upstream_escr[1], NB_ESCR_SAAT1);
    assert_int_equal(a->upstream_value[1], 0x0800040full); /* load_port_replay */
    assert_int_equal(a->upstream_escr[2], NB_ESCR_SAAT0);
    assert_int_equal(a->upstream_value[2], 0x0a00040full); /* store_port_replay */
    assert_int_equal(plan.runs[run].pebs_enable, PEBS_ENABLE_UOP_TAG | 0x600u);
    assert_int_equal(plan.runs[run].matrix_vert, 3);
    assert_int_equal(run_of(1), run);
    assert_true(run_of(2) != run);
    check_runs();
}

static void test_one_front_end_tag_per_run(void **state)
{
    (void)state;
    add("netburst::memory_loads", ALLOC_NO_GROUP);
    add("netburst::memory_stores", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 2);
    const struct alloc_assignment *a = find(0, NULL);
    assert_int_equal(a->n_upstreams, 1);
    assert_true(a->upstream_escr[0] == NB_ESCR_RAT0 || a->upstream_escr[0] == NB_ESCR_RAT1);
    assert_int_equal(escr_event_mask(a->upstream_value[0]), 1u << 1); /* TAGLOADS */
    check_runs();
}

static void test_groups_stay_together(void **state)
{
    (void)state;
    add("netburst::branch_retired:MMTP", 1);
    add("netburst::machine_clear:CLEAR", 2);
    add("netburst::x87_assist:FPSU", 1);
    add("netburst::branch_retired:MMNP", 2);
    add("netburst::TC_misc:FLUSH", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 2);
    assert_int_equal(run_of(0), run_of(2));
    assert_int_equal(run_of(1), run_of(3));
    assert_int_not_equal(run_of(0), run_of(1));
    check_runs();
}

static void test_group_that_never_fits(void **state)
{
    (void)state;
    add("netburst::TC_misc:FLUSH", ALLOC_NO_GROUP);
    add("netburst::branch_retired:MMTP", 7);
    add("netburst::machine_clear:CLEAR", 7);
    add("netburst::x87_assist:FPSU", 7);
    plan_fails(1, "the 3 events of its group cannot count together in one run");
}

static void test_group_larger_than_a_run(void **state)
{
    (void)state;
    for (int i = 0; i < 19; i++)
        add("netburst::TC_misc:FLUSH", 3);
    plan_fails(0, "its group has 19 events, but a run has 18 counters");
}

/* HT: an event on one thread uses that thread's half (Linux's p4 driver). */
static void test_thread_halves(void **state)
{
    (void)state;
    add("netburst::branch_retired:MMTP:t0", ALLOC_NO_GROUP);
    add("netburst::branch_retired:MMTP:t1", ALLOC_NO_GROUP);
    add("netburst::IOQ_active_entries:ReqA0:t0", ALLOC_NO_GROUP);
    add("netburst::BSQ_allocation:REQ_TYPE0:t1", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 1);
    assert_int_equal(find(0, NULL)->escr, NB_ESCR_CRU2);
    assert_true((1u << find(0, NULL)->counter) & 0x13000);
    assert_int_equal(find(1, NULL)->escr, NB_ESCR_CRU3);
    assert_true((1u << find(1, NULL)->counter) & 0x2c000);
    /* a single ESCR: thread 0 takes its first counter, thread 1 the second */
    assert_int_equal(find(2, NULL)->escr, NB_ESCR_FSB1);
    assert_int_equal(find(2, NULL)->counter, 2);
    assert_int_equal(find(3, NULL)->escr, NB_ESCR_BSU0);
    assert_int_equal(find(3, NULL)->counter, 1);
    check_runs();
}

static void test_thread_halves_need_ht(void **state)
{
    (void)state;
    static const char *const set[] = {"netburst::branch_retired:MMTP:t0",
                                      "netburst::machine_clear:CLEAR:t0",
                                      "netburst::x87_assist:FPSU:t0"};
    add_all(set, 3);
    assert_int_equal(plan_runs(), 3); /* all on CRU_ESCR2 */
    n_requests = 0;
    config.ht = false;
    add_all(set, 3);
    assert_int_equal(plan_runs(), 2);
    check_runs();
}

static void test_pebs_thread1_never_fits(void **state)
{
    (void)state;
    add("netburst::1stL_cache_load_miss_retired:pebs:t1", ALLOC_NO_GROUP);
    plan_fails(0, "no counter of thread 1's half can count it (with Hyper-Threading each "
                  "thread has half the counters; docs/alloc.md)");
}

static void test_execution_tag_bits(void **state)
{
    (void)state;
    add("netburst::x87_FP_retired", ALLOC_NO_GROUP);
    add("netburst::packed_SP_retired", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 1);
    const struct alloc_assignment *a = find(0, NULL), *b = find(1, NULL);
    assert_int_equal(escr_tag_value(a->upstream_value[0]), 1);
    assert_int_equal(escr_tag_value(b->upstream_value[0]), 2);
    assert_true(a->upstream_value[0] & ESCR_TAG_ENABLE);
    assert_int_equal(escr_event_mask(a->escr_value), 1); /* NBOGUS0 */
    assert_int_equal(escr_event_mask(b->escr_value), 2); /* NBOGUS1 */
    check_runs();
}

/* Only FIRM_ESCR0/1 take the upstream events: two metrics per run. */
static void test_three_execution_metrics(void **state)
{
    (void)state;
    add("netburst::x87_FP_retired", ALLOC_NO_GROUP);
    add("netburst::packed_SP_retired", ALLOC_NO_GROUP);
    add("netburst::scalar_DP_retired", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 2);
    check_runs();
}

/* A ':tag=' event of the run keeps its tag bits from the metrics. */
static void test_explicit_tag_reserved(void **state)
{
    (void)state;
    add("netburst::x87_FP_uop:ALL:tag=1", ALLOC_NO_GROUP);
    add("netburst::scalar_SP_retired", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 1);
    const struct alloc_assignment *a = find(1, NULL);
    assert_int_equal(escr_tag_value(a->upstream_value[0]), 2);
    assert_int_equal(escr_event_mask(a->escr_value), 2);
    check_runs();
}

static void test_pebs_counter_16(void **state)
{
    (void)state;
    add("netburst::1stL_cache_load_miss_retired:pebs", ALLOC_NO_GROUP);
    add("netburst::branch_retired:MMTP", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 1);
    assert_int_equal(find(0, NULL)->counter, 16);
    assert_int_equal(find(0, NULL)->escr, NB_ESCR_CRU2);
    assert_int_equal(plan.runs[0].pebs_enable, PEBS_ENABLE_PEBS | PEBS_ENABLE_UOP_TAG | 1u);
    check_runs();
}

/* With PEBS, one tagging mechanism per run. */
static void test_pebs_one_mechanism(void **state)
{
    (void)state;
    add("netburst::1stL_cache_load_miss_retired:pebs", ALLOC_NO_GROUP);
    add("netburst::memory_loads", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 2);
    n_requests = 0;
    add("netburst::1stL_cache_load_miss_retired", ALLOC_NO_GROUP);
    add("netburst::memory_loads", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 1);
}

static void test_p5(void **state)
{
    (void)state;
    add("p5::data_read:u", ALLOC_NO_GROUP);
    add("p5::data_write", ALLOC_NO_GROUP);
    add("p5::clocks:k", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 2);
    assert_int_equal(plan.runs[0].n, 2);
    assert_int_equal(plan.runs[0].assignments[0].counter, 0);
    assert_int_equal(plan.runs[0].assignments[1].counter, 1);
    /* data_read 0x00, CC 010; data_write 0x01, CC 011 on CTR1 */
    assert_int_equal(alloc_p5_cesr(&plan.runs[0]), 0x00c10080);
    assert_int_equal(alloc_p5_cesr(&plan.runs[1]), 0x00000140);
    assert_int_equal(plan.runs[1].assignments[0].escr, -1);
}

/* The MSRs of a P5 run as alloc prints them: each counter's half of the
 * CESR, shared, and the run's whole CESR; the same run as run_p5mon
 * builds it (alloc_p5_run). */
static void test_p5_msrs(void **state)
{
    (void)state;
    add("p5::data_read:u", ALLOC_NO_GROUP);
    add("p5::data_write", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 1);
    const struct alloc_run *run = &plan.runs[0];
    struct alloc_counter_msrs msrs;
    alloc_counter_msrs(run, &run->assignments[1], &msrs);
    assert_string_equal(msrs.counter_name, "CTR1");
    assert_int_equal(msrs.counter_msr, 0x13);
    assert_false(msrs.numbered);
    assert_string_equal(msrs.escr.name, "CESR");
    assert_int_equal(msrs.escr.msr, 0x11);
    assert_int_equal(msrs.escr.value, 0x00c10000);
    assert_true(msrs.escr_shared);
    assert_false(msrs.has_cccr);
    assert_int_equal(msrs.n_upstreams, 0);
    struct alloc_run_msrs extra;
    alloc_run_msrs(run, &extra);
    assert_string_equal(extra.pmu, "p5");
    assert_false(extra.cpuid_model);
    assert_int_equal(extra.n, 1);
    assert_string_equal(extra.msrs[0].name, "CESR");
    assert_int_equal(extra.msrs[0].msr, 0x11);
    assert_int_equal(extra.msrs[0].value, 0x00c10080);
    struct alloc_run paired;
    alloc_p5_run((struct p5_event_spec[]){requests[0].spec.p5, requests[1].spec.p5}, 2, &paired);
    assert_int_equal(paired.pmu, run->pmu);
    assert_int_equal(paired.n, 2);
    assert_int_equal(alloc_p5_cesr(&paired), 0x00c10080);
    assert_int_equal(paired.assignments[1].request, 1);
    assert_int_equal(paired.assignments[1].counter, 1);
    assert_int_equal(paired.assignments[1].escr, -1);
}

/* A NetBurst replay-tagging run: its counter, ESCR, CCCR and upstream
 * ESCRs by name, and the two replay MSRs. */
static void test_netburst_msrs(void **state)
{
    (void)state;
    add("netburst::replay_event:MOB_LD_REPLAY:SP_LD_RET:SP_ST_RET", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 1);
    const struct alloc_run *run = &plan.runs[0];
    const struct alloc_assignment *a = &run->assignments[0];
    struct alloc_counter_msrs msrs;
    alloc_counter_msrs(run, a, &msrs);
    assert_string_equal(msrs.counter_name, nb_counter_name(a->counter));
    assert_int_equal(msrs.counter_msr, 0x300 + a->counter);
    assert_true(msrs.numbered);
    assert_string_equal(msrs.escr.name, nb_escrs[a->escr].name);
    assert_int_equal(msrs.escr.msr, nb_escrs[a->escr].msr);
    assert_int_equal(msrs.escr.value, a->escr_value);
    assert_false(msrs.escr_shared);
    assert_true(msrs.has_cccr);
    assert_string_equal(msrs.cccr.name, nb_cccr_name(a->counter));
    assert_int_equal(msrs.cccr.msr, 0x360 + a->counter);
    assert_int_equal(msrs.cccr.value, a->cccr_value);
    assert_int_equal(msrs.n_upstreams, 3);
    assert_string_equal(msrs.upstream[1].name, "MSR_SAAT_ESCR1");
    assert_int_equal(msrs.upstream[1].msr, nb_escrs[NB_ESCR_SAAT1].msr);
    assert_int_equal(msrs.upstream[1].value, 0x0800040full);
    struct alloc_run_msrs extra;
    alloc_run_msrs(run, &extra);
    assert_string_equal(extra.pmu, "netburst");
    assert_true(extra.cpuid_model);
    assert_int_equal(extra.n, 2);
    assert_string_equal(extra.msrs[0].name, "IA32_PEBS_ENABLE");
    assert_int_equal(extra.msrs[0].msr, 0x3f1);
    assert_int_equal(extra.msrs[0].value, PEBS_ENABLE_UOP_TAG | 0x600u);
    assert_string_equal(extra.msrs[1].name, "MSR_PEBS_MATRIX_VERT");
    assert_int_equal(extra.msrs[1].msr, 0x3f2);
    assert_int_equal(extra.msrs[1].value, 3);
}

static void test_p5_group_of_three(void **state)
{
    (void)state;
    add("p5::data_read", 1);
    add("p5::data_write", 1);
    add("p5::clocks", 1);
    plan_fails(0, "its group has 3 events, but a run has 2 counters");
}

static void test_mixed_pmus(void **state)
{
    (void)state;
    add("netburst::TC_misc:FLUSH", ALLOC_NO_GROUP);
    add("p5::data_read", ALLOC_NO_GROUP);
    plan_fails(1, "mixes P5 and NetBurst events; plan each PMU on its own");
}

static void test_too_many(void **state)
{
    (void)state;
    for (int i = 0; i < ALLOC_MAX_REQUESTS + 1; i++)
        add("netburst::TC_misc:FLUSH", ALLOC_NO_GROUP);
    plan_fails(-1, "257 events: at most 256 can be planned at once");
}

static void test_empty(void **state)
{
    (void)state;
    assert_int_equal(plan_runs(), 0);
}

/* Same input, same plan; runs ordered by their first request. */
static void test_deterministic(void **state)
{
    (void)state;
    add_all(full_set, 18);
    add("netburst::TC_misc:FLUSH", ALLOC_NO_GROUP);
    add("netburst::x87_FP_retired", ALLOC_NO_GROUP);
    add("netburst::memory_loads", ALLOC_NO_GROUP);
    plan_runs();
    struct alloc_run first[4];
    int n = plan.n_runs;
    assert_true(n <= 4);
    memcpy(first, plan.runs, (size_t)n * sizeof *first);
    assert_int_equal(plan_runs(), n);
    assert_memory_equal(first, plan.runs, (size_t)n * sizeof *first);
    for (int r = 1; r < n; r++)
        assert_true(plan.runs[r - 1].assignments[0].request < plan.runs[r].assignments[0].request);
    check_runs();
}

/* A random set (tests/perf/bench_alloc.c) whose proof of optimality needs more
 * than ALLOC_SEARCH_STEPS: the plan is still valid, and says it is not
 * proven minimal. */
static const char *const hard_set[40] = {
    "netburst::scalar_SP_uop:ALL",
    "netburst::x87_assist:FPSU",
    "netburst::snoop:BIT7",
    "netburst::response:BIT2:BIT9",
    "netburst::uops_retired:BOGUS:k=1",
    "netburst::IOQ_active_entries:ReqA4",
    "netburst::BSQ_cache_reference:RD_2ndL_MISS:k=1",
    "netburst::packed_SP_retired:k=1",
    "netburst::response:BIT1:BIT9:t0",
    "netburst::scalar_DP_uop:ALL:t1",
    "netburst::x87_SIMD_memory_moves_retired:k=1",
    "netburst::snoop:BIT6:t0",
    "netburst::SSE_input_assist:ALL:t1",
    "netburst::64bit_MMX_uop:ALL:u=1",
    "netburst::global_power_events:RUNNING:t1",
    "netburst::packed_DP_retired:t1",
    "netburst::bnr:BIT2:t1",
    "netburst::x87_FP_uop:ALL:t0",
    "netburst::uops_retired:BOGUS",
    "netburst::MOB_load_replay:NO_STD:PARTIAL_DATA:UNALGN_ADDR:t1",
    "netburst::page_walk_type:ITMISS:t1",
    "netburst::execution_event:NBOGUS1",
    "netburst::branch_retired:MMNM",
    "netburst::x87_SIMD_moves_uop:ALLP0:thr=2",
    "netburst::snoop:BIT7:k=1",
    "netburst::MOB_load_replay_retired:thr=2",
    "netburst::snoop:BIT7",
    "netburst::64_bit_MMX_retired:t0",
    "netburst::DTLB_all_miss_retired:t1",
    "netburst::BSQ_active_entries:REQ_TYPE0:REQ_TYPE1:REQ_CACHE_TYPE:u=1",
    "netburst::BSQ_active_entries:REQ_TYPE0:REQ_TYPE1:REQ_LOCK_TYPE:REQ_CACHE_TYPE:MEM_TYPE0:k=1",
    "netburst::load_port_replay:SPLIT_LD:u=1",
    "netburst::DTLB_load_miss_retired",
    "netburst::1stL_cache_load_miss_retired:thr=2",
    "netburst::uops_retired:BOGUS",
    "netburst::branch_retired:MMTM",
    "netburst::memory_cancel:ST_RB_FULL",
    "netburst::response:BIT2:u=1",
    "netburst::IOQ_allocation:ReqA0:ALL_READ:MEM_WP",
    "netburst::resource_stall:SBFULL:t0",
};

static void test_search_budget(void **state)
{
    (void)state;
    add_all(hard_set, 40);
    assert_int_equal(plan_runs(), 6);
    assert_false(plan.minimal);
    check_runs();
    n_requests = 0;
    add_all(full_set, 18);
    plan_runs();
    assert_true(plan.minimal);
}

/* IQ_ESCR0/1 exist on models 0-2 only. */
static void test_model_without_iq_escrs(void **state)
{
    (void)state;
    config.model = 3;
    add("netburst::instr_completed:NBOGUS", ALLOC_NO_GROUP);
    add("netburst::instr_retired:NBOGUSNTAG", ALLOC_NO_GROUP);
    add("netburst::uops_retired:NBOGUS", ALLOC_NO_GROUP);
    assert_int_equal(plan_runs(), 2);
    check_runs();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
        T(test_full_set_one_run),
        T(test_nineteen_events_two_runs),
        T(test_cru2_cru3_conflict),
        T(test_identical_configurations_share),
        T(test_eight_fsb_events_four_runs),
        T(test_two_replay_metrics_two_runs),
        T(test_same_replay_metric_shares),
        T(test_replay_upstreams),
        T(test_one_front_end_tag_per_run),
        T(test_groups_stay_together),
        T(test_group_that_never_fits),
        T(test_group_larger_than_a_run),
        T(test_thread_halves),
        T(test_thread_halves_need_ht),
        T(test_pebs_thread1_never_fits),
        T(test_execution_tag_bits),
        T(test_three_execution_metrics),
        T(test_explicit_tag_reserved),
        T(test_pebs_counter_16),
        T(test_pebs_one_mechanism),
        T(test_p5),
        T(test_p5_msrs),
        T(test_netburst_msrs),
        T(test_p5_group_of_three),
        T(test_mixed_pmus),
        T(test_too_many),
        T(test_empty),
        T(test_deterministic),
        T(test_model_without_iq_escrs),
        T(test_search_budget),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
