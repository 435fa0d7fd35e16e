/*
 * rdpmc: what a program sees of RDPMC and of UD2 (docs/emulate.md, "What
 * the program sees").  It catches SIGILL and SIGSEGV, runs RDPMC of
 * counter 12 (IQ_COUNTER0) and then UD2, and prints one line each: the
 * signal the instruction raised, or RDPMC's value.  On a Pentium 4 under
 * Linux, RDPMC at CPL 3 with CR4.PCE clear (as Linux leaves it without a
 * counter driver such as perfctr) raises #GP, SIGSEGV; under valgrind,
 * whose x86 decoder has no RDPMC, it raises SIGILL; UD2 raises #UD,
 * SIGILL, everywhere.  Exit status 0.
 *
 *   rdpmc
 */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf resume;
static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
    caught = sig;
    siglongjmp(resume, 1);
}

static void report(const char *what, uint64_t value)
{
    if (caught == SIGILL)
        printf("%s: SIGILL\n", what);
    else if (caught == SIGSEGV)
        printf("%s: SIGSEGV\n", what);
    else
        printf("%s: %llu\n", what, (unsigned long long)value);
}

int main(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGILL, &action, NULL);
    sigaction(SIGSEGV, &action, NULL);
    volatile uint32_t lo = 0, hi = 0;
    caught = 0;
    if (!sigsetjmp(resume, 1)) {
        uint32_t a, d;
        __asm__ volatile("rdpmc" : "=a"(a), "=d"(d) : "c"(12));
        lo = a;
        hi = d;
    }
    report("rdpmc", (uint64_t)hi << 32 | lo);
    caught = 0;
    if (!sigsetjmp(resume, 1))
        __asm__ volatile("ud2");
    report("ud2", 0);
    return 0;
}
