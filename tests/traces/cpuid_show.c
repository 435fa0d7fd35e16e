/* cpuid_show: prints what CPUID answers, a line per leaf ("LEAF.SUB: EAX
 * EBX ECX EDX" in hex), for the basic and extended leaves up to their
 * maxima (subleaves 0-3 of 4, 7 and 0xD), then XCR0 when the CPU has
 * OSXSAVE; with an argument N, also calls strlen N times on a 4 KB string
 * (glibc's routine of the CPU it saw).  tests/cli_record_cpu.sh runs it
 * under `pmubench record --cpu` (docs/traces.md, "The CPU view"). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __asm__ __volatile__("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                         : "0"(leaf), "2"(sub));
}

static void show(uint32_t leaf, uint32_t sub)
{
    uint32_t r[4];
    cpuid(leaf, sub, r);
    printf("%08x.%u: %08x %08x %08x %08x\n", leaf, sub, r[0], r[1], r[2], r[3]);
}

static void show_range(uint32_t first)
{
    uint32_t r[4];
    cpuid(first, 0, r);
    uint32_t last = r[0] >= first && r[0] - first < 64 ? r[0] : first;
    for (uint32_t leaf = first; leaf <= last; leaf++) {
        int subleaves = leaf == 4 || leaf == 7 || leaf == 0xd ? 4 : 1;
        for (int sub = 0; sub < subleaves; sub++)
            show(leaf, (uint32_t)sub);
    }
}

int main(int argc, char **argv)
{
    show_range(0);
    show_range(0x80000000u);
    uint32_t r[4];
    cpuid(1, 0, r);
    if (r[2] & (1u << 27)) {
        uint32_t lo, hi;
        __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        printf("xcr0: %08x%08x\n", hi, lo);
    }
    if (argc > 1) {
        static char text[4096];
        memset(text, 'x', sizeof text - 1);
        size_t sum = 0;
        for (long i = atol(argv[1]); i > 0; i--)
            sum += strlen(text + (i & 63));
        printf("strlen: %zu\n", sum);
    }
    return 0;
}
