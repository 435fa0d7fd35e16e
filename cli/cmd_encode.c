/* pmubench encode [--model N] [--ht on|off] [--perfex | --json] EVENT... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cpu_option.h"
#include "exit_status.h"
#include "util/json.h"
#include "option_once.h"
#include "pmu/catalog/event_spec.h"
#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/catalog/perfex.h"

static const char encode_usage[] =
    "usage: pmubench encode [--model N] [--ht on|off] [--perfex | --json] EVENT...\n"
    "  prints the ESCR and CCCR values (and any extra MSRs) for each event string,\n"
    "  e.g. netburst::branch_retired:MMTP:u=1:t0, netburst::1stL_cache_load_miss_retired,\n"
    "  p5::data_read_miss:u; --model/--ht describe the NetBurst (default: HT on, model 3\n"
    "  when a string is netburst_p::, else model 2)\n";

/* The options of 'pmubench encode' (cli/option_table.h); --help and -h besides. */
static const struct cli_option encode_option_list[] = {
    {"--model", true}, {"--ht", true}, {"--perfex", false}, {"--json", false}, {NULL, false}
};
const struct option_table encode_option_table = {encode_option_list, true};

enum format { TEXT, PERFEX, JSON };

static int first_bit(uint64_t set)
{
    for (int i = 0; i < 64; i++)
        if (set & (1ull << i))
            return i;
    return -1;
}

/* ---- text */

static void print_escr_choices(uint64_t escrs, uint64_t value, const char *what)
{
    int first = first_bit(escrs);
    printf("  %-9s %s (0x%x) = 0x%016llx", what, nb_escrs[first].name, nb_escrs[first].msr,
           (unsigned long long)value);
    for (int e = first + 1; e < NB_NUM_ESCRS; e++)
        if (escrs & (1ull << e))
            printf(", or %s (0x%x)", nb_escrs[e].name, nb_escrs[e].msr);
    printf("\n");
}

static void print_counters(const struct nb_encoding *enc)
{
    printf("  counters ");
    for (int e = 0; e < NB_NUM_ESCRS; e++) {
        uint32_t through = nb_escrs[e].counters & enc->counters;
        if (!(enc->escrs & (1ull << e)) || !through)
            continue;
        for (int c = 0; c < NB_NUM_COUNTERS; c++)
            if (through & (1u << c))
                printf(" %d", c);
        printf(" (%s);", nb_escrs[e].name + 4);
    }
    printf("\n");
}

static void print_netburst_text(const struct nb_event_spec *spec, const struct nb_encoding *enc)
{
    const struct nb_event_info *event = &nb_event_table[spec->event];
    printf("  event     %s (select 0x%02x), mask 0x%04x\n", event->name, event->select,
           (unsigned)((enc->escr >> 9) & 0xffff));
    print_escr_choices(enc->escrs, enc->escr, "ESCR");
    printf("  CCCR      0x%016llx\n", (unsigned long long)enc->cccr);
    print_counters(enc);
    for (int u = 0; u < enc->n_upstreams; u++) {
        printf("  upstream %s:\n", nb_event_table[enc->upstream[u].event].name);
        print_escr_choices(enc->upstream[u].escrs, enc->upstream[u].escr, "ESCR");
    }
    if (enc->replay) {
        printf("  IA32_PEBS_ENABLE (0x%x) = 0x%016llx\n", MSR_IA32_PEBS_ENABLE,
               (unsigned long long)enc->pebs_enable);
        printf("  MSR_PEBS_MATRIX_VERT (0x%x) = 0x%016llx\n", MSR_PEBS_MATRIX_VERT,
               (unsigned long long)enc->matrix_vert);
    }
}

/* ---- perfex: -e CCCR/ESCR@PMC (pmu/catalog/perfex.h) */

static void print_netburst_perfex(const struct nb_encoding *enc)
{
    int counting = first_bit(enc->counters);
    char text[PERFEX_SPEC_SIZE];
    perfex_spec_format(&(struct perfex_spec){enc->cccr, enc->escr, counting}, text);
    printf("-e %s", text);
    /* perfex programs an ESCR only through a counter: each upstream gets
     * the first other counter of its ESCR, plainly enabled. */
    for (int u = 0; u < enc->n_upstreams; u++) {
        int escr = first_bit(enc->upstream[u].escrs);
        int counter = first_bit(nb_escrs[escr].counters & ~(1u << counting));
        perfex_spec_format(
            &(struct perfex_spec){perfex_upstream_cccr(escr), enc->upstream[u].escr, counter},
            text);
        printf(" -e %s", text);
    }
    if (enc->replay)
        printf(" --p4pe=0x%llX --p4pmv=0x%llX", (unsigned long long)enc->pebs_enable,
               (unsigned long long)enc->matrix_vert);
    printf("\n");
}

/* ---- JSON */

static void json_counters(uint32_t counters)
{
    printf("\"counters\": [");
    for (int c = 0, n = 0; c < 32; c++)
        if (counters & (1u << c))
            printf("%s%d", n++ ? ", " : "", c);
    printf("]");
}

static void print_netburst_json(const char *text, const struct nb_encoding *enc)
{
    int escr = first_bit(enc->escrs);
    printf("{\"event\": ");
    json_print_string(text);
    printf(", \"escr_name\": \"%s\", \"escr_msr\": \"0x%x\", \"escr\": \"0x%llx\", "
           "\"cccr\": \"0x%llx\", ",
           nb_escrs[escr].name, nb_escrs[escr].msr, (unsigned long long)enc->escr,
           (unsigned long long)enc->cccr);
    json_counters(enc->counters);
    printf(", \"extra_msrs\": {");
    const char *sep = "";
    for (int u = 0; u < enc->n_upstreams; u++, sep = ", ")
        printf("%s\"0x%x\": \"0x%llx\"", sep, nb_escrs[first_bit(enc->upstream[u].escrs)].msr,
               (unsigned long long)enc->upstream[u].escr);
    if (enc->replay)
        printf("%s\"0x%x\": \"0x%llx\", \"0x%x\": \"0x%llx\"", sep, MSR_IA32_PEBS_ENABLE,
               (unsigned long long)enc->pebs_enable, MSR_PEBS_MATRIX_VERT,
               (unsigned long long)enc->matrix_vert);
    printf("}}");
}

/* ---- P5: the CESR holds both counters' selections. */

static void print_p5(const char *text, const uint64_t cesr[2], enum format format)
{
    unsigned long long ctr0 = cesr[0], ctr1 = cesr[1];
    if (format == JSON) {
        printf("{\"event\": ");
        json_print_string(text);
        printf(", \"escr_name\": \"CESR\", \"escr_msr\": \"0x11\", \"escr\": \"0x%llx\", "
               "\"cccr\": \"0x0\", \"counters\": [0, 1], \"cesr_ctr1\": \"0x%llx\", "
               "\"extra_msrs\": {}}",
               ctr0, ctr1);
    } else if (format == PERFEX) {
        printf("-e 0x%08llX@0x0\n", ctr0);
    } else {
        printf("  CESR (0x11) = 0x%016llx on CTR0, 0x%016llx on CTR1\n", ctr0, ctr1);
    }
}

static int parse_args(int argc, char **argv, struct nb_pmu_config *config, enum format *format,
                      int *first_event)
{
    int i = 1;
    struct options_given given = {0};
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        if (!option_once(&given, "encode", argv[i]))
            return EXIT_BAD_INPUT;
        int taken = cpu_option("encode", argc, argv, &i, config);
        if (taken < 0)
            return EXIT_BAD_INPUT;
        if (taken)
            continue;
        if (strcmp(argv[i], "--perfex") == 0 || strcmp(argv[i], "--json") == 0) {
            enum format wanted = argv[i][2] == 'p' ? PERFEX : JSON;
            if (*format != TEXT && *format != wanted)
                return usage_error("encode", "--perfex and --json exclude each other");
            *format = wanted;
        } else if (strcmp(argv[i], "--help") == 0) {
            fputs(encode_usage, stdout);
            return -1;
        } else {
            return option_table_unknown(&encode_option_table, "encode", argv[i]);
        }
    }
    if (i == argc)
        return usage_error("encode", "no event given");
    *first_event = i;
    return 0;
}

int cmd_encode(int argc, char **argv)
{
    struct nb_pmu_config config = NB_CONFIG_DEFAULT;
    enum format format = TEXT;
    int first = 0;
    int rc = parse_args(argc, argv, &config, &format, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    config.model = event_spec_cpuid_model(config.model, (const char *const *)argv + first, argc - first);

    /* Parse everything first: a bad string prints nothing else. */
    struct event_spec *specs = calloc((size_t)argc, sizeof *specs);
    char error[512];
    if (!specs)
        return command_error(EXIT_RUNTIME, "encode", "out of memory");
    for (int i = first; i < argc; i++)
        if (!event_spec_parse(argv[i], &config, &specs[i], error, sizeof error)) {
            free(specs);
            return command_error(EXIT_BAD_INPUT, "encode", "%s", error);
        }
    if (format == JSON)
        printf("[");
    for (int i = first; i < argc; i++) {
        if (format == JSON)
            printf(i > first ? ",\n " : "");
        else if (format == TEXT)
            printf("%s\n", argv[i]);
        uint64_t cesr[2];
        if (event_spec_cesr(&specs[i], cesr)) {
            print_p5(argv[i], cesr, format);
            continue;
        }
        struct nb_encoding enc;
        nb_encode(&specs[i].nb, &config, &enc);
        if (format == JSON)
            print_netburst_json(argv[i], &enc);
        else if (format == PERFEX)
            print_netburst_perfex(&enc);
        else
            print_netburst_text(&specs[i].nb, &enc);
    }
    if (format == JSON)
        printf("]\n");
    free(specs);
    return 0;
}
