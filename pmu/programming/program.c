/* The programming library (program.h): one planned run into the PMU,
 * through msr_write/msr_read only. */
#include "program.h"

#include "pmu/catalog/netburst_fields.h"
#include "pmu/catalog/p5_msrs.h"

static const uint32_t p5_counter_msrs[2] = {P5_MSR_CTR0, P5_MSR_CTR1};

void program_init(struct program *program, struct msr_backend *backend, int cpu,
                  const struct alloc_run *run)
{
    *program = (struct program){.backend = backend, .cpu = cpu, .run = run};
}

static msr_status write_msr(struct program *program, uint32_t msr, uint64_t value)
{
    msr_status status = msr_write(program->backend, program->cpu, msr, value);
    if (status != MSR_OK)
        program->failed_msr = msr;
    return status;
}

static uint32_t counter_msr(const struct program *program, int i)
{
    int counter = program->run->assignments[i].counter;
    if (program->run->pmu == PMU_P5)
        return p5_counter_msrs[counter];
    return NB_COUNTER_BASE + (uint32_t)counter;
}

/* Every CCCR of the run, with ENABLE as asked. */
enum cccr_state { STOPPED, RUNNING, CLEARED };

static msr_status write_cccrs(struct program *program, enum cccr_state state)
{
    for (int i = 0; i < program->run->n; i++) {
        const struct alloc_assignment *a = &program->run->assignments[i];
        uint64_t cccr = state == RUNNING   ? a->cccr_value
                        : state == STOPPED ? a->cccr_value & ~CCCR_ENABLE
                                           : 0;
        msr_status status = write_msr(program, NB_CCCR_BASE + (uint32_t)a->counter, cccr);
        if (status != MSR_OK)
            return status;
    }
    return MSR_OK;
}

/* Whether one of the first `n` assignments uses ESCR `escr`, to count
 * through it or (upstream) to tag through it: two users of one ESCR share
 * its value, so it is written once. */
static bool used_before(const struct alloc_run *run, int n, int escr, bool upstream)
{
    for (int i = 0; i < n; i++) {
        const struct alloc_assignment *a = &run->assignments[i];
        if (!upstream && a->escr == escr)
            return true;
        for (int u = 0; upstream && u < a->n_upstreams; u++)
            if (a->upstream_escr[u] == escr)
                return true;
    }
    return false;
}

/* Assignment i's upstream ESCRs that no assignment counts through and no
 * earlier one tags through. */
static msr_status write_upstream_escrs(struct program *program, int i, bool clear)
{
    const struct alloc_run *run = program->run;
    const struct alloc_assignment *a = &run->assignments[i];
    for (int u = 0; u < a->n_upstreams; u++) {
        int escr = a->upstream_escr[u];
        if (used_before(run, run->n, escr, false) || used_before(run, i, escr, true))
            continue;
        msr_status status =
            write_msr(program, nb_escrs[escr].msr, clear ? 0 : a->upstream_value[u]);
        if (status != MSR_OK)
            return status;
    }
    return MSR_OK;
}

/* The counting ESCRs, then the upstream ESCRs; with `clear`, zeroes them. */
static msr_status write_escrs(struct program *program, bool clear)
{
    const struct alloc_run *run = program->run;
    for (int i = 0; i < run->n; i++) {
        const struct alloc_assignment *a = &run->assignments[i];
        if (used_before(run, i, a->escr, false))
            continue;
        msr_status status = write_msr(program, nb_escrs[a->escr].msr, clear ? 0 : a->escr_value);
        if (status != MSR_OK)
            return status;
    }
    for (int i = 0; i < run->n; i++) {
        msr_status status = write_upstream_escrs(program, i, clear);
        if (status != MSR_OK)
            return status;
    }
    return MSR_OK;
}

static msr_status write_counters(struct program *program, const uint64_t *presets)
{
    for (int i = 0; i < program->run->n; i++) {
        msr_status status = write_msr(program, counter_msr(program, i), presets ? presets[i] : 0);
        if (status != MSR_OK)
            return status;
    }
    return MSR_OK;
}

/* The replay-tagging MSRs are global: a run without a replay metric
 * clears them, so that an earlier run's tagging does not linger. */
static msr_status write_replay_msrs(struct program *program, bool clear)
{
    bool replay = program->run->replay && !clear;
    msr_status status =
        write_msr(program, MSR_IA32_PEBS_ENABLE, replay ? program->run->pebs_enable : 0);
    if (status != MSR_OK)
        return status;
    return write_msr(program, MSR_PEBS_MATRIX_VERT, replay ? program->run->matrix_vert : 0);
}

static msr_status setup_netburst(struct program *program, const uint64_t *presets)
{
    msr_status status = write_cccrs(program, STOPPED);
    if (status == MSR_OK)
        status = write_escrs(program, false);
    if (status == MSR_OK)
        status = write_counters(program, presets);
    if (status == MSR_OK)
        status = write_replay_msrs(program, false);
    return status;
}

msr_status program_setup(struct program *program, const uint64_t *presets)
{
    if (program->run->pmu == PMU_NETBURST)
        return setup_netburst(program, presets);
    msr_status status = write_msr(program, P5_MSR_CESR, 0);
    if (status == MSR_OK)
        status = write_counters(program, presets);
    return status;
}

msr_status program_start(struct program *program)
{
    if (program->run->pmu == PMU_NETBURST)
        return write_cccrs(program, RUNNING);
    return write_msr(program, P5_MSR_CESR, alloc_p5_cesr(program->run));
}

msr_status program_stop(struct program *program)
{
    if (program->run->pmu == PMU_NETBURST)
        return write_cccrs(program, STOPPED);
    return write_msr(program, P5_MSR_CESR, p5_cesr_stopped(alloc_p5_cesr(program->run)));
}

msr_status program_release(struct program *program)
{
    if (program->run->pmu == PMU_P5)
        return write_msr(program, P5_MSR_CESR, 0);
    msr_status status = write_cccrs(program, CLEARED);
    if (status == MSR_OK)
        status = write_escrs(program, true);
    if (status == MSR_OK)
        status = write_replay_msrs(program, true);
    return status;
}

msr_status program_read(struct program *program, uint64_t *counts)
{
    for (int i = 0; i < program->run->n; i++) {
        uint32_t msr = counter_msr(program, i);
        msr_status status = msr_read(program->backend, program->cpu, msr, &counts[i]);
        if (status != MSR_OK) {
            program->failed_msr = msr;
            return status;
        }
        counts[i] &= PMU_COUNTER_MASK;
    }
    return MSR_OK;
}

msr_status program_reset(struct program *program)
{
    return write_counters(program, NULL);
}

msr_status program_reload(struct program *program, const uint64_t *presets, bool running)
{
    msr_status status = write_counters(program, presets);
    if (status == MSR_OK)
        status = running ? program_start(program) : program_stop(program);
    return status;
}
