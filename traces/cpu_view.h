/* The CPU a recorded program sees: the answers of its CPUID instruction
 * (docs/traces.md, "The CPU view").
 *
 * A view is a table of CPUID leaves.  `pmubench record` gives one to the
 * recorder, whose program then sees it instead of valgrind's virtual CPU,
 * the trace's header keeps it, and a native reference run can be given the
 * same one (tests/traces/stepcount.c), so that both runs take the same
 * paths through glibc's start-up and its CPU-dependent string routines.
 *
 * Two kinds of view:
 *   "host"   this machine's CPUID, with the feature bits the recorder does
 *            not execute cleared (cpu_view_host);
 *   a part   the CPUID of one of the modelled processors, named as `stat
 *            -m` names their timing models: "p5", "pmmx", "netburst" (=
 *            "netburst-northwood"), "netburst-willamette",
 *            "netburst-willamette0", "netburst-northwood",
 *            "netburst-prescott", "netburst-prescott4" (traces/cpu_parts.c).
 *
 * The answering function is header-only and uses no libc: the recorder's
 * valgrind tool answers CPUID with it. */
#ifndef TRACES_CPU_VIEW_H
#define TRACES_CPU_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    CPU_VIEW_MAX_LEAVES = 192,
    CPU_VIEW_MAX_NAME = 32,              /* bytes of a view's name, NUL included */
};

/* A leaf's subleaf when the leaf does not depend on ECX. */
#define CPUID_ANY_SUBLEAF 0xffffffffu

struct cpuid_regs {
    uint32_t eax, ebx, ecx, edx;
};

struct cpuid_leaf {
    uint32_t leaf;
    uint32_t subleaf;          /* CPUID_ANY_SUBLEAF: every ECX */
    struct cpuid_regs regs;
};

/* Leaves sorted by (leaf, subleaf), each once; n == 0: no view (a trace
 * from before views, or an import). */
struct cpu_view {
    char name[CPU_VIEW_MAX_NAME];
    uint32_t n;
    struct cpuid_leaf leaves[CPU_VIEW_MAX_LEAVES];
};

/* The highest basic and extended leaves (leaf 0's EAX, leaf 0x80000000's;
 * 0 when absent), and whether the view is GenuineIntel's. */
struct cpu_view_maxima {
    bool have_basic, intel;
    uint32_t basic, extended;
};

static inline struct cpu_view_maxima cpu_view_maxima(const struct cpu_view *view)
{
    struct cpu_view_maxima m = {false, false, 0, 0};
    for (uint32_t i = 0; i < view->n; i++) {
        const struct cpuid_leaf *l = &view->leaves[i];
        if (l->leaf == 0) {
            m.basic = l->regs.eax;
            m.have_basic = true;
            /* "GenuineIntel": EBX, EDX, ECX */
            m.intel = l->regs.ebx == 0x756e6547u && l->regs.edx == 0x49656e69u &&
                      l->regs.ecx == 0x6c65746eu;
        } else if (l->leaf == 0x80000000u) {
            m.extended = l->regs.eax;
        }
    }
    return m;
}

static inline bool cpu_view_maxima_cover(struct cpu_view_maxima m, uint32_t leaf)
{
    return m.have_basic && (leaf < 0x80000000u ? leaf <= m.basic
                                               : m.extended >= 0x80000000u && leaf <= m.extended);
}

/* Whether `leaf` is at most the maximum of its range, as software checks
 * before it reads a leaf: the view answers it itself. */
static inline bool cpu_view_in_range(const struct cpu_view *view, uint32_t leaf)
{
    return cpu_view_maxima_cover(cpu_view_maxima(view), leaf);
}

/* What CPUID answers for EAX = leaf, ECX = subleaf on the viewed CPU.  A
 * leaf the table holds answers from it (an indexed leaf's missing subleaf:
 * zeros).  A leaf above the maximum of its range (leaf 0's EAX for basic
 * leaves, leaf 0x80000000's for extended ones) answers, on a GenuineIntel
 * view, as the highest basic leaf does, as Intel's processors do (Intel
 * SDM Vol. 2A, CPUID, "INPUT EAX = 0: Returns CPUID's Highest Value for
 * Basic Processor Information"); everything else answers zeros. */
static inline struct cpuid_regs cpu_view_answer(const struct cpu_view *view, uint32_t leaf,
                                                uint32_t subleaf)
{
    struct cpuid_regs zero = {0, 0, 0, 0};
    struct cpu_view_maxima m = cpu_view_maxima(view);
    if (!m.have_basic)
        return zero;
    if (!cpu_view_maxima_cover(m, leaf)) {
        if (!m.intel)
            return zero;
        leaf = m.basic;
    }
    for (uint32_t i = 0; i < view->n; i++) {
        const struct cpuid_leaf *l = &view->leaves[i];
        if (l->leaf == leaf && (l->subleaf == CPUID_ANY_SUBLEAF || l->subleaf == subleaf))
            return l->regs;
    }
    return zero;
}

/* The SDM's DisplayFamily and DisplayModel of CPUID.1:EAX (Intel SDM Vol.
 * 2A, CPUID, "Feature Information"): the family is EAX[11:8], plus the
 * extended family EAX[27:20] when that is 15; the model is EAX[7:4], with
 * the extended model EAX[19:16] above it when the family field is 6 or 15. */
static inline unsigned cpuid_display_family(uint32_t eax)
{
    unsigned family = (eax >> 8) & 0xf;
    return family == 0xf ? family + ((eax >> 20) & 0xff) : family;
}

static inline unsigned cpuid_display_model(uint32_t eax)
{
    unsigned family = (eax >> 8) & 0xf, model = (eax >> 4) & 0xf;
    return family == 6 || family == 0xf ? model | ((eax >> 12) & 0xf0) : model;
}

/* XCR0 as XGETBV with ECX = 0 reads it on the viewed CPU: the state
 * components CPUID leaf 0xD subleaf 0 enumerates (EDX:EAX), when the view
 * has OSXSAVE (CPUID.1:ECX[27]); else 0 (XGETBV faults there). */
static inline uint64_t cpu_view_xcr0(const struct cpu_view *view)
{
    if (!(cpu_view_answer(view, 1, 0).ecx & (1u << 27)))
        return 0;
    struct cpuid_regs d = cpu_view_answer(view, 0xd, 0);
    return (uint64_t)d.edx << 32 | d.eax;
}

/* The view `name` ("host" or a part, above) for programs of `bits` (32
 * or 64) bits; false with one line in `error` for an unknown name. */
bool cpu_view_named(const char *name, int bits, struct cpu_view *view, char *error,
                    size_t error_size);

/* Gives a part's view what a 64-bit program requires of CPUID when it
 * lacks some (the x86-64 baseline: FPU, CX8, CMOV, MMX, FXSR, SSE, SSE2,
 * SYSCALL, and long mode): a dynamic 64-bit program's loader refuses to
 * run on less.  True when it added any (the P5s and the NetBurst parts
 * without EM64T, whose processors ran no 64-bit program); a table too full
 * to take the leaves it would add (no part's is) is left as it is. */
bool cpu_view_widen_64(struct cpu_view *view);

/* The names cpu_view_named() takes, NULL-terminated. */
extern const char *const cpu_view_names[];

/* The view a program recorded for the timing model `model` (`stat -m`'s
 * names) sees by default: the model's part when there is a view of that
 * name ("p5", "netburst-prescott"...), else "host". */
const char *cpu_view_for_model(const char *model);

/* This machine's CPUID as the recorder can run it for programs of `bits`
 * bits: vendor, signature, brand, caches and topology as the host answers
 * (initial APIC IDs, AMD's core and node IDs 0, so that the view does not
 * depend on the core it was read on, but for a hybrid part's leaf 4), the feature words ANDed with what valgrind's virtual CPU
 * executes (its own CPUID's bits: docs/traces.md, "The CPU view"), the
 * XSAVE leaf rebuilt for the state components left, every other leaf
 * absent (zeros). */
void cpu_view_host(int bits, struct cpu_view *view);

/* The view as the option the recorder's tool takes: 48 hex digits a leaf
 * (leaf, subleaf, EAX, EBX, ECX, EDX, each 8 digits).  `size` must hold
 * 48 * n + 1 bytes. */
void cpu_view_hex(const struct cpu_view *view, char *out, size_t size);

/* The identity a view's leaves 0, 1 and 0x80000002-4 give. */
struct cpu_view_identity {
    char vendor[13];
    unsigned family, model, stepping;   /* the SDM's DisplayFamily and DisplayModel */
    char brand[49];                      /* "" when the view has no brand string */
};
void cpu_view_identify(const struct cpu_view *view, struct cpu_view_identity *id);

/* Whether the table is well formed: a name of 1-31 bytes, 1 to
 * CPU_VIEW_MAX_LEAVES leaves strictly increasing in (leaf, subleaf),
 * a leaf 0 for every subleaf first, and no leaf given both as indexed and
 * as CPUID_ANY_SUBLEAF.
 * False with what is wrong in `error`. */
bool cpu_view_valid(const struct cpu_view *view, char *error, size_t error_size);

#endif
