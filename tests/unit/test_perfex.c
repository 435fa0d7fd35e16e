/* perfex's event specs (pmu/catalog/perfex.h): the study's spec of section 11.1
 * read and written back, a counter with and without the fast-RDPMC bit,
 * what is not CCCR/ESCR@PMC told apart from a bad number or counter, and
 * the CCCR given to an upstream ESCR (the study's for CRU_ESCR2). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pmu/catalog/netburst_msrs.h"
#include "pmu/catalog/perfex.h"

static void reads_and_writes_the_study_spec(void **state)
{
    (void)state;
    struct perfex_spec spec;
    assert_int_equal(perfex_spec_parse("0x0003B000/0x1200020C@0x8000000C", &spec),
                     PERFEX_SPEC_OK);
    assert_int_equal(spec.cccr, 0x3b000);
    assert_int_equal(spec.escr, 0x1200020c);
    assert_int_equal(spec.counter, 12);
    char text[PERFEX_SPEC_SIZE];
    perfex_spec_format(&spec, text);
    assert_string_equal(text, "0x0003B000/0x1200020C@0x8000000C");
    assert_int_equal(perfex_spec_parse("45056/0@17", &spec), PERFEX_SPEC_OK);
    assert_int_equal(spec.cccr, 45056);
    assert_int_equal(spec.escr, 0);
    assert_int_equal(spec.counter, 17);
    perfex_spec_format(&spec, text);
    assert_string_equal(text, "0x0000B000/0x00000000@0x80000011");
}

static void tells_syntax_from_values(void **state)
{
    (void)state;
    struct perfex_spec spec;
    static const char *const syntax[] = {"", "0x1", "0x1/0x2", "0x1@0x2/0x3",
                                         "0x00000000000000000000000000000000000000001/0@0"};
    for (size_t i = 0; i < sizeof syntax / sizeof syntax[0]; i++)
        assert_int_equal(perfex_spec_parse(syntax[i], &spec), PERFEX_SPEC_SYNTAX);
    static const char *const values[] = {"0x1/0x2@18", "0x1/0x2@0x80000012", "zz/0x2@1",
                                         "0x1/010@1", "0x1/0x2@", "/0x2@1"};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        assert_int_equal(perfex_spec_parse(values[i], &spec), PERFEX_SPEC_VALUE);
}

static void upstream_cccr_selects_its_escr(void **state)
{
    (void)state;
    assert_int_equal(perfex_upstream_cccr(nb_escr_index(0x3cc)), 0x3b000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_and_writes_the_study_spec),
        cmocka_unit_test(tells_syntax_from_values),
        cmocka_unit_test(upstream_cccr_selects_its_escr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
