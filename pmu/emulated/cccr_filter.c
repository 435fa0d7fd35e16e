#include "cccr_filter.h"

#include "pmu/catalog/netburst_fields.h"

/* ACTIVE_THREAD 00 counts when no logical processor is active, 01 when
 * exactly one is, 10 when both are, 11 when at least one is (SDM-new
 * 18.16.2; the Pentium 4 monitoring study, section 6.3): bit n is n active threads. */
static const uint8_t gate_of_active_thread[4] = {1u << 0, 1u << 1, 1u << 2, 1u << 1 | 1u << 2};

/* COMPLEMENT turns "output > THRESHOLD" into "output <= THRESHOLD" (SDM, "CCCR";
 * the Pentium 4 monitoring study, section 6.3): bit b of the result is the comparison for output b. */
static uint16_t compare_true(uint64_t cccr)
{
    unsigned threshold = cccr_threshold(cccr);
    uint16_t at_most = (uint16_t)((2u << threshold) - 1); /* outputs 0..threshold */
    return (cccr & CCCR_COMPLEMENT) ? at_most : (uint16_t)~at_most;
}

struct cccr_rules cccr_rules_of(uint64_t cccr)
{
    bool compare = (cccr & CCCR_COMPARE) != 0;
    return (struct cccr_rules){
        .compare_true = compare_true(cccr),
        .gate = gate_of_active_thread[cccr_active_thread(cccr)],
        .compare = compare,
        .edge = compare && (cccr & CCCR_EDGE),
    };
}

bool cccr_thread_gate(uint64_t cccr, unsigned active_threads)
{
    return (gate_of_active_thread[cccr_active_thread(cccr)] >> active_threads) & 1;
}

struct cccr_filter_out cccr_filter(uint64_t cccr, unsigned output, unsigned active_threads,
                                   bool *edge_history)
{
    struct cccr_rules rules = cccr_rules_of(cccr);
    return cccr_rules_filter(&rules, output, active_threads, edge_history);
}
