/* The NetBurst model's state, shared by its modules (not public).
 *
 * One or two logical processors (Hyper-Threading, docs/netburst-model.md):
 * each has its own `struct nbm_lp` (front end position, return stack, ITLB,
 * register state, its part of the uop queue, ROB, load and store buffers);
 * the trace cache, BTB, execution units, caches and DTLB are shared
 * (Optimization manual ch. 1, "Processor Resources and Hyper-Threading
 * Technology"). */
#ifndef SIM_NETBURST_NBM_MACHINE_H
#define SIM_NETBURST_NBM_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/emulated/netburst_pmu.h"
#include "sim/common/set_assoc.h"
#include "sim/netburst/nbm_occurrences.h"
#include "sim/netburst/nbm_model.h"
#include "sim/netburst/nbm_op.h"
#include "traces/trace.h"

enum { NBM_MAX_UOPS = 64, NBM_UNIT_WINDOW = 1024, NBM_ARBITER_WINDOW = 4096 };

/* Issue slots (the Optimization manual ch. 1, "Execution Core Detail"):
 * the two dispatch ports of the computing uops, each taking one uop in
 * each half cycle (an ALU uop in either half, any other in the first), and
 * the units behind them, each taking a uop when free and staying busy for
 * its issue interval (the row's throughput): the double-speed ALUs 0 and
 * 1, the slow integer unit, the FP and MMX units of port 1 (the integer
 * multiplier is the FP multiplier), the FP move unit of port 0, one unit
 * for Intel's "-" rows (several units or microcode), the load and store
 * units (ports 2 and 3). */
enum nbm_slots {
    NBM_SLOTS_PORT0, NBM_SLOTS_PORT1,
    NBM_SLOTS_ALU0, NBM_SLOTS_ALU1, NBM_SLOTS_INT, NBM_SLOTS_FP_ADD, NBM_SLOTS_FP_MUL,
    NBM_SLOTS_FP_DIV, NBM_SLOTS_FP_MISC, NBM_SLOTS_FP_MOVE, NBM_SLOTS_MMX_ALU, NBM_SLOTS_MMX_SHFT,
    NBM_SLOTS_MMX_MISC, NBM_SLOTS_COMPLEX, NBM_SLOTS_LOAD, NBM_SLOTS_STORE,
    NBM_NUM_SLOTS,
};

/* A port's or unit's reservation table over NBM_UNIT_WINDOW half cycles:
 * stamp[h % window] is 1 + the last half cycle reserved there (0: none).
 * It is busy at h when that is h, and also when it is later (a
 * reservation a window or more ahead took the slot: whether h was busy is
 * lost, so it counts as busy); free when it is earlier.  `end` is the end
 * of its latest reservation. */
struct nbm_reservations {
    uint64_t *stamp;
    uint64_t end;
};

/* Where a unit of enum nbm_exec_unit (or NBM_EU_ALU0) issues: each copy's table and its
 * port's (NULL: none), and whether it may issue in either half of a cycle
 * (nbm_core.c's table). */
struct nbm_issue {
    struct nbm_reservations *unit[2], *port[2];
    uint8_t copies;
    bool half;
};

struct nbm_frontend {
    uint64_t t;                  /* cycle of the next uop queue write */
    unsigned in_cycle;           /* uops already written in cycle t */
    uint64_t redirect;           /* the correct path's earliest queue write */
    bool line_open;
    unsigned line_used;          /* uop slots of the open trace line */
    int mode;                    /* enum nbm_fe_mode of the open line */
    uint64_t last_chunk;         /* 64-byte code chunk last fetched in build mode, +1 */
    struct set_assoc itlb;       /* one per logical processor (SDM) */
};

struct nbm_ras {
    uint64_t *entries;
    unsigned top, count;
    uint32_t size;
};

struct nbm_store {
    uint64_t address;
    uint32_t size;
    uint64_t data_half;          /* store data ready, half cycles */
    uint64_t drain;              /* cycle it leaves the store buffer (written to L1/L2) */
};

/* A logical processor's stores, by sequence: a ring of at least
 * store_buffers entries.  `lines` counts the ring's stores by the 64-byte
 * lines they touch, hashed to NBM_STORE_LINE_SLOTS counters (a store of
 * more than two lines counts in `wide` instead): a load whose lines all
 * count 0 while `wide` is 0 overlaps none of them (nbm_memory.c). */
enum { NBM_STORE_LINE_SLOTS = 64 };
struct nbm_store_buffer {
    struct nbm_store *stores;
    uint64_t mask, n_stores, n_retired;
    uint16_t lines[NBM_STORE_LINE_SLOTS];
    uint32_t wide;
};

/* In-order bookkeeping of one logical processor's uops (rings indexed by
 * sequence number & ring_mask, sized for the whole ROB and queue). */
struct nbm_core {
    uint64_t uop_seq, load_seq;
    unsigned pending_stores;     /* store-address uops allocated, not yet executed */
    uint64_t *retire_ring, *alloc_ring, *load_free;
    uint64_t ring_mask;          /* retire_ring and alloc_ring size - 1 */
    uint64_t load_mask;          /* load_free size - 1 */
    uint64_t last_alloc, last_retire;
    uint64_t end;                /* the first cycle with nothing left to do */
    unsigned alloc_in_cycle, retire_in_cycle;
    uint64_t reg_ready[NBM_DEP_REGS]; /* half cycle each register's value is ready */
    bool reg_miss[NBM_DEP_REGS]; /* produced by a load that missed the L1 */
    uint8_t x87_top;             /* the x87 stack's top: ST(i) is R((top + i) mod 8) */
};

/* The partitioned resources: half each while both logical processors are
 * active (Optimization manual ch. 1, "Partitioned Resources"). */
struct nbm_limits {
    uint32_t uop_queue, rob, load_buffers, store_buffers;
};

/* A mispredicted branch whose wrong path is still to be fetched: it is
 * fetched once the next record shows the trace goes on (nbm_wrongpath.c). */
struct nbm_pending_clear {
    bool pending;
    uint64_t from;               /* the wrong path's first address, 0: none */
    uint64_t resolved;           /* cycle the branch executes: the machine clear */
};

struct nbm_lp {
    int id;
    uint8_t level;               /* the occurrence queue's level: id << 1 | user */
    uint64_t address_tag;        /* keys of the shared TC and BTB: address ^ tag */
    uint64_t line_tag;           /* keys of the shared caches and DTLB: line or page ^ tag */
    struct nbm_limits limits;
    struct nbm_frontend fe;
    struct nbm_ras ras;
    struct nbm_core core;
    struct nbm_store_buffer sb;
    struct nbm_pending_clear clear;
    const struct nbm_decode_cache *decoded;  /* code known by address, for wrong paths */
    bool ia32e;                  /* a 64-bit trace on a model with EM64T */
    bool code64;                 /* a 64-bit trace (its code, for the uop hook) */
    bool regs_known;             /* regs holds the registers before the next instruction */
    uint64_t regs[NB_NUM_REGS];  /* enum nb_reg order (PEBS record) */
};

/* A selection point shared by the logical processors (front end,
 * allocation, retirement): the thread that took each recent cycle. */
struct nbm_arbiter {
    uint64_t *owner;             /* [cycle % window]: cycle << 1 | thread, + 1 */
};

struct nbm_machine {
    const struct nbm_config *config;
    struct nbm_occurrences occurrences;
    struct set_assoc tc, btb;    /* btb state: 2-bit counter; data: target */
    struct nbm_reservations slots[NBM_NUM_SLOTS];
    struct nbm_issue issue[NBM_NUM_ISSUE_UNITS];
    uint8_t group;               /* enum nbm_timing_group of config->model */
    struct set_assoc l1d, dtlb, l2;  /* l2 dirty: modified */
    /* The L1's outstanding load misses, shared by the logical processors:
     * the cycle each slot's miss has its data (nbm_memory.c). */
    uint64_t miss_busy_until[NBM_MAX_LOAD_MISSES];
    struct nbm_lp lp[2];
    int threads;                 /* logical processors simulated */
    struct nbm_lp *cur;          /* the one whose instruction is being timed */
    bool shared;                 /* both are active: the selection points alternate */
    struct nbm_arbiter fetch, alloc, retire;
    struct nbm_result *result;
    const struct nbm_uop_hook *uop_hook; /* NULL: none */
};

bool nbm_machine_init(struct nbm_machine *m, const struct nbm_config *c, struct nb_pmu *pmu,
                      int threads, struct nbm_result *result);
void nbm_machine_free(struct nbm_machine *m);

/* Logical processors (nbm_lp.c). */
bool nbm_lp_init(struct nbm_lp *lp, int id, const struct nbm_config *c);
void nbm_lp_free(struct nbm_lp *lp);
/* Whether both logical processors are active: the partitioned buffers are
 * halved and the selection points alternate (false once a trace ends). */
void nbm_set_shared(struct nbm_machine *m, bool shared);
/* The cycle `lp`'s next instruction (or hook) can start.  Inline: the
 * trace driver asks before every record. */
static inline uint64_t nbm_lp_next(const struct nbm_lp *lp)
{
    if (lp->clear.pending) /* its wrong path comes first */
        return lp->fe.t;
    return lp->fe.redirect > lp->fe.t ? lp->fe.redirect : lp->fe.t;
}
/* The cycle it has nothing left to do from: its next cycle, or the end of
 * its core's work (stores draining, a PEBS assist) when later. */
uint64_t nbm_lp_busy_until(const struct nbm_lp *lp);
bool nbm_arbiter_init(struct nbm_arbiter *a);
void nbm_arbiter_free(struct nbm_arbiter *a);
/* The first cycle from `cycle` the other thread has not taken; takes it. */
uint64_t nbm_arbiter_claim(struct nbm_arbiter *a, uint64_t cycle, int thread);

/* An instruction's uops (isa/netburst_uops.c's model): loads, computing
 * uops, then store-address/store-data pairs, from its op and its accesses'
 * kinds; static for a trace block's instruction (kept in its memo,
 * nbm_block.h). */
struct nbm_shape {
    uint8_t n, loads, computes, stores;     /* uops of each role (stores: pairs) */
    uint8_t n_load, n_store;                /* the accesses that load, that store */
    uint8_t load[TRACE_MAX_ACCESSES], store[TRACE_MAX_ACCESSES]; /* their indexes */
    uint8_t role[NBM_MAX_UOPS];             /* each uop's enum nbm_role */
    uint8_t source[4];  /* by enum nbm_role: the source a uop's execution reports, for tagging
                         * (NB_NO_SOURCE: none) */
};
void nbm_shape_of(const struct trace_access *accesses, unsigned n_accesses, const struct nbm_op *op,
                  struct nbm_shape *s);

/* One execution of an instruction, as the trace gives it (a trace
 * block's instruction with that execution's accesses, nbm_simulate.c). */
struct nbm_insn {
    uint64_t address;
    uint64_t target;                    /* of a taken branch: the next instruction */
    uint8_t length;
    const uint8_t *bytes;               /* its code, or NULL */
    uint8_t cpl;
    enum trace_branch branch;
    unsigned n_accesses;
    const struct trace_access *accesses;
    const uint64_t *regs;               /* the registers after it (TRACE_REG_*), or NULL */
    const struct nbm_shape *shape;      /* its uops (nbm_shape_of) */
};

/* One instruction of m->cur through the whole machine (nbm_core.c). */
void nbm_instruction(struct nbm_machine *m, const struct nbm_insn *insn, const struct nbm_op *op);

/* Ends m->cur's pending machine clear: fetches its wrong path first when
 * `wrong_path` (nbm_wrongpath.c), then redirects the front end. */
void nbm_clear_resolve_pending(struct nbm_machine *m, bool wrong_path);

/* nbm_clear_resolve_pending if a clear is pending: the trace driver asks
 * before every record, and most have none. */
static inline void nbm_clear_resolve(struct nbm_machine *m, bool wrong_path)
{
    if (m->cur->clear.pending)
        nbm_clear_resolve_pending(m, wrong_path);
}

/* Moves m->cur's front end past its last retirement (region markers, the
 * end of its trace); returns that cycle. */
uint64_t nbm_drain(struct nbm_machine *m);

/* Execution (nbm_core.c), for the wrong path: the half cycle the
 * computing uop of `op` issues, the first from `earliest` its unit (and
 * port) is free, if before `limit` (reserved), else UINT64_MAX. */
uint64_t nbm_issue(struct nbm_machine *m, const struct nbm_op *op, uint64_t earliest,
                   uint64_t limit);
/* The op's timing in the machine's model group. */
static inline const struct nbm_op_timing *nbm_timing(const struct nbm_machine *m,
                                                     const struct nbm_op *op)
{
    return &op->timing[m->group];
}
/* The half cycle the op's operands are ready (x87 registers by the current
 * top of stack). */
uint64_t nbm_operands(const struct nbm_core *core, const struct nbm_op *op);
/* Allocation cycle of uop `seq` written into the queue at `q`, if before
 * `limit` (UINT64_MAX: no limit); UINT64_MAX otherwise, nothing changed. */
enum nbm_role { NBM_ROLE_LOAD, NBM_ROLE_COMPUTE, NBM_ROLE_STA, NBM_ROLE_STD };
uint64_t nbm_allocate(struct nbm_machine *m, uint64_t seq, uint64_t q, enum nbm_role role,
                      uint64_t limit);
/* The retirement cycle of the next uop in order, from `earliest` on:
 * retire_width a cycle, alternating with the other thread when shared. */
uint64_t nbm_retire_slot(struct nbm_machine *m, uint64_t earliest);
/* The execution events of a computing uop of `op` starting at `start_half`. */
void nbm_compute_events(struct nbm_machine *m, const struct nbm_op *op, uint64_t start_half);

/* Front end (nbm_frontend.c): an instruction's line and code, then each
 * uop's uop-queue write cycle (uop `seq` waits for a free queue entry; none
 * at or after `limit`: UINT64_MAX, nothing written), then the end of the
 * instruction (a taken branch ends the line). */
bool nbm_frontend_init(struct nbm_frontend *fe, const struct nbm_config *c);
void nbm_frontend_free(struct nbm_frontend *fe);
void nbm_fetch_begin(struct nbm_machine *m, uint64_t address, uint8_t length,
                     const struct nbm_op *op);
void nbm_fetch_end(struct nbm_machine *m, const struct nbm_op *op, bool taken);
/* Inline: one call a uop. */
static inline uint64_t nbm_fetch_uop(struct nbm_machine *m, const struct nbm_op *op, uint64_t seq,
                                     uint64_t limit)
{
    struct nbm_lp *lp = m->cur;
    struct nbm_frontend *fe = &lp->fe;
    const struct nbm_core *core = &lp->core;
    bool build = fe->mode == NBM_MODE_BUILD && !op->msrom; /* the decoder writes them all */
    uint64_t t = fe->t;
    unsigned in_cycle = fe->in_cycle;
    if (!build && in_cycle >= m->config->deliver_width) {
        t++;
        in_cycle = 0;
    }
    uint32_t queue = lp->limits.uop_queue;
    if (seq >= queue) {
        uint64_t freed = core->alloc_ring[(seq - queue) & core->ring_mask];
        if (freed > t) {
            t = freed;
            in_cycle = 0;
        }
    }
    if (!in_cycle && m->shared && t < limit) /* the trace cache alternates (ch. 1) */
        t = nbm_arbiter_claim(&m->fetch, t, lp->id);
    if (t >= limit)
        return UINT64_MAX;
    fe->t = t;
    fe->in_cycle = in_cycle + 1;
    enum nbm_source_id slot = op->msrom ? NBM_UQ_ROM : build ? NBM_UQ_BUILD : NBM_UQ_DELIVER;
    nbm_occur(&m->occurrences, fe->t, slot, lp->level, 1);
    return fe->t;
}

/* A mispredicted branch: the correct path's uops reach the queue at `cycle`. */
void nbm_frontend_redirect(struct nbm_machine *m, uint64_t cycle);

/* Branch prediction (nbm_predict.c): predicts and learns in program order. */
bool nbm_ras_init(struct nbm_ras *ras, uint32_t size);
void nbm_ras_free(struct nbm_ras *ras);
struct nbm_prediction {
    bool taken, mispredicted;
    uint64_t followed;           /* mispredicted: where the front end went, 0: unknown */
};
struct nbm_prediction nbm_predict(struct nbm_machine *m, const struct nbm_insn *insn,
                                  const struct nbm_op *op);
/* The wrong path's next address after `op` at `address` (BTB and static
 * rule, read only), 0 when it cannot be known (indirect branches). */
uint64_t nbm_predict_wrong_path(struct nbm_machine *m, uint64_t address, const struct nbm_op *op);

/* Memory (nbm_memory.c). Times in half cycles where named _half. */
bool nbm_memory_init(struct nbm_machine *m, const struct nbm_config *c);
void nbm_memory_free(struct nbm_machine *m);
bool nbm_store_buffer_init(struct nbm_store_buffer *sb, uint32_t entries);
void nbm_store_buffer_free(struct nbm_store_buffer *sb);
/* A load: the half cycle its data is ready; adds its replay conditions
 * (enum nb_replay_cause: L1, L2 and DTLB misses, MOB replays, splits) to
 * *causes.  A store's execution: its conditions (DTLB miss, split). */
uint64_t nbm_load(struct nbm_machine *m, const struct trace_access *access, uint64_t start_half,
                  uint16_t *causes);
uint16_t nbm_store_execute(struct nbm_machine *m, const struct trace_access *access,
                           uint64_t start_half, uint64_t data_half);
uint64_t nbm_store_retire(struct nbm_machine *m, uint64_t cycle);
uint32_t nbm_code_fetch(struct nbm_machine *m, uint64_t address, uint64_t cycle);

#endif
