/* The simulated P5 PMU and its event table: docs/semantics.md, "P5".
 * White-box: the PMU is a static struct p5_pmu (pmu/emulated/p5_pmu_state.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <strings.h>

#include "pmu/catalog/p5_events.h"
#include "pmu/emulated/p5_pmu_state.h"

static struct p5_pmu pmu;

#define CESR(es0, cc0, pc0, es1, cc1, pc1)                                                  \
    ((uint64_t)(es0) | ((uint64_t)(cc0) << 6) | ((uint64_t)(pc0) << 9) |                    \
     ((uint64_t)(es1) << 16) | ((uint64_t)(cc1) << 22) | ((uint64_t)(pc1) << 25))

static uint64_t rd(uint32_t msr)
{
    uint64_t v = 0x5a5a;
    assert_int_equal(p5_pmu_rdmsr(&pmu, msr, &v), MSR_OK);
    return v;
}

static void wr(uint32_t msr, uint64_t v)
{
    assert_int_equal(p5_pmu_wrmsr(&pmu, msr, v), MSR_OK);
}

static void test_reset(void **state)
{
    (void)state;
    memset(&pmu, 0xff, sizeof pmu);
    p5_pmu_init(&pmu);
    assert_int_equal(rd(P5_MSR_TSC), 0);
    assert_int_equal(rd(P5_MSR_CESR), 0);
    assert_int_equal(rd(P5_MSR_CTR0), 0);
    assert_int_equal(rd(P5_MSR_CTR1), 0);
    assert_int_equal(p5_pmu_cpl(&pmu), 3);
    assert_int_equal(p5_pmu_cycles(&pmu), 0);
    assert_int_equal(p5_pmu_feed(&pmu)->counted, 0);
    assert_int_equal(P5_MSR_TSC, 0x10);
    assert_int_equal(P5_MSR_CESR, 0x11);
    assert_int_equal(P5_MSR_CTR0, 0x12);
    assert_int_equal(P5_MSR_CTR1, 0x13);
}

static void test_cesr_fields(void **state)
{
    (void)state;
    /* Safford 1997, Fig. 3.4: data read miss and data read, user level */
    uint64_t c = 0x00800083;
    assert_int_equal(p5_cesr_event(c, 0), 0x03);
    assert_int_equal(p5_cesr_control(c, 0), 2);
    assert_int_equal(p5_cesr_event(c, 1), 0x00);
    assert_int_equal(p5_cesr_control(c, 1), 2);
    c = CESR(0x3f, 7, 1, 0x2a, 5, 1);
    assert_int_equal(c, 0x036a03ffull);
    assert_int_equal(p5_cesr_event(c, 0), 0x3f);
    assert_int_equal(p5_cesr_control(c, 0), 7);
    assert_int_equal(p5_cesr_event(c, 1), 0x2a);
    assert_int_equal(p5_cesr_control(c, 1), 5);
    /* PC bits are not part of the fields */
    assert_int_equal(p5_cesr_control(CESR(0, 0, 1, 0, 0, 1), 0), 0);
    assert_int_equal(p5_cesr_control(CESR(0, 0, 1, 0, 0, 1), 1), 0);
    assert_int_equal(p5_cesr_event(CESR(0, 7, 1, 0, 7, 1), 1), 0);
    assert_int_equal(p5_cesr_pin(CESR(0x3f, 7, 0, 0x3f, 7, 1), 0), 0);
    assert_int_equal(p5_cesr_pin(CESR(0x3f, 7, 0, 0x3f, 7, 1), 1), 1);
    assert_int_equal(p5_cesr_pin(CESR(0, 0, 1, 0, 0, 0), 0), 1);
}

/* A counter's half placed in the CESR, and both CC fields cleared. */
static void test_cesr_place_and_stop(void **state)
{
    (void)state;
    assert_int_equal(p5_cesr_place(0x3ff, 0), 0x3ffull);
    assert_int_equal(p5_cesr_place(0x3ff, 1), 0x3ff0000ull);
    assert_int_equal(p5_cesr_place(0x83, 0) | p5_cesr_place(0x80, 1), 0x00800083ull);
    assert_int_equal(p5_cesr_stopped(CESR(0x3f, 7, 1, 0x2a, 5, 1)), CESR(0x3f, 0, 1, 0x2a, 0, 1));
    assert_int_equal(p5_cesr_stopped(0x036a03ffull), 0x022a023full);
}

static void test_cesr_reserved_bits(void **state)
{
    (void)state;
    p5_pmu_init(&pmu);
    wr(P5_MSR_CESR, 0x03ff03ff);
    assert_int_equal(rd(P5_MSR_CESR), 0x03ff03ff);
    for (int b = 0; b < 64; b++) {
        bool defined = b <= 9 || (b >= 16 && b <= 25);
        if (defined) {
            wr(P5_MSR_CESR, 1ull << b);
            assert_int_equal(rd(P5_MSR_CESR), 1ull << b);
        } else {
            wr(P5_MSR_CESR, 0x00800083);
            assert_int_equal(p5_pmu_wrmsr(&pmu, P5_MSR_CESR, 1ull << b), MSR_GP);
            assert_int_equal(rd(P5_MSR_CESR), 0x00800083);
        }
    }
}

static void test_unknown_msrs(void **state)
{
    (void)state;
    p5_pmu_init(&pmu);
    static const uint32_t bad[] = {0x0, 0xe, 0xf, 0x14, 0x15, 0x300, 0x360, 0x1a0, 0x3a0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 7;
        assert_int_equal(p5_pmu_rdmsr(&pmu, bad[i], &v), MSR_GP);
        assert_int_equal(p5_pmu_wrmsr(&pmu, bad[i], 0), MSR_GP);
    }
}

static void test_tsc(void **state)
{
    (void)state;
    p5_pmu_init(&pmu);
    p5_pmu_tick(&pmu);
    p5_pmu_tick(&pmu);
    assert_int_equal(rd(P5_MSR_TSC), 2);
    wr(P5_MSR_TSC, 0xfffffffffffffffeull); /* 64 bits, writable */
    assert_int_equal(rd(P5_MSR_TSC), 0xfffffffffffffffeull);
    p5_pmu_tick(&pmu);
    assert_int_equal(rd(P5_MSR_TSC), 0xffffffffffffffffull);
    p5_pmu_tick(&pmu);
    assert_int_equal(rd(P5_MSR_TSC), 0);
    assert_int_equal(p5_pmu_cycles(&pmu), 4);
    /* the TSC ticks whatever the CESR says */
    wr(P5_MSR_CESR, 0);
    p5_pmu_tick(&pmu);
    assert_int_equal(rd(P5_MSR_TSC), 1);
}

/* The cycles of one scenario: (cpl, occurrences of code 0x16). */
static const struct {
    int cpl;
    uint32_t events;
} scenario[] = {{3, 2}, {0, 3}, {1, 5}, {2, 7}, {3, 0}, {3, 11}};

static void run_scenario(unsigned cc, uint64_t *ctr0, uint64_t *ctr1)
{
    p5_pmu_init(&pmu);
    wr(P5_MSR_CESR, CESR(0x16, cc, 0, 0x16, cc, 1));
    for (size_t i = 0; i < sizeof scenario / sizeof scenario[0]; i++) {
        assert_true(p5_pmu_set_cpl(&pmu, scenario[i].cpl));
        p5_pmu_event(&pmu, 0x16, scenario[i].events);
        p5_pmu_event(&pmu, 0x17, 100); /* another code: never counted */
        p5_pmu_tick(&pmu);
    }
    *ctr0 = rd(P5_MSR_CTR0);
    *ctr1 = rd(P5_MSR_CTR1);
}

static void test_cc_modes(void **state)
{
    (void)state;
    /* events at CPL 3: 2 + 0 + 11 = 13; at CPL 0-2: 3 + 5 + 7 = 15;
     * clocks at CPL 3: 3; at CPL 0-2: 3 */
    static const uint64_t want[8] = {
        0,  /* 000 disabled */
        15, /* 001 events, CPL 0-2 */
        13, /* 010 events, CPL 3 */
        28, /* 011 events, any CPL */
        0,  /* 100 disabled */
        3,  /* 101 clocks, CPL 0-2 */
        3,  /* 110 clocks, CPL 3 */
        6,  /* 111 clocks, any CPL */
    };
    for (unsigned cc = 0; cc < 8; cc++) {
        uint64_t c0, c1;
        run_scenario(cc, &c0, &c1);
        assert_int_equal(c0, want[cc]);
        assert_int_equal(c1, want[cc]);
    }
}

static void test_clock_mode_cpl_per_cycle(void **state)
{
    (void)state;
    p5_pmu_init(&pmu);
    wr(P5_MSR_CESR, CESR(0, 6, 0, 0, 5, 0)); /* ctr0 clocks at CPL 3, ctr1 at CPL 0-2 */
    p5_pmu_tick(&pmu);
    assert_int_equal(p5_pmu_last_increment(&pmu, 0), 1);
    assert_int_equal(p5_pmu_last_increment(&pmu, 1), 0);
    assert_true(p5_pmu_set_cpl(&pmu, 0));
    p5_pmu_tick(&pmu);
    p5_pmu_tick(&pmu);
    assert_int_equal(p5_pmu_last_increment(&pmu, 0), 0);
    assert_int_equal(p5_pmu_last_increment(&pmu, 1), 1);
    assert_int_equal(rd(P5_MSR_CTR0), 1);
    assert_int_equal(rd(P5_MSR_CTR1), 2);
}

static void test_two_counters_different_events(void **state)
{
    (void)state;
    p5_pmu_init(&pmu);
    wr(P5_MSR_CESR, 0x00800083); /* ctr0 data_read_miss user, ctr1 data_read user */
    p5_pmu_event(&pmu, 0x03, 2); /* count=2 */
    p5_pmu_event(&pmu, 0x00, 5);
    p5_pmu_event(&pmu, 0x03, 1);
    p5_pmu_tick(&pmu);
    assert_int_equal(rd(P5_MSR_CTR0), 3);
    assert_int_equal(rd(P5_MSR_CTR1), 5);
    assert_int_equal(p5_pmu_last_increment(&pmu, 0), 3);
    assert_int_equal(p5_pmu_last_increment(&pmu, 1), 5);
    /* occurrences belong to their cycle */
    p5_pmu_tick(&pmu);
    assert_int_equal(rd(P5_MSR_CTR0), 3);
    assert_int_equal(p5_pmu_last_increment(&pmu, 0), 0);
    /* the CPL is the one when the event occurred */
    assert_true(p5_pmu_set_cpl(&pmu, 0));
    p5_pmu_event(&pmu, 0x03, 4); /* at CPL 0: not counted by a user-only counter */
    assert_true(p5_pmu_set_cpl(&pmu, 3));
    p5_pmu_tick(&pmu);
    assert_int_equal(rd(P5_MSR_CTR0), 3);
    /* writing the CESR does not clear the counters */
    wr(P5_MSR_CESR, 0);
    assert_int_equal(rd(P5_MSR_CTR0), 3);
    assert_int_equal(rd(P5_MSR_CTR1), 5);
    p5_pmu_event(&pmu, 0x03, 4);
    p5_pmu_tick(&pmu);
    assert_int_equal(rd(P5_MSR_CTR0), 3);
}

static void test_counter_40_bits(void **state)
{
    (void)state;
    p5_pmu_init(&pmu);
    wr(P5_MSR_CTR0, 0xffffffffffull);
    wr(P5_MSR_CTR1, 0xfffffffffeull);
    wr(P5_MSR_CESR, CESR(0x16, 3, 0, 0x16, 3, 0));
    p5_pmu_event(&pmu, 0x16, 3);
    p5_pmu_tick(&pmu);
    assert_int_equal(rd(P5_MSR_CTR0), 2);
    assert_int_equal(rd(P5_MSR_CTR1), 1);
    /* bits 63:40 of a write are dropped */
    wr(P5_MSR_CTR0, 0xff00000000000005ull);
    assert_int_equal(rd(P5_MSR_CTR0), 5);
    wr(P5_MSR_CTR1, ~0ull);
    assert_int_equal(rd(P5_MSR_CTR1), 0xffffffffffull);
}

static void test_set_cpl(void **state)
{
    (void)state;
    p5_pmu_init(&pmu);
    for (int c = 0; c < 4; c++) {
        assert_true(p5_pmu_set_cpl(&pmu, c));
        assert_int_equal(p5_pmu_cpl(&pmu), c);
    }
    assert_false(p5_pmu_set_cpl(&pmu, 4));
    assert_false(p5_pmu_set_cpl(&pmu, -1));
    assert_int_equal(p5_pmu_cpl(&pmu), 3);
}

static void test_msr_by_name(void **state)
{
    (void)state;
    assert_int_equal(p5_msr_by_name("TSC"), 0x10);
    assert_int_equal(p5_msr_by_name("tsc"), 0x10);
    assert_int_equal(p5_msr_by_name("CESR"), 0x11);
    assert_int_equal(p5_msr_by_name("Cesr"), 0x11);
    assert_int_equal(p5_msr_by_name("CTR0"), 0x12);
    assert_int_equal(p5_msr_by_name("ctr1"), 0x13);
    assert_int_equal(p5_msr_by_name("MSR_CESR"), 0x11);
    assert_int_equal(p5_msr_by_name("msr_ctr0"), 0x12);
    assert_int_equal(p5_msr_by_name("CTR2"), 0);
    assert_int_equal(p5_msr_by_name("MSR_IQ_CCCR0"), 0);
    assert_int_equal(p5_msr_by_name(""), 0);
    assert_int_equal(p5_msr_by_name("MSR_"), 0);
}

static void test_backend(void **state)
{
    (void)state;
    struct msr_backend *b = p5_backend_create();
    assert_non_null(b);
    assert_string_equal(b->kind, "p5");
    struct p5_pmu *p = p5_backend_pmu(b);
    assert_non_null(p);
    assert_int_equal(msr_write(b, 0, P5_MSR_CESR, 0x00800083), MSR_OK);
    uint64_t v = 9;
    assert_int_equal(p5_pmu_rdmsr(p, P5_MSR_CESR, &v), MSR_OK);
    assert_int_equal(v, 0x00800083);
    assert_int_equal(msr_read(b, 0, P5_MSR_CESR, &v), MSR_OK);
    assert_int_equal(v, 0x00800083);
    assert_int_equal(msr_write(b, 0, P5_MSR_CESR, 1ull << 10), MSR_GP);
    assert_int_equal(msr_read(b, 0, 0x14, &v), MSR_GP);
    assert_int_equal(msr_read(b, 1, P5_MSR_CESR, &v), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), ENXIO);
    assert_non_null(strstr(msr_error_message(b), "CPU 1"));
    assert_null(strchr(msr_error_message(b), '\n'));
    assert_int_equal(msr_write(b, -1, P5_MSR_CESR, 0), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), ENXIO);
    assert_int_equal(p5_pmu_rdmsr(p, P5_MSR_CESR, &v), MSR_OK);
    assert_int_equal(v, 0x00800083);
    msr_backend_destroy(b);
}

/* The feed: what an occurrence reported now would count, rewritten by
 * every CESR write and CPL change. */
static void test_feed_follows_registers(void **state)
{
    (void)state;
    p5_pmu_init(&pmu);
    const struct p5_feed *feed = p5_pmu_feed(&pmu);
    wr(P5_MSR_CESR, CESR(0x03, 2, 0, 0x16, 1, 0)); /* 0x03 at CPL 3, 0x16 at CPL 0-2 */
    assert_int_equal(feed->counted, 1ull << 0x03);
    assert_true(p5_feed_counts(feed, P5_EV_DATA_READ_MISS));
    assert_false(p5_feed_counts(feed, P5_EV_INSTRUCTIONS_EXECUTED));
    assert_true(p5_pmu_set_cpl(&pmu, 1));
    assert_int_equal(feed->counted, 1ull << 0x16);
    assert_false(p5_pmu_set_cpl(&pmu, 7)); /* refused: nothing changes */
    assert_int_equal(feed->counted, 1ull << 0x16);
    wr(P5_MSR_CESR, CESR(0x03, 7, 0, 0x16, 4, 0)); /* clocks; CC 100 counts nothing */
    assert_int_equal(feed->counted, 0);
    wr(P5_MSR_CESR, CESR(0x3f, 3, 0, 0x3f, 1, 0)); /* an undefined code is still counted */
    assert_int_equal(feed->counted, 1ull << 0x3f);
    assert_true(p5_feed_counts(feed, 0x3f + 64)); /* codes are 6 bits */
    assert_ptr_equal(p5_pmu_feed(&pmu), feed);
}

/* An occurrence counts under the CESR in force when it is reported; a
 * clock under the CESR and CPL at the end of its cycle. */
static void test_occurrences_count_when_reported(void **state)
{
    (void)state;
    p5_pmu_init(&pmu);
    wr(P5_MSR_CESR, CESR(0x03, 3, 0, 0, 0, 0));
    p5_pmu_event(&pmu, 0x03, 2);
    p5_pmu_event(&pmu, 0x00, 5);                   /* not counted now */
    wr(P5_MSR_CESR, CESR(0x00, 3, 0, 0, 6, 0));    /* CTR1: clocks at CPL 3 */
    p5_pmu_event(&pmu, 0x00, 1);
    p5_pmu_tick(&pmu);
    assert_int_equal(rd(P5_MSR_CTR0), 3);
    assert_int_equal(rd(P5_MSR_CTR1), 1);
    p5_pmu_event(&pmu, 0x00, 4);                   /* at CPL 3 */
    assert_true(p5_pmu_set_cpl(&pmu, 0));
    p5_pmu_tick(&pmu);                             /* a CPL 0 clock */
    assert_int_equal(rd(P5_MSR_CTR0), 7);
    assert_int_equal(rd(P5_MSR_CTR1), 1);
    assert_int_equal(p5_pmu_last_increment(&pmu, 0), 4);
    /* a counter write keeps the cycle's occurrences, added at its end */
    p5_pmu_event(&pmu, 0x00, 2);
    wr(P5_MSR_CTR0, 100);
    p5_pmu_tick(&pmu);
    assert_int_equal(rd(P5_MSR_CTR0), 102);
}

/* p5_pmu_ticks(n, holding): the cycle's occurrences once, the duration
 * events of `holding` in every cycle, the other codes of `holding` never. */
static void test_duration_events_hold(void **state)
{
    (void)state;
    p5_pmu_init(&pmu);
    /* CTR0 counts 0x1a (a duration event), CTR1 0x16 (an occurrence event) */
    wr(P5_MSR_CESR, CESR(0x1a, 3, 0, 0x16, 3, 0));
    uint64_t holding = p5_code_bit(P5_EV_CLOCKS_STALLED_WAITING_DATA_READ) |
                       p5_code_bit(P5_EV_INSTRUCTIONS_EXECUTED);
    p5_pmu_event(&pmu, 0x1a, 2); /* the first cycle: 2 + 1 held */
    p5_pmu_event(&pmu, 0x16, 5);
    p5_pmu_ticks(&pmu, 10, holding);
    assert_int_equal(rd(P5_MSR_CTR0), 3 + 9);
    assert_int_equal(rd(P5_MSR_CTR1), 5);
    assert_int_equal(p5_pmu_last_increment(&pmu, 0), 1);
    assert_int_equal(p5_pmu_last_increment(&pmu, 1), 0);
    assert_int_equal(rd(P5_MSR_TSC), 10);
    p5_pmu_ticks(&pmu, 1, holding);
    assert_int_equal(p5_pmu_last_increment(&pmu, 0), 1);
    p5_pmu_ticks(&pmu, 0, holding); /* nothing */
    assert_int_equal(rd(P5_MSR_TSC), 11);
    assert_int_equal(rd(P5_MSR_CTR0), 13);
    /* a bench script's duration event counts in its own cycle only */
    p5_pmu_event(&pmu, 0x1a, 1);
    p5_pmu_tick(&pmu);
    p5_pmu_tick(&pmu);
    assert_int_equal(rd(P5_MSR_CTR0), 14);
}

/* ---- linked PMUs: one model feeding every run's PMU (p5_pmu_link) */

/* The feed of a PMU is what it and every PMU after it counts, rewritten by
 * any of their CESR writes and by the CPL reported to the first; a link is
 * refused for a PMU linked already. */
static void test_link_feeds(void **state)
{
    (void)state;
    struct p5_pmu a, b, c, d;
    p5_pmu_init(&a);
    p5_pmu_init(&b);
    p5_pmu_init(&c);
    p5_pmu_init(&d);
    assert_int_equal(p5_pmu_wrmsr(&a, P5_MSR_CESR, CESR(0x00, 3, 0, 0, 0, 0)), MSR_OK);
    assert_int_equal(p5_pmu_wrmsr(&b, P5_MSR_CESR, CESR(0x16, 2, 0, 0x01, 1, 0)), MSR_OK);
    assert_true(p5_pmu_link(&a, &b));
    assert_true(p5_pmu_link(&a, &c)); /* after b, the last */
    assert_ptr_equal(a.next, &b);
    assert_ptr_equal(b.next, &c);
    assert_ptr_equal(c.prev, &b);
    assert_int_equal(a.feed.counted, 1ull << 0x00 | 1ull << 0x16);
    assert_int_equal(p5_pmu_wrmsr(&c, P5_MSR_CESR, CESR(0, 0, 0, 0x03, 3, 0)), MSR_OK);
    assert_int_equal(a.feed.counted, 1ull << 0x00 | 1ull << 0x16 | 1ull << 0x03);
    assert_int_equal(b.feed.counted, 1ull << 0x16 | 1ull << 0x03);
    assert_int_equal(c.feed.counted, 1ull << 0x03);
    assert_true(p5_pmu_set_cpl(&a, 0)); /* every PMU of the chain at CPL 0 */
    assert_int_equal(b.cpl, 0);
    assert_int_equal(c.cpl, 0);
    assert_int_equal(a.feed.counted, 1ull << 0x00 | 1ull << 0x01 | 1ull << 0x03);
    assert_false(p5_pmu_link(&a, &a));
    assert_false(p5_pmu_link(&a, &b)); /* linked already */
    assert_false(p5_pmu_link(&d, &b));
    assert_false(p5_pmu_link(&d, &a)); /* the first of a chain is linked too */
    assert_true(p5_pmu_link(&b, &d));  /* after c, at the chain's CPL */
    assert_ptr_equal(c.next, &d);
    assert_int_equal(d.cpl, 0);
    p5_pmu_unlink(&b);
    assert_ptr_equal(a.next, &c);
    assert_ptr_equal(c.prev, &a);
    assert_null(b.next);
    assert_null(b.prev);
    assert_int_equal(a.feed.counted, 1ull << 0x00 | 1ull << 0x03);
    assert_int_equal(b.feed.counted, 1ull << 0x01);
    p5_pmu_unlink(&a);
    assert_null(c.prev);
    assert_int_equal(a.feed.counted, 1ull << 0x00);
    p5_pmu_unlink(&a); /* alone already: nothing changes */
    assert_int_equal(a.feed.counted, 1ull << 0x00);
}

/* A pseudo-random number from `state` (a 64-bit LCG, Knuth's MMIX
 * constants), its high bits. */
static uint32_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*state >> 33);
}

enum { LINKED = 3 };

static void assert_same_pmu(const struct p5_pmu *linked, const struct p5_pmu *alone)
{
    assert_int_equal(linked->tsc, alone->tsc);
    assert_int_equal(linked->cesr, alone->cesr);
    assert_int_equal(linked->ctr[0], alone->ctr[0]);
    assert_int_equal(linked->ctr[1], alone->ctr[1]);
    assert_int_equal(linked->cpl, alone->cpl);
    assert_int_equal(linked->cycles, alone->cycles);
    assert_int_equal(linked->last_increment[0], alone->last_increment[0]);
    assert_int_equal(linked->last_increment[1], alone->last_increment[1]);
    assert_int_equal(linked->occurred[0], alone->occurred[0]);
    assert_int_equal(linked->occurred[1], alone->occurred[1]);
}

/* Each linked PMU counts what it would count alone, fed the same
 * occurrences, cycles and CPLs, under its own CESR writes: a random
 * stream of reports (to the first) and register writes (to any). */
static void test_linked_count_as_alone(void **state)
{
    (void)state;
    struct p5_pmu linked[LINKED], alone[LINKED];
    for (int i = 0; i < LINKED; i++) {
        p5_pmu_init(&linked[i]);
        p5_pmu_init(&alone[i]);
        if (i)
            assert_true(p5_pmu_link(&linked[0], &linked[i]));
    }
    uint64_t seed = 15;
    for (int step = 0; step < 200000; step++) {
        uint32_t what = next_random(&seed) % 16, r = next_random(&seed);
        int i = (int)(r % LINKED);
        uint64_t cesr = (uint64_t)next_random(&seed) << 16 ^ next_random(&seed);
        if (what == 0) {
            assert_int_equal(p5_pmu_wrmsr(&linked[i], P5_MSR_CESR, cesr & 0x03ff03ffull),
                             MSR_OK);
            assert_int_equal(p5_pmu_wrmsr(&alone[i], P5_MSR_CESR, cesr & 0x03ff03ffull), MSR_OK);
        } else if (what == 1) {
            assert_true(p5_pmu_set_cpl(&linked[0], (int)(r % 4)));
            for (int k = 0; k < LINKED; k++)
                assert_true(p5_pmu_set_cpl(&alone[k], (int)(r % 4)));
        } else if (what < 9) {
            /* mostly an event some CESR selects, else any code */
            unsigned reported = what < 7 ? p5_cesr_event(linked[i].cesr, (int)(r >> 20 & 1))
                                         : r >> 8 & 0x3f;
            p5_pmu_event(&linked[0], reported, r >> 24 & 7);
            for (int k = 0; k < LINKED; k++)
                p5_pmu_event(&alone[k], reported, r >> 24 & 7);
        } else if (what < 15) {
            uint64_t n = r % 5, holding = (uint64_t)next_random(&seed) << 32 | next_random(&seed);
            p5_pmu_ticks(&linked[0], n, holding);
            for (int k = 0; k < LINKED; k++)
                p5_pmu_ticks(&alone[k], n, holding);
        } else {
            uint64_t n = p5_pmu_fast_forward(&linked[0], r % 7, r >> 16 & 1);
            for (int k = 0; k < LINKED; k++)
                p5_pmu_ticks(&alone[k], n, 0);
        }
        for (int k = 0; k < LINKED; k++)
            assert_same_pmu(&linked[k], &alone[k]);
        uint64_t union_ = 0;
        for (int k = LINKED - 1; k >= 0; k--) {
            union_ |= alone[k].feed.counted;
            assert_int_equal(linked[k].feed.counted, union_);
        }
    }
    uint64_t counted = 0;
    for (int k = 0; k < LINKED; k++)
        counted += alone[k].ctr[0] + alone[k].ctr[1];
    assert_true(counted > 100000); /* the stream did count */
}

/* Fast-forward waits for every linked PMU: none may have an occurrence
 * pending, and with `frozen` none may change. */
static void test_linked_fast_forward(void **state)
{
    (void)state;
    struct p5_pmu a, b;
    p5_pmu_init(&a);
    p5_pmu_init(&b);
    assert_true(p5_pmu_link(&a, &b));
    assert_int_equal(p5_pmu_wrmsr(&b, P5_MSR_CESR, CESR(0x16, 3, 0, 0, 0, 0)), MSR_OK);
    p5_pmu_event(&a, 0x16, 1); /* b counts it */
    assert_int_equal(p5_pmu_fast_forward(&a, 5, false), 0);
    p5_pmu_tick(&a);
    assert_int_equal(b.ctr[0], 1);
    assert_int_equal(p5_pmu_fast_forward(&a, 5, true), 0); /* b added 1 last */
    assert_int_equal(p5_pmu_fast_forward(&a, 5, false), 5);
    assert_int_equal(p5_pmu_fast_forward(&a, 5, true), 5);
    assert_int_equal(p5_pmu_wrmsr(&b, P5_MSR_CESR, CESR(0, 7, 0, 0, 0, 0)), MSR_OK); /* clocks */
    assert_int_equal(p5_pmu_fast_forward(&a, 5, true), 0);
    assert_int_equal(p5_pmu_fast_forward(&a, 5, false), 5);
    assert_int_equal(b.ctr[0], 6);
    assert_int_equal(a.cycles, 16);
    assert_int_equal(b.cycles, 16);
}

/* Destroying a backend takes its PMU out of the chain. */
static void test_destroy_unlinks(void **state)
{
    (void)state;
    struct msr_backend *first = p5_backend_create(), *middle = p5_backend_create(),
                       *last = p5_backend_create();
    assert_true(first && middle && last);
    assert_true(p5_pmu_link(p5_backend_pmu(first), p5_backend_pmu(middle)));
    assert_true(p5_pmu_link(p5_backend_pmu(first), p5_backend_pmu(last)));
    assert_int_equal(msr_write(middle, 0, P5_MSR_CESR, CESR(0x16, 3, 0, 0, 0, 0)), MSR_OK);
    assert_int_equal(msr_write(last, 0, P5_MSR_CESR, CESR(0x03, 3, 0, 0, 0, 0)), MSR_OK);
    const struct p5_feed *feed = p5_pmu_feed(p5_backend_pmu(first));
    assert_int_equal(feed->counted, 1ull << 0x16 | 1ull << 0x03);
    msr_backend_destroy(middle);
    assert_int_equal(feed->counted, 1ull << 0x03);
    p5_pmu_event(p5_backend_pmu(first), 0x03, 2);
    p5_pmu_tick(p5_backend_pmu(first));
    uint64_t v = 0;
    assert_int_equal(msr_read(last, 0, P5_MSR_CTR0, &v), MSR_OK);
    assert_int_equal(v, 2);
    msr_backend_destroy(first);
    assert_null(p5_backend_pmu(last)->prev);
    msr_backend_destroy(last);
}

/* ---- the event table */

static void test_events_table(void **state)
{
    (void)state;
    assert_int_equal(p5_num_events, 38);
    for (int i = 0; i < p5_num_events; i++) {
        assert_true(p5_events[i].code < 64);
        assert_non_null(p5_events[i].name);
        assert_non_null(p5_events[i].description);
        for (int j = i + 1; j < p5_num_events; j++) {
            assert_true(p5_events[i].code != p5_events[j].code);
            assert_true(strcasecmp(p5_events[i].name, p5_events[j].name) != 0);
        }
        assert_ptr_equal(p5_event_by_code(p5_events[i].code), &p5_events[i]);
        assert_ptr_equal(p5_event_by_name(p5_events[i].name), &p5_events[i]);
    }
    /* the defined codes: 0x00-0x0f, 0x12-0x1f, 0x22-0x29 */
    for (unsigned code = 0; code < 64; code++) {
        bool defined = code <= 0x0f || (code >= 0x12 && code <= 0x1f) ||
                       (code >= 0x22 && code <= 0x29);
        assert_int_equal(p5_event_by_code(code) != NULL, defined);
    }
    assert_null(p5_event_by_code(64));
    assert_null(p5_event_by_code(0x103)); /* no masking to 6 bits in the lookup */

    const struct p5_event *e = p5_event_by_name("data_read_miss");
    assert_non_null(e);
    assert_int_equal(e->code, 0x03);
    assert_false(e->duration);
    assert_ptr_equal(p5_event_by_name("DATA_READ_MISS"), e);
    assert_ptr_equal(p5_event_by_name("Data_Read_Miss"), e);
    assert_int_equal(p5_event_by_name("data_read")->code, 0x00);
    assert_int_equal(p5_event_by_name("data_write")->code, 0x01);
    assert_int_equal(p5_event_by_name("data_read_or_write")->code, 0x28);
    assert_int_equal(p5_event_by_name("data_read_or_write_miss")->code, 0x29);
    assert_int_equal(p5_event_by_name("instructions_executed")->code, 0x16);
    assert_int_equal(p5_event_by_name("flops")->code, 0x22);
    assert_int_equal(p5_event_by_name("hardware_interrupts")->code, 0x27);
    assert_true(p5_event_by_name("clocks_while_bus_cycle_in_progress")->duration);
    assert_int_equal(p5_event_by_name("clocks_while_bus_cycle_in_progress")->code, 0x18);
    assert_true(p5_event_by_code(0x1f)->duration);
    assert_false(p5_event_by_code(0x1c)->duration);
    assert_null(p5_event_by_name("data_read_mis"));
    assert_null(p5_event_by_name(""));
    assert_null(p5_event_by_name("0x03"));
    int durations = 0;
    for (int i = 0; i < p5_num_events; i++)
        durations += p5_events[i].duration;
    assert_int_equal(durations, 5); /* 0x18-0x1b and 0x1f */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset),
        cmocka_unit_test(test_cesr_fields),
        cmocka_unit_test(test_cesr_place_and_stop),
        cmocka_unit_test(test_cesr_reserved_bits),
        cmocka_unit_test(test_unknown_msrs),
        cmocka_unit_test(test_tsc),
        cmocka_unit_test(test_cc_modes),
        cmocka_unit_test(test_clock_mode_cpl_per_cycle),
        cmocka_unit_test(test_two_counters_different_events),
        cmocka_unit_test(test_counter_40_bits),
        cmocka_unit_test(test_set_cpl),
        cmocka_unit_test(test_msr_by_name),
        cmocka_unit_test(test_backend),
        cmocka_unit_test(test_feed_follows_registers),
        cmocka_unit_test(test_occurrences_count_when_reported),
        cmocka_unit_test(test_duration_events_hold),
        cmocka_unit_test(test_link_feeds),
        cmocka_unit_test(test_linked_count_as_alone),
        cmocka_unit_test(test_linked_fast_forward),
        cmocka_unit_test(test_destroy_unlinks),
        cmocka_unit_test(test_events_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
