#include "escr_detector.h"

#include "pmu/catalog/netburst_fields.h"

/* Table 18-29: a TS sub-event counts when the ESCR bit of the occurring
 * thread at its CPL (context bits 3:2) is set. */
static bool ts_qualifies(uint64_t escr, unsigned context)
{
    return (escr >> (context >> 2)) & 1;
}

/* Table 18-30: a TI event cannot be tied to a thread, so T0_USR and T1_USR
 * both mean "while either thread is at CPL 1-3", and likewise for the OS
 * bits. */
static bool ti_qualifies(uint64_t escr, unsigned context)
{
    unsigned levels = ((escr & (ESCR_T0_OS | ESCR_T1_OS)) ? ESCR_CONTEXT_OS : 0) |
                      ((escr & (ESCR_T0_USR | ESCR_T1_USR)) ? ESCR_CONTEXT_USR : 0);
    return (levels & context) != 0;
}

struct escr_rules escr_rules_of(uint64_t escr, uint16_t ti_mask)
{
    struct escr_rules rules;
    uint16_t mask = (uint16_t)escr_event_mask(escr);
    for (unsigned context = 0; context < ESCR_CONTEXTS; context++) {
        uint16_t ts = ts_qualifies(escr, context) ? (uint16_t)~ti_mask : 0;
        uint16_t ti = ti_qualifies(escr, context) ? ti_mask : 0;
        rules.counting[context] = mask & (ts | ti);
    }
    return rules;
}

/* The ESCR bit of a thread at a CPL: its OS bit for CPL 0, its USR bit for
 * CPL 1-3. */
static uint64_t privilege_bit(int thread, unsigned cpl)
{
    if (thread == 0)
        return cpl == 0 ? ESCR_T0_OS : ESCR_T0_USR;
    return cpl == 0 ? ESCR_T1_OS : ESCR_T1_USR;
}

uint8_t escr_context_of(int thread, const uint8_t cpl[2], bool ht)
{
    unsigned levels = 0;
    int threads = ht ? 2 : 1;
    for (int t = 0; t < threads; t++)
        levels |= cpl[t] == 0 ? ESCR_CONTEXT_OS : ESCR_CONTEXT_USR;
    unsigned ts_bit = (unsigned)__builtin_ctzll(privilege_bit(thread, cpl[thread]));
    return (uint8_t)(ts_bit << 2 | levels);
}

bool escr_qualifies(uint64_t escr, const struct nb_occurrence *occ, bool thread_independent,
                    bool ht)
{
    unsigned context = escr_context_of(occ->thread, occ->cpl, ht);
    return thread_independent ? ti_qualifies(escr, context) : ts_qualifies(escr, context);
}

void escr_detect(uint64_t escr, const struct nb_occurrence *occ, uint16_t ti_mask, bool ht,
                 uint8_t *output)
{
    struct escr_rules rules = escr_rules_of(escr, ti_mask);
    if (escr_rules_count(&rules, occ->mask, escr_context_of(occ->thread, occ->cpl, ht)))
        escr_output_add(output, occ->count);
}
