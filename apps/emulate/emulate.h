/* Running an unmodified program on a simulated machine (docs/emulate.md):
 * the recorder's valgrind tool records its instructions and hands them,
 * as they retire, to the machine's model, in lockstep; the program's
 * pread and pwrite of /dev/cpu/N/msr reach the machine's emulated PMU
 * once the model has retired every instruction before them, as the Linux
 * msr driver would give them.
 *
 *   char *argv[] = {"selfmon", NULL};
 *   struct emulate_options options = {.argv = argv, .config = &config};
 *   struct emulate_result result;
 *   if (emulate_run(&options, &result, error, sizeof error) == EMULATE_OK)
 *       ... result.exit_status, result.simulated ...
 */
#ifndef APPS_EMULATE_EMULATE_H
#define APPS_EMULATE_EMULATE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/machine/machine.h"

struct emulate_options {
    char *const *argv;                   /* the program and its arguments, NULL-terminated */
    const struct machine_config *config; /* the machine it runs on */
    const char *recorder_dir;            /* as record_options.recorder_dir */
    const char *output;                  /* the run's trace, written whole when the run
                                          * ends properly; NULL: none */
    const char *cpu;                     /* the CPU the program's CPUID describes, as
                                          * record_options.cpu: the -m name */
    bool hyper_threading;                /* two logical processors, the program on 0
                                          * (a machine with Hyper-Threading) */
    const char *vcd_path;                /* the PMU's waveform, written whole when the
                                          * run ends properly (pmu/waveform/); NULL:
                                          * none */
    const char *gtkw_path;               /* ... and its GTKWave save file, or NULL */
};

struct emulate_result {
    int exit_status;                /* the program's, or 128 + the signal that killed it */
    struct machine_result simulated;
    uint64_t msr_reads, msr_writes; /* the program's accesses of /dev/cpu/N/msr (RDTSC not one) */
    uint64_t msr_failed;            /* ... that failed with EIO */
};

enum emulate_status {
    EMULATE_OK,
    EMULATE_BAD_INPUT, /* no program, one that cannot be found or started */
    EMULATE_FAILED,    /* a run-time failure: the recorder, valgrind, the model, memory */
};

/* Runs the program on a fresh machine of options->config, on its logical
 * processor 0 (of one, or two with options->hyper_threading); EMULATE_OK when it ran to its end, whatever its exit
 * status; otherwise one line in `error`. */
enum emulate_status emulate_run(const struct emulate_options *options,
                                struct emulate_result *result, char *error, size_t error_size);

#endif
