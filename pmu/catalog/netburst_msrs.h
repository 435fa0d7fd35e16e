/* The NetBurst PMU's MSRs: 45 ESCRs, 18 CCCRs, 18 counters and the
 * tagging/PEBS MSRs, with the routing from (counter, CCCR ESCR-select) to
 * ESCR, the models and the bits each model lets software write.  The
 * registers are data in netburst_msrs.c (one table each); sources in
 * docs/semantics.md, "NetBurst register map".
 */
#ifndef PMU_CATALOG_NETBURST_MSRS_H
#define PMU_CATALOG_NETBURST_MSRS_H

#include <stdbool.h>
#include <stdint.h>

enum {
    NB_NUM_ESCRS = 45,
    NB_NUM_COUNTERS = 18,
    NB_COUNTER_BASE = 0x300,
    NB_CCCR_BASE = 0x360,
};

enum {
    MSR_IA32_MISC_ENABLE = 0x1a0,
    MSR_TC_PRECISE_EVENT = 0x3f0,
    MSR_IA32_PEBS_ENABLE = 0x3f1,
    MSR_PEBS_MATRIX_VERT = 0x3f2,
    MSR_IA32_DS_AREA = 0x600,
};

/* IA32_PEBS_ENABLE bit 26, ENABLE_PEBS_OTH_THR: PEBS for the other logical
 * processor, with HT only (bits 24 and 25: netburst_metrics.h). */
#define PEBS_ENABLE_OTH_THR (1ull << 26)

/* A NetBurst processor: its CPUID model and whether it has HT. */
struct nb_pmu_config {
    int model;  /* CPUID family 15 model: 0, 1, 2, 3, 4 or 6 */
    bool ht;    /* Hyper-Threading: two logical processors */
};

/* Indices into nb_escrs, in address order. */
enum nb_escr_id {
    NB_ESCR_BSU0,
    NB_ESCR_BSU1,
    NB_ESCR_FSB0,
    NB_ESCR_FSB1,
    NB_ESCR_FIRM0,
    NB_ESCR_FIRM1,
    NB_ESCR_FLAME0,
    NB_ESCR_FLAME1,
    NB_ESCR_DAC0,
    NB_ESCR_DAC1,
    NB_ESCR_MOB0,
    NB_ESCR_MOB1,
    NB_ESCR_PMH0,
    NB_ESCR_PMH1,
    NB_ESCR_SAAT0,
    NB_ESCR_SAAT1,
    NB_ESCR_U2L0,
    NB_ESCR_U2L1,
    NB_ESCR_BPU0,
    NB_ESCR_BPU1,
    NB_ESCR_IS0,
    NB_ESCR_IS1,
    NB_ESCR_ITLB0,
    NB_ESCR_ITLB1,
    NB_ESCR_CRU0,
    NB_ESCR_CRU1,
    NB_ESCR_IQ0,
    NB_ESCR_IQ1,
    NB_ESCR_RAT0,
    NB_ESCR_RAT1,
    NB_ESCR_SSU0,
    NB_ESCR_MS0,
    NB_ESCR_MS1,
    NB_ESCR_TBPU0,
    NB_ESCR_TBPU1,
    NB_ESCR_TC0,
    NB_ESCR_TC1,
    NB_ESCR_IX0,
    NB_ESCR_IX1,
    NB_ESCR_ALF0,
    NB_ESCR_ALF1,
    NB_ESCR_CRU2,
    NB_ESCR_CRU3,
    NB_ESCR_CRU4,
    NB_ESCR_CRU5,
};

struct nb_escr_info {
    const char *name;     /* the SDM's name, e.g. "MSR_CRU_ESCR2" */
    uint32_t msr;
    uint8_t select;       /* the CCCR ESCR-select value that picks it */
    uint32_t counters;    /* bit c set: counter c can take this ESCR */
    bool iq_escr;         /* IQ_ESCR0/1: only on models whose nb_cpuid_model_info says so */
};

extern const struct nb_escr_info nb_escrs[NB_NUM_ESCRS];

/* What differs between the CPUID family 15 models pmubench knows. */
struct nb_cpuid_model_info {
    int model;
    const char *core;        /* the processor core, e.g. "Northwood" */
    bool iq_escrs;           /* IQ_ESCR0/1 exist */
    bool extended_cascade;   /* bit 11 of IQ_CCCR0/3/4/5 */
    bool addr64;             /* 64-bit linear addresses (EM64T): a 64-bit DS_AREA */
};

/* The model's entry, or NULL for a model pmubench does not know. */
const struct nb_cpuid_model_info *nb_cpuid_model_info(int model);

/* Whether `model` is a NetBurst CPUID model pmubench knows. */
bool nb_cpuid_model_supported(int model);

/* Counters whose overflow starts `counter` through CASCADE (bit 30), and
 * through extended cascading (bit 11 of the IQ CCCRs); bit n is counter n. */
uint32_t nb_cascade_sources(int counter);
uint32_t nb_extended_cascade_sources(int counter);

/* The counter names, e.g. "MSR_IQ_COUNTER4"; the CCCR is the same name with
 * COUNTER replaced by CCCR. */
const char *nb_counter_name(int counter);
const char *nb_cccr_name(int counter);

/* Index into nb_escrs of the ESCR at `msr`, or -1. */
int nb_escr_index(uint32_t msr);

/* The counter whose counter MSR (nb_counter_index) or CCCR (nb_cccr_index)
 * is at `msr`, or -1. */
int nb_counter_index(uint32_t msr);
int nb_cccr_index(uint32_t msr);

/* Index of the ESCR that CCCR `counter` reads with ESCR-select `select` on
 * CPUID model `model`, or -1 when no ESCR sits behind that select. */
int nb_escr_routed(int counter, unsigned select, int model);

/* Whether the ESCR exists on that model. */
bool nb_escr_present(int escr, int model);

/* Whether `msr` exists on this configuration; *writable gets the bits
 * software may set in it (for counters and IA32_MISC_ENABLE all of them:
 * nothing faults there, see docs/semantics.md). */
bool nb_msr_writable(const struct nb_pmu_config *config, uint32_t msr, uint64_t *writable);

/* Without HT, a CCCR value that can count (ENABLE, CASCADE or the
 * extended-cascade bit) must have ACTIVE_THREAD 11. */
bool nb_cccr_active_thread_ok(const struct nb_pmu_config *config, uint64_t cccr);

/* Address of a NetBurst PMU MSR given its name (case-insensitive, "MSR_" or
 * "IA32_" prefix as in the SDM); 0 when unknown. */
uint32_t nb_msr_by_name(const char *name);

/* Name of a NetBurst PMU MSR, or NULL. */
const char *nb_msr_name(uint32_t msr);

#endif
