/* The byte-level encoding shared by the trace writer and reader
 * (docs/traces.md, "Format"). */
#ifndef TRACES_TRACE_ENCODING_H
#define TRACES_TRACE_ENCODING_H

#include <stdint.h>

#define TRACE_MAGIC "PMUTRACE"
enum { TRACE_MAGIC_SIZE = 8 };

/* Header flags. */
enum {
    TRACE_FLAG_ISA64 = 1,
    TRACE_FLAG_LENGTHS_UNKNOWN = 2,
    TRACE_FLAG_REGISTERS = 4,
    TRACE_FLAG_CPU_VIEW = 8, /* the CPU view follows the recorder's name */
    TRACE_FLAG_MSR = 16,     /* MSR access records may follow (version 2 only) */
};

/* Version 1 (docs/traces.md, "Version 1"), read only: an instruction
 * record's tag byte: bit 7 clear, bits 3:0 the length,
 * bit 4 a non-sequential address (a signed delta from the end of the
 * previous instruction follows), bit 5 data accesses follow, bit 6 the
 * code bytes follow. */
enum {
    TAG_CONTROL = 0x80,
    TAG_LENGTH_MASK = 0x0f,
    TAG_JUMP = 0x10,
    TAG_ACCESSES = 0x20,
    TAG_BYTES = 0x40,
};

/* Control records: bit 7 set (the branch markers in version 1 only). */
enum {
    CONTROL_BRANCH_NOT_TAKEN = 0x81, /* the next instruction is a branch, not taken */
    CONTROL_BRANCH_TAKEN = 0x82,     /* ... taken: its target is the next instruction */
    CONTROL_THREAD = 0x83,           /* a byte: the thread of what follows */
    CONTROL_CPL = 0x84,              /* a byte: the CPL of what follows */
    CONTROL_REGION_BEGIN = 0x85,     /* varint region number */
    CONTROL_REGION_END = 0x86,       /* varint region number */
    CONTROL_REGISTERS = 0x87,        /* varint mask, then per set bit (low first) a signed
                                      * delta: the registers after the next instruction
                                      * (version 2: of the next block, of one) */
    CONTROL_MSR = 0x88,              /* byte op | cpu << 2 (enum trace_msr_op), varint
                                      * MSR, varint value (a write's only) */
    CONTROL_PROCESS = 0x89,          /* a trace of another process follows, header first
                                      * (version 2, MSR accesses): nested in this one's,
                                      * or after its END record, the next */
    CONTROL_END = 0x8f,              /* varint instructions, byte status, varint code */
};

/* A data access: a byte with the kind in bits 1:0 and the size in bits 7:2
 * (63: a varint size follows), then (version 1) the address as a signed
 * delta from the previous access's address. */
enum { ACCESS_SIZE_ESCAPE = 63 };

/* Version 2 (docs/traces.md, "Format (version 2)"): a block execution
 * record's tag has bit 7 clear; bits 1:0 say which block, bit 2 that an
 * access mask and address deltas follow, bits 6:3 a run: that many more
 * executions of successor 0 with every address as predicted follow. */
enum {
    EXEC_BLOCK_MASK = 0x03,
    EXEC_SUCCESSOR_0 = 0,    /* the block that followed the thread's last block last time */
    EXEC_SUCCESSOR_1 = 1,    /* ... the time before (a different one) */
    EXEC_ID = 2,             /* varint block id */
    EXEC_DEFINE = 3,         /* a new block: its definition follows */
    EXEC_ADDRESSES = 0x04,
    EXEC_RUN_SHIFT = 3,
    EXEC_MAX_RUN = 15,
};

/* The byte that starts each instruction of a block definition: bits 3:0
 * the length, bits 5:4 the branch (enum trace_branch), bit 6 the code
 * bytes follow, bit 7 data accesses follow. */
enum {
    DEFINE_LENGTH_MASK = 0x0f,
    DEFINE_BRANCH_MASK = 0x30,
    DEFINE_BRANCH_SHIFT = 4,
    DEFINE_BYTES = 0x40,
    DEFINE_ACCESSES = 0x80,
};

/* Signed deltas are zigzag-encoded varints. */
static inline uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

#endif
