/* The x86 decoder: what the P5 and NetBurst timing models need to know about
 * one instruction, from its bytes, in 32- or 64-bit mode (docs/isa.md).
 *
 *   struct x86_insn insn;
 *   if (x86_decode(bytes, size, address, X86_MODE_64, &insn))
 *       ... insn.length, insn.branch, insn.mem[0], insn.p5_class ...
 *
 * Built on libcapstone (lengths, operands, register access) with pmubench's
 * own tables on top: the P5 pairing class (isa/p5_pairing.c) and the
 * NetBurst micro-op count (isa/netburst_uops.c).  x86_decode() keeps one
 * decoder per mode and thread, created on first use; x86_decoder_create()
 * gives an explicit one.  A decoder is not shared between threads.
 */
#ifndef ISA_X86_H
#define ISA_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum x86_mode { X86_MODE_32 = 32, X86_MODE_64 = 64 };

enum {
    X86_MAX_LENGTH = 15, /* the architectural limit (SDM vol. 2, 2.3.11) */
    X86_MAX_MEM = 2,
};

/* Control transfers (docs/isa.md, "Branch kinds"). */
enum x86_branch {
    X86_BRANCH_NONE,
    X86_BRANCH_COND,          /* Jcc, JCXZ/JECXZ/JRCXZ, LOOP/LOOPE/LOOPNE */
    X86_BRANCH_JUMP,          /* JMP rel8/rel32 */
    X86_BRANCH_CALL,          /* CALL rel32 */
    X86_BRANCH_RETURN,        /* RET, RET imm16 (near) */
    X86_BRANCH_INDIRECT_JUMP, /* JMP r/m */
    X86_BRANCH_INDIRECT_CALL, /* CALL r/m */
    X86_BRANCH_FAR,           /* far JMP/CALL/RET, IRET, SYSEXIT, SYSRET */
    X86_BRANCH_SOFT_INT,      /* INT n, INT3, INTO, INT1, SYSCALL, SYSENTER */
};

/* Prefix bits of struct x86_insn.prefixes. */
enum {
    X86_PFX_LOCK = 1u << 0,
    X86_PFX_REP = 1u << 1,   /* F3: REP/REPE */
    X86_PFX_REPNE = 1u << 2, /* F2 */
    X86_PFX_OPSIZE = 1u << 3,
    X86_PFX_ADDRSIZE = 1u << 4,
    X86_PFX_SEGMENT = 1u << 5, /* see struct x86_insn.segment */
    X86_PFX_REX = 1u << 6,
    X86_PFX_REX_W = 1u << 7,
    X86_PFX_VEX = 1u << 8, /* VEX, EVEX or XOP */
};

enum x86_segment {
    X86_SEG_NONE, X86_SEG_ES, X86_SEG_CS, X86_SEG_SS, X86_SEG_DS, X86_SEG_FS, X86_SEG_GS,
};

/* General registers by number (the encoding order), for bitmasks. */
enum x86_gpr {
    X86_GPR_AX, X86_GPR_CX, X86_GPR_DX, X86_GPR_BX,
    X86_GPR_SP, X86_GPR_BP, X86_GPR_SI, X86_GPR_DI,
    X86_GPR_R8, X86_GPR_R9, X86_GPR_R10, X86_GPR_R11,
    X86_GPR_R12, X86_GPR_R13, X86_GPR_R14, X86_GPR_R15,
    X86_GPR_IP = 16,     /* RIP-relative base */
    X86_GPR_NONE = 0xff, /* no base or index */
};

/* Bits of x86_insn.regs_read / regs_written: bit n is general register n
 * (whatever part of it: AL, AH, AX, EAX and RAX are all X86_GPR_AX);
 * X86_REG_FLAGS is the flags register (any flag). */
#define X86_REG_BIT(gpr) (1u << (gpr))
#define X86_REG_FLAGS (1u << 16)

/* Bits of x86_insn.flags_read / flags_written. */
enum {
    X86_FLAG_CF = 1u << 0, X86_FLAG_PF = 1u << 1, X86_FLAG_AF = 1u << 2,
    X86_FLAG_ZF = 1u << 3, X86_FLAG_SF = 1u << 4, X86_FLAG_OF = 1u << 5,
    X86_FLAG_DF = 1u << 6, X86_FLAG_OTHER = 1u << 7, /* IF, TF, NT, RF, AC */
};

enum x86_access {
    X86_ACCESS_NONE = 0, /* address computation only: LEA, NOP r/m, prefetch */
    X86_ACCESS_READ = 1,
    X86_ACCESS_WRITE = 2,
    X86_ACCESS_READ_WRITE = 3,
};

struct x86_mem {
    uint8_t base;  /* enum x86_gpr */
    uint8_t index; /* enum x86_gpr */
    uint8_t scale; /* 1, 2, 4, 8 */
    uint8_t segment; /* enum x86_segment: the override, else the default */
    uint8_t access;  /* enum x86_access */
    uint8_t size;    /* bytes accessed; 0 when unknown (XSAVE, FXSAVE...) */
    int64_t disp;
};

enum x86_fp {
    X86_FP_NONE,
    X86_FP_X87,  /* D8-DF escapes, and FWAIT */
    X86_FP_MMX,
    X86_FP_SSE,  /* SSE to SSE4.2, AES, SHA, PCLMUL, F16C */
    X86_FP_AVX,  /* VEX and EVEX encoded */
};

/* The P5 (Pentium) pairing class (isa/p5_pairing.c, docs/isa.md). */
enum x86_p5_class {
    X86_P5_NP, /* not pairable: issues to the U pipe alone */
    X86_P5_UV, /* pairable in either pipe */
    X86_P5_PU, /* pairable in the U pipe only (as the first of a pair) */
    X86_P5_PV, /* pairable in the V pipe only (as the second of a pair) */
    X86_P5_FX, /* x87 instruction that pairs with a following FXCH */
};

/* The CPUID feature an instruction needs (isa/x86_feature.c, docs/isa.md,
 * "CPUID features"): the one feature flag whose absence makes it fault
 * (#UD) or, for LZCNT, run as BSR.  X86_FEATURE_NONE: every modelled part
 * runs it (the 8086 to Pentium instructions, the x87; PAUSE, a NOP before
 * the Pentium 4; TZCNT, BSF without BMI1). */
enum x86_feature {
    X86_FEATURE_NONE,
    X86_FEATURE_CMOV,       /* CMOVcc, FCMOVcc, FCOMI, FCOMIP, FUCOMI, FUCOMIP */
    X86_FEATURE_MMX,
    X86_FEATURE_SSE,        /* with the MMX-register integer forms SSE added (PSHUFW...) */
    X86_FEATURE_SSE2,
    X86_FEATURE_SSE3,
    X86_FEATURE_SSSE3,
    X86_FEATURE_SSE4_1,
    X86_FEATURE_SSE4_2,
    X86_FEATURE_AVX,
    X86_FEATURE_AVX2,
    X86_FEATURE_FMA,
    X86_FEATURE_AVX512,     /* any AVX-512 instruction: AVX512F is their base */
    X86_FEATURE_BMI1,
    X86_FEATURE_BMI2,
    X86_FEATURE_ADX,
    X86_FEATURE_AES,
    X86_FEATURE_PCLMULQDQ,
    X86_FEATURE_SHA,
    X86_FEATURE_F16C,
    X86_FEATURE_3DNOW,
    X86_FEATURE_SSE4A,
    X86_FEATURE_XOP,
    X86_FEATURE_FMA4,
    X86_FEATURE_TBM,
    X86_FEATURE_RTM,        /* XBEGIN, XEND, XABORT, XTEST (HLE's prefixes are ignored) */
    X86_FEATURE_POPCNT,
    X86_FEATURE_LZCNT,
    X86_FEATURE_MOVBE,
    X86_FEATURE_RDRAND,
    X86_FEATURE_RDSEED,
    X86_FEATURE_TSC,        /* RDTSC */
    X86_FEATURE_CX8,        /* CMPXCHG8B */
    X86_FEATURE_CX16,       /* CMPXCHG16B */
    X86_FEATURE_CLFSH,      /* CLFLUSH */
    X86_FEATURE_CLFLUSHOPT,
    X86_FEATURE_CLWB,
    X86_FEATURE_FXSR,       /* FXSAVE, FXRSTOR */
    X86_FEATURE_XSAVE,      /* XSAVE, XRSTOR, XGETBV, XSETBV */
    X86_FEATURE_XSAVEOPT,
    X86_FEATURE_XSAVEC,
    X86_FEATURE_XSAVES,     /* XSAVES, XRSTORS */
    X86_FEATURE_SYSCALL,    /* SYSCALL, SYSRET */
    X86_FEATURE_SEP,        /* SYSENTER, SYSEXIT */
    X86_FEATURE_RDTSCP,
    X86_FEATURE_MONITOR,    /* MONITOR, MWAIT */
    X86_FEATURE_FSGSBASE,
    X86_FEATURE_PRFCHW,     /* PREFETCHW */
    X86_FEATURE_LONG_NOP,   /* 0F 18-0F 1F: NOP r/m, the hint NOPs, ENDBR32/64 */
    X86_FEATURE_COUNT
};

struct x86_insn {
    uint64_t address;
    uint8_t length;
    uint8_t bytes[X86_MAX_LENGTH];
    uint16_t prefixes;   /* X86_PFX_* */
    uint8_t segment;     /* enum x86_segment: the segment-override prefix */
    uint8_t operand_size; /* bytes: 1, 2, 4, 8; see docs/isa.md */
    uint8_t address_size; /* bytes: 2, 4, 8 */
    uint8_t branch;       /* enum x86_branch */
    bool has_target;      /* a direct branch: target is valid */
    uint64_t target;
    uint8_t n_mem;        /* explicit and string memory operands */
    struct x86_mem mem[X86_MAX_MEM];
    bool stack;           /* implicit stack access: PUSH, POP, CALL, RET... */
    uint32_t regs_read;    /* X86_REG_BIT(), X86_REG_FLAGS */
    uint32_t regs_written;
    uint8_t flags_read;    /* X86_FLAG_* */
    uint8_t flags_written;
    uint8_t fp;            /* enum x86_fp */
    bool string;           /* MOVS, CMPS, SCAS, LODS, STOS, INS, OUTS */
    bool rep;              /* a string instruction with a REP/REPNE prefix */
    bool serializing;      /* SDM vol. 3A 9.3 (8.3 in older editions) */
    bool has_disp;         /* a displacement field is encoded */
    bool has_imm;          /* an immediate field is encoded */
    bool capstone;         /* decoded by capstone (else by the fallback) */
    uint8_t p5_class;      /* enum x86_p5_class */
    uint8_t netburst_uops; /* micro-ops (isa/netburst_uops.c) */
    bool netburst_msrom;   /* more than 4 uops: from the microcode ROM */
    uint8_t feature;       /* enum x86_feature: the CPUID feature it needs */
    uint8_t opcode[3];     /* the opcode bytes after prefixes (0F, 0F 38...) */
    uint8_t opcode_len;
    uint8_t modrm;         /* valid when has_modrm */
    bool has_modrm;
    uint16_t id;           /* capstone's X86_INS_* id, 0 for the fallback */
    char mnemonic[16];     /* capstone's (Intel syntax), for messages */
    /* The timing tables' key (docs/isa.md, "Forms"): the mnemonic without
     * prefixes, a condition code written "cc" (jcc, setcc, cmovcc,
     * fcmovcc), and the operands' kinds ("r32,m32", "xmm,xmm", "st,st",
     * "r32,cl", "" for none); both empty for the fallback. */
    char family[16];
    char form[24];
    /* The x87 stack (docs/isa.md, "x87 stack"): ST(i) read and written,
     * bit i relative to the top before the instruction; then st_pops pops
     * and st_pushes pushes (a push writes the new top). */
    uint8_t st_read, st_written, st_pops, st_pushes;
    uint8_t mm_read, mm_written;     /* MM0-MM7 */
    uint16_t xmm_read, xmm_written;  /* XMM0-XMM15 (and the YMM registers they are part of) */
};

struct x86_decoder;

struct x86_decoder *x86_decoder_create(enum x86_mode mode);
void x86_decoder_destroy(struct x86_decoder *decoder);
bool x86_decoder_decode(struct x86_decoder *decoder, const uint8_t *bytes, size_t size,
                        uint64_t address, struct x86_insn *out);

enum { X86_TEXT_SIZE = 192 }; /* capstone's mnemonic (32) and operands (160) */

/* The text of the instruction at the start of `bytes` (`size` of them) at
 * `address`, as capstone writes it in Intel syntax ("add eax, dword ptr
 * [ebx + 4]"; "MNEMONIC" alone without operands), read as the decoder reads
 * it, for the few instructions a pipeline view shows (docs/pipeview.md):
 * x86_insn keeps no operand text.  False (out untouched) when capstone
 * reads no instruction there. */
bool x86_decoder_text(struct x86_decoder *decoder, const uint8_t *bytes, size_t size,
                      uint64_t address, char *out, size_t out_size);

/* With this thread's decoder for MODE, created on first use; false on bytes
 * that are not a valid instruction (or too few of them), or when the mode is
 * neither 32 nor 64. */
bool x86_decode(const uint8_t *bytes, size_t size, uint64_t address, enum x86_mode mode,
                struct x86_insn *out);
/* Frees this thread's decoders (for leak checkers); x86_decode() recreates them. */
void x86_decode_release(void);

/* ---- CPUID features (isa/x86_feature.c, docs/isa.md "CPUID features") */

struct cpu_view; /* traces/cpu_view.h */

/* Whether the CPU `view` describes has feature `f`, by its CPUID answers
 * (the flag's leaf within the view's maximum, then its bit; the long NOP
 * by the family field).  X86_FEATURE_NONE, and any feature of a view
 * without leaves (n == 0: not known), is present. */
bool x86_feature_present(enum x86_feature f, const struct cpu_view *view);
/* The feature's name as the SDM's CPUID flag names it ("CMOV", "SSE4.1",
 * "AVX-512", "long NOP"...); "?" for a value out of range. */
const char *x86_feature_name(enum x86_feature f);

const char *x86_branch_name(enum x86_branch branch);
const char *x86_p5_class_name(enum x86_p5_class cls);

/* The tables, applied by the decoder (exported for tests). */
/* Sets st_read, st_written, st_pops and st_pushes of an x87 instruction
 * (fp X86_FP_X87, opcode and modrm set) from its opcode (isa/x86_x87.c). */
void x86_x87_stack_of(struct x86_insn *insn);
/* The family of a capstone mnemonic (prefixes dropped, condition codes as
 * "cc"), written to family[size]. */
void x86_family_of(const char *mnemonic, char *family, size_t size);
enum x86_p5_class x86_p5_class_of(const struct x86_insn *insn);
/* Sets netburst_uops and netburst_msrom. */
void x86_netburst_uops_of(struct x86_insn *insn);
enum { X86_NB_MSROM_UOPS = 5 };

#endif
