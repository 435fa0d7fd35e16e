#include "cpu_view.h"

#include <stdio.h>
#include <string.h>

#include "cpu_parts.h"

const char *const cpu_view_names[] = {
    "host", "p5", "pmmx", "netburst", "netburst-willamette", "netburst-willamette0",
    "netburst-northwood", "netburst-prescott", "netburst-prescott4", NULL,
};

const char *cpu_view_for_model(const char *model)
{
    for (size_t i = 0; cpu_view_names[i]; i++)
        if (strcmp(model, cpu_view_names[i]) == 0)
            return cpu_view_names[i];
    return "host";
}

static struct cpuid_regs host_cpuid(uint32_t leaf, uint32_t subleaf)
{
    struct cpuid_regs r;
    __asm__ __volatile__("cpuid"
                         : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
                         : "0"(leaf), "2"(subleaf));
    return r;
}

/* Sorts the leaves by (leaf, subleaf): an insertion sort of a short table. */
static void sort_leaves(struct cpu_view *view)
{
    for (uint32_t i = 1; i < view->n; i++) {
        struct cpuid_leaf l = view->leaves[i];
        uint32_t k = i;
        for (; k > 0 && (view->leaves[k - 1].leaf > l.leaf ||
                         (view->leaves[k - 1].leaf == l.leaf && view->leaves[k - 1].subleaf > l.subleaf));
             k--)
            view->leaves[k] = view->leaves[k - 1];
        view->leaves[k] = l;
    }
}

static void add_leaf(struct cpu_view *view, uint32_t leaf, uint32_t subleaf,
                     struct cpuid_regs regs)
{
    if (view->n < CPU_VIEW_MAX_LEAVES)
        view->leaves[view->n++] = (struct cpuid_leaf){leaf, subleaf, regs};
}

/* The feature words valgrind's virtual CPUs report (valgrind 3.19, VEX's
 * CPUID helpers: amd64 `amd64g_dirtyhelper_CPUID_avx2`, a Core i7-4910MQ;
 * x86 `x86g_dirtyhelper_CPUID_sse3`, a Core 2 6600): a feature it reports
 * is one it executes.  The host view keeps a feature bit only when both
 * the host and this mask have it.  Measured by a program printing CPUID
 * under `valgrind --tool=none` (amd64) and read from the helper's code in
 * Debian's libvex-x86-linux.a (x86); docs/traces.md, "The CPU view". */
struct feature_mask {
    uint32_t leaf, subleaf;
    struct cpuid_regs keep;
};

static const struct feature_mask mask64[] = {
    {1, CPUID_ANY_SUBLEAF, {0xffffffffu, 0x00ffffffu, 0x7ffafbffu, 0xbfebfbffu}},
    {7, 0, {0, 0x000027aau, 0, 0}},
    {0x80000001u, CPUID_ANY_SUBLEAF, {0xffffffffu, 0xffffffffu, 0x00000021u, 0x2c100800u}},
};

static const struct feature_mask mask32[] = {
    {1, CPUID_ANY_SUBLEAF, {0xffffffffu, 0x00ffffffu, 0x0000e3bdu, 0xbfebfbffu}},
    {7, 0, {0, 0, 0, 0}},
    {0x80000001u, CPUID_ANY_SUBLEAF, {0xffffffffu, 0xffffffffu, 0x00000001u, 0x20100000u}},
};

/* Leaves passed as the host answers them: identity, caches, TLBs,
 * topology, brand, address sizes, power and frequency information.  The
 * mask's leaves come masked, leaf 0xD rebuilt (add_xsave_leaf); any other
 * leaf is left out (CPUID then answers zeros for it).  `indexed`: the
 * answer depends on ECX. */
struct passed_leaf {
    uint32_t leaf;
    bool indexed;
};

static const struct passed_leaf passed[] = {
    {0, false}, {1, false}, {2, false}, {4, true}, {5, false}, {6, false}, {7, true},
    {0xb, true}, {0xd, true}, {0x15, false}, {0x16, false}, {0x1f, true},
    {0x80000000u, false}, {0x80000001u, false}, {0x80000002u, false},
    {0x80000003u, false}, {0x80000004u, false}, {0x80000005u, false},
    {0x80000006u, false}, {0x80000007u, false}, {0x80000008u, false},
    {0x8000001du, true}, {0x8000001eu, false},
};

static struct cpuid_regs and_regs(struct cpuid_regs r, struct cpuid_regs m)
{
    return (struct cpuid_regs){r.eax & m.eax, r.ebx & m.ebx, r.ecx & m.ecx, r.edx & m.edx};
}

static bool regs_zero(struct cpuid_regs r)
{
    return !(r.eax | r.ebx | r.ecx | r.edx);
}

/* The host's answer as the view gives it: masked, APIC IDs cleared. */
static struct cpuid_regs host_answer(int bits, uint32_t leaf, uint32_t subleaf)
{
    struct cpuid_regs r = host_cpuid(leaf, subleaf);
    const struct feature_mask *mask = bits == 64 ? mask64 : mask32;
    size_t n = bits == 64 ? sizeof mask64 / sizeof mask64[0] : sizeof mask32 / sizeof mask32[0];
    for (size_t i = 0; i < n; i++)
        if (mask[i].leaf == leaf && (mask[i].subleaf == CPUID_ANY_SUBLEAF || mask[i].subleaf == subleaf))
            r = and_regs(r, mask[i].keep);
    if (leaf == 7 && subleaf > 0)
        r = (struct cpuid_regs){0, 0, 0, 0}; /* valgrind's CPUs have no subleaf 1 features */
    if (leaf == 0xb || leaf == 0x1f)
        r.edx = 0;                   /* x2APIC ID */
    if (leaf == 0x80000008u)
        r.ebx = 0;                   /* AMD's extended feature bits (CLZERO, WBNOINVD...) */
    if (leaf == 0x8000001eu) {
        r.eax = 0;                   /* extended APIC ID */
        r.ebx &= ~0xffu;             /* compute unit (core) ID */
        r.ecx &= ~0xffu;             /* node ID */
    }
    return r;
}

/* Leaf 0xD (XSAVE) for the state components valgrind saves: x87 and SSE,
 * and AVX when the view has it (valgrind's XGETBV answers 7 then).  Sizes
 * in the standard format: the 512-byte legacy area, the 64-byte header,
 * then AVX's 256 bytes at offset 576 (Intel SDM Vol. 1, "XSAVE-Supported
 * Features and State-Component Bitmaps"). */
static void add_xsave_leaf(struct cpu_view *view, uint32_t ecx1)
{
    bool avx = ecx1 & (1u << 28);
    uint32_t components = avx ? 7 : 3, size = avx ? 832 : 576;
    add_leaf(view, 0xd, 0, (struct cpuid_regs){components, size, size, 0});
    add_leaf(view, 0xd, 1, (struct cpuid_regs){0, 0, 0, 0});
    if (avx)
        add_leaf(view, 0xd, 2, (struct cpuid_regs){256, 576, 0, 0});
}

static void add_host_leaf(int bits, struct cpu_view *view, const struct passed_leaf *p)
{
    if (!p->indexed) {
        add_leaf(view, p->leaf, CPUID_ANY_SUBLEAF, host_answer(bits, p->leaf, 0));
        return;
    }
    for (uint32_t sub = 0; sub < 8; sub++) {
        struct cpuid_regs r = host_answer(bits, p->leaf, sub);
        /* the topology leaves end at a level of type 0 (ECX[15:8]),
         * whose ECX[7:0] still says its number */
        bool topology = p->leaf == 0xb || p->leaf == 0x1f;
        if (sub > 0 && (topology ? !(r.ecx & 0xff00u) : regs_zero(r)))
            break;
        add_leaf(view, p->leaf, sub, r);
    }
}

void cpu_view_host(int bits, struct cpu_view *view)
{
    memset(view, 0, sizeof *view);
    snprintf(view->name, sizeof view->name, "host");
    uint32_t max_basic = host_cpuid(0, 0).eax, max_ext = host_cpuid(0x80000000u, 0).eax;
    uint32_t ecx1 = host_answer(bits, 1, 0).ecx;
    /* valgrind's amd64 CPU has XSAVE and OSXSAVE only with AVX (its CPUs
     * without AVX report neither, and it runs XGETBV only then) */
    bool xsave = (ecx1 & 1u << 26) && (bits == 32 || (ecx1 & 1u << 28));
    for (size_t i = 0; i < sizeof passed / sizeof passed[0]; i++) {
        uint32_t leaf = passed[i].leaf;
        if (leaf < 0x80000000u ? leaf > max_basic : leaf > max_ext)
            continue;
        if (leaf == 0xd) {
            if (xsave)
                add_xsave_leaf(view, ecx1);
            continue;
        }
        add_host_leaf(bits, view, &passed[i]);
        if (leaf == 1 && !xsave)
            view->leaves[view->n - 1].regs.ecx &= ~(1u << 26 | 1u << 27);
    }
}

static struct cpuid_regs *find_leaf(struct cpu_view *view, uint32_t leaf)
{
    for (uint32_t i = 0; i < view->n; i++)
        if (view->leaves[i].leaf == leaf)
            return &view->leaves[i].regs;
    return NULL;
}

/* What an x86-64 program requires of CPUID (the x86-64 baseline, which
 * glibc's loader checks before it runs a dynamic program: System V AMD64
 * psABI, "x86-64 micro-architecture levels"): FPU, CX8, CMOV, MMX, FXSR,
 * SSE and SSE2 in leaf 1's EDX, SYSCALL in leaf 0x80000001's EDX; and the
 * long mode bit (LM) a 64-bit program runs in. */
enum {
    BASELINE_EDX1 = 1u << 0 | 1u << 8 | 1u << 15 | 1u << 23 | 1u << 24 | 1u << 25 | 1u << 26,
    BASELINE_EDX_EXT = 1u << 11 | 1u << 29,
};

bool cpu_view_widen_64(struct cpu_view *view)
{
    struct cpuid_regs *l1 = find_leaf(view, 1), *ext = find_leaf(view, 0x80000001u);
    if (l1 && (l1->edx & BASELINE_EDX1) == BASELINE_EDX1 && ext &&
        (ext->edx & BASELINE_EDX_EXT) == BASELINE_EDX_EXT)
        return false;
    uint32_t room = (find_leaf(view, 0x80000000u) ? 0 : 1) + (ext ? 0 : 1);
    if (view->n + room > CPU_VIEW_MAX_LEAVES)
        return false; /* a full table (no part's): left as it is */
    if (l1)
        l1->edx |= BASELINE_EDX1;
    if (!find_leaf(view, 0x80000000u))
        add_leaf(view, 0x80000000u, CPUID_ANY_SUBLEAF, (struct cpuid_regs){0x80000001u, 0, 0, 0});
    struct cpuid_regs *max_ext = find_leaf(view, 0x80000000u);
    if (max_ext->eax < 0x80000001u)
        max_ext->eax = 0x80000001u;
    if (!find_leaf(view, 0x80000001u))
        add_leaf(view, 0x80000001u, CPUID_ANY_SUBLEAF, (struct cpuid_regs){0, 0, 0, 0});
    find_leaf(view, 0x80000001u)->edx |= BASELINE_EDX_EXT;
    sort_leaves(view);
    return true;
}

bool cpu_view_named(const char *name, int bits, struct cpu_view *view, char *error,
                    size_t error_size)
{
    if (strcmp(name, "host") == 0) {
        cpu_view_host(bits, view);
        return true;
    }
    const char *part = strcmp(name, "netburst") == 0 ? "netburst-northwood" : name;
    for (size_t i = 0; i < cpu_parts_count; i++) {
        if (strcmp(cpu_parts[i].name, part) != 0)
            continue;
        memset(view, 0, sizeof *view);
        snprintf(view->name, sizeof view->name, "%s", name);
        for (size_t k = 0; k < cpu_parts[i].n; k++)
            add_leaf(view, cpu_parts[i].leaves[k].leaf, cpu_parts[i].leaves[k].subleaf,
                     cpu_parts[i].leaves[k].regs);
        /* Intel's processors report SYSCALL (0x80000001's EDX bit 11) only
         * in 64-bit mode (Intel SDM Vol. 2A, CPUID, leaf 80000001H). */
        struct cpuid_regs *ext = find_leaf(view, 0x80000001u);
        if (bits == 64 && ext && (ext->edx & 1u << 29))
            ext->edx |= 1u << 11;
        return true;
    }
    char names[256];
    size_t at = 0;
    for (size_t i = 0; cpu_view_names[i] && at < sizeof names; i++)
        at += (size_t)snprintf(names + at, sizeof names - at, "%s%s",
                               i == 0 ? "" : cpu_view_names[i + 1] ? ", " : " or ",
                               cpu_view_names[i]);
    snprintf(error, error_size, "unknown CPU '%s' (expected %s)", name, names);
    return false;
}

void cpu_view_hex(const struct cpu_view *view, char *out, size_t size)
{
    size_t at = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < view->n && at + 49 <= size; i++) {
        const struct cpuid_leaf *l = &view->leaves[i];
        at += (size_t)snprintf(out + at, size - at, "%08x%08x%08x%08x%08x%08x", l->leaf,
                               l->subleaf, l->regs.eax, l->regs.ebx, l->regs.ecx, l->regs.edx);
    }
}

static void put_register(char *out, uint32_t value)
{
    for (int i = 0; i < 4; i++)
        out[i] = (char)(value >> (8 * i));
}

void cpu_view_identify(const struct cpu_view *view, struct cpu_view_identity *id)
{
    memset(id, 0, sizeof *id);
    struct cpuid_regs l0 = cpu_view_answer(view, 0, 0);
    put_register(id->vendor, l0.ebx);
    put_register(id->vendor + 4, l0.edx);
    put_register(id->vendor + 8, l0.ecx);
    uint32_t eax = cpu_view_answer(view, 1, 0).eax;
    id->family = cpuid_display_family(eax);
    id->model = cpuid_display_model(eax);
    id->stepping = eax & 0xf;
    if (cpu_view_answer(view, 0x80000000u, 0).eax < 0x80000004u)
        return;
    for (uint32_t k = 0; k < 3; k++) {
        struct cpuid_regs r = cpu_view_answer(view, 0x80000002u + k, 0);
        put_register(id->brand + 16 * k, r.eax);
        put_register(id->brand + 16 * k + 4, r.ebx);
        put_register(id->brand + 16 * k + 8, r.ecx);
        put_register(id->brand + 16 * k + 12, r.edx);
    }
    id->brand[48] = '\0';
}

bool cpu_view_valid(const struct cpu_view *view, char *error, size_t error_size)
{
    size_t name_length = strnlen(view->name, sizeof view->name);
    if (name_length == 0 || name_length == sizeof view->name) {
        snprintf(error, error_size, "a CPU view's name of %zu bytes (expected 1-%d)",
                 name_length, CPU_VIEW_MAX_NAME - 1);
        return false;
    }
    if (view->n == 0 || view->n > CPU_VIEW_MAX_LEAVES) {
        snprintf(error, error_size, "a CPU view of %u leaves (expected 1-%d)", view->n,
                 CPU_VIEW_MAX_LEAVES);
        return false;
    }
    if (view->leaves[0].leaf != 0 || view->leaves[0].subleaf != CPUID_ANY_SUBLEAF) {
        snprintf(error, error_size, "a CPU view without leaf 0 (for every subleaf)");
        return false;
    }
    for (uint32_t i = 1; i < view->n; i++) {
        const struct cpuid_leaf *a = &view->leaves[i - 1], *b = &view->leaves[i];
        bool increasing = a->leaf < b->leaf || (a->leaf == b->leaf && a->subleaf < b->subleaf);
        bool mixed = a->leaf == b->leaf &&
                     (a->subleaf == CPUID_ANY_SUBLEAF || b->subleaf == CPUID_ANY_SUBLEAF);
        if (!increasing || mixed) {
            snprintf(error, error_size,
                     "CPU view leaf %u (0x%x.%x) does not follow 0x%x.%x (expected leaves "
                     "in increasing order, each once)",
                     i, b->leaf, b->subleaf, a->leaf, a->subleaf);
            return false;
        }
    }
    return true;
}
