/* Logical processors (Hyper-Threading; Optimization manual ch. 1,
 * "Processor Resources and Hyper-Threading Technology"): each one's private
 * state, the partitioned buffers, and the selection points that alternate
 * between the two when both have work. */
#include <stdlib.h>
#include <string.h>

#include "sim/netburst/nbm_machine.h"

static uint64_t ring_size(uint64_t at_least)
{
    uint64_t n = 1;
    while (n < at_least)
        n *= 2;
    return n;
}

static bool core_init(struct nbm_core *core, const struct nbm_config *c)
{
    memset(core, 0, sizeof *core);
    uint64_t n = ring_size((c->rob > c->uop_queue ? c->rob : c->uop_queue) + 1);
    uint64_t loads = ring_size(c->load_buffers);
    core->ring_mask = n - 1;
    core->load_mask = loads - 1;
    core->retire_ring = calloc(n, sizeof *core->retire_ring);
    core->alloc_ring = calloc(n, sizeof *core->alloc_ring);
    core->load_free = calloc(loads, sizeof *core->load_free);
    return core->retire_ring && core->alloc_ring && core->load_free;
}

static void core_free(struct nbm_core *core)
{
    free(core->retire_ring);
    free(core->alloc_ring);
    free(core->load_free);
    memset(core, 0, sizeof *core);
}

/* A logical processor's share of a partitioned buffer: half when shared. */
static struct nbm_limits limits(const struct nbm_config *c, bool shared)
{
    unsigned d = shared ? 2 : 1;
    return (struct nbm_limits){c->uop_queue / d, c->rob / d, c->load_buffers / d,
                              c->store_buffers / d};
}

bool nbm_lp_init(struct nbm_lp *lp, int id, const struct nbm_config *c)
{
    memset(lp, 0, sizeof *lp);
    lp->id = id;
    lp->level = (uint8_t)(id << 1);
    /* Bit 62 of an address, bit 60 of a line or page number: never set in
     * thread 0's canonical addresses, so the two threads' keys differ. */
    lp->address_tag = (uint64_t)id << 62;
    lp->line_tag = (uint64_t)id << 60;
    lp->limits = limits(c, false);
    bool fe = nbm_frontend_init(&lp->fe, c);
    bool ras = nbm_ras_init(&lp->ras, c->ras_entries);
    bool core = core_init(&lp->core, c);
    bool sb = nbm_store_buffer_init(&lp->sb, c->store_buffers);
    if (fe && ras && core && sb)
        return true;
    nbm_lp_free(lp);
    return false;
}

void nbm_lp_free(struct nbm_lp *lp)
{
    nbm_frontend_free(&lp->fe);
    nbm_ras_free(&lp->ras);
    core_free(&lp->core);
    nbm_store_buffer_free(&lp->sb);
}

void nbm_set_shared(struct nbm_machine *m, bool shared)
{
    m->shared = shared;
    for (int t = 0; t < m->threads; t++)
        m->lp[t].limits = limits(m->config, shared);
}

uint64_t nbm_lp_busy_until(const struct nbm_lp *lp)
{
    uint64_t next = nbm_lp_next(lp);
    return lp->core.end > next ? lp->core.end : next;
}

bool nbm_arbiter_init(struct nbm_arbiter *a)
{
    a->owner = calloc(NBM_ARBITER_WINDOW, sizeof *a->owner);
    return a->owner != NULL;
}

void nbm_arbiter_free(struct nbm_arbiter *a)
{
    free(a->owner);
    a->owner = NULL;
}

uint64_t nbm_arbiter_claim(struct nbm_arbiter *a, uint64_t cycle, int thread)
{
    uint64_t other = (uint64_t)(thread ^ 1);
    while (a->owner[cycle & (NBM_ARBITER_WINDOW - 1)] == (cycle << 1 | other) + 1)
        cycle++;
    a->owner[cycle & (NBM_ARBITER_WINDOW - 1)] = (cycle << 1 | (uint64_t)thread) + 1;
    return cycle;
}
