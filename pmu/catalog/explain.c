#include "explain.h"

#include <stdarg.h>
#include <stdio.h>

#include "netburst_events.h"
#include "netburst_fields.h"
#include "netburst_metrics.h"
#include "p5_events.h"
#include "p5_msrs.h"

__attribute__((format(printf, 3, 4))) static void note(struct explain_problems *report, bool error,
                                                       const char *fmt, ...)
{
    if (report->n == EXPLAIN_MAX_PROBLEMS)
        return;
    struct explain_problem *problem = &report->problems[report->n++];
    problem->error = error;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem->text, sizeof problem->text, fmt, ap);
    va_end(ap);
}

#define ERROR(...) note(report, true, __VA_ARGS__)
#define WARNING(...) note(report, false, __VA_ARGS__)

bool explain_has_errors(const struct explain_problems *report)
{
    for (int i = 0; i < report->n; i++)
        if (report->problems[i].error)
            return true;
    return false;
}

bool explain_has_warnings(const struct explain_problems *report)
{
    for (int i = 0; i < report->n; i++)
        if (!report->problems[i].error)
            return true;
    return false;
}

int nb_explain_escr(const struct nb_explain_input *in, const struct nb_pmu_config *config)
{
    if (in->escr_index >= 0)
        return in->escr_index;
    if (in->has_cccr && in->counter >= 0)
        return nb_escr_routed(in->counter, cccr_escr_select(in->cccr), config->model);
    return -1;
}

/* ---- ESCR */

static void list_events_on(int escr, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < NB_NUM_EVENTS && used < size; i++)
        if (nb_event_table[i].escrs & (1ull << escr))
            used += (size_t)snprintf(buf + used, size - used, "%s%s 0x%02x", used ? ", " : "",
                                     nb_event_table[i].name, nb_event_table[i].select);
}

static uint16_t defined_mask(const struct nb_event_info *event)
{
    uint16_t mask = 0;
    for (int i = 0; i < event->n_subevents; i++)
        mask |= (uint16_t)(1u << event->subevents[i].bit);
    return mask;
}

static void check_escr_event(uint64_t escr, int index, const struct nb_pmu_config *config,
                             struct explain_problems *report)
{
    char list[160];
    unsigned select = escr_event_select(escr);
    int event = nb_event_on_escr(index, select);
    if (event < 0) {
        list_events_on(index, list, sizeof list);
        if (list[0])
            ERROR("event select 0x%02x is not defined on %s (defined there: %s)", select,
                  nb_escrs[index].name, list);
        else
            ERROR("event select 0x%02x: no event is defined on %s", select, nb_escrs[index].name);
        return;
    }
    const struct nb_event_info *ev = &nb_event_table[event];
    if (!(ev->models & (1u << config->model)))
        ERROR("%s does not exist on model %d", ev->name, config->model);
    uint16_t mask = (uint16_t)escr_event_mask(escr);
    uint16_t undefined = mask & (uint16_t)~defined_mask(ev);
    if (undefined)
        ERROR("event mask bits 0x%04x are not defined by %s", undefined, ev->name);
    if (mask == 0)
        WARNING("no sub-event selected (event mask 0): the ESCR detects nothing");
    bool tag_bits = escr & (ESCR_TAG_ENABLE | (0xfull << ESCR_TAG_VALUE_SHIFT));
    if (tag_bits && !(ev->flags & NB_EVENT_EXEC_TAG_UPSTREAM))
        WARNING("tag enable/value set on %s, which is not an execution-tagging upstream event",
                ev->name);
}

static void check_escr(const struct nb_explain_input *in, int index, const struct nb_pmu_config *config,
                       struct explain_problems *report)
{
    uint64_t writable;
    uint32_t msr = index >= 0 ? nb_escrs[index].msr : nb_escrs[0].msr;
    if (!nb_msr_writable(config, msr, &writable)) {
        ERROR("%s does not exist on model %d (IQ_ESCR0/1: models 0-2 only)", nb_escrs[index].name,
              config->model);
        return;
    }
    uint64_t thread1 = ESCR_T1_OS | ESCR_T1_USR;
    if (!config->ht && (in->escr & thread1))
        ERROR("T1_OS/T1_USR set on a processor without Hyper-Threading (reserved: #GP)");
    uint64_t reserved = in->escr & ~writable & ~(config->ht ? 0 : thread1);
    if (reserved)
        ERROR("reserved ESCR bits set: 0x%llx (#GP)", (unsigned long long)reserved);
    if (!(in->escr & (ESCR_T0_OS | ESCR_T0_USR | thread1)))
        WARNING("no T0_OS/T0_USR/T1_OS/T1_USR bit set: counts nothing");
    if (index >= 0)
        check_escr_event(in->escr, index, config, report);
}

/* ---- CCCR */

static void check_cccr_routing(const struct nb_explain_input *in, const struct nb_pmu_config *config,
                               struct explain_problems *report)
{
    unsigned select = cccr_escr_select(in->cccr);
    int routed = nb_escr_routed(in->counter, select, config->model);
    const char *counter = nb_counter_name(in->counter);
    if (routed < 0)
        ERROR("ESCR select %u reaches no ESCR from %s", select, counter);
    else if (in->escr_index >= 0 && routed != in->escr_index)
        ERROR("%s is unreachable from %s with ESCR select %u (that select reads %s)",
              nb_escrs[in->escr_index].name, counter, select, nb_escrs[routed].name);
}

static void check_cccr(const struct nb_explain_input *in, const struct nb_pmu_config *config,
                       struct explain_problems *report)
{
    uint64_t cccr = in->cccr;
    uint64_t writable;
    /* Without a counter, the bits of a CCCR without the extended-cascade bit. */
    int counter = in->counter >= 0 ? in->counter : 1;
    nb_msr_writable(config, NB_CCCR_BASE + (uint32_t)counter, &writable);
    if ((cccr & CCCR_EXTENDED_CASCADE) && !(writable & CCCR_EXTENDED_CASCADE))
        ERROR("bit 11 (extended cascading) exists only on IQ_CCCR0/3/4/5 of models 2, 3, 4 "
              "and 6 (#GP)");
    if (!config->ht && (cccr & CCCR_OVF_PMI_T1))
        ERROR("OVF_PMI_T1 set on a processor without Hyper-Threading (reserved: #GP)");
    uint64_t reserved = cccr & ~writable & ~(CCCR_EXTENDED_CASCADE | CCCR_OVF_PMI_T1);
    if (reserved)
        ERROR("reserved CCCR bits set: 0x%llx (#GP)", (unsigned long long)reserved);
    if (!nb_cccr_active_thread_ok(config, cccr))
        ERROR("ACTIVE_THREAD must be 11 on a processor without Hyper-Threading (#GP)");
    bool filter_bits = cccr & (CCCR_COMPLEMENT | CCCR_EDGE | (0xfull << CCCR_THRESHOLD_SHIFT));
    if (filter_bits && !(cccr & CCCR_COMPARE))
        WARNING("THRESHOLD, COMPLEMENT or EDGE set while COMPARE is clear: they have no effect");
    if ((cccr & CCCR_CASCADE) && (cccr & CCCR_ENABLE))
        WARNING("CASCADE together with ENABLE: the counter counts from the start, so the "
                "cascade does nothing");
    if (!(cccr & (CCCR_ENABLE | CCCR_CASCADE | CCCR_EXTENDED_CASCADE)))
        WARNING("neither ENABLE nor CASCADE set: the counter does not count");
    if (in->counter >= 0)
        check_cccr_routing(in, config, report);
}

/* ---- PEBS */

/* Whether the bits are those of one replay-tagging metric or of several
 * together (their IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT bits ORed, as
 * the encoder writes libpfm4's combined pseudo sub-events; docs/events.md):
 * the union of every metric that fits within them is them. */
static bool known_replay_metric(uint64_t pebs_enable, uint64_t matrix_vert, bool has_vert)
{
    uint64_t metric_bits = pebs_enable & ~(uint64_t)(PEBS_ENABLE_UOP_TAG | PEBS_ENABLE_PEBS);
    uint64_t pebs_union = 0, vert_union = 0;
    for (int i = 0; i < nb_num_metrics; i++) {
        const struct nb_metric *m = &nb_metrics[i];
        if (m->kind == NB_REPLAY_TAGGING && (m->pebs_enable & ~metric_bits) == 0 &&
            (!has_vert || (m->matrix_vert & ~matrix_vert) == 0)) {
            pebs_union |= m->pebs_enable;
            vert_union |= m->matrix_vert;
        }
    }
    return pebs_union == metric_bits && (!has_vert || vert_union == matrix_vert);
}

static void check_pebs(const struct nb_explain_input *in, const struct nb_pmu_config *config,
                       struct explain_problems *report)
{
    uint64_t writable;
    if (in->has_pebs_enable) {
        nb_msr_writable(config, MSR_IA32_PEBS_ENABLE, &writable);
        if (in->pebs_enable & ~writable)
            ERROR("reserved IA32_PEBS_ENABLE bits set: 0x%llx (#GP)",
                  (unsigned long long)(in->pebs_enable & ~writable));
        if ((in->pebs_enable & PEBS_ENABLE_PEBS) && in->counter != NB_PEBS_COUNTER)
            WARNING("IA32_PEBS_ENABLE bit 25 (ENABLE_PEBS) set: precise sampling, not just "
                    "replay tagging; the Pentium 4 monitoring study (section 9.4) reports suspicious counts with it");
        bool metric_bits = in->pebs_enable & ~(uint64_t)(PEBS_ENABLE_UOP_TAG | PEBS_ENABLE_PEBS);
        if (metric_bits && !(in->pebs_enable & PEBS_ENABLE_UOP_TAG))
            WARNING("replay-tagging metric bits set without bit 24 (UOP_TAG): nothing is tagged");
        if (metric_bits && !known_replay_metric(in->pebs_enable, in->matrix_vert,
                                                in->has_matrix_vert))
            WARNING("IA32_PEBS_ENABLE/MSR_PEBS_MATRIX_VERT match no replay-tagging metric of "
                    "the SDM's table");
    }
    if (in->has_matrix_vert) {
        nb_msr_writable(config, MSR_PEBS_MATRIX_VERT, &writable);
        if (in->matrix_vert & ~writable)
            ERROR("reserved MSR_PEBS_MATRIX_VERT bits set: 0x%llx (#GP)",
                  (unsigned long long)(in->matrix_vert & ~writable));
    }
}

void nb_explain_check(const struct nb_explain_input *in, const struct nb_pmu_config *config,
                      struct explain_problems *report)
{
    report->n = 0;
    if (in->has_escr)
        check_escr(in, nb_explain_escr(in, config), config, report);
    if (in->has_cccr)
        check_cccr(in, config, report);
    check_pebs(in, config, report);
}

/* ---- P5 */

void p5_explain_check(uint64_t cesr, struct explain_problems *report)
{
    report->n = 0;
    const uint64_t defined = 0x03ff03ffull;
    if (cesr & ~defined)
        ERROR("reserved CESR bits set: 0x%llx (bits 15:10 and 63:26)",
              (unsigned long long)(cesr & ~defined));
    for (int c = 0; c < 2; c++) {
        unsigned control = p5_cesr_control(cesr, c);
        unsigned code = p5_cesr_event(cesr, c);
        if ((control & 3) == 0)
            WARNING("CC%d = %u%u%u: counter %d is disabled", c, control >> 2, (control >> 1) & 1,
                    control & 1, c);
        else if (!(control & 4) && !p5_event_by_code(code))
            ERROR("ES%d = 0x%02x is not a defined P5 event code", c, code);
    }
}
