/* Runs a parsed bench script against the simulated PMU (or, for wrmsr and
 * rdmsr only, against hardware), printing one line per result. */
#include <stdarg.h>
#include <stdlib.h>

#include "bench.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/emulated/p5_pmu.h"
#include "pmu/waveform/pmu_signals.h"
#include "pmu/waveform/vcd.h"
#include "util/error_line.h"

struct runner {
    const struct bench_script *script;
    FILE *out;
    struct msr_backend *simulation;  /* owned; NULL when running on hardware */
    struct msr_backend *msrs;        /* where wrmsr/rdmsr go */
    struct msr_backend *recorder;    /* owned; wraps the above, or NULL */
    struct nb_pmu *nb;
    struct p5_pmu *p5;

    /* What the waveform shows: ESCRs that were ever programmed and
     * counters that were ever enabled (found by a first, silent pass). */
    bool probing;
    uint64_t used_escrs;
    uint32_t used_counters;
    struct vcd *vcd;
    struct pmu_signals signals;

    bool cycle_by_cycle;             /* never fast-forward */
    uint64_t stepped;                /* cycles run one by one */

    char *error;
    size_t error_size;
};

/* A failure at a statement: "file:line: message". */
__attribute__((format(printf, 4, 5))) static int fail_at(struct runner *r, int status, int line,
                                                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_at_vline(0, r->error, r->error_size, r->script->path, (unsigned long)line, fmt, ap);
    va_end(ap);
    return status;
}

/* A failure of the run as a whole. */
__attribute__((format(printf, 2, 3))) static int failure(struct runner *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_vline(0, r->error, r->error_size, fmt, ap);
    va_end(ap);
    return BENCH_RUNTIME_ERROR;
}

static void print(struct runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void print(struct runner *r, const char *fmt, ...)
{
    if (!r->out)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(r->out, fmt, ap);
    va_end(ap);
}

static uint64_t cycles(const struct runner *r)
{
    return r->nb ? nb_pmu_cycles(r->nb) : r->p5 ? p5_pmu_cycles(r->p5) : 0;
}

static int do_msr(struct runner *r, const struct bench_stmt *st)
{
    bool write = st->kind == STMT_WRMSR;
    uint64_t value = st->value;
    msr_status status = write ? msr_write(r->msrs, 0, st->msr, value)
                              : msr_read(r->msrs, 0, st->msr, &value);
    const char *op = write ? "wrmsr" : "rdmsr";
    unsigned long long c = (unsigned long long)cycles(r);
    if (status == MSR_OS_ERROR)
        return fail_at(r, BENCH_RUNTIME_ERROR, st->line, "%s 0x%x: %s", op, st->msr,
                       msr_error_message(r->msrs));
    if (status == MSR_GP)
        print(r, "@%llu %s 0x%x #GP\n", c, op, st->msr);
    else if (!write)
        print(r, "@%llu rdmsr 0x%x = 0x%016llx\n", c, st->msr, (unsigned long long)value);
    return BENCH_OK;
}

static void do_rdpmc(struct runner *r, const struct bench_stmt *st)
{
    uint64_t value = 0;
    unsigned long long c = (unsigned long long)cycles(r);
    if (nb_pmu_rdpmc(r->nb, st->msr, &value) == MSR_GP)
        print(r, "@%llu rdpmc 0x%x #GP\n", c, st->msr);
    else
        print(r, "@%llu rdpmc 0x%x = 0x%016llx\n", c, st->msr, (unsigned long long)value);
}

static void do_thread(struct runner *r, const struct bench_stmt *st)
{
    if (r->p5) {
        if (st->cpl >= 0)
            p5_pmu_set_cpl(r->p5, st->cpl);
        return;
    }
    int cpl = st->cpl >= 0 ? st->cpl : nb_pmu_thread(r->nb, st->thread).cpl;
    nb_pmu_set_thread(r->nb, st->thread, st->active, cpl);
}

static int do_event(struct runner *r, const struct bench_stmt *st)
{
    if (r->p5) {
        p5_pmu_event(r->p5, (unsigned)st->event, st->count);
        return BENCH_OK;
    }
    if (!nb_pmu_event(r->nb, st->event, st->mask, st->thread, st->count))
        return fail_at(r, BENCH_RUNTIME_ERROR, st->line, "out of memory");
    return BENCH_OK;
}

/* ---- sampling: memory, retirements, interrupts */

static int do_wrmem(struct runner *r, const struct bench_stmt *st)
{
    if (!nb_pmu_memory_write(r->nb, st->addr, st->size, st->value))
        return fail_at(r, BENCH_RUNTIME_ERROR, st->line, "out of memory");
    return BENCH_OK;
}

static void do_rdmem(struct runner *r, const struct bench_stmt *st)
{
    uint64_t value = nb_pmu_memory_read(r->nb, st->addr, st->size);
    print(r, "@%llu rdmem 0x%llx = 0x%0*llx\n", (unsigned long long)cycles(r),
          (unsigned long long)st->addr, (int)(2 * st->size), (unsigned long long)value);
}

static int do_retire(struct runner *r, const struct bench_stmt *st)
{
    const struct bench_retire *br = &st->retire;
    struct nb_retirement retirement = {
        .eip = br->eip, .tags = br->tags, .ia32e = br->ia32e,
        .regs = br->has_regs ? br->regs : NULL,
    };
    if (!nb_pmu_retire(r->nb, st->thread, &retirement))
        return fail_at(r, BENCH_RUNTIME_ERROR, st->line, "out of memory");
    return BENCH_OK;
}

static void do_interrupt(struct runner *r, const struct bench_stmt *st)
{
    struct nb_pmi_sample sample;
    unsigned long long c = (unsigned long long)cycles(r);
    if (nb_pmu_take_pmi(r->nb, st->thread, &sample))
        print(r, "@%llu interrupt thread=%d delivered=%llu eip=0x%llx\n", c, st->thread,
              (unsigned long long)sample.delivered, (unsigned long long)sample.eip);
    else
        print(r, "@%llu interrupt thread=%d none\n", c, st->thread);
}

/* ---- waveform */

static void note_usage(struct runner *r)
{
    uint64_t value;
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if (nb_pmu_rdmsr(r->nb, nb_escrs[e].msr, &value) == MSR_OK && value)
            r->used_escrs |= 1ull << e;
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        if (nb_pmu_rdmsr(r->nb, NB_CCCR_BASE + (uint32_t)c, &value) == MSR_OK &&
            (value & CCCR_ENABLE))
            r->used_counters |= 1u << c;
}

/* ---- cycles */

static void one_cycle(struct runner *r)
{
    uint64_t cycle = cycles(r);
    r->stepped++;
    if (r->p5) {
        p5_pmu_tick(r->p5);
        if (r->vcd) {
            vcd_time(r->vcd, cycle);
            pmu_signals_sample_p5(&r->signals, r->vcd, r->p5);
        }
        return;
    }
    if (r->probing)
        note_usage(r);
    nb_pmu_tick(r->nb);
    if (r->vcd) {
        vcd_time(r->vcd, cycle);
        pmu_signals_sample_netburst(&r->signals, r->vcd, r->nb);
    }
    const struct nb_cycle_outcome *last = nb_pmu_last(r->nb);
    unsigned long long now = (unsigned long long)nb_pmu_cycles(r->nb);
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        for (int t = 0; t < 2; t++)
            if (last->pmi[c] & (1u << t))
                print(r, "@%llu pmi thread=%d counter=%d\n", now, t, c);
    for (int t = 0; t < 2; t++)
        if (last->pebs_pmi & (1u << t))
            print(r, "@%llu pmi thread=%d pebs\n", now, t);
}

/* Several cycles at once where the PMU can (docs/semantics.md, "Long
 * ticks"); with a waveform only where nothing in it changes. */
static uint64_t fast_forward(struct runner *r, uint64_t n)
{
    bool frozen = r->vcd != NULL;
    return r->p5 ? p5_pmu_fast_forward(r->p5, n, frozen) : nb_pmu_fast_forward(r->nb, n, frozen);
}

/* Tries to fast-forward at most every `backoff` cycles run one by one,
 * doubling it after each failure up to MAX_BACKOFF: a stretch that never
 * repeats (a PMI every cycle, a waveform of a counting counter) costs few
 * tries. */
enum { MAX_BACKOFF = 1024 };

/* `tick N`: the cycle the statements before it belong to, then N - 1
 * cycles without occurrences. */
static void run_ticks(struct runner *r, uint64_t n)
{
    uint64_t backoff = 1, wait = 0;
    while (n > 0) {
        one_cycle(r);
        if (--n == 0 || r->cycle_by_cycle)
            continue;
        if (wait > 0) {
            wait--;
            continue;
        }
        uint64_t run = fast_forward(r, n);
        n -= run;
        backoff = run ? 1 : 2 * backoff < MAX_BACKOFF ? 2 * backoff : MAX_BACKOFF;
        wait = backoff - 1;
    }
}

static int execute(struct runner *r, const struct bench_stmt *st)
{
    switch (st->kind) {
    case STMT_CPU:
        return BENCH_OK;
    case STMT_WRMSR:
    case STMT_RDMSR:
        return do_msr(r, st);
    case STMT_RDPMC:
        do_rdpmc(r, st);
        return BENCH_OK;
    case STMT_THREAD:
        do_thread(r, st);
        return BENCH_OK;
    case STMT_EVENT:
        return do_event(r, st);
    case STMT_WRMEM:
        return do_wrmem(r, st);
    case STMT_RDMEM:
        do_rdmem(r, st);
        return BENCH_OK;
    case STMT_RETIRE:
        return do_retire(r, st);
    case STMT_INTERRUPT:
        do_interrupt(r, st);
        return BENCH_OK;
    case STMT_TICK:
        run_ticks(r, st->value);
        return BENCH_OK;
    }
    return BENCH_OK;
}

static bool start_simulation(struct runner *r)
{
    const struct bench_script *s = r->script;
    if (s->cpu == PMU_P5) {
        r->simulation = p5_backend_create();
        r->p5 = r->simulation ? p5_backend_pmu(r->simulation) : NULL;
    } else {
        r->simulation = nb_backend_create((struct nb_pmu_config){.model = s->model, .ht = s->ht});
        r->nb = r->simulation ? nb_backend_pmu(r->simulation) : NULL;
    }
    r->msrs = r->simulation;
    return r->simulation != NULL;
}

static int run_statements(struct runner *r)
{
    for (size_t i = 0; i < r->script->n_stmts; i++) {
        int rc = execute(r, &r->script->stmts[i]);
        if (rc != BENCH_OK)
            return rc;
    }
    return BENCH_OK;
}

static void stop(struct runner *r)
{
    msr_backend_destroy(r->recorder);
    msr_backend_destroy(r->simulation);
    vcd_abort(r->vcd);
}

/* The first, silent pass: which detectors and counters the waveform shows. */
static int find_waveform_signals(struct runner *r)
{
    struct runner probe = {.script = r->script, .probing = true,
                           .cycle_by_cycle = r->cycle_by_cycle, .error = r->error,
                           .error_size = r->error_size};
    if (!start_simulation(&probe))
        return failure(r, "out of memory");
    int rc = run_statements(&probe);
    if (probe.nb)
        note_usage(&probe);
    r->used_escrs = probe.used_escrs;
    r->used_counters = probe.used_counters;
    r->stepped += probe.stepped;
    stop(&probe);
    return rc;
}

static int open_waveform(struct runner *r, const char *path, const char *gtkw_path)
{
    int rc = find_waveform_signals(r);
    if (rc != BENCH_OK)
        return rc;
    r->vcd = vcd_create(path, gtkw_path, r->error, r->error_size);
    if (!r->vcd)
        return BENCH_RUNTIME_ERROR;
    if (!(r->nb ? pmu_signals_declare_netburst(&r->signals, r->vcd, r->used_escrs,
                                               r->used_counters)
                : pmu_signals_declare_p5(&r->signals, r->vcd)))
        return failure(r, "out of memory");
    vcd_begin(r->vcd);
    return BENCH_OK;
}

/* On hardware only register accesses make sense. */
static int check_hardware_script(struct runner *r)
{
    for (size_t i = 0; i < r->script->n_stmts; i++) {
        const struct bench_stmt *st = &r->script->stmts[i];
        bool register_access =
            st->kind == STMT_CPU || st->kind == STMT_WRMSR || st->kind == STMT_RDMSR;
        if (!register_access)
            return fail_at(r, BENCH_SCRIPT_ERROR, st->line,
                           "'%s' needs the simulated PMU; on a real MSR device a script may "
                           "only use cpu, wrmsr and rdmsr", bench_stmt_verb(st->kind));
    }
    return BENCH_OK;
}

int bench_run(const struct bench_script *script, const struct bench_options *options,
              char *error, size_t error_size)
{
    struct runner r = {.script = script, .cycle_by_cycle = options->cycle_by_cycle,
                       .error = error, .error_size = error_size};
    int rc = BENCH_OK;
    if (options->hardware) {
        rc = check_hardware_script(&r);
        r.msrs = options->hardware;
    } else if (!start_simulation(&r)) {
        rc = failure(&r, "out of memory");
    }
    if (rc == BENCH_OK && options->vcd_path) {
        if (options->hardware)
            rc = failure(&r, "--vcd needs the simulated PMU");
        else
            rc = open_waveform(&r, options->vcd_path, options->gtkw_path);
    }
    if (rc == BENCH_OK && options->record_log) {
        r.recorder = msr_record_create(r.msrs, options->record_log);
        r.msrs = r.recorder;
        if (!r.recorder)
            rc = failure(&r, "out of memory");
    }
    r.out = options->out;
    if (rc == BENCH_OK)
        rc = run_statements(&r);
    if (rc == BENCH_OK && r.vcd) {
        struct vcd *vcd = r.vcd;
        r.vcd = NULL;
        if (!vcd_close(vcd, cycles(&r), error, error_size))
            rc = BENCH_RUNTIME_ERROR;
    }
    if (options->cycles_stepped)
        *options->cycles_stepped = r.stepped;
    stop(&r);
    return rc;
}

int bench_run_whole(const struct bench_script *script, const struct bench_options *options,
                    char *error, size_t error_size)
{
    char *text = NULL;
    size_t length = 0;
    struct bench_options held = *options;
    held.out = open_memstream(&text, &length);
    if (!held.out) {
        snprintf(error, error_size, "out of memory");
        return BENCH_RUNTIME_ERROR;
    }
    int rc = bench_run(script, &held, error, error_size);
    fclose(held.out);
    if (rc == BENCH_OK)
        fwrite(text, 1, length, options->out);
    free(text);
    return rc;
}
