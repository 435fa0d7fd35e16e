#include "cccr_filter.h"

#include "netburst_fields.h"

bool cccr_thread_gate(uint64_t cccr, unsigned active_threads)
{
    switch (cccr_active_thread(cccr)) {
    case 0: return active_threads == 0;  /* none */
    case 1: return active_threads == 1;  /* single */
    case 2: return active_threads == 2;  /* both */
    default: return active_threads >= 1; /* any */
    }
}

/* COMPLEMENT turns "bus > THRESHOLD" into "bus <= THRESHOLD" (SDM, "CCCR";
 * seed 000 section 6.3). */
static bool threshold_compare(uint64_t cccr, unsigned bus)
{
    unsigned threshold = cccr_threshold(cccr);
    return (cccr & CCCR_COMPLEMENT) ? bus <= threshold : bus > threshold;
}

struct cccr_filter_out cccr_filter(uint64_t cccr, unsigned bus, unsigned active_threads,
                                   bool *edge_history)
{
    struct cccr_filter_out out = {0};
    out.thread_gate = cccr_thread_gate(cccr, active_threads);

    if (!(cccr & CCCR_COMPARE)) {
        out.increment = out.thread_gate ? bus : 0;
        return out;
    }

    out.compare = threshold_compare(cccr, bus);
    bool counts = (cccr & CCCR_EDGE) ? out.compare && !*edge_history : out.compare;
    *edge_history = out.compare;
    out.increment = (out.thread_gate && counts) ? 1 : 0;
    return out;
}
