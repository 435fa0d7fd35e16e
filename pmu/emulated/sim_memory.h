/* A small sparse memory for the simulated backends: 4 KiB pages allocated
 * on first write, zero wherever nothing was written.  The NetBurst PMU
 * reads the DS save area from it and writes PEBS records to it
 * (docs/semantics.md, "PEBS"). */
#ifndef PMU_EMULATED_SIM_MEMORY_H
#define PMU_EMULATED_SIM_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim_page;

struct sim_memory {
    struct sim_page **pages;  /* sorted by page number */
    size_t n_pages, cap_pages;
};

void sim_memory_init(struct sim_memory *memory);
void sim_memory_fini(struct sim_memory *memory);

/* Little-endian accesses of `size` bytes (1 to 8) at any address; an
 * access may straddle pages, and addresses wrap at 2^64.  A write returns
 * false when out of memory (bytes written before that stay written). */
uint64_t sim_memory_read(const struct sim_memory *memory, uint64_t addr, unsigned size);
bool sim_memory_write(struct sim_memory *memory, uint64_t addr, unsigned size, uint64_t value);

#endif
