/* The NetBurst event catalog: every event of the SDM's NetBurst tables with
 * its event select, the ESCRs that can detect it and its sub-events.  The
 * table is data (netburst_events.c); its sources and the disagreements
 * between them are in docs/events.md.
 */
#ifndef PMU_NETBURST_EVENTS_H
#define PMU_NETBURST_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nb_subevent {
    const char *name;
    uint8_t bit;                /* bit of the 16-bit ESCR event mask (ESCR bit 9 + bit) */
    bool thread_independent;    /* TI in the SDM's table; TS otherwise */
};

enum nb_event_flags {
    NB_EVENT_AT_RETIREMENT = 1 << 0,
    NB_EVENT_PEBS = 1 << 1,     /* can be used with PEBS */
    NB_EVENT_EXEC_TAG_UPSTREAM = 1 << 2,      /* tags uops for execution_event */
    NB_EVENT_FRONT_END_TAG_UPSTREAM = 1 << 3, /* tags uops for front_end_event */
};

struct nb_event {
    const char *name;
    uint8_t select;             /* ESCR event select, bits 30:25 */
    uint64_t escrs;             /* bit e set: ESCR nb_escrs[e] can detect it */
    uint8_t models;             /* bit m set: CPUID model m has the event */
    uint8_t flags;
    uint8_t n_subevents;
    const struct nb_subevent *subevents;
};

/* The `models` of an event every model has: CPUID models 0, 1, 2, 3, 4, 6. */
#define NB_ALL_MODELS 0x5f

extern const struct nb_event nb_events[];
extern const int nb_num_events;

/* Index of the event called `name` (case-insensitive), or -1. */
int nb_event_find(const char *name);

/* The sub-event of `event` called `name` (case-insensitive), or NULL. */
const struct nb_subevent *nb_subevent_find(const struct nb_event *event, const char *name);

/* Index of the event an ESCR detects when its event select is `select`, or
 * -1 when that select means nothing on that ESCR. */
int nb_event_on_escr(int escr, unsigned select);

/* The names of the event's sub-events, ", "-separated, into buf. */
void nb_subevent_names(const struct nb_event *event, char *buf, size_t size);

/* Mask bits of `event` whose sub-events are thread-independent. */
uint16_t nb_event_ti_mask(const struct nb_event *event);

#endif
