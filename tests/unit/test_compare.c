/* `pmubench compare`'s pairing of two count sets, the P5 <-> generic
 * mapping, the difference arithmetic (Table 5.6 of Safford 1997) and the
 * counting of lackey's records (docs/compare.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "pmu/catalog/p5_events.h"
#include "apps/compare/compare.h"
#include "apps/compare/measure.h"

/* `value` has at most `decimals` (<= 9) digits after the point. */
static void add(struct count_set *set, const char *name, double value, int decimals)
{
    struct count count = {.name = (char *)name, .value = (uint64_t)value,
                          .fraction = (uint32_t)((value - (double)(uint64_t)value) * 1e9 + 0.5),
                          .decimals = decimals, .region = -1};
    assert_non_null(count_set_add(set, &count));
}

/* The row's difference as compare prints it. */
static void assert_difference(const struct compare_row *row, const char *want)
{
    struct compare_difference d = compare_difference(row);
    char text[40];
    assert_true(d.defined);
    compare_format_difference(&d, text, sizeof text);
    assert_string_equal(text, want);
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

/* Every row names a P5 event of pmu/catalog/p5_events.c (or lackey's loads and
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
    assert_difference(&table.rows[0], "7575.5");
    assert_int_equal(d.decimals, 1);
    assert_true(d.percent_defined);
    assert_true(d.percent > 1.688 && d.percent < 1.689); /* 7575.5 / 448702.5 */
    assert_difference(&table.rows[1], "18616.5");
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
    assert_difference(&row, "-3");
    assert_false(d.percent_defined);
    s.value = 0;
    d = compare_difference(&row);
    assert_difference(&row, "0");
    assert_true(d.percent_defined);
    assert_true(d.percent == 0);
    s.value = 12;
    m.value = 10;
    d = compare_difference(&row);
    assert_difference(&row, "-2");
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
    assert_difference(&table.rows[2], "3");
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

/* `pmubench stat -e data_read:u,data_read:k`: the names without their
 * modifiers are alike, but a name the other set also has pairs only with
 * it; a name without a twin still pairs by its canonical name. */
static void test_pair_twins(void **state)
{
    (void)state;
    struct count_set simulated, measured;
    count_set_init(&simulated, "perf stat");
    count_set_init(&measured, "pmubench p5");
    measured.p5_names = true;
    add(&simulated, "data_read:u", 5, 0);
    add(&simulated, "data_read:k", 1, 0);
    add(&simulated, "branches:u", 7, 0);
    add(&measured, "DATA_READ:K", 2, 0);
    add(&measured, "data_read:u", 6, 0);
    add(&measured, "branches", 9, 0);
    struct compare_table table;
    assert_true(compare_pair(&simulated, &measured, &table));
    assert_int_equal(table.n_rows, 3);
    assert_ptr_equal(table.rows[0].simulated, &simulated.counts[0]);
    assert_ptr_equal(table.rows[0].measured, &measured.counts[1]);
    assert_ptr_equal(table.rows[1].simulated, &simulated.counts[1]);
    assert_ptr_equal(table.rows[1].measured, &measured.counts[0]);
    assert_ptr_equal(table.rows[2].simulated, &simulated.counts[2]);
    assert_ptr_equal(table.rows[2].measured, &measured.counts[2]);
    assert_difference(&table.rows[2], "2");
    compare_table_free(&table);
    count_set_free(&simulated);
    count_set_free(&measured);
}

/* Differences are exact to 2^64 - 1, fractions included (a double would
 * lose the units above 2^53). */
static void test_exact_difference(void **state)
{
    (void)state;
    struct count s = {.name = "a", .value = 9007199254740993, .region = -1};
    struct count m = {.name = "a", .value = 9007199254740995, .region = -1};
    struct compare_row row = {.simulated = &s, .measured = &m};
    assert_difference(&row, "2");
    s.value = UINT64_MAX;
    m.value = 0;
    assert_difference(&row, "-18446744073709551615");
    assert_false(compare_difference(&row).percent_defined);
    s = (struct count){.name = "a", .value = 7, .fraction = 250000000, .decimals = 2};
    m = (struct count){.name = "a", .value = UINT64_MAX, .fraction = 500000000, .decimals = 1};
    assert_difference(&row, "18446744073709551608.25");
    m = (struct count){.name = "a", .value = 7, .fraction = 0, .decimals = 1};
    assert_difference(&row, "-0.25");
    char text[40];
    compare_format_count(&s, text, sizeof text);
    assert_string_equal(text, "7.25");
    s = (struct count){.name = "a", .value = 5, .fraction = 50000000, .decimals = 3};
    compare_format_count(&s, text, sizeof text);
    assert_string_equal(text, "5.050");
}

/* ---- The pairing against its definition, every pair tried */

static bool has_twin(const struct count_set *set, const struct count *count)
{
    for (size_t i = 0; i < set->n_counts; i++)
        if (set->counts[i].region == count->region &&
            strcasecmp(set->counts[i].name, count->name) == 0)
            return true;
    return false;
}

/* docs/compare.md, "The mapping": the same region; a twin pairs only with
 * its twin; alike sets pair equal canonical names first, others the
 * mapping first. */
static bool definition_match(const struct count_set *simulated, const struct count *s,
                             const struct count_set *measured, const struct count *m,
                             const struct event_mapping **mapping)
{
    bool twin = has_twin(measured, s) || has_twin(simulated, m);
    *mapping = NULL;
    if (s->region != m->region || (twin && strcasecmp(s->name, m->name) != 0))
        return false;
    bool same = twin || event_same_name(s->name, m->name);
    if (simulated->p5_names == measured->p5_names && same)
        return true;
    *mapping = event_mapping_find(s->name, m->name);
    return *mapping || same;
}

/* The rows in order: simulated counts with their measured ones, then the
 * measured counts nothing paired; compared with compare_pair's. */
static void assert_pairs_as_defined(const struct count_set *simulated,
                                    const struct count_set *measured,
                                    const struct compare_table *table)
{
    size_t row = 0;
    bool paired[64] = {false};
    for (size_t i = 0; i < simulated->n_counts; i++) {
        bool found = false;
        for (size_t j = 0; j < measured->n_counts; j++) {
            const struct event_mapping *mapping;
            if (!definition_match(simulated, &simulated->counts[i], measured,
                                  &measured->counts[j], &mapping))
                continue;
            assert_true(row < table->n_rows);
            assert_ptr_equal(table->rows[row].simulated, &simulated->counts[i]);
            assert_ptr_equal(table->rows[row].measured, &measured->counts[j]);
            assert_ptr_equal(table->rows[row++].mapping, mapping);
            paired[j] = found = true;
        }
        if (!found) {
            assert_ptr_equal(table->rows[row].simulated, &simulated->counts[i]);
            assert_null(table->rows[row++].measured);
        }
    }
    for (size_t j = 0; j < measured->n_counts; j++)
        if (!paired[j]) {
            assert_null(table->rows[row].simulated);
            assert_ptr_equal(table->rows[row++].measured, &measured->counts[j]);
        }
    assert_int_equal(row, table->n_rows);
}

/* Random sets of names that pair every way (the same, twins, other case,
 * modifiers, aliases, mapping rows, regions, repeats): the hash-indexed
 * pairing gives the rows of the definition, in the same order. */
static void test_pair_as_defined(void **state)
{
    (void)state;
    static const char *const names[] = {
        "data_read", "DATA_READ:K", "data_read:u", "data_read:k", "loads", "L1-dcache-loads",
        "l1-dcache-loads:u", "branches", "branches:u", "Branch-Instructions", "cycles",
        "cpu-cycles:u", "count_clocks", "instructions", "instructions_executed:u", "stores",
        "data_write", "btb_hits",
    };
    enum { N_NAMES = sizeof names / sizeof names[0] };
    uint64_t g = 0x2545f4914f6cdd1dull;
    for (int round = 0; round < 2000; round++) {
        struct count_set sets[2];
        for (int s = 0; s < 2; s++) {
            count_set_init(&sets[s], "x");
            g ^= g << 13, g ^= g >> 7, g ^= g << 17;
            sets[s].p5_names = g & 1;
            for (unsigned i = 0, n = (unsigned)(g >> 8) % 12; i < n; i++) {
                g ^= g << 13, g ^= g >> 7, g ^= g << 17;
                struct count count = {.name = (char *)names[(g >> 4) % N_NAMES],
                                      .region = (int)((g >> 20) % 3) - 1};
                assert_non_null(count_set_add(&sets[s], &count));
            }
        }
        struct compare_table table;
        assert_true(compare_pair(&sets[0], &sets[1], &table));
        assert_pairs_as_defined(&sets[0], &sets[1], &table);
        compare_table_free(&table);
        count_set_free(&sets[0]);
        count_set_free(&sets[1]);
    }
}

/* 100,000 events a side, each in both sets: pairing examines one pair per
 * event, not every pair of the two sets. */
static void test_pair_linear(void **state)
{
    (void)state;
    enum { N = 100000 };
    struct count_set simulated, measured;
    count_set_init(&simulated, "perf stat");
    count_set_init(&measured, "perf stat");
    char name[32];
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "event%d:u", i);
        add(&simulated, name, i, 0);
        snprintf(name, sizeof name, "EVENT%d:u", N - 1 - i);
        add(&measured, name, 2 * (N - 1 - i), 0);
    }
    struct compare_table table;
    assert_true(compare_pair(&simulated, &measured, &table));
    assert_int_equal(table.n_rows, N);
    assert_int_equal(table.examined, N);
    for (int i = 0; i < N; i += 997) {
        assert_ptr_equal(table.rows[i].simulated, &simulated.counts[i]);
        assert_ptr_equal(table.rows[i].measured, &measured.counts[N - 1 - i]);
    }
    snprintf(name, sizeof name, "%d", N - 1);
    assert_difference(&table.rows[N - 1], name);
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
        cmocka_unit_test(test_pair_twins),
        cmocka_unit_test(test_exact_difference),
        cmocka_unit_test(test_pair_as_defined),
        cmocka_unit_test(test_pair_linear),
        cmocka_unit_test(test_lackey_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
