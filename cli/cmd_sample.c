/* pmubench sample: the arguments and the output of event-based sampling
 * on the simulated NetBurst, PEBS or IEBS; the sampling itself is
 * apps/sample/sample_run.h's (docs/sample.md; docs/netburst-model.md,
 * "Sampling"; README, Commands). */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "util/atomic_file.h"
#include "util/file_identity.h"
#include "commands.h"
#include "exit_status.h"
#include "option_once.h"
#include "util/text.h"
#include "util/number.h"
#include "charts/bar_chart.h"
#include "apps/sample/sample_run.h"
#include "sim/machine/machine.h"
#include "traces/trace.h"

static const char sample_usage[] =
    "usage: pmubench sample [-m netburst[-PRESET]] (--pebs METRIC | -e EVENT) --period N\n"
    "                       [--region N] [--symbols FILE | --no-symbols] [-o FILE]\n"
    "                       [--plot FILE] --trace FILE\n"
    "  --pebs METRIC  precise sampling on IQ_COUNTER4 (a replay-tagging metric, e.g.\n"
    "                 1stL_cache_load_miss_retired): one line per PEBS record,\n"
    "                 'pebs eip=0x... <SYMBOL+0xOFFSET> eflags=... eax=... ...'\n"
    "  -e EVENT       imprecise sampling: a PMI to thread 0 on each overflow; one line\n"
    "                 per PMI the model takes,\n"
    "                 'sample thread T cycle C eip 0x... <SYMBOL+0xOFFSET> precise 0'\n"
    "  --period N     events between samples (1 to 2^39)\n"
    "  --region N     count only inside region N (docs/traces.md, \"Regions\")\n"
    "  --symbols FILE name addresses with FILE's ELF symbols (default: the traced\n"
    "                 program's file, as the trace names it, when it can be read)\n"
    "  --no-symbols   leave addresses raw (so does a trace whose program cannot be read)\n"
    "  --plot FILE    also draw the by-symbol histogram as SVG bars\n"
    "The output starts with 'symbols FILE base 0x...' or 'symbols none (WHY)'; with\n"
    "symbols, 'by-symbol COUNT PERCENT SYMBOL' lines count the samples per symbol\n"
    "before the closing 'samples N instructions N cycles N'.  A position-independent\n"
    "program's load base is where the trace runs its entry point's code; without it,\n"
    "addresses stay raw (docs/sample.md).\n";

/* The options of 'pmubench sample' (cli/option_table.h); --help and -h besides. */
static const struct cli_option sample_option_list[] = {
    {"-m", true}, {"--pebs", true}, {"-e", true}, {"--period", true}, {"--region", true},
    {"--trace", true}, {"-o", true}, {"--symbols", true}, {"--plot", true},
    {"--no-symbols", false}, {NULL, false}
};
const struct option_table sample_option_table = {sample_option_list, false};

/* The options, and the sampling they ask for (its model set once -m is
 * chosen). */
struct sample_args {
    const char *model, *output;
    const char *plot; /* --plot's SVG file, or NULL */
    struct sample_options sampling;
};

/* The value of `option`, a number (util/number.h) from `min` to `max`;
 * -1, or EXIT_BAD_INPUT with the message printed. */
static int number_option(const char *option, const char *text, uint64_t min, uint64_t max,
                         uint64_t *value)
{
    char error[MESSAGE_SIZE];
    if (number_read(option, text, min, max, value, error, sizeof error))
        return -1;
    return usage_error("sample", "%s", error);
}

static int parse_args(int argc, char **argv, struct sample_args *args)
{
    *args = (struct sample_args){.model = "netburst", .sampling.region = REGION_WHOLE_TRACE};
    struct options_given given = {0};
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0) {
            fputs(sample_usage, stdout);
            return 0;
        }
        if (!option_once(&given, "sample", opt))
            return EXIT_BAD_INPUT;
        if (strcmp(opt, "--no-symbols") == 0) {
            args->sampling.no_symbols = true;
            continue;
        }
        if (!option_takes_value(&sample_option_table, opt))
            return option_table_unknown(&sample_option_table, "sample", opt);
        if (i + 1 >= argc)
            return usage_error("sample", "%s needs a value", opt);
        const char *value = argv[++i];
        uint64_t number;
        if (strcmp(opt, "-m") == 0) {
            args->model = value;
        } else if (strcmp(opt, "--pebs") == 0 || strcmp(opt, "-e") == 0) {
            if (args->sampling.event)
                return usage_error("sample", "%s: one event only (--pebs or -e, once)", opt);
            args->sampling.event = value;
            args->sampling.pebs = strcmp(opt, "--pebs") == 0;
        } else if (strcmp(opt, "--period") == 0) {
            int rc = number_option(opt, value, 1, SAMPLE_MAX_PERIOD, &args->sampling.period);
            if (rc >= 0)
                return rc;
        } else if (strcmp(opt, "--region") == 0) {
            int rc = number_option(opt, value, 0, UINT32_MAX, &number);
            if (rc >= 0)
                return rc;
            args->sampling.region = (long)number;
        } else if (strcmp(opt, "--trace") == 0) {
            if (args->sampling.trace)
                return usage_error("sample", "%s: one trace only", opt);
            args->sampling.trace = value;
        } else if (strcmp(opt, "--symbols") == 0) {
            args->sampling.symbols = value;
        } else if (strcmp(opt, "--plot") == 0) {
            args->plot = value;
        } else {
            args->output = value;
        }
    }
    if (!args->sampling.event)
        return usage_error("sample", "no event (--pebs METRIC or -e EVENT)");
    if (!args->sampling.period)
        return usage_error("sample", "no --period");
    if (!args->sampling.trace)
        return usage_error("sample", "no --trace");
    if (args->sampling.symbols && args->sampling.no_symbols)
        return usage_error("sample", "--symbols and --no-symbols: one or the other");
    return -1;
}

/* No output over the trace or the file the symbols come from (--symbols,
 * or the program the trace names); 0 or 2. */
static int check_files(const struct sample_args *args)
{
    struct trace_header header;
    char error[MESSAGE_SIZE];
    bool traced = !args->sampling.symbols && !args->sampling.no_symbols &&
                  trace_read_header(args->sampling.trace, &header, error, sizeof error);
    const struct named_file files[] = {
        {"--trace", args->sampling.trace, FILE_READ},
        {"--symbols", args->sampling.symbols, FILE_READ},
        {"the traced program", traced ? header.program : NULL, FILE_READ},
        {"-o", args->output, FILE_WRITE},
        {"--plot", args->plot, FILE_WRITE},
    };
    if (files_distinct(files, sizeof files / sizeof files[0], error, sizeof error))
        return 0;
    return command_error(EXIT_BAD_INPUT, "sample", "%s", error);
}

/* ---- output */

/* The first line: the file whose symbols name the addresses and its load
 * base, or why none does. */
static void print_symbols_file(FILE *out, const struct sample_session *session)
{
    if (session->symbols_file) {
        fputs("symbols ", out);
        text_print_escaped(out, session->symbols_file);
        fprintf(out, " base 0x%llx\n", (unsigned long long)session->symbols.base);
        return;
    }
    fputs("symbols none (", out);
    text_print_escaped(out, session->no_symbols_why);
    fputs(")\n", out);
}

/* " <SYMBOL+0xOFFSET>" after a sampled address; nothing without a symbol
 * there. */
static void print_symbol(FILE *out, const struct elf_symbol_match *symbol)
{
    if (!symbol)
        return;
    fputs(" <", out);
    text_print_escaped(out, symbol->name); /* the ELF file's bytes */
    if (symbol->offset)
        fprintf(out, "+0x%llx", (unsigned long long)symbol->offset);
    fputc('>', out);
}

/* 'pebs eip=0x... <SYMBOL> eflags=0x... eax=0x... ...': the EIP first. */
static void print_record(FILE *out, const struct sample *sample)
{
    static const char *const names32[NB_PEBS_SLOTS_32] = {"eflags", "eip", "eax", "ebx", "ecx",
                                                          "edx",    "esi", "edi", "ebp", "esp"};
    static const char *const names64[NB_PEBS_SLOTS_64] = {
        "rflags", "rip", "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp",
        "rsp",    "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
    const struct nb_pebs_record *record = sample->record;
    const char *const *names = record->n_slots == NB_PEBS_SLOTS_64 ? names64 : names32;
    fprintf(out, "pebs %s=0x%llx", names[1], (unsigned long long)sample->eip);
    print_symbol(out, sample->symbol);
    for (unsigned k = 0; k < record->n_slots; k++)
        if (k != 1)
            fprintf(out, " %s=0x%llx", names[k], (unsigned long long)record->slot[k]);
    fputc('\n', out);
}

/* One line per sample (sample_fn, the output as context). */
static void print_sample(void *context, const struct sample *sample)
{
    FILE *out = context;
    if (sample->record) {
        print_record(out, sample);
        return;
    }
    fprintf(out, "sample thread %d cycle %llu eip 0x%llx", sample->thread,
            (unsigned long long)sample->cycle, (unsigned long long)sample->eip);
    print_symbol(out, sample->symbol);
    fprintf(out, " precise %d\n", sample->precise ? 1 : 0);
}

/* 'by-symbol COUNT PERCENT SYMBOL' per symbol sampled, most sampled
 * first, then by name; "[unknown]" counts the samples no symbol covers. */
static void print_histogram(FILE *out, struct sample_session *session, uint64_t samples)
{
    if (samples == 0)
        return;
    const struct sample_count *rows;
    size_t n = sample_histogram(session, &rows);
    for (size_t k = 0; k < n; k++) {
        fprintf(out, "by-symbol %llu %.1f%% ", (unsigned long long)rows[k].count,
                100.0 * (double)rows[k].count / (double)samples);
        text_print_escaped(out, rows[k].symbol);
        fputc('\n', out);
    }
}

/* ---- the picture */

enum { PLOT_SYMBOLS = 40 }; /* the most sampled; one more bar sums the rest */

/* The histogram as bars: the first PLOT_SYMBOLS rows, then the rest's sum. */
static size_t histogram_bars(const struct sample_count *rows, size_t n, const char **labels,
                             struct bar_value *values, char *rest, size_t rest_size)
{
    size_t shown = n > PLOT_SYMBOLS ? PLOT_SYMBOLS : n;
    for (size_t k = 0; k < shown; k++) {
        labels[k] = rows[k].symbol;
        values[k] = (struct bar_value){true, (double)rows[k].count, 0, NULL};
    }
    if (shown == n)
        return n;
    uint64_t others = 0;
    for (size_t k = shown; k < n; k++)
        others += rows[k].count;
    snprintf(rest, rest_size, "(%zu other symbols)", n - shown);
    labels[shown] = rest;
    values[shown] = (struct bar_value){true, (double)others, 0, NULL};
    return shown + 1;
}

/* --plot's SVG of the last run's histogram, whole or not at all. */
static int write_plot(const struct sample_args *args, struct sample_session *session)
{
    static const char *const series[] = {"samples"};
    const struct sample_count *rows;
    size_t n = sample_histogram(session, &rows);
    const char *labels[PLOT_SYMBOLS + 1];
    struct bar_value values[PLOT_SYMBOLS + 1];
    char rest[64], title[1024], error[1024];
    snprintf(title, sizeof title, "pmubench sample: %s, period %llu, %s", args->sampling.event,
             (unsigned long long)args->sampling.period, args->sampling.trace);
    struct bar_chart chart = {.title = title, .axis_label = "samples per symbol", .n_series = 1,
                              .series = series, .labels = labels, .values = values};
    chart.n_groups = histogram_bars(rows, n, labels, values, rest, sizeof rest);
    char failed[1024]; /* counts are never negative: drawing does not fail */
    snprintf(failed, sizeof failed, "%s: cannot draw the histogram", args->plot);
    if (atomic_write(args->plot, bar_chart_draw, &chart, failed, error, sizeof error))
        return EXIT_OK;
    return command_error(EXIT_RUNTIME, "sample", "%s", error);
}

/* ---- sampling */

/* Reads the trace and the symbols, runs the model and prints the
 * samples, the histogram and the closing line. */
static int run_sampling(struct sample_session *session, FILE *out)
{
    const struct sample_options *o = &session->options;
    char error[TRACE_MAX_TEXT + 1024];
    if (machine_isa_warning(o->model, o->trace, o->trace, error, sizeof error))
        command_error(EXIT_OK, "sample", "warning: %s", error);
    if (!sample_open(session, error, sizeof error))
        return command_error(failure_status(errno), "sample", "%s", error);
    print_symbols_file(out, session);
    struct sample_totals totals;
    if (!sample_run(session, print_sample, out, &totals, error, sizeof error))
        return command_error(failure_status(errno), "sample", "%s", error);
    print_histogram(out, session, totals.samples);
    fprintf(out, "samples %llu instructions %llu cycles %llu\n",
            (unsigned long long)totals.samples, (unsigned long long)totals.instructions,
            (unsigned long long)totals.cycles);
    return EXIT_OK;
}

/* The model -m names: netburst or netburst-PRESET. */
static int choose_model(const struct sample_args *args, struct machine_config *model)
{
    char error[MESSAGE_SIZE];
    if (strcmp(args->model, "netburst") != 0 && strncmp(args->model, "netburst-", 9) != 0)
        return usage_error("sample", "unknown model '%s' (expected netburst or netburst-PRESET)",
                           args->model);
    if (!machine_config_choose_for(args->model, &args->sampling.event, 1, model, error, sizeof error))
        return usage_error("sample", "-m: %s", error);
    return EXIT_OK;
}

/* Plans the event, then samples into stdout or -o's file, whole or not
 * at all. */
static int sample(const struct sample_args *args, struct sample_session *session)
{
    char error[MESSAGE_SIZE];
    if (!sample_plan(session, &args->sampling, error, sizeof error))
        return command_error(failure_status(errno), "sample", "%s", error);
    struct atomic_file file;
    if (args->output && !atomic_open(&file, args->output, error, sizeof error))
        return command_error(EXIT_RUNTIME, "sample", "%s", error);
    int rc = run_sampling(session, args->output ? file.stream : stdout);
    if (rc == EXIT_OK && args->plot)
        rc = write_plot(args, session);
    if (!args->output)
        return rc;
    if (rc != EXIT_OK)
        atomic_abort(&file);
    else if (!atomic_commit(&file, error, sizeof error))
        rc = command_error(EXIT_RUNTIME, "sample", "%s", error);
    return rc;
}

int cmd_sample(int argc, char **argv)
{
    struct sample_args args;
    int rc = parse_args(argc, argv, &args);
    if (rc >= 0)
        return rc;
    if ((rc = check_files(&args)))
        return rc;
    struct machine_config model;
    if ((rc = choose_model(&args, &model)))
        return rc;
    args.sampling.model = &model;
    struct sample_session session;
    rc = sample(&args, &session);
    sample_fini(&session);
    return rc;
}
