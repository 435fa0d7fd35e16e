/* The Linux msr-device backend: /dev/cpu/N/msr, 8-byte pread/pwrite at
 * offset = MSR address.  Safety first: it writes only PMU MSRs on an
 * allowlist, and only after CPUID says the processor is the one the
 * programming code was written for.  docs/semantics.md, "Linux msr
 * backend". */
#ifndef PMU_PROGRAMMING_MSR_LINUX_H
#define PMU_PROGRAMMING_MSR_LINUX_H

#include <stdbool.h>

#include "msr.h"
#include "pmu/catalog/event_spec.h"

enum msr_target { MSR_TARGET_NETBURST, MSR_TARGET_P5 };

struct cpu_identity {
    char vendor[13];
    unsigned family;   /* the SDM's DisplayFamily (CPUID.1:EAX) */
    unsigned model;    /* the SDM's DisplayModel */
};

/* The family and model of CPUID.1:EAX as the SDM defines them
 * (traces/cpu_view.h's cpuid_display_family and cpuid_display_model). */
void cpu_identity_signature(uint32_t eax, struct cpu_identity *id);

/* Fills `id` from the processor this code runs on (the CPUID instruction).
 * Returns false where CPUID is unavailable. */
bool cpu_identity_read(struct cpu_identity *id);

typedef bool (*cpu_identity_fn)(struct cpu_identity *id);

/* `device` is the device path; "%d" in it is replaced by the CPU number
 * ("/dev/cpu/%d/msr").  `identify` says what processor this is: pass
 * cpu_identity_read for real hardware, or a stand-in for tests.  NULL, with
 * errno set, when the path is too long or memory runs out. */
struct msr_backend *msr_linux_create(const char *device, enum msr_target target,
                                     cpu_identity_fn identify);

/* The backend of a PMU of kind `pmu` (the P5's or the NetBurst's) through
 * `device` on the processor this code runs on (cpu_identity_read), which
 * it refuses to write unless CPUID shows that kind's family: what
 * `stat --backend msr` and `run --msr-device` count and run on.  NULL with
 * errno, as msr_linux_create. */
struct msr_backend *msr_linux_open(const char *device, enum pmu_kind pmu);

/* Whether the backend would read, or write, this MSR for that target. */
bool msr_linux_allows_read(enum msr_target target, uint32_t msr);
bool msr_linux_allows_write(enum msr_target target, uint32_t msr);

#endif
