/* The front end (seed 000 4; SDM optimization manual, "Execution trace
 * cache"): trace lines of tc_line_uops uops looked up by their first
 * instruction's address.  A hit delivers up to deliver_width uops a cycle;
 * a miss builds the line, decoding one instruction a cycle from code read
 * through the ITLB and the L2.  Instructions of more than 4 uops come from
 * the microcode ROM.  A mispredicted branch holds the correct path back
 * until it has executed. */
#include "sim/netburst/nb_machine.h"

enum { CHUNK_SHIFT = 6 };

bool nb_frontend_init(struct nb_frontend *fe, const struct nbm_config *c)
{
    if (!nb_cache_init(&fe->tc, c->tc_uops / c->tc_line_uops, c->tc_ways))
        return false;
    if (nb_cache_init(&fe->itlb, c->itlb_entries, c->itlb_ways))
        return true;
    nb_cache_free(&fe->tc);
    return false;
}

void nb_frontend_free(struct nb_frontend *fe)
{
    nb_cache_free(&fe->tc);
    nb_cache_free(&fe->itlb);
}

static void new_cycle(struct nb_frontend *fe)
{
    if (fe->in_cycle) {
        fe->t++;
        fe->in_cycle = 0;
    }
}

static void set_mode(struct nb_machine *m, enum nb_fe_mode mode)
{
    nb_events_frontend(&m->events, m->fe.t, mode, m->user);
}

/* A trace line starting at `address`, in a new cycle. */
static void open_line(struct nb_machine *m, uint64_t address)
{
    struct nb_frontend *fe = &m->fe;
    new_cycle(fe);
    if (nb_cache_find(&fe->tc, address) >= 0) {
        fe->mode = NB_MODE_DELIVER;
        fe->last_chunk = 0;
    } else {
        uint64_t evicted;
        bool had;
        nb_cache_insert(&fe->tc, address, &evicted, &had);
        nb_event(&m->events, fe->t, NB_TCMISS, m->user, 1);
        fe->mode = NB_MODE_BUILD;
    }
    set_mode(m, (enum nb_fe_mode)fe->mode);
    fe->line_open = true;
    fe->line_used = 0;
}

/* Build mode: the instruction's code bytes, a 64-byte chunk at a time. */
static void fetch_code(struct nb_machine *m, const struct trace_insn *insn)
{
    struct nb_frontend *fe = &m->fe;
    uint64_t first = insn->address >> CHUNK_SHIFT;
    uint64_t last = (insn->address + insn->length - 1) >> CHUNK_SHIFT;
    for (uint64_t chunk = first; chunk <= last; chunk++) {
        if (chunk + 1 == fe->last_chunk)
            continue;
        fe->t += nb_code_fetch(m, chunk << CHUNK_SHIFT, fe->t);
        fe->in_cycle = 0;
        fe->last_chunk = chunk + 1;
    }
    new_cycle(fe); /* one instruction a cycle */
}

void nb_fetch_begin(struct nb_machine *m, const struct trace_insn *insn, const struct nb_op *op)
{
    struct nb_frontend *fe = &m->fe;
    if (fe->redirect > fe->t) {
        fe->t = fe->redirect;
        fe->in_cycle = 0;
    }
    unsigned slots = op->msrom ? 1 : op->uops; /* a ROM instruction: a pointer */
    if (!fe->line_open || fe->line_used + slots > m->config->tc_line_uops)
        open_line(m, insn->address);
    fe->line_used += slots;
    set_mode(m, (enum nb_fe_mode)fe->mode);
    if (fe->mode == NB_MODE_BUILD)
        fetch_code(m, insn);
    if (op->msrom) {
        fe->in_cycle = 1; /* the pointer's cycle, then the ROM */
        new_cycle(fe);
        nb_event(&m->events, fe->t, NB_MS_XFER, m->user, 1);
        set_mode(m, NB_MODE_ROM);
    }
}

uint64_t nb_fetch_uop(struct nb_machine *m, const struct nb_op *op, uint64_t seq)
{
    struct nb_frontend *fe = &m->fe;
    const struct nb_core *core = &m->core;
    bool build = fe->mode == NB_MODE_BUILD && !op->msrom; /* the decoder writes them all */
    if (!build && fe->in_cycle >= m->config->deliver_width)
        new_cycle(fe);
    if (seq >= m->config->uop_queue) {
        uint64_t freed = core->alloc_ring[(seq - m->config->uop_queue) & core->ring_mask];
        if (freed > fe->t) {
            fe->t = freed;
            fe->in_cycle = 0;
        }
    }
    fe->in_cycle++;
    enum nb_slot slot = op->msrom ? NB_UQ_ROM : build ? NB_UQ_BUILD : NB_UQ_DELIVER;
    nb_event(&m->events, fe->t, slot, m->user, 1);
    return fe->t;
}

void nb_fetch_end(struct nb_machine *m, const struct nb_op *op, bool taken)
{
    struct nb_frontend *fe = &m->fe;
    if (op->msrom) {
        new_cycle(fe);
        nb_event(&m->events, fe->t, NB_MS_XFER, m->user, 1); /* and back to the TC */
        set_mode(m, (enum nb_fe_mode)fe->mode);
    }
    if (taken) {
        fe->line_open = false;
        fe->last_chunk = 0;
    }
}

void nb_frontend_redirect(struct nb_machine *m, uint64_t cycle)
{
    struct nb_frontend *fe = &m->fe;
    fe->line_open = false;
    fe->last_chunk = 0;
    if (cycle > fe->redirect)
        fe->redirect = cycle;
}
