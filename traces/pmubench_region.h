/* pmubench_region.h: region markers for `pmubench record` (docs/traces.md,
 * "Regions"), as run_p5mon's assembly stubs have them (Safford 1997, section 4.2.2).
 *
 *   #include "pmubench_region.h"
 *   pmubench_region_begin(1);
 *   ... the code measured as region 1 ...
 *   pmubench_region_end(1);
 *
 * Recorded with `pmubench record`, each call becomes a region-begin or
 * region-end marker carrying N (as an unsigned 32-bit number), and the
 * call instruction, the function's own instructions and its return are left
 * out of the trace; only the caller's setting of the argument (typically
 * one `mov $N, %edi`, on i386 a push and the stack adjustment after the
 * call) stays.  Run natively, the functions do nothing.
 *
 * The recorder finds the functions by their names (symbols or debug info)
 * when it translates their first instruction, so they must be real calls to
 * functions with those names.  They are weak, non-inline definitions: a
 * compiler must assume a weak function may be replaced at link time, so at
 * any optimisation level (gcc and clang, -O2, -O3) it neither inlines them
 * nor clones or specialises them (no `.constprop` copies under another
 * name, no dropped argument), and calls them directly.  The header may be
 * included in several files of one program: the linker keeps one copy.
 * A static inline or a static noinline function would not do: the first is
 * no call at all, the second may be cloned under another name.
 *
 * PMUBENCH_P5MON_STUBS(N) defines run_p5mon's argument-less names (Safford 1997),
 * p5mon_asm_begreg_N and p5mon_asm_endreg_N (N decimal), which the
 * recorder treats the same way, taking the region number from the name,
 * for code written against run_p5mon's library. */
#ifndef TRACES_PMUBENCH_REGION_H
#define TRACES_PMUBENCH_REGION_H

#if defined(__GNUC__) || defined(__clang__)
#define PMUBENCH_REGION_FN __attribute__((weak, noinline, used))
#else
#define PMUBENCH_REGION_FN
#endif

void pmubench_region_begin(int n);
void pmubench_region_end(int n);

PMUBENCH_REGION_FN void pmubench_region_begin(int n)
{
#if defined(__GNUC__) || defined(__clang__)
    __asm__ volatile("" : : "r"(n));
#else
    (void)n;
#endif
}

PMUBENCH_REGION_FN void pmubench_region_end(int n)
{
#if defined(__GNUC__) || defined(__clang__)
    __asm__ volatile("" : : "r"(n));
#else
    (void)n;
#endif
}

#define PMUBENCH_P5MON_STUBS(N)                         \
    void p5mon_asm_begreg_##N(void);                    \
    void p5mon_asm_endreg_##N(void);                    \
    PMUBENCH_REGION_FN void p5mon_asm_begreg_##N(void) \
    {                                                   \
    }                                                   \
    PMUBENCH_REGION_FN void p5mon_asm_endreg_##N(void) \
    {                                                   \
    }

#endif
