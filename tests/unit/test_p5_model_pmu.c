/* The P5 PMU's two ways in, one counting path: what a timing model uses
 * (occurrences it skips when the feed says they would not count, and
 * p5_pmu_ticks() ending many cycles at once while duration events hold)
 * against what a bench script does (every occurrence through
 * p5_pmu_event(), duration events reported again in each cycle, one
 * p5_pmu_tick() per cycle).  Public functions only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "tests/unit/test_rng.h"

#include "pmu/catalog/p5_events.h"
#include "pmu/emulated/p5_pmu.h"

/* The codes the streams use: occurrence and duration events, one
 * undefined code. */
static const unsigned codes[] = {
    P5_EV_DATA_READ, P5_EV_DATA_READ_MISS, P5_EV_INSTRUCTIONS_EXECUTED,
    P5_EV_INSTRUCTIONS_EXECUTED_IN_V_PIPE, P5_EV_BRANCHES,
    P5_EV_CLOCKS_WHILE_BUS_CYCLE_IN_PROGRESS, P5_EV_CLOCKS_STALLED_FULL_WRITE_BUFFERS,
    P5_EV_CLOCKS_STALLED_WAITING_DATA_READ, P5_EV_PIPELINE_STALLED_ADDRESS_GENERATION_INTERLOCK,
    0x3e,
};
enum { NUM_CODES = sizeof codes / sizeof codes[0] };

static unsigned random_code(struct rng *g)
{
    return codes[below(g, NUM_CODES)];
}

static bool is_duration(unsigned code)
{
    const struct p5_event *event = p5_event_by_code(code);
    return event && event->duration;
}

/* The counting rules of docs/semantics.md, "P5", written plainly: the
 * reference both paths must also equal (a cache the PMU failed to rewrite
 * would mislead both alike). */
struct spec {
    uint64_t tsc, cesr, ctr[2], cycles, occurred[2], last[2];
    int cpl;
};

/* Whether counter c's CC enables counting at the current CPL
 * (Safford 1997, Table 2.2), and whether it counts clocks. */
static bool spec_enabled(const struct spec *s, int c)
{
    return (p5_cesr_control(s->cesr, c) >> (s->cpl == 3)) & 1;
}

static bool spec_clocks(const struct spec *s, int c)
{
    return p5_cesr_control(s->cesr, c) & 4;
}

static void spec_event(struct spec *s, unsigned code, uint32_t count)
{
    for (int c = 0; c < 2; c++)
        if (spec_enabled(s, c) && !spec_clocks(s, c) && p5_cesr_event(s->cesr, c) == code)
            s->occurred[c] += count;
}

/* One cycle in which the duration events of `holding` hold. */
static void spec_cycle(struct spec *s, uint64_t holding)
{
    for (unsigned code = 0; code < P5_NUM_CODES; code++)
        if (((holding >> code) & 1) && is_duration(code))
            spec_event(s, code, 1);
    for (int c = 0; c < 2; c++) {
        s->last[c] = s->occurred[c] + (spec_enabled(s, c) && spec_clocks(s, c));
        s->ctr[c] = (s->ctr[c] + s->last[c]) & 0xffffffffffull;
        s->occurred[c] = 0;
    }
    s->tsc++;
    s->cycles++;
}

/* Both PMUs, the reference, and what the streams did. */
struct pair {
    struct msr_backend *fast_backend, *bench_backend;
    struct p5_pmu *fast, *bench;
    const struct p5_feed *feed;
    struct spec spec;
    uint64_t skipped;     /* occurrences the fast path did not report */
    uint64_t held_cycles; /* cycles in which a counted duration event held */
};

/* The pair lives in the test's state, so that the teardown frees it also
 * when an assertion fails (cmocka then leaves the test by longjmp). */
static int pair_setup(void **state)
{
    struct pair *p = calloc(1, sizeof *p);
    *state = p;
    return p ? 0 : -1;
}

static int pair_teardown(void **state)
{
    struct pair *p = *state;
    if (p) {
        msr_backend_destroy(p->fast_backend);
        msr_backend_destroy(p->bench_backend);
        free(p);
    }
    *state = NULL;
    return 0;
}

static void pair_open(struct pair *p)
{
    p->fast_backend = p5_backend_create();
    p->bench_backend = p5_backend_create();
    assert_non_null(p->fast_backend);
    assert_non_null(p->bench_backend);
    p->fast = p5_backend_pmu(p->fast_backend);
    p->bench = p5_backend_pmu(p->bench_backend);
    p->feed = p5_pmu_feed(p->fast);
    p->spec = (struct spec){.cpl = 3};
    p->skipped = p->held_cycles = 0;
}

static uint64_t rd(struct p5_pmu *pmu, uint32_t msr)
{
    uint64_t value = 0;
    assert_int_equal(p5_pmu_rdmsr(pmu, msr, &value), MSR_OK);
    return value;
}

static void assert_same(struct pair *p)
{
    for (uint32_t msr = P5_MSR_TSC; msr <= P5_MSR_CTR1; msr++)
        assert_int_equal(rd(p->fast, msr), rd(p->bench, msr));
    for (int c = 0; c < 2; c++)
        assert_int_equal(p5_pmu_last_increment(p->fast, c), p5_pmu_last_increment(p->bench, c));
    assert_int_equal(p5_pmu_cycles(p->fast), p5_pmu_cycles(p->bench));
    assert_int_equal(p5_pmu_cpl(p->fast), p5_pmu_cpl(p->bench));
    const struct spec *s = &p->spec;
    assert_int_equal(rd(p->bench, P5_MSR_TSC), s->tsc);
    assert_int_equal(rd(p->bench, P5_MSR_CESR), s->cesr);
    for (int c = 0; c < 2; c++) {
        assert_int_equal(rd(p->bench, P5_MSR_CTR0 + (uint32_t)c), s->ctr[c]);
        assert_int_equal(p5_pmu_last_increment(p->bench, c), s->last[c]);
    }
    assert_int_equal(p5_pmu_cycles(p->bench), s->cycles);
    assert_int_equal(p5_pmu_cpl(p->bench), s->cpl);
}

static void wr_both(struct pair *p, uint32_t msr, uint64_t value)
{
    assert_int_equal(p5_pmu_wrmsr(p->fast, msr, value), MSR_OK);
    assert_int_equal(p5_pmu_wrmsr(p->bench, msr, value), MSR_OK);
    if (msr == P5_MSR_TSC)
        p->spec.tsc = value;
    else if (msr == P5_MSR_CESR)
        p->spec.cesr = value;
    else
        p->spec.ctr[msr - P5_MSR_CTR0] = value & 0xffffffffffull;
}

/* A register write, as a region hook or a script may do at any time:
 * the CESR (every CC, PC bits, the stream's codes), a counter (near the
 * 40-bit wrap, or with bits 63:40 set), the TSC, or the CPL. */
static void random_register_write(struct rng *g, struct pair *p)
{
    switch (below(g, 4)) {
    case 0: {
        uint64_t cesr = random_code(g);            /* ES0 */
        cesr |= (uint64_t)below(g, 8) << 6;        /* CC0 */
        cesr |= (uint64_t)below(g, 2) << 9;        /* PC0 */
        cesr |= (uint64_t)random_code(g) << 16;    /* ES1 */
        cesr |= (uint64_t)below(g, 8) << 22;       /* CC1 */
        cesr |= (uint64_t)below(g, 2) << 25;       /* PC1 */
        wr_both(p, P5_MSR_CESR, cesr);
        break;
    }
    case 1: {
        uint32_t msr = P5_MSR_CTR0 + below(g, 2);
        uint64_t value;
        if (below(g, 2))
            value = 0xffffffffffull - below(g, 100);
        else
            value = next(g);
        wr_both(p, msr, value);
        break;
    }
    case 2: {
        uint64_t tsc;
        if (below(g, 4)) {
            tsc = next(g);
            tsc >>= below(g, 64);
        } else {
            tsc = ~0ull - below(g, 8);
        }
        wr_both(p, P5_MSR_TSC, tsc);
        break;
    }
    default: {
        int cpl = (int)below(g, 4);
        assert_true(p5_pmu_set_cpl(p->fast, cpl));
        assert_true(p5_pmu_set_cpl(p->bench, cpl));
        p->spec.cpl = cpl;
        break;
    }
    }
}

/* An occurrence: reported to the bench PMU always, to the fast one only
 * when its feed says it counts, as the model does. */
static void random_occurrence(struct rng *g, struct pair *p)
{
    unsigned code = random_code(g);
    uint32_t count;
    if (below(g, 8))
        count = below(g, 4);
    else
        count = (uint32_t)next(g);
    p5_pmu_event(p->bench, code, count);
    spec_event(&p->spec, code, count);
    if (p5_feed_counts(p->feed, code))
        p5_pmu_event(p->fast, code, count);
    else
        p->skipped++;
}

static uint64_t random_holding(struct rng *g)
{
    uint64_t holding = 0;
    unsigned n = below(g, 3);
    for (unsigned i = 0; i < n; i++)
        holding |= 1ull << random_code(g);
    return holding;
}

/* n cycles: one call on the fast path, n on the bench path, each
 * reporting the duration events held again. */
static void run_cycles(struct pair *p, uint64_t n, uint64_t holding)
{
    bool counted = false;
    for (unsigned code = 0; code < P5_NUM_CODES; code++)
        counted |= ((holding >> code) & 1) && is_duration(code) && p5_feed_counts(p->feed, code);
    p->held_cycles += counted ? n : 0;
    p5_pmu_ticks(p->fast, n, holding);
    for (uint64_t i = 0; i < n; i++) {
        for (unsigned code = 0; code < P5_NUM_CODES; code++)
            if (((holding >> code) & 1) && is_duration(code))
                p5_pmu_event(p->bench, code, 1);
        p5_pmu_tick(p->bench);
        spec_cycle(&p->spec, holding);
    }
}

/* An empty stretch: fast-forwarded where the PMU can, cycle by cycle on
 * the bench path. */
static void run_empty(struct rng *g, struct pair *p, uint64_t n)
{
    bool frozen = below(g, 2);
    if (p5_pmu_fast_forward(p->fast, n, frozen) == 0)
        for (uint64_t i = 0; i < n; i++)
            p5_pmu_tick(p->fast);
    for (uint64_t i = 0; i < n; i++) {
        p5_pmu_tick(p->bench);
        spec_cycle(&p->spec, 0);
    }
}

static uint64_t random_length(struct rng *g)
{
    if (below(g, 16))
        return 1 + below(g, 40);
    return 1 + below(g, 3000);
}

static void random_step(struct rng *g, struct pair *p)
{
    unsigned kind = below(g, 10);
    if (kind < 3) {
        random_register_write(g, p);
    } else if (kind < 9) {
        /* a cycle's occurrences, a register write among them now and
         * then, and the cycles that follow while duration events hold */
        unsigned n = below(g, 6);
        for (unsigned i = 0; i < n; i++) {
            if (below(g, 8) == 0)
                random_register_write(g, p);
            random_occurrence(g, p);
        }
        uint64_t length = 1;
        if (below(g, 4))
            length = random_length(g);
        uint64_t holding = random_holding(g);
        run_cycles(p, length, holding);
    } else {
        uint64_t length = random_length(g);
        run_empty(g, p, length);
    }
}

static void test_fast_path_equals_bench_path(void **state)
{
    struct pair *p = *state;
    struct rng g = {.state = 0x5a17ed5eedull};
    pair_open(p);
    for (int step = 0; step < 40000; step++) {
        random_step(&g, p);
        assert_same(p);
    }
    print_message("skipped %llu, held cycles %llu, TSC %#llx, CESR %#llx, CTR0 %#llx, "
                  "CTR1 %#llx, cycles %llu\n",
                  (unsigned long long)p->skipped, (unsigned long long)p->held_cycles,
                  (unsigned long long)rd(p->fast, P5_MSR_TSC),
                  (unsigned long long)rd(p->fast, P5_MSR_CESR),
                  (unsigned long long)rd(p->fast, P5_MSR_CTR0),
                  (unsigned long long)rd(p->fast, P5_MSR_CTR1),
                  (unsigned long long)p5_pmu_cycles(p->fast));
    /* The streams reached every case (over 10,000 skipped occurrences and
     * held cycles), and the run is pinned exactly: the same under gcc and
     * clang at any -O, with or without sanitizers. */
    assert_int_equal(p->skipped, 56975);
    assert_int_equal(p->held_cycles, 40948);
    assert_int_equal(rd(p->fast, P5_MSR_TSC), 0x7ee0);
    assert_int_equal(rd(p->fast, P5_MSR_CESR), 0x183023e);
    assert_int_equal(rd(p->fast, P5_MSR_CTR0), 0xffffffffe0ull);
    assert_int_equal(rd(p->fast, P5_MSR_CTR1), 0xffffffffa1ull);
    assert_int_equal(p5_pmu_cycles(p->fast), 2408643);
}

/* ---- p5_pmu_ticks() by hand */

/* The PMU of one test, freed by the teardown also when the test fails. */
static struct msr_backend *backend;

static int backend_teardown(void **state)
{
    (void)state;
    msr_backend_destroy(backend);
    backend = NULL;
    return 0;
}

static struct p5_pmu *start(uint64_t cesr, int cpl)
{
    backend = p5_backend_create();
    assert_non_null(backend);
    struct p5_pmu *pmu = p5_backend_pmu(backend);
    assert_int_equal(p5_pmu_wrmsr(pmu, P5_MSR_CESR, cesr), MSR_OK);
    assert_int_equal(p5_pmu_wrmsr(pmu, P5_MSR_CTR0, 0xfffffffff0ull), MSR_OK);
    assert_true(p5_pmu_set_cpl(pmu, cpl));
    return pmu;
}

static void test_ticks_wraps_at_40_bits(void **state)
{
    (void)state;
    /* CTR0: clocks while 0x1a holds, at any CPL */
    struct p5_pmu *pmu = start(P5_EV_CLOCKS_STALLED_WAITING_DATA_READ | 3u << 6, 3);
    p5_pmu_event(pmu, P5_EV_CLOCKS_STALLED_WAITING_DATA_READ, 5);
    p5_pmu_ticks(pmu, 20, p5_code_bit(P5_EV_CLOCKS_STALLED_WAITING_DATA_READ));
    assert_int_equal(rd(pmu, P5_MSR_CTR0), 0xfffffffff0ull + 25 - (1ull << 40)); /* 9 */
    assert_int_equal(p5_pmu_last_increment(pmu, 0), 1);
}

static void test_zero_ticks_do_nothing(void **state)
{
    (void)state;
    struct p5_pmu *pmu = start(P5_EV_INSTRUCTIONS_EXECUTED | 3u << 6, 3);
    p5_pmu_event(pmu, P5_EV_INSTRUCTIONS_EXECUTED, 1);
    p5_pmu_ticks(pmu, 0, 0);
    assert_int_equal(rd(pmu, P5_MSR_TSC), 0);
    assert_int_equal(rd(pmu, P5_MSR_CTR0), 0xfffffffff0ull);
    assert_int_equal(p5_pmu_fast_forward(pmu, 5, false), 0); /* an occurrence is pending */
    p5_pmu_tick(pmu); /* the occurrence is still this cycle's */
    assert_int_equal(rd(pmu, P5_MSR_CTR0), 0xfffffffff1ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fast_path_equals_bench_path, pair_setup,
                                        pair_teardown),
        cmocka_unit_test_teardown(test_ticks_wraps_at_40_bits, backend_teardown),
        cmocka_unit_test_teardown(test_zero_ticks_do_nothing, backend_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
