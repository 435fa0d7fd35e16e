/* The intervals of `pmubench stat -I` (apps/stat/stat_interval.h,
 * docs/stat.md "Intervals") on random traces (branches, memory accesses,
 * region markers; a few hundred to a few thousand instructions): on the
 * P5 and the NetBurst (one trace, and two as the logical processors of
 * Hyper-Threading), every run in one pass and a pass per run, the whole
 * trace and a region, every N instructions and every N cycles, N 1, a
 * small prime or more than the trace.  For every request the intervals'
 * counts add up to the total of the same call and to the count of a run
 * without intervals; the ends increase, the last is the run's total of the
 * unit; the model's facts of the intervals add up to the run's totals; and
 * the events that count instructions (the P5's instructions_executed, the
 * NetBurst's instr_retired:NBOGUSNTAG) and clocks count, in every
 * interval, the interval's own. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/unit/test_rng.h"

#include "pmu/catalog/event_spec.h"
#include "pmu/catalog/p5_events.h"
#include "apps/stat/stat_events.h"
#include "apps/stat/stat_interval.h"
#include "apps/stat/stat_run.h"
#include "tests/unit/model_trace.h"

/* ---- random traces: a fixed program of random instructions, run along
 * random branch outcomes and data addresses, region 1's markers between
 * any two instructions */

enum shape_kind { PLAIN, ACCESS, JCC, JMP };

struct shape {
    const char *bytes; /* the opcode before the rel32 of JCC and JMP */
    int length;        /* with the rel32 */
    enum shape_kind kind;
    enum trace_access_kind access;
    uint32_t size;
};

static const struct shape shapes[] = {
    {"\x01\xd8", 2, PLAIN, 0, 0},                 /* add eax, ebx */
    {"\xff\xc9", 2, PLAIN, 0, 0},                 /* dec ecx */
    {"\x0f\xaf\xc3", 3, PLAIN, 0, 0},             /* imul eax, ebx */
    {"\xd8\xc1", 2, PLAIN, 0, 0},                 /* fadd st(0), st(1) */
    {"\x8b\x03", 2, ACCESS, TRACE_LOAD, 4},       /* mov eax, [rbx] */
    {"\x89\x03", 2, ACCESS, TRACE_STORE, 4},      /* mov [rbx], eax */
    {"\x01\x03", 2, ACCESS, TRACE_MODIFY, 4},     /* add [rbx], eax */
    {"\x50", 1, ACCESS, TRACE_STORE, 8},          /* push rax */
    {"\x58", 1, ACCESS, TRACE_LOAD, 8},           /* pop rax */
    {"\x0f\x85", 6, JCC, 0, 0},                   /* jnz rel32 */
    {"\xe9", 5, JMP, 0, 0},                       /* jmp rel32 */
};
enum { N_SHAPES = sizeof shapes / sizeof shapes[0], FIRST_BRANCH = 9, PROGRAM = 400 };

struct code {
    const struct shape *shape[PROGRAM];
    uint64_t address[PROGRAM];
    int target[PROGRAM];
};

static void make_program(struct rng *g, struct code *p)
{
    uint64_t address = 0x400000;
    for (int i = 0; i < PROGRAM; i++) {
        unsigned pick = below(g, N_SHAPES);
        if (i == PROGRAM - 1)
            pick = FIRST_BRANCH + 1; /* jmp back */
        p->shape[i] = &shapes[pick];
        p->address[i] = address;
        p->target[i] = (int)below(g, PROGRAM);
        address += (uint64_t)shapes[pick].length;
        if (below(g, 8) == 0)
            address += 64 * below(g, 300); /* code beyond the code cache */
    }
}

/* The record of program instruction `i`; whether its branch was taken in
 * *taken. */
static struct trace_insn make_record(struct rng *g, const struct code *p, int i, bool *taken)
{
    const struct shape *s = p->shape[i];
    char bytes[16];
    memcpy(bytes, s->bytes, (size_t)(s->kind >= JCC ? s->length - 4 : s->length));
    enum trace_branch branch = TRACE_NOT_BRANCH;
    uint64_t target = p->address[p->target[i]];
    *taken = s->kind == JMP || (s->kind == JCC && below(g, 3) != 0);
    if (s->kind >= JCC) {
        branch = *taken ? TRACE_BRANCH_TAKEN : TRACE_BRANCH_NOT_TAKEN;
        int32_t rel = (int32_t)(target - (p->address[i] + (uint64_t)s->length));
        memcpy(bytes + s->length - 4, &rel, 4);
    }
    uint64_t data = 0x10000000 + 4 * (uint64_t)below(g, 1024);
    if (below(g, 4) == 0)
        data = 0x20000000 + 64 * (uint64_t)below(g, 1 << 16); /* misses */
    return tb_make(p->address[i], bytes, s->length, branch, *taken ? target : 0, s->access,
                   data, s->size);
}

/* A trace of `n` instructions from `seed`; with `regions`, region 1's
 * markers now and then. */
static void generate(struct tb *t, uint64_t seed, int n, bool regions)
{
    static struct code program;
    struct rng g = {seed};
    make_program(&g, &program);
    tb_open(t);
    bool open = false;
    int i = 0;
    for (int k = 0; k < n; k++) {
        if (regions && below(&g, 40) == 0) {
            open = !open;
            assert_true(trace_write_region(t->writer, open, 1));
        }
        bool taken;
        struct trace_insn insn = make_record(&g, &program, i, &taken);
        tb_write(t, &insn);
        i = taken ? program.target[i] : (i + 1) % PROGRAM;
    }
    tb_close(t);
}

/* ---- the events */

static const char *p5_all[64];
static int n_p5_all;

static void name_p5_events(void)
{
    static char names[64][64];
    n_p5_all = 0;
    for (int i = 0; i < p5_num_events; i++) {
        snprintf(names[i], sizeof names[i], "p5::%s", p5_events[i].name);
        p5_all[n_p5_all++] = names[i];
    }
}

/* One run: the instructions, the clocks (one logical processor's) and the
 * uops. */
static const char *const nb_one_run[] = {
    "netburst::instr_retired:NBOGUSNTAG", "netburst::global_power_events:RUNNING",
    "netburst::uops_retired:NBOGUS"};
/* Several runs: instr_retired and branch_retired with other masks need
 * the ESCRs again. */
static const char *const nb_runs[] = {
    "netburst::instr_retired:NBOGUSNTAG", "netburst::global_power_events:RUNNING",
    "netburst::uops_retired:NBOGUS", "netburst::branch_retired:MMTP",
    "netburst::mispred_branch_retired:NBOGUS", "netburst::BSQ_cache_reference:RD_2ndL_MISS",
    "netburst::memory_complete:LSC", "netburst::x87_FP_uop:ALL",
    "netburst::instr_retired:BOGUSNTAG", "netburst::instr_retired:NBOGUSTAG",
    "netburst::branch_retired:MMNP", "netburst::uops_retired:BOGUS"};

/* The index of `event` in `events`, or -1. */
static int find_event(const char *const *events, int n, const char *event)
{
    for (int i = 0; i < n; i++)
        if (strcmp(events[i], event) == 0)
            return i;
    return -1;
}

/* ---- counting */

struct setting {
    const char *model;
    const char *const *events;
    int n_events;
    const char *traces[2];
    int n_traces;
    enum stat_runs runs;
    long region;
};

static void plan_events(const struct setting *s, const struct machine_config *model,
                        struct alloc_plan *plan)
{
    struct nb_pmu_config config = {model->netburst.model, s->n_traces == 2};
    struct alloc_request requests[ALLOC_MAX_REQUESTS];
    char error[256];
    for (int i = 0; i < s->n_events; i++) {
        requests[i] = (struct alloc_request){.group = ALLOC_NO_GROUP};
        if (!event_spec_parse(s->events[i], &config, &requests[i].spec, error, sizeof error))
            fail_msg("%s: %s", s->events[i], error);
    }
    struct alloc_error why;
    if (!alloc_plan_make(requests, s->n_events, &config, plan, &why))
        fail_msg("%s", why.message);
}

/* Counts `s` on `model` with `hooks`; fails the test on an error. */
static void count(const struct setting *s, const struct machine_config *model,
                  const struct alloc_plan *plan, const struct stat_hooks *hooks,
                  uint64_t *counts, struct stat_totals *totals)
{
    char error[1024];
    if (!stat_simulate(s->traces, s->n_traces, model, plan, s->runs, s->region, hooks, counts,
                       totals, error, sizeof error))
        fail_msg("%s: %s", s->traces[0], error);
}

/* What each check says of the setting and the interval. */
static void describe(char *text, size_t size, const struct setting *s, enum interval_unit unit,
                     uint64_t every)
{
    snprintf(text, size, "%s, %d trace(s), %d event(s), --runs %s, region %ld, -I %llu%s",
             s->model, s->n_traces, s->n_events, s->runs == STAT_RUNS_ONE ? "one" : "hardware",
             s->region, (unsigned long long)every, unit == INTERVAL_CYCLES ? "c" : "");
}

/* The intervals' counts of every request add up to `total` (the same
 * call's) and to `alone` (a run without intervals). */
static void check_sums(const char *what, const struct setting *s,
                       const struct stat_intervals *series, const uint64_t *total,
                       const uint64_t *alone)
{
    for (int r = 0; r < s->n_events; r++) {
        uint64_t sum = 0;
        for (size_t i = 0; i < series->n; i++)
            sum += stat_interval_counts(series, i)[r];
        if (sum != total[r] || sum != alone[r])
            fail_msg("%s: %s: the intervals sum to %llu, the total is %llu, %llu without -I",
                     what, s->events[r], (unsigned long long)sum,
                     (unsigned long long)total[r], (unsigned long long)alone[r]);
    }
}

/* The ends increase to the run's total of the unit; the facts add up to
 * the run's totals. */
static void check_facts(const char *what, const struct stat_intervals *series,
                        const struct stat_totals *totals)
{
    uint64_t instructions = totals->instructions[0] + totals->instructions[1];
    uint64_t sum[3] = {0, 0, 0};
    for (size_t i = 0; i < series->n; i++) {
        const struct stat_interval *v = &series->intervals[i];
        if (i > 0 && v->end <= series->intervals[i - 1].end)
            fail_msg("%s: interval %zu ends at %llu, the one before at %llu", what, i,
                     (unsigned long long)v->end,
                     (unsigned long long)series->intervals[i - 1].end);
        sum[0] += v->instructions;
        sum[1] += v->cycles;
        sum[2] += v->uops;
    }
    assert_true(series->n > 0);
    uint64_t last = series->intervals[series->n - 1].end;
    uint64_t unit_total = series->unit == INTERVAL_CYCLES ? totals->cycles : instructions;
    if (last != unit_total || sum[0] != instructions || sum[1] != totals->cycles ||
        sum[2] != totals->uops)
        fail_msg("%s: last end %llu (the run's %llu); the intervals' instructions %llu, "
                 "cycles %llu, uops %llu; the run's %llu, %llu, %llu",
                 what, (unsigned long long)last, (unsigned long long)unit_total,
                 (unsigned long long)sum[0], (unsigned long long)sum[1],
                 (unsigned long long)sum[2], (unsigned long long)instructions,
                 (unsigned long long)totals->cycles, (unsigned long long)totals->uops);
}

/* Outside a region, request `event` counts in every interval the
 * interval's instructions (or cycles, with `cycles`). */
static void check_per_interval(const char *what, const struct setting *s,
                               const struct stat_intervals *series, const char *event,
                               bool cycles)
{
    int r = find_event(s->events, s->n_events, event);
    if (r < 0 || s->region != REGION_WHOLE_TRACE)
        return;
    for (size_t i = 0; i < series->n; i++) {
        const struct stat_interval *v = &series->intervals[i];
        uint64_t want = cycles ? v->cycles : v->instructions;
        uint64_t got = stat_interval_counts(series, i)[r];
        if (got != want)
            fail_msg("%s: interval %zu (end %llu): %s %llu, the interval's %s %llu", what, i,
                     (unsigned long long)v->end, event, (unsigned long long)got,
                     cycles ? "cycles" : "instructions", (unsigned long long)want);
    }
}

/* Every unit and every chosen N on setting `s`, against its run without
 * intervals. */
static void check_setting(const struct setting *s, const uint64_t *everys, int n_everys)
{
    struct machine_config model;
    char error[1024];
    assert_true(machine_config_choose(s->model, &model, error, sizeof error));
    struct alloc_plan plan;
    plan_events(s, &model, &plan);
    uint64_t alone[ALLOC_MAX_REQUESTS];
    struct stat_totals alone_totals;
    count(s, &model, &plan, NULL, alone, &alone_totals);
    for (int u = 0; u < 2; u++)
        for (int k = 0; k < n_everys; k++) {
            enum interval_unit unit = u ? INTERVAL_CYCLES : INTERVAL_INSTRUCTIONS;
            struct stat_intervals series = {.unit = unit, .every = everys[k]};
            struct stat_hooks hooks = {.intervals = &series};
            uint64_t total[ALLOC_MAX_REQUESTS];
            struct stat_totals totals;
            count(s, &model, &plan, &hooks, total, &totals);
            char what[256];
            describe(what, sizeof what, s, unit, everys[k]);
            assert_int_equal(series.n_requests, s->n_events);
            check_sums(what, s, &series, total, alone);
            check_facts(what, &series, &totals);
            assert_int_equal(totals.cycles, alone_totals.cycles);
            assert_int_equal(totals.passes, alone_totals.passes);
            check_per_interval(what, s, &series, "p5::instructions_executed", false);
            check_per_interval(what, s, &series, "p5::clocks", true);
            check_per_interval(what, s, &series, "netburst::instr_retired:NBOGUSNTAG", false);
            if (s->n_traces == 1)
                check_per_interval(what, s, &series, "netburst::global_power_events:RUNNING",
                                   true);
            if (u == 0 && everys[k] > 100000)
                assert_int_equal(series.n, 1); /* N beyond the trace: one interval */
            stat_intervals_free(&series);
        }
    alloc_plan_free(&plan);
}

/* N: 1, two small primes, one beyond any trace here. */
static int choose_everys(struct rng *g, uint64_t *everys)
{
    static const uint64_t primes[] = {2, 3, 5, 7, 11, 13, 17, 101, 997};
    everys[0] = 1;
    everys[1] = primes[below(g, sizeof primes / sizeof primes[0])];
    everys[2] = primes[below(g, sizeof primes / sizeof primes[0])];
    everys[3] = 1000000 + below(g, 1000);
    return 4;
}

enum { TRACES = 6 };

/* The trace of test `t`: from a few hundred to a few thousand
 * instructions, with region markers in all but the first. */
static void trace_of(struct rng *g, struct tb *tb, int t)
{
    int n = 200 + (int)below(g, 3000);
    uint64_t seed = next(g);
    generate(tb, seed, n, t > 0);
}

static void test_p5_intervals(void **state)
{
    (void)state;
    name_p5_events();
    static const char *const two[] = {"p5::instructions_executed", "p5::clocks"};
    struct rng g = {1};
    for (int t = 0; t < TRACES; t++) {
        struct tb tb;
        trace_of(&g, &tb, t);
        uint64_t everys[4];
        int n_everys = choose_everys(&g, everys);
        const long regions[] = {REGION_WHOLE_TRACE, 1};
        for (int r = 0; r < 2; r++)
            for (int runs = 0; runs < 2; runs++) {
                struct setting s = {"p5", p5_all, n_p5_all, {tb.path, NULL}, 1,
                                    runs ? STAT_RUNS_HARDWARE : STAT_RUNS_ONE, regions[r]};
                check_setting(&s, everys, n_everys);
                s.events = two;
                s.n_events = 2;
                check_setting(&s, everys, n_everys);
            }
        unlink(tb.path);
    }
}

static void check_netburst(const char *const traces[2], int n_traces, const uint64_t *everys,
                           int n_everys)
{
    const long regions[] = {REGION_WHOLE_TRACE, 1};
    for (int r = 0; r < 2; r++) {
        struct setting one = {"netburst", nb_one_run, 3, {traces[0], traces[1]}, n_traces,
                              STAT_RUNS_ONE, regions[r]};
        check_setting(&one, everys, n_everys);
        struct setting several = one;
        several.events = nb_runs;
        several.n_events = sizeof nb_runs / sizeof nb_runs[0];
        check_setting(&several, everys, n_everys);
    }
}

static void test_netburst_intervals(void **state)
{
    (void)state;
    struct rng g = {2};
    for (int t = 0; t < TRACES; t++) {
        struct tb a, b;
        trace_of(&g, &a, t);
        trace_of(&g, &b, t);
        uint64_t everys[4];
        int n_everys = choose_everys(&g, everys);
        const char *const traces[2] = {a.path, b.path};
        check_netburst(traces, 1, everys, n_everys);
        check_netburst(traces, 2, everys, n_everys);
        unlink(a.path);
        unlink(b.path);
    }
}

/* The NetBurst set of several runs makes several passes. */
static void test_netburst_passes(void **state)
{
    (void)state;
    struct machine_config model;
    char error[1024];
    assert_true(machine_config_choose("netburst", &model, error, sizeof error));
    struct setting s = {"netburst", nb_runs, sizeof nb_runs / sizeof nb_runs[0], {NULL, NULL},
                        1, STAT_RUNS_ONE, REGION_WHOLE_TRACE};
    struct alloc_plan plan;
    plan_events(&s, &model, &plan);
    assert_true(plan.n_runs >= 2);
    alloc_plan_free(&plan);
}

/* A backend whose every access fails, as a real one may. */
static msr_status refuse_read(struct msr_backend *b, int cpu, uint32_t msr, uint64_t *value)
{
    (void)cpu;
    (void)msr;
    *value = 0;
    return msr_fail(b, EIO, "refused");
}

static msr_status refuse_write(struct msr_backend *b, int cpu, uint32_t msr, uint64_t value)
{
    (void)cpu;
    (void)msr;
    (void)value;
    return msr_fail(b, EIO, "refused");
}

/* An interval's end whose counter read fails keeps that failure and the
 * program it came from, makes no interval, and reads nothing more. */
static void test_failed_read(void **state)
{
    (void)state;
    static const struct msr_backend_ops ops = {refuse_read, refuse_write, NULL};
    struct msr_backend refusing = {.ops = &ops, .kind = "refusing"};
    struct machine_config model;
    char error[1024];
    assert_true(machine_config_choose("p5", &model, error, sizeof error));
    const char *events[] = {"clocks"};
    struct alloc_plan plan;
    assert_true(stat_events_plan(&model, events, 1, false, &plan, error, sizeof error));
    struct program program;
    program_init(&program, &refusing, 0, &plan.runs[0]);
    struct stat_intervals series = {.unit = INTERVAL_INSTRUCTIONS, .every = 5, .n_requests = 1};
    struct interval_pass pass;
    assert_true(interval_pass_start(&pass, &series, &program, 1));
    struct interval_point point = {5, 9, 0};
    interval_pass_end(&pass, &point);
    assert_int_equal(pass.status, MSR_OS_ERROR);
    assert_ptr_equal(pass.failed, &program);
    assert_int_equal(series.n, 0);
    point = (struct interval_point){10, 20, 0};
    interval_pass_end(&pass, &point);
    assert_int_equal(series.n, 0);
    assert_int_equal(pass.index, 0);
    uint64_t counts[1] = {20};
    interval_pass_finish(&pass, &point, counts);
    assert_null(pass.last);
    stat_intervals_free(&series);
    alloc_plan_free(&plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_p5_intervals),
        cmocka_unit_test(test_netburst_intervals),
        cmocka_unit_test(test_netburst_passes),
        cmocka_unit_test(test_failed_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
