/* Internal to sim/p5: the state of one simulation and the steps of one
 * issue (a lone instruction or a U/V pair). */
#ifndef SIM_P5_MACHINE_H
#define SIM_P5_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/p5_pmu.h"
#include "sim/common/set_assoc.h"
#include "sim/p5/p5_btb.h"
#include "sim/p5/p5_bus.h"
#include "sim/p5/p5_model.h"
#include "sim/p5/p5_op.h"

struct p5_machine {
    const struct p5_config *config;
    struct p5_pmu *pmu;
    const struct p5_feed *feed; /* the PMU's: what it counts now */
    struct set_assoc dcache, icache, l2, dtlb, itlb; /* keys: block numbers */
    struct p5_btb btb;
    struct p5_bus bus;
    uint64_t now;           /* the clock being issued */
    uint64_t fetch_line;    /* code line last read + 1; 0 after a taken branch */
    uint32_t agi_regs;      /* written by the instructions of the clock before */
    uint64_t decode_free;   /* the clock from which the decoder could decode the next
                             * instruction's prefixes (while the issue went on) */
    uint64_t st_ready[8];   /* x87 registers R0-R7: the clock each one's value is ready */
    unsigned st_top;        /* the register that is ST(0) */
    uint64_t mm_ready[8];   /* MM0-MM7 (Pentium MMX): the clock each one's value is ready */
};

/* Reports `count` occurrences of `code` in the clock being issued; not
 * when the PMU's feed says they would not count, which keeps the model
 * fast (docs/p5-model.md, "Speed"). */
static inline void p5_report_event(struct p5_machine *m, enum p5_event_code code, uint32_t count)
{
    if (p5_feed_counts(m->feed, code))
        p5_pmu_event(m->pmu, code, count);
}

/* One instruction being issued: its op (in the decode cache, valid until
 * the next decode, or held by the driver) and its trace record. */
struct p5_slot {
    const struct p5_op *op;
    const struct trace_insn *insn;
};

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
void p5_fetch_lines(struct p5_machine *m, const struct p5_slot *slot, struct p5_stalls *stalls);
void p5_data_accesses(struct p5_machine *m, const struct p5_slot *slot, struct p5_stalls *stalls);

/* Inline: most instructions lie in the code line last read. */
static inline void p5_fetch(struct p5_machine *m, const struct p5_slot *slot,
                            struct p5_stalls *stalls)
{
    unsigned shift = m->icache.block_shift;
    uint64_t first = slot->op->address >> shift;
    uint64_t last = (slot->op->address + slot->op->length - 1) >> shift;
    if (first + 1 != m->fetch_line || last != first)
        p5_fetch_lines(m, slot, stalls);
}

/* ---- pairing (Pentium Processor User's Manual 3.1.2; isa/p5_pairing.c);
 * inline: the driver asks for every instruction. */

static inline bool p5_is_branch(const struct p5_op *op)
{
    return op->branch != X86_BRANCH_NONE;
}

static inline bool p5_can_lead_pair(const struct p5_op *op)
{
    return !p5_is_branch(op) &&
           (op->cls == X86_P5_UV || op->cls == X86_P5_PU || op->cls == X86_P5_FX);
}

static inline bool p5_classes_pair(const struct p5_op *u, const struct p5_op *v)
{
    if (u->cls == X86_P5_FX || v->fxch) /* FXCH pairs only after an FX instruction */
        return u->cls == X86_P5_FX && v->fxch;
    return (u->cls == X86_P5_UV || u->cls == X86_P5_PU) &&
           (v->cls == X86_P5_UV || v->cls == X86_P5_PV);
}

/* No read-after-write or write-after-write register dependence, except
 * a flags-setting instruction followed by a conditional branch, and two
 * stack instructions (ESP). Writing the flags twice is no dependence. */
static inline bool p5_independent(const struct p5_op *u, const struct p5_op *v)
{
    uint32_t written = u->regs_written;
    if (v->branch == X86_BRANCH_COND)
        written &= ~X86_REG_FLAGS;
    if (u->stack && v->stack)
        written &= ~X86_REG_BIT(X86_GPR_SP);
    return !(written & v->regs_read) && !(written & ~X86_REG_FLAGS & v->regs_written) &&
           !(u->mm_written & (v->mm_read | v->mm_written));
}

static inline bool p5_can_pair(const struct p5_slot *u, const struct p5_slot *v)
{
    return p5_can_lead_pair(u->op) && p5_classes_pair(u->op, v->op) &&
           u->insn->cpl == v->insn->cpl && p5_independent(u->op, v->op);
}

/* p5_pipeline.c */
/* Issues u alone (v NULL) or u and v paired: their events and clocks. */
void p5_issue(struct p5_machine *m, const struct p5_slot *u, const struct p5_slot *v);

#endif
