/* pmubench decode: raw register values to fields, events and a verdict. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cpu_option.h"
#include "exit_status.h"
#include "option_once.h"
#include "pmu/catalog/explain.h"
#include "pmu/catalog/event_spec.h"
#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/catalog/netburst_metrics.h"
#include "util/number.h"
#include "pmu/catalog/p5_events.h"
#include "pmu/catalog/p5_msrs.h"
#include "pmu/catalog/perfex.h"

static const char decode_usage[] =
    "usage: pmubench decode [--model N] [--ht on|off] [--strict]\n"
    "         [--escr V [--escr-msr A]] [--cccr V [--counter N]]\n"
    "         [--pebs-enable V] [--matrix-vert V] [0xCCCR/0xESCR@0xPMC]\n"
    "       pmubench decode --cesr V\n"
    "  prints every field, the event and sub-events selected, and a verdict;\n"
    "  exit status 0 when valid, 1 when not (warnings count only with --strict)\n";

/* The options of 'pmubench decode' (cli/option_table.h); --help and -h besides. */
static const struct cli_option decode_option_list[] = {
    {"--model", true}, {"--ht", true}, {"--strict", false}, {"--escr", true},
    {"--escr-msr", true}, {"--cccr", true}, {"--counter", true}, {"--pebs-enable", true},
    {"--matrix-vert", true}, {"--cesr", true}, {NULL, false}
};
const struct option_table decode_option_table = {decode_option_list, false};

struct decode_args {
    struct nb_pmu_config config;
    struct nb_explain_input in;
    bool strict, has_cesr;
    uint64_t cesr;
};

/* The value of `option`, from 0 to `max`; false with the message printed. */
static bool value_arg(const char *option, const char *text, uint64_t max, uint64_t *value)
{
    char error[MESSAGE_SIZE];
    if (number_read(option, text, 0, max, value, error, sizeof error))
        return true;
    usage_error("decode", "%s", error);
    return false;
}

static int bad_value(const char *option, const char *value, const char *expected)
{
    return usage_error("decode", "bad %s '%s' (expected %s)", option, value, expected);
}

/* perfex's "-e CCCR/ESCR@PMC" (pmu/catalog/perfex.h). */
static int perfex_spec(const char *text, struct nb_explain_input *in)
{
    struct perfex_spec spec;
    enum perfex_spec_status status = perfex_spec_parse(text, &spec);
    if (status == PERFEX_SPEC_SYNTAX)
        return bad_value("perfex spec", text, "0xCCCR/0xESCR@0xPMC");
    if (in->has_cccr || in->has_escr)
        return usage_error("decode", "one perfex spec (or --escr/--cccr) at a time; run decode "
                           "once per -e argument");
    if (status == PERFEX_SPEC_VALUE)
        return bad_value("perfex spec", text, "0xCCCR/0xESCR@0xPMC with a counter of 0-17");
    in->cccr = spec.cccr;
    in->escr = spec.escr;
    in->has_cccr = in->has_escr = true;
    in->counter = spec.counter;
    return 0;
}

static int escr_msr_arg(const char *text, struct nb_explain_input *in)
{
    uint64_t msr;
    if (!number_parse(text, 0, UINT64_MAX, &msr))
        msr = nb_msr_by_name(text);
    in->escr_index = msr <= 0xffffffffu ? nb_escr_index((uint32_t)msr) : -1;
    if (in->escr_index < 0)
        return bad_value("--escr-msr", text, "an ESCR address 0x3a0-0x3e1 or name");
    return 0;
}

static int value_option(const char *option, const char *value, struct decode_args *a)
{
    const struct {
        const char *name;
        uint64_t *value;
        bool *given;
    } values[] = {
        {"--escr", &a->in.escr, &a->in.has_escr},
        {"--cccr", &a->in.cccr, &a->in.has_cccr},
        {"--pebs-enable", &a->in.pebs_enable, &a->in.has_pebs_enable},
        {"--matrix-vert", &a->in.matrix_vert, &a->in.has_matrix_vert},
        {"--cesr", &a->cesr, &a->has_cesr},
    };
    if (strcmp(option, "--escr-msr") == 0)
        return escr_msr_arg(value, &a->in);
    if (strcmp(option, "--counter") == 0) {
        uint64_t counter;
        if (!value_arg(option, value, NB_NUM_COUNTERS - 1, &counter))
            return EXIT_BAD_INPUT;
        a->in.counter = (int)counter;
        return 0;
    }
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        if (strcmp(option, values[i].name) == 0) {
            if (!value_arg(option, value, UINT64_MAX, values[i].value))
                return EXIT_BAD_INPUT;
            *values[i].given = true;
            return 0;
        }
    return option_table_unknown(&decode_option_table, "decode", option);
}

static int parse_args(int argc, char **argv, struct decode_args *a)
{
    struct options_given given = {0};
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && !option_once(&given, "decode", argv[i]))
            return EXIT_BAD_INPUT;
        int taken = cpu_option("decode", argc, argv, &i, &a->config);
        if (taken < 0)
            return EXIT_BAD_INPUT;
        if (taken)
            continue;
        int rc = 0;
        if (strcmp(argv[i], "--help") == 0) {
            fputs(decode_usage, stdout);
            return -1;
        } else if (strcmp(argv[i], "--strict") == 0) {
            a->strict = true;
        } else if (argv[i][0] != '-') {
            rc = perfex_spec(argv[i], &a->in);
        } else if (i + 1 == argc) {
            rc = usage_error("decode", "%s needs a value", argv[i]);
        } else {
            rc = value_option(argv[i], argv[i + 1], a);
            i++;
        }
        if (rc)
            return rc;
    }
    const struct nb_explain_input *in = &a->in;
    bool netburst = in->has_escr || in->has_cccr || in->has_pebs_enable || in->has_matrix_vert;
    if (netburst == a->has_cesr)
        return usage_error("decode", "give NetBurst values (--escr, --cccr, --pebs-enable, "
                           "--matrix-vert, a perfex spec) or --cesr%s",
                           netburst ? ", not both" : "");
    return 0;
}

/* ---- printing the fields */

static void print_escr(const struct nb_explain_input *in, int escr)
{
    uint64_t v = in->escr;
    printf("ESCR 0x%016llx", (unsigned long long)v);
    if (escr >= 0)
        printf(" (%s, 0x%x)", nb_escrs[escr].name, nb_escrs[escr].msr);
    printf("\n  event select 0x%02x", escr_event_select(v));
    int event = escr >= 0 ? nb_event_on_escr(escr, escr_event_select(v)) : -1;
    if (event >= 0)
        printf("  %s", nb_event_table[event].name);
    for (int i = 0; escr < 0 && i < NB_NUM_EVENTS; i++)
        if (nb_event_table[i].select == escr_event_select(v))
            printf("  %s?", nb_event_table[i].name);
    printf("\n  event mask   0x%04x", escr_event_mask(v));
    for (int s = 0; event >= 0 && s < nb_event_table[event].n_subevents; s++)
        if (escr_event_mask(v) & (1u << nb_event_table[event].subevents[s].bit))
            printf("  %s", nb_event_table[event].subevents[s].name);
    printf("\n  tag value %u  tag enable %d\n", escr_tag_value(v), (v & ESCR_TAG_ENABLE) != 0);
    printf("  T0_OS %d  T0_USR %d  T1_OS %d  T1_USR %d\n", (v & ESCR_T0_OS) != 0,
           (v & ESCR_T0_USR) != 0, (v & ESCR_T1_OS) != 0, (v & ESCR_T1_USR) != 0);
}

static void print_cccr(const struct nb_explain_input *in, int escr)
{
    static const char *const active[] = {"none", "single", "both", "any"};
    uint64_t v = in->cccr;
    printf("CCCR 0x%016llx", (unsigned long long)v);
    if (in->counter >= 0)
        printf(" (%s, counter %d)", nb_cccr_name(in->counter), in->counter);
    printf("\n  ENABLE %d  ESCR select %u", (v & CCCR_ENABLE) != 0, cccr_escr_select(v));
    if (in->counter >= 0)
        printf(" (%s)", escr >= 0 ? nb_escrs[escr].name : "no ESCR");
    printf("  ACTIVE_THREAD %u%u (%s)\n", cccr_active_thread(v) >> 1, cccr_active_thread(v) & 1,
           active[cccr_active_thread(v)]);
    printf("  COMPARE %d  COMPLEMENT %d  THRESHOLD %u  EDGE %d\n", (v & CCCR_COMPARE) != 0,
           (v & CCCR_COMPLEMENT) != 0, cccr_threshold(v), (v & CCCR_EDGE) != 0);
    printf("  FORCE_OVF %d  OVF_PMI_T0 %d  OVF_PMI_T1 %d  CASCADE %d  OVF %d  "
           "extended cascade (bit 11) %d\n",
           (v & CCCR_FORCE_OVF) != 0, (v & CCCR_OVF_PMI_T0) != 0, (v & CCCR_OVF_PMI_T1) != 0,
           (v & CCCR_CASCADE) != 0, (v & CCCR_OVF) != 0, (v & CCCR_EXTENDED_CASCADE) != 0);
}

static void print_pebs(const struct nb_explain_input *in)
{
    if (in->has_pebs_enable)
        printf("IA32_PEBS_ENABLE 0x%016llx\n  metric bits 0x%05llx  UOP_TAG (24) %d  "
               "ENABLE_PEBS (25) %d\n",
               (unsigned long long)in->pebs_enable,
               (unsigned long long)(in->pebs_enable & 0x1ffff),
               (in->pebs_enable & PEBS_ENABLE_UOP_TAG) != 0,
               (in->pebs_enable & PEBS_ENABLE_PEBS) != 0);
    if (in->has_matrix_vert)
        printf("MSR_PEBS_MATRIX_VERT 0x%016llx\n", (unsigned long long)in->matrix_vert);
}

static void print_cesr(uint64_t cesr)
{
    static const char *const modes[] = {"disabled", "events at CPL 0-2", "events at CPL 3",
                                        "events at any CPL", "disabled", "clocks at CPL 0-2",
                                        "clocks at CPL 3", "clocks at any CPL"};
    printf("CESR 0x%016llx\n", (unsigned long long)cesr);
    for (int c = 0; c < 2; c++) {
        unsigned code = p5_cesr_event(cesr, c), control = p5_cesr_control(cesr, c);
        const struct p5_event *event = p5_event_by_code(code);
        printf("  ES%d 0x%02x %s  CC%d %u%u%u (%s)  PC%d %u\n", c, code,
               event ? event->name : "(undefined)", c, control >> 2, (control >> 1) & 1,
               control & 1, modes[control], c, p5_cesr_pin(cesr, c));
    }
}

static int verdict(const struct explain_problems *report, bool strict)
{
    int errors = 0, warnings = 0;
    for (int i = 0; i < report->n; i++)
        report->problems[i].error ? errors++ : warnings++;
    if (!errors && !warnings)
        printf("verdict: valid\n");
    else
        printf("verdict: %s (%d error%s, %d warning%s)\n",
               errors || (strict && warnings) ? "invalid" : "valid with warnings", errors,
               errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
    for (int i = 0; i < report->n; i++)
        printf("  %s: %s\n", report->problems[i].error ? "error" : "warning",
               report->problems[i].text);
    return errors || (strict && warnings) ? 1 : 0;
}

int cmd_decode(int argc, char **argv)
{
    struct decode_args a = {.config = NB_CONFIG_DEFAULT, .in = {.escr_index = -1, .counter = -1}};
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    a.config.model = event_spec_cpuid_model(a.config.model, NULL, 0); /* no event strings */
    struct explain_problems report;
    if (a.has_cesr) {
        print_cesr(a.cesr);
        p5_explain_check(a.cesr, &report);
        return verdict(&report, a.strict);
    }
    int escr = nb_explain_escr(&a.in, &a.config);
    if (a.in.has_escr)
        print_escr(&a.in, escr);
    if (a.in.has_cccr)
        print_cccr(&a.in, escr);
    print_pebs(&a.in);
    nb_explain_check(&a.in, &a.config, &report);
    return verdict(&report, a.strict);
}
