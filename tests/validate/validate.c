/* validate PMUBENCH DIR: `make validate` (docs/validate.md).  Generates a
 * microbenchmark for every row of the P5 and NetBurst timing tables (one
 * 32-bit program per table), assembles, links and records each once with
 * `PMUBENCH record`, checks that every kernel's instructions are
 * classified to its row, simulates each trace once per preset, and prints
 * published against simulated per row and measurement, then a summary per
 * preset; the report also goes to DIR/validate.txt.  Exit status 0 when
 * every preset has at least 90% of its measured rows within 10%, 1 when
 * one has fewer, 2 for bad arguments, 3 when the programs could not be
 * built, recorded or simulated. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "sim/netburst/nbm_model.h"
#include "sim/netburst/nbm_op.h"
#include "sim/netburst/nbm_timings.h"
#include "sim/p5/p5_timings.h"
#include "traces/elf_symbols.h"
#include "vgen.h"
#include "vprog.h"
#include "vprint.h"
#include "vsim.h"

extern char **environ;

enum { EXIT_BELOW = 1, EXIT_USAGE = 2, EXIT_FAILED = 3 };
enum table { T_P5, T_NB, NUM_TABLES };
enum { WHY = 200, PATH = 4096, MAX_ASSEMBLIES = 8, MAX_RECORDINGS = 64 };

struct meas {
    enum table table;
    size_t row;
    enum vgen_kind kind;
    struct vgen_kernel kernel;
    bool planned;
    char why[WHY];
    uint32_t region; /* short run; long run region + 1 */
};

struct preset {
    const char *name;
    enum table table;
    int group; /* enum nbm_timing_group; -1 for the P5 */
    bool mmx;  /* the Pentium MMX: the P5 table's MMX rows are measured */
};

static struct preset presets[] = {
    {"p5", T_P5, -1, false},       {"pmmx", T_P5, -1, true},      {"willamette0", T_NB, 0, false},
    {"willamette", T_NB, 0, false}, {"northwood", T_NB, 0, false}, {"prescott", T_NB, 0, false},
    {"prescott4", T_NB, 0, false},
};
enum { NUM_PRESETS = sizeof presets / sizeof presets[0] };

static const char *const kind_names[VGEN_NUM_KINDS] = {"latency", "throughput", "taken",
                                                       "pair",    "rep"};
static const char *const table_names[NUM_TABLES] = {"p5", "nb"};

/* ---- the tables */

static size_t table_size(enum table t)
{
    return t == T_P5 ? p5_timings_count : nbm_timings_count;
}

static const void *table_row(enum table t, size_t i)
{
    return t == T_P5 ? (const void *)&p5_timings[i] : (const void *)&nbm_timings[i];
}

static struct vgen_row vrow(enum table t, size_t i)
{
    if (t == T_P5)
        return (struct vgen_row){p5_timings[i].family, p5_timings[i].form, p5_timings[i].pairing,
                                 p5_timings[i].rep_base || p5_timings[i].rep_per};
    return (struct vgen_row){nbm_timings[i].family, nbm_timings[i].form, VGEN_NO_PAIRING, false};
}

static const void *p5_row_of(const char *family, const char *form)
{
    return p5_timing_find(family, form);
}

static const void *nb_row_of(const char *family, const char *form)
{
    return nbm_timing_find(family, form);
}

/* A row's published figure for a kind, in half cycles; false when none. */
static bool row_figure(enum table t, const void *row, enum vgen_kind kind, int group,
                       uint32_t *lo, uint32_t *hi)
{
    if (t == T_P5 && kind == VGEN_REP) {
        const struct p5_timing *p = row;
        *lo = *hi = 2u * (p->rep_base + p->rep_per * VGEN_REP_COUNT);
        return *lo > 0;
    }
    if (t == T_P5) {
        const struct p5_timing *p = row;
        bool latency = kind == VGEN_LATENCY && p->latency;
        *lo = 2u * (latency ? p->latency : p->clocks);
        *hi = 2u * (latency ? p->latency : p->clocks_max);
        return *lo > 0 || kind == VGEN_PAIR;
    }
    const struct nbm_timing_cell *c = &((const struct nbm_timing *)row)->t[group];
    *lo = kind == VGEN_LATENCY ? c->latency : c->throughput;
    *hi = kind == VGEN_LATENCY ? c->latency_max : c->throughput_max;
    if (*hi < *lo)
        *hi = *lo;
    return *lo > 0;
}

/* Adds the figure of the companion row FAMILY FORM (none: NULL) to
 * lo..hi; false with why not in `why`. */
static bool add_companion(const struct meas *m, int group, const char *family, const char *form,
                          uint32_t *lo, uint32_t *hi, char *why, size_t why_size)
{
    if (!family)
        return true;
    const void *with = m->table == T_P5 ? p5_row_of(family, form) : nb_row_of(family, form);
    uint32_t wlo, whi;
    enum vgen_kind with_kind = m->kind == VGEN_LATENCY ? VGEN_LATENCY : VGEN_THROUGHPUT;
    if (!with || !row_figure(m->table, with, with_kind, group, &wlo, &whi)) {
        snprintf(why, why_size, "no published figure for %s %s, measured with it", family, form);
        return false;
    }
    *lo += wlo;
    *hi += whi;
    return true;
}

/* The measurement's published figure, with the companion rows' added (a
 * CALL measured with its RET); false with why not in `why`. */
static bool published(const struct meas *m, int group, uint32_t *lo, uint32_t *hi, char *why,
                      size_t why_size)
{
    static const char *const groups[] = {"0F2n", "0F3n"};
    if (!row_figure(m->table, table_row(m->table, m->row), m->kind, group, lo, hi)) {
        snprintf(why, why_size, "no published %s%s%s", kind_names[m->kind],
                 m->table == T_NB ? " for " : "", m->table == T_NB ? groups[group] : "");
        return false;
    }
    const struct vgen_kernel *k = &m->kernel;
    return add_companion(m, group, k->with_family, k->with_form, lo, hi, why, why_size) &&
           add_companion(m, group, k->with2_family, k->with2_form, lo, hi, why, why_size);
}

/* ---- the measurements */

struct suite {
    struct meas *m;
    size_t n;
};

static bool add_meas(struct suite *s, const struct meas *m)
{
    struct meas *grown = realloc(s->m, (s->n + 1) * sizeof *grown);
    if (!grown)
        return false;
    s->m = grown;
    s->m[s->n++] = *m;
    return true;
}

static bool plan_table(struct suite *s, enum table t)
{
    for (size_t i = 0; i < table_size(t); i++) {
        struct vgen_row row = vrow(t, i);
        for (int kind = 0; kind < VGEN_NUM_KINDS; kind++) {
            if (!vgen_applies(&row, kind))
                continue;
            struct meas m = {.table = t, .row = i, .kind = kind};
            m.planned = vgen_plan(&row, kind, &m.kernel, m.why, sizeof m.why);
            if (!add_meas(s, &m))
                return false;
        }
    }
    return true;
}

/* ---- building and recording */

/* Runs argv with its output in `log`; its exit status, or -1. */
static int run(char *const argv[], const char *log)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The first line of a file, for a message. */
static void first_line(const char *path, char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f && fgets(out, (int)size, f))
        out[strcspn(out, "\n")] = '\0';
    if (f)
        fclose(f);
}

struct program {
    enum table table;
    char source[PATH], object[PATH], exe[PATH], trace[PATH], log[PATH];
    struct vprog_entry *entries;
    size_t *meas_of; /* entries[i] measures s->m[meas_of[i]] */
    size_t n;
    uint32_t n_regions;
};

static bool write_source(struct program *p, struct suite *s)
{
    p->n = 0;
    for (size_t i = 0; i < s->n; i++) {
        struct meas *m = &s->m[i];
        if (m->table != p->table || !m->planned)
            continue;
        m->region = 2 * (uint32_t)p->n + 1;
        p->entries[p->n] = (struct vprog_entry){&m->kernel, m->region, 0, 0};
        p->meas_of[p->n++] = i;
    }
    p->n_regions = 2 * (uint32_t)p->n;
    FILE *out = fopen(p->source, "w");
    if (!out)
        return false;
    bool ok = vprog_write(out, p->entries, p->n);
    return fclose(out) == 0 && ok;
}

/* The assembler's "FILE:LINE: Error: MESSAGE" lines: each marks the
 * measurement whose code holds LINE not measured; how many it marked. */
static size_t reject_lines(struct program *p, struct suite *s)
{
    FILE *f = fopen(p->log, "r");
    if (!f)
        return 0;
    char line[1024];
    size_t marked = 0;
    while (fgets(line, sizeof line, f)) {
        char *at = strstr(line, ".s:");
        int number;
        char *error = strstr(line, "Error: ");
        if (!at || !error || sscanf(at + 3, "%d", &number) != 1)
            continue;
        long e = vprog_entry_of_line(p->entries, p->n, number);
        if (e < 0 || !s->m[p->meas_of[e]].planned)
            continue;
        struct meas *m = &s->m[p->meas_of[e]];
        error[strcspn(error, "\n")] = '\0';
        snprintf(m->why, sizeof m->why, "the assembler rejects it: %s", error + 7);
        m->planned = false;
        marked++;
    }
    fclose(f);
    return marked;
}

static bool assemble(struct program *p, struct suite *s, char *error, size_t size)
{
    for (int round = 0; round < MAX_ASSEMBLIES; round++) {
        if (!write_source(p, s)) {
            snprintf(error, size, "%s: cannot write", p->source);
            return false;
        }
        char *as[] = {"as", "--32", "-o", p->object, p->source, NULL};
        if (run(as, p->log) == 0)
            return true;
        if (reject_lines(p, s) == 0)
            break;
    }
    char why[512];
    first_line(p->log, why, sizeof why);
    snprintf(error, size, "as %s failed: %s", p->source, why);
    return false;
}

/* After a recording that valgrind ended on a signal ("... at address
 * 0xADDR"): marks the measurement whose code (kN or mN) holds the address
 * not measured; false when there is none. */
static bool reject_address(struct program *p, struct suite *s)
{
    FILE *f = fopen(p->log, "r");
    if (!f)
        return false;
    char line[1024], signal[128] = "", bytes[128] = "";
    unsigned long long address = 0;
    while (fgets(line, sizeof line, f)) {
        char *at;
        line[strcspn(line, "\n")] = '\0';
        if ((at = strstr(line, "default action of ")))
            snprintf(signal, sizeof signal, "%s", at + 18);
        if ((at = strstr(line, "instruction bytes: ")))
            snprintf(bytes, sizeof bytes, " (bytes %.60s)", at + 19);
        if ((at = strstr(line, "at address 0x")) && !address)
            address = strtoull(at + 11, NULL, 16);
    }
    fclose(f);
    char error[256];
    struct elf_symbols *elf = address ? elf_symbols_load(p->exe, error, sizeof error) : NULL;
    struct elf_symbol_match match;
    bool found = elf && elf_symbols_lookup(elf, address, &match);
    size_t entry = 0;
    found = found && (match.name[0] == 'k' || match.name[0] == 'm') &&
            sscanf(match.name + 1, "%zu", &entry) == 1 && entry < p->n;
    elf_symbols_free(elf);
    if (!found)
        return false;
    struct meas *m = &s->m[p->meas_of[entry]];
    snprintf(m->why, sizeof m->why, "valgrind stops on it: %s%s", signal, bytes);
    m->planned = false;
    return true;
}

static bool build_and_record(struct program *p, struct suite *s, const char *pmubench,
                             char *error, size_t size)
{
    char why[512];
    for (int round = 0; round < MAX_RECORDINGS; round++) {
        if (!assemble(p, s, error, size))
            return false;
        char *ld[] = {"ld", "-m", "elf_i386", "-static", "-nostdlib", "-o", p->exe, p->object,
                      NULL};
        char *record[] = {(char *)pmubench, "record", "-o", p->trace, "--", p->exe, NULL};
        if (run(ld, p->log) != 0) {
            first_line(p->log, why, sizeof why);
            snprintf(error, size, "ld %s failed: %s", p->exe, why);
            return false;
        }
        if (run(record, p->log) == 0)
            return true;
        if (!reject_address(p, s))
            break;
    }
    first_line(p->log, why, sizeof why);
    snprintf(error, size, "%s record %s failed: %s (%s)", pmubench, p->exe, why, p->log);
    return false;
}

/* Marks not measured each kernel whose runs' difference does not hold
 * exactly its units' instructions of its row. */
static bool check_census(struct program *p, struct suite *s, char *error, size_t size)
{
    size_t regions = p->n_regions + 1;
    const void **rows = calloc(regions, sizeof *rows);
    const char **families = calloc(regions, sizeof *families);
    struct vsim_census *census = calloc(regions, sizeof *census);
    bool ok = rows && families && census;
    for (size_t e = 0; ok && e < p->n; e++) {
        const struct meas *m = &s->m[p->meas_of[e]];
        for (uint32_t r = m->region; r <= m->region + 1; r++) {
            rows[r] = table_row(m->table, m->row);
            families[r] = vrow(m->table, m->row).family;
        }
    }
    if (!ok)
        snprintf(error, size, "out of memory");
    else
        ok = vsim_census(p->trace, p->table == T_P5 ? p5_row_of : nb_row_of, rows, families,
                         census, p->n_regions, error, size);
    for (size_t e = 0; ok && e < p->n; e++) {
        struct meas *m = &s->m[p->meas_of[e]];
        const struct vgen_kernel *k = &m->kernel;
        uint64_t want = (uint64_t)k->per_unit * (uint64_t)k->copies * (uint64_t)k->iterations;
        uint64_t got = census[m->region + 1].matches - census[m->region].matches;
        if (got == want)
            continue;
        snprintf(m->why, sizeof m->why,
                 "its kernel's instructions are classified as '%s' (%llu of %llu to the row)",
                 census[m->region + 1].key, (unsigned long long)got, (unsigned long long)want);
        m->planned = false;
    }
    free(rows);
    free(families);
    free(census);
    return ok;
}

/* ---- the report */

struct tally {
    unsigned within, measured, not_measured, unpublished;
};

static void row_name(const struct meas *m, char *out, size_t size)
{
    struct vgen_row row = vrow(m->table, m->row);
    snprintf(out, size, "%s %s", row.family, row.form[0] ? row.form : "(none)");
}

/* The published figure a measurement checks: the row's latency, its
 * throughput (on the P5 its clocks, which is also its latency unless an
 * x87 row gives one of its own), or its REP figure. */
enum figure { FIGURE_THROUGHPUT, FIGURE_LATENCY, FIGURE_REP, NUM_FIGURES };

static enum figure figure_of(const struct meas *m)
{
    if (m->kind == VGEN_REP)
        return FIGURE_REP;
    if (m->kind != VGEN_LATENCY || (m->table == T_P5 && !p5_timings[m->row].latency))
        return FIGURE_THROUGHPUT;
    return FIGURE_LATENCY;
}

/* What became of one measurement on one preset. */
struct outcome {
    bool figure;   /* the row has the figure (for this preset's group) */
    bool measured; /* and the kernel ran: then lo, hi, r */
    uint32_t lo, hi; /* the expected figure, sixths of a cycle */
    struct vprint_result r;
    char why[WHY]; /* why not measured */
};

/* The ports a NetBurst stream's copies issue through: two for the
 * one-uop register forms both double-speed ALUs run (ADD, SUB, CMP, NEG:
 * nbm_alu1_accepts, the Optimization manual ch. 1, "Execution Core
 * Detail"), else one. */
static uint32_t stream_ports(const struct meas *m)
{
    if (m->table != T_NB || m->kind != VGEN_THROUGHPUT)
        return 1;
    const struct nbm_timing *row = table_row(T_NB, m->row);
    bool registers = !strchr(row->form, 'm');
    return row->unit == NBM_EU_ALU && registers && nbm_alu1_accepts(row->family) ? 2 : 1;
}

/* Intel's throughput is one issue port's interval ("the number of clock
 * cycles required to wait before the issue ports are free to accept the
 * same instruction again": the Optimization manual, appendix C).  A
 * stream whose copies two ports take runs no slower than one port and no
 * faster than both, nor than the allocator's three uops a cycle (ch. 1:
 * the allocator and the trace cache's delivery, three uops a cycle): the
 * expected figure is the range from max(published / 2, 1/3) to the
 * published figure, in sixths of a cycle. */
static void expected(const struct meas *m, struct outcome *o)
{
    uint32_t ports = stream_ports(m), lo = (3 * o->lo + ports - 1) / ports;
    o->hi *= 3;
    o->lo = ports > 1 && lo < 2 ? 2 : lo;
}

static void outcome_of(const struct meas *m, const struct preset *pr, uint64_t *const *cycles,
                       struct outcome *o)
{
    uint32_t lo, hi;
    o->figure = row_figure(m->table, table_row(m->table, m->row), m->kind, pr->group, &lo, &hi);
    o->measured = false;
    if (m->table == T_P5 && p5_timings[m->row].mmx_only && !pr->mmx) {
        snprintf(o->why, sizeof o->why, "the Pentium MMX only (the pmmx preset)");
        return;
    }
    if (!m->planned) {
        snprintf(o->why, sizeof o->why, "%s", m->why);
        return;
    }
    if (!published(m, pr->group, &o->lo, &o->hi, o->why, sizeof o->why))
        return;
    expected(m, o);
    const uint64_t *c = cycles[m->table];
    o->r = vprint_difference(c[m->region], c[m->region + 1], m->kernel.copies,
                              m->kernel.iterations);
    o->measured = true;
}

static void print_line(FILE *out, const struct preset *pr, const struct meas *m,
                       const struct outcome *o)
{
    char name[64];
    row_name(m, name, sizeof name);
    fprintf(out, "%-12s %-22s %-10s ", pr->name, name, kind_names[m->kind]);
    if (!o->measured) {
        fprintf(out, "not measured: %s\n", o->why);
        return;
    }
    char pub[32], sim[32];
    vprint_published_sixths(pub, sizeof pub, o->lo, o->hi);
    vprint_simulated(sim, sizeof sim, o->r);
    fprintf(out, "published %-7s simulated %-8s %s%s%s\n", pub, sim,
            vprint_within_sixths(o->lo, o->hi, o->r) ? "yes" : "NO", m->kernel.note ? "  " : "",
            m->kernel.note ? m->kernel.note : "");
}

/* The lines of one row's measurements m[0..n): every measurement made; a
 * measurement not made when no other checks the same figure; for a row
 * with no published figure for the preset, one line saying so. */
static void report_row(FILE *out, const struct preset *pr, const struct meas *m, size_t n,
                       uint64_t *const *cycles, struct tally *t)
{
    struct outcome o[VGEN_NUM_KINDS];
    bool covered[NUM_FIGURES] = {false, false, false}, any_figure = false, all_within = true;
    for (size_t k = 0; k < n; k++) {
        outcome_of(&m[k], pr, cycles, &o[k]);
        any_figure = any_figure || o[k].figure;
        covered[figure_of(&m[k])] = covered[figure_of(&m[k])] || o[k].measured;
        if (o[k].measured)
            all_within = all_within && vprint_within_sixths(o[k].lo, o[k].hi, o[k].r);
    }
    if (!any_figure) {
        static const char *const groups[] = {"0F2n", "0F3n"};
        char name[64];
        row_name(&m[0], name, sizeof name);
        fprintf(out, "%-12s %-22s %-10s no published figure for %s\n", pr->name, name, "-",
                pr->group >= 0 ? groups[pr->group] : "the P5");
        t->unpublished++;
        return;
    }
    for (size_t k = 0; k < n; k++)
        if (o[k].measured || (o[k].figure && !covered[figure_of(&m[k])]))
            print_line(out, pr, &m[k], &o[k]);
    bool measured = covered[FIGURE_THROUGHPUT] || covered[FIGURE_LATENCY] || covered[FIGURE_REP];
    t->measured += measured;
    t->within += measured && all_within;
    t->not_measured += !measured;
}

/* One row after another; the rows' tally. */
static struct tally report_preset(FILE *out, const struct preset *pr, const struct suite *s,
                                  uint64_t *const *cycles)
{
    struct tally t = {0, 0, 0, 0};
    for (size_t i = 0; i < s->n;) {
        size_t n = 1;
        while (i + n < s->n && s->m[i + n].table == s->m[i].table &&
               s->m[i + n].row == s->m[i].row)
            n++;
        if (s->m[i].table == pr->table)
            report_row(out, pr, &s->m[i], n, cycles, &t);
        i += n;
    }
    return t;
}

/* ---- main */

static int usage(void)
{
    fprintf(stderr, "usage: validate PMUBENCH DIR\n"
                    "  builds, records and simulates the timing tables' microbenchmarks in DIR;\n"
                    "  the report on stdout and in DIR/validate.txt (docs/validate.md)\n");
    return EXIT_USAGE;
}

static bool setup_program(struct program *p, enum table t, const char *dir, size_t n)
{
    p->table = t;
    snprintf(p->source, PATH, "%s/validate_%s.s", dir, table_names[t]);
    snprintf(p->object, PATH, "%s/validate_%s.o", dir, table_names[t]);
    snprintf(p->exe, PATH, "%s/validate_%s", dir, table_names[t]);
    snprintf(p->trace, PATH, "%s/validate_%s.pmutrace", dir, table_names[t]);
    snprintf(p->log, PATH, "%s/validate_%s.log", dir, table_names[t]);
    p->entries = calloc(n ? n : 1, sizeof *p->entries);
    p->meas_of = calloc(n ? n : 1, sizeof *p->meas_of);
    return p->entries && p->meas_of;
}

static bool preset_group(struct preset *pr, char *error, size_t size)
{
    if (pr->table == T_P5)
        return true;
    struct nbm_config config;
    if (!nbm_config_preset(pr->name, &config, error, size))
        return false;
    pr->group = nbm_timing_group_of(config.model);
    return true;
}

static int failed(const char *error)
{
    fprintf(stderr, "validate: %s\n", error);
    return EXIT_FAILED;
}

/* Simulates each program's trace on every preset and writes the report. */
static int simulate_and_report(struct program *programs, const struct suite *s,
                               const char *report_path)
{
    char error[1024];
    char *text = NULL;
    size_t text_size = 0;
    FILE *out = open_memstream(&text, &text_size);
    if (!out)
        return failed("out of memory");
    char summaries[NUM_PRESETS][200];
    bool pass = true;
    for (int i = 0; i < NUM_PRESETS; i++) {
        struct preset *pr = &presets[i];
        struct program *p = &programs[pr->table];
        uint64_t *cycles[NUM_TABLES] = {NULL, NULL};
        cycles[pr->table] = calloc(p->n_regions + 1, sizeof **cycles);
        if (!cycles[pr->table] || !preset_group(pr, error, sizeof error) ||
            !vsim_run(p->trace, pr->table == T_P5 ? VSIM_P5 : VSIM_NETBURST, pr->name,
                      cycles[pr->table], p->n_regions, error, sizeof error)) {
            free(cycles[pr->table]);
            fclose(out);
            free(text);
            return failed(cycles[pr->table] ? error : "out of memory");
        }
        struct tally t = report_preset(out, pr, s, cycles);
        free(cycles[pr->table]);
        vprint_summary(summaries[i], sizeof summaries[i], pr->name, t.within, t.measured,
                        t.not_measured, t.unpublished);
        pass = pass && vprint_passes(t.within, t.measured);
    }
    for (int i = 0; i < NUM_PRESETS; i++)
        fprintf(out, "%s\n", summaries[i]);
    fclose(out);
    fputs(text, stdout);
    FILE *file = fopen(report_path, "w");
    bool written = file && fputs(text, file) >= 0;
    written = file && fclose(file) == 0 && written;
    free(text);
    if (!written)
        return failed("cannot write the report");
    return pass ? 0 : EXIT_BELOW;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return usage();
    const char *pmubench = argv[1], *dir = argv[2];
    struct suite s = {NULL, 0};
    if (!plan_table(&s, T_P5) || !plan_table(&s, T_NB))
        return failed("out of memory");
    struct program programs[NUM_TABLES];
    char error[1024];
    for (int t = 0; t < NUM_TABLES; t++) {
        if (!setup_program(&programs[t], t, dir, s.n))
            return failed("out of memory");
        if (!build_and_record(&programs[t], &s, pmubench, error, sizeof error) ||
            !check_census(&programs[t], &s, error, sizeof error))
            return failed(error);
    }
    char report[PATH];
    snprintf(report, sizeof report, "%s/validate.txt", dir);
    int status = simulate_and_report(programs, &s, report);
    for (int t = 0; t < NUM_TABLES; t++) {
        free(programs[t].entries);
        free(programs[t].meas_of);
    }
    free(s.m);
    return status;
}
