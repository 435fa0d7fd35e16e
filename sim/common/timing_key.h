/* The timing tables' key (docs/p5-timings.md, "The key"): the forms under
 * which an instruction's row is looked up, most specific first.  Shared by
 * the P5 and NetBurst tables (sim/p5/p5_timings.c, sim/netburst/). */
#ifndef SIM_COMMON_TIMING_KEY_H
#define SIM_COMMON_TIMING_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TIMING_FORM_MAX = 24, TIMING_FORM_CANDIDATES = 3 };

/* Writes the candidate forms of FORM (an x86_insn.form) to OUT in lookup
 * order and returns how many are distinct (1 to 3):
 *   1. FORM as given:                         "r32,cl"
 *   2. operand sizes dropped (r8..r64 -> r,
 *      m8..m512 -> m):                        "r,cl"
 *   3. the unsized form with "cl" as "r", "1"
 *      (a shift by one) as "i" and an LEA's
 *      address shape as "m":                 "r,r"
 * A candidate equal to the one before it is not repeated.  A form too long
 * for OUT is cut at TIMING_FORM_MAX - 1 characters. */
size_t timing_form_candidates(const char *form, char out[TIMING_FORM_CANDIDATES][TIMING_FORM_MAX]);

/* Whether FORM is made of the decoder's operand kinds (docs/isa.md,
 * "Forms"), sized or not: what a table row's form may be. */
bool timing_form_valid(const char *form);

/* FORM with each memory operand as a register of KIND, into OUT: a general
 * register of the operand's size for "r" ("m32,i" -> "r32,i"), KIND itself
 * otherwise ("m64" with "st" -> "st"); with KIND NULL, the unsized kind of
 * FORM's first register operand ("xmm,m64" -> "xmm,xmm", "m32,r32" ->
 * "r32,r32").  The number of operands replaced: 0 when FORM has no memory
 * operand, KIND is NULL and FORM no register operand, or OUT is too short.
 * For a machine that executes a memory operand as uops of its own
 * (NetBurst: isa/netburst_uops.c), the computing uop of a memory form is
 * the register form's. */
size_t timing_form_memory_as(const char *form, const char *kind, char out[TIMING_FORM_MAX]);

/* A timing table's rows by family, for look-ups once per static
 * instruction: COUNT rows of STRIDE bytes from ROWS, each beginning with its
 * family (const char *) and with its form (const char *) FORM_OFFSET bytes
 * in; ORDER has COUNT entries (the index's storage). */
struct timing_index {
    const char *rows;
    size_t count, stride, form_offset;
    uint16_t *order;
};

/* Sorts the order by family, a family's rows in their table order. */
void timing_index_build(struct timing_index *index);

/* The row of FAMILY with the first of FORM's candidate forms
 * (timing_form_candidates) that has one, the first such in table order;
 * NULL when none. */
const void *timing_index_find(const struct timing_index *index, const char *family,
                              const char *form);

#endif
