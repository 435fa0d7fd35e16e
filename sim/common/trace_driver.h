/* What the two timing models' trace drivers (sim/p5/p5_simulate.c,
 * sim/netburst/nbm_simulate.c) do alike: open a trace as a stream, read its
 * records in place, tell the records whose code bytes can be decoded, and
 * report a failure as one line: the reader's (`PATH: byte offset N: ...`),
 * an instruction that does not decode, or a run-time failure: want of
 * memory, a model's internal error (errno ENOMEM or EIO once the run is
 * over, so that the command exits with status 1, cli/exit_status.c).
 *
 * What they do differently stays in each: the P5 holds an instruction back
 * to see whether the next pairs with it and calls a region hook at the
 * marker; the NetBurst runs one or two traces (Hyper-Threading's logical
 * processors, interleaved by their front ends) and calls a region hook
 * once the marker's logical processor has drained. */
#ifndef SIM_COMMON_TRACE_DRIVER_H
#define SIM_COMMON_TRACE_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "isa/x86.h"
#include "sim/common/interval.h"
#include "sim/decode/decode_cache.h"
#include "traces/progress.h"
#include "traces/trace.h"

/* Where a run's failure goes. */
struct driver_failure {
    char *text;              /* the caller's buffer: one line */
    size_t size;
    int error_number;        /* a run-time failure's errno (ENOMEM, EIO): the
                              * run's, not the input's; 0: none or bad input */
};

/* One trace being read. */
struct driver_trace {
    const char *path;
    FILE *in;
    struct trace_reader *reader;
    bool lengths_known;      /* the header's: records' code bytes are instructions */
    enum trace_isa isa;
};

/* Writes the failure's line; false. */
__attribute__((format(printf, 2, 3))) bool driver_fail(struct driver_failure *f,
                                                       const char *format, ...);

/* A run-time failure, errno `error_number` (EIO: a model's internal
 * error), with its line; false. */
__attribute__((format(printf, 3, 4))) bool driver_fail_run(struct driver_failure *f,
                                                           int error_number,
                                                           const char *format, ...);

/* "PATH: out of memory WHAT", errno ENOMEM; false. */
bool driver_out_of_memory(struct driver_failure *f, const char *path, const char *what);

/* errno that of the run-time failure (ENOMEM, EIO) when the run failed of
 * one, else as it is. */
void driver_set_errno(const struct driver_failure *f);

/* Opens the trace at `path` for reading as a stream and reads its header,
 * its bytes copied to `copy` as they are read unless NULL
 * (trace_reader_open_copying); false with input_open's or the reader's
 * line (driver_trace_close() in either case). */
bool driver_trace_open(struct driver_trace *t, const char *path, FILE *copy,
                       struct driver_failure *f);
void driver_trace_close(struct driver_trace *t);

/* The reader's failure; false. */
bool driver_read_failed(const struct driver_trace *t, struct driver_failure *f);

/* The next basic block or, between blocks, the next record that is not an
 * instruction (trace_next_block()); false on a failure, with the reader's
 * line. */
static inline bool driver_trace_next_block(struct driver_trace *t,
                                           const struct trace_block **block,
                                           const struct trace_record **record,
                                           struct driver_failure *f)
{
    return trace_next_block(t->reader, block, record) == TRACE_OK || driver_read_failed(t, f);
}

/* The bytes of the trace its reader has taken from the file so far; 0 when
 * not known (a pipe). */
uint64_t driver_trace_bytes(const struct driver_trace *t);

/* A run's reports to a progress hook (traces/progress.h). */
struct driver_progress {
    const struct progress_hook *hook; /* NULL: none */
    uint64_t instructions;            /* read so far */
    uint64_t due;                     /* the count of the next report; never, without a hook */
};

void driver_progress_init(struct driver_progress *p, const struct progress_hook *hook);

/* `n` more instructions read; whether a report is due
 * (driver_progress_update()). */
static inline bool driver_progress_due(struct driver_progress *p, uint32_t n)
{
    p->instructions += n;
    return p->instructions >= p->due;
}

/* Tells the hook the instructions read and `bytes` of the traces. */
void driver_progress_update(struct driver_progress *p, uint64_t bytes);

/* A run's interval ends (sim/common/interval.h). */
struct driver_interval {
    const struct interval_hook *hook; /* NULL: none */
    bool cycles;                      /* the hook's unit is cycles */
    uint64_t due;                     /* the unit's total that ends the next interval; never,
                                       * without a hook */
};

void driver_interval_init(struct driver_interval *d, const struct interval_hook *hook);

/* Whether the run's totals of completed instructions and of cycles end an
 * interval (then driver_interval_end()): one compare without a hook. */
static inline bool driver_interval_due(const struct driver_interval *d, uint64_t instructions,
                                       uint64_t cycles)
{
    return (d->cycles ? cycles : instructions) >= d->due;
}

/* Tells the hook the interval ends at `point`; the next ends at the next
 * multiple of `every` past it. */
void driver_interval_end(struct driver_interval *d, const struct interval_point *point);

/* The instruction of `length` bytes at `address`, record `record` (from 1:
 * the line of `pmubench trace dump`), did not decode (`status` not
 * DECODE_OK): the instruction that does not, or want of memory for the
 * decoder; false. */
bool driver_decode_failed_at(struct driver_failure *f, const struct driver_trace *t,
                             uint64_t record, uint64_t address, unsigned length,
                             enum decode_status status);

#endif
