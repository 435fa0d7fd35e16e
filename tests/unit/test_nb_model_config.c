/* The NetBurst model's presets and parameters (sim/netburst/nbm_config.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pmu/emulated/netburst_pmu.h"
#include "sim/netburst/nbm_model.h"

static struct nbm_config preset(const char *name)
{
    struct nbm_config config;
    char error[256];
    if (!nbm_config_preset(name, &config, error, sizeof error))
        fail_msg("%s", error);
    assert_true(nbm_config_check(&config, error, sizeof error));
    return config;
}

static void test_presets(void **state)
{
    (void)state;
    struct nbm_config w = preset("willamette"), w0 = preset("willamette0");
    struct nbm_config n = preset("northwood"), p = preset("prescott"), p4 = preset("prescott4");
    assert_int_equal(w.model, 1);
    assert_int_equal(w0.model, 0);
    assert_int_equal(n.model, 2);
    assert_int_equal(p.model, 3);
    assert_int_equal(p4.model, 4);
    assert_int_equal(w.l2_size, 256 * 1024);
    assert_int_equal(n.l2_size, 512 * 1024);
    assert_int_equal(p.l2_size, 1024 * 1024);
    assert_int_equal(n.l1d_size, 8192);
    assert_int_equal(n.l1d_ways, 4);
    assert_int_equal(n.l1d_latency, 2);
    assert_int_equal(p.l1d_size, 16384);
    assert_int_equal(p.l1d_ways, 8);
    assert_int_equal(n.tc_uops, 12288);
    assert_int_equal(n.tc_ways, 8);
    assert_int_equal(n.itlb_entries, 128);
    assert_int_equal(n.btb_entries, 4096);
    assert_int_equal(n.ras_entries, 16);
    assert_int_equal(n.rob, 126);
    assert_int_equal(n.load_buffers, 48);
    assert_int_equal(n.store_buffers, 24);
    assert_int_equal(p.store_buffers, 32);
    assert_int_equal(w.l1d_load_misses, 4);
    assert_int_equal(n.l1d_load_misses, 4);
    assert_int_equal(p.l1d_load_misses, 8);
    assert_int_equal(p4.l1d_load_misses, 8);
    assert_int_equal(n.dtlb_entries, 64);
    assert_string_equal(w0.name, "willamette");
    assert_string_equal(p4.name, "prescott");
    for (int model = 0; model <= 6; model++)
        if (model != 5)
            assert_true(nb_cpuid_model_supported(model));
}

static void test_netburst_alias(void **state)
{
    (void)state;
    struct nbm_config a = preset("netburst"), n = preset("NorthWood");
    assert_memory_equal(&a, &n, sizeof a);
    assert_string_equal(a.name, "northwood");
}

/* The bus clock the local APIC runs on: core clocks per bus clock of the
 * parts the presets stand for (docs/netburst-model.md, "Parameters"). */
static void test_bus_ratio_by_preset(void **state)
{
    (void)state;
    assert_int_equal(preset("willamette0").bus_ratio, 15);
    assert_int_equal(preset("willamette").bus_ratio, 15);
    assert_int_equal(preset("northwood").bus_ratio, 18);
    assert_int_equal(preset("prescott").bus_ratio, 16);
    assert_int_equal(preset("prescott4").bus_ratio, 16);
    assert_int_equal(preset("northwood").pmi_latency, 18);
}

static void test_unknown_preset(void **state)
{
    (void)state;
    struct nbm_config config;
    char error[256];
    assert_false(nbm_config_preset("p5", &config, error, sizeof error));
    assert_string_equal(error, "unknown NetBurst preset 'p5' (willamette, willamette0, northwood, "
                               "netburst, prescott, prescott4)");
}

static void expect_set_error(const char *name, const char *value, const char *message)
{
    struct nbm_config config = preset("northwood"), before = config;
    char error[256];
    assert_false(nbm_config_set(&config, name, value, error, sizeof error));
    assert_string_equal(error, message);
    assert_memory_equal(&config, &before, sizeof config);
}

static void test_set(void **state)
{
    (void)state;
    struct nbm_config config = preset("northwood");
    char error[256];
    assert_true(nbm_config_set(&config, "l2_size", "1048576", error, sizeof error));
    assert_int_equal(config.l2_size, 1048576);
    assert_true(nbm_config_set(&config, "memory_latency", "0", error, sizeof error));
    assert_int_equal(config.memory_latency, 0);
    assert_true(nbm_config_set(&config, "model", "6", error, sizeof error));
    assert_int_equal(config.model, 6);
    assert_true(nbm_config_set(&config, "btb_entries", "0x800", error, sizeof error));
    assert_int_equal(config.btb_entries, 2048);
}

static void test_set_errors(void **state)
{
    (void)state;
    expect_set_error("l3_size", "1", "unknown parameter 'l3_size' (did you mean 'l2_size'?)");
    expect_set_error("l3_cache_size", "1",
                     "unknown parameter 'l3_cache_size' (docs/netburst-model.md lists them)");
    /* instruction latencies come from the timing table, not parameters */
    expect_set_error("fp_add_latency", "5",
                     "unknown parameter 'fp_add_latency' (docs/netburst-model.md lists them)");
    expect_set_error("rob", "many", "bad rob 'many' (expected a number: decimal or 0x hex, 1 to 4096)");
    expect_set_error("rob", "0", "bad rob '0' (expected a number: decimal or 0x hex, 1 to 4096)");
    expect_set_error("rob", "-3", "bad rob '-3' (expected a number: decimal or 0x hex, 1 to 4096)");
    expect_set_error("bus_ratio", "0", "bad bus_ratio '0' (expected a number: decimal or 0x hex, 1 to 64)");
    expect_set_error("bus_ratio", "65", "bad bus_ratio '65' (expected a number: decimal or 0x hex, 1 to 64)");
    expect_set_error("pmi_latency", "x",
                     "bad pmi_latency 'x' (expected a number: decimal or 0x hex, 0 to 1000000)");
    expect_set_error("rob", "", "bad rob '' (expected a number: decimal or 0x hex, 1 to 4096)");
    expect_set_error("rob", "010", "bad rob '010' (expected a number: decimal or 0x hex, 1 to 4096)");
    expect_set_error("rob", " 5", "bad rob ' 5' (expected a number: decimal or 0x hex, 1 to 4096)");
    expect_set_error("l1d_latency", "12x",
                     "bad l1d_latency '12x' (expected a number: decimal or 0x hex, 1 to 1000)");
    expect_set_error("l1d_load_misses", "0",
                     "bad l1d_load_misses '0' (expected a number: decimal or 0x hex, 1 to 64)");
    expect_set_error("l1d_load_misses", "65",
                     "bad l1d_load_misses '65' (expected a number: decimal or 0x hex, 1 to 64)");
    expect_set_error("model", "5", "bad model '5' (expected a CPUID model 0-4 or 6)");
    expect_set_error("model", "7", "bad model '7' (expected a number: decimal or 0x hex, 0 to 6)");
}

static void test_check(void **state)
{
    (void)state;
    struct nbm_config config = preset("northwood");
    char error[256];
    assert_true(nbm_config_set(&config, "l1d_size", "12288", error, sizeof error));
    assert_false(nbm_config_check(&config, error, sizeof error));
    assert_string_equal(error, "parameter 'l1d_size': 192 entries in 4 ways is not a power-of-two "
                               "number of sets");
    config = preset("northwood");
    assert_true(nbm_config_set(&config, "tc_uops", "1000", error, sizeof error));
    assert_false(nbm_config_check(&config, error, sizeof error));
    assert_string_equal(error, "parameter 'tc_uops': 1000 is not a multiple of tc_line_uops 6");
    config = preset("northwood");
    config.rob = 0;
    assert_false(nbm_config_check(&config, error, sizeof error));
    assert_string_equal(error, "parameter 'rob': 0 is outside 1-4096");
}

/* nbm_simulate() refuses a bad configuration, a P5 backend, a backend of
 * another model and two traces, before opening anything. */
static void test_simulate_refuses(void **state)
{
    (void)state;
    struct nbm_config config = preset("northwood");
    struct nbm_result result;
    char error[256];
    const char *traces[] = {"/nonexistent", "/nonexistent", "/nonexistent"};
    struct msr_backend *prescott = nb_backend_create((struct nb_pmu_config){3, false});
    assert_false(nbm_simulate(traces, 1, &config, prescott, NULL, &result, error, sizeof error));
    assert_string_equal(error, "the backend emulates model 3, the configuration model 2");
    assert_false(nbm_simulate(traces, 3, &config, prescott, NULL, &result, error, sizeof error));
    assert_string_equal(error,
                        "the NetBurst model runs one trace, or two with Hyper-Threading, not 3");
    msr_backend_destroy(prescott);
    struct msr_backend *northwood = nb_backend_create((struct nb_pmu_config){2, false});
    assert_false(nbm_simulate(traces, 2, &config, northwood, NULL, &result, error, sizeof error));
    assert_string_equal(error, "two traces need a backend with Hyper-Threading "
                               "(nb_backend_create with ht=true)");
    assert_false(nbm_simulate(traces, 1, &config, northwood, NULL, &result, error, sizeof error));
    assert_string_equal(error, "/nonexistent: cannot open: No such file or directory");
    traces[0] = "/";
    assert_false(nbm_simulate(traces, 1, &config, northwood, NULL, &result, error, sizeof error));
    assert_string_equal(error, "/: is a directory");
    config.l2_ways = 3;
    assert_false(nbm_simulate(traces, 1, &config, northwood, NULL, &result, error, sizeof error));
    assert_string_equal(error, "parameter 'l2_size': 4096 entries in 3 ways is not a power-of-two "
                               "number of sets");
    msr_backend_destroy(northwood);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_netburst_alias),
        cmocka_unit_test(test_bus_ratio_by_preset),
        cmocka_unit_test(test_unknown_preset),
        cmocka_unit_test(test_set),
        cmocka_unit_test(test_set_errors),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_simulate_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
