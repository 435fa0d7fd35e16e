/* Recording a run of an unmodified program as a trace (docs/traces.md,
 * "Recording"): the program runs under valgrind with pmubench's tool
 * (traces/recorder/pmutrace.c), in the environment of traces/run_env.h.
 * The tool writes the trace (the current format, with the library's trace
 * writer) to a pipe; while the program runs, the trace reader checks it as
 * it comes and its bytes are copied under a temporary name beside the
 * output, renamed into place only when the whole stream was valid and the
 * run ended properly, so the output is whole or absent.  `pmubench record`, and `stat
 * -- PROGRAM` and `p5mon` before they simulate, record through it.
 *
 *   char *argv[] = {"wc", "input.txt", NULL};
 *   struct record_options options = {.argv = argv, .output = "wc.trace"};
 *   struct record_result result;
 *   if (record_run(&options, &result, error, sizeof error) == RECORD_OK)
 *       ... result.exit_status ...
 */
#ifndef TRACES_RECORD_H
#define TRACES_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "util/cleanup.h"
#include "util/spawn.h"
#include "traces/progress.h"

struct record_options {
    char *const *argv;        /* the program (as execvp finds it) and its arguments,
                               * NULL-terminated */
    const char *output;       /* the trace; NULL: the program's basename + ".pmutrace" */
    bool registers;           /* record the general registers and flags after every
                               * instruction (docs/traces.md, "Registers") */
    const char *recorder_dir; /* the folder of pmutrace-amd64-linux (and
                               * pmutrace-x86-linux); NULL: $PMUBENCH_RECORDER_DIR,
                               * else recorder/ beside the running executable */
    const struct progress_hook *progress; /* told the instructions recorded so far
                                           * (traces/progress.h); NULL: none */
    const char *cpu;          /* the CPU the program sees (traces/cpu_view.h): "host" or a
                               * part's name; NULL: "host" */
    int logical_processors;   /* emulating: the /dev/cpu/N/msr that open (N below it);
                               * 0 or 1: /dev/cpu/0/msr alone */
};

enum record_status {
    RECORD_OK,        /* the trace is written */
    RECORD_BAD_INPUT, /* no program, one that cannot be found or started, an output
                       * that is the program or not a regular file: nothing written */
    RECORD_FAILED,    /* a run-time failure: the recorder missing, valgrind, memory,
                       * the output: nothing written */
};

struct record_result {
    int exit_status; /* the program's exit status, or 128 + the signal that killed it */
    bool execed;     /* it called execve: the trace ends there (the new program is
                      * not recorded) */
    bool cpu_widened; /* a 64-bit program given a part without 64-bit mode: it saw the
                       * part's CPUID with the x86-64 baseline added
                       * (cpu_view_widen_64) */
};

/* Records the program's run into the output.  RECORD_OK with the
 * program's exit status in `result`; otherwise one line in `error`
 * (without a "pmubench record:" prefix) and nothing written.  valgrind
 * runs as util/cleanup.h's foreground child: as under system(), the
 * terminal's interrupt goes to the program and SIGQUIT is ignored
 * meanwhile; a signal that ends pmubench (SIGTERM, a SIGINT sent by a
 * process, SIGHUP, SIGPIPE) ends valgrind and removes the temporary
 * trace first. */
enum record_status record_run(const struct record_options *options, struct record_result *result,
                              char *error, size_t error_size);

/* Records as record_run does (options->output aside) into a new temporary
 * trace "$TMPDIR/PREFIX-XXXXXX" (util/cleanup.h, cleanup_temporary),
 * listed under `temporary` so that a fatal signal removes it, its path in
 * `trace`: the commands that record a program before they simulate it
 * (stat -- PROGRAM, p5mon's command).  RECORD_OK: the caller removes it
 * (cleanup_remove_file) after use; otherwise nothing is left and `error`
 * has the line (RECORD_FAILED when the temporary file cannot be made). */
enum record_status record_temporary(const struct record_options *options, const char *prefix,
                                    struct cleanup_file *temporary, char *trace, size_t size,
                                    struct record_result *result, char *error,
                                    size_t error_size);

/* What record_start_emulated checks before it starts anything: the
 * program, the output (when given: it must not be the program, and a
 * regular file or a new one), the recorder and the CPU; RECORD_OK, or
 * the status with one line in `error`. */
enum record_status record_check_emulated(const struct record_options *options, char *error,
                                         size_t error_size);

/* Whether valgrind could not start the program (a bad "#!" interpreter, a
 * binary it cannot run), from its wait status and the bytes of the stream
 * it wrote: it said why, exited with 126 (NOEXEC, its coregrind/m_ume/main.c)
 * and wrote nothing. */
bool record_not_started(int wait_status, uint64_t stream_bytes);

/* Starts the recorder on the program of `options` (argv, recorder_dir,
 * cpu, registers; output checked, not written; not progress) for `pmubench emulate`
 * (docs/emulate.md): the frames of the trace of every process of the run
 * (traces/record_stream.h, record_stream_unframe), with their MSR
 * accesses, go to the pipe `trace_fd`, and the tool waits for each
 * access's answer on `reply_fd` (--pmutrace-emulate-fd); both are the
 * child's (the caller closes its copies of the ends it does not read or
 * write).  RECORD_OK with *child started (spawn_wait waits for it);
 * otherwise one line in `error`, as record_run's. */
enum record_status record_start_emulated(const struct record_options *options, int trace_fd,
                                         int reply_fd, struct spawn *child, char *error,
                                         size_t error_size);

#endif
