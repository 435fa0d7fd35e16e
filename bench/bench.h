/* The stimulus test bench: `pmubench run SCRIPT [--vcd FILE]`.
 * The script language is a contract documented in README.md ("Bench
 * scripts") and docs/semantics.md. */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pmu/catalog/event_spec.h"
#include "pmu/programming/msr.h"
#include "pmu/emulated/netburst_pmu.h"

enum bench_stmt_kind {
    STMT_CPU, STMT_WRMSR, STMT_RDMSR, STMT_RDPMC, STMT_THREAD, STMT_EVENT, STMT_TICK,
    STMT_WRMEM, STMT_RDMEM, STMT_RETIRE, STMT_INTERRUPT,
};

/* The retiring instruction of a `retire` statement. */
struct bench_retire {
    uint64_t eip;
    uint8_t tags;                /* NB_TAG_* bits */
    bool ia32e;
    bool has_regs;               /* some REG=VALUE given; the others are 0 */
    uint64_t regs[NB_NUM_REGS];
};

struct bench_stmt {
    enum bench_stmt_kind kind;
    int line;
    uint32_t msr;        /* wrmsr, rdmsr; the ECX of rdpmc */
    uint64_t value;      /* wrmsr value; tick count */
    int thread;          /* thread, event */
    bool active;         /* thread */
    int cpl;             /* thread: -1 keeps the current CPL */
    int event;           /* netburst: index into nb_event_table; p5: the event code */
    uint16_t mask;       /* netburst sub-event bits */
    uint32_t count;      /* event */
    uint64_t addr;       /* wrmem, rdmem */
    unsigned size;       /* wrmem, rdmem: 1, 2, 4 or 8 bytes */
    struct bench_retire retire;
};

struct bench_script {
    const char *path;
    enum pmu_kind cpu;   /* the `cpu` statement's processor: its PMU */
    int model;           /* netburst CPUID model */
    bool ht;
    struct bench_stmt *stmts;
    size_t n_stmts;
};

/* The statement's keyword, e.g. "tick". */
const char *bench_stmt_verb(enum bench_stmt_kind kind);

/* The largest N of `tick N`: a run stays bounded. */
#define BENCH_MAX_TICK 0xffffffffull

/* Exit statuses of the bench. */
enum { BENCH_OK = 0, BENCH_RUNTIME_ERROR = 1, BENCH_SCRIPT_ERROR = 2 };

/* Parses a whole script, of lines of at most TEXT_MAX_LINE characters
 * (util/line_stream.h).  On bad input returns BENCH_SCRIPT_ERROR with
 * "file:line: message" in `error`; when reading or memory fails,
 * BENCH_RUNTIME_ERROR with "file: cannot read: REASON" or "... out of
 * memory". */
int bench_parse(FILE *in, const char *path, struct bench_script *script, char *error,
                size_t error_size);
void bench_script_free(struct bench_script *script);

struct bench_options {
    FILE *out;                     /* statement output (rdmsr, rdpmc, #GP, pmi) */
    const char *vcd_path;          /* write a waveform here, or NULL */
    const char *gtkw_path;         /* and its GTKWave save file here (pmu/waveform/gtkw.h), or
                                      NULL for none */
    FILE *record_log;              /* log every MSR access here, or NULL */
    struct msr_backend *hardware;  /* run wrmsr/rdmsr on this instead of a simulation */
    bool cycle_by_cycle;           /* run every cycle of a tick by itself, never several
                                      at once (the reference for tests) */
    uint64_t *cycles_stepped;      /* if not NULL, gets how many cycles ran one by one
                                      (both passes with a waveform): the run's work */
};

/* Runs a parsed script.  Returns BENCH_OK, or BENCH_RUNTIME_ERROR with a
 * one-line message in `error` (a backend failure, an unwritable VCD). */
int bench_run(const struct bench_script *script, const struct bench_options *options,
              char *error, size_t error_size);

/* bench_run with the statement output held in memory: options->out gets
 * all of it after a successful run and none of it after a failure, as an
 * output is written whole or not at all (`pmubench run`'s standard
 * output).  BENCH_RUNTIME_ERROR with "out of memory" when it cannot be
 * held. */
int bench_run_whole(const struct bench_script *script, const struct bench_options *options,
                    char *error, size_t error_size);

#endif
