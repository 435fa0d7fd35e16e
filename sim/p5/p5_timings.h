/* The Pentium's instruction timings as data (docs/p5-timings.md): one row
 * per instruction family and operand form, every row cited.  The decoder
 * gives each instruction its key (isa/x86.h: family and form); the model
 * looks the row up once per static instruction (sim/p5/p5_op.c). */
#ifndef SIM_P5_P5_TIMINGS_H
#define SIM_P5_P5_TIMINGS_H

#include <stddef.h>
#include <stdint.h>

/* x87 precision control (FPU control word bits 8-9): the divide and the
 * square root take fewer clocks at lower precision. */
enum p5_precision { P5_PRECISION_SINGLE, P5_PRECISION_DOUBLE, P5_PRECISION_EXTENDED,
                    P5_NUM_PRECISIONS };

struct p5_timing {
    const char *family;   /* x86_insn.family: "add", "jcc", "fadd" */
    const char *form;     /* x86_insn.form, sized ("r32,m32") or not ("r,m"); "" no operands */
    uint8_t clocks;       /* clocks the instruction occupies its pipe (a range: the low end) */
    uint8_t clocks_max;   /* a range's high end; = clocks for one figure */
    uint8_t pairing;      /* enum x86_p5_class as published: NP UV PU PV FX */
    uint8_t latency;      /* x87: clocks until its result can be used; 0: = clocks */
    uint8_t by_precision[P5_NUM_PRECISIONS]; /* FDIV, FSQRT...: clocks per precision; 0: none */
    uint8_t mmx_only;     /* an MMX instruction: the Pentium MMX only */
    uint8_t rep_base;     /* string instructions with a REP prefix: rep_base + rep_per * count */
    uint8_t rep_per;      /*   clocks in all (both 0: no published REP figure) */
    const char *source;   /* a key of docs/references.md and the table's page or row */
};

extern const struct p5_timing p5_timings[];
extern const size_t p5_timings_count;

/* The row of FAMILY with FORM: the sized form first, then the form with
 * the sizes left out ("r32,m32" -> "r,m"), then with "cl" as "r"; NULL
 * when none matches. */
const struct p5_timing *p5_timing_find(const char *family, const char *form);

#endif
