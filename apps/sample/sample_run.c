/* Event-based sampling on the simulated NetBurst (apps/sample/sample_run.h,
 * docs/sample.md). */
#include "sample_run.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "pmu/catalog/event_spec.h"
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/programming/program.h"
#include "util/error_line.h"

#define COUNTER_LIMIT (1ull << 40)

/* The DS save area at 64 KB; the PEBS buffer at 1 MB (options.pebs_records
 * records: at most 2^24, which fit below 4 GB in either layout), its
 * interrupt threshold past its end (no PMI: the records are read back
 * after the run).  An address every model's IA32_DS_AREA holds. */
enum { DS_AREA = 0x10000, PEBS_BUFFER = 0x100000 };

/* ---- planning */

static bool check_options(const struct sample_options *o, char *error, size_t error_size)
{
    if (!o->model || !machine_caps(o->model).sampling)
        return error_line(EINVAL, error, error_size, "sampling needs a NetBurst model");
    if (!o->event || !*o->event)
        return error_line(EINVAL, error, error_size, "no event");
    if (o->period < 1 || o->period > SAMPLE_MAX_PERIOD)
        return error_line(EINVAL, error, error_size, "period %llu: expected 1 to %llu",
                          (unsigned long long)o->period, SAMPLE_MAX_PERIOD);
    if (o->region < REGION_WHOLE_TRACE || o->region > (long)UINT32_MAX)
        return error_line(EINVAL, error, error_size,
                          "region %ld: expected 0 to 4294967295, or REGION_WHOLE_TRACE",
                          o->region);
    if (!o->trace)
        return error_line(EINVAL, error, error_size, "no trace");
    if (o->symbols && o->no_symbols)
        return error_line(EINVAL, error, error_size,
                          "a symbols file and no symbols: one or the other");
    if (o->pebs_records > SAMPLE_MAX_PEBS_RECORDS)
        return error_line(EINVAL, error, error_size,
                          "PEBS buffer of %llu records: expected 1 to %llu (0: %llu)",
                          (unsigned long long)o->pebs_records, SAMPLE_MAX_PEBS_RECORDS,
                          SAMPLE_DEFAULT_PEBS_RECORDS);
    return true;
}

bool sample_plan(struct sample_session *session, const struct sample_options *options,
                 char *error, size_t error_size)
{
    *session = (struct sample_session){.options = *options};
    if (!check_options(options, error, error_size))
        return false;
    struct nb_pmu_config config = machine_pmu_config(options->model, false);
    const char *event = options->event;
    char text[1024];
    /* PEBS: ENABLE_PEBS, and OVF_PMI_T0 so that an overflow arms the
     * assist (docs/semantics.md, "PEBS", Arming); IEBS: the PMI. */
    int length = snprintf(text, sizeof text, "%s%s%s%s",
                          strstr(event, "::") ? "" : machine_caps(options->model).event_prefix,
                          event,
                          options->pebs ? ":pebs" : "",
                          strstr(event, ":ovf_pmi=") ? "" : ":ovf_pmi=t0");
    if (length < 0 || (size_t)length >= sizeof text)
        return error_line(EINVAL, error, error_size,
                          "%.64s...: event too long (%d bytes with its modifiers, at most %zu)",
                          event, length, sizeof text - 1);
    session->request.group = ALLOC_NO_GROUP;
    if (!event_spec_parse(text, &config, &session->request.spec, error, error_size)) {
        errno = EINVAL;
        return false;
    }
    struct alloc_error why;
    errno = 0;
    if (alloc_plan_make(&session->request, 1, &config, &session->plan, &why))
        return true;
    return error_line(why.request >= 0 ? EINVAL : errno, error, error_size, "%s: %s", event,
                      why.message);
}

/* ---- the trace and the symbols */

/* The symbols of options->symbols, which must load, else of the traced
 * program when they load; else none, and why. */
static bool find_symbols(struct sample_session *session, char *error, size_t error_size)
{
    const struct sample_options *o = &session->options;
    const char *path = o->symbols ? o->symbols : session->program;
    char *why = session->no_symbols_why;
    size_t why_size = sizeof session->no_symbols_why;
    bool trace_failed = false;
    errno = 0;
    if (o->no_symbols) {
        snprintf(why, why_size, "--no-symbols");
    } else if (!o->symbols && !*session->program) {
        snprintf(why, why_size, "the trace names no program");
    } else if (sample_symbols_load(&session->symbols, path, o->trace, &trace_failed, why,
                                   why_size)) {
        session->symbols_file = path;
        return true;
    }
    if (!o->symbols && !trace_failed)
        return true;
    return error_line(errno, error, error_size, "%s", why);
}

bool sample_open(struct sample_session *session, char *error, size_t error_size)
{
    struct trace_header header;
    errno = 0;
    if (!trace_read_header(session->options.trace, &header, error, error_size))
        return false;
    session->ia32e = header.isa == TRACE_ISA_64 &&
                     machine_runs(session->options.model, TRACE_ISA_64);
    snprintf(session->program, sizeof session->program, "%s", header.program);
    return find_symbols(session, error, error_size);
}

/* ---- the run */

/* One run's state, shared with the model's hooks: the sample hook's
 * context, and the region hook's (region_gate_hook), which takes
 * it as its first member, the gate. */
struct sampler {
    struct region_gate gate;
    struct sample_session *session;
    sample_fn *emit;
    void *context;
    struct machine machine;
    struct program program;
    uint64_t preset;    /* the counter's value one period from overflow */
    msr_status status;  /* the PMI handler's first failing access */
    uint64_t samples;
};
_Static_assert(offsetof(struct sampler, gate) == 0, "the region hook's context is the gate");

/* Names the sample's address and hands it over. */
static void report(struct sampler *s, struct sample *sample)
{
    struct elf_symbol_match match;
    sample->symbol = sample_symbols_name(&s->session->symbols, sample->eip, &match);
    if (s->emit)
        s->emit(s->context, sample);
}

/* IEBS: the handler's work: report the sample, reload the counter with
 * the period and clear the CCCR's OVF (program_reload: the CCCR as
 * planned, with ENABLE only while counting). */
static void take_sample(void *context, int thread, uint64_t cycle, uint64_t eip, bool precise)
{
    struct sampler *s = context;
    s->samples++;
    report(s, &(struct sample){.eip = eip, .thread = thread, .cycle = cycle, .precise = precise});
    if (precise || s->status != MSR_OK || s->gate.status != MSR_OK)
        return;
    s->status = program_reload(&s->program, &s->preset, s->gate.counting);
}

/* PEBS: each record of the buffer, in order; how many. */
static uint64_t report_records(struct sampler *s)
{
    const struct nb_pmu *pmu = nb_backend_pmu(s->machine.backend);
    struct nb_pebs_record record;
    uint64_t k = 0;
    for (; nb_pmu_pebs_record(pmu, s->session->ia32e, k, &record); k++)
        report(s, &(struct sample){.eip = record.slot[1], .record = &record});
    return k;
}

/* The run's registers with the period's preset, the DS save area for
 * PEBS (its counter reset the preset too), and the counters started
 * unless a region starts them. */
static bool program_pmu(struct sampler *s, char *error, size_t error_size)
{
    const struct sample_options *o = &s->session->options;
    uint64_t records = o->pebs_records ? o->pebs_records : SAMPLE_DEFAULT_PEBS_RECORDS;
    struct nb_ds_config ds = {.area = DS_AREA, .buffer = PEBS_BUFFER, .records = records,
                              .threshold = records + 1, .counter_reset = s->preset};
    program_init(&s->program, s->machine.backend, 0, &s->session->plan.runs[0]);
    if (program_setup(&s->program, &s->preset) != MSR_OK)
        return error_line(EIO, error, error_size, "programming the PMU failed (MSR 0x%x)",
                          s->program.failed_msr);
    /* DS_AREA is an address every model's IA32_DS_AREA holds: the set-up
     * can only run out of memory for the save area's fields. */
    if (o->pebs && !nb_pmu_ds_setup(nb_backend_pmu(s->machine.backend), s->session->ia32e, &ds))
        return error_line(ENOMEM, error, error_size, "out of memory for the DS save area");
    if (region_gate_start(&s->gate, &s->program, o->region) != MSR_OK)
        return error_line(EIO, error, error_size, "programming the PMU failed (MSR 0x%x)",
                          s->program.failed_msr);
    return true;
}

static bool simulate(struct sampler *s, struct sample_totals *totals, char *error,
                     size_t error_size)
{
    const struct sample_options *o = &s->session->options;
    struct machine_hooks hooks = {.region = region_gate_hook, .sample = take_sample,
                                  .context = s};
    struct machine_result result;
    const char *traces[1] = {o->trace};
    errno = 0;
    if (!machine_simulate(&s->machine, traces, &hooks, &result, error, error_size))
        return false;
    if (s->status != MSR_OK || s->gate.status != MSR_OK)
        return error_line(EIO, error, error_size,
                          "an MSR access in a region or sample hook failed");
    if (o->pebs)
        s->samples = report_records(s);
    *totals = (struct sample_totals){s->samples, result.instructions[0], result.cycles};
    return true;
}

bool sample_run(struct sample_session *session, sample_fn *emit, void *context,
                struct sample_totals *totals, char *error, size_t error_size)
{
    *totals = (struct sample_totals){0};
    struct sampler s = {.session = session, .emit = emit, .context = context,
                        .preset = COUNTER_LIMIT - session->options.period, .status = MSR_OK};
    if (!machine_create(&s.machine, session->options.model, 1))
        return error_line(ENOMEM, error, error_size, "out of memory");
    sample_symbols_reset(&session->symbols);
    bool ok = program_pmu(&s, error, error_size) && simulate(&s, totals, error, error_size);
    int cause = errno;
    machine_destroy(&s.machine);
    errno = cause;
    return ok;
}

size_t sample_histogram(struct sample_session *session, const struct sample_count **rows)
{
    return sample_symbols_histogram(&session->symbols, rows);
}

void sample_fini(struct sample_session *session)
{
    alloc_plan_free(&session->plan);
    sample_symbols_free(&session->symbols);
}
