#include "p5_pmu.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* CESR: ES0 5:0, CC0 8:6, PC0 9, ES1 21:16, CC1 24:22, PC1 25 (Safford 1997,
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
        /* Safford 1997, section 2.2: the reserved bits "may not be changed";
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

void p5_pmu_select(struct p5_pmu *pmu)
{
    for (int c = 0; c < 2; c++) {
        unsigned control = p5_cesr_control(pmu->cesr, c);
        bool clocks = control & CC_CLOCKS; /* CC 100 counts nothing */
        struct p5_counter_select *s = &pmu->select[c];
        s->code = p5_cesr_event(pmu->cesr, c);
        s->events[0] = !clocks && (control & CC_CPL0_2) ? UINT64_MAX : 0;
        s->events[1] = !clocks && (control & CC_CPL3) ? UINT64_MAX : 0;
        s->clocks[0] = clocks && (control & CC_CPL0_2);
        s->clocks[1] = clocks && (control & CC_CPL3);
    }
    pmu->selected_cesr = pmu->cesr;
}

void p5_pmu_tick(struct p5_pmu *pmu)
{
    p5_pmu_ticks(pmu, 1);
}

uint64_t p5_pmu_fast_forward(struct p5_pmu *pmu, uint64_t n, bool frozen)
{
    if (n == 0 || pmu->touched)
        return 0;
    if (frozen) {
        struct p5_pmu next = *pmu;
        p5_pmu_tick(&next);
        for (int c = 0; c < 2; c++)
            if (next.ctr[c] != pmu->ctr[c] || next.last_increment[c] != pmu->last_increment[c])
                return 0;
    }
    p5_pmu_ticks(pmu, n);
    return n;
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
