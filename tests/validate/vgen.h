/* The validation suite's kernel generator (docs/validate.md, "Method"):
 * for one timing-table row (a family and an operand form) and one kind of
 * measurement, the assembly (GNU as, .intel_syntax noprefix, 32-bit) of the
 * units a kernel repeats: a latency chain (each instruction reads the one
 * before's result), a throughput stream (independent copies rotating their
 * destination) or, on the P5, a pair (two instructions issued together).
 * Pure text: tests/unit/test_validate.c checks it exactly. */
#ifndef TESTS_VALIDATE_VGEN_H
#define TESTS_VALIDATE_VGEN_H

#include <stdbool.h>
#include <stddef.h>

/* TAKEN: a conditional branch's stream, taken (THROUGHPUT: not taken);
 * REP: a string instruction with a REP prefix and a count of
 * VGEN_REP_COUNT. */
enum vgen_kind {
    VGEN_LATENCY, VGEN_THROUGHPUT, VGEN_TAKEN, VGEN_PAIR, VGEN_REP, VGEN_NUM_KINDS
};
enum { VGEN_REP_COUNT = 16 };

/* The P5 pairing classes (isa/x86.h enum x86_p5_class) a kernel knows;
 * VGEN_NO_PAIRING for the NetBurst. */
enum { VGEN_NO_PAIRING = -1 };

struct vgen_row {
    const char *family; /* x86_insn.family: "add", "jcc", "fadd" */
    const char *form;   /* x86_insn.form as the table has it: "r,r", "r32,m32", "st" */
    int p5_class;       /* enum x86_p5_class as published, or VGEN_NO_PAIRING */
    bool rep;           /* a string instruction with a published REP figure */
};

enum {
    VGEN_MAX_PERIOD = 16, /* distinct units before they repeat */
    VGEN_UNIT_TEXT = 160,
    VGEN_SHORT_UNITS = 240, /* units of a kernel's short run (K x L), about */
};

/* What a kernel needs set up before it runs (vprog.c). */
enum {
    VGEN_SETUP_X87 = 1u << 0,   /* FNINIT and eight FLD1: a full x87 stack */
    VGEN_SETUP_MMX = 1u << 1,   /* MM0-MM7 loaded (EMMS after) */
};

struct vgen_kernel {
    enum vgen_kind kind;
    int period;            /* units[0..period) repeat */
    int copies;            /* K: units per iteration in the short run (the long: 2K) */
    int iterations;        /* L */
    int per_unit;          /* instructions of the row in one unit */
    int stack_per_unit;    /* bytes a unit pushes (> 0) or pops (< 0): balanced per iteration */
    unsigned setup;        /* VGEN_SETUP_* */
    char units[VGEN_MAX_PERIOD][VGEN_UNIT_TEXT]; /* lines separated by '\n' */
    char prologue[256];    /* run once per iteration before the units, or "" */
    const char *note;      /* what else the units hold ("+ fxch"), or NULL */
    /* A row measured with another (CALL with RET): the published figure is
     * the sum of the two rows'; NULL for none. */
    const char *with_family, *with_form;
    const char *with2_family, *with2_form; /* a second one (CALL r: its MOV), or NULL */
};

/* Whether `kind` applies to `row`: TAKEN to conditional branches, PAIR to
 * the P5's pairable classes, THROUGHPUT not to the P5's UV class (two
 * copies pair: measured as PAIR), REP to rows with a REP figure. */
bool vgen_applies(const struct vgen_row *row, enum vgen_kind kind);

/* The kernel of `row` for `kind` (one that applies): true; false with why
 * not in `why` (one phrase: "no result but the flags"...). */
bool vgen_plan(const struct vgen_row *row, enum vgen_kind kind, struct vgen_kernel *kernel,
               char *why, size_t why_size);

/* The text of unit `i` of the kernel (units[i % period]). */
const char *vgen_unit(const struct vgen_kernel *kernel, int i);

/* GNU as's mnemonic of a family: a condition code family with one
 * condition ("jcc" -> "jz"; taken: "jnz"), capstone's names GNU as spells
 * otherwise ("pushal" -> "pushad", "pushf" -> "pushfw"), else the family
 * itself. */
const char *vgen_mnemonic(const char *family, bool taken);

#endif
