/* Event-based sampling on the simulated NetBurst PMU: the retirement
 * interface the timing model drives, the PEBS microassist that writes
 * records into the DS save area, the pending PMIs of imprecise sampling,
 * and the DS save area as software sets it up and reads its records back
 * (netburst_sampling.h).  docs/semantics.md, "PEBS" and "IEBS", gives
 * every rule and its source. */
#include <string.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/catalog/netburst_metrics.h"
#include "netburst_pmu_state.h"
#include "netburst_sampling.h"

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
    [false] = {4, 0x10, 0x14, 0x18, 0x1c, 0x20, NB_PEBS_SLOTS_32, 0xffffffffull},
    [true] = {8, 0x20, 0x28, 0x30, 0x38, 0x40, NB_PEBS_SLOTS_64, ~0ull},
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
    for (int kind = 0; kind < NB_NUM_TAGGINGS; kind++)
        if ((int)nb_taggings[kind].counting_event == event)
            return (uint8_t)(1u << kind);
    return 0;
}

static uint64_t ds_field(const struct nb_pmu *pmu, const struct ds_layout *ds, uint32_t offset)
{
    uint64_t addr = (pmu->ds_area + offset) & ds->address_mask;
    return sim_memory_read(&pmu->memory, addr, ds->field_size);
}

/* ---- the assist's accesses, published for a timing model (the feed's
 * assist log, netburst_feed.h) */

_Static_assert(NB_ASSIST_ACCESSES >= 2 + NB_PEBS_SLOTS_64 + 3, "an assist's accesses fit the log");

static void log_access(struct nb_pmu *pmu, int thread, uint64_t address, unsigned size,
                       bool store)
{
    if (!pmu->feed)
        return;
    struct nb_assist *a = &pmu->feed->assist[thread];
    a->access[a->n_accesses++] = (struct nb_assist_access){address, (uint8_t)size, store};
}

static uint64_t assist_read(struct nb_pmu *pmu, int thread, uint64_t address, unsigned size)
{
    log_access(pmu, thread, address, size, false);
    return sim_memory_read(&pmu->memory, address, size);
}

static bool assist_write(struct nb_pmu *pmu, int thread, uint64_t address, unsigned size,
                         uint64_t value)
{
    log_access(pmu, thread, address, size, true);
    return sim_memory_write(&pmu->memory, address, size, value);
}

/* A field of the DS buffer management area, read by the assist. */
static uint64_t assist_field(struct nb_pmu *pmu, int thread, const struct ds_layout *ds,
                             uint32_t offset)
{
    return assist_read(pmu, thread, (pmu->ds_area + offset) & ds->address_mask, ds->field_size);
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

static bool write_record(struct nb_pmu *pmu, int thread, const struct ds_layout *ds,
                         uint64_t at, const struct nb_retirement *r)
{
    for (unsigned k = 0; k < ds->record_slots; k++) {
        uint64_t addr = (at + (uint64_t)k * ds->field_size) & ds->address_mask;
        if (!assist_write(pmu, thread, addr, ds->field_size, record_slot(r, k)))
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
    if (pmu->feed) {
        pmu->feed->assist[thread].taken++;
        pmu->feed->assist[thread].n_accesses = 0;
    }
    uint64_t index = assist_field(pmu, thread, ds, ds->index);
    uint64_t maximum = assist_field(pmu, thread, ds, ds->absolute_maximum);
    if (maximum < record_size || index > maximum - record_size)
        return true;
    if (!write_record(pmu, thread, ds, index, r))
        return false;
    uint64_t next = (index + record_size) & ds->address_mask;
    uint64_t index_addr = (pmu->ds_area + ds->index) & ds->address_mask;
    if (!assist_write(pmu, thread, index_addr, ds->field_size, next))
        return false;
    uint64_t reset =
        assist_read(pmu, thread, (pmu->ds_area + ds->counter_reset) & ds->address_mask, 8);
    if (pmu->batched >> NB_PEBS_COUNTER & 1)
        nb_pmu_batch_flush(pmu);
    pmu->counter[NB_PEBS_COUNTER] = reset & PMU_COUNTER_MASK;
    if (next >= assist_field(pmu, thread, ds, ds->interrupt_threshold))
        pmu->pebs_pmi_raised |= (uint8_t)(1u << thread);
    return true;
}

bool nb_pmu_memory_write(struct nb_pmu *pmu, uint64_t addr, unsigned size, uint64_t value)
{
    return sim_memory_write(&pmu->memory, addr, size, value);
}

uint64_t nb_pmu_memory_read(const struct nb_pmu *pmu, uint64_t addr, unsigned size)
{
    return sim_memory_read(&pmu->memory, addr, size);
}

bool nb_pmu_retire(struct nb_pmu *pmu, int thread, const struct nb_retirement *r)
{
    if (thread < 0 || thread > (pmu->config.ht ? 1 : 0) ||
        (r->ia32e && !nb_cpuid_model_info(pmu->config.model)->addr64))
        return false;
    pmu->last_eip[thread] = r->eip;
    uint8_t bit = (uint8_t)(1u << thread);
    if (!(pmu->pebs_armed & bit) || !(r->tags & pebs_mechanism(pmu)))
        return true;
    pmu->pebs_armed &= (uint8_t)~bit;
    return take_assist(pmu, thread, r);
}

void nb_pmu_note_pmi(struct nb_pmu *pmu, uint8_t threads, bool precise)
{
    /* A PMI delivered while one still waits merges with it: the local
     * APIC holds one pending interrupt per vector.  One delivered in the
     * same cycle is the same interrupt: precise if either is. */
    for (int t = 0; t < 2; t++) {
        struct nb_pending_pmi *p = &pmu->pending[t];
        if (!(threads >> t & 1))
            continue;
        if (!p->pending)
            *p = (struct nb_pending_pmi){.pending = true, .since = pmu->cycles + 1};
        if (p->since == pmu->cycles + 1)
            p->precise = p->precise || precise;
    }
    if (pmu->feed)
        pmu->feed->pmi_waiting = true;
}

bool nb_pmu_pending_pmi(const struct nb_pmu *pmu, int thread, uint64_t *since)
{
    if (thread < 0 || thread > 1 || !pmu->pending[thread].pending)
        return false;
    *since = pmu->pending[thread].since;
    return true;
}

bool nb_pmu_take_pmi_at(struct nb_pmu *pmu, int thread, uint64_t eip,
                        struct nb_pmi_sample *sample)
{
    uint64_t since;
    if (!nb_pmu_pending_pmi(pmu, thread, &since))
        return false;
    struct nb_pending_pmi *p = &pmu->pending[thread];
    *sample = (struct nb_pmi_sample){.delivered = since, .eip = eip, .precise = p->precise};
    *p = (struct nb_pending_pmi){0};
    if (pmu->feed)
        pmu->feed->pmi_waiting = pmu->pending[0].pending || pmu->pending[1].pending;
    return true;
}

/* The bench's taking: a script has no next instruction, so the sample is
 * the thread's last retired EIP. */
bool nb_pmu_take_pmi(struct nb_pmu *pmu, int thread, struct nb_pmi_sample *sample)
{
    return thread >= 0 && thread <= 1 &&
           nb_pmu_take_pmi_at(pmu, thread, pmu->last_eip[thread], sample);
}

/* The context of an occurrence by `thread` at `cpl`, the other thread at
 * its CPL now. */
static uint8_t context_at(const struct nb_pmu *pmu, int thread, int cpl)
{
    uint8_t cpls[2] = {pmu->thread[0].cpl, pmu->thread[1].cpl};
    cpls[thread & 1] = (uint8_t)cpl;
    return escr_context_of(thread & 1, cpls, pmu->config.ht);
}

uint16_t nb_pmu_selected_mask(const struct nb_pmu *pmu, int event, int thread, int cpl)
{
    if (event < 0 || event >= NB_NUM_EVENTS)
        return 0;
    return nb_counted_bits(pmu, (enum nb_event_id)event, context_at(pmu, thread, cpl));
}

uint8_t nb_pmu_tag_bits(const struct nb_pmu *pmu, int event, uint16_t mask, int thread, int cpl)
{
    if (event < 0 || event >= NB_NUM_EVENTS)
        return 0;
    return nb_execution_tag(pmu, (enum nb_event_id)event, mask, context_at(pmu, thread, cpl));
}

/* ---- The DS save area as software sets it up, and the records read back
 * (netburst_sampling.h). */

static uint64_t record_bytes(const struct ds_layout *ds)
{
    return (uint64_t)ds->record_slots * ds->field_size;
}

bool nb_pmu_ds_setup(struct nb_pmu *pmu, bool ia32e, const struct nb_ds_config *ds)
{
    const struct ds_layout *layout = &ds_layouts[ia32e];
    uint64_t record = record_bytes(layout);
    const struct {
        uint32_t offset;
        unsigned size;
        uint64_t value;
    } fields[] = {
        {layout->buffer_base, layout->field_size, ds->buffer},
        {layout->index, layout->field_size, ds->buffer},
        {layout->absolute_maximum, layout->field_size, ds->buffer + ds->records * record},
        {layout->interrupt_threshold, layout->field_size, ds->buffer + ds->threshold * record},
        {layout->counter_reset, 8, ds->counter_reset},
    };
    /* The MSR first: a refused address leaves the memory untouched. */
    if (nb_pmu_wrmsr(pmu, MSR_IA32_DS_AREA, ds->area) != MSR_OK)
        return false;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        uint64_t addr = (ds->area + fields[i].offset) & layout->address_mask;
        if (!sim_memory_write(&pmu->memory, addr, fields[i].size, fields[i].value))
            return false;
    }
    return true;
}

bool nb_pmu_pebs_record(const struct nb_pmu *pmu, bool ia32e, uint64_t k,
                        struct nb_pebs_record *record)
{
    const struct ds_layout *ds = &ds_layouts[ia32e];
    uint64_t base = ds_field(pmu, ds, ds->buffer_base), index = ds_field(pmu, ds, ds->index);
    if (index < base || k >= (index - base) / record_bytes(ds))
        return false;
    uint64_t at = base + k * record_bytes(ds);
    record->n_slots = ds->record_slots;
    for (unsigned s = 0; s < ds->record_slots; s++)
        record->slot[s] = sim_memory_read(&pmu->memory,
                                          (at + (uint64_t)s * ds->field_size) & ds->address_mask,
                                          ds->field_size);
    return true;
}
