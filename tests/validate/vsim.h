/* The validation suite's simulations (docs/validate.md, "Cycles per
 * region"): one trace through a model preset, with the cycles of each
 * region read from the model's PMU at its markers (the NetBurst model
 * drains its pipeline at each marker; the P5 model issues the instruction
 * it holds back for pairing); and a census of which table row each
 * region's instructions are classified to. */
#ifndef TESTS_VALIDATE_VSIM_H
#define TESTS_VALIDATE_VSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum vsim_model { VSIM_P5, VSIM_NETBURST };

/* Simulates `trace` on `preset` (a P5 preset, "p5"; or a NetBurst one,
 * "northwood"...); cycles[r] is region r's cycles, for r in 1..n_regions
 * (0 for a region that never ended).  False with a one-line error. */
bool vsim_run(const char *trace, enum vsim_model model, const char *preset, uint64_t *cycles,
              size_t n_regions, char *error, size_t error_size);

enum { VSIM_KEY = 48 };

struct vsim_census {
    uint64_t matches;   /* instructions classified to the region's row */
    char key[VSIM_KEY]; /* "family form" of the region's commonest instruction of the
                         * row's family (else of any), for a message */
};

/* The row an instruction of `family` with `form` is classified to (the
 * table's lookup), as an opaque pointer. */
typedef const void *vsim_row_of(const char *family, const char *form);

/* For each region r in 1..n_regions whose rows[r] is not NULL: how many of
 * its instructions row_of classifies to rows[r], in census[r]; families[r]
 * is that row's family.  False with a one-line error. */
bool vsim_census(const char *trace, vsim_row_of *row_of, const void *const *rows,
                 const char *const *families, struct vsim_census *census, size_t n_regions,
                 char *error, size_t error_size);

#endif
