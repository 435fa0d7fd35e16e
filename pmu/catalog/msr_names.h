/* MSR names as the SDM spells them and as users type them. */
#ifndef PMU_CATALOG_MSR_NAMES_H
#define PMU_CATALOG_MSR_NAMES_H

#include <stdbool.h>

/* Whether two MSR names are the same, ignoring case and a leading "MSR_"
 * or "IA32_", so "iq_cccr0", "MSR_IQ_CCCR0" and "PEBS_ENABLE" all match
 * the SDM's spelling. */
bool msr_names_match(const char *a, const char *b);

#endif
