/* run_p5mon's output file (Safford 1997, section 4.4.3, Figures 4.7-4.9):
 *   # run_p5mon results file
 *   # Results (5 repetitions, 95% confidence level):
 *   # Event Repetition Value [conf.int] [percentage]
 *   0x3 0          11113             one repetition
 *   0x3 -1         11006.4 63.2 0.574   the summary: mean, interval, percent
 * and with regions a region number first (and a sixth summary field, the
 * mean per entry of the region).  `pmubench p5mon` writes "clocks" for
 * count_clocks, which has no event code.  The summaries are the counts; the
 * repetitions are checked and skipped (docs/compare.md). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_parse.h"
#include "util/number.h"
#include "pmu/catalog/p5_events.h"
#include "traces/import_common.h"

static const char first_line[] = "# run_p5mon results file";
static const char expected_plain[] =
    "expected EVENT REPETITION VALUE [CONF.INT PERCENTAGE] (run_p5mon output)";
static const char expected_region[] =
    "expected REGION EVENT REPETITION VALUE [CONF.INT PERCENTAGE PER_ENTRY] (run_p5mon output "
    "with regions)";

enum { MAX_FIELDS = 7, MAX_REGION = 99 };

struct p5mon {
    struct line_reader r;
    struct count_set *set;
    int regions;            /* -1 before the first result line, else 0 or 1 */
    char results[160];      /* the "Results (...)" comment, for the source line */
};

static int split_words(char *line, char **words, int max)
{
    int n = 0;
    char *cursor = line;
    for (char *word; n < max + 1 && (word = import_next_field(&cursor)); n++)
        if (n < max)
            words[n] = word;
    return n;
}

/* "# Results (for 2 regions, 5 repetitions, 95% confidence level):" */
static void note_comment(struct p5mon *p, const char *line)
{
    const char *open = strstr(line, "Results (");
    const char *close = open ? strrchr(open, ')') : NULL;
    if (open && close && !p->results[0])
        snprintf(p->results, sizeof p->results, "%.*s", (int)(close - open - 9), open + 9);
}

/* An event code, "0x3", or "clocks" (count_clocks, which has none): its
 * name. */
static bool parse_event_code(struct p5mon *p, const char *text, const char **name)
{
    uint64_t code;
    if (strcmp(text, "clocks") == 0) {
        *name = "count_clocks";
        return true;
    }
    if (strncmp(text, "0x", 2) != 0 || !import_parse_number(text + 2, 16, &code))
        return line_fail(&p->r, "expected an event code such as 0x3 or clocks (found '%.40s')",
                         text);
    const struct p5_event *event = code < 64 ? p5_event_by_code((unsigned)code) : NULL;
    *name = event ? event->name : NULL;
    return event || line_fail(&p->r, "event code %.40s is not a P5 event", text);
}

/* -1 (the summary) or a repetition's number (util/number.h). */
static bool parse_repetition(struct p5mon *p, const char *text, long *repetition)
{
    uint64_t value;
    if (strcmp(text, "-1") == 0) {
        *repetition = -1;
        return true;
    }
    if (!number_parse(text, 0, INT_MAX, &value))
        return line_fail(&p->r, "bad repetition '%.40s' (expected -1, the summary, or a number: "
                         "decimal or 0x hex, 0 to %d)", text, INT_MAX);
    *repetition = (long)value;
    return true;
}

/* A number, or NaN (a percentage or mean per entry of nothing). */
static bool is_number_or_nan(const char *text)
{
    double value;
    int decimals;
    return strcmp(text, "NaN") == 0 || parse_decimal(text, &value, &decimals);
}

/* MEAN CONF.INT PERCENTAGE [PER_ENTRY] */
static bool parse_summary(struct p5mon *p, char **words, struct count *count)
{
    enum count_parse mean = parse_count(words[0], count);
    if (mean == COUNT_OUT_OF_RANGE)
        return line_fail(&p->r, COUNT_TOO_BIG);
    if (mean == COUNT_MALFORMED)
        return line_fail(&p->r, "expected the mean (a number), found '%.40s'", words[0]);
    if (!parse_decimal(words[1], &count->interval, &count->interval_decimals))
        return line_fail(&p->r, "expected the confidence interval (a number), found '%.40s'",
                         words[1]);
    if (!is_number_or_nan(words[2]))
        return line_fail(&p->r, "expected the percentage (a number or NaN), found '%.40s'",
                         words[2]);
    if (p->regions && !is_number_or_nan(words[3]))
        return line_fail(&p->r, "expected the mean per entry (a number or NaN), found '%.40s'",
                         words[3]);
    count->has_interval = true;
    return true;
}

static bool parse_repetition_value(struct p5mon *p, const char *text)
{
    uint64_t value;
    char message[256];
    return number_read("count", text, 0, UINT64_MAX, &value, message, sizeof message) ||
           line_fail(&p->r, "%.200s", message);
}

/* A region number (util/number.h); a word in hex there is the event code of
 * a line without one. */
static bool parse_region(struct p5mon *p, const char *text, int *region)
{
    uint64_t value;
    char message[256];
    if (strncmp(text, "0x", 2) == 0)
        return line_fail(&p->r, "%s", expected_region);
    if (!number_read("region", text, 0, MAX_REGION, &value, message, sizeof message))
        return line_fail(&p->r, "%.200s", message);
    *region = (int)value;
    return true;
}

/* A result line: [REGION] EVENT REPETITION VALUE [CI PERCENT [PER_ENTRY]]. */
static bool parse_result(struct p5mon *p, char *line)
{
    char *words[MAX_FIELDS];
    int n = split_words(line, words, MAX_FIELDS);
    if (n == 0)
        return true; /* only white space (a vertical tab, a form feed): a blank line */
    if (p->regions < 0)
        p->regions = strncmp(words[0], "0x", 2) != 0;
    const char *expected = p->regions ? expected_region : expected_plain;
    int first = p->regions;
    struct count count = {.region = -1};
    if (n < first + 3)
        return line_fail(&p->r, "%s", expected);
    if (p->regions && !parse_region(p, words[0], &count.region))
        return false;
    const char *name = NULL;
    long repetition = 0;
    if (!parse_event_code(p, words[first], &name) ||
        !parse_repetition(p, words[first + 1], &repetition))
        return false;
    if (repetition >= 0)
        return n == first + 3 ? parse_repetition_value(p, words[first + 2])
                              : line_fail(&p->r, "%s", expected);
    if (n != first + 5 + p->regions)
        return line_fail(&p->r, "%s", expected);
    if (!parse_summary(p, words + first + 2, &count))
        return false;
    if (count_set_find(p->set, name, count.region))
        return line_fail(&p->r, "a second summary of event %s", words[first]);
    count.name = (char *)name;
    return add_count(&p->r, p->set, &count);
}

static char *describe(const struct p5mon *p)
{
    char source[256];
    snprintf(source, sizeof source, "run_p5mon%s%s", p->results[0] ? ", " : "", p->results);
    return strdup(source);
}

bool count_set_read_p5mon(const char *text, size_t size, const char *path, struct count_set *set,
                          char *error, size_t error_size)
{
    struct p5mon p = {.set = set, .regions = -1};
    line_reader_init(&p.r, text, size, path, error, error_size);
    count_set_init(set, NULL);
    set->p5_names = true;
    bool ok = line_reader_next(&p.r);
    if (!line_reader_failed(&p.r) && (!ok || strcmp(p.r.line, first_line) != 0)) {
        p.r.number = 1;
        ok = line_fail(&p.r, "expected '%s'", first_line);
    }
    while (ok && line_reader_next(&p.r)) {
        char *line = p.r.line + strspn(p.r.line, " \t");
        if (line[0] == '#')
            note_comment(&p, line);
        else if (line[0] != '\0')
            ok = parse_result(&p, line);
    }
    ok = ok && !line_reader_failed(&p.r);
    if (ok && set->n_counts == 0)
        ok = snprintf(error, error_size, "%s: no summary lines (repetition -1)", path) < 0;
    if (ok)
        ok = (set->source = describe(&p)) != NULL || line_fail(&p.r, "out of memory");
    line_reader_free(&p.r);
    if (!ok)
        count_set_free(set);
    return ok;
}
