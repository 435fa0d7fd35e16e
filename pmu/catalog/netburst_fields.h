/* Bit fields of the NetBurst ESCR and CCCR (SDM Vol. 3B, figures "Event
 * Selection Control Register (ESCR)" and "Counter Configuration Control
 * Register (CCCR)"; the Pentium 4 monitoring study, section 6; Sprunt 2002).  The with-HT layout; for
 * processors without Hyper-Threading the T1 fields and ACTIVE_THREAD are
 * reserved (docs/semantics.md, "Hyper-Threading off").
 */
#ifndef PMU_CATALOG_NETBURST_FIELDS_H
#define PMU_CATALOG_NETBURST_FIELDS_H

#include <stdint.h>

#define NB_BIT(n) (1ull << (n))
#define NB_FIELD(v, lo, width) (((v) >> (lo)) & ((1ull << (width)) - 1))
#define NB_LOW32 0xffffffffull /* bits 31:0 */

/* ESCR */
#define ESCR_T1_USR NB_BIT(0)
#define ESCR_T1_OS NB_BIT(1)
#define ESCR_T0_USR NB_BIT(2)
#define ESCR_T0_OS NB_BIT(3)
#define ESCR_TAG_ENABLE NB_BIT(4)
#define ESCR_TAG_VALUE_SHIFT 5
#define ESCR_EVENT_MASK_SHIFT 9
#define ESCR_EVENT_SELECT_SHIFT 25
#define ESCR_DEFINED_BITS 0x7fffffffull /* bits 30:0 */

static inline unsigned escr_event_select(uint64_t escr) { return (unsigned)NB_FIELD(escr, 25, 6); }
static inline unsigned escr_event_mask(uint64_t escr) { return (unsigned)NB_FIELD(escr, 9, 16); }
static inline unsigned escr_tag_value(uint64_t escr) { return (unsigned)NB_FIELD(escr, 5, 4); }

/* CCCR */
#define CCCR_EXTENDED_CASCADE NB_BIT(11) /* IQ CCCRs of models 2, 3, 4, 6 */
#define CCCR_ENABLE NB_BIT(12)
#define CCCR_ESCR_SELECT_SHIFT 13
#define CCCR_ACTIVE_THREAD_SHIFT 16
#define CCCR_COMPARE NB_BIT(18)
#define CCCR_COMPLEMENT NB_BIT(19)
#define CCCR_THRESHOLD_SHIFT 20
#define CCCR_EDGE NB_BIT(24)
#define CCCR_FORCE_OVF NB_BIT(25)
#define CCCR_OVF_PMI_T0 NB_BIT(26)
#define CCCR_OVF_PMI_T1 NB_BIT(27)
#define CCCR_CASCADE NB_BIT(30)
#define CCCR_OVF NB_BIT(31)
#define CCCR_ACTIVE_THREAD_ANY (3ull << 16)
/* Bits 12-27, 30 and 31; bit 11 only where extended cascading exists. */
#define CCCR_DEFINED_BITS 0xcffff000ull

static inline unsigned cccr_escr_select(uint64_t cccr) { return (unsigned)NB_FIELD(cccr, 13, 3); }
static inline unsigned cccr_active_thread(uint64_t cccr) { return (unsigned)NB_FIELD(cccr, 16, 2); }
static inline unsigned cccr_threshold(uint64_t cccr) { return (unsigned)NB_FIELD(cccr, 20, 4); }

/* The threads whose PMI a CCCR asks for: bit 0 thread 0, bit 1 thread 1. */
static inline uint8_t cccr_pmi_threads(uint64_t cccr)
{
    return (uint8_t)(((cccr & CCCR_OVF_PMI_T0) ? 1 : 0) | ((cccr & CCCR_OVF_PMI_T1) ? 2 : 0));
}

#endif
