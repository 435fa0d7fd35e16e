/* The one growable array: room for `need` items of `item_size` bytes in
 * *items, doubling *capacity (from `first` when it is 0) until it holds
 * them: the NetBurst PMU's occurrences and scheduler heap, the simulated
 * memory's pages, compare's counts, rows, candidates and file text, the
 * interval series of a `stat --json` result read back and of `stat -I`, the
 * bench script's statements, the VCD writer's signals and the trace
 * summary's block counts (traces/trace_info.h).  (The trace block table
 * keeps its own: it is built into the recorder, which links none of the
 * library.) */
#ifndef UTIL_GROW_ARRAY_H
#define UTIL_GROW_ARRAY_H

#include <stdbool.h>
#include <stddef.h>

/* `items` is the address of the array's pointer.  True when it has room for `need` items (reallocated as needed, with
 * *capacity updated); false, with *items and *capacity as they were, when
 * the size overflows or memory runs out. */
bool grow_array(void *items, size_t *capacity, size_t need, size_t item_size, size_t first);

#endif
