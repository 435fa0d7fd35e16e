/* The symbols that name sampled addresses (apps/sample/sample_symbols.h,
 * docs/sample.md). */
#include "sample_symbols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/input_file.h"
#include "traces/trace.h"

/* Where the trace runs the program's entry point: the first instruction
 * at the entry's address (ET_EXEC) or at one a whole number of 4 KB pages
 * from it (ET_DYN, loaded at a page boundary), whose bytes and those of
 * the instructions that follow it straight on are the file's code at the
 * entry for its first 16 bytes, or up to a taken branch. */
enum entry_search { ENTRY_FOUND, ENTRY_NOT_RUN, ENTRY_OTHER_CODE, ENTRY_TRACE_ERROR };

struct entry_run {
    const uint8_t *code;
    size_t code_size, wanted;
    uint64_t entry, start, matched;
    bool position_independent;
};

static bool starts_entry_run(const struct entry_run *run, uint64_t address)
{
    return run->position_independent ? ((address - run->entry) & 0xfff) == 0
                                     : address == run->entry;
}

static bool continues_entry_code(const struct entry_run *run, const struct trace_insn *insn)
{
    return insn->has_bytes && insn->length <= run->code_size - run->matched &&
           memcmp(insn->bytes, run->code + run->matched, insn->length) == 0;
}

/* One instruction of the trace against the entry code. */
static enum entry_search match_entry(struct entry_run *run, const struct trace_insn *insn)
{
    if (run->matched > 0 && insn->address != run->start + run->matched)
        run->matched = 0;
    if (run->matched == 0) {
        if (!starts_entry_run(run, insn->address))
            return ENTRY_NOT_RUN;
        run->start = insn->address;
    }
    if (!continues_entry_code(run, insn)) {
        run->matched = 0;
        return run->position_independent || !insn->has_bytes ? ENTRY_NOT_RUN : ENTRY_OTHER_CODE;
    }
    run->matched += insn->length;
    return run->matched >= run->wanted || insn->branch == TRACE_BRANCH_TAKEN ? ENTRY_FOUND
                                                                             : ENTRY_NOT_RUN;
}

/* Reads the trace up to the entry point's code; ENTRY_TRACE_ERROR with
 * the reader's message in `error`. */
static enum entry_search find_entry(const char *trace, const struct elf_symbols *elf,
                                    uint64_t *start, char *error, size_t error_size)
{
    struct entry_run run = {.entry = elf_symbols_entry(elf),
                            .position_independent = elf_symbols_position_independent(elf)};
    run.code_size = elf_symbols_entry_code(elf, &run.code);
    run.wanted = run.code_size < 16 ? run.code_size : 16;
    if (run.code_size == 0)
        return ENTRY_NOT_RUN;
    FILE *in = input_open(trace, error, error_size);
    if (!in)
        return ENTRY_TRACE_ERROR;
    struct trace_reader *reader = trace_reader_open(in, trace, error, error_size);
    enum entry_search result = ENTRY_TRACE_ERROR;
    const struct trace_record *record;
    while (reader) {
        if (trace_next(reader, &record) != TRACE_OK) {
            snprintf(error, error_size, "%s", trace_reader_error(reader));
            break;
        }
        if (record->kind == TRACE_RECORD_END) {
            result = ENTRY_NOT_RUN;
            break;
        }
        if (record->kind == TRACE_RECORD_INSN &&
            (result = match_entry(&run, &record->insn)) != ENTRY_NOT_RUN)
            break;
    }
    if (reader)
        trace_reader_close(reader);
    fclose(in);
    *start = run.start;
    return result;
}

/* The load base: 0 for ET_EXEC (checked against the trace's code at the
 * entry point when both have it), the entry's runtime address minus
 * e_entry for ET_DYN.  False with the reason in `why`; *trace_failed when
 * the trace itself could not be read. */
static bool load_base(const char *path, const char *trace, const struct elf_symbols *elf,
                      uint64_t *base, bool *trace_failed, char *why, size_t why_size)
{
    uint64_t entry = elf_symbols_entry(elf), start = 0;
    enum entry_search found = find_entry(trace, elf, &start, why, why_size);
    *trace_failed = found == ENTRY_TRACE_ERROR;
    *base = 0;
    if (found == ENTRY_OTHER_CODE) {
        snprintf(why, why_size, "%s: the trace runs other code at its entry point 0x%llx: not "
                 "the program traced", path, (unsigned long long)entry);
        return false;
    }
    if (!elf_symbols_position_independent(elf))
        return !*trace_failed;
    if (found == ENTRY_FOUND) {
        *base = start - entry;
        return true;
    }
    if (!*trace_failed)
        snprintf(why, why_size, "%s: position-independent (ET_DYN), and the trace does not run "
                 "the code at its entry point 0x%llx: its load base is unknown",
                 path, (unsigned long long)entry);
    return false;
}

bool sample_symbols_load(struct sample_symbols *symbols, const char *path, const char *trace,
                         bool *trace_failed, char *why, size_t why_size)
{
    *trace_failed = false;
    struct elf_symbols *elf = elf_symbols_load(path, why, why_size);
    if (!elf)
        return false;
    size_t count = elf_symbols_count(elf);
    if (count == 0) {
        snprintf(why, why_size, "%s: no function or object symbols (%s)", path,
                 *elf_symbols_table(elf) ? elf_symbols_table(elf) : "no .symtab or .dynsym");
    } else if (load_base(path, trace, elf, &symbols->base, trace_failed, why, why_size)) {
        symbols->counts = calloc(count + 1, sizeof *symbols->counts);
        symbols->rows = calloc(count + 1, sizeof *symbols->rows);
        if (symbols->counts && symbols->rows) {
            for (size_t k = 0; k < count; k++)
                symbols->counts[k].symbol = elf_symbols_name(elf, k);
            symbols->counts[count].symbol = "[unknown]";
            symbols->elf = elf;
            return true;
        }
        free(symbols->counts);
        free(symbols->rows);
        symbols->counts = symbols->rows = NULL;
        snprintf(why, why_size, "%s: out of memory", path);
    }
    elf_symbols_free(elf);
    return false;
}

const struct elf_symbol_match *sample_symbols_name(struct sample_symbols *symbols,
                                                   uint64_t address,
                                                   struct elf_symbol_match *match)
{
    if (!symbols->elf)
        return NULL;
    if (!elf_symbols_lookup(symbols->elf, address - symbols->base, match)) {
        symbols->counts[elf_symbols_count(symbols->elf)].count++;
        return NULL;
    }
    symbols->counts[match->index].count++;
    return match;
}

static int by_count(const void *a, const void *b)
{
    const struct sample_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->symbol, y->symbol);
}

void sample_symbols_reset(struct sample_symbols *symbols)
{
    if (!symbols->elf)
        return;
    for (size_t k = 0; k <= elf_symbols_count(symbols->elf); k++)
        symbols->counts[k].count = 0;
}

size_t sample_symbols_histogram(struct sample_symbols *symbols, const struct sample_count **rows)
{
    *rows = symbols->rows;
    if (!symbols->elf)
        return 0;
    size_t n = elf_symbols_count(symbols->elf) + 1;
    memcpy(symbols->rows, symbols->counts, n * sizeof *symbols->rows);
    qsort(symbols->rows, n, sizeof *symbols->rows, by_count);
    size_t sampled = 0;
    while (sampled < n && symbols->rows[sampled].count > 0)
        sampled++;
    return sampled;
}

void sample_symbols_free(struct sample_symbols *symbols)
{
    elf_symbols_free(symbols->elf);
    free(symbols->counts);
    free(symbols->rows);
    *symbols = (struct sample_symbols){0};
}
