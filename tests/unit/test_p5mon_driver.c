/* The measuring loop and the report of `pmubench p5mon` (apps/p5mon/driver.h,
 * report.h) with a stand-in for the timing model: a callback that feeds
 * known events to the simulated P5 PMU and calls the region hooks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu/emulated/p5_pmu.h"
#include "apps/p5mon/driver.h"
#include "apps/p5mon/print.h"

/* 100 cycles: data read (0x00) once a cycle, data write (0x01) twice every
 * odd cycle, plus `calls` extra data reads on the last cycle (so that the
 * repetitions differ).  Region 1 spans cycles 10-29; region 3 is entered
 * twice, 50-54 and 60-64; region 5 is only exited (at cycle 80). */
struct fake {
    int calls;
    bool end_without_begin;
    uint32_t far_region;   /* a region marker at cycle 90 when nonzero */
};

static void marker(const struct machine_hooks *hooks, int cycle, const struct fake *fake)
{
    if (!hooks)
        return;
    if (cycle == 10 || cycle == 50 || cycle == 60)
        hooks->region(hooks->context, 0, true, cycle == 10 ? 1 : 3);
    if (cycle == 30 || cycle == 55 || cycle == 65)
        hooks->region(hooks->context, 0, false, cycle == 30 ? 1 : 3);
    if (cycle == 80 && fake->end_without_begin)
        hooks->region(hooks->context, 0, false, 5);
    if (cycle == 90 && fake->far_region)
        hooks->region(hooks->context, 0, true, fake->far_region);
}

static bool fake_simulate(void *context, struct machine *machine,
                          const struct machine_hooks *hooks, char *error, size_t error_size)
{
    struct fake *fake = context;
    if (fake->calls < 0) {
        snprintf(error, error_size, "byte offset 7: bad record");
        return false;
    }
    struct p5_pmu *pmu = p5_backend_pmu(machine->backend);
    for (int cycle = 0; cycle < 100; cycle++) {
        marker(hooks, cycle, fake);
        p5_pmu_event(pmu, 0x00, 1);
        if (cycle % 2)
            p5_pmu_event(pmu, 0x01, 2);
        if (cycle == 99)
            p5_pmu_event(pmu, 0x00, (uint32_t)(fake->calls % 3));
        p5_pmu_tick(pmu);
    }
    fake->calls++;
    return true;
}

static struct p5mon_parms *parms;
static struct machine_config model; /* the P5 model's preset "p5" */
static struct p5mon_results results;
static struct fake fake;
static char error[1024];

static int setup(void **state)
{
    (void)state;
    parms = malloc(sizeof *parms);
    if (!machine_config_p5("p5", &model, error, sizeof error))
        fail_msg("%s", error);
    p5mon_parms_defaults(parms);
    parms->events[0x00] = true;
    parms->events[0x01] = true;
    parms->count_clocks = true;
    parms->repetitions = 3;
    memset(&fake, 0, sizeof fake);
    memset(&results, 0, sizeof results);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    p5mon_results_free(&results);
    free(parms);
    return 0;
}

static void measure(void)
{
    if (!p5mon_measure(parms, &model, fake_simulate, &fake, stderr, &results, error, sizeof error))
        fail_msg("%s", error);
}

/* The report as text. */
static char *report(void)
{
    static char text[16384];
    FILE *out = fmemopen(text, sizeof text, "w");
    p5mon_print_results(out, &results);
    fclose(out);
    return text;
}

static char *output_file(void)
{
    static char text[16384];
    char path[] = "/tmp/test_p5mon_driver_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    if (!p5mon_write_output(path, &results, error, sizeof error))
        fail_msg("%s", error);
    FILE *in = fopen(path, "r");
    size_t n = fread(text, 1, sizeof text - 1, in);
    text[n] = '\0';
    fclose(in);
    unlink(path);
    return text;
}

static void pairs_and_repetitions(void **state)
{
    (void)state;
    measure();
    /* Two pairs (data read + data write, clocks alone), three repetitions. */
    assert_int_equal(results.executions, 6);
    assert_int_equal(fake.calls, 6);
    assert_int_equal(results.n_events, 3);
    const uint64_t *v = results.slots[0].values;
    /* The pairs run read/write first, so read sees calls 0, 2, 4. */
    assert_int_equal(v[0], 100);
    assert_int_equal(v[1], 102);
    assert_int_equal(v[2], 101);
    for (int rep = 0; rep < 3; rep++) {
        assert_int_equal(v[3 + rep], 100);
        assert_int_equal(v[6 + rep], 100);
    }
    assert_string_equal(report(),
                        "\n"
                        "Results (for 3 repetitions with a 95% confidence level):\n"
                        "  Data Read: 101.0 +/- 1.5 (1.485%)\n"
                        "  Data Write: 100.0 +/- 0.0 (0.000%)\n"
                        "  Clock cycles: 100.0 +/- 0.0 (0.000%)\n");
    assert_string_equal(output_file(),
                        "# run_p5mon results file\n"
                        "# Results (3 repetitions, 95% confidence level):\n"
                        "# Event Repetition Value [conf.int] [percentage]\n"
                        "0x0 -1\t101.0 1.5 1.485\n"
                        "0x1 -1\t100.0 0.0 0.000\n"
                        "clocks -1\t100.0 0.0 0.000\n");
}

static void all_results(void **state)
{
    (void)state;
    parms->output_all_results = true;
    parms->confidence_99 = true;
    parms->count_clocks = false;
    parms->repetitions = 2;
    measure();
    assert_string_equal(report(),
                        "\n"
                        "Results (for 2 repetitions with a 99% confidence level):\n"
                        "  Event: Data Read\n"
                        "    rep 0:\t100\n"
                        "    rep 1:\t101\n"
                        "    -----\n"
                        "  Average:\t100.5 +/- 3.5 (3.492%)\n"
                        "  Event: Data Write\n"
                        "    rep 0:\t100\n"
                        "    rep 1:\t100\n"
                        "    -----\n"
                        "  Average:\t100.0 +/- 0.0 (0.000%)\n");
    assert_string_equal(output_file(),
                        "# run_p5mon results file\n"
                        "# Results (2 repetitions, 99% confidence level):\n"
                        "# Event Repetition Value [conf.int] [percentage]\n"
                        "0x0 0\t100\n"
                        "0x0 1\t101\n"
                        "0x0 -1\t100.5 3.5 3.492\n"
                        "0x1 0\t100\n"
                        "0x1 1\t100\n"
                        "0x1 -1\t100.0 0.0 0.000\n");
}

static void regions(void **state)
{
    (void)state;
    parms->use_assembly_regions = true;
    parms->repetitions = 1;
    parms->events[0x01] = false;
    fake.end_without_begin = true;
    measure();
    assert_int_equal(p5mon_regions_seen(&results), 3);
    /* Region 5 ends without a begin: the stub's start sample is 0, so it
     * counts from the start of the execution, as run_p5mon's would. */
    assert_string_equal(report(),
                        "\n"
                        "Results (for 3 regions, 1 repetitions, 95% confidence level):\n"
                        "  Region 1, entered 1 times and exited 1 times:\n"
                        "    Data Read: 20.0 +/- 0.0 (0.000%) [20.0]\n"
                        "    Clock cycles: 20.0 +/- 0.0 (0.000%) [20.0]\n"
                        "  Region 3, entered 2 times and exited 2 times:\n"
                        "    Data Read: 10.0 +/- 0.0 (0.000%) [5.0]\n"
                        "    Clock cycles: 10.0 +/- 0.0 (0.000%) [5.0]\n"
                        "  Region 5, entered 0 times and exited 1 times:\n"
                        "    Data Read: 80.0 +/- 0.0 (0.000%) [NaN]\n"
                        "    Clock cycles: 80.0 +/- 0.0 (0.000%) [NaN]\n");
    assert_string_equal(output_file(),
                        "# run_p5mon results file\n"
                        "# Results (for 3 regions, 1 repetitions, 95% confidence level):\n"
                        "# Region Event Repetition Value [conf.int] [percentage]\n"
                        "# Region 1: entered 1 exited 1\n"
                        "1 0x0 -1\t20.0 0.0 0.000 20.0\n"
                        "1 clocks -1\t20.0 0.0 0.000 20.0\n"
                        "# Region 3: entered 2 exited 2\n"
                        "3 0x0 -1\t10.0 0.0 0.000 5.0\n"
                        "3 clocks -1\t10.0 0.0 0.000 5.0\n"
                        "# Region 5: entered 0 exited 1\n"
                        "5 0x0 -1\t80.0 0.0 0.000 NaN\n"
                        "5 clocks -1\t80.0 0.0 0.000 NaN\n");
}

static void regions_all_results(void **state)
{
    (void)state;
    parms->use_assembly_regions = true;
    parms->output_all_results = true;
    parms->repetitions = 2;
    parms->events[0x00] = false;
    parms->count_clocks = false;
    parms->max_regions = 4;
    measure();
    assert_string_equal(report(),
                        "\n"
                        "Results (for 2 regions, 2 repetitions, 95% confidence level):\n"
                        "\n"
                        "  Region 1, entered 1 times and exited 1 times:\n"
                        "\n"
                        "    Event: Data Write\n"
                        "      rep 0:\t20\n"
                        "      rep 1:\t20\n"
                        "      -----\n"
                        "    Average:\t20.0 +/- 0.0 (0.000%)\n"
                        "\t\t20.0 per time region entered\n"
                        "\n"
                        "  Region 3, entered 2 times and exited 2 times:\n"
                        "\n"
                        "    Event: Data Write\n"
                        "      rep 0:\t8\n"
                        "      rep 1:\t8\n"
                        "      -----\n"
                        "    Average:\t8.0 +/- 0.0 (0.000%)\n"
                        "\t\t4.0 per time region entered\n"
                        "\n");
    assert_string_equal(output_file(),
                        "# run_p5mon results file\n"
                        "# Results (for 2 regions, 2 repetitions, 95% confidence level):\n"
                        "# Region Event Repetition Value [conf.int] [percentage]\n"
                        "# Region 1: entered 1 exited 1\n"
                        "1 0x1 0\t20\n"
                        "1 0x1 1\t20\n"
                        "1 0x1 -1\t20.0 0.0 0.000 20.0\n"
                        "# Region 3: entered 2 exited 2\n"
                        "3 0x1 0\t8\n"
                        "3 0x1 1\t8\n"
                        "3 0x1 -1\t8.0 0.0 0.000 4.0\n");
}

static void region_beyond_max_regions(void **state)
{
    (void)state;
    parms->use_assembly_regions = true;
    parms->max_regions = 3;
    assert_false(p5mon_measure(parms, &model, fake_simulate, &fake, stderr, &results, error,
                               sizeof error));
    assert_string_equal(error, "region 3: expected a region number below max_regions (3)");
    parms->max_regions = 100;
    fake.far_region = 100;
    assert_false(p5mon_measure(parms, &model, fake_simulate, &fake, stderr, &results, error,
                               sizeof error));
    assert_string_equal(error, "region 100: expected a region number below max_regions (100)");
}

static void regions_ignored_without_use_assembly_regions(void **state)
{
    (void)state;
    fake.far_region = 1000;
    measure();
    assert_int_equal(results.slots[0].values[0], 100);
}

static void kernel_only_counts_nothing(void **state)
{
    (void)state;
    parms->user_events = false;
    parms->kernel_events = true;
    parms->repetitions = 1;
    measure();
    assert_string_equal(report(),
                        "\n"
                        "Results (for 1 repetitions with a 95% confidence level):\n"
                        "  Data Read: 0.0 +/- 0.0 (NaN%)\n"
                        "  Data Write: 0.0 +/- 0.0 (NaN%)\n"
                        "  Clock cycles: 0.0 +/- 0.0 (NaN%)\n");
}

static void simulation_failure(void **state)
{
    (void)state;
    fake.calls = -1;
    assert_false(p5mon_measure(parms, &model, fake_simulate, &fake, stderr, &results, error,
                               sizeof error));
    assert_string_equal(error, "byte offset 7: bad record");
}

static void verbose_messages(void **state)
{
    (void)state;
    char text[1024] = "";
    FILE *out = fmemopen(text, sizeof text, "w");
    parms->verbose_level = 2;
    parms->repetitions = 2;
    if (!p5mon_measure(parms, &model, fake_simulate, &fake, out, &results, error, sizeof error))
        fail_msg("%s", error);
    fclose(out);
    assert_string_equal(text, "run_p5mon: repetition 1 of 2\n"
                              "run_p5mon: execution 1: data_read data_write\n"
                              "run_p5mon: execution 2: count_clocks\n"
                              "run_p5mon: repetition 2 of 2\n"
                              "run_p5mon: execution 3: data_read data_write\n"
                              "run_p5mon: execution 4: count_clocks\n");
}

static void unwritable_output_file(void **state)
{
    (void)state;
    measure();
    assert_false(p5mon_write_output("/nonexistent/dir/out", &results, error, sizeof error));
    assert_string_equal(error, "/nonexistent/dir/out: cannot create: No such file or directory");
}

static void header(void **state)
{
    (void)state;
    char text[1024];
    FILE *out = fmemopen(text, sizeof text, "w");
    struct p5mon_header h = {"Thu Jan 30 16:02:20 1997", "/home/fixed/safford/p5mon",
                             "./STD_PARMS", "", "hello", "hello.trace"};
    p5mon_print_header(out, &h);
    h.arguments = "-Fcommand=hello_unopti";
    p5mon_print_header(out, &h);
    p5mon_print_timing(out, 1.25, 5);
    fclose(out);
    assert_string_equal(text, "run_p5mon started at Thu Jan 30 16:02:20 1997\n"
                              "current directory: /home/fixed/safford/p5mon\n"
                              "parameter file: ./STD_PARMS\n"
                              "arguments:\n"
                              "command: hello\n"
                              "trace: hello.trace\n"
                              "run_p5mon started at Thu Jan 30 16:02:20 1997\n"
                              "current directory: /home/fixed/safford/p5mon\n"
                              "parameter file: ./STD_PARMS\n"
                              "arguments: -Fcommand=hello_unopti\n"
                              "command: hello\n"
                              "trace: hello.trace\n"
                              "\n"
                              "Total elapsed time: 1.2 seconds\n"
                              "(program executed 5 times, with an average execution time of 0.2s)\n");
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(pairs_and_repetitions),
        T(all_results),
        T(regions),
        T(regions_all_results),
        T(region_beyond_max_regions),
        T(regions_ignored_without_use_assembly_regions),
        T(kernel_only_counts_nothing),
        T(simulation_failure),
        T(verbose_messages),
        T(unwritable_output_file),
        T(header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
