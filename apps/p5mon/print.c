#include "print.h"

#include "util/atomic_file.h"
#include "names.h"
#include "stats.h"

void p5mon_print_header(FILE *out, const struct p5mon_header *header)
{
    fprintf(out, "run_p5mon started at %s\n", header->started);
    fprintf(out, "current directory: %s\n", header->directory);
    fprintf(out, "parameter file: %s\n", header->parms_file);
    fprintf(out, "arguments:%s%s\n", header->arguments[0] ? " " : "", header->arguments);
    fprintf(out, "command: %s\n", header->command);
    fprintf(out, "trace: %s\n", header->trace);
}

static const uint64_t *event_values(const struct p5mon_results *results,
                                    const struct p5mon_region *region, int event)
{
    return &region->values[event * results->repetitions];
}

static void summarize(const struct p5mon_results *results, const struct p5mon_region *region,
                      int event, struct p5mon_summary *summary)
{
    p5mon_summarize(event_values(results, region, event), results->repetitions, results->level,
                    results->interval, summary);
}

/* "MEAN +/- HALF (PERCENT%)" */
static void print_summary(FILE *out, const struct p5mon_summary *summary)
{
    fprintf(out, "%.1f +/- %.1f (", summary->mean, summary->half_width);
    if (summary->percent_defined)
        fprintf(out, "%.3f%%)", summary->percent);
    else
        fprintf(out, "NaN%%)");
}

static void print_per_entry(FILE *out, double mean, uint64_t entered)
{
    if (entered)
        fprintf(out, "%.1f", mean / (double)entered);
    else
        fprintf(out, "NaN");
}

static void print_repetitions(FILE *out, const struct p5mon_results *results,
                              const struct p5mon_region *region, int event, const char *indent)
{
    const uint64_t *values = event_values(results, region, event);
    for (int rep = 0; rep < results->repetitions; rep++)
        fprintf(out, "%s  rep %d:\t%llu\n", indent, rep, (unsigned long long)values[rep]);
    fprintf(out, "%s  -----\n", indent);
}

/* One event of one region (or of the whole run). */
static void print_event(FILE *out, const struct p5mon_results *results,
                        const struct p5mon_region *region, int event)
{
    char title[128];
    p5mon_event_title(results->events[event], title, sizeof title);
    struct p5mon_summary summary;
    summarize(results, region, event, &summary);
    const char *indent = results->regions ? "    " : "  ";
    if (!results->all) {
        fprintf(out, "%s%s: ", indent, title);
        print_summary(out, &summary);
        if (results->regions) {
            fprintf(out, " [");
            print_per_entry(out, summary.mean, region->entered);
            fprintf(out, "]");
        }
        fprintf(out, "\n");
        return;
    }
    fprintf(out, "%sEvent: %s\n", indent, title);
    print_repetitions(out, results, region, event, indent);
    fprintf(out, "%sAverage:\t", indent);
    print_summary(out, &summary);
    fprintf(out, "\n");
    if (results->regions) {
        fprintf(out, "\t\t");
        print_per_entry(out, summary.mean, region->entered);
        fprintf(out, " per time region entered\n\n");
    }
}

void p5mon_print_results(FILE *out, const struct p5mon_results *results)
{
    fprintf(out, "\n");
    if (!results->regions) {
        fprintf(out, "Results (for %d repetitions with a %d%% confidence level):\n",
                results->repetitions, results->level);
        for (int e = 0; e < results->n_events; e++)
            print_event(out, results, &results->slots[0], e);
        return;
    }
    fprintf(out, "Results (for %d regions, %d repetitions, %d%% confidence level):\n%s",
            p5mon_regions_seen(results), results->repetitions, results->level,
            results->all ? "\n" : "");
    for (int r = 0; r < results->n_slots; r++) {
        const struct p5mon_region *region = &results->slots[r];
        if (!region->seen)
            continue;
        fprintf(out, "  Region %d, entered %llu times and exited %llu times:\n%s", r,
                (unsigned long long)region->entered,
                (unsigned long long)region->exited, results->all ? "\n" : "");
        for (int e = 0; e < results->n_events; e++)
            print_event(out, results, region, e);
    }
}

void p5mon_print_timing(FILE *out, double elapsed_seconds, int executions)
{
    fprintf(out, "\nTotal elapsed time: %.1f seconds\n", elapsed_seconds);
    fprintf(out, "(program executed %d times, with an average execution time of %.1fs)\n",
            executions, executions ? elapsed_seconds / executions : 0.0);
}

/* ---- The output file */

static void write_summary_fields(FILE *out, const struct p5mon_summary *summary)
{
    fprintf(out, "%.1f %.1f ", summary->mean, summary->half_width);
    if (summary->percent_defined)
        fprintf(out, "%.3f", summary->percent);
    else
        fprintf(out, "NaN");
}

static void write_event(FILE *out, const struct p5mon_results *results, int slot, int event)
{
    const struct p5mon_region *region = &results->slots[slot];
    char code[16], prefix[32] = "";
    p5mon_event_code(results->events[event], code, sizeof code);
    if (results->regions)
        snprintf(prefix, sizeof prefix, "%d ", slot);
    const uint64_t *values = event_values(results, region, event);
    for (int rep = 0; results->all && rep < results->repetitions; rep++)
        fprintf(out, "%s%s %d\t%llu\n", prefix, code, rep, (unsigned long long)values[rep]);
    struct p5mon_summary summary;
    summarize(results, region, event, &summary);
    fprintf(out, "%s%s -1\t", prefix, code);
    write_summary_fields(out, &summary);
    if (results->regions) {
        fprintf(out, " ");
        print_per_entry(out, summary.mean, region->entered);
    }
    fprintf(out, "\n");
}

static void write_results(FILE *out, const struct p5mon_results *results)
{
    fprintf(out, "# run_p5mon results file\n");
    if (!results->regions) {
        fprintf(out, "# Results (%d repetitions, %d%% confidence level):\n", results->repetitions,
                results->level);
        fprintf(out, "# Event Repetition Value [conf.int] [percentage]\n");
        for (int e = 0; e < results->n_events; e++)
            write_event(out, results, 0, e);
        return;
    }
    fprintf(out, "# Results (for %d regions, %d repetitions, %d%% confidence level):\n",
            p5mon_regions_seen(results), results->repetitions, results->level);
    fprintf(out, "# Region Event Repetition Value [conf.int] [percentage]\n");
    for (int r = 0; r < results->n_slots; r++) {
        if (!results->slots[r].seen)
            continue;
        fprintf(out, "# Region %d: entered %llu exited %llu\n", r,
                (unsigned long long)results->slots[r].entered,
                (unsigned long long)results->slots[r].exited);
        for (int e = 0; e < results->n_events; e++)
            write_event(out, results, r, e);
    }
}

bool p5mon_write_output(const char *path, const struct p5mon_results *results, char *error,
                        size_t error_size)
{
    struct atomic_file file;
    if (!atomic_open(&file, path, error, error_size))
        return false;
    write_results(file.stream, results);
    return atomic_commit(&file, error, error_size);
}
