/* The PARMS reader of `pmubench p5mon` (apps/p5mon/parms.h): every syntax
 * rule of docs/p5mon.md, "PARMS files", and every message, exactly. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu/catalog/p5_events.h"
#include "apps/p5mon/parms.h"

static struct p5mon_parms *parms;
static char error[8192];

static int setup(void **state)
{
    (void)state;
    parms = malloc(sizeof *parms);
    p5mon_parms_defaults(parms);
    error[0] = '\0';
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(parms);
    return 0;
}

static bool read_text(const char *text)
{
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(in);
    bool ok = p5mon_parms_read(in, "P", parms, error, sizeof error);
    fclose(in);
    return ok;
}

static void accepts(const char *text)
{
    if (!read_text(text))
        fail_msg("rejected: %s", error);
}

static void rejects(const char *text, const char *message)
{
    assert_false(read_text(text));
    assert_string_equal(error, message);
}

static void defaults_are_table_c1(void **state)
{
    (void)state;
    assert_int_equal(parms->repetitions, 1);
    assert_true(parms->user_events);
    assert_false(parms->kernel_events);
    assert_false(parms->output_all_results);
    assert_false(parms->confidence_99);
    assert_false(parms->use_assembly_regions);
    assert_int_equal(parms->max_regions, 100);
    assert_string_equal(parms->output_file.value, "");
    assert_false(parms->skip_initialization_run);
    assert_int_equal(parms->verbose_level, 0);
    assert_string_equal(parms->model.value, "p5");
    assert_int_equal(parms->interval, P5MON_INTERVAL_RUN_P5MON);
    assert_false(parms->count_clocks);
    for (int i = 0; i < P5_NUM_CODES; i++)
        assert_false(parms->events[i]);
}

/* Figure C.1 of Safford 1997 as printed, every line. */
static const char figure_c1[] =
    "(p5mon\n"
    "command = hello;\nrepetitions = 5;\nuser_events = yes;\nkernel_events = no;\n"
    "output_all_results = no;\nconf_level_99 = no;\nuse_assembly_regions = no;\n"
    "max_regions = 1;\noutput_file = p5mon_output;\nskip_initialization_run = no;\n"
    "verbose_level = 0;\nrepeat_first_run = no;\ndata_read = no;\ndata_write = no;\n"
    "data_read_or_write = no;\ndata_tlb_miss = no;\ndata_read_miss = yes;\n"
    "data_write_miss = yes;\ndata_read_or_write_miss = no;\nwrite_to_M_or_E_lines = no;\n"
    "data_cache_lines_written_back = no;\nexternal_snoops = no;\n"
    "data_cache_snooping_hits = no;\nmemory_accesses_in_both_pipes = no;\n"
    "bank_conflicts = no;\nmisaligned_data_memory_or_IO_references = no;\ncode_read = no;\n"
    "code_tlb_miss = no;\ncode_cache_miss = no;\nsegment_register_loaded = no;\n"
    "branches = no;\nbtb_hits = no;\ntaken_branch_or_btb_hit = no;\n"
    "pipeline_flushes = no;\ninstructions_executed = no;\n"
    "instructions_executed_in_v_pipe = no;\nclocks_while_bus_cycle_in_progress = no;\n"
    "clocks_stalled_full_write_buffers = no;\nclocks_stalled_waiting_data_read = no;\n"
    "clocks_stalled_write_to_M_or_E_line = no;\nlocked_bus_cycle = no;\n"
    "IO_read_or_write_cycle = no;\nnon_cacheable_memory_reads = no;\n"
    "pipeline_stalled_address_generation_interlock = no;\nflops = no;\n"
    "breakpoint_match_DR0 = no;\nbreakpoint_match_DR1 = no;\nbreakpoint_match_DR2 = no;\n"
    "breakpoint_match_DR3 = no;\nhardware_interrupts = no;\ncount_clocks = no;\n"
    "\n"
    "dump_parms = no;\nwarn_parm_not_defined = yes;\nwarn_parm_defined_twice = yes;\n"
    "warn_parm_not_used = yes;\nparm_warn_file_name = stderr;\nparm_dump_file_name = stderr;\n"
    "end)\n";

static void reads_figure_c1(void **state)
{
    (void)state;
    accepts(figure_c1);
    assert_string_equal(parms->command.value, "hello");
    assert_string_equal(parms->command.where, "P:2");
    assert_int_equal(parms->repetitions, 5);
    assert_int_equal(parms->max_regions, 1);
    assert_string_equal(parms->output_file.value, "p5mon_output");
    int events[P5MON_MAX_EVENTS];
    assert_int_equal(p5mon_parms_events(parms, events), 2);
    assert_int_equal(events[0], 0x03);
    assert_int_equal(events[1], 0x04);
}

static void every_parameter_takes_its_value(void **state)
{
    (void)state;
    accepts("(p5mon\n"
            "user_events = no;\nkernel_events = yes;\noutput_all_results = yes;\n"
            "confidence_level_99 = yes;\nuse_assembly_regions = yes;\nmax_regions = 100;\n"
            "skip_initialization_run = yes;\nverbose_level = 2;\nrepetitions = 1000;\n"
            "trace = a b.trace;\nmodel = host;\ninterval = student;\n"
            "model_btb_entries = 512;\nmodel_dcache_size = 16384;\n"
            "count_clocks = yes;\nhardware_interrupts = yes;\nflops = yes;\n"
            "end)\n");
    assert_false(parms->user_events);
    assert_true(parms->kernel_events);
    assert_true(parms->output_all_results);
    assert_true(parms->confidence_99);
    assert_true(parms->use_assembly_regions);
    assert_int_equal(parms->max_regions, 100);
    assert_true(parms->skip_initialization_run);
    assert_int_equal(parms->verbose_level, 2);
    assert_int_equal(parms->repetitions, 1000);
    assert_string_equal(parms->trace.value, "a b.trace");
    assert_string_equal(parms->model.value, "host");
    assert_string_equal(parms->model.where, "P:12");
    assert_int_equal(parms->interval, P5MON_INTERVAL_STUDENT);
    assert_int_equal(parms->n_model_parms, 2);
    assert_string_equal(parms->model_parms[0].name, "btb_entries");
    assert_string_equal(parms->model_parms[0].setting.value, "512");
    assert_string_equal(parms->model_parms[0].setting.where, "P:14");
    assert_string_equal(parms->model_parms[1].name, "dcache_size");
    /* Table C.1 order (flops 0x22 before hardware_interrupts 0x27), clocks last. */
    int events[P5MON_MAX_EVENTS];
    assert_int_equal(p5mon_parms_events(parms, events), 3);
    assert_int_equal(events[0], 0x22);
    assert_int_equal(events[1], 0x27);
    assert_int_equal(events[2], P5MON_CLOCKS);
}

static void events_follow_table_c1_order(void **state)
{
    (void)state;
    accepts("(p5mon\ndata_tlb_miss = yes;\ndata_read_or_write = yes;\ndata_read = yes;\nend)\n");
    int events[P5MON_MAX_EVENTS];
    assert_int_equal(p5mon_parms_events(parms, events), 3);
    assert_int_equal(events[0], 0x00);
    assert_int_equal(events[1], 0x28);
    assert_int_equal(events[2], 0x02);
}

static void all_39_events(void **state)
{
    (void)state;
    for (int i = 0; i < p5_num_events; i++)
        parms->events[p5_events[i].code] = true;
    parms->count_clocks = true;
    int events[P5MON_MAX_EVENTS];
    assert_int_equal(p5mon_parms_events(parms, events), 39);
}

static void layout_is_free(void **state)
{
    (void)state;
    /* Blank lines, # comments, spaces and tabs anywhere between tokens, no
     * space around '=', yes/no and names in any case, trailing spaces. */
    accepts("\n# comment\n  (p5mon  \n\n\t# another\nCommand=ls -l;\n"
            "\tREPETITIONS\t =\t 3 ;  \nData_Read = YES;\nBTB_HITS=Yes;\n  end)  \n\n");
    assert_string_equal(parms->command.value, "ls -l");
    assert_int_equal(parms->repetitions, 3);
    assert_true(parms->events[0x00]);
    assert_true(parms->events[0x13]);
}

static void value_runs_to_the_last_semicolon(void **state)
{
    (void)state;
    accepts("(p5mon\ncommand = prog a;b < in.txt = x;\nend)\n");
    assert_string_equal(parms->command.value, "prog a;b < in.txt = x");
}

static void other_sections_are_skipped(void **state)
{
    (void)state;
    accepts("(Lcode\nrepetitions = 7;\nanything_at_all = whatever;\nend)\n"
            "(p5mon\nrepetitions = 2;\nend)\n(Pcode\nrepetitions = 9;\nend)\n");
    assert_int_equal(parms->repetitions, 2);
}

static void bad_syntax(void **state)
{
    (void)state;
    rejects("p5mon\n", "P:1: expected '(NAME' to open a section, got 'p5mon'");
    rejects("repetitions = 1;\n", "P:1: expected '(NAME' to open a section, got 'repetitions = 1;'");
    rejects("(\n", "P:1: expected '(NAME' to open a section, got '('");
    rejects("(p5mon x\n", "P:1: expected '(NAME' to open a section, got '(p5mon x'");
    rejects("(p5mon\n(inner\nend)\n",
            "P:2: expected 'name = value;' or 'end)', got '(inner'");
    rejects("(p5mon\n= 3;\nend)\n", "P:2: expected 'name = value;' or 'end)', got '= 3;'");
    rejects("(p5mon\nrepetitions 3;\nend)\n", "P:2: expected '=' after 'repetitions'");
    rejects("(p5mon\nrepetitions = 3\nend)\n", "P:2: expected ';' at the end of the line");
    rejects("(p5mon\nrepetitions = 3; x\nend)\n", "P:2: expected ';' at the end of the line");
    rejects("(p5mon\nrepetitions = ;\nend)\n", "P:2: expected a value for repetitions before ';'");
    rejects("(p5mon\nrepetitions = 3;\n", "P:2: expected 'end)' to close the section 'p5mon' of line 1");
    rejects("(Lcode\nx = 1;\n", "P:2: expected 'end)' to close the section 'Lcode' of line 1");
    rejects("(Lcode\nx 1;\nend)\n(p5mon\nend)\n", "P:2: expected '=' after 'x'");
    rejects("", "P:0: expected a '(p5mon' section");
    rejects("(Lcode\nend)\n", "P:2: expected a '(p5mon' section");
    rejects("(p5mon\nend)\n(p5mon\nend)\n", "P:3: a second (p5mon section (the first is at line 1)");
}

static void long_line(void **state)
{
    (void)state;
    size_t n = P5MON_MAX_LINE + 10;
    char *text = malloc(n + 32);
    strcpy(text, "(p5mon\ncommand = ");
    size_t used = strlen(text);
    memset(text + used, 'x', n - used);
    strcpy(text + n, ";\nend)\n");
    rejects(text, "P:2: expected a line of at most 4095 characters");
    free(text);
}

/* A NUL byte is not text: the line is refused, not cut short at it. */
static void nul_byte(void **state)
{
    (void)state;
    static const char text[] = "(p5mon\nrepetitions = 3;\0 garbage\nend)\n";
    FILE *in = fmemopen((void *)text, sizeof text - 1, "r");
    assert_non_null(in);
    assert_false(p5mon_parms_read(in, "P", parms, error, sizeof error));
    fclose(in);
    assert_string_equal(error, "P:2: unexpected NUL byte");
    static const char first[] = "\0(p5mon\nend)\n";
    in = fmemopen((void *)first, sizeof first - 1, "r");
    assert_false(p5mon_parms_read(in, "P", parms, error, sizeof error));
    fclose(in);
    assert_string_equal(error, "P:1: unexpected NUL byte");
}

static void bad_values(void **state)
{
    (void)state;
    rejects("(p5mon\nuser_events = maybe;\nend)\n",
            "P:2: expected yes or no for user_events, got 'maybe'");
    rejects("(p5mon\nconf_level_99 = 1;\nend)\n",
            "P:2: expected yes or no for conf_level_99, got '1'");
    rejects("(p5mon\ndump_parms = true;\nend)\n",
            "P:2: expected yes or no for dump_parms, got 'true'");
    rejects("(p5mon\nBTB_hits = y;\nend)\n", "P:2: expected yes or no for btb_hits, got 'y'");
    rejects("(p5mon\ncount_clocks = on;\nend)\n",
            "P:2: expected yes or no for count_clocks, got 'on'");
    rejects("(p5mon\nrepetitions = 0;\nend)\n",
            "P:2: bad repetitions '0' (expected a number: decimal or 0x hex, 1 to 1000)");
    rejects("(p5mon\nrepetitions = 1001;\nend)\n",
            "P:2: bad repetitions '1001' (expected a number: decimal or 0x hex, 1 to 1000)");
    rejects("(p5mon\nrepetitions = -1;\nend)\n",
            "P:2: bad repetitions '-1' (expected a number: decimal or 0x hex, 1 to 1000)");
    rejects("(p5mon\nrepetitions = 5x;\nend)\n",
            "P:2: bad repetitions '5x' (expected a number: decimal or 0x hex, 1 to 1000)");
    rejects("(p5mon\nrepetitions = 010;\nend)\n",
            "P:2: bad repetitions '010' (expected a number: decimal or 0x hex, 1 to 1000)");
    rejects("(p5mon\nrepetitions = 99999999999999999999;\nend)\n",
            "P:2: bad repetitions '99999999999999999999' (expected a number: decimal or 0x hex, "
            "1 to 1000)");
    rejects("(p5mon\nmax_regions = 101;\nend)\n",
            "P:2: bad max_regions '101' (expected a number: decimal or 0x hex, 1 to 100)");
    rejects("(p5mon\nverbose_level = 3;\nend)\n",
            "P:2: bad verbose_level '3' (expected a number: decimal or 0x hex, 0 to 2)");
    rejects("(p5mon\ninterval = exact;\nend)\n",
            "P:2: expected run_p5mon or student for interval, got 'exact'");
}

static void unknown_and_twice(void **state)
{
    (void)state;
    rejects("(p5mon\nfrobnicate = yes;\nend)\n",
            "P:2: unknown parameter 'frobnicate' (expected a run_p5mon parameter, an event "
            "name, count_clocks or model_NAME)");
    rejects("(p5mon\nmodel_ = 1;\nend)\n", "P:2: unknown parameter 'model_' (did you mean 'model'?)");
    rejects("(p5mon\ndata_red = yes;\nend)\n",
            "P:2: unknown parameter 'data_red' (did you mean 'data_read'?)");
    rejects("(p5mon\nrepetitions = 2;\n\nREPETITIONS = 3;\nend)\n",
            "P:4: REPETITIONS is already set at line 2");
    rejects("(p5mon\nconfidence_level_99 = yes;\nconf_level_99 = no;\nend)\n",
            "P:3: conf_level_99 is already set at line 2");
    rejects("(p5mon\ndata_read = yes;\nDATA_READ = no;\nend)\n",
            "P:3: DATA_READ is already set at line 2");
    rejects("(p5mon\nmodel_x = 1;\nmodel_x = 2;\nend)\n", "P:3: model_x is already set at line 2");
}

static void too_many_model_parameters(void **state)
{
    (void)state;
    char text[4096] = "(p5mon\n";
    for (int i = 0; i <= P5MON_MAX_MODEL_PARMS; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "model_p%d = 1;\n", i);
    strcat(text, "end)\n");
    rejects(text, "P:34: expected at most 32 model_ parameters");
}

static void overrides(void **state)
{
    (void)state;
    accepts("(p5mon\nrepetitions = 2;\nmodel_btb_entries = 512;\nend)\n");
    assert_true(p5mon_parms_override(parms, "repetitions=4", 1, error, sizeof error));
    assert_true(p5mon_parms_override(parms, "repetitions=6", 2, error, sizeof error));
    assert_true(p5mon_parms_override(parms, "command=hello_mod -x", 3, error, sizeof error));
    assert_true(p5mon_parms_override(parms, "model_btb_entries=64", 4, error, sizeof error));
    assert_true(p5mon_parms_override(parms, "branches=yes", 5, error, sizeof error));
    assert_int_equal(parms->repetitions, 6);
    assert_string_equal(parms->command.value, "hello_mod -x");
    assert_string_equal(parms->command.where, "-F:3");
    assert_int_equal(parms->n_model_parms, 1);
    assert_string_equal(parms->model_parms[0].setting.value, "64");
    assert_string_equal(parms->model_parms[0].setting.where, "-F:4");
    assert_true(parms->events[0x12]);
}

static void bad_overrides(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"repetitions", "-F:1: expected name=value, got 'repetitions'"},
        {"=3", "-F:1: expected name=value, got '=3'"},
        {"repetitions=", "-F:1: expected name=value, got 'repetitions='"},
        {"rep etitions=3", "-F:1: expected a parameter name before '=', got 'rep etitions'"},
        {"9x=3", "-F:1: expected a parameter name before '=', got '9x'"},
        {"repetitions=x",
         "-F:1: bad repetitions 'x' (expected a number: decimal or 0x hex, 1 to 1000)"},
        {"bogus=1", "-F:1: unknown parameter 'bogus' (expected a run_p5mon parameter, an event "
                    "name, count_clocks or model_NAME)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_false(p5mon_parms_override(parms, cases[i][0], 1, error, sizeof error));
        assert_string_equal(error, cases[i][1]);
    }
}

static void check(void **state)
{
    (void)state;
    assert_false(p5mon_parms_check(parms, "P", error, sizeof error));
    assert_string_equal(error, "P: expected command (the program to record) or trace");
    accepts("(p5mon\ntrace = t.trace;\nend)\n");
    assert_false(p5mon_parms_check(parms, "P", error, sizeof error));
    assert_string_equal(error,
                        "P: expected at least one event (an event name or count_clocks = yes)");
    parms->count_clocks = true;
    assert_true(p5mon_parms_check(parms, "P", error, sizeof error));
}

/* A PARMS file in $TMPDIR holding `text`; its path in `path`. */
static void write_parms(char *path, size_t size, const char *text)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/test_p5mon_parms-XXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static void load_reads_the_file_then_the_overrides(void **state)
{
    (void)state;
    char path[4096], where[4200];
    write_parms(path, sizeof path,
                "(p5mon\ncommand = ./a.out;\nrepetitions = 2;\nbranches = yes;\nend)\n");
    char *overrides[] = {"repetitions=7", "model_btb_entries=64"};
    parms->repetitions = 99;
    bool loaded = p5mon_parms_load(path, overrides, 2, parms, error, sizeof error);
    unlink(path);
    assert_true(loaded);
    assert_int_equal(parms->repetitions, 7);
    assert_string_equal(parms->command.value, "./a.out");
    snprintf(where, sizeof where, "%s:2", path);
    assert_string_equal(parms->command.where, where);
    assert_true(parms->events[0x12]);
    assert_string_equal(parms->model_parms[0].setting.where, "-F:2");
}

static void load_fails_at_the_first_bad_step(void **state)
{
    (void)state;
    char *overrides[] = {"branches=yes", "repetitions=0"};
    assert_false(p5mon_parms_load(NULL, overrides, 2, parms, error, sizeof error));
    assert_string_equal(error, "-F:2: bad repetitions '0' (expected a number: decimal or 0x hex, "
                               "1 to 1000)");
    assert_false(p5mon_parms_load(NULL, overrides, 1, parms, error, sizeof error));
    assert_string_equal(error, "-F: expected command (the program to record) or trace");
    errno = 0;
    assert_false(p5mon_parms_load("/nonexistent/STD_PARMS", NULL, 0, parms, error, sizeof error));
    assert_int_equal(errno, ENOENT);
    assert_non_null(strstr(error, "/nonexistent/STD_PARMS"));
}

static void model_is_the_preset_with_its_settings(void **state)
{
    (void)state;
    struct machine_config config;
    assert_true(p5mon_parms_override(parms, "model=pmmx", 1, error, sizeof error));
    assert_true(p5mon_parms_override(parms, "model_btb_entries=64", 2, error, sizeof error));
    assert_true(p5mon_parms_model(parms, &config, error, sizeof error));
    assert_int_equal(config.pmu, PMU_P5);
    assert_string_equal(config.p5.name, "pmmx");
    assert_int_equal(config.p5.btb_entries, 64);
    assert_true(p5mon_parms_override(parms, "model_bogus=1", 3, error, sizeof error));
    assert_false(p5mon_parms_model(parms, &config, error, sizeof error));
    assert_string_equal(error, "-F:3: unknown P5 model parameter 'bogus'");
    assert_true(p5mon_parms_override(parms, "model=pentium", 4, error, sizeof error));
    assert_false(p5mon_parms_model(parms, &config, error, sizeof error));
    assert_string_equal(error, "-F:4: unknown P5 model preset 'pentium' (expected p5, pmmx or "
                               "host)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(defaults_are_table_c1, setup, teardown),
        cmocka_unit_test_setup_teardown(reads_figure_c1, setup, teardown),
        cmocka_unit_test_setup_teardown(every_parameter_takes_its_value, setup, teardown),
        cmocka_unit_test_setup_teardown(events_follow_table_c1_order, setup, teardown),
        cmocka_unit_test_setup_teardown(all_39_events, setup, teardown),
        cmocka_unit_test_setup_teardown(layout_is_free, setup, teardown),
        cmocka_unit_test_setup_teardown(value_runs_to_the_last_semicolon, setup, teardown),
        cmocka_unit_test_setup_teardown(other_sections_are_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_syntax, setup, teardown),
        cmocka_unit_test_setup_teardown(long_line, setup, teardown),
        cmocka_unit_test_setup_teardown(nul_byte, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_values, setup, teardown),
        cmocka_unit_test_setup_teardown(unknown_and_twice, setup, teardown),
        cmocka_unit_test_setup_teardown(too_many_model_parameters, setup, teardown),
        cmocka_unit_test_setup_teardown(overrides, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_overrides, setup, teardown),
        cmocka_unit_test_setup_teardown(check, setup, teardown),
        cmocka_unit_test_setup_teardown(load_reads_the_file_then_the_overrides, setup, teardown),
        cmocka_unit_test_setup_teardown(load_fails_at_the_first_bad_step, setup, teardown),
        cmocka_unit_test_setup_teardown(model_is_the_preset_with_its_settings, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
