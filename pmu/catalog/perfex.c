/* perfex's event specs (pmu/catalog/perfex.h). */
#include "perfex.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "netburst_fields.h"
#include "netburst_msrs.h"
#include "util/number.h"

enum perfex_spec_status perfex_spec_parse(const char *text, struct perfex_spec *spec)
{
    char cccr[40], escr[40], pmc[40];
    const char *slash = strchr(text, '/'), *at = slash ? strchr(slash, '@') : NULL;
    if (!slash || !at || (size_t)(slash - text) >= sizeof cccr ||
        (size_t)(at - slash - 1) >= sizeof escr || strlen(at + 1) >= sizeof pmc)
        return PERFEX_SPEC_SYNTAX;
    snprintf(cccr, sizeof cccr, "%.*s", (int)(slash - text), text);
    snprintf(escr, sizeof escr, "%.*s", (int)(at - slash - 1), slash + 1);
    snprintf(pmc, sizeof pmc, "%s", at + 1);
    uint64_t counter;
    /* the status says what is wrong */
    if (!number_parse(cccr, 0, UINT64_MAX, &spec->cccr) ||
        !number_parse(escr, 0, UINT64_MAX, &spec->escr) ||
        !number_parse(pmc, 0, UINT64_MAX, &counter) ||
        (counter & ~(uint64_t)PERFEX_FAST_RDPMC) >= NB_NUM_COUNTERS)
        return PERFEX_SPEC_VALUE;
    spec->counter = (int)(counter & ~(uint64_t)PERFEX_FAST_RDPMC);
    return PERFEX_SPEC_OK;
}

void perfex_spec_format(const struct perfex_spec *spec, char out[PERFEX_SPEC_SIZE])
{
    snprintf(out, PERFEX_SPEC_SIZE, "0x%08" PRIX64 "/0x%08" PRIX64 "@0x%X", spec->cccr,
             spec->escr, PERFEX_FAST_RDPMC | (unsigned)spec->counter);
}

uint64_t perfex_upstream_cccr(int escr)
{
    return CCCR_ENABLE | CCCR_ACTIVE_THREAD_ANY |
           (uint64_t)nb_escrs[escr].select << CCCR_ESCR_SELECT_SHIFT;
}
