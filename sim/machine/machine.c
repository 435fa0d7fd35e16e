/* The simulated machines behind one interface (sim/machine/machine.h;
 * docs/architecture.md, "The machine interface"; docs/stat.md, "What it does"). */
#include "sim/machine/machine.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "pmu/catalog/netburst_msrs.h"
#include "pmu/emulated/netburst_feed.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/emulated/p5_pmu.h"
#include "util/suggest.h"

/* ---- choosing and setting */

/* "unknown model 'NAME'", with the nearest model's name when one is near
 * (util/suggest.h). */
static void unknown_model(const char *name, char *error, size_t size)
{
    static const char *const models[] = {"p5", "pmmx", "host", "netburst"};
    char presets[16][64];
    struct suggestion near;
    suggestion_start(&near, name);
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        suggestion_consider(&near, models[i]);
    for (size_t i = 0; i < 16 && nbm_preset_name(i); i++) {
        snprintf(presets[i], sizeof presets[i], "netburst-%s", nbm_preset_name(i));
        suggestion_consider(&near, presets[i]);
    }
    if (near.best)
        snprintf(error, size, "unknown model '%s' (did you mean '%s'?)", name, near.best);
    else
        snprintf(error, size,
                 "unknown model '%s' (expected p5, pmmx, host, netburst or netburst-PRESET)", name);
}

bool machine_config_p5(const char *name, struct machine_config *config, char *error,
                       size_t size)
{
    memset(config, 0, sizeof *config);
    config->pmu = PMU_P5;
    return p5_config_preset(name, &config->p5, error, size);
}

bool machine_config_choose(const char *name, struct machine_config *config, char *error,
                           size_t size)
{
    if (strcmp(name, "p5") == 0 || strcmp(name, "pmmx") == 0 || strcmp(name, "host") == 0)
        return machine_config_p5(name, config, error, size);
    memset(config, 0, sizeof *config);
    const char *preset = strcmp(name, "netburst") == 0        ? NBM_DEFAULT_PRESET
                         : strncmp(name, "netburst-", 9) == 0 ? name + 9
                                                              : NULL;
    if (!preset) {
        unknown_model(name, error, size);
        return false;
    }
    config->pmu = PMU_NETBURST;
    return nbm_config_preset(preset, &config->netburst, error, size);
}

bool machine_config_choose_for(const char *name, const char *const *events, int n_events,
                               struct machine_config *config, char *error, size_t size)
{
    int nb_model = event_spec_cpuid_model(NB_CPUID_MODEL_UNSET, events, n_events);
    const char *preset = nbm_preset_of_cpuid_model(nb_model);
    char chosen[64];
    if (strcmp(name, "netburst") == 0 && nb_model != NB_CPUID_MODEL_DEFAULT && preset) {
        snprintf(chosen, sizeof chosen, "netburst-%s", preset);
        name = chosen;
    }
    return machine_config_choose(name, config, error, size);
}

bool machine_config_set(struct machine_config *config, const char *name, const char *value,
                        char *error, size_t size)
{
    if (config->pmu == PMU_P5)
        return p5_config_set(&config->p5, name, value, error, size);
    return nbm_config_set(&config->netburst, name, value, error, size);
}

enum machine_assignment machine_config_assign(struct machine_config *config,
                                              const char *assignment, char *error, size_t size)
{
    char name[128];
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment || (size_t)(eq - assignment) >= sizeof name)
        return MACHINE_NOT_ASSIGNMENT;
    snprintf(name, sizeof name, "%.*s", (int)(eq - assignment), assignment);
    return machine_config_set(config, name, eq + 1, error, size) ? MACHINE_SET
                                                                 : MACHINE_REFUSED;
}

/* ---- what a machine has */

struct machine_caps machine_caps(const struct machine_config *config)
{
    if (config->pmu == PMU_P5)
        return (struct machine_caps){.pmu = PMU_P5, .event_prefix = "p5::", .core = "the P5",
                                     .timings = "docs/p5-timings.md", .counters = 2,
                                     .linked_pmus = true};
    const struct nb_cpuid_model_info *info = nb_cpuid_model_info(config->netburst.model);
    return (struct machine_caps){.pmu = PMU_NETBURST,
                                 .event_prefix = nb_cpuid_model_prefix(config->netburst.model),
                                 .core = info->core, .timings = "docs/netburst-timings.md",
                                 .counters = NB_NUM_COUNTERS, .hyper_threading = true,
                                 .ia32e = info->addr64, .uops = true, .sampling = true,
                                 .linked_pmus = true};
}

struct nb_pmu_config machine_pmu_config(const struct machine_config *config,
                                        bool hyper_threading)
{
    return (struct nb_pmu_config){config->netburst.model, hyper_threading};
}

bool machine_check_events(const struct machine_config *config, const char *const *events,
                          int n_events, char *error, size_t size)
{
    for (int i = 0; i < n_events; i++) {
        enum pmu_kind pmu;
        const char *rest;
        if (event_spec_prefix(events[i], &pmu, &rest) && pmu != config->pmu) {
            snprintf(error, size, "'%s': not an event of the model's PMU (-m)", events[i]);
            return false;
        }
    }
    return true;
}

bool machine_runs(const struct machine_config *config, enum trace_isa isa)
{
    return isa == TRACE_ISA_32 || machine_caps(config).ia32e;
}

/* The questions of Linux's generic hardware events for the P4
 * (arch/x86/events/intel/p4.c, p4_general_events): cycles, instructions,
 * cache references and misses, branches, mispredicted branches; asked as
 * the SDM defines the events (docs/stat.md, "Default events", says where
 * this differs from Linux's encodings). */
static const char *const netburst_defaults[] = {
    "global_power_events:RUNNING",
    "instr_retired:NBOGUSNTAG:NBOGUSTAG",
    "BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_HITE:RD_2ndL_HITM:RD_2ndL_MISS",
    "BSQ_cache_reference:RD_2ndL_MISS",
    "retired_branch_type:CONDITIONAL:CALL:RETURN:INDIRECT",
    "mispred_branch_retired:NBOGUS",
    NULL,
};

/* The same questions on the P5 (Safford 1997, Table 2.3): clocks,
 * instructions, data references and misses, branches, and pipeline
 * flushes (the P5 has no misprediction event; a mispredicted branch
 * flushes the pipeline). */
static const char *const p5_defaults[] = {
    "clocks", "instructions_executed", "data_read_or_write", "data_read_or_write_miss",
    "branches", "pipeline_flushes", NULL,
};

const char *const *machine_default_events(const struct machine_config *config)
{
    return config->pmu == PMU_P5 ? p5_defaults : netburst_defaults;
}

bool machine_isa_warning(const struct machine_config *config, const char *path,
                         const char *name, char *warning, size_t size)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    struct trace_header header;
    char ignored[256];
    if (!trace_read_header(path, &header, ignored, sizeof ignored) ||
        machine_runs(config, header.isa))
        return false;
    snprintf(warning, size,
             "%s: 64-bit code, which %s could not run (it has no IA-32e mode); simulated "
             "anyway, decoded as 64-bit code (docs/stat.md, \"64-bit traces\")",
             name, machine_caps(config).core);
    return true;
}

/* ---- the machine and its PMU */

/* A fresh simulated PMU of the machine's kind. */
static struct msr_backend *create_pmu(const struct machine_config *config, int threads)
{
    if (config->pmu == PMU_P5)
        return p5_backend_create();
    return nb_backend_create(machine_pmu_config(config, threads == 2));
}

bool machine_create(struct machine *machine, const struct machine_config *config, int threads)
{
    *machine = (struct machine){*config, threads, create_pmu(config, threads)};
    if (!machine->backend)
        errno = ENOMEM;
    return machine->backend != NULL;
}

bool machine_create_one_of_two(struct machine *machine, const struct machine_config *config)
{
    *machine = (struct machine){*config, 1, create_pmu(config, 2)};
    if (!machine->backend)
        errno = ENOMEM;
    return machine->backend != NULL;
}

struct msr_backend *machine_link_pmu(struct machine *machine)
{
    if (machine->config.pmu == PMU_P5) {
        struct msr_backend *backend = p5_backend_create();
        /* A fresh PMU is linked to none: the link cannot be refused. */
        if (backend)
            (void)p5_pmu_link(p5_backend_pmu(machine->backend), p5_backend_pmu(backend));
        return backend;
    }
    struct nb_pmu *pmu = nb_backend_pmu(machine->backend);
    struct msr_backend *backend = nb_backend_create(*nb_pmu_config_of(pmu));
    /* A fresh PMU of the same configuration: only memory can refuse the link. */
    if (backend && !nb_pmu_link(pmu, nb_backend_pmu(backend))) {
        msr_backend_destroy(backend);
        return NULL;
    }
    return backend;
}

void machine_destroy(struct machine *machine)
{
    msr_backend_destroy(machine->backend);
    machine->backend = NULL;
}

/* ---- simulating */

/* The P5 model's region marker, to the machine's hooks as thread 0's. */
static void p5_region(void *context, bool begin, uint32_t region)
{
    const struct machine_hooks *hooks = context;
    hooks->region(hooks->context, 0, begin, region);
}

/* The P5 model's MSR access, to the machine's hooks as thread 0's. */
static void p5_msr(void *context, uint64_t cycle, const struct trace_msr *access)
{
    const struct machine_hooks *hooks = context;
    hooks->msr(hooks->context, 0, cycle, access);
}

static bool simulate_p5(struct machine *machine, const char *path,
                        const struct machine_hooks *hooks, struct machine_result *result,
                        char *error, size_t error_size)
{
    struct p5_sim_hooks p5_hooks = {hooks && hooks->region ? p5_region : NULL,
                                    hooks && hooks->msr ? p5_msr : NULL, (void *)hooks,
                                    hooks ? hooks->progress : NULL,
                                    hooks ? hooks->interval : NULL,
                                    hooks ? hooks->trace_copy : NULL};
    struct p5_sim_result p5 = {0};
    bool ok = p5_simulate_trace(path, &machine->config.p5, machine->backend,
                                hooks ? &p5_hooks : NULL, &p5, error, error_size);
    *result = (struct machine_result){.instructions = {p5.instructions, 0}, .cycles = p5.cycles,
                                      .regions = p5.regions,
                                      .unclassified = {p5.unclassified, 0}};
    return ok;
}

static bool simulate_netburst(struct machine *machine, const char *const traces[],
                              const struct machine_hooks *hooks, struct machine_result *result,
                              char *error, size_t error_size)
{
    struct nbm_hooks nb_hooks;
    if (hooks)
        nb_hooks = (struct nbm_hooks){hooks->region, hooks->msr, hooks->sample, hooks->context,
                                      hooks->progress, hooks->interval, hooks->uops,
                                      hooks->trace_copy};
    struct nbm_result nb;
    memset(&nb, 0, sizeof nb);
    bool ok = nbm_simulate(traces, machine->threads, &machine->config.netburst, machine->backend,
                           hooks ? &nb_hooks : NULL, &nb, error, error_size);
    *result = (struct machine_result){{nb.instructions[0], nb.instructions[1]},
                                      {nb.uops[0], nb.uops[1]}, nb.cycles, nb.regions,
                                      {nb.unclassified[0], nb.unclassified[1]}};
    return ok;
}

bool machine_simulate(struct machine *machine, const char *const traces[],
                      const struct machine_hooks *hooks, struct machine_result *result,
                      char *error, size_t error_size)
{
    if (machine->config.pmu == PMU_P5)
        return simulate_p5(machine, traces[0], hooks, result, error, error_size);
    return simulate_netburst(machine, traces, hooks, result, error, error_size);
}
