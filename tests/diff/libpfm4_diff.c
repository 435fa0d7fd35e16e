/* Differential test of pmubench's NetBurst encoder against libpfm4
 * (docs/events.md, "Differential test against libpfm4").
 *
 *   libpfm4_diff [-v] [EXCEPTIONS-FILE]
 *
 * The strings come from libpfm4's own tables (pfm_get_event_info and
 * pfm_get_event_attr_info), for both of its NetBurst PMUs, netburst and
 * netburst_p: for every event, the event alone, each sub-event (umask)
 * alone, each pair of sub-events, all of them, and the first sub-event with
 * each spelling of each modifier and of each pair of modifiers; and each of
 * those again in upper and in lower case.  Every string libpfm4 accepts goes
 * to pmubench exactly as typed, the way `pmubench encode STRING` takes it
 * with no options (NB_CONFIG_DEFAULT; event_spec_cpuid_model lets a netburst_p::
 * string choose model 3), and pmubench must accept it and give the same
 * ESCR and CCCR.  libpfm4 reads LIBPFM_FORCE_PMU once, at pfm_initialize,
 * so each PMU runs in a child process.
 *
 * A differing register passes only when the exceptions file (default
 * tests/diff/libpfm4_exceptions.txt) lists it.  Format, one entry a line,
 * `#` starts a comment:
 *
 *   PATTERN  FIELD  REASON (SOURCE)
 *
 * PATTERN is an fnmatch(3) glob over the string, matched in any case
 * ("netburst*::b2b_cycles:*").  FIELD is ESCR or CCCR (the register may
 * differ anywhere) or ESCR[hi:lo], CCCR[hi:lo], ESCR[n] (only in those
 * bits).  A mismatch passes when every differing bit lies in the bits of
 * entries matching the string.  The reason must end with its source in
 * parentheses.  An entry that excuses nothing is stale and fails the run.
 * A string pmubench rejects always fails.
 *
 * Prints one line per unexcused disagreement, a summary per PMU, then
 * "libpfm4-diff: N passed, M failed"; exits 1 on any failure, 2 on a bad
 * exceptions file or when libpfm4 cannot start.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfmon/pfmlib.h>

#include "pmu/catalog/event_spec.h"

enum { MAX_TEXT = 512, MAX_NAMES = 32 };

static bool verbose;

/* ---- The exceptions file */

enum field { F_ESCR, F_CCCR };
static const char *const field_names[] = {"ESCR", "CCCR"};

struct exception {
    char *pattern;
    char *folded;   /* the pattern in upper case */
    enum field field;
    uint64_t bits;  /* the bits that may differ */
    int line;
    bool used;
};

static struct exception *exceptions;
static int n_exceptions;

static void upper_case(char *text)
{
    for (; *text; text++)
        *text = (char)toupper((unsigned char)*text);
}

static bool parse_field(const char *text, struct exception *ex)
{
    for (int f = 0; f < 2; f++) {
        size_t len = strlen(field_names[f]);
        if (strncmp(text, field_names[f], len) != 0)
            continue;
        const char *rest = text + len;
        ex->field = (enum field)f;
        ex->bits = ~0ull;
        if (!*rest)
            return true;
        if (*rest != '[')
            return false;
        char *end;
        unsigned long hi = strtoul(rest + 1, &end, 10), lo = hi;
        if (*end == ':')
            lo = strtoul(end + 1, &end, 10);
        if (end == rest + 1 || strcmp(end, "]") != 0 || hi > 63 || lo > hi)
            return false;
        ex->bits = (hi == 63 ? ~0ull : (1ull << (hi + 1)) - 1) & ~((1ull << lo) - 1);
        return true;
    }
    return false;
}

/* Whether the reason says why and ends with "(SOURCE)". */
static bool has_source(const char *reason)
{
    size_t rlen = strlen(reason);
    const char *open = strrchr(reason, '(');
    return rlen > 0 && reason[rlen - 1] == ')' && open && open != reason &&
           open + 2 < reason + rlen;
}

static void add_exception(struct exception ex, const char *pattern)
{
    ex.pattern = strdup(pattern);
    ex.folded = strdup(pattern);
    struct exception *grown = realloc(exceptions, (size_t)(n_exceptions + 1) * sizeof *grown);
    if (!ex.pattern || !ex.folded || !grown) {
        fprintf(stderr, "libpfm4-diff: out of memory\n");
        exit(2);
    }
    upper_case(ex.folded);
    exceptions = grown;
    exceptions[n_exceptions++] = ex;
}

/* One line of the file; false after a message when it is malformed. */
static bool exception_line(char *line, const char *path, int number)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *end = line + strlen(line);
    while (end > line && isspace((unsigned char)end[-1]))
        *--end = '\0';
    char pattern[512], field[64];
    int used = 0;
    if (sscanf(line, " %511s %63s %n", pattern, field, &used) < 2) {
        if (sscanf(line, " %1s", pattern) != 1)
            return true;
        fprintf(stderr, "%s:%d: expected PATTERN FIELD REASON (SOURCE)\n", path, number);
        return false;
    }
    struct exception ex = {.line = number};
    if (!parse_field(field, &ex)) {
        fprintf(stderr, "%s:%d: bad field '%s' (ESCR, CCCR, ESCR[hi:lo], CCCR[hi:lo])\n", path,
                number, field);
        return false;
    }
    if (!has_source(line + used)) {
        fprintf(stderr, "%s:%d: the reason must say why and end with its source in "
                        "parentheses\n", path, number);
        return false;
    }
    add_exception(ex, pattern);
    return true;
}

static bool load_exceptions(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "libpfm4-diff: cannot open %s\n", path);
        return false;
    }
    char line[1024];
    bool ok = true;
    for (int number = 1; fgets(line, sizeof line, f); number++)
        ok &= exception_line(line, path, number);
    fclose(f);
    return ok;
}

/* Bits of `diff` in `field` that entries matching `text` excuse; marks the
 * entries that excuse any of them as used. */
static uint64_t excused(const char *text, enum field field, uint64_t diff)
{
    char folded[MAX_TEXT];
    snprintf(folded, sizeof folded, "%s", text);
    upper_case(folded);
    uint64_t covered = 0;
    for (int i = 0; i < n_exceptions; i++) {
        struct exception *ex = &exceptions[i];
        if (ex->field != field || !(ex->bits & diff) || fnmatch(ex->folded, folded, 0) != 0)
            continue;
        ex->used = true;
        covered |= ex->bits & diff;
    }
    return covered;
}

/* ---- One comparison */

struct tally {
    int accepted;  /* strings libpfm4 accepts: each is compared */
    int equal;     /* the same ESCR and CCCR */
    int excused;   /* differing only where the exceptions file says why */
    int failed;
    int rejected;  /* strings libpfm4 rejects: not compared */
};

/* pmubench's encoding of `text` as `pmubench encode TEXT` gives it. */
static bool pmubench_encode(const char *text, uint64_t values[2], char *error, size_t size)
{
    struct nb_pmu_config config = NB_CONFIG_DEFAULT;
    config.model = event_spec_cpuid_model(config.model, &text, 1);
    struct event_spec spec;
    if (!event_spec_parse(text, &config, &spec, error, size))
        return false;
    struct nb_encoding enc;
    nb_encode(&spec.nb, &config, &enc);
    values[0] = enc.escr;
    values[1] = enc.cccr;
    return true;
}

static bool libpfm4_encode(const char *text, uint64_t values[2])
{
    pfm_pmu_encode_arg_t arg;
    memset(&arg, 0, sizeof arg);
    arg.size = sizeof arg;
    int ret = pfm_get_os_event_encoding(text, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
    bool ok = ret == PFM_SUCCESS && arg.count >= 2;
    if (ok) {
        values[0] = arg.codes[0];
        values[1] = arg.codes[1];
    }
    free(arg.codes);
    return ok;
}

/* Whether every differing bit of both registers is excused; prints the
 * others. */
static bool registers_excused(const char *text, const uint64_t ours[2], const uint64_t lib[2])
{
    bool ok = true;
    for (int r = 0; r < 2; r++) {
        uint64_t diff = ours[r] ^ lib[r];
        uint64_t left = diff & ~excused(text, (enum field)r, diff);
        if (left)
            printf("%s %s: pmubench 0x%llx, libpfm4 0x%llx, unexcused bits 0x%llx\n",
                   field_names[r], text, (unsigned long long)ours[r],
                   (unsigned long long)lib[r], (unsigned long long)left);
        else if (diff && verbose)
            printf("excused %s %s: pmubench 0x%llx, libpfm4 0x%llx\n", field_names[r], text,
                   (unsigned long long)ours[r], (unsigned long long)lib[r]);
        ok &= !left;
    }
    return ok;
}

static void compare_one(struct tally *t, const char *text)
{
    uint64_t lib[2], ours[2];
    char error[MAX_TEXT + 256];
    if (!libpfm4_encode(text, lib)) {
        t->rejected++;
        if (verbose)
            printf("not compared %s: libpfm4 rejects it\n", text);
        return;
    }
    t->accepted++;
    if (!pmubench_encode(text, ours, error, sizeof error)) {
        printf("PARSE %s: libpfm4 accepts it, pmubench rejects it: %s\n", text, error);
        t->failed++;
    } else if (ours[0] == lib[0] && ours[1] == lib[1]) {
        t->equal++;
        if (verbose)
            printf("ok %s: ESCR 0x%llx CCCR 0x%llx\n", text, (unsigned long long)ours[0],
                   (unsigned long long)ours[1]);
    } else if (registers_excused(text, ours, lib)) {
        t->excused++;
    } else {
        t->failed++;
    }
}

/* The string as typed, in upper case and in lower case. */
static void compare_spellings(struct tally *t, const char *text)
{
    char variant[MAX_TEXT];
    compare_one(t, text);
    snprintf(variant, sizeof variant, "%s", text);
    upper_case(variant);
    compare_one(t, variant);
    for (char *c = variant; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    compare_one(t, variant);
}

/* ---- The strings of one libpfm4 event */

struct modifier {
    char name[32];
    bool boolean;  /* else an integer (thr) */
};

struct lp_event {
    char name[64];
    int n_umasks, n_modifiers;
    char umasks[MAX_NAMES][64];
    struct modifier modifiers[MAX_NAMES];
};

/* libpfm4's spellings of one modifier's values: a flag alone is 1; booleans
 * take 0/1, y/n and t/f; integers any number (thr 0-15, in hex too). */
static const char *const boolean_spellings[] = {"", "=0", "=1", "=y", "=n", "=t", "=f"};
static const char *const integer_spellings[] = {"=0", "=1", "=15", "=0xf"};

/* "NAME=1"-like settings of a pair: on/off, off/on, on/on. */
static const char *setting(const struct modifier *m, bool on)
{
    return on ? (m->boolean ? "=1" : "=3") : "=0";
}

static void compare_modifiers(struct tally *t, const char *pmu, const struct lp_event *e,
                              const char *base)
{
    char text[MAX_TEXT];
    for (int i = 0; i < e->n_modifiers; i++) {
        const struct modifier *m = &e->modifiers[i];
        const char *const *spellings = m->boolean ? boolean_spellings : integer_spellings;
        size_t n = m->boolean ? sizeof boolean_spellings / sizeof boolean_spellings[0]
                              : sizeof integer_spellings / sizeof integer_spellings[0];
        for (size_t s = 0; s < n; s++) {
            snprintf(text, sizeof text, "%s::%s:%s%s", pmu, base, m->name, spellings[s]);
            compare_spellings(t, text);
        }
    }
    static const bool pairs[][2] = {{true, false}, {false, true}, {true, true}};
    for (int i = 0; i < e->n_modifiers; i++)
        for (int j = i + 1; j < e->n_modifiers; j++)
            for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
                const struct modifier *a = &e->modifiers[i], *b = &e->modifiers[j];
                snprintf(text, sizeof text, "%s::%s:%s%s:%s%s", pmu, base, a->name,
                         setting(a, pairs[p][0]), b->name, setting(b, pairs[p][1]));
                compare_spellings(t, text);
            }
}

/* The event alone, each sub-event, each pair, all of them, and the first
 * sub-event with the modifiers. */
static void compare_event(struct tally *t, const char *pmu, const struct lp_event *e)
{
    char text[MAX_TEXT], base[160];
    snprintf(text, sizeof text, "%s::%s", pmu, e->name);
    compare_spellings(t, text);
    for (int i = 0; i < e->n_umasks; i++) {
        snprintf(text, sizeof text, "%s::%s:%s", pmu, e->name, e->umasks[i]);
        compare_spellings(t, text);
        for (int j = i + 1; j < e->n_umasks; j++) {
            snprintf(text, sizeof text, "%s::%s:%s:%s", pmu, e->name, e->umasks[i],
                     e->umasks[j]);
            compare_spellings(t, text);
        }
    }
    int used = snprintf(text, sizeof text, "%s::%s", pmu, e->name);
    for (int i = 0; i < e->n_umasks; i++)
        used += snprintf(text + used, sizeof text - (size_t)used, ":%s", e->umasks[i]);
    compare_spellings(t, text);
    snprintf(base, sizeof base, "%s%s%s", e->name, e->n_umasks ? ":" : "",
             e->n_umasks ? e->umasks[0] : "");
    compare_modifiers(t, pmu, e, base);
}

/* ---- libpfm4's tables */

static bool load_event(int idx, struct lp_event *e)
{
    pfm_event_info_t info;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    if (pfm_get_event_info(idx, PFM_OS_NONE, &info) != PFM_SUCCESS)
        return false;
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", info.name);
    for (int a = 0; a < info.nattrs; a++) {
        pfm_event_attr_info_t attr;
        memset(&attr, 0, sizeof attr);
        attr.size = sizeof attr;
        if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &attr) != PFM_SUCCESS)
            return false;
        if (attr.type == PFM_ATTR_UMASK && e->n_umasks < MAX_NAMES)
            snprintf(e->umasks[e->n_umasks++], sizeof e->umasks[0], "%s", attr.name);
        else if (e->n_modifiers < MAX_NAMES) {
            struct modifier *m = &e->modifiers[e->n_modifiers++];
            snprintf(m->name, sizeof m->name, "%s", attr.name);
            m->boolean = attr.type == PFM_ATTR_MOD_BOOL;
        }
    }
    return true;
}

/* Runs in a child: every string of one PMU.  Reports the tally and the
 * exceptions it used on `out`. */
static int run_pmu(const char *pmu, pfm_pmu_t pmu_id, FILE *out)
{
    setenv("LIBPFM_FORCE_PMU", pmu, 1);
    int ret = pfm_initialize();
    pfm_pmu_info_t info;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    if (ret == PFM_SUCCESS)
        ret = pfm_get_pmu_info(pmu_id, &info);
    if (ret != PFM_SUCCESS || !info.is_present) {
        fprintf(stderr, "libpfm4-diff: libpfm4 PMU %s not available: %s\n", pmu,
                ret != PFM_SUCCESS ? pfm_strerror(ret) : "not present");
        return 2;
    }
    struct tally t = {0};
    int events = 0;
    for (int idx = info.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
        struct lp_event e;
        if (!load_event(idx, &e)) {
            fprintf(stderr, "libpfm4-diff: %s event %d: libpfm4 cannot describe it\n", pmu, idx);
            return 2;
        }
        events++;
        compare_event(&t, pmu, &e);
    }
    pfm_terminate();
    printf("%s: %d events; %d strings libpfm4 accepts, %d equal, %d differ as documented, "
           "%d failed (%d strings libpfm4 rejects, not compared)\n",
           pmu, events, t.accepted, t.equal, t.excused, t.failed, t.rejected);
    fprintf(out, "tally %d %d %d %d\n", t.accepted, t.equal, t.excused, t.failed);
    for (int i = 0; i < n_exceptions; i++)
        if (exceptions[i].used)
            fprintf(out, "used %d\n", i);
    return 0;
}

/* ---- Both PMUs, each in a child */

static void read_child(FILE *in, struct tally *total, bool *got_tally)
{
    char line[128];
    while (fgets(line, sizeof line, in)) {
        struct tally t;
        int index;
        if (sscanf(line, "tally %d %d %d %d", &t.accepted, &t.equal, &t.excused, &t.failed) ==
            4) {
            total->accepted += t.accepted;
            total->equal += t.equal;
            total->excused += t.excused;
            total->failed += t.failed;
            *got_tally = true;
        } else if (sscanf(line, "used %d", &index) == 1 && index >= 0 && index < n_exceptions)
            exceptions[index].used = true;
    }
}

static void free_exceptions(void)
{
    for (int i = 0; i < n_exceptions; i++) {
        free(exceptions[i].pattern);
        free(exceptions[i].folded);
    }
    free(exceptions);
}

/* Runs one PMU in a child; false when it could not run. */
static bool run_child(const char *pmu, pfm_pmu_t id, struct tally *total)
{
    int fds[2];
    if (pipe(fds) != 0) {
        perror("libpfm4-diff: pipe");
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("libpfm4-diff: fork");
        return false;
    }
    if (pid == 0) {
        close(fds[0]);
        FILE *out = fdopen(fds[1], "w");
        int status = out ? run_pmu(pmu, id, out) : 2;
        if (out)
            fclose(out);
        fflush(stdout);
        free_exceptions();
        exit(status);
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    bool got_tally = false;
    if (in) {
        read_child(in, total, &got_tally);
        fclose(in);
    } else
        close(fds[0]);
    int status;
    bool ok = waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
              got_tally;
    if (!ok)
        fprintf(stderr, "libpfm4-diff: the %s run failed\n", pmu);
    return ok;
}

int main(int argc, char **argv)
{
    const char *path = "tests/diff/libpfm4_exceptions.txt";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0)
            verbose = true;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: libpfm4_diff [-v] [EXCEPTIONS-FILE]\n");
            return 2;
        } else
            path = argv[i];
    }
    if (!load_exceptions(path))
        return 2;
    struct tally total = {0};
    bool broken = !run_child("netburst", PFM_PMU_INTEL_NETBURST, &total) ||
                  !run_child("netburst_p", PFM_PMU_INTEL_NETBURST_P, &total);
    int stale = 0;
    for (int i = 0; i < n_exceptions; i++)
        if (!exceptions[i].used) {
            printf("STALE %s:%d: '%s %s' excuses nothing\n", path, exceptions[i].line,
                   exceptions[i].pattern, field_names[exceptions[i].field]);
            stale++;
        }
    printf("libpfm4-diff: %d strings libpfm4 accepts; pmubench gives %d the same ESCR and CCCR, "
           "%d differ as %d exceptions document, %d stale\n",
           total.accepted, total.equal, total.excused, n_exceptions, stale);
    printf("libpfm4-diff: %d passed, %d failed\n", total.equal + total.excused,
           total.failed + stale);
    free_exceptions();
    if (broken)
        return 2;
    return total.failed + stale ? 1 : 0;
}
