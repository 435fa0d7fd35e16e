/* Counting one region of a trace (apps/stat/region_gate.h), the gate stat
 * and sample share: which markers start and stop the counters, the
 * entries, the whole trace, a failing start or stop, and several runs
 * gated together, over a backend that logs the programming library's
 * writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pmu/catalog/netburst_fields.h"
#include "pmu/catalog/netburst_msrs.h"
#include "apps/stat/region_gate.h"

/* A backend that logs the writes it takes, or refuses them all. */
struct logging_backend {
    struct msr_backend base;
    int writes;
    uint32_t msr;
    uint64_t value;
    bool refuse;
};

static msr_status log_write(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t value)
{
    struct logging_backend *log = (struct logging_backend *)backend;
    assert_int_equal(cpu, 0);
    if (log->refuse)
        return MSR_GP;
    log->writes++;
    log->msr = msr;
    log->value = value;
    return MSR_OK;
}

static msr_status log_read(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t *value)
{
    (void)backend, (void)cpu, (void)msr;
    *value = 0;
    return MSR_OK;
}

static void log_destroy(struct msr_backend *backend)
{
    (void)backend;
}

static const struct msr_backend_ops log_ops = {log_read, log_write, log_destroy};

#define CCCR12 (NB_CCCR_BASE + 12)
#define RUNNING (CCCR_ENABLE | 0x3b000ull) /* the run's CCCR, with ENABLE */

/* One NetBurst assignment on counter 12, and its program. */
struct fixture {
    struct logging_backend log;
    struct alloc_run run;
    struct program program;
    struct region_gate gate;
};

static void set_up(struct fixture *f)
{
    *f = (struct fixture){.log = {.base = {.ops = &log_ops, .kind = "log"}},
                          .run = {.pmu = PMU_NETBURST, .n = 1}};
    f->run.assignments[0] = (struct alloc_assignment){.counter = 12, .cccr_value = RUNNING};
    program_init(&f->program, &f->log.base, 0, &f->run);
}

/* The last write: CCCR 12 with ENABLE as `running` says. */
static void assert_cccr(const struct fixture *f, int writes, bool running)
{
    assert_int_equal(f->log.writes, writes);
    assert_int_equal(f->log.msr, CCCR12);
    assert_int_equal(f->log.value, running ? RUNNING : RUNNING & ~CCCR_ENABLE);
}

/* The whole trace: started at once, and no marker changes anything. */
static void test_whole_trace(void **state)
{
    (void)state;
    struct fixture f;
    set_up(&f);
    assert_int_equal(region_gate_start(&f.gate, &f.program, REGION_WHOLE_TRACE), MSR_OK);
    assert_true(f.gate.counting);
    assert_cccr(&f, 1, true);
    region_gate_marker(&f.gate, true, 0);
    region_gate_marker(&f.gate, false, 0);
    region_gate_marker(&f.gate, false, 4294967295u);
    assert_int_equal(f.log.writes, 1);
    assert_true(f.gate.counting);
    assert_int_equal(f.gate.entries, 0);
    assert_int_equal(f.gate.status, MSR_OK);
}

/* Region 3: nothing before its begin; started at each begin, stopped at
 * each end; other regions' markers, nested or not, change nothing. */
static void test_region(void **state)
{
    (void)state;
    struct fixture f;
    set_up(&f);
    assert_int_equal(region_gate_start(&f.gate, &f.program, 3), MSR_OK);
    assert_false(f.gate.counting);
    assert_int_equal(f.log.writes, 0);
    region_gate_marker(&f.gate, true, 2);
    assert_int_equal(f.log.writes, 0);
    region_gate_marker(&f.gate, true, 3);
    assert_cccr(&f, 1, true);
    assert_true(f.gate.counting);
    assert_int_equal(f.gate.entries, 1);
    region_gate_marker(&f.gate, true, 7);
    region_gate_marker(&f.gate, false, 7);
    assert_int_equal(f.log.writes, 1);
    region_gate_marker(&f.gate, false, 3);
    assert_cccr(&f, 2, false);
    assert_false(f.gate.counting);
    region_gate_marker(&f.gate, false, 2);
    region_gate_marker(&f.gate, true, 3);
    assert_cccr(&f, 3, true);
    assert_int_equal(f.gate.entries, 2);
    assert_int_equal(f.gate.status, MSR_OK);
}

/* The largest region number is a region like any other. */
static void test_largest_region(void **state)
{
    (void)state;
    struct fixture f;
    set_up(&f);
    assert_int_equal(region_gate_start(&f.gate, &f.program, 4294967295l), MSR_OK);
    region_gate_marker(&f.gate, true, 4294967295u);
    assert_cccr(&f, 1, true);
    assert_int_equal(f.gate.entries, 1);
}

/* A start the backend refuses: the status, the MSR, the counters not
 * counting, and no later marker writes anything. */
static void test_refused(void **state)
{
    (void)state;
    struct fixture f;
    set_up(&f);
    assert_int_equal(region_gate_start(&f.gate, &f.program, 3), MSR_OK);
    f.log.refuse = true;
    region_gate_marker(&f.gate, true, 3);
    assert_int_equal(f.gate.status, MSR_GP);
    assert_int_equal(f.program.failed_msr, CCCR12);
    assert_false(f.gate.counting);
    f.log.refuse = false;
    region_gate_marker(&f.gate, false, 3);
    region_gate_marker(&f.gate, true, 3);
    assert_int_equal(f.log.writes, 0);
    assert_int_equal(f.gate.entries, 1);
    assert_int_equal(f.gate.status, MSR_GP);
    assert_false(f.gate.counting);

    /* The whole trace: the refused start in the gate's status too. */
    set_up(&f);
    f.log.refuse = true;
    assert_int_equal(region_gate_start(&f.gate, &f.program, REGION_WHOLE_TRACE), MSR_GP);
    assert_int_equal(f.gate.status, MSR_GP);
    assert_false(f.gate.counting);
    f.log.refuse = false;
    region_gate_marker(&f.gate, true, 0);
    assert_int_equal(f.log.writes, 0);
}

/* A stop the backend refuses: the counters still run. */
static void test_stop_refused(void **state)
{
    (void)state;
    struct fixture f;
    set_up(&f);
    assert_int_equal(region_gate_start(&f.gate, &f.program, 3), MSR_OK);
    region_gate_marker(&f.gate, true, 3);
    assert_true(f.gate.counting);
    f.log.refuse = true;
    region_gate_marker(&f.gate, false, 3);
    assert_int_equal(f.gate.status, MSR_GP);
    assert_true(f.gate.counting);
    assert_cccr(&f, 1, true);
}

/* The machine's hook: the marker, whichever logical processor. */
static void test_hooks(void **state)
{
    (void)state;
    struct fixture f;
    set_up(&f);
    assert_int_equal(region_gate_start(&f.gate, &f.program, 3), MSR_OK);
    region_gate_hook(&f.gate, 0, true, 3);
    assert_cccr(&f, 1, true);
    region_gate_hook(&f.gate, 1, false, 3);
    assert_cccr(&f, 2, false);
    region_gate_hook(&f.gate, 0, true, 3);
    assert_cccr(&f, 3, true);
    region_gate_hook(&f.gate, 1, false, 2);
    assert_int_equal(f.log.writes, 3);
    assert_int_equal(f.gate.entries, 2);
}

/* Several runs counted in one pass: every program started at each begin
 * and stopped at each end, in order; the first refusal stops the walk,
 * names its program, and nothing is written after it. */
static void test_several_runs(void **state)
{
    (void)state;
    struct fixture f[3];
    struct program programs[3];
    for (int i = 0; i < 3; i++) {
        set_up(&f[i]);
        programs[i] = f[i].program;
    }
    struct region_gate gate;
    assert_int_equal(region_gate_start_runs(&gate, programs, 3, 3), MSR_OK);
    region_gate_marker(&gate, true, 3);
    for (int i = 0; i < 3; i++)
        assert_cccr(&f[i], 1, true);
    assert_true(gate.counting);
    region_gate_marker(&gate, false, 3);
    for (int i = 0; i < 3; i++)
        assert_cccr(&f[i], 2, false);
    assert_false(gate.counting);
    f[1].log.refuse = true;
    region_gate_marker(&gate, true, 3);
    assert_int_equal(gate.status, MSR_GP);
    assert_ptr_equal(gate.failed, &programs[1]);
    assert_int_equal(programs[1].failed_msr, CCCR12);
    assert_false(gate.counting);
    assert_cccr(&f[0], 3, true);
    assert_int_equal(f[2].log.writes, 2);
    f[1].log.refuse = false;
    region_gate_marker(&gate, false, 3);
    assert_int_equal(f[0].log.writes + f[1].log.writes + f[2].log.writes, 3 + 2 + 2);

    /* The whole trace: all started at once. */
    for (int i = 0; i < 3; i++) {
        set_up(&f[i]);
        programs[i] = f[i].program;
    }
    assert_int_equal(region_gate_start_runs(&gate, programs, 3, REGION_WHOLE_TRACE), MSR_OK);
    assert_true(gate.counting);
    for (int i = 0; i < 3; i++)
        assert_cccr(&f[i], 1, true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_trace),
        cmocka_unit_test(test_region),
        cmocka_unit_test(test_largest_region),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_stop_refused),
        cmocka_unit_test(test_hooks),
        cmocka_unit_test(test_several_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
