/* The timing models' shared trace-driver steps (trace_driver.h). */
#include "sim/common/trace_driver.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio_ext.h>
#include <sys/types.h>

#include "util/error_line.h"
#include "util/input_file.h"

bool driver_fail(struct driver_failure *f, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    error_vline(0, f->text, f->size, format, ap);
    va_end(ap);
    return false;
}

bool driver_fail_run(struct driver_failure *f, int error_number, const char *format, ...)
{
    f->error_number = error_number;
    va_list ap;
    va_start(ap, format);
    error_vline(0, f->text, f->size, format, ap);
    va_end(ap);
    return false;
}

bool driver_out_of_memory(struct driver_failure *f, const char *path, const char *what)
{
    return driver_fail_run(f, ENOMEM, "%s: out of memory %s", path, what);
}

void driver_set_errno(const struct driver_failure *f)
{
    if (f->error_number)
        errno = f->error_number;
}

bool driver_trace_open(struct driver_trace *t, const char *path, FILE *copy,
                       struct driver_failure *f)
{
    *t = (struct driver_trace){.path = path};
    t->in = input_open(path, f->text, f->size);
    if (!t->in)
        return false;
    __fsetlocking(t->in, FSETLOCKING_BYCALLER); /* one thread reads it: no stdio locks */
    errno = 0;
    t->reader = trace_reader_open_copying(t->in, path, copy, f->text, f->size);
    if (!t->reader) {
        f->error_number = errno;
        return false;
    }
    const struct trace_header *header = trace_reader_header(t->reader);
    t->lengths_known = header->lengths_known;
    t->isa = header->isa;
    return true;
}

void driver_trace_close(struct driver_trace *t)
{
    if (t->reader)
        trace_reader_close(t->reader);
    if (t->in)
        fclose(t->in);
    t->reader = NULL;
    t->in = NULL;
}

bool driver_read_failed(const struct driver_trace *t, struct driver_failure *f)
{
    f->error_number = trace_reader_error_number(t->reader);
    return driver_fail(f, "%s", trace_reader_error(t->reader));
}

uint64_t driver_trace_bytes(const struct driver_trace *t)
{
    int cause = errno; /* ESPIPE on a pipe: not the run's failure */
    off_t at = ftello(t->in);
    errno = cause;
    return at > 0 ? (uint64_t)at : 0;
}

void driver_progress_init(struct driver_progress *p, const struct progress_hook *hook)
{
    *p = (struct driver_progress){hook, 0, hook ? PROGRESS_EVERY : UINT64_MAX};
}

void driver_progress_update(struct driver_progress *p, uint64_t bytes)
{
    struct progress_point point = {p->instructions, bytes, 0, 0};
    p->hook->report(p->hook->context, &point);
    p->due = p->instructions + PROGRESS_EVERY;
}

void driver_interval_init(struct driver_interval *d, const struct interval_hook *hook)
{
    *d = (struct driver_interval){hook, hook && hook->unit == INTERVAL_CYCLES,
                                  hook ? hook->every : UINT64_MAX};
}

void driver_interval_end(struct driver_interval *d, const struct interval_point *point)
{
    d->hook->end(d->hook->context, point);
    d->due = (interval_position(d->hook->unit, point) / d->hook->every + 1) * d->hook->every;
}

bool driver_decode_failed_at(struct driver_failure *f, const struct driver_trace *t,
                             uint64_t record, uint64_t address, unsigned length,
                             enum decode_status status)
{
    if (status != DECODE_UNDECODABLE)
        return driver_out_of_memory(f, t->path, "for the decoder");
    return driver_fail(f, "%s: record %" PRIu64 ": instruction at 0x%" PRIx64 ": its %u code "
                       "bytes do not decode", t->path, record, address, length);
}
