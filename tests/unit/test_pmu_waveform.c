/* The waveform of an emulated PMU as a model runs (pmu/waveform/pmu_signals.h,
 * `emulate --vcd`): observing the PMU changes no count (the NetBurst's
 * observed cycles report every counter instead of batching the plain ones;
 * the P5's batch reports each run of cycles as it comes), the observer is
 * told of every cycle, and the dump ends at the PMU's last cycle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model_trace.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/emulated/p5_pmu.h"
#include "pmu/waveform/pmu_signals.h"
#include "sim/machine/machine.h"
#include "tests/unit/unit_helpers.h"

/* Register values written before the run: MSR, value. */
struct msr_write_spec {
    uint32_t msr;
    uint64_t value;
};

/* The NetBurst's: instr_retired (NBOGUSNTAG|NBOGUSTAG, T0_USR) on
 * IQ_COUNTER0, plain; branch_retired taken (MMTP|MMTM, T0_USR, CRU_ESCR3)
 * on IQ_COUNTER2 with COMPARE and THRESHOLD 2, on IQ_COUNTER3 plain and on
 * IQ_COUNTER5 with COMPARE and EDGE (ESCR select 5 each). */
static const struct msr_write_spec netburst_setup[] = {
    {0x3b8, 0x4000604}, {0x36c, 0x39000}, {0x3cd, 0xc001804},
    {0x36e, 0x27b000},  {0x36f, 0x23b000}, {0x371, 0x3b000 | 1u << 18 | 1u << 24},
};
static const uint32_t netburst_counters[] = {0x30c, 0x30e, 0x30f, 0x311};

/* The P5's CESR: instructions executed (0x16) on CTR0 and those in the V
 * pipe (0x17) on CTR1, both at every CPL (CC 3). */
static const struct msr_write_spec p5_setup[] = {{0x11, 0xd700d6}};
static const uint32_t p5_counters[] = {0x12, 0x13};

struct observed_run {
    struct machine_result result;
    uint64_t counts[4];
    uint64_t end;       /* the dump's end: the PMU's cycles */
};

static struct observed_run run(const char *model, const char *path,
                               const struct msr_write_spec *setup, int n_setup,
                               const uint32_t *counters, int n_counters, bool observed)
{
    struct machine_config config = unit_machine(model);
    struct machine machine;
    assert_true(machine_create(&machine, &config, 1));
    for (int i = 0; i < n_setup; i++)
        assert_int_equal(msr_write(machine.backend, 0, setup[i].msr, setup[i].value), MSR_OK);
    char error[256];
    struct vcd *vcd = NULL;
    struct pmu_waveform waveform;
    if (observed) {
        vcd = vcd_create("/dev/null", NULL, error, sizeof error);
        assert_non_null(vcd);
        assert_true(pmu_waveform_attach(&waveform, machine.backend, vcd));
        vcd_begin(vcd);
    }
    struct observed_run r = {0};
    const char *traces[] = {path};
    if (!machine_simulate(&machine, traces, NULL, &r.result, error, sizeof error))
        fail_msg("%s", error);
    if (observed) {
        r.end = pmu_waveform_detach(&waveform);
        assert_true(vcd_close(vcd, r.end, error, sizeof error));
    }
    for (int i = 0; i < n_counters; i++)
        assert_int_equal(msr_read(machine.backend, 0, counters[i], &r.counts[i]), MSR_OK);
    machine_destroy(&machine);
    return r;
}

/* The loop's run observed and not: the same; the run not observed. */
static struct observed_run expect_same(const char *model, const struct msr_write_spec *setup,
                                       int n_setup, const uint32_t *counters, int n_counters)
{
    struct tb t;
    tb_open(&t);
    tb_loop(&t, 3000);
    tb_close(&t);
    struct observed_run plain = run(model, t.path, setup, n_setup, counters, n_counters, false);
    struct observed_run seen = run(model, t.path, setup, n_setup, counters, n_counters, true);
    unlink(t.path);
    assert_int_equal(seen.result.cycles, plain.result.cycles);
    assert_int_equal(seen.result.instructions[0], 9000);
    assert_int_equal(seen.result.instructions[0], plain.result.instructions[0]);
    for (int i = 0; i < n_counters; i++)
        assert_int_equal(seen.counts[i], plain.counts[i]);
    assert_int_equal(plain.counts[0], 9000); /* instructions (NetBurst), executed (P5) */
    assert_true(seen.end >= plain.result.cycles);
    return plain;
}

static void test_netburst_counts_unchanged(void **state)
{
    (void)state;
    struct observed_run r = expect_same(
        "netburst", netburst_setup, sizeof netburst_setup / sizeof netburst_setup[0],
        netburst_counters, 4);
    assert_int_equal(r.counts[2], 2999); /* every jnz but the last taken */
}

static void test_p5_counts_unchanged(void **state)
{
    (void)state;
    expect_same("p5", p5_setup, 1, p5_counters, 2);
}

/* An observer sees every cycle, in order. */
struct seen {
    uint64_t calls, last;
    bool in_order;
};

static void note_netburst(void *context, const struct nb_pmu *pmu)
{
    struct seen *s = context;
    s->in_order = s->in_order && nb_pmu_cycles(pmu) == s->last + 1;
    s->last = nb_pmu_cycles(pmu);
    s->calls++;
}

static void note_p5(void *context, const struct p5_pmu *pmu)
{
    struct seen *s = context;
    s->in_order = s->in_order && p5_pmu_cycles(pmu) == s->last + 1;
    s->last = p5_pmu_cycles(pmu);
    s->calls++;
}

static void test_every_cycle(void **state)
{
    (void)state;
    struct msr_backend *nb = nb_backend_create((struct nb_pmu_config){0});
    struct msr_backend *p5 = p5_backend_create();
    assert_non_null(nb);
    assert_non_null(p5);
    struct seen a = {0, 0, true}, b = {0, 0, true};
    nb_pmu_observe(nb_backend_pmu(nb), note_netburst, &a);
    p5_pmu_observe(p5_backend_pmu(p5), note_p5, &b);
    for (int i = 0; i < 5; i++)
        nb_pmu_tick(nb_backend_pmu(nb));
    assert_int_equal(nb_pmu_fast_forward(nb_backend_pmu(nb), 100, false), 0);
    p5_pmu_ticks(p5_backend_pmu(p5), 7, 0);
    p5_pmu_tick(p5_backend_pmu(p5));
    assert_int_equal(a.calls, 5);
    assert_true(a.in_order);
    assert_int_equal(b.calls, 8);
    assert_true(b.in_order);
    msr_backend_destroy(nb);
    msr_backend_destroy(p5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_netburst_counts_unchanged),
        cmocka_unit_test(test_p5_counts_unchanged),
        cmocka_unit_test(test_every_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
