/* The code bytes seen so far, by instruction address: a trace stores an
 * instruction's bytes only the first time (or when they change, for
 * self-modifying code).  Grows with the program's code, not with the
 * trace's length. */
#ifndef TRACES_CODE_CACHE_H
#define TRACES_CODE_CACHE_H

#include <stdbool.h>
#include <stdint.h>

struct code_cache;

struct code_cache *code_cache_create(void);
void code_cache_free(struct code_cache *cache);

/* The bytes cached for `address`, or NULL. */
const uint8_t *code_cache_find(const struct code_cache *cache, uint64_t address, uint8_t length);

/* Remembers `length` bytes at `address`; false when out of memory. */
bool code_cache_put(struct code_cache *cache, uint64_t address, uint8_t length,
                    const uint8_t *bytes);

#endif
