/* The trace driver: reads each trace as a stream of blocks, takes each
 * instruction's op and uops from the block's memo (nbm_block.c; decoded
 * once, nbm_op.c's cache) and times it through the machine; region markers
 * drain the logical processor and call the hook.  With two traces (logical
 * processors 0 and 1) the one whose front end is furthest behind goes
 * next, so the cycles before both front ends are final.
 *
 * Opening a trace, reading its records and reporting a failure are the
 * P5's steps too (sim/common/trace_driver.h).  The order of the records is
 * this model's own: the P5 reads one stream straight through, while here
 * two logical processors' instructions interleave by their front ends, an
 * instruction at a time (a block is run across steps), and a region hook
 * waits for its processor's drain; so there is no shared loop. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/catalog/netburst_msrs.h"
#include "sim/common/trace_driver.h"
#include "sim/netburst/nbm_assist.h"
#include "sim/netburst/nbm_block.h"
#include "sim/netburst/nbm_machine.h"

struct thread_run {
    struct driver_trace trace;
    /* The decoder of each instruction set (32-bit, 64-bit), made when code
     * of it first comes: an emulated run's processes may have both
     * (TRACE_RECORD_ISA); `decoder` the current code's. */
    struct nbm_decode_cache decoded[2];
    bool decoder_made[2];
    struct nbm_decode_cache *decoder;
    struct nbm_block_memos memos;
    const struct trace_block *block;  /* being run, or NULL */
    struct nbm_block_memo *memo;      /* the block's */
    uint32_t next_insn;               /* the block's next instruction */
    uint64_t records;                 /* records read, for a failure's line */
    bool running;                /* its trace has not ended */
    bool hook_pending;           /* a region marker or MSR access waits for its drain */
    bool region_begin;
    uint32_t region;
    bool msr_pending;            /* the hook pending is an MSR access's */
    struct trace_msr msr;
    uint64_t drained;            /* the cycle of its drain */
};

/* With intervals: the retirements of one logical processor timed but not
 * yet ticked, in order (a ring; as many as the instructions in flight). */
struct retired_log {
    struct logged {
        uint64_t cycle; /* the cycle instr_retired counts it in */
        uint32_t uops;
    } *entries;
    uint64_t mask, head, tail; /* size - 1 (a power of two, or 0 before the first); first;
                                * past the last */
};

/* The run's intervals (docs/stat.md, "Intervals"): the retirements ticked
 * so far. */
struct intervals {
    struct driver_interval due;
    struct retired_log log[2];
    uint64_t instructions, uops; /* retired in the cycles ticked */
};

struct run {
    struct nbm_machine machine;
    struct thread_run thread[2];
    int threads;
    const struct nbm_hooks *hooks;
    struct driver_progress progress;
    struct intervals intervals;
    struct driver_failure failure;
};

/* ---- intervals */

/* Logs a retirement in `cycle`; false when out of memory. */
static bool log_retired(struct retired_log *log, uint64_t cycle, uint32_t uops)
{
    if (log->tail - log->head == (log->entries ? log->mask + 1 : 0)) {
        uint64_t size = log->entries ? 2 * (log->mask + 1) : 64;
        struct logged *entries = malloc(size * sizeof *entries);
        if (!entries)
            return false;
        for (uint64_t i = log->head; i < log->tail; i++)
            entries[i - log->head] = log->entries[i & log->mask];
        free(log->entries);
        *log = (struct retired_log){entries, size - 1, 0, log->tail - log->head};
    }
    log->entries[log->tail++ & log->mask] = (struct logged){cycle, uops};
    return true;
}

/* The cycle of the log's earliest retirement; UINT64_MAX: none. */
static uint64_t first_cycle(const struct retired_log *log)
{
    return log->head == log->tail ? UINT64_MAX : log->entries[log->head & log->mask].cycle;
}

/* The logical processor whose earliest logged retirement comes first and
 * before `until`, or -1. */
static int first_logged(const struct run *run, uint64_t until)
{
    int first = -1;
    uint64_t earliest = until;
    for (int t = 0; t < run->threads; t++) {
        uint64_t cycle = first_cycle(&run->intervals.log[t]);
        if (cycle < earliest) {
            earliest = cycle;
            first = t;
        }
    }
    return first;
}

/* Counts the earliest logged retirement, of `t`, as ticked; its cycle. */
static uint64_t take_logged(struct intervals *iv, int t)
{
    struct retired_log *log = &iv->log[t];
    struct logged e = log->entries[log->head++ & log->mask];
    iv->instructions++;
    iv->uops += e.uops;
    return e.cycle;
}

/* Ticks the PMU through the cycle before `end` and ends an interval there. */
static void end_interval_at(struct run *run, uint64_t end)
{
    nbm_occurrences_advance(&run->machine.occurrences, end);
    struct interval_point point = {run->intervals.instructions, end, run->intervals.uops};
    driver_interval_end(&run->intervals.due, &point);
}

/* The intervals that end before cycle `until` (every retirement before it
 * is logged): each a cycle boundary, or the cycle in which the retired
 * instructions reach the next multiple. */
static void end_intervals(struct run *run, uint64_t until)
{
    struct intervals *iv = &run->intervals;
    for (;;) {
        int t = first_logged(run, until);
        uint64_t next = t < 0 ? until : first_cycle(&iv->log[t]);
        if (iv->due.cycles && iv->due.due <= next) {
            end_interval_at(run, iv->due.due);
            continue;
        }
        if (t < 0)
            return;
        uint64_t cycle = take_logged(iv, t);
        if (!driver_interval_due(&iv->due, iv->instructions, cycle + 1))
            continue;
        while ((t = first_logged(run, cycle + 1)) >= 0)
            take_logged(iv, t); /* the rest of the cycle's retirements */
        end_interval_at(run, cycle + 1);
    }
}

/* Reports and ticks every cycle before `until`, ending the intervals on
 * the way. */
static void advance(struct run *run, uint64_t until)
{
    if (run->intervals.due.hook)
        end_intervals(run, until);
    nbm_occurrences_advance(&run->machine.occurrences, until);
}

/* The logical processor's code from now on of `isa` (its decoder made
 * when code of it first comes); false when the decoder cannot be made. */
static bool use_decoder(struct run *run, struct thread_run *tr, enum trace_isa isa)
{
    int k = isa == TRACE_ISA_64;
    if (!tr->decoder_made[k]) {
        if (!nbm_decode_cache_init(&tr->decoded[k], k ? X86_MODE_64 : X86_MODE_32))
            return driver_out_of_memory(&run->failure, tr->trace.path, "for the decoder");
        tr->decoder_made[k] = true;
    }
    struct nbm_lp *lp = &run->machine.lp[tr - run->thread];
    tr->decoder = &tr->decoded[k];
    lp->decoded = tr->decoder;
    /* IA-32e retirements (the PEBS layout) need a model with EM64T. */
    lp->ia32e = k && nb_cpuid_model_info(run->machine.config->model)->addr64;
    lp->code64 = k;
    return true;
}

/* The next instruction of the thread's block through the machine. */
static bool instruction(struct run *run, struct thread_run *tr)
{
    const struct trace_block *b = tr->block;
    uint32_t i = tr->next_insn++;
    const struct trace_block_insn *bi = &b->insns[i];
    tr->records++;
    const struct nbm_block_insn *known;
    enum decode_status status = nbm_block_insn(tr->memo, b, i,
                                               tr->trace.lengths_known && bi->has_bytes,
                                               tr->decoder, &known);
    if (status != DECODE_OK)
        return driver_decode_failed_at(&run->failure, &tr->trace, tr->records, bi->address,
                                       bi->length, status);
    struct nbm_insn insn = {
        .address = bi->address,
        .target = bi->branch == TRACE_BRANCH_TAKEN ? b->next_address : 0,
        .length = bi->length,
        .bytes = bi->has_bytes ? bi->bytes : NULL,
        .cpl = b->cpl,
        .branch = bi->branch,
        .n_accesses = bi->n_accesses,
        .accesses = &b->accesses[bi->first_access],
        .regs = b->regs,
        .shape = &known->shape,
    };
    if (i + 1 == b->n_insns)
        tr->block = NULL;
    nbm_instruction(&run->machine, &insn, &known->op);
    if (run->intervals.due.hook &&
        !log_retired(&run->intervals.log[tr - run->thread], run->machine.cur->core.last_retire,
                     known->shape.n))
        return driver_out_of_memory(&run->failure, tr->trace.path, "for the intervals");
    return true;
}

/* The cycle every running logical processor has reached: nothing earlier
 * can get another event. */
static uint64_t horizon(const struct run *run)
{
    uint64_t h = UINT64_MAX;
    for (int t = 0; t < run->threads; t++) {
        uint64_t next = nbm_lp_next(&run->machine.lp[t]);
        if (run->thread[t].running && next < h)
            h = next;
    }
    return h;
}

/* The running logical processor furthest behind, or -1. */
static int next_thread(const struct run *run)
{
    if (run->threads == 1)
        return run->thread[0].running ? 0 : -1;
    int best = -1;
    for (int t = 0; t < run->threads; t++)
        if (run->thread[t].running &&
            (best < 0 || nbm_lp_next(&run->machine.lp[t]) < nbm_lp_next(&run->machine.lp[best])))
            best = t;
    return best;
}

static void call_hook(struct run *run, int t)
{
    struct thread_run *tr = &run->thread[t];
    tr->hook_pending = false;
    if (tr->msr_pending) {
        tr->msr_pending = false;
        if (run->hooks && run->hooks->msr) {
            run->hooks->msr(run->hooks->context, t, tr->drained, &tr->msr);
            nbm_occurrences_watch(&run->machine.occurrences);
        }
    } else if (run->hooks && run->hooks->region) {
        run->hooks->region(run->hooks->context, t, tr->region_begin, tr->region);
        nbm_occurrences_watch(&run->machine.occurrences); /* the hook may have programmed the PMU */
    }
}

/* The trace of logical processor `t` has ended at cycle `end`. */
static void finish(struct run *run, int t, uint64_t end)
{
    run->thread[t].running = false;
    nbm_occurrences_thread_end(&run->machine.occurrences, t, end);
    nbm_set_shared(&run->machine, false);
}

/* A record between blocks of logical processor `t` (m->cur): a region
 * marker or the end. */
static bool record(struct run *run, int t, const struct trace_record *rec)
{
    struct thread_run *tr = &run->thread[t];
    struct nbm_machine *m = &run->machine;
    tr->records++;
    nbm_clear_resolve(m, rec->kind != TRACE_RECORD_END); /* the last instruction's: no wrong path */
    switch (rec->kind) {
    case TRACE_RECORD_INSN:
        return true; /* not handed out between blocks */
    case TRACE_RECORD_REGION_BEGIN:
    case TRACE_RECORD_REGION_END:
        nbm_drain(m);
        m->result->regions++;
        tr->hook_pending = true;
        tr->region_begin = rec->kind == TRACE_RECORD_REGION_BEGIN;
        tr->region = rec->region;
        return true;
    case TRACE_RECORD_MSR:
        tr->drained = nbm_drain(m);
        tr->hook_pending = true;
        tr->msr_pending = true;
        tr->msr = rec->msr;
        return true;
    case TRACE_RECORD_ISA:
        /* Nothing of the other instruction set in flight when the logical
         * processor's mode changes (a process switch, an execve). */
        nbm_drain(m);
        return use_decoder(run, tr, rec->isa);
    case TRACE_RECORD_END:
        finish(run, t, nbm_drain(m));
        return true;
    }
    return true;
}

/* The instructions read and the bytes of the traces, to the hook. */
static void report_progress(struct run *run)
{
    uint64_t bytes = 0;
    for (int t = 0; t < run->threads; t++)
        bytes += driver_trace_bytes(&run->thread[t].trace);
    driver_progress_update(&run->progress, bytes);
}

/* The next instruction or record of logical processor `t`. */
static bool step(struct run *run, int t)
{
    struct thread_run *tr = &run->thread[t];
    struct nbm_machine *m = &run->machine;
    m->cur = &m->lp[t];
    if (tr->hook_pending) {
        /* Drained at its marker, unless a PEBS assist of its last
         * retirements keeps it busy past the drain: the front end waits for
         * that, and those cycles are ticked first. */
        uint64_t busy = nbm_lp_busy_until(m->cur);
        if (busy <= m->occurrences.now)
            call_hook(run, t);
        else
            m->cur->fe.t = busy;
        return true;
    }
    if (!tr->block) {
        /* In place: the model keeps nothing of a block or record past its use. */
        const struct trace_block *block;
        const struct trace_record *rec;
        if (!driver_trace_next_block(&tr->trace, &block, &rec, &run->failure))
            return false;
        if (!block)
            return record(run, t, rec);
        tr->memo = nbm_block_memo(&tr->memos, block);
        if (!tr->memo)
            return driver_out_of_memory(&run->failure, tr->trace.path, "for the model");
        tr->block = block;
        tr->next_insn = 0;
        if (driver_progress_due(&run->progress, block->n_insns))
            report_progress(run);
    }
    nbm_clear_resolve(m, true);
    return instruction(run, tr);
}

/* Whether the occurrence queue is still sound: not out of memory, and no
 * detections refused by the PMU (an ESCR written while occurrences routed
 * ahead waited, or linked PMUs of which one samples or tags: nothing in
 * pmubench does either, so this is a bug, reported). */
static bool occurrences_sound(struct run *run, const char *path)
{
    if (run->machine.occurrences.failed)
        return driver_out_of_memory(&run->failure, path, "for the model's events");
    if (run->machine.occurrences.refused)
        return driver_fail_run(&run->failure, EIO, "%s: internal error: the PMU refused the "
                               "model's occurrences (an ESCR written while occurrences routed "
                               "ahead waited, or linked PMUs that sample or tag)", path);
    return true;
}

/* The cycle the machine has nothing left to do from, once the traces have
 * ended: their drains, or the end of a PEBS assist of their last
 * retirements (docs/netburst-model.md, "Sampling"). */
static uint64_t machine_end(const struct run *run)
{
    uint64_t end = 0;
    for (int t = 0; t < run->threads; t++) {
        uint64_t busy = nbm_lp_busy_until(&run->machine.lp[t]);
        end = busy > end ? busy : end;
    }
    return end;
}

static bool simulate(struct run *run)
{
    for (int t; (t = next_thread(run)) >= 0;) {
        advance(run, horizon(run));
        if (!step(run, t) || !occurrences_sound(run, run->thread[t].trace.path))
            return false;
    }
    for (uint64_t end; (end = machine_end(run)) > run->machine.occurrences.now;)
        advance(run, end);
    return occurrences_sound(run, run->thread[0].trace.path);
}

static bool open_trace(struct run *run, struct thread_run *tr, const char *path)
{
    FILE *copy = tr == run->thread && run->hooks ? run->hooks->trace_copy : NULL;
    if (!driver_trace_open(&tr->trace, path, copy, &run->failure))
        return false;
    nbm_block_memos_init(&tr->memos);
    if (!use_decoder(run, tr, tr->trace.isa))
        return false;
    tr->running = true;
    return true;
}

static void close_trace(struct thread_run *tr)
{
    nbm_block_memos_free(&tr->memos);
    for (int k = 0; k < 2; k++)
        if (tr->decoder_made[k])
            nbm_decode_cache_free(&tr->decoded[k]);
    driver_trace_close(&tr->trace);
}

static bool check_arguments(int n_traces, const struct nbm_config *config,
                            struct msr_backend *backend, struct nb_pmu **pmu, char *error,
                            size_t error_size)
{
    if (n_traces != 1 && n_traces != 2) {
        snprintf(error, error_size, "the NetBurst model runs one trace, or two with "
                 "Hyper-Threading, not %d", n_traces);
        return false;
    }
    if (!nbm_config_check(config, error, error_size))
        return false;
    *pmu = nb_backend_pmu(backend);
    if (!*pmu) {
        snprintf(error, error_size, "the NetBurst model needs the simulated NetBurst backend, "
                 "not '%s'", backend->kind);
        return false;
    }
    if (nb_pmu_config_of(*pmu)->model != config->model) {
        snprintf(error, error_size, "the backend emulates model %d, the configuration model %d",
                 nb_pmu_config_of(*pmu)->model, config->model);
        return false;
    }
    if (n_traces == 2 && !nb_pmu_config_of(*pmu)->ht) {
        snprintf(error, error_size, "two traces need a backend with Hyper-Threading "
                 "(nb_backend_create with ht=true)");
        return false;
    }
    return true;
}

bool nbm_simulate(const char *const traces[], int n_traces, const struct nbm_config *config,
                  struct msr_backend *backend, const struct nbm_hooks *hooks,
                  struct nbm_result *result, char *error, size_t error_size)
{
    memset(result, 0, sizeof *result);
    struct nb_pmu *pmu;
    if (!check_arguments(n_traces, config, backend, &pmu, error, error_size))
        return false;
    struct run *run = calloc(1, sizeof *run);
    if (!run) {
        snprintf(error, error_size, "%s: out of memory", traces[0]);
        errno = ENOMEM;
        return false;
    }
    *run = (struct run){.threads = n_traces, .hooks = hooks,
                        .failure = {error, error_size, 0}};
    bool ok = nbm_machine_init(&run->machine, config, pmu, n_traces, result) ||
              driver_out_of_memory(&run->failure, traces[0], "for the model");
    /* Sampling: PMIs reach the core pmi_latency cycles after the first
     * bus-clock edge from their delivery, PEBS assists cost the machine (docs/netburst-model.md,
     * "Sampling"). */
    run->machine.occurrences.pmi_latency = config->pmi_latency;
    run->machine.occurrences.bus_ratio = config->bus_ratio;
    run->machine.occurrences.assist = nbm_pebs_assist;
    run->machine.occurrences.machine = &run->machine;
    driver_progress_init(&run->progress, hooks ? hooks->progress : NULL);
    driver_interval_init(&run->intervals.due, hooks ? hooks->interval : NULL);
    if (hooks) {
        run->machine.occurrences.sample = hooks->sample;
        run->machine.occurrences.context = hooks->context;
        run->machine.uop_hook = hooks->uops;
    }
    for (int t = 0; t < n_traces && ok; t++)
        ok = open_trace(run, &run->thread[t], traces[t]);
    ok = ok && simulate(run);
    result->cycles = run->machine.occurrences.now;
    for (int t = 0; t < n_traces; t++) {
        close_trace(&run->thread[t]);
        free(run->intervals.log[t].entries);
    }
    nbm_machine_free(&run->machine);
    driver_set_errno(&run->failure);
    free(run);
    return ok;
}
