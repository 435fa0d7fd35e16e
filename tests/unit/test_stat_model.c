/* The simulated machines by name (apps/stat/stat_model.c): the names -m
 * takes, the default preset, which machines run 64-bit code, the warning
 * for a trace they could not have run, and the default event set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model_trace.h"
#include "pmu/event_spec.h"
#include "apps/stat/stat_model.h"

static struct stat_model choose(const char *name)
{
    struct stat_model model;
    char error[256];
    if (!stat_model_choose(name, &model, error, sizeof error))
        fail_msg("%s", error);
    return model;
}

static void test_names(void **state)
{
    (void)state;
    assert_int_equal(choose("p5").pmu, PMU_P5);
    assert_string_equal(choose("p5").p5.name, "p5");
    assert_int_equal(choose("pmmx").pmu, PMU_P5);
    assert_string_equal(choose("pmmx").p5.name, "pmmx");
    assert_true(choose("pmmx").p5.mmx);
    assert_int_equal(choose("host").pmu, PMU_P5);
    struct stat_model nb = choose("netburst");
    assert_int_equal(nb.pmu, PMU_NETBURST);
    assert_string_equal(nb.netburst.name, NBM_DEFAULT_PRESET);
    assert_string_equal(nb.netburst.name, "northwood");
    assert_int_equal(nb.netburst.model, 2);
    assert_int_equal(choose("netburst-prescott").netburst.model, 3);
    assert_int_equal(choose("netburst-willamette0").netburst.model, 0);
    /* The NetBurst model's own preset name "netburst" is the same default. */
    struct nbm_config config;
    char error[256];
    assert_true(nbm_config_preset("netburst", &config, error, sizeof error));
    assert_string_equal(config.name, "northwood");
    assert_int_equal(config.model, 2);
}

static void test_bad_names(void **state)
{
    (void)state;
    struct stat_model model;
    char error[256];
    assert_false(stat_model_choose("k6", &model, error, sizeof error));
    assert_string_equal(error, "unknown model 'k6' (expected p5, pmmx, host, netburst or netburst-PRESET)");
    assert_false(stat_model_choose("netburst-cedarmill", &model, error, sizeof error));
    assert_string_equal(error, "unknown NetBurst preset 'cedarmill' (willamette, willamette0, "
                               "northwood, netburst, prescott, prescott4)");
    assert_false(stat_model_choose("netburst-", &model, error, sizeof error));
    /* a near name: the nearest model, or preset (util/suggest.h) */
    assert_false(stat_model_choose("netbrust", &model, error, sizeof error));
    assert_string_equal(error, "unknown model 'netbrust' (did you mean 'netburst'?)");
    assert_false(stat_model_choose("netbrust-prescott", &model, error, sizeof error));
    assert_string_equal(error,
                        "unknown model 'netbrust-prescott' (did you mean 'netburst-prescott'?)");
    assert_false(stat_model_choose("pmmmx", &model, error, sizeof error));
    assert_string_equal(error, "unknown model 'pmmmx' (did you mean 'pmmx'?)");
    assert_false(stat_model_choose("netburst-northwod", &model, error, sizeof error));
    assert_string_equal(error, "unknown NetBurst preset 'northwod' (did you mean 'northwood'?)");
}

static void test_parameters(void **state)
{
    (void)state;
    char error[256];
    struct stat_model p5 = choose("p5"), nb = choose("netburst");
    assert_true(stat_model_set(&p5, "dcache_size", "16384", error, sizeof error));
    assert_int_equal(p5.p5.dcache.size, 16384);
    assert_true(stat_model_set(&nb, "l2_size", "1048576", error, sizeof error));
    assert_int_equal(nb.netburst.l2_size, 1048576);
    assert_false(stat_model_set(&nb, "dcache_size", "16384", error, sizeof error));
}

/* Only the NetBurst models with EM64T run 64-bit code (nb_model_info's
 * addr64: models 3, 4 and 6). */
static void test_runs(void **state)
{
    (void)state;
    const char *const names[] = {"p5", "host", "netburst-willamette0", "netburst-willamette",
                                 "netburst", "netburst-prescott", "netburst-prescott4"};
    const bool runs64[] = {false, false, false, false, false, true, true};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct stat_model model = choose(names[i]);
        assert_true(stat_model_runs(&model, TRACE_ISA_32));
        assert_int_equal(stat_model_runs(&model, TRACE_ISA_64), runs64[i]);
    }
}

static void write_trace(struct tb *t, enum trace_isa isa)
{
    tb_open_header(t, (struct trace_header){.isa = isa, .lengths_known = true});
    tb_plain(t, 0x1000, "\x90", 1);
    tb_close(t);
}

static void test_isa_warning(void **state)
{
    (void)state;
    struct tb t64, t32;
    write_trace(&t64, TRACE_ISA_64);
    write_trace(&t32, TRACE_ISA_32);
    char warning[512], expected[512];
    struct stat_model p5 = choose("p5"), nw = choose("netburst"), pr = choose("netburst-prescott");
    assert_true(stat_model_isa_warning(&p5, t64.path, t64.path, warning, sizeof warning));
    snprintf(expected, sizeof expected,
             "%s: 64-bit code, which the P5 could not run (it has no IA-32e mode); simulated "
             "anyway, decoded as 64-bit code (docs/stat.md, \"64-bit traces\")", t64.path);
    assert_string_equal(warning, expected);
    assert_true(stat_model_isa_warning(&nw, t64.path, t64.path, warning, sizeof warning));
    snprintf(expected, sizeof expected,
             "%s: 64-bit code, which Northwood could not run (it has no IA-32e mode); simulated "
             "anyway, decoded as 64-bit code (docs/stat.md, \"64-bit traces\")", t64.path);
    assert_string_equal(warning, expected);
    assert_false(stat_model_isa_warning(&pr, t64.path, t64.path, warning, sizeof warning));
    assert_false(stat_model_isa_warning(&p5, t32.path, t32.path, warning, sizeof warning));
    assert_false(stat_model_isa_warning(&nw, t32.path, t32.path, warning, sizeof warning));
    /* Not a trace, or no file: no warning (reading it reports that). */
    assert_false(stat_model_isa_warning(&p5, "/nonexistent/x.trace", "/nonexistent/x.trace", warning, sizeof warning));
    assert_false(stat_model_isa_warning(&p5, "/dev/null", "/dev/null", warning, sizeof warning));
    /* The name given, not the path: a trace recorded into a temporary file
     * is named by its program. */
    assert_true(stat_model_isa_warning(&p5, t64.path, "/bin/true", warning, sizeof warning));
    assert_string_equal(warning, "/bin/true: 64-bit code, which the P5 could not run (it has no "
                                 "IA-32e mode); simulated anyway, decoded as 64-bit code "
                                 "(docs/stat.md, \"64-bit traces\")");
    /* A pipe is left to the simulation, which reads its header once. */
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/dev/fd/%d", fds[0]);
    assert_false(stat_model_isa_warning(&p5, fifo, fifo, warning, sizeof warning));
    close(fds[0]);
    close(fds[1]);
    unlink(t64.path);
    unlink(t32.path);
}

/* Every default event parses for its PMU, on every preset. */
static void check_defaults(const char *name, const char *prefix, int n_expected)
{
    struct stat_model model = choose(name);
    struct nb_pmu_config config = {model.netburst.model, false};
    int n = 0;
    for (const char *const *e = stat_model_default_events(&model); *e; e++, n++) {
        char text[512], error[512];
        struct event_spec spec;
        snprintf(text, sizeof text, "%s%s", prefix, *e);
        if (!event_spec_parse(text, &config, &spec, error, sizeof error))
            fail_msg("%s: %s", text, error);
        assert_int_equal(spec.pmu, model.pmu);
    }
    assert_int_equal(n, n_expected);
}

static void test_default_events(void **state)
{
    (void)state;
    struct stat_model p5 = choose("p5"), nb = choose("netburst");
    const char *const *e = stat_model_default_events(&p5);
    assert_string_equal(e[0], "clocks");
    assert_string_equal(e[1], "instructions_executed");
    assert_string_equal(e[5], "pipeline_flushes");
    assert_null(e[6]);
    e = stat_model_default_events(&nb);
    assert_string_equal(e[0], "global_power_events:RUNNING");
    assert_string_equal(e[1], "instr_retired:NBOGUSNTAG:NBOGUSTAG");
    assert_string_equal(e[5], "mispred_branch_retired:NBOGUS");
    assert_null(e[6]);
    check_defaults("p5", "p5::", 6);
    check_defaults("netburst", "netburst::", 6);
    check_defaults("netburst-willamette0", "netburst::", 6);
    check_defaults("netburst-prescott", "netburst_p::", 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),          cmocka_unit_test(test_bad_names),
        cmocka_unit_test(test_parameters),     cmocka_unit_test(test_runs),
        cmocka_unit_test(test_isa_warning),    cmocka_unit_test(test_default_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
