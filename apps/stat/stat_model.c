/* The simulated machines by name; docs/stat.md, "Models". */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "pmu/netburst_msrs.h"
#include "util/suggest.h"
#include "apps/stat/stat_model.h"

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

bool stat_model_choose(const char *name, struct stat_model *model, char *error, size_t size)
{
    memset(model, 0, sizeof *model);
    if (strcmp(name, "p5") == 0 || strcmp(name, "pmmx") == 0 || strcmp(name, "host") == 0) {
        model->pmu = PMU_P5;
        return p5_config_preset(name, &model->p5, error, size);
    }
    const char *preset = strcmp(name, "netburst") == 0        ? NBM_DEFAULT_PRESET
                         : strncmp(name, "netburst-", 9) == 0 ? name + 9
                                                              : NULL;
    if (!preset) {
        unknown_model(name, error, size);
        return false;
    }
    model->pmu = PMU_NETBURST;
    return nbm_config_preset(preset, &model->netburst, error, size);
}

bool stat_model_choose_for(const char *name, const char *const *events, int n_events,
                           struct stat_model *model, char *error, size_t size)
{
    int nb_model = event_spec_model(NB_MODEL_UNSET, events, n_events);
    const char *preset = nbm_preset_of_model(nb_model);
    char chosen[64];
    if (strcmp(name, "netburst") == 0 && nb_model != NB_MODEL_DEFAULT && preset) {
        snprintf(chosen, sizeof chosen, "netburst-%s", preset);
        name = chosen;
    }
    return stat_model_choose(name, model, error, size);
}

bool stat_model_check_events(const struct stat_model *model, const char *const *events,
                             int n_events, char *error, size_t size)
{
    for (int i = 0; i < n_events; i++) {
        enum pmu_kind pmu;
        const char *rest;
        if (event_spec_prefix(events[i], &pmu, &rest) && pmu != model->pmu) {
            snprintf(error, size, "'%s': not an event of the model's PMU (-m)", events[i]);
            return false;
        }
    }
    return true;
}

bool stat_model_set(struct stat_model *model, const char *name, const char *value, char *error,
                    size_t size)
{
    if (model->pmu == PMU_P5)
        return p5_config_set(&model->p5, name, value, error, size);
    return nbm_config_set(&model->netburst, name, value, error, size);
}

bool stat_model_runs(const struct stat_model *model, enum trace_isa isa)
{
    if (isa == TRACE_ISA_32)
        return true;
    return model->pmu == PMU_NETBURST && nb_model_info(model->netburst.model)->addr64;
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

const char *const *stat_model_default_events(const struct stat_model *model)
{
    return model->pmu == PMU_P5 ? p5_defaults : netburst_defaults;
}

bool stat_model_isa_warning(const struct stat_model *model, const char *path, const char *name,
                            char *warning, size_t size)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    struct trace_header header;
    char ignored[256];
    if (!trace_read_header(path, &header, ignored, sizeof ignored) ||
        stat_model_runs(model, header.isa))
        return false;
    const char *machine =
        model->pmu == PMU_P5 ? "the P5" : nb_model_info(model->netburst.model)->core;
    snprintf(warning, size,
             "%s: 64-bit code, which %s could not run (it has no IA-32e mode); simulated "
             "anyway, decoded as 64-bit code (docs/stat.md, \"64-bit traces\")",
             name, machine);
    return true;
}
