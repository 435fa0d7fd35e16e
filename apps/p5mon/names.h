/* How run_p5mon names an event (code, or P5MON_CLOCKS): in the report
 * ("Data Read", Safford 1997, Figures 4.3-4.6), as a parameter ("data_read",
 * Table C.1) and in the output file ("0x0", Figures 4.7-4.9). */
#ifndef APPS_P5MON_NAMES_H
#define APPS_P5MON_NAMES_H

#include <stddef.h>

/* The description of pmu/catalog/p5_events.c in title case, "Clock cycles" for
 * clocks. */
void p5mon_event_title(int event, char *out, size_t size);
const char *p5mon_event_parm_name(int event);
/* "0x3"; "clocks" for clocks, which has no event code. */
void p5mon_event_code(int event, char *out, size_t size);

#endif
