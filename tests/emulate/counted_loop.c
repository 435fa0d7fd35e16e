#include "counted_loop.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void counted_loop(unsigned long n)
{
    __asm__ volatile("test %0, %0\n\t"
                     "jz 2f\n"
                     "1:\n\t"
                     "dec %0\n\t"
                     "jnz 1b\n"
                     "2:"
                     : "+r"(n)
                     :
                     : "cc");
}

/* The largest n this build accepts: COUNTED_LOOP_MAX, or less where an
 * unsigned long is 32 bits. */
#define OPERAND_MAX (COUNTED_LOOP_MAX < ULONG_MAX ? COUNTED_LOOP_MAX : ULONG_MAX)

unsigned long counted_loop_operand(const char *program, int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s N (the loop's iteration count, 0 to %llu)\n", program,
                (unsigned long long)OPERAND_MAX);
        exit(2);
    }
    char *end;
    errno = 0;
    unsigned long long n = strtoull(argv[1], &end, 10);
    if (argv[1][0] < '0' || argv[1][0] > '9' || *end || errno || n > OPERAND_MAX) {
        fprintf(stderr, "%s: bad count '%s' (expected a decimal number from 0 to %llu)\n",
                program, argv[1], (unsigned long long)OPERAND_MAX);
        exit(2);
    }
    return (unsigned long)n;
}
