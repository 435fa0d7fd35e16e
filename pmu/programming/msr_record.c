/* The recording backend: forwards every access to an inner backend and logs
 * it as one line, so that two programming sequences can be compared with
 * diff.  Line format (docs/semantics.md, "Recording backend"):
 *
 *   wrmsr cpu=0 0x3b8 0x0000000004000204 ok
 *   rdmsr cpu=0 0x360 0x0000000000039000 ok
 *   wrmsr cpu=0 0x3ba 0x0000000000000001 #GP
 *   wrmsr cpu=0 0x3a0 0x0000000000000000 error: <message>
 */
#include "msr.h"

#include <stdlib.h>
#include <string.h>

struct record_backend {
    struct msr_backend base;
    struct msr_backend *inner;
    FILE *log;
};

static void log_access(struct record_backend *rec, const char *op, int cpu, uint32_t msr,
                       uint64_t value, msr_status status)
{
    fprintf(rec->log, "%s cpu=%d 0x%x 0x%016llx ", op, cpu, msr, (unsigned long long)value);
    if (status == MSR_OS_ERROR)
        fprintf(rec->log, "error: %s\n", msr_error_message(rec->inner));
    else
        fprintf(rec->log, "%s\n", msr_status_name(status));
}

static msr_status pass_error(struct record_backend *rec, msr_status status)
{
    if (status == MSR_OS_ERROR)
        msr_fail(&rec->base, msr_errno(rec->inner), "%s", msr_error_message(rec->inner));
    return status;
}

static msr_status record_read(struct msr_backend *backend, int cpu, uint32_t msr,
                              uint64_t *value)
{
    struct record_backend *rec = (struct record_backend *)backend;
    msr_status status = msr_read(rec->inner, cpu, msr, value);
    log_access(rec, "rdmsr", cpu, msr, *value, status);
    return pass_error(rec, status);
}

static msr_status record_write(struct msr_backend *backend, int cpu, uint32_t msr,
                               uint64_t value)
{
    struct record_backend *rec = (struct record_backend *)backend;
    msr_status status = msr_write(rec->inner, cpu, msr, value);
    log_access(rec, "wrmsr", cpu, msr, value, status);
    return pass_error(rec, status);
}

static void record_destroy(struct msr_backend *backend)
{
    free(backend);
}

static const struct msr_backend_ops record_ops = {
    .read = record_read,
    .write = record_write,
    .destroy = record_destroy,
};

struct msr_backend *msr_record_create(struct msr_backend *inner, FILE *log)
{
    struct record_backend *rec = calloc(1, sizeof *rec);
    if (!rec)
        return NULL;
    rec->base.ops = &record_ops;
    rec->base.kind = "record";
    rec->inner = inner;
    rec->log = log;
    return &rec->base;
}
