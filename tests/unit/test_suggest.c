/* The "did you mean" distance and threshold (util/suggest.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "util/suggest.h"

static void test_distance(void **state)
{
    (void)state;
    assert_int_equal(suggestion_distance("stat", "stat"), 0);
    assert_int_equal(suggestion_distance("stta", "stat"), 1);      /* transposition */
    assert_int_equal(suggestion_distance("sat", "stat"), 1);       /* deletion */
    assert_int_equal(suggestion_distance("staat", "stat"), 1);     /* insertion */
    assert_int_equal(suggestion_distance("stbt", "stat"), 1);      /* substitution */
    assert_int_equal(suggestion_distance("STAT", "stat"), 0);      /* case */
    assert_int_equal(suggestion_distance("kitten", "sitting"), 3);
    assert_int_equal(suggestion_distance("ca", "abc"), 3);         /* optimal string alignment */
    assert_int_equal(suggestion_distance("", "abc"), 3);
    assert_int_equal(suggestion_distance("abc", ""), 3);
    char long_name[300];
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    assert_int_equal(suggestion_distance(long_name, "a"), 255);
}

static const char *nearest(const char *typed, const char *const *names)
{
    struct suggestion s;
    suggestion_start(&s, typed);
    for (; *names; names++)
        suggestion_consider(&s, *names);
    return s.best;
}

static void test_threshold(void **state)
{
    (void)state;
    static const char *const commands[] = {"run", "encode", "decode", "list", "stat", "sample",
                                           "sweep", "plot", NULL};
    assert_string_equal(nearest("stta", commands), "stat");
    assert_string_equal(nearest("STAT", commands), "stat");
    assert_string_equal(nearest("ecnode", commands), "encode");
    assert_string_equal(nearest("sweeep", commands), "sweep");
    /* the nearer wins; among equals the first offered */
    assert_string_equal(nearest("dncode", commands), "encode");
    assert_null(nearest("stat", commands));     /* itself is no suggestion */
    assert_null(nearest("xyz", commands));      /* 3 letters: at most 1 edit */
    assert_null(nearest("slt", commands));      /* 2 edits from "list", "plot": too far */
    assert_string_equal(nearest("samplexx", commands), "sample"); /* 8 letters: 2 edits */
    assert_null(nearest("samplexxx", commands));                  /* 3 edits */
    assert_null(nearest("encodexyz", commands));
    static const char *const parts[] = {"willamette", "willamette0", "northwood", "prescott",
                                        "prescott4", NULL};
    assert_string_equal(nearest("northwod", parts), "northwood");
    assert_string_equal(nearest("wilamete", parts), "willamette");
    assert_null(nearest("p", parts));
    static const char *const letters[] = {"k", "u", "e", NULL};
    assert_string_equal(nearest("x", letters), "k");
    assert_null(nearest("", letters)); /* nothing typed: no guess */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance),
        cmocka_unit_test(test_threshold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
