/* A hash index from (event name, region) to a position in an array, so
 * that finding a count or pairing two sets takes time linear in their
 * sizes, not quadratic (docs/compare.md, "Limits").  Names compare in any
 * case, as event names do.  Internal to apps/compare. */
#ifndef APPS_COMPARE_NAME_INDEX_H
#define APPS_COMPARE_NAME_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#define NAME_INDEX_NONE ((size_t)-1)

struct name_slot {
    const char *name;       /* NULL: a free slot */
    int region;
    size_t position;
};

/* {0} is an empty index. */
struct name_index {
    struct name_slot *slots; /* n_slots, a power of two, at most half used */
    size_t n_slots, n_used;
    size_t probes;           /* slots name_index_put examined, moving entries when
                                the table grows too: its work, for tests */
};

/* The position stored for (name, region), or NAME_INDEX_NONE. */
size_t name_index_get(const struct name_index *index, const char *name, int region);

/* Stores `position` for (name, region), replacing the one stored; `name`
 * is kept by pointer.  False when out of memory (the index is unchanged). */
bool name_index_put(struct name_index *index, const char *name, int region, size_t position);

void name_index_free(struct name_index *index);

#endif
