/* Internal to sim/p5: the state of one simulation and the steps of one
 * issue (a lone instruction or a U/V pair). */
#ifndef SIM_P5_P5_MACHINE_H
#define SIM_P5_P5_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/emulated/p5_pmu.h"
#include "pmu/emulated/p5_pmu_batch.h"
#include "sim/common/set_assoc.h"
#include "sim/p5/p5_block.h"
#include "sim/p5/p5_btb.h"
#include "sim/p5/p5_bus.h"
#include "sim/p5/p5_model.h"
#include "sim/p5/p5_op.h"

struct p5_machine {
    const struct p5_config *config;
    struct p5_pmu *pmu;
    const struct p5_feed *feed; /* the PMU's: what it counts now */
    struct p5_pmu_batch batch;  /* what the model reported since the PMU was told last */
    struct set_assoc dcache, icache, l2, dtlb, itlb; /* keys: block numbers */
    struct set_assoc btb;       /* keys: branch addresses (sim/p5/p5_btb.h) */
    struct p5_bus bus;
    uint64_t now;           /* the clock being issued */
    uint64_t fetch_line;    /* code line last read + 1; 0 after a taken branch */
    uint32_t agi_regs;      /* written by the instructions of the clock before */
    uint64_t decode_free;   /* the clock from which the decoder could decode the next
                             * instruction's prefixes (while the issue went on) */
    uint64_t st_ready[8];   /* x87 registers R0-R7: the clock each one's value is ready */
    unsigned st_top;        /* the register that is ST(0) */
    uint64_t mm_ready[8];   /* MM0-MM7 (Pentium MMX): the clock each one's value is ready */
    int cpl;                /* the PMU's CPL as set last by p5_set_cpl(); -1: unknown */
    bool aligned_fits;      /* a reference that is not misaligned lies in one data page
                             * (pages of 8 bytes or more; lines are) */
    /* The BTB entry found last by the branch of the groups p5_issue() is
     * given, which are no plan's (the held instruction paired with the
     * next block's first). */
    uint32_t btb_found;
};

/* Reports `count` occurrences of `code` in the clock being issued; not
 * when the PMU's feed says they would not count, which keeps the model
 * fast (docs/p5-model.md, "Speed"). */
static inline void p5_report_event(struct p5_machine *m, enum p5_event_code code, uint32_t count)
{
    p5_pmu_batch_event(&m->batch, code, count);
}

/* Ends the clock being issued and n - 1 more (n > 0), in which the
 * duration events of `holding` hold. */
static inline void p5_report_clocks(struct p5_machine *m, uint64_t n, uint64_t holding)
{
    p5_pmu_batch_ticks(&m->batch, n, holding);
}

/* Hands the PMU what the model reported since it was told last: before
 * anything outside the model may see or change it. */
static inline void p5_report_to_pmu(struct p5_machine *m)
{
    p5_pmu_batch_flush(&m->batch);
}

/* Clocks lost by one issue, by cause (each its duration event). */
struct p5_stalls {
    uint64_t fetch;   /* code TLB and code cache misses */
    uint64_t read;    /* 0x1a: data reads, data TLB misses for reads */
    uint64_t buffers; /* 0x19: every write buffer full */
    uint64_t other;   /* misaligned writes, write TLB misses, write-allocate fills */
};

bool p5_machine_init(struct p5_machine *m, const struct p5_config *config, struct p5_pmu *pmu);
void p5_machine_free(struct p5_machine *m);

static inline bool p5_erratum_on(const struct p5_machine *m, enum p5_erratum erratum)
{
    return (m->config->errata & erratum) != 0;
}

/* p5_memory.c: the code reads of an instruction, and its data accesses;
 * each starts at m->now plus the stalls already in `stalls`, and adds its
 * own. */
void p5_fetch_lines(struct p5_machine *m, const struct p5_op *op, struct p5_stalls *stalls);
void p5_data_accesses(struct p5_machine *m, const struct p5_op *op,
                      const struct trace_access *accesses, uint32_t n, struct p5_stalls *stalls);

/* A clean replay's look-ups (p5_issue_plan()): the code lines, by the
 * code TLB and cache; the data accesses (none wider than 8 bytes), by the
 * data TLB and cache, a write marking its line dirty.  Each looks up as
 * the steps of an issue would, in the same order, and stops at the first
 * that would not be clean: a miss, a misaligned reference, a write to a
 * write-through cache (false).  The hits before it are redone by the
 * steps, to the same effect: a hit only makes its entry the most recently
 * used, which it is after the second time as after the first, in the same
 * order.  found[] (by line, by access): the entries they found last
 * (struct p5_found). */
bool p5_code_hits(struct p5_machine *m, const uint64_t *lines, unsigned n,
                  struct p5_entries *found);
bool p5_data_hits(struct p5_machine *m, const struct trace_access *accesses, unsigned n,
                  struct p5_entries *found);

/* Inline: most instructions lie in the code line last read; and most
 * others in one line that the code TLB and cache found last (a loop's
 * line read again after its taken branch), whose look-ups change nothing:
 * p5_fetch_lines() would only count the read. */
static inline void p5_fetch(struct p5_machine *m, const struct p5_op *op,
                            struct p5_stalls *stalls)
{
    unsigned shift = m->icache.block_shift;
    uint64_t first = op->address >> shift;
    uint64_t last = (op->address + op->length - 1) >> shift;
    if (last == first) {
        if (first + 1 == m->fetch_line)
            return;
        if (set_assoc_is_mru(&m->icache, first) &&
            set_assoc_is_mru(&m->itlb, set_assoc_block(&m->itlb, first << shift))) {
            m->fetch_line = first + 1;
            p5_report_event(m, P5_EV_CODE_READ, 1);
            return;
        }
    }
    p5_fetch_lines(m, op, stalls);
}

/* The privilege level of the instructions issued from now on. */
static inline void p5_set_cpl(struct p5_machine *m, uint8_t cpl)
{
    if (m->cpl != cpl) {
        p5_report_to_pmu(m);
        m->cpl = cpl;
        p5_pmu_set_cpl(m->pmu, cpl);
    }
}

/* p5_pipeline.c */
/* Issues group `g` (u alone or u and v paired), executed as `x` says, at
 * the CPL set last: its events and clocks; its static events too with
 * `statics`, else the caller reported them (p5_issue_plan()). */
void p5_issue(struct p5_machine *m, const struct p5_group *g, const struct p5_execution *x,
              bool statics);

/* The groups of a block's plan, executed as `x` says: the static events of
 * all but the last at once, in the clock of the first (the PMU's batch
 * counts them as it would have one issue at a time: pmu/emulated/p5_pmu_batch.h),
 * the last group's as they come.  Replayed when the execution
 * is clean (every look-up hits, no bank conflict: the plan's `replay`),
 * the groups' steps taken otherwise; the plan's replay_after is updated. */
void p5_issue_plan(struct p5_machine *m, struct p5_plan *plan, const struct p5_execution *x);

#endif
