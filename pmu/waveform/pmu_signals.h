/* An emulated PMU's signals in a waveform (docs/semantics.md, "The
 * waveform"): declared in a VCD (pmu/waveform/vcd.h) before it begins,
 * then sampled after each cycle the PMU completes.  The NetBurst's: each
 * chosen ESCR's output (4 bits) under "detectors", and per chosen counter
 * its enable, compare, increment, 40-bit value, OVF flag and PMI threads;
 * the P5's: each counter's increment and value.  `run --vcd` (bench/) and
 * `emulate --vcd` (apps/emulate) write them. */
#ifndef PMU_WAVEFORM_PMU_SIGNALS_H
#define PMU_WAVEFORM_PMU_SIGNALS_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/catalog/netburst_msrs.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/emulated/p5_pmu.h"
#include "pmu/waveform/vcd.h"

enum {
    PMU_SIGNAL_ENABLE,
    PMU_SIGNAL_COMPARE,
    PMU_SIGNAL_INCREMENT,
    PMU_SIGNAL_VALUE,
    PMU_SIGNAL_OVF,
    PMU_SIGNAL_PMI,
    PMU_SIGNALS_PER_COUNTER,
};

/* The signals declared: the ESCRs and counters chosen, each one's handle. */
struct pmu_signals {
    uint64_t escrs;     /* bit e: ESCR e (NetBurst) */
    uint32_t counters;  /* bit c: counter c */
    int escr[NB_NUM_ESCRS];
    int counter[NB_NUM_COUNTERS][PMU_SIGNALS_PER_COUNTER];
};

/* Declares the NetBurst signals of the ESCRs and counters chosen; false
 * when out of memory. */
bool pmu_signals_declare_netburst(struct pmu_signals *s, struct vcd *vcd, uint64_t escrs,
                                  uint32_t counters);
/* Declares the P5's (both counters); false when out of memory. */
bool pmu_signals_declare_p5(struct pmu_signals *s, struct vcd *vcd);

/* The signals' values after the cycle the PMU completed last, at the VCD's
 * current time (vcd_time). */
void pmu_signals_sample_netburst(const struct pmu_signals *s, struct vcd *vcd,
                                 const struct nb_pmu *pmu);
void pmu_signals_sample_p5(const struct pmu_signals *s, struct vcd *vcd,
                           const struct p5_pmu *pmu);

/* A waveform of a whole emulated PMU as it runs (`emulate --vcd`): every
 * ESCR and counter of a NetBurst, both counters of a P5, sampled at the
 * end of every cycle the PMU completes, through its observer
 * (nb_pmu_observe, p5_pmu_observe), at the time of that cycle (from 0). */
struct pmu_waveform {
    struct vcd *vcd;
    struct nb_pmu *nb;  /* the PMU: one of the two */
    struct p5_pmu *p5;
    struct pmu_signals signals;
};

/* Declares the signals of the PMU behind `backend` (nb_backend_create's
 * or p5_backend_create's) in `vcd`, which has not begun, and observes the
 * PMU; false when the backend is neither or memory ran out. */
bool pmu_waveform_attach(struct pmu_waveform *w, struct msr_backend *backend, struct vcd *vcd);
/* Stops observing; the cycles the PMU has completed (the dump's end). */
uint64_t pmu_waveform_detach(struct pmu_waveform *w);

#endif
