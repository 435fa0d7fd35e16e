/* The NetBurst model's state, shared by its modules (not public). */
#ifndef SIM_NETBURST_NB_MACHINE_H
#define SIM_NETBURST_NB_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/netburst_pmu.h"
#include "sim/netburst/nb_cache.h"
#include "sim/netburst/nb_events.h"
#include "sim/netburst/nb_model.h"
#include "sim/netburst/nb_op.h"
#include "traces/trace.h"

/* Registers: isa's 16 general registers and the flags, and the x87 stack
 * (nb_op.h's NB_REG_X87). */
enum { NB_REGS = 18, NB_MAX_UOPS = 64, NB_UNIT_WINDOW = 1024 };

/* Execution units (seed 000 5.3): each copy takes a uop per free slot of
 * its reservation table, in half cycles.  The table covers the last
 * NB_UNIT_WINDOW half cycles (low 32 bits of each busy half cycle kept):
 * a reservation further ahead can take the slot of an older one. */
struct nb_unit {
    int copies;
    uint32_t *stamp[2];          /* stamp[c][h % window] == (uint32_t)h: copy c busy at h */
};

struct nb_frontend {
    uint64_t t;                  /* cycle of the next uop queue write */
    unsigned in_cycle;           /* uops already written in cycle t */
    uint64_t redirect;           /* the correct path's earliest queue write */
    bool line_open;
    unsigned line_used;          /* uop slots of the open trace line */
    int mode;                    /* enum nb_fe_mode of the open line */
    uint64_t last_chunk;         /* 64-byte code chunk last fetched in build mode, +1 */
    struct nb_cache tc, itlb;
};

struct nb_predictor {
    struct nb_cache btb;         /* state: 2-bit counter; data: target */
    uint64_t *ras;
    unsigned ras_top, ras_count;
    uint32_t ras_entries;
};

struct nb_store {
    uint64_t address;
    uint32_t size;
    uint64_t data_half;          /* store data ready, half cycles */
    uint64_t drain;              /* cycle it leaves the store buffer (written to L1/L2) */
};

struct nb_memory {
    struct nb_cache l1d, dtlb, l2;   /* l2 state: enum nb_l2_state */
    struct nb_store *stores;         /* the last store_buffers stores, by sequence */
    uint64_t n_stores, n_retired;
};

enum nb_l2_state { NB_L2_EXCLUSIVE = 1, NB_L2_MODIFIED = 2 };

struct nb_core {
    uint64_t uop_seq, load_seq;
    unsigned pending_stores;     /* store-address uops allocated, not yet executed */
    uint64_t *retire_ring, *alloc_ring, *load_free;
    uint64_t ring_mask;          /* retire_ring and alloc_ring size - 1 */
    uint64_t last_alloc, last_retire;
    uint64_t end;                /* the first cycle with nothing left to do */
    unsigned alloc_in_cycle, retire_in_cycle;
    uint64_t reg_ready[NB_REGS]; /* half cycle each register's value is ready */
    bool reg_miss[NB_REGS];      /* produced by a load that missed the L1 */
    struct nb_unit units[NB_NUM_UNITS];
    uint32_t latency_half[NB_NUM_CLASSES], occupancy_half[NB_NUM_CLASSES];
};

struct nb_machine {
    const struct nbm_config *config;
    struct nb_events events;
    struct nb_frontend fe;
    struct nb_predictor bp;
    struct nb_core core;
    struct nb_memory mem;
    struct nbm_result *result;
    bool user;                   /* the current instruction runs at CPL 1-3 */
};

bool nb_machine_init(struct nb_machine *m, const struct nbm_config *c, struct nb_pmu *pmu,
                     struct nbm_result *result);
void nb_machine_free(struct nb_machine *m);

/* One instruction through the whole machine (nb_core.c). */
void nb_instruction(struct nb_machine *m, const struct trace_insn *insn, const struct nb_op *op);

/* Ticks every cycle up to the last retirement, then lets the front end
 * resume after it (region markers, the end of the trace). */
void nb_drain(struct nb_machine *m);

/* Front end (nb_frontend.c): an instruction's line and code, then each
 * uop's uop-queue write cycle (uop `seq` waits for a free queue entry),
 * then the end of the instruction (a taken branch ends the line). */
bool nb_frontend_init(struct nb_frontend *fe, const struct nbm_config *c);
void nb_frontend_free(struct nb_frontend *fe);
void nb_fetch_begin(struct nb_machine *m, const struct trace_insn *insn, const struct nb_op *op);
uint64_t nb_fetch_uop(struct nb_machine *m, const struct nb_op *op, uint64_t seq);
void nb_fetch_end(struct nb_machine *m, const struct nb_op *op, bool taken);
/* A mispredicted branch: the correct path's uops reach the queue at `cycle`. */
void nb_frontend_redirect(struct nb_machine *m, uint64_t cycle);

/* Branch prediction (nb_predict.c): predicts and learns in program order. */
bool nb_predictor_init(struct nb_predictor *bp, const struct nbm_config *c);
void nb_predictor_free(struct nb_predictor *bp);
struct nb_prediction {
    bool taken, mispredicted;
};
struct nb_prediction nb_predict(struct nb_predictor *bp, const struct trace_insn *insn,
                                const struct nb_op *op);

/* Memory (nb_memory.c). Times in half cycles where named _half. */
bool nb_memory_init(struct nb_memory *mem, const struct nbm_config *c);
void nb_memory_free(struct nb_memory *mem);
uint64_t nb_load(struct nb_machine *m, const struct trace_access *access, uint64_t start_half,
                 bool *missed);
void nb_store_execute(struct nb_machine *m, const struct trace_access *access,
                      uint64_t start_half, uint64_t data_half);
uint64_t nb_store_retire(struct nb_machine *m, uint64_t cycle);
uint32_t nb_code_fetch(struct nb_machine *m, uint64_t address, uint64_t cycle);

#endif
