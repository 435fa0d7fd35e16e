/* The NetBurst instruction timings as data (docs/netburst-timings.md):
 * latency, throughput and execution unit per instruction family and operand
 * form, by CPUID model group, every row cited.  The decoder gives each
 * instruction its key (isa/x86.h: family and form); the model looks the row
 * up once per static instruction (sim/netburst/nbm_op.c). */
#ifndef SIM_NETBURST_NBM_TIMINGS_H
#define SIM_NETBURST_NBM_TIMINGS_H

#include <stddef.h>
#include <stdint.h>

/* CPUID model groups with their own published columns: family 0F models
 * 0-2 (Willamette, Northwood: Intel publishes one column, 0F2n, used for
 * 0F0n/0F1n too, docs/netburst-timings.md) and models 3, 4, 6 (Prescott,
 * Cedar Mill: 0F3n). */
enum nbm_timing_group { NBM_TG_0F2N, NBM_TG_0F3N, NBM_NUM_TIMING_GROUPS };

/* Execution units as Intel names them (Optimization Reference Manual,
 * appendix C, and chapter 1's port diagram). */
enum nbm_exec_unit {
    NBM_EU_ALU,       /* double-speed integer ALU, ports 0 and 1 */
    NBM_EU_INT,       /* normal-speed integer unit (shift, rotate), port 1 */
    NBM_EU_MUL,       /* integer multiply (on the FP multiplier), port 1 */
    NBM_EU_COMPLEX,   /* "-": microcode or several units (the row's latency only) */
    NBM_EU_FP_ADD,    /* port 1 */
    NBM_EU_FP_MUL,    /* port 1 */
    NBM_EU_FP_DIV,    /* port 1, not pipelined */
    NBM_EU_FP_MISC,   /* port 1 */
    NBM_EU_FP_MOVE,   /* port 0 */
    NBM_EU_MMX_ALU,   /* port 1 */
    NBM_EU_MMX_SHFT,  /* port 1 */
    NBM_EU_MMX_MISC,  /* port 1 */
    NBM_EU_LOAD,      /* port 2 */
    NBM_EU_STORE,     /* port 3 */
    NBM_EU_BRANCH,    /* branch unit on port 0 */
    NBM_NUM_EXEC_UNITS,
};

/* Times in half cycles (the double-speed ALU's 0.5); 0: not published. */
struct nbm_timing_cell {
    uint16_t latency, latency_max;       /* a range "66-80": low and high; = for one figure */
    uint16_t throughput, throughput_max; /* cycles between independent issues */
};

struct nbm_timing {
    const char *family;   /* x86_insn.family: "add", "addsd", "fadd" */
    const char *form;     /* x86_insn.form, sized or not ("xmm,xmm", "r,r"); "" no operands */
    struct nbm_timing_cell t[NBM_NUM_TIMING_GROUPS];
    uint8_t unit;         /* enum nbm_exec_unit of its computing uop */
    const char *source;   /* a key of docs/references.md and the table's page or row */
};

extern const struct nbm_timing nbm_timings[];
extern const size_t nbm_timings_count;

/* The row of FAMILY with FORM (the sized form first, then unsized, then
 * "cl" as "r"); NULL when none matches. */
const struct nbm_timing *nbm_timing_find(const char *family, const char *form);

/* The timing group of a CPUID model (0-6). */
enum nbm_timing_group nbm_timing_group_of(int model);

#endif
