/* The model's event occurrences, kept per cycle until every event of that
 * cycle is known, then reported to the PMU and the cycle ticked.  Each
 * slot is one (event, sub-event mask) pair of the catalog (nb_events.c). */
#ifndef SIM_NETBURST_NB_EVENTS_H
#define SIM_NETBURST_NB_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/netburst_pmu.h"

enum nb_slot {
    NB_RUNNING, NB_INSTR_RETIRED, NB_INSTR_COMPLETED, NB_UOPS_RETIRED,
    NB_BR_MMNP, NB_BR_MMNM, NB_BR_MMTP, NB_BR_MMTM, NB_MISPRED,
    NB_TYPE_COND, NB_TYPE_CALL, NB_TYPE_RETURN, NB_TYPE_INDIRECT, NB_TYPE_INDIRECT_CALL,
    NB_MTYPE_COND, NB_MTYPE_RETURN, NB_MTYPE_INDIRECT, NB_MTYPE_INDIRECT_CALL,
    NB_X87_UOP, NB_PACKED_SP, NB_PACKED_DP, NB_SCALAR_SP, NB_SCALAR_DP, NB_MMX64, NB_MMX128,
    NB_MOVES_P0, NB_MOVES_P2,
    NB_TCMISS, NB_ITLB_HIT, NB_ITLB_MISS, NB_WALK_DTMISS, NB_WALK_ITMISS,
    NB_LSC, NB_SSC, NB_SPLIT_LD, NB_SPLIT_ST,
    NB_MOB_NO_STD, NB_MOB_PARTIAL, NB_MOB_UNALIGNED,
    NB_L2_HITE, NB_L2_HITM, NB_L2_MISS,
    NB_BSQ_READ, NB_BSQ_WRITEBACK, NB_IOQ_READ, NB_IOQ_WRITE, NB_DRDY_OWN, NB_DRDY_DRV,
    NB_TC_DI, NB_TC_BI, NB_MS_XFER,
    NB_UQ_BUILD, NB_UQ_DELIVER, NB_UQ_ROM, NB_SBFULL,
    NB_NUM_SLOTS,
};

/* The front end's mode in a cycle: TC_deliver_mode's sub-event. */
enum nb_fe_mode { NB_MODE_DELIVER, NB_MODE_BUILD, NB_MODE_ROM };

struct nb_bucket {
    uint64_t used[2];            /* slot bits with a count, by [user] */
    uint16_t count[2][NB_NUM_SLOTS];
    uint8_t frontend;            /* mode | user << 2, for cycles before frontend_from */
};

struct nb_events {
    struct nb_pmu *pmu;
    struct nb_bucket *ring;
    uint64_t size;               /* a power of two */
    uint64_t now;                /* the next cycle to tick */
    uint64_t wanted;             /* slots whose event some ESCR selects */
    uint8_t frontend;            /* the front end's mode | user << 2 since frontend_from */
    uint64_t frontend_from;
    int16_t event[NB_NUM_SLOTS];
    uint16_t mask[NB_NUM_SLOTS];
};

bool nb_events_init(struct nb_events *ev, struct nb_pmu *pmu);
void nb_events_free(struct nb_events *ev);

/* Which slots an ESCR selects; again after anything may have written the PMU. */
void nb_events_watch(struct nb_events *ev);

/* Whether a slot is watched: the caller may skip work for it. */
static inline bool nb_watched(const struct nb_events *ev, enum nb_slot slot)
{
    return (ev->wanted >> slot) & 1;
}

/* `count` occurrences in `cycle` (not yet ticked) at user or OS level. */
bool nb_event_slow(struct nb_events *ev, uint64_t cycle, enum nb_slot slot, bool user,
                   unsigned count);
static inline void nb_event(struct nb_events *ev, uint64_t cycle, enum nb_slot slot, bool user,
                            unsigned count)
{
    if (nb_watched(ev, slot) && count)
        nb_event_slow(ev, cycle, slot, user, count);
}

/* The front end is in `mode` at `user` level from `cycle` on. */
bool nb_events_frontend(struct nb_events *ev, uint64_t cycle, enum nb_fe_mode mode, bool user);

/* Reports and ticks every cycle before `cycle`. */
void nb_events_advance(struct nb_events *ev, uint64_t cycle);

#endif
