#include "p5_pmu_state.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Rewrites the feeds of `pmu` and of the PMUs linked before it: each
 * PMU's, the codes it counts and those the feed of the PMU after it has. */
static void publish_feeds(struct p5_pmu *pmu)
{
    for (struct p5_pmu *p = pmu; p; p = p->prev)
        p->feed.counted = p->counting.counted | (p->next ? p->next->feed.counted : 0);
}

/* Decodes the CESR at the current CPL into pmu->counting (Safford 1997,
 * Table 2.2); the feeds are published after. */
static void decode_counting(struct p5_pmu *pmu)
{
    struct p5_counting *k = &pmu->counting;
    unsigned privilege = pmu->cpl == 3 ? P5_CC_CPL3 : P5_CC_CPL0_2;
    k->counted = 0;
    for (int c = 0; c < 2; c++) {
        unsigned control = p5_cesr_control(pmu->cesr, c);
        unsigned code = p5_cesr_event(pmu->cesr, c);
        bool enabled = control & privilege; /* CC 000 and 100 enable nothing */
        bool clocks = control & P5_CC_CLOCKS;
        const struct p5_event *event = p5_event_by_code(code);
        k->clock[c] = enabled && clocks;
        k->event_bit[c] = enabled && !clocks ? 1ull << code : 0;
        k->held_bit[c] = event && event->duration ? k->event_bit[c] : 0;
        k->counted |= k->event_bit[c];
    }
}

void p5_pmu_init(struct p5_pmu *pmu)
{
    memset(pmu, 0, sizeof *pmu);
    pmu->cpl = 3;
    decode_counting(pmu);
    publish_feeds(pmu);
}

uint64_t p5_pmu_cycles(const struct p5_pmu *pmu)
{
    return pmu->cycles;
}

int p5_pmu_cpl(const struct p5_pmu *pmu)
{
    return pmu->cpl;
}

uint64_t p5_pmu_last_increment(const struct p5_pmu *pmu, int counter)
{
    return pmu->last_increment[counter & 1];
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
        if (value & ~P5_CESR_DEFINED_BITS)
            return MSR_GP;
        pmu->cesr = value;
        decode_counting(pmu);
        publish_feeds(pmu);
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

/* Sets the CPL of `first` and of the PMUs after it; out of line, so that
 * p5_pmu_set_cpl stays a comparison. */
__attribute__((noinline)) static void change_cpl(struct p5_pmu *first, int cpl)
{
    struct p5_pmu *changed = NULL; /* the last PMU of the chain that changed */
    for (struct p5_pmu *p = first; p; p = p->next)
        if (p->cpl != cpl) {
            p->cpl = (uint8_t)cpl;
            decode_counting(p);
            changed = p;
        }
    if (changed)
        publish_feeds(changed);
}

/* Most reports keep the CPL of a lone PMU: they only compare. */
bool p5_pmu_set_cpl(struct p5_pmu *pmu, int cpl)
{
    if (cpl < 0 || cpl > 3)
        return false;
    if (pmu->cpl != cpl || pmu->next)
        change_cpl(pmu, cpl);
    return true;
}

/* A PMU's feed counts what every PMU after it counts: the first that does
 * not count `bit` ends the walk. */
void p5_pmu_event(struct p5_pmu *pmu, unsigned code, uint32_t count)
{
    uint64_t bit = 1ull << (code & (P5_NUM_CODES - 1));
    for (struct p5_pmu *p = pmu; p && (p->feed.counted & bit); p = p->next)
        for (int c = 0; c < 2; c++)
            if (p->counting.event_bit[c] == bit)
                p->occurred[c] += count;
}

const struct p5_feed *p5_pmu_feed(const struct p5_pmu *pmu)
{
    return &pmu->feed;
}

/* Each counter adds, in the first cycle, what it counted of the cycle's
 * occurrences; in every cycle, 1 when it counts clocks and 1 when its
 * duration event holds. */
static void end_cycles(struct p5_pmu *pmu, uint64_t n, uint64_t holding)
{
    const struct p5_counting *k = &pmu->counting;
    for (int c = 0; c < 2; c++) {
        uint64_t each = k->clock[c] + ((holding & k->held_bit[c]) != 0);
        uint64_t first = each + pmu->occurred[c];
        pmu->ctr[c] = (pmu->ctr[c] + first + each * (n - 1)) & PMU_COUNTER_MASK;
        pmu->last_increment[c] = n == 1 ? first : each;
        pmu->occurred[c] = 0;
    }
    pmu->tsc += n;
    pmu->cycles += n;
}

void p5_pmu_observe(struct p5_pmu *pmu, p5_pmu_observer *observer, void *context)
{
    pmu->observer = observer;
    pmu->observer_context = context;
}

bool p5_pmu_observed(const struct p5_pmu *pmu)
{
    return pmu->observer != NULL;
}

/* The n cycles one by one, the observer told of each. */
static void ticks_observed(struct p5_pmu *pmu, uint64_t n, uint64_t holding)
{
    for (uint64_t i = 0; i < n; i++) {
        for (struct p5_pmu *p = pmu; p; p = p->next)
            end_cycles(p, 1, holding);
        pmu->observer(pmu->observer_context, pmu);
    }
}

void p5_pmu_ticks(struct p5_pmu *pmu, uint64_t n, uint64_t holding)
{
    if (n == 0)
        return;
    if (pmu->observer) {
        ticks_observed(pmu, n, holding);
        return;
    }
    do
        end_cycles(pmu, n, holding);
    while ((pmu = pmu->next));
}

void p5_pmu_tick(struct p5_pmu *pmu)
{
    p5_pmu_ticks(pmu, 1, 0);
}

/* Whether the PMU has no occurrences pending, and with `frozen`, whether
 * an empty cycle changes nothing: it adds each counter's clock count, so
 * only when neither counts clocks and both added 0 last. */
static bool may_fast_forward(const struct p5_pmu *pmu, bool frozen)
{
    if (pmu->occurred[0] || pmu->occurred[1])
        return false;
    if (frozen)
        for (int c = 0; c < 2; c++)
            if (pmu->counting.clock[c] || pmu->last_increment[c])
                return false;
    return true;
}

uint64_t p5_pmu_fast_forward(struct p5_pmu *pmu, uint64_t n, bool frozen)
{
    if (n == 0)
        return 0;
    for (const struct p5_pmu *p = pmu; p; p = p->next)
        if (!may_fast_forward(p, frozen))
            return 0;
    p5_pmu_ticks(pmu, n, 0);
    return n;
}

/* ---- linked PMUs */

bool p5_pmu_link(struct p5_pmu *pmu, struct p5_pmu *follower)
{
    if (follower == pmu || follower->next || follower->prev)
        return false;
    struct p5_pmu *last = pmu;
    while (last->next)
        last = last->next;
    last->next = follower;
    follower->prev = last;
    follower->cpl = pmu->cpl;
    decode_counting(follower);
    publish_feeds(follower);
    return true;
}

void p5_pmu_unlink(struct p5_pmu *pmu)
{
    struct p5_pmu *prev = pmu->prev, *next = pmu->next;
    if (prev)
        prev->next = next;
    if (next)
        next->prev = prev;
    pmu->prev = pmu->next = NULL;
    publish_feeds(pmu);
    if (prev)
        publish_feeds(prev);
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
    p5_pmu_unlink(&((struct p5_backend *)backend)->pmu);
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
