/* The front end (the Pentium 4 monitoring study, section 4; SDM optimization manual, "Execution trace
 * cache"): trace lines of tc_line_uops uops looked up by their first
 * instruction's address.  A hit delivers up to deliver_width uops a cycle;
 * a miss builds the line, decoding one instruction a cycle from code read
 * through the ITLB and the L2.  Instructions of more than 4 uops come from
 * the microcode ROM.  A mispredicted branch holds the correct path back
 * until it has executed. */
#include "sim/netburst/nbm_machine.h"

enum { CHUNK_SHIFT = 6 };

bool nbm_frontend_init(struct nbm_frontend *fe, const struct nbm_config *c)
{
    return set_assoc_init(&fe->itlb, c->itlb_entries, c->itlb_ways, 1);
}

void nbm_frontend_free(struct nbm_frontend *fe)
{
    set_assoc_free(&fe->itlb);
}

static void new_cycle(struct nbm_frontend *fe)
{
    if (fe->in_cycle) {
        fe->t++;
        fe->in_cycle = 0;
    }
}

static void set_mode(struct nbm_machine *m, enum nbm_fe_mode mode)
{
    nbm_occurrences_frontend(&m->occurrences, m->cur->level, m->cur->fe.t, mode);
}

/* A trace line starting at `address`, in a new cycle.  The trace cache is
 * shared: its lines are tagged with the logical processor. */
static void open_line(struct nbm_machine *m, uint64_t address)
{
    struct nbm_frontend *fe = &m->cur->fe;
    uint64_t key = address ^ m->cur->address_tag;
    new_cycle(fe);
    if (set_assoc_find(&m->tc, key) >= 0) {
        fe->mode = NBM_MODE_DELIVER;
        fe->last_chunk = 0;
    } else {
        set_assoc_insert(&m->tc, key, NULL);
        nbm_occur(&m->occurrences, fe->t, NBM_TCMISS, m->cur->level, 1);
        fe->mode = NBM_MODE_BUILD;
    }
    set_mode(m, (enum nbm_fe_mode)fe->mode);
    fe->line_open = true;
    fe->line_used = 0;
}

/* Build mode: the instruction's code bytes, a 64-byte chunk at a time. */
static void fetch_code(struct nbm_machine *m, uint64_t address, uint8_t length)
{
    struct nbm_frontend *fe = &m->cur->fe;
    uint64_t first = address >> CHUNK_SHIFT;
    uint64_t last = (address + length - 1) >> CHUNK_SHIFT;
    for (uint64_t chunk = first; chunk <= last; chunk++) {
        if (chunk + 1 == fe->last_chunk)
            continue;
        fe->t += nbm_code_fetch(m, chunk << CHUNK_SHIFT, fe->t);
        fe->in_cycle = 0;
        fe->last_chunk = chunk + 1;
    }
    new_cycle(fe); /* one instruction a cycle */
}

void nbm_fetch_begin(struct nbm_machine *m, uint64_t address, uint8_t length,
                     const struct nbm_op *op)
{
    struct nbm_frontend *fe = &m->cur->fe;
    if (fe->redirect > fe->t) {
        fe->t = fe->redirect;
        fe->in_cycle = 0;
    }
    unsigned slots = op->msrom ? 1 : op->uops; /* a ROM instruction: a pointer */
    if (!fe->line_open || fe->line_used + slots > m->config->tc_line_uops)
        open_line(m, address);
    fe->line_used += slots;
    set_mode(m, (enum nbm_fe_mode)fe->mode);
    if (fe->mode == NBM_MODE_BUILD)
        fetch_code(m, address, length);
    if (op->msrom) {
        fe->in_cycle = 1; /* the pointer's cycle, then the ROM */
        new_cycle(fe);
        nbm_occur(&m->occurrences, fe->t, NBM_MS_XFER, m->cur->level, 1);
        set_mode(m, NBM_MODE_ROM);
    }
}

void nbm_fetch_end(struct nbm_machine *m, const struct nbm_op *op, bool taken)
{
    struct nbm_frontend *fe = &m->cur->fe;
    if (op->msrom) {
        new_cycle(fe);
        nbm_occur(&m->occurrences, fe->t, NBM_MS_XFER, m->cur->level, 1); /* and back to the TC */
        set_mode(m, (enum nbm_fe_mode)fe->mode);
    }
    if (taken) {
        fe->line_open = false;
        fe->last_chunk = 0;
    }
}

void nbm_frontend_redirect(struct nbm_machine *m, uint64_t cycle)
{
    struct nbm_frontend *fe = &m->cur->fe;
    fe->line_open = false;
    fe->last_chunk = 0;
    if (cycle > fe->redirect)
        fe->redirect = cycle;
}
