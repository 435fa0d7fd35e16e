#include "netburst_msrs.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Counter sets of the four counter blocks (Sprunt, seed 002, Figure 2; SDM
 * Vol. 3B table "Performance Counter MSRs and Associated CCCR and ESCR
 * MSRs").  ESCRs numbered 0 feed the first two counters of their block,
 * ESCRs numbered 1 the other two; in the IQ block the even ESCRs also feed
 * IQ_COUNTER4 and the odd ones IQ_COUNTER5. */
#define CTRS(a, b) ((1u << (a)) | (1u << (b)))
#define BPU_0 CTRS(0, 1)
#define BPU_1 CTRS(2, 3)
#define MS_0 CTRS(4, 5)
#define MS_1 CTRS(6, 7)
#define FLAME_0 CTRS(8, 9)
#define FLAME_1 CTRS(10, 11)
#define IQ_0 (CTRS(12, 13) | (1u << 16))
#define IQ_1 (CTRS(14, 15) | (1u << 17))

/* Ordered by MSR address. */
const struct nb_escr_info nb_escrs[NB_NUM_ESCRS] = {
    [NB_ESCR_BSU0] = {"MSR_BSU_ESCR0", 0x3a0, 7, BPU_0, false},
    [NB_ESCR_BSU1] = {"MSR_BSU_ESCR1", 0x3a1, 7, BPU_1, false},
    [NB_ESCR_FSB0] = {"MSR_FSB_ESCR0", 0x3a2, 6, BPU_0, false},
    [NB_ESCR_FSB1] = {"MSR_FSB_ESCR1", 0x3a3, 6, BPU_1, false},
    [NB_ESCR_FIRM0] = {"MSR_FIRM_ESCR0", 0x3a4, 1, FLAME_0, false},
    [NB_ESCR_FIRM1] = {"MSR_FIRM_ESCR1", 0x3a5, 1, FLAME_1, false},
    [NB_ESCR_FLAME0] = {"MSR_FLAME_ESCR0", 0x3a6, 0, FLAME_0, false},
    [NB_ESCR_FLAME1] = {"MSR_FLAME_ESCR1", 0x3a7, 0, FLAME_1, false},
    [NB_ESCR_DAC0] = {"MSR_DAC_ESCR0", 0x3a8, 5, FLAME_0, false},
    [NB_ESCR_DAC1] = {"MSR_DAC_ESCR1", 0x3a9, 5, FLAME_1, false},
    [NB_ESCR_MOB0] = {"MSR_MOB_ESCR0", 0x3aa, 2, BPU_0, false},
    [NB_ESCR_MOB1] = {"MSR_MOB_ESCR1", 0x3ab, 2, BPU_1, false},
    [NB_ESCR_PMH0] = {"MSR_PMH_ESCR0", 0x3ac, 4, BPU_0, false},
    [NB_ESCR_PMH1] = {"MSR_PMH_ESCR1", 0x3ad, 4, BPU_1, false},
    [NB_ESCR_SAAT0] = {"MSR_SAAT_ESCR0", 0x3ae, 2, FLAME_0, false},
    [NB_ESCR_SAAT1] = {"MSR_SAAT_ESCR1", 0x3af, 2, FLAME_1, false},
    [NB_ESCR_U2L0] = {"MSR_U2L_ESCR0", 0x3b0, 3, FLAME_0, false},
    [NB_ESCR_U2L1] = {"MSR_U2L_ESCR1", 0x3b1, 3, FLAME_1, false},
    [NB_ESCR_BPU0] = {"MSR_BPU_ESCR0", 0x3b2, 0, BPU_0, false},
    [NB_ESCR_BPU1] = {"MSR_BPU_ESCR1", 0x3b3, 0, BPU_1, false},
    [NB_ESCR_IS0] = {"MSR_IS_ESCR0", 0x3b4, 1, BPU_0, false},
    [NB_ESCR_IS1] = {"MSR_IS_ESCR1", 0x3b5, 1, BPU_1, false},
    [NB_ESCR_ITLB0] = {"MSR_ITLB_ESCR0", 0x3b6, 3, BPU_0, false},
    [NB_ESCR_ITLB1] = {"MSR_ITLB_ESCR1", 0x3b7, 3, BPU_1, false},
    [NB_ESCR_CRU0] = {"MSR_CRU_ESCR0", 0x3b8, 4, IQ_0, false},
    [NB_ESCR_CRU1] = {"MSR_CRU_ESCR1", 0x3b9, 4, IQ_1, false},
    [NB_ESCR_IQ0] = {"MSR_IQ_ESCR0", 0x3ba, 0, IQ_0, true},
    [NB_ESCR_IQ1] = {"MSR_IQ_ESCR1", 0x3bb, 0, IQ_1, true},
    [NB_ESCR_RAT0] = {"MSR_RAT_ESCR0", 0x3bc, 2, IQ_0, false},
    [NB_ESCR_RAT1] = {"MSR_RAT_ESCR1", 0x3bd, 2, IQ_1, false},
    [NB_ESCR_SSU0] = {"MSR_SSU_ESCR0", 0x3be, 3, IQ_0, false},
    [NB_ESCR_MS0] = {"MSR_MS_ESCR0", 0x3c0, 0, MS_0, false},
    [NB_ESCR_MS1] = {"MSR_MS_ESCR1", 0x3c1, 0, MS_1, false},
    [NB_ESCR_TBPU0] = {"MSR_TBPU_ESCR0", 0x3c2, 2, MS_0, false},
    [NB_ESCR_TBPU1] = {"MSR_TBPU_ESCR1", 0x3c3, 2, MS_1, false},
    [NB_ESCR_TC0] = {"MSR_TC_ESCR0", 0x3c4, 1, MS_0, false},
    [NB_ESCR_TC1] = {"MSR_TC_ESCR1", 0x3c5, 1, MS_1, false},
    [NB_ESCR_IX0] = {"MSR_IX_ESCR0", 0x3c8, 5, BPU_0, false},
    [NB_ESCR_IX1] = {"MSR_IX_ESCR1", 0x3c9, 5, BPU_1, false},
    [NB_ESCR_ALF0] = {"MSR_ALF_ESCR0", 0x3ca, 1, IQ_0, false},
    [NB_ESCR_ALF1] = {"MSR_ALF_ESCR1", 0x3cb, 1, IQ_1, false},
    [NB_ESCR_CRU2] = {"MSR_CRU_ESCR2", 0x3cc, 5, IQ_0, false},
    [NB_ESCR_CRU3] = {"MSR_CRU_ESCR3", 0x3cd, 5, IQ_1, false},
    [NB_ESCR_CRU4] = {"MSR_CRU_ESCR4", 0x3e0, 6, IQ_0, false},
    [NB_ESCR_CRU5] = {"MSR_CRU_ESCR5", 0x3e1, 6, IQ_1, false},
};

static const char *const counter_names[NB_NUM_COUNTERS] = {
    "MSR_BPU_COUNTER0", "MSR_BPU_COUNTER1", "MSR_BPU_COUNTER2", "MSR_BPU_COUNTER3",
    "MSR_MS_COUNTER0", "MSR_MS_COUNTER1", "MSR_MS_COUNTER2", "MSR_MS_COUNTER3",
    "MSR_FLAME_COUNTER0", "MSR_FLAME_COUNTER1", "MSR_FLAME_COUNTER2", "MSR_FLAME_COUNTER3",
    "MSR_IQ_COUNTER0", "MSR_IQ_COUNTER1", "MSR_IQ_COUNTER2", "MSR_IQ_COUNTER3",
    "MSR_IQ_COUNTER4", "MSR_IQ_COUNTER5",
};

static const char *const cccr_names[NB_NUM_COUNTERS] = {
    "MSR_BPU_CCCR0", "MSR_BPU_CCCR1", "MSR_BPU_CCCR2", "MSR_BPU_CCCR3",
    "MSR_MS_CCCR0", "MSR_MS_CCCR1", "MSR_MS_CCCR2", "MSR_MS_CCCR3",
    "MSR_FLAME_CCCR0", "MSR_FLAME_CCCR1", "MSR_FLAME_CCCR2", "MSR_FLAME_CCCR3",
    "MSR_IQ_CCCR0", "MSR_IQ_CCCR1", "MSR_IQ_CCCR2", "MSR_IQ_CCCR3",
    "MSR_IQ_CCCR4", "MSR_IQ_CCCR5",
};

static const struct {
    const char *name;
    uint32_t msr;
} other_msrs[] = {
    {"IA32_MISC_ENABLE", MSR_IA32_MISC_ENABLE},
    {"MSR_TC_PRECISE_EVENT", MSR_TC_PRECISE_EVENT},
    {"IA32_PEBS_ENABLE", MSR_IA32_PEBS_ENABLE},
    {"MSR_PEBS_MATRIX_VERT", MSR_PEBS_MATRIX_VERT},
    {"IA32_DS_AREA", MSR_IA32_DS_AREA},
};

const char *nb_counter_name(int counter)
{
    return counter_names[counter];
}

const char *nb_cccr_name(int counter)
{
    return cccr_names[counter];
}

int nb_escr_index(uint32_t msr)
{
    for (int i = 0; i < NB_NUM_ESCRS; i++)
        if (nb_escrs[i].msr == msr)
            return i;
    return -1;
}

bool nb_escr_present(int escr, int model)
{
    return !nb_escrs[escr].early_models_only || model <= 2;
}

int nb_escr_routed(int counter, unsigned select, int model)
{
    for (int i = 0; i < NB_NUM_ESCRS; i++)
        if (nb_escrs[i].select == select && (nb_escrs[i].counters & (1u << counter)))
            return nb_escr_present(i, model) ? i : -1;
    return -1;
}

/* Compares ignoring case and an optional leading "MSR_" or "IA32_" on
 * either side, so "iq_cccr0", "MSR_IQ_CCCR0" and "PEBS_ENABLE" all work. */
static const char *strip_prefix(const char *name)
{
    if (strncasecmp(name, "MSR_", 4) == 0)
        return name + 4;
    if (strncasecmp(name, "IA32_", 5) == 0)
        return name + 5;
    return name;
}

static bool same_name(const char *a, const char *b)
{
    return strcasecmp(strip_prefix(a), strip_prefix(b)) == 0;
}

uint32_t nb_msr_by_name(const char *name)
{
    for (int i = 0; i < NB_NUM_ESCRS; i++)
        if (same_name(name, nb_escrs[i].name))
            return nb_escrs[i].msr;
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        if (same_name(name, counter_names[c]))
            return NB_COUNTER_BASE + (uint32_t)c;
        if (same_name(name, cccr_names[c]))
            return NB_CCCR_BASE + (uint32_t)c;
    }
    for (size_t i = 0; i < sizeof other_msrs / sizeof other_msrs[0]; i++)
        if (same_name(name, other_msrs[i].name))
            return other_msrs[i].msr;
    return 0;
}

const char *nb_msr_name(uint32_t msr)
{
    int escr = nb_escr_index(msr);
    if (escr >= 0)
        return nb_escrs[escr].name;
    if (msr >= NB_COUNTER_BASE && msr < NB_COUNTER_BASE + NB_NUM_COUNTERS)
        return counter_names[msr - NB_COUNTER_BASE];
    if (msr >= NB_CCCR_BASE && msr < NB_CCCR_BASE + NB_NUM_COUNTERS)
        return cccr_names[msr - NB_CCCR_BASE];
    for (size_t i = 0; i < sizeof other_msrs / sizeof other_msrs[0]; i++)
        if (other_msrs[i].msr == msr)
            return other_msrs[i].name;
    return NULL;
}
