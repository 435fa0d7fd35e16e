#include "msr_linux.h"

#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu/catalog/netburst_msrs.h"
#include "traces/cpu_view.h"
#include "pmu/catalog/p5_msrs.h"

/* The allowlist: the PMU MSRs pmubench programs.  Everything else is
 * refused.  DS_AREA and MISC_ENABLE may be read but never written (the
 * first points the processor at memory it will write, the second holds
 * unrelated machine controls); the TSC likewise (the OS keeps time by it). */
struct msr_range {
    enum msr_target target;
    uint32_t first, last;
    bool writable;
};

static const struct msr_range allowlist[] = {
    {MSR_TARGET_NETBURST, NB_COUNTER_BASE, NB_COUNTER_BASE + NB_NUM_COUNTERS - 1, true},
    {MSR_TARGET_NETBURST, NB_CCCR_BASE, NB_CCCR_BASE + NB_NUM_COUNTERS - 1, true},
    {MSR_TARGET_NETBURST, 0x3a0, 0x3e1, true}, /* ESCRs; gaps are checked below */
    {MSR_TARGET_NETBURST, MSR_TC_PRECISE_EVENT, MSR_PEBS_MATRIX_VERT, true},
    {MSR_TARGET_NETBURST, MSR_IA32_MISC_ENABLE, MSR_IA32_MISC_ENABLE, false},
    {MSR_TARGET_NETBURST, MSR_IA32_DS_AREA, MSR_IA32_DS_AREA, false},
    {MSR_TARGET_P5, P5_MSR_TSC, P5_MSR_TSC, false},
    {MSR_TARGET_P5, P5_MSR_CESR, P5_MSR_CTR1, true},
};

static const struct msr_range *allowlist_entry(enum msr_target target, uint32_t msr)
{
    if (target == MSR_TARGET_NETBURST && msr >= 0x3a0 && msr <= 0x3e1 && nb_escr_index(msr) < 0)
        return NULL;
    for (size_t i = 0; i < sizeof allowlist / sizeof allowlist[0]; i++)
        if (allowlist[i].target == target && msr >= allowlist[i].first && msr <= allowlist[i].last)
            return &allowlist[i];
    return NULL;
}

bool msr_linux_allows_read(enum msr_target target, uint32_t msr)
{
    return allowlist_entry(target, msr) != NULL;
}

bool msr_linux_allows_write(enum msr_target target, uint32_t msr)
{
    const struct msr_range *entry = allowlist_entry(target, msr);
    return entry && entry->writable;
}

void cpu_identity_signature(uint32_t eax, struct cpu_identity *id)
{
    id->family = cpuid_display_family(eax);
    id->model = cpuid_display_model(eax);
}

bool cpu_identity_read(struct cpu_identity *id)
{
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
        return false;
    memcpy(id->vendor, &ebx, 4);
    memcpy(id->vendor + 4, &edx, 4);
    memcpy(id->vendor + 8, &ecx, 4);
    id->vendor[12] = '\0';
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return false;
    cpu_identity_signature(eax, id);
    return true;
}

struct linux_backend {
    struct msr_backend base;
    char device[PATH_MAX];
    enum msr_target target;
    cpu_identity_fn identify;
    bool cpu_checked;
};

static const char *target_name(enum msr_target target)
{
    return target == MSR_TARGET_NETBURST ? "family 15 (NetBurst)" : "family 5 (P5 Pentium)";
}

/* Writes are allowed only on a GenuineIntel processor of the target
 * family; the answer is cached after the first success. */
static msr_status check_processor(struct linux_backend *lb)
{
    if (lb->cpu_checked)
        return MSR_OK;
    struct cpu_identity id = {{0}, 0, 0};
    if (!lb->identify(&id))
        return msr_fail(&lb->base, EPERM, "refusing to write MSRs: CPUID is not available");
    unsigned family = lb->target == MSR_TARGET_NETBURST ? 15 : 5;
    if (strcmp(id.vendor, "GenuineIntel") != 0 || id.family != family)
        return msr_fail(&lb->base, EPERM,
                        "refusing to write MSRs: CPUID reports %s family %u model %u, "
                        "not a GenuineIntel %s processor",
                        id.vendor, id.family, id.model, target_name(lb->target));
    lb->cpu_checked = true;
    return MSR_OK;
}

static msr_status open_device(struct linux_backend *lb, int cpu, int flags, int *fd)
{
    char path[PATH_MAX];
    const char *slot = strstr(lb->device, "%d");
    int length = slot ? snprintf(path, sizeof path, "%.*s%d%s", (int)(slot - lb->device),
                                 lb->device, cpu, slot + 2)
                      : snprintf(path, sizeof path, "%s", lb->device);
    if (length < 0 || (size_t)length >= sizeof path)
        return msr_fail(&lb->base, ENAMETOOLONG, "device path too long: %.64s...", lb->device);
    *fd = open(path, flags | O_CLOEXEC);
    if (*fd >= 0)
        return MSR_OK;
    int err = errno;
    const char *hint = err == ENOENT   ? " (load the msr driver: modprobe msr)"
                       : err == EACCES ? " (needs root or CAP_SYS_RAWIO)"
                                       : "";
    return msr_fail(&lb->base, err, "cannot open %s: %s%s", path, strerror(err), hint);
}

/* The msr driver answers EIO for an MSR that faults (rdmsr/wrmsr #GP); a
 * short transfer means the offset is past the end of a stand-in file,
 * i.e. no such MSR, which is a #GP too. */
static msr_status transfer_status(struct linux_backend *lb, ssize_t done, uint32_t msr,
                                  const char *op)
{
    if (done == 8)
        return MSR_OK;
    if (done >= 0 || errno == EIO)
        return MSR_GP;
    int err = errno;
    return msr_fail(&lb->base, err, "%s 0x%x: %s", op, msr, strerror(err));
}

static msr_status linux_read(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t *value)
{
    struct linux_backend *lb = (struct linux_backend *)backend;
    if (!msr_linux_allows_read(lb->target, msr))
        return msr_fail(backend, EPERM, "refusing to read MSR 0x%x: not a %s PMU MSR", msr,
                        target_name(lb->target));
    int fd;
    msr_status status = open_device(lb, cpu, O_RDONLY, &fd);
    if (status != MSR_OK)
        return status;
    ssize_t done = pread(fd, value, sizeof *value, msr);
    status = transfer_status(lb, done, msr, "rdmsr");
    close(fd);
    return status;
}

static msr_status linux_write(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t value)
{
    struct linux_backend *lb = (struct linux_backend *)backend;
    if (!msr_linux_allows_write(lb->target, msr))
        return msr_fail(backend, EPERM, "refusing to write MSR 0x%x: not on the %s allowlist",
                        msr, target_name(lb->target));
    msr_status status = check_processor(lb);
    if (status != MSR_OK)
        return status;
    int fd;
    status = open_device(lb, cpu, O_WRONLY, &fd);
    if (status != MSR_OK)
        return status;
    ssize_t done = pwrite(fd, &value, sizeof value, msr);
    status = transfer_status(lb, done, msr, "wrmsr");
    close(fd);
    return status;
}

static void linux_destroy(struct msr_backend *backend)
{
    free(backend);
}

static const struct msr_backend_ops linux_ops = {
    .read = linux_read,
    .write = linux_write,
    .destroy = linux_destroy,
};

struct msr_backend *msr_linux_create(const char *device, enum msr_target target,
                                     cpu_identity_fn identify)
{
    if (strlen(device) >= PATH_MAX) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    struct linux_backend *lb = calloc(1, sizeof *lb);
    if (!lb)
        return NULL;
    lb->base.ops = &linux_ops;
    lb->base.kind = "linux-msr";
    snprintf(lb->device, sizeof lb->device, "%s", device);
    lb->target = target;
    lb->identify = identify;
    return &lb->base;
}

struct msr_backend *msr_linux_open(const char *device, enum pmu_kind pmu)
{
    enum msr_target target = pmu == PMU_P5 ? MSR_TARGET_P5 : MSR_TARGET_NETBURST;
    return msr_linux_create(device, target, cpu_identity_read);
}
