/* pmutrace: the valgrind tool behind `pmubench record` (docs/traces.md,
 * "Recording").  It writes the trace, format version 2, with the
 * library's own trace writer (traces/trace_writer.c, trace_block.c,
 * code_cache.c, compiled into the tool: no libc here, only the VG_(...)
 * functions of the valgrind core, which traces/recorder/pt_libc.c gives
 * the writer as malloc, memcmp and the like).  The trace goes in frames to
 * a pipe that `pmubench record` reads, checks and copies while the program
 * runs (traces/recorder/pmutrace_stream.h):
 *
 *   valgrind --tool=pmutrace --pmutrace-fd=N PROGRAM ARGS...
 *
 * Instrumentation, per superblock: each superblock gets a descriptor made
 * at translation time (its instructions: address, length, code bytes,
 * branch class; its data accesses: kind, size) and one call, block_enter(),
 * at its first instruction.  The generated code itself, without calls,
 * stores each data access's address in a slot (pt_slots) and, at each
 * instruction and access, how far the superblock has got (pt_progress).
 * The superblock's executed instructions are handed to the writer when the next one is
 * entered, or at a thread switch, a signal, a system call, the end:
 * retire(); a run of instructions whose successors are known at
 * translation time goes to the writer in one call (trace_write_run(),
 * finish_block()).  An instruction stays pending until the next one is known:
 * only then is a conditional branch's outcome (taken when the next
 * instruction is not the fall-through).  When the next superblock is
 * entered, its first instruction is that successor: the run ending at the
 * last instruction the superblock ran, its exit run, goes to the writer in
 * one call too and nothing stays pending (retire_ended()).  A REP-prefixed string instruction
 * runs under valgrind as one superblock execution per iteration, each
 * starting with the same IMark; consecutive executions of it are one
 * instruction, whose per-iteration accesses are merged into contiguous
 * ranges of at most PT_MAX_ACCESS_SIZE bytes.  Calls to the region
 * functions of traces/pmubench_region.h (and run_p5mon's
 * p5mon_asm_begreg_N/endreg_N), found by name at translation time, become
 * region markers; the call and the function's instructions up to its
 * return are left out.  With --pmutrace-registers=yes every instruction
 * gets a call with the guest state instead (insn_regs()), and each
 * instruction is written with a register record: the general registers and
 * flags after it, as the next instruction finds them. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_xarray.h"
#if defined(VGA_amd64)
#include "libvex_guest_amd64.h"
#else
#include "libvex_guest_x86.h"
#endif

#if defined(VGA_amd64)
#define PT_ISA64 1
typedef VexGuestAMD64State GuestState;
#else
#define PT_ISA64 0
typedef VexGuestX86State GuestState;
#endif

/* ---- the trace: traces/trace.h's writer and limits; the region markers'
 * bytes are traces/trace_encoding.h's */
#include "../trace.h"
#include "../trace_encoding.h"
#include "pmutrace_stream.h"
#define PT_MAX_MARKERS TRACE_MAX_MARKERS
#define PT_MAX_ACCESSES TRACE_MAX_ACCESSES
#define PT_MAX_ACCESS_SIZE TRACE_MAX_ACCESS_SIZE
#define PT_LOAD TRACE_LOAD
#define PT_STORE TRACE_STORE
#define PT_MODIFY TRACE_MODIFY
#define PT_RECORDER "pmubench record (valgrind pmutrace)"

/* Functions of valgrind's core that its tool headers do not declare
 * (pub_core_threadstate.h, pub_core_libcfile.h); the tool is linked
 * statically against libcoregrind, as valgrind's own tools are.
 * count_living_threads counts the threads that have not exited (the one
 * making a system call included); is_valid_tid whether a thread is alive (an
 * exited one's registers are gone); safe_fd moves a file descriptor into
 * valgrind's reserved range above the client's limit and makes it
 * close-on-exec; fcntl is the system call's. */
extern Int VG_(count_living_threads)(void);
extern Bool VG_(is_valid_tid)(ThreadId tid);
extern Int VG_(safe_fd)(Int oldfd);
extern Int VG_(fcntl)(Int fd, Int cmd, Addr arg);
/* The last byte of the client's initial stack (pub_core_clientstate.h): the
 * top of the string table valgrind builds there. */
extern Addr VG_(clstk_end);
/* valgrind's options (pub_core_clientstate.h), which its execve wrapper
 * (coregrind/m_syswrap/syswrap-generic.c, PRE(sys_execve)) passes on to the
 * valgrind that runs a program the client execs (--trace-children=yes),
 * after the tool's pre-syscall hook has run (syswrap-main.c). */
extern XArray *VG_(args_for_valgrind);

/* ---- superblock descriptors, made once per translation */

enum { BR_NONE, BR_COND, BR_ALWAYS };

/* The run that ends a superblock's execution at an instruction, its
 * successor known: the instruction's plain predecessors (cut as the runs
 * are) and itself, written with one call instead of leaving the
 * instruction pending.  What the writing needs, together. */
typedef struct {
    UInt n;          /* its instructions; 0: none (the instruction is not fixed) */
    UInt first;      /* its first instruction's index in the superblock */
    UInt first_slot, n_slots; /* its accesses' slots (one each: fixed instructions) */
    ULong fall_through; /* the address after its last instruction */
    UChar branch;       /* its last instruction's BR_* */
    /* by its last instruction's outcome: [1] taken, [0] not (or no branch) */
    struct trace_insn_memo memo[2];
} ExitRun;

typedef struct {
    ULong addr;
    UInt first_access, n_accesses; /* its accesses in the superblock's */
    UInt first_slot;    /* its first access's slot */
    UChar len;
    UChar branch; /* BR_* */
    UChar rep;    /* a REP-prefixed string instruction */
    UChar call;   /* a call (its return address is the fall-through) */
    UChar region; /* 0, or the first instruction of a region function: PT_REGION_* */
    UChar sp_down; /* the pop of an i386 call+0/pop pair: the call's ESP is 4 lower */
    /* Its accesses are the same every time (a fixed shape): not a REP
     * string instruction, none of its accesses guarded, no load and store
     * of one size (a modify, when at one address).  Then the writer gets
     * it with `memo` (trace_write_insn_memo()). */
    UChar fixed;
    struct trace_insn_memo memo;
    /* Written by put_plain() when it is not the last instruction retired:
     * fixed, its successor the next one of the superblock, at its
     * fall-through. */
    UChar plain;
    /* The run of plain instructions starting here, written with one call
     * (trace_write_run(), with `run_memo`) when they all are: its
     * instructions, 0 when this one starts none (see finish_block()). */
    UChar run;
    struct trace_insn_memo run_memo;
    /* When this is the last instruction a superblock's execution ran and
     * the next one's first is its successor: the run ending here, written
     * with one call (put_exit_run()). */
    ExitRun exit;
    UInt region_n; /* p5mon_asm_begreg_N/endreg_N: N (the others take an argument) */
    UChar bytes[16];
} InsnDesc;

/* A data access: its address is in pt_slots[slot] after it happened, and
 * when guarded its guard (0: it did not happen) in pt_slots[slot + 1]. */
typedef struct {
    UChar kind; /* PT_LOAD, PT_STORE, PT_MODIFY */
    UChar guarded;
    UInt size;
    UInt slot;
    UInt slots_end; /* the slots in use once it is stored */
} AccessDesc;

typedef struct {
    UInt n_insns, n_accesses, n_slots;
    InsnDesc *insns;
    AccessDesc *accesses;
    /* The exit run of the last instruction (its InsnDesc.exit is not
     * used): the common end of an execution, kept where the rest of what
     * block_enter() reads is. */
    ExitRun end;
} BlockDesc;

/* The branch class and REP-string flag from the code bytes. */
static void classify(InsnDesc *d)
{
    const UChar *b = d->bytes;
    Int i = 0, n = d->len;
    Bool rep = False;
    for (; i < n; i++) {
        UChar p = b[i];
        if (p == 0xf2 || p == 0xf3)
            rep = True;
        else if (!(p == 0x66 || p == 0x67 || p == 0x2e || p == 0x36 || p == 0x3e || p == 0x26 ||
                   p == 0x64 || p == 0x65 || p == 0xf0 || (PT_ISA64 && p >= 0x40 && p <= 0x4f)))
            break;
    }
    d->branch = BR_NONE;
    d->rep = 0;
    d->call = 0;
    if (i >= n)
        return;
    UChar op = b[i];
    if (op == 0xe8 || (!PT_ISA64 && op == 0x9a) ||
        (op == 0xff && i + 1 < n && (((b[i + 1] >> 3) & 7) == 2 || ((b[i + 1] >> 3) & 7) == 3)))
        d->call = 1;
    if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3))
        d->branch = BR_COND;
    else if (op == 0xe8 || op == 0xe9 || op == 0xeb || op == 0xc2 || op == 0xc3 || op == 0xca ||
             op == 0xcb || op == 0xcf || op == 0xcd || op == 0xcc || op == 0xce || op == 0xf1 ||
             (!PT_ISA64 && (op == 0x9a || op == 0xea)))
        d->branch = BR_ALWAYS;
    else if (op == 0xff && i + 1 < n) {
        UInt reg = (b[i + 1] >> 3) & 7;
        if (reg >= 2 && reg <= 5)
            d->branch = BR_ALWAYS;
    } else if (op == 0x0f && i + 1 < n) {
        UChar op2 = b[i + 1];
        if (op2 >= 0x80 && op2 <= 0x8f)
            d->branch = BR_COND;
        else if (op2 == 0x05 || op2 == 0x34)
            d->branch = BR_ALWAYS; /* syscall, sysenter: far transfers */
    } else if (rep && ((op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf) ||
                       (op >= 0x6c && op <= 0x6f)))
        d->rep = 1;
}

static Bool starts_with(const HChar *s, const HChar *prefix)
{
    return VG_(strncmp)(s, prefix, VG_(strlen)(prefix)) == 0;
}


/* ---- output: frames (traces/recorder/pmutrace_stream.h) written with
 * VG_(write) to the pipe of --pmutrace-fd */

static Int clo_fd = -1;
static Int clo_emulate_fd = -1; /* --pmutrace-emulate-fd: `pmubench emulate`'s answers */
static Int clo_cpus = 1;        /* --pmutrace-cpus: the emulated machine's logical processors */
static const HChar *clo_program = NULL;
static const HChar *clo_argv0 = NULL;
static Bool clo_keep_env = False;
static Bool clo_registers = False;
static const HChar *clo_cpu = NULL;
static const HChar *clo_cpuid = NULL;
static struct cpu_view cpu_view; /* from --pmutrace-cpuid; n == 0: valgrind's CPU */
static Int out_fd = -1;
static Bool out_failed = False;
/* In a child process made by fork (or vfork, clone without CLONE_VM) of a
 * recording: the trace is the parent's, so the child writes nothing at
 * all.  (Emulating, a child records its own segment: pt_atfork_child.) */
static Bool in_child = False;
/* The frame being filled: its header's room, then the payload up to opos. */
static UChar *obuf;
static UInt opos = PT_FRAME_HEADER_SIZE;
#define OBUF_SIZE (PT_FRAME_HEADER_SIZE + PT_FRAME_MAX_LENGTH)
static UInt out_pid;             /* the process's ID, for the frames' headers */
static Bool out_segment_begins;  /* the next frame begins a segment (PT_FRAME_BEGIN) */

/* Writes `n` bytes at `bytes` to the pipe, again after a short count. */
static void out_write(const UChar *bytes, UInt n)
{
    UInt done = 0;
    while (done < n && !out_failed) {
        Int k = VG_(write)(out_fd, bytes + done, n - done);
        if (k <= 0)
            out_failed = True;
        else
            done += (UInt)k;
    }
}

/* The frame header of `length` payload bytes and `flags` at `at`. */
static void put_frame_header(UChar *at, UInt length, UInt flags)
{
    UInt words[2] = {length | flags << PT_FRAME_FLAGS_SHIFT, out_pid};
    for (Int i = 0; i < PT_FRAME_HEADER_SIZE; i++)
        at[i] = (UChar)(words[i / 4] >> (8 * (i % 4)));
}

/* A write to a pipe of at most PIPE_BUF bytes (4096 on Linux) is never
 * interleaved with another process's (pipe(7)).  Emulating, every process
 * of the run writes to the one pipe, and processes that run at the same
 * time (which `pmubench emulate` refuses, by the frames' process IDs)
 * would otherwise cut each other's frames: so each frame is written whole
 * in one write of at most this. */
#define PT_ATOMIC_WRITE 4096

/* Emulating: the buffer's payload as frames of at most PT_ATOMIC_WRITE
 * bytes, the first flagged with `flags`' PT_FRAME_BEGIN and the last with
 * the others.  Each frame's header goes in the 8 bytes before its payload,
 * which the frame before has written already. */
static void out_flush_atomic(UInt flags)
{
    UInt length = opos - PT_FRAME_HEADER_SIZE, at = 0;
    do {
        UInt k = length - at, most = PT_ATOMIC_WRITE - PT_FRAME_HEADER_SIZE;
        k = k < most ? k : most;
        UInt f = (at == 0 ? flags & PT_FRAME_BEGIN : 0) |
                 (at + k == length ? flags & ~(UInt)PT_FRAME_BEGIN : 0);
        put_frame_header(obuf + at, k, f);
        out_write(obuf + at, PT_FRAME_HEADER_SIZE + k);
        at += k;
    } while (at < length);
}

/* Writes the frame, flagged with PT_FRAME_* `flags` (nothing when it is
 * empty and unflagged). */
static void out_flush(UInt flags)
{
    UInt length = opos - PT_FRAME_HEADER_SIZE;
    if (!in_child && (length > 0 || flags != 0)) {
        if (length > 0 && out_segment_begins) {
            flags |= PT_FRAME_BEGIN;
            out_segment_begins = False;
        }
        if (clo_emulate_fd >= 0) {
            out_flush_atomic(flags);
        } else {
            put_frame_header(obuf, length, flags);
            out_write(obuf, opos);
        }
    }
    opos = PT_FRAME_HEADER_SIZE; /* a forked child's copy of the buffer: discarded */
}

/* The writer's sink: its bytes into frames. */
static bool out_sink(void *context, const uint8_t *bytes, size_t n)
{
    (void)context;
    while (n) {
        if (opos == OBUF_SIZE)
            out_flush(0);
        UInt room = OBUF_SIZE - opos, k = n < room ? (UInt)n : room;
        VG_(memcpy)(obuf + opos, bytes, k);
        opos += k;
        bytes += k;
        n -= k;
    }
    return !out_failed;
}

/* ---- the pending instruction and the writer's state */

typedef struct {
    UChar kind; /* PT_LOAD, PT_STORE, PT_MODIFY */
    UInt size;
    ULong addr;
} Access;

static InsnDesc *pend;      /* NULL: none */
static UInt pend_thread;
static Int n_acc;
static Access acc[PT_MAX_ACCESSES];
static ULong dropped_accesses;

/* --pmutrace-registers=yes (docs/traces.md, "Registers"): the registers
 * after the pending instruction, taken from the guest state when the next
 * instruction begins (or its thread stops, or a signal interrupts it), and
 * those of the last register record written.  Index 0 the flags, 1-16 the
 * general registers (1-8 on x86), as traces/trace.h's TRACE_REG_*. */
#define PT_NREGS (PT_ISA64 ? 17 : 9)
static Bool pend_has_regs;
static ULong pend_regs[17];

/* The segment's writer (NULL: none, in a forked child), and the record
 * handed to it, whose fields not set per instruction stay as they are. */
static struct trace_writer *writer;
static struct trace_insn record;
static struct trace_header header;
static Bool writer_refused;  /* an instruction the writer refused: no END record then */

/* Instructions between two flushes of the trace so far to the pipe (the
 * writer's counted executions and buffer, then the frame): `pmubench
 * record` counts the instructions it reads back for its progress line,
 * and a loop's trace takes a hundredth of a byte an instruction, so that
 * a full frame (PT_FRAME_MAX_LENGTH) would hold seconds of the run.  A
 * million instructions are some 10 ms of recording. */
#define PT_FLUSH_EVERY (1u << 20)
static UInt unflushed; /* instructions written since the last flush */

/* Every PT_FLUSH_EVERY instructions written: the trace so far to the pipe. */
static void flush_for_progress(void)
{
    unflushed = 0;
    if (writer && !writer_refused && !trace_writer_flush(writer) && !out_failed) {
        writer_refused = True;
        VG_(umsg)("pmutrace: the trace writer refused to flush\n");
    }
    out_flush(0);
}

static inline __attribute__((always_inline)) void count_written(UInt n)
{
    unflushed += n;
    if (__builtin_expect(unflushed >= PT_FLUSH_EVERY, 0))
        flush_for_progress();
}

static ThreadId first_tid = VG_INVALID_THREADID, running_tid = VG_INVALID_THREADID;
static UInt running_thread; /* the trace's thread of running_tid: 0 or 1 */
static Bool many_threads;

/* Region functions (docs/traces.md, "Regions"): from a region function's
 * first instruction until its thread reaches the return address, nothing is
 * recorded. */
static Bool skipping;
static ThreadId skip_tid;
static ULong skip_return;
static Bool after_taken;       /* the last record written is a taken branch's instruction */
static UInt markers_after;     /* region markers written since then */
static ULong regions_dropped;  /* markers beyond PT_MAX_MARKERS after a taken branch */

static Bool exited;          /* exit_group (or the last thread's exit) was seen */
static UInt exit_code;

/* An execve in progress: the segment was ended before the system call; if
 * it fails, a new one begins. */
static Bool exec_pending;

/* A segment: a new writer, which writes the trace's header. */
static void begin_segment(void)
{
    header.isa = PT_ISA64 ? TRACE_ISA_64 : TRACE_ISA_32;
    header.lengths_known = true;
    header.registers = clo_registers;
    const HChar *exe = clo_program && *clo_program ? clo_program
                       : VG_(args_the_exename) ? VG_(args_the_exename)
                                               : "";
    VG_(strncpy)(header.program, exe, TRACE_MAX_TEXT - 1);
    /* The arguments, separated by single spaces (cut at 4095 bytes). */
    SizeT used = 0;
    Word n = VG_(sizeXA)(VG_(args_for_client));
    for (Word i = 0; i < n; i++) {
        const HChar *a = *(HChar **)VG_(indexXA)(VG_(args_for_client), i);
        if (i > 0 && used < TRACE_MAX_TEXT - 1)
            header.args[used++] = ' ';
        for (; *a && used < TRACE_MAX_TEXT - 1; a++)
            header.args[used++] = *a;
    }
    header.args[used] = '\0';
    VG_(strcpy)(header.recorder, PT_RECORDER);
    header.cpu = cpu_view;
    header.msr_accesses = clo_emulate_fd >= 0;
    out_segment_begins = True;
    writer = trace_writer_create(&header, out_sink, NULL);
    record.cpl = 3;
    record.has_bytes = true;
}

/* The pending instruction's accesses with a load and a store of the same
 * location made one modify; their number. */
static Int merge_modifies(void)
{
    Int n = 0;
    for (Int i = 0; i < n_acc; i++) {
        if (acc[i].kind == PT_STORE) {
            Int j;
            for (j = 0; j < n; j++)
                if (acc[j].kind == PT_LOAD && acc[j].addr == acc[i].addr &&
                    acc[j].size == acc[i].size)
                    break;
            if (j < n) {
                acc[j].kind = PT_MODIFY;
                continue;
            }
        }
        acc[n++] = acc[i];
    }
    return n;
}

/* Sets `record`'s instruction: d's, in thread pend_thread. */
static inline __attribute__((always_inline)) void set_insn(const InsnDesc *d, Bool taken)
{
    record.address = d->addr;
    record.length = d->len;
    /* The bytes in two overlapping words, not a call (the tool is built
     * without builtins), straight from the descriptor: through a copy on the
     * stack the second word's load would wait on the stores before it. */
    __builtin_memcpy(record.bytes, d->bytes, 8);
    __builtin_memcpy(record.bytes + 7, d->bytes + 7, 8);
    record.thread = (uint8_t)pend_thread;
    record.branch = d->branch == BR_NONE ? TRACE_NOT_BRANCH
                    : taken             ? TRACE_BRANCH_TAKEN
                                        : TRACE_BRANCH_NOT_TAKEN;
}

/* Hands `record`, its accesses set, to the writer as instruction d; with
 * d's memo when its accesses are those of its fixed shape
 * (InsnDesc.fixed), else none. */
static inline __attribute__((always_inline)) void put_record(const InsnDesc *d, Bool taken,
                                                             struct trace_insn_memo *memo)
{
    set_insn(d, taken);
    after_taken = taken;
    markers_after = 0;
    Bool ok = !writer || writer_refused ? True
              : memo                  ? trace_write_insn_memo(writer, &record, memo)
                                      : trace_write_insn(writer, &record);
    count_written(1);
    if (!ok && !out_failed) {
        writer_refused = True;
        VG_(umsg)("pmutrace: the trace writer refused the instruction at 0x%llx\n",
                  (ULong)d->addr);
    }
}

/* Writes the pending instruction; `next` is the address of the instruction
 * that follows it in its thread (for a conditional branch's outcome).
 * Inline in retire(), its hot caller; flush_pending() for the others. */
static inline __attribute__((always_inline)) void put_pending(ULong next)
{
    InsnDesc *d = pend;
    if (!d)
        return;
    pend = NULL;
    Int n = n_acc > 1 ? merge_modifies() : n_acc;
    n_acc = 0;
    for (Int i = 0; i < n; i++) {
        record.accesses[i].kind = acc[i].kind;
        record.accesses[i].size = acc[i].size;
        record.accesses[i].address = acc[i].addr;
    }
    record.n_accesses = n;
    record.has_registers = pend_has_regs;
    if (pend_has_regs)
        VG_(memcpy)(record.regs, pend_regs, sizeof record.regs);
    pend_has_regs = False;
    put_record(d, d->branch == BR_ALWAYS || (d->branch == BR_COND && next != d->addr + d->len),
               d->fixed && n == (Int)d->n_accesses ? &d->memo : NULL);
}

static void flush_pending(ULong next)
{
    put_pending(next);
}

/* The registers as they are in a guest state: the pending instruction's
 * (its successor has not begun).  The flags are valgrind's (the arithmetic
 * flags computed from its lazy thunk, DF, AC, ID) with bit 1 and IF (bit 9)
 * set, as they always are in user mode. */
static void take_registers(const GuestState *gs)
{
#if PT_ISA64
    pend_regs[0] = LibVEX_GuestAMD64_get_rflags(gs) | 0x202;
    const ULong *g = &gs->guest_RAX;
    for (Int i = 0; i < 16; i++)
        pend_regs[1 + i] = g[i];
#else
    pend_regs[0] = LibVEX_GuestX86_get_eflags(gs) | 0x202;
    const UInt *g = &gs->guest_EAX;
    for (Int i = 0; i < 8; i++)
        pend_regs[1 + i] = g[i];
#endif
    pend_has_regs = True;
}

/* The same from a thread's saved state (outside generated code, or in a
 * helper whose call declares the reads: declare_register_reads()). */
static void take_thread_registers(ThreadId tid)
{
    GuestState gs;
    VG_(get_shadow_regs_area)(tid, (UChar *)&gs, 0, 0, sizeof gs);
    take_registers(&gs);
}

/* A data access of the pending instruction. */
static inline void pend_access(ULong addr, UInt kind, UInt size)
{
    if (pend->rep) {
        /* Iterations of a REP string instruction extend its ranges, each
         * up to the format's largest access; then a new range begins. */
        for (Int i = 0; i < n_acc; i++) {
            Access *a = &acc[i];
            if (a->kind != kind || a->size + size > PT_MAX_ACCESS_SIZE)
                continue;
            if (addr == a->addr + a->size) {
                a->size += size;
                return;
            }
            if (addr + size == a->addr) {
                a->addr = addr;
                a->size += size;
                return;
            }
        }
    }
    if (n_acc == PT_MAX_ACCESSES) {
        dropped_accesses++;
        return;
    }
    acc[n_acc].kind = (UChar)kind;
    acc[n_acc].size = size;
    acc[n_acc].addr = addr;
    n_acc++;
}

/* ---- the superblock running, as its generated code leaves it */

/* The slots of the data accesses' addresses (and guards).  A superblock
 * has at most 100 guest instructions (VEX's largest guest_max_insns), each
 * with a few accesses in its IR (a gather's 16 the most seen). */
#define PT_MAX_SLOTS 16384
static UWord pt_slots[PT_MAX_SLOTS];
/* How far the running superblock has got: (instructions begun) << 16 |
 * (slots stored), stored by the generated code before each instruction
 * and each access. */
#define PT_PROGRESS_SHIFT 16
static UWord pt_progress;
static BlockDesc *cur_block; /* the running superblock, NULL: none */
static UInt retired;         /* its instructions already made pending */

/* Sets `record`'s accesses and registers for a plain instruction
 * (InsnDesc.plain): its accesses `a`, their addresses from the slots. */
static inline __attribute__((always_inline)) void set_plain(const InsnDesc *d,
                                                            const AccessDesc *a)
{
    for (UInt i = 0; i < d->n_accesses; i++) {
        record.accesses[i].kind = a[i].kind;
        record.accesses[i].size = a[i].size;
        record.accesses[i].address = pt_slots[a[i].slot];
    }
    record.n_accesses = (int)d->n_accesses;
    record.has_registers = False;
}

/* Writes a plain instruction right away, in the running thread: what
 * put_pending() would write for it. */
static inline __attribute__((always_inline)) void put_plain(InsnDesc *d, const AccessDesc *a)
{
    set_plain(d, a);
    pend_thread = running_thread;
    put_record(d, d->branch == BR_ALWAYS, &d->memo);
}

/* A run being written (trace_write_run()): its first instruction, and
 * whether its last is a taken branch. */
typedef struct {
    InsnDesc *first;
    UInt n;
    Bool last_taken;
} RunCall;

/* Instruction i of the run of `context` (a RunCall), for trace_write_run():
 * what put_plain() would write, in thread pend_thread; the last with its
 * outcome. */
static const struct trace_insn *run_insn(void *context, uint32_t i,
                                         struct trace_insn_memo **memo)
{
    const RunCall *run = context;
    InsnDesc *d = run->first + i;
    set_plain(d, cur_block->accesses + d->first_access);
    set_insn(d, i + 1 == run->n ? run->last_taken : d->branch == BR_ALWAYS);
    *memo = &d->memo;
    return &record;
}

/* Writes the n instructions from d, in the running thread, with one call:
 * what put_plain() would write for each, the last with its outcome
 * `last_taken` and followed by the instruction at `next`.  Their accesses'
 * addresses are the n_slots slots from first_slot (fixed instructions:
 * unguarded, a slot each, one after another). */
static inline __attribute__((always_inline)) void put_run_of(InsnDesc *d, UInt n, UInt first_slot,
                                                             UInt n_slots,
                                                             struct trace_insn_memo *memo,
                                                             Bool last_taken, ULong next)
{
    const UWord *slots = pt_slots + first_slot;
#if PT_ISA64
    const uint64_t *addresses = slots;
    (void)n_slots;
#else
    static uint64_t addresses[TRACE_MAX_BLOCK_ACCESSES];
    for (UInt k = 0; k < n_slots; k++)
        addresses[k] = slots[k];
#endif
    pend_thread = running_thread;
    after_taken = last_taken;
    markers_after = 0;
    RunCall run = {d, n, last_taken};
    if (writer && !writer_refused &&
        !trace_write_run(writer, (uint8_t)running_thread, n, addresses, memo, run_insn, &run,
                         next) &&
        !out_failed) {
        writer_refused = True;
        VG_(umsg)("pmutrace: the trace writer refused an instruction of the run at 0x%llx\n",
                  (ULong)d->addr);
    }
    count_written(n);
}

/* Writes the run starting at d (InsnDesc.run), in the running thread. */
static inline __attribute__((always_inline)) void put_run(InsnDesc *d)
{
    const InsnDesc *last = d + d->run - 1;
    put_run_of(d, d->run, d->first_slot, last->first_slot + last->n_accesses - d->first_slot,
               &d->run_memo, last->branch == BR_ALWAYS, last->addr + last->len);
}

/* Writes the exit run x of the running superblock, followed by the
 * instruction at `next`. */
static inline __attribute__((always_inline)) void put_exit_run(ExitRun *x, ULong next)
{
    Bool taken = x->branch == BR_ALWAYS || (x->branch == BR_COND && next != x->fall_through);
    put_run_of(cur_block->insns + x->first, x->n, x->first_slot, x->n_slots, &x->memo[taken],
               taken, next);
}

/* Makes the running superblock's instructions from d up to `stop` pending
 * in turn (writing each one's predecessor), with their accesses among the
 * first `slots` slots; the superblock ran those before `d_end`. */
static inline __attribute__((always_inline)) void retire_from(InsnDesc *d, const InsnDesc *stop,
                                                              const InsnDesc *d_end, UInt slots)
{
    const BlockDesc *b = cur_block;
    for (; d < stop; d++) {
        if (__builtin_expect(skipping, 0) && running_tid == skip_tid) {
            if (d->addr != skip_return)
                continue; /* inside a region function */
            skipping = False;
        }
        const AccessDesc *a = b->accesses + d->first_access, *a_end = a + d->n_accesses;
        /* Not for the next iteration of the same REP string instruction. */
        if (__builtin_expect(!pend || !pend->rep || pend->addr != d->addr, 1)) {
            put_pending(d->addr);
            if (d->run && d + d->run < d_end && !clo_registers) {
                put_run(d);
                d += d->run - 1;
                continue;
            }
            if (d->plain && d + 1 < d_end && !clo_registers) {
                put_plain(d, a);
                continue;
            }
            pend = d;
            pend_thread = running_thread;
        }
        for (; a < a_end && a->slots_end <= slots; a++)
            if (!a->guarded || pt_slots[a->slot + 1])
                pend_access(pt_slots[a->slot], a->kind, a->size);
    }
}

/* Makes the running superblock's instructions [retired, upto) pending in
 * turn, with their accesses among the first `slots` slots. */
static void retire(UInt upto, UInt slots)
{
    if (upto <= retired)
        return;
    InsnDesc *d = cur_block->insns + retired, *d_end = cur_block->insns + upto;
    retired = upto;
    retire_from(d, d_end, d_end, slots);
}

/* The running superblock's execution ended and the same thread goes on at
 * `next` (a superblock entered, no region function): every instruction it
 * ran is written, the exit run of the last one (InsnDesc.exit) with one
 * call, nothing left pending; or, when the run cannot be (its
 * instructions not all run, some already pending, a region function being
 * skipped), retired as retire() does. */
static void retire_ended(ULong next)
{
    BlockDesc *b = cur_block;
    UInt upto = (UInt)(pt_progress >> PT_PROGRESS_SHIFT),
         slots = (UInt)(pt_progress & ((1u << PT_PROGRESS_SHIFT) - 1));
    ExitRun *x = upto == b->n_insns ? &b->end
                 : upto > retired     ? &b->insns[upto - 1].exit
                                      : NULL;
    if (!x || !x->n || x->first < retired || x->first_slot + x->n_slots > slots ||
        (__builtin_expect(skipping, 0) && running_tid == skip_tid)) {
        retire(upto, slots);
        return;
    }
    if (__builtin_expect(retired < x->first, 0))
        retire_from(b->insns + retired, b->insns + x->first, b->insns + upto, slots);
    retired = upto;
    put_pending(b->insns[x->first].addr);
    put_exit_run(x, next);
}

/* Every instruction the running superblock has begun. */
static void retire_running(void)
{
    if (cur_block)
        retire((UInt)(pt_progress >> PT_PROGRESS_SHIFT),
               (UInt)(pt_progress & ((1u << PT_PROGRESS_SHIFT) - 1)));
}

/* To instruction k of superblock b, which is beginning: the previous
 * superblock's instructions are written (k = 0), or b's before k. */
static void advance(BlockDesc *b, UInt k)
{
    if (k == 0) {
        retire_running();
        cur_block = b;
        retired = 0;
    } else {
        retire(k, b->insns[k].first_slot);
    }
    pt_progress = (UWord)(k + 1) << PT_PROGRESS_SHIFT | b->insns[k].first_slot;
}

/* Called at the first instruction of every superblock executed (without
 * registers). */
static VG_REGPARM(1) void block_enter(BlockDesc *b)
{
    if (in_child)
        return;
    if (cur_block)
        retire_ended(b->insns[0].addr);
    cur_block = b;
    retired = 0;
    pt_progress = (UWord)1 << PT_PROGRESS_SHIFT; /* the first instruction's slots start at 0 */
}

/* Called at every instruction with registers; `gs` is the guest state.  Not
 * regparm: VEX's x86 back end passes the guest state pointer only on the
 * stack (host_x86_isel.c, doHelperCall, asserts otherwise). */
static void insn_regs(BlockDesc *b, UWord k, const GuestState *gs)
{
    if (in_child)
        return;
    advance(b, (UInt)k);
    if (pend) {
        take_registers(gs);
        if (b->insns[k].sp_down)
            pend_regs[1 + 4] -= 4; /* the call of call+0/pop pushed its return address */
    }
}

/* Called instead at the first instruction of a region function, with the
 * return address and the region number (the first argument, or the N of
 * p5mon_asm_begreg_N) as they are at its entry.  The call that got here is
 * dropped (it is the pending instruction, a call whose fall-through is the
 * return address; anything else, e.g. a tail jump, is written), the marker
 * is written, and the function's instructions are skipped until its thread
 * reaches the return address.  Not regparm: four arguments. */
static void region_enter(BlockDesc *b, UWord k, UWord ret, UWord arg)
{
    if (in_child)
        return;
    advance(b, (UInt)k);
    retired = (UInt)k + 1; /* the region function's first instruction is not written */
    if (skipping && running_tid == skip_tid)
        return; /* a region function called inside one: part of the skipped code */
    const InsnDesc *d = &b->insns[k];
    ULong return_address = ret;
    if (pend && pend->call && pend->addr + pend->len == return_address) {
        pend = NULL;
        pend_has_regs = False;
        n_acc = 0;
    } else {
        if (clo_registers && pend)
            take_thread_registers(running_tid);
        flush_pending(d->addr);
    }
    if (after_taken && markers_after == PT_MAX_MARKERS) {
        regions_dropped++;
    } else {
        markers_after++;
        if (writer && !writer_refused)
            trace_write_region(writer, d->region == CONTROL_REGION_BEGIN,
                               d->region_n != ~0u ? d->region_n : (UInt)arg);
    }
    skipping = True;
    skip_tid = running_tid;
    skip_return = return_address;
}
/* ---- instrumentation */

/* CONTROL_REGION_BEGIN or CONTROL_REGION_END when `name` is a region function, with
 * *n the region number in its name (p5mon_asm_begreg_N, p5mon_asm_endreg_N)
 * or ~0u when it is the first argument (pmubench_region_begin/end). */
static UChar region_function(const HChar *name, UInt *n)
{
    *n = ~0u;
    if (VG_(strcmp)(name, "pmubench_region_begin") == 0)
        return CONTROL_REGION_BEGIN;
    if (VG_(strcmp)(name, "pmubench_region_end") == 0)
        return CONTROL_REGION_END;
    UChar kind;
    if (starts_with(name, "p5mon_asm_begreg_"))
        kind = CONTROL_REGION_BEGIN;
    else if (starts_with(name, "p5mon_asm_endreg_"))
        kind = CONTROL_REGION_END;
    else
        return 0;
    const HChar *digits = name + 17;
    ULong v = 0;
    Int count = 0;
    for (; digits[count] >= '0' && digits[count] <= '9'; count++) {
        v = v * 10 + (ULong)(digits[count] - '0');
        if (v >= 0xffffffffull)
            return 0;
    }
    if (count == 0 || digits[count] != '\0')
        return 0;
    *n = (UInt)v;
    return kind;
}

/* A helper that reads the registers declares it, so that VEX writes the
 * guest registers back to the guest state before the call (its register
 * allocation otherwise keeps them in host registers and may drop the
 * writes: libvex_ir.h, "Dirty helper calls"). */
static void declare_register_reads(IRDirty *di)
{
#if PT_ISA64
    typedef VexGuestAMD64State S;
    Int gpr = offsetof(S, guest_RAX), gpr_end = offsetof(S, guest_R15) + 8;
    Int cc = offsetof(S, guest_CC_OP), cc_end = offsetof(S, guest_DFLAG) + 8;
#else
    typedef VexGuestX86State S;
    Int gpr = offsetof(S, guest_EAX), gpr_end = offsetof(S, guest_EDI) + 4;
    Int cc = offsetof(S, guest_CC_OP), cc_end = offsetof(S, guest_DFLAG) + 4;
#endif
    Int w = PT_ISA64 ? 8 : 4;
    di->nFxState = 4;
    VG_(memset)(di->fxState, 0, sizeof di->fxState);
    di->fxState[0].fx = Ifx_Read;
    di->fxState[0].offset = (UShort)gpr;
    di->fxState[0].size = (UShort)(gpr_end - gpr);
    di->fxState[1].fx = Ifx_Read;
    di->fxState[1].offset = (UShort)cc;
    di->fxState[1].size = (UShort)(cc_end - cc);
    di->fxState[2].fx = Ifx_Read;
    di->fxState[2].offset = (UShort)offsetof(S, guest_IDFLAG);
    di->fxState[2].size = (UShort)w;
    di->fxState[3].fx = Ifx_Read;
    di->fxState[3].offset = (UShort)offsetof(S, guest_ACFLAG);
    di->fxState[3].size = (UShort)w;
}

/* A constant host word stored at `where`. */
static void add_word_store(IRSB *sb, void *where, HWord value)
{
    addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)where), mkIRExpr_HWord(value)));
}

/* The call to region_enter() for the first instruction of a region
 * function: the return address is the word at the stack pointer, the first
 * argument is in rdi (amd64) or the word above the return address (x86). */
static void add_region_call(IRSB *sb, BlockDesc *b, InsnDesc *d)
{
#if defined(VGA_amd64)
    IRType ty = Ity_I64;
    Int sp_offset = offsetof(VexGuestAMD64State, guest_RSP);
#else
    IRType ty = Ity_I32;
    Int sp_offset = offsetof(VexGuestX86State, guest_ESP);
#endif
    IRTemp sp = newIRTemp(sb->tyenv, ty), ret = newIRTemp(sb->tyenv, ty);
    addStmtToIRSB(sb, IRStmt_WrTmp(sp, IRExpr_Get(sp_offset, ty)));
    addStmtToIRSB(sb, IRStmt_WrTmp(ret, IRExpr_Load(Iend_LE, ty, IRExpr_RdTmp(sp))));
    IRExpr *arg = mkIRExpr_HWord(0);
    if (d->region_n == ~0u) {
        IRTemp a = newIRTemp(sb->tyenv, ty);
#if defined(VGA_amd64)
        addStmtToIRSB(sb, IRStmt_WrTmp(a, IRExpr_Get(offsetof(VexGuestAMD64State, guest_RDI), ty)));
#else
        IRTemp where = newIRTemp(sb->tyenv, ty);
        addStmtToIRSB(sb, IRStmt_WrTmp(where, IRExpr_Binop(Iop_Add32, IRExpr_RdTmp(sp),
                                                           IRExpr_Const(IRConst_U32(4)))));
        addStmtToIRSB(sb, IRStmt_WrTmp(a, IRExpr_Load(Iend_LE, ty, IRExpr_RdTmp(where))));
#endif
        arg = IRExpr_RdTmp(a);
    }
    IRDirty *di = unsafeIRDirty_0_N(0, "pmutrace_region", VG_(fnptr_to_fnentry)(&region_enter),
                                    mkIRExprVec_4(mkIRExpr_HWord((HWord)b),
                                                  mkIRExpr_HWord((HWord)(d - b->insns)),
                                                  IRExpr_RdTmp(ret), arg));
    if (clo_registers)
        declare_register_reads(di);
    addStmtToIRSB(sb, IRStmt_Dirty(di));
}

/* The beginning of instruction d: with registers, a call to insn_regs();
 * else the first instruction's call to block_enter() and the others'
 * store of the progress. */
static void add_insn_begin(IRSB *sb, BlockDesc *b, InsnDesc *d)
{
    HWord k = (HWord)(d - b->insns);
    if (clo_registers) {
        IRDirty *di = unsafeIRDirty_0_N(0, "pmutrace_insn_regs", VG_(fnptr_to_fnentry)(&insn_regs),
                                        mkIRExprVec_3(mkIRExpr_HWord((HWord)b), mkIRExpr_HWord(k),
                                                      IRExpr_GSPTR()));
        declare_register_reads(di);
        addStmtToIRSB(sb, IRStmt_Dirty(di));
    } else if (k == 0) {
        IRDirty *di = unsafeIRDirty_0_N(1, "pmutrace_block", VG_(fnptr_to_fnentry)(&block_enter),
                                        mkIRExprVec_1(mkIRExpr_HWord((HWord)b)));
        addStmtToIRSB(sb, IRStmt_Dirty(di));
    } else {
        add_word_store(sb, &pt_progress, (k + 1) << PT_PROGRESS_SHIFT | d->first_slot);
    }
}

/* A data access of the last instruction described: its address stored in
 * its slot (and its guard, when it has one, in the next), then the
 * progress. */
static void add_access(IRSB *sb, BlockDesc *b, IRExpr *addr, UInt size, UInt kind,
                       IRExpr *guard)
{
    if (size == 0)
        return;
    if (guard && guard->tag == Iex_Const && guard->Iex.Const.con->tag == Ico_U1 &&
        guard->Iex.Const.con->Ico.U1)
        guard = NULL; /* a dirty helper's guard when it has none */
    InsnDesc *d = &b->insns[b->n_insns - 1];
    AccessDesc *a = &b->accesses[b->n_accesses++];
    d->n_accesses++;
    a->kind = (UChar)kind;
    a->size = size;
    a->guarded = guard != NULL;
    a->slot = b->n_slots;
    a->slots_end = a->slot + (guard ? 2 : 1);
    if (a->slots_end > PT_MAX_SLOTS)
        VG_(tool_panic)("pmutrace: a superblock with more data accesses than PT_MAX_SLOTS");
    b->n_slots = a->slots_end;
    addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&pt_slots[a->slot]), addr));
    if (guard) {
        IRTemp word = newIRTemp(sb->tyenv, PT_ISA64 ? Ity_I64 : Ity_I32);
        addStmtToIRSB(sb, IRStmt_WrTmp(word, IRExpr_Unop(PT_ISA64 ? Iop_1Uto64 : Iop_1Uto32,
                                                         guard)));
        addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&pt_slots[a->slot + 1]),
                                       IRExpr_RdTmp(word)));
    }
    add_word_store(sb, &pt_progress, (HWord)b->n_insns << PT_PROGRESS_SHIFT | a->slots_end);
}

/* ---- CPUID: the CPU view
 *
 * The program sees the CPU view `pmubench record` gives (traces/cpu_view.h:
 * the host's CPUID with the features valgrind does not execute cleared, or
 * a modelled part's), not valgrind's virtual CPU, so that glibc's start-up
 * and its CPU-dependent routines take the paths a native run given the
 * same view takes (docs/traces.md, "The CPU view").  Every call of
 * valgrind's CPUID helper (`amd64g_dirtyhelper_CPUID_*`,
 * `x86g_dirtyhelper_CPUID_*`: one argument, the guest state, or four:
 * amd64's AVX2 helper's feature flags) is pointed at cpuid_view1/4,
 * which answer from the view.  Without a view (no --pmutrace-cpuid)
 * valgrind's own helper answers. */
static void answer_cpuid(void *state)
{
#if PT_ISA64
    VexGuestAMD64State *g = state;
    struct cpuid_regs r = cpu_view_answer(&cpu_view, (UInt)g->guest_RAX, (UInt)g->guest_RCX);
    g->guest_RAX = r.eax;
    g->guest_RBX = r.ebx;
    g->guest_RCX = r.ecx;
    g->guest_RDX = r.edx;
#else
    VexGuestX86State *g = state;
    struct cpuid_regs r = cpu_view_answer(&cpu_view, g->guest_EAX, g->guest_ECX);
    g->guest_EAX = r.eax;
    g->guest_EBX = r.ebx;
    g->guest_ECX = r.ecx;
    g->guest_EDX = r.edx;
#endif
}

static void cpuid_view1(void *state)
{
    answer_cpuid(state);
}

static void cpuid_view4(void *state, HWord a1, HWord a2, HWord a3)
{
    answer_cpuid(state);
}

static void answer_cpuid_from_view(IRDirty *d)
{
    const HChar *name = d->cee->name;
    if (cpu_view.n == 0 ||
        !starts_with(name, PT_ISA64 ? "amd64g_dirtyhelper_CPUID" : "x86g_dirtyhelper_CPUID"))
        return;
    Int n = 0;
    while (d->args[n])
        n++;
    if (n != 1 && n != 4)
        return;
    d->cee = mkIRCallee(d->cee->regparms, n == 1 ? "pmutrace_cpuid1" : "pmutrace_cpuid4",
                        n == 1 ? VG_(fnptr_to_fnentry)(&cpuid_view1)
                               : VG_(fnptr_to_fnentry)(&cpuid_view4));
}

static void answer_rdtsc_from_model(IRDirty *d);

/* The value of one hex digit, or -1. */
static Int hex_digit(HChar c)
{
    return c >= '0' && c <= '9' ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* --pmutrace-cpuid's value: 48 hex digits a leaf (cpu_view_hex()). */
static Bool decode_cpu_view(const HChar *hex)
{
    SizeT len = VG_(strlen)(hex);
    if (len == 0 || len % 48 != 0 || len / 48 > CPU_VIEW_MAX_LEAVES)
        return False;
    cpu_view.n = (UInt)(len / 48);
    for (UInt i = 0; i < cpu_view.n; i++) {
        UInt words[6];
        for (UInt w = 0; w < 6; w++) {
            UInt v = 0;
            for (UInt k = 0; k < 8; k++) {
                Int d = hex_digit(hex[48 * i + 8 * w + k]);
                if (d < 0)
                    return False;
                v = v << 4 | (UInt)d;
            }
            words[w] = v;
        }
        cpu_view.leaves[i] = (struct cpuid_leaf){words[0], words[1],
                                                 {words[2], words[3], words[4], words[5]}};
        /* as the trace reader requires (cpu_view_valid): leaf 0 first,
         * for every subleaf, then strictly increasing */
        const struct cpuid_leaf *l = &cpu_view.leaves[i], *before = l - 1;
        if (i == 0 ? l->leaf != 0 || l->subleaf != CPUID_ANY_SUBLEAF
                   : before->leaf > l->leaf ||
                         (before->leaf == l->leaf && before->subleaf >= l->subleaf))
            return False;
    }
    return True;
}

/* The next instruction of b, at the IMark `st`. */
static InsnDesc *new_insn(BlockDesc *b, const IRStmt *st)
{
    InsnDesc *d = &b->insns[b->n_insns++];
    VG_(memset)(d, 0, sizeof *d);
    UInt len = st->Ist.IMark.len;
    d->addr = (ULong)st->Ist.IMark.addr;
    d->len = (UChar)(len <= 15 ? len : 1);
    VG_(memcpy)(d->bytes, (const void *)(Addr)d->addr, d->len);
    classify(d);
    d->first_access = b->n_accesses;
    d->first_slot = b->n_slots;
    const HChar *name;
    if (VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), (Addr)d->addr, &name))
        d->region = region_function(name, &d->region_n);
    return d;
}

/* i386 position-independent code gets its own address with "call +0;
 * pop %reg" (E8 00 00 00 00, 58+r).  VEX translates the pair as one 6-byte
 * instruction, "mov $next, %reg", without the stack accesses (valgrind's
 * guest_x86_toIR.c, the CALL J4 case), but the processor runs two: a call
 * that pushes its return address and a pop that loads it back.  Both are
 * recorded, with the 4-byte store and load at ESP - 4. */
static Bool is_call_pop(const InsnDesc *d)
{
    static const UChar call_next[5] = {0xe8, 0, 0, 0, 0};
    return !PT_ISA64 && d->len == 6 && VG_(memcmp)(d->bytes, call_next, 5) == 0 &&
           d->bytes[5] >= 0x58 && d->bytes[5] <= 0x5f;
}

static void add_call_pop(IRSB *sb, BlockDesc *b, InsnDesc *call)
{
#if PT_ISA64
    (void)sb; (void)b; (void)call;
#else
    IRTemp esp = newIRTemp(sb->tyenv, Ity_I32), slot = newIRTemp(sb->tyenv, Ity_I32);
    addStmtToIRSB(sb, IRStmt_WrTmp(esp, IRExpr_Get(offsetof(VexGuestX86State, guest_ESP),
                                                   Ity_I32)));
    addStmtToIRSB(sb, IRStmt_WrTmp(slot, IRExpr_Binop(Iop_Sub32, IRExpr_RdTmp(esp),
                                                      IRExpr_Const(IRConst_U32(4)))));
    UChar pop_opcode = call->bytes[5];
    call->len = 5;
    call->bytes[5] = 0;
    classify(call);
    add_insn_begin(sb, b, call);
    add_access(sb, b, IRExpr_RdTmp(slot), 4, PT_STORE, NULL);
    InsnDesc *pop = &b->insns[b->n_insns++];
    *pop = *call;
    pop->addr = call->addr + 5;
    pop->len = 1;
    VG_(memset)(pop->bytes, 0, sizeof pop->bytes);
    pop->bytes[0] = pop_opcode;
    pop->sp_down = 1;
    pop->first_access = b->n_accesses;
    pop->n_accesses = 0;
    pop->first_slot = b->n_slots;
    classify(pop);
    add_insn_begin(sb, b, pop);
    add_access(sb, b, IRExpr_RdTmp(slot), 4, PT_LOAD, NULL);
#endif
}

/* A superblock's descriptor, with room for the instructions and accesses
 * of `in` (an IMark may become two instructions, with an access each:
 * add_call_pop). */
static BlockDesc *new_block(const IRSB *in)
{
    UInt imarks = 0, accesses = 0;
    for (Int i = 0; i < in->stmts_used; i++) {
        const IRStmt *st = in->stmts[i];
        imarks += st->tag == Ist_IMark;
        accesses += (st->tag == Ist_WrTmp && st->Ist.WrTmp.data->tag == Iex_Load) ||
                    st->tag == Ist_Store || st->tag == Ist_StoreG || st->tag == Ist_LoadG ||
                    st->tag == Ist_CAS ||
                    (st->tag == Ist_Dirty && st->Ist.Dirty.details->mFx != Ifx_None);
    }
    BlockDesc *b = VG_(malloc)("pmutrace.block", sizeof *b);
    b->n_insns = b->n_accesses = b->n_slots = 0;
    VG_(memset)(&b->end, 0, sizeof b->end);
    b->insns = VG_(malloc)("pmutrace.insns", (2 * imarks + 1) * sizeof *b->insns);
    b->accesses = VG_(malloc)("pmutrace.accesses", (accesses + 2 * imarks + 1) * sizeof *b->accesses);
    return b;
}

/* Whether d's accesses have a fixed shape (InsnDesc.fixed). */
static Bool is_fixed(const BlockDesc *b, const InsnDesc *d)
{
    if (d->rep || d->region || d->n_accesses > PT_MAX_ACCESSES)
        return False;
    const AccessDesc *a = b->accesses + d->first_access;
    for (UInt i = 0; i < d->n_accesses; i++) {
        if (a[i].guarded)
            return False;
        for (UInt j = 0; j < d->n_accesses; j++)
            if (a[i].kind == PT_LOAD && a[j].kind == PT_STORE && a[i].size == a[j].size)
                return False;
    }
    return True;
}

/* Instruction k's exit run: the instructions from `first` to it (none
 * when first > k); the last instruction's is the superblock's end. */
static void set_exit_run(BlockDesc *b, UInt k, UInt first)
{
    const InsnDesc *d = &b->insns[k];
    ExitRun *x = k + 1 == b->n_insns ? &b->end : &b->insns[k].exit;
    VG_(memset)(x, 0, sizeof *x);
    if (first > k)
        return;
    x->n = k - first + 1;
    x->first = first;
    x->first_slot = b->insns[first].first_slot;
    x->n_slots = d->first_slot + d->n_accesses - x->first_slot;
    x->fall_through = d->addr + d->len;
    x->branch = d->branch;
}

/* Each instruction's InsnDesc.fixed and plain, once b is complete; then
 * the runs: the plain instructions cut after each branch, each run within
 * a trace block's limits (instructions, accesses), of 2 or more. */
static void finish_block(BlockDesc *b)
{
    for (UInt k = 0; k < b->n_insns; k++) {
        InsnDesc *d = &b->insns[k];
        d->fixed = is_fixed(b, d);
        d->plain = d->fixed && k + 1 < b->n_insns && d[1].addr == d->addr + d->len;
    }
    for (UInt k = 0; k < b->n_insns;) {
        UInt n = 0, accesses = 0;
        for (const InsnDesc *d = &b->insns[k];
             k + n < b->n_insns && d->plain && n < TRACE_MAX_BLOCK_INSNS &&
             accesses + d->n_accesses <= TRACE_MAX_BLOCK_ACCESSES;
             d++) {
            accesses += d->n_accesses;
            n++;
            if (d->branch != BR_NONE)
                break;
        }
        b->insns[k].run = (UChar)(n >= 2 ? n : 0);
        UInt segment = n ? n : 1;
        for (UInt j = 0; j < segment; j++)
            set_exit_run(b, k + j, b->insns[k + j].fixed ? k : k + j + 1);
        k += segment;
    }
    /* The last instruction (never plain) joins the plain instructions
     * before it when their run was not cut by a branch or a limit. */
    UInt n = b->n_insns;
    const InsnDesc *last = &b->insns[n - 1], *before = last - 1;
    if (n >= 2 && last->fixed && before->plain && before->branch == BR_NONE &&
        before->exit.n + 1 <= TRACE_MAX_BLOCK_INSNS &&
        before->exit.n_slots + last->n_accesses <= TRACE_MAX_BLOCK_ACCESSES)
        set_exit_run(b, n - 1, before->exit.first);
}

static IRSB *pt_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
                           const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
    (void)closure; (void)layout; (void)vge; (void)archinfo_host; (void)gWordTy; (void)hWordTy;
    IRSB *out = deepCopyIRSBExceptStmts(in);
    IRTypeEnv *env = in->tyenv;
    BlockDesc *b = new_block(in);
    Int i = 0;
    for (; i < in->stmts_used && in->stmts[i]->tag != Ist_IMark; i++)
        addStmtToIRSB(out, in->stmts[i]);
    for (; i < in->stmts_used; i++) {
        IRStmt *st = in->stmts[i];
        switch (st->tag) {
        case Ist_IMark: {
            /* Length 0: an instruction VEX could not decode (RDPMC among
             * them), which it ends the superblock at with SIGILL: never
             * executed, not recorded. */
            if (st->Ist.IMark.len == 0) {
                addStmtToIRSB(out, st);
                continue;
            }
            InsnDesc *d = new_insn(b, st);
            addStmtToIRSB(out, st);
            if (d->region)
                add_region_call(out, b, d);
            else if (is_call_pop(d))
                add_call_pop(out, b, d);
            else
                add_insn_begin(out, b, d);
            continue;
        }
        case Ist_WrTmp: {
            IRExpr *e = st->Ist.WrTmp.data;
            if (e->tag == Iex_Load)
                add_access(out, b, e->Iex.Load.addr, sizeofIRType(e->Iex.Load.ty), PT_LOAD, NULL);
            break;
        }
        case Ist_Store:
            add_access(out, b, st->Ist.Store.addr,
                       sizeofIRType(typeOfIRExpr(env, st->Ist.Store.data)), PT_STORE, NULL);
            break;
        case Ist_StoreG: {
            IRStoreG *sg = st->Ist.StoreG.details;
            add_access(out, b, sg->addr, sizeofIRType(typeOfIRExpr(env, sg->data)), PT_STORE,
                       sg->guard);
            break;
        }
        case Ist_LoadG: {
            IRLoadG *lg = st->Ist.LoadG.details;
            UInt size = 4;
            switch (lg->cvt) {
            case ILGop_IdentV128: size = 16; break;
            case ILGop_Ident64: size = 8; break;
            case ILGop_Ident32: size = 4; break;
            case ILGop_16Uto32: case ILGop_16Sto32: size = 2; break;
            case ILGop_8Uto32: case ILGop_8Sto32: size = 1; break;
            default: break;
            }
            add_access(out, b, lg->addr, size, PT_LOAD, lg->guard);
            break;
        }
        case Ist_Dirty: {
            IRDirty *d = st->Ist.Dirty.details;
            answer_cpuid_from_view(d);
            answer_rdtsc_from_model(d);
            if (d->mFx != Ifx_None) {
                UInt kind = d->mFx == Ifx_Read ? PT_LOAD : d->mFx == Ifx_Write ? PT_STORE
                                                                                : PT_MODIFY;
                add_access(out, b, d->mAddr, (UInt)d->mSize, kind, d->guard);
            }
            break;
        }
        case Ist_CAS: {
            IRCAS *cas = st->Ist.CAS.details;
            UInt size = sizeofIRType(typeOfIRExpr(env, cas->dataLo)) * (cas->dataHi ? 2 : 1);
            add_access(out, b, cas->addr, size, PT_MODIFY, NULL);
            break;
        }
        default:
            break;
        }
        addStmtToIRSB(out, st);
    }
    finish_block(b);
    return out;
}

/* ---- threads, signals, exit */

/* The environment valgrind gives the client differs from a native run's in
 * two variables: LD_PRELOAD starts with valgrind's core preload library, and
 * VALGRIND_LIB is set.  This tool needs nothing from the preload library (no
 * malloc replacement, no freeres), and the dynamic loader's work for it
 * (opening, mapping, one more object in every symbol lookup) and glibc's
 * scans of the longer environment would be recorded though a native run
 * never does them.  So before the first client instruction the initial
 * stack is edited: the library is cut out of LD_PRELOAD (the user's own
 * preloads stay), and when that leaves LD_PRELOAD empty, it and VALGRIND_LIB
 * are removed from envp by moving argc, argv and envp up two words (which
 * keeps the stack pointer's 16-byte alignment; auxv stays where it is;
 * 64-bit only: on i386 the two entries stay, LD_PRELOAD empty), and the
 * strings are laid out as the kernel lays them out (native_string_table). */

/* Linux's auxiliary vector entries that point into the string table
 * (<linux/auxvec.h>, <elf.h>). */
#define PT_AT_NULL 0
#define PT_AT_PLATFORM 15
#define PT_AT_BASE_PLATFORM 24
#define PT_AT_RANDOM 25
#define PT_AT_EXECFN 31

typedef struct {
    Addr type, val;
} AuxEntry;

static AuxEntry *aux_find(AuxEntry *aux, Addr type)
{
    for (; aux->type != PT_AT_NULL; aux++)
        if (aux->type == type)
            return aux;
    return NULL;
}

/* Copies len bytes from src into the image of [low, ...) at address at;
 * returns the address after them. */
static Addr place(UChar *image, Addr low, Addr at, const void *src, SizeT len)
{
    VG_(memcpy)(image + (at - low), src, len);
    return at + len;
}

/* The strings above the initial stack pointer, as the kernel lays them out
 * and valgrind does not (valgrind: argv, envp with LD_PRELOAD last, the
 * platform name, 16 random bytes, the program's path, ending at the top of
 * the stack).  The kernel (fs/exec.c, do_execveat_common and
 * copy_strings; fs/binfmt_elf.c, create_elf_tables) puts 8 zero bytes at the
 * top of the stack, the program's path (AT_EXECFN) below them, below that
 * the environment strings and the argument strings, argv[0] lowest, all
 * contiguous; the platform names and the random bytes go below those, at the
 * stack pointer aligned down to 16 bytes (less a random amount when the
 * stack is randomized).  Rebuilt that way, argv and envp strings lie at a
 * native run's addresses modulo the page size, and what follows the last
 * environment string is what follows it natively.  Both are read: glibc's
 * string functions take paths that depend on a string's alignment (the AVX2
 * ones check for a page crossing), so getenv, setlocale's strcasecmp of
 * LANG's value and the like ran other instructions; and glibc 2.36's parser
 * of the glibc.cpu.hwcaps tunable reads on past the end of GLIBC_TUNABLES
 * (record --env puts it last) through the strings after it, which were the
 * removed LD_PRELOAD string and the random bytes instead of the program's
 * path: some 600 instructions and 200 branches more (docs/traces.md,
 * "Where a recorded run differs from a native one").  `low` is the lowest
 * byte of valgrind's strings: the table is left as it is when the native
 * layout would need more room than valgrind's (it cannot: it lacks the two
 * removed strings, which are longer than the 8 zero bytes it adds). */
static void native_string_table(Addr *sp, Addr low)
{
    HChar **argv = (HChar **)(sp + 1), **env = argv + sp[0] + 1;
    Int argc = (Int)sp[0], n_env = 0;
    while (env[n_env])
        n_env++;
    AuxEntry *aux = (AuxEntry *)(env + n_env + 1), *execfn = aux_find(aux, PT_AT_EXECFN);
    /* Below the strings, in the kernel's order downwards. */
    AuxEntry *under[3] = {aux_find(aux, PT_AT_PLATFORM), aux_find(aux, PT_AT_BASE_PLATFORM),
                          aux_find(aux, PT_AT_RANDOM)};
    if (!execfn)
        return;
    Addr top = VG_(clstk_end) + 1, size = VG_(strlen)((HChar *)execfn->val) + 1 + 8;
    for (Int i = 0; i < argc; i++)
        size += VG_(strlen)(argv[i]) + 1;
    for (Int i = 0; i < n_env; i++)
        size += VG_(strlen)(env[i]) + 1;
    SizeT under_len[3];
    Addr start = top - size, bottom = start & ~(Addr)15;
    for (Int k = 0; k < 3; k++) {
        under_len[k] = !under[k] ? 0 : k == 2 ? 16 : VG_(strlen)((HChar *)under[k]->val) + 1;
        bottom -= under_len[k];
    }
    if (size > top - low || bottom < low)
        return;
    /* The new image of [low, top), made aside (old and new places overlap);
     * each pointer is changed once its string is copied. */
    UChar *image = VG_(calloc)("pmutrace.strings", 1, top - low);
    Addr at = start;
    for (Int i = 0; i < argc; i++) {
        Addr next = place(image, low, at, argv[i], VG_(strlen)(argv[i]) + 1);
        argv[i] = (HChar *)at;
        at = next;
    }
    for (Int i = 0; i < n_env; i++) {
        Addr next = place(image, low, at, env[i], VG_(strlen)(env[i]) + 1);
        env[i] = (HChar *)at;
        at = next;
    }
    place(image, low, at, (HChar *)execfn->val, VG_(strlen)((HChar *)execfn->val) + 1);
    execfn->val = at;
    at = start & ~(Addr)15;
    for (Int k = 0; k < 3; k++) {
        if (!under[k])
            continue;
        at -= under_len[k];
        place(image, low, at, (const void *)under[k]->val, under_len[k]);
        under[k]->val = at;
    }
    VG_(memcpy)((void *)low, image, top - low);
    VG_(free)(image);
}

/* valgrind gives the program the path it runs (its command line's program)
 * as argv[0]; natively argv[0] is the name the program was started by, which
 * execvp found in PATH: --pmutrace-argv0, the end of that path after a '/'.
 * argv[0] then points at that end of the path's string (which a native
 * layout copies on its own: native_string_table).  Not when an interpreter
 * (#!) comes first: argv[0] is the interpreter's then, and the script's path
 * follows, as natively. */
static void restore_argv0(ThreadId tid)
{
    Addr *sp = (Addr *)VG_(get_SP)(tid);
    if (!clo_argv0 || sp[0] == 0 || !VG_(args_the_exename))
        return;
    HChar *arg0 = (HChar *)sp[1];
    SizeT len = VG_(strlen)(arg0), name_len = VG_(strlen)(clo_argv0);
    if (VG_(strcmp)(arg0, VG_(args_the_exename)) == 0 && name_len < len &&
        arg0[len - name_len - 1] == '/' && VG_(strcmp)(arg0 + len - name_len, clo_argv0) == 0)
        sp[1] = (Addr)(arg0 + len - name_len);
}

/* The lowest address of the argument and environment strings valgrind
 * put on the initial stack. */
static Addr strings_low(ThreadId tid)
{
    Addr *sp = (Addr *)VG_(get_SP)(tid), low = VG_(clstk_end);
    for (Addr *p = sp + 1; p < sp + 1 + sp[0]; p++)
        low = *p < low ? *p : low;
    for (Addr *p = sp + 1 + sp[0] + 1; *p; p++)
        low = *p < low ? *p : low;
    return low;
}

static void clean_environment(ThreadId tid, Addr low)
{
    Addr *sp = (Addr *)VG_(get_SP)(tid);
    Addr argc = sp[0];
    Addr *env = sp + 1 + argc + 1, *preload = NULL, *vglib = NULL;
    Int n_env = 0;
    for (; env[n_env]; n_env++) {
        HChar *var = (HChar *)env[n_env];
        if (starts_with(var, "LD_PRELOAD=") && !preload)
            preload = &env[n_env];
        else if (starts_with(var, "VALGRIND_LIB=") && !vglib)
            vglib = &env[n_env];
    }
    if (!preload)
        return;
    HChar *value = (HChar *)*preload + 11, *end = value;
    while (*end && *end != ':')
        end++;
    HChar saved = *end;
    *end = '\0';
    Bool ours = VG_(strstr)(value, "/vgpreload_core-") != NULL;
    *end = saved;
    if (!ours)
        return;
    if (*end == ':')
        end++;
    VG_(memmove)(value, end, VG_(strlen)(end) + 1);
    if (*value || !vglib || !PT_ISA64)
        return; /* (the i386 ABI's alignment would need four words) */
    /* Remove the two entries: copy the words below them up by two. */
    Addr *first = preload < vglib ? preload : vglib, *second = preload < vglib ? vglib : preload;
    for (Addr *p = second; p > first + 1; p--)
        p[0] = p[-1];
    for (Addr *p = first + 1; p >= sp + 2; p--)
        p[0] = p[-2];
    Addr new_sp = (Addr)(sp + 2);
    native_string_table(sp + 2, low);
#if defined(VGA_amd64)
    VG_(set_shadow_regs_area)(tid, 0, offsetof(VexGuestAMD64State, guest_RSP), sizeof new_sp,
                              (const UChar *)&new_sp);
#else
    VG_(set_shadow_regs_area)(tid, 0, offsetof(VexGuestX86State, guest_ESP), sizeof new_sp,
                              (const UChar *)&new_sp);
#endif
}

static void pt_start_client_code(ThreadId tid, ULong blocks_done)
{
    (void)blocks_done;
    if (first_tid == VG_INVALID_THREADID) {
        first_tid = tid;
        Addr low = strings_low(tid);
        restore_argv0(tid);
        if (!clo_keep_env)
            clean_environment(tid, low);
    }
    if (tid == running_tid)
        return;
    /* The pending instruction's successor in its thread is where that
     * thread resumes.  (A thread stops between superblocks: the next one it
     * runs is entered anew.) */
    if (running_tid != VG_INVALID_THREADID && !in_child) {
        retire_running();
        if (pend) {
            if (clo_registers && VG_(is_valid_tid)(running_tid))
                take_thread_registers(running_tid);
            flush_pending(VG_(get_IP)(running_tid));
        }
    }
    cur_block = NULL;
    if (tid != first_tid)
        many_threads = True;
    running_tid = tid;
    running_thread = tid == first_tid ? 0 : 1;
}

/* SIGILL at the last instruction begun: an instruction that raises #UD
 * does not retire (Intel SDM Vol. 3A, 6.5: a fault is reported before the
 * instruction's execution), nor one valgrind cannot decode (VEX has no
 * RDPMC, for one: docs/emulate.md), which would not decode in a model
 * either; the instructions before it retire. */
static void retire_before_faulting(ThreadId tid)
{
    UInt begun = (UInt)(pt_progress >> PT_PROGRESS_SHIFT);
    if (!cur_block || begun == 0 || cur_block->insns[begun - 1].addr != VG_(get_IP)(tid))
        return;
    retire(begun - 1, cur_block->insns[begun - 1].first_slot);
    pt_progress = (UWord)(begun - 1) << PT_PROGRESS_SHIFT |
                  cur_block->insns[begun - 1].first_slot;
}

/* The superblock running is left (at the faulting instruction, for a
 * synchronous signal); the handler's first one is entered anew. */
static void pt_pre_deliver_signal(ThreadId tid, Int sig, Bool alt_stack)
{
    (void)alt_stack;
    if (in_child)
        return;
    if (sig == VKI_SIGILL)
        retire_before_faulting(tid);
    retire_running();
    cur_block = NULL;
    if (pend) {
        if (clo_registers)
            take_thread_registers(tid);
        flush_pending(VG_(get_IP)(tid));
    }
}

static void write_end(Bool killed, UInt code, UInt flags);
static void print_notes(void);

static Bool is_execve(UInt no)
{
    return no == __NR_execve || no == __NR_execveat;
}

/* An execve that may succeed (execve of an executable regular file, or any
 * execveat): the new program replaces valgrind's process (valgrind runs it
 * natively, --trace-children=no) and no exit hook runs, so the trace ends
 * here: the pending instruction (the system call) and an END record, status
 * exited, code 0 (the format has no status for an execve), written out now
 * in a frame flagged PT_FRAME_EXEC.  If the execve fails after all,
 * pt_post_syscall begins a new segment. */
/* valgrind's option `prefix` (e.g. "--pmutrace-fd=") set to `value` for
 * the valgrind of an execve. */
static void set_option_passed_on(const HChar *prefix, const HChar *value)
{
    Word n = VG_(sizeXA)(VG_(args_for_valgrind));
    for (Word i = 0; i < n; i++) {
        HChar **arg = VG_(indexXA)(VG_(args_for_valgrind), i);
        if (!starts_with(*arg, prefix))
            continue;
        HChar *set = VG_(malloc)("pmutrace.option", VG_(strlen)(prefix) + VG_(strlen)(value) + 1);
        VG_(strcpy)(set, prefix);
        VG_(strcat)(set, value);
        *arg = set; /* the old string is valgrind's (or one made here before) */
    }
}

/* Emulating, the program an execve runs is a process of the run too
 * (docs/emulate.md, "Children"): valgrind runs it under a new valgrind with
 * its own options (--trace-children=yes), which must name this tool's
 * descriptors of the two pipes, now in valgrind's reserved range and
 * close-on-exec (VG_(safe_fd)): they are kept open across the execve
 * (pt_post_syscall closes them on exec again if it fails), and the new
 * program's own name and argv[0] replace this one's (`argv`: the client's
 * argument vector, or 0). */
static void pass_on_pipes(UWord argv)
{
    HChar number[16];
    VG_(sprintf)(number, "%d", out_fd);
    set_option_passed_on("--pmutrace-fd=", number);
    VG_(sprintf)(number, "%d", clo_emulate_fd);
    set_option_passed_on("--pmutrace-emulate-fd=", number);
    set_option_passed_on("--pmutrace-program=", "");
    const HChar *const *args = (const HChar *const *)argv;
    set_option_passed_on("--pmutrace-argv0=", args && args[0] ? args[0] : "");
    VG_(fcntl)(out_fd, VKI_F_SETFD, 0);
    VG_(fcntl)(clo_emulate_fd, VKI_F_SETFD, 0);
}

static void trace_execve(UInt no, UWord *args, UInt n_args)
{
    if (no == __NR_execve) {
        struct vg_stat st;
        if (n_args < 1 || !args[0] || sr_isError(VG_(stat)((const HChar *)args[0], &st)) ||
            !VKI_S_ISREG(st.mode) || !(st.mode & 0111))
            return; /* fails: e.g. execvp trying the folders of PATH */
    }
    retire_running();
    flush_pending(0);
    write_end(False, 0, PT_FRAME_END | PT_FRAME_EXEC);
    exec_pending = True;
    print_notes();
    if (clo_emulate_fd >= 0)
        pass_on_pipes(no == __NR_execve ? args[1] : n_args > 2 ? args[2] : 0);
}

/* ---- the emulated /dev/cpu/N/msr (docs/emulate.md)
 *
 * With --pmutrace-emulate-fd, an open of /dev/cpu/N/msr (N 0 or 1) gets a
 * descriptor of /dev/null in its place, noted here; a pread64 or pwrite64
 * of it becomes MSR access records in the trace (the system call's
 * instruction first, with its fall-through as its target), flushed to the
 * pipe, and the tool waits on the descriptor of --pmutrace-emulate-fd for
 * each access's answer, which `pmubench emulate` writes once its model has
 * retired every instruction before the access: two little-endian words,
 * the value read and the status (0, or an errno).  The system call itself
 * then runs on /dev/null, harmless, and its result and the bytes read are
 * replaced after it, as the Linux msr driver (arch/x86/kernel/msr.c) gives
 * them: a count not a multiple of 8 is EINVAL; each 8 bytes are an access
 * of the MSR at the file offset; the first failed access (EIO: an MSR the
 * part does not have, a write that would #GP) ends the call, which returns
 * the bytes done before it, or the error when none. */

enum { PT_MAX_MSR_FDS = 16, PT_MSR_REPLY_SIZE = 16 };
/* The emulated MSR files open: each open of /dev/cpu/N/msr one (an open
 * file description: its logical processor and file position, shared by
 * the descriptors dup'd from it), and the descriptors that refer to them. */
typedef struct {
    UInt refs; /* descriptors referring to it; 0: a free slot */
    UChar cpu;
    Long pos;  /* the file position: the MSR of read and write */
} MsrFile;
static MsrFile msr_files[PT_MAX_MSR_FDS];
static struct { Int fd; MsrFile *file; } msr_fds[PT_MAX_MSR_FDS];
static Int n_msr_fds;

/* What the pending system call on an emulated MSR file returns, and the
 * bytes it stores (at most 64 values; a read's values, or _llseek's
 * position). */
static struct {
    Bool active;
    Long result;
    Addr buffer;
    UInt bytes;
    ULong values[64];
} msr_call;

/* The emulated MSR file of a descriptor, or NULL. */
static MsrFile *msr_file_of(UWord fd)
{
    for (Int i = 0; i < n_msr_fds; i++)
        if ((UWord)msr_fds[i].fd == fd)
            return msr_fds[i].file;
    return NULL;
}

/* Notes `fd` as referring to `file`; false when the table is full. */
static Bool msr_note_fd(Int fd, MsrFile *file)
{
    if (n_msr_fds == PT_MAX_MSR_FDS)
        return False;
    msr_fds[n_msr_fds].fd = fd;
    msr_fds[n_msr_fds++].file = file;
    file->refs++;
    return True;
}

/* A close (or a dup2 over it) of a noted descriptor forgets it, and its
 * file with its last descriptor. */
static void msr_forget(UWord fd)
{
    for (Int i = 0; i < n_msr_fds; i++)
        if ((UWord)msr_fds[i].fd == fd) {
            msr_fds[i].file->refs--;
            msr_fds[i] = msr_fds[--n_msr_fds];
            return;
        }
}

/* The N of "/dev/cpu/N/msr" (0 or 1), or -1. */
static Int msr_path_cpu(Addr path)
{
    static const HChar prefix[] = "/dev/cpu/";
    if (!path || !VG_(am_is_valid_for_client)(path, 16, VKI_PROT_READ))
        return -1;
    const HChar *p = (const HChar *)path;
    if (VG_(strncmp)(p, prefix, sizeof prefix - 1) != 0)
        return -1;
    p += sizeof prefix - 1;
    if ((p[0] != '0' && p[0] != '1') || VG_(strcmp)(p + 1, "/msr") != 0)
        return -1;
    return p[0] - '0';
}

static void set_result(ThreadId tid, Long value)
{
#if PT_ISA64
    VG_(set_shadow_regs_area)(tid, 0, offsetof(VexGuestAMD64State, guest_RAX), 8,
                              (const UChar *)&value);
#else
    UInt v = (UInt)value;
    VG_(set_shadow_regs_area)(tid, 0, offsetof(VexGuestX86State, guest_EAX), 4,
                              (const UChar *)&v);
#endif
}

/* One access through the trace and its answer; the status (0 or an
 * errno). */
static Long msr_request(const struct trace_msr *access, ULong next, ULong *value)
{
    if (!writer || writer_refused || !trace_write_msr(writer, access, next) ||
        !trace_writer_flush(writer)) {
        writer_refused = True;
        return VKI_EIO;
    }
    out_flush(0);
    UChar reply[PT_MSR_REPLY_SIZE];
    Int got = 0;
    while (got < PT_MSR_REPLY_SIZE) {
        Int n = VG_(read)(clo_emulate_fd, reply + got, PT_MSR_REPLY_SIZE - got);
        if (n <= 0) {
            VG_(umsg)("pmutrace: no answer from pmubench to an MSR access\n");
            VG_(exit)(1);
        }
        got += n;
    }
    ULong words[2] = {0, 0};
    for (Int i = 0; i < PT_MSR_REPLY_SIZE; i++)
        words[i / 8] |= (ULong)reply[i] << (8 * (i % 8));
    *value = words[0];
    return (Long)words[1];
}

/* Writes every instruction the running superblock has begun, the last
 * (the one making the request) with its fall-through as its target, which
 * is returned: the model then retires them all before the request. */
static ULong retire_through_running(void)
{
    retire_running();
    ULong next = pend ? pend->addr + pend->len : 0;
    flush_pending(next);
    return next;
}

/* ---- RDTSC: the simulated clock
 *
 * Valgrind runs RDTSC as a call of its helper (`amd64g_dirtyhelper_RDTSC`,
 * `x86g_dirtyhelper_RDTSC`: no argument, the 64-bit count returned) and
 * RDTSCP as one of `amd64g_dirtyhelper_RDTSCP` (the guest state: RDX:RAX
 * the count, RCX IA32_TSC_AUX).  When emulating, those calls are pointed
 * at tsc_model and tscp_model, which write an RDTSC record after every
 * instruction before it and wait for the answer: the cycle at which the
 * model has retired them, as a read of MSR 0x10 gives it.  IA32_TSC_AUX
 * reads 0 (never written).  A forked child, not recorded, reads the host's
 * clock. */
static ULong tsc_model(void)
{
    if (in_child) {
        UInt lo, hi;
        __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
        return (ULong)hi << 32 | lo;
    }
    ULong next = retire_through_running();
    struct trace_msr access = {.op = TRACE_MSR_RDTSC, .cpu = (uint8_t)running_thread};
    ULong value = 0;
    msr_request(&access, next, &value);
    return value;
}

#if PT_ISA64
static void tscp_model(VexGuestAMD64State *g)
{
    ULong tsc = tsc_model();
    g->guest_RAX = tsc & 0xffffffffu;
    g->guest_RDX = tsc >> 32;
    g->guest_RCX = 0;
}
#endif

static void answer_rdtsc_from_model(IRDirty *d)
{
    if (clo_emulate_fd < 0)
        return;
    const HChar *name = d->cee->name;
    if (VG_(strcmp)(name, PT_ISA64 ? "amd64g_dirtyhelper_RDTSC" : "x86g_dirtyhelper_RDTSC") == 0)
        d->cee = mkIRCallee(d->cee->regparms, "pmutrace_tsc", VG_(fnptr_to_fnentry)(&tsc_model));
#if PT_ISA64
    else if (VG_(strcmp)(name, "amd64g_dirtyhelper_RDTSCP") == 0)
        d->cee = mkIRCallee(d->cee->regparms, "pmutrace_tscp", VG_(fnptr_to_fnentry)(&tscp_model));
#endif
}

/* A transfer of `count` bytes at `buffer` on an emulated MSR file at
 * offset `msr` (pread64, pwrite64 or read, write at the file position):
 * its accesses, the result noted for pt_post_syscall. */
static void msr_pre_rw(Bool write, Int cpu, UInt msr, Addr buffer, UWord count)
{
    msr_call.active = True;
    msr_call.buffer = buffer;
    msr_call.bytes = 0;
    if (count % 8 != 0) {
        msr_call.result = -VKI_EINVAL;
        return;
    }
    if (count / 8 > 64)
        count = 64 * 8;
    ULong next = retire_through_running();
    Long status = 0;
    UInt done = 0;
    for (; done < count / 8; done++) {
        struct trace_msr access = {.op = write ? TRACE_MSR_WRITE : TRACE_MSR_READ,
                                   .cpu = (uint8_t)cpu, .msr = msr};
        if (write) {
            if (!VG_(am_is_valid_for_client)(buffer + 8 * done, 8, VKI_PROT_READ)) {
                status = VKI_EFAULT;
                break;
            }
            access.value = *(const ULong *)(buffer + 8 * done);
        }
        status = msr_request(&access, next, &msr_call.values[done]);
        if (status)
            break;
    }
    msr_call.bytes = write ? 0 : done * 8;
    msr_call.result = done ? (Long)done * 8 : -status;
}

/* After the system call on /dev/null: its result and the bytes it
 * stores replaced. */
static void msr_post_rw(ThreadId tid)
{
    msr_call.active = False;
    if (msr_call.bytes && VG_(am_is_valid_for_client)(msr_call.buffer, msr_call.bytes,
                                                      VKI_PROT_WRITE))
        VG_(memcpy)((void *)msr_call.buffer, msr_call.values, msr_call.bytes);
    else if (msr_call.bytes)
        msr_call.result = -VKI_EFAULT;
    set_result(tid, msr_call.result);
}


/* After an open or openat of /dev/cpu/N/msr: whatever the kernel did,
 * the program gets a descriptor of /dev/null, noted as a new file of CPU
 * N at position 0, or ENXIO for a CPU the machine does not have. */
static void msr_post_open(ThreadId tid, Int cpu, SysRes res)
{
    if (!sr_isError(res))
        VG_(close)((Int)sr_Res(res));
    if (cpu >= clo_cpus) { /* the driver's msr_open refuses a CPU that does not exist */
        set_result(tid, -VKI_ENXIO);
        return;
    }
    SysRes null = VG_(open)("/dev/null", VKI_O_RDWR, 0);
    MsrFile *file = NULL;
    for (Int i = 0; i < PT_MAX_MSR_FDS && !file; i++)
        if (msr_files[i].refs == 0)
            file = &msr_files[i];
    if (sr_isError(null) || !file || !msr_note_fd((Int)sr_Res(null), file)) {
        if (!sr_isError(null))
            VG_(close)((Int)sr_Res(null));
        set_result(tid, -VKI_EMFILE);
        return;
    }
    file->cpu = (UChar)cpu;
    file->pos = 0;
    set_result(tid, (Long)sr_Res(null));
}

/* An lseek of an emulated MSR file, as the driver's msr_seek: SEEK_SET and
 * SEEK_CUR move the position, anything else is EINVAL.  /dev/null's own
 * lseek then runs (it keeps position 0), and its result is replaced. */
static void msr_pre_seek(MsrFile *file, Long offset, UWord whence, Addr result_at)
{
    msr_call.active = True;
    msr_call.bytes = 0;
    if (whence != 0 && whence != 1) {
        msr_call.result = -VKI_EINVAL;
        return;
    }
    file->pos = whence == 0 ? offset : file->pos + offset;
    msr_call.result = file->pos;
    if (result_at) { /* i386's _llseek: the position stored, 0 returned */
        msr_call.buffer = result_at;
        msr_call.bytes = 8;
        msr_call.values[0] = (ULong)file->pos;
        msr_call.result = 0;
    }
}

/* After a dup, dup2, dup3 or fcntl F_DUPFD(_CLOEXEC) that made `fd` a copy
 * of `old`: `fd` refers to old's file, when it is an emulated one (and not
 * to the file it referred to before a dup2 over it). */
static void msr_post_dup(UWord old, SysRes res)
{
    if (sr_isError(res) || (UWord)sr_Res(res) == old)
        return;
    msr_forget(sr_Res(res));
    MsrFile *file = msr_file_of(old);
    if (file)
        msr_note_fd((Int)sr_Res(res), file);
}

static Bool is_dup(UInt no, UWord *args, UInt n_args)
{
    if (no == __NR_dup || no == __NR_dup3)
        return True;
#if defined(__NR_dup2)
    if (no == __NR_dup2)
        return True;
#endif
#if defined(__NR_fcntl64)
    if (no == __NR_fcntl64 && n_args >= 2)
        return args[1] == VKI_F_DUPFD || args[1] == VKI_F_DUPFD_CLOEXEC;
#endif
    return no == __NR_fcntl && n_args >= 2 &&
           (args[1] == VKI_F_DUPFD || args[1] == VKI_F_DUPFD_CLOEXEC);
}

/* The system calls on an emulated MSR file that the tool answers: the
 * transfers, with the file's position for read and write (the driver's
 * `u32 reg = *ppos`, which it never advances), and lseek. */
static Bool msr_pre_file_call(UInt no, UWord *args, UInt n_args)
{
    MsrFile *file = n_args >= 3 ? msr_file_of(args[0]) : NULL;
    if (!file)
        return False;
    if ((no == __NR_pread64 || no == __NR_pwrite64) && n_args >= 4)
        msr_pre_rw(no == __NR_pwrite64, file->cpu, (UInt)args[3], args[1], args[2]);
    else if (no == __NR_read || no == __NR_write)
        msr_pre_rw(no == __NR_write, file->cpu, (UInt)file->pos, args[1], args[2]);
    else if (no == __NR_lseek)
        msr_pre_seek(file, (Long)(Word)args[1], args[2], 0);
#if defined(__NR__llseek)
    else if (no == __NR__llseek && n_args >= 5)
        msr_pre_seek(file, (Long)((ULong)args[1] << 32 | (UInt)args[2]), args[4], args[3]);
#endif
    else
        return False;
    return True;
}

static Bool is_open(UInt no)
{
#if defined(__NR_open)
    if (no == __NR_open)
        return True;
#endif
    return no == __NR_openat;
}

static void pt_pre_syscall(ThreadId tid, UInt no, UWord *args, UInt n_args)
{
    (void)tid;
    if (in_child || n_args < 1)
        return;
    if (clo_emulate_fd >= 0 && msr_pre_file_call(no, args, n_args))
        return;
    if (clo_emulate_fd >= 0 && no == __NR_close)
        msr_forget(args[0]);
    /* The plain exit of the last living thread ends the process as
     * exit_group does (e.g. syscall(SYS_exit, 9) in a single-threaded
     * program); another thread's exit does not. */
    if (no == __NR_exit_group || (no == __NR_exit && VG_(count_living_threads)() <= 1)) {
        exited = True;
        exit_code = (UInt)(args[0] & 0xff);
    } else if (is_execve(no)) {
        trace_execve(no, args, n_args);
    }
}

static void pt_post_syscall(ThreadId tid, UInt no, UWord *args, UInt n_args, SysRes res)
{
    if (in_child)
        return;
    if (msr_call.active) {
        msr_post_rw(tid);
        return;
    }
    if (clo_emulate_fd >= 0 && is_dup(no, args, n_args))
        msr_post_dup(args[0], res);
    if (clo_emulate_fd >= 0 && is_open(no) && n_args >= 2) {
        Int cpu = msr_path_cpu(no == __NR_openat ? args[1] : args[0]);
        if (cpu >= 0)
            msr_post_open(tid, cpu, res);
    }
    /* Back here after an execve: it failed.  The recording goes on in a new
     * segment. */
    if (exec_pending && is_execve(no)) {
        exec_pending = False;
        if (clo_emulate_fd >= 0) {
            VG_(fcntl)(out_fd, VKI_F_SETFD, VKI_FD_CLOEXEC);
            VG_(fcntl)(clo_emulate_fd, VKI_F_SETFD, VKI_FD_CLOEXEC);
        }
        begin_segment();
    }
}

/* Before a fork (or vfork, clone without CLONE_VM), emulating: the trace
 * so far to the pipe, the system call's instruction last, so that the
 * child's segment follows everything the parent did before it
 * (docs/emulate.md, "Children"). */
static void pt_atfork_pre(ThreadId tid)
{
    (void)tid;
    if (clo_emulate_fd < 0 || in_child || !writer)
        return;
    ULong next = retire_through_running();
    if (!writer_refused && !trace_writer_flush_all(writer, next))
        writer_refused = True;
    out_flush(0);
}

/* The child of a fork.  Recording, the parent goes on writing the trace;
 * the child stops recording (its instructions are not recorded, its exit
 * writes no END record), drops its copy of the buffer and closes its copy
 * of the pipe.  Emulating, the child is a process of the run: it begins
 * its own segment on the pipe, from the instruction after the fork, with
 * a new writer (the parent's copy is left as it is). */
static void pt_atfork_child(ThreadId tid)
{
    opos = PT_FRAME_HEADER_SIZE;
    writer = NULL;
    writer_refused = False;
    pend = NULL;
    pend_has_regs = False;
    n_acc = 0;
    cur_block = NULL;
    skipping = False;
    exec_pending = False;
    exited = False;
    if (clo_emulate_fd >= 0) {
        out_pid = (UInt)VG_(getpid)();
        first_tid = running_tid = tid;
        running_thread = 0;
        begin_segment();
        return;
    }
    in_child = True;
    if (out_fd >= 0)
        VG_(close)(out_fd);
    out_fd = -1;
}

/* ---- options, start, end */

static Bool pt_process_option(const HChar *arg)
{
    if VG_INT_CLO (arg, "--pmutrace-fd", clo_fd) {
    } else if VG_INT_CLO (arg, "--pmutrace-emulate-fd", clo_emulate_fd) {
    } else if VG_BINT_CLO (arg, "--pmutrace-cpus", clo_cpus, 1, 2) {
    } else if VG_STR_CLO (arg, "--pmutrace-program", clo_program) {
    } else if VG_STR_CLO (arg, "--pmutrace-argv0", clo_argv0) {
    } else if VG_BOOL_CLO (arg, "--pmutrace-keep-env", clo_keep_env) {
    } else if VG_BOOL_CLO (arg, "--pmutrace-registers", clo_registers) {
    } else if VG_STR_CLO (arg, "--pmutrace-cpu", clo_cpu) {
    } else if VG_STR_CLO (arg, "--pmutrace-cpuid", clo_cpuid) {
    } else
        return False;
    return True;
}

static void pt_print_usage(void)
{
    VG_(printf)("    --pmutrace-fd=N           write the trace's frames to file descriptor N,\n"
                "                              a pipe `pmubench record` reads [required]\n"
                "    --pmutrace-emulate-fd=N   emulate /dev/cpu/N/msr: the trace unframed,\n"
                "                              with its MSR accesses, answered on descriptor N\n"
                "                              by `pmubench emulate` [none]\n"
                "    --pmutrace-cpus=1|2       the emulated machine's logical processors:\n"
                "                              /dev/cpu/N/msr opens for N below it [1]\n"
                "    --pmutrace-keep-env=no|yes  leave valgrind's LD_PRELOAD and VALGRIND_LIB\n"
                "                              in the client's environment [no]\n"
                "    --pmutrace-registers=no|yes  record the general registers and flags\n"
                "                              after every instruction [no]\n"
                "    --pmutrace-program=PATH   the program's path for the trace header\n"
                "                              [the path valgrind was given]\n"
                "    --pmutrace-argv0=NAME     the program's argv[0], the name it was started\n"
                "                              by [the path valgrind was given]\n"
                "    --pmutrace-cpu=NAME       the CPU view's name, for the trace header\n"
                "    --pmutrace-cpuid=HEX      the CPU view: CPUID answers from this table of\n"
                "                              leaves, 48 hex digits each (leaf, subleaf,\n"
                "                              EAX, EBX, ECX, EDX) [valgrind's own CPU]\n");
}

static void pt_print_debug_usage(void)
{
    VG_(printf)("    (none)\n");
}

/* A bad option value: one line, and the run ends (VG_(fmsg_bad_option)
 * ends it only while the command line is parsed, not here). */
static void bad_option(const HChar *option, const HChar *why)
{
    VG_(fmsg)("pmutrace: %s: %s\n", option, why);
    VG_(exit)(2);
}

static void pt_post_clo_init(void)
{
    if (clo_fd < 0)
        bad_option("--pmutrace-fd", "pmutrace needs --pmutrace-fd=N");
    if (clo_cpuid && !decode_cpu_view(clo_cpuid))
        bad_option("--pmutrace-cpuid",
                   "expected 48 hex digits a CPUID leaf, leaf 0 first, in increasing order");
    if (cpu_view.n > 0 && (!clo_cpu || !*clo_cpu || VG_(strlen)(clo_cpu) >= CPU_VIEW_MAX_NAME))
        bad_option("--pmutrace-cpu", "a CPU view needs its name (1-31 bytes)");
    if (cpu_view.n > 0)
        VG_(strcpy)(cpu_view.name, clo_cpu);
    /* No superblock chasing: with it VEX also recognises the AND/OR idiom
     * (a conditional branch whose fall-through is a conditional branch to
     * the same target) and merges both into one block that evaluates the
     * second speculatively, so its IMarks run, and the instructions would
     * be recorded, also when the first branch is taken (docs/traces.md,
     * "Mechanism, and why"). */
    VG_(clo_vex_control).guest_chase = False;
    /* VEX's optimiser, which runs before the tool sees a block, by default
     * (unwindregs-at-mem-access) drops a guest register write that a later
     * instruction of the block overwrites before anything reads it, and
     * then a load whose result only that write used: the load would be
     * missing from the trace (docs/traces.md, "Recording registers").
     * allregs-at-mem-access keeps every register up to date at each memory
     * access, so such loads stay.  With registers, every register (the
     * flags thunk too) is written back at every instruction boundary
     * (allregs-at-each-insn), or the state at the next instruction's start
     * would miss a write (cmp then stc; std then cld); and
     * declare_register_reads() keeps the writes the tool's calls read. */
    VG_(clo_vex_control).iropt_register_updates_default =
        clo_registers ? VexRegUpdAllregsAtEachInsn : VexRegUpdAllregsAtMemAccess;
    struct vg_stat st;
    if (VG_(fstat)(clo_fd, &st) != 0) {
        VG_(fmsg)("pmutrace: --pmutrace-fd=%d: not an open file descriptor\n", clo_fd);
        VG_(exit)(2);
    }
    /* In valgrind's reserved range, close-on-exec: the program sees the
     * file descriptors of a native run, and a program it execs none. */
    out_fd = VG_(safe_fd)(clo_fd);
    if (clo_emulate_fd >= 0) {
        if (VG_(fstat)(clo_emulate_fd, &st) != 0) {
            VG_(fmsg)("pmutrace: --pmutrace-emulate-fd=%d: not an open file descriptor\n",
                      clo_emulate_fd);
            VG_(exit)(2);
        }
        clo_emulate_fd = VG_(safe_fd)(clo_emulate_fd);
    }
    obuf = VG_(malloc)("pmutrace.out", OBUF_SIZE);
    out_pid = (UInt)VG_(getpid)();
    begin_segment();
}

/* The END record, written out now alone in a frame flagged PT_FRAME_END
 * and `flags`, after a frame with everything before it; the writer is
 * closed.  None when the writer refused an instruction: the trace is
 * broken, and `pmubench record` says so. */
static void write_end(Bool killed, UInt code, UInt flags)
{
    if (!writer)
        return;
    struct trace_end end = {.status = killed ? TRACE_KILLED : TRACE_EXITED, .code = code};
    if (!writer_refused && trace_writer_finish(writer)) {
        out_flush(0);
        if (trace_write_end(writer, &end))
            out_flush(PT_FRAME_END | flags);
    }
    out_flush(0);
    trace_writer_close(writer);
    writer = NULL;
}

static void print_notes(void)
{
    if (out_failed)
        VG_(umsg)("pmutrace: writing the trace failed\n");
    if (dropped_accesses)
        VG_(umsg)("pmutrace: %llu data accesses beyond %d in one instruction were dropped\n",
                  dropped_accesses, PT_MAX_ACCESSES);
    if (regions_dropped)
        VG_(umsg)("pmutrace: %llu region markers beyond %d after a taken branch were dropped\n",
                  regions_dropped, PT_MAX_MARKERS);
    if (many_threads)
        VG_(umsg)("pmutrace: the program ran several threads; all but the first are "
                  "recorded as thread 1\n");
}

/* valgrind's fini gets no exit code: the exit status comes from the
 * exit_group system call (or the last thread's exit).  Without one the
 * program was killed by a signal: status 1 and code 0, which `pmubench
 * record` replaces with the signal number it learns from waitpid. */
static void pt_fini(Int exitcode)
{
    (void)exitcode;
    if (in_child)
        return; /* a forked child: the parent ends the trace */
    retire_running();
    flush_pending(0);
    write_end(!exited, exited ? exit_code : 0, 0);
    VG_(close)(out_fd);
    print_notes();
}

static void pt_pre_clo_init(void)
{
    VG_(details_name)("pmutrace");
    VG_(details_version)("1");
    VG_(details_description)("the pmubench trace recorder");
    VG_(details_copyright_author)("pmubench");
    VG_(details_bug_reports_to)("the pmubench project");
    VG_(details_avg_translation_sizeB)(400);
    VG_(basic_tool_funcs)(pt_post_clo_init, pt_instrument, pt_fini);
    VG_(needs_command_line_options)(pt_process_option, pt_print_usage, pt_print_debug_usage);
    VG_(needs_syscall_wrapper)(pt_pre_syscall, pt_post_syscall);
    VG_(track_start_client_code)(pt_start_client_code);
    VG_(track_pre_deliver_signal)(pt_pre_deliver_signal);
    VG_(atfork)(pt_atfork_pre, NULL, pt_atfork_child);
}

VG_DETERMINE_INTERFACE_VERSION(pt_pre_clo_init)
