/* The models' tables of block memos (sim/common/block_table.h): grown by
 * doubling from 1024 to hold an id, new entries NULL, old ones kept;
 * refused past 2^32 - 1 entries with the table as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "sim/common/block_table.h"

static void test_grows(void **state)
{
    (void)state;
    uint32_t capacity = 0;
    int **table = block_table_reserve(NULL, &capacity, 0, sizeof *table);
    assert_non_null(table);
    assert_int_equal(capacity, 1024);
    assert_null(table[1023]);
    int one = 1;
    table[7] = &one;
    assert_ptr_equal(block_table_reserve(table, &capacity, 1023, sizeof *table), table);
    assert_int_equal(capacity, 1024);
    table = block_table_reserve(table, &capacity, 5000, sizeof *table);
    assert_non_null(table);
    assert_int_equal(capacity, 8192);
    assert_ptr_equal(table[7], &one);
    assert_null(table[1024]);
    assert_null(table[8191]);
    free(table);
}

static void test_refuses_past_32_bits(void **state)
{
    (void)state;
    uint32_t capacity = 1024;
    int **table = calloc(capacity, sizeof *table);
    assert_non_null(table);
    assert_null(block_table_reserve(table, &capacity, UINT32_MAX, sizeof *table));
    assert_int_equal(capacity, 1024);
    free(table);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grows),
        cmocka_unit_test(test_refuses_past_32_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
