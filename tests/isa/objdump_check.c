/* objdump_check: the decoder against objdump (docs/isa.md, "The objdump
 * check").
 *
 *   objdump -d -z --no-show-raw-insn -j .text ELF | objdump_check ELF
 *       reads objdump's listing on stdin and the .text bytes from ELF, and
 *       compares the length and branch kind of every instruction objdump
 *       decodes (not "(bad)"); prints "objdump-check: N agreed, M
 *       disagreed" and exits 1 on any disagreement, 2 on errors.
 *   objdump_check --speed ELF
 *       decodes .text linearly and prints instructions per second.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa/x86.h"

struct text {
    uint8_t *data; /* the whole file */
    size_t size;
    size_t offset, length; /* of .text in the file */
    uint64_t address;
    enum x86_mode mode;
};

static bool read_file(const char *path, struct text *t)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    t->data = n > 0 ? malloc((size_t)n) : NULL;
    bool ok = t->data && fread(t->data, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    t->size = ok ? (size_t)n : 0;
    return ok;
}

/* The section named .text, for one ELF class (macro: the two differ in
 * types only). */
#define FIND_TEXT(Ehdr, Shdr)                                                                  \
    do {                                                                                       \
        const Ehdr *eh = (const Ehdr *)t->data;                                                \
        if (eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Shdr) > t->size ||                    \
            eh->e_shstrndx >= eh->e_shnum)                                                     \
            return false;                                                                      \
        const Shdr *sh = (const Shdr *)(t->data + eh->e_shoff);                                \
        const char *names = (const char *)t->data + sh[eh->e_shstrndx].sh_offset;              \
        for (unsigned i = 0; i < eh->e_shnum; i++) {                                           \
            if (strcmp(names + sh[i].sh_name, ".text") != 0)                                   \
                continue;                                                                      \
            t->offset = sh[i].sh_offset;                                                       \
            t->length = sh[i].sh_size;                                                         \
            t->address = sh[i].sh_addr;                                                        \
            return t->offset + t->length <= t->size;                                           \
        }                                                                                      \
        return false;                                                                          \
    } while (0)

static bool find_text(struct text *t)
{
    if (t->size < sizeof(Elf64_Ehdr) || memcmp(t->data, ELFMAG, SELFMAG) != 0)
        return false;
    if (t->data[EI_CLASS] == ELFCLASS64) {
        t->mode = X86_MODE_64;
        FIND_TEXT(Elf64_Ehdr, Elf64_Shdr);
    }
    t->mode = X86_MODE_32;
    FIND_TEXT(Elf32_Ehdr, Elf32_Shdr);
}

/* ---- objdump's listing ---- */

struct line {
    uint64_t address;
    char text[120];
};

/* "  401000:\tmov    %rsp,%rbp" */
static bool parse_line(const char *s, struct line *out)
{
    char *end;
    while (*s == ' ')
        s++;
    unsigned long long a = strtoull(s, &end, 16);
    if (end == s || end[0] != ':' || end[1] != '\t')
        return false;
    out->address = a;
    snprintf(out->text, sizeof out->text, "%s", end + 2);
    out->text[strcspn(out->text, "\n")] = '\0';
    return true;
}

static const char *const prefix_words[] = {
    "bnd", "notrack", "rep", "repz", "repnz", "repe", "repne", "lock", "data16", "data32",
    "addr16", "addr32", "cs", "ds", "es", "ss", "fs", "gs", "xacquire", "xrelease", "{vex}",
    "{vex3}", "{evex}", "{disp8}", "{disp32}",
};

static bool is_prefix_word(const char *w, size_t n)
{
    if (n >= 3 && strncmp(w, "rex", 3) == 0)
        return true;
    for (size_t i = 0; i < sizeof prefix_words / sizeof prefix_words[0]; i++)
        if (strlen(prefix_words[i]) == n && strncmp(prefix_words[i], w, n) == 0)
            return true;
    return false;
}

static bool word_in(const char *w, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(w, *list) == 0)
            return true;
    return false;
}

static const char *const far_words[] = {
    "ljmp", "ljmpw", "ljmpl", "ljmpq", "lcall", "lcallw", "lcalll", "lcallq", "lret", "lretw",
    "lretl", "lretq", "iret", "iretw", "iretd", "iretl", "iretq", "sysret", "sysretl",
    "sysretq", "sysexit", "sysexitl", "sysexitq", NULL,
};
static const char *const int_words[] = {
    "int", "int3", "into", "int1", "icebp", "syscall", "sysenter", NULL,
};
static const char *const loop_words[] = {"loop", "loope", "loopne", "loopz", "loopnz",
                                         "loopl", "loopw", "loopq", NULL};

/* The branch kind by objdump's mnemonic (docs/isa.md, "Branch kinds"); -1
 * for "(bad)". */
static int classify(const char *text)
{
    const char *s = text;
    char word[32];
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        size_t n = strcspn(s, " \t");
        if (!is_prefix_word(s, n) || s[n] == '\0') {
            snprintf(word, sizeof word, "%.*s", (int)(n < 31 ? n : 31), s);
            s += n;
            break;
        }
        s += n;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    bool indirect = *s == '*';
    if (strcmp(word, "(bad)") == 0)
        return -1;
    if (word_in(word, far_words))
        return X86_BRANCH_FAR;
    if (word_in(word, int_words))
        return X86_BRANCH_SOFT_INT;
    if (word_in(word, loop_words))
        return X86_BRANCH_COND;
    if (strncmp(word, "jmp", 3) == 0)
        return indirect ? X86_BRANCH_INDIRECT_JUMP : X86_BRANCH_JUMP;
    if (word[0] == 'j')
        return X86_BRANCH_COND;
    if (strncmp(word, "call", 4) == 0)
        return indirect ? X86_BRANCH_INDIRECT_CALL : X86_BRANCH_CALL;
    if (strncmp(word, "ret", 3) == 0)
        return X86_BRANCH_RETURN;
    return X86_BRANCH_NONE;
}

/* ---- the comparison ---- */

struct tally {
    unsigned long agreed, disagreed, bad, fallback;
};

static void report(const struct text *t, const struct line *l, size_t len,
                   const struct x86_insn *in, bool ok, int kind)
{
    const uint8_t *b = t->data + t->offset + (l->address - t->address);
    fprintf(stderr, "objdump-check: %#llx '%s': objdump length %zu kind %s; decoder ",
            (unsigned long long)l->address, l->text, len, x86_branch_name((enum x86_branch)kind));
    if (ok)
        fprintf(stderr, "length %u kind %s (%s);", in->length,
                x86_branch_name((enum x86_branch)in->branch), in->mnemonic);
    else
        fprintf(stderr, "failed;");
    for (size_t i = 0; i < len && i < 15; i++)
        fprintf(stderr, " %02x", b[i]);
    fputc('\n', stderr);
}

static void check_one(const struct text *t, const struct line *l, uint64_t next,
                      struct tally *tally)
{
    int kind = classify(l->text);
    if (kind < 0) {
        tally->bad++;
        return;
    }
    size_t len = (size_t)(next - l->address);
    size_t off = (size_t)(l->address - t->address);
    struct x86_insn in;
    bool ok = x86_decode(t->data + t->offset + off, t->length - off, l->address, t->mode, &in);
    if (ok && in.length == len && in.branch == kind) {
        tally->agreed++;
        tally->fallback += !in.capstone;
        return;
    }
    if (tally->disagreed < 50)
        report(t, l, len, &in, ok, kind);
    tally->disagreed++;
}

static int compare(const struct text *t, FILE *listing)
{
    char buf[512];
    struct line cur, next;
    bool have = false;
    struct tally tally = {0};
    uint64_t end = t->address + t->length;
    while (fgets(buf, sizeof buf, listing)) {
        if (!parse_line(buf, &next) || next.address < t->address || next.address >= end)
            continue;
        if (have)
            check_one(t, &cur, next.address, &tally);
        cur = next;
        have = true;
    }
    if (have)
        check_one(t, &cur, end, &tally);
    printf("objdump-check: %lu agreed, %lu disagreed (%lu (bad) skipped, %lu by the fallback)\n",
           tally.agreed, tally.disagreed, tally.bad, tally.fallback);
    return tally.disagreed || !tally.agreed ? 1 : 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Decodes [0, limit) of .text ROUNDS times; returns the instructions decoded. */
static unsigned long decode_span(const struct text *t, size_t limit, int rounds)
{
    const uint8_t *code = t->data + t->offset;
    unsigned long n = 0;
    struct x86_insn in;
    for (int round = 0; round < rounds; round++) {
        for (size_t off = 0; off < limit;) {
            off += x86_decode(code + off, t->length - off, t->address + off, t->mode, &in)
                       ? in.length : 1;
            n++;
        }
    }
    return n;
}

/* Two figures: every instruction of .text once (each a cache miss), and a
 * trace-like stream that runs the same 2000 instructions over and over. */
static int speed(const struct text *t)
{
    double a = now();
    unsigned long n = decode_span(t, t->length, 1);
    double b = now();
    printf("objdump-check: speed, .text once: %lu instructions, %.2f million per second\n", n,
           (double)n / (b - a) / 1e6);
    size_t hot = t->length < 8000 ? t->length : 8000; /* about 2000 instructions */
    a = now();
    n = decode_span(t, hot, 2000);
    b = now();
    printf("objdump-check: speed, a hot loop: %lu instructions, %.2f million per second\n", n,
           (double)n / (b - a) / 1e6);
    return 0;
}

int main(int argc, char **argv)
{
    bool want_speed = argc == 3 && strcmp(argv[1], "--speed") == 0;
    if (argc != 2 && !want_speed) {
        fprintf(stderr, "usage: objdump_check [--speed] ELF (objdump's listing on stdin)\n");
        return 2;
    }
    const char *path = argv[argc - 1];
    struct text t = {0};
    if (!read_file(path, &t) || !find_text(&t)) {
        fprintf(stderr, "objdump_check: %s: cannot read its .text section\n", path);
        free(t.data);
        return 2;
    }
    int status = want_speed ? speed(&t) : compare(&t, stdin);
    free(t.data);
    x86_decode_release();
    return status;
}
