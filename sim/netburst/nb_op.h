/* What the NetBurst model needs of one instruction, derived once from the
 * x86 decoder (isa/x86.h) and kept in a decode cache (sim/decode;
 * docs/netburst-model.md, "Instructions"). */
#ifndef SIM_NETBURST_NB_OP_H
#define SIM_NETBURST_NB_OP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/x86.h"
#include "sim/decode/decode_cache.h"
#include "traces/trace.h"

/* Execution classes: unit and latency (nb_core.c, from the config). */
enum nb_class {
    NB_CLASS_FAST,      /* double-speed ALU: half a cycle (the Pentium 4 monitoring study, section 5.3.1) */
    NB_CLASS_SHIFT,     /* slow integer unit */
    NB_CLASS_MULTIPLY,
    NB_CLASS_DIVIDE,
    NB_CLASS_BRANCH,    /* branch calculation: slow integer unit, 1 cycle */
    NB_CLASS_FP_ADD,    /* FP execution unit, port 1 */
    NB_CLASS_FP_MULTIPLY,
    NB_CLASS_FP_DIVIDE,
    NB_CLASS_FP_MOVE,   /* FP move unit, port 0 */
    NB_CLASS_SIMD_INTEGER,
    NB_NUM_CLASSES,
};

enum nb_unit_kind {
    NB_UNIT_FAST_ALU,   /* two: ports 0 and 1 */
    NB_UNIT_SLOW_INT,
    NB_UNIT_FP_EXEC,
    NB_UNIT_FP_MOVE,
    NB_UNIT_LOAD,       /* port 2 */
    NB_UNIT_STORE,      /* port 3 */
    NB_NUM_UNITS,
};

/* The execution-event family of its computing uops. */
enum nb_fp_kind {
    NB_FP_KIND_NONE, NB_FP_KIND_X87, NB_FP_KIND_PACKED_SP, NB_FP_KIND_PACKED_DP,
    NB_FP_KIND_SCALAR_SP, NB_FP_KIND_SCALAR_DP, NB_FP_KIND_MMX64, NB_FP_KIND_MMX128,
};

/* A register for the x87 stack: every x87 instruction reads and writes it,
 * as they all work on its top (isa/x86.h tracks only general registers
 * and the flags). */
#define NB_REG_X87 (1u << 17)

struct nb_op {
    uint64_t address;
    uint8_t length;
    uint8_t uops;            /* isa's netburst_uops, at least 1 */
    bool msrom;              /* from the microcode ROM */
    uint8_t branch;          /* enum x86_branch */
    uint8_t cls;             /* enum nb_class of its computing uops */
    uint8_t fp_kind;         /* enum nb_fp_kind */
    bool simd;               /* x87, MMX, SSE or AVX: its memory uops are x87/SIMD moves */
    bool has_target;
    uint64_t target;
    uint32_t regs_read, regs_written;
};

/* A record without code bytes: one simple uop, a conditional branch when
 * the trace says it branched. */
void nb_op_generic(const struct trace_insn *insn, struct nb_op *op);

/* The decode cache of nb_ops. */
struct nb_decode_cache {
    struct decode_cache slots;
};

bool nb_decode_cache_init(struct nb_decode_cache *cache, enum x86_mode mode);
void nb_decode_cache_free(struct nb_decode_cache *cache);

/* The op last decoded at `address`, or NULL (the wrong path's code). */
const struct nb_op *nb_decode_lookup(const struct nb_decode_cache *cache, uint64_t address);

/* The op of an instruction with code bytes, from the cache or decoded; the
 * cache may move, invalidating the ops it gave before. */
enum decode_status nb_decode(struct nb_decode_cache *cache, const struct trace_insn *insn,
                             const struct nb_op **op);

#endif
