/* Wrong-path speculation and the machine clear of a mispredicted branch
 * (docs/netburst-model.md, "Speculation").  The trace holds only the
 * correct path: the wrong path is fetched from where the front end went
 * (the predicted target or the fall-through) with the code the decode
 * cache already knows by address, until the branch executes: the machine
 * clear.  Its uops take uop queue entries, allocation slots, ROB entries
 * and unit slots; those in the ROB at the clear leave it through the
 * retirement logic marked bogus, in order, retire_width a cycle from the
 * clear (what uops_retired BOGUS counts: SDM "At-Retirement Counting",
 * bogus uops are those "that must be canceled because they are on a path
 * taken from a mispredicted branch"); the others are dropped. */
#include "sim/netburst/nbm_machine.h"

struct wrong_path {
    uint64_t clear;              /* cycle of the machine clear */
    bool blocked;                /* a uop could not allocate before the clear */
    unsigned uops;               /* retired bogus */
    struct nbm_uop uop;          /* the uop being timed, for the uop hook */
};

/* A wrong-path uop: a computing uop of its instruction's unit (the
 * decode cache keeps no memory operands, so no load or store uops),
 * executed if the unit is free before the clear.  Returns when its result
 * is ready, for the next uop of the chain. */
static uint64_t execute_bogus(struct nbm_machine *m, const struct nbm_op *op, uint64_t alloc,
                              uint64_t ready, uint64_t clear, uint64_t *start)
{
    uint64_t from = 2 * (alloc + m->config->alloc_to_exec);
    *start = nbm_issue(m, op, from > ready ? from : ready, 2 * clear);
    if (*start == UINT64_MAX)
        return UINT64_MAX;
    nbm_compute_events(m, op, *start);
    return *start + nbm_timing(m, op)->latency;
}

/* The uop hook told of a wrong-path uop (squashed at the clear): its queue
 * write, allocation, issue and result (half cycles), retirement (each
 * UINT64_MAX when it had none); a result after the clear never came. */
static inline void report_bogus(struct nbm_machine *m, struct wrong_path *w, uint64_t queued,
                                uint64_t allocated, uint64_t start_half, uint64_t result_half,
                                uint64_t retired)
{
    if (!m->uop_hook)
        return;
    struct nbm_uop *uop = &w->uop;
    uop->queued = queued;
    uop->allocated = allocated;
    uop->issued = start_half == UINT64_MAX ? UINT64_MAX : start_half / 2;
    uop->completed = start_half != UINT64_MAX && (result_half + 1) / 2 <= w->clear
                         ? (result_half + 1) / 2 : UINT64_MAX;
    uop->retired = retired;
    m->uop_hook->report(m->uop_hook->context, uop);
    uop->index++;
}

/* One uop: queue, allocation (in order: none after one that could not),
 * execution, bogus retirement (*retired).  False when it cannot be
 * written into the queue before the clear. */
static bool bogus_uop(struct nbm_machine *m, const struct nbm_op *op, struct wrong_path *w,
                      uint64_t *ready, uint64_t *retired)
{
    struct nbm_core *core = &m->cur->core;
    uint64_t seq = core->uop_seq;
    uint64_t q = nbm_fetch_uop(m, op, seq, w->clear);
    if (q == UINT64_MAX)
        return false;
    core->uop_seq++;
    uint64_t a = w->blocked ? UINT64_MAX : nbm_allocate(m, seq, q, NBM_ROLE_COMPUTE, w->clear);
    if (a == UINT64_MAX) {
        /* Dropped at the clear: its queue and ROB entries are free then. */
        core->alloc_ring[seq & core->ring_mask] = w->clear;
        core->retire_ring[seq & core->ring_mask] = w->clear;
        w->blocked = true;
        report_bogus(m, w, q, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX);
        return true;
    }
    uint64_t start = UINT64_MAX;
    if (*ready != UINT64_MAX)
        *ready = execute_bogus(m, op, a, *ready, w->clear, &start);
    *retired = nbm_retire_slot(m, w->clear);
    core->retire_ring[seq & core->ring_mask] = *retired;
    if (*retired + 1 > core->end)
        core->end = *retired + 1;
    nbm_occur(&m->occurrences, *retired, NBM_UOPS_BOGUS, m->cur->level, 1);
    w->uops++;
    report_bogus(m, w, q, a, start, *ready, *retired);
    return true;
}

/* One wrong-path instruction; returns the next address (0: stop). */
static uint64_t bogus_instruction(struct nbm_machine *m, uint64_t address,
                                  const struct nbm_op *op, struct wrong_path *w)
{
    if (m->cur->fe.t >= w->clear)
        return 0;
    nbm_fetch_begin(m, address, op->length, op);
    unsigned n = op->uops < NBM_MAX_UOPS ? op->uops : NBM_MAX_UOPS;
    if (m->uop_hook)
        w->uop = (struct nbm_uop){.thread = m->cur->id, .address = address,
                                  .bytes = nbm_decode_code(m->cur->decoded, address),
                                  .length = op->length, .code64 = m->cur->code64,
                                  .uops = (uint8_t)n, .bogus = true};
    unsigned before = w->uops;
    /* operands from the correct path's registers (the wrong path's own
     * results are not tracked across instructions) */
    uint64_t ready = nbm_operands(&m->cur->core, op), retired = 0;
    for (unsigned k = 0; k < n; k++)
        if (!bogus_uop(m, op, w, &ready, &retired))
            return 0;
    if (w->uops - before == n) { /* all of it reached retirement */
        nbm_occur(&m->occurrences, retired, NBM_INSTR_BOGUS, m->cur->level, 1);
        nbm_occur(&m->occurrences, retired, NBM_COMPLETED_BOGUS, m->cur->level, 1);
    }
    uint64_t next = nbm_predict_wrong_path(m, address, op);
    nbm_fetch_end(m, op, next != address + op->length);
    return next;
}

void nbm_clear_resolve_pending(struct nbm_machine *m, bool wrong_path)
{
    struct nbm_lp *lp = m->cur;
    lp->clear.pending = false;
    struct wrong_path w = {.clear = lp->clear.resolved};
    const struct nbm_op *op;
    for (uint64_t pc = wrong_path ? lp->clear.from : 0;
         pc && lp->decoded && (op = nbm_decode_lookup(lp->decoded, pc)) != NULL;)
        pc = bogus_instruction(m, pc, op, &w);
    nbm_occur(&m->occurrences, w.clear, NBM_CLEAR, lp->level, 1);
    m->result->bogus_uops[lp->id] += w.uops;
    nbm_frontend_redirect(m, w.clear + m->config->branch_redirect);
}
