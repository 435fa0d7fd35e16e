/* Shared by the Sprunt paper benchmarks (traces/paper/README.md): the
 * repetition count from argv[1], and a buffer aligned to 8 KB, the size of
 * the Pentium 4's L1 data cache (4-way: addresses 8 KB apart share a set). */
#ifndef TRACES_PAPER_PAPER_COMMON_H
#define TRACES_PAPER_PAPER_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { PAPER_L1_SIZE = 8192 };

/* The first 8 KB boundary in `raw` (which has PAPER_L1_SIZE bytes to
 * spare).  Aligned at run time: an 8 KB-aligned static array (_Alignas)
 * gets a .bss segment of its own, and valgrind then found no symbols in
 * the program's text (a 64-bit static l1_miss recorded no region markers
 * and lost loads). */
static inline unsigned char *paper_align(unsigned char *raw)
{
    uintptr_t mask = PAPER_L1_SIZE - 1;
    return (unsigned char *)(((uintptr_t)raw + mask) & ~mask);
}

/* argv[1] as a positive count, else `fallback`; exits 2 on a bad one. */
static inline unsigned long paper_count(int argc, char **argv, unsigned long fallback)
{
    if (argc < 2)
        return fallback;
    char *end;
    unsigned long n = strtoul(argv[1], &end, 10);
    if (argc > 2 || *end || n == 0 || argv[1][0] == '-') {
        fprintf(stderr, "usage: %s [COUNT] (COUNT > 0, default %lu)\n", argv[0], fallback);
        exit(2);
    }
    return n;
}

#endif
