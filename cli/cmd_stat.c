/* pmubench stat: perf-stat-like counting on the simulated P5 or NetBurst,
 * or on real hardware through the msr device (docs/stat.md). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/atomic_file.h"
#include "util/cleanup.h"
#include "util/file_identity.h"
#include "commands.h"
#include "exit_status.h"
#include "util/json.h"
#include "apps/compare/stat_plot.h"
#include "option_once.h"
#include "progress.h"
#include "record_outcome.h"
#include "traces/cpu_view.h"
#include "util/text.h"
#include "pmu/programming/alloc.h"
#include "pmu/catalog/generic_events.h"
#include "pmu/programming/msr_linux.h"
#include "util/number.h"
#include "apps/stat/stat_events.h"
#include "apps/stat/stat_features.h"
#include "apps/compare/intervals.h"
#include "apps/stat/stat_run.h"
#include "traces/run_env.h"

static const char stat_usage[] =
    "usage: pmubench stat [-m MODEL] [-F NAME=VALUE]... [-e EVENT[,EVENT...]]... [--region N]\n"
    "                     [--runs one|hardware] [-I N|Nc] [-x SEP | --json] [-o FILE]\n"
    "                     [--plot FILE [--plot-ipc]]\n"
    "                     (--trace FILE [--trace FILE] | [--record-cpu CPU] -- PROGRAM [ARGS...])\n"
    "       pmubench stat --backend msr [--cpu N] [--msr-device PATH] [-e EVENT[,EVENT...]]...\n"
    "                     [-x SEP | --json] [-o FILE] -- PROGRAM [ARGS...]\n"
    "  counts events (names as 'pmubench list' shows them, with or without the\n"
    "  'p5::' or 'netburst::' prefix, with modifiers) in the fewest runs; without\n"
    "  -e, the model's default set (cycles, instructions, cache references and\n"
    "  misses, branches and mispredictions: docs/stat.md)\n"
    "  -m MODEL          the simulated model: p5 (default, Safford 1997, Table 5.5), pmmx\n"
    "                    (the Pentium MMX) or host (this machine's caches),\n"
    "                    docs/p5-model.md; netburst[-PRESET]\n"
    "                    with PRESET willamette, willamette0, northwood (default),\n"
    "                    prescott or prescott4, docs/netburst-model.md\n"
    "  -F NAME=VALUE     set one model parameter (the model's docs list them)\n"
    "  --trace FILE      simulate a recorded trace; '-- PROGRAM' records one first;\n"
    "                    a second --trace runs on the NetBurst's logical processor 1\n"
    "                    (Hyper-Threading)\n"
    "  --record-cpu CPU  the CPU the recorded PROGRAM sees (pmubench record --cpu);\n"
    "                    default: -m's part (p5, pmmx, netburst[-PRESET]), host for\n"
    "                    -m host\n"
    "  --region N        count only inside region N (its begin to end markers)\n"
    "  --runs one        every run of the counters in one pass of the trace\n"
    "                    (default; the NetBurst model makes a pass per run)\n"
    "  --runs hardware   a pass of the trace per run, as a real P5 counts (run_p5mon)\n"
    "  -I N, -I Nc       also the counts of every N simulated instructions, or N\n"
    "                    cycles (perf stat -I; the intervals add up to the totals)\n"
    "  -x SEP            one line per event: VALUE SEP SEP EVENT SEP SEP (perf stat -x;\n"
    "                    with -I: END SEP VALUE SEP SEP EVENT SEP SEP per interval)\n"
    "  --json            {\"model\", \"trace\", \"counts\": {EVENT: COUNT}}\n"
    "  -o FILE           write the counts to FILE (whole or not at all)\n"
    "  --plot FILE       also draw the counts as SVG into FILE, as 'pmubench plot'\n"
    "                    draws the --json output: with -I each event's count per\n"
    "                    interval, else bars (docs/plot.md)\n"
    "  --plot-ipc        with -I, draw instructions (and uops) per cycle instead\n"
    "  --pipeview FILE   the NetBurst model's uops in gem5's O3PipeView format, for\n"
    "                    Konata or gem5's o3-pipeview.py (docs/pipeview.md); inside\n"
    "                    --region, of the first pass\n"
    "  --pipeview-range FIRST:LAST\n"
    "                    only instructions FIRST to LAST (from 1, in retired order)\n"
    "  --backend msr     program real hardware of -m's kind (P5, or NetBurst) through\n"
    "                    /dev/cpu/N/msr (refused on any other processor) and count\n"
    "                    PROGRAM's run on CPU N\n";

/* The options of 'pmubench stat' (cli/option_table.h); --help and -h besides. */
static const struct cli_option stat_option_list[] = {
    {"-m", true}, {"-F", true}, {"-e", true}, {"--trace", true}, {"--region", true},
    {"--runs", true}, {"-x", true}, {"-o", true}, {"--backend", true}, {"--cpu", true},
    {"--msr-device", true}, {"-I", true}, {"--pipeview", true}, {"--pipeview-range", true},
    {"--plot", true}, {"--record-cpu", true}, {"--json", false}, {"--plot-ipc", false},
    {NULL, false}
};
const struct option_table stat_option_table = {stat_option_list, false};

enum { MAX_EVENTS = ALLOC_MAX_REQUESTS, MAX_PARAMS = 64, MAX_CPU = 1023 };

struct stat_args {
    const char *model;
    const char *params[MAX_PARAMS];
    int n_params;
    const char *events[MAX_EVENTS]; /* the user's strings, split at commas, or the defaults */
    int n_events;
    const char *traces[2];     /* --trace, once or (NetBurst, Hyper-Threading) twice */
    int n_traces;
    long region;
    enum stat_runs runs;
    bool runs_given;           /* --runs was given */
    const char *separator;
    bool json;
    const char *output;
    bool hardware;
    int cpu;
    const char *device;
    int program;               /* argv index of PROGRAM, or 0 */
    const char *pipeview;      /* --pipeview FILE, or NULL */
    const char *pipeview_range; /* --pipeview-range's text, or NULL */
    uint64_t pipeview_first, pipeview_last;
    bool intervals;            /* -I was given: */
    enum interval_unit unit;   /* its unit */
    uint64_t every;            /* and its N */
    const char *plot;          /* --plot FILE, or NULL */
    bool plot_ipc;             /* --plot-ipc */
    const char *record_cpu;    /* --record-cpu CPU, or NULL: the model's part */
};

/* -e's list, split at its commas; every item an event name. */
static int add_events(struct stat_args *args, char *list)
{
    if (list[0] == '\0' || list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,"))
        return usage_error("stat", "bad -e '%s' (an empty event name: expected EVENT[,EVENT...])",
                           list);
    for (char *name = strtok(list, ","); name; name = strtok(NULL, ",")) {
        if (stat_events_repeated(args->events, args->n_events, name))
            continue;
        if (args->n_events == MAX_EVENTS)
            return usage_error("stat", "more than %d events", MAX_EVENTS);
        args->events[args->n_events++] = name;
    }
    return 0;
}

/* The value of `option`, a number (util/number.h) from 0 to `max`. */
static int number_option(const char *option, const char *text, uint64_t max, uint64_t *value)
{
    char error[MESSAGE_SIZE];
    if (number_read(option, text, 0, max, value, error, sizeof error))
        return 0;
    return usage_error("stat", "%s", error);
}

static const uint64_t MAX_INTERVAL = 1000000000000000000ull; /* -I's largest N: 10^18 */

/* -I's value: N instructions or Nc cycles, N a number (util/number.h)
 * from 1; a trailing c always means cycles (-I 0x1c: 1 cycle). */
static int interval_option(struct stat_args *args, const char *value)
{
    char number[64];
    size_t length = strlen(value);
    bool cycles = length > 0 && value[length - 1] == 'c';
    char error[MESSAGE_SIZE];
    if (length - cycles < sizeof number) {
        snprintf(number, sizeof number, "%.*s", (int)(length - cycles), value);
        if (number_read("-I", number, 1, MAX_INTERVAL, &args->every, error, sizeof error)) {
            args->intervals = true;
            args->unit = cycles ? INTERVAL_CYCLES : INTERVAL_INSTRUCTIONS;
            return 0;
        }
    }
    return usage_error("stat", "bad -I '%s' (expected N instructions or Nc cycles, N a number "
                       "from 1 to %llu: decimal or 0x hex)", value,
                       (unsigned long long)MAX_INTERVAL);
}

/* --pipeview-range FIRST:LAST. */
static int pipeview_range_option(struct stat_args *args, const char *value)
{
    char error[MESSAGE_SIZE];
    args->pipeview_range = value;
    if (nbm_pipeview_range_read("--pipeview-range", value, &args->pipeview_first,
                                &args->pipeview_last, error, sizeof error))
        return 0;
    return usage_error("stat", "%s", error);
}

/* The option at argv[*i] that takes a value; 0 when handled, 2 on error,
 * -1 when it is not one of them. */
static int value_option(struct stat_args *args, int argc, char **argv, int *i)
{
    const char *option = argv[*i];
    if (!option_takes_value(&stat_option_table, option))
        return -1;
    if (++*i == argc)
        return usage_error("stat", "%s needs a value", option);
    char *value = argv[*i];
    uint64_t number;
    if (strcmp(option, "-m") == 0)
        args->model = value;
    else if (strcmp(option, "--record-cpu") == 0)
        args->record_cpu = value;
    else if (strcmp(option, "-F") == 0) {
        if (args->n_params == MAX_PARAMS)
            return usage_error("stat", "more than %d -F parameters", MAX_PARAMS);
        args->params[args->n_params++] = value;
    } else if (strcmp(option, "-e") == 0)
        return add_events(args, value);
    else if (strcmp(option, "--trace") == 0) {
        if (args->n_traces == 2)
            return usage_error("stat", "at most two --trace (the two logical processors)");
        args->traces[args->n_traces++] = value;
    }
    else if (strcmp(option, "--region") == 0) {
        if (number_option(option, value, UINT32_MAX, &number))
            return EXIT_BAD_INPUT;
        args->region = (long)number;
    } else if (strcmp(option, "--runs") == 0) {
        if (strcmp(value, "one") != 0 && strcmp(value, "hardware") != 0)
            return usage_error("stat", "bad --runs '%s' (expected one or hardware)", value);
        args->runs = strcmp(value, "one") == 0 ? STAT_RUNS_ONE : STAT_RUNS_HARDWARE;
        args->runs_given = true;
    } else if (strcmp(option, "-x") == 0) {
        if (!*value)
            return usage_error("stat", "bad -x '' (expected a separator: one or more characters)");
        args->separator = value;
    } else if (strcmp(option, "-o") == 0)
        args->output = value;
    else if (strcmp(option, "-I") == 0)
        return interval_option(args, value);
    else if (strcmp(option, "--pipeview") == 0)
        args->pipeview = value;
    else if (strcmp(option, "--plot") == 0)
        args->plot = value;
    else if (strcmp(option, "--pipeview-range") == 0)
        return pipeview_range_option(args, value);
    else if (strcmp(option, "--backend") == 0) {
        if (strcmp(value, "msr") != 0 && strcmp(value, "sim") != 0)
            return usage_error("stat", "bad --backend '%s' (expected sim or msr)", value);
        args->hardware = strcmp(value, "msr") == 0;
    } else if (strcmp(option, "--cpu") == 0) {
        if (number_option(option, value, MAX_CPU, &number))
            return EXIT_BAD_INPUT;
        args->cpu = (int)number;
    } else
        args->device = value;
    return 0;
}

/* 0 to go on, 2 on a usage error, -1 after --help. */
static int parse_args(int argc, char **argv, struct stat_args *args)
{
    *args = (struct stat_args){.model = "p5", .region = REGION_WHOLE_TRACE,
                               .device = "/dev/cpu/%d/msr"};
    struct options_given given = {0}; /* -e, -F and --trace may repeat */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            fputs(stat_usage, stdout);
            return -1;
        }
        if (strcmp(argv[i], "--") == 0) {
            if (i + 1 == argc)
                return usage_error("stat", "--: no program after '--'");
            args->program = i + 1;
            break;
        }
        bool repeatable = strcmp(argv[i], "-e") == 0 || strcmp(argv[i], "-F") == 0 ||
                          strcmp(argv[i], "--trace") == 0;
        if (!repeatable && !option_once(&given, "stat", argv[i]))
            return EXIT_BAD_INPUT;
        if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--plot-ipc") == 0) {
            *(strcmp(argv[i], "--json") == 0 ? &args->json : &args->plot_ipc) = true;
            continue;
        }
        int rc = value_option(args, argc, argv, &i);
        if (rc > 0)
            return rc;
        if (rc < 0)
            return option_table_unknown(&stat_option_table, "stat", argv[i]);
    }
    return 0;
}

/* The combinations that make no sense, each with its own message. */
static int check_args(const struct stat_args *args)
{
    if (!args->n_traces == !args->program)
        return usage_error("stat", "%s", args->n_traces
                                             ? "--trace FILE or '-- PROGRAM', not both"
                                             : "nothing to count (--trace FILE or -- PROGRAM)");
    if (args->json && args->separator)
        return usage_error("stat", "--json or -x, not both");
    if (args->hardware && args->n_traces)
        return usage_error("stat", "--backend msr counts a program's run, not a trace");
    if (args->hardware && args->region != REGION_WHOLE_TRACE)
        return usage_error("stat", "--region needs the simulated model (a trace's markers)");
    if (args->pipeview_range && !args->pipeview)
        return usage_error("stat", "--pipeview-range needs --pipeview FILE");
    if (args->hardware && args->pipeview)
        return usage_error("stat", "--pipeview needs the simulated NetBurst model");
    if (args->hardware && args->intervals)
        return usage_error("stat", "-I needs the simulated model (intervals of a trace's run)");
    if (args->hardware && args->plot)
        return usage_error("stat", "--plot needs the simulated model (a trace's run)");
    if (args->record_cpu && (!args->program || args->hardware))
        return usage_error("stat", "--record-cpu needs '-- PROGRAM' and the simulated model (the "
                                   "CPU the recorded program sees)");
    static struct cpu_view view;
    char why[256];
    if (args->record_cpu && !cpu_view_named(args->record_cpu, 64, &view, why, sizeof why))
        return usage_error("stat", "--record-cpu: %s", why);
    if (args->plot_ipc && (!args->plot || !args->intervals))
        return usage_error("stat", "--plot-ipc needs --plot FILE and -I N (instructions per "
                                   "cycle in each interval)");
    if (args->hardware && args->runs_given && args->runs == STAT_RUNS_ONE)
        return usage_error("stat", "--runs one needs the simulated model (hardware runs the "
                                   "program once per run)");
    return 0;
}

/* No output over a trace, the program (as the recorder finds it) or the
 * device. */
static int check_files(const struct stat_args *args, char **argv)
{
    char program[PATH_MAX], ignored[256];
    bool found = args->program && run_find_program(argv[args->program], program,
                                                   sizeof program, ignored, sizeof ignored);
    const struct named_file files[] = {
        {"--trace", args->traces[0], FILE_READ},
        {"--trace", args->traces[1], FILE_READ},
        {"PROGRAM", found ? program : NULL, FILE_READ},
        {"--msr-device", args->hardware ? args->device : NULL, FILE_READ},
        {"-o", args->output, FILE_WRITE},
        {"--pipeview", args->pipeview, FILE_WRITE},
        {"--plot", args->plot, FILE_WRITE},
    };
    char error[MESSAGE_SIZE];
    if (files_distinct(files, sizeof files / sizeof files[0], error, sizeof error))
        return 0;
    return command_error(EXIT_BAD_INPUT, "stat", "%s", error);
}

static int plan_events(const struct stat_args *args, const struct machine_config *model,
                       struct alloc_plan *plan)
{
    char error[MESSAGE_SIZE];
    if (!stat_events_plan(model, args->events, args->n_events, args->n_traces == 2, plan, error,
                          sizeof error))
        return command_error(failure_status(errno), "stat", "%s", error);
    return EXIT_OK;
}

static int configure_model(const struct stat_args *args, struct machine_config *model)
{
    char error[MESSAGE_SIZE];
    if (!machine_config_choose_for(args->model, args->events, args->n_events, model, error,
                               sizeof error))
        return usage_error("stat", "-m: %s", error);
    for (int i = 0; i < args->n_params; i++) {
        enum machine_assignment set =
            machine_config_assign(model, args->params[i], error, sizeof error);
        if (set == MACHINE_NOT_ASSIGNMENT)
            return usage_error("stat", "bad -F '%s' (expected NAME=VALUE)", args->params[i]);
        if (set == MACHINE_REFUSED)
            return command_error(EXIT_BAD_INPUT, "stat", "-F: %s", error);
    }
    return EXIT_OK;
}

/* ---- recording a program first, as `pmubench record -o TRACE -- PROGRAM...`
 * records it and with its messages, into a temporary file (apps/stat/stat_run.h). */

static int record_program(const struct stat_args *args, char **argv,
                          struct cleanup_file *temporary, char *trace, size_t size,
                          int *exit_status)
{
    char error[PATH_MAX + 2048];
    struct record_result result;
    struct cli_progress progress;
    cli_progress_start_recording(&progress);
    enum record_status recorded =
        stat_record_program(argv + args->program, args->record_cpu, args->model,
                            cli_progress_hook(&progress), temporary, trace, size, &result,
                            error, sizeof error);
    cli_progress_end(&progress);
    return record_outcome("stat", argv[args->program], recorded, &result, error, exit_status)
               ? 0
               : *exit_status;
}

/* ---- output */

struct stat_result {
    const char *model;        /* "p5", "host" or "msr" */
    const char *trace;        /* NULL when counted on hardware */
    const char *trace1;       /* logical processor 1's, or NULL */
    const struct stat_args *args;
    const uint64_t *counts;
    const struct alloc_plan *plan;
    const struct stat_totals *totals;
    enum stat_runs counted;   /* how the runs were counted (stat_runs_counted) */
    int passes;               /* passes of the trace (or runs of the program) made */
    const struct stat_intervals *intervals; /* -I's, or NULL */
    bool uops;                /* the model retires uops (the NetBurst): intervals say how many */
    enum pmu_kind pmu;        /* the PMU counted: which event a generic name counted */
};

/* Event e's name as given, and in `native` the event it counted when it
 * is a generic name (stat_events_generic), else "". */
static const char *event_name(const struct stat_result *r, int e, char *native, size_t size)
{
    if (!stat_events_generic(r->pmu, r->args->events[e], native, size))
        native[0] = '\0';
    return event_spec_key(r->args->events[e]);
}

/* The name the table prints: "cycles (global_power_events:RUNNING)" for a
 * generic name, the name alone otherwise. */
static void print_event_label(FILE *out, const struct stat_result *r, int e)
{
    char native[GENERIC_NATIVE_SIZE];
    const char *name = event_name(r, e, native, sizeof native);
    fprintf(out, native[0] ? "%s (%s)\n" : "%s\n", name, native);
}

/* -x's end of an event's line: its name, the two empty fields, and for a
 * generic name a sixth field, the event it counted. */
static void print_separated_name(FILE *out, const struct stat_result *r, int e)
{
    const char *sep = r->args->separator;
    char native[GENERIC_NATIVE_SIZE];
    fprintf(out, "%s%s%s", event_name(r, e, native, sizeof native), sep, sep);
    if (native[0])
        fprintf(out, "%s%s", sep, native);
    fprintf(out, "\n");
}

/* --json's "generic": {NAME: EVENT} for each generic name, the event it
 * counted; nothing when no name is generic. */
static void print_json_generic(FILE *out, const struct stat_result *r)
{
    int n = 0;
    for (int e = 0; e < r->args->n_events; e++) {
        char native[GENERIC_NATIVE_SIZE];
        const char *name = event_name(r, e, native, sizeof native);
        if (!native[0])
            continue;
        fprintf(out, n++ ? ", " : ", \"generic\": {");
        json_fprint_string(out, name);
        fprintf(out, ": ");
        json_fprint_string(out, native);
    }
    if (n)
        fprintf(out, "}");
}

/* --runs' names of the ways of counting. */
static const char *runs_name(enum stat_runs runs)
{
    return runs == STAT_RUNS_ONE ? "one" : "hardware";
}

/* --json's "interval" and "intervals" members (docs/stat.md, "Intervals"). */
static void print_json_intervals(FILE *out, const struct stat_result *r)
{
    const struct stat_intervals *s = r->intervals;
    fprintf(out, ", \"interval\": {\"unit\": \"%s\", \"every\": %llu}, \"intervals\": [",
            s->unit == INTERVAL_CYCLES ? "cycles" : "instructions",
            (unsigned long long)s->every);
    for (size_t i = 0; i < s->n; i++) {
        const struct stat_interval *v = &s->intervals[i];
        fprintf(out, "%s{\"end\": %llu, \"instructions\": %llu, \"cycles\": %llu", i ? ", " : "",
                (unsigned long long)v->end, (unsigned long long)v->instructions,
                (unsigned long long)v->cycles);
        if (r->uops)
            fprintf(out, ", \"uops\": %llu", (unsigned long long)v->uops);
        fprintf(out, ", \"counts\": {");
        for (int e = 0; e < r->args->n_events; e++) {
            fprintf(out, "%s", e ? ", " : "");
            json_fprint_string(out, event_spec_key(r->args->events[e]));
            fprintf(out, ": %llu", (unsigned long long)stat_interval_counts(s, i)[e]);
        }
        fprintf(out, "}}");
    }
    fprintf(out, "]");
}

static void print_json(FILE *out, const struct stat_result *r)
{
    fprintf(out, "{\"model\": ");
    json_fprint_string(out, r->model);
    fprintf(out, ", \"trace\": ");
    if (r->trace)
        json_fprint_string(out, r->trace);
    else
        fprintf(out, "null");
    if (r->trace1) {
        fprintf(out, ", \"trace_thread1\": ");
        json_fprint_string(out, r->trace1);
    }
    fprintf(out, ", \"runs\": %d, \"passes\": %d, \"counting\": \"%s\", \"counts\": {",
            r->plan->n_runs, r->passes, runs_name(r->counted));
    for (int i = 0; i < r->args->n_events; i++) {
        fprintf(out, "%s", i ? ", " : "");
        json_fprint_string(out, event_spec_key(r->args->events[i]));
        fprintf(out, ": %llu", (unsigned long long)r->counts[i]);
    }
    fprintf(out, "}");
    print_json_generic(out, r);
    if (r->intervals)
        print_json_intervals(out, r);
    fprintf(out, "}\n");
}

/* -x with -I: END SEP VALUE SEP SEP EVENT SEP SEP per event per interval,
 * the interval's end first as perf stat -I -x puts the time. */
static void print_separated_intervals(FILE *out, const struct stat_result *r)
{
    const char *sep = r->args->separator;
    const struct stat_intervals *s = r->intervals;
    for (size_t i = 0; i < s->n; i++)
        for (int e = 0; e < r->args->n_events; e++) {
            fprintf(out, "%llu%s%llu%s%s", (unsigned long long)s->intervals[i].end, sep,
                    (unsigned long long)stat_interval_counts(s, i)[e], sep, sep);
            print_separated_name(out, r, e);
        }
}

static void print_separated(FILE *out, const struct stat_result *r)
{
    const char *sep = r->args->separator;
    if (r->intervals) {
        print_separated_intervals(out, r);
        return;
    }
    for (int i = 0; i < r->args->n_events; i++) {
        fprintf(out, "%llu%s%s", (unsigned long long)r->counts[i], sep, sep);
        print_separated_name(out, r, i);
    }
}

/* The line saying how the runs were counted: in one pass, or a pass per
 * run as asked, or as the NetBurst model must (docs/stat.md, "One
 * pass"). */
static void print_passes(FILE *out, const struct stat_result *r)
{
    const char *what = r->passes == 1 ? "pass" : "passes";
    if (r->counted == STAT_RUNS_ONE)
        fprintf(out, " %20d      %s of the trace%s for every run (--runs one)\n", r->passes, what,
                r->trace1 ? "s" : "");
    else if (r->args->runs == STAT_RUNS_HARDWARE)
        fprintf(out, " %20d      %s of the trace%s, one per run (--runs hardware)\n", r->passes,
                what, r->trace1 ? "s" : "");
    else
        fprintf(out, " %20d      %s of the trace%s, one per run: a run samples or tags "
                     "(docs/stat.md, \"One pass\")\n",
                r->passes, what, r->trace1 ? "s" : "");
}

/* The intervals as perf stat -I prints them: a header, then a line per
 * event per interval, its end (instructions or cycles) first. */
static void print_table_intervals(FILE *out, const struct stat_result *r)
{
    const struct stat_intervals *s = r->intervals;
    fprintf(out, "# %19s %20s      event\n",
            s->unit == INTERVAL_CYCLES ? "cycles" : "instructions", "counts");
    for (size_t i = 0; i < s->n; i++)
        for (int e = 0; e < r->args->n_events; e++) {
            fprintf(out, " %20llu %20llu      ", (unsigned long long)s->intervals[i].end,
                    (unsigned long long)stat_interval_counts(s, i)[e]);
            print_event_label(out, r, e);
        }
}

static void print_table(FILE *out, const struct stat_result *r)
{
    if (r->intervals)
        print_table_intervals(out, r);
    char trace[4 * PATH_MAX], trace1[4 * PATH_MAX]; /* escaped (util/text.h) */
    text_escape(trace, sizeof trace, r->trace ? r->trace : "");
    text_escape(trace1, sizeof trace1, r->trace1 ? r->trace1 : "");
    if (r->trace1)
        fprintf(out, "\n Simulated %s counts for traces '%s' (thread 0) and '%s' (thread 1) (%d "
                     "run%s of the counters", r->model, trace, trace1, r->plan->n_runs,
                r->plan->n_runs == 1 ? "" : "s");
    else if (r->trace)
        fprintf(out, "\n Simulated %s counts for trace '%s' (%d run%s of the counters", r->model,
                trace, r->plan->n_runs, r->plan->n_runs == 1 ? "" : "s");
    else
        fprintf(out, "\n Hardware counts (%d run%s of the program", r->plan->n_runs,
                r->plan->n_runs == 1 ? "" : "s");
    if (r->args->region != REGION_WHOLE_TRACE)
        fprintf(out, ", region %ld", r->args->region);
    fprintf(out, "):\n\n");
    for (int i = 0; i < r->args->n_events; i++) {
        fprintf(out, " %20llu      ", (unsigned long long)r->counts[i]);
        print_event_label(out, r, i);
    }
    if (r->trace) {
        fprintf(out, "\n %20llu      instructions simulated per run\n",
                (unsigned long long)(r->totals->instructions[0] + r->totals->instructions[1]));
        if (r->trace1)
            fprintf(out, " %20llu      of thread 0, %llu of thread 1\n",
                    (unsigned long long)r->totals->instructions[0],
                    (unsigned long long)r->totals->instructions[1]);
        fprintf(out, " %20llu      clocks per run\n", (unsigned long long)r->totals->cycles);
        if (r->args->region != REGION_WHOLE_TRACE)
            fprintf(out, " %20llu      entries into region %ld\n",
                    (unsigned long long)r->totals->region_entries, r->args->region);
        print_passes(out, r);
    }
    fprintf(out, "\n");
}

/* -o's and --plot's files: opened before the run, so that a path that
 * cannot be written fails before anything is simulated or recorded;
 * committed after it, else removed. */
struct stat_outputs {
    struct atomic_file report; /* -o; its stream NULL: standard output */
    struct atomic_file plot;   /* --plot; its stream NULL: none */
};

static int outputs_open(const struct stat_args *args, struct stat_outputs *out)
{
    char error[MESSAGE_SIZE];
    if (args->output && !atomic_open(&out->report, args->output, error, sizeof error))
        return command_error(EXIT_RUNTIME, "stat", "%s", error);
    if (args->plot && !atomic_open(&out->plot, args->plot, error, sizeof error))
        return command_error(EXIT_RUNTIME, "stat", "%s", error);
    return 0;
}

static void outputs_abort(struct stat_outputs *out)
{
    atomic_abort(&out->report);
    atomic_abort(&out->plot);
}

/* Writes the report to -o's file or stdout, whole or not at all. */
static int write_result(const struct stat_result *r, struct atomic_file *file)
{
    char *text = NULL;
    size_t length = 0;
    FILE *mem = open_memstream(&text, &length);
    if (!mem)
        return command_error(EXIT_RUNTIME, "stat", "out of memory");
    if (r->args->json)
        print_json(mem, r);
    else if (r->args->separator)
        print_separated(mem, r);
    else
        print_table(mem, r);
    fclose(mem);
    char error[MESSAGE_SIZE];
    bool ok;
    if (file->stream) {
        fwrite(text, 1, length, file->stream);
        ok = atomic_commit(file, error, sizeof error);
    } else {
        ok = fwrite(text, 1, length, stdout) == length && fflush(stdout) == 0;
        if (!ok)
            snprintf(error, sizeof error, "standard output: %s", strerror(errno));
    }
    free(text);
    return ok ? EXIT_OK : command_error(EXIT_RUNTIME, "stat", "%s", error);
}

/* --plot's picture (docs/plot.md): the --json output read back by its one
 * reader (apps/compare/intervals.h) and drawn as `pmubench plot` draws it,
 * whole or not at all: one path, the same picture. */
static int write_plot(const struct stat_result *r, struct atomic_file *file)
{
    char *text = NULL;
    size_t size = 0;
    FILE *memory = open_memstream(&text, &size);
    if (memory)
        print_json(memory, r);
    bool ok = memory && fclose(memory) == 0;
    char error[MESSAGE_SIZE] = "out of memory";
    struct count_set set;
    struct interval_series series;
    ok = ok && stat_result_read_json(text, size, "-", &set, &series, error, sizeof error);
    free(text);
    if (!ok)
        return command_error(EXIT_RUNTIME, "stat", "%s", error);
    struct stat_plot plot = {&set, &series, r->args->plot_ipc};
    if (stat_plot_draw(file->stream, &plot))
        ok = atomic_commit(file, error, sizeof error);
    else
        snprintf(error, sizeof error, "out of memory");
    interval_series_free(&series);
    count_set_free(&set);
    return ok ? EXIT_OK : command_error(EXIT_RUNTIME, "stat", "%s", error);
}

/* ---- the two ways of counting */

/* After the counts, one warning line on stderr per trace (`names`, by
 * logical processor) whose instructions the model gave, for want of a
 * timing row, the default clocks; the counts are those of one run, which
 * every pass of the trace repeats (docs/stat.md, "Instructions without a
 * timing row"). */
static void warn_unclassified(const struct machine_config *model, const struct stat_totals *totals,
                              const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (totals->unclassified[i])
            command_error(EXIT_OK, "stat",
                          "warning: %s: %llu of %llu instructions have no timing row (%s); they "
                          "were given the default clocks",
                          names[i], (unsigned long long)totals->unclassified[i],
                          (unsigned long long)totals->instructions[i],
                          machine_caps(model).timings);
}

/* The instructions each simulated trace ran that the CPU it was recorded
 * for lacks (docs/stat.md, "Instructions the CPU lacks"): found after the
 * run, before a recorded trace is removed; warned about after the counts,
 * one line per trace that ran any. */
struct lacking_check {
    int n;
    struct stat_features features[2];
    bool checked[2];
    char error[2][MESSAGE_SIZE];
};

static void check_lacking(const char *const *traces, int n, struct lacking_check *c)
{
    c->n = n;
    for (int i = 0; i < n; i++)
        c->checked[i] =
            stat_features_count(traces[i], &c->features[i], c->error[i], sizeof c->error[i]);
}

static void warn_lacking(const struct lacking_check *c, const char *const *names)
{
    for (int i = 0; i < c->n; i++) {
        const struct stat_features *f = &c->features[i];
        if (!c->checked[i])
            command_error(EXIT_OK, "stat", "warning: %s: not checked for instructions its CPU "
                          "lacks: %s", names[i], c->error[i]);
        else if (f->lacking)
            command_error(EXIT_OK, "stat",
                          "warning: %s: %llu of %llu instructions need features the CPU it was "
                          "recorded for (%s) lacks, first at 0x%llx (%s: %s); they were "
                          "simulated as the model times them (docs/stat.md, \"Instructions "
                          "the CPU lacks\")",
                          names[i], (unsigned long long)f->lacking,
                          (unsigned long long)f->instructions, f->cpu,
                          (unsigned long long)f->first_address, f->first_mnemonic,
                          x86_feature_name(f->first_feature));
    }
}

/* --pipeview's file and writer (docs/pipeview.md): opened before the run,
 * committed after it, else removed. */
struct pipeview_output {
    struct atomic_file file;
    struct nbm_pipeview *view;   /* NULL: none, or done */
};

static int pipeview_open(const struct stat_args *args, struct pipeview_output *out)
{
    char error[MESSAGE_SIZE];
    out->view = NULL;
    if (!args->pipeview)
        return 0;
    if (!atomic_open(&out->file, args->pipeview, error, sizeof error))
        return command_error(EXIT_RUNTIME, "stat", "%s", error);
    out->view = nbm_pipeview_create(out->file.stream, args->pipeview_range ? args->pipeview_first : 1,
                                    args->pipeview_range ? args->pipeview_last : UINT64_MAX,
                                    args->n_traces == 2 ? 2 : 1);
    if (out->view)
        return 0;
    atomic_abort(&out->file);
    return command_error(EXIT_RUNTIME, "stat", "out of memory");
}

static bool pipeview_commit(struct pipeview_output *out, char *error, size_t error_size)
{
    if (!out->view)
        return true;
    nbm_pipeview_destroy(out->view);
    out->view = NULL;
    return atomic_commit(&out->file, error, error_size);
}

static void pipeview_abort(struct pipeview_output *out)
{
    if (!out->view)
        return;
    nbm_pipeview_destroy(out->view);
    out->view = NULL;
    atomic_abort(&out->file);
}

static int count_simulated(const struct stat_args *args, const struct machine_config *model,
                           char **argv, const struct alloc_plan *plan, uint64_t *counts,
                           struct pipeview_output *view, struct stat_outputs *outputs)
{
    int rc;
    char recorded[PATH_MAX];
    struct cleanup_file temporary; /* the trace recorded, removed by a signal too */
    int exit_status = 0;
    const char *traces[2] = {args->traces[0], args->traces[1]};
    int n_traces = args->n_traces;
    if (!n_traces) {
        if ((rc = record_program(args, argv, &temporary, recorded, sizeof recorded,
                                 &exit_status)))
            return rc;
        traces[0] = recorded;
        n_traces = 1;
    }
    char error[MESSAGE_SIZE];
    for (int i = 0; i < n_traces; i++)
        if (machine_isa_warning(model, traces[i], args->n_traces ? traces[i] : argv[args->program],
                                   error, sizeof error))
            command_error(EXIT_OK, "stat", "warning: %s", error);
    struct stat_totals totals = {{0, 0}, 0, 0, {0, 0}, 0, 0};
    errno = 0;
    struct cli_progress progress;
    cli_progress_start(&progress, "stat", traces, n_traces);
    struct stat_intervals intervals = {.unit = args->unit, .every = args->every};
    struct stat_hooks hooks = {.progress = cli_progress_hook(&progress),
                               .intervals = args->intervals ? &intervals : NULL,
                               .pipeview = view->view};
    bool ok = stat_simulate(traces, n_traces, model, plan, args->runs, args->region, &hooks,
                            counts, &totals, error, sizeof error);
    int failure = failure_status(errno);
    if (ok && !pipeview_commit(view, error, sizeof error)) {
        ok = false;
        failure = EXIT_RUNTIME;
    }
    cli_progress_end(&progress);
    struct lacking_check lacking = {.n = 0};
    if (ok)
        check_lacking(traces, n_traces, &lacking);
    if (!args->n_traces)
        cleanup_remove_file(&temporary);
    if (!ok) {
        stat_intervals_free(&intervals);
        return command_error(failure, "stat", "%s", error);
    }
    struct stat_result report = {args->model,
                                 args->n_traces ? args->traces[0] : argv[args->program],
                                 args->n_traces == 2 ? args->traces[1] : NULL,
                                 args, counts, plan, &totals,
                                 stat_runs_counted(model, plan, args->runs), totals.passes,
                                 hooks.intervals, machine_caps(model).uops,
                                 machine_caps(model).pmu};
    rc = write_result(&report, &outputs->report);
    if (!rc && args->plot)
        rc = write_plot(&report, &outputs->plot);
    stat_intervals_free(&intervals);
    if (!rc) {
        const char *names[2] = {args->n_traces ? traces[0] : argv[args->program], traces[1]};
        warn_unclassified(model, &totals, names, n_traces);
        warn_lacking(&lacking, names);
    }
    return rc ? rc : exit_status;
}

static int count_hardware(const struct stat_args *args, const struct machine_config *model,
                          char **argv, const struct alloc_plan *plan, uint64_t *counts,
                          struct stat_outputs *outputs)
{
    struct msr_backend *backend = msr_linux_open(args->device, machine_caps(model).pmu);
    if (!backend)
        return command_error(EXIT_RUNTIME, "stat", "%s: %s", args->device, strerror(errno));
    char error[MESSAGE_SIZE];
    int exit_status = 0;
    errno = 0;
    bool ok = stat_measure_program(backend, args->cpu, plan, argv + args->program, counts,
                                   &exit_status, error, sizeof error);
    int failure = failure_status(errno); /* 1: the device, the backend's refusal; 2: PROGRAM */
    msr_backend_destroy(backend);
    if (!ok)
        return command_error(failure, "stat", "--backend msr: %s", error);
    struct stat_totals none = {{0, 0}, 0, 0, {0, 0}, 0, 0};
    struct stat_result report = {"msr", NULL, NULL, args, counts, plan, &none,
                                 STAT_RUNS_HARDWARE, plan->n_runs, NULL, false,
                                 machine_caps(model).pmu};
    int rc = write_result(&report, &outputs->report);
    return rc ? rc : exit_status;
}

int cmd_stat(int argc, char **argv)
{
    struct stat_args args;
    int rc = parse_args(argc, argv, &args);
    if (rc)
        return rc < 0 ? 0 : rc;
    if ((rc = check_args(&args)) || (rc = check_files(&args, argv)))
        return rc;
    struct machine_config model;
    if ((rc = configure_model(&args, &model)))
        return rc;
    if (args.n_events == 0)
        for (const char *const *e = machine_default_events(&model); *e; e++)
            args.events[args.n_events++] = *e;
    if (args.n_traces == 2 && !machine_caps(&model).hyper_threading)
        return usage_error("stat", "two --trace need the NetBurst model (-m netburst...): the "
                           "P5 has one processor");
    if (args.pipeview && !machine_caps(&model).uops)
        return usage_error("stat", "--pipeview needs the NetBurst model (-m netburst...): the "
                           "P5 model times instructions, not uops");
    struct alloc_plan plan;
    if ((rc = plan_events(&args, &model, &plan)))
        return rc;
    uint64_t counts[MAX_EVENTS] = {0};
    struct pipeview_output view = {.view = NULL};
    struct stat_outputs outputs = {.report.stream = NULL, .plot.stream = NULL};
    if (!(rc = outputs_open(&args, &outputs)) && !(rc = pipeview_open(&args, &view)))
        rc = args.hardware ? count_hardware(&args, &model, argv, &plan, counts, &outputs)
                           : count_simulated(&args, &model, argv, &plan, counts, &view, &outputs);
    pipeview_abort(&view);
    outputs_abort(&outputs);
    alloc_plan_free(&plan);
    return rc;
}
