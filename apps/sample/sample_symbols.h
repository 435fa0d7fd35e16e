/* The symbols that name sampled addresses (docs/sample.md, "Symbols" and
 * "Position-independent programs"): an ELF file's (traces/elf_symbols.h),
 * at the load base where a trace runs the file's entry point, and the
 * samples counted per symbol for the histogram. */
#ifndef APPS_SAMPLE_SAMPLE_SYMBOLS_H
#define APPS_SAMPLE_SAMPLE_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "traces/elf_symbols.h"

/* The samples of one symbol. */
struct sample_count {
    const char *symbol; /* its name; "[unknown]": the addresses no symbol covers */
    uint64_t count;
};

/* Zero-initialised: no symbols (the addresses stay raw). */
struct sample_symbols {
    struct elf_symbols *elf;     /* NULL: none */
    uint64_t base;               /* runtime address = file address + base */
    struct sample_count *counts; /* by symbol index; the last, "[unknown]" */
    struct sample_count *rows;   /* the histogram: `counts` sorted */
};

/* Loads `path`'s symbols and finds their load base in `trace`: 0 for an
 * executable (ET_EXEC), whose code at its entry point must be the trace's
 * when both have it; for a position-independent file (ET_DYN) the address
 * of the first instruction a whole number of 4 KB pages from e_entry
 * where the trace runs the file's code at its entry (16 bytes, or up to a
 * taken branch), minus e_entry.  False with the reason in `why` (the
 * file's error, no symbols, another program's code, an unknown base), and
 * *trace_failed when it is that the trace could not be read. */
bool sample_symbols_load(struct sample_symbols *symbols, const char *path, const char *trace,
                         bool *trace_failed, char *why, size_t why_size);

/* The symbol covering the runtime address `address`, in *match, and
 * counted; NULL when none does (counted as "[unknown]") or without
 * symbols (not counted). */
const struct elf_symbol_match *sample_symbols_name(struct sample_symbols *symbols,
                                                   uint64_t address,
                                                   struct elf_symbol_match *match);

/* Every count back to 0. */
void sample_symbols_reset(struct sample_symbols *symbols);

/* The symbols sampled so far, most samples first, then by name, in *rows
 * (valid until the next call, sample_symbols_reset or _free): how many (0
 * without symbols).  Symbols of one name (locals of two files) are
 * counted apart.  It sorts a copy of the counts: counting may go on. */
size_t sample_symbols_histogram(struct sample_symbols *symbols, const struct sample_count **rows);

void sample_symbols_free(struct sample_symbols *symbols);

#endif
