/* `tick N` fast-forwards (docs/semantics.md, "Long
 * ticks"): the statement output and the waveform are those of running
 * every cycle, and a long tick runs few cycles one by one.
 *
 * The differential test generates random NetBurst and P5 scripts whose
 * ticks are long and whose counters count every cycle (COMPARE with
 * COMPLEMENT on the empty output, thresholds), overflow at exact cycles with
 * and without PMIs, cascade, force overflows, filter edges and switch
 * threads and ACTIVE_THREAD modes, and runs each twice, fast and cycle by
 * cycle (bench_options.cycle_by_cycle), with and without a waveform. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"

struct result {
    int rc;
    char *out;      /* statement output */
    char *vcd;      /* the waveform, or NULL */
    uint64_t stepped;
};

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *text = NULL;
    size_t size = 0;
    FILE *copy = open_memstream(&text, &size);
    char buf[65536];
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;)
        fwrite(buf, 1, n, copy);
    fclose(copy);
    fclose(f);
    return text;
}

static struct result run(const char *text, bool reference, const char *vcd_path)
{
    struct bench_script script;
    char error[512];
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(in);
    int rc = bench_parse(in, "t.pmu", &script, error, sizeof error);
    fclose(in);
    if (rc != BENCH_OK)
        fail_msg("parse failed: %s\n%s", error, text);
    struct result result = {0};
    size_t size;
    struct bench_options options = {.out = open_memstream(&result.out, &size),
                                    .vcd_path = vcd_path, .cycle_by_cycle = reference,
                                    .cycles_stepped = &result.stepped};
    result.rc = bench_run(&script, &options, error, sizeof error);
    fclose(options.out);
    bench_script_free(&script);
    if (vcd_path && result.rc == BENCH_OK)
        result.vcd = read_file(vcd_path);
    return result;
}

static void result_free(struct result *r)
{
    free(r->out);
    free(r->vcd);
}

/* ---- bounded work */

/* The README's example with a tick of 4,000,000,000: three cycles run one
 * by one (the one with the occurrences, the first empty one, whose report
 * differs, and one more before the runner tries again), the rest at once. */
static void test_long_tick_steps_few_cycles(void **state)
{
    (void)state;
    struct result r = run("cpu netburst model=2 ht=on\n"
                          "wrmsr MSR_CRU_ESCR3 0x0c001804\n"
                          "wrmsr MSR_IQ_CCCR2 0x0027b000\n"
                          "event branch_retired:MMTP count=3\n"
                          "tick 4000000000\n"
                          "rdmsr MSR_IQ_COUNTER2\n",
                          false, NULL);
    assert_int_equal(r.rc, BENCH_OK);
    assert_string_equal(r.out, "@4000000000 rdmsr 0x30e = 0x0000000000000001\n");
    assert_int_equal(r.stepped, 3);
    result_free(&r);
}

/* A counter counting every cycle (COMPARE and COMPLEMENT on the empty output)
 * with OVF_PMI, 1000 below overflow: it overflows at exactly cycle 1000
 * and delivers the PMI on its next count, cycle 1001; the 4e9 cycles
 * around run at once, the counter ends 4e9 - 1000 above 0. */
static void test_long_tick_overflows_on_time(void **state)
{
    (void)state;
    static const char script[] = "cpu netburst\n"
                                 "wrmsr MSR_IQ_COUNTER2 0xfffffffc18\n" /* 2^40 - 1000 */
                                 "wrmsr MSR_IQ_CCCR2 0x040fb000\n"      /* + OVF_PMI_T0 */
                                 "tick 4000000000\n"
                                 "rdmsr MSR_IQ_COUNTER2\n"
                                 "rdmsr MSR_IQ_CCCR2\n"
                                 "interrupt thread=0\n";
    struct result r = run(script, false, NULL);
    assert_int_equal(r.rc, BENCH_OK);
    assert_string_equal(r.out, "@1001 pmi thread=0 counter=14\n"
                               "@4000000000 rdmsr 0x30e = 0x00000000ee6b2418\n"
                               "@4000000000 rdmsr 0x36e = 0x00000000840fb000\n"
                               "@4000000000 interrupt thread=0 delivered=1001 eip=0x0\n");
    /* One by one: cycle 1; then 2-999 at once; 1000 (the overflow), 1001
     * (the PMI), 1002 (a failed try waits a cycle); the rest at once. */
    assert_int_equal(r.stepped, 4);
    result_free(&r);
}

/* With a waveform, a stretch in which nothing changes is written once. */
static void test_long_tick_waveform(void **state)
{
    (void)state;
    char path[] = "/tmp/pmubench-ff-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct result r = run("cpu netburst\n"
                          "wrmsr MSR_CRU_ESCR3 0x0c001804\n"
                          "wrmsr MSR_IQ_CCCR2 0x0003b000\n"
                          "event branch_retired:MMTP count=3\n"
                          "tick 4000000000\n"
                          "event branch_retired:MMTP count=2\n"
                          "tick 4000000000\n",
                          false, path);
    unlink(path);
    assert_int_equal(r.rc, BENCH_OK);
    assert_int_equal(r.stepped, 12); /* 3 per tick, in both passes */
    /* After the initial values: cycle 0 (@1) counts 3, cycles 1 to
     * 3999999999 nothing, cycle 4000000000 counts 2, the rest nothing.
     * Signals: ! the ESCR's output, " enable, $ increment, % value. */
    const char *changes = strstr(strstr(r.vcd, "$dumpvars"), "$end\n");
    assert_string_equal(changes, "$end\n"
                                 "b11 !\n1\"\nb11 $\nb11 %\n"
                                 "#1\nb0 !\nb0 $\n"
                                 "#4000000000\nb10 !\nb10 $\nb101 %\n"
                                 "#4000000001\nb0 !\nb0 $\n"
                                 "#8000000000\n");
    result_free(&r);
}

/* ---- the differential test */

struct rng {
    uint64_t state;
};

static unsigned below(struct rng *g, unsigned n)
{
    g->state ^= g->state << 13;
    g->state ^= g->state >> 7;
    g->state ^= g->state << 17;
    return (unsigned)(g->state % n);
}

struct text {
    char buf[16384];
    size_t used;
};

__attribute__((format(printf, 2, 3))) static void line(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->used, sizeof t->buf - t->used, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && (size_t)n < sizeof t->buf - t->used);
    t->used += (size_t)n;
}

/* A tick count: mostly short, sometimes thousands, now and then long. */
static unsigned tick_count(struct rng *g, unsigned long_max)
{
    unsigned kind = below(g, 8);
    return kind < 4 ? 1 + below(g, 4) : kind < 7 ? 1 + below(g, 3000) : 1 + below(g, long_max);
}

/* A CCCR for the IQ counters (ESCR select 5, CRU_ESCR2/3): any filter,
 * ACTIVE_THREAD, edge, FORCE_OVF, OVF_PMI and cascade setting. */
static uint64_t random_cccr(struct rng *g)
{
    uint64_t cccr = 0xa000;                            /* ESCR select 5 */
    cccr |= below(g, 4) ? 0x1000ull : 0;               /* ENABLE */
    cccr |= (uint64_t)below(g, 4) << 16;               /* ACTIVE_THREAD */
    cccr |= below(g, 2) ? 0x40000ull : 0;              /* COMPARE */
    cccr |= below(g, 2) ? 0x80000ull : 0;              /* COMPLEMENT */
    cccr |= (uint64_t)below(g, 16) << 20;              /* THRESHOLD */
    cccr |= below(g, 4) == 0 ? 0x1000000ull : 0;       /* EDGE */
    cccr |= below(g, 10) == 0 ? 0x2000000ull : 0;      /* FORCE_OVF */
    cccr |= (uint64_t)below(g, 4) << 26;               /* OVF_PMI_T0/T1 */
    cccr |= below(g, 4) == 0 ? 0x40000000ull : 0;      /* CASCADE */
    return cccr;
}

static void netburst_statement(struct rng *g, struct text *t, unsigned long_max)
{
    static const char *const subevents[] = {"MMNP", "MMNM", "MMTP", "MMTM"};
    unsigned counter = below(g, 6);
    switch (below(g, 10)) {
    case 0:
        line(t, "wrmsr 0x%x 0x%llx\n", 0x36c + counter, (unsigned long long)random_cccr(g));
        break;
    case 1:
        line(t, "wrmsr 0x%x 0x%llx\n", 0x30c + counter,
             (unsigned long long)(0xffffffffffull - below(g, 4) * below(g, 2000)));
        break;
    case 2:
        line(t, "thread %u %s cpl=%u\n", below(g, 2), below(g, 3) ? "active" : "idle",
             below(g, 4));
        break;
    case 3:
        line(t, "event branch_retired:%s count=%u thread=%u\n", subevents[below(g, 4)],
             below(g, 20), below(g, 2));
        break;
    case 4:
        if (below(g, 2))
            line(t, "rdmsr 0x%x\n", 0x30c + counter);
        else
            line(t, "rdpmc 0x%x\n", 12 + counter);
        break;
    case 5:
        line(t, "rdmsr 0x%x\n", 0x36c + counter);
        break;
    case 6:
        line(t, "interrupt thread=%u\n", below(g, 2));
        break;
    case 7:
        line(t, "retire thread=%u eip=0x%x%s\n", below(g, 2), 0x1000 + below(g, 64),
             below(g, 2) ? " tagged" : "");
        break;
    default:
        line(t, "tick %u\n", tick_count(g, long_max));
        break;
    }
}

static void netburst_script(struct rng *g, struct text *t, unsigned long_max)
{
    line(t, "cpu netburst model=%u ht=on\n", below(g, 3));
    /* branch_retired (select 6), some sub-events, some threads and CPLs. */
    for (int escr = 2; escr <= 3; escr++)
        line(t, "wrmsr MSR_CRU_ESCR%d 0x%x\n", escr,
             0x0c000000u | (1 + below(g, 15)) << 9 | below(g, 16));
    line(t, "thread 1 active\n");
    for (unsigned c = 0; c < 6; c++)
        if (below(g, 2))
            line(t, "wrmsr 0x%x 0x%llx\n", 0x36c + c, (unsigned long long)random_cccr(g));
    for (unsigned i = 0, n = 10 + below(g, 30); i < n; i++)
        netburst_statement(g, t, long_max);
    line(t, "tick %u\n", 1 + below(g, long_max));
    for (unsigned c = 0; c < 6; c++)
        line(t, "rdmsr 0x%x\nrdmsr 0x%x\n", 0x30c + c, 0x36c + c);
}

/* CESR: an event code and CC (000 off, 001/010/011 events at CPL 0-2, 3,
 * any; 1xx clocks) for each counter. */
static void p5_script(struct rng *g, struct text *t, unsigned long_max)
{
    line(t, "cpu p5\n");
    for (unsigned i = 0, n = 10 + below(g, 30); i < n; i++) {
        switch (below(g, 6)) {
        case 0:
            line(t, "wrmsr CESR 0x%x\n",
                 (below(g, 8) << 6 | 0x03) | (below(g, 8) << 6 | 0x16) << 16);
            break;
        case 1:
            line(t, "wrmsr CTR%u 0x%llx\n", below(g, 2),
                 (unsigned long long)(0xffffffffffull - below(g, 3000)));
            break;
        case 2:
            line(t, "event %s count=%u\n", below(g, 2) ? "data_read_miss" : "0x16", below(g, 5));
            break;
        case 3:
            line(t, "thread 0 active cpl=%u\n", below(g, 4));
            break;
        case 4:
            line(t, "rdmsr %s\n", below(g, 3) == 0 ? "TSC" : below(g, 2) ? "CTR0" : "CTR1");
            break;
        default:
            line(t, "tick %u\n", tick_count(g, long_max));
            break;
        }
    }
    line(t, "tick %u\nrdmsr CTR0\nrdmsr CTR1\nrdmsr TSC\n", 1 + below(g, long_max));
}

static void assert_same(const char *what, const char *fast, const char *reference,
                        const char *script)
{
    if (strcmp(fast, reference) != 0)
        fail_msg("%s differs for the script:\n%s", what, script);
}

static void compare_runs(const char *script, const char *vcd_path, uint64_t *fast_stepped,
                         uint64_t *reference_stepped)
{
    struct result reference = run(script, true, vcd_path);
    struct result fast = run(script, false, vcd_path);
    assert_int_equal(fast.rc, reference.rc);
    assert_same("the output", fast.out, reference.out, script);
    if (vcd_path)
        assert_same("the waveform", fast.vcd, reference.vcd, script);
    *fast_stepped += fast.stepped;
    *reference_stepped += reference.stepped;
    result_free(&reference);
    result_free(&fast);
}

/* The cases the fast-forward must stop for or carry through, by hand:
 * FORCE_OVF every cycle with and without a PMI, a cascade started by an
 * overflow in a long tick, edge detection of an always-true comparison,
 * ACTIVE_THREAD none while both threads idle, P5 clocks. */
static const char *const edge_cases[] = {
    "cpu netburst\nwrmsr MSR_IQ_CCCR0 0x020fb000\ntick 100000\nrdmsr MSR_IQ_COUNTER0\n"
    "rdmsr MSR_IQ_CCCR0\n",
    "cpu netburst\nwrmsr MSR_IQ_CCCR0 0x060fb000\ntick 3000\nrdmsr MSR_IQ_COUNTER0\n",
    "cpu netburst\nwrmsr MSR_IQ_COUNTER0 0xffffff0000\nwrmsr MSR_IQ_CCCR0 0x000fb000\n"
    "wrmsr MSR_IQ_CCCR2 0x400fa000\ntick 100000\nrdmsr MSR_IQ_COUNTER2\nrdmsr MSR_IQ_CCCR2\n",
    "cpu netburst\nwrmsr MSR_IQ_CCCR1 0x010fb000\ntick 100000\nrdmsr MSR_IQ_COUNTER1\n"
    "wrmsr MSR_IQ_CCCR1 0x010fb000\ntick 5\nrdmsr MSR_IQ_COUNTER1\n",
    "cpu netburst\nthread 0 idle\nwrmsr MSR_IQ_CCCR3 0x000cb000\ntick 100000\n"
    "rdmsr MSR_IQ_COUNTER3\nthread 1 active\ntick 100000\nrdmsr MSR_IQ_COUNTER3\n",
    "cpu netburst\nwrmsr MSR_IQ_COUNTER4 0xfffffff000\nwrmsr MSR_IQ_CCCR4 0x0c0fb000\n"
    "thread 1 active\ntick 100000\ninterrupt thread=1\ninterrupt thread=0\n"
    "rdmsr MSR_IQ_CCCR4\n",
    "cpu p5\nwrmsr CESR 0x01c001c0\ntick 100000\nrdmsr CTR0\nwrmsr CTR1 0xfffffffff0\n"
    "thread 0 active cpl=0\ntick 100000\nrdmsr CTR0\nrdmsr CTR1\nrdmsr TSC\n",
};

static void test_edge_cases(void **state)
{
    (void)state;
    char path[] = "/tmp/pmubench-ff-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    uint64_t fast = 0, reference = 0;
    for (size_t i = 0; i < sizeof edge_cases / sizeof edge_cases[0]; i++) {
        compare_runs(edge_cases[i], NULL, &fast, &reference);
        compare_runs(edge_cases[i], path, &fast, &reference);
    }
    unlink(path);
}

static void test_differential(void **state)
{
    (void)state;
    char path[] = "/tmp/pmubench-ff-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct rng g = {.state = 0x9e3779b97f4a7c15ull};
    uint64_t fast = 0, reference = 0;
    for (int i = 0; i < 300; i++) {
        struct text t = {.used = 0};
        bool waveform = i % 4 == 0; /* a counting counter writes every cycle */
        unsigned long_max = waveform ? 5000 : 50000;
        if (i % 5 == 4)
            p5_script(&g, &t, long_max);
        else
            netburst_script(&g, &t, long_max);
        compare_runs(t.buf, waveform ? path : NULL, &fast, &reference);
    }
    unlink(path);
    /* The fast runs did the same with a fraction of the cycles. */
    print_message("cycles run one by one: %llu fast, %llu cycle by cycle\n",
                  (unsigned long long)fast, (unsigned long long)reference);
    assert_true(fast * 10 < reference);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_tick_steps_few_cycles),
        cmocka_unit_test(test_long_tick_overflows_on_time),
        cmocka_unit_test(test_long_tick_waveform),
        cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_differential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
