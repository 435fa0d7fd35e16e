/* Code reads and data accesses: the TLBs, the L1 caches, the L2, the bus
 * and the write buffers, with the events they raise (docs/p5-model.md,
 * "Memory"). */
#include "sim/p5/p5_machine.h"

enum { WIDEST_ACCESS = 8 }; /* the P5's 64-bit data bus: wider accesses split */

static uint64_t stall_total(const struct p5_stalls *s)
{
    return s->fetch + s->read + s->buffers + s->other;
}

static uint64_t issue_clock(const struct p5_machine *m, const struct p5_stalls *s)
{
    return m->now + stall_total(s);
}

/* Looks `key` up in a cache or TLB, putting it in on a miss (no
 * write-back: the TLBs, the code cache and the L2 are never written); true
 * on a miss. */
static bool missed_and_filled(struct set_assoc *c, uint64_t key)
{
    if (set_assoc_find(c, key) >= 0)
        return false;
    set_assoc_insert(c, key, NULL);
    return true;
}

/* Fills a line from the L2 or memory at clock t; the clocks until its
 * first (critical) 8 bytes arrive. */
static uint64_t line_fill(struct p5_machine *m, uint64_t address, uint64_t t)
{
    const struct p5_config *c = m->config;
    bool l2_hit = c->l2_size && !missed_and_filled(&m->l2, set_assoc_block(&m->l2, address));
    uint32_t latency = l2_hit ? c->l2_latency : c->memory_latency;
    uint64_t start = p5_bus_transfer(&m->bus, t, l2_hit ? c->l2_burst : c->memory_burst);
    return start - t + latency;
}

/* ---- code */

static void read_code_line(struct p5_machine *m, uint64_t address, struct p5_stalls *stalls)
{
    p5_report_event(m, P5_EV_CODE_READ, 1);
    if (missed_and_filled(&m->itlb, set_assoc_block(&m->itlb, address))) {
        p5_report_event(m, P5_EV_CODE_TLB_MISS, 1);
        stalls->fetch += m->config->tlb_miss_penalty;
    }
    if (missed_and_filled(&m->icache, set_assoc_block(&m->icache, address))) {
        p5_report_event(m, P5_EV_CODE_CACHE_MISS, 1);
        stalls->fetch += line_fill(m, address, issue_clock(m, stalls));
    }
}

/* The prefetcher reads a code line when execution enters it, sequentially
 * or at a taken branch's target. */
void p5_fetch_lines(struct p5_machine *m, const struct p5_op *op, struct p5_stalls *stalls)
{
    unsigned shift = m->icache.block_shift;
    uint64_t first = op->address >> shift;
    uint64_t last = (op->address + op->length - 1) >> shift;
    for (uint64_t line = first; line <= last; line++) {
        if (line + 1 == m->fetch_line)
            continue;
        m->fetch_line = line + 1;
        read_code_line(m, line << shift, stalls);
    }
}

/* ---- data */

/* Safford 1997, appendix A, event 0x0B: a 2- or 4-byte access crossing a 4-byte
 * boundary, an 8-byte access crossing an 8-byte boundary. */
static bool is_misaligned(uint64_t address, uint32_t size)
{
    if (size <= 1)
        return false;
    uint32_t boundary = size <= 4 ? 4 : 8;
    return (address & (boundary - 1)) + size > boundary;
}

/* The data TLB for each page of [first, last]; true on a miss. */
static bool data_tlb(struct p5_machine *m, uint64_t first, uint64_t last)
{
    unsigned shift = m->dtlb.block_shift;
    bool missed = false;
    for (uint64_t page = first >> shift, end = last >> shift; page <= end; page++)
        if (missed_and_filled(&m->dtlb, page)) {
            p5_report_event(m, P5_EV_DATA_TLB_MISS, 1);
            missed = true;
        }
    return missed;
}

/* A line brought into the data cache: its fill, and the write-back of a
 * dirty victim. */
static uint64_t fill_data_line(struct p5_machine *m, uint64_t address, uint64_t t, bool dirty)
{
    uint64_t stall = line_fill(m, address, t);
    struct set_assoc_victim victim;
    long slot = set_assoc_insert(&m->dcache, set_assoc_block(&m->dcache, address), &victim);
    if (victim.dirty) {
        p5_report_event(m, P5_EV_DATA_CACHE_LINES_WRITTEN_BACK, 1);
        p5_bus_transfer(&m->bus, t + stall, m->config->bus_writeback);
    }
    m->dcache.dirty[slot] = dirty;
    return stall;
}

/* A read that missed the line at `address`. */
static void read_missed(struct p5_machine *m, uint64_t address, struct p5_stalls *stalls)
{
    stalls->read += fill_data_line(m, address, issue_clock(m, stalls), false);
}

/* One line of a read; true on a miss. */
static bool read_line(struct p5_machine *m, uint64_t address, struct p5_stalls *stalls)
{
    if (set_assoc_find(&m->dcache, set_assoc_block(&m->dcache, address)) >= 0)
        return false;
    read_missed(m, address, stalls);
    return true;
}

/* A write to the line at `address`, found in entry `slot` of the cache
 * (-1: missed; write-back, no write allocate by default); true on a miss.
 * *hit_m_or_e: it hit a line in the E or M state. */
static bool write_found(struct p5_machine *m, uint64_t address, long slot,
                        struct p5_stalls *stalls, bool *hit_m_or_e)
{
    const struct p5_config *c = m->config;
    if (slot >= 0 && c->dcache_write_back) {
        m->dcache.dirty[slot] = true;
        *hit_m_or_e = true;
        return false;
    }
    if (slot < 0 && c->dcache_write_allocate) {
        stalls->other += fill_data_line(m, address, issue_clock(m, stalls), c->dcache_write_back);
        if (c->dcache_write_back)
            return true;
    }
    /* Write-through (S-state lines) or a miss: out through a write buffer. */
    stalls->buffers +=
        p5_bus_buffer_write(&m->bus, issue_clock(m, stalls), c->write_buffers, c->bus_write);
    return slot < 0;
}

/* One line of a write; true on a miss. */
static bool write_line(struct p5_machine *m, uint64_t address, struct p5_stalls *stalls,
                       bool *hit_m_or_e)
{
    long slot = set_assoc_find(&m->dcache, set_assoc_block(&m->dcache, address));
    return write_found(m, address, slot, stalls, hit_m_or_e);
}

/* The data cache for each line of [first, last]; true on a miss.
 * *hit_m_or_e: a write hit a line in the E or M state. */
static bool data_lines(struct p5_machine *m, uint64_t first, uint64_t last, bool write,
                       struct p5_stalls *stalls, bool *hit_m_or_e)
{
    unsigned shift = m->dcache.block_shift;
    bool missed = false;
    for (uint64_t line = first >> shift, end = last >> shift; line <= end; line++)
        missed |= write ? write_line(m, line << shift, stalls, hit_m_or_e)
                        : read_line(m, line << shift, stalls);
    return missed;
}

static void count_twice_if(struct p5_machine *m, bool twice, enum p5_event_code code,
                           enum p5_event_code sum_code)
{
    p5_report_event(m, code, twice ? 2 : 1);
    p5_report_event(m, sum_code, twice ? 2 : 1);
}

/* A reference's misaligned penalty: its stall clocks, and the event. */
static void misaligned_penalty(struct p5_machine *m, bool write, bool fst, bool tlb_missed,
                               struct p5_stalls *stalls)
{
    uint32_t penalty = m->config->misaligned_penalty;
    bool fst_twice = fst && write && p5_erratum_on(m, P5_ERRATUM_FST_MISALIGNED_TWICE);
    p5_report_event(m, P5_EV_MISALIGNED_DATA_MEMORY_OR_IO_REFERENCES, fst_twice ? 2 : 1);
    if (write) {
        stalls->other += penalty;
        return;
    }
    /* Erratum: 2 stall clocks counted instead of 3, unless the TLB missed. */
    uint32_t counted = penalty;
    if (penalty && !tlb_missed && p5_erratum_on(m, P5_ERRATUM_MISALIGNED_STALL_2))
        counted = penalty - 1;
    stalls->read += counted;
    stalls->other += penalty - counted;
}

/* The reference's miss events. */
static void count_miss(struct p5_machine *m, bool write)
{
    p5_report_event(m, write ? P5_EV_DATA_WRITE_MISS : P5_EV_DATA_READ_MISS, 1);
    p5_report_event(m, P5_EV_DATA_READ_OR_WRITE_MISS, 1);
}

/* One read or write of at most 8 bytes (data_access() splits wider ones);
 * `fst`: by an FST/FSTP. */
static void data_reference(struct p5_machine *m, uint64_t address, uint32_t size, bool write,
                           bool fst, struct p5_stalls *stalls)
{
    uint64_t last = address + size - 1;
    bool misaligned = is_misaligned(address, size);
    if (misaligned && p5_erratum_on(m, P5_ERRATUM_MISALIGNED_DOUBLE_ACCESS)) {
        /* Counted a second time; the first is a static event (p5_block.h). */
        p5_report_event(m, write ? P5_EV_DATA_WRITE : P5_EV_DATA_READ, 1);
        p5_report_event(m, P5_EV_DATA_READ_OR_WRITE, 1);
    }
    bool tlb_missed = data_tlb(m, address, last);
    if (tlb_missed)
        *(write ? &stalls->other : &stalls->read) += m->config->tlb_miss_penalty;

    bool hit_m_or_e = false;
    if (data_lines(m, address, last, write, stalls, &hit_m_or_e))
        count_twice_if(m, misaligned && p5_erratum_on(m, P5_ERRATUM_MISALIGNED_DOUBLE_MISS),
                       write ? P5_EV_DATA_WRITE_MISS : P5_EV_DATA_READ_MISS,
                       P5_EV_DATA_READ_OR_WRITE_MISS);
    else if (hit_m_or_e)
        p5_report_event(m, P5_EV_WRITE_TO_M_OR_E_LINES, 1);
    if (misaligned)
        misaligned_penalty(m, write, fst, tlb_missed, stalls);
}

/* The references of `size` bytes (at most 8) at `address`: a modify is a
 * read, then a write. */
static void data_references(struct p5_machine *m, enum trace_access_kind kind, uint64_t address,
                            uint32_t size, bool fst, struct p5_stalls *stalls)
{
    if (kind & TRACE_LOAD)
        data_reference(m, address, size, false, fst, stalls);
    if (kind & TRACE_STORE)
        data_reference(m, address, size, true, fst, stalls);
}

/* An access split into the P5's widest, 8 bytes (a 10-byte x87 access is
 * 8 + 2, Safford 1997, appendix A, event 0x0B). */
static void data_access(struct p5_machine *m, bool fst, const struct trace_access *a,
                        struct p5_stalls *stalls)
{
    if (a->size <= WIDEST_ACCESS) {
        data_references(m, a->kind, a->address, a->size, fst, stalls);
        return;
    }
    uint64_t address = a->address;
    for (uint32_t left = a->size; left > 0;) { /* no offset to wrap */
        uint32_t size = left < WIDEST_ACCESS ? left : WIDEST_ACCESS;
        data_references(m, a->kind, address, size, fst, stalls);
        address += size;
        left -= size;
    }
}

/* ---- the aligned reference: the frequent kind, inline */

/* A data TLB miss of a reference within one page. */
__attribute__((noinline)) static void aligned_tlb_miss(struct p5_machine *m, uint64_t page,
                                                       bool write, struct p5_stalls *stalls)
{
    set_assoc_insert(&m->dtlb, page, NULL);
    p5_report_event(m, P5_EV_DATA_TLB_MISS, 1);
    *(write ? &stalls->other : &stalls->read) += m->config->tlb_miss_penalty;
}

__attribute__((noinline)) static void aligned_read_miss(struct p5_machine *m, uint64_t address,
                                                        struct p5_stalls *stalls)
{
    read_missed(m, address, stalls);
    count_miss(m, false);
}

/* A write but a hit on a write-back cache or a miss without a fill. */
__attribute__((noinline)) static void aligned_write(struct p5_machine *m, uint64_t address,
                                                    long slot, struct p5_stalls *stalls)
{
    bool hit_m_or_e = false;
    if (write_found(m, address, slot, stalls, &hit_m_or_e))
        count_miss(m, true);
    else if (hit_m_or_e)
        p5_report_event(m, P5_EV_WRITE_TO_M_OR_E_LINES, 1);
}

/* A reference that is not misaligned: it lies in one page and one line
 * (pages and lines of at least 8 bytes, p5_machine_init()); data_reference()
 * without its loops. */
static inline void aligned_reference(struct p5_machine *m, uint64_t address, bool write,
                                     struct p5_stalls *stalls)
{
    uint64_t page = set_assoc_block(&m->dtlb, address);
    if (set_assoc_find(&m->dtlb, page) < 0)
        aligned_tlb_miss(m, page, write, stalls);
    long slot = set_assoc_find(&m->dcache, set_assoc_block(&m->dcache, address));
    if (!write) {
        if (slot < 0)
            aligned_read_miss(m, address, stalls);
    } else if (slot >= 0 && m->config->dcache_write_back) {
        m->dcache.dirty[slot] = true;
        p5_report_event(m, P5_EV_WRITE_TO_M_OR_E_LINES, 1);
    } else if (slot < 0 && !m->config->dcache_write_allocate) {
        /* write_found()'s miss without a fill: out through a write buffer */
        const struct p5_config *c = m->config;
        stalls->buffers += p5_bus_buffer_write(&m->bus, issue_clock(m, stalls), c->write_buffers,
                                               c->bus_write);
        count_miss(m, true);
    } else {
        aligned_write(m, address, slot, stalls);
    }
}

void p5_data_accesses(struct p5_machine *m, const struct p5_op *op,
                      const struct trace_access *accesses, uint32_t n, struct p5_stalls *stalls)
{
    for (uint32_t i = 0; i < n; i++) {
        const struct trace_access *a = &accesses[i];
        if (a->size > WIDEST_ACCESS || is_misaligned(a->address, a->size) || !m->aligned_fits) {
            data_access(m, op->fst, a, stalls);
            continue;
        }
        if (a->kind & TRACE_LOAD)
            aligned_reference(m, a->address, false, stalls);
        if (a->kind & TRACE_STORE)
            aligned_reference(m, a->address, true, stalls);
    }
}

/* ---- a clean replay's look-ups (p5_issue_plan()) */

bool p5_code_hits(struct p5_machine *m, const uint64_t *lines, unsigned n,
                  struct p5_entries *found)
{
    unsigned shift = m->icache.block_shift;
    for (unsigned k = 0; k < n; k++)
        if (set_assoc_find_from(&m->itlb, set_assoc_block(&m->itlb, lines[k] << shift),
                                &found[k].tlb) < 0 ||
            set_assoc_find_from(&m->icache, lines[k], &found[k].cache) < 0)
            return false;
    return true;
}

/* None is wider than 8 bytes (p5_plan's `replay`).  A load and a store of
 * one reference look the same entries up: the second look-up finds the
 * most recently used, and changes nothing. */
bool p5_data_hits(struct p5_machine *m, const struct trace_access *accesses, unsigned n,
                  struct p5_entries *found)
{
    if (n && !m->aligned_fits)
        return false;
    for (unsigned i = 0; i < n; i++) {
        const struct trace_access *a = &accesses[i];
        if (is_misaligned(a->address, a->size) ||
            set_assoc_find_from(&m->dtlb, set_assoc_block(&m->dtlb, a->address), &found[i].tlb) <
                0)
            return false;
        long slot = set_assoc_find_from(&m->dcache, set_assoc_block(&m->dcache, a->address),
                                        &found[i].cache);
        if (slot < 0)
            return false;
        if (a->kind & TRACE_STORE) {
            if (!m->config->dcache_write_back)
                return false;
            m->dcache.dirty[slot] = true;
        }
    }
    return true;
}
