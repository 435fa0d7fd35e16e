#include "escr_detector.h"

#include "netburst_fields.h"

enum { BUS_MAX = 15 };

/* The OS bit of a thread for CPL 0, its USR bit for CPL 1-3. */
static uint64_t privilege_bit(int thread, unsigned cpl)
{
    if (thread == 0)
        return cpl == 0 ? ESCR_T0_OS : ESCR_T0_USR;
    return cpl == 0 ? ESCR_T1_OS : ESCR_T1_USR;
}

bool escr_qualifies(uint64_t escr, const struct nb_occurrence *occ, bool thread_independent,
                    bool ht)
{
    if (!thread_independent)
        return (escr & privilege_bit(occ->thread, occ->cpl[occ->thread])) != 0;

    /* Table 18-30: a TI event cannot be tied to a thread, so T0_USR and
     * T1_USR both mean "while either thread is at CPL 1-3", and likewise
     * for the OS bits. */
    uint64_t usr = (escr & (ESCR_T0_USR | ESCR_T1_USR)) ? 1 : 0;
    uint64_t os = (escr & (ESCR_T0_OS | ESCR_T1_OS)) ? 1 : 0;
    int threads = ht ? 2 : 1;
    for (int t = 0; t < threads; t++)
        if (occ->cpl[t] == 0 ? os : usr)
            return true;
    return false;
}

void escr_detect(uint64_t escr, const struct nb_occurrence *occ, uint16_t ti_mask, bool ht,
                 uint8_t *bus)
{
    uint16_t selected = (uint16_t)escr_event_mask(escr) & occ->mask;
    if (!selected)
        return;
    /* An occurrence naming both TS and TI sub-events counts if any of its
     * selected sub-events qualifies. */
    bool qualifies = ((selected & ~ti_mask) && escr_qualifies(escr, occ, false, ht)) ||
                     ((selected & ti_mask) && escr_qualifies(escr, occ, true, ht));
    if (!qualifies)
        return;
    uint64_t sum = (uint64_t)*bus + occ->count;
    *bus = (uint8_t)(sum > BUS_MAX ? BUS_MAX : sum);
}
