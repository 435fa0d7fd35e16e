/*
 * stepcount: a native reference count of a program's user-mode
 * instructions and branches by ptrace single-stepping (docs/traces.md,
 * "Accuracy tests and the benchmark").  It is independent of the recorder
 * and of isa/: its own small classifier reads each instruction's first
 * bytes.  (It uses the library only to read a trace's header, for
 * --cpu-of.)
 *
 *   stepcount [-o FILE] [-p FILE] [--cpu-of TRACE] [--no-vdso] [--]
 *             PROGRAM [ARGS...]
 *
 * Runs PROGRAM (found through PATH, with this process's environment) under
 * PTRACE_TRACEME, single-steps it from its first user-mode instruction
 * after execve (the dynamic loader's, or a static program's _start) to its
 * exit, and prints "INSTRUCTIONS BRANCHES" on stdout (or into FILE with
 * -o) after the program's own output.  Exit status: the program's, 128 +
 * the signal if one killed it, 127 when it cannot be run, 2 for bad
 * arguments, an unreadable TRACE or a ptrace failure.  -p FILE writes a
 * profile: per executed address, its mapping (file and offset, from
 * /proc/PID/maps at the exit) and its count, for comparing with a trace
 * address by address.  (The -p output format: see write_profile.)
 *
 * So that the native run executes the instructions a recording of the same
 * program executed (docs/traces.md, "Where a recorded run differs from a
 * native one"):
 *  --cpu-of TRACE  the program sees the CPU the recording of TRACE saw
 *      (the CPU view in its header, traces/cpu_view.h): a CPUID (0F A2) is
 *      not stepped but answered from the view (cpu_view_answer for EAX and
 *      ECX; RAX..RDX zero-extended in 64-bit mode, their low halves set in
 *      32-bit mode), RIP advanced past it, and counted as one instruction,
 *      not a branch, as if it had executed; so is an XGETBV (0F 01 D0)
 *      with ECX = 0 when the view has an XCR0 (cpu_view_xcr0: EDX:EAX).
 *      Only these plain encodings: a CPUID or XGETBV behind a prefix
 *      (redundant, but legal) is stepped and gets the host's answer; so
 *      does one stepped with a signal to deliver (the step may run it).
 *      And an XSAVE, XSAVEC, XSAVEOPT or XRSTOR is stepped with EDX:EAX
 *      masked by the view's XCR0 (put back after the step): it acts on
 *      EDX:EAX & the host's XCR0, and where the host has state components
 *      the view lacks (AVX-512) it would write past the area the program
 *      sized from the view's CPUID leaf 0xD (glibc's lazy-binding
 *      trampoline saves with a fixed mask that includes AVX-512's
 *      components: a SIGSEGV).  A trace without a view (cpu.n == 0)
 *      changes nothing, silently.
 *  --no-vdso  the program runs without the vDSO, as under valgrind: at
 *      each stop after an execve, before the new program's first
 *      instruction, the AT_SYSINFO_EHDR and AT_SYSINFO entries of its
 *      auxiliary vector (on its initial stack, after argc, argv and envp)
 *      become AT_IGNORE, so the C library neither sets the vDSO up nor
 *      calls __kernel_vsyscall (the vDSO stays mapped, unused).
 *
 * What counts, as the hardware's instructions:u and branches:u count:
 *  - every instruction that completes one step, including those in the vDSO
 *    and the system call instructions themselves (one step each: the
 *    kernel reports a single-step over SYSCALL/SYSENTER/INT 80 once, at
 *    the instruction after it), and each CPUID or XGETBV answered from
 *    the view (one, not stepped);
 *  - a REP-prefixed string instruction (F2/F3 and MOVS, STOS, CMPS, SCAS,
 *    LODS, INS, OUTS) traps after every iteration with the PC unchanged:
 *    it counts once, at its first step;
 *  - branches (BR_INST_RETIRED.ALL_BRANCHES): Jcc, JCXZ/JECXZ/JRCXZ,
 *    LOOP/LOOPE/LOOPNE, JMP rel and r/m, CALL rel and r/m, RET (near and
 *    far), far JMP/CALL, IRET, INT n, INT3, INTO, INT1, SYSCALL, SYSENTER;
 *    a conditional branch counts whether taken or not.
 * An execve goes on into the new program (perf counts it too).  The tracer
 * is x86-64 Linux (user_regs_struct): it steps 64-bit and i386 programs,
 * telling them apart by CS (0x33 64-bit, 0x23 32-bit).
 * Not handled: self-modifying code (instruction bytes are cached per address
 * until the next system call), threads and child processes (not stepped:
 * a note on stderr says their instructions are missing), a program's own
 * SIGTRAP from INT3 (taken for a step trap).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "traces/trace.h"

#if !defined(__x86_64__) || !defined(__linux__)
#error "stepcount steps x86 programs from an x86-64 Linux tracer"
#endif

#define CLS_BRANCH 1u  /* a branch */
#define CLS_REP 2u     /* a REP-prefixed string instruction */
#define CLS_SYSCALL 4u /* SYSCALL, SYSENTER, INT n: may change the mappings */
#define CLS_CPUID 8u   /* CPUID, plain (0F A2 at the PC) */
#define CLS_XGETBV 16u /* XGETBV, plain (0F 01 D0 at the PC) */
#define CLS_XSAVE 32u  /* XSAVE, XSAVEC, XSAVEOPT, XRSTOR: the state EDX:EAX & XCR0 */

/* classify: the CLS_* bits of the instruction whose first bytes are b[0..n-1],
 * in 64-bit mode when is64.  Prefixes are skipped (REX only in 64-bit
 * mode, where 40-4F are REX; in 32-bit mode they are INC/DEC). */
static unsigned classify(const uint8_t *b, int n, int is64)
{
    int i = 0, rep = 0;
    for (; i < n && i < 15; i++) {
        uint8_t p = b[i];
        if (p == 0xf2 || p == 0xf3)
            rep = 1;
        else if (p != 0x66 && p != 0x67 && p != 0x2e && p != 0x36 && p != 0x3e && p != 0x26 &&
                 p != 0x64 && p != 0x65 && p != 0xf0 && !(is64 && (p & 0xf0) == 0x40))
            break;
    }
    if (i >= n)
        return 0;
    uint8_t op = b[i];
    uint8_t next = i + 1 < n ? b[i + 1] : 0;
    unsigned reg = (next >> 3) & 7;
    switch (op) {
    case 0x70: case 0x71: case 0x72: case 0x73: case 0x74: case 0x75: case 0x76: case 0x77:
    case 0x78: case 0x79: case 0x7a: case 0x7b: case 0x7c: case 0x7d: case 0x7e: case 0x7f:
    case 0xe0: case 0xe1: case 0xe2: case 0xe3: /* Jcc rel8, LOOPNE, LOOPE, LOOP, JCXZ */
    case 0xe8: case 0xe9: case 0xeb:            /* CALL rel, JMP rel */
    case 0xc2: case 0xc3: case 0xca: case 0xcb: /* RET, RET imm16, far RET */
    case 0xcf: case 0xcc:                       /* IRET, INT3 */
    case 0xf1:                                  /* INT1 */
        return CLS_BRANCH;
    case 0xcd: /* INT n: a system call on i386 when n is 0x80 */
        return CLS_BRANCH | CLS_SYSCALL;
    case 0x9a: case 0xea: case 0xce: /* far CALL, far JMP, INTO: 32-bit only */
        return is64 ? 0 : CLS_BRANCH;
    case 0xff: /* /2 CALL r/m, /3 far CALL m, /4 JMP r/m, /5 far JMP m */
        return i + 1 < n && reg >= 2 && reg <= 5 ? CLS_BRANCH : 0;
    case 0x0f:
        if (i + 1 >= n)
            return 0;
        if (next >= 0x80 && next <= 0x8f) /* Jcc rel32 */
            return CLS_BRANCH;
        if (next == 0x05 || next == 0x34) /* SYSCALL, SYSENTER */
            return CLS_BRANCH | CLS_SYSCALL;
        return 0;
    case 0xa4: case 0xa5: case 0xa6: case 0xa7: /* MOVS, CMPS */
    case 0xaa: case 0xab: case 0xac: case 0xad: /* STOS, LODS */
    case 0xae: case 0xaf:                       /* SCAS */
    case 0x6c: case 0x6d: case 0x6e: case 0x6f: /* INS, OUTS */
        return rep ? CLS_REP : 0;
    default:
        return 0;
    }
}

/* The CLS_CPUID or CLS_XGETBV bit of the instruction whose bytes are
 * b[0..n-1] when it is a plain CPUID or XGETBV (no prefix), else 0. */
static unsigned classify_cpu(const uint8_t *b, int n)
{
    if (n >= 2 && b[0] == 0x0f && b[1] == 0xa2)
        return CLS_CPUID;
    if (n >= 3 && b[0] == 0x0f && b[1] == 0x01 && b[2] == 0xd0)
        return CLS_XGETBV;
    return 0;
}

/* CLS_XSAVE for XSAVE, XRSTOR, XSAVEOPT (0F AE /4 /5 /6) and XSAVEC (0F
 * C7 /4), memory operands, behind segment, address-size and (64-bit) REX
 * prefixes; 66, F2 and F3 make other instructions of these opcodes. */
static unsigned classify_xsave(const uint8_t *b, int n, int is64)
{
    int i = 0;
    while (i < n && i < 14 &&
           (b[i] == 0x26 || b[i] == 0x2e || b[i] == 0x36 || b[i] == 0x3e || b[i] == 0x64 ||
            b[i] == 0x65 || b[i] == 0x67 || (is64 && (b[i] & 0xf0) == 0x40)))
        i++;
    if (i + 2 >= n || b[i] != 0x0f || b[i + 2] >= 0xc0)
        return 0;
    unsigned reg = (b[i + 2] >> 3) & 7;
    if ((b[i + 1] == 0xae && reg >= 4 && reg <= 6) || (b[i + 1] == 0xc7 && reg == 4))
        return CLS_XSAVE;
    return 0;
}

/* Per-address entries: the classification (valid while gen is current)
 * and the execution count for the profile. */
struct entry {
    uint64_t pc;   /* 0: empty (no instruction executes at address 0 here) */
    uint64_t count;
    uint32_t gen;
    uint8_t cls;
};

static struct entry *table;
static size_t table_size, table_used; /* size a power of two */
static uint32_t generation = 1;

static uint64_t instructions, branches;

/* Counts (n 1) or takes back (n -1) an execution of e's instruction. */
static void count(struct entry *e, int n)
{
    instructions += (uint64_t)(int64_t)n;
    e->count += (uint64_t)(int64_t)n;
    if (e->cls & CLS_BRANCH)
        branches += (uint64_t)(int64_t)n;
}

static void die(const char *what)
{
    fprintf(stderr, "stepcount: %s: %s\n", what, strerror(errno));
    exit(2);
}

static size_t slot_of(uint64_t pc)
{
    return (size_t)((pc * 0x9e3779b97f4a7c15ull) >> 20) & (table_size - 1);
}

static struct entry *lookup(uint64_t pc)
{
    if (2 * (table_used + 1) > table_size) {
        struct entry *old = table;
        size_t old_size = table_size;
        table_size = table_size ? 2 * table_size : 1u << 16;
        table = calloc(table_size, sizeof *table);
        if (!table)
            die("out of memory");
        for (size_t k = 0; k < old_size; k++) {
            if (!old[k].pc)
                continue;
            size_t s = slot_of(old[k].pc);
            while (table[s].pc)
                s = (s + 1) & (table_size - 1);
            table[s] = old[k];
        }
        free(old);
    }
    size_t s = slot_of(pc);
    while (table[s].pc && table[s].pc != pc)
        s = (s + 1) & (table_size - 1);
    if (!table[s].pc) {
        table[s].pc = pc;
        table_used++;
    }
    return &table[s];
}

/* Reads up to 16 code bytes at pc (fewer when pc + 8 is not mapped). */
static int read_code(pid_t pid, uint64_t pc, uint8_t *b)
{
    int n = 0;
    for (int w = 0; w < 2; w++) {
        errno = 0;
        long v = ptrace(PTRACE_PEEKTEXT, pid, (void *)(uintptr_t)(pc + 8u * (unsigned)w), NULL);
        if (errno)
            break;
        memcpy(b + n, &v, 8);
        n += 8;
    }
    return n;
}

/* The profile: "ADDRESS COUNT BRANCH FILE+OFFSET" per executed address,
 * sorted by address; FILE from a copy of /proc/PID/maps at the exit, OFFSET
 * from the file's lowest mapping (a shared library's or PIE's load base, so
 * the addresses nm and objdump show). */
struct map {
    uint64_t lo, hi, off;
    char name[256];
};

static struct map *maps;
static size_t n_maps;

static void read_maps(pid_t pid)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        struct map m = {0};
        unsigned long long lo, hi, off;
        int pos = 0;
        if (sscanf(line, "%llx-%llx %*s %llx %*s %*s%n", &lo, &hi, &off, &pos) < 3)
            continue;
        const char *name = line + pos;
        while (*name == ' ')
            name++;
        m.lo = lo;
        m.hi = hi;
        m.off = off;
        snprintf(m.name, sizeof m.name, "%.*s", (int)strcspn(name, "\n"), name);
        if (!m.name[0])
            strcpy(m.name, "[anon]");
        struct map *grown = realloc(maps, (n_maps + 1) * sizeof *maps);
        if (!grown)
            die("out of memory");
        maps = grown;
        maps[n_maps++] = m;
    }
    fclose(f);
}

static int by_pc(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static void write_profile(const char *file)
{
    FILE *f = fopen(file, "w");
    if (!f)
        die(file);
    size_t n = 0;
    for (size_t k = 0; k < table_size; k++)
        if (table[k].pc && table[k].count)
            table[n++] = table[k];
    qsort(table, n, sizeof *table, by_pc);
    for (size_t k = 0; k < n; k++) {
        const struct map *m = NULL;
        for (size_t j = 0; j < n_maps && !m; j++)
            if (table[k].pc >= maps[j].lo && table[k].pc < maps[j].hi)
                m = &maps[j];
        uint64_t base = 0; /* the lowest mapping of the same file */
        for (size_t j = 0; m && j < n_maps; j++)
            if (strcmp(maps[j].name, m->name) == 0 && (!base || maps[j].lo < base))
                base = maps[j].lo;
        fprintf(f, "0x%llx %llu %d %s+0x%llx\n", (unsigned long long)table[k].pc,
                (unsigned long long)table[k].count, table[k].cls & CLS_BRANCH ? 1 : 0,
                m ? m->name : "?", (unsigned long long)(table[k].pc - base));
    }
    if (fclose(f) != 0)
        die(file);
}

/* --cpu-of: the view CPUID answers from (view.n == 0: none) and its XCR0
 * (0: XGETBV is stepped). */
static struct trace_header trace_of;
static const struct cpu_view *view;
static uint64_t view_xcr0;

static void read_view(const char *trace)
{
    char error[512];
    if (!trace_read_header(trace, &trace_of, error, sizeof error)) {
        fprintf(stderr, "stepcount: %s\n", error);
        exit(2);
    }
    view = &trace_of.cpu;
    view_xcr0 = view->n ? cpu_view_xcr0(view) : 0;
}

/* Sets a register as an instruction writing its 32-bit part does: the
 * whole register zero-extended in 64-bit mode, the low half in 32-bit. */
static unsigned long long set32(unsigned long long reg, uint32_t value, int is64)
{
    return is64 ? value : (reg & ~0xffffffffull) | value;
}

/* Whether the instruction at regs->rip, of class cls, is answered from the
 * view rather than stepped; if so, performs it on *regs (not yet written
 * back). */
static int emulate(unsigned cls, struct user_regs_struct *regs, int is64)
{
    if (!view || !view->n)
        return 0;
    if (cls & CLS_CPUID) {
        struct cpuid_regs r = cpu_view_answer(view, (uint32_t)regs->rax, (uint32_t)regs->rcx);
        regs->rax = set32(regs->rax, r.eax, is64);
        regs->rbx = set32(regs->rbx, r.ebx, is64);
        regs->rcx = set32(regs->rcx, r.ecx, is64);
        regs->rdx = set32(regs->rdx, r.edx, is64);
        regs->rip += 2;
        return 1;
    }
    if ((cls & CLS_XGETBV) && view_xcr0 && (uint32_t)regs->rcx == 0) {
        regs->rax = set32(regs->rax, (uint32_t)view_xcr0, is64);
        regs->rdx = set32(regs->rdx, (uint32_t)(view_xcr0 >> 32), is64);
        regs->rip += 3;
        return 1;
    }
    return 0;
}

/* --no-vdso: words of the tracee's memory, `size` 8 or 4 bytes (the low
 * half of a PEEKDATA word on little-endian x86). */
static uint64_t peek_word(pid_t pid, uint64_t addr, int size)
{
    errno = 0;
    long v = ptrace(PTRACE_PEEKDATA, pid, (void *)(uintptr_t)addr, NULL);
    if (errno)
        die("PTRACE_PEEKDATA (the initial stack)");
    return size == 8 ? (uint64_t)v : (uint32_t)v;
}

static void poke_word(pid_t pid, uint64_t addr, int size, uint64_t value)
{
    uint64_t word = value;
    if (size == 4)
        word = (peek_word(pid, addr, 8) & ~0xffffffffull) | (uint32_t)value;
    if (ptrace(PTRACE_POKEDATA, pid, (void *)(uintptr_t)addr, (void *)(uintptr_t)word) != 0)
        die("PTRACE_POKEDATA (the initial stack)");
}

enum { AUX_NULL = 0, AUX_IGNORE = 1, AUX_SYSINFO = 32, AUX_SYSINFO_EHDR = 33 };

/* Turns the vDSO's entries of the auxiliary vector into AT_IGNORE, as
 * valgrind does, on a new program's initial stack at sp: argc, argv[argc]
 * and NULL, envp and NULL, then (type, value) pairs up to AT_NULL. */
static void drop_vdso(pid_t pid, uint64_t sp, int is64)
{
    int size = is64 ? 8 : 4;
    uint64_t addr = sp + (peek_word(pid, sp, size) + 2) * (uint64_t)size; /* envp */
    while (peek_word(pid, addr, size))
        addr += (uint64_t)size;
    for (addr += (uint64_t)size;; addr += 2u * (uint64_t)size) {
        uint64_t type = peek_word(pid, addr, size);
        if (type == AUX_NULL)
            break;
        if (type == AUX_SYSINFO_EHDR || type == AUX_SYSINFO)
            poke_word(pid, addr, size, AUX_IGNORE);
    }
}

/* --cpu-of: an XSAVE-family instruction saves or restores the state
 * components EDX:EAX & XCR0 selects, in an area whose size the program
 * took from CPUID leaf 0xD: the view's.  Where the host's XCR0 has more
 * (AVX-512 on a view without it), the instruction would write past that
 * area (glibc's _dl_runtime_resolve_xsave saves with a fixed mask that
 * includes AVX-512's components), so it is stepped with EDX:EAX masked by
 * the view's XCR0, and the two registers put back after the step.  Returns
 * whether it masked (*saved holds RAX and RDX then). */
static int mask_xsave(pid_t pid, unsigned cls, struct user_regs_struct *regs,
                      unsigned long long saved[2])
{
    if (!(cls & CLS_XSAVE) || !view_xcr0)
        return 0;
    saved[0] = regs->rax;
    saved[1] = regs->rdx;
    regs->rax &= ~0xffffffffull | (uint32_t)view_xcr0;
    regs->rdx &= ~0xffffffffull | (uint32_t)(view_xcr0 >> 32);
    if (ptrace(PTRACE_SETREGS, pid, NULL, regs) != 0)
        die("PTRACE_SETREGS");
    return 1;
}

static void unmask_xsave(pid_t pid, const unsigned long long saved[2])
{
    struct user_regs_struct regs;
    if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) != 0)
        die("PTRACE_GETREGS");
    regs.rax = saved[0];
    regs.rdx = saved[1];
    if (ptrace(PTRACE_SETREGS, pid, NULL, &regs) != 0)
        die("PTRACE_SETREGS");
}

static void usage(void)
{
    fprintf(stderr, "usage: stepcount [-o FILE] [-p FILE] [--cpu-of TRACE] [--no-vdso] [--] "
                    "PROGRAM [ARGS...]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *out_file = NULL, *profile_file = NULL;
    int no_vdso = 0;
    static const struct option longs[] = {
        {"cpu-of", required_argument, NULL, 'c'},
        {"no-vdso", no_argument, NULL, 'n'},
        {NULL, 0, NULL, 0},
    };
    int opt;
    while ((opt = getopt_long(argc, argv, "+o:p:", longs, NULL)) != -1) {
        if (opt == 'o')
            out_file = optarg;
        else if (opt == 'p')
            profile_file = optarg;
        else if (opt == 'c')
            read_view(optarg);
        else if (opt == 'n')
            no_vdso = 1;
        else
            usage();
    }
    if (optind >= argc)
        usage();
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
            die("PTRACE_TRACEME");
        execvp(argv[optind], argv + optind);
        fprintf(stderr, "stepcount: cannot run '%s': %s\n", argv[optind], strerror(errno));
        _exit(127);
    }

    int status;
    if (waitpid(pid, &status, 0) != pid)
        die("waitpid");
    if (!WIFSTOPPED(status)) /* execvp failed: the child said why */
        return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
    if (ptrace(PTRACE_SETOPTIONS, pid, NULL,
               (void *)(long)(PTRACE_O_EXITKILL | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT |
                              PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |
                              PTRACE_O_TRACEVFORK)) != 0)
        die("PTRACE_SETOPTIONS");

    uint64_t last_pc = 0;   /* the address of the last instruction stepped */
    unsigned last_cls = 0;
    int inject = 0;         /* a signal to deliver with the next step */
    int others = 0;         /* threads or processes not stepped */
    int exec_stop = 1;      /* stopped after an execve, before the program's first instruction */
    for (;;) {
        struct user_regs_struct regs;
        if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) != 0)
            die("PTRACE_GETREGS");
        uint64_t pc = regs.rip;
        int is64 = regs.cs == 0x33;
        if (exec_stop && no_vdso)
            drop_vdso(pid, regs.rsp, is64);
        exec_stop = 0;
        struct entry *e = lookup(pc);
        if (e->gen != generation) {
            uint8_t b[16];
            int n = read_code(pid, pc, b);
            e->cls = (uint8_t)(classify(b, n, is64) | classify_cpu(b, n) |
                               classify_xsave(b, n, is64));
            e->gen = generation;
        }
        /* CPUID or XGETBV answered from the view: done, not stepped (not
         * with a signal to deliver: the step delivers it first). */
        if (!inject && emulate(e->cls, &regs, is64)) {
            if (ptrace(PTRACE_SETREGS, pid, NULL, &regs) != 0)
                die("PTRACE_SETREGS");
            count(e, 1);
            last_pc = pc;
            last_cls = e->cls;
            continue;
        }
        /* A REP string instruction stopped between iterations: the same
         * instruction goes on. */
        int counted = !(pc == last_pc && (e->cls & CLS_REP) && (last_cls & CLS_REP));
        if (counted)
            count(e, 1);
        if (e->cls & CLS_SYSCALL)
            generation++; /* the system call may map or unmap code */
        uint64_t saved_pc = last_pc;
        unsigned saved_cls = last_cls;
        last_pc = pc;
        last_cls = e->cls;

        int injected = inject;
        inject = 0;
        unsigned long long xsave_regs[2] = {0, 0};
        int masked = !injected && mask_xsave(pid, e->cls, &regs, xsave_regs);
        int stepped = 1; /* again after an event stop inside a system call */
        while (stepped) {
            stepped = 0;
            if (ptrace(PTRACE_SINGLESTEP, pid, NULL, (void *)(long)injected) != 0)
                die("PTRACE_SINGLESTEP");
            pid_t got;
            for (;;) {
                got = waitpid(-1, &status, __WALL);
                if (got < 0)
                    die("waitpid");
                if (got == pid)
                    break;
                /* A thread or child: let it run unstepped. */
                if (WIFSTOPPED(status))
                    ptrace(PTRACE_DETACH, got, NULL, NULL);
            }
            if (!WIFSTOPPED(status))
                break;
            int sig = WSTOPSIG(status), event = status >> 16;
            if (sig == SIGTRAP && event) {
                /* An event stop inside the system call just stepped. */
                if (event == PTRACE_EVENT_EXEC) {
                    /* The new program's first instruction is next. */
                    generation++;
                    last_pc = 0;
                    exec_stop = 1;
                    break;
                }
                if (event == PTRACE_EVENT_CLONE || event == PTRACE_EVENT_FORK ||
                    event == PTRACE_EVENT_VFORK) {
                    unsigned long child;
                    if (ptrace(PTRACE_GETEVENTMSG, pid, NULL, &child) == 0 && !others++)
                        fprintf(stderr, "stepcount: the program started a thread or process "
                                "(%lu): its instructions are not counted\n", child);
                } else if (event == PTRACE_EVENT_EXIT && profile_file) {
                    read_maps(pid);
                }
                /* Let the system call finish: the step stops after it. */
                injected = 0;
                stepped = 1;
            } else if (sig != SIGTRAP) {
                /* A signal for the program stopped it before the
                 * instruction completed (a fault, or the signal came
                 * first): deliver it with the next step, which steps the
                 * instruction again. */
                inject = sig;
                if (counted)
                    count(e, -1);
                last_pc = saved_pc;
                last_cls = saved_cls;
            } else if (injected) {
                /* A step that delivered a signal to a handler stops at the
                 * handler's first instruction with nothing executed
                 * (si_code SIGTRAP from ptrace_notify, not a trap's
                 * TRAP_*). */
                siginfo_t si;
                if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) == 0 && si.si_code == SIGTRAP) {
                    if (counted)
                        count(e, -1);
                    last_pc = 0;
                }
            }
        }
        if (WIFEXITED(status) || WIFSIGNALED(status))
            break;
        if (masked)
            unmask_xsave(pid, xsave_regs);
    }

    FILE *out = stdout;
    if (out_file && !(out = fopen(out_file, "w")))
        die(out_file);
    fprintf(out, "%llu %llu\n", (unsigned long long)instructions, (unsigned long long)branches);
    if (fflush(out) != 0 || (out != stdout && fclose(out) != 0))
        die(out_file ? out_file : "stdout");
    if (profile_file)
        write_profile(profile_file);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
