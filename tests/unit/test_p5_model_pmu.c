/* p5_pmu_ticks(), the P5 model's bulk clock: n cycles in one step equal n
 * single p5_pmu_tick() cycles with the same occurrences, in every counter
 * mode, across the 40-bit wrap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pmu/p5_pmu.h"

static void start(struct p5_pmu *pmu, uint64_t cesr, int cpl)
{
    p5_pmu_init(pmu);
    assert_int_equal(p5_pmu_wrmsr(pmu, P5_MSR_CESR, cesr), MSR_OK);
    assert_int_equal(p5_pmu_wrmsr(pmu, P5_MSR_CTR0, 0xfffffffff0ull), MSR_OK);
    assert_true(p5_pmu_set_cpl(pmu, cpl));
}

static void add_occurrences(struct p5_pmu *pmu)
{
    p5_pmu_event(pmu, 0x16, 2);
    p5_pmu_event(pmu, 0x00, 1);
    p5_pmu_event(pmu, 0x1a, 1);
}

static void test_ticks_equal_single_ticks(void **state)
{
    (void)state;
    /* CTR0: 0x16 with each CC; CTR1: clocks (CC 111) or 0x1a at CPL 3 */
    for (uint64_t cc = 0; cc < 8; cc++)
        for (int cpl = 0; cpl <= 3; cpl += 3) {
            uint64_t cesr = 0x16 | cc << 6 | (uint64_t)(cc & 4 ? 0x00 : 0x1a) << 16 |
                            (uint64_t)(cc & 4 ? 7 : 2) << 22;
            struct p5_pmu bulk, single;
            start(&bulk, cesr, cpl);
            start(&single, cesr, cpl);
            add_occurrences(&bulk);
            p5_pmu_ticks(&bulk, 37);
            for (int i = 0; i < 37; i++) {
                add_occurrences(&single);
                p5_pmu_tick(&single);
            }
            assert_int_equal(bulk.ctr[0], single.ctr[0]);
            assert_int_equal(bulk.ctr[1], single.ctr[1]);
            assert_int_equal(bulk.tsc, single.tsc);
            assert_int_equal(bulk.cycles, 37);
            assert_int_equal(bulk.last_increment[0], single.last_increment[0]);
            assert_int_equal(bulk.last_increment[1], single.last_increment[1]);
            /* the next cycle starts empty in both */
            p5_pmu_tick(&bulk);
            p5_pmu_tick(&single);
            assert_int_equal(bulk.ctr[0], single.ctr[0]);
            assert_int_equal(bulk.touched, 0);
        }
}

static void test_ticks_wraps_at_40_bits(void **state)
{
    (void)state;
    struct p5_pmu pmu;
    start(&pmu, 0x16 | 3u << 6, 3);
    p5_pmu_event(&pmu, 0x16, 2);
    p5_pmu_ticks(&pmu, 10); /* 0xfffffffff0 + 20 */
    assert_int_equal(pmu.ctr[0], 4);
}

static void test_zero_ticks_do_nothing(void **state)
{
    (void)state;
    struct p5_pmu pmu;
    start(&pmu, 0x16 | 3u << 6, 3);
    p5_pmu_event(&pmu, 0x16, 1);
    p5_pmu_ticks(&pmu, 0);
    assert_int_equal(pmu.tsc, 0);
    assert_int_equal(pmu.ctr[0], 0xfffffffff0ull);
    p5_pmu_tick(&pmu); /* the occurrence is still this cycle's */
    assert_int_equal(pmu.ctr[0], 0xfffffffff1ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ticks_equal_single_ticks),
        cmocka_unit_test(test_ticks_wraps_at_40_bits),
        cmocka_unit_test(test_zero_ticks_do_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
