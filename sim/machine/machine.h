/* The simulated machines behind one interface (docs/architecture.md, "The
 * machine interface"): a timing model chosen by name, as `-m MODEL` names
 * it in stat, sample, sweep and compare ("p5", "pmmx", "host" -- the P5
 * with this machine's caches --, "netburst" for NBM_DEFAULT_PRESET, and
 * "netburst-PRESET"), its parameters set by name (-F NAME=VALUE), what it
 * can do, and a machine made of it with its simulated PMU attached, which
 * simulates traces telling one set of hooks.  The applications (apps/,
 * cli/) reach the P5 model (sim/p5) and the NetBurst model (sim/netburst)
 * only through it: which model a machine is, is known here, in the models
 * and in the PMUs (pmu/), nowhere above.
 *
 *   struct machine_config config;
 *   if (!machine_config_choose("netburst-prescott", &config, error, size) ||
 *       !machine_config_set(&config, "l2_size", "1048576", error, size))
 *       ... bad input ...
 *   struct machine machine;
 *   if (machine_create(&machine, &config, 1)) {
 *       ... program_setup()/program_start() through machine.backend ...
 *       machine_simulate(&machine, traces, &hooks, &result, error, size);
 *       ... program_stop()/program_read() ...
 *       machine_destroy(&machine);
 *   }
 *
 * The simulation is the model's own: a machine adds no work per
 * instruction (its hooks are told per region marker, interval, PMI or
 * uop, as the models tell theirs). */
#ifndef SIM_MACHINE_MACHINE_H
#define SIM_MACHINE_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/catalog/event_spec.h"
#include "pmu/programming/msr.h"
#include "sim/common/interval.h"
#include "sim/netburst/nbm_model.h"
#include "sim/p5/p5_model.h"
#include "traces/progress.h"
#include "traces/trace.h"

/* A timing model with its parameters: the P5's or the NetBurst's, as
 * `pmu` says (read it through machine_caps). */
struct machine_config {
    enum pmu_kind pmu;
    struct p5_config p5;
    struct nbm_config netburst;
};

/* Fills `config` with the machine `name` names; false with a one-line
 * error otherwise: "unknown model 'NAME'" with the nearest name
 * (util/suggest.h) or the names expected, or the NetBurst model's line
 * for an unknown preset after "netburst-". */
bool machine_config_choose(const char *name, struct machine_config *config, char *error,
                           size_t size);

/* The same for a command counting `events` (event strings): a bare
 * "netburst" takes the preset of the CPUID model the strings' prefixes
 * choose (event_spec_cpuid_model: a netburst_p:: string chooses Prescott, as in
 * encode and alloc). */
bool machine_config_choose_for(const char *name, const char *const *events, int n_events,
                               struct machine_config *config, char *error, size_t size);

/* The P5 model of P5 preset `name` (p5_config_preset: "p5", "pmmx" or
 * "host", with its messages), for run_p5mon, which measures the P5
 * alone. */
bool machine_config_p5(const char *name, struct machine_config *config, char *error,
                       size_t size);

/* Sets one parameter of the model by name (-F NAME=VALUE:
 * docs/p5-model.md or docs/netburst-model.md lists them); false with the
 * model's one-line error. */
bool machine_config_set(struct machine_config *config, const char *name, const char *value,
                        char *error, size_t size);

/* A `-F NAME=VALUE` argument: MACHINE_SET, MACHINE_NOT_ASSIGNMENT for an
 * argument without NAME= (the caller's usage error), or MACHINE_REFUSED
 * with machine_config_set's line in `error`. */
enum machine_assignment { MACHINE_SET, MACHINE_NOT_ASSIGNMENT, MACHINE_REFUSED };
enum machine_assignment machine_config_assign(struct machine_config *config,
                                              const char *assignment, char *error, size_t size);

/* What a machine has and does, for the commands to choose by. */
struct machine_caps {
    enum pmu_kind pmu;          /* its PMU: the event catalog, generic names' events */
    const char *event_prefix;   /* the prefix of its events: "p5::"; "netburst::", or
                                 * "netburst_p::" for the models with instr_completed */
    const char *core;           /* the machine in messages: "the P5", or the NetBurst
                                 * core ("Northwood") */
    const char *timings;        /* the page of its timing table ("docs/p5-timings.md") */
    int counters;               /* its PMU's counters: 2 (P5), 18 (NetBurst) */
    bool hyper_threading;       /* two logical processors: two traces at once */
    bool ia32e;                 /* runs 64-bit code (EM64T) */
    bool uops;                  /* times uops (--pipeview; intervals count them) */
    bool sampling;              /* takes PMIs on overflow (IEBS) and has PEBS */
    bool linked_pmus;           /* PMUs linked to the one it feeds count the same
                                 * occurrences: several runs in one pass (on the
                                 * NetBurst, runs that neither sample nor tag) */
};

struct machine_caps machine_caps(const struct machine_config *config);

/* The configuration the PMU layer plans and parses events for on this
 * machine (its NetBurst CPUID model; with Hyper-Threading when
 * `hyper_threading`); the P5's events take none of it. */
struct nb_pmu_config machine_pmu_config(const struct machine_config *config,
                                        bool hyper_threading);

/* False with "'EVENT': not an event of the model's PMU (-m)" when an
 * event's PMU prefix is not the machine's. */
bool machine_check_events(const struct machine_config *config, const char *const *events,
                          int n_events, char *error, size_t size);

/* Whether the machine could have run code of `isa`: 32-bit code always,
 * 64-bit code only with caps.ia32e. */
bool machine_runs(const struct machine_config *config, enum trace_isa isa);

/* The events `stat` counts when none are named, as `perf stat` counts a
 * default set: cycles, instructions, cache (L2 on the NetBurst, L1 data on
 * the P5) references and misses, branches and mispredicted branches
 * (pipeline flushes on the P5), the questions of Linux's generic hardware
 * events.  A NULL-terminated list of event strings without a PMU prefix;
 * docs/stat.md, "Default events". */
const char *const *machine_default_events(const struct machine_config *config);

/* When the trace at `path` holds code the machine could not have run, a
 * one-line warning saying so and what the model does with it, naming the
 * trace `name` (the path, or the program a temporary trace was recorded
 * from), in `warning`, and true; false otherwise: for 32-bit code, a file
 * that is not a trace (reading it reports that) and a file that is not a
 * regular file (a pipe: its header is read once, by the simulation). */
bool machine_isa_warning(const struct machine_config *config, const char *path,
                         const char *name, char *warning, size_t size);

/* A machine: a model and the simulated PMU it feeds. */
struct machine {
    struct machine_config config;
    int threads;                 /* logical processors: traces simulated at once */
    struct msr_backend *backend; /* its PMU, programmed through the programming
                                  * library (pmu/programming/program.h) as hardware is */
};

/* A machine of `config` with `threads` logical processors (1, or 2 on a
 * machine with Hyper-Threading) and a fresh simulated PMU of its kind;
 * false when memory ran out. */
bool machine_create(struct machine *machine, const struct machine_config *config, int threads);

/* A machine of `config`, which has Hyper-Threading, whose logical
 * processor 1 runs nothing: one trace, on logical processor 0, and a PMU
 * of two (its T1 bits and logical processor 1's MSR accesses; `pmubench
 * emulate --ht`); false when memory ran out. */
bool machine_create_one_of_two(struct machine *machine, const struct machine_config *config);

/* A fresh simulated PMU that counts, under its own programming, what the
 * machine's PMU is told (caps.linked_pmus; on the NetBurst the simulation
 * fails when one of them samples or tags: pmu/emulated/netburst_feed.h);
 * the caller destroys it (msr_backend_destroy) after the machine's last
 * simulation.  NULL when memory ran out. */
struct msr_backend *machine_link_pmu(struct machine *machine);

void machine_destroy(struct machine *machine);

/* What a caller watches during a simulation; each member may be NULL
 * (initialise by name).  `region`: a region marker of logical processor
 * `thread`'s trace, every event before it counted (the P5 model's markers
 * are thread 0's).  `sample`: a PMI the model takes (caps.sampling;
 * nbm_hooks says when).  Both may program the PMU through the backend.
 * `interval`, `progress`: as the models tell them (sim/common/interval.h,
 * traces/progress.h).  `uops`: each uop timed (caps.uops;
 * docs/pipeview.md). */
struct machine_hooks {
    void (*region)(void *context, int thread, bool begin, uint32_t region);
    /* `msr`: an MSR access record of logical processor `thread`'s trace
     * (docs/emulate.md), every instruction before it retired and counted,
     * at cycle `cycle` (the P5's markers and accesses are thread 0's); it
     * may program the PMU. */
    void (*msr)(void *context, int thread, uint64_t cycle, const struct trace_msr *access);
    void (*sample)(void *context, int thread, uint64_t cycle, uint64_t eip, bool precise);
    void *context;
    const struct progress_hook *progress;
    const struct interval_hook *interval;
    const struct nbm_uop_hook *uops;
    /* Logical processor 0's trace's bytes, written here as the model
     * reads them (trace_reader_open_copying; pmubench emulate -o); NULL:
     * none. */
    FILE *trace_copy;
};

struct machine_result {
    uint64_t instructions[2]; /* trace records simulated, by logical processor */
    uint64_t uops[2];         /* uops retired (0 on a machine without caps.uops) */
    uint64_t cycles;          /* cycles simulated: the PMU's ticks */
    uint64_t regions;         /* region markers seen */
    uint64_t unclassified[2]; /* instructions without a timing row (given the default
                               * clocks), by logical processor */
};

/* Runs machine->threads traces (logical processor i's is traces[i])
 * through the model, feeding the machine's PMU; `hooks` may be NULL.
 * False with the model's one-line error and errno: ENOMEM when memory ran
 * out, EIO when the PMU refused what the model routed to it (run-time
 * failures); otherwise a trace or the parameters were bad, or a trace
 * could not be opened (errno from fopen).  `result` holds what was
 * simulated either way. */
bool machine_simulate(struct machine *machine, const char *const traces[],
                      const struct machine_hooks *hooks, struct machine_result *result,
                      char *error, size_t error_size);

#endif
