/* traces/elf_symbols.h on ELF images built here byte by byte (32- and
 * 64-bit, ET_EXEC and ET_DYN): which symbols are kept, the lookup rules,
 * the entry point's code, and every malformed input with its exact
 * message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "traces/elf_symbols.h"

/* The image's sections, by index. */
enum { TEXT = 1, DATA = 2, COMMENT = 3, SYMTAB = 4, STRTAB = 5, N_SECTIONS = 6 };
enum { TEXT_SIZE = 0x40, DATA_SIZE = 0x10 };
enum { SHN_ABS = 0xfff1 };
enum { NOTYPE = 0, OBJECT = 1, FUNC = 2, SECTION = 3, FILE_ = 4, IFUNC = 10 };
enum { LOCAL = 0, GLOBAL = 1, WEAK = 2 };
enum { SHT_PROGBITS = 1, SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_DYNSYM = 11 };
enum { ET_REL = 1, ET_EXEC = 2, ET_DYN = 3 };

struct test_symbol {
    const char *name;
    uint64_t value, size;
    unsigned type, bind, shndx;
};

/* An image: ELF header, .text (bytes 1, 2, 3, ...), .data, .comment, the
 * string table, the symbol table, the section headers; the byte offsets
 * of each part. */
struct image {
    uint8_t bytes[4096];
    size_t size;
    bool is64;
    size_t text, strtab, symtab, shoff;
};

static void put(uint8_t *at, uint64_t value, unsigned width)
{
    for (unsigned k = 0; k < width; k++)
        at[k] = (uint8_t)(value >> (8 * k));
}

/* Section header `index`: type, flags, address, offset, size, link, entsize. */
static void put_section(struct image *img, unsigned index, uint32_t type, uint64_t flags,
                        uint64_t addr, uint64_t offset, uint64_t size, uint32_t link,
                        uint64_t entsize)
{
    unsigned w = img->is64 ? 8 : 4;
    uint8_t *h = img->bytes + img->shoff + index * (img->is64 ? 64 : 40);
    put(h + 4, type, 4);
    put(h + 8, flags, w);
    put(h + 8 + w, addr, w);
    put(h + 8 + 2 * w, offset, w);
    put(h + 8 + 3 * w, size, w);
    put(h + 8 + 4 * w, link, 4);
    put(h + 16 + 5 * w, entsize, w);
}

static void put_symbol(struct image *img, size_t index, uint32_t name,
                       const struct test_symbol *s)
{
    uint8_t *at = img->bytes + img->symtab + index * (img->is64 ? 24 : 16);
    unsigned info = s->bind << 4 | s->type;
    put(at, name, 4);
    if (img->is64) {
        at[4] = (uint8_t)info;
        put(at + 6, s->shndx, 2);
        put(at + 8, s->value, 8);
        put(at + 16, s->size, 8);
    } else {
        put(at + 4, s->value, 4);
        put(at + 8, s->size, 4);
        at[12] = (uint8_t)info;
        put(at + 14, s->shndx, 2);
    }
}

static size_t align8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* The image with `symbols` (after the null symbol) in a table of
 * `table_type`; .text at `text_addr`, .data 0x1000 above it, e_entry at
 * .text's start. */
static void build(struct image *img, bool is64, unsigned e_type, uint64_t text_addr,
                  const struct test_symbol *symbols, size_t n, uint32_t table_type)
{
    memset(img, 0, sizeof *img);
    img->is64 = is64;
    unsigned w = is64 ? 8 : 4, symsize = is64 ? 24 : 16;
    img->text = is64 ? 64 : 52;
    for (unsigned k = 0; k < TEXT_SIZE; k++)
        img->bytes[img->text + k] = (uint8_t)(k + 1);
    size_t data = img->text + TEXT_SIZE, comment = data + DATA_SIZE;
    memcpy(img->bytes + comment, "GCC: 0", 7);
    img->strtab = comment + 8;
    size_t names = 1;
    uint32_t name_at[16];
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(symbols[i].name);
        name_at[i] = len ? (uint32_t)names : 0;
        memcpy(img->bytes + img->strtab + names, symbols[i].name, len);
        names += len ? len + 1 : 0;
    }
    img->symtab = align8(img->strtab + names);
    for (size_t i = 0; i < n; i++)
        put_symbol(img, i + 1, name_at[i], &symbols[i]);
    img->shoff = align8(img->symtab + (n + 1) * symsize);
    img->size = img->shoff + N_SECTIONS * (is64 ? 64 : 40);
    put_section(img, TEXT, SHT_PROGBITS, 0x6, text_addr, img->text, TEXT_SIZE, 0, 0);
    put_section(img, DATA, SHT_PROGBITS, 0x3, text_addr + 0x1000, data, DATA_SIZE, 0, 0);
    put_section(img, COMMENT, SHT_PROGBITS, 0, 0, comment, 7, 0, 1);
    put_section(img, SYMTAB, table_type, 0x2, 0, img->symtab, (n + 1) * symsize, STRTAB, symsize);
    put_section(img, STRTAB, SHT_STRTAB, 0, 0, img->strtab, names, 0, 0);
    uint8_t *h = img->bytes;
    memcpy(h, "\177ELF", 4);
    h[4] = is64 ? 2 : 1;
    h[5] = 1;
    h[6] = 1;
    put(h + 16, e_type, 2);
    put(h + 18, is64 ? 62 : 3, 2);
    put(h + 20, 1, 4);
    put(h + 24, text_addr, w);
    put(h + 24 + 2 * w, img->shoff, w);
    put(h + 28 + 3 * w, is64 ? 64 : 52, 2);
    put(h + 34 + 3 * w, is64 ? 64 : 40, 2);
    put(h + 36 + 3 * w, N_SECTIONS, 2);
}

/* The symbols of the lookup tests, at `base`: in .text main (0x20 bytes)
 * and its weak alias, the label main_loop inside it, helper (0x10), a gap
 * of 8 bytes, the last label tail_label; in .data counter (8 bytes); and
 * nine that are not kept: undefined, absolute, a file, a section, one in
 * .comment (not loaded), a nameless function, one of type TLS (6), one in
 * an extended index and a common one. */
#define LOOKUP_SYMBOLS(base)                                                 \
    {                                                                        \
        {"main_alias", (base), 0x20, FUNC, WEAK, TEXT},                      \
        {"main", (base), 0x20, FUNC, GLOBAL, TEXT},                          \
        {"main_loop", (base) + 0x10, 0, NOTYPE, LOCAL, TEXT},                \
        {"helper", (base) + 0x20, 0x10, FUNC, LOCAL, TEXT},                  \
        {"tail_label", (base) + 0x38, 0, NOTYPE, GLOBAL, TEXT},              \
        {"counter", (base) + 0x1000, 8, OBJECT, GLOBAL, DATA},               \
        {"undefined_fn", 0, 0, FUNC, GLOBAL, 0},                             \
        {"absolute", (base), 0, NOTYPE, GLOBAL, SHN_ABS},                    \
        {"t.c", 0, 0, FILE_, LOCAL, SHN_ABS},                                \
        {"", (base), 0, SECTION, LOCAL, TEXT},                               \
        {"note", 0, 4, OBJECT, LOCAL, COMMENT},                              \
        {"", (base) + 0x30, 4, FUNC, LOCAL, TEXT},                           \
        {"tls_var", 0, 4, 6, GLOBAL, DATA},                                  \
        {"extended", (base), 4, FUNC, GLOBAL, 0xffff},                       \
        {"common", 4, 4, OBJECT, GLOBAL, 0xfff2},                            \
    }

static struct elf_symbols *parse(const struct image *img, char *error, size_t size)
{
    return elf_symbols_parse(img->bytes, img->size, "t", error, size);
}

/* "NAME+0xOFFSET" of `address`, or "-" without a symbol. */
static const char *name_of(const struct elf_symbols *elf, uint64_t address)
{
    static char text[256];
    struct elf_symbol_match m;
    if (!elf_symbols_lookup(elf, address, &m))
        return "-";
    if (m.offset)
        snprintf(text, sizeof text, "%s+0x%llx", m.name, (unsigned long long)m.offset);
    else
        snprintf(text, sizeof text, "%s", m.name);
    assert_string_equal(elf_symbols_name(elf, m.index), m.name);
    return text;
}

static void check_lookups(const struct elf_symbols *elf, uint64_t base)
{
    assert_int_equal(elf_symbols_count(elf), 6);
    assert_string_equal(name_of(elf, base - 1), "-");
    assert_string_equal(name_of(elf, base), "main");       /* global before weak */
    assert_string_equal(name_of(elf, base + 0xf), "main+0xf");
    assert_string_equal(name_of(elf, base + 0x10), "main_loop"); /* nearest */
    assert_string_equal(name_of(elf, base + 0x1f), "main_loop+0xf");
    assert_string_equal(name_of(elf, base + 0x20), "helper"); /* the label ends there */
    assert_string_equal(name_of(elf, base + 0x2f), "helper+0xf");
    assert_string_equal(name_of(elf, base + 0x30), "-");     /* the gap */
    assert_string_equal(name_of(elf, base + 0x37), "-");
    assert_string_equal(name_of(elf, base + 0x38), "tail_label");
    assert_string_equal(name_of(elf, base + 0x3f), "tail_label+0x7"); /* to the section end */
    assert_string_equal(name_of(elf, base + 0x40), "-");
    assert_string_equal(name_of(elf, base + 0x1000), "counter");
    assert_string_equal(name_of(elf, base + 0x1007), "counter+0x7");
    assert_string_equal(name_of(elf, base + 0x1008), "-");
    assert_string_equal(name_of(elf, 0), "-");
    assert_string_equal(name_of(elf, UINT64_MAX), "-");
}

static void test_lookup_64bit_executable(void **state)
{
    (void)state;
    const struct test_symbol symbols[] = LOOKUP_SYMBOLS(0x401000);
    struct image img;
    build(&img, true, ET_EXEC, 0x401000, symbols, 15, SHT_SYMTAB);
    char error[256] = "";
    struct elf_symbols *elf = parse(&img, error, sizeof error);
    assert_non_null(elf);
    assert_string_equal(error, "");
    assert_string_equal(elf_symbols_table(elf), ".symtab");
    assert_false(elf_symbols_position_independent(elf));
    check_lookups(elf, 0x401000);
    elf_symbols_free(elf);
}

static void test_lookup_32bit_executable(void **state)
{
    (void)state;
    const struct test_symbol symbols[] = LOOKUP_SYMBOLS(0x8049000);
    struct image img;
    build(&img, false, ET_EXEC, 0x8049000, symbols, 15, SHT_SYMTAB);
    char error[256];
    struct elf_symbols *elf = parse(&img, error, sizeof error);
    assert_non_null(elf);
    check_lookups(elf, 0x8049000);
    assert_string_equal(name_of(elf, 0xffffffff), "-");
    elf_symbols_free(elf);
}

/* A position-independent image's symbols are file addresses, from 0x1000
 * here; .dynsym is read when there is no .symtab. */
static void test_lookup_dynsym_of_position_independent(void **state)
{
    (void)state;
    const struct test_symbol symbols[] = LOOKUP_SYMBOLS(0x1000);
    struct image img;
    build(&img, true, ET_DYN, 0x1000, symbols, 15, SHT_DYNSYM);
    char error[256];
    struct elf_symbols *elf = parse(&img, error, sizeof error);
    assert_non_null(elf);
    assert_string_equal(elf_symbols_table(elf), ".dynsym");
    assert_true(elf_symbols_position_independent(elf));
    check_lookups(elf, 0x1000);
    elf_symbols_free(elf);
}

/* .symtab wins over .dynsym whichever comes first. */
static void test_symtab_before_dynsym(void **state)
{
    (void)state;
    const struct test_symbol symbols[] = {{"f", 0x401000, 4, FUNC, GLOBAL, TEXT}};
    struct image img;
    build(&img, true, ET_EXEC, 0x401000, symbols, 1, SHT_SYMTAB);
    put_section(&img, COMMENT, SHT_DYNSYM, 0x2, 0, img.symtab, 24, STRTAB, 24);
    char error[256];
    struct elf_symbols *elf = parse(&img, error, sizeof error);
    assert_non_null(elf);
    assert_string_equal(elf_symbols_table(elf), ".symtab");
    assert_int_equal(elf_symbols_count(elf), 1);
    elf_symbols_free(elf);
}

/* Symbols of one value in preference order: typed before untyped, then
 * global, weak, local, then the table's order; an IFUNC is a function. */
static void test_preference_at_one_address(void **state)
{
    (void)state;
    const struct test_symbol symbols[] = {
        {"label", 0x401000, 0, NOTYPE, GLOBAL, TEXT},
        {"local_fn", 0x401000, 4, FUNC, LOCAL, TEXT},
        {"weak_fn", 0x401000, 4, FUNC, WEAK, TEXT},
        {"resolver", 0x401010, 4, IFUNC, LOCAL, TEXT},
        {"first", 0x401020, 4, OBJECT, GLOBAL, TEXT},
        {"second", 0x401020, 4, FUNC, GLOBAL, TEXT},
    };
    struct image img;
    build(&img, true, ET_EXEC, 0x401000, symbols, 6, SHT_SYMTAB);
    char error[256];
    struct elf_symbols *elf = parse(&img, error, sizeof error);
    assert_non_null(elf);
    assert_string_equal(name_of(elf, 0x401003), "weak_fn+0x3");
    assert_string_equal(name_of(elf, 0x401004), "label+0x4"); /* the functions end there */
    assert_string_equal(name_of(elf, 0x401010), "resolver");
    assert_string_equal(name_of(elf, 0x401020), "first");
    elf_symbols_free(elf);
}

/* A symbol of size 0 ends at the next symbol of its own section only. */
static void test_unsized_symbol_ends_at_its_section(void **state)
{
    (void)state;
    const struct test_symbol symbols[] = {
        {"data_start", 0x402000, 0, NOTYPE, GLOBAL, DATA},
        {"text_label", 0x401000, 0, NOTYPE, GLOBAL, TEXT},
    };
    struct image img;
    build(&img, false, ET_EXEC, 0x401000, symbols, 2, SHT_SYMTAB);
    char error[256];
    struct elf_symbols *elf = parse(&img, error, sizeof error);
    assert_non_null(elf);
    assert_string_equal(name_of(elf, 0x40103f), "text_label+0x3f");
    assert_string_equal(name_of(elf, 0x401040), "-");
    assert_string_equal(name_of(elf, 0x40200f), "data_start+0xf");
    elf_symbols_free(elf);
}

/* Bytes outside printable ASCII and spaces print as '?'. */
static void test_names_print_on_one_line(void **state)
{
    (void)state;
    const struct test_symbol symbols[] = {{"a b\n\x7f\xc3", 0x401000, 4, FUNC, GLOBAL, TEXT}};
    struct image img;
    build(&img, true, ET_EXEC, 0x401000, symbols, 1, SHT_SYMTAB);
    char error[256];
    struct elf_symbols *elf = parse(&img, error, sizeof error);
    assert_non_null(elf);
    assert_string_equal(name_of(elf, 0x401000), "a?b???");
    elf_symbols_free(elf);
}

/* A linker's marker outside its section (as __ehdr_start, __bss_start)
 * is dropped, not an error. */
static void test_unsized_symbol_outside_its_section_dropped(void **state)
{
    (void)state;
    const struct test_symbol symbols[] = {{"__ehdr_start", 0x400000, 0, NOTYPE, LOCAL, TEXT}};
    struct image img;
    build(&img, true, ET_EXEC, 0x401000, symbols, 1, SHT_SYMTAB);
    char error[256];
    struct elf_symbols *elf = parse(&img, error, sizeof error);
    assert_non_null(elf);
    assert_int_equal(elf_symbols_count(elf), 0);
    elf_symbols_free(elf);
}

static void test_entry_code(void **state)
{
    (void)state;
    struct image img;
    build(&img, true, ET_EXEC, 0x401000, NULL, 0, SHT_SYMTAB);
    char error[256];
    struct elf_symbols *elf = parse(&img, error, sizeof error);
    const uint8_t *code;
    assert_int_equal(elf_symbols_entry(elf), 0x401000);
    assert_int_equal(elf_symbols_entry_code(elf, &code), ELF_SYMBOLS_ENTRY_CODE);
    assert_int_equal(code[0], 1);
    assert_int_equal(code[31], 32);
    elf_symbols_free(elf);
    /* 0x10 bytes before .text's end: those 16 */
    put(img.bytes + 24, 0x401030, 8);
    elf = parse(&img, error, sizeof error);
    assert_int_equal(elf_symbols_entry_code(elf, &code), 16);
    assert_int_equal(code[0], 0x31);
    elf_symbols_free(elf);
    /* in .data, not executable: none */
    put(img.bytes + 24, 0x402000, 8);
    elf = parse(&img, error, sizeof error);
    assert_int_equal(elf_symbols_entry_code(elf, &code), 0);
    elf_symbols_free(elf);
}

static void test_no_symbol_table(void **state)
{
    (void)state;
    struct image img;
    build(&img, false, ET_EXEC, 0x8049000, NULL, 0, SHT_PROGBITS);
    char error[256];
    struct elf_symbols *elf = parse(&img, error, sizeof error);
    assert_non_null(elf);
    assert_int_equal(elf_symbols_count(elf), 0);
    assert_string_equal(elf_symbols_table(elf), "");
    assert_string_equal(name_of(elf, 0x8049000), "-");
    elf_symbols_free(elf);
    /* no section headers at all (e_shnum 0), whatever e_shentsize says */
    put(img.bytes + 48, 0, 2);
    put(img.bytes + 46, 7, 2);
    elf = parse(&img, error, sizeof error);
    assert_non_null(elf);
    assert_int_equal(elf_symbols_count(elf), 0);
    const uint8_t *code;
    assert_int_equal(elf_symbols_entry_code(elf, &code), 0);
    elf_symbols_free(elf);
}

/* ---- malformed images: each with its one line */

static const char *error_of(const uint8_t *bytes, size_t size)
{
    static char error[512];
    snprintf(error, sizeof error, "(parsed)");
    struct elf_symbols *elf = elf_symbols_parse(bytes, size, "t", error, sizeof error);
    elf_symbols_free(elf);
    return error;
}

static const char *image_error(const struct image *img)
{
    return error_of(img->bytes, img->size);
}

/* The 64-bit image of the lookup tests: .text at byte 64, the string
 * table at 152 (108 bytes), the symbol table at 264 (16 x 24 bytes), the
 * section headers at 648 (6 x 64, section N's at 648 + 64 N); 1032
 * bytes. */
static void lookup_image(struct image *img)
{
    const struct test_symbol symbols[] = LOOKUP_SYMBOLS(0x401000);
    build(img, true, ET_EXEC, 0x401000, symbols, 15, SHT_SYMTAB);
    assert_int_equal(img->strtab, 152);
    assert_int_equal(img->symtab, 264);
    assert_int_equal(img->shoff, 648);
    assert_int_equal(img->size, 1032);
}

static void test_not_elf(void **state)
{
    (void)state;
    const char *want = "t: byte offset 0: expected the ELF magic 7f 45 4c 46 (not an ELF file)";
    assert_string_equal(error_of((const uint8_t *)"", 0), want);
    assert_string_equal(error_of((const uint8_t *)"\177EL", 3), want);
    assert_string_equal(error_of((const uint8_t *)"#!/bin/sh\n", 10), want);
}

static void test_truncated_header(void **state)
{
    (void)state;
    struct image img;
    lookup_image(&img);
    assert_string_equal(error_of(img.bytes, 10),
                        "t: byte offset 10: truncated: expected the 16 bytes of e_ident");
    assert_string_equal(error_of(img.bytes, 63),
                        "t: byte offset 63: truncated: expected the 64-byte ELF header");
    build(&img, false, ET_EXEC, 0x8049000, NULL, 0, SHT_SYMTAB);
    assert_string_equal(error_of(img.bytes, 40),
                        "t: byte offset 40: truncated: expected the 52-byte ELF header");
}

/* A file cut short: its section headers are past its end. */
static void test_truncated_file(void **state)
{
    (void)state;
    struct image img;
    lookup_image(&img);
    assert_string_equal(error_of(img.bytes, 1031),
                        "t: byte offset 40: 6 section headers at byte 648: expected within the "
                        "file's 1031 bytes");
}

static void test_wrong_class_or_encoding(void **state)
{
    (void)state;
    struct image img;
    lookup_image(&img);
    img.bytes[4] = 3;
    assert_string_equal(image_error(&img),
                        "t: byte offset 4: ELF class 3: expected 1 (32-bit) or 2 (64-bit)");
    img.bytes[4] = 0;
    assert_string_equal(image_error(&img),
                        "t: byte offset 4: ELF class 0: expected 1 (32-bit) or 2 (64-bit)");
    lookup_image(&img);
    img.bytes[5] = 2;
    assert_string_equal(image_error(&img),
                        "t: byte offset 5: data encoding 2: expected 1 (little-endian)");
    lookup_image(&img);
    img.bytes[6] = 0;
    assert_string_equal(image_error(&img), "t: byte offset 6: ELF version 0: expected 1");
}

static void test_wrong_type(void **state)
{
    (void)state;
    struct image img;
    const struct test_symbol symbols[] = {{"f", 0, 4, FUNC, GLOBAL, TEXT}};
    build(&img, false, ET_REL, 0, symbols, 1, SHT_SYMTAB);
    assert_string_equal(image_error(&img),
                        "t: byte offset 16: e_type 1: expected 2 (ET_EXEC, an executable) or 3 "
                        "(ET_DYN, a position-independent executable or shared object)");
    put(img.bytes + 16, 4, 2); /* ET_CORE */
    assert_string_equal(image_error(&img),
                        "t: byte offset 16: e_type 4: expected 2 (ET_EXEC, an executable) or 3 "
                        "(ET_DYN, a position-independent executable or shared object)");
}

static void test_bad_section_header_table(void **state)
{
    (void)state;
    struct image img;
    lookup_image(&img);
    put(img.bytes + 58, 40, 2);
    assert_string_equal(image_error(&img), "t: byte offset 58: e_shentsize 40: expected 64");
    lookup_image(&img);
    put(img.bytes + 40, UINT64_MAX - 100, 8);
    assert_string_equal(image_error(&img),
                        "t: byte offset 40: 6 section headers at byte 18446744073709551515: "
                        "expected within the file's 1032 bytes");
    lookup_image(&img);
    put(img.bytes + 60, 0xffff, 2);
    assert_string_equal(image_error(&img),
                        "t: byte offset 40: 65535 section headers at byte 648: expected within "
                        "the file's 1032 bytes");
}

/* Section header N's field at `offset` in a 64-bit image. */
static uint8_t *section_field(struct image *img, unsigned section, unsigned offset)
{
    return img->bytes + img->shoff + section * 64 + offset;
}

static void test_bad_section_offsets(void **state)
{
    (void)state;
    struct image img;
    lookup_image(&img);
    put(section_field(&img, SYMTAB, 24), 900, 8); /* 384 bytes at 900 */
    assert_string_equal(image_error(&img),
                        "t: byte offset 928: section 4 (SHT_SYMTAB): 384 bytes at byte 900: "
                        "expected within the file's 1032 bytes");
    lookup_image(&img);
    put(section_field(&img, SYMTAB, 32), 24 * 0x0aaaaaaaaaaaaaaaull, 8); /* 2^64 - 16 */
    assert_string_equal(image_error(&img),
                        "t: byte offset 928: section 4 (SHT_SYMTAB): 18446744073709551600 bytes "
                        "at byte 264: expected within the file's 1032 bytes");
    lookup_image(&img);
    put(section_field(&img, STRTAB, 24), 990, 8);
    assert_string_equal(image_error(&img),
                        "t: byte offset 992: section 5 (SHT_STRTAB): 108 bytes at byte 990: "
                        "expected within the file's 1032 bytes");
    lookup_image(&img);
    put(section_field(&img, TEXT, 24), 0xfffffff0, 8);
    assert_string_equal(image_error(&img),
                        "t: byte offset 736: section 1 (SHT_PROGBITS): 64 bytes at byte "
                        "4294967280: expected within the file's 1032 bytes");
}

static void test_bad_symbol_table_shape(void **state)
{
    (void)state;
    struct image img;
    lookup_image(&img);
    put(section_field(&img, SYMTAB, 56), 16, 8);
    assert_string_equal(image_error(&img),
                        "t: byte offset 960: section 4 (SHT_SYMTAB): sh_entsize 16: expected 24");
    lookup_image(&img);
    put(section_field(&img, SYMTAB, 32), 383, 8);
    assert_string_equal(image_error(&img),
                        "t: byte offset 936: section 4 (SHT_SYMTAB): sh_size 383: expected a "
                        "multiple of 24 (one symbol)");
    build(&img, false, ET_EXEC, 0x8049000, NULL, 0, SHT_DYNSYM);
    put(img.bytes + img.shoff + SYMTAB * 40 + 36, 24, 4);
    assert_string_equal(image_error(&img),
                        "t: byte offset 356: section 4 (SHT_DYNSYM): sh_entsize 24: expected 16");
}

static void test_bad_string_table_link(void **state)
{
    (void)state;
    struct image img;
    lookup_image(&img);
    put(section_field(&img, SYMTAB, 40), 6, 4);
    assert_string_equal(image_error(&img),
                        "t: byte offset 944: section 4 (SHT_SYMTAB): sh_link 6: expected its "
                        "string table's index, below 6");
    put(section_field(&img, SYMTAB, 40), TEXT, 4);
    assert_string_equal(image_error(&img),
                        "t: byte offset 944: section 4 (SHT_SYMTAB): sh_link 1: expected a string "
                        "table (SHT_STRTAB), section 1 has type 1");
    lookup_image(&img);
    img.bytes[img.strtab + 107] = 'x';
    assert_string_equal(image_error(&img),
                        "t: byte offset 259: section 5 (SHT_STRTAB) of 108 bytes: expected a NUL "
                        "byte at its end");
    put(section_field(&img, STRTAB, 32), 0, 8);
    assert_string_equal(image_error(&img),
                        "t: byte offset 152: section 5 (SHT_STRTAB) of 0 bytes: expected a NUL "
                        "byte at its end");
}

/* Symbol 3 of the lookup image (main_loop) is at byte 264 + 3 x 24 = 336. */
static void test_bad_string_index(void **state)
{
    (void)state;
    struct image img;
    lookup_image(&img);
    put(img.bytes + 336, 108, 4);
    assert_string_equal(image_error(&img),
                        "t: byte offset 336: symbol 3: st_name 108: expected an offset into the "
                        "108-byte string table");
    put(img.bytes + 336, UINT32_MAX, 4);
    assert_string_equal(image_error(&img),
                        "t: byte offset 336: symbol 3: st_name 4294967295: expected an offset "
                        "into the 108-byte string table");
    put(img.bytes + 336, 107, 4); /* the last NUL: an empty name, not kept */
    char error[256];
    struct elf_symbols *elf = parse(&img, error, sizeof error);
    assert_int_equal(elf_symbols_count(elf), 5);
    elf_symbols_free(elf);
}

static void test_symbol_beyond_section(void **state)
{
    (void)state;
    struct image img;
    lookup_image(&img);
    put(img.bytes + 336 + 6, N_SECTIONS, 2);
    assert_string_equal(image_error(&img),
                        "t: byte offset 342: symbol 3 (main_loop): st_shndx 6: expected a section "
                        "index below 6");
    put(img.bytes + 336 + 6, 0xfeff, 2);
    assert_string_equal(image_error(&img),
                        "t: byte offset 342: symbol 3 (main_loop): st_shndx 65279: expected a "
                        "section index below 6");
    /* helper (symbol 4, byte 360), 0x10 bytes at 0x401020: 0x21 bytes
     * pass .text's end, 0x401040 */
    lookup_image(&img);
    put(img.bytes + 360 + 16, 0x21, 8);
    assert_string_equal(image_error(&img),
                        "t: byte offset 368: symbol 4 (helper): 33 bytes at 0x401020: expected "
                        "inside its section 1 (0x401000 to 0x401040)");
    lookup_image(&img);
    put(img.bytes + 360 + 8, 0x400ff0, 8);
    assert_string_equal(image_error(&img),
                        "t: byte offset 368: symbol 4 (helper): 16 bytes at 0x400ff0: expected "
                        "inside its section 1 (0x401000 to 0x401040)");
    lookup_image(&img);
    put(img.bytes + 360 + 16, UINT64_MAX, 8);
    assert_string_equal(image_error(&img),
                        "t: byte offset 368: symbol 4 (helper): 18446744073709551615 bytes at "
                        "0x401020: expected inside its section 1 (0x401000 to 0x401040)");
}

/* ---- files */

static void test_load_file(void **state)
{
    (void)state;
    struct image img;
    lookup_image(&img);
    char path[] = "/tmp/test_elf_symbols.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, img.bytes, img.size), (ssize_t)img.size);
    close(fd);
    char error[512];
    struct elf_symbols *elf = elf_symbols_load(path, error, sizeof error);
    assert_non_null(elf);
    check_lookups(elf, 0x401000);
    elf_symbols_free(elf);
    assert_int_equal(truncate(path, 1031), 0);
    assert_null(elf_symbols_load(path, error, sizeof error));
    char want[512];
    snprintf(want, sizeof want,
             "%s: byte offset 40: 6 section headers at byte 648: expected within the file's 1031 "
             "bytes",
             path);
    assert_string_equal(error, want);
    unlink(path);
    assert_null(elf_symbols_load(path, error, sizeof error));
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    assert_string_equal(error, want);
    assert_null(elf_symbols_load("/tmp", error, sizeof error));
    assert_string_equal(error, "/tmp: is a directory");
    assert_null(elf_symbols_load("/dev/null", error, sizeof error));
    assert_string_equal(error, "/dev/null: not a regular file");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookup_64bit_executable),
        cmocka_unit_test(test_lookup_32bit_executable),
        cmocka_unit_test(test_lookup_dynsym_of_position_independent),
        cmocka_unit_test(test_symtab_before_dynsym),
        cmocka_unit_test(test_preference_at_one_address),
        cmocka_unit_test(test_unsized_symbol_ends_at_its_section),
        cmocka_unit_test(test_names_print_on_one_line),
        cmocka_unit_test(test_unsized_symbol_outside_its_section_dropped),
        cmocka_unit_test(test_entry_code),
        cmocka_unit_test(test_no_symbol_table),
        cmocka_unit_test(test_not_elf),
        cmocka_unit_test(test_truncated_header),
        cmocka_unit_test(test_truncated_file),
        cmocka_unit_test(test_wrong_class_or_encoding),
        cmocka_unit_test(test_wrong_type),
        cmocka_unit_test(test_bad_section_header_table),
        cmocka_unit_test(test_bad_section_offsets),
        cmocka_unit_test(test_bad_symbol_table_shape),
        cmocka_unit_test(test_bad_string_table_link),
        cmocka_unit_test(test_bad_string_index),
        cmocka_unit_test(test_symbol_beyond_section),
        cmocka_unit_test(test_load_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
