/* The P5 model's memo of each basic block of the trace (struct
 * trace_block, traces/trace.h), by block id: its instructions' ops and its
 * issue groups, worked out the first time the block comes and used every
 * time after (docs/p5-model.md, "Speed").  Which instructions pair within a
 * block depends only on its instructions (one CPL: a block ends where the
 * CPL changes) and on whether its first instruction went to the V pipe
 * beside the instruction held back at the end of the block before, so a
 * block has two plans, one for each case.  Memory grows with the number of
 * distinct blocks, that is with the program's code. */
#ifndef SIM_P5_P5_BLOCK_H
#define SIM_P5_P5_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/catalog/p5_events.h"
#include "pmu/emulated/p5_pmu.h"
#include "sim/p5/p5_op.h"
#include "traces/trace.h"

enum { P5_ALONE = 0xff }; /* struct p5_group's v: u issues alone */

/* The static event codes (below), each a slot of their counts. */
enum p5_static_slot {
    P5_SLOT_ISSUED,         /* 0x16 */
    P5_SLOT_V_PIPE,         /* 0x17 */
    P5_SLOT_FLOPS,          /* 0x22 */
    P5_SLOT_SEGMENT_LOADS,  /* 0x0f */
    P5_SLOT_LOCKED,         /* 0x1c */
    /* In its first clock of execution: */
    P5_SLOT_READS,          /* 0x00: references of at most 8 bytes (a misaligned one
                             * once: the erratum's second time is not static) */
    P5_SLOT_WRITES,         /* 0x01, the same */
    P5_SLOT_REFERENCES,     /* 0x29: reads and writes (p5_static_codes() sums them) */
    P5_SLOT_BOTH_PIPES,     /* 0x09 */
    P5_SLOT_BRANCHES,       /* 0x12 */
    P5_STATIC_SLOTS
};

/* The slot of each static event code (enum p5_event_code), by code. */
extern const uint8_t p5_static_slot[P5_NUM_CODES];

/* The occurrences of an issue that its instructions alone decide, in its
 * first clock and in its first clock of execution (after its code-read,
 * prefix, AGI and operand-wait clocks): the same at every execution. */
struct p5_static_events {
    uint32_t count[P5_STATIC_SLOTS]; /* by enum p5_static_slot */
    uint64_t codes;          /* the codes whose counts are not 0 (p5_code_bit()) */
};

/* Sets e's count of 0x29 from those of 0x00 and 0x01, and e->codes from
 * its counts. */
void p5_static_codes(struct p5_static_events *e);

/* The count of `code` (a static event's). */
static inline uint32_t p5_static_count(const struct p5_static_events *e, unsigned code)
{
    return e->count[p5_static_slot[code & (P5_NUM_CODES - 1)]];
}

/* The steps of an issue beyond those every issue takes. */
enum p5_step {
    P5_STEP_PREFIX = 1 << 0,   /* u has prefixes that take decode clocks */
    P5_STEP_X87 = 1 << 1,      /* u uses the x87 registers */
    P5_STEP_MMX = 1 << 2,      /* u or v uses the MMX registers */
    P5_STEP_VARY = 1 << 3,     /* u's or v's clocks vary (REP strings, precision) */
    P5_STEP_BRANCH_U = 1 << 4, /* u is a branch */
    P5_STEP_BRANCH_V = 1 << 5, /* v is a branch */
    P5_STEP_FETCH_U = 1 << 6,  /* u may start a code line: not when it lies in the line the
                                * instruction before it in its block ends in */
    P5_STEP_FETCH_V = 1 << 7,  /* v may */
    P5_STEP_BANKS = 1 << 8,    /* both access memory: a bank conflict is possible */
};

/* One issue: instruction u in the U pipe, alone or with v in the V pipe,
 * and what its instructions decide of it. */
struct p5_group {
    const struct p5_op *u_op, *v_op; /* v_op NULL: u issues alone */
    uint8_t u, v;            /* their indexes in the block (v P5_ALONE: none) */
    uint16_t steps;          /* enum p5_step */
    uint8_t clocks;          /* the longer pipe's execution clocks, unless P5_STEP_VARY */
    /* Each one's data accesses: accesses[first, first + n) of an execution
     * (struct p5_execution). */
    uint8_t u_first, u_accesses, v_first, v_accesses;
    bool taken;              /* its branch (P5_STEP_BRANCH_U or _V) was taken */
    uint32_t regs_written;   /* both pipes': the next issue's AGI registers */
    uint32_t u_address_regs, v_address_regs; /* base and index registers (AGI) */
    struct p5_static_events events;
    /* For a clean replay of its plan (p5_plan's `replay`): the code lines
     * it reads when the code line read last before the plan is none of
     * its own (the plan's lines[]), and its references that write. */
    uint8_t code_reads, writes;
};

/* An instruction's data accesses, accesses[first, first + n): only their
 * kinds and sizes matter here. */
struct p5_shape {
    const struct trace_access *accesses;
    uint32_t first, n;
};

/* What varies from one execution of a group to the next: the addresses of
 * its data accesses (accesses[] by the group's first and n) and where its
 * branch went if taken. */
struct p5_execution {
    const struct trace_access *accesses;
    uint64_t target;
};

/* The group of u (v NULL: alone) or u and v; `taken`: the branch among
 * them was taken.  Both may start a code line. */
void p5_group_make(const struct p5_op *u, const struct p5_shape *u_shape, const struct p5_op *v,
                   const struct p5_shape *v_shape, bool taken, struct p5_group *group);

/* The entries a TLB's and a cache's look-ups of one line found last. */
struct p5_entries {
    uint32_t tlb, cache;
};

/* The entries the look-ups of a plan's executions found last: tried first
 * the next time, one compare instead of a set's search when they still
 * hold the key, to the same effect (set_assoc_find_from(),
 * sim/common/set_assoc.h).  Those of a clean replay's code lines and data
 * accesses (p5_code_hits(), p5_data_hits()), and of its branch whether
 * replayed or not. */
struct p5_found {
    uint32_t btb;               /* its branch's, in the BTB */
    struct p5_entries *data;    /* by access of the block: data TLB and cache */
    struct p5_entries *lines;   /* by lines[]: code TLB and cache */
};

/* A block's issue groups from instruction `first` on. */
struct p5_plan {
    uint8_t first;          /* 0, or 1 when instruction 0 paired with the held one */
    uint8_t n_groups;
    bool hold_last;         /* the last instruction is held back, after the groups, to
                             * see whether the next block's first pairs with it */
    struct p5_group held_alone; /* if hold_last: its group when it issues alone */
    struct p5_static_events bulk; /* of every group but the last */
    /* A clean replay (p5_issue_plan()): possible when no group has prefix,
     * x87, MMX or varying-clock steps, no references wider than 8 bytes
     * and no branch but in its last group.
     * The code lines its groups read, in order, when the line read last
     * before it is none of them (only lines[0] may be that one); the group
     * that reads lines[0]; its groups' data accesses, accesses[access_first,
     * access_end) of an execution, in the order they are made. */
    bool replay;
    bool banks;             /* a group has P5_STEP_BANKS */
    uint8_t replay_fails;   /* replays in a row that were not clean (at most 4) */
    uint8_t replay_after;   /* executions left before the replay is tried again
                             * (p5_issue_plan()) */
    uint8_t n_lines, first_line_group;
    /* With two groups or more, the clocks of all but the last, group 0's
     * AGI clock apart (it depends on the issue before). */
    uint32_t bulk_clocks;
    uint8_t access_first, access_end;
    const uint64_t *lines;
    struct p5_found found;
    struct p5_group groups[];
};

struct p5_block_memo {
    uint32_t n_insns;
    unsigned line_shift;      /* the code cache's, for the plans' P5_STEP_FETCH_ flags */
    uint32_t unclassified;  /* instructions without a timing row */
    struct p5_plan *plans[2]; /* by `first`; plans[1] made when first needed */
    struct p5_op ops[];       /* by instruction */
};

/* The memos by block id. */
struct p5_block_memos {
    struct p5_block_memo **by_id; /* NULL: not seen yet */
    uint32_t capacity;
};

void p5_block_memos_init(struct p5_block_memos *memos);
void p5_block_memos_free(struct p5_block_memos *memos);

/* Whether u and v pair, u first (in the U pipe), both at one CPL
 * (Pentium Processor User's Manual 3.1.2; isa/p5_pairing.c). */
bool p5_ops_pair(const struct p5_op *u, const struct p5_op *v);

/* Whether an instruction may be held back to pair with the next. */
bool p5_op_leads_pair(const struct p5_op *op);

/* What went wrong making a memo: DECODE_OK, or the status of instruction
 * `insn` that did not decode. */
struct p5_memo_failure {
    enum decode_status status;
    uint32_t insn;
};

/* What a memo is made with: the decode cache its ops come from, whether
 * the trace's code bytes are instructions (false: imports without
 * lengths, whose instructions get generic ops, as those without code
 * bytes do), the code cache's line size (log2). */
struct p5_memo_context {
    struct p5_decode_cache *cache;
    bool code_known;
    unsigned line_shift;
};

/* The memo of `block` made before, or NULL. */
static inline struct p5_block_memo *p5_block_memo_of(const struct p5_block_memos *memos,
                                                     const struct trace_block *block)
{
    return block->id < memos->capacity ? memos->by_id[block->id] : NULL;
}

/* A new memo of `block` (p5_block_memo_of() has none), its ops from the
 * context's cache (decoding what is not there).  NULL with *failure set
 * when an instruction does not decode or memory runs out. */
struct p5_block_memo *p5_block_memo_make(struct p5_block_memos *memos,
                                         const struct p5_memo_context *context,
                                         const struct trace_block *block,
                                         struct p5_memo_failure *failure);

/* The memo's plan from instruction `first` (0 or 1, less than n_insns),
 * made now; NULL when out of memory. */
struct p5_plan *p5_block_plan_make(struct p5_block_memo *memo, const struct trace_block *block,
                                   unsigned first);

/* The plan from instruction `first` of the memo of `block`, made when
 * first needed; NULL when out of memory. */
static inline struct p5_plan *p5_block_plan(struct p5_block_memo *memo,
                                            const struct trace_block *block, unsigned first)
{
    return memo->plans[first] ? memo->plans[first] : p5_block_plan_make(memo, block, first);
}

#endif
