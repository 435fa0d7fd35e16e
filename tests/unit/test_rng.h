/* The unit tests' random numbers: splitmix64 (Steele, Lea and Flood 2014),
 * the same sequence on every machine.  A test takes each draw in a
 * statement of its own (or the condition of an if), never as one of
 * several operands or arguments of one expression, whose order of
 * evaluation C leaves unspecified (gcc and clang differ). */
#ifndef TESTS_UNIT_TEST_RNG_H
#define TESTS_UNIT_TEST_RNG_H

#include <stdint.h>

struct rng {
    uint64_t state;
};

static inline uint64_t next(struct rng *g)
{
    uint64_t z = (g->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A draw below n. */
static inline unsigned below(struct rng *g, unsigned n)
{
    return (unsigned)(next(g) % n);
}

#endif
