#include "driver.h"

#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "pmu/programming/alloc.h"
#include "pmu/programming/program.h"

/* One execution: the pair it counts and, with regions, the samples of its
 * region markers. */
struct execution {
    struct program program;
    int max_regions;
    uint64_t begin[P5MON_MAX_REGIONS][2];   /* counters at the region's last begin */
    uint64_t total[P5MON_MAX_REGIONS][2];
    uint64_t entered[P5MON_MAX_REGIONS], exited[P5MON_MAX_REGIONS];
    bool failed;
    char error[256];
};

static void make_run(const int *events, int n, const struct p5mon_parms *parms,
                     struct alloc_run *run)
{
    struct p5_event_spec specs[2];
    for (int i = 0; i < n; i++)
        specs[i] = (struct p5_event_spec){
            .code = events[i] == P5MON_CLOCKS ? 0 : (uint8_t)events[i],
            .clocks = events[i] == P5MON_CLOCKS,
            .os = parms->kernel_events,
            .usr = parms->user_events,
        };
    alloc_p5_run(specs, n, run);
}

static bool check_msr(msr_status status, const struct program *program, char *error,
                      size_t error_size)
{
    if (status == MSR_OK)
        return true;
    snprintf(error, error_size, "MSR 0x%x: %s", (unsigned)program->failed_msr,
             msr_status_name(status));
    return false;
}

static void region_marker(void *context, int thread, bool begin, uint32_t region)
{
    (void)thread; /* the P5 has one */
    struct execution *execution = context;
    if (execution->failed)
        return;
    if (region >= (uint32_t)execution->max_regions) {
        snprintf(execution->error, sizeof execution->error,
                 "region %u: expected a region number below max_regions (%d)", (unsigned)region,
                 execution->max_regions);
        execution->failed = true;
        return;
    }
    uint64_t counts[2] = {0, 0};
    msr_status status = program_read(&execution->program, counts);
    if (status != MSR_OK) {
        check_msr(status, &execution->program, execution->error, sizeof execution->error);
        execution->failed = true;
        return;
    }
    for (int i = 0; i < 2; i++) {
        if (begin)
            execution->begin[region][i] = counts[i];
        else
            execution->total[region][i] +=
                (counts[i] - execution->begin[region][i]) & PMU_COUNTER_MASK;
    }
    if (begin)
        execution->entered[region]++;
    else
        execution->exited[region]++;
}

static bool claim_slot(struct p5mon_results *results, int slot, uint64_t entered,
                       uint64_t exited, char *error, size_t error_size)
{
    struct p5mon_region *region = &results->slots[slot];
    if (region->seen)
        return true;
    region->values = calloc((size_t)results->n_events * (size_t)results->repetitions,
                            sizeof *region->values);
    if (!region->values) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    region->seen = true;
    region->entered = entered;
    region->exited = exited;
    return true;
}

/* Stores the counts of one execution: events first..first+n-1, rep. */
static bool store(struct p5mon_results *results, const struct execution *execution,
                  const uint64_t *whole, int first, int n, int rep, char *error,
                  size_t error_size)
{
    for (int slot = 0; slot < results->n_slots; slot++) {
        bool active = results->regions ? execution->entered[slot] || execution->exited[slot]
                                       : true;
        if (!active)
            continue;
        if (!claim_slot(results, slot, execution->entered[slot], execution->exited[slot], error,
                        error_size))
            return false;
        for (int i = 0; i < n; i++)
            results->slots[slot].values[(first + i) * results->repetitions + rep] =
                results->regions ? execution->total[slot][i] : whole[i];
    }
    return true;
}

static void say_execution(FILE *verbose, const struct p5mon_results *results, int first, int n)
{
    fprintf(verbose, "run_p5mon: execution %d:", results->executions + 1);
    for (int i = 0; i < n; i++)
        fprintf(verbose, " %s", p5mon_event_parm_name(results->events[first + i]));
    fprintf(verbose, "\n");
}

/* Counts events first and first + 1 (if any) in one execution. */
static bool execute_pair(const struct p5mon_parms *parms, const struct machine_config *model,
                         p5mon_simulate_fn simulate, void *context,
                         struct p5mon_results *results, int first, int rep,
                         struct execution *execution, char *error, size_t error_size)
{
    int n = results->n_events - first >= 2 ? 2 : 1;
    struct alloc_run run;
    make_run(&results->events[first], n, parms, &run);
    memset(execution, 0, sizeof *execution);
    execution->max_regions = results->n_slots;
    struct machine machine;
    if (!machine_create(&machine, model, 1)) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    program_init(&execution->program, machine.backend, 0, &run);
    struct machine_hooks hooks = {.region = region_marker, .context = execution};
    uint64_t whole[2] = {0, 0};
    bool ok = check_msr(program_setup(&execution->program, NULL), &execution->program, error,
                        error_size) &&
              check_msr(program_start(&execution->program), &execution->program, error,
                        error_size) &&
              simulate(context, &machine, results->regions ? &hooks : NULL, error, error_size);
    if (ok && execution->failed) {
        snprintf(error, error_size, "%s", execution->error);
        ok = false;
    }
    ok = ok &&
         check_msr(program_stop(&execution->program), &execution->program, error, error_size) &&
         check_msr(program_read(&execution->program, whole), &execution->program, error,
                   error_size) &&
         check_msr(program_release(&execution->program), &execution->program, error,
                   error_size);
    machine_destroy(&machine);
    results->executions++;
    return ok && store(results, execution, whole, first, n, rep, error, error_size);
}

static bool init_results(const struct p5mon_parms *parms, struct p5mon_results *results,
                         char *error, size_t error_size)
{
    results->n_events = p5mon_parms_events(parms, results->events);
    results->repetitions = parms->repetitions;
    results->level = parms->confidence_99 ? 99 : 95;
    results->interval = parms->interval;
    results->all = parms->output_all_results;
    results->regions = parms->use_assembly_regions;
    results->n_slots = results->regions ? parms->max_regions : 1;
    results->slots = calloc((size_t)results->n_slots, sizeof *results->slots);
    if (!results->slots)
        snprintf(error, error_size, "out of memory");
    return results->slots != NULL;
}

bool p5mon_measure(const struct p5mon_parms *parms, const struct machine_config *model,
                   p5mon_simulate_fn simulate, void *context, FILE *verbose,
                   struct p5mon_results *results, char *error, size_t error_size)
{
    memset(results, 0, sizeof *results);
    struct execution *execution = malloc(sizeof *execution);
    bool ok = execution && init_results(parms, results, error, error_size);
    if (!execution)
        snprintf(error, error_size, "out of memory");
    for (int rep = 0; ok && rep < results->repetitions; rep++) {
        if (parms->verbose_level >= 1)
            fprintf(verbose, "run_p5mon: repetition %d of %d\n", rep + 1, results->repetitions);
        for (int first = 0; ok && first < results->n_events; first += 2) {
            if (parms->verbose_level >= 2)
                say_execution(verbose, results, first, results->n_events - first >= 2 ? 2 : 1);
            ok = execute_pair(parms, model, simulate, context, results, first, rep, execution,
                              error, error_size);
        }
    }
    free(execution);
    if (!ok)
        p5mon_results_free(results);
    return ok;
}

void p5mon_results_free(struct p5mon_results *results)
{
    for (int i = 0; results->slots && i < results->n_slots; i++)
        free(results->slots[i].values);
    free(results->slots);
    results->slots = NULL;
}

int p5mon_regions_seen(const struct p5mon_results *results)
{
    int n = 0;
    for (int i = 0; i < results->n_slots; i++)
        n += results->slots[i].seen;
    return n;
}
