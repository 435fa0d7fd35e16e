#include "p5_pmu.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* CESR: ES0 5:0, CC0 8:6, PC0 9, ES1 21:16, CC1 24:22, PC1 25 (seed 001
 * section 2.2 and its example of Fig. 3.4; SDM Pentium section). */
#define CESR_DEFINED_BITS 0x03ff03ffull
#define CESR_HALF_SHIFT 16
#define CC_CPL0_2 1u  /* count at CPL 0, 1, 2 */
#define CC_CPL3 2u    /* count at CPL 3 */
#define CC_CLOCKS 4u  /* count clocks instead of events */

unsigned p5_cesr_event(uint64_t cesr, int counter)
{
    return (unsigned)(cesr >> (counter * CESR_HALF_SHIFT)) & 0x3f;
}

unsigned p5_cesr_control(uint64_t cesr, int counter)
{
    return (unsigned)(cesr >> (counter * CESR_HALF_SHIFT + 6)) & 0x7;
}

void p5_pmu_init(struct p5_pmu *pmu)
{
    memset(pmu, 0, sizeof *pmu);
    pmu->cpl = 3;
}

msr_status p5_pmu_rdmsr(const struct p5_pmu *pmu, uint32_t msr, uint64_t *value)
{
    switch (msr) {
    case P5_MSR_TSC: *value = pmu->tsc; return MSR_OK;
    case P5_MSR_CESR: *value = pmu->cesr; return MSR_OK;
    case P5_MSR_CTR0: *value = pmu->ctr[0]; return MSR_OK;
    case P5_MSR_CTR1: *value = pmu->ctr[1]; return MSR_OK;
    default: return MSR_GP;
    }
}

msr_status p5_pmu_wrmsr(struct p5_pmu *pmu, uint32_t msr, uint64_t value)
{
    switch (msr) {
    case P5_MSR_TSC:
        pmu->tsc = value;
        return MSR_OK;
    case P5_MSR_CESR:
        /* Seed 001 section 2.2: the reserved bits "may not be changed";
         * pmubench faults on them as on the NetBurst PMU. */
        if (value & ~CESR_DEFINED_BITS)
            return MSR_GP;
        pmu->cesr = value;
        return MSR_OK;
    case P5_MSR_CTR0:
    case P5_MSR_CTR1:
        /* 40-bit counters; bits 63:40 are dropped as on the NetBurst. */
        pmu->ctr[msr - P5_MSR_CTR0] = value & PMU_COUNTER_MASK;
        return MSR_OK;
    default:
        return MSR_GP;
    }
}

uint32_t p5_msr_by_name(const char *name)
{
    static const struct {
        const char *name;
        uint32_t msr;
    } names[] = {{"TSC", P5_MSR_TSC}, {"CESR", P5_MSR_CESR}, {"CTR0", P5_MSR_CTR0},
                 {"CTR1", P5_MSR_CTR1}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (msr_names_match(name, names[i].name))
            return names[i].msr;
    return 0;
}

bool p5_pmu_set_cpl(struct p5_pmu *pmu, int cpl)
{
    if (cpl < 0 || cpl > 3)
        return false;
    pmu->cpl = (uint8_t)cpl;
    return true;
}

void p5_pmu_event(struct p5_pmu *pmu, unsigned code, uint32_t count)
{
    pmu->occurrences[code & 0x3f][pmu->cpl == 3] += count;
    pmu->touched |= 1ull << (code & 0x3f);
}

/* What counter `counter` adds this cycle under its CC field. */
static uint64_t counter_increment(const struct p5_pmu *pmu, int counter)
{
    unsigned control = p5_cesr_control(pmu->cesr, counter);
    const uint64_t *by_cpl = pmu->occurrences[p5_cesr_event(pmu->cesr, counter)];
    uint64_t events = 0;
    if (control & CC_CPL0_2)
        events += by_cpl[0];
    if (control & CC_CPL3)
        events += by_cpl[1];

    if (!(control & CC_CLOCKS))
        return events;
    /* Clock mode: 1 each cycle whose CPL qualifies; CC 100 counts nothing. */
    unsigned current = pmu->cpl == 3 ? CC_CPL3 : CC_CPL0_2;
    return (control & current) ? 1 : 0;
}

/* Clears only the codes that have occurrences: a cycle touches a few. */
static void clear_occurrences(struct p5_pmu *pmu)
{
    for (uint64_t touched = pmu->touched; touched; touched &= touched - 1) {
        unsigned code = (unsigned)__builtin_ctzll(touched);
        pmu->occurrences[code][0] = pmu->occurrences[code][1] = 0;
    }
    pmu->touched = 0;
}

void p5_pmu_tick(struct p5_pmu *pmu)
{
    p5_pmu_ticks(pmu, 1);
}

void p5_pmu_ticks(struct p5_pmu *pmu, uint64_t n)
{
    if (n == 0)
        return;
    for (int c = 0; c < 2; c++) {
        pmu->last_increment[c] = counter_increment(pmu, c);
        pmu->ctr[c] = (pmu->ctr[c] + pmu->last_increment[c] * n) & PMU_COUNTER_MASK;
    }
    pmu->tsc += n;
    pmu->cycles += n;
    clear_occurrences(pmu);
}

/* ---- the simulated P5 backend */

struct p5_backend {
    struct msr_backend base;
    struct p5_pmu pmu;
};

static msr_status p5_read(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t *value)
{
    if (cpu != 0)
        return msr_fail(backend, ENXIO, "simulated P5 has no CPU %d (it has one)", cpu);
    return p5_pmu_rdmsr(&((struct p5_backend *)backend)->pmu, msr, value);
}

static msr_status p5_write(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t value)
{
    if (cpu != 0)
        return msr_fail(backend, ENXIO, "simulated P5 has no CPU %d (it has one)", cpu);
    return p5_pmu_wrmsr(&((struct p5_backend *)backend)->pmu, msr, value);
}

static void p5_destroy(struct msr_backend *backend)
{
    free(backend);
}

static const struct msr_backend_ops p5_ops = {
    .read = p5_read,
    .write = p5_write,
    .destroy = p5_destroy,
};

struct msr_backend *p5_backend_create(void)
{
    struct p5_backend *p5 = calloc(1, sizeof *p5);
    if (!p5)
        return NULL;
    p5_pmu_init(&p5->pmu);
    p5->base.ops = &p5_ops;
    p5->base.kind = "p5";
    return &p5->base;
}

struct p5_pmu *p5_backend_pmu(struct msr_backend *backend)
{
    return backend->ops == &p5_ops ? &((struct p5_backend *)backend)->pmu : NULL;
}
