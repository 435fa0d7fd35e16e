/* The CPUID answers of the modelled processors (docs/traces.md, "The CPU
 * view"; each part's source in traces/cpu_parts.c): the table behind
 * cpu_view_named()'s parts. */
#ifndef TRACES_CPU_PARTS_H
#define TRACES_CPU_PARTS_H

#include <stddef.h>

#include "cpu_view.h"

struct cpu_part {
    const char *name;                 /* "p5", "pmmx", "netburst-northwood"... */
    const struct cpuid_leaf *leaves;  /* sorted as a view's */
    size_t n;
};

extern const struct cpu_part cpu_parts[];
extern const size_t cpu_parts_count;

#endif
