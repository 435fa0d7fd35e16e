/* The machine interface (sim/machine/machine.h): the names -m takes, the
 * default preset, the P5 presets of run_p5mon, what each machine has,
 * which machines run 64-bit code, the warning for a trace they could not
 * have run, the default event set, and a trace simulated through a
 * machine counting what the model's own entry point counts. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model_trace.h"
#include "pmu/programming/alloc.h"
#include "pmu/catalog/event_spec.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/emulated/p5_pmu.h"
#include "pmu/programming/program.h"
#include "sim/machine/machine.h"
#include "tests/unit/unit_helpers.h"

static void test_names(void **state)
{
    (void)state;
    assert_int_equal(unit_machine("p5").pmu, PMU_P5);
    assert_string_equal(unit_machine("p5").p5.name, "p5");
    assert_int_equal(unit_machine("pmmx").pmu, PMU_P5);
    assert_string_equal(unit_machine("pmmx").p5.name, "pmmx");
    assert_true(unit_machine("pmmx").p5.mmx);
    assert_int_equal(unit_machine("host").pmu, PMU_P5);
    struct machine_config nb = unit_machine("netburst");
    assert_int_equal(nb.pmu, PMU_NETBURST);
    assert_string_equal(nb.netburst.name, NBM_DEFAULT_PRESET);
    assert_string_equal(nb.netburst.name, "northwood");
    assert_int_equal(nb.netburst.model, 2);
    assert_int_equal(unit_machine("netburst-prescott").netburst.model, 3);
    assert_int_equal(unit_machine("netburst-willamette0").netburst.model, 0);
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
    struct machine_config model;
    char error[256];
    assert_false(machine_config_choose("k6", &model, error, sizeof error));
    assert_string_equal(error, "unknown model 'k6' (expected p5, pmmx, host, netburst or netburst-PRESET)");
    assert_false(machine_config_choose("netburst-cedarmill", &model, error, sizeof error));
    assert_string_equal(error, "unknown NetBurst preset 'cedarmill' (willamette, willamette0, "
                               "northwood, netburst, prescott, prescott4)");
    assert_false(machine_config_choose("netburst-", &model, error, sizeof error));
    /* a near name: the nearest model, or preset (util/suggest.h) */
    assert_false(machine_config_choose("netbrust", &model, error, sizeof error));
    assert_string_equal(error, "unknown model 'netbrust' (did you mean 'netburst'?)");
    assert_false(machine_config_choose("netbrust-prescott", &model, error, sizeof error));
    assert_string_equal(error,
                        "unknown model 'netbrust-prescott' (did you mean 'netburst-prescott'?)");
    assert_false(machine_config_choose("pmmmx", &model, error, sizeof error));
    assert_string_equal(error, "unknown model 'pmmmx' (did you mean 'pmmx'?)");
    assert_false(machine_config_choose("netburst-northwod", &model, error, sizeof error));
    assert_string_equal(error, "unknown NetBurst preset 'northwod' (did you mean 'northwood'?)");
}

static void test_parameters(void **state)
{
    (void)state;
    char error[256];
    struct machine_config p5 = unit_machine("p5"), nb = unit_machine("netburst");
    assert_true(machine_config_set(&p5, "dcache_size", "16384", error, sizeof error));
    assert_int_equal(p5.p5.dcache.size, 16384);
    assert_true(machine_config_set(&nb, "l2_size", "1048576", error, sizeof error));
    assert_int_equal(nb.netburst.l2_size, 1048576);
    assert_false(machine_config_set(&nb, "dcache_size", "16384", error, sizeof error));
}

/* -F NAME=VALUE: set, not an assignment (no name, no '=', a name of 128
 * characters or more), or refused with the model's line. */
static void test_assignments(void **state)
{
    (void)state;
    char error[256] = "";
    struct machine_config p5 = unit_machine("p5");
    assert_int_equal(machine_config_assign(&p5, "dcache_size=8192", error, sizeof error),
                     MACHINE_SET);
    assert_int_equal(p5.p5.dcache.size, 8192);
    assert_int_equal(machine_config_assign(&p5, "=8192", error, sizeof error),
                     MACHINE_NOT_ASSIGNMENT);
    assert_int_equal(machine_config_assign(&p5, "dcache_size", error, sizeof error),
                     MACHINE_NOT_ASSIGNMENT);
    char long_name[140];
    memset(long_name, 'a', 128);
    strcpy(long_name + 128, "=1");
    assert_int_equal(machine_config_assign(&p5, long_name, error, sizeof error),
                     MACHINE_NOT_ASSIGNMENT);
    assert_string_equal(error, "");
    assert_int_equal(machine_config_assign(&p5, "bogus=1", error, sizeof error),
                     MACHINE_REFUSED);
    assert_string_equal(error, "unknown P5 model parameter 'bogus'");
    assert_int_equal(p5.p5.dcache.size, 8192);
}

/* Only the NetBurst models with EM64T run 64-bit code (nb_cpuid_model_info's
 * addr64: models 3, 4 and 6). */
static void test_runs(void **state)
{
    (void)state;
    const char *const names[] = {"p5", "host", "netburst-willamette0", "netburst-willamette",
                                 "netburst", "netburst-prescott", "netburst-prescott4"};
    const bool runs64[] = {false, false, false, false, false, true, true};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct machine_config model = unit_machine(names[i]);
        assert_true(machine_runs(&model, TRACE_ISA_32));
        assert_int_equal(machine_runs(&model, TRACE_ISA_64), runs64[i]);
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
    struct machine_config p5 = unit_machine("p5"), nw = unit_machine("netburst"), pr = unit_machine("netburst-prescott");
    assert_true(machine_isa_warning(&p5, t64.path, t64.path, warning, sizeof warning));
    snprintf(expected, sizeof expected,
             "%s: 64-bit code, which the P5 could not run (it has no IA-32e mode); simulated "
             "anyway, decoded as 64-bit code (docs/stat.md, \"64-bit traces\")", t64.path);
    assert_string_equal(warning, expected);
    assert_true(machine_isa_warning(&nw, t64.path, t64.path, warning, sizeof warning));
    snprintf(expected, sizeof expected,
             "%s: 64-bit code, which Northwood could not run (it has no IA-32e mode); simulated "
             "anyway, decoded as 64-bit code (docs/stat.md, \"64-bit traces\")", t64.path);
    assert_string_equal(warning, expected);
    assert_false(machine_isa_warning(&pr, t64.path, t64.path, warning, sizeof warning));
    assert_false(machine_isa_warning(&p5, t32.path, t32.path, warning, sizeof warning));
    assert_false(machine_isa_warning(&nw, t32.path, t32.path, warning, sizeof warning));
    /* Not a trace, or no file: no warning (reading it reports that). */
    assert_false(machine_isa_warning(&p5, "/nonexistent/x.trace", "/nonexistent/x.trace", warning, sizeof warning));
    assert_false(machine_isa_warning(&p5, "/dev/null", "/dev/null", warning, sizeof warning));
    /* The name given, not the path: a trace recorded into a temporary file
     * is named by its program. */
    assert_true(machine_isa_warning(&p5, t64.path, "/bin/true", warning, sizeof warning));
    assert_string_equal(warning, "/bin/true: 64-bit code, which the P5 could not run (it has no "
                                 "IA-32e mode); simulated anyway, decoded as 64-bit code "
                                 "(docs/stat.md, \"64-bit traces\")");
    /* A pipe is left to the simulation, which reads its header once. */
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/dev/fd/%d", fds[0]);
    assert_false(machine_isa_warning(&p5, fifo, fifo, warning, sizeof warning));
    close(fds[0]);
    close(fds[1]);
    unlink(t64.path);
    unlink(t32.path);
}

/* Every default event parses for its PMU, on every preset. */
static void check_defaults(const char *name, const char *prefix, int n_expected)
{
    struct machine_config model = unit_machine(name);
    struct nb_pmu_config config = {model.netburst.model, false};
    int n = 0;
    for (const char *const *e = machine_default_events(&model); *e; e++, n++) {
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
    struct machine_config p5 = unit_machine("p5"), nb = unit_machine("netburst");
    const char *const *e = machine_default_events(&p5);
    assert_string_equal(e[0], "clocks");
    assert_string_equal(e[1], "instructions_executed");
    assert_string_equal(e[5], "pipeline_flushes");
    assert_null(e[6]);
    e = machine_default_events(&nb);
    assert_string_equal(e[0], "global_power_events:RUNNING");
    assert_string_equal(e[1], "instr_retired:NBOGUSNTAG:NBOGUSTAG");
    assert_string_equal(e[5], "mispred_branch_retired:NBOGUS");
    assert_null(e[6]);
    check_defaults("p5", "p5::", 6);
    check_defaults("netburst", "netburst::", 6);
    check_defaults("netburst-willamette0", "netburst::", 6);
    check_defaults("netburst-prescott", "netburst_p::", 6);
}

/* run_p5mon's model: the P5 presets alone, with the P5 model's messages. */
static void test_p5_presets(void **state)
{
    (void)state;
    struct machine_config config;
    char error[256];
    assert_true(machine_config_p5("pmmx", &config, error, sizeof error));
    assert_int_equal(machine_caps(&config).pmu, PMU_P5);
    assert_string_equal(config.p5.name, "pmmx");
    assert_false(machine_config_p5("pentium", &config, error, sizeof error));
    assert_string_equal(error, "unknown P5 model preset 'pentium' (expected p5, pmmx or host)");
    assert_false(machine_config_p5("netburst", &config, error, sizeof error));
    assert_string_equal(error, "unknown P5 model preset 'netburst' (expected p5, pmmx or host)");
    assert_false(machine_config_set(&config, "bogus", "1", error, sizeof error));
    assert_string_equal(error, "unknown P5 model parameter 'bogus'");
}

static void test_caps(void **state)
{
    (void)state;
    struct machine_config p5 = unit_machine("p5"), nw = unit_machine("netburst"),
                          pr = unit_machine("netburst-prescott");
    struct machine_caps c = machine_caps(&p5);
    assert_int_equal(c.pmu, PMU_P5);
    assert_string_equal(c.event_prefix, "p5::");
    assert_string_equal(c.core, "the P5");
    assert_string_equal(c.timings, "docs/p5-timings.md");
    assert_int_equal(c.counters, 2);
    assert_false(c.hyper_threading);
    assert_false(c.ia32e);
    assert_false(c.uops);
    assert_false(c.sampling);
    assert_true(c.linked_pmus);
    c = machine_caps(&nw);
    assert_int_equal(c.pmu, PMU_NETBURST);
    assert_string_equal(c.event_prefix, "netburst::");
    assert_string_equal(c.core, "Northwood");
    assert_string_equal(c.timings, "docs/netburst-timings.md");
    assert_int_equal(c.counters, 18);
    assert_true(c.hyper_threading);
    assert_false(c.ia32e);
    assert_true(c.uops);
    assert_true(c.sampling);
    assert_true(c.linked_pmus);
    c = machine_caps(&pr);
    assert_string_equal(c.event_prefix, "netburst_p::");
    assert_string_equal(c.core, "Prescott");
    assert_true(c.ia32e);
    struct nb_pmu_config config = machine_pmu_config(&pr, true);
    assert_int_equal(config.model, 3);
    assert_true(config.ht);
}

/* A 32-bit trace: region 7 around 40 iterations of a loop, then 10 more. */
static void write_loop(struct tb *t)
{
    tb_open_header(t, (struct trace_header){.isa = TRACE_ISA_32, .lengths_known = true});
    assert_true(trace_write_region(t->writer, true, 7));
    tb_loop(t, 40);
    assert_true(trace_write_region(t->writer, false, 7));
    tb_loop(t, 10);
    tb_close(t);
}

/* The markers the machine's region hook was told, by thread. */
struct markers {
    int begins, ends, other_threads;
    uint32_t region;
};

static void count_marker(void *context, int thread, bool begin, uint32_t region)
{
    struct markers *m = context;
    m->other_threads += thread != 0;
    m->begins += begin;
    m->ends += !begin;
    m->region = region;
}

/* `events` planned on `config` and programmed, started, into `backend`. */
static void program_events(const struct machine_config *config, struct msr_backend *backend,
                           const char *const *events, struct program *program,
                           struct alloc_plan *plan)
{
    struct nb_pmu_config pmu = machine_pmu_config(config, false);
    struct alloc_request requests[2];
    char error[256];
    for (int i = 0; i < 2; i++) {
        requests[i].group = ALLOC_NO_GROUP;
        if (!event_spec_parse(events[i], &pmu, &requests[i].spec, error, sizeof error))
            fail_msg("%s: %s", events[i], error);
    }
    struct alloc_error why;
    assert_true(alloc_plan_make(requests, 2, &pmu, plan, &why));
    assert_int_equal(plan->n_runs, 1);
    program_init(program, backend, 0, &plan->runs[0]);
    assert_int_equal(program_setup(program, NULL), MSR_OK);
    assert_int_equal(program_start(program), MSR_OK);
}

static void read_events(struct program *program, struct alloc_plan *plan, uint64_t *counts)
{
    assert_int_equal(program_stop(program), MSR_OK);
    assert_int_equal(program_read(program, counts), MSR_OK);
    alloc_plan_free(plan);
}

/* The trace through a machine of `name`: its result, the two events'
 * counts and the markers its hook was told. */
static struct machine_result through_machine(const char *name, const char *path,
                                             const char *const *events, uint64_t *counts,
                                             struct markers *markers)
{
    struct machine_config config = unit_machine(name);
    struct machine machine;
    assert_true(machine_create(&machine, &config, 1));
    struct program program;
    struct alloc_plan plan;
    program_events(&config, machine.backend, events, &program, &plan);
    struct machine_hooks hooks = {.region = count_marker, .context = markers};
    struct machine_result result;
    char error[256];
    const char *traces[] = {path};
    if (!machine_simulate(&machine, traces, &hooks, &result, error, sizeof error))
        fail_msg("%s", error);
    read_events(&program, &plan, counts);
    machine_destroy(&machine);
    return result;
}

static void test_simulate_p5(void **state)
{
    (void)state;
    struct tb t;
    write_loop(&t);
    const char *const events[] = {"p5::instructions_executed", "p5::clocks"};
    uint64_t counts[2], direct_counts[2];
    struct markers markers = {0};
    struct machine_result result = through_machine("p5", t.path, events, counts, &markers);
    /* The model's own entry point, on a PMU programmed alike. */
    struct machine_config config = unit_machine("p5");
    struct msr_backend *backend = p5_backend_create();
    assert_non_null(backend);
    struct program program;
    struct alloc_plan plan;
    program_events(&config, backend, events, &program, &plan);
    struct p5_sim_result direct;
    char error[256];
    if (!p5_simulate_trace(t.path, &config.p5, backend, NULL, &direct, error, sizeof error))
        fail_msg("%s", error);
    read_events(&program, &plan, direct_counts);
    msr_backend_destroy(backend);
    unlink(t.path);
    assert_int_equal(result.instructions[0], 150);
    assert_int_equal(result.instructions[0], direct.instructions);
    assert_int_equal(result.instructions[1], 0);
    assert_int_equal(result.cycles, direct.cycles);
    assert_int_equal(result.regions, 2);
    assert_int_equal(result.unclassified[0], direct.unclassified);
    assert_int_equal(result.uops[0] + result.uops[1], 0);
    assert_int_equal(counts[0], 150);
    assert_int_equal(counts[0], direct_counts[0]);
    assert_int_equal(counts[1], direct_counts[1]);
    assert_int_equal(counts[1], direct.cycles);
    /* The P5 model's markers reach the machine's hook as thread 0's. */
    assert_int_equal(markers.begins, 1);
    assert_int_equal(markers.ends, 1);
    assert_int_equal(markers.other_threads, 0);
    assert_int_equal(markers.region, 7);
}

static void test_simulate_netburst(void **state)
{
    (void)state;
    struct tb t;
    write_loop(&t);
    const char *const events[] = {"netburst::instr_retired:NBOGUSNTAG:NBOGUSTAG",
                                  "netburst::global_power_events:RUNNING"};
    uint64_t counts[2], direct_counts[2];
    struct markers markers = {0};
    struct machine_result result = through_machine("netburst", t.path, events, counts, &markers);
    struct machine_config config = unit_machine("netburst");
    struct msr_backend *backend = nb_backend_create(machine_pmu_config(&config, false));
    assert_non_null(backend);
    struct program program;
    struct alloc_plan plan;
    program_events(&config, backend, events, &program, &plan);
    struct nbm_result direct;
    char error[256];
    const char *traces[] = {t.path};
    if (!nbm_simulate(traces, 1, &config.netburst, backend, NULL, &direct, error, sizeof error))
        fail_msg("%s", error);
    read_events(&program, &plan, direct_counts);
    msr_backend_destroy(backend);
    unlink(t.path);
    assert_int_equal(result.instructions[0], 150);
    assert_int_equal(result.instructions[0], direct.instructions[0]);
    assert_int_equal(result.cycles, direct.cycles);
    assert_int_equal(result.uops[0], direct.uops[0]);
    assert_int_equal(result.regions, 2);
    assert_int_equal(result.unclassified[0], direct.unclassified[0]);
    assert_int_equal(counts[0], 150);
    assert_int_equal(counts[0], direct_counts[0]);
    assert_int_equal(counts[1], direct_counts[1]);
    assert_int_equal(counts[1], direct.cycles);
    assert_int_equal(markers.begins, 1);
    assert_int_equal(markers.ends, 1);
    assert_int_equal(markers.region, 7);
}

/* A machine of two logical processors running one trace (emulate --ht):
 * its PMU takes the T1 bits and logical processor 1's accesses, which one
 * without Hyper-Threading refuses, and its one trace runs as a machine of
 * one's does. */
static void test_one_of_two(void **state)
{
    (void)state;
    struct machine_config config = unit_machine("netburst");
    struct machine two, one;
    assert_true(machine_create_one_of_two(&two, &config));
    assert_true(machine_create(&one, &config, 1));
    assert_int_equal(two.threads, 1);
    enum { CRU_ESCR0 = 0x3b8, T1_USR_ESCR = 0x4000601 }; /* instr_retired, T0_USR | T1_USR */
    uint64_t value = 0;
    assert_int_equal(msr_write(two.backend, 1, CRU_ESCR0, T1_USR_ESCR), MSR_OK);
    assert_int_equal(msr_read(two.backend, 0, CRU_ESCR0, &value), MSR_OK);
    assert_int_equal(value, T1_USR_ESCR);
    assert_int_equal(msr_write(one.backend, 0, CRU_ESCR0, T1_USR_ESCR), MSR_GP);
    struct tb t;
    write_loop(&t);
    const char *traces[] = {t.path};
    struct machine_result r1, r2;
    char error[256];
    if (!machine_simulate(&two, traces, NULL, &r2, error, sizeof error) ||
        !machine_simulate(&one, traces, NULL, &r1, error, sizeof error))
        fail_msg("%s", error);
    unlink(t.path);
    assert_int_equal(r2.instructions[0], 150);
    assert_int_equal(r2.instructions[1], 0);
    assert_int_equal(r2.cycles, r1.cycles);
    machine_destroy(&two);
    machine_destroy(&one);
}

/* A PMU linked to a machine's counts what the machine's own counts, each
 * under its own programming: `first` (instructions, then cycles) on the
 * machine's, `second` (the two swapped) on the linked one's. */
static void assert_linked_counts(const char *name, const char *const *first,
                                 const char *const *second)
{
    struct machine_config config = unit_machine(name);
    struct machine machine;
    assert_true(machine_create(&machine, &config, 1));
    struct msr_backend *linked = machine_link_pmu(&machine);
    assert_non_null(linked);
    struct program programs[2];
    struct alloc_plan plans[2];
    program_events(&config, machine.backend, first, &programs[0], &plans[0]);
    program_events(&config, linked, second, &programs[1], &plans[1]);
    struct tb t;
    write_loop(&t);
    struct machine_result result;
    char error[256];
    const char *traces[] = {t.path};
    if (!machine_simulate(&machine, traces, NULL, &result, error, sizeof error))
        fail_msg("%s", error);
    unlink(t.path);
    uint64_t counts[2], linked_counts[2];
    read_events(&programs[0], &plans[0], counts);
    read_events(&programs[1], &plans[1], linked_counts);
    assert_int_equal(counts[0], 150);
    assert_int_equal(linked_counts[1], 150);
    assert_int_equal(counts[1], result.cycles);
    assert_int_equal(linked_counts[0], result.cycles);
    msr_backend_destroy(linked);
    machine_destroy(&machine);
}

static void test_linked_pmu(void **state)
{
    (void)state;
    const char *const p5_first[] = {"p5::instructions_executed", "p5::clocks"};
    const char *const p5_second[] = {"p5::clocks", "p5::instructions_executed"};
    assert_linked_counts("p5", p5_first, p5_second);
    const char *const nb_first[] = {"instr_retired:NBOGUSNTAG:NBOGUSTAG",
                                    "global_power_events:RUNNING"};
    const char *const nb_second[] = {"global_power_events:RUNNING",
                                     "instr_retired:NBOGUSNTAG:NBOGUSTAG"};
    assert_linked_counts("netburst", nb_first, nb_second);
}

/* NetBurst PMUs linked while one of them samples: the simulation fails
 * (a PMI would change the model's timing for every PMU), and counts
 * nothing wrong silently. */
static void test_linked_pmu_sampling(void **state)
{
    (void)state;
    struct machine_config config = unit_machine("netburst");
    struct machine machine;
    assert_true(machine_create(&machine, &config, 1));
    struct msr_backend *linked = machine_link_pmu(&machine);
    assert_non_null(linked);
    struct program programs[2];
    struct alloc_plan plans[2];
    const char *const plain[] = {"instr_retired:NBOGUSNTAG", "global_power_events:RUNNING"};
    const char *const sampling[] = {"instr_retired:NBOGUSNTAG:ovf_pmi=t0",
                                    "global_power_events:RUNNING"};
    program_events(&config, machine.backend, plain, &programs[0], &plans[0]);
    program_events(&config, linked, sampling, &programs[1], &plans[1]);
    struct tb t;
    write_loop(&t);
    struct machine_result result;
    char error[256];
    const char *traces[] = {t.path};
    assert_false(machine_simulate(&machine, traces, NULL, &result, error, sizeof error));
    assert_int_equal(errno, EIO);
    unlink(t.path);
    alloc_plan_free(&plans[0]);
    alloc_plan_free(&plans[1]);
    msr_backend_destroy(linked);
    machine_destroy(&machine);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),          cmocka_unit_test(test_bad_names),
        cmocka_unit_test(test_parameters),     cmocka_unit_test(test_assignments),
        cmocka_unit_test(test_runs),
        cmocka_unit_test(test_isa_warning),    cmocka_unit_test(test_default_events),
        cmocka_unit_test(test_p5_presets),     cmocka_unit_test(test_caps),
        cmocka_unit_test(test_simulate_p5),    cmocka_unit_test(test_simulate_netburst),
        cmocka_unit_test(test_linked_pmu),     cmocka_unit_test(test_linked_pmu_sampling),
        cmocka_unit_test(test_one_of_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
