/* The one growable array (util/grow_array.h). */
#include "util/grow_array.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool grow_array(void *items, size_t *capacity, size_t need, size_t item_size, size_t first)
{
    if (need <= *capacity)
        return true;
    size_t grown = *capacity ? *capacity : first ? first : 1;
    while (grown < need) {
        if (grown > SIZE_MAX / 2)
            return false;
        grown *= 2;
    }
    if (grown > SIZE_MAX / item_size)
        return false;
    void *old;
    memcpy(&old, items, sizeof old);
    void *bigger = realloc(old, grown * item_size);
    if (!bigger)
        return false;
    memcpy(items, &bigger, sizeof bigger);
    *capacity = grown;
    return true;
}
