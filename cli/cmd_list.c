/* pmubench list [--long] [netburst|p5]: the event catalogs, like perfex -l/-L. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "exit_status.h"
#include "option_once.h"
#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_metrics.h"
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/catalog/p5_events.h"
#include "util/suggest.h"

static const char list_usage[] = "usage: pmubench list [--long] [netburst|p5]\n";

/* The options of 'pmubench list' (cli/option_table.h); --help and -h besides. */
static const struct cli_option list_option_list[] = {
    {"--long", false}, {NULL, false}
};
const struct option_table list_option_table = {list_option_list, false};

static void print_escrs(uint64_t escrs)
{
    const char *sep = "";
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if (escrs & (1ull << e)) {
            printf("%s%s", sep, nb_escrs[e].name);
            sep = ", ";
        }
}

static void print_models(uint8_t models)
{
    if (models == NB_ALL_CPUID_MODELS)
        return;
    printf("  models:");
    for (int m = 0; m < 8; m++)
        if (models & (1u << m))
            printf(" %d", m);
    printf("\n");
}

static void list_netburst_event(const struct nb_event_info *event, bool verbose)
{
    printf("netburst::%s\n", event->name);
    if (!verbose)
        return;
    printf("  select 0x%02x on ", event->select);
    print_escrs(event->escrs);
    printf("\n");
    if (event->flags & NB_EVENT_AT_RETIREMENT)
        printf("  at-retirement event\n");
    if (event->flags & NB_EVENT_PEBS)
        printf("  PEBS-capable\n");
    if (event->flags & (NB_EVENT_EXEC_TAG_UPSTREAM | NB_EVENT_FRONT_END_TAG_UPSTREAM))
        printf("  tagging upstream (%s tagging)\n",
               (event->flags & NB_EVENT_EXEC_TAG_UPSTREAM) ? "execution" : "front-end");
    print_models(event->models);
    for (int s = 0; s < event->n_subevents; s++)
        printf("  :%-16s mask bit %2d  %s\n", event->subevents[s].name, event->subevents[s].bit,
               event->subevents[s].thread_independent ? "thread-independent" : "thread-specific");
}

static void list_metric(const struct nb_metric *metric, bool verbose)
{
    static const char *const kinds[] = {"front-end", "execution", "replay"};
    printf("netburst::%s\n", metric->name);
    if (!verbose)
        return;
    const struct nb_tagging *counting = &nb_taggings[metric->kind];
    printf("  %s tagging metric, counted by %s:%s", kinds[metric->kind],
           nb_event_table[counting->counting_event].name, counting->counting_subevent);
    if (metric->upstream_event != NB_NO_UPSTREAM)
        printf(", tagged by %s", nb_event_table[metric->upstream_event].name);
    if (metric->kind == NB_REPLAY_TAGGING)
        printf(", IA32_PEBS_ENABLE 0x%x | bit 24, MSR_PEBS_MATRIX_VERT 0x%x",
               metric->pebs_enable, metric->matrix_vert);
    if (metric->libpfm4_name)
        printf("; libpfm4: netburst::replay_event:%s", metric->libpfm4_name);
    printf("\n");
}

static void list_p5_event(const struct p5_event *event, bool verbose)
{
    printf("p5::%s\n", event->name);
    if (!verbose)
        return;
    printf("  code 0x%02x, %s, %s\n", event->code, event->description,
           event->duration ? "duration" : "occurrence");
    if (event->erratum)
        printf("  erratum: %s\n", event->erratum);
}

/* An argument that is none of list's, with the nearest when one is near
 * (util/suggest.h). */
static int unexpected(const char *arg)
{
    static const char *const known[] = {"--long", "netburst", "p5"};
    struct suggestion near;
    suggestion_start(&near, arg);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        suggestion_consider(&near, known[i]);
    if (near.best)
        return usage_error("list", "unexpected '%s' (did you mean '%s'?)", arg, near.best);
    return usage_error("list", "unexpected '%s' (expected --long, netburst or p5)", arg);
}

int cmd_list(int argc, char **argv)
{
    bool verbose = false, netburst = true, p5 = true;
    struct options_given given = {0};
    for (int i = 1; i < argc; i++) {
        if (!option_once(&given, "list", argv[i]))
            return EXIT_BAD_INPUT;
        if (strcmp(argv[i], "--long") == 0) {
            verbose = true;
        } else if (strcmp(argv[i], "netburst") == 0) {
            p5 = false;
        } else if (strcmp(argv[i], "p5") == 0) {
            netburst = false;
        } else if (strcmp(argv[i], "--help") == 0) {
            fputs(list_usage, stdout);
            return 0;
        } else {
            return unexpected(argv[i]);
        }
    }
    if (!netburst && !p5)
        return usage_error("list", "name one catalog, netburst or p5");
    for (int i = 0; netburst && i < NB_NUM_EVENTS; i++)
        list_netburst_event(&nb_event_table[i], verbose);
    for (int i = 0; netburst && i < nb_num_metrics; i++)
        list_metric(&nb_metrics[i], verbose);
    for (int i = 0; p5 && i < p5_num_events; i++)
        list_p5_event(&p5_events[i], verbose);
    if (p5)
        printf("p5::clocks\n%s", verbose ? "  counts clocks instead of an event\n" : "");
    return 0;
}
