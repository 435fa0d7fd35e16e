/* The timing tables' key (docs/p5-timings.md, "Key"): the forms under
 * which an instruction's row is looked up, most specific first.  Shared by
 * the P5 and NetBurst tables (sim/p5/p5_timings.c, sim/netburst/). */
#ifndef SIM_COMMON_TIMING_KEY_H
#define SIM_COMMON_TIMING_KEY_H

#include <stdbool.h>
#include <stddef.h>

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

/* FORM with each memory operand as a register, unsized: the kind of the
 * first register operand ("xmm,m64" -> "xmm,xmm", "m32,r32" -> "r,r",
 * "m32,i" -> "r,i"), or DEFAULT_KIND when there is none ("m64" with "st"
 * -> "st").  For a machine that executes a memory operand as uops of its
 * own (NetBurst: isa/netburst_uops.c), the computing uop of a memory form
 * is the register form's. */
void timing_form_registers(const char *form, const char *default_kind, char out[TIMING_FORM_MAX]);

#endif
