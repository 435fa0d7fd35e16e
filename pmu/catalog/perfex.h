/* perfex's NetBurst event specs, "-e CCCR/ESCR@PMC" (the Pentium 4
 * monitoring study, section 11; perfctr's perfex tool): the CCCR's and
 * the ESCR's values and the counter, PMC bit 31 asking for fast RDPMC.
 * `pmubench decode` reads one (docs/decode.md), `pmubench encode --perfex`
 * writes them (docs/events.md).
 *
 *   struct perfex_spec spec;
 *   if (perfex_spec_parse("0x0003B000/0x2C000204@0x8000000C", &spec) == PERFEX_SPEC_OK) ...
 */
#ifndef PMU_CATALOG_PERFEX_H
#define PMU_CATALOG_PERFEX_H

#include <stddef.h>
#include <stdint.h>

/* PMC bit 31: perfex reads the counter with a fast RDPMC. */
#define PERFEX_FAST_RDPMC 0x80000000u

struct perfex_spec {
    uint64_t cccr, escr;
    int counter; /* 0 to NB_NUM_COUNTERS - 1 */
};

enum perfex_spec_status {
    PERFEX_SPEC_OK,
    PERFEX_SPEC_SYNTAX, /* not CCCR/ESCR@PMC */
    PERFEX_SPEC_VALUE,  /* a part not a number (util/number.h), or no counter of 0-17 */
};

/* Reads "CCCR/ESCR@PMC", each a number as util/number.h reads them (PMC
 * with or without PERFEX_FAST_RDPMC). */
enum perfex_spec_status perfex_spec_parse(const char *text, struct perfex_spec *spec);

/* The spec as perfex's examples write it, "0xCCCCCCCC/0xEEEEEEEE@0x8000000N"
 * (fast RDPMC): at most PERFEX_SPEC_SIZE bytes with the NUL. */
enum { PERFEX_SPEC_SIZE = 64 };
void perfex_spec_format(const struct perfex_spec *spec, char out[PERFEX_SPEC_SIZE]);

/* The CCCR perfex needs to program ESCR `escr` (an index into nb_escrs)
 * through one of its counters: enabled for either thread, selecting that
 * ESCR; what `encode --perfex` gives an event's upstream ESCR. */
uint64_t perfex_upstream_cccr(int escr);

#endif
