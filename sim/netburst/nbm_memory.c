/* Memory (the Pentium 4 monitoring study, sections 5.3.3 and 5.4): the DTLB, the write-through L1 data
 * cache, the unified write-back L2 of 128-byte lines in two 64-byte
 * sectors, the front-side bus as a latency, the store buffer with
 * store-to-load forwarding, and the code fetches of build mode. */
#include <stdlib.h>
#include <string.h>

#include "sim/netburst/nbm_machine.h"

enum { LINE_SHIFT = 6, PAGE_SHIFT = 12, SECTORS = 2 };

/* The caches and the DTLB are shared by the logical processors, their
 * entries tagged with it (nbm_lp.line_tag): the two traces are separate
 * address spaces. */
bool nbm_memory_init(struct nbm_machine *m, const struct nbm_config *c)
{
    return set_assoc_init(&m->l1d, c->l1d_size >> LINE_SHIFT, c->l1d_ways, 1) &&
           set_assoc_init(&m->dtlb, c->dtlb_entries, c->dtlb_entries, 1) &&
           set_assoc_init(&m->l2, c->l2_size >> (LINE_SHIFT + 1), c->l2_ways, 1);
}

void nbm_memory_free(struct nbm_machine *m)
{
    set_assoc_free(&m->l1d);
    set_assoc_free(&m->dtlb);
    set_assoc_free(&m->l2);
}

bool nbm_store_buffer_init(struct nbm_store_buffer *sb, uint32_t entries)
{
    uint64_t n = 1;
    while (n < entries)
        n *= 2;
    sb->mask = n - 1;
    sb->n_stores = sb->n_retired = 0;
    memset(sb->lines, 0, sizeof sb->lines);
    sb->wide = 0;
    sb->stores = calloc(n, sizeof *sb->stores);
    return sb->stores != NULL;
}

void nbm_store_buffer_free(struct nbm_store_buffer *sb)
{
    free(sb->stores);
    sb->stores = NULL;
}

/* ---- the bus: every transfer is a 64-byte sector */

static void bus_read(struct nbm_machine *m, uint64_t cycle)
{
    nbm_occur(&m->occurrences, cycle, NBM_BSQ_READ, m->cur->level, SECTORS);
    nbm_occur(&m->occurrences, cycle, NBM_IOQ_READ, m->cur->level, SECTORS);
    nbm_occur(&m->occurrences, cycle, NBM_DRDY_OWN, m->cur->level, SECTORS);
}

static void bus_writeback(struct nbm_machine *m, uint64_t cycle)
{
    nbm_occur(&m->occurrences, cycle, NBM_BSQ_WRITEBACK, m->cur->level, SECTORS);
    nbm_occur(&m->occurrences, cycle, NBM_IOQ_WRITE, m->cur->level, SECTORS);
    nbm_occur(&m->occurrences, cycle, NBM_DRDY_DRV, m->cur->level, SECTORS);
}

/* A read of a 64-byte line at the L2 (code, load, or a store's read for
 * ownership when `rfo`): whether it hit.  A miss brings the whole 128-byte
 * line, both sectors (the Pentium 4 monitoring study, section 5.4); a modified victim is written back. */
static bool l2_lookup(struct nbm_machine *m, uint64_t line, uint64_t cycle, bool rfo)
{
    const struct nbm_config *c = m->config;
    struct set_assoc *l2 = &m->l2;
    uint64_t key = (line >> 1) ^ m->cur->line_tag;
    long i = set_assoc_find(l2, key);
    if (i >= 0) {
        if (!rfo)
            nbm_occur(&m->occurrences, cycle, l2->dirty[i] ? NBM_L2_HITM : NBM_L2_HITE, m->cur->level, 1);
        else
            l2->dirty[i] = true;
        return true;
    }
    nbm_occur(&m->occurrences, cycle, NBM_L2_MISS, m->cur->level, 1);
    bus_read(m, cycle + c->l2_latency);
    struct set_assoc_victim victim;
    i = set_assoc_insert(l2, key, &victim);
    if (victim.dirty)
        bus_writeback(m, cycle + c->l2_latency);
    l2->dirty[i] = rfo;
    return false;
}

/* The cycles of an L2 read that hit or missed. */
static uint32_t l2_cycles(const struct nbm_machine *m, bool hit)
{
    return m->config->l2_latency + (hit ? 0 : m->config->memory_latency);
}

static uint32_t l2_read(struct nbm_machine *m, uint64_t line, uint64_t cycle, bool rfo)
{
    return l2_cycles(m, l2_lookup(m, line, cycle, rfo));
}

/* Translations of the pages [first, last]; the number of page walks (misses). */
static uint32_t translate(struct nbm_machine *m, struct set_assoc *tlb, uint64_t first,
                          uint64_t last, uint64_t cycle, bool code)
{
    uint32_t walks = 0;
    for (uint64_t page = first; page <= last; page++) {
        bool hit = set_assoc_find(tlb, page ^ m->cur->line_tag) >= 0;
        if (code)
            nbm_occur(&m->occurrences, cycle, hit ? NBM_ITLB_HIT : NBM_ITLB_MISS, m->cur->level, 1);
        if (hit)
            continue;
        set_assoc_insert(tlb, page ^ m->cur->line_tag, NULL);
        nbm_occur(&m->occurrences, cycle, code ? NBM_WALK_ITMISS : NBM_WALK_DTMISS, m->cur->level, 1);
        walks++;
    }
    return walks;
}

uint32_t nbm_code_fetch(struct nbm_machine *m, uint64_t address, uint64_t cycle)
{
    uint32_t walk = translate(m, &m->cur->fe.itlb, address >> PAGE_SHIFT, address >> PAGE_SHIFT,
                              cycle, true) * m->config->page_walk_latency;
    return walk + l2_read(m, address >> LINE_SHIFT, cycle + walk, false);
}

/* ---- loads */

static uint64_t last_byte(const struct trace_access *a)
{
    return a->address + (a->size ? a->size : 1) - 1;
}

/* A line's counter in the store buffer's `lines`: Fibonacci hashing, so
 * that arrays a power of two apart do not share one. */
_Static_assert(NBM_STORE_LINE_SLOTS == 64, "line_slot gives 6 bits");
static unsigned line_slot(uint64_t line)
{
    return (unsigned)((line * 0x9e3779b97f4a7c15ull) >> 58);
}

/* The store buffer's count of stores touching the lines [first, last]
 * (struct nbm_store_buffer): `delta` 1 for a store entering the ring, -1
 * for one leaving it. */
static void count_lines(struct nbm_store_buffer *sb, uint64_t first, uint64_t last, int delta)
{
    if (last - first > 1) {
        sb->wide += (uint32_t)delta;
        return;
    }
    for (uint64_t line = first; line <= last; line++)
        sb->lines[line_slot(line)] += (uint16_t)delta;
}

/* Whether no store of the ring can overlap the lines [first, last]. */
static bool no_store_near(const struct nbm_store_buffer *sb, uint64_t first, uint64_t last)
{
    return !sb->wide && last - first <= 1 && !sb->lines[line_slot(first)] &&
           !sb->lines[line_slot(last)];
}

/* The youngest store still in the buffer at `half` that overlaps the access. */
static const struct nbm_store *older_store(const struct nbm_machine *m,
                                           const struct trace_access *a, uint64_t half)
{
    const struct nbm_store_buffer *sb = &m->cur->sb;
    if (no_store_near(sb, a->address >> LINE_SHIFT, last_byte(a) >> LINE_SHIFT))
        return NULL;
    uint32_t n = m->cur->limits.store_buffers;
    uint64_t oldest = sb->n_stores > n ? sb->n_stores - n : 0;
    for (uint64_t seq = sb->n_stores; seq-- > oldest;) {
        const struct nbm_store *s = &sb->stores[seq & sb->mask];
        if (s->drain > half / 2 && s->address <= last_byte(a) &&
            a->address <= s->address + s->size - 1)
            return s;
    }
    return NULL;
}

/* The miss slot free first: l1d_load_misses misses can be outstanding
 * ("up to four outstanding load misses", Intel, "A Detailed Look Inside
 * the Intel NetBurst Micro-Architecture of the Intel Pentium 4 Processor",
 * 2000, p. 17; eight on Prescott).  A slot is taken in timing order, not
 * cycle order: a miss timed after another never uses a slot before the
 * other's data is back, even if it starts earlier. */
static uint64_t *free_miss_slot(struct nbm_machine *m)
{
    uint64_t *slot = &m->miss_busy_until[0];
    for (uint32_t i = 1; i < m->config->l1d_load_misses; i++)
        if (m->miss_busy_until[i] < *slot)
            slot = &m->miss_busy_until[i];
    return slot;
}

/* An L1 miss of `line` detected at `cycle`: it waits for a miss slot, then
 * reads the L2; adds the L1 and L2 misses to *causes; the cycles from
 * `cycle` to its data. */
static uint64_t l1_miss(struct nbm_machine *m, uint64_t line, uint64_t cycle, uint16_t *causes)
{
    uint64_t *slot = free_miss_slot(m);
    uint64_t start = *slot > cycle ? *slot : cycle;
    bool l2_hit = l2_lookup(m, line, start, false);
    *causes |= NB_CAUSE_L1_MISS | (l2_hit ? 0 : NB_CAUSE_L2_MISS);
    uint64_t data = start + l2_cycles(m, l2_hit);
    *slot = data;
    return data - cycle;
}

/* The L1 lines [first, last] for a load at `cycle`: the cycles beyond an L1
 * hit (a wait for the miss slots included: 64 bits); adds the L1 and L2
 * misses to *causes. */
static uint64_t l1_read(struct nbm_machine *m, uint64_t first, uint64_t last, uint64_t cycle,
                        uint16_t *causes)
{
    uint64_t extra = 0;
    for (uint64_t line = first; line <= last; line++) {
        if (set_assoc_find(&m->l1d, line ^ m->cur->line_tag) >= 0)
            continue;
        uint64_t l2 = l1_miss(m, line, cycle, causes);
        extra = l2 > extra ? l2 : extra;
        set_assoc_insert(&m->l1d, line ^ m->cur->line_tag, NULL);
    }
    return extra;
}

uint64_t nbm_load(struct nbm_machine *m, const struct trace_access *a, uint64_t start_half,
                  uint16_t *causes)
{
    const struct nbm_config *c = m->config;
    uint64_t cycle = start_half / 2;
    uint32_t walks = translate(m, &m->dtlb, a->address >> PAGE_SHIFT,
                               last_byte(a) >> PAGE_SHIFT, cycle, false);
    uint32_t walk = walks * c->page_walk_latency;
    if (walks)
        *causes |= NB_CAUSE_DTLB_LOAD;
    const struct nbm_store *s = older_store(m, a, start_half);
    if (s && s->address == a->address && a->size <= s->size) {
        /* Forwarded: same start, no wider than the store (the Pentium 4 monitoring study, section 5.3.3). */
        if (s->data_half > start_half)
            nbm_occur(&m->occurrences, cycle, NBM_MOB_NO_STD, m->cur->level, 1);
        uint64_t from = s->data_half > start_half ? s->data_half : start_half;
        return from + 2ull * (walk + c->l1d_latency);
    }
    if (s) {
        /* Not forwardable: replayed until the store has written the cache. */
        bool partial = s->address == a->address;
        nbm_occur(&m->occurrences, cycle, partial ? NBM_MOB_PARTIAL : NBM_MOB_UNALIGNED, m->cur->level, 1);
        *causes |= partial ? NB_CAUSE_MOB_PARTIAL : NB_CAUSE_MOB_UNALIGNED;
        if (2 * s->drain > start_half)
            start_half = 2 * s->drain;
        cycle = start_half / 2;
    }
    uint64_t first = a->address >> LINE_SHIFT, last = last_byte(a) >> LINE_SHIFT;
    uint64_t latency = walk + c->l1d_latency + l1_read(m, first, last, cycle + walk, causes);
    if (first != last) {
        /* Split across lines: replayed once to get the second half. */
        *causes |= NB_CAUSE_SPLIT_LOAD;
        nbm_occur(&m->occurrences, cycle, NBM_SPLIT_LD, m->cur->level, 1);
        nbm_occur(&m->occurrences, cycle, NBM_LSC, m->cur->level, 1);
        latency += c->l1d_latency;
    }
    return start_half + 2ull * latency;
}

/* ---- stores: executed into the store buffer, written at retirement */

uint16_t nbm_store_execute(struct nbm_machine *m, const struct trace_access *a,
                           uint64_t start_half, uint64_t data_half)
{
    uint64_t cycle = start_half / 2;
    uint16_t causes = 0;
    if (translate(m, &m->dtlb, a->address >> PAGE_SHIFT, last_byte(a) >> PAGE_SHIFT, cycle,
                  false))
        causes |= NB_CAUSE_DTLB_STORE;
    if (a->address >> LINE_SHIFT != last_byte(a) >> LINE_SHIFT) {
        causes |= NB_CAUSE_SPLIT_STORE;
        nbm_occur(&m->occurrences, cycle, NBM_SPLIT_ST, m->cur->level, 1);
        nbm_occur(&m->occurrences, cycle, NBM_SSC, m->cur->level, 1);
    }
    struct nbm_store_buffer *sb = &m->cur->sb;
    if (sb->n_stores > sb->mask) {
        const struct nbm_store *leaving = &sb->stores[sb->n_stores & sb->mask];
        count_lines(sb, leaving->address >> LINE_SHIFT,
                    (leaving->address + leaving->size - 1) >> LINE_SHIFT, -1);
    }
    count_lines(sb, a->address >> LINE_SHIFT, last_byte(a) >> LINE_SHIFT, 1);
    sb->stores[sb->n_stores++ & sb->mask] = (struct nbm_store){
        .address = a->address,
        .size = a->size ? a->size : 1,
        .data_half = data_half,
        .drain = UINT64_MAX,
    };
    return causes;
}

uint64_t nbm_store_retire(struct nbm_machine *m, uint64_t cycle)
{
    struct nbm_store_buffer *sb = &m->cur->sb;
    struct nbm_store *s = &sb->stores[sb->n_retired++ & sb->mask];
    uint64_t first = s->address >> LINE_SHIFT, last = (s->address + s->size - 1) >> LINE_SHIFT;
    uint32_t extra = 0;
    for (uint64_t line = first; line <= last; line++) {
        set_assoc_find(&m->l1d, line ^ m->cur->line_tag); /* write-through: no allocation on a miss */
        uint32_t l2 = l2_read(m, line, cycle, true);
        extra = l2 > extra ? l2 : extra;
    }
    s->drain = cycle + 1 + (extra > m->config->l2_latency ? extra : 0);
    return s->drain;
}
