/* The tables the timing models keep a memo of each basic block in, by its
 * id (traces/trace.h: ids are dense from 0, in order of first
 * appearance): sim/p5/p5_block.c and sim/netburst/nbm_block.c. */
#ifndef SIM_COMMON_BLOCK_TABLE_H
#define SIM_COMMON_BLOCK_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* `table`, an array of *capacity pointers of `size` bytes each, grown (by
 * doubling, from 1024) to hold index `id`, the new entries NULL: the array
 * to keep, its new capacity in *capacity; `table` itself when it already
 * holds `id`.  NULL, with `table` and *capacity as they were, when memory
 * ran out or the table would pass 2^32 - 1 entries. */
void *block_table_reserve(void *table, uint32_t *capacity, uint32_t id, size_t size);

#endif
