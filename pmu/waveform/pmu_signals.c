/* An emulated PMU's signals in a waveform (pmu/waveform/pmu_signals.h). */
#include "pmu/waveform/pmu_signals.h"

#include "pmu/catalog/netburst_fields.h"

bool pmu_signals_declare_netburst(struct pmu_signals *s, struct vcd *vcd, uint64_t escrs,
                                  uint32_t counters)
{
    static const struct {
        const char *name;
        int width;
    } counter_signals[PMU_SIGNALS_PER_COUNTER] = {
        [PMU_SIGNAL_ENABLE] = {"enable", 1},       [PMU_SIGNAL_COMPARE] = {"compare", 1},
        [PMU_SIGNAL_INCREMENT] = {"increment", 4}, [PMU_SIGNAL_VALUE] = {"value", 40},
        [PMU_SIGNAL_OVF] = {"ovf", 1},             [PMU_SIGNAL_PMI] = {"pmi", 2},
    };
    s->escrs = escrs;
    s->counters = counters;
    bool ok = true;
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if (escrs & (1ull << e)) {
            s->escr[e] = vcd_signal(vcd, "detectors", nb_escrs[e].name + 4, 4);
            ok = ok && s->escr[e] >= 0;
        }
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        if (counters & (1u << c))
            for (int k = 0; k < PMU_SIGNALS_PER_COUNTER; k++) {
                s->counter[c][k] = vcd_signal(vcd, nb_counter_name(c) + 4,
                                              counter_signals[k].name, counter_signals[k].width);
                ok = ok && s->counter[c][k] >= 0;
            }
    return ok;
}

bool pmu_signals_declare_p5(struct pmu_signals *s, struct vcd *vcd)
{
    static const char *const names[2] = {"CTR0", "CTR1"};
    s->escrs = 0;
    s->counters = 3;
    bool ok = true;
    for (int c = 0; c < 2; c++) {
        s->counter[c][PMU_SIGNAL_INCREMENT] = vcd_signal(vcd, names[c], "increment", 64);
        s->counter[c][PMU_SIGNAL_VALUE] = vcd_signal(vcd, names[c], "value", 40);
        ok = ok && s->counter[c][PMU_SIGNAL_INCREMENT] >= 0 &&
             s->counter[c][PMU_SIGNAL_VALUE] >= 0;
    }
    return ok;
}

void pmu_signals_sample_netburst(const struct pmu_signals *s, struct vcd *vcd,
                                 const struct nb_pmu *pmu)
{
    const struct nb_cycle_outcome *last = nb_pmu_last(pmu);
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if (s->escrs & (1ull << e))
            vcd_set(vcd, s->escr[e], last->output[e]);
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        if (!(s->counters & (1u << c)))
            continue;
        const int *sig = s->counter[c];
        uint64_t cccr = 0;
        nb_pmu_rdmsr(pmu, NB_CCCR_BASE + (uint32_t)c, &cccr);
        vcd_set(vcd, sig[PMU_SIGNAL_ENABLE], last->counted[c]);
        vcd_set(vcd, sig[PMU_SIGNAL_COMPARE], last->compare[c]);
        vcd_set(vcd, sig[PMU_SIGNAL_INCREMENT], last->increment[c]);
        vcd_set(vcd, sig[PMU_SIGNAL_VALUE], nb_pmu_counter(pmu, c));
        vcd_set(vcd, sig[PMU_SIGNAL_OVF], (cccr & CCCR_OVF) != 0);
        vcd_set(vcd, sig[PMU_SIGNAL_PMI], last->pmi[c]);
    }
}

void pmu_signals_sample_p5(const struct pmu_signals *s, struct vcd *vcd, const struct p5_pmu *pmu)
{
    for (int c = 0; c < 2; c++) {
        uint64_t value = 0;
        p5_pmu_rdmsr(pmu, P5_MSR_CTR0 + (uint32_t)c, &value);
        vcd_set(vcd, s->counter[c][PMU_SIGNAL_INCREMENT], p5_pmu_last_increment(pmu, c));
        vcd_set(vcd, s->counter[c][PMU_SIGNAL_VALUE], value);
    }
}

static void observe_netburst(void *context, const struct nb_pmu *pmu)
{
    struct pmu_waveform *w = context;
    vcd_time(w->vcd, nb_pmu_cycles(pmu) - 1);
    pmu_signals_sample_netburst(&w->signals, w->vcd, pmu);
}

static void observe_p5(void *context, const struct p5_pmu *pmu)
{
    struct pmu_waveform *w = context;
    vcd_time(w->vcd, p5_pmu_cycles(pmu) - 1);
    pmu_signals_sample_p5(&w->signals, w->vcd, pmu);
}

bool pmu_waveform_attach(struct pmu_waveform *w, struct msr_backend *backend, struct vcd *vcd)
{
    *w = (struct pmu_waveform){vcd, nb_backend_pmu(backend), p5_backend_pmu(backend), {0}};
    if (w->nb) {
        if (!pmu_signals_declare_netburst(&w->signals, vcd, (1ull << NB_NUM_ESCRS) - 1,
                                          (1u << NB_NUM_COUNTERS) - 1))
            return false;
        nb_pmu_observe(w->nb, observe_netburst, w);
        return true;
    }
    if (!w->p5 || !pmu_signals_declare_p5(&w->signals, vcd))
        return false;
    p5_pmu_observe(w->p5, observe_p5, w);
    return true;
}

uint64_t pmu_waveform_detach(struct pmu_waveform *w)
{
    if (w->nb) {
        nb_pmu_observe(w->nb, NULL, NULL);
        return nb_pmu_cycles(w->nb);
    }
    p5_pmu_observe(w->p5, NULL, NULL);
    return p5_pmu_cycles(w->p5);
}
