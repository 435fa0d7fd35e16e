#include "msr.h"

#include <stdarg.h>

msr_status msr_read(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t *value)
{
    msr_status status = backend->ops->read(backend, cpu, msr, value);
    if (status != MSR_OK)
        *value = 0; /* a failed read yields nothing, whatever a backend left there */
    return status;
}

msr_status msr_write(struct msr_backend *backend, int cpu, uint32_t msr, uint64_t value)
{
    return backend->ops->write(backend, cpu, msr, value);
}

void msr_backend_destroy(struct msr_backend *backend)
{
    if (backend)
        backend->ops->destroy(backend);
}

int msr_errno(const struct msr_backend *backend)
{
    return backend->last_errno;
}

const char *msr_error_message(const struct msr_backend *backend)
{
    return backend->message;
}

msr_status msr_fail(struct msr_backend *backend, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(backend->message, sizeof backend->message, fmt, ap);
    va_end(ap);
    backend->last_errno = err;
    return MSR_OS_ERROR;
}

const char *msr_status_name(msr_status status)
{
    switch (status) {
    case MSR_OK: return "ok";
    case MSR_GP: return "#GP";
    case MSR_OS_ERROR: return "error";
    }
    return "?";
}
