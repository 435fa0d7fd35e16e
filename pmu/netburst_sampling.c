/* Event-based sampling on the simulated NetBurst PMU: the retirement
 * interface the timing model drives, the PEBS microassist that writes
 * records into the DS save area, and the pending PMIs of imprecise
 * sampling.  docs/semantics.md, "PEBS" and "IEBS", gives every rule and
 * its source. */
#include <string.h>

#include "netburst_events.h"
#include "netburst_fields.h"
#include "netburst_metrics.h"
#include "netburst_pmu.h"

/* The PEBS fields of the DS buffer management area and the record size.
 * 32-bit: SDM Vol. 3B figure "DS Save Area" (4-byte fields from 10H) and
 * "PEBS Record Format" (EFLAGS, linear IP, EAX, EBX, ECX, EDX, ESI, EDI,
 * EBP, ESP: 40 bytes).  IA-32e mode: figures "IA-32e Mode DS Save Area"
 * (8-byte fields from 20H) and "64-bit PEBS Record Format" (RFLAGS, RIP,
 * RAX ... RSP, R8-R15: 144 bytes).  The counter reset is a 40-bit value
 * (SDM: "PEBS counter reset value") read as 8 bytes in both. */
struct ds_layout {
    unsigned field_size;  /* bytes of an address field and of a record slot */
    uint32_t buffer_base, index, absolute_maximum, interrupt_threshold, counter_reset;
    unsigned record_slots;
    uint64_t address_mask;
};

static const struct ds_layout ds_layouts[2] = {
    [false] = {4, 0x10, 0x14, 0x18, 0x1c, 0x20, 10, 0xffffffffull},
    [true] = {8, 0x20, 0x28, 0x30, 0x38, 0x40, 18, ~0ull},
};

/* The at-retirement event that counts each tagging mechanism's uops
 * (SDM 18.18.7: front_end_event, execution_event, replay_event; the only
 * events that support PEBS). */
static const struct {
    const char *event;
    uint8_t tag;
} mechanism_events[] = {
    {"front_end_event", NB_TAG_FRONT_END},
    {"execution_event", NB_TAG_EXECUTION},
    {"replay_event", NB_TAG_REPLAY},
};

/* The tag the PEBS assist waits for: that of the mechanism whose event
 * IQ_COUNTER4's ESCR selects, or 0 when it counts another event.  Only
 * one mechanism can drive PEBS (the Pentium 4 monitoring study, section 7: "si se usa PEBS, sólo
 * se puede utilizar uno de los tres mecanismos de etiquetado"). */
static uint8_t pebs_mechanism(const struct nb_pmu *pmu)
{
    int escr = pmu->cccr_escr[NB_PEBS_COUNTER];
    int event = escr >= 0 ? pmu->escr_event[escr] : -1;
    if (event < 0)
        return 0;
    for (size_t i = 0; i < sizeof mechanism_events / sizeof mechanism_events[0]; i++)
        if (strcmp(nb_event_table[event].name, mechanism_events[i].event) == 0)
            return mechanism_events[i].tag;
    return 0;
}

static uint64_t ds_field(const struct nb_pmu *pmu, const struct ds_layout *ds, uint32_t offset)
{
    uint64_t addr = (pmu->ds_area + offset) & ds->address_mask;
    return sim_memory_read(&pmu->memory, addr, ds->field_size);
}

/* Record slot k: EFLAGS, the linear IP, then the general registers. */
static uint64_t record_slot(const struct nb_retirement *r, unsigned k)
{
    if (k == 1)
        return r->eip;
    if (!r->regs)
        return 0;
    return r->regs[k == 0 ? NB_REG_FLAGS : k - 1];
}

static bool write_record(struct nb_pmu *pmu, const struct ds_layout *ds, uint64_t at,
                         const struct nb_retirement *r)
{
    for (unsigned k = 0; k < ds->record_slots; k++) {
        uint64_t addr = (at + (uint64_t)k * ds->field_size) & ds->address_mask;
        if (!sim_memory_write(&pmu->memory, addr, ds->field_size, record_slot(r, k)))
            return false;
    }
    return true;
}

/* The microassist before the tagged uop retires (Sprunt 2002): unless the
 * index is at the absolute maximum (the record would not fit: no record,
 * no signal, SDM "PEBS Absolute Maximum"), it stores the record, advances
 * the index, reloads IQ_COUNTER4 from the counter reset field and raises
 * a PMI when the index has reached the interrupt threshold. */
static bool take_assist(struct nb_pmu *pmu, int thread, const struct nb_retirement *r)
{
    const struct ds_layout *ds = &ds_layouts[r->ia32e];
    uint64_t record_size = (uint64_t)ds->record_slots * ds->field_size;
    uint64_t index = ds_field(pmu, ds, ds->index);
    uint64_t maximum = ds_field(pmu, ds, ds->absolute_maximum);
    if (maximum < record_size || index > maximum - record_size)
        return true;
    if (!write_record(pmu, ds, index, r))
        return false;
    uint64_t next = (index + record_size) & ds->address_mask;
    uint64_t index_addr = (pmu->ds_area + ds->index) & ds->address_mask;
    if (!sim_memory_write(&pmu->memory, index_addr, ds->field_size, next))
        return false;
    uint64_t reset = sim_memory_read(&pmu->memory,
                                     (pmu->ds_area + ds->counter_reset) & ds->address_mask, 8);
    pmu->counter[NB_PEBS_COUNTER] = reset & PMU_COUNTER_MASK;
    if (next >= ds_field(pmu, ds, ds->interrupt_threshold))
        pmu->pebs_pmi_raised |= (uint8_t)(1u << thread);
    return true;
}

bool nb_pmu_retire(struct nb_pmu *pmu, int thread, const struct nb_retirement *r)
{
    if (thread < 0 || thread > (pmu->config.ht ? 1 : 0) ||
        (r->ia32e && !nb_model_info(pmu->config.model)->addr64))
        return false;
    pmu->last_eip[thread] = r->eip;
    uint8_t bit = (uint8_t)(1u << thread);
    if (!(pmu->pebs_armed & bit) || !(r->tags & pebs_mechanism(pmu)))
        return true;
    pmu->pebs_armed &= (uint8_t)~bit;
    return take_assist(pmu, thread, r);
}

void nb_pmu_note_pmi(struct nb_pmu *pmu, uint8_t threads)
{
    /* A PMI delivered while one still waits merges with it: the local
     * APIC holds one pending interrupt per vector. */
    for (int t = 0; t < 2; t++)
        if ((threads >> t & 1) && !pmu->pending[t].pending)
            pmu->pending[t] = (struct nb_pending_pmi){.pending = true, .since = pmu->cycles + 1};
}

bool nb_pmu_pending_pmi(const struct nb_pmu *pmu, int thread, uint64_t *since)
{
    if (thread < 0 || thread > 1 || !pmu->pending[thread].pending)
        return false;
    *since = pmu->pending[thread].since;
    return true;
}

bool nb_pmu_take_pmi(struct nb_pmu *pmu, int thread, struct nb_pmi_sample *sample)
{
    uint64_t since;
    if (!nb_pmu_pending_pmi(pmu, thread, &since))
        return false;
    pmu->pending[thread].pending = false;
    *sample = (struct nb_pmi_sample){.delivered = since, .eip = pmu->last_eip[thread]};
    return true;
}

/* The sub-event bits ESCR `e` would count for an occurrence by `thread`
 * at `cpl` (the detector's own rules, the other thread at its CPL). */
static uint16_t qualified_bits(const struct nb_pmu *pmu, int e, int thread, int cpl)
{
    uint8_t cpls[2] = {pmu->thread[0].cpl, pmu->thread[1].cpl};
    cpls[thread] = (uint8_t)cpl;
    return pmu->escr_rules[e].counting[escr_context_of(thread, cpls, pmu->config.ht)];
}

uint16_t nb_pmu_selected_mask(const struct nb_pmu *pmu, int event, int thread, int cpl)
{
    uint16_t mask = 0;
    for (uint64_t d = pmu->detecting; d; d &= d - 1) {
        int e = __builtin_ctzll(d);
        if (pmu->escr_event[e] == event)
            mask |= qualified_bits(pmu, e, thread, cpl);
    }
    return mask;
}

uint8_t nb_pmu_tag_bits(const struct nb_pmu *pmu, int event, uint16_t mask, int thread, int cpl)
{
    uint8_t tags = 0;
    for (uint64_t d = pmu->detecting; d; d &= d - 1) {
        int e = __builtin_ctzll(d);
        if (pmu->escr_event[e] == event && (pmu->escr[e] & ESCR_TAG_ENABLE) &&
            (qualified_bits(pmu, e, thread, cpl) & mask))
            tags |= (uint8_t)(pmu->escr[e] >> ESCR_TAG_VALUE_SHIFT & 0xf);
    }
    return tags;
}
