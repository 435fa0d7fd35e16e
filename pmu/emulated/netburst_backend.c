/* The simulated NetBurst PMU behind the MSR backend interface. */
#include <errno.h>
#include <stdlib.h>

#include "netburst_pmu.h"

struct nb_backend {
    struct msr_backend base;
    struct nb_pmu *pmu;
};

/* Both logical processors of a Hyper-Threading package see the one PMU
 * (SDM 18.16: the ESCRs and CCCRs are shared by the logical processors). */
static msr_status check_cpu(struct nb_backend *nb, int cpu)
{
    int cpus = nb_pmu_config_of(nb->pmu)->ht ? 2 : 1;
    if (cpu < 0 || cpu >= cpus)
        return msr_fail(&nb->base, ENXIO, "simulated NetBurst has no logical CPU %d (it has %d)",
                        cpu, cpus);
    return MSR_OK;
}

static msr_status nb_read(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t *value)
{
    struct nb_backend *nb = (struct nb_backend *)backend;
    msr_status status = check_cpu(nb, cpu);
    return status == MSR_OK ? nb_pmu_rdmsr(nb->pmu, msr, value) : status;
}

static msr_status nb_write(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t value)
{
    struct nb_backend *nb = (struct nb_backend *)backend;
    msr_status status = check_cpu(nb, cpu);
    return status == MSR_OK ? nb_pmu_wrmsr(nb->pmu, msr, value) : status;
}

static void nb_destroy(struct msr_backend *backend)
{
    struct nb_backend *nb = (struct nb_backend *)backend;
    nb_pmu_destroy(nb->pmu);
    free(nb);
}

static const struct msr_backend_ops nb_ops = {
    .read = nb_read,
    .write = nb_write,
    .destroy = nb_destroy,
};

struct msr_backend *nb_backend_create(struct nb_pmu_config config)
{
    struct nb_backend *nb = calloc(1, sizeof *nb);
    if (!nb)
        return NULL;
    if (!(nb->pmu = nb_pmu_create(config))) {
        free(nb);
        return NULL;
    }
    nb->base.ops = &nb_ops;
    nb->base.kind = "netburst";
    return &nb->base;
}

struct nb_pmu *nb_backend_pmu(struct msr_backend *backend)
{
    return backend->ops == &nb_ops ? ((struct nb_backend *)backend)->pmu : NULL;
}
