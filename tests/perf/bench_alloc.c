/* Times the allocator on random NetBurst event sets of 5 to 40 events
 * (`make bench`).  Prints figures only; no assertions.
 *
 *   bench_alloc [SETS_PER_SIZE [SEED]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pmu/programming/alloc.h"
#include "pmu/catalog/netburst_events.h"

enum { MAX_EVENTS = 40, SIZE_STEP = 5 };

/* A random event string: an event with a random non-empty set of its
 * sub-events, sometimes a tagging metric, sometimes one thread only. */
static void random_event(char *buf, size_t size, const struct nb_pmu_config *config)
{
    static const char *const qualifiers[] = {"", "", "", ":t0", ":t1", ":u=1", ":k=1", ":thr=2"};
    const char *qualifier = qualifiers[rand() % 8];
    if (rand() % 6 == 0) {
        snprintf(buf, size, "netburst::%s%s", nb_metrics[rand() % nb_num_metrics].name, qualifier);
        return;
    }
    const struct nb_event_info *event;
    do
        event = &nb_event_table[rand() % NB_NUM_EVENTS];
    while (!(event->models & (1u << config->model)));
    int used = snprintf(buf, size, "netburst::%s", event->name);
    int picked = 0;
    for (int i = 0; i < event->n_subevents; i++)
        if (rand() % 3 == 0 || (i == event->n_subevents - 1 && !picked)) {
            used += snprintf(buf + used, size - (size_t)used, ":%s", event->subevents[i].name);
            picked++;
        }
    snprintf(buf + used, size - (size_t)used, "%s", qualifier);
}

/* A random set of n events that parse; returns the number of runs, or -1
 * when the set cannot be planned; *minimal tells whether the plan is
 * proven the fewest runs. */
static int plan_random_set(int n, const struct nb_pmu_config *config, double *seconds,
                           bool *minimal)
{
    struct alloc_request requests[MAX_EVENTS];
    char text[256], error[512];
    for (int i = 0; i < n; i++) {
        do
            random_event(text, sizeof text, config);
        while (!event_spec_parse(text, config, &requests[i].spec, error, sizeof error));
        requests[i].group = ALLOC_NO_GROUP;
    }
    struct alloc_plan plan;
    struct alloc_error failure;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool ok = alloc_plan_make(requests, n, config, &plan, &failure);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    int runs = ok ? plan.n_runs : -1;
    *minimal = !ok || plan.minimal;
    alloc_plan_free(&plan);
    return runs;
}

int main(int argc, char **argv)
{
    int sets = argc > 1 ? atoi(argv[1]) : 200;
    srand(argc > 2 ? (unsigned)atoi(argv[2]) : 1);
    const struct nb_pmu_config config = {.model = 2, .ht = true};
    printf("%6s %6s %10s %10s %10s %8s %9s %9s\n", "events", "sets", "mean ms", "max ms",
           "total s", "runs", "unplanned", "unproven");
    for (int n = SIZE_STEP; n <= MAX_EVENTS; n += SIZE_STEP) {
        double total = 0, worst = 0;
        long runs = 0;
        int unplanned = 0, unproven = 0;
        for (int s = 0; s < sets; s++) {
            double seconds;
            bool minimal;
            int r = plan_random_set(n, &config, &seconds, &minimal);
            unproven += !minimal;
            total += seconds;
            worst = seconds > worst ? seconds : worst;
            runs += r > 0 ? r : 0;
            unplanned += r < 0;
        }
        printf("%6d %6d %10.3f %10.3f %10.3f %8.2f %9d %9d\n", n, sets, 1e3 * total / sets,
               1e3 * worst, total, (double)runs / sets, unplanned, unproven);
    }
    return 0;
}
