/* Differential test of pmubench's NetBurst encoder against libpfm4
 * (issue 3, section 4; docs/events.md, "Differential test against libpfm4").
 *
 *   libpfm4_diff [-v] [EXCEPTIONS-FILE]
 *
 * For every event of pmubench's NetBurst catalog that libpfm4 also has, it
 * encodes with both tools: each sub-event alone, all sub-events together, and
 * the first sub-event with each modifier of `modifiers` below; and compares
 * the ESCR and CCCR values.  Sub-events are paired BY BIT POSITION (libpfm4's
 * umask attribute code is the ESCR event-mask bit number); each tool gets the
 * string in its own spelling.  A pairing whose names differ, and a pmubench
 * sub-event whose bit no libpfm4 sub-event sets, are checks of their own.
 *
 * Both PMUs run: netburst (pmubench model 2 with Hyper-Threading) and
 * netburst_p (model 3).  libpfm4 reads LIBPFM_FORCE_PMU once, at
 * pfm_initialize, so each PMU runs in a child process.
 *
 * A disagreement passes only when the exceptions file (default
 * tests/diff/libpfm4_exceptions.txt) lists it.  Format, one entry a line,
 * `#` starts a comment:
 *
 *   PATTERN  FIELD  REASON (SOURCE)
 *
 * PATTERN is an fnmatch(3) glob over pmubench's spelling of the string
 * ("netburst::b2b_cycles:BIT1:k=0"; the NAME and MISSING checks use
 * "netburst::EVENT" and "netburst::EVENT:SUBEVENT").  FIELD is one of
 *   ESCR, CCCR       the register may differ anywhere;
 *   ESCR[hi:lo], CCCR[hi:lo], ESCR[n]
 *                    it may differ only in those bits;
 *   NAME             the two tools name the event or sub-event differently;
 *   MISSING          libpfm4 has no sub-event at that pmubench sub-event's bit.
 * A register mismatch passes when every differing bit lies in the bits of
 * entries matching the string.  The reason must end with its source in
 * parentheses.  An entry that excuses nothing is stale and fails the run.
 *
 * Prints one line per unexcused disagreement, then
 * "libpfm4-diff: N passed, M failed"; exits 1 on any failure, 2 on a bad
 * exceptions file or when libpfm4 cannot start.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfmon/pfmlib.h>

#include "pmu/event_spec.h"
#include "pmu/netburst_events.h"

static const char *const modifiers[] = {
    "k=0", "k=1", "u=0", "u=1", "k=1:u=0", "e=1", "cmpl=1", "thr=1", "thr=15", "e=1:thr=3",
};
#define N_MODIFIERS (sizeof modifiers / sizeof modifiers[0])

/* pmubench's event names that libpfm4 spells differently (a NAME check). */
static const struct {
    const char *pmubench, *libpfm4;
} event_aliases[] = {
    {"uop_type", "uops_type"},
};

static bool verbose;
static char not_compared[2048]; /* libpfm4-only sub-events, for the report */

/* ---- The exceptions file */

enum field { F_ESCR, F_CCCR, F_NAME, F_MISSING };
static const char *const field_names[] = {"ESCR", "CCCR", "NAME", "MISSING"};

struct exception {
    char *pattern;
    enum field field;
    uint64_t bits; /* ESCR/CCCR: the bits that may differ */
    int line;
    bool used;
};

static struct exception *exceptions;
static int n_exceptions;

static bool parse_field(const char *text, struct exception *ex)
{
    for (int f = 0; f < 4; f++) {
        size_t len = strlen(field_names[f]);
        if (strncmp(text, field_names[f], len) != 0)
            continue;
        const char *rest = text + len;
        ex->field = (enum field)f;
        ex->bits = ~0ull;
        if (!*rest)
            return true;
        if (f >= F_NAME || *rest != '[')
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

static bool load_exceptions(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "libpfm4-diff: cannot open %s\n", path);
        return false;
    }
    char line[1024];
    bool ok = true;
    for (int number = 1; fgets(line, sizeof line, f); number++) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *end = line + strlen(line);
        while (end > line && isspace((unsigned char)end[-1]))
            *--end = '\0';
        char pattern[512], field[64];
        int used = 0;
        if (sscanf(line, " %511s %63s %n", pattern, field, &used) < 2) {
            if (sscanf(line, " %1s", pattern) == 1) {
                fprintf(stderr, "%s:%d: expected PATTERN FIELD REASON (SOURCE)\n", path, number);
                ok = false;
            }
            continue;
        }
        const char *reason = line + used;
        struct exception ex = {.line = number};
        if (!parse_field(field, &ex)) {
            fprintf(stderr, "%s:%d: bad field '%s' (ESCR, CCCR, ESCR[hi:lo], CCCR[hi:lo], NAME, "
                            "MISSING)\n", path, number, field);
            ok = false;
            continue;
        }
        size_t rlen = strlen(reason);
        const char *open = strrchr(reason, '(');
        if (rlen == 0 || reason[rlen - 1] != ')' || !open || open == reason ||
            open + 2 >= reason + rlen) {
            fprintf(stderr, "%s:%d: the reason must say why and end with its source in "
                            "parentheses\n", path, number);
            ok = false;
            continue;
        }
        ex.pattern = strdup(pattern);
        struct exception *grown = realloc(exceptions, (size_t)(n_exceptions + 1) * sizeof *grown);
        if (!ex.pattern || !grown) {
            fprintf(stderr, "libpfm4-diff: out of memory\n");
            exit(2);
        }
        exceptions = grown;
        exceptions[n_exceptions++] = ex;
    }
    fclose(f);
    return ok;
}

/* Bits of `diff` that entries for `field` matching `text` excuse; marks the
 * entries that excuse any of them as used. */
static uint64_t excused(const char *text, enum field field, uint64_t diff)
{
    uint64_t covered = 0;
    for (int i = 0; i < n_exceptions; i++) {
        struct exception *ex = &exceptions[i];
        if (ex->field != field || fnmatch(ex->pattern, text, 0) != 0 || !(ex->bits & diff))
            continue;
        ex->used = true;
        covered |= ex->bits & diff;
    }
    return covered;
}

/* ---- libpfm4's catalog, as its public API describes it */

struct lp_attr {
    char name[64];
    uint64_t code;
};

struct lp_event {
    char name[64];
    int n_umasks;
    struct lp_attr umasks[32];
    bool seen; /* paired with a pmubench event */
};

static struct lp_event lp_events[128];
static int lp_num_events;

static bool load_libpfm4(pfm_pmu_t pmu)
{
    pfm_pmu_info_t info;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    int ret = pfm_get_pmu_info(pmu, &info);
    if (ret != PFM_SUCCESS || !info.is_present) {
        fprintf(stderr, "libpfm4-diff: libpfm4 PMU %d not available: %s\n", (int)pmu,
                ret != PFM_SUCCESS ? pfm_strerror(ret) : "not present");
        return false;
    }
    for (int idx = info.first_event; idx != -1 && lp_num_events < 128;
         idx = pfm_get_event_next(idx)) {
        pfm_event_info_t ev;
        memset(&ev, 0, sizeof ev);
        ev.size = sizeof ev;
        if (pfm_get_event_info(idx, PFM_OS_NONE, &ev) != PFM_SUCCESS)
            continue;
        struct lp_event *e = &lp_events[lp_num_events++];
        snprintf(e->name, sizeof e->name, "%s", ev.name);
        for (int a = 0; a < ev.nattrs && e->n_umasks < 32; a++) {
            pfm_event_attr_info_t attr;
            memset(&attr, 0, sizeof attr);
            attr.size = sizeof attr;
            if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &attr) != PFM_SUCCESS ||
                attr.type != PFM_ATTR_UMASK)
                continue;
            struct lp_attr *u = &e->umasks[e->n_umasks++];
            snprintf(u->name, sizeof u->name, "%s", attr.name);
            u->code = attr.code;
        }
    }
    return true;
}

static struct lp_event *lp_find(const char *name)
{
    for (int i = 0; i < lp_num_events; i++)
        if (strcmp(lp_events[i].name, name) == 0)
            return &lp_events[i];
    return NULL;
}

/* The libpfm4 sub-event that sets ESCR event-mask bit `bit`: its umask
 * attribute code is the bit number (codes 16 and up are libpfm4's TAG0-3
 * pseudo sub-events).  Several at one bit (libpfm4's b2b_cycles): the one of
 * the same name, else the first. */
static const struct lp_attr *lp_umask_at(const struct lp_event *e, unsigned bit,
                                         const char *name)
{
    const struct lp_attr *found = NULL;
    for (int i = 0; i < e->n_umasks; i++)
        if (e->umasks[i].code == bit) {
            if (strcasecmp(e->umasks[i].name, name) == 0)
                return &e->umasks[i];
            if (!found)
                found = &e->umasks[i];
        }
    return found;
}

/* ---- The comparisons of one PMU */

struct tally {
    int passed, failed, strings, names, excused;
};

__attribute__((format(printf, 2, 3))) static void failure(struct tally *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    t->failed++;
}

/* A NAME or MISSING check: `differs` is the disagreement. */
static void check(struct tally *t, enum field field, const char *text, bool differs,
                  const char *detail)
{
    t->names++;
    if (!differs)
        t->passed++;
    else if (excused(text, field, 1)) {
        t->passed++;
        t->excused++;
        if (verbose)
            printf("excused %s %s: %s\n", field_names[field], text, detail);
    } else
        failure(t, "%s %s: %s", field_names[field], text, detail);
}

static void compare(struct tally *t, const struct nb_config *config, const char *ours,
                    const char *theirs)
{
    struct event_spec spec;
    char error[512];
    if (!event_spec_parse(ours, config, &spec, error, sizeof error)) {
        failure(t, "PARSE %s: pmubench rejects it: %s", ours, error);
        return;
    }
    struct nb_encoding enc;
    nb_encode(&spec.nb, config, &enc);

    pfm_pmu_encode_arg_t arg;
    memset(&arg, 0, sizeof arg);
    arg.size = sizeof arg;
    int ret = pfm_get_os_event_encoding(theirs, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
    if (ret != PFM_SUCCESS || arg.count < 2) {
        failure(t, "PARSE %s: libpfm4 rejects %s: %s", ours, theirs,
                ret != PFM_SUCCESS ? pfm_strerror(ret) : "fewer than 2 codes");
        free(arg.codes);
        return;
    }
    uint64_t values[2] = {enc.escr, enc.cccr}, lib[2] = {arg.codes[0], arg.codes[1]};
    free(arg.codes);
    t->strings++;
    bool ok = true, any_excused = false;
    for (int r = 0; r < 2; r++) {
        uint64_t diff = values[r] ^ lib[r];
        if (!diff)
            continue;
        uint64_t covered = excused(ours, (enum field)r, diff);
        if (covered == diff) {
            any_excused = true;
            if (verbose)
                printf("excused %s %s: pmubench 0x%llx, libpfm4 0x%llx\n", field_names[r], ours,
                       (unsigned long long)values[r], (unsigned long long)lib[r]);
            continue;
        }
        if (ok)
            t->failed++;
        ok = false;
        printf("%s %s: pmubench 0x%llx, libpfm4 0x%llx (%s), unexcused bits 0x%llx\n",
               field_names[r], ours, (unsigned long long)values[r], (unsigned long long)lib[r],
               theirs, (unsigned long long)(diff & ~covered));
    }
    if (ok) {
        t->passed++;
        t->excused += any_excused;
    }
    if (verbose && ok && !any_excused)
        printf("ok %s = %s: ESCR 0x%llx CCCR 0x%llx\n", ours, theirs,
               (unsigned long long)values[0], (unsigned long long)values[1]);
}

/* Compares every string of one pmubench event. */
static void compare_event(struct tally *t, const char *pmu, const struct nb_config *config,
                          const struct nb_event *ev, struct lp_event *lp)
{
    char ours[512], theirs[512], text[256], detail[256];
    snprintf(text, sizeof text, "%s::%s", pmu, ev->name);
    if (strcmp(ev->name, lp->name) != 0) {
        snprintf(detail, sizeof detail, "libpfm4 calls it %s", lp->name);
        check(t, F_NAME, text, true, detail);
    }
    /* Pair the sub-events by bit. */
    const struct lp_attr *pair[16] = {0};
    int first = -1, n_paired = 0;
    for (int s = 0; s < ev->n_subevents; s++) {
        const struct nb_subevent *sub = &ev->subevents[s];
        pair[s] = lp_umask_at(lp, sub->bit, sub->name);
        snprintf(text, sizeof text, "%s::%s:%s", pmu, ev->name, sub->name);
        if (!pair[s]) {
            snprintf(detail, sizeof detail, "no libpfm4 sub-event sets mask bit %u", sub->bit);
            check(t, F_MISSING, text, true, detail);
            continue;
        }
        n_paired++;
        if (first < 0)
            first = s;
        snprintf(detail, sizeof detail, "libpfm4 calls bit %u %s", sub->bit, pair[s]->name);
        check(t, F_NAME, text, strcasecmp(sub->name, pair[s]->name) != 0, detail);
    }
    /* Each sub-event alone. */
    for (int s = 0; s < ev->n_subevents; s++) {
        if (!pair[s])
            continue;
        snprintf(ours, sizeof ours, "%s::%s:%s", pmu, ev->name, ev->subevents[s].name);
        snprintf(theirs, sizeof theirs, "%s::%s:%s", pmu, lp->name, pair[s]->name);
        compare(t, config, ours, theirs);
    }
    /* All together (each tool's whole set of paired and unpaired bits). */
    if (ev->n_subevents > 1 && n_paired > 0) {
        int o = snprintf(ours, sizeof ours, "%s::%s", pmu, ev->name);
        int l = snprintf(theirs, sizeof theirs, "%s::%s", pmu, lp->name);
        for (int s = 0; s < ev->n_subevents; s++) {
            o += snprintf(ours + o, sizeof ours - (size_t)o, ":%s", ev->subevents[s].name);
            if (pair[s])
                l += snprintf(theirs + l, sizeof theirs - (size_t)l, ":%s", pair[s]->name);
        }
        compare(t, config, ours, theirs);
    }
    /* The first paired sub-event with each modifier. */
    if (first < 0)
        return;
    for (size_t m = 0; m < N_MODIFIERS; m++) {
        snprintf(ours, sizeof ours, "%s::%s:%s:%s", pmu, ev->name, ev->subevents[first].name,
                 modifiers[m]);
        snprintf(theirs, sizeof theirs, "%s::%s:%s:%s", pmu, lp->name, pair[first]->name,
                 modifiers[m]);
        compare(t, config, ours, theirs);
    }
    /* libpfm4's sub-events that set no mask bit of pmubench's: the pseudo
     * sub-events outside the mask (TAG0-3, codes 16 and up) pmubench accepts
     * under libpfm4's name are compared with the first sub-event; the rest
     * (replay_event's PEBS selectors, b2b_cycles' BIT5/BIT6 aliases of bit 4)
     * are listed. */
    for (int i = 0; i < lp->n_umasks; i++) {
        const struct lp_attr *u = &lp->umasks[i];
        bool paired = false;
        for (int s = 0; s < ev->n_subevents; s++)
            paired |= pair[s] == u;
        if (paired)
            continue;
        snprintf(ours, sizeof ours, "%s::%s:%s:%s", pmu, ev->name, ev->subevents[first].name,
                 u->name);
        snprintf(theirs, sizeof theirs, "%s::%s:%s:%s", pmu, lp->name, pair[first]->name,
                 u->name);
        struct event_spec spec;
        char error[512];
        if (u->code >= 16 && event_spec_parse(ours, config, &spec, error, sizeof error))
            compare(t, config, ours, theirs);
        else if (strlen(not_compared) + strlen(ev->name) + strlen(u->name) + 3 <
                 sizeof not_compared)
            sprintf(not_compared + strlen(not_compared), " %s:%s", ev->name, u->name);
    }
}

static const char *libpfm4_name(const char *name)
{
    for (size_t i = 0; i < sizeof event_aliases / sizeof event_aliases[0]; i++)
        if (strcmp(event_aliases[i].pmubench, name) == 0)
            return event_aliases[i].libpfm4;
    return name;
}

/* Runs in a child: every comparison for one PMU.  Reports the tally and the
 * exceptions it used on `out`. */
static int run_pmu(const char *pmu, pfm_pmu_t pmu_id, struct nb_config config, FILE *out)
{
    setenv("LIBPFM_FORCE_PMU", pmu, 1);
    int ret = pfm_initialize();
    if (ret != PFM_SUCCESS) {
        fprintf(stderr, "libpfm4-diff: pfm_initialize with LIBPFM_FORCE_PMU=%s: %s\n", pmu,
                pfm_strerror(ret));
        return 2;
    }
    if (!load_libpfm4(pmu_id)) {
        pfm_terminate();
        return 2;
    }
    struct tally t = {0};
    int events = 0;
    char skipped[1024] = "";
    size_t used = 0;
    for (int i = 0; i < nb_num_events; i++) {
        const struct nb_event *ev = &nb_events[i];
        if (!(ev->models & (1u << config.model)))
            continue; /* not on this PMU's model (instr_completed on netburst) */
        struct lp_event *lp = lp_find(libpfm4_name(ev->name));
        if (!lp) {
            used += (size_t)snprintf(skipped + used, sizeof skipped - used, " %s", ev->name);
            continue;
        }
        lp->seen = true;
        events++;
        compare_event(&t, pmu, &config, ev, lp);
    }
    printf("%s: %d events compared; not in libpfm4, skipped:%s\n", pmu, events,
           *skipped ? skipped : " none");
    printf("%s: libpfm4 sub-events at no pmubench bit, not compared:%s\n", pmu,
           *not_compared ? not_compared : " none");
    for (int i = 0; i < lp_num_events; i++)
        if (!lp_events[i].seen)
            failure(&t, "EVENT %s::%s: libpfm4 has it, pmubench's catalog does not", pmu,
                    lp_events[i].name);
    pfm_terminate();
    fprintf(out, "tally %d %d %d %d %d %d\n", t.passed, t.failed, t.strings, t.names, t.excused,
            events);
    for (int i = 0; i < n_exceptions; i++)
        if (exceptions[i].used)
            fprintf(out, "used %d\n", i);
    return 0;
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

    static const struct {
        const char *name;
        pfm_pmu_t id;
        struct nb_config config;
    } pmus[] = {
        {"netburst", PFM_PMU_INTEL_NETBURST, {.model = 2, .ht = true}},
        {"netburst_p", PFM_PMU_INTEL_NETBURST_P, {.model = 3, .ht = true}},
    };
    struct tally total = {0};
    int events = 0;
    bool broken = false;
    for (size_t p = 0; p < sizeof pmus / sizeof pmus[0]; p++) {
        int fds[2];
        if (pipe(fds) != 0) {
            perror("libpfm4-diff: pipe");
            return 2;
        }
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) {
            perror("libpfm4-diff: fork");
            return 2;
        }
        if (pid == 0) {
            close(fds[0]);
            FILE *out = fdopen(fds[1], "w");
            int status = out ? run_pmu(pmus[p].name, pmus[p].id, pmus[p].config, out) : 2;
            if (out)
                fclose(out);
            fflush(stdout);
            for (int i = 0; i < n_exceptions; i++)
                free(exceptions[i].pattern);
            free(exceptions);
            exit(status);
        }
        close(fds[1]);
        FILE *in = fdopen(fds[0], "r");
        char line[128];
        bool got_tally = false;
        while (in && fgets(line, sizeof line, in)) {
            struct tally t;
            int e, index;
            if (sscanf(line, "tally %d %d %d %d %d %d", &t.passed, &t.failed, &t.strings,
                       &t.names, &t.excused, &e) == 6) {
                total.passed += t.passed;
                total.failed += t.failed;
                total.strings += t.strings;
                total.names += t.names;
                total.excused += t.excused;
                events += e;
                got_tally = true;
            } else if (sscanf(line, "used %d", &index) == 1 && index >= 0 &&
                       index < n_exceptions)
                exceptions[index].used = true;
        }
        if (in)
            fclose(in);
        else
            close(fds[0]);
        int status;
        if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
            !got_tally) {
            fprintf(stderr, "libpfm4-diff: the %s run failed\n", pmus[p].name);
            broken = true;
        }
    }

    int stale = 0;
    for (int i = 0; i < n_exceptions; i++)
        if (!exceptions[i].used) {
            printf("STALE %s:%d: '%s %s' excuses nothing\n", path, exceptions[i].line,
                   exceptions[i].pattern, field_names[exceptions[i].field]);
            stale++;
        }
    printf("libpfm4-diff: %d event runs, %d string pairs and %d name pairings compared; "
           "%d exceptions, %d checks excused, %d stale\n",
           events, total.strings, total.names, n_exceptions, total.excused, stale);
    total.failed += stale;
    printf("libpfm4-diff: %d passed, %d failed\n", total.passed, total.failed);
    for (int i = 0; i < n_exceptions; i++)
        free(exceptions[i].pattern);
    free(exceptions);
    if (broken)
        return 2;
    return total.failed ? 1 : 0;
}
