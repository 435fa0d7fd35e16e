/* pmubench alloc [--model N] [--ht on|off] [--json] EVENT... | --exp FILE */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cpu_option.h"
#include "exit_status.h"
#include "util/json.h"
#include "option_once.h"
#include "pmu/programming/alloc.h"
#include "pmu/programming/experiment.h"
#include "pmu/catalog/netburst_msrs.h"
#include "util/input_file.h"

static const char alloc_usage[] =
    "usage: pmubench alloc [--model N] [--ht on|off] [--json] EVENT... | --exp FILE\n"
    "  assigns each event an ESCR and a counter so that they count together, and\n"
    "  splits them into the fewest runs when they cannot (docs/alloc.md); the\n"
    "  NetBurst is model 3 when an event is netburst_p::, else model 2 (--model)\n"
    "  --exp FILE   one event string per line, '#' comments; a blank line\n"
    "               separates experiments, whose events stay in one run\n"
    "  --json       machine-readable output\n";

/* The options of 'pmubench alloc' (cli/option_table.h); --help and -h besides. */
static const struct cli_option alloc_option_list[] = {
    {"--model", true}, {"--ht", true}, {"--json", false}, {"--exp", true}, {NULL, false}
};
const struct option_table alloc_option_table = {alloc_option_list, true};

struct alloc_args {
    struct nb_pmu_config config;
    bool json;
    const char *exp;
    int first_event;  /* argv index, or argc when none */
};

static int read_experiments(struct experiment_set *in, struct nb_pmu_config *config,
                            const char *path)
{
    char error[MESSAGE_SIZE];
    FILE *file = input_open(path, error, sizeof error);
    if (!file)
        return file_error(failure_status(errno), "%s", error);
    errno = 0;
    bool ok = experiment_read(in, file, path, config, error, sizeof error);
    fclose(file);
    return ok ? EXIT_OK : file_error(failure_status(errno), "%s", error);
}

/* Events on the command line: a message about one names its string. */
static int read_arguments(struct experiment_set *in, struct alloc_args *args, int argc,
                          char **argv)
{
    char error[MESSAGE_SIZE];
    args->config.model = event_spec_cpuid_model(args->config.model,
                                                (const char *const *)argv + args->first_event,
                                                argc - args->first_event);
    for (int i = args->first_event; i < argc; i++)
        if (!experiment_add(in, &args->config, argv[i], ALLOC_NO_GROUP, 0, error, sizeof error))
            return command_error(EXIT_BAD_INPUT, "alloc", "%s", error);
    return EXIT_OK;
}

/* ---- Text output */

static void print_msr(const char *label, const struct alloc_msr *msr)
{
    printf("    %-9s %s (0x%x) = 0x%016llx\n", label, msr->name, msr->msr,
           (unsigned long long)msr->value);
}

static void print_assignment(const struct alloc_run *run, const struct alloc_assignment *a)
{
    struct alloc_counter_msrs msrs;
    alloc_counter_msrs(run, a, &msrs);
    printf("    counter   %s (0x%x)", msrs.counter_name, msrs.counter_msr);
    if (msrs.numbered)
        printf(", counter %d", a->counter);
    printf("\n");
    if (!msrs.escr_shared)
        print_msr("ESCR", &msrs.escr);
    if (msrs.has_cccr)
        print_msr("CCCR", &msrs.cccr);
    for (int u = 0; u < msrs.n_upstreams; u++)
        print_msr("upstream", &msrs.upstream[u]);
}

static void print_text(const struct alloc_plan *plan, const struct experiment_set *in)
{
    if (!plan->minimal)
        printf("note: the search stopped after %d steps; %d runs, not proven the fewest\n",
               ALLOC_SEARCH_STEPS, plan->n_runs);
    for (int r = 0; r < plan->n_runs; r++) {
        const struct alloc_run *run = &plan->runs[r];
        printf("run %d of %d: %d event%s\n", r + 1, plan->n_runs, run->n, run->n == 1 ? "" : "s");
        for (int i = 0; i < run->n; i++) {
            printf("  %s\n", in->text[run->assignments[i].request]);
            print_assignment(run, &run->assignments[i]);
        }
        struct alloc_run_msrs msrs;
        alloc_run_msrs(run, &msrs);
        for (int m = 0; m < msrs.n; m++)
            printf("  %s (0x%x) = 0x%016llx\n", msrs.msrs[m].name, msrs.msrs[m].msr,
                   (unsigned long long)msrs.msrs[m].value);
    }
}

/* ---- JSON output */

static void print_json_msrs(const struct alloc_msr *msrs, int n)
{
    printf("\"extra_msrs\": {");
    for (int m = 0; m < n; m++)
        printf("%s\"0x%x\": \"0x%llx\"", m ? ", " : "", msrs[m].msr,
               (unsigned long long)msrs[m].value);
    printf("}");
}

static void print_json_assignment(const struct alloc_run *run, const struct alloc_assignment *a,
                                  const struct experiment_set *in)
{
    struct alloc_counter_msrs msrs;
    alloc_counter_msrs(run, a, &msrs);
    printf("{\"event\": ");
    json_print_string(in->text[a->request]);
    printf(", \"counter\": %d, \"counter_name\": \"%s\", \"counter_msr\": \"0x%x\", "
           "\"escr_name\": \"%s\", \"escr_msr\": \"0x%x\", \"escr\": \"0x%llx\", ",
           a->counter, msrs.counter_name, msrs.counter_msr, msrs.escr.name, msrs.escr.msr,
           (unsigned long long)msrs.escr.value);
    if (msrs.has_cccr)
        printf("\"cccr_msr\": \"0x%x\", \"cccr\": \"0x%llx\", ", msrs.cccr.msr,
               (unsigned long long)msrs.cccr.value);
    print_json_msrs(msrs.upstream, msrs.n_upstreams);
    printf("}");
}

static void print_json(const struct alloc_plan *plan, const struct experiment_set *in,
                       const struct nb_pmu_config *config)
{
    struct alloc_run_msrs first;
    alloc_run_msrs(&plan->runs[0], &first);
    printf("{\"pmu\": \"%s\", ", first.pmu);
    if (first.cpuid_model)
        printf("\"model\": %d, \"ht\": %s, ", config->model, config->ht ? "true" : "false");
    printf("\"minimal\": %s, \"runs\": [", plan->minimal ? "true" : "false");
    for (int r = 0; r < plan->n_runs; r++) {
        const struct alloc_run *run = &plan->runs[r];
        printf("%s{\"events\": [", r ? ",\n " : "");
        for (int i = 0; i < run->n; i++) {
            printf(i ? ",\n   " : "");
            print_json_assignment(run, &run->assignments[i], in);
        }
        printf("], ");
        struct alloc_run_msrs msrs;
        alloc_run_msrs(run, &msrs);
        print_json_msrs(msrs.msrs, msrs.n);
        printf("}");
    }
    printf("]}\n");
}

/* ---- Arguments */

static int parse_args(int argc, char **argv, struct alloc_args *args)
{
    int i = 1;
    struct options_given given = {0};
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        if (!option_once(&given, "alloc", argv[i]))
            return EXIT_BAD_INPUT;
        int taken = cpu_option("alloc", argc, argv, &i, &args->config);
        if (taken < 0)
            return EXIT_BAD_INPUT;
        if (taken)
            continue;
        if (strcmp(argv[i], "--json") == 0) {
            args->json = true;
        } else if (strcmp(argv[i], "--exp") == 0) {
            if (++i == argc)
                return usage_error("alloc", "--exp needs a value");
            args->exp = argv[i];
        } else if (strcmp(argv[i], "--help") == 0) {
            fputs(alloc_usage, stdout);
            return -1;
        } else {
            return option_table_unknown(&alloc_option_table, "alloc", argv[i]);
        }
    }
    args->first_event = i;
    if (args->exp && i < argc)
        return usage_error("alloc", "give events or --exp FILE, not both");
    if (!args->exp && i == argc)
        return usage_error("alloc", "no event given");
    return EXIT_OK;
}

static int plan_and_print(const struct experiment_set *in, const struct alloc_args *args)
{
    struct alloc_plan plan;
    struct alloc_error error;
    errno = 0;
    if (!alloc_plan_make(in->requests, in->n, &args->config, &plan, &error)) {
        int request = error.request;
        if (request < 0) /* too many events, or out of memory */
            return command_error(failure_status(errno), "alloc", "%s", error.message);
        if (in->line[request])
            return file_error(EXIT_BAD_INPUT, "%s:%d: %s", args->exp, in->line[request],
                              error.message);
        return command_error(EXIT_BAD_INPUT, "alloc", "%s: %s", in->text[request],
                             error.message);
    }
    if (args->json)
        print_json(&plan, in, &args->config);
    else
        print_text(&plan, in);
    alloc_plan_free(&plan);
    return 0;
}

int cmd_alloc(int argc, char **argv)
{
    struct alloc_args args = {.config = NB_CONFIG_DEFAULT};
    int rc = parse_args(argc, argv, &args);
    if (rc)
        return rc < 0 ? 0 : rc;
    struct experiment_set *in = calloc(1, sizeof *in);
    if (!in)
        return command_error(EXIT_RUNTIME, "alloc", "out of memory");
    rc = args.exp ? read_experiments(in, &args.config, args.exp)
                  : read_arguments(in, &args, argc, argv);
    if (rc == 0)
        rc = plan_and_print(in, &args);
    free(in);
    return rc;
}
