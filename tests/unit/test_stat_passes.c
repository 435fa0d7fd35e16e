/* Every run of a plan counted in one pass of the trace (apps/stat/stat_run.h,
 * STAT_RUNS_ONE) against a pass per run (STAT_RUNS_HARDWARE, run_p5mon's
 * way) on the P5 model and on the NetBurst model (plans whose runs neither
 * sample nor tag; those that do count a pass per run): the same count of
 * every event, the same totals, on generated traces with CPL changes
 * (events with :u and :k) and regions, the whole trace and each region
 * counted.  And the P5 model's
 * timing does not depend on what the PMU is programmed for: each event
 * alone takes as many clocks as the trace with nothing counted.
 * docs/stat.md, "One pass". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmu/catalog/event_spec.h"
#include "pmu/catalog/p5_events.h"
#include "pmu/emulated/p5_pmu.h"
#include "apps/stat/stat_run.h"
#include "tests/unit/model_trace.h"

/* ---- generated traces: a fixed program of random instructions, run
 * along random branch outcomes, data addresses, CPLs and region markers */

/* A pseudo-random number from `state` (a 64-bit LCG, Knuth's MMIX
 * constants), its high bits. */
static uint32_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*state >> 33);
}

/* The instructions the program is made of (64-bit code). */
enum shape_kind { PLAIN, ACCESS, JCC, JMP, CALL, RET, NO_BYTES };

struct shape {
    const char *bytes; /* the opcode before the rel32 of JCC, JMP and CALL */
    int length;        /* with the rel32 */
    enum shape_kind kind;
    enum trace_access_kind access;
    uint32_t size;
};

static const struct shape shapes[] = {
    {"\x01\xd8", 2, PLAIN, 0, 0},                   /* add eax, ebx */
    {"\xff\xc9", 2, PLAIN, 0, 0},                   /* dec ecx */
    {"\x0f\xaf\xc3", 3, PLAIN, 0, 0},               /* imul eax, ebx */
    {"\x66\x01\xd8", 3, PLAIN, 0, 0},               /* add ax, bx: a prefix */
    {"\xf7\xf3", 2, PLAIN, 0, 0},                   /* div ebx */
    {"\xd8\xc1", 2, PLAIN, 0, 0},                   /* fadd st(0), st(1) */
    {"\x8e\xd8", 2, PLAIN, 0, 0},                   /* mov ds, eax */
    {"\x8b\x03", 2, ACCESS, TRACE_LOAD, 4},         /* mov eax, [rbx] */
    {"\x8b\x04\x03", 3, ACCESS, TRACE_LOAD, 4},     /* mov eax, [rbx+rax]: AGI after add */
    {"\x89\x03", 2, ACCESS, TRACE_STORE, 4},        /* mov [rbx], eax */
    {"\x48\x89\x03", 3, ACCESS, TRACE_STORE, 8},    /* mov [rbx], rax */
    {"\x50", 1, ACCESS, TRACE_STORE, 8},            /* push rax */
    {"\x58", 1, ACCESS, TRACE_LOAD, 8},             /* pop rax */
    {"\x01\x03", 2, ACCESS, TRACE_MODIFY, 4},       /* add [rbx], eax */
    {"\xf0\x01\x03", 3, ACCESS, TRACE_MODIFY, 4},   /* lock add [rbx], eax */
    /* the branches: FIRST_BRANCH.. */
    {"\x0f\x85", 6, JCC, 0, 0},                     /* jnz rel32 */
    {"\xe9", 5, JMP, 0, 0},                         /* jmp rel32 */
    {"\xe8", 5, CALL, TRACE_STORE, 8},              /* call rel32 */
    {"\xc3", 1, RET, TRACE_LOAD, 8},                /* ret */
    {NULL, 2, NO_BYTES, 0, 0},                      /* a record without code bytes */
};

/* The program: 1,500 instructions over some 16 KB of code (the P5's code
 * cache holds 8 KB); its data mostly in 4 KB, else anywhere in 1 MB (the
 * data TLB maps 256 KB). */
enum {
    PROGRAM = 1500,
    FIRST_BRANCH = 15, /* shapes[FIRST_BRANCH..+3]: jnz, jmp, call, ret */
    JMP_SHAPE = 16,
    CODE_BASE = 0x400000,
    DATA_BASE = 0x10000000,
    DATA_SPAN = 1 << 20,
};

struct program_insn {
    const struct shape *shape;
    uint64_t address;
    int target; /* the branch's target instruction */
};

struct generated {
    uint64_t seed;
    int instructions;
    bool cpl_changes, regions;
};

static void make_program(struct program_insn *program, uint64_t *seed)
{
    uint64_t address = CODE_BASE;
    int n_shapes = (int)(sizeof shapes / sizeof shapes[0]);
    for (int i = 0; i < PROGRAM; i++) {
        int branchy = next_random(seed) % 4 == 0;
        int pick = (int)(next_random(seed) % (unsigned)n_shapes);
        if (branchy != (shapes[pick].kind >= JCC && shapes[pick].kind <= RET))
            pick = branchy ? FIRST_BRANCH + (int)(next_random(seed) % 4)
                           : (int)(next_random(seed) % FIRST_BRANCH);
        if (i == PROGRAM - 1)
            pick = JMP_SHAPE; /* back */
        program[i] = (struct program_insn){&shapes[pick], address,
                                           (int)(next_random(seed) % PROGRAM)};
        address += (uint64_t)shapes[pick].length + (next_random(seed) % 4 == 0 ? 32 : 0);
    }
}

/* The record of program instruction `p` at CPL `cpl`, its outcome (taken
 * or not) in *taken. */
static struct trace_insn make_record(const struct program_insn *program, int p, int cpl,
                                     uint64_t *seed, bool *taken)
{
    const struct program_insn *in = &program[p];
    const struct shape *s = in->shape;
    bool rel32 = s->kind == JCC || s->kind == JMP || s->kind == CALL;
    char bytes[16];
    if (s->bytes)
        memcpy(bytes, s->bytes, (size_t)(rel32 ? s->length - 4 : s->length));
    enum trace_branch branch = TRACE_NOT_BRANCH;
    uint64_t target = program[in->target].address;
    *taken = false;
    if (s->kind >= JCC && s->kind <= RET) {
        *taken = s->kind != JCC || next_random(seed) % 3 != 0;
        branch = *taken ? TRACE_BRANCH_TAKEN : TRACE_BRANCH_NOT_TAKEN;
    }
    if (rel32) {
        int32_t rel = (int32_t)(target - (in->address + (uint64_t)s->length));
        memcpy(bytes + s->length - 4, &rel, 4);
    }
    uint64_t data = DATA_BASE + next_random(seed) % (next_random(seed) % 4 ? 4096 : DATA_SPAN);
    if (next_random(seed) % 4)
        data &= ~(uint64_t)(s->size ? s->size - 1 : 0); /* aligned, mostly */
    struct trace_insn insn = tb_make(in->address, s->bytes ? bytes : NULL, s->length, branch,
                                     *taken ? target : 0, s->access, data, s->size);
    insn.cpl = (uint8_t)cpl;
    return insn;
}

/* A trace of `g`; its path in t->path. */
static void generate(struct tb *t, const struct generated *g)
{
    static struct program_insn program[PROGRAM];
    uint64_t seed = g->seed;
    make_program(program, &seed);
    tb_open(t);
    int p = 0, cpl = 3;
    bool open[2] = {false, false};
    for (int i = 0; i < g->instructions; i++) {
        if (g->regions && next_random(&seed) % 25 == 0) {
            int region = 1 + (int)(next_random(&seed) % 2);
            assert_true(trace_write_region(t->writer, !open[region - 1], (uint32_t)region));
            open[region - 1] = !open[region - 1];
        }
        bool taken;
        struct trace_insn insn = make_record(program, p, cpl, &seed, &taken);
        tb_write(t, &insn);
        p = taken ? program[p].target : p + 1;
        if (g->cpl_changes && taken && next_random(&seed) % 6 == 0)
            cpl = cpl == 3 ? (int)(next_random(&seed) % 3) : 3;
    }
    tb_close(t);
}

/* ---- counting */

static void plan(const struct machine_config *model, bool ht, const char *const *events, int n,
                 struct alloc_request *requests, struct alloc_plan *plan)
{
    struct nb_pmu_config config = machine_pmu_config(model, ht);
    char error[256];
    for (int i = 0; i < n; i++) {
        requests[i] = (struct alloc_request){.group = ALLOC_NO_GROUP};
        if (!event_spec_parse(events[i], &config, &requests[i].spec, error, sizeof error))
            fail_msg("%s: %s", events[i], error);
    }
    struct alloc_error why;
    if (!alloc_plan_make(requests, n, &config, plan, &why))
        fail_msg("%s", why.message);
}

struct counted {
    uint64_t counts[ALLOC_MAX_REQUESTS];
    struct stat_totals totals;
};

/* The traces counted together: one, or two on the NetBurst (logical
 * processors 0 and 1, with Hyper-Threading). */
struct counting {
    const char *model;
    const char *paths[2];
    int n_traces;
};

static struct counted count_on(const struct counting *on, const char *const *events, int n,
                               enum stat_runs runs, long region)
{
    struct machine_config model;
    char error[1024];
    assert_true(machine_config_choose(on->model, &model, error, sizeof error));
    struct alloc_request requests[ALLOC_MAX_REQUESTS];
    struct alloc_plan p;
    plan(&model, on->n_traces == 2, events, n, requests, &p);
    assert_true(p.n_runs >= 1);
    struct counted c;
    memset(&c, 0xa5, sizeof c);
    if (!stat_simulate(on->paths, on->n_traces, &model, &p, runs, region, NULL, c.counts,
                       &c.totals, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(c.totals.passes, runs == STAT_RUNS_ONE ? 1 : p.n_runs);
    assert_int_equal(stat_runs_counted(&model, &p, runs), runs);
    alloc_plan_free(&p);
    return c;
}

static struct counted count(const char *path, const char *const *events, int n,
                            enum stat_runs runs, long region)
{
    struct counting on = {"p5", {path, NULL}, 1};
    return count_on(&on, events, n, runs, region);
}

/* The clocks of the trace through the P5 model with nothing programmed. */
static uint64_t clocks_unprogrammed(const char *path)
{
    struct p5_config config;
    char error[1024];
    assert_true(p5_config_preset("p5", &config, error, sizeof error));
    struct msr_backend *backend = p5_backend_create();
    struct p5_sim_result result;
    if (!p5_simulate_trace(path, &config, backend, NULL, &result, error, sizeof error))
        fail_msg("%s", error);
    msr_backend_destroy(backend);
    return result.cycles;
}

/* Both ways give every count and total alike; the number of counts that
 * are not 0. */
static int assert_same_counts_on(const struct counting *on, const char *const *events, int n,
                                 long region)
{
    struct counted one = count_on(on, events, n, STAT_RUNS_ONE, region);
    struct counted hardware = count_on(on, events, n, STAT_RUNS_HARDWARE, region);
    int nonzero = 0;
    for (int i = 0; i < n; i++) {
        if (one.counts[i] != hardware.counts[i])
            fail_msg("%s on %s, region %ld: %s: %llu in one pass, %llu in a pass per run",
                     on->paths[0], on->model, region, events[i],
                     (unsigned long long)one.counts[i], (unsigned long long)hardware.counts[i]);
        nonzero += one.counts[i] != 0;
    }
    for (int t = 0; t < 2; t++) {
        assert_int_equal(one.totals.instructions[t], hardware.totals.instructions[t]);
        assert_int_equal(one.totals.unclassified[t], hardware.totals.unclassified[t]);
    }
    assert_int_equal(one.totals.cycles, hardware.totals.cycles);
    assert_int_equal(one.totals.uops, hardware.totals.uops);
    assert_int_equal(one.totals.region_entries, hardware.totals.region_entries);
    return nonzero;
}

static int assert_same_counts(const char *path, const char *const *events, int n, long region)
{
    struct counting on = {"p5", {path, NULL}, 1};
    return assert_same_counts_on(&on, events, n, region);
}

/* The event sets: all 38 events (19 runs), each at CPL 3 and at CPL 0-2
 * (:u, :k), and an odd set with clocks. */
static const char *every_event[64];
static int n_every;
static char user_kernel[2 * 38][64];
static const char *split_events[2 * 38];

static void name_events(void)
{
    n_every = 0;
    for (int i = 0; i < p5_num_events; i++) {
        static char names[38][64];
        snprintf(names[i], sizeof names[i], "p5::%s", p5_events[i].name);
        every_event[n_every++] = names[i];
        snprintf(user_kernel[2 * i], sizeof user_kernel[0], "p5::%s:u", p5_events[i].name);
        snprintf(user_kernel[2 * i + 1], sizeof user_kernel[0], "p5::%s:k", p5_events[i].name);
        split_events[2 * i] = user_kernel[2 * i];
        split_events[2 * i + 1] = user_kernel[2 * i + 1];
    }
}

static const char *const odd_set[] = {"p5::clocks", "p5::instructions_executed:u",
                                      "p5::data_read_miss:k", "p5::pipeline_flushes",
                                      "p5::clocks_while_bus_cycle_in_progress"};

static const struct generated traces[] = {
    {1, 20000, true, true},
    {2, 20000, true, false},
    {3, 20000, false, true},
};

static void test_one_pass_counts_as_hardware(void **state)
{
    (void)state;
    name_events();
    for (size_t t = 0; t < sizeof traces / sizeof traces[0]; t++) {
        struct tb tb;
        generate(&tb, &traces[t]);
        const long regions[] = {REGION_WHOLE_TRACE, 1, 2, 7};
        for (size_t r = 0; r < sizeof regions / sizeof regions[0]; r++) {
            int nonzero = assert_same_counts(tb.path, every_event, n_every, regions[r]);
            /* the events the model counts, in a region the trace has */
            if (regions[r] == REGION_WHOLE_TRACE || (traces[t].regions && regions[r] != 7))
                assert_true(nonzero >= 25);
            else
                assert_int_equal(nonzero, 0);
            nonzero = assert_same_counts(tb.path, split_events, 2 * p5_num_events, regions[r]);
            if (traces[t].cpl_changes && regions[r] == REGION_WHOLE_TRACE)
                assert_true(nonzero >= 50); /* at both CPLs */
            assert_same_counts(tb.path, odd_set, 5, regions[r]);
        }
        unlink(tb.path);
    }
}

/* What a run programs changes nothing in the P5 model's timing: each event
 * counted alone (at every CPL, at CPL 3, at CPL 0-2) gives the clocks of
 * the trace with nothing counted. */
static void test_programming_keeps_timing(void **state)
{
    (void)state;
    name_events();
    struct tb tb;
    generate(&tb, &traces[0]);
    uint64_t clocks = clocks_unprogrammed(tb.path);
    assert_true(clocks > (uint64_t)traces[0].instructions);
    for (int i = 0; i < n_every; i++) {
        const char *const alone[] = {every_event[i], split_events[2 * i],
                                     split_events[2 * i + 1]};
        for (int k = 0; k < 3; k++) {
            struct counted c = count(tb.path, &alone[k], 1, STAT_RUNS_HARDWARE, 1);
            if (c.totals.cycles != clocks)
                fail_msg("%s: %llu clocks, %llu with nothing counted", alone[k],
                         (unsigned long long)c.totals.cycles, (unsigned long long)clocks);
        }
    }
    unlink(tb.path);
}

/* ---- the NetBurst model */

/* Plain and filtered counts of every source the model reports, at every
 * CPL and at CPL 3 or 0-2 (:u, :k), with CCCR threshold, complement and
 * edge: more than the 18 counters hold, so several runs, none sampling or
 * tagging. */
static const char *const netburst_events[] = {
    "global_power_events:RUNNING", "global_power_events:RUNNING:u",
    "global_power_events:RUNNING:k", "instr_retired:NBOGUSNTAG", "instr_retired:BOGUSNTAG",
    "instr_retired:NBOGUSTAG", "instr_retired:NBOGUSNTAG:u", "instr_retired:NBOGUSNTAG:k",
    "uops_retired:NBOGUS", "uops_retired:BOGUS", "uops_retired:NBOGUS:thr=2",
    "uops_retired:NBOGUS:thr=1:cmpl", "branch_retired:MMNP", "branch_retired:MMNM",
    "branch_retired:MMTP", "branch_retired:MMTM", "branch_retired:MMTP:MMTM:e",
    "mispred_branch_retired:NBOGUS", "retired_branch_type:CONDITIONAL",
    "retired_branch_type:CALL:RETURN:INDIRECT", "retired_mispred_branch_type:CONDITIONAL",
    "retired_mispred_branch_type:RETURN:INDIRECT", "x87_FP_uop:ALL", "scalar_SP_uop:ALL",
    "x87_SIMD_moves_uop:ALLP0:ALLP2", "BPU_fetch_request:TCMISS", "ITLB_reference:HIT",
    "ITLB_reference:MISS", "page_walk_type:DTMISS:ITMISS", "memory_complete:LSC:SSC",
    "load_port_replay:SPLIT_LD", "store_port_replay:SPLIT_ST",
    "MOB_load_replay:NO_STD:PARTIAL_DATA:UNALGN_ADDR",
    "BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_HITE:RD_2ndL_HITM:RD_2ndL_MISS",
    "BSQ_cache_reference:RD_2ndL_MISS", "BSQ_allocation:REQ_LEN0:REQ_LEN1",
    "IOQ_allocation:ALL_READ:MEM_WB", "FSB_data_activity:DRDY_OWN:DRDY_DRV",
    "FSB_data_activity:DRDY_OWN:DRDY_DRV:e", "TC_ms_xfer:CISC",
    "uop_queue_writes:FROM_TC_BUILD:FROM_TC_DELIVER:FROM_ROM", "uop_queue_writes:FROM_ROM:k",
    "resource_stall:SBFULL", "machine_clear:CLEAR", "TC_deliver_mode:DD:DB:DI:BD:BB:BI:ID:IB",
    "TC_deliver_mode:DI:u",
};
enum { NETBURST_EVENTS = sizeof netburst_events / sizeof netburst_events[0] };

/* Every run of a NetBurst plan counted in one pass gives the counts of a
 * pass per run: on generated traces (CPL changes, regions), one logical
 * processor and two (Hyper-Threading), and on a hand-made loop. */
static void test_netburst_one_pass(void **state)
{
    (void)state;
    struct tb tb[2];
    generate(&tb[0], &traces[0]);
    generate(&tb[1], &traces[1]);
    const long regions[] = {REGION_WHOLE_TRACE, 1, 2};
    struct counting one = {"netburst", {tb[0].path, NULL}, 1};
    struct counting prescott = {"netburst-prescott", {tb[1].path, NULL}, 1};
    for (size_t r = 0; r < sizeof regions / sizeof regions[0]; r++) {
        int nonzero = assert_same_counts_on(&one, netburst_events, NETBURST_EVENTS, regions[r]);
        assert_true(nonzero >= 25);
    }
    assert_true(assert_same_counts_on(&prescott, netburst_events, NETBURST_EVENTS,
                                      REGION_WHOLE_TRACE) >= 25);
    struct counting two = {"netburst", {tb[0].path, tb[1].path}, 2};
    assert_true(assert_same_counts_on(&two, netburst_events, NETBURST_EVENTS,
                                      REGION_WHOLE_TRACE) >= 25);
    struct tb loop;
    tb_open(&loop);
    tb_loop(&loop, 3000);
    tb_close(&loop);
    struct counting looped = {"netburst", {loop.path, NULL}, 1};
    assert_true(assert_same_counts_on(&looped, netburst_events, NETBURST_EVENTS,
                                      REGION_WHOLE_TRACE) >= 10);
    unlink(loop.path);
    unlink(tb[0].path);
    unlink(tb[1].path);
}

/* The plan's runs on `model`, counted as stat_runs_counted says when one
 * pass is asked. */
static enum stat_runs counted_as(const char *model_name, const char *const *events, int n)
{
    struct machine_config model;
    char error[1024];
    assert_true(machine_config_choose(model_name, &model, error, sizeof error));
    struct alloc_request requests[ALLOC_MAX_REQUESTS];
    struct alloc_plan p;
    plan(&model, false, events, n, requests, &p);
    enum stat_runs runs = stat_runs_counted(&model, &p, STAT_RUNS_ONE);
    alloc_plan_free(&p);
    return runs;
}

/* A NetBurst plan whose runs sample or tag counts a pass per run: a PMI
 * or a PEBS assist changes the model's timing, a uop's tags what it
 * reports; a plan of one run is one pass either way, and the P5's plans
 * one pass. */
static void test_netburst_pass_per_run(void **state)
{
    (void)state;
    assert_int_equal(counted_as("netburst", netburst_events, NETBURST_EVENTS), STAT_RUNS_ONE);
    const char *const plain[] = {"instr_retired:NBOGUSNTAG", "instr_retired:BOGUSNTAG",
                                 "uops_retired:NBOGUS", "uops_retired:BOGUS",
                                 "instr_retired:NBOGUSTAG", NULL};
    assert_int_equal(counted_as("netburst", plain, 5), STAT_RUNS_ONE);
    const char *const tagging[][1] = {
        {"memory_loads"},          /* front-end tagging: uop_type TAGLOADS upstream */
        {"uop_type:TAGLOADS"},     /* the same tagging, asked for by itself */
        {"x87_FP_retired"},        /* execution tagging: an upstream ESCR's tag */
        {"x87_FP_uop:ALL:tag=1"},  /* an ESCR's Tag Enable */
        {"1stL_cache_load_miss_retired"}, /* replay tagging, PEBS */
        {"instr_retired:NBOGUSNTAG:ovf_pmi=t0"}, /* a PMI on overflow */
    };
    for (size_t i = 0; i < sizeof tagging / sizeof tagging[0]; i++) {
        const char *set[6];
        memcpy(set, plain, sizeof set);
        set[5] = tagging[i][0];
        assert_int_equal(counted_as("netburst", set, 6), STAT_RUNS_HARDWARE);
        assert_int_equal(counted_as("netburst", &set[5], 1), STAT_RUNS_ONE);
    }
    const char *const pair[] = {"p5::clocks", "p5::branches", "p5::data_read"};
    assert_int_equal(counted_as("p5", pair, 3), STAT_RUNS_ONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_pass_counts_as_hardware),
        cmocka_unit_test(test_programming_keeps_timing),
        cmocka_unit_test(test_netburst_one_pass),
        cmocka_unit_test(test_netburst_pass_per_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
