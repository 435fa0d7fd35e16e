/* The trace-driven P5 (Pentium) timing model: turns a trace (traces/trace.h)
 * into per-cycle event occurrences fed to the simulated P5 PMU
 * (pmu/emulated/p5_pmu.h), which the programming library programs through the MSR
 * backend interface exactly as it would program hardware.  docs/p5-model.md
 * says what each of the 38 events counts here.
 *
 *   struct p5_config config;
 *   p5_config_preset("p5", &config, error, sizeof error);
 *   p5_config_set(&config, "btb_entries", "512", error, sizeof error);
 *   struct msr_backend *backend = p5_backend_create();
 *   ... program_setup()/program_start() through the backend ...
 *   struct p5_sim_result result;
 *   p5_simulate_trace(path, &config, backend, &hooks, &result, error, sizeof error);
 *   ... program_stop()/program_read() ...
 */
#ifndef SIM_P5_P5_MODEL_H
#define SIM_P5_P5_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/programming/msr.h"
#include "sim/common/interval.h"
#include "traces/progress.h"
#include "traces/trace.h"
#include "sim/p5/p5_timings.h"

/* Errata in appendix A of Safford 1997 that change counts; each may be switched
 * off (p5_config.errata is a mask of these). */
enum p5_erratum {
    P5_ERRATUM_MISALIGNED_DOUBLE_MISS = 1u << 0, /* data read/write miss count twice */
    P5_ERRATUM_MISALIGNED_DOUBLE_ACCESS = 1u << 1, /* data read/write count twice */
    P5_ERRATUM_FST_MISALIGNED_TWICE = 1u << 2,   /* 0x0b counts twice for FST/FSTP */
    P5_ERRATUM_MISALIGNED_STALL_2 = 1u << 3,     /* 0x1a: 2 stall clocks, not 3 */
    P5_ERRATA_ALL = (1u << 4) - 1,
};

struct p5_cache_config {
    uint32_t size;      /* bytes */
    uint32_t ways;
    uint32_t line;      /* bytes */
};

struct p5_tlb_config {
    uint32_t entries;
    uint32_t ways;
    uint32_t page;      /* bytes */
};

struct p5_config {
    char name[32];                  /* the preset it started from */
    struct p5_cache_config dcache;  /* L1 data: LRU, write-back, no write allocate */
    struct p5_cache_config icache;  /* L1 code */
    struct p5_tlb_config dtlb, itlb;
    uint32_t dcache_banks;          /* interleave banks of 4 bytes (bank conflicts) */
    uint32_t btb_entries, btb_ways; /* 2-bit history, allocated on taken branches */
    uint32_t write_buffers;         /* one per pipe on the P5 */
    /* Clocks (core clocks) for the clock count: */
    uint32_t l2_latency;            /* an L1 miss that hits the L2 */
    uint32_t memory_latency;        /* an L2 miss */
    uint32_t l2_size, l2_ways, l2_line; /* 0 size: no L2 (every L1 miss goes to memory) */
    uint32_t mispredict_penalty;    /* clocks lost on a mispredicted branch */
    uint32_t errata;                /* enum p5_erratum mask */
    /* Extensions (docs/p5-model.md, "Parameters"): */
    bool dcache_write_back;         /* false: write-through (every write goes to the bus) */
    bool dcache_write_allocate;     /* true: a write miss fills the line */
    uint32_t l2_burst;              /* clocks the bus is busy filling a line from the L2 */
    uint32_t memory_burst;          /* ... from memory */
    uint32_t bus_write;             /* clocks of one write-buffer write on the bus */
    uint32_t bus_writeback;         /* clocks of one line written back */
    uint32_t tlb_miss_penalty;      /* clocks of a page walk */
    uint32_t misaligned_penalty;    /* clocks lost on a misaligned access */
    uint32_t bank_conflict_penalty; /* clocks lost on a U/V bank conflict */
    enum p5_precision fpu_precision; /* x87 precision control: FDIV, FIDIV... clocks */
    bool mmx;                       /* the Pentium MMX: MMX rows and pairing, free prefixes */
    /* Not a parameter (no name sets it): true issues every group step by
     * step, never by a block's clean replay (docs/p5-model.md, "Speed"),
     * for the tests that check the two count alike. */
    bool step_by_step;
};

/* Fills `config` with a named preset: "p5" (Safford 1997, Table 5.5, the
 * thesis machine), "pmmx" (the Pentium MMX, CPUID family 5 model 4) or "host" (this machine's L1/L2 geometry from
 * /sys/devices/system/cpu/cpu0/cache).  False with a one-line error naming
 * the preset (or the /sys file) otherwise. */
bool p5_config_preset(const char *name, struct p5_config *config, char *error, size_t error_size);

/* The same, reading the "host" preset's cache geometry from `cache_dir`
 * (a directory laid out as /sys/devices/system/cpu/cpu0/cache, holding
 * index* subdirectories) instead of the real one; for tests. */
bool p5_config_preset_from(const char *name, const char *cache_dir, struct p5_config *config,
                           char *error, size_t error_size);

/* Checks that the parameters fit together (cache size = ways x line x a
 * power-of-two number of sets...); false with a one-line error naming the
 * parameter.  p5_simulate_trace() checks too. */
bool p5_config_check(const struct p5_config *config, char *error, size_t error_size);

/* Sets one parameter by name (docs/p5-model.md lists them), e.g.
 * "dcache_size" "16384"; false with a one-line error for an unknown name or
 * a bad value (not a number, not a power of two where one is needed...). */
bool p5_config_set(struct p5_config *config, const char *name, const char *value, char *error,
                   size_t error_size);

/* Region markers in the trace: called at each, so that a driver may start
 * or stop counters there as run_p5mon's stubs do (Safford 1997, section 4.2.2).
 * `interval` (NULL: none) is told at the end of the first basic block
 * that brings the instructions issued (a block's last instruction held
 * back to pair with the next block's first is issued with that one), or
 * the clocks, to the next multiple of its `every`: the PMU has then been
 * told every clock and event so far, as at a region marker
 * (docs/stat.md, "Intervals"). */
struct p5_sim_hooks {
    void (*region)(void *context, bool begin, uint32_t region);
    /* An MSR access record (docs/emulate.md), every instruction before it
     * issued and told to the PMU, at clock `cycle`; it may program the
     * PMU. */
    void (*msr)(void *context, uint64_t cycle, const struct trace_msr *access);
    void *context;
    const struct progress_hook *progress; /* NULL: none (traces/progress.h) */
    const struct interval_hook *interval; /* NULL: none (sim/common/interval.h) */
    FILE *trace_copy; /* the trace's bytes, written as they are read; NULL: none */
};

struct p5_sim_result {
    uint64_t instructions;  /* INSN records simulated */
    uint64_t cycles;        /* clocks the model took */
    uint64_t regions;       /* region markers seen */
    uint64_t unclassified;  /* INSN records without a timing row: given the default clocks */
};

/* Runs the trace at `path` through the model, in memory that grows with
 * the program's code, not the trace's length, feeding the P5 PMU behind
 * `backend` (which must come from p5_backend_create()).
 * `hooks` may be NULL.  False with a one-line error ("PATH: byte offset N:
 * ...", or the instruction's address when its bytes do not decode), and
 * errno ENOMEM when memory ran out (a run-time failure, not the trace's). */
bool p5_simulate_trace(const char *path, const struct p5_config *config,
                       struct msr_backend *backend, const struct p5_sim_hooks *hooks,
                       struct p5_sim_result *result, char *error, size_t error_size);

#endif
