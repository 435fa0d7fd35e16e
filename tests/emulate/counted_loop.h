/* counted_loop: a loop of a known instruction count (selfmon, selfmon_p5,
 * work) and its iteration-count operand.  tests/emulate/README.md,
 * "Expected counts". */
#ifndef TESTS_EMULATE_COUNTED_LOOP_H
#define TESTS_EMULATE_COUNTED_LOOP_H

/* Retires exactly 2 * n + 2 instructions between its first and last
 * instruction of the asm block: test, jz, then n times dec, jnz (n = 0 is
 * test and a taken jz). */
void counted_loop(unsigned long n);

/* The largest n accepted: 2 * n + 2 stays below 2^40, where the 40-bit
 * counters of both parts wrap. */
#define COUNTED_LOOP_MAX 100000000000ull

/* argv[1] as n, the only operand; a missing, extra, malformed or too large
 * operand is one line on stderr and exit status 2. */
unsigned long counted_loop_operand(const char *program, int argc, char **argv);

#endif
