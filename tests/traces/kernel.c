/*
 * kernel.c: a small deterministic compute kernel, one of the programs of the
 * recorder's accuracy test (tests/traces/accuracy.sh, docs/traces.md
 * "Accuracy tests and the benchmark"), built 32-bit and static there:
 *
 *   cc -m32 -static -O2 -std=c11 tests/traces/kernel.c -o kernel32
 *
 * It sorts an array (its own Shell sort and the C library's qsort), hashes a
 * buffer (FNV-1a) and copies, fills and compares buffers with REP string
 * instructions (REP MOVSB, REP STOSD, REPE CMPSB: one instruction each, however
 * many iterations).  The same work every run, no time, no randomness:
 * about 1.4 million instructions (i386), and it prints
 * "kernel: checksum df198754".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_SORT 2000
#define N_QSORT 1500
#define BUF 16384

static uint32_t seed = 12345;

static uint32_t next(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

static void shell_sort(uint32_t *a, int n)
{
    static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
        int gap = gaps[g];
        for (int i = gap; i < n; i++) {
            uint32_t v = a[i];
            int j = i;
            for (; j >= gap && a[j - gap] > v; j -= gap)
                a[j] = a[j - gap];
            a[j] = v;
        }
    }
}

static int compare(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static uint32_t fnv1a(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* REP string instructions, written out so that the compiler and the C
 * library's choice of string functions cannot replace them. */
static void rep_movsb(void *dst, const void *src, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static void rep_stosd(void *dst, uint32_t v, size_t n)
{
    __asm__ volatile("rep stosl" : "+D"(dst), "+c"(n) : "a"(v) : "memory");
}

/* The number of leading bytes that are equal (REPE CMPSB). */
static size_t repe_cmpsb(const void *a, const void *b, size_t n)
{
    size_t left = n;
    unsigned char equal;
    __asm__ volatile("repe cmpsb\n\tsete %3"
                     : "+S"(a), "+D"(b), "+c"(left), "=q"(equal)
                     :
                     : "memory", "cc");
    return equal ? n : n - left - 1;
}

static uint32_t sorted[N_SORT], qsorted[N_QSORT];
static unsigned char buf[BUF], copy[BUF];

int main(void)
{
    uint32_t sum = 0;
    for (int i = 0; i < N_SORT; i++)
        sorted[i] = next();
    shell_sort(sorted, N_SORT);
    for (int i = 1; i < N_SORT; i++)
        if (sorted[i - 1] > sorted[i])
            return 1;
    for (int i = 0; i < N_QSORT; i++)
        qsorted[i] = next();
    qsort(qsorted, N_QSORT, sizeof qsorted[0], compare);
    sum += sorted[N_SORT / 2] ^ qsorted[N_QSORT / 3];

    for (int i = 0; i < BUF; i++)
        buf[i] = (unsigned char)next();
    for (int round = 0; round < 8; round++) {
        rep_movsb(copy, buf, BUF);
        copy[(round * 4099) % BUF] ^= 1;
        sum += (uint32_t)repe_cmpsb(copy, buf, BUF);
        rep_stosd(copy, 0x01010101u * (unsigned)round, BUF / 4);
        sum += copy[round];
    }
    sum += fnv1a(buf, BUF);
    printf("kernel: checksum %08x\n", (unsigned)sum);
    return 0;
}
