/* Event-based sampling on the simulated NetBurst (`pmubench sample`;
 * docs/sample.md; docs/netburst-model.md, "Sampling"): one event, planned
 * by the allocator and programmed through the programming library as
 * `stat` programs its events, with a preset one period from overflow, over
 * one trace, all of it or one region (apps/stat/region_gate.h).  PEBS: a
 * replay-tagging metric on IQ_COUNTER4, whose records the microassist
 * stores in a DS save area set up in the simulated PMU's memory
 * (pmu/emulated/netburst_sampling.h), read back after the run; IEBS: a PMI on each
 * overflow, the EIP the model samples when it takes it, the counter
 * reloaded by the handler.  Each sampled address is named by the ELF
 * symbols of the traced program, or of another file, at its load base
 * (apps/sample/sample_symbols.h).
 *
 *   struct sample_session s;
 *   if (sample_plan(&s, &options, error, size) && sample_open(&s, error, size) &&
 *       sample_run(&s, print_sample, out, &totals, error, size))
 *       n = sample_histogram(&s, &rows);
 *   sample_fini(&s);
 *
 * The order of the calls: sample_plan (always followed by sample_fini,
 * whatever it returns), then sample_open once, then sample_run and
 * sample_histogram, each any number of times (each sample_run counts its
 * own samples afresh; sample_histogram gives those of the last run), then
 * sample_fini.  The session borrows the options' strings (event, trace,
 * symbols) and model: they must outlive it.
 *
 * The functions that can fail return false with a one-line error and
 * errno telling a run-time failure (ENOMEM, EIO for an MSR access the
 * simulated PMU refused, the errors of reading a file) from input that is
 * not what it should be (EINVAL, ENOENT, EISDIR...), as machine_simulate
 * does. */
#ifndef APPS_SAMPLE_SAMPLE_RUN_H
#define APPS_SAMPLE_SAMPLE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/programming/alloc.h"
#include "pmu/emulated/netburst_sampling.h"
#include "apps/sample/sample_symbols.h"
#include "apps/stat/region_gate.h"
#include "sim/machine/machine.h"
#include "traces/trace.h"

/* The longest period: half the 40-bit counter. */
#define SAMPLE_MAX_PERIOD (1ull << 39)

/* The PEBS buffer's records: by default, and at most. */
#define SAMPLE_DEFAULT_PEBS_RECORDS (1ull << 20)
#define SAMPLE_MAX_PEBS_RECORDS (1ull << 24)

/* Borrowed by the session: the strings and the model must outlive it. */
struct sample_options {
    const struct machine_config *model; /* a NetBurst model (machine_config_choose_for) */
    const char *event;   /* an event string, its netburst:: prefix optional */
    bool pebs;           /* PEBS: `event` is a replay-tagging metric; else IEBS */
    uint64_t period;     /* events between samples: 1 to SAMPLE_MAX_PERIOD */
    long region;         /* the region counted, or REGION_WHOLE_TRACE */
    const char *trace;
    const char *symbols; /* the ELF file that names the addresses; NULL: the
                          * program the trace names, when it can be read */
    bool no_symbols;     /* leave the addresses raw */
    uint64_t pebs_records; /* PEBS: the records the buffer holds, 1 to
                            * SAMPLE_MAX_PEBS_RECORDS (0: SAMPLE_DEFAULT_PEBS_RECORDS);
                            * the assist stores none once it is full */
};

/* One sample, as sample_run reports it.  `symbol` and `record` point into
 * the run: valid only during the callback (copy what is kept). */
struct sample {
    uint64_t eip;                          /* the address sampled */
    const struct elf_symbol_match *symbol; /* the symbol covering it, or NULL */
    const struct nb_pebs_record *record;   /* PEBS: the record (its slot 1 is `eip`);
                                            * NULL: a PMI the model took (IEBS) */
    int thread;                            /* IEBS: the logical processor interrupted */
    uint64_t cycle;                        /* IEBS: the cycle that delivered the PMI */
    bool precise;                          /* IEBS: PEBS's interrupt-threshold PMI */
};

typedef void sample_fn(void *context, const struct sample *sample);

struct sample_totals {
    uint64_t samples;      /* the PEBS records, or the PMIs taken */
    uint64_t instructions; /* simulated */
    uint64_t cycles;
};

/* A sampling experiment.  After sample_open, `symbols_file` says which
 * file names the addresses (and symbols.base its load base: runtime
 * address = file address + base), or `no_symbols_why` why none does; the
 * other fields are the session's own. */
struct sample_session {
    const char *symbols_file; /* NULL: none, the addresses stay raw; else
                               * options.symbols, or `program` below (it points
                               * into the session: valid until sample_fini) */
    char no_symbols_why[TRACE_MAX_TEXT + 1024]; /* "--no-symbols", "the trace names
                                                 * no program", a file's error... */
    struct sample_options options;
    struct alloc_request request;
    struct alloc_plan plan;
    char program[TRACE_MAX_TEXT]; /* the program the trace names */
    bool ia32e;                   /* the DS save area's layout: IA-32e mode */
    struct sample_symbols symbols;
};

/* Initialises `session` (sample_fini frees it whatever this returns) and
 * plans the event: the model's prefix when it has none, ":pebs" for PEBS,
 * ":ovf_pmi=t0" unless it names an ovf_pmi.  False for options out of
 * range, an event that is not a NetBurst event, is too long with those
 * modifiers (1023 bytes at most), or that the allocator cannot place. */
bool sample_plan(struct sample_session *session, const struct sample_options *options,
                 char *error, size_t error_size);

/* Reads the trace's header (its ISA chooses the DS save area's layout on
 * a model with IA-32e mode) and finds the symbols: those of
 * options->symbols, which must load (docs/sample.md, "Which file"), else
 * those of the program the trace names when they load, else none.  False
 * when the trace cannot be read, or options->symbols cannot name it. */
bool sample_open(struct sample_session *session, char *error, size_t error_size);

/* Programs a fresh simulated PMU, runs the model over the trace and
 * reports each sample to `emit` (NULL: none): each PMI as the model takes
 * it, then (PEBS) each record of the buffer.  The samples per symbol
 * start from 0.  False when the model fails, an MSR access of the run
 * does (EIO), or memory for the DS save area runs out (ENOMEM). */
bool sample_run(struct sample_session *session, sample_fn *emit, void *context,
                struct sample_totals *totals, char *error, size_t error_size);

/* After sample_run: its samples per symbol, most first, then by name, in
 * *rows (valid until the next sample_run, sample_histogram or
 * sample_fini); how many rows (0 without symbols). */
size_t sample_histogram(struct sample_session *session, const struct sample_count **rows);

void sample_fini(struct sample_session *session);

#endif
