/* ELF symbol tables (traces/elf_symbols.h).  The layouts and constants are
 * the System V ABI's ("System V Application Binary Interface", chapter 4,
 * "Object Files": ELF header, sections, symbol table, string table);
 * STT_GNU_IFUNC is the GNU extension in the OS-specific type range
 * (docs/sample.md lists the sources).  Of a file, only the parts the
 * symbols need are read, each after the parts that say where it is were
 * checked: the ELF header, the section headers, the code at the entry
 * point, the symbol table and its string table.  Every field is read
 * through a bounds check made before it. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_symbols.h"
#include "util/error_line.h"

enum {
    EI_CLASS = 4, EI_DATA = 5, EI_VERSION = 6, EI_NIDENT = 16,
    ELFCLASS32 = 1, ELFCLASS64 = 2, ELFDATA2LSB = 1, EV_CURRENT = 1,
    E_TYPE = 16, ET_EXEC = 2, ET_DYN = 3,
    SHT_PROGBITS = 1, SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_DYNSYM = 11,
    SHF_ALLOC = 0x2, SHF_EXECINSTR = 0x4,
    SHN_UNDEF = 0, SHN_LORESERVE = 0xff00,
    STT_NOTYPE = 0, STT_OBJECT = 1, STT_FUNC = 2, STT_GNU_IFUNC = 10,
    STB_LOCAL = 0, STB_GLOBAL = 1, STB_WEAK = 2,
};

/* Field offsets and sizes of one ELF class. */
struct elf_layout {
    unsigned header_size, word; /* Elf_Ehdr; Elf_Addr and Elf_Off */
    unsigned e_entry, e_shoff, e_shentsize, e_shnum;
    unsigned shdr_size, sh_type, sh_flags, sh_addr, sh_offset, sh_size, sh_link, sh_entsize;
    unsigned sym_size, st_name, st_info, st_shndx, st_value, st_size;
};

static const struct elf_layout layout32 = {
    .header_size = 52, .word = 4, .e_entry = 24, .e_shoff = 32, .e_shentsize = 46, .e_shnum = 48,
    .shdr_size = 40, .sh_type = 4, .sh_flags = 8, .sh_addr = 12, .sh_offset = 16, .sh_size = 20,
    .sh_link = 24, .sh_entsize = 36,
    .sym_size = 16, .st_name = 0, .st_info = 12, .st_shndx = 14, .st_value = 4, .st_size = 8,
};

static const struct elf_layout layout64 = {
    .header_size = 64, .word = 8, .e_entry = 24, .e_shoff = 40, .e_shentsize = 58, .e_shnum = 60,
    .shdr_size = 64, .sh_type = 4, .sh_flags = 8, .sh_addr = 16, .sh_offset = 24, .sh_size = 32,
    .sh_link = 40, .sh_entsize = 56,
    .sym_size = 24, .st_name = 0, .st_info = 4, .st_shndx = 6, .st_value = 8, .st_size = 16,
};

struct symbol {
    uint64_t value, end;  /* the addresses it covers: [value, end) */
    uint32_t name;        /* offset into names */
    uint32_t section;
    uint32_t order;       /* its index in the table */
    uint8_t preference;   /* lower first among symbols at one value */
    bool sized;           /* st_size > 0; else it ends at the next symbol */
};

struct elf_symbols {
    bool position_independent;
    uint64_t entry;
    size_t entry_code_size;
    uint8_t entry_code[ELF_SYMBOLS_ENTRY_CODE];
    const char *table;
    char *names;          /* the string table, sanitised */
    struct symbol *symbols;
    size_t count;
    uint64_t *reach;      /* reach[i]: the largest end of symbols[0..i] */
};

struct section {
    uint64_t header;      /* its header's byte offset */
    uint32_t type, link;
    uint64_t flags, addr, offset, size, entsize;
};

/* Bytes of the file at `offset`, read when a parse step needs them. */
struct piece {
    uint64_t offset, size;
    uint8_t *bytes;
};

/* The parts the parse reads: the ELF header, the section headers, the
 * entry code, the symbol table and its string table. */
enum { MAX_PIECES = 5 };

struct parser {
    const uint8_t *data;  /* the whole file in memory; NULL: read from fd */
    int fd;
    uint64_t size;
    struct piece pieces[MAX_PIECES];
    int n_pieces;
    const char *name;
    const struct elf_layout *layout;
    uint64_t shoff;
    unsigned shnum;
    char *error;
    size_t error_size;
};

__attribute__((format(printf, 3, 4))) static bool fail_at(struct parser *p, uint64_t offset,
                                                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_at_voffset(0, p->error, p->error_size, p->name, offset, fmt, ap);
    va_end(ap);
    return false;
}

static bool in_file(const struct parser *p, uint64_t offset, uint64_t length)
{
    return offset <= p->size && length <= p->size - offset;
}

/* The piece holding [offset, offset + length), or NULL. */
static const struct piece *piece_of(const struct parser *p, uint64_t offset, uint64_t length)
{
    for (int k = 0; k < p->n_pieces; k++) {
        const struct piece *piece = &p->pieces[k];
        if (offset >= piece->offset && offset - piece->offset <= piece->size &&
            length <= piece->size - (offset - piece->offset))
            return piece;
    }
    return NULL;
}

/* Reads [offset, offset + length), which the caller has checked is inside
 * the file, unless it is in memory already. */
static bool load(struct parser *p, uint64_t offset, uint64_t length)
{
    if (p->data || piece_of(p, offset, length))
        return true;
    struct piece *piece = &p->pieces[p->n_pieces];
    piece->bytes = length <= SIZE_MAX ? malloc(length ? (size_t)length : 1) : NULL;
    if (!piece->bytes)
        return fail_at(p, offset, "out of memory for %llu bytes", (unsigned long long)length);
    piece->offset = offset;
    piece->size = length;
    p->n_pieces++;
    for (uint64_t done = 0; done < length;) {
        ssize_t n = pread(p->fd, piece->bytes + done, (size_t)(length - done),
                          (off_t)(offset + done));
        if (n <= 0 && !(n < 0 && errno == EINTR)) {
            snprintf(p->error, p->error_size, "%s: cannot read: %s", p->name,
                     n < 0 ? strerror(errno) : "the file became shorter");
            return false;
        }
        done += n > 0 ? (uint64_t)n : 0;
    }
    return true;
}

/* The byte at `offset`, inside a part loaded. */
static const uint8_t *bytes_at(const struct parser *p, uint64_t offset)
{
    if (p->data)
        return p->data + offset;
    const struct piece *piece = piece_of(p, offset, 1);
    return piece->bytes + (offset - piece->offset);
}

/* A little-endian field of `width` bytes at `offset`, which the caller
 * has checked is inside the file and loaded. */
static uint64_t field(const struct parser *p, uint64_t offset, unsigned width)
{
    const uint8_t *bytes = bytes_at(p, offset);
    uint64_t value = 0;
    for (unsigned k = width; k-- > 0;)
        value = value << 8 | bytes[k];
    return value;
}

static const char *section_type_name(uint32_t type)
{
    switch (type) {
    case SHT_PROGBITS: return "SHT_PROGBITS";
    case SHT_SYMTAB: return "SHT_SYMTAB";
    case SHT_STRTAB: return "SHT_STRTAB";
    case SHT_DYNSYM: return "SHT_DYNSYM";
    default: return "type other";
    }
}

/* Section `index`'s header (the table was checked to be in the file). */
static struct section read_section(const struct parser *p, unsigned index)
{
    const struct elf_layout *l = p->layout;
    uint64_t h = p->shoff + (uint64_t)index * l->shdr_size;
    return (struct section){
        .header = h,
        .type = (uint32_t)field(p, h + l->sh_type, 4),
        .link = (uint32_t)field(p, h + l->sh_link, 4),
        .flags = field(p, h + l->sh_flags, l->word),
        .addr = field(p, h + l->sh_addr, l->word),
        .offset = field(p, h + l->sh_offset, l->word),
        .size = field(p, h + l->sh_size, l->word),
        .entsize = field(p, h + l->sh_entsize, l->word),
    };
}

static bool section_in_file(struct parser *p, unsigned index, const struct section *s)
{
    if (in_file(p, s->offset, s->size))
        return true;
    return fail_at(p, s->header + p->layout->sh_offset,
                   "section %u (%s): %llu bytes at byte %llu: expected within the file's %llu "
                   "bytes",
                   index, section_type_name(s->type), (unsigned long long)s->size,
                   (unsigned long long)s->offset, (unsigned long long)p->size);
}

/* Section `index`, checked to be in the file, then read. */
static bool load_section(struct parser *p, unsigned index, const struct section *s)
{
    return section_in_file(p, index, s) && load(p, s->offset, s->size);
}

/* e_ident, the class's header, e_type, e_entry and the section header
 * table's place. */
static bool parse_header(struct parser *p, struct elf_symbols *elf)
{
    if (!load(p, 0, p->size < layout64.header_size ? p->size : layout64.header_size))
        return false;
    if (p->size < 4 || memcmp(bytes_at(p, 0), "\177ELF", 4) != 0)
        return fail_at(p, 0, "expected the ELF magic 7f 45 4c 46 (not an ELF file)");
    if (p->size < EI_NIDENT)
        return fail_at(p, p->size, "truncated: expected the %d bytes of e_ident", EI_NIDENT);
    const uint8_t *ident = bytes_at(p, 0);
    unsigned class = ident[EI_CLASS], data = ident[EI_DATA], version = ident[EI_VERSION];
    if (class != ELFCLASS32 && class != ELFCLASS64)
        return fail_at(p, EI_CLASS, "ELF class %u: expected 1 (32-bit) or 2 (64-bit)", class);
    if (data != ELFDATA2LSB)
        return fail_at(p, EI_DATA, "data encoding %u: expected 1 (little-endian)", data);
    if (version != EV_CURRENT)
        return fail_at(p, EI_VERSION, "ELF version %u: expected 1", version);
    const struct elf_layout *l = p->layout = class == ELFCLASS32 ? &layout32 : &layout64;
    if (p->size < l->header_size)
        return fail_at(p, p->size, "truncated: expected the %u-byte ELF header",
                       l->header_size);
    unsigned type = (unsigned)field(p, E_TYPE, 2);
    if (type != ET_EXEC && type != ET_DYN)
        return fail_at(p, E_TYPE,
                       "e_type %u: expected 2 (ET_EXEC, an executable) or 3 (ET_DYN, a "
                       "position-independent executable or shared object)",
                       type);
    elf->position_independent = type == ET_DYN;
    elf->entry = field(p, l->e_entry, l->word);
    p->shoff = field(p, l->e_shoff, l->word);
    p->shnum = (unsigned)field(p, l->e_shnum, 2);
    if (p->shnum == 0)
        return true;
    unsigned entsize = (unsigned)field(p, l->e_shentsize, 2);
    if (entsize != l->shdr_size)
        return fail_at(p, l->e_shentsize, "e_shentsize %u: expected %u", entsize, l->shdr_size);
    uint64_t headers = (uint64_t)p->shnum * l->shdr_size;
    if (!in_file(p, p->shoff, headers))
        return fail_at(p, l->e_shoff,
                       "%u section headers at byte %llu: expected within the file's %llu bytes",
                       p->shnum, (unsigned long long)p->shoff, (unsigned long long)p->size);
    return load(p, p->shoff, headers);
}

/* The code at e_entry, from the executable section holding it. */
static bool parse_entry_code(struct parser *p, struct elf_symbols *elf)
{
    for (unsigned i = 1; i < p->shnum; i++) {
        struct section s = read_section(p, i);
        uint64_t want = SHF_ALLOC | SHF_EXECINSTR;
        if (s.type != SHT_PROGBITS || (s.flags & want) != want || elf->entry < s.addr ||
            elf->entry - s.addr >= s.size)
            continue;
        if (!section_in_file(p, i, &s))
            return false;
        uint64_t at = elf->entry - s.addr, left = s.size - at;
        elf->entry_code_size =
            left < ELF_SYMBOLS_ENTRY_CODE ? (size_t)left : ELF_SYMBOLS_ENTRY_CODE;
        if (!load(p, s.offset + at, elf->entry_code_size))
            return false;
        memcpy(elf->entry_code, bytes_at(p, s.offset + at), elf->entry_code_size);
        return true;
    }
    return true;
}

/* The symbol table's section (.symtab, else .dynsym); 0 when there is
 * none. */
static unsigned find_symbol_table(const struct parser *p, struct elf_symbols *elf)
{
    for (uint32_t type = SHT_SYMTAB;; type = SHT_DYNSYM) {
        for (unsigned i = 1; i < p->shnum; i++)
            if (read_section(p, i).type == type) {
                elf->table = type == SHT_SYMTAB ? ".symtab" : ".dynsym";
                return i;
            }
        if (type == SHT_DYNSYM)
            return 0;
    }
}

static bool check_symbol_table(struct parser *p, unsigned index, const struct section *s)
{
    const struct elf_layout *l = p->layout;
    const char *type = section_type_name(s->type);
    if (s->entsize != l->sym_size)
        return fail_at(p, s->header + l->sh_entsize,
                       "section %u (%s): sh_entsize %llu: expected %u", index, type,
                       (unsigned long long)s->entsize, l->sym_size);
    if (s->size % l->sym_size != 0)
        return fail_at(p, s->header + l->sh_size,
                       "section %u (%s): sh_size %llu: expected a multiple of %u (one symbol)",
                       index, type, (unsigned long long)s->size, l->sym_size);
    if (!load_section(p, index, s))
        return false;
    if (s->link >= p->shnum)
        return fail_at(p, s->header + l->sh_link,
                       "section %u (%s): sh_link %u: expected its string table's index, below %u",
                       index, type, s->link, p->shnum);
    uint32_t link_type = read_section(p, s->link).type;
    if (link_type != SHT_STRTAB)
        return fail_at(p, s->header + l->sh_link,
                       "section %u (%s): sh_link %u: expected a string table (SHT_STRTAB), "
                       "section %u has type %u",
                       index, type, s->link, s->link, link_type);
    return true;
}

/* The string table, copied: each name ends in a NUL inside it, and a name
 * prints on one line as one word. */
static bool copy_names(struct parser *p, struct elf_symbols *elf, unsigned index)
{
    struct section s = read_section(p, index);
    if (!load_section(p, index, &s))
        return false;
    const uint8_t *bytes = bytes_at(p, s.offset);
    if (s.size == 0 || bytes[s.size - 1] != 0)
        return fail_at(p, s.offset + (s.size ? s.size - 1 : 0),
                       "section %u (SHT_STRTAB) of %llu bytes: expected a NUL byte at its end",
                       index, (unsigned long long)s.size);
    elf->names = malloc(s.size);
    if (!elf->names)
        return fail_at(p, s.offset, "out of memory for a string table of %llu bytes",
                       (unsigned long long)s.size);
    for (uint64_t k = 0; k < s.size; k++) {
        uint8_t c = bytes[k];
        elf->names[k] = (char)(c == 0 || (c > ' ' && c < 0x7f) ? c : '?');
    }
    return true;
}

static bool wanted_type(unsigned type)
{
    return type == STT_NOTYPE || type == STT_OBJECT || type == STT_FUNC || type == STT_GNU_IFUNC;
}

/* Among symbols at one address: a typed one before a label, then global
 * before weak before local. */
static uint8_t preference(unsigned type, unsigned binding)
{
    uint8_t rank = binding == STB_GLOBAL ? 0 : binding == STB_WEAK ? 1 : 2;
    return (uint8_t)(type == STT_NOTYPE ? 4 + rank : rank);
}

/* Symbol `i` of the table `s` (its string table, copied to elf->names,
 * of `names_size` bytes), into elf->symbols when it names an address of
 * the program. */
static bool read_symbol(struct parser *p, struct elf_symbols *elf, const struct section *s,
                        uint64_t names_size, uint32_t i)
{
    const struct elf_layout *l = p->layout;
    uint64_t at = s->offset + (uint64_t)i * l->sym_size;
    uint32_t name = (uint32_t)field(p, at + l->st_name, 4);
    unsigned info = (unsigned)field(p, at + l->st_info, 1);
    unsigned shndx = (unsigned)field(p, at + l->st_shndx, 2);
    uint64_t value = field(p, at + l->st_value, l->word), size = field(p, at + l->st_size, l->word);
    if (name >= names_size)
        return fail_at(p, at + l->st_name,
                       "symbol %u: st_name %u: expected an offset into the %llu-byte string table",
                       i, name, (unsigned long long)names_size);
    if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
        return true; /* undefined, absolute, common or in an extended section index */
    if (shndx >= p->shnum)
        return fail_at(p, at + l->st_shndx,
                       "symbol %u (%s): st_shndx %u: expected a section index below %u", i,
                       elf->names + name, shndx, p->shnum);
    struct section home = read_section(p, shndx);
    if (!wanted_type(info & 0xf) || elf->names[name] == 0 || !(home.flags & SHF_ALLOC))
        return true;
    bool inside = value >= home.addr && value - home.addr <= home.size;
    if (size > 0 && (!inside || size > home.size - (value - home.addr)))
        return fail_at(p, at + l->st_value,
                       "symbol %u (%s): %llu bytes at 0x%llx: expected inside its section %u "
                       "(0x%llx to 0x%llx)",
                       i, elf->names + name, (unsigned long long)size, (unsigned long long)value,
                       shndx, (unsigned long long)home.addr,
                       (unsigned long long)(home.addr + home.size));
    if (!inside)
        return true; /* a linker's marker outside its section, e.g. __ehdr_start */
    elf->symbols[elf->count++] = (struct symbol){
        .value = value,
        .end = size > 0 ? value + size : home.addr + home.size,
        .name = name,
        .section = shndx,
        .order = i,
        .preference = preference(info & 0xf, info >> 4),
        .sized = size > 0,
    };
    return true;
}

static int by_address(const void *a, const void *b)
{
    const struct symbol *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    if (x->preference != y->preference)
        return x->preference < y->preference ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Each symbol of size 0 ends at the next greater value in its section
 * (else at the section's end): symbols are walked from the last, a group
 * of equal values at a time. */
static bool end_unsized_symbols(struct parser *p, struct elf_symbols *elf)
{
    uint64_t *next = malloc(p->shnum * sizeof *next);
    if (!next)
        return fail_at(p, 0, "out of memory for %u sections", p->shnum);
    for (unsigned k = 0; k < p->shnum; k++)
        next[k] = UINT64_MAX;
    for (size_t group_end = elf->count; group_end > 0;) {
        size_t group = group_end - 1;
        while (group > 0 && elf->symbols[group - 1].value == elf->symbols[group_end - 1].value)
            group--;
        for (size_t k = group; k < group_end; k++) {
            struct symbol *s = &elf->symbols[k];
            if (!s->sized && next[s->section] < s->end)
                s->end = next[s->section];
        }
        for (size_t k = group; k < group_end; k++)
            next[elf->symbols[k].section] = elf->symbols[k].value;
        group_end = group;
    }
    free(next);
    return true;
}

/* Sorts the symbols by address, ends the unsized ones and computes
 * reach[], which stops a lookup's walk down the table. */
static bool index_symbols(struct parser *p, struct elf_symbols *elf)
{
    qsort(elf->symbols, elf->count, sizeof *elf->symbols, by_address);
    if (!end_unsized_symbols(p, elf))
        return false;
    elf->reach = malloc((elf->count ? elf->count : 1) * sizeof *elf->reach);
    if (!elf->reach)
        return fail_at(p, 0, "out of memory for %zu symbols", elf->count);
    for (size_t k = 0; k < elf->count; k++) {
        uint64_t end = elf->symbols[k].end;
        elf->reach[k] = k > 0 && elf->reach[k - 1] > end ? elf->reach[k - 1] : end;
    }
    return true;
}

static bool parse_symbols(struct parser *p, struct elf_symbols *elf)
{
    elf->table = "";
    unsigned index = find_symbol_table(p, elf);
    if (index == 0)
        return true;
    struct section s = read_section(p, index);
    if (!check_symbol_table(p, index, &s) || !copy_names(p, elf, s.link))
        return false;
    uint64_t n = s.size / p->layout->sym_size;
    if (n > UINT32_MAX)
        return fail_at(p, s.header + p->layout->sh_size,
                       "section %u (%s): %llu symbols: expected at most 2^32 - 1", index,
                       section_type_name(s.type), (unsigned long long)n);
    elf->symbols = malloc((n ? n : 1) * sizeof *elf->symbols);
    if (!elf->symbols)
        return fail_at(p, s.offset, "out of memory for %llu symbols", (unsigned long long)n);
    uint64_t names_size = read_section(p, s.link).size;
    for (uint32_t i = 1; i < n; i++)
        if (!read_symbol(p, elf, &s, names_size, i))
            return false;
    return index_symbols(p, elf);
}

static struct elf_symbols *parse(struct parser *p)
{
    struct elf_symbols *elf = calloc(1, sizeof *elf);
    if (!elf) {
        snprintf(p->error, p->error_size, "%s: out of memory", p->name);
    } else if (!parse_header(p, elf) || !parse_entry_code(p, elf) || !parse_symbols(p, elf)) {
        elf_symbols_free(elf);
        elf = NULL;
    }
    for (int k = 0; k < p->n_pieces; k++)
        free(p->pieces[k].bytes);
    return elf;
}

struct elf_symbols *elf_symbols_parse(const uint8_t *data, size_t size, const char *name,
                                      char *error, size_t error_size)
{
    struct parser p = {.data = data, .fd = -1, .size = size, .name = name, .error = error,
                       .error_size = error_size};
    return parse(&p);
}

/* `path` opened for reading when it is a regular file; -1 with one line
 * in `error` (without blocking on a FIFO, which open would wait on for a
 * writer). */
static int open_regular(const char *path, uint64_t *size, char *error, size_t error_size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(error, error_size, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0)
        snprintf(error, error_size, "%s: cannot read: %s", path, strerror(errno));
    else if (S_ISDIR(st.st_mode))
        snprintf(error, error_size, "%s: is a directory", path);
    else if (!S_ISREG(st.st_mode))
        snprintf(error, error_size, "%s: not a regular file", path);
    else {
        *size = (uint64_t)st.st_size;
        return fd;
    }
    close(fd);
    return -1;
}

struct elf_symbols *elf_symbols_load(const char *path, char *error, size_t error_size)
{
    struct parser p = {.name = path, .error = error, .error_size = error_size};
    p.fd = open_regular(path, &p.size, error, error_size);
    if (p.fd < 0)
        return NULL;
    struct elf_symbols *elf = parse(&p);
    close(p.fd);
    return elf;
}

void elf_symbols_free(struct elf_symbols *elf)
{
    if (!elf)
        return;
    free(elf->names);
    free(elf->symbols);
    free(elf->reach);
    free(elf);
}

size_t elf_symbols_count(const struct elf_symbols *elf)
{
    return elf->count;
}

const char *elf_symbols_table(const struct elf_symbols *elf)
{
    return elf->table;
}

const char *elf_symbols_name(const struct elf_symbols *elf, size_t index)
{
    return elf->names + elf->symbols[index].name;
}

bool elf_symbols_position_independent(const struct elf_symbols *elf)
{
    return elf->position_independent;
}

uint64_t elf_symbols_entry(const struct elf_symbols *elf)
{
    return elf->entry;
}

size_t elf_symbols_entry_code(const struct elf_symbols *elf, const uint8_t **code)
{
    *code = elf->entry_code;
    return elf->entry_code_size;
}

/* The number of symbols whose value is at most `address`. */
static size_t symbols_at_or_below(const struct elf_symbols *elf, uint64_t address)
{
    size_t low = 0, high = elf->count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (elf->symbols[mid].value <= address)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

/* The nearest symbol at or below `address` that covers it; among several
 * at that value, the first in preference order that covers it. */
bool elf_symbols_lookup(const struct elf_symbols *elf, uint64_t address,
                        struct elf_symbol_match *match)
{
    for (size_t k = symbols_at_or_below(elf, address); k > 0 && elf->reach[k - 1] > address; k--) {
        if (elf->symbols[k - 1].end <= address)
            continue;
        size_t best = k - 1;
        while (best > 0 && elf->symbols[best - 1].value == elf->symbols[k - 1].value)
            best--;
        while (elf->symbols[best].end <= address)
            best++;
        match->index = best;
        match->name = elf->names + elf->symbols[best].name;
        match->offset = address - elf->symbols[best].value;
        return true;
    }
    return false;
}
