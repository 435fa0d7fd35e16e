/* libFuzzer target: ELF files as `pmubench sample` reads them for their
 * symbols (traces/elf_symbols.h).  A file that parses is looked up at its
 * entry point, at each symbol's name and at every 8-byte word of the input
 * taken as an address; a match must name the symbol it indexes.
 *
 * Seeds (tests/fuzz/corpus_elf_symbols, real files under -max_len): the
 * assembly program of tests/cli_sample.sh linked with `cc -nostdlib
 * -static -no-pie -Wl,-N` (elf64_exec) and with `-static-pie -Wl,-z,
 * max-page-size=0x10` (elf64_pie), a C function and `_start` built with
 * `cc -m32 -nostdlib -static -Wl,-N` (elf32_exec), and a two-function
 * shared object stripped to its .dynsym (elf64_dynsym.so). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "traces/elf_symbols.h"

static void check_lookup(const struct elf_symbols *elf, uint64_t address)
{
    struct elf_symbol_match match;
    if (!elf_symbols_lookup(elf, address, &match))
        return;
    if (match.index >= elf_symbols_count(elf) ||
        strcmp(match.name, elf_symbols_name(elf, match.index)) != 0 || match.offset > address)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char error[512];
    struct elf_symbols *elf = elf_symbols_parse(data, size, "fuzz", error, sizeof error);
    if (!elf)
        return 0;
    const uint8_t *code;
    if (elf_symbols_entry_code(elf, &code) > ELF_SYMBOLS_ENTRY_CODE)
        abort();
    check_lookup(elf, elf_symbols_entry(elf));
    for (size_t i = 0; i < elf_symbols_count(elf); i++)
        if (strlen(elf_symbols_name(elf, i)) == 0)
            abort();
    for (size_t at = 0; at + 8 <= size; at += 8) {
        uint64_t word;
        memcpy(&word, data + at, 8);
        check_lookup(elf, word);
    }
    elf_symbols_free(elf);
    return 0;
}
