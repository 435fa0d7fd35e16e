/* The PEBS microcode assist's cost to the timing (docs/netburst-model.md,
 * "Sampling"; the PMU decides that an assist is taken and publishes its
 * accesses, pmu/emulated/netburst_feed.h).  "Assists clear the entire machine of
 * uops before they begin to accumulate, and are costly" (Intel's
 * Optimization Reference Manual, appendix B, "Assist"); the PEBS assist is
 * taken just before the tagged uop retires (Sprunt 2002).
 *
 * The model times each instruction whole before the PMU reaches its
 * cycles, so when the PMU takes the assist the model has already timed
 * the instructions fetched after the tagged one.  It cannot time them
 * again: it runs the assist's microcode on the machine from the cycle
 * after the tagged uop's retirement, moves the flushed instructions'
 * retirements (as the PMU sees them) past it, and makes the thread's
 * instructions not yet timed wait for them. */
#include "sim/netburst/nbm_assist.h"

#include "sim/netburst/nbm_machine.h"

/* In-order slots, `width` a cycle: the uop queue, allocation, retirement. */
struct lane {
    uint64_t cycle;
    unsigned used;
};

static uint64_t lane_take(struct lane *l, uint64_t earliest, unsigned width)
{
    if (earliest < l->cycle)
        earliest = l->cycle;
    if (earliest == l->cycle && l->used >= width)
        earliest++;
    if (earliest > l->cycle) {
        l->cycle = earliest;
        l->used = 0;
    }
    l->used++;
    return earliest;
}

static uint64_t later(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* The microcode's uops on an emptied machine: one load uop per read, a
 * store-address and a store-data uop per write (isa's model of a store),
 * in the order the PMU made the accesses. */
struct microcode {
    struct nbm_machine *m;
    uint64_t from;                   /* the cycle after the flush: the ROM's first uop */
    struct lane queue, alloc, retire;
    uint64_t load_port, store_port;  /* each the next cycle it is free */
    uint64_t read_data;              /* the reads so far have their data */
    uint64_t end, drained;           /* the last retirement, the last cache write */
};

/* A uop from the microcode ROM, deliver_width a cycle, allocated
 * queue_to_alloc later (alloc_width a cycle, not before `not_before`):
 * its earliest execution cycle. */
static uint64_t issue(struct microcode *mc, uint64_t not_before)
{
    const struct nbm_config *c = mc->m->config;
    uint64_t q = lane_take(&mc->queue, mc->from, c->deliver_width);
    uint64_t a = lane_take(&mc->alloc, later(q + c->queue_to_alloc, not_before), c->alloc_width);
    return a + c->alloc_to_exec;
}

/* A uop completing in `done` retires in order the cycle after. */
static uint64_t retire(struct microcode *mc, uint64_t done)
{
    uint64_t r = lane_take(&mc->retire, done + 1, mc->m->config->retire_width);
    mc->end = later(mc->end, r);
    return r;
}

/* A read of the DS save area: a load, one a cycle on the load port,
 * through the DTLB and the L1 (nbm_load). */
static void load_uop(struct microcode *mc, const struct nb_assist_access *access)
{
    uint64_t exec = later(issue(mc, 0), mc->load_port);
    mc->load_port = exec + 1;
    struct trace_access a = {TRACE_LOAD, access->size, access->address};
    uint16_t causes = 0;
    uint64_t data = (nbm_load(mc->m, &a, 2 * exec, &causes) + 1) / 2;
    mc->read_data = later(mc->read_data, data);
    retire(mc, data);
}

/* The cycle the next store finds a free store buffer entry: the one
 * store_buffers older has been written (the allocator's rule, nbm_core.c). */
static uint64_t store_entry(const struct nbm_lp *lp)
{
    const struct nbm_store_buffer *sb = &lp->sb;
    uint32_t n = lp->limits.store_buffers;
    return sb->n_stores < n ? 0 : sb->stores[(sb->n_stores - n) & sb->mask].drain + 1;
}

/* A write of the record or the index: its store-address uop, one a cycle
 * on the store port, and its store-data uop wait for the reads before it
 * (the index says where the record goes); the store is written to the
 * caches at its retirement (nbm_store_retire). */
static void store_uops(struct microcode *mc, const struct nb_assist_access *access)
{
    uint64_t sta = later(later(issue(mc, store_entry(mc->m->cur)), mc->store_port), mc->read_data);
    uint64_t std = later(issue(mc, 0), mc->read_data);
    mc->store_port = sta + 1;
    struct trace_access a = {TRACE_STORE, access->size, access->address};
    nbm_store_execute(mc->m, &a, 2 * sta, 2 * std);
    retire(mc, sta + 1);
    mc->drained = later(mc->drained, nbm_store_retire(mc->m, retire(mc, std + 1)));
}

/* The front end starts again the cycle after the assist's last uop
 * retires (`end`), at the instruction after the tagged one.  The model had
 * already timed the instructions fetched past the tagged one (the first
 * retiring in `next_retired`; UINT64_MAX: none); on the machine they were
 * flushed and run again on the emptied pipeline: the first retires again
 * no earlier than a uop of a cycle or less fetched at the restart
 * (queue_to_alloc + alloc_to_exec + 2 cycles later), the others as much
 * later as it.  Their retirements go to the PMU that much later, the
 * thread retires nothing before them (in-order retirement), and it fetches
 * its instructions not yet timed no earlier than such a uop would be to
 * retire after them.  Their events stay where the model put them. */
static void restart(struct nbm_machine *m, int thread, uint64_t end, uint64_t next_retired)
{
    const struct nbm_config *c = m->config;
    struct nbm_core *core = &m->cur->core;
    uint64_t resume = end + 1;
    uint32_t depth = c->queue_to_alloc + c->alloc_to_exec + 2;
    if (next_retired != UINT64_MAX) {
        uint64_t delay = later(resume + depth, next_retired) - next_retired;
        nbm_occurrences_delay(&m->occurrences, thread, delay);
        if (delay) {
            core->last_retire += delay;
            core->retire_in_cycle = 0;
        }
        core->end = later(core->end, core->last_retire + 1);
        resume = later(resume, core->last_retire - depth);
    }
    nbm_frontend_redirect(m, resume);
}

void nbm_pebs_assist(void *machine, int thread, const struct nbm_flush *flush)
{
    struct nbm_machine *m = machine;
    struct nbm_lp *saved = m->cur;
    m->cur = &m->lp[thread];
    struct microcode mc = {.m = m, .from = flush->cycle + 1, .end = flush->cycle};
    /* The clear (machine_clear counts "the machine is cleared for any
     * cause", SDM): one occurrence, as a branch's. */
    nbm_occur(&m->occurrences, mc.from, NBM_CLEAR, m->cur->level, 1);
    for (unsigned i = 0; i < flush->log->n_accesses; i++) {
        if (flush->log->access[i].store)
            store_uops(&mc, &flush->log->access[i]);
        else
            load_uop(&mc, &flush->log->access[i]);
    }
    struct nbm_core *core = &m->cur->core;
    core->end = later(core->end, later(mc.end, mc.drained) + 1);
    restart(m, thread, mc.end, flush->next_retired);
    /* A logical processor whose trace has ended is active until its
     * assist is done. */
    if (m->occurrences.active_until[thread] < core->end)
        nbm_occurrences_thread_end(&m->occurrences, thread, core->end);
    m->cur = saved;
}
