/* cccr_filter() and cccr_thread_gate(): docs/semantics.md, "Counter (CCCR)". */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>

#include "pmu/emulated/cccr_filter.h"
#include "pmu/catalog/netburst_fields.h"

#define AT(n) ((uint64_t)(n) << CCCR_ACTIVE_THREAD_SHIFT)
#define THR(n) ((uint64_t)(n) << CCCR_THRESHOLD_SHIFT)

static const unsigned thresholds[] = {0, 7, 15};

/* ---- ACTIVE_THREAD */

static void test_thread_gate_table(void **state)
{
    (void)state;
    /* rows: ACTIVE_THREAD 00, 01, 10, 11; columns: 0, 1, 2 active threads */
    static const bool want[4][3] = {
        {true, false, false}, /* 00: none active */
        {false, true, false}, /* 01: exactly one */
        {false, false, true}, /* 10: both */
        {false, true, true},  /* 11: at least one */
    };
    for (unsigned at = 0; at < 4; at++)
        for (unsigned n = 0; n < 3; n++) {
            uint64_t cccr = CCCR_ENABLE | AT(at);
            assert_int_equal(cccr_thread_gate(cccr, n), want[at][n]);
            /* other CCCR fields do not matter */
            uint64_t busy = cccr | CCCR_COMPARE | CCCR_COMPLEMENT | THR(9) | CCCR_EDGE |
                            CCCR_OVF | CCCR_CASCADE | CCCR_FORCE_OVF | (5u << 13);
            assert_int_equal(cccr_thread_gate(busy, n), want[at][n]);
        }
}

static void test_filter_gate_blocks_increment(void **state)
{
    (void)state;
    static const bool want[4][3] = {
        {true, false, false}, {false, true, false}, {false, false, true}, {false, true, true},
    };
    for (unsigned at = 0; at < 4; at++)
        for (unsigned n = 0; n < 3; n++) {
            /* no compare: the output value passes when the gate is open */
            bool hist = false;
            struct cccr_filter_out out = cccr_filter(CCCR_ENABLE | AT(at), 9, n, &hist);
            assert_int_equal(out.thread_gate, want[at][n]);
            assert_int_equal(out.increment, want[at][n] ? 9u : 0u);
            assert_false(out.compare);
            /* compare: 1 or nothing */
            hist = false;
            out = cccr_filter(CCCR_ENABLE | AT(at) | CCCR_COMPARE | THR(3), 9, n, &hist);
            assert_int_equal(out.thread_gate, want[at][n]);
            assert_true(out.compare);
            assert_int_equal(out.increment, want[at][n] ? 1u : 0u);
            assert_true(hist); /* sampled even when blocked */
        }
}

/* ---- COMPARE clear: the output value, whatever THRESHOLD/COMPLEMENT/EDGE say */

static void test_no_compare_passes_bus(void **state)
{
    (void)state;
    for (unsigned complement = 0; complement < 2; complement++)
        for (size_t t = 0; t < 3; t++)
            for (unsigned edge = 0; edge < 2; edge++)
                for (unsigned hist0 = 0; hist0 < 2; hist0++)
                    for (unsigned output = 0; output <= 15; output++) {
                        uint64_t cccr = CCCR_ENABLE | AT(3) | THR(thresholds[t]) |
                                        (complement ? CCCR_COMPLEMENT : 0) |
                                        (edge ? CCCR_EDGE : 0);
                        bool hist = hist0;
                        struct cccr_filter_out out = cccr_filter(cccr, output, 1, &hist);
                        assert_int_equal(out.increment, output);
                        assert_true(out.thread_gate);
                        assert_false(out.compare);
                    }
}

/* ---- COMPARE set: the comparison result for every output value 0-15, written
 * out per threshold and complement ("output > THRESHOLD", complemented
 * "output <= THRESHOLD"). */

static const struct {
    unsigned threshold;
    bool complement;
    const char *result; /* character b: the result for output value b */
} comparisons[] = {
    {0, false, "0111111111111111"},  {0, true, "1000000000000000"},
    {7, false, "0000000011111111"},  {7, true, "1111111100000000"},
    {15, false, "0000000000000000"}, {15, true, "1111111111111111"},
};

static void test_compare_exhaustive(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof comparisons / sizeof comparisons[0]; i++)
        for (unsigned output = 0; output <= 15; output++) {
            uint64_t cccr = CCCR_ENABLE | AT(3) | CCCR_COMPARE | THR(comparisons[i].threshold) |
                            (comparisons[i].complement ? CCCR_COMPLEMENT : 0);
            bool want = comparisons[i].result[output] == '1';
            bool history = false;
            struct cccr_filter_out out = cccr_filter(cccr, output, 1, &history);
            assert_int_equal(out.compare, want);
            assert_int_equal(out.increment, want ? 1u : 0u);
            assert_int_equal(history, want);
            /* with EDGE and a true history, nothing counts */
            history = true;
            out = cccr_filter(cccr | CCCR_EDGE, output, 1, &history);
            assert_int_equal(out.compare, want);
            assert_int_equal(out.increment, 0u);
            assert_int_equal(history, want);
            /* with EDGE and a false history, a true result counts */
            history = false;
            out = cccr_filter(cccr | CCCR_EDGE, output, 1, &history);
            assert_int_equal(out.increment, want ? 1u : 0u);
        }
}

static void test_compare_spot_values(void **state)
{
    (void)state;
    bool h = false;
    /* threshold 0: output > 0 */
    assert_int_equal(cccr_filter(CCCR_COMPARE | AT(3), 0, 1, &h).increment, 0);
    assert_int_equal(cccr_filter(CCCR_COMPARE | AT(3), 1, 1, &h).increment, 1);
    /* threshold 15: output > 15 never, complement: output <= 15 always */
    assert_int_equal(cccr_filter(CCCR_COMPARE | AT(3) | THR(15), 15, 1, &h).increment, 0);
    assert_int_equal(
        cccr_filter(CCCR_COMPARE | CCCR_COMPLEMENT | AT(3) | THR(15), 0, 1, &h).increment, 1);
    assert_int_equal(
        cccr_filter(CCCR_COMPARE | CCCR_COMPLEMENT | AT(3) | THR(15), 15, 1, &h).increment, 1);
    /* threshold 2 (the README example): 3 counts, 2 does not */
    assert_int_equal(cccr_filter(CCCR_COMPARE | AT(3) | THR(2), 3, 1, &h).increment, 1);
    assert_int_equal(cccr_filter(CCCR_COMPARE | AT(3) | THR(2), 2, 1, &h).increment, 0);
    /* complement threshold 0: only output 0 */
    assert_int_equal(cccr_filter(CCCR_COMPARE | CCCR_COMPLEMENT | AT(3), 0, 1, &h).increment,
                     1);
    assert_int_equal(cccr_filter(CCCR_COMPARE | CCCR_COMPLEMENT | AT(3), 1, 1, &h).increment,
                     0);
}

/* A sequence through the edge detector: counts rising edges only. */
static void test_edge_sequence(void **state)
{
    (void)state;
    uint64_t cccr = CCCR_ENABLE | AT(3) | CCCR_COMPARE | CCCR_EDGE | THR(1); /* output > 1 */
    static const unsigned output[] = {0, 2, 3, 5, 1, 0, 2, 1, 4, 4};
    static const unsigned inc[] = {0, 1, 0, 0, 0, 0, 1, 0, 1, 0};
    bool hist = false;
    unsigned total = 0;
    for (size_t i = 0; i < sizeof output / sizeof output[0]; i++) {
        struct cccr_filter_out out = cccr_filter(cccr, output[i], 2, &hist);
        assert_int_equal(out.increment, inc[i]);
        assert_int_equal(hist, output[i] > 1);
        total += out.increment;
    }
    assert_int_equal(total, 3);
}

/* Edge + complement: rising edges of output <= threshold. */
static void test_edge_complement_sequence(void **state)
{
    (void)state;
    uint64_t cccr = CCCR_ENABLE | AT(3) | CCCR_COMPARE | CCCR_EDGE | CCCR_COMPLEMENT | THR(7);
    static const unsigned output[] = {9, 7, 0, 8, 15, 3, 3};
    static const unsigned inc[] = {0, 1, 0, 0, 0, 1, 0};
    bool hist = false;
    for (size_t i = 0; i < sizeof output / sizeof output[0]; i++) {
        struct cccr_filter_out out = cccr_filter(cccr, output[i], 1, &hist);
        assert_int_equal(out.increment, inc[i]);
        assert_int_equal(out.compare, output[i] <= 7);
    }
}

/* The edge history is sampled in cycles ACTIVE_THREAD blocks. */
static void test_edge_history_sampled_when_blocked(void **state)
{
    (void)state;
    uint64_t cccr = CCCR_ENABLE | AT(1) | CCCR_COMPARE | CCCR_EDGE; /* exactly one thread */
    bool hist = false;
    /* both threads active: blocked, but the true result is remembered */
    struct cccr_filter_out out = cccr_filter(cccr, 4, 2, &hist);
    assert_false(out.thread_gate);
    assert_true(out.compare);
    assert_int_equal(out.increment, 0);
    assert_true(hist);
    /* one thread: gate open, result still true, but no rising edge */
    out = cccr_filter(cccr, 4, 1, &hist);
    assert_true(out.thread_gate);
    assert_int_equal(out.increment, 0);
    /* false while blocked, then true while open: a rising edge */
    out = cccr_filter(cccr, 0, 0, &hist);
    assert_false(out.compare);
    assert_false(hist);
    out = cccr_filter(cccr, 4, 1, &hist);
    assert_int_equal(out.increment, 1);
    assert_true(hist);
}

/* A rising edge while the gate is closed is consumed: no count later. */
static void test_edge_rising_while_blocked_is_lost(void **state)
{
    (void)state;
    uint64_t cccr = CCCR_ENABLE | AT(2) | CCCR_COMPARE | CCCR_EDGE | THR(0);
    bool hist = false;
    struct cccr_filter_out out = cccr_filter(cccr, 1, 1, &hist); /* blocked: one thread */
    assert_int_equal(out.increment, 0);
    out = cccr_filter(cccr, 1, 2, &hist); /* open, but not rising */
    assert_int_equal(out.increment, 0);
    out = cccr_filter(cccr, 0, 2, &hist);
    out = cccr_filter(cccr, 1, 2, &hist);
    assert_int_equal(out.increment, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thread_gate_table),
        cmocka_unit_test(test_filter_gate_blocks_increment),
        cmocka_unit_test(test_no_compare_passes_bus),
        cmocka_unit_test(test_compare_exhaustive),
        cmocka_unit_test(test_compare_spot_values),
        cmocka_unit_test(test_edge_sequence),
        cmocka_unit_test(test_edge_complement_sequence),
        cmocka_unit_test(test_edge_history_sampled_when_blocked),
        cmocka_unit_test(test_edge_rising_while_blocked_is_lost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
