/* What the NetBurst model needs of one instruction, derived once from the
 * x86 decoder (isa/x86.h) and kept in a decode cache (sim/decode;
 * docs/netburst-model.md, "Instructions"). */
#ifndef SIM_NETBURST_NBM_OP_H
#define SIM_NETBURST_NBM_OP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/x86.h"
#include "sim/decode/decode_cache.h"
#include "sim/netburst/nbm_timings.h"
#include "traces/trace.h"

/* The execution-event family of its computing uops. */
enum nbm_fp_kind {
    NBM_FP_KIND_NONE, NBM_FP_KIND_X87, NBM_FP_KIND_PACKED_SP, NBM_FP_KIND_PACKED_DP,
    NBM_FP_KIND_SCALAR_SP, NBM_FP_KIND_SCALAR_DP, NBM_FP_KIND_MMX64, NBM_FP_KIND_MMX128,
};

/* The registers whose ready times the model keeps (nbm_core's reg_ready),
 * isa's 16 general registers and the flags at their X86_REG_* bits, then
 * XMM0-15, then the eight x87 physical registers R0-R7, which are also
 * MM0-MM7 (SDM vol. 3, 12.2, "The MMX State and MMX Register Aliasing":
 * MMi is Ri, whatever the top).  An x87 instruction's ST(i) is
 * R((top + i) mod 8), known only when it executes (nbm_core.c). */
enum {
    NBM_DEP_FLAGS = 16,      /* X86_REG_FLAGS */
    NBM_DEP_XMM0 = 17,
    NBM_DEP_R0 = NBM_DEP_XMM0 + 16,
    NBM_DEP_REGS = NBM_DEP_R0 + 8,
};

/* The units an op issues to: nbm_timings.h's, and ALU 0 alone, which takes
 * the logic operations and the branches (the Optimization manual ch. 1,
 * "Execution Core Detail": ALU 0 does ADD/SUB, logic, store data and
 * branches, ALU 1 only ADD/SUB). */
enum { NBM_EU_ALU0 = NBM_NUM_EXEC_UNITS, NBM_NUM_ISSUE_UNITS };

/* Whether double-speed ALU 1 runs the family (as well as ALU 0): ADD/SUB,
 * the arithmetic that adds or subtracts (the Optimization manual ch. 1,
 * "Execution Core Detail"; CMP and NEG subtract).  The ALU's other
 * families (logic, moves, SETcc, branches) run on ALU 0 alone. */
bool nbm_alu1_accepts(const char *family);

/* An instruction's timing in one model group, from its row of the
 * NetBurst timing table (sim/netburst/nbm_timings.h), or its class's
 * default when it has none (nbm_op.c; docs/netburst-model.md,
 * "Instructions"). */
struct nbm_op_timing {
    uint16_t latency;        /* half cycles from issue to result */
    uint16_t interval;       /* half cycles its unit stays busy: the issue interval */
    uint8_t unit;            /* enum nbm_exec_unit or NBM_EU_ALU0, of its computing uops */
    uint8_t load_interval;   /* half cycles its load uops hold port 2 */
    uint8_t store_interval;  /* half cycles its store-address uops hold port 3 */
};

struct nbm_op {
    uint64_t address;
    uint8_t length;
    uint8_t uops;            /* isa's netburst_uops, at least 1 */
    bool msrom;              /* from the microcode ROM */
    uint8_t branch;          /* enum x86_branch */
    uint8_t fp_kind;         /* enum nbm_fp_kind */
    bool simd;               /* x87, MMX, SSE or AVX: its memory uops are x87/SIMD moves */
    bool fp_move;            /* an x87/SIMD move: its computing uops are moves too */
    bool classified;         /* it has a timing row */
    bool load_in_latency;    /* its row's latency counts from the load's issue */
    bool stack;              /* x87 or MMX: uses or moves the x87 stack's top */
    bool fxch;               /* renames: swaps ST(0) and ST(i), reads no value */
    bool mmx;                /* names an MMX register: the x87 top becomes 0 */
    bool stack_pointer;      /* PUSH, POP, CALL, RET: ESP moves by a fast ALU uop of its own */
    uint8_t st_read, st_written, st_pops, st_pushes; /* isa's x87 stack effect */
    bool has_target;
    uint64_t target;
    uint64_t regs_read, regs_written;  /* NBM_DEP_* bits but the x87 stack's */
    struct nbm_op_timing timing[NBM_NUM_TIMING_GROUPS];
};

/* A record without code bytes: one simple uop, a conditional branch when
 * the trace says it branched. */
void nbm_op_generic(uint64_t address, uint8_t length, enum trace_branch branch, struct nbm_op *op);

/* The decode cache of nb_ops.  `replaced`: some address's op was replaced
 * by another (its code changed): until then every op the cache gave is
 * still the one it would give for the same code, so a memo of them
 * (nbm_block.h) is exact. */
struct nbm_decode_cache {
    struct decode_cache slots;
    bool replaced;
};

bool nbm_decode_cache_init(struct nbm_decode_cache *cache, enum x86_mode mode);
void nbm_decode_cache_free(struct nbm_decode_cache *cache);

/* The op last decoded at `address`, or NULL (the wrong path's code). */
const struct nbm_op *nbm_decode_lookup(const struct nbm_decode_cache *cache, uint64_t address);
/* The code bytes of the op nbm_decode_lookup gives at `address`, or NULL. */
const uint8_t *nbm_decode_code(const struct nbm_decode_cache *cache, uint64_t address);

/* The op of the instruction of `length` bytes at `address` (`bytes`:
 * TRACE_MAX_INSN_LENGTH of them, 0 past the length), from the cache or
 * decoded; the cache may move, invalidating the ops it gave before. */
enum decode_status nbm_decode(struct nbm_decode_cache *cache, uint64_t address, uint8_t length,
                              const uint8_t *bytes, const struct nbm_op **op);

#endif
