/* The trace-driven NetBurst (Pentium 4) timing model, one trace or two
 * (Hyper-Threading), with wrong-path speculation: turns traces
 * (traces/trace.h) into per-cycle event occurrences fed to the
 * simulated NetBurst PMU (pmu/emulated/netburst_pmu.h), which the programming
 * library programs through the MSR backend exactly as it would program a
 * processor.  docs/netburst-model.md gives every parameter's source and
 * what the model counts for each event and sub-event of the catalog.
 *
 *   struct nbm_config config;
 *   nbm_config_preset("northwood", &config, error, sizeof error);
 *   struct msr_backend *backend = nb_backend_create((struct nb_pmu_config){config.model, false});
 *   ... program_setup()/program_start() through the backend ...
 *   struct nbm_result result;
 *   nbm_simulate(&path, 1, &config, backend, NULL, &result, error, sizeof error);
 */
#ifndef SIM_NETBURST_NBM_MODEL_H
#define SIM_NETBURST_NBM_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/programming/msr.h"
#include "sim/common/interval.h"
#include "traces/progress.h"
#include "traces/trace.h"

enum { NBM_MAX_LOAD_MISSES = 64 }; /* the largest l1d_load_misses */

struct nbm_config {
    char name[32];            /* the preset it started from */
    int model;                /* CPUID family 15 model: 0-4 or 6 */
    /* Front end (docs/netburst-model.md, "Front end"): */
    uint32_t tc_uops;         /* trace cache capacity in uops */
    uint32_t tc_ways;
    uint32_t tc_line_uops;    /* uops per trace line */
    uint32_t deliver_width;   /* uops per cycle from the trace cache or the ROM */
    uint32_t itlb_entries, itlb_ways;
    uint32_t btb_entries, btb_ways;
    uint32_t ras_entries;     /* return stack */
    uint32_t uop_queue;       /* uops between the front end and allocation */
    /* Pipeline (cycles): */
    uint32_t queue_to_alloc;  /* uop queue write to allocation */
    uint32_t alloc_to_exec;   /* allocation to the earliest execution */
    uint32_t branch_redirect; /* mispredicted branch executed to the correct path's uop queue write */
    /* Out-of-order core: */
    uint32_t rob;             /* uops in flight */
    uint32_t load_buffers, store_buffers;
    uint32_t alloc_width, retire_width;
    /* Instruction latencies, throughputs and units: the timing table's
     * (sim/netburst/nbm_timings.h), by the model's group. */
    /* Memory: */
    uint32_t l1d_size, l1d_ways, l1d_latency;   /* 64-byte lines */
    uint32_t l1d_load_misses;                   /* L1 load misses outstanding at once */
    uint32_t dtlb_entries;                      /* fully associative */
    uint32_t l2_size, l2_ways, l2_latency;      /* 128-byte lines of two 64-byte sectors */
    uint32_t memory_latency;                    /* front-side bus read of a sector */
    uint32_t page_walk_latency;                 /* ITLB or DTLB miss */
    /* Sampling: */
    uint32_t pmi_latency;     /* cycles from the local APIC's taking a PMI in, at a bus
                               * clock's edge, to the core's recognizing it (IEBS) */
    uint32_t bus_ratio;       /* core clocks per front-side-bus clock: the local APIC's
                               * time base */
};

/* The preset that "netburst" (no preset named) stands for, in every
 * command: Northwood, CPUID model 2, the model the bench scripts' `cpu
 * netburst` and the encoder default to. */
#define NBM_DEFAULT_PRESET "northwood"

/* Fills `config` with a named preset: "willamette" (model 1; "willamette0"
 * model 0), "northwood" (model 2) or "prescott" (model 3; "prescott4"
 * model 4), or "netburst" (NBM_DEFAULT_PRESET).  False with a one-line
 * error otherwise. */
bool nbm_config_preset(const char *name, struct nbm_config *config, char *error,
                       size_t error_size);

/* The name of preset number `i` from 0 in the order above, or NULL past
 * the last. */
const char *nbm_preset_name(size_t i);

/* The first preset of CPUID model `model` ("prescott" for 3), or NULL. */
const char *nbm_preset_of_cpuid_model(int model);

/* Sets one parameter by name (docs/netburst-model.md lists them), e.g.
 * "l2_size" "1048576"; false with one line naming the parameter and what
 * was expected. */
bool nbm_config_set(struct nbm_config *config, const char *name, const char *value, char *error,
                    size_t error_size);

/* Whether the parameters fit together (cache geometries...); false with a
 * one-line error naming the parameter.  nbm_simulate() checks too. */
bool nbm_config_check(const struct nbm_config *config, char *error, size_t error_size);

/* One uop's way through the pipeline, told when the model has timed it
 * (docs/pipeview.md): the cycle of each stage it reached, UINT64_MAX for
 * one it did not.  `queued`: written into the uop queue (delivered by the
 * trace cache, decoded in build mode, or read from the microcode ROM);
 * `allocated`: ROB entry and renaming; `issued`: its execution starts on
 * its port and unit (the last execution of a replayed uop); `completed`:
 * its result is ready; `retired`: it retires, or (bogus) leaves the ROB
 * bogus at the machine clear.  Correct-path uops are told in program
 * order, a logical processor's wrong path after the mispredicted branch. */
struct nbm_uop {
    int thread;                /* logical processor */
    uint64_t address;          /* its instruction's */
    const uint8_t *bytes;      /* its instruction's code, `length` bytes; NULL: unknown */
    uint8_t length;
    bool code64;               /* 64-bit code */
    uint8_t index, uops;       /* its place in its instruction, of how many */
    bool bogus;                /* on the wrong path of a mispredicted branch */
    bool replayed;             /* replayed: an operand came late from an L1 miss */
    uint64_t queued, allocated, issued, completed, retired;
};

struct nbm_uop_hook {
    void (*report)(void *context, const struct nbm_uop *uop);
    void *context;
};

/* The caller's view of a run; each callback may be NULL (initialise by
 * name: `{.region = f, .context = c}`).
 * - `region`: a region marker in a trace.  Each marker drains the pipeline
 *   first, so every event of the instructions before it has been counted.
 * - `sample`: a PMI the model takes (IEBS): the core recognizes it
 *   pmi_latency cycles after the first bus-clock edge from its delivery
 *   (the local APIC runs on the bus clock), lets the instructions already
 *   allocated retire and takes it before the next one; with the cycle that
 *   delivered it (the bench's `@C pmi`), the interrupt's return address
 *   (that next instruction's EIP), and whether it was PEBS's
 *   interrupt-threshold PMI (the precise EIPs are then in the PEBS buffer).
 * Both may program the PMU through the backend (a sampler reloads its
 * counter).
 * - `interval` (NULL: none): told once the PMU has been ticked through the
 *   cycle in which the retired instructions (both logical processors, in
 *   the cycles instr_retired counts them in) reach the next multiple of its
 *   `every`, or through the cycle before the next multiple of `every`
 *   cycles (docs/stat.md, "Intervals"); it may read the counters, not
 *   write them. */
struct nbm_hooks {
    void (*region)(void *context, int thread, bool begin, uint32_t region);
    /* An MSR access record of logical processor `thread` (docs/emulate.md),
     * called as a region hook is, once the processor drained at it, at
     * cycle `cycle`; it may program the PMU. */
    void (*msr)(void *context, int thread, uint64_t cycle, const struct trace_msr *access);
    void (*sample)(void *context, int thread, uint64_t cycle, uint64_t eip, bool precise);
    void *context;
    const struct progress_hook *progress; /* NULL: none (traces/progress.h) */
    const struct interval_hook *interval; /* NULL: none (sim/common/interval.h) */
    const struct nbm_uop_hook *uops;      /* NULL: none (below; docs/pipeview.md) */
    FILE *trace_copy; /* logical processor 0's trace's bytes, written as they
                       * are read; NULL: none */
};

struct nbm_result {
    uint64_t instructions[2];  /* per thread */
    uint64_t uops[2];
    uint64_t cycles;           /* cycles simulated = PMU ticks */
    uint64_t regions;          /* region markers seen */
    uint64_t replays;          /* uops re-executed: dependents of L1-missing loads */
    uint64_t mispredicts;      /* mispredicted branches = machine clears */
    uint64_t bogus_uops[2];    /* wrong-path uops in the ROB at a clear, per thread */
    uint64_t unclassified[2];  /* retired instructions with no timing row (given a
                                * default), per thread */
};

/* Runs the traces through the model, streaming them, feeding the NetBurst
 * PMU behind `backend` (from nb_backend_create() with config->model): one
 * trace, or two as logical processors 0 and 1 (the backend must have
 * ht = true).  `hooks` may be NULL.  False with a one-line error, and
 * errno ENOMEM when memory ran out, or EIO when the PMU refused
 * detections routed before an ESCR write (run-time failures: nothing is
 * counted wrong, the run stops); otherwise a trace or the configuration
 * was bad, or a trace could not be opened (errno from fopen).  The model's
 * memory is bounded by its structures, not by its latencies
 * (docs/netburst-model.md, "Memory use"). */
bool nbm_simulate(const char *const traces[], int n_traces, const struct nbm_config *config,
                  struct msr_backend *backend, const struct nbm_hooks *hooks,
                  struct nbm_result *result, char *error, size_t error_size);

#endif
