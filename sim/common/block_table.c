/* The models' tables of block memos (sim/common/block_table.h). */
#include "sim/common/block_table.h"

#include <stdlib.h>
#include <string.h>

enum { INITIAL_ENTRIES = 1024 };

void *block_table_reserve(void *table, uint32_t *capacity, uint32_t id, size_t size)
{
    if (id < *capacity)
        return table;
    uint64_t grown = *capacity ? *capacity : INITIAL_ENTRIES;
    while (grown <= id)
        grown *= 2;
    if (grown > UINT32_MAX)
        return NULL;
    char *bigger = realloc(table, grown * size);
    if (!bigger)
        return NULL;
    memset(bigger + *capacity * size, 0, (grown - *capacity) * size);
    *capacity = (uint32_t)grown;
    return bigger;
}
