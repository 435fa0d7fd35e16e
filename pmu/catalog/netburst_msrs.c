#include "netburst_msrs.h"

#include "msr_names.h"
#include "netburst_fields.h"

#include <stdio.h>

/* Counter sets of the four counter blocks (Sprunt 2002, Figure 2; SDM
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

/* CPUID family 15 models (SDM: IQ_ESCR0/1 on models 0-2 only; extended
 * cascading on models 2, 3, 4, 6, SDM-new 18.15.5.7; EM64T from model 3). */
static const struct nb_cpuid_model_info models[] = {
    {0, "Willamette", true, false, false},
    {1, "Willamette", true, false, false},
    {2, "Northwood", true, true, false},
    {3, "Prescott", false, true, true},
    {4, "Prescott", false, true, true},
    {6, "Cedar Mill", false, true, true},
};

const struct nb_cpuid_model_info *nb_cpuid_model_info(int model)
{
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (models[i].model == model)
            return &models[i];
    return NULL;
}

/* Cascading: a counter is started by the alternate counter of the other
 * pair in its block; IQ_COUNTER4/5 only by IQ_COUNTER2/3, and they start
 * nothing (SDM-old 18.18.6.6 / SDM-new 18.15.5.6; Sprunt 2002). */
#define FROM(n) (1u << (n))
static const uint32_t cascade_sources[NB_NUM_COUNTERS] = {
    FROM(2), FROM(3), FROM(0), FROM(1),       /* BPU */
    FROM(6), FROM(7), FROM(4), FROM(5),       /* MS */
    FROM(10), FROM(11), FROM(8), FROM(9),     /* FLAME */
    FROM(14), FROM(15), FROM(12), FROM(13),   /* IQ 0-3 */
    FROM(14), FROM(15),                       /* IQ 4-5 */
};

/* Extended cascading, bit 11 of IQ_CCCR0/3/4/5: CASCNT4INTO0, CASCNT5INTO3,
 * CASCNT5INTO4, CASCNT4INTO5 (SDM-new 18.15.5.7, Table 18-65). */
static const uint32_t extended_cascade_sources[NB_NUM_COUNTERS] = {
    [12] = FROM(16), [15] = FROM(17), [16] = FROM(17), [17] = FROM(16),
};

uint32_t nb_cascade_sources(int counter)
{
    return cascade_sources[counter];
}

uint32_t nb_extended_cascade_sources(int counter)
{
    return extended_cascade_sources[counter];
}

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
    const struct nb_cpuid_model_info *info = nb_cpuid_model_info(model);
    return info && (!nb_escrs[escr].iq_escr || info->iq_escrs);
}

static int counter_of(uint32_t msr, uint32_t base)
{
    return (msr >= base && msr < base + NB_NUM_COUNTERS) ? (int)(msr - base) : -1;
}

int nb_counter_index(uint32_t msr)
{
    return counter_of(msr, NB_COUNTER_BASE);
}

int nb_cccr_index(uint32_t msr)
{
    return counter_of(msr, NB_CCCR_BASE);
}

int nb_escr_routed(int counter, unsigned select, int model)
{
    for (int i = 0; i < NB_NUM_ESCRS; i++)
        if (nb_escrs[i].select == select && (nb_escrs[i].counters & (1u << counter)))
            return nb_escr_present(i, model) ? i : -1;
    return -1;
}

uint32_t nb_msr_by_name(const char *name)
{
    for (int i = 0; i < NB_NUM_ESCRS; i++)
        if (msr_names_match(name, nb_escrs[i].name))
            return nb_escrs[i].msr;
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        if (msr_names_match(name, counter_names[c]))
            return NB_COUNTER_BASE + (uint32_t)c;
        if (msr_names_match(name, cccr_names[c]))
            return NB_CCCR_BASE + (uint32_t)c;
    }
    for (size_t i = 0; i < sizeof other_msrs / sizeof other_msrs[0]; i++)
        if (msr_names_match(name, other_msrs[i].name))
            return other_msrs[i].msr;
    return 0;
}

const char *nb_msr_name(uint32_t msr)
{
    int escr = nb_escr_index(msr);
    if (escr >= 0)
        return nb_escrs[escr].name;
    int counter;
    if ((counter = nb_counter_index(msr)) >= 0)
        return counter_names[counter];
    if ((counter = nb_cccr_index(msr)) >= 0)
        return cccr_names[counter];
    for (size_t i = 0; i < sizeof other_msrs / sizeof other_msrs[0]; i++)
        if (other_msrs[i].msr == msr)
            return other_msrs[i].name;
    return NULL;
}

bool nb_cpuid_model_supported(int model)
{
    return nb_cpuid_model_info(model) != NULL;
}

/* IA32_PEBS_ENABLE: metric bits 12:0 plus 15 and 16 (Tagged_mispred_branch),
 * 24 UOP_TAG, 25 ENABLE_PEBS(_MY_THR), 26 ENABLE_PEBS_OTH_THR with HT (SDM
 * "IA32_PEBS_ENABLE" and the replay-tagging table). */
#define PEBS_ENABLE_BITS (0x1fffull | NB_BIT(15) | NB_BIT(16) | NB_BIT(24) | NB_BIT(25))
/* MSR_PEBS_MATRIX_VERT: bits 0, 1 and 4 are the ones the replay-tagging
 * table uses. */
#define MATRIX_VERT_BITS 0x13ull

static uint64_t escr_writable_bits(const struct nb_pmu_config *config)
{
    /* Without HT, the T1 bits (1:0) are reserved (SDM figure "ESCR ...
     * without Hyper-Threading"). */
    return config->ht ? ESCR_DEFINED_BITS : ESCR_DEFINED_BITS & ~(ESCR_T1_OS | ESCR_T1_USR);
}

/* The extended-cascade bit (11) exists on the IQ CCCRs that extended
 * cascading can start, on the models that have it. */
static bool has_extended_cascade_bit(const struct nb_pmu_config *config, int counter)
{
    return nb_cpuid_model_info(config->model)->extended_cascade &&
           nb_extended_cascade_sources(counter) != 0;
}

static uint64_t cccr_writable_bits(const struct nb_pmu_config *config, int counter)
{
    uint64_t writable = CCCR_DEFINED_BITS;
    if (has_extended_cascade_bit(config, counter))
        writable |= CCCR_EXTENDED_CASCADE;
    /* Without HT, OVF_PMI_T1 is reserved (SDM figure "CCCR ... without
     * Hyper-Threading"). */
    return config->ht ? writable : writable & ~CCCR_OVF_PMI_T1;
}

bool nb_cccr_active_thread_ok(const struct nb_pmu_config *config, uint64_t cccr)
{
    /* Without HT, bits 17:16 "must be set to 11B" (SDM figure "CCCR ...
     * without Hyper-Threading").  They are enforced on values that can
     * count; writing 0 to stop a counter stays legal, as drivers (perfctr)
     * do on such parts. */
    bool can_count = cccr & (CCCR_ENABLE | CCCR_CASCADE | CCCR_EXTENDED_CASCADE);
    return config->ht || !can_count || cccr_active_thread(cccr) == 3;
}

bool nb_msr_writable(const struct nb_pmu_config *config, uint32_t msr, uint64_t *writable)
{
    int escr = nb_escr_index(msr);
    int counter;
    if (escr >= 0) {
        *writable = escr_writable_bits(config);
        return nb_escr_present(escr, config->model);
    }
    if ((counter = nb_cccr_index(msr)) >= 0) {
        *writable = cccr_writable_bits(config, counter);
        return true;
    }
    if (nb_counter_index(msr) >= 0 || msr == MSR_IA32_MISC_ENABLE) {
        *writable = ~0ull; /* nothing faults; see nb_pmu_wrmsr */
        return true;
    }
    switch (msr) {
    case MSR_IA32_PEBS_ENABLE:
        *writable = PEBS_ENABLE_BITS | (config->ht ? PEBS_ENABLE_OTH_THR : 0);
        return true;
    case MSR_PEBS_MATRIX_VERT:
        *writable = MATRIX_VERT_BITS;
        return true;
    case MSR_IA32_DS_AREA:
        /* A linear address: 32 bits unless the model has EM64T. */
        *writable = nb_cpuid_model_info(config->model)->addr64 ? ~0ull : NB_LOW32;
        return true;
    case MSR_TC_PRECISE_EVENT:
        /* Undocumented beyond its name: its low 32 bits are stored as written. */
        *writable = NB_LOW32;
        return true;
    default:
        *writable = 0;
        return false;
    }
}
