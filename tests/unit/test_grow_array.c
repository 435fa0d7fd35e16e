/* util/grow_array.h: the first capacity, doubling until the need fits,
 * nothing done when it fits already, and false with the array kept when
 * the size overflows. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "util/grow_array.h"

static void starts_at_first_then_doubles(void **state)
{
    (void)state;
    int *items = NULL;
    size_t capacity = 0;
    assert_true(grow_array(&items, &capacity, 1, sizeof *items, 16));
    assert_int_equal(capacity, 16);
    items[15] = 7;
    assert_true(grow_array(&items, &capacity, 17, sizeof *items, 16));
    assert_int_equal(capacity, 32);
    assert_int_equal(items[15], 7);
    assert_true(grow_array(&items, &capacity, 100, sizeof *items, 16));
    assert_int_equal(capacity, 128);
    assert_int_equal(items[15], 7);
    free(items);
}

static void fits_already(void **state)
{
    (void)state;
    int *items = malloc(4 * sizeof *items);
    int *before = items;
    size_t capacity = 4;
    assert_true(grow_array(&items, &capacity, 4, sizeof *items, 16));
    assert_ptr_equal(items, before);
    assert_int_equal(capacity, 4);
    free(items);
}

static void overflow_keeps_the_array(void **state)
{
    (void)state;
    int *items = malloc(4 * sizeof *items);
    int *before = items;
    size_t capacity = 4;
    assert_false(grow_array(&items, &capacity, SIZE_MAX / 2 + 2, sizeof *items, 16));
    assert_false(grow_array(&items, &capacity, SIZE_MAX / 4, sizeof *items, 16));
    assert_ptr_equal(items, before);
    assert_int_equal(capacity, 4);
    free(items);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(starts_at_first_then_doubles),
        cmocka_unit_test(fits_already),
        cmocka_unit_test(overflow_keeps_the_array),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
