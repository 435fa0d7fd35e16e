/* The symbols of an ELF executable or shared object, to name the
 * addresses of a trace (`pmubench sample`; docs/sample.md).  32- and
 * 64-bit little-endian ELF (the x86 programs pmubench records), read from
 * untrusted files: every read is bounds-checked and a malformed file gets
 * one line, "FILE: byte offset N: what was found, what was expected".
 *
 *   struct elf_symbols *elf = elf_symbols_load(path, error, sizeof error);
 *   struct elf_symbol_match m;
 *   if (elf_symbols_lookup(elf, address - base, &m)) ... m.name, m.offset ...
 *   elf_symbols_free(elf);
 *
 * The symbols are those of .symtab (the SHT_SYMTAB section), else .dynsym
 * (SHT_DYNSYM): functions, objects, GNU indirect functions and untyped
 * labels with a name, defined in a section the program loads (SHF_ALLOC).
 * An address belongs to the nearest symbol at or below it that covers it:
 * a sized symbol covers [value, value + size), a symbol of size 0 covers
 * up to the next symbol's value in its section, or the section's end.
 * Addresses are the file's (st_value): a position-independent program's
 * runtime addresses need its load base subtracted. */
#ifndef TRACES_ELF_SYMBOLS_H
#define TRACES_ELF_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The bytes of code kept from the entry point, to find it in a trace. */
enum { ELF_SYMBOLS_ENTRY_CODE = 32 };

struct elf_symbols;

struct elf_symbol_match {
    size_t index;     /* 0 to elf_symbols_count() - 1, for elf_symbols_name() */
    const char *name; /* bytes outside printable ASCII, and spaces, as '?' */
    uint64_t offset;  /* of the address from the symbol's value */
};

/* The file's symbols, reading only the parts they need; NULL with a
 * one-line message in `error` ("PATH: ..." for a file that cannot be
 * read or is not a regular file, which is refused without blocking on a
 * FIFO; "PATH: byte offset N: ..." for a malformed one). */
struct elf_symbols *elf_symbols_load(const char *path, char *error, size_t error_size);

/* The same from `size` bytes in memory, `name` in messages. */
struct elf_symbols *elf_symbols_parse(const uint8_t *data, size_t size, const char *name,
                                      char *error, size_t error_size);

void elf_symbols_free(struct elf_symbols *elf);

/* The symbols kept (0 for a file without .symtab and .dynsym), and the
 * table they came from: ".symtab", ".dynsym" or "" (none). */
size_t elf_symbols_count(const struct elf_symbols *elf);
const char *elf_symbols_table(const struct elf_symbols *elf);
const char *elf_symbols_name(const struct elf_symbols *elf, size_t index);

/* ET_DYN (a position-independent executable or a shared object), loaded
 * at an address chosen at run time; otherwise ET_EXEC. */
bool elf_symbols_position_independent(const struct elf_symbols *elf);

/* e_entry, and up to ELF_SYMBOLS_ENTRY_CODE bytes of the code there (0
 * when e_entry is in no executable SHT_PROGBITS section). */
uint64_t elf_symbols_entry(const struct elf_symbols *elf);
size_t elf_symbols_entry_code(const struct elf_symbols *elf, const uint8_t **code);

/* The symbol covering file address `address`; false when none does. */
bool elf_symbols_lookup(const struct elf_symbols *elf, uint64_t address,
                        struct elf_symbol_match *match);

#endif
