/* pmubench traces: a versioned, compact binary format of retired
 * instructions, read and written as streams in constant memory (apart from
 * a cache of code bytes bounded by the program's code size).  The format is
 * specified in docs/traces.md.
 *
 *   struct trace_writer *w = trace_writer_open(file, &header, error, size);
 *   trace_write_insn(w, &insn); ... trace_write_end(w, &end); trace_writer_close(w);
 *
 *   struct trace_reader *r = trace_reader_open(file, path, error, size);
 *   struct trace_record rec;
 *   while (trace_read(r, &rec) == TRACE_OK && rec.kind != TRACE_RECORD_END) ...
 *
 * or, faster, by basic block (trace_next_block(), below).  The writer
 * writes version 2 (blocks); the reader reads versions 1 and 2.
 */
#ifndef TRACES_TRACE_H
#define TRACES_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu_view.h"

enum {
    TRACE_VERSION = 2,           /* written; versions 1 and 2 are read */
    TRACE_MAX_INSN_LENGTH = 15,  /* x86 */
    TRACE_MAX_ACCESSES = 64,     /* data accesses of one instruction */
    TRACE_MAX_ACCESS_SIZE = 16384, /* bytes of one data access (trace_access_size_valid) */
    TRACE_MAX_TEXT = 4096,       /* header strings */
    TRACE_MAX_MARKERS = 15,      /* region markers between a taken branch and its target */
};

/* General registers (docs/traces.md, "Registers"): struct trace_insn's
 * regs[] by index, which is also the bit of the register record's mask.
 * Index 0 is the flags (EFLAGS/RFLAGS), 1-16 the general registers in the
 * x86 encoding's order (reg field 0-7, then R8-R15 with REX); a 32-bit
 * trace has indexes 0-8 (EAX..EDI), a 64-bit one 0-16.  The instruction
 * pointer is not stored: after an instruction it is the next one's
 * address. */
enum {
    TRACE_REG_FLAGS = 0,
    TRACE_REG_AX, TRACE_REG_CX, TRACE_REG_DX, TRACE_REG_BX,
    TRACE_REG_SP, TRACE_REG_BP, TRACE_REG_SI, TRACE_REG_DI,
    TRACE_REG_R8, TRACE_REG_R9, TRACE_REG_R10, TRACE_REG_R11,
    TRACE_REG_R12, TRACE_REG_R13, TRACE_REG_R14, TRACE_REG_R15,
    TRACE_MAX_REGS,          /* 17: a 64-bit trace's */
    TRACE_REGS_32 = 9,       /* a 32-bit trace's: flags, EAX..EDI */
};

enum trace_isa { TRACE_ISA_32 = 32, TRACE_ISA_64 = 64 };

struct trace_header {
    enum trace_isa isa;
    bool lengths_known;             /* false for imports without instruction lengths */
    bool registers;                 /* instructions may carry registers (trace_insn.regs) */
    char program[TRACE_MAX_TEXT];   /* the program's path */
    char args[TRACE_MAX_TEXT];      /* its arguments, separated by single spaces */
    char recorder[TRACE_MAX_TEXT];  /* what made the trace, e.g. "pmubench trace import --lackey" */
    struct cpu_view cpu;            /* the CPU the program saw (cpu.n == 0: not known) */
    bool msr_accesses;              /* may hold MSR access records (TRACE_RECORD_MSR):
                                     * `pmubench emulate`'s traces (docs/emulate.md) */
};

enum trace_access_kind { TRACE_LOAD = 1, TRACE_STORE = 2, TRACE_MODIFY = 3 };

struct trace_access {
    enum trace_access_kind kind;
    uint32_t size;                  /* 1-TRACE_MAX_ACCESS_SIZE */
    uint64_t address;
};

/* Whether a data access of `size` bytes is plausible: 1 to
 * TRACE_MAX_ACCESS_SIZE, the largest area one x86 instruction touches (an
 * XSAVE area with every state component; docs/traces.md, "Access
 * sizes").  The one rule for every way a trace is made: the importers
 * reject a larger access, the reader a larger one in a file, the writer
 * refuses one. */
static inline bool trace_access_size_valid(uint64_t size)
{
    return size >= 1 && size <= TRACE_MAX_ACCESS_SIZE;
}

enum trace_branch { TRACE_NOT_BRANCH, TRACE_BRANCH_NOT_TAKEN, TRACE_BRANCH_TAKEN };

struct trace_insn {
    uint64_t address;
    uint8_t length;                             /* 1-15 */
    bool has_bytes;                             /* reading: also when known from earlier */
    uint8_t bytes[TRACE_MAX_INSN_LENGTH];
    uint8_t thread;                             /* 0 or 1 */
    uint8_t cpl;                                /* 0-3 */
    enum trace_branch branch;
    uint64_t target;                            /* of a taken branch: the next instruction */
    /* The registers after the instruction executed, in regs[] (only in a
     * trace whose header says registers; a writer needs header.registers
     * for them). */
    bool has_registers;
    int n_accesses;
    struct trace_access accesses[TRACE_MAX_ACCESSES];
    /* Last, so that code clearing or copying an instruction up to its
     * accesses (the reader's hot path) does not touch them: valid only
     * when has_registers.  Indexes TRACE_REG_*; a 32-bit trace's 0-8. */
    uint64_t regs[TRACE_MAX_REGS];
};

enum trace_end_status { TRACE_EXITED = 0, TRACE_KILLED = 1 };

struct trace_end {
    uint64_t instructions;          /* as counted by the writer: a check on the reader */
    enum trace_end_status status;
    uint32_t code;                  /* exit status, or the signal that killed it */
};

enum trace_record_kind {
    TRACE_RECORD_INSN,
    TRACE_RECORD_REGION_BEGIN,
    TRACE_RECORD_REGION_END,
    TRACE_RECORD_END,
    TRACE_RECORD_MSR,
    TRACE_RECORD_ISA,
};

/* An access of the program to the emulated PMU (docs/emulate.md): a read
 * or write of MSR `msr` of logical processor `cpu` through
 * /dev/cpu/CPU/msr, or RDTSC (a read of IA32_TIME_STAMP_COUNTER).  It
 * follows the instructions retired before it; the instruction before it
 * is the system call (or the RDTSC) that made it. */
enum trace_msr_op { TRACE_MSR_READ = 0, TRACE_MSR_WRITE = 1, TRACE_MSR_RDTSC = 2 };

struct trace_msr {
    enum trace_msr_op op;
    uint8_t cpu;                    /* 0 or 1 */
    uint32_t msr;
    uint64_t value;                 /* the value written (TRACE_MSR_WRITE) */
};

struct trace_record {
    enum trace_record_kind kind;
    struct trace_insn insn;         /* TRACE_RECORD_INSN */
    uint32_t region;                /* TRACE_RECORD_REGION_* */
    struct trace_end end;           /* TRACE_RECORD_END */
    struct trace_msr msr;           /* TRACE_RECORD_MSR */
    /* TRACE_RECORD_ISA: the blocks after it are code of this instruction
     * set -- in a trace of several processes (docs/traces.md, "Processes"),
     * where one's trace begins or goes on after another of the other one. */
    enum trace_isa isa;
};

/* ---- writing */

struct trace_writer;

struct trace_writer *trace_writer_open(FILE *out, const struct trace_header *header, char *error,
                                       size_t error_size);
/* The writer's output, in order, in runs of up to 64 KiB; false: the
 * write failed (the writer then fails too).  trace_writer_open() writes
 * into its FILE through one. */
typedef bool trace_sink(void *context, const uint8_t *bytes, size_t n);
/* A writer into `sink` (the header is written at once); NULL when out of
 * memory.  The writer's core uses no libc beyond memory functions and
 * malloc: the recorder's valgrind tool runs it (docs/traces.md, "The
 * stream and the check"). */
struct trace_writer *trace_writer_create(const struct trace_header *header, trace_sink *sink,
                                         void *sink_context);
/* Writes everything but the END record and hands it to the sink: what
 * trace_write_end() writes before its END record, which is all that may
 * follow. */
bool trace_writer_finish(struct trace_writer *writer);
/* Hands the sink what is written so far: the executions of a block
 * counted and not yet written (a loop's), but for fewer than one tag holds
 * (EXEC_MAX_RUN + 1, traces/trace_encoding.h), then the buffered bytes;
 * not the block being built.  The trace goes on, and its bytes are those
 * of a writer never flushed.  The recorder's tool calls it every
 * PT_FLUSH_EVERY instructions, so that `pmubench record`, reading the
 * stream, counts what ran lately (traces/recorder/pmutrace.c).  False if a
 * write failed. */
bool trace_writer_flush(struct trace_writer *writer);
/* Everything written so far to the sink, the block being built too (a
 * taken branch at its end awaiting its target going to `next`): a reader
 * of the sink has every instruction, and the next one begins a block.
 * `pmubench emulate`'s tool calls it before a fork, so that the child's
 * trace follows all of its parent's before it (docs/emulate.md,
 * "Children").  False if a write failed or the trace has ended. */
bool trace_writer_flush_all(struct trace_writer *writer, uint64_t next);
/* The END record's bytes as trace_write_end() writes them, for a trace
 * of `instructions` instructions; their number. */
enum { TRACE_MAX_END_BYTES = 1 + 10 + 1 + 5 };
size_t trace_end_encode(uint64_t instructions, const struct trace_end *end,
                        uint8_t out[TRACE_MAX_END_BYTES]);
bool trace_write_insn(struct trace_writer *writer, const struct trace_insn *insn);
/* The same, faster, for an instruction whose static part -- address,
 * length, code bytes, data accesses' number, kinds and sizes -- is the same
 * at every call with the same `memo`, which the caller keeps with it
 * (zeroed at first; any writer): the writer notes there the block it found
 * the instruction in and, next time, skips comparing it with that block
 * (the recorder's tool, traces/recorder/pmutrace.c).  Writes the same bytes
 * as trace_write_insn(). */
struct trace_insn_memo {
    const void *block;
    uint32_t index;
    uint32_t writer;
};
bool trace_write_insn_memo(struct trace_writer *writer, const struct trace_insn *insn,
                           struct trace_insn_memo *memo);
/* Instruction `i` of a run (below) and its own memo, valid until the
 * next call. */
typedef const struct trace_insn *trace_run_insn(void *context, uint32_t i,
                                                struct trace_insn_memo **memo);
/* A run of `n` instructions at once, the same bytes as trace_write_insn()
 * for each in turn: straight-line code of one thread at CPL 3, without
 * registers, whose static part -- each one's address, length, code bytes,
 * data accesses' number, kinds and sizes, branch and its outcome -- is the
 * same at every call with the same `memo` (kept by the caller, zeroed at
 * first).  `next` is the address of the instruction the trace goes on with
 * (a taken branch's target, which the writer then need not wait for).
 * When the memo places the run in the block being written, or at the start
 * of a new one, only `addresses` (the run's data accesses', in order) are
 * read; else the instructions are taken from `insn_at` and written one by
 * one, and the memo notes where they were found.  The recorder's tool
 * calls it once per run of a superblock, and once for the run that ends
 * the superblock's execution when its successor is known
 * (traces/recorder/pmutrace.c). */
bool trace_write_run(struct trace_writer *writer, uint8_t thread, uint32_t n,
                     const uint64_t *addresses, struct trace_insn_memo *memo,
                     trace_run_insn *insn_at, void *context, uint64_t next);
bool trace_write_region(struct trace_writer *writer, bool begin, uint32_t region);
/* An MSR access record, in a trace whose header says msr_accesses, after
 * everything written before it: a block ending on a taken branch (the
 * system call) is written at once with `next` as its target, the
 * instruction its thread goes on at; so that a reader of the stream gets
 * the record as soon as the writer is flushed (docs/emulate.md). */
bool trace_write_msr(struct trace_writer *writer, const struct trace_msr *access, uint64_t next);
bool trace_write_end(struct trace_writer *writer, const struct trace_end *end);
/* Frees the writer; false if any write failed (the FILE is not closed). */
bool trace_writer_close(struct trace_writer *writer);
uint64_t trace_writer_instructions(const struct trace_writer *writer);

/* ---- reading */

enum trace_status { TRACE_OK, TRACE_ERROR };

struct trace_reader;

/* Reads and checks the header; NULL with "PATH: byte offset N: ..." in
 * `error` and errno 0 for a file that is not a trace of a known version,
 * "PATH: cannot read: REASON" and the read's errno, or "PATH: out of
 * memory" and errno ENOMEM. */
struct trace_reader *trace_reader_open(FILE *in, const char *path, char *error,
                                       size_t error_size);
/* The same, and every byte read from `in`, the header's first, is written
 * to `copy` as it is read, chunk by chunk (pmubench emulate -o: the trace
 * kept as the model reads it; docs/emulate.md).  A write that fails is
 * `copy`'s (its error flag, for its owner to check): the reader goes on
 * and writes nothing more to it.  A reader that gets to the END record
 * reads on to the end of `in`, so the copy of a trace read whole is the
 * input's bytes. */
struct trace_reader *trace_reader_open_copying(FILE *in, const char *path, FILE *copy,
                                               char *error, size_t error_size);
const struct trace_header *trace_reader_header(const struct trace_reader *reader);

/* The header of the trace at `path` (opened with input_open,
 * util/input_file.h); false with the message of the open or of
 * trace_reader_open, and its errno. */
bool trace_read_header(const char *path, struct trace_header *header, char *error,
                       size_t error_size);

/* The next record; TRACE_ERROR with trace_reader_error() for a corrupt or
 * truncated trace (a trace ends with exactly one END record). */
enum trace_status trace_read(struct trace_reader *reader, struct trace_record *record);
/* The same without a copy: *record points into the reader and stays valid
 * through the next call too (a caller may hold one record back while it
 * reads the next), not after. */
enum trace_status trace_next(struct trace_reader *reader, const struct trace_record **record);
const char *trace_reader_error(const struct trace_reader *reader);
/* The number of the record trace_next() or trace_read() returned last,
 * from 1: the line of `pmubench trace dump` that shows it. */
uint64_t trace_reader_record_number(const struct trace_reader *reader);
/* The error's errno: ENOMEM, or the errno of a read that failed ("PATH:
 * cannot read: REASON"); 0 when the trace's content is at fault. */
int trace_reader_error_number(const struct trace_reader *reader);
void trace_reader_close(struct trace_reader *reader);

/* ---- reading by basic block (docs/traces.md, "Blocks")
 *
 * A block is a run of instructions that executed one after the other: it
 * ends after a branch, before a non-sequential address, before a change of
 * thread or CPL, before a region marker, around an instruction with
 * registers (which is a block by itself) and at TRACE_MAX_BLOCK_INSNS
 * instructions or TRACE_MAX_BLOCK_ACCESSES data accesses.  A version-2
 * trace stores blocks; a version-1 trace is handed out as blocks too, built
 * by the reader by the same rules.
 *
 * A block's static part (its instructions: address, length, bytes, branch
 * kind and outcome, a taken branch's target; its data accesses' kinds and
 * sizes) is the same every time its id comes back, so a consumer may
 * memoise per id: ids are dense, 0..n-1 in the order of first appearance,
 * per reader.  Identical static content has one id. */

enum {
    TRACE_MAX_BLOCK_INSNS = 64,
    TRACE_MAX_BLOCK_ACCESSES = 64, /* >= TRACE_MAX_ACCESSES: any one instruction fits */
};

struct trace_block_insn {
    uint64_t address;
    uint8_t length;
    bool has_bytes;                  /* as trace_insn.has_bytes */
    uint8_t bytes[TRACE_MAX_INSN_LENGTH]; /* 0 past the length */
    enum trace_branch branch;        /* only the last instruction may be a branch */
    uint16_t n_accesses;             /* this instruction's: block->accesses[first_access..] */
    uint16_t first_access;
};

struct trace_block {
    uint32_t id;
    uint32_t n_insns;                /* 1-TRACE_MAX_BLOCK_INSNS */
    uint32_t n_accesses;             /* 0-TRACE_MAX_BLOCK_ACCESSES */
    /* Static, and valid until trace_reader_close() (a memo may keep it). */
    const struct trace_block_insn *insns;
    /* This execution's accesses, in instruction order: kind and size are
     * static, the addresses are this execution's. */
    const struct trace_access *accesses;
    /* The address after the block: the target of a taken branch (0 if the
     * trace ended on it; static, part of the block's identity), else the
     * last instruction's address + length. */
    uint64_t next_address;
    /* This execution's: */
    uint8_t thread, cpl;
    /* The registers after the block's instruction (a block with registers
     * has one instruction), indexes TRACE_REG_*; NULL for none. */
    const uint64_t *regs;
};

/* The next block (*block set, *record NULL), or the next record that is
 * not an instruction (region begin/end, END: *record set, *block NULL).
 * Both stay valid until the next call.  TRACE_ERROR with
 * trace_reader_error() as for trace_read().  A reader is read either by
 * blocks or by records (trace_next(), trace_read()), not both. */
enum trace_status trace_next_block(struct trace_reader *reader, const struct trace_block **block,
                                   const struct trace_record **record);

#endif
