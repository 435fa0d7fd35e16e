/* pmubench compare [--json | -x SEP] [--region N] [--plot FILE] SIMULATED MEASURED
 *                  [-- PROGRAM ARGS...]
 *
 * Puts two count sets side by side in the layout of Safford 1997, Table 5.6:
 * event, simulated, measured, difference, difference in % (docs/compare.md).
 * The sets are read by apps/compare/count_set.h or taken now by
 * apps/compare/measure.h; this file parses the arguments and prints. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/atomic_file.h"
#include "util/file_identity.h"
#include "commands.h"
#include "exit_status.h"
#include "util/json.h"
#include "util/text.h"
#include "option_once.h"
#include "apps/compare/compare.h"
#include "apps/compare/compare_input.h"
#include "util/number.h"
#include "charts/bar_chart.h"
#include "sim/machine/machine.h"

static const char compare_usage[] =
    "usage: pmubench compare [--json | -x SEP] [--region N] SIMULATED MEASURED\n"
    "                        [--plot FILE] [-- PROGRAM [ARGS...]]\n"
    "  SIMULATED, MEASURED  a count set, either a file: 'pmubench stat --json' output,\n"
    "               'perf stat -x, -o FILE' output or a run_p5mon output file, the format\n"
    "               found from the content or named by a prefix json:, csv: or p5mon:\n"
    "               (- is standard input); or a count taken now of PROGRAM, run with the\n"
    "               environment of 'pmubench record --env':\n"
    "                 measure:  natively, perf_event_open, user mode\n"
    "                 lackey:   under valgrind --tool=lackey --trace-mem=yes\n"
    "  --region N   the run_p5mon region to compare (when a file has several)\n"
    "  --json       one JSON object instead of the table\n"
    "  -x SEP       SEP-separated fields, a header line first\n"
    "  --plot FILE  also draw the counts as SVG bars, simulated against measured\n"
    "Difference = measured - simulated; Difference % = 100 * difference / measured.\n"
    "Events only one set has show '-' in the other column; notes under the table\n"
    "say where a pair is not like for like and why a count is missing.\n";

/* The options of 'pmubench compare' (cli/option_table.h); --help and -h besides. */
static const struct cli_option compare_option_list[] = {
    {"--json", false}, {"-x", true}, {"--region", true}, {"--plot", true}, {NULL, false}
};
const struct option_table compare_option_table = {compare_option_list, false};

enum output { OUTPUT_TABLE, OUTPUT_SEPARATED, OUTPUT_JSON };

struct compare_options {
    enum output output;
    const char *separator;
    const char *plot;            /* --plot's SVG file, or NULL */
    long region;                 /* -1: the file's only region */
    const char *inputs[2];       /* SIMULATED, MEASURED */
    char **program;              /* after --, or NULL */
};

static const char *const set_roles[2] = {"simulated", "measured"};
static const char *const source_labels[2] = {"simulated:", "measured:"};

/* ---- arguments ---- */

/* --region's value (util/number.h); 0, or the status after the message. */
static int parse_region(const char *text, long *region)
{
    char error[MESSAGE_SIZE];
    uint64_t value;
    if (!number_read("--region", text, 0, UINT32_MAX, &value, error, sizeof error))
        return usage_error("compare", "%s", error);
    *region = (long)value;
    return 0;
}

/* 0, or the exit status of a usage error (its message printed). */
static int parse_options(int argc, char **argv, struct compare_options *o)
{
    *o = (struct compare_options){.region = -1, .separator = ","};
    int n_inputs = 0;
    struct options_given given = {0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool option = arg[0] == '-' && arg[1] != '\0' && strcmp(arg, "--") != 0;
        if (option && !option_once(&given, "compare", arg))
            return EXIT_BAD_INPUT;
        if (strcmp(arg, "--") == 0) {
            o->program = i + 1 < argc ? argv + i + 1 : NULL;
            if (!o->program)
                return usage_error("compare", "no program after --");
            break;
        } else if (strcmp(arg, "--json") == 0) {
            o->output = OUTPUT_JSON;
        } else if (strcmp(arg, "-x") == 0) {
            if (++i == argc)
                return usage_error("compare", "-x needs a value");
            const char *separator = argv[i];
            if (separator[0] == '\0')
                return usage_error("compare",
                                   "bad -x '' (expected a separator: one or more characters)");
            o->output = OUTPUT_SEPARATED;
            o->separator = separator;
        } else if (strcmp(arg, "--plot") == 0) {
            if (++i == argc)
                return usage_error("compare", "--plot needs a value");
            o->plot = argv[i];
        } else if (strcmp(arg, "--region") == 0) {
            if (++i == argc)
                return usage_error("compare", "--region needs a value");
            int rc = parse_region(argv[i], &o->region);
            if (rc)
                return rc;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return option_table_unknown(&compare_option_table, "compare", arg);
        } else if (n_inputs == 2) {
            return usage_error("compare", "one SIMULATED and one MEASURED count set (a third: '%s')",
                               arg);
        } else {
            o->inputs[n_inputs++] = arg;
        }
    }
    if (n_inputs < 2)
        return usage_error("compare", "needs SIMULATED and MEASURED");
    return 0;
}

static void print_program_exit(const char *program, int status)
{
    if (WIFSIGNALED(status))
        command_error(EXIT_OK, "compare", "%s was killed by signal %d (the counts are of that run)",
                      program, WTERMSIG(status));
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        command_error(EXIT_OK, "compare", "%s exited with status %d (the counts are of that run)",
                      program, WEXITSTATUS(status));
}

/* Input `i`'s count set (apps/compare/compare_input.h); false with the
 * line to print in `error`, and errno. */
static bool read_input(int i, const struct compare_options *o, struct count_set *set,
                       char *error, size_t error_size)
{
    struct compare_input input;
    compare_input_parse(o->inputs[i], &input);
    char why[900];
    int status;
    if (input.kind == COMPARE_INPUT_FILE)
        return compare_input_read(&input, NULL, o->region, set, &status, error, error_size);
    if (!compare_input_read(&input, o->program, o->region, set, &status, why, sizeof why)) {
        snprintf(error, error_size, "pmubench compare: %s", why);
        return false;
    }
    print_program_exit(o->program[0], status);
    return true;
}

/* No --plot over an input set (util/file_identity.h); 0 or 2. */
static int check_files(const struct compare_options *o)
{
    struct named_file files[3] = {{"--plot", o->plot, FILE_WRITE}};
    for (int i = 0; i < 2; i++) {
        struct compare_input input;
        compare_input_parse(o->inputs[i], &input);
        bool stdin_set = input.path && strcmp(input.path, "-") == 0;
        files[i + 1] = (struct named_file){set_roles[i], input.path,
                                           stdin_set ? FILE_READ_STDIN : FILE_READ};
    }
    char error[MESSAGE_SIZE];
    if (files_distinct(files, 3, error, sizeof error))
        return 0;
    return command_error(EXIT_BAD_INPUT, "compare", "%s", error);
}

/* 0, or 2 with a message when the inputs and the program do not fit. */
static int check_inputs(const struct compare_options *o)
{
    struct compare_input inputs[2];
    compare_input_parse(o->inputs[0], &inputs[0]);
    compare_input_parse(o->inputs[1], &inputs[1]);
    bool measuring = inputs[0].kind != COMPARE_INPUT_FILE || inputs[1].kind != COMPARE_INPUT_FILE;
    if (measuring && !o->program)
        return usage_error("compare", "measure: and lackey: need a program after --");
    if (!measuring && o->program)
        return usage_error("compare", "a program after -- is for measure: or lackey: ('%s')",
                           o->program[0]);
    if (inputs[0].path && strcmp(inputs[0].path, "-") == 0 && inputs[1].path &&
        strcmp(inputs[1].path, "-") == 0)
        return usage_error("compare", "standard input can be one of the sets, not both");
    return check_files(o);
}

/* ---- one row's cells ---- */

static const char *status_text(const struct count *count)
{
    if (!count)
        return "-";
    return count->status == COUNT_NOT_SUPPORTED ? "not supported" : "not counted";
}

/* The count as the table shows it: "441127", "448702.5 +/- 1.1", "-". */
static void format_count(const struct count *count, bool with_interval, char *out, size_t size)
{
    char number[32];
    if (!count || count->status != COUNT_COUNTED) {
        snprintf(out, size, "%s", status_text(count));
        return;
    }
    compare_format_count(count, number, sizeof number);
    if (with_interval && count->has_interval)
        snprintf(out, size, "%s +/- %.*f", number, count->interval_decimals, count->interval);
    else
        snprintf(out, size, "%s", number);
}

/* The difference and its percentage ("1.69%", or "1.69" without
 * `percent_sign`); "-" where undefined. */
static void format_difference(const struct compare_row *row, bool percent_sign, char *difference,
                              char *percent, size_t size)
{
    struct compare_difference d = compare_difference(row);
    snprintf(difference, size, "-");
    snprintf(percent, size, "-");
    if (d.defined)
        compare_format_difference(&d, difference, size);
    if (d.defined && d.percent_defined)
        snprintf(percent, size, "%.2f%s", d.percent, percent_sign ? "%" : "");
}

/* "data_read", or "data_read / L1-dcache-loads:u" when the names differ. */
static void format_event(const struct compare_row *row, char *out, size_t size)
{
    const struct count *s = row->simulated, *m = row->measured;
    char name[512];
    if (s && m && strcasecmp(s->name, m->name) != 0)
        snprintf(name, sizeof name, "%s / %s", s->name, m->name);
    else
        snprintf(name, sizeof name, "%s", s ? s->name : m->name);
    text_escape(out, size, name); /* names from files: util/text.h */
}

/* ---- notes ---- */

enum { MAX_NOTES = 32, MAX_ROW_NOTES = 3 };

struct notes {
    const char *text[MAX_NOTES];
    size_t n;
};

/* The note's number from 1, added when new; 0 when the list is full. */
static size_t note_number(struct notes *notes, const char *text)
{
    for (size_t i = 0; i < notes->n; i++)
        if (strcmp(notes->text[i], text) == 0)
            return i + 1;
    if (notes->n == MAX_NOTES)
        return 0;
    notes->text[notes->n++] = text;
    return notes->n;
}

/* The texts of a row's notes: the mapping's, then why a count is missing. */
static size_t row_note_texts(const struct compare_row *row, const char **texts)
{
    size_t n = 0;
    if (row->mapping && row->mapping->note)
        texts[n++] = row->mapping->note;
    if (row->simulated && row->simulated->reason)
        texts[n++] = row->simulated->reason;
    if (row->measured && row->measured->reason)
        texts[n++] = row->measured->reason;
    return n;
}

/* " [1][3]" for the row's notes, numbering new ones. */
static void format_markers(const struct compare_row *row, struct notes *notes, char *out,
                           size_t size)
{
    const char *texts[MAX_ROW_NOTES];
    size_t n = row_note_texts(row, texts), used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++) {
        size_t number = note_number(notes, texts[i]);
        int wrote = number ? snprintf(out + used, size - used, "%s[%zu]", i ? "" : " ", number)
                           : 0;
        used += wrote > 0 ? (size_t)wrote : 0;
    }
}

/* ---- the table ---- */

enum { CELL = 160, COLUMNS = 5 };

struct table_row {
    char cell[COLUMNS][CELL];
};

static void fill_table_row(const struct compare_row *row, struct notes *notes,
                           struct table_row *out)
{
    char markers[64];
    format_event(row, out->cell[0], CELL - sizeof markers);
    format_markers(row, notes, markers, sizeof markers);
    strcat(out->cell[0], markers);
    format_count(row->simulated, true, out->cell[1], CELL);
    format_count(row->measured, true, out->cell[2], CELL);
    format_difference(row, true, out->cell[3], out->cell[4], CELL);
}

static void print_table_line(const char cells[COLUMNS][CELL], const size_t *width)
{
    printf("%-*s", (int)width[0], cells[0]);
    for (int c = 1; c < COLUMNS; c++)
        printf("  %*s", (int)width[c], cells[c]);
    printf("\n");
}

static void print_sources(const struct count_set sets[2], const struct compare_options *o)
{
    for (int i = 0; i < 2; i++) {
        printf("%-10s ", source_labels[i]);
        text_print_escaped(stdout, sets[i].source);
        struct compare_input input;
        compare_input_parse(o->inputs[i], &input);
        if (input.kind == COMPARE_INPUT_FILE) {
            printf(" (");
            text_print_escaped(stdout, o->inputs[i]);
            printf(")");
        }
        printf("\n");
    }
}

static bool print_table(const struct count_set sets[2], const struct compare_table *t,
                        const struct compare_options *o)
{
    static const char header[COLUMNS][CELL] = {"Event", "Simulated", "Measured", "Difference",
                                               "Difference %"};
    struct table_row *rows = calloc(t->n_rows + 1, sizeof *rows);
    if (!rows)
        return false;
    struct notes notes = {0};
    size_t width[COLUMNS];
    for (int c = 0; c < COLUMNS; c++)
        width[c] = strlen(header[c]);
    for (size_t r = 0; r < t->n_rows; r++) {
        fill_table_row(&t->rows[r], &notes, &rows[r]);
        for (int c = 0; c < COLUMNS; c++)
            if (strlen(rows[r].cell[c]) > width[c])
                width[c] = strlen(rows[r].cell[c]);
    }
    print_sources(sets, o);
    printf("\n");
    print_table_line(header, width);
    for (size_t r = 0; r < t->n_rows; r++)
        print_table_line(rows[r].cell, width);
    if (notes.n)
        printf("\n");
    for (size_t i = 0; i < notes.n; i++)
        printf("[%zu] %s\n", i + 1, notes.text[i]);
    free(rows);
    return true;
}

/* ---- separated values ---- */

/* A field (util/text.h), then the separator or the line's end. */
static void print_field(const char *text, const char *separator, bool last)
{
    text_print_field(stdout, text, separator);
    fputs(last ? "\n" : separator, stdout);
}

static void join_notes(const struct compare_row *row, char *out, size_t size)
{
    const char *texts[MAX_ROW_NOTES];
    size_t n = row_note_texts(row, texts), used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++) {
        int wrote = snprintf(out + used, size - used, "%s%s", i ? "; " : "", texts[i]);
        used += wrote > 0 ? (size_t)wrote : 0;
    }
}

static void print_separated(const struct compare_table *t, const char *separator)
{
    static const char *const header[] = {"event", "simulated", "measured", "measured_interval",
                                         "difference", "difference_percent", "like_for_like",
                                         "notes"};
    enum { N_FIELDS = sizeof header / sizeof header[0] };
    for (int f = 0; f < N_FIELDS; f++)
        print_field(header[f], separator, f == N_FIELDS - 1);
    for (size_t r = 0; r < t->n_rows; r++) {
        const struct compare_row *row = &t->rows[r];
        char cells[N_FIELDS][512];
        format_event(row, cells[0], sizeof cells[0]);
        format_count(row->simulated, false, cells[1], sizeof cells[1]);
        format_count(row->measured, false, cells[2], sizeof cells[2]);
        snprintf(cells[3], sizeof cells[3], "%s", "");
        if (row->measured && row->measured->has_interval)
            snprintf(cells[3], sizeof cells[3], "%.*f", row->measured->interval_decimals,
                     row->measured->interval);
        format_difference(row, false, cells[4], cells[5], sizeof cells[4]);
        snprintf(cells[6], sizeof cells[6], "%s", !row->simulated || !row->measured ? ""
                                                   : compare_like_for_like(row) ? "yes"
                                                                                : "no");
        join_notes(row, cells[7], sizeof cells[7]);
        for (int f = 0; f < N_FIELDS; f++)
            print_field(cells[f], separator, f == N_FIELDS - 1);
    }
}

/* ---- JSON ---- */

static void print_json_count(const char *key, const struct count *count)
{
    char number[32] = "null";
    if (count && count->status == COUNT_COUNTED)
        compare_format_count(count, number, sizeof number);
    printf(", \"%s\": %s", key, number);
    printf(", \"%s_status\": \"%s\"", key,
           count && count->status == COUNT_COUNTED ? "counted"
           : count ? status_text(count)
                   : "absent");
}

static void print_json_row(const struct compare_row *row)
{
    char event[CELL];
    format_event(row, event, sizeof event);
    printf("{\"event\": ");
    json_print_string(event);
    print_json_count("simulated", row->simulated);
    print_json_count("measured", row->measured);
    printf(", \"measured_interval\": ");
    if (row->measured && row->measured->has_interval)
        printf("%.*f", row->measured->interval_decimals, row->measured->interval);
    else
        printf("null");
    struct compare_difference d = compare_difference(row);
    char difference[32] = "null";
    if (d.defined)
        compare_format_difference(&d, difference, sizeof difference);
    printf(", \"difference\": %s", difference);
    printf(", \"difference_percent\": ");
    if (d.defined && d.percent_defined)
        printf("%.2f", d.percent);
    else
        printf("null");
    printf(", \"like_for_like\": %s, \"notes\": [", !row->simulated || !row->measured ? "null"
                                                 : compare_like_for_like(row) ? "true"
                                                                              : "false");
    const char *texts[MAX_ROW_NOTES];
    size_t n = row_note_texts(row, texts);
    for (size_t i = 0; i < n; i++) {
        printf("%s", i ? ", " : "");
        json_print_string(texts[i]);
    }
    printf("]}");
}

static void print_json(const struct count_set sets[2], const struct compare_table *t,
                       const struct compare_options *o)
{
    printf("{");
    for (int i = 0; i < 2; i++) {
        printf("%s\"%s\": {\"source\": ", i ? ", " : "", set_roles[i]);
        json_print_string(sets[i].source);
        printf(", \"input\": ");
        json_print_string(o->inputs[i]);
        printf("}");
    }
    printf(", \"rows\": [");
    for (size_t r = 0; r < t->n_rows; r++) {
        printf("%s\n", r ? "," : "");
        print_json_row(&t->rows[r]);
    }
    printf("]}\n");
}

/* ---- the picture ---- */

/* A count as a bar: its number with the digits its source gave, or why
 * there is none. */
static struct bar_value count_bar(const struct count *count)
{
    if (!count || count->status != COUNT_COUNTED)
        return (struct bar_value){.absent_text = status_text(count)};
    return (struct bar_value){true, (double)count->value + count->fraction / 1e9, count->decimals,
                              NULL};
}

/* The texts of the chart's groups: each row's event and its difference in
 * percent (the table's "Difference %"), and the lists of them. */
struct chart_texts {
    char (*labels)[CELL], (*percents)[CELL];
    const char **label_list, **percent_list;
};

/* The chart of the bars of each row, simulated then measured, with the
 * row's difference in percent beside them; its text in `title` and `texts`. */
static struct bar_chart table_chart(const struct compare_table *t, const struct compare_options *o,
                                    char *title, size_t title_size, struct chart_texts *texts,
                                    struct bar_value *values)
{
    static const char *const series[2] = {"simulated", "measured"};
    for (size_t r = 0; r < t->n_rows; r++) {
        char difference[CELL];
        format_event(&t->rows[r], texts->labels[r], CELL);
        format_difference(&t->rows[r], true, difference, texts->percents[r], CELL);
        texts->label_list[r] = texts->labels[r];
        texts->percent_list[r] = texts->percents[r];
        values[2 * r] = count_bar(t->rows[r].simulated);
        values[2 * r + 1] = count_bar(t->rows[r].measured);
    }
    snprintf(title, title_size, "pmubench compare: %s against %s", o->inputs[0], o->inputs[1]);
    return (struct bar_chart){.title = title, .axis_label = "count", .n_series = 2,
                              .series = series, .n_groups = t->n_rows,
                              .labels = texts->label_list, .values = values,
                              .notes_heading = "difference %", .notes = texts->percent_list};
}

/* --plot's SVG, whole or not at all; 0, or 1 with the message printed. */
static int write_plot(const struct compare_table *t, const struct compare_options *o)
{
    char error[MESSAGE_SIZE], failed[1024], title[2 * CELL + 40];
    struct chart_texts texts = {calloc(t->n_rows + 1, sizeof *texts.labels),
                                calloc(t->n_rows + 1, sizeof *texts.percents),
                                calloc(t->n_rows + 1, sizeof *texts.label_list),
                                calloc(t->n_rows + 1, sizeof *texts.percent_list)};
    struct bar_value *values = calloc(2 * t->n_rows + 1, sizeof *values);
    int status = EXIT_OK;
    if (!texts.labels || !texts.percents || !texts.label_list || !texts.percent_list || !values) {
        status = command_error(EXIT_RUNTIME, "compare", "out of memory");
    } else {
        struct bar_chart chart = table_chart(t, o, title, sizeof title, &texts, values);
        /* counts are never negative: drawing does not fail */
        snprintf(failed, sizeof failed, "%s: cannot draw the counts", o->plot);
        if (!atomic_write(o->plot, bar_chart_draw, &chart, failed, error, sizeof error))
            status = command_error(EXIT_RUNTIME, "compare", "%s", error);
    }
    free(texts.labels);
    free(texts.percents);
    free(texts.label_list);
    free(texts.percent_list);
    free(values);
    return status;
}

/* ---- the command ---- */

/* Prints the comparison (and draws it with --plot); 0, or 1 with the
 * message printed. */
static int print_comparison(const struct count_set sets[2], const struct compare_options *o)
{
    struct compare_table table;
    if (!compare_pair(&sets[0], &sets[1], &table))
        return command_error(EXIT_RUNTIME, "compare", "out of memory");
    int status = o->plot ? write_plot(&table, o) : EXIT_OK;
    if (status == EXIT_OK && o->output == OUTPUT_JSON)
        print_json(sets, &table, o);
    else if (status == EXIT_OK && o->output == OUTPUT_SEPARATED)
        print_separated(&table, o->separator);
    else if (status == EXIT_OK && !print_table(sets, &table, o))
        status = command_error(EXIT_RUNTIME, "compare", "out of memory");
    compare_table_free(&table);
    return status;
}

/* A simulated count set made from code its model could not run: the
 * warning stat gave, again beside the figures. */
static void warn_isa(const struct count_set *set)
{
    struct machine_config model;
    char warning[1024];
    if (!set->model || !machine_config_choose(set->model, &model, warning, sizeof warning))
        return;
    const char *traces[2] = {set->trace, set->trace1};
    for (int i = 0; i < 2; i++)
        if (traces[i] &&
            machine_isa_warning(&model, traces[i], traces[i], warning, sizeof warning))
            command_error(EXIT_OK, "compare", "warning: %s", warning);
}

static bool same_trace(const struct count_set *a, const struct count_set *b)
{
    return a->trace && b->trace && strcmp(a->trace, b->trace) == 0 && strcmp(a->model, b->model) == 0;
}

int cmd_compare(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0) {
            fputs(compare_usage, stdout);
            return 0;
        }
    struct compare_options o;
    int status = parse_options(argc, argv, &o);
    if (status == 0)
        status = check_inputs(&o);
    if (status != 0)
        return status;
    struct count_set sets[2] = {{0}};
    char error[MESSAGE_SIZE];
    int read = 0;
    errno = 0;
    while (read < 2 && read_input(read, &o, &sets[read], error, sizeof error))
        read++;
    if (read < 2) {
        status = file_error(failure_status(errno), "%s", error);
    } else {
        warn_isa(&sets[0]);
        if (!same_trace(&sets[0], &sets[1])) /* one warning for one trace */
            warn_isa(&sets[1]);
        status = print_comparison(sets, &o);
    }
    for (int i = 0; i < read; i++)
        count_set_free(&sets[i]);
    return status;
}
