/* The PMU's batching of a model's reports (pmu/emulated/p5_pmu_batch.h): exact
 * counts and last increments of batched reports, and a random comparison
 * with reporting each occurrence and run of clocks to the PMU as it
 * comes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "tests/unit/test_rng.h"

#include "pmu/catalog/p5_events.h"
#include "pmu/emulated/p5_pmu.h"
#include "pmu/emulated/p5_pmu_batch.h"

/* ---- the batch against direct reports */

static const unsigned occurrence_codes[] = {
    P5_EV_DATA_READ, P5_EV_DATA_READ_MISS, P5_EV_INSTRUCTIONS_EXECUTED,
    P5_EV_INSTRUCTIONS_EXECUTED_IN_V_PIPE, P5_EV_BRANCHES, 0x3e,
};
static const unsigned duration_codes[] = {
    P5_EV_CLOCKS_WHILE_BUS_CYCLE_IN_PROGRESS, P5_EV_CLOCKS_STALLED_FULL_WRITE_BUFFERS,
    P5_EV_CLOCKS_STALLED_WAITING_DATA_READ,
};
enum {
    N_OCCURRENCE = sizeof occurrence_codes / sizeof occurrence_codes[0],
    N_DURATION = sizeof duration_codes / sizeof duration_codes[0],
};

struct two_pmus {
    struct msr_backend *direct_backend, *batched_backend;
    struct p5_pmu *direct, *batched;
    struct p5_pmu_batch batch;
};

static int pmus_setup(void **state)
{
    struct two_pmus *p = calloc(1, sizeof *p);
    *state = p;
    if (!p)
        return -1;
    p->direct_backend = p5_backend_create();
    p->batched_backend = p5_backend_create();
    if (!p->direct_backend || !p->batched_backend)
        return -1;
    p->direct = p5_backend_pmu(p->direct_backend);
    p->batched = p5_backend_pmu(p->batched_backend);
    p5_pmu_batch_init(&p->batch, p->batched);
    return 0;
}

static int pmus_teardown(void **state)
{
    struct two_pmus *p = *state;
    if (p) {
        msr_backend_destroy(p->direct_backend);
        msr_backend_destroy(p->batched_backend);
        free(p);
    }
    return 0;
}

static uint64_t rd(struct p5_pmu *pmu, uint32_t msr)
{
    uint64_t value = 0;
    assert_int_equal(p5_pmu_rdmsr(pmu, msr, &value), MSR_OK);
    return value;
}

static void assert_same_pmus(const struct two_pmus *p)
{
    for (uint32_t msr = P5_MSR_TSC; msr <= P5_MSR_CTR1; msr++)
        assert_int_equal(rd(p->direct, msr), rd(p->batched, msr));
    for (int c = 0; c < 2; c++)
        assert_int_equal(p5_pmu_last_increment(p->direct, c),
                         p5_pmu_last_increment(p->batched, c));
    assert_int_equal(p5_pmu_cycles(p->direct), p5_pmu_cycles(p->batched));
}

static unsigned random_code(struct rng *g)
{
    if (below(g, 3))
        return occurrence_codes[below(g, N_OCCURRENCE)];
    return duration_codes[below(g, N_DURATION)];
}

/* What a region hook or a CPL change does between reports: a CESR, a
 * counter (near the 40-bit wrap), the TSC, the CPL. */
static void random_change(struct rng *g, struct two_pmus *p)
{
    uint32_t msr = P5_MSR_CESR;
    uint64_t value;
    switch (below(g, 4)) {
    case 0:
        value = random_code(g);
        value |= (uint64_t)below(g, 8) << 6;
        value |= (uint64_t)random_code(g) << 16;
        value |= (uint64_t)below(g, 8) << 22;
        break;
    case 1:
        msr = P5_MSR_CTR0 + below(g, 2);
        value = 0xffffffffffull - below(g, 50);
        break;
    case 2:
        msr = P5_MSR_TSC;
        value = next(g);
        break;
    default: {
        int cpl = (int)below(g, 4);
        assert_true(p5_pmu_set_cpl(p->direct, cpl));
        assert_true(p5_pmu_set_cpl(p->batched, cpl));
        return;
    }
    }
    assert_int_equal(p5_pmu_wrmsr(p->direct, msr, value), MSR_OK);
    assert_int_equal(p5_pmu_wrmsr(p->batched, msr, value), MSR_OK);
}

/* A run of clocks, as the model ends them: in one call, the duration
 * events that hold named. */
static void random_clocks(struct rng *g, struct two_pmus *p)
{
    uint64_t n = below(g, 4) ? 1 + below(g, 5) : below(g, 3000);
    uint64_t holding = 0;
    if (below(g, 3) == 0)
        holding |= 1ull << duration_codes[below(g, N_DURATION)];
    p5_pmu_ticks(p->direct, n, holding);
    p5_pmu_batch_ticks(&p->batch, n, holding);
}

static void random_occurrences(struct rng *g, struct two_pmus *p)
{
    unsigned code = random_code(g);
    uint32_t count = below(g, 8) ? below(g, 4) : (uint32_t)next(g);
    p5_pmu_event(p->direct, code, count);
    p5_pmu_batch_event(&p->batch, code, count);
}

static void test_batch_reports_as_direct(void **state)
{
    struct two_pmus *p = *state;
    struct rng g = {15};
    for (int step = 0; step < 200000; step++) {
        unsigned kind = below(&g, 100);
        if (kind < 45) {
            random_occurrences(&g, p);
        } else if (kind < 97) {
            random_clocks(&g, p);
        } else {
            p5_pmu_batch_flush(&p->batch);
            assert_same_pmus(p);
            random_change(&g, p);
        }
    }
    p5_pmu_batch_flush(&p->batch);
    assert_same_pmus(p);
}

/* Occurrences of many clocks' worth beyond what one p5_pmu_event() takes. */
static void test_batch_counts_beyond_32_bits(void **state)
{
    struct two_pmus *p = *state;
    uint64_t cesr = P5_EV_CLOCKS_STALLED_WAITING_DATA_READ | 3u << 6 |
                    (uint64_t)P5_EV_DATA_READ << 16 | 3u << 22;
    assert_int_equal(p5_pmu_wrmsr(p->direct, P5_MSR_CESR, cesr), MSR_OK);
    assert_int_equal(p5_pmu_wrmsr(p->batched, P5_MSR_CESR, cesr), MSR_OK);
    uint64_t held = 1ull << P5_EV_CLOCKS_STALLED_WAITING_DATA_READ;
    for (int i = 0; i < 3; i++) {
        p5_pmu_event(p->direct, P5_EV_DATA_READ, UINT32_MAX);
        p5_pmu_batch_event(&p->batch, P5_EV_DATA_READ, UINT32_MAX);
        p5_pmu_ticks(p->direct, 3000000000ull, held);
        p5_pmu_batch_ticks(&p->batch, 3000000000ull, held);
        p5_pmu_ticks(p->direct, 1, 0);
        p5_pmu_batch_ticks(&p->batch, 1, 0);
    }
    p5_pmu_batch_flush(&p->batch);
    assert_same_pmus(p);
    assert_int_equal(rd(p->batched, P5_MSR_CTR0), 9000000000ull);
}

/* ---- exact counts */

/* Counter 0 counts data reads, counter 1 the clocks stalled waiting for
 * one (a duration event), both at every CPL. */
static void program_reads(struct p5_pmu *pmu)
{
    uint64_t cesr = P5_EV_DATA_READ | 3u << 6 |
                    (uint64_t)P5_EV_CLOCKS_STALLED_WAITING_DATA_READ << 16 | 3u << 22;
    assert_int_equal(p5_pmu_wrmsr(pmu, P5_MSR_CESR, cesr), MSR_OK);
}

/* Nothing reaches the registers before the flush; then the cycles, their
 * occurrences and held cycles, the last run's increments and the
 * occurrences of the cycle not ended yet, which count when it ends. */
static void test_batch_exact_counts(void **state)
{
    struct two_pmus *p = *state;
    uint64_t held = p5_code_bit(P5_EV_CLOCKS_STALLED_WAITING_DATA_READ);
    program_reads(p->batched);
    p5_pmu_batch_event(&p->batch, P5_EV_DATA_READ, 2);
    p5_pmu_batch_ticks(&p->batch, 1, 0);
    p5_pmu_batch_event(&p->batch, P5_EV_DATA_READ, 1);
    p5_pmu_batch_event(&p->batch, P5_EV_BRANCHES, 9); /* counted by neither counter */
    p5_pmu_batch_ticks(&p->batch, 3, held);
    p5_pmu_batch_event(&p->batch, P5_EV_DATA_READ, 4);
    assert_int_equal(rd(p->batched, P5_MSR_TSC), 0);
    assert_int_equal(rd(p->batched, P5_MSR_CTR0), 0);
    p5_pmu_batch_flush(&p->batch);
    assert_int_equal(rd(p->batched, P5_MSR_TSC), 4);
    assert_int_equal(p5_pmu_cycles(p->batched), 4);
    assert_int_equal(rd(p->batched, P5_MSR_CTR0), 3);
    assert_int_equal(rd(p->batched, P5_MSR_CTR1), 3);
    assert_int_equal(p5_pmu_last_increment(p->batched, 0), 0); /* the last of the run of 3 */
    assert_int_equal(p5_pmu_last_increment(p->batched, 1), 1);
    p5_pmu_batch_ticks(&p->batch, 2, 0);
    p5_pmu_batch_flush(&p->batch);
    assert_int_equal(rd(p->batched, P5_MSR_TSC), 6);
    assert_int_equal(rd(p->batched, P5_MSR_CTR0), 7);
    assert_int_equal(rd(p->batched, P5_MSR_CTR1), 3);
    assert_int_equal(p5_pmu_last_increment(p->batched, 0), 0);
    assert_int_equal(p5_pmu_last_increment(p->batched, 1), 0);
}

/* A run that ends with one cycle of occurrences sets the last increments
 * of that cycle; a run of empty cycles after a held one ends it. */
static void test_batch_last_increments(void **state)
{
    struct two_pmus *p = *state;
    uint64_t held = p5_code_bit(P5_EV_CLOCKS_STALLED_WAITING_DATA_READ);
    program_reads(p->batched);
    p5_pmu_batch_ticks(&p->batch, 5, held);
    p5_pmu_batch_event(&p->batch, P5_EV_DATA_READ, 6);
    p5_pmu_batch_ticks(&p->batch, 1, held);
    p5_pmu_batch_flush(&p->batch);
    assert_int_equal(rd(p->batched, P5_MSR_CTR0), 6);
    assert_int_equal(rd(p->batched, P5_MSR_CTR1), 6);
    assert_int_equal(p5_pmu_last_increment(p->batched, 0), 6);
    assert_int_equal(p5_pmu_last_increment(p->batched, 1), 1);
    p5_pmu_batch_ticks(&p->batch, 1, 0);
    p5_pmu_batch_flush(&p->batch);
    assert_int_equal(rd(p->batched, P5_MSR_TSC), 7);
    assert_int_equal(p5_pmu_last_increment(p->batched, 0), 0);
    assert_int_equal(p5_pmu_last_increment(p->batched, 1), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_batch_reports_as_direct, pmus_setup, pmus_teardown),
        cmocka_unit_test_setup_teardown(test_batch_counts_beyond_32_bits, pmus_setup,
                                        pmus_teardown),
        cmocka_unit_test_setup_teardown(test_batch_exact_counts, pmus_setup, pmus_teardown),
        cmocka_unit_test_setup_teardown(test_batch_last_increments, pmus_setup, pmus_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
