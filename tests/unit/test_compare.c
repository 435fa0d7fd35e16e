/* `pmubench compare`'s pairing of two count sets, the P5 <-> generic
 * mapping, the difference arithmetic (Table 5.6 of Safford 1997) and the
 * counting of lackey's records (docs/compare.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pmu/p5_events.h"
#include "sim/compare/compare.h"
#include "sim/compare/measure.h"

static void add(struct count_set *set, const char *name, double value, int decimals)
{
    struct count count = {.name = (char *)name, .value = value, .decimals = decimals,
                          .region = -1};
    assert_non_null(count_set_add(set, &count));
}

static void add_unsupported(struct count_set *set, const char *name)
{
    struct count count = {.name = (char *)name, .status = COUNT_NOT_SUPPORTED,
                          .reason = "not supported on this machine", .region = -1};
    assert_non_null(count_set_add(set, &count));
}

static void test_canonical_names(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"instructions:u", "instructions"},   {"Branch-Instructions:uk", "branches"},
        {"L1-dcache-loads", "l1-dcache-loads"}, {"cpu-cycles:u", "cycles"},
        {"data_read", "data_read"},             {"weird:name", "weird:name"},
        {"x:", "x:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[64];
        event_canonical_name(cases[i][0], out, sizeof out);
        assert_string_equal(out, cases[i][1]);
    }
    char small[4];
    event_canonical_name("instructions", small, sizeof small);
    assert_string_equal(small, "ins");
}

/* Every row names a P5 event of pmu/p5_events.c (or lackey's loads and
 * stores), appears once, and has a note; a row that is not like for like
 * says so in its note. */
static void test_mapping_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < n_event_mappings; i++) {
        const struct event_mapping *m = &event_mappings[i];
        bool lackey = strcmp(m->event, "loads") == 0 || strcmp(m->event, "stores") == 0;
        bool clocks = strcmp(m->event, "count_clocks") == 0;
        assert_true(lackey || clocks || p5_event_by_name(m->event) != NULL);
        assert_non_null(m->note);
        /* -x joins a row's notes with "; ": a note never holds one. */
        assert_null(strchr(m->note, ';'));
        assert_true(m->like_for_like == (strstr(m->note, "not like for like") == NULL));
        char canonical[64];
        event_canonical_name(m->counterpart, canonical, sizeof canonical);
        assert_string_equal(canonical, m->counterpart);
        for (size_t j = 0; j < i; j++)
            assert_false(strcmp(m->event, event_mappings[j].event) == 0 &&
                         strcmp(m->counterpart, event_mappings[j].counterpart) == 0);
    }
}

static void test_mapping_find(void **state)
{
    (void)state;
    const struct event_mapping *m = event_mapping_find("data_read", "L1-dcache-loads:u");
    assert_non_null(m);
    assert_false(m->like_for_like);
    assert_string_equal(m->note, "L1-dcache-loads counts dispatched load operations, about 1.5x "
                                 "retired loads: not like for like");
    assert_ptr_equal(event_mapping_find("L1-DCACHE-LOADS", "data_read"), m);
    m = event_mapping_find("instructions_executed", "instructions:u");
    assert_non_null(m);
    assert_true(m->like_for_like);
    m = event_mapping_find("loads", "L1-dcache-loads:u");
    assert_non_null(m);
    assert_false(m->like_for_like);
    assert_true(event_mapping_find("data_read", "loads")->like_for_like);
    assert_true(event_mapping_find("data_write", "stores")->like_for_like);
    assert_null(event_mapping_find("data_read", "stores"));
    assert_null(event_mapping_find("btb_hits", "branches"));
}

/* Safford 1997, Table 5.6 (wc): the P5 result against run_p5mon's means. */
static void test_table_5_6(void **state)
{
    (void)state;
    struct count_set simulated, measured;
    count_set_init(&simulated, "pmubench p5");
    count_set_init(&measured, "run_p5mon");
    simulated.p5_names = measured.p5_names = true;
    add(&simulated, "data_read", 441127, 0);
    add(&simulated, "instructions_executed", 2248201, 0);
    add(&simulated, "btb_hits", 5, 0);
    add(&measured, "instructions_executed", 2266817.5, 1);
    add(&measured, "data_read", 448702.5, 1);
    add(&measured, "count_clocks", 100, 1);
    struct compare_table table;
    assert_true(compare_pair(&simulated, &measured, &table));
    assert_int_equal(table.n_rows, 4);
    assert_ptr_equal(table.rows[0].simulated, &simulated.counts[0]);
    assert_ptr_equal(table.rows[0].measured, &measured.counts[1]);
    assert_null(table.rows[0].mapping);
    assert_true(compare_like_for_like(&table.rows[0]));
    struct compare_difference d = compare_difference(&table.rows[0]);
    assert_true(d.defined);
    assert_true(d.difference == 7575.5);
    assert_int_equal(d.decimals, 1);
    assert_true(d.percent_defined);
    assert_true(d.percent > 1.688 && d.percent < 1.689); /* 7575.5 / 448702.5 */
    d = compare_difference(&table.rows[1]);
    assert_true(d.difference == 18616.5);
    assert_ptr_equal(table.rows[2].simulated, &simulated.counts[2]);
    assert_null(table.rows[2].measured);
    assert_false(compare_difference(&table.rows[2]).defined);
    assert_null(table.rows[3].simulated);
    assert_ptr_equal(table.rows[3].measured, &measured.counts[2]);
    compare_table_free(&table);
    count_set_free(&simulated);
    count_set_free(&measured);
}

static void test_difference_measured_zero(void **state)
{
    (void)state;
    struct count s = {.name = "a", .value = 3, .region = -1};
    struct count m = {.name = "a", .value = 0, .region = -1};
    struct compare_row row = {.simulated = &s, .measured = &m};
    struct compare_difference d = compare_difference(&row);
    assert_true(d.defined);
    assert_true(d.difference == -3);
    assert_false(d.percent_defined);
    s.value = 0;
    d = compare_difference(&row);
    assert_true(d.difference == 0);
    assert_true(d.percent_defined);
    assert_true(d.percent == 0);
    s.value = 12;
    m.value = 10;
    d = compare_difference(&row);
    assert_true(d.difference == -2);
    assert_true(d.percent == -20);
    m.status = COUNT_NOT_SUPPORTED;
    assert_false(compare_difference(&row).defined);
}

/* A P5 result against perf's generic events: pairs through the mapping,
 * branches with its note; unsupported counts are paired, not numbers. */
static void test_pair_through_mapping(void **state)
{
    (void)state;
    struct count_set simulated, measured;
    count_set_init(&simulated, "pmubench p5");
    count_set_init(&measured, "perf stat");
    simulated.p5_names = true;
    add(&simulated, "branches", 10, 0);
    add(&simulated, "data_read", 20, 0);
    add(&simulated, "data_write", 30, 0);
    add_unsupported(&measured, "L1-dcache-loads:u");
    add(&measured, "branches:u", 11, 0);
    add(&measured, "stores", 33, 0);
    struct compare_table table;
    assert_true(compare_pair(&simulated, &measured, &table));
    assert_int_equal(table.n_rows, 3);
    assert_ptr_equal(table.rows[0].measured, &measured.counts[1]);
    assert_string_equal(table.rows[0].mapping->note,
                        "every control transfer, SYSCALL included (the SDM's P5 also counts serializing instructions, the model does not: docs/p5-model.md)");
    assert_ptr_equal(table.rows[1].measured, &measured.counts[0]);
    assert_false(compare_like_for_like(&table.rows[1]));
    assert_false(compare_difference(&table.rows[1]).defined);
    assert_ptr_equal(table.rows[2].measured, &measured.counts[2]);
    assert_true(compare_like_for_like(&table.rows[2]));
    assert_true(compare_difference(&table.rows[2]).difference == 3);
    compare_table_free(&table);
    count_set_free(&simulated);
    count_set_free(&measured);
}

/* lackey against perf: both generic; loads pair with L1-dcache-loads, not
 * like for like. */
static void test_pair_generic_sets(void **state)
{
    (void)state;
    struct count_set simulated, measured;
    count_set_init(&simulated, "valgrind lackey");
    count_set_init(&measured, "perf");
    add(&simulated, "instructions", 100, 0);
    add(&simulated, "loads", 40, 0);
    add(&measured, "instructions:u", 101, 0);
    add(&measured, "L1-dcache-loads:u", 60, 0);
    struct compare_table table;
    assert_true(compare_pair(&simulated, &measured, &table));
    assert_int_equal(table.n_rows, 2);
    assert_null(table.rows[0].mapping);
    assert_ptr_equal(table.rows[0].measured, &measured.counts[0]);
    assert_non_null(table.rows[1].mapping);
    assert_false(compare_like_for_like(&table.rows[1]));
    assert_true(compare_difference(&table.rows[1]).percent == 100.0 * 20 / 60);
    compare_table_free(&table);
    count_set_free(&simulated);
    count_set_free(&measured);
}

static void test_lackey_lines(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "==123== Lackey, an example Valgrind tool\n",
        "I  04016a0,3\n",
        " S 1ffefff9f8,8\n",
        "I  04016a3,2\n", /* rep movsb: a record per iteration */
        " L 0404000,1\n",
        " S 0405000,1\n",
        "I  04016a3,2\n",
        " L 0404001,1\n",
        " S 0405001,1\n",
        "I  04016a5,4\n",
        " M 0405010,4\n",
        "I  04016a3,2\n", /* the same instruction again, later */
        "==123== Exit code:       0\n",
    };
    static const char *const not_records[] = {"I  zz,3", " X 0400,1", "I 0400", " L", "",
                                              "I  0400,3 extra", "valgrind: x: command not found"};
    struct lackey_counts counts = {0};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        assert_true(lackey_count_line(&counts, lines[i]) == (lines[i][0] != '='));
    for (size_t i = 0; i < sizeof not_records / sizeof not_records[0]; i++)
        assert_false(lackey_count_line(&counts, not_records[i]));
    assert_int_equal(counts.instructions, 4);
    assert_int_equal(counts.loads, 2);
    assert_int_equal(counts.stores, 3);
    assert_int_equal(counts.modifies, 1);
    struct count_set set;
    assert_true(lackey_count_set(&counts, "wc", &set));
    assert_string_equal(set.source, "valgrind lackey, wc");
    assert_false(set.p5_names);
    assert_true(count_set_find(&set, "instructions", -1)->value == 4);
    assert_true(count_set_find(&set, "loads", -1)->value == 3);  /* L + M */
    assert_true(count_set_find(&set, "stores", -1)->value == 4); /* S + M */
    count_set_free(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canonical_names),
        cmocka_unit_test(test_mapping_table),
        cmocka_unit_test(test_mapping_find),
        cmocka_unit_test(test_table_5_6),
        cmocka_unit_test(test_difference_measured_zero),
        cmocka_unit_test(test_pair_through_mapping),
        cmocka_unit_test(test_pair_generic_sets),
        cmocka_unit_test(test_lackey_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
