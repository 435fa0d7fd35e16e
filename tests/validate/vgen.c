/* The validation suite's kernels (tests/validate/vgen.h, docs/validate.md). */
#include "vgen.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "isa/x86.h"

/* ---- the operand kinds of a form */

/* O_ADDR: the address an LEA computes, by its shape (isa's a, a3, as,
 * as3: docs/isa.md, "Forms"), in `bits`: enum shape. */
enum okind { O_GPR, O_MEM, O_IMM, O_ONE, O_CL, O_ST, O_MM, O_XMM, O_REL, O_SREG, O_ADDR };
enum shape { SHAPE_A, SHAPE_A3, SHAPE_AS, SHAPE_AS3 };
enum { MAX_OPS = 4 };

struct operand {
    enum okind kind;
    int bits; /* a GPR's or a memory operand's size; 0 unsized */
};

struct form {
    int n;
    struct operand op[MAX_OPS];
    bool based; /* memory slots through base registers (see based_slots) */
};

static bool parse_operand(const char *s, size_t len, struct operand *op)
{
    char text[8];
    if (len == 0 || len >= sizeof text)
        return false;
    memcpy(text, s, len);
    text[len] = '\0';
    static const struct { const char *name; enum okind kind; } plain[] = {
        {"i", O_IMM}, {"1", O_ONE},  {"cl", O_CL},    {"st", O_ST},
        {"mm", O_MM}, {"xmm", O_XMM}, {"rel", O_REL}, {"sreg", O_SREG},
    };
    static const char *const shapes[] = {"a", "a3", "as", "as3"};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (strcmp(text, plain[i].name) == 0) {
            *op = (struct operand){plain[i].kind, 0};
            return true;
        }
    for (int i = 0; i < 4; i++)
        if (strcmp(text, shapes[i]) == 0) {
            *op = (struct operand){O_ADDR, i};
            return true;
        }
    int bits = 0;
    if ((text[0] == 'r' || text[0] == 'm') && text[1] && sscanf(text + 1, "%d", &bits) != 1)
        return false;
    if (text[0] == 'r' && (bits == 0 || bits == 8 || bits == 16 || bits == 32)) {
        *op = (struct operand){O_GPR, bits};
        return true;
    }
    if (text[0] == 'm' && (bits == 0 || bits == 8 || bits == 16 || bits == 32 || bits == 64 ||
                           bits == 80 || bits == 128)) {
        *op = (struct operand){O_MEM, bits};
        return true;
    }
    return false;
}

/* An unsized register ("r") is 32-bit, but SETcc's (8) and MOVZX's and
 * MOVSX's source (8). */
static void size_registers(const char *family, struct form *f)
{
    bool widening = strcmp(family, "movzx") == 0 || strcmp(family, "movsx") == 0;
    for (int i = 0; i < f->n; i++)
        if (f->op[i].kind == O_GPR && f->op[i].bits == 0)
            f->op[i].bits = strcmp(family, "setcc") == 0 || (widening && i == 1) ? 8 : 32;
}

static bool parse_form(const char *form, struct form *f)
{
    f->n = 0;
    for (const char *p = form; *p;) {
        size_t len = strcspn(p, ",");
        if (f->n == MAX_OPS || !parse_operand(p, len, &f->op[f->n]))
            return false;
        f->n++;
        p += len;
        if (*p == ',')
            p++;
    }
    return true;
}

static bool has_kind(const struct form *f, enum okind kind)
{
    for (int i = 0; i < f->n; i++)
        if (f->op[i].kind == kind)
            return true;
    return false;
}

static bool has_gpr8(const struct form *f)
{
    for (int i = 0; i < f->n; i++)
        if (f->op[i].kind == O_GPR && f->op[i].bits == 8)
            return true;
    return false;
}

/* ---- family lists */

static bool in_list(const char *family, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(family, *list) == 0)
            return true;
    return false;
}

/* Privileged at CPL 3 (or by IOPL, I/O): the program would fault. */
static const char *const privileged[] = {
    "cli", "sti", "hlt", "lgdt", "lidt", "lldt", "ltr", "lmsw", "clts", "invd", "wbinvd",
    "invlpg", "rdmsr", "wrmsr", "rdpmc", "rsm", "in", "out", "insb", "insw", "insd", "outsb",
    "outsw", "outsd", NULL,
};

/* Far transfers, interrupts and system calls: control leaves the program. */
static const char *const leaving[] = {
    "int", "int1", "int3", "into", "iret", "iretd", "retf", "retfd", "lcall", "ljmp",
    "syscall", "sysenter", "sysexit", "sysret", "ud2", NULL,
};

/* Instructions valgrind's x86 front end (3.19) stops on with SIGILL, as
 * recording them showed: known here so that the program is not built and
 * recorded again once for each (validate.c still catches others). */
static const char *const valgrind_stops[] = {
    "fbld", "fbstp", "fnop", "fdecstp", "pushaw", "bound", "lar", "lsl", "sldt", "str", "smsw",
    "verr", "verw", "arpl", NULL,
};

/* Loads of a segment register from memory: the selector would have to be
 * valid (and valgrind's x86 front end runs few of them). */
static const char *const segment_loads[] = {"lds", "les", "lfs", "lgs", "lss", NULL};
/* NetBurst: families each copy of which reads the flags the one before
 * wrote, so that no stream of independent copies exists, on the hardware
 * as in the model: ADC, SBB, RCL, RCR read CF; INC, DEC, ROL, ROR, the BT
 * family (CF alone), SAHF (not OF), CLC, STC and CMC write part of the
 * arithmetic flags, which the Pentium 4 renames as one register, and so
 * merge with the older ones (the Optimization manual, "Use of the inc and
 * dec Instructions": they "create a dependence on all previous writes of
 * the flag register").  Intel's throughput is the issue port's interval
 * (appendix C), which such a stream cannot show. */
static const char *const flags_chains[] = {"adc", "sbb", "rcl", "rcr", "inc", "dec", "rol",
                                           "ror", "bt", "btc", "btr", "bts", "sahf", "clc",
                                           "stc", "cmc", NULL};

/* The destination is written and not read. */
static const char *const write_only[] = {
    "mov", "movzx", "movsx", "bsf", "bsr", "setcc", "pop", "movd", "movq", "movaps", "movapd",
    "movups", "movupd", "movdqa", "movdqu", "movntps", "movntpd", "movntdq", "movnti", "movntq",
    "movss", "movsd", "cvtdq2pd", "cvtdq2ps", "cvtpd2dq", "cvtpd2pi", "cvtpd2ps", "cvtpi2pd",
    "cvtps2dq", "cvtps2pd", "cvtps2pi", "cvtsd2si", "cvttsd2si", "cvtss2si", "cvttss2si",
    "cvttpd2dq", "cvttpd2pi", "cvttps2dq", "cvttps2pi", "sqrtps", "sqrtpd", "rcpps", "rsqrtps",
    "pshufd", "pshufhw", "pshuflw", "pshufw", "pextrw", "pmovmskb", "movmskps", "movmskpd",
    "movdq2q", "movq2dq", "lddqu", "movddup", "movshdup", "movsldup", NULL,
};

/* Nothing but the flags is written. */
static const char *const read_only[] = {
    "cmp", "test", "bt", "comiss", "comisd", "ucomiss", "ucomisd", NULL,
};

/* Nothing is written: hints and fences. */
static const char *const no_result[] = {
    "nop", "prefetchnta", "prefetcht0", "prefetcht1", "prefetcht2", "clflush", "lfence",
    "mfence", "sfence", "pause", NULL,
};

/* ---- output */

static void put(char *out, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void put(char *out, size_t size, const char *format, ...)
{
    size_t used = strlen(out);
    if (used >= size)
        return;
    va_list ap;
    va_start(ap, format);
    vsnprintf(out + used, size - used, format, ap);
    va_end(ap);
}

static bool refuse(char *why, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static bool refuse(char *why, size_t size, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vsnprintf(why, size, format, ap);
    va_end(ap);
    return false;
}

const char *vgen_mnemonic(const char *family, bool taken)
{
    /* capstone's PUSHF and POPF are the 16-bit forms (66 9C, 66 9D); its
     * PUSHAL and POPAL are GNU as's PUSHAD and POPAD */
    static const char *const cc[][3] = {
        {"jcc", "jz", "jnz"},         {"setcc", "setz", "setnz"},    {"cmovcc", "cmovz", "cmovnz"},
        {"fcmovcc", "fcmove", "fcmovne"}, {"pushf", "pushfw", "pushfw"}, {"popf", "popfw", "popfw"},
        {"pushal", "pushad", "pushad"}, {"popal", "popad", "popad"},
    };
    for (size_t i = 0; i < sizeof cc / sizeof cc[0]; i++)
        if (strcmp(family, cc[i][0]) == 0)
            return cc[i][taken ? 2 : 1];
    return family;
}

const char *vgen_unit(const struct vgen_kernel *kernel, int i)
{
    return kernel->units[i % kernel->period];
}

/* ---- registers and memory */

/* The general registers a kernel uses, by index (EBP counts the loop,
 * ESP is the stack). */
static const char *gpr_name(int index, int bits)
{
    static const char *const names[3][6] = {
        {"al", "bl", "cl", "dl", "", ""},
        {"ax", "bx", "cx", "dx", "si", "di"},
        {"eax", "ebx", "ecx", "edx", "esi", "edi"},
    };
    return names[bits == 8 ? 0 : bits == 16 ? 1 : 2][index];
}

enum { GPR_ECX = 2, GPR_EDX = 3, GPR_EDI = 5, VEC_SOURCE = 7 };

/* A pool of destinations of one register class and the source register
 * that is none of them. */
struct pool {
    int n;
    int dest[8];
    int source;
};

static struct pool gpr_pool(const struct form *f)
{
    struct pool p = {0, {0}, has_gpr8(f) ? GPR_EDX : GPR_EDI};
    for (int r = 0; r < p.source; r++)
        if (!(r == GPR_ECX && has_kind(f, O_CL)))
            p.dest[p.n++] = r;
    return p;
}

static struct pool vec_pool(void)
{
    struct pool p = {7, {0, 1, 2, 3, 4, 5, 6}, VEC_SOURCE};
    return p;
}

static bool is_reg(enum okind kind)
{
    return kind == O_GPR || kind == O_MM || kind == O_XMM;
}

static const char *size_word(int bits)
{
    switch (bits) {
    case 8: return "byte ptr ";
    case 16: return "word ptr ";
    case 32: return "dword ptr ";
    case 64: return "qword ptr ";
    case 80: return "tbyte ptr ";
    case 128: return "xmmword ptr ";
    default: return "";
    }
}

/* The size a memory operand is written with: its own, else the family's
 * (-1: none, the instruction has one size), else none when a register
 * operand gives it, else a dword. */
static const char *mem_size(const char *family, const struct form *f, const struct operand *op)
{
    static const struct { const char *family; int bits; } sizes[] = {
        {"movzx", 8},   {"movsx", 8},    {"setcc", 8},   {"cmpxchg8b", 64}, {"fbld", 80},
        {"fbstp", 80},  {"fldcw", 16},   {"fnstcw", 16}, {"fnstsw", 16},    {"fldenv", -1},
        {"fnstenv", -1}, {"frstor", -1}, {"fnsave", -1}, {"fxsave", -1},    {"fxrstor", -1},
        {"sgdt", -1},   {"sidt", -1},
    };
    if (op->bits)
        return size_word(op->bits);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(family, sizes[i].family) == 0)
            return size_word(sizes[i].bits);
    for (int i = 0; i < f->n; i++)
        if (is_reg(f->op[i].kind) || f->op[i].kind == O_SREG)
            return "";
    return size_word(32);
}

/* Operand values: a register index, a memory slot (-1: the source area),
 * or nothing for an immediate, CL or a branch target. */
struct instance {
    int value[MAX_OPS];
};

enum { SOURCE_AREA = -1 };

/* An address of the shape, its register part `reg` (EDI, read by no
 * copy of a stream; or the chained register): [reg+4], [reg+edi+4],
 * [edi+reg*4], [edi+reg*4+4]. */
static void write_address(int shape, const char *reg, char *out, size_t size)
{
    static const char *const templates[] = {"[%s+4]", "[%s+edi+4]", "[edi+%s*4]",
                                            "[edi+%s*4+4]"};
    put(out, size, templates[shape], reg);
}

static void write_operand(const char *family, const struct form *f, int i, int value, char *out,
                          size_t size)
{
    const struct operand *op = &f->op[i];
    switch (op->kind) {
    case O_GPR: put(out, size, "%s", gpr_name(value, op->bits)); break;
    case O_MM: put(out, size, "mm%d", value); break;
    case O_XMM: put(out, size, "xmm%d", value); break;
    case O_MEM:
        if (f->based)
            put(out, size, "%s[%s]", mem_size(family, f, op), gpr_name(value, 32));
        else if (value == SOURCE_AREA)
            put(out, size, "%s[vsrc]", mem_size(family, f, op));
        else if (value == 0)
            put(out, size, "%s[vdst]", mem_size(family, f, op));
        else
            put(out, size, "%s[vdst+%d]", mem_size(family, f, op), 16 * value);
        break;
    case O_IMM: put(out, size, "3"); break;
    case O_ONE: put(out, size, "1"); break;
    case O_SREG: put(out, size, "ds"); break;
    case O_CL: put(out, size, "cl"); break;
    case O_ST: put(out, size, "st(%d)", value); break;
    case O_REL: put(out, size, "1f"); break;
    case O_ADDR: write_address(op->bits, "edi", out, size); break;
    }
}

/* GNU as writes SAL as SHL (/4), which the decoder names shl; SAL's own
 * encoding, /6, goes in as bytes. */
static void write_sal(const struct form *f, const struct instance *in, char *out, size_t size)
{
    static const int encoding[6] = {0, 3, 1, 2, 6, 7}; /* EAX EBX ECX EDX ESI EDI */
    const struct operand *dst = &f->op[0];
    enum okind count = f->op[1].kind;
    int bits = dst->bits ? dst->bits : 32;
    int opcode = (count == O_IMM ? 0xc1 : count == O_ONE ? 0xd1 : 0xd3) - (bits == 8);
    int slot = in->value[0];
    put(out, size, ".byte %s0x%x, ", bits == 16 ? "0x66, " : "", opcode);
    if (dst->kind == O_GPR)
        put(out, size, "0x%x", 0xf0 | encoding[slot]);
    else if (f->based)
        put(out, size, "0x%x", 0x30 | encoding[slot]);
    else if (slot == SOURCE_AREA)
        put(out, size, "0x35\n.long vsrc");
    else
        put(out, size, "0x35\n.long vdst+%d", 16 * slot);
    if (count == O_IMM)
        put(out, size, "\n.byte 3");
}

static void write_insn(const char *mnemonic, const char *family, const struct form *f,
                       const struct instance *in, char *out, size_t size)
{
    if (strcmp(family, "sal") == 0 && f->n == 2) {
        write_sal(f, in, out, size);
        return;
    }
    static const char *const predicated[] = {"cmpps", "cmppd", "cmpss", "cmpsd", NULL};
    put(out, size, "%s", mnemonic);
    for (int i = 0; i < f->n; i++) {
        put(out, size, i ? ", " : " ");
        write_operand(family, f, i, in->value[i], out, size);
    }
    if (in_list(family, predicated) && has_kind(f, O_XMM) && !has_kind(f, O_IMM))
        put(out, size, ", 0"); /* the predicate, EQ: the form leaves it out */
}

/* The source of an operand's class: the pool's source register, the
 * source memory area. */
static int source_of(const struct form *f, int i)
{
    switch (f->op[i].kind) {
    case O_GPR: return gpr_pool(f).source;
    case O_MM:
    case O_XMM: return VEC_SOURCE;
    case O_MEM: return SOURCE_AREA;
    default: return 0;
    }
}

static bool same_class(enum okind a, enum okind b)
{
    return is_reg(a) && a == b;
}

/* An instruction with both a displacement and an immediate does not pair
 * on the P5 (Pentium Processor User's Manual, vol. 1, 3.1.2): a form with
 * memory and an immediate and no general register reaches memory slot j
 * through general register j, which the prologue points at the slot. */
static void based_slots(const struct form *f, struct vgen_kernel *k)
{
    if (!f->based)
        return;
    for (int j = 0; j < 6; j++)
        put(k->prologue, sizeof k->prologue, "%smov %s, OFFSET vdst+%d", j ? "\n" : "",
            gpr_name(j, 32), 16 * j);
}

/* ---- building a kernel */

static void add_unit(struct vgen_kernel *k, const char *text)
{
    snprintf(k->units[k->period++], VGEN_UNIT_TEXT, "%s", text);
}

static void add_insn(struct vgen_kernel *k, const char *mnemonic, const char *family,
                     const struct form *f, const struct instance *in)
{
    char text[VGEN_UNIT_TEXT] = "";
    write_insn(mnemonic, family, f, in, text, sizeof text);
    if (has_kind(f, O_REL))
        put(text, sizeof text, "\n1:"); /* a branch to the next instruction */
    add_unit(k, text);
}

/* Every operand its source; operand 0 `first`. */
static struct instance sources(const struct form *f, int first)
{
    struct instance in = {{0}};
    for (int i = 0; i < f->n; i++)
        in.value[i] = source_of(f, i);
    if (f->n)
        in.value[0] = first;
    return in;
}

/* The register class of an operand, for round trips. */
static int reg_class(enum okind kind)
{
    return kind == O_GPR ? 0 : kind == O_MM ? 1 : kind == O_XMM ? 2 : -1;
}

/* Whether a register operand after the first is of another class than it. */
static bool other_class_source(const struct form *f)
{
    int to = reg_class(f->op[0].kind);
    for (int i = 1; i < f->n; i++)
        if (to >= 0 && reg_class(f->op[i].kind) >= 0 && reg_class(f->op[i].kind) != to)
            return true;
    return false;
}

/* A chain for an instruction whose result is in another register class
 * than its source: a round trip, the instruction and a move back to its
 * source's class, measured together (published: the sum of the two rows). */
static bool round_trip(const struct vgen_row *row, const struct form *f, struct vgen_kernel *k,
                       char *why, size_t why_size)
{
    /* [destination class][source class]: the move back, its family and form */
    static const char *const back[3][3][3] = {
        {{NULL}, {"movd mm0, eax", "movd", "mm,r32"}, {"movd xmm0, eax", "movd", "xmm,r32"}},
        {{"movd eax, mm0", "movd", "r32,mm"}, {NULL}, {"movq2dq xmm0, mm0", "movq2dq", "xmm,mm"}},
        {{"movd eax, xmm0", "movd", "r32,xmm"}, {"movdq2q mm0, xmm0", "movdq2q", "mm,xmm"},
         {NULL}},
    };
    int to = reg_class(f->op[0].kind), from = -1, source = -1;
    for (int i = 1; i < f->n && source < 0; i++)
        if (reg_class(f->op[i].kind) >= 0) {
            source = i;
            from = reg_class(f->op[i].kind);
        }
    if (from < 0)
        return refuse(why, why_size, "no register input of its own class to chain through");
    if (to < 0 || to == from || !back[to][from][0] ||
        (to == 0 && f->op[0].bits != 32) || (from == 0 && f->op[source].bits != 32))
        return refuse(why, why_size, "the result goes to another register class: no chain");
    struct instance in = sources(f, 0);
    in.value[source] = 0;
    char text[VGEN_UNIT_TEXT] = "";
    write_insn(vgen_mnemonic(row->family, false), row->family, f, &in, text, sizeof text);
    put(text, sizeof text, "\n%s", back[to][from][0]);
    add_unit(k, text);
    k->note = "round trip";
    k->with_family = back[to][from][1];
    k->with_form = back[to][from][2];
    return true;
}

/* A chain: operand 0 and the first later operand of its class swap
 * between two registers (each instruction reads what the one before
 * wrote, whether or not it also reads its destination); else the same
 * instruction again when it reads its destination. */
static bool generic_chain(const struct vgen_row *row, const struct form *f, struct vgen_kernel *k,
                          char *why, size_t why_size)
{
    const char *mn = vgen_mnemonic(row->family, false);
    if (f->n == 0)
        return refuse(why, why_size, "no operand to chain through");
    if (in_list(row->family, read_only))
        return refuse(why, why_size, "no result but the flags");
    if (in_list(row->family, no_result))
        return refuse(why, why_size, "no result to chain");
    bool writes_only = in_list(row->family, write_only) ||
                       (strcmp(row->family, "imul") == 0 && f->n == 3);
    if (is_reg(f->op[0].kind)) {
        int second = -1;
        for (int i = 1; i < f->n && second < 0; i++)
            if (same_class(f->op[i].kind, f->op[0].kind))
                second = i;
        if (second > 0) {
            struct pool p = f->op[0].kind == O_GPR ? gpr_pool(f) : vec_pool();
            for (int u = 0; u < 2; u++) {
                struct instance in = sources(f, p.dest[u]);
                in.value[second] = p.dest[1 - u];
                add_insn(k, mn, row->family, f, &in);
            }
            return true;
        }
    }
    if (writes_only && f->op[0].kind == O_MEM)
        return refuse(why, why_size, "the result goes to memory: no chain");
    if (writes_only || other_class_source(f))
        return round_trip(row, f, k, why, why_size);
    if (f->op[0].kind == O_MEM && row->p5_class == X86_P5_UV)
        return refuse(why, why_size, "copies through memory pair (the P5 checks register "
                                     "dependences only): measured as pairs");
    struct instance in = sources(f, 0);
    add_insn(k, mn, row->family, f, &in);
    return true;
}

/* XCHG and XADD write both operands: a stream of disjoint pairs,
 * (EAX, EBX), (ECX, EDX), (ESI, EDI); or memory slot j and register j. */
static bool swap_stream(const struct vgen_row *row, const struct form *f, struct vgen_kernel *k)
{
    bool mem = f->op[0].kind == O_MEM;
    int period = mem ? 5 : 3;
    for (int u = 0; u < period; u++) {
        struct instance in = {{mem ? u : 2 * u, mem ? u : 2 * u + 1}};
        add_insn(k, row->family, row->family, f, &in);
    }
    return true;
}

/* A stream: operand 0 rotates through the pool of its class (or through
 * memory slots); the other operands are sources no copy writes. */
static bool generic_stream(const struct vgen_row *row, const struct form *f, struct vgen_kernel *k)
{
    static const char *const both_written[] = {"xchg", "xadd", NULL};
    if (in_list(row->family, both_written) && f->n == 2 && f->op[1].kind == O_GPR)
        return swap_stream(row, f, k);
    const char *mn = vgen_mnemonic(row->family, false);
    struct pool p = {1, {0}, 0};
    if (f->n && f->op[0].kind == O_GPR)
        p = gpr_pool(f);
    else if (f->n && (f->op[0].kind == O_MM || f->op[0].kind == O_XMM))
        p = vec_pool();
    else if (f->n && f->op[0].kind == O_MEM)
        p = (struct pool){6, {0, 1, 2, 3, 4, 5}, 0};
    for (int u = 0; u < p.n; u++) {
        struct instance in = sources(f, p.dest[u]);
        add_insn(k, mn, row->family, f, &in);
    }
    return true;
}

/* ---- families with implicit operands */

/* MUL, IMUL, DIV, IDIV with one operand: EDX:EAX in and out (EAX = EDX =
 * 0 and ECX = 7 at the start: 0 / 7 keeps them 0, no overflow). */
static bool plan_muldiv(const struct vgen_row *row, const struct form *f, enum vgen_kind kind,
                        struct vgen_kernel *k, char *why, size_t why_size)
{
    if (kind != VGEN_LATENCY)
        return refuse(why, why_size, "EDX:EAX in and out: every copy waits for the one before");
    struct instance in = {{f->op[0].kind == O_GPR ? GPR_ECX : SOURCE_AREA}};
    add_insn(k, row->family, row->family, f, &in);
    return true;
}

static bool plan_stack(const struct vgen_row *row, const struct form *f, enum vgen_kind kind,
                       struct vgen_kernel *k, char *why, size_t why_size)
{
    static const char *const all_regs[] = {"pushal", "pushad", "pusha", "pushaw", NULL};
    static const char *const flags[][2] = {{"popfd", "pushfd"}, {"popf", "pushf"}};
    const char *fam = row->family;
    bool push = strncmp(fam, "push", 4) == 0;
    if (strncmp(fam, "popa", 4) == 0)
        return refuse(why, why_size, "loads EBP, the loop counter");
    if (!push && f->n == 1 && f->op[0].kind == O_SREG)
        return refuse(why, why_size, "loads a segment register");
    if (kind == VGEN_LATENCY)
        return refuse(why, why_size, "no register result to chain");
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcmp(fam, flags[i][0]) == 0) {
            /* what it pops must be flags that are safe to load (no TF) */
            char text[VGEN_UNIT_TEXT];
            snprintf(text, sizeof text, "%s\n%s", vgen_mnemonic(flags[i][1], false),
                     vgen_mnemonic(fam, false));
            add_unit(k, text);
            k->note = flags[i][1];
            k->with_family = flags[i][1];
            k->with_form = "";
            return true;
        }
    bool word = strcmp(fam, "pushaw") == 0 || strcmp(fam, "pushf") == 0 ||
                (f->n && f->op[0].kind == O_GPR && f->op[0].bits == 16);
    int bytes = in_list(fam, all_regs) ? (word ? 16 : 32) : word ? 2 : 4;
    k->stack_per_unit = push ? bytes : -bytes;
    if (push && f->n == 1 && f->op[0].kind == O_GPR) {
        struct pool p = gpr_pool(f);
        for (int u = 0; u < p.n; u++) {
            struct instance in = {{p.dest[u]}};
            add_insn(k, fam, fam, f, &in);
        }
        return true;
    }
    if (f->n == 0) {
        add_unit(k, vgen_mnemonic(fam, false));
        return true;
    }
    return generic_stream(row, f, k);
}

/* Saving and loading machine state: loads from what a save wrote in the
 * prologue (vsave), so that what they load is valid. */
static bool plan_state(const struct vgen_row *row, enum vgen_kind kind, struct vgen_kernel *k,
                       char *why, size_t why_size)
{
    static const char *const state[][2] = {
        {"fxsave", NULL}, {"stmxcsr", NULL}, {"fxrstor", "fxsave"}, {"ldmxcsr", "stmxcsr"},
    };
    if (kind == VGEN_LATENCY)
        return refuse(why, why_size, "saves or loads machine state: no chain");
    for (size_t i = 0; i < sizeof state / sizeof state[0]; i++) {
        if (strcmp(row->family, state[i][0]) != 0)
            continue;
        char text[VGEN_UNIT_TEXT];
        snprintf(text, sizeof text, "%s [%s]", row->family, state[i][1] ? "vsave" : "vdst");
        if (state[i][1])
            snprintf(k->prologue, sizeof k->prologue, "%s [vsave]", state[i][1]);
        add_unit(k, text);
    }
    return true;
}

static bool is_state(const char *family)
{
    static const char *const families[] = {"fxsave", "fxrstor", "stmxcsr", "ldmxcsr", NULL};
    return in_list(family, families);
}

/* String instructions: ESI at the source area, EDI at the destination,
 * again each iteration (the prologue); no REP. */
static bool plan_string(const struct vgen_row *row, enum vgen_kind kind, struct vgen_kernel *k,
                        char *why, size_t why_size)
{
    if (kind == VGEN_LATENCY)
        return refuse(why, why_size, "a string instruction: no register chain");
    snprintf(k->prologue, sizeof k->prologue, "mov esi, OFFSET vsrc\nmov edi, OFFSET vdst");
    add_unit(k, row->family);
    return true;
}

/* With REP and a count of VGEN_REP_COUNT, set before each copy (the MOV
 * is measured with it): REPE CMPS compares the source area with itself
 * and REPNE SCAS looks there for AL, 0, which it holds nowhere, so that
 * both run the whole count.  The prefix goes in as a byte before the
 * instruction: GNU as writes 66 F3 A5 for REP MOVSW, which capstone reads
 * as REP MOVSD; F3 66 A5 it reads right. */
static bool plan_rep(const struct vgen_row *row, struct vgen_kernel *k)
{
    bool cmps = strncmp(row->family, "cmps", 4) == 0, scas = strncmp(row->family, "scas", 4) == 0;
    snprintf(k->prologue, sizeof k->prologue, "mov esi, OFFSET vsrc\nmov edi, OFFSET %s",
             cmps || scas ? "vsrc" : "vdst");
    char text[VGEN_UNIT_TEXT];
    snprintf(text, sizeof text, "mov ecx, %d\n.byte 0x%x /* %s */\n%s", VGEN_REP_COUNT,
             scas ? 0xf2 : 0xf3, cmps ? "repe" : scas ? "repne" : "rep", row->family);
    add_unit(k, text);
    k->note = "with mov";
    k->with_family = "mov";
    k->with_form = "r,i";
    return true;
}

static bool is_string(const char *family, const struct form *f)
{
    static const char *const strings[] = {
        "movsb", "movsw", "movsd", "stosb", "stosw", "stosd", "lodsb", "lodsw", "lodsd",
        "scasb", "scasw", "scasd", "cmpsb", "cmpsw", "cmpsd", NULL,
    };
    return in_list(family, strings) && has_kind(f, O_MEM) && !has_kind(f, O_XMM);
}

/* LEA: a chain through the address's register part, a stream with EDI
 * there; an unshaped "m" (the P5's row) is [reg+4]. */
static bool plan_lea(const struct vgen_row *row, const struct form *f, enum vgen_kind kind,
                     struct vgen_kernel *k, char *why, size_t why_size)
{
    if (f->n != 2 || f->op[0].kind != O_GPR || (f->op[1].kind != O_ADDR && f->op[1].kind != O_MEM))
        return refuse(why, why_size, "operand form not generated");
    if (kind == VGEN_LATENCY && row->p5_class != VGEN_NO_PAIRING)
        return refuse(why, why_size, "its only input is an address: a chain would add the "
                                     "P5's AGI stall");
    int shape = f->op[1].kind == O_ADDR ? f->op[1].bits : SHAPE_A;
    struct pool p = gpr_pool(f);
    int n = kind == VGEN_LATENCY ? 1 : p.n;
    for (int u = 0; u < n; u++) {
        char text[VGEN_UNIT_TEXT];
        snprintf(text, sizeof text, "lea %s, ", gpr_name(p.dest[u], f->op[0].bits));
        write_address(shape, kind == VGEN_LATENCY ? "eax" : "edi", text, sizeof text);
        add_unit(k, text);
    }
    return true;
}

/* Each copy of a CALL kernel calls a return of its own, out of line: the
 * P5 has no return stack and its BTB predicts a RET's last target, so a
 * RET shared by all copies would be mispredicted every time, where the
 * published clocks are the predicted ones (docs/validate.md). */
#define OWN_RET(ret) "\n.pushsection .text.vret, \"ax\", @progbits\n2: " ret "\n.popsection"

/* Branches go to the next instruction: a not-taken JZ (ZF is clear), a
 * taken JNZ, JMP; CALL with a RET measures the two together. */
static bool plan_branch(const struct vgen_row *row, const struct form *f, enum vgen_kind kind,
                        struct vgen_kernel *k, char *why, size_t why_size)
{
    if (kind == VGEN_LATENCY)
        return refuse(why, why_size, "a branch: no result to chain");
    bool call = strcmp(row->family, "call") == 0, ret = strcmp(row->family, "ret") == 0;
    if (call || ret) {
        if (kind == VGEN_PAIR)
            return refuse(why, why_size, "measured with its return, unpaired");
        k->note = call ? "with ret" : "with call";
        k->with_family = call ? "ret" : "call";
        k->with_form = call ? "" : "rel";
        if (ret && f->n == 1) {
            add_unit(k, "call 2f" OWN_RET("ret 4"));
            k->stack_per_unit = -4;
        } else if (call && f->n == 1 && f->op[0].kind == O_GPR) {
            /* the target in ESI, set by each copy: measured with the MOV */
            add_unit(k, "mov esi, OFFSET 2f\ncall esi" OWN_RET("ret"));
            k->note = "with mov and ret";
            k->with2_family = "mov";
            k->with2_form = "r,i";
        } else if (call && f->n == 1 && f->op[0].kind == O_MEM) {
            /* through a word of its own holding its return's address */
            add_unit(k, ".pushsection .data\n3: .long 2f\n.popsection\ncall dword ptr [3b]"
                        OWN_RET("ret"));
        } else {
            add_unit(k, "call 2f" OWN_RET("ret"));
        }
        return true;
    }
    if (f->n == 1 && f->op[0].kind == O_GPR) {
        /* each copy's target is the next instruction: set just before */
        add_unit(k, "mov esi, OFFSET 1f\njmp esi\n1:");
        k->note = "with mov";
        k->with_family = "mov";
        k->with_form = "r,i";
        return true;
    }
    if (f->n == 1 && f->op[0].kind == O_MEM) {
        /* each copy jumps through a word of its own holding the next instruction */
        add_unit(k, ".pushsection .data\n2: .long 1f\n.popsection\njmp dword ptr [2b]\n1:");
        return true;
    }
    if (f->n != 1 || f->op[0].kind != O_REL)
        return refuse(why, why_size, "operand form not generated");
    char text[VGEN_UNIT_TEXT];
    snprintf(text, sizeof text, "%s 1f\n1:", vgen_mnemonic(row->family, kind == VGEN_TAKEN));
    add_unit(k, text);
    return true;
}

/* Zero-operand integer instructions: a chain when they read what they
 * write (CWDE, CBW: EAX; CMC: CF), else a stream. */
static bool plan_implicit(const struct vgen_row *row, enum vgen_kind kind, struct vgen_kernel *k,
                          char *why, size_t why_size)
{
    static const char *const chains[] = {"cwde", "cbw", "cmc", "xlatb", "aaa", "aas",
                                         "daa", "das", "aad", "aam", NULL};
    if (strcmp(row->family, "xlatb") == 0)
        snprintf(k->prologue, sizeof k->prologue, "mov ebx, OFFSET vsrc");
    bool chain = in_list(row->family, chains);
    if (kind == VGEN_LATENCY && !chain)
        return refuse(why, why_size, "no result it reads again");
    if (kind != VGEN_LATENCY && chain)
        return refuse(why, why_size, "reads what it writes: every copy waits for the one before");
    add_unit(k, row->family);
    return true;
}

/* ---- x87 */

enum x87_class {
    X_NONE, X_ARITH, X_ARITHP, X_PUSH, X_STORE, X_STOREP, X_XCH, X_CMP, X_UNARY, X_CMOV,
    X_CONTROL,
};

static enum x87_class x87_class_of(const char *family)
{
    static const struct { enum x87_class cls; const char *const names[14]; } classes[] = {
        {X_ARITH, {"fadd", "fsub", "fsubr", "fmul", "fdiv", "fdivr", "fiadd", "fisub", "fisubr",
                   "fimul", "fidiv", "fidivr"}},
        {X_ARITHP, {"faddp", "fsubp", "fsubrp", "fmulp", "fdivp", "fdivrp"}},
        {X_PUSH, {"fld", "fild", "fld1", "fldz", "fldpi", "fldl2e", "fldl2t", "fldlg2",
                  "fldln2", "fbld"}},
        {X_STORE, {"fst", "fist"}},
        {X_STOREP, {"fstp", "fistp", "fisttp", "fbstp"}},
        {X_XCH, {"fxch"}},
        {X_CMP, {"fcom", "fcomp", "fcompp", "fucom", "fucomp", "fucompp", "ftst", "fxam",
                 "fcomi", "fcomip", "fucomi", "fucomip", "ficom", "ficomp"}},
        {X_UNARY, {"fchs", "fabs", "fsqrt", "frndint", "fsin", "fcos", "fsincos", "fptan",
                   "fpatan", "fscale", "fprem", "fprem1", "f2xm1", "fyl2x"}},
        {X_UNARY, {"fyl2xp1", "fxtract"}},
        {X_CMOV, {"fcmovcc"}},
        {X_CONTROL, {"fninit", "fnclex", "fldcw", "fnstcw", "fnstsw", "fwait", "wait", "fnop",
                     "ffree", "fdecstp", "fincstp", "fldenv", "fnstenv", "frstor"}},
        {X_CONTROL, {"fnsave"}},
    };
    for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++)
        for (size_t i = 0; i < 14 && classes[c].names[i]; i++)
            if (strcmp(family, classes[c].names[i]) == 0)
                return classes[c].cls;
    return X_NONE;
}

/* One x87 instruction with its ST operands given (-1: none). */
static void x87_insn(const struct vgen_row *row, const struct form *f, int st_a, int st_b,
                     int slot, char *out, size_t size)
{
    struct instance in = {{0}};
    int sts = 0;
    for (int i = 0; i < f->n; i++)
        in.value[i] = f->op[i].kind == O_ST ? (sts++ == 0 ? st_a : st_b)
                      : f->op[i].kind == O_MEM ? slot
                                               : 0;
    out[0] = '\0';
    const char *mn = vgen_mnemonic(row->family, false);
    if (f->n == 1 && f->op[0].kind == O_GPR) {
        snprintf(out, size, "%s ax", mn);
        return;
    }
    write_insn(mn, row->family, f, &in, out, size);
}

/* The form "st" is ST(0) op ST(i) for the arithmetic (D8), ST(i) op ST(0)
 * for the popping forms (DE); "st,st" is ST(i) op ST(0) (DC). */
static bool two_st(const struct form *f)
{
    return f->n == 2 && f->op[0].kind == O_ST && f->op[1].kind == O_ST;
}

static bool writes_st0(enum x87_class cls, const struct form *f)
{
    return (cls == X_ARITH && !two_st(f)) || cls == X_UNARY || cls == X_CMOV ||
           cls == X_ARITHP || (cls == X_STOREP && f->n == 1 && f->op[0].kind == O_ST);
}

static bool x87_chain(const struct vgen_row *row, enum x87_class cls, const struct form *f,
                      char *text, size_t size, char *why, size_t why_size)
{
    bool mem = has_kind(f, O_MEM);
    switch (cls) {
    case X_ARITH: case X_ARITHP: case X_UNARY: case X_XCH:
        /* ST(0) op ST(1); "st,st": ST(1) op ST(0) */
        x87_insn(row, f, 1, 0, SOURCE_AREA, text, size);
        return true;
    case X_CMOV:
        x87_insn(row, f, 0, 1, 0, text, size);
        return true;
    case X_PUSH:
        if (mem || f->n == 0)
            return refuse(why, why_size, "a load: no register input to chain");
        snprintf(text, size, "fld st(0)");
        return true;
    case X_STOREP:
        if (mem)
            return refuse(why, why_size, "a store: no register result to chain");
        snprintf(text, size, "fstp st(1)");
        return true;
    default:
        return refuse(why, why_size, "no stack result to chain");
    }
}

/* Copy u of a stream: destinations rotate through ST(1)-ST(7) or the
 * memory slots; loads and compares repeat. */
static void x87_stream(const struct vgen_row *row, enum x87_class cls, const struct form *f,
                       int u, char *text, size_t size)
{
    bool mem = has_kind(f, O_MEM);
    if (strcmp(row->family, "fldcw") == 0)
        snprintf(text, size, "fldcw word ptr [vcw]");
    else if (strcmp(row->family, "fldenv") == 0 || strcmp(row->family, "frstor") == 0)
        snprintf(text, size, "%s [vsave]", row->family);
    else if (mem)
        x87_insn(row, f, 0, 0, cls == X_STORE || cls == X_STOREP || cls == X_CONTROL ? u % 6
                                                                                   : SOURCE_AREA,
                 text, size);
    else if (cls == X_PUSH)
        x87_insn(row, f, 7, 0, 0, text, size);
    else if (cls == X_CMP && two_st(f))
        x87_insn(row, f, 0, 1, 0, text, size);
    else if (cls == X_XCH || cls == X_CMP || cls == X_CONTROL)
        x87_insn(row, f, 1, 0, 0, text, size);
    else
        x87_insn(row, f, 1 + u % 7, 0, 0, text, size);
}

static int x87_stream_period(enum x87_class cls, const struct form *f)
{
    if (has_kind(f, O_MEM))
        return cls == X_STORE || cls == X_STOREP || cls == X_CONTROL ? 6 : 1;
    return cls == X_ARITH || cls == X_STORE ? 7 : 1;
}

static bool plan_x87(const struct vgen_row *row, enum x87_class cls, const struct form *f,
                     enum vgen_kind kind, struct vgen_kernel *k, char *why, size_t why_size)
{
    k->setup |= VGEN_SETUP_X87;
    char text[VGEN_UNIT_TEXT];
    if (kind == VGEN_LATENCY) {
        if (!x87_chain(row, cls, f, text, sizeof text, why, why_size))
            return false;
        add_unit(k, text);
        return true;
    }
    if (kind == VGEN_PAIR) {
        /* FX pairs: the instruction on ST(0) and ST(7), then FXCH ST(1) to
         * ST(6) in turn, which brings seven registers to the top in turn. */
        if (two_st(f))
            return refuse(why, why_size, "FX pairs measured on the ST(0) forms");
        for (int u = 0; u < (cls == X_ARITHP ? 1 : 6); u++) {
            /* a popping one: ST(1) op ST(0), then FXCH ST(7), brings a
             * result back as an operand only seven pairs later */
            x87_insn(row, f, cls == X_ARITHP ? 1 : 7, 0, SOURCE_AREA, text, sizeof text);
            put(text, sizeof text, "\nfxch st(%d)", cls == X_ARITHP ? 7 : 1 + u);
            add_unit(k, text);
        }
        k->note = "+ fxch";
        return true;
    }
    if (writes_st0(cls, f))
        return refuse(why, why_size, "every copy writes ST(0): a stream needs FXCH");
    /* the state they load: the one the FPU has (FNINIT's control word) */
    if (strcmp(row->family, "fldenv") == 0)
        snprintf(k->prologue, sizeof k->prologue, "fnstenv [vsave]");
    if (strcmp(row->family, "frstor") == 0)
        snprintf(k->prologue, sizeof k->prologue, "fnsave [vsave]");
    int period = x87_stream_period(cls, f);
    for (int u = 0; u < period; u++) {
        x87_stream(row, cls, f, u, text, sizeof text);
        add_unit(k, text);
    }
    return true;
}

/* ---- pairs */

/* A P5 pair from a stream: two copies (UV), the copy and a NOP in the other
 * pipe (PU: NOP second, PV: NOP first). */
static void make_pairs(struct vgen_kernel *k, int p5_class)
{
    struct vgen_kernel stream = *k;
    k->period = 0;
    int period = p5_class == X86_P5_UV && stream.period % 2 == 0 ? stream.period / 2
                                                                  : stream.period;
    for (int u = 0; u < period; u++) {
        char text[VGEN_UNIT_TEXT];
        if (p5_class == X86_P5_UV)
            snprintf(text, sizeof text, "%s\n%s", vgen_unit(&stream, 2 * u),
                     vgen_unit(&stream, 2 * u + 1));
        else if (p5_class == X86_P5_PU)
            snprintf(text, sizeof text, "%s\nnop", vgen_unit(&stream, u));
        else
            snprintf(text, sizeof text, "nop\n%s", vgen_unit(&stream, u));
        add_unit(k, text);
    }
    k->per_unit = p5_class == X86_P5_UV ? 2 : 1;
    k->stack_per_unit *= p5_class == X86_P5_UV ? 2 : 1;
    k->note = p5_class == X86_P5_UV ? "two copies" : "+ nop";
}

/* ---- the plan */

static bool plan_units(const struct vgen_row *row, const struct form *f, enum vgen_kind kind,
                       struct vgen_kernel *k, char *why, size_t why_size)
{
    const char *fam = row->family;
    enum x87_class x87 = x87_class_of(fam);
    if (x87 != X_NONE) {
        if (kind == VGEN_PAIR && row->p5_class != X86_P5_FX &&
            !(strcmp(fam, "fxch") == 0 && row->p5_class == X86_P5_PV))
            return refuse(why, why_size, "pairs only as FX");
        if (strcmp(fam, "fxch") == 0 && kind == VGEN_PAIR) {
            add_unit(k, "fabs\nfxch st(1)");
            k->setup |= VGEN_SETUP_X87;
            k->note = "after fabs";
            return true;
        }
        return plan_x87(row, x87, f, kind, k, why, why_size);
    }
    bool pair = kind == VGEN_PAIR;
    enum vgen_kind base = pair ? VGEN_THROUGHPUT : kind;
    bool ok;
    if (kind == VGEN_REP)
        ok = plan_rep(row, k);
    else if (strcmp(fam, "mul") == 0 || strcmp(fam, "div") == 0 || strcmp(fam, "idiv") == 0 ||
        (strcmp(fam, "imul") == 0 && f->n == 1))
        ok = plan_muldiv(row, f, base, k, why, why_size);
    else if (strncmp(fam, "push", 4) == 0 || strncmp(fam, "pop", 3) == 0)
        ok = plan_stack(row, f, base, k, why, why_size);
    else if (is_state(fam))
        ok = plan_state(row, base, k, why, why_size);
    else if (is_string(fam, f))
        ok = plan_string(row, base, k, why, why_size);
    else if (strcmp(fam, "enter") == 0 || strcmp(fam, "leave") == 0)
        ok = refuse(why, why_size, "uses EBP, the loop counter");
    else if (has_kind(f, O_SREG) && f->op[0].kind == O_SREG)
        ok = refuse(why, why_size, "loads a segment register");
    else if (strcmp(fam, "lea") == 0)
        ok = plan_lea(row, f, base, k, why, why_size);
    else if (strcmp(fam, "jcc") == 0 || strcmp(fam, "jmp") == 0 || strcmp(fam, "call") == 0 ||
             strcmp(fam, "ret") == 0)
        ok = plan_branch(row, f, kind, k, why, why_size);
    else if (f->n == 0)
        ok = plan_implicit(row, base, k, why, why_size);
    else if (strncmp(fam, "loop", 4) == 0 && has_kind(f, O_REL) && base == VGEN_LATENCY)
        ok = refuse(why, why_size, "a branch: no result to chain");
    else if (strncmp(fam, "loop", 4) == 0 && has_kind(f, O_REL)) {
        snprintf(k->prologue, sizeof k->prologue, "mov ecx, 100000"); /* never reaches 0 */
        ok = generic_stream(row, f, k);
    }
    else if (base == VGEN_LATENCY)
        ok = generic_chain(row, f, k, why, why_size);
    else
        ok = generic_stream(row, f, k);
    if (ok && pair)
        make_pairs(k, row->p5_class);
    return ok;
}

static int gcd(int a, int b)
{
    return b ? gcd(b, a % b) : a;
}

/* K: the least multiple of the period and of 2 (a two-unit alternation
 * closes) that is at least 8; L: K x L about VGEN_SHORT_UNITS. */
static void size_kernel(struct vgen_kernel *k)
{
    int step = k->period / gcd(k->period, 2) * 2;
    k->copies = step;
    while (k->copies < 8)
        k->copies += step;
    k->iterations = (VGEN_SHORT_UNITS + k->copies - 1) / k->copies;
}

bool vgen_applies(const struct vgen_row *row, enum vgen_kind kind)
{
    bool pairable = row->p5_class == X86_P5_UV || row->p5_class == X86_P5_PU ||
                    row->p5_class == X86_P5_PV || row->p5_class == X86_P5_FX;
    switch (kind) {
    case VGEN_THROUGHPUT: return row->p5_class != X86_P5_UV;
    case VGEN_TAKEN: return strcmp(row->family, "jcc") == 0;
    case VGEN_PAIR: return pairable;
    case VGEN_REP: return row->rep;
    default: return true;
    }
}

bool vgen_plan(const struct vgen_row *row, enum vgen_kind kind, struct vgen_kernel *kernel,
               char *why, size_t why_size)
{
    memset(kernel, 0, sizeof *kernel);
    kernel->kind = kind;
    kernel->per_unit = 1;
    struct form f;
    if (in_list(row->family, privileged))
        return refuse(why, why_size, "privileged or I/O: not at user level");
    if (in_list(row->family, leaving))
        return refuse(why, why_size,
                      "a far transfer, interrupt or system call: leaves the program");
    if (in_list(row->family, segment_loads))
        return refuse(why, why_size, "loads a segment register");
    if (in_list(row->family, valgrind_stops))
        return refuse(why, why_size, "valgrind stops on it (SIGILL): cannot be recorded");
    if (!parse_form(row->form, &f))
        return refuse(why, why_size, "operand kinds the suite does not generate");
    if (row->p5_class == VGEN_NO_PAIRING && kind == VGEN_THROUGHPUT &&
        in_list(row->family, flags_chains))
        return refuse(why, why_size, "every copy reads the flags the one before wrote");
    size_registers(row->family, &f);
    f.based = has_kind(&f, O_MEM) && has_kind(&f, O_IMM) && !has_kind(&f, O_GPR);
    if (has_kind(&f, O_MM))
        kernel->setup |= VGEN_SETUP_MMX;
    if (!plan_units(row, &f, kind, kernel, why, why_size))
        return false;
    based_slots(&f, kernel);
    size_kernel(kernel);
    return true;
}
