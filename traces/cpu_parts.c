/* The CPUID answers of the modelled processors, leaf by leaf: the parts
 * `pmubench record --cpu` gives a program (traces/cpu_view.h).  Each
 * table is a CPUID dump of a real part (InstLatx64's collection, file
 * named in the comment) unless a value says otherwise; docs/traces.md,
 * "The CPU view", decodes them and lists the sources.  Leaves sorted by
 * (leaf, subleaf), as a view's.  A part answers a leaf above its maximum
 * with its highest basic leaf (cpu_view_answer()); the P5s have no
 * extended leaves (Intel SDM Vol. 2A, CPUID, of 2004: "Not Implemented"). */
#include "cpu_parts.h"

#define ANY CPUID_ANY_SUBLEAF
/* Leaf 0: the highest basic leaf, "GenuineIntel" in EBX, EDX, ECX. */
#define LEAF0(max) {0, ANY, {(max), 0x756e6547u, 0x6c65746eu, 0x49656e69u}}
/* The Pentium 4's brand string, "Intel(R) Pentium(R) 4 CPU " right-aligned
 * in 48 bytes, then the frequency: its last register pair. */
#define P4_BRAND(ecx4, edx4) \
    {0x80000002u, ANY, {0x20202020u, 0x20202020u, 0x20202020u, 0x6e492020u}}, \
    {0x80000003u, ANY, {0x286c6574u, 0x50202952u, 0x69746e65u, 0x52286d75u}}, \
    {0x80000004u, ANY, {0x20342029u, 0x20555043u, (ecx4), (edx4)}}

/* Pentium 100 MHz (P54C), 0525h (GenuineIntel0000525_P54C_CPUID.txt): FPU
 * VME DE PSE TSC MSR MCE CX8; a one-processor board, local APIC off. */
static const struct cpuid_leaf p5[] = {
    LEAF0(1),
    {1, ANY, {0x00000525u, 0, 0, 0x000001bfu}},
};

/* Pentium MMX 200 MHz (P55C), 0543h (GenuineIntel0000543_P55C_CPUID.txt):
 * the P54C's features and MMX; APIC off as on a one-processor board
 * (GenuineIntel0000582_P55C_Tillamook_CPUID.txt; the 0543h dump is of a
 * two-processor board, 0x008003bf). */
static const struct cpuid_leaf pmmx[] = {
    LEAF0(1),
    {1, ANY, {0x00000543u, 0, 0, 0x008001bfu}},
};

/* Pentium 4 1.70 GHz (Willamette, model 0), 0F0Ah
 * (GenuineIntel0000F0A_P4_Willamette_CPUID.txt): SSE2, 256 KB L2
 * (descriptor 7A), 8 KB L1 data (66), 12K-uop trace cache (70). */
static const struct cpuid_leaf willamette0[] = {
    LEAF0(2),
    {1, ANY, {0x00000f0au, 0x00010808u, 0, 0x3febfbffu}},
    {2, ANY, {0x665b5001u, 0, 0, 0x007a7040u}},
    {0x80000000u, ANY, {0x80000004u, 0, 0, 0}},
    {0x80000001u, ANY, {0, 0, 0, 0}},
    P4_BRAND(0x30303731u, 0x007a484du), /* "1700MHz" */
};

/* Pentium 4 1.80 GHz (Willamette, model 1), 0F12h: the signature and EDX
 * as observed (PegtopCPUUtils' table: 00000f12-3febfbff); the rest as the
 * 0F0Ah part's, the brand string that of its frequency (inferred: no dump
 * of a model 1 Pentium 4 was found). */
static const struct cpuid_leaf willamette[] = {
    LEAF0(2),
    {1, ANY, {0x00000f12u, 0x00010808u, 0, 0x3febfbffu}},
    {2, ANY, {0x665b5001u, 0, 0, 0x007a7040u}},
    {0x80000000u, ANY, {0x80000004u, 0, 0, 0}},
    {0x80000001u, ANY, {0, 0, 0, 0}},
    P4_BRAND(0x30382e31u, 0x007a4847u), /* "1.80GHz" */
};

/* Pentium 4 2.80 GHz "C" (Northwood, Hyper-Threading), 0F29h
 * (GenuineIntel0000F29_P4_Northwood_CPUID.txt), logical processor 0: two
 * logical processors, CNXT-ID and xTPR, 512 KB L2 (7B). */
static const struct cpuid_leaf northwood[] = {
    LEAF0(2),
    {1, ANY, {0x00000f29u, 0x00020809u, 0x00004400u, 0xbfebfbffu}},
    {2, ANY, {0x665b5001u, 0, 0, 0x007b7040u}},
    {0x80000000u, ANY, {0x80000004u, 0, 0, 0}},
    {0x80000001u, ANY, {0, 0, 0, 0}},
    P4_BRAND(0x30382e32u, 0x007a4847u), /* "2.80GHz" */
};

/* Pentium 4 3.00 GHz (Prescott, model 3), 0F34h
 * (GenuineIntel0000F34_P4_Prescott_CPUID.txt): SSE3, MONITOR, 16 KB L1
 * data (60), 1 MB L2 (7C), leaves 4 and 5; no EM64T. */
static const struct cpuid_leaf prescott[] = {
    LEAF0(5),
    {1, ANY, {0x00000f34u, 0x00020800u, 0x0000441du, 0xbfebfbffu}},
    {2, ANY, {0x605b5001u, 0, 0, 0x007c7040u}},
    {3, ANY, {0, 0, 0, 0}},
    {4, 0, {0x00004121u, 0x01c0003fu, 0x0000001fu, 0}},
    {4, 1, {0x00004143u, 0x01c0103fu, 0x000003ffu, 0}},
    {5, ANY, {0x00000040u, 0x00000040u, 0, 0}},
    {0x80000000u, ANY, {0x80000008u, 0, 0, 0}},
    {0x80000001u, ANY, {0, 0, 0, 0}},
    P4_BRAND(0x30302e33u, 0x007a4847u), /* "3.00GHz" */
    {0x80000005u, ANY, {0, 0, 0, 0}},
    {0x80000006u, ANY, {0, 0, 0x04006040u, 0}},
    {0x80000007u, ANY, {0, 0, 0, 0}},
    {0x80000008u, ANY, {0x00002024u, 0, 0, 0}},
};

/* Pentium 4 640 3.20 GHz (Prescott-2M, model 4), 0F43h
 * (GenuineIntel0000F43_P4_Prescott_CPUID.txt, read by a 32-bit program):
 * EM64T (LM) and NX, CX16, EST, 2 MB L2 (7D).  A 64-bit program also
 * sees SYSCALL in 0x80000001's EDX, which Intel's processors report in
 * 64-bit mode only (inferred: no 64-bit dump of this part was found). */
static const struct cpuid_leaf prescott4[] = {
    LEAF0(5),
    {1, ANY, {0x00000f43u, 0x00020800u, 0x0000649du, 0xbfebfbffu}},
    {2, ANY, {0x605b5001u, 0, 0, 0x007d7040u}},
    {3, ANY, {0, 0, 0, 0}},
    {4, 0, {0x00004121u, 0x01c0003fu, 0x0000001fu, 0}},
    {4, 1, {0x00004143u, 0x01c0103fu, 0x000007ffu, 0}},
    {5, ANY, {0x00000040u, 0x00000040u, 0, 0}},
    {0x80000000u, ANY, {0x80000008u, 0, 0, 0}},
    {0x80000001u, ANY, {0, 0, 0, 0x20100000u}},
    P4_BRAND(0x30322e33u, 0x007a4847u), /* "3.20GHz" */
    {0x80000005u, ANY, {0, 0, 0, 0}},
    {0x80000006u, ANY, {0, 0, 0x08006040u, 0}},
    {0x80000007u, ANY, {0, 0, 0, 0}},
    {0x80000008u, ANY, {0x00003024u, 0, 0, 0}},
};

#define PART(name, table) {name, table, sizeof table / sizeof table[0]}

const struct cpu_part cpu_parts[] = {
    PART("p5", p5),
    PART("pmmx", pmmx),
    PART("netburst-willamette", willamette),
    PART("netburst-willamette0", willamette0),
    PART("netburst-northwood", northwood),
    PART("netburst-prescott", prescott),
    PART("netburst-prescott4", prescott4),
};
const size_t cpu_parts_count = sizeof cpu_parts / sizeof cpu_parts[0];
