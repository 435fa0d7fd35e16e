/* Sparse simulated memory: a sorted array of 4 KiB pages, searched by
 * binary search.  Byte-wise accesses: PEBS writes a few records, it is not
 * on the per-cycle path. */
#include "sim_memory.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow_array.h"

enum { PAGE_SHIFT = 12, PAGE_SIZE = 1 << PAGE_SHIFT };

struct sim_page {
    uint64_t number;
    uint8_t bytes[PAGE_SIZE];
};

void sim_memory_init(struct sim_memory *memory)
{
    memset(memory, 0, sizeof *memory);
}

void sim_memory_fini(struct sim_memory *memory)
{
    for (size_t i = 0; i < memory->n_pages; i++)
        free(memory->pages[i]);
    free(memory->pages);
    sim_memory_init(memory);
}

/* Index of the first page whose number is >= `number`. */
static size_t lower_bound(const struct sim_memory *memory, uint64_t number)
{
    size_t lo = 0, hi = memory->n_pages;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (memory->pages[mid]->number < number)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static struct sim_page *find_page(const struct sim_memory *memory, uint64_t number)
{
    size_t i = lower_bound(memory, number);
    return i < memory->n_pages && memory->pages[i]->number == number ? memory->pages[i] : NULL;
}

static struct sim_page *add_page(struct sim_memory *memory, uint64_t number)
{
    if (!grow_array(&memory->pages, &memory->cap_pages, memory->n_pages + 1,
                    sizeof *memory->pages, 8))
        return NULL;
    struct sim_page *page = calloc(1, sizeof *page);
    if (!page)
        return NULL;
    page->number = number;
    size_t i = lower_bound(memory, number);
    memmove(&memory->pages[i + 1], &memory->pages[i], (memory->n_pages - i) * sizeof *memory->pages);
    memory->pages[i] = page;
    memory->n_pages++;
    return page;
}

uint64_t sim_memory_read(const struct sim_memory *memory, uint64_t addr, unsigned size)
{
    uint64_t value = 0;
    for (unsigned i = 0; i < size; i++) {
        uint64_t a = addr + i;
        const struct sim_page *page = find_page(memory, a >> PAGE_SHIFT);
        if (page)
            value |= (uint64_t)page->bytes[a & (PAGE_SIZE - 1)] << (8 * i);
    }
    return value;
}

bool sim_memory_write(struct sim_memory *memory, uint64_t addr, unsigned size, uint64_t value)
{
    for (unsigned i = 0; i < size; i++) {
        uint64_t a = addr + i;
        struct sim_page *page = find_page(memory, a >> PAGE_SHIFT);
        if (!page && !(page = add_page(memory, a >> PAGE_SHIFT)))
            return false;
        page->bytes[a & (PAGE_SIZE - 1)] = (uint8_t)(value >> (8 * i));
    }
    return true;
}
