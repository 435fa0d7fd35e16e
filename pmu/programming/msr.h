/* The one MSR backend interface.
 *
 * Every piece of code that programs a performance-monitoring unit reads and
 * writes model-specific registers through this interface, whether the
 * registers belong to the simulated NetBurst PMU, the simulated P5 PMU, a
 * real processor behind /dev/cpu/N/msr, or a recording wrapper around any of
 * them.  See docs/semantics.md, "MSR backends".
 */
#ifndef PMU_PROGRAMMING_MSR_H
#define PMU_PROGRAMMING_MSR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum msr_status {
    MSR_OK = 0,
    MSR_GP,       /* general-protection fault: no such MSR, or reserved bits set */
    MSR_OS_ERROR, /* the operating system refused or failed; see msr_errno() */
} msr_status;

struct msr_backend;

struct msr_backend_ops {
    msr_status (*read)(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t *value);
    msr_status (*write)(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t value);
    void (*destroy)(struct msr_backend *backend);
};

/* Embedded as the first member of every backend's own state. */
struct msr_backend {
    const struct msr_backend_ops *ops;
    const char *kind;     /* "netburst", "p5", "linux-msr", "record" */
    int last_errno;       /* errno of the last MSR_OS_ERROR */
    char message[256];    /* one line describing the last MSR_OS_ERROR */
};

msr_status msr_read(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t *value);
msr_status msr_write(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t value);
void msr_backend_destroy(struct msr_backend *backend);

/* errno and one-line explanation of the last MSR_OS_ERROR of this backend. */
int msr_errno(const struct msr_backend *backend);
const char *msr_error_message(const struct msr_backend *backend);

/* Sets last_errno and message; returns MSR_OS_ERROR (for backends). */
msr_status msr_fail(struct msr_backend *backend, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

const char *msr_status_name(msr_status status);

/* Both PMUs' counters are 40 bits wide. */
#define PMU_COUNTER_MASK ((1ull << 40) - 1)

/* ---- The recording backend: logs every access, one line each, to `log`,
 * and forwards it to `inner` (which it does not own). */
struct msr_backend *msr_record_create(struct msr_backend *inner, FILE *log);

#endif
