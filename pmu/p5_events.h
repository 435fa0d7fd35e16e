/* The 38 P5 (Pentium) events of Safford 1997 (Table 2.3), with the enumerated
 * names of its Table 3.2.  Data in p5_events.c; notes in docs/events.md. */
#ifndef PMU_P5_EVENTS_H
#define PMU_P5_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

struct p5_event {
    uint8_t code;          /* the 6-bit CESR event select */
    const char *name;      /* Safford 1997, Table 3.2, e.g. "data_read_miss" */
    const char *description;
    bool duration;         /* counts clocks while a condition holds */
    const char *erratum;   /* how hardware miscounts it (Safford 1997, appendix A), or NULL */
};

extern const struct p5_event p5_events[];
extern const int p5_num_events;

/* The event with that name (case-insensitive), or NULL. */
const struct p5_event *p5_event_by_name(const char *name);
/* The event with that code, or NULL when the code is undefined. */
const struct p5_event *p5_event_by_code(unsigned code);

#endif
