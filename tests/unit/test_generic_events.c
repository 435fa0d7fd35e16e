/* perf's generic event names (pmu/catalog/generic_events.c): each row against
 * Linux's p4_general_events and the SDM (docs/events.md, "Generic
 * events"), the P5 rows against Safford 1997's codes, the look-up and the
 * line for an event a PMU lacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "pmu/catalog/generic_events.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/catalog/p5_events.h"

/* A NetBurst encoding as Linux's p4_general_events writes one: ESCR event
 * select and event mask, and the CCCR's compare and edge bits. */
struct nb_form {
    unsigned select, mask;
    bool compare, edge;
};

static const struct {
    const char *name;
    struct nb_form linux_form; /* arch/x86/events/intel/p4.c, p4_general_events */
    struct nb_form ours;       /* the SDM's, where it differs (docs/events.md) */
} netburst_rows[] = {
    /* global_power_events RUNNING: the same */
    {"cycles", {0x13, 0x0001, false, false}, {0x13, 0x0001, false, false}},
    /* instr_retired: Linux NBOGUSNTAG|BOGUSNTAG, ours NBOGUSNTAG|NBOGUSTAG */
    {"instructions", {0x02, 0x0005, false, false}, {0x02, 0x0003, false, false}},
    /* Linux retired_branch_type CONDITIONAL|CALL|RETURN|INDIRECT, ours
     * branch_retired MMNP|MMNM|MMTP|MMTM */
    {"branches", {0x04, 0x001e, false, false}, {0x06, 0x000f, false, false}},
    /* mispred_branch_retired NBOGUS: the same */
    {"branch-misses", {0x03, 0x0001, false, false}, {0x03, 0x0001, false, false}},
    /* BSQ_cache_reference: Linux the L2 and L3 read hits, ours the L2 read
     * hits and misses */
    {"cache-references", {0x0c, 0x003f, false, false}, {0x0c, 0x0107, false, false}},
    /* BSQ_cache_reference: Linux RD_2ndL_MISS|RD_3rdL_MISS|WR_2ndL_MISS,
     * ours RD_2ndL_MISS */
    {"cache-misses", {0x0c, 0x0700, false, false}, {0x0c, 0x0100, false, false}},
    /* FSB_data_activity DRDY_DRV|DRDY_OWN, edge-triggered: the same */
    {"bus-cycles", {0x17, 0x0003, true, true}, {0x17, 0x0003, true, true}},
};

static const struct generic_event *find(const char *name)
{
    const struct generic_event *event = generic_event_find(name);
    if (!event)
        fail_msg("no generic event '%s'", name);
    return event;
}

static struct event_spec parse(const char *text, const struct nb_pmu_config *config)
{
    struct event_spec spec;
    char error[1024];
    if (!event_spec_parse(text, config, &spec, error, sizeof error))
        fail_msg("%s", error);
    return spec;
}

/* The NetBurst string of `name`, encoded on `config`. */
static struct nb_encoding netburst_encoding(const char *name, const struct nb_pmu_config *config)
{
    char native[GENERIC_NATIVE_SIZE], text[GENERIC_NATIVE_SIZE + 16], error[256];
    assert_true(generic_event_native(find(name), name, PMU_NETBURST, native, sizeof native,
                                     error, sizeof error));
    snprintf(text, sizeof text, "netburst::%s", native);
    struct event_spec spec = parse(text, config);
    struct nb_encoding encoding;
    nb_encode(&spec.nb, config, &encoding);
    return encoding;
}

static void assert_form(const struct nb_encoding *e, const struct nb_form *form)
{
    assert_int_equal(escr_event_select(e->escr), form->select);
    assert_int_equal(escr_event_mask(e->escr), form->mask);
    assert_int_equal((e->cccr & CCCR_COMPARE) != 0, form->compare);
    assert_int_equal((e->cccr & CCCR_EDGE) != 0, form->edge);
    assert_int_equal(cccr_threshold(e->cccr), 0);
    assert_false(e->cccr & CCCR_COMPLEMENT);
}

static bool same_form(const struct nb_form *a, const struct nb_form *b)
{
    return a->select == b->select && a->mask == b->mask && a->compare == b->compare &&
           a->edge == b->edge;
}

/* Each NetBurst row encodes as documented on every CPUID model, with and
 * without Hyper-Threading; three are Linux's, four differ from it. */
static void netburst_rows_encode_as_documented(void **state)
{
    (void)state;
    static const int models[] = {0, 1, 2, 3, 4, 6};
    int as_linux = 0;
    for (size_t r = 0; r < sizeof netburst_rows / sizeof netburst_rows[0]; r++) {
        for (size_t m = 0; m < sizeof models / sizeof models[0]; m++)
            for (int ht = 0; ht < 2; ht++) {
                struct nb_pmu_config config = {models[m], ht};
                struct nb_encoding e = netburst_encoding(netburst_rows[r].name, &config);
                assert_form(&e, &netburst_rows[r].ours);
            }
        as_linux += same_form(&netburst_rows[r].linux_form, &netburst_rows[r].ours);
    }
    assert_int_equal(as_linux, 3);
}

/* The P5 rows: Safford 1997's events (Table 2.3), clocks for cycles. */
static void p5_rows_are_saffords_events(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int code; /* -1: clocks */
    } rows[] = {
        {"cycles", -1},
        {"instructions", P5_EV_INSTRUCTIONS_EXECUTED},
        {"branches", P5_EV_BRANCHES},
        {"branch-misses", P5_EV_PIPELINE_FLUSHES},
        {"cache-references", P5_EV_DATA_READ_OR_WRITE},
        {"cache-misses", P5_EV_DATA_READ_OR_WRITE_MISS},
        {"bus-cycles", P5_EV_CLOCKS_WHILE_BUS_CYCLE_IN_PROGRESS},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char native[GENERIC_NATIVE_SIZE], text[GENERIC_NATIVE_SIZE + 8], error[256];
        assert_true(generic_event_native(find(rows[r].name), rows[r].name, PMU_P5, native,
                                         sizeof native, error, sizeof error));
        snprintf(text, sizeof text, "p5::%s", native);
        struct event_spec spec = parse(text, &NB_CONFIG_DEFAULT);
        assert_int_equal(spec.pmu, PMU_P5);
        assert_int_equal(spec.p5.clocks, rows[r].code < 0);
        if (rows[r].code >= 0)
            assert_int_equal(spec.p5.code, rows[r].code);
        assert_true(spec.p5.os && spec.p5.usr);
    }
}

/* Every row but ref-cycles has an event on both PMUs; ref-cycles on
 * neither, with the line saying so. */
static void ref_cycles_is_on_neither(void **state)
{
    (void)state;
    for (int i = 0; i < generic_num_events; i++) {
        bool lacking = !generic_events[i].netburst || !generic_events[i].p5;
        assert_int_equal(lacking, generic_events[i].lacking != NULL);
    }
    assert_int_equal(generic_num_events, 8);
    char native[GENERIC_NATIVE_SIZE] = "", error[256];
    assert_false(generic_event_native(find("ref-cycles"), "ref-cycles:u", PMU_P5, native,
                                      sizeof native, error, sizeof error));
    assert_string_equal(error, "ref-cycles: the P5 has no event counting reference cycles, a "
                               "clock of constant rate (docs/events.md, \"Generic events\")");
    assert_false(generic_event_native(find("ref-cycles"), "ref-cycles", PMU_NETBURST, native,
                                      sizeof native, error, sizeof error));
    assert_string_equal(error, "ref-cycles: the NetBurst PMU has no event counting reference "
                               "cycles, a clock of constant rate (docs/events.md, \"Generic "
                               "events\")");
}

/* Names in any case, before the modifiers, which follow the native
 * string; nothing else is a generic name. */
static void finds_names_and_keeps_modifiers(void **state)
{
    (void)state;
    assert_string_equal(find("CYCLES:u")->name, "cycles");
    assert_string_equal(find("Branch-Misses")->name, "branch-misses");
    /* perf's aliases, the rows of their names */
    assert_string_equal(find("cpu-cycles:u")->name, "cycles");
    assert_string_equal(find("Branch-Instructions")->name, "branches");
    assert_string_equal(generic_event_named("CPU-CYCLES")->name, "cycles");
    assert_null(generic_event_named("cpu-cycles:u"));
    assert_null(generic_event_named("branch"));
    static const char *const others[] = {"cycle", "cycles-x", "", ":cycles", "clocks",
                                         "branch", "global_power_events:RUNNING"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        assert_null(generic_event_find(others[i]));
    char native[GENERIC_NATIVE_SIZE], error[256];
    assert_true(generic_event_native(find("cycles"), "Cycles:u", PMU_P5, native, sizeof native,
                                     error, sizeof error));
    assert_string_equal(native, "clocks:u");
    assert_true(generic_event_native(find("bus-cycles"), "bus-cycles:k:t0", PMU_NETBURST, native,
                                     sizeof native, error, sizeof error));
    assert_string_equal(native, "FSB_data_activity:DRDY_DRV:DRDY_OWN:e:k:t0");
    assert_true(generic_event_native(find("cpu-cycles"), "cpu-cycles:k", PMU_NETBURST, native,
                                     sizeof native, error, sizeof error));
    assert_string_equal(native, "global_power_events:RUNNING:k");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(netburst_rows_encode_as_documented),
        cmocka_unit_test(p5_rows_are_saffords_events),
        cmocka_unit_test(ref_cycles_is_on_neither),
        cmocka_unit_test(finds_names_and_keeps_modifiers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
