/* One counting path: the model-facing fast path of pmu/emulated/netburst_feed.h
 * (the PMU's published routes and tags for a model's sources, occurrences
 * routed onto outputs, nb_pmu_tick_routed) against the bench path of
 * pmu/emulated/netburst_pmu.h (nb_pmu_event, nb_pmu_tick).
 *
 * For every NetBurst model, with and without Hyper-Threading, two PMUs are
 * programmed alike by the same WRMSRs (random ESCRs with Tag Enable and
 * uop_type tagging, random CCCRs with COMPARE/COMPLEMENT/EDGE/FORCE_OVF/
 * OVF_PMI/CASCADE/ACTIVE_THREAD, counters near overflow, IA32_PEBS_ENABLE,
 * MSR_PEBS_MATRIX_VERT, a DS save area and PEBS buffer) and reprogrammed
 * between and within cycles; both get the same random occurrences (the
 * bench PMU with nb_pmu_event, the fast one through its feed's routes onto
 * outputs, and sometimes with nb_pmu_event too), the same thread states and
 * the same retirements, tagged by the fast PMU's feed and checked against
 * a reference written here from the ESCRs' fields as RDMSR reads them (the
 * detector's thread and privilege rules, Tag Enable and tag values,
 * uop_type's TAGLOADS/TAGSTORES) and the SDM's replay-tagging rule.  Some cycles write an ESCR among their occurrences:
 * outputs routed before it must be refused and count nothing.  After every
 * cycle every readable MSR, the cycle count, the PEBS PMI, the pending
 * PMIs and their samples, the DS index and the PEBS buffer must be the
 * same; after every retirement that takes a PEBS assist, the accesses the
 * fast PMU's feed logs for it must be those of the DS save area's rules.
 * Tallies of what happened keep the test from passing vacuously.
 *
 * The quiet runs check the fast path's batched plain counts (counters
 * without COMPARE add their outputs in batches, flushed at any write):
 * mostly plain counters, values up to 2^16 short of overflow, and
 * stretches of thousands of cycles without a write or a thread change.
 *
 * Black-box: only the public interfaces, as a timing model and the bench
 * use them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/emulated/escr_detector.h"
#include "pmu/programming/msr.h"
#include "pmu/catalog/netburst_events.h"
#include "pmu/emulated/netburst_feed.h"
#include "pmu/catalog/netburst_fields.h"
#include "pmu/catalog/netburst_metrics.h"
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/emulated/netburst_pmu.h"

enum {
    SEED = 1729,
    RUNS = 6,          /* programmings per model and HT setting */
    CYCLES = 2000,     /* cycles per programming */
    MAX_STEPS = 12,    /* occurrences, retirements and mid-cycle changes per cycle */
    FULL_COMPARE = 32, /* cycles between comparisons of the whole DS area and buffer */
    MAX_RECORDS = 6,
    QUIET_RUNS = 2,        /* quiet programmings per model and HT setting */
    QUIET_CYCLES = 13000,  /* cycles per quiet programming: three 4096-cycle windows */
    QUIET = 8000,          /* a quiet cycle reprograms one time in QUIET */
};

/* IA32_PEBS_ENABLE: metric bits 12:0, 15 and 16; 26 ENABLE_PEBS_OTH_THR
 * with HT (24 UOP_TAG and 25 ENABLE_PEBS in netburst_metrics.h).
 * MSR_PEBS_MATRIX_VERT: bits 0, 1, 4 (docs/semantics.md, "Reserved bits"). */
#define PEBS_METRIC_BITS (0x1fffull | NB_BIT(15) | NB_BIT(16))
#define PEBS_OTH_THR NB_BIT(26)
#define MATRIX_VERT_BITS 0x13ull
/* uop_type's TAGLOADS and TAGSTORES sub-event bits (front-end tagging). */
#define TAGLOADS (1u << 1)
#define TAGSTORES (1u << 2)
/* IQ_CCCR4's ESCR select for MSR_CRU_ESCR2. */
#define SELECT_CRU2 5u

/* The PEBS fields of the DS save area (SDM Vol. 3B, "DS Save Area" and
 * "IA-32e Mode DS Save Area") and the record sizes: [ia32e]. */
static const struct {
    unsigned field;
    uint64_t base, index, maximum, threshold, reset;
    unsigned record;
} layouts[2] = {
    [false] = {4, 0x10, 0x14, 0x18, 0x1c, 0x20, 40},
    [true] = {8, 0x20, 0x28, 0x30, 0x38, 0x40, 144},
};

/* ---- The pair of PMUs and the run's state */

static int model;
static bool ht, addr64;
static struct nb_pmu *bench, *fast;
static const struct nb_feed *feed;
static struct nb_escr_outputs outputs;
static struct nb_source sources[NB_MAX_SOURCES];
static unsigned n_sources;
static bool ia32e;            /* the DS save area's layout this run */
static uint64_t ds_area, buffer;
static unsigned records;      /* the buffer's capacity */
static bool running;          /* past the initial programming: writes are reprogramming */
static bool quiet;            /* a quiet run: see the header */
static unsigned since_write;  /* cycles since the last register write or thread change */
/* A cycle with an ESCR write among its occurrences: before the write the
 * routed occurrences go to the fast PMU only; if outputs were driven then,
 * the write must make nb_pmu_tick_routed refuse them (count none), and
 * after it occurrences go to both PMUs with nb_pmu_event only. */
static enum { NO_WRITE, BEFORE_WRITE, REFUSING, AFTER_WRITE } phase;
static unsigned cycle_of_run;

static uint32_t msrs[NB_NUM_ESCRS + 2 * NB_NUM_COUNTERS + 5];
static size_t n_msrs;

/* What the runs exercised. */
static struct {
    unsigned long cycles, routed, unwatched, fast_events, unlisted, retirements;
    unsigned long overflows, pmis, pebs_pmis, pebs_records, pebs_records_64, samples,
        precise_samples, assists, assists_writing;
    unsigned long cascades, edges, saturated;
    unsigned long tagged[NB_NUM_TAGGINGS];
    unsigned long escr_writes, cccr_writes, counter_writes, pebs_enable_writes,
        matrix_vert_writes, other_writes, faults, mid_cycle_writes, ds_rewrites, thread_changes,
        reattaches, refused, written_unrefused;
    unsigned long quiet_cycles, quiet_overflows, long_quiet; /* the quiet runs' */
} tally;

static unsigned rnd(unsigned n)
{
    return (unsigned)rand() % n;
}

/* True one time in n. */
static bool chance(unsigned n)
{
    return rnd(n) == 0;
}

/* The random calls of a test are sequenced statements, never operands
 * or arguments of one expression, whose order C leaves to the compiler:
 * gcc and clang builds run the same programming. */
static uint64_t random64(void)
{
    uint64_t high = (uint64_t)rand() << 62, middle = (uint64_t)rand() << 31;
    return high ^ middle ^ (uint64_t)rand();
}

/* Asserts that the fast path gave what the bench path (or the reference)
 * did; a failure names what differs, `key` (an MSR, an address, a thread),
 * the run and the cycle. */
static void same(const char *what, uint64_t key, uint64_t bench_value, uint64_t fast_value)
{
    if (bench_value != fast_value)
        print_message("model %d ht %d cycle %u: %s %#llx: bench/expected %#llx, fast %#llx\n",
                      model, (int)ht, cycle_of_run, what, (unsigned long long)key,
                      (unsigned long long)bench_value, (unsigned long long)fast_value);
    assert_int_equal(fast_value, bench_value);
}

static void count_write(uint32_t msr)
{
    since_write = 0;
    if (!running)
        return;
    if (nb_escr_index(msr) >= 0)
        tally.escr_writes++;
    else if (msr >= NB_CCCR_BASE && msr < NB_CCCR_BASE + NB_NUM_COUNTERS)
        tally.cccr_writes++;
    else if (msr >= NB_COUNTER_BASE && msr < NB_COUNTER_BASE + NB_NUM_COUNTERS)
        tally.counter_writes++;
    else if (msr == MSR_IA32_PEBS_ENABLE)
        tally.pebs_enable_writes++;
    else if (msr == MSR_PEBS_MATRIX_VERT)
        tally.matrix_vert_writes++;
    else
        tally.other_writes++;
}

static msr_status write_both(uint32_t msr, uint64_t value)
{
    msr_status status = nb_pmu_wrmsr(bench, msr, value);
    same("WRMSR status", msr, status, nb_pmu_wrmsr(fast, msr, value));
    count_write(msr);
    tally.faults += status != MSR_OK;
    return status;
}

static uint64_t read_bench(uint32_t msr)
{
    uint64_t value = 0;
    assert_int_equal(nb_pmu_rdmsr(bench, msr, &value), MSR_OK);
    return value;
}

static void memory_both(uint64_t addr, unsigned size, uint64_t value)
{
    assert_true(nb_pmu_memory_write(bench, addr, size, value));
    assert_true(nb_pmu_memory_write(fast, addr, size, value));
}

/* The context of an occurrence by `thread` at `cpl`, the other logical
 * processor at its CPL now, from the bench PMU's thread states. */
static uint8_t expected_context(int thread, int cpl)
{
    uint8_t cpls[2] = {nb_pmu_thread(bench, 0).cpl, nb_pmu_thread(bench, 1).cpl};
    cpls[thread] = (uint8_t)cpl;
    return escr_context_of(thread, cpls, ht);
}

/* ---- Random programming */

static bool on_model(int event)
{
    return nb_event_table[event].models >> model & 1;
}

static uint16_t subevent_bits(int event)
{
    uint16_t bits = 0;
    for (int i = 0; i < nb_event_table[event].n_subevents; i++)
        bits |= (uint16_t)(1u << nb_event_table[event].subevents[i].bit);
    return bits;
}

/* One bit of `bits` (non-zero) at random. */
static uint16_t one_bit_of(uint16_t bits)
{
    unsigned n = (unsigned)__builtin_popcount(bits), k = rnd(n);
    for (; k; k--)
        bits &= (uint16_t)(bits - 1);
    return (uint16_t)(bits & -bits);
}

/* Event-mask bits: any 16 bits, one sub-event or some of them. */
static uint16_t random_mask(int event)
{
    uint16_t all = subevent_bits(event);
    switch (rnd(4)) {
    case 0:
        return (uint16_t)rand();
    case 1:
        return all ? one_bit_of(all) : (uint16_t)rand();
    default: {
        uint16_t some = all & (uint16_t)rand();
        return some ? some : all;
    }
    }
}

/* T0/T1 OS/USR bits, mostly some (T1 only with HT); in a quiet run
 * mostly all. */
static uint64_t random_thread_bits(void)
{
    uint64_t bits = quiet && rnd(4) ? 15 : rnd(16);
    if (!ht)
        bits &= ESCR_T0_OS | ESCR_T0_USR;
    if (!bits && !chance(8))
        bits = ht ? 1 + rnd(15) : (uint64_t)(1 + rnd(3)) << 2;
    return bits;
}

static uint64_t escr_value(int event, uint16_t mask, uint64_t threads)
{
    return (uint64_t)nb_event_table[event].select << ESCR_EVENT_SELECT_SHIFT |
           (uint64_t)mask << ESCR_EVENT_MASK_SHIFT | threads;
}

/* ESCR bits for `event` with random event-mask and thread bits. */
static uint64_t random_escr_for(int event)
{
    uint16_t mask = random_mask(event);
    return escr_value(event, mask, random_thread_bits());
}

static uint64_t with_tag(uint64_t escr)
{
    return escr | ESCR_TAG_ENABLE | (uint64_t)(1 + rnd(15)) << ESCR_TAG_VALUE_SHIFT;
}

/* A random value for ESCR e: mostly an event it detects on this model,
 * sometimes with Tag Enable; now and then an event select it does not
 * know, or 0. */
static uint64_t random_escr(int e)
{
    if (chance(16)) {
        if (chance(2))
            return 0;
        uint64_t select = rnd(64), mask = (uint16_t)rand();
        return select << ESCR_EVENT_SELECT_SHIFT | mask << ESCR_EVENT_MASK_SHIFT |
               random_thread_bits();
    }
    int events[NB_NUM_EVENTS], n = 0;
    for (int ev = 0; ev < NB_NUM_EVENTS; ev++)
        if ((nb_event_table[ev].escrs >> e & 1) && on_model(ev))
            events[n++] = ev;
    if (n == 0)
        return 0;
    int event = events[rnd((unsigned)n)];
    uint64_t value = random_escr_for(event);
    if (chance(4))
        value = chance(8) ? value | ESCR_TAG_ENABLE : with_tag(value);
    return value;
}

static void write_escr(int e, uint64_t value)
{
    write_both(nb_escrs[e].msr, value);
}

static int random_present_escr(void)
{
    int e;
    do
        e = (int)rnd(NB_NUM_ESCRS);
    while (!nb_escr_present(e, model));
    return e;
}

/* A random CCCR for counter c: it reads, mostly, an ESCR that exists
 * behind its select, sometimes through COMPARE with a threshold,
 * COMPLEMENT or EDGE, sometimes with FORCE_OVF or OVF_PMI; a few wait for
 * a cascade (or an extended cascade) instead of counting. */
static uint64_t random_cccr(int c)
{
    unsigned select;
    do
        select = rnd(8);
    while (nb_escr_routed(c, select, model) < 0 && !chance(8));
    uint64_t cccr = (uint64_t)select << CCCR_ESCR_SELECT_SHIFT;
    cccr |= ht && !chance(3) ? (uint64_t)rnd(4) << CCCR_ACTIVE_THREAD_SHIFT
                             : CCCR_ACTIVE_THREAD_ANY;
    bool extended = nb_cpuid_model_info(model)->extended_cascade && nb_extended_cascade_sources(c);
    switch (rnd(12)) {
    case 0:
        cccr |= CCCR_CASCADE;
        break;
    case 1:
        cccr |= extended ? CCCR_EXTENDED_CASCADE : CCCR_CASCADE;
        break;
    case 2:
        cccr |= CCCR_ENABLE | CCCR_CASCADE;
        break;
    default:
        cccr |= CCCR_ENABLE;
    }
    bool compare = quiet ? chance(4) : rand() % 2;
    if (compare) {
        cccr |= CCCR_COMPARE | (uint64_t)rnd(16) << CCCR_THRESHOLD_SHIFT;
        cccr |= chance(3) ? CCCR_COMPLEMENT : 0;
        cccr |= chance(3) ? CCCR_EDGE : 0;
    }
    if (chance(quiet ? 64 : 16))
        cccr |= CCCR_FORCE_OVF;
    if (chance(quiet ? 8 : 3))
        cccr |= CCCR_OVF_PMI_T0 | (ht && rnd(2) ? CCCR_OVF_PMI_T1 : 0);
    return cccr;
}

/* A value a few counts short of overflowing (in a quiet run, up to 2^16
 * short), or anywhere. */
static uint64_t random_count(void)
{
    if (!rnd(3))
        return random64() & PMU_COUNTER_MASK;
    return PMU_COUNTER_MASK - (quiet && rnd(2) ? rnd(1u << 16) : rnd(48));
}

static void program_counter(int c)
{
    write_both(NB_CCCR_BASE + (uint32_t)c, random_cccr(c));
    write_both(NB_COUNTER_BASE + (uint32_t)c, random_count());
}

static const struct nb_metric *random_replay_metric(void)
{
    const struct nb_metric *metric;
    do
        metric = &nb_metrics[rnd((unsigned)nb_num_metrics)];
    while (metric->kind != NB_REPLAY_TAGGING);
    return metric;
}

static uint64_t random_matrix_vert(const struct nb_metric *metric)
{
    return chance(3) ? (uint64_t)rand() & MATRIX_VERT_BITS : metric->matrix_vert;
}

/* The upstream ESCR of a replay metric that has one: mostly the one the
 * metric names, sometimes another of the event's. */
static void program_upstream(const struct nb_metric *metric)
{
    int event = metric->upstream_event;
    int e = metric->upstream_escr;
    if (e < 0 || chance(3)) {
        do
            e = (int)rnd(NB_NUM_ESCRS);
        while (!(nb_event_table[event].escrs >> e & 1) || !nb_escr_present(e, model));
    }
    uint16_t mask = chance(3) ? random_mask(event) : metric->upstream_mask;
    write_escr(e, escr_value(event, mask, random_thread_bits()));
}

/* IA32_PEBS_ENABLE: mostly PEBS for thread 0 (and thread 1 with HT),
 * UOP_TAG and a replay metric's bits; MSR_PEBS_MATRIX_VERT mostly the
 * metric's; the metric's upstream ESCR. */
static void program_replay(void)
{
    const struct nb_metric *metric = random_replay_metric();
    uint64_t enable = metric->pebs_enable;
    if (!chance(4))
        enable |= PEBS_ENABLE_PEBS;
    if (ht && rnd(2))
        enable |= PEBS_OTH_THR;
    if (!chance(3))
        enable |= PEBS_ENABLE_UOP_TAG;
    if (chance(4))
        enable |= (uint64_t)rand() & PEBS_METRIC_BITS;
    write_both(MSR_IA32_PEBS_ENABLE, enable);
    if (!chance(4))
        write_both(MSR_PEBS_MATRIX_VERT, random_matrix_vert(metric));
    if (metric->upstream_event != NB_NO_UPSTREAM && !chance(3))
        program_upstream(metric);
}

/* Front-end tagging: uop_type TAGLOADS and/or TAGSTORES on RAT_ESCR0/1. */
static void program_front_end(void)
{
    uint16_t mask = (uint16_t)(chance(3) ? TAGLOADS | TAGSTORES : rnd(2) ? TAGLOADS : TAGSTORES);
    int e = rnd(2) ? NB_ESCR_RAT0 : NB_ESCR_RAT1;
    write_escr(e, escr_value(NB_EV_UOP_TYPE, mask, random_thread_bits()));
}

/* Execution tagging: an upstream uop event with Tag Enable and a tag
 * value on FIRM_ESCR0/1. */
static void program_execution(void)
{
    int event;
    do
        event = (int)rnd(NB_NUM_EVENTS);
    while (!(nb_event_table[event].flags & NB_EVENT_EXEC_TAG_UPSTREAM) || !on_model(event));
    int e = rnd(2) ? NB_ESCR_FIRM0 : NB_ESCR_FIRM1;
    write_escr(e, with_tag(random_escr_for(event)));
}

/* PEBS on IQ_COUNTER4: CRU_ESCR2 selects one of the three at-retirement
 * events, IQ_CCCR4 reads it with OVF_PMI, the counter is near overflow,
 * and the event's tagging mechanism is programmed. */
static void program_pebs_counter(void)
{
    static const int at_retirement[] = {NB_EV_FRONT_END_EVENT, NB_EV_EXECUTION_EVENT,
                                        NB_EV_REPLAY_EVENT};
    int kind = (int)rnd(3), event = at_retirement[kind];
    write_escr(NB_ESCR_CRU2, random_escr_for(event));
    uint64_t cccr = random_cccr(NB_PEBS_COUNTER) &
                    ~((7ull << CCCR_ESCR_SELECT_SHIFT) | CCCR_CASCADE | CCCR_EXTENDED_CASCADE);
    cccr |= CCCR_ENABLE | (uint64_t)SELECT_CRU2 << CCCR_ESCR_SELECT_SHIFT | CCCR_OVF_PMI_T0 |
            (ht && rnd(2) ? CCCR_OVF_PMI_T1 : 0);
    if (!chance(4))
        cccr &= ~CCCR_FORCE_OVF;
    write_both(NB_CCCR_BASE + NB_PEBS_COUNTER, cccr);
    write_both(NB_COUNTER_BASE + NB_PEBS_COUNTER, PMU_COUNTER_MASK - rnd(8));
    if (kind == 0)
        program_front_end();
    else if (kind == 1)
        program_execution();
    else
        program_replay();
}

static uint64_t ds_field(const struct nb_pmu *pmu, uint64_t offset)
{
    return nb_pmu_memory_read(pmu, ds_area + offset, layouts[ia32e].field);
}

/* The DS save area's thresholds and counter reset, the index back at the
 * buffer's base (a DS interrupt handler's work). */
static void program_ds_fields(void)
{
    unsigned field = layouts[ia32e].field, record = layouts[ia32e].record;
    uint64_t maximum = buffer + (uint64_t)records * record + (chance(2) ? 1 : 0);
    uint64_t threshold = buffer + (uint64_t)record * rnd(records + 2);
    uint64_t reset = PMU_COUNTER_MASK - rnd(16);
    if (chance(4))
        reset |= random64() << 40; /* bits 63:40 are dropped */
    memory_both(ds_area + layouts[ia32e].base, field, buffer);
    memory_both(ds_area + layouts[ia32e].index, field, buffer);
    memory_both(ds_area + layouts[ia32e].maximum, field, maximum);
    memory_both(ds_area + layouts[ia32e].threshold, field, threshold);
    memory_both(ds_area + layouts[ia32e].reset, 8, reset);
}

/* The DS save area, 64-bit on the models with EM64T half the time (above
 * 4 GiB half of those), with a buffer of up to MAX_RECORDS records. */
static void program_ds(void)
{
    ia32e = addr64 && rnd(2);
    ds_area = ia32e && rnd(2) ? 0x100001000ull : 0x1000;
    buffer = ds_area + 0x1000 + 8 * rnd(16);
    records = 1 + rnd(MAX_RECORDS);
    program_ds_fields();
    write_both(MSR_IA32_DS_AREA, ds_area);
}

/* Both PMUs' threads: active or not, at a random CPL. */
static void set_thread(int thread)
{
    bool active = !chance(4);
    int cpl = (int)rnd(4);
    assert_true(nb_pmu_set_thread(bench, thread, active, cpl));
    assert_true(nb_pmu_set_thread(fast, thread, active, cpl));
    since_write = 0;
    if (running)
        tally.thread_changes++;
}

static void set_threads(void)
{
    for (int t = 0; t < (ht ? 2 : 1); t++)
        set_thread(t);
}

/* ---- The model's sources */

/* An ESCR a random counter reads, if it exists; else any. */
static int counted_escr(void)
{
    int c = (int)rnd(NB_NUM_COUNTERS);
    uint64_t cccr = read_bench(NB_CCCR_BASE + (uint32_t)c);
    int e = nb_escr_routed(c, cccr_escr_select(cccr), model);
    return e >= 0 && nb_escr_present(e, model) ? e : random_present_escr();
}

static void add_source(int event, uint16_t mask, unsigned cap)
{
    if (n_sources < cap)
        sources[n_sources++] = (struct nb_source){(enum nb_event_id)event, mask};
}

/* A random source table: mostly what the ESCRs select (all their bits,
 * one or some), else any event (a few of other models) with any bits;
 * the PEBS counter's event and the at-retirement events among them. */
static void attach_sources(void)
{
    unsigned cap = chance(8) ? NB_MAX_SOURCES : 4 + rnd(40);
    n_sources = 0;
    uint64_t cru2 = read_bench(nb_escrs[NB_ESCR_CRU2].msr);
    int pebs_event = nb_event_on_escr(NB_ESCR_CRU2, escr_event_select(cru2));
    if (pebs_event >= 0 && rnd(4))
        add_source(pebs_event, (uint16_t)escr_event_mask(cru2), cap);
    static const int at_retirement[] = {NB_EV_FRONT_END_EVENT, NB_EV_EXECUTION_EVENT,
                                        NB_EV_REPLAY_EVENT};
    for (int i = 0; i < 3; i++)
        if (rnd(4)) {
            uint16_t all = subevent_bits(at_retirement[i]);
            add_source(at_retirement[i], rnd(2) ? all : one_bit_of(all), cap);
        }
    while (n_sources < cap) {
        int event = -1;
        uint16_t mask = 0;
        if (!chance(3)) {
            int e = quiet ? counted_escr() : random_present_escr();
            uint64_t value = read_bench(nb_escrs[e].msr);
            event = nb_event_on_escr(e, escr_event_select(value));
            mask = (uint16_t)escr_event_mask(value);
            if (event >= 0 && mask && rnd(2))
                mask = chance(2) ? one_bit_of(mask) : (uint16_t)(mask & rand());
        }
        if (event < 0 || !mask) {
            do
                event = (int)rnd(NB_NUM_EVENTS);
            while (!on_model(event) && !chance(8));
            mask = random_mask(event);
        }
        add_source(event, mask, cap);
    }
    feed = nb_pmu_attach(fast, sources, n_sources);
    assert_non_null(feed);
    assert_int_equal(feed->n_sources, n_sources);
}

/* ---- The tagging reference
 *
 * Written from the register values alone, independent of the PMU's own
 * decoding (nb_pmu_route, the tagging queries and the feed may share
 * theirs): each ESCR is read with RDMSR and its fields decoded here. */

/* The event ESCR e selects on this model (its event select looked up in
 * the catalog), or -1; *value gets the ESCR. */
static int reference_escr_event(int e, uint64_t *value)
{
    if (!nb_escr_present(e, model))
        return -1;
    *value = read_bench(nb_escrs[e].msr);
    int event = nb_event_on_escr(e, escr_event_select(*value));
    return event >= 0 && on_model(event) ? event : -1;
}

/* The sub-event bits of `event` whose sub-events are thread-independent
 * (the catalog's TI flags, SDM Table A-15). */
static uint16_t reference_ti_bits(int event)
{
    uint16_t bits = 0;
    for (int i = 0; i < nb_event_table[event].n_subevents; i++)
        if (nb_event_table[event].subevents[i].thread_independent)
            bits |= (uint16_t)(1u << nb_event_table[event].subevents[i].bit);
    return bits;
}

/* The event-mask bits of ESCR value `escr`, selecting `event`, that count
 * an occurrence by `thread` at `cpl`, the other logical processor at its
 * CPL now (docs/semantics.md, "Detector (ESCR)"): a thread-specific bit
 * when the occurring thread's OS (CPL 0) or USR (CPL 1-3) bit is set, a
 * thread-independent one when any OS bit is set and some logical
 * processor is at CPL 0, or any USR bit and some is at CPL 1-3. */
static uint16_t reference_counted(uint64_t escr, int event, int thread, int cpl)
{
    static const uint64_t own_bit[2][2] = {{ESCR_T0_OS, ESCR_T0_USR},
                                           {ESCR_T1_OS, ESCR_T1_USR}};
    bool at_os = cpl == 0, at_usr = cpl != 0;
    if (ht) {
        int other = nb_pmu_thread(bench, 1 - thread).cpl;
        at_os = at_os || other == 0;
        at_usr = at_usr || other != 0;
    }
    bool ts = (escr & own_bit[thread][cpl != 0]) != 0;
    bool ti = ((escr & (ESCR_T0_OS | ESCR_T1_OS)) && at_os) ||
              ((escr & (ESCR_T0_USR | ESCR_T1_USR)) && at_usr);
    uint16_t selected = (uint16_t)escr_event_mask(escr), ti_bits = reference_ti_bits(event);
    return (uint16_t)((ts ? selected & ~ti_bits : 0) | (ti ? selected & ti_bits : 0));
}

/* Whether some ESCR selecting `event` (ESCR `only`, if not negative)
 * counts an occurrence with sub-event bits `mask` by `thread` at `cpl`. */
static bool reference_counts(int event, uint16_t mask, int only, int thread, int cpl)
{
    for (int e = 0; e < NB_NUM_ESCRS; e++) {
        uint64_t escr;
        if ((only < 0 || e == only) && reference_escr_event(e, &escr) == event &&
            (reference_counted(escr, event, thread, cpl) & mask))
            return true;
    }
    return false;
}

/* SDM Vol. 3B, the replay-tagging table: a replay metric is selected when
 * IA32_PEBS_ENABLE has UOP_TAG (24) and all the metric's bits and
 * MSR_PEBS_MATRIX_VERT all of its bits; a uop that met one of its causes
 * is tagged, where the metric has an upstream event only if that
 * upstream ESCR (the one the metric names, or any) counts the cause's
 * sub-event occurrence by `thread` at `cpl`. */
static bool replay_reference(int thread, int cpl, uint16_t causes)
{
    uint64_t enable = read_bench(MSR_IA32_PEBS_ENABLE), vert = read_bench(MSR_PEBS_MATRIX_VERT);
    if (!(enable & PEBS_ENABLE_UOP_TAG))
        return false;
    for (int i = 0; i < nb_num_metrics; i++) {
        const struct nb_metric *m = &nb_metrics[i];
        if (m->kind != NB_REPLAY_TAGGING || (enable & m->pebs_enable) != m->pebs_enable ||
            (vert & m->matrix_vert) != m->matrix_vert)
            continue;
        for (unsigned bit = 0; bit < 16; bit++) {
            uint16_t cause = (uint16_t)(1u << bit);
            if (!(m->causes & causes & cause))
                continue;
            if (m->upstream_event == NB_NO_UPSTREAM)
                return true;
            if (reference_counts(m->upstream_event, nb_cause_subevent(cause),
                                 m->upstream_escr, thread, cpl))
                return true;
        }
    }
    return false;
}

/* A uop's tags by `thread` at `cpl` (docs/semantics.md, "Tagging
 * queries"): front-end tagging when an ESCR selecting uop_type counts
 * TAGLOADS (bit 1) for a load, TAGSTORES (bit 2) for a store address, in
 * that context; execution tagging, the OR of the tag values (bits 8:5) of
 * the ESCRs with Tag Enable (bit 4) selecting the source's event that
 * count its sub-event bits there; replay tagging as above. */
static uint8_t reference_tags(int thread, int cpl, const struct nb_uop *uop)
{
    uint16_t front_end = 0;
    uint8_t tag_value = 0;
    for (int e = 0; e < NB_NUM_ESCRS; e++) {
        uint64_t escr;
        int event = reference_escr_event(e, &escr);
        if (event < 0)
            continue;
        uint16_t counted = reference_counted(escr, event, thread, cpl);
        if (event == NB_EV_UOP_TYPE)
            front_end |= counted & (TAGLOADS | TAGSTORES);
        if (uop->source != NB_NO_SOURCE && (escr & ESCR_TAG_ENABLE) &&
            event == (int)sources[uop->source].event && (counted & sources[uop->source].mask))
            tag_value |= (uint8_t)escr_tag_value(escr);
    }
    uint8_t tags = tag_value;
    uint16_t bit = uop->kind == NB_UOP_LOAD ? TAGLOADS
                   : uop->kind == NB_UOP_STORE_ADDRESS ? TAGSTORES
                                                       : 0;
    if (front_end & bit)
        tags |= NB_UOP_TAG_FRONT_END;
    if (replay_reference(thread, cpl, uop->causes))
        tags |= NB_UOP_TAG_REPLAY;
    return tags;
}

/* ---- One cycle */

/* One occurrence of a random source by a random thread: the bench PMU
 * gets it with nb_pmu_event; the fast PMU through the feed's route onto
 * the outputs (none for a source nothing watches, as a model would skip
 * it), or as an occurrence too; now and then an event outside the table,
 * to both as occurrences.  Around a mid-cycle ESCR write see `phase`. */
static void occur(void)
{
    int thread = ht ? (int)rnd(2) : 0;
    uint32_t count = chance(64) ? 0 : 1 + rnd(chance(8) ? 20 : quiet ? 8 : 3);
    if (chance(16)) {
        int event = (int)rnd(NB_NUM_EVENTS);
        uint16_t mask = (uint16_t)rand();
        assert_true(nb_pmu_event(bench, event, mask, thread, count));
        assert_true(nb_pmu_event(fast, event, mask, thread, count));
        tally.unlisted++;
        return;
    }
    unsigned s = rnd(n_sources);
    if (chance(6) || phase == REFUSING) {
        assert_true(nb_pmu_event(bench, (int)sources[s].event, sources[s].mask, thread, count));
        assert_true(nb_pmu_event(fast, (int)sources[s].event, sources[s].mask, thread, count));
        tally.fast_events++;
        return;
    }
    if (phase != BEFORE_WRITE)
        assert_true(nb_pmu_event(bench, (int)sources[s].event, sources[s].mask, thread, count));
    int cpl = nb_pmu_thread(fast, thread).cpl;
    uint64_t generation = nb_feed_generation(feed);
    uint8_t context = nb_feed_context(feed, thread, cpl != 0);
    same("context of thread", (uint64_t)thread, expected_context(thread, cpl), context);
    uint64_t route = nb_feed_route(feed, context, s);
    if (!nb_feed_watched(feed, s)) {
        same("unwatched source's route", s, 0, route);
        tally.unwatched++;
        return;
    }
    nb_escr_outputs_add(&outputs, generation, route, count);
    tally.routed++;
}

/* ---- The PEBS assist's accesses, as the fast PMU's feed publishes them
 * (nb_feed_assist), against the DS save area's rules (docs/semantics.md,
 * "PEBS") in the layout of the retirement (`mode`), from the memory as it
 * was before: the index and the absolute maximum read; when a record fits,
 * its slots and the index written, the counter reset (8 bytes) and the
 * interrupt threshold read. */

struct assist_before {
    uint64_t taken, index, maximum;
};

static uint64_t mode_mask(bool mode)
{
    return mode ? ~0ull : 0xffffffffull;
}

static uint64_t mode_field(bool mode, uint64_t offset)
{
    return nb_pmu_memory_read(bench, (ds_area + offset) & mode_mask(mode), layouts[mode].field);
}

static struct assist_before assist_state(int thread, bool mode)
{
    return (struct assist_before){nb_feed_assist(feed, thread)->taken,
                                  mode_field(mode, layouts[mode].index),
                                  mode_field(mode, layouts[mode].maximum)};
}

static void same_access(unsigned k, uint64_t address, unsigned size, bool store,
                        const struct nb_assist_access *a)
{
    same("assist access address, access", k, address, a->address);
    same("assist access size, access", k, size, a->size);
    same("assist access is a store, access", k, store, a->store);
}

static void check_assist_log(int thread, bool mode, const struct assist_before *before)
{
    const struct nb_assist *log = nb_feed_assist(feed, thread);
    if (log->taken == before->taken)
        return;
    same("assists taken by thread", (uint64_t)thread, before->taken + 1, log->taken);
    unsigned field = layouts[mode].field, record = layouts[mode].record, n = 0;
    uint64_t mask = mode_mask(mode);
    same_access(n, (ds_area + layouts[mode].index) & mask, field, false, &log->access[n]);
    n++;
    same_access(n, (ds_area + layouts[mode].maximum) & mask, field, false, &log->access[n]);
    n++;
    if (before->maximum >= record && before->index <= before->maximum - record) {
        for (unsigned k = 0; k < record; k += field, n++)
            same_access(n, (before->index + k) & mask, field, true, &log->access[n]);
        same_access(n, (ds_area + layouts[mode].index) & mask, field, true, &log->access[n]);
        n++;
        same_access(n, (ds_area + layouts[mode].reset) & mask, 8, false, &log->access[n]);
        n++;
        same_access(n, (ds_area + layouts[mode].threshold) & mask, field, false,
                    &log->access[n]);
        n++;
        tally.assists_writing++;
    }
    same("assist accesses of thread", (uint64_t)thread, n, log->n_accesses);
    tally.assists++;
}

/* A random uop retires on a random thread: tagged by the fast PMU's feed,
 * checked against the reference, reported to both PMUs. */
static void retire(void)
{
    static const uint16_t cause_sets[] = {0, 0, 0x1ff};
    int thread = ht ? (int)rnd(2) : 0;
    int cpl = nb_pmu_thread(fast, thread).cpl;
    struct nb_uop uop;
    uop.kind = (uint8_t)rnd(3);
    uop.source = chance(4) ? NB_NO_SOURCE : (uint8_t)rnd(n_sources);
    if (rnd(2)) {
        uop.causes = (uint16_t)(1u << rnd(9));
    } else {
        uint16_t set = cause_sets[rnd(3)];
        uop.causes = (uint16_t)(set & rand());
    }
    uint8_t context = nb_feed_context(feed, thread, cpl != 0);
    uint8_t tags = nb_feed_uop_tags(feed, context, &uop);
    uint8_t expected = reference_tags(thread, cpl, &uop);
    if (tags != expected)
        print_message("uop kind %u source %u (event %d mask %#x) causes %#x thread %d cpl %d\n",
                      uop.kind, uop.source,
                      uop.source == NB_NO_SOURCE ? -1 : (int)sources[uop.source].event,
                      uop.source == NB_NO_SOURCE ? 0 : sources[uop.source].mask, uop.causes,
                      thread, cpl);
    same("uop tags of thread", (uint64_t)thread, expected, tags);
    if (tags)
        assert_true(feed->tagging);
    uint8_t mechanisms = nb_uop_mechanisms(tags);
    for (int k = 0; k < NB_NUM_TAGGINGS; k++)
        tally.tagged[k] += mechanisms >> k & 1;

    uint64_t regs[NB_NUM_REGS];
    for (int i = 0; i < NB_NUM_REGS; i++)
        regs[i] = random64();
    bool mode = ia32e != (addr64 && chance(32)); /* now and then the other layout */
    uint64_t eip = mode ? random64() : (uint32_t)random64();
    struct nb_retirement r = {
        .eip = eip,
        .tags = mechanisms,
        .ia32e = mode,
        .regs = chance(4) ? NULL : regs,
    };
    uint64_t index = ds_field(bench, layouts[ia32e].index);
    struct assist_before before = assist_state(thread, mode);
    assert_true(nb_pmu_retire(bench, thread, &r));
    assert_true(nb_pmu_retire(fast, thread, &r));
    check_assist_log(thread, mode, &before);
    tally.retirements++;
    uint64_t now = ds_field(bench, layouts[ia32e].index);
    same("DS index", ds_area, now, ds_field(fast, layouts[ia32e].index));
    if (now == index)
        return;
    tally.pebs_records++;
    tally.pebs_records_64 += ia32e;
    for (unsigned k = 0; k < layouts[ia32e].record; k += 4)
        same("PEBS record bytes at", index + k, nb_pmu_memory_read(bench, index + k, 4),
             nb_pmu_memory_read(fast, index + k, 4));
}

/* A register write between occurrences: CCCRs, counters and the PEBS
 * MSRs may change mid-cycle (the routes stand). */
static void write_mid_cycle(void)
{
    tally.mid_cycle_writes++;
    switch (rnd(5)) {
    case 0:
        program_counter((int)rnd(NB_NUM_COUNTERS));
        break;
    case 1: {
        uint32_t counter = NB_COUNTER_BASE + rnd(NB_NUM_COUNTERS);
        write_both(counter, random_count());
        break;
    }
    case 2: {
        uint32_t cccr = NB_CCCR_BASE + rnd(NB_NUM_COUNTERS);
        write_both(cccr, read_bench(cccr) & ~CCCR_OVF);
        break;
    }
    case 3:
        write_both(MSR_IA32_PEBS_ENABLE, read_bench(MSR_IA32_PEBS_ENABLE) ^
                                             (rnd(2) ? PEBS_ENABLE_UOP_TAG : PEBS_ENABLE_PEBS));
        break;
    default:
        write_both(MSR_PEBS_MATRIX_VERT, (uint64_t)rand() & MATRIX_VERT_BITS);
    }
}

/* Any MSR (but IA32_DS_AREA) gets any value: both fault or both take it. */
static void write_garbage(void)
{
    uint32_t msr;
    do
        msr = msrs[rnd((unsigned)n_msrs)];
    while (msr == MSR_IA32_DS_AREA);
    write_both(msr, rnd(2) ? random64() : (uint32_t)random64());
}

/* Between cycles, with no outputs routed: any register may change,
 * including ESCRs; the source table may be attached anew. */
static void reprogram(void)
{
    assert_int_equal(outputs.driven, 0);
    if (quiet && !chance(QUIET))
        return;
    if (chance(30)) {
        switch (rnd(6)) {
        case 0:
            program_front_end();
            break;
        case 1:
            program_execution();
            break;
        case 2:
            program_replay();
            break;
        default: {
            int e = random_present_escr();
            write_escr(e, random_escr(e));
        }
        }
    }
    if (chance(30))
        program_counter((int)rnd(NB_NUM_COUNTERS));
    if (chance(60))
        program_pebs_counter();
    if (chance(60)) {
        uint32_t cccr = NB_CCCR_BASE + rnd(NB_NUM_COUNTERS);
        write_both(cccr, read_bench(cccr) & ~CCCR_OVF);
    }
    if (chance(80))
        program_replay();
    if (chance(80))
        write_both(MSR_PEBS_MATRIX_VERT, (uint64_t)rand() & MATRIX_VERT_BITS);
    if (chance(100)) {
        program_ds_fields();
        tally.ds_rewrites++;
    }
    if (chance(200))
        write_garbage();
    if (chance(16))
        set_threads();
    if (chance(400)) {
        attach_sources();
        tally.reattaches++;
    }
}

/* The ESCR write of a cycle with one: after it the outputs that took a
 * route before it, even an empty one, must be refused. */
static void write_escr_mid_cycle(void)
{
    bool routed = outputs.generation != 0;
    int e = random_present_escr();
    write_escr(e, random_escr(e));
    phase = routed ? REFUSING : AFTER_WRITE;
}

/* Ends the cycle on both PMUs and tallies what the bench PMU's did. */
static void tick(void)
{
    uint64_t before[NB_NUM_COUNTERS];
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        before[c] = read_bench(NB_CCCR_BASE + (uint32_t)c);
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        tally.saturated += outputs.output[e] == 15;
    nb_pmu_tick(bench);
    bool counted = nb_pmu_tick_routed(fast, &outputs);
    same("outputs counted", 0, phase != REFUSING, counted);
    tally.refused += phase == REFUSING;
    tally.written_unrefused += phase == AFTER_WRITE;
    assert_int_equal(outputs.driven, 0);
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        assert_int_equal(outputs.output[e], 0);
    const struct nb_cycle_outcome *report = nb_pmu_last(bench);
    for (int c = 0; c < NB_NUM_COUNTERS; c++) {
        uint64_t cccr = read_bench(NB_CCCR_BASE + (uint32_t)c);
        tally.overflows += report->overflow[c];
        tally.quiet_overflows += quiet && report->overflow[c];
        tally.pmis += report->pmi[c] != 0;
        tally.cascades += !(before[c] & CCCR_ENABLE) && (cccr & CCCR_ENABLE);
        tally.edges += (cccr & CCCR_COMPARE) && (cccr & CCCR_EDGE) && report->increment[c];
    }
    tally.pebs_pmis += report->pebs_pmi != 0;
    tally.cycles++;
}

static void compare_memory(uint64_t from, uint64_t to)
{
    for (uint64_t addr = from; addr < to; addr += 8)
        same("memory", addr, nb_pmu_memory_read(bench, addr, 8),
             nb_pmu_memory_read(fast, addr, 8));
}

/* Whether sampling is programmed, from the registers: PEBS for a thread,
 * or a counter's OVF_PMI. */
static bool sampling_reference(void)
{
    if (read_bench(MSR_IA32_PEBS_ENABLE) & (PEBS_ENABLE_PEBS | PEBS_OTH_THR))
        return true;
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        if (read_bench(NB_CCCR_BASE + (uint32_t)c) & (CCCR_OVF_PMI_T0 | CCCR_OVF_PMI_T1))
            return true;
    return false;
}

/* Everything software and the model can see must be the same. */
static void compare(bool whole_memory)
{
    for (size_t i = 0; i < n_msrs; i++) {
        uint64_t a = 0, b = 0;
        msr_status status = nb_pmu_rdmsr(bench, msrs[i], &a);
        same("RDMSR status", msrs[i], status, nb_pmu_rdmsr(fast, msrs[i], &b));
        same("MSR", msrs[i], a, b);
    }
    same("cycles", 0, nb_pmu_cycles(bench), nb_pmu_cycles(fast));
    same("PEBS PMI", 0, nb_pmu_last(bench)->pebs_pmi, nb_pmu_last(fast)->pebs_pmi);
    bool waiting = false;
    for (int t = 0; t < 2; t++) {
        uint64_t since_a = 0, since_b = 0;
        bool pending = nb_pmu_pending_pmi(bench, t, &since_a);
        same("pending PMI of thread", (uint64_t)t, pending, nb_pmu_pending_pmi(fast, t, &since_b));
        same("pending PMI since, thread", (uint64_t)t, since_a, since_b);
        waiting = waiting || pending;
        struct nb_thread a = nb_pmu_thread(bench, t), b = nb_pmu_thread(fast, t);
        assert_true(a.active == b.active && a.cpl == b.cpl);
    }
    assert_int_equal(feed->pmi_waiting, waiting);
    assert_int_equal(feed->sampling, sampling_reference());
    same("DS index", ds_area, ds_field(bench, layouts[ia32e].index),
         ds_field(fast, layouts[ia32e].index));
    if (whole_memory) {
        compare_memory(ds_area, ds_area + 0x48);
        compare_memory(buffer, buffer + (uint64_t)(records + 1) * layouts[ia32e].record);
    }
    /* One source's published routes against the bench PMU's. */
    unsigned s = rnd(n_sources);
    uint64_t any = 0;
    for (unsigned context = 0; context < ESCR_CONTEXTS; context++) {
        uint64_t route = nb_pmu_route(bench, (int)sources[s].event, sources[s].mask,
                                      (uint8_t)context);
        same("route of source", s, route, nb_feed_route(feed, (uint8_t)context, s));
        any |= route;
    }
    assert_int_equal(nb_feed_watched(feed, s), any != 0);
    for (int t = 0; t < (ht ? 2 : 1); t++)
        for (int user = 0; user < 2; user++)
            same("feed context of thread", (uint64_t)t, expected_context(t, user ? 3 : 0),
                 nb_feed_context(feed, t, user));
}

/* A handler takes each thread's pending PMI now and then, as the bench
 * takes it or where a timing model's pipeline takes the interrupt, with a
 * return address (IEBS); after a precise one it may empty the buffer. */
static void take_pmis(void)
{
    for (int t = 0; t < 2; t++) {
        if (!chance(3))
            continue;
        struct nb_pmi_sample a = {0}, b = {0};
        bool taken;
        if (rnd(2)) {
            taken = nb_pmu_take_pmi(bench, t, &a);
            same("taken PMI of thread", (uint64_t)t, taken, nb_pmu_take_pmi(fast, t, &b));
        } else {
            uint64_t eip = random64();
            taken = nb_pmu_take_pmi_at(bench, t, eip, &a);
            same("taken PMI at an EIP of thread", (uint64_t)t, taken,
                 nb_pmu_take_pmi_at(fast, t, eip, &b));
            if (taken)
                same("sample at the return address of thread", (uint64_t)t, eip, a.eip);
        }
        if (!taken)
            continue;
        same("sample delivered", (uint64_t)t, a.delivered, b.delivered);
        same("sample EIP", (uint64_t)t, a.eip, b.eip);
        same("sample precise", (uint64_t)t, a.precise, b.precise);
        tally.samples++;
        tally.precise_samples += a.precise;
        if (a.precise && !chance(4))
            memory_both(ds_area + layouts[ia32e].index, layouts[ia32e].field, buffer);
    }
}

static void list_msrs(void)
{
    n_msrs = 0;
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        msrs[n_msrs++] = nb_escrs[e].msr;
    for (uint32_t c = 0; c < NB_NUM_COUNTERS; c++) {
        msrs[n_msrs++] = NB_CCCR_BASE + c;
        msrs[n_msrs++] = NB_COUNTER_BASE + c;
    }
    static const uint32_t others[] = {MSR_IA32_PEBS_ENABLE, MSR_PEBS_MATRIX_VERT,
                                      MSR_IA32_DS_AREA, MSR_TC_PRECISE_EVENT,
                                      MSR_IA32_MISC_ENABLE};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        msrs[n_msrs++] = others[i];
}

static void run(int m, bool h, bool q)
{
    model = m;
    ht = h;
    quiet = q;
    addr64 = nb_cpuid_model_info(m)->addr64;
    running = false;
    cycle_of_run = 0;
    struct nb_pmu_config config = {model, ht};
    assert_non_null((bench = nb_pmu_create(config)));
    assert_non_null((fast = nb_pmu_create(config)));
    memset(&outputs, 0, sizeof outputs);
    list_msrs();
    /* Half the runs attach before programming: the feed follows the writes. */
    bool attach_first = rnd(2);
    if (attach_first)
        attach_sources();
    program_ds();
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        if (nb_escr_present(e, model) && !chance(4))
            write_escr(e, random_escr(e));
    for (int c = 0; c < NB_NUM_COUNTERS; c++)
        program_counter(c);
    program_replay();
    if (!chance(4))
        program_pebs_counter();
    set_threads();
    if (!attach_first || rnd(2))
        attach_sources();
    running = true;
    compare(true);
    for (cycle_of_run = 1; cycle_of_run <= (quiet ? QUIET_CYCLES : CYCLES); cycle_of_run++) {
        reprogram();
        unsigned steps = rnd(MAX_STEPS), write_at = rnd(MAX_STEPS);
        phase = chance(quiet ? QUIET : 40) ? BEFORE_WRITE : NO_WRITE;
        for (unsigned step = 0; step < steps; step++) {
            if (phase == BEFORE_WRITE && step == write_at)
                write_escr_mid_cycle();
            unsigned what = rnd(40);
            if (quiet && what >= 36 && !chance(QUIET))
                what = 0; /* an occurrence instead of a thread change or a write */
            if (what < 24)
                occur();
            else if (what < 36)
                retire();
            else if (what < 38 && ht)
                set_thread((int)rnd(2));
            else if (what < 38)
                set_thread(0);
            else
                write_mid_cycle();
        }
        if (phase == BEFORE_WRITE)
            write_escr_mid_cycle();
        tick();
        phase = NO_WRITE;
        tally.quiet_cycles += quiet;
        tally.long_quiet += quiet && ++since_write >= 4096;
        compare(cycle_of_run % FULL_COMPARE == 0);
        take_pmis();
    }
    compare(true);
    nb_pmu_destroy(bench);
    nb_pmu_destroy(fast);
    bench = fast = NULL;
}

static void test_fast_path_counts_as_bench_path(void **state)
{
    (void)state;
    srand(SEED);
    static const int models[] = {0, 1, 2, 3, 4, 6};
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++)
        for (int r = 0; r < RUNS; r++) {
            run(models[m], false, false);
            run(models[m], true, false);
        }
    print_message("cycles %lu: occurrences routed %lu, unwatched %lu, also as occurrences %lu, "
                  "outside the table %lu, saturated outputs %lu; outputs refused after an ESCR "
                  "write %lu, ESCR written mid-cycle before any output %lu\n",
                  tally.cycles, tally.routed, tally.unwatched, tally.fast_events, tally.unlisted,
                  tally.saturated, tally.refused, tally.written_unrefused);
    print_message("overflows %lu, PMIs %lu, PEBS PMIs %lu, PEBS records %lu (64-bit %lu), "
                  "assists %lu (writing %lu), samples %lu (precise %lu), cascades %lu, "
                  "edges %lu\n",
                  tally.overflows, tally.pmis, tally.pebs_pmis, tally.pebs_records,
                  tally.pebs_records_64, tally.assists, tally.assists_writing, tally.samples,
                  tally.precise_samples, tally.cascades, tally.edges);
    print_message("retirements %lu, tagged: front end %lu, execution %lu, replay %lu\n",
                  tally.retirements, tally.tagged[NB_FRONT_END_TAGGING],
                  tally.tagged[NB_EXECUTION_TAGGING], tally.tagged[NB_REPLAY_TAGGING]);
    print_message("reprogramming: ESCR %lu, CCCR %lu, counter %lu, PEBS_ENABLE %lu, "
                  "MATRIX_VERT %lu, other %lu (faults %lu), mid-cycle %lu, DS %lu, threads %lu, "
                  "attach %lu\n",
                  tally.escr_writes, tally.cccr_writes, tally.counter_writes,
                  tally.pebs_enable_writes, tally.matrix_vert_writes, tally.other_writes,
                  tally.faults, tally.mid_cycle_writes, tally.ds_rewrites, tally.thread_changes,
                  tally.reattaches);

    /* Not vacuous: each thing happened often. */
    assert_int_equal(tally.cycles, 6 * 2 * RUNS * CYCLES);
    assert_true(tally.routed > 50000 && tally.unwatched > 10000 && tally.fast_events > 20000);
    assert_true(tally.unlisted > 10000 && tally.saturated > 1000);
    assert_true(tally.refused > 500 && tally.written_unrefused > 500);
    assert_true(tally.overflows > 5000 && tally.pmis > 2000 && tally.cascades > 100);
    assert_true(tally.edges > 800);
    assert_true(tally.pebs_records > 200 && tally.pebs_records_64 > 20 && tally.pebs_pmis > 100);
    assert_true(tally.samples > 1000 && tally.precise_samples > 80);
    assert_true(tally.assists > 400 && tally.assists_writing > 350);
    assert_true(tally.tagged[NB_FRONT_END_TAGGING] > 5000);
    assert_true(tally.tagged[NB_EXECUTION_TAGGING] > 5000);
    assert_true(tally.tagged[NB_REPLAY_TAGGING] > 5000);
    assert_true(tally.escr_writes > 5000 && tally.cccr_writes > 10000);
    assert_true(tally.counter_writes > 10000 && tally.pebs_enable_writes > 4000);
    assert_true(tally.matrix_vert_writes > 4000 && tally.faults > 100);
    assert_true(tally.mid_cycle_writes > 10000 && tally.ds_rewrites > 500);
    assert_true(tally.thread_changes > 20000 && tally.reattaches > 100);
}

/* The batched plain counts of the fast path (nb_pmu_tick_routed) against
 * the bench path, in quiet runs (see the header). */
static void test_batched_counts_as_bench_path(void **state)
{
    (void)state;
    srand(SEED + 1);
    memset(&tally, 0, sizeof tally);
    static const int models[] = {0, 1, 2, 3, 4, 6};
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++)
        for (int r = 0; r < QUIET_RUNS; r++) {
            run(models[m], false, true);
            run(models[m], true, true);
        }
    print_message("quiet cycles %lu (%lu of them 4096 or more after a write or thread "
                  "change), overflows %lu, occurrences routed %lu, saturated outputs %lu, "
                  "PEBS records %lu, samples %lu\n",
                  tally.quiet_cycles, tally.long_quiet, tally.quiet_overflows, tally.routed,
                  tally.saturated, tally.pebs_records, tally.samples);
    /* Not vacuous: long stretches without a flush by a write, counters
     * overflowing (some of them after leaving the batch). */
    assert_int_equal(tally.quiet_cycles, 6 * 2 * QUIET_RUNS * QUIET_CYCLES);
    assert_true(tally.long_quiet > 40000 && tally.quiet_overflows > 1000);
    assert_true(tally.routed > 300000 && tally.saturated > 10000);
}

/* ---- Directed tests */

static struct nb_pmu *pmu;

/* Frees the PMUs also when a test failed. */
static int teardown(void **state)
{
    (void)state;
    nb_pmu_destroy(pmu);
    nb_pmu_destroy(bench);
    nb_pmu_destroy(fast);
    pmu = bench = fast = NULL;
    return 0;
}

static uint64_t counter_of(const struct nb_pmu *of, int c)
{
    uint64_t value = 0;
    assert_int_equal(nb_pmu_rdmsr(of, NB_COUNTER_BASE + (uint32_t)c, &value), MSR_OK);
    return value;
}

/* A batched counter near the end of its room: IQ_COUNTER4 counts
 * branch_retired on CRU_ESCR2, saturating its output (15) every cycle but
 * during a stretch with no logical processor active, from values around
 * the last one that cannot overflow within a 4096-cycle window of full
 * outputs; its overflow starts IQ_COUNTER5 (branch_retired on CRU_ESCR3)
 * by extended cascading.  The fast path (routed outputs; in half the runs
 * the bench path's nb_pmu_event and nb_pmu_tick from cycle MIXED on) must
 * give every cycle the bench path's counters and CCCRs, so the overflow
 * lands on the same cycle. */
static void test_batched_counter_overflows_on_its_cycle(void **state)
{
    (void)state;
    enum { WINDOW = 4096, FULL = 15, IDLE_FROM = 5000, IDLE_UNTIL = 5100, MIXED = 3000 };
    static const struct nb_source table[] = {{NB_EV_BRANCH_RETIRED, 1}};
    const uint64_t last_room = PMU_COUNTER_MASK - (uint64_t)FULL * WINDOW;
    static const int64_t offsets[] = {-300, -16, -15, -1, 0, 1, 15, 16, 300};
    const uint64_t escr = escr_value(NB_EV_BRANCH_RETIRED, 1, ESCR_T0_OS | ESCR_T0_USR);
    const uint64_t source = CCCR_ENABLE | CCCR_ACTIVE_THREAD_ANY |
                            (uint64_t)SELECT_CRU2 << CCCR_ESCR_SELECT_SHIFT;
    const uint64_t waiting = CCCR_EXTENDED_CASCADE | CCCR_ACTIVE_THREAD_ANY |
                             (uint64_t)SELECT_CRU2 << CCCR_ESCR_SELECT_SHIFT;
    assert_int_equal(nb_escr_routed(17, SELECT_CRU2, 2), NB_ESCR_CRU3);
    for (size_t run = 0; run < 2 * sizeof offsets / sizeof offsets[0]; run++) {
        size_t i = run / 2;
        bool mixed = run % 2;
        struct nb_pmu *pmus[2];
        for (int k = 0; k < 2; k++) {
            pmus[k] = nb_pmu_create((struct nb_pmu_config){.model = 2, .ht = false});
            assert_non_null(pmus[k]);
            assert_int_equal(nb_pmu_wrmsr(pmus[k], nb_escrs[NB_ESCR_CRU2].msr, escr), MSR_OK);
            assert_int_equal(nb_pmu_wrmsr(pmus[k], nb_escrs[NB_ESCR_CRU3].msr, escr), MSR_OK);
            assert_int_equal(nb_pmu_wrmsr(pmus[k], NB_CCCR_BASE + 16, source), MSR_OK);
            assert_int_equal(nb_pmu_wrmsr(pmus[k], NB_CCCR_BASE + 17, waiting), MSR_OK);
            assert_int_equal(nb_pmu_wrmsr(pmus[k], NB_COUNTER_BASE + 16,
                                          last_room + (uint64_t)offsets[i]),
                             MSR_OK);
        }
        bench = pmus[0];
        fast = pmus[1];
        const struct nb_feed *f = nb_pmu_attach(fast, table, 1);
        assert_non_null(f);
        uint64_t route = nb_feed_route(f, nb_feed_context(f, 0, true), 0);
        assert_int_equal(route, 1ull << NB_ESCR_CRU2 | 1ull << NB_ESCR_CRU3);
        struct nb_escr_outputs b = {0};
        bool overflowed = false;
        for (unsigned cycle = 0; cycle < 2 * WINDOW + 200; cycle++) {
            bool idle = cycle >= IDLE_FROM && cycle < IDLE_UNTIL;
            assert_true(nb_pmu_set_thread(bench, 0, !idle, 3));
            assert_true(nb_pmu_set_thread(fast, 0, !idle, 3));
            assert_true(nb_pmu_event(bench, NB_EV_BRANCH_RETIRED, 1, 0, FULL + 5));
            nb_pmu_tick(bench);
            if (mixed && cycle >= MIXED) {
                assert_true(nb_pmu_event(fast, NB_EV_BRANCH_RETIRED, 1, 0, FULL + 5));
                nb_pmu_tick(fast);
            } else {
                nb_escr_outputs_add(&b, nb_feed_generation(f), route, FULL + 5);
                assert_true(nb_pmu_tick_routed(fast, &b));
            }
            for (uint32_t c = 16; c < 18; c++) {
                same("counter", c, counter_of(bench, (int)c), counter_of(fast, (int)c));
                uint64_t cccr = read_bench(NB_CCCR_BASE + c);
                uint64_t fast_cccr = 0;
                assert_int_equal(nb_pmu_rdmsr(fast, NB_CCCR_BASE + c, &fast_cccr), MSR_OK);
                same("CCCR", c, cccr, fast_cccr);
            }
            overflowed = overflowed || (read_bench(NB_CCCR_BASE + 16) & CCCR_OVF);
        }
        assert_true(overflowed);
        assert_true(read_bench(NB_CCCR_BASE + 17) & CCCR_ENABLE);
        assert_true(counter_of(bench, 17) > 0);
        nb_pmu_destroy(bench);
        nb_pmu_destroy(fast);
        bench = fast = NULL;
    }
}

/* nb_pmu_tick_idle against nb_pmu_tick_routed with empty outputs, cycle by
 * cycle: IQ_COUNTER4 counts branch_retired on CRU_ESCR2 as it is (batched),
 * IQ_COUNTER0 the cycles whose output exceeds 2 on a rising edge.  Busy
 * cycles route random counts to both PMUs; idle stretches (up to three
 * batch windows) go to `bench` a cycle at a time and to `fast` by
 * nb_pmu_tick_idle, ticked on their own where it refuses: after an edge
 * counter's comparison held (its history must fall back), and at every
 * cycle while a COMPLEMENT counter is enabled.  Counters, CCCRs and the
 * cycle count must stay the same. */
static void test_idle_cycles_as_routed_cycles(void **state)
{
    (void)state;
    enum { WINDOW = 4096, STEPS = 400, COMPLEMENT_FROM = 300 };
    static const struct nb_source table[] = {{NB_EV_BRANCH_RETIRED, 1}};
    const uint64_t escr = escr_value(NB_EV_BRANCH_RETIRED, 1, ESCR_T0_OS | ESCR_T0_USR);
    const uint64_t select = (uint64_t)SELECT_CRU2 << CCCR_ESCR_SELECT_SHIFT | CCCR_ACTIVE_THREAD_ANY;
    const uint64_t edge = CCCR_ENABLE | select | CCCR_COMPARE | CCCR_EDGE |
                          2ull << CCCR_THRESHOLD_SHIFT;
    struct nb_pmu *pmus[2];
    const struct nb_feed *feeds[2];
    for (int k = 0; k < 2; k++) {
        pmus[k] = nb_pmu_create((struct nb_pmu_config){.model = 2, .ht = false});
        assert_non_null(pmus[k]);
        feeds[k] = nb_pmu_attach(pmus[k], table, 1);
        assert_non_null(feeds[k]);
        assert_int_equal(nb_pmu_wrmsr(pmus[k], nb_escrs[NB_ESCR_CRU2].msr, escr), MSR_OK);
        assert_int_equal(nb_pmu_wrmsr(pmus[k], NB_CCCR_BASE + 16, CCCR_ENABLE | select), MSR_OK);
        assert_int_equal(nb_pmu_wrmsr(pmus[k], NB_CCCR_BASE + 12, edge), MSR_OK);
        assert_true(nb_pmu_set_thread(pmus[k], 0, true, 3));
    }
    bench = pmus[0];
    fast = pmus[1];
    srand(SEED + 2);
    struct nb_escr_outputs b = {0}, f = {0};
    uint64_t idle = 0, refused = 0;
    for (unsigned step = 0; step < STEPS; step++) {
        if (step == COMPLEMENT_FROM)
            for (int k = 0; k < 2; k++)
                assert_int_equal(nb_pmu_wrmsr(pmus[k], NB_CCCR_BASE + 12, edge | CCCR_COMPLEMENT),
                                 MSR_OK);
        if (rand() % 2) {
            uint32_t count = (uint32_t)(rand() % 6);
            for (int k = 0; k < 2; k++) {
                struct nb_escr_outputs *out = k ? &f : &b;
                nb_escr_outputs_add(out, nb_feed_generation(feeds[k]),
                                    nb_feed_route(feeds[k], nb_feed_context(feeds[k], 0, true), 0),
                                    count);
                assert_true(nb_pmu_tick_routed(pmus[k], out));
            }
        } else {
            uint64_t cycles = 1 + (uint64_t)rand() % (3 * WINDOW);
            for (uint64_t c = 0; c < cycles; c++)
                assert_true(nb_pmu_tick_routed(bench, &b));
            for (uint64_t left = cycles; left > 0;) {
                uint64_t n = nb_pmu_tick_idle(fast, left);
                assert_true(n <= left && n <= WINDOW);
                if (step >= COMPLEMENT_FROM)
                    assert_int_equal(n, 0);
                if (n == 0) {
                    assert_true(nb_pmu_tick_routed(fast, &f));
                    n = 1;
                    refused++;
                } else {
                    idle += n;
                }
                left -= n;
            }
        }
        assert_int_equal(nb_pmu_cycles(fast), nb_pmu_cycles(bench));
        for (uint32_t c = 12; c <= 16; c += 4) {
            same("counter", c, counter_of(bench, (int)c), counter_of(fast, (int)c));
            uint64_t cccr = read_bench(NB_CCCR_BASE + c), fast_cccr = 0;
            assert_int_equal(nb_pmu_rdmsr(fast, NB_CCCR_BASE + c, &fast_cccr), MSR_OK);
            same("CCCR", c, cccr, fast_cccr);
        }
    }
    print_message("idle cycles ended at once %llu, on their own %llu; counted %llu and %llu\n",
                  (unsigned long long)idle, (unsigned long long)refused,
                  (unsigned long long)counter_of(bench, 16), (unsigned long long)counter_of(bench, 12));
    /* Not vacuous: both counters counted, most idle cycles went at once,
     * some were refused. */
    assert_true(counter_of(bench, 16) > 300 && counter_of(bench, 12) > 20);
    assert_true(idle > 100 * WINDOW && refused > 100);
    nb_pmu_destroy(bench);
    nb_pmu_destroy(fast);
    bench = fast = NULL;
}

/* Outputs routed before an ESCR write are refused: nb_pmu_tick_routed
 * returns false and counts none of them (occurrences given with
 * nb_pmu_event in that cycle still count, with the ESCRs as they stand);
 * the write changed the routes and their generation.  A CCCR, PEBS or
 * thread change leaves routed outputs valid. */
static void test_stale_buses_refused(void **state)
{
    (void)state;
    pmu = nb_pmu_create((struct nb_pmu_config){.model = 2, .ht = false});
    assert_non_null(pmu);
    static const struct nb_source table[] = {{NB_EV_BRANCH_RETIRED, 1u << 0},
                                             {NB_EV_BRANCH_RETIRED, 1u << 1}};
    const struct nb_feed *f = nb_pmu_attach(pmu, table, 2);
    assert_non_null(f);
    uint32_t cru2 = nb_escrs[NB_ESCR_CRU2].msr;
    uint64_t mmnp = escr_value(NB_EV_BRANCH_RETIRED, 1u << 0, ESCR_T0_USR);
    uint64_t mmnm = escr_value(NB_EV_BRANCH_RETIRED, 1u << 1, ESCR_T0_USR);
    /* IQ_COUNTER0 reads CRU_ESCR2 with select 5. */
    uint64_t cccr = CCCR_ENABLE | (uint64_t)SELECT_CRU2 << CCCR_ESCR_SELECT_SHIFT |
                    CCCR_ACTIVE_THREAD_ANY;
    assert_int_equal(nb_pmu_wrmsr(pmu, cru2, mmnp), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(pmu, NB_CCCR_BASE + 12, cccr), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(pmu, NB_COUNTER_BASE + 12, 100), MSR_OK);

    uint8_t user = nb_feed_context(f, 0, true); /* thread 0 starts at CPL 3 */
    assert_int_equal(nb_feed_route(f, user, 0), 1ull << NB_ESCR_CRU2);
    assert_int_equal(nb_feed_route(f, user, 1), 0);
    struct nb_escr_outputs b;
    memset(&b, 0, sizeof b);
    nb_escr_outputs_add(&b, nb_feed_generation(f), nb_feed_route(f, user, 0), 3);
    assert_true(nb_pmu_tick_routed(pmu, &b));
    assert_int_equal(counter_of(pmu, 12), 103);

    /* Routed, then the ESCR moves to another sub-event: refused. */
    nb_escr_outputs_add(&b, nb_feed_generation(f), nb_feed_route(f, user, 0), 4);
    uint64_t generation = f->generation;
    assert_int_equal(nb_pmu_wrmsr(pmu, cru2, mmnm), MSR_OK);
    assert_true(f->generation != generation);
    assert_int_equal(nb_feed_route(f, user, 0), 0);
    assert_int_equal(nb_feed_route(f, user, 1), 1ull << NB_ESCR_CRU2);
    assert_false(nb_feed_watched(f, 0));
    assert_true(nb_feed_watched(f, 1));
    assert_false(nb_pmu_tick_routed(pmu, &b));
    assert_int_equal(counter_of(pmu, 12), 103);
    assert_int_equal(nb_pmu_cycles(pmu), 2);
    assert_int_equal(b.driven, 0);
    for (int e = 0; e < NB_NUM_ESCRS; e++)
        assert_int_equal(b.output[e], 0);

    /* Routed anew, they count. */
    nb_escr_outputs_add(&b, nb_feed_generation(f), nb_feed_route(f, user, 1), 4);
    assert_true(nb_pmu_tick_routed(pmu, &b));
    assert_int_equal(counter_of(pmu, 12), 107);

    /* Rewriting the ESCR with its own value changes no route but still
     * refuses outputs routed before it. */
    nb_escr_outputs_add(&b, nb_feed_generation(f), nb_feed_route(f, user, 1), 2);
    generation = f->generation;
    assert_int_equal(nb_pmu_wrmsr(pmu, cru2, mmnm), MSR_OK);
    assert_true(f->generation != generation);
    assert_int_equal(nb_feed_route(f, user, 1), 1ull << NB_ESCR_CRU2);
    assert_false(nb_pmu_tick_routed(pmu, &b));
    assert_int_equal(counter_of(pmu, 12), 107);

    /* A CCCR write, IA32_PEBS_ENABLE, MSR_PEBS_MATRIX_VERT and a CPL
     * change in the cycle leave the routes and the routed outputs valid:
     * the occurrence happened at CPL 3. */
    nb_escr_outputs_add(&b, nb_feed_generation(f), nb_feed_route(f, user, 1), 2);
    generation = f->generation;
    assert_int_equal(nb_pmu_wrmsr(pmu, NB_CCCR_BASE + 12, cccr), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(pmu, MSR_IA32_PEBS_ENABLE, PEBS_ENABLE_UOP_TAG | 1), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(pmu, MSR_PEBS_MATRIX_VERT, 1), MSR_OK);
    assert_true(nb_pmu_set_thread(pmu, 0, true, 0));
    assert_int_equal(f->generation, generation);
    assert_true(nb_pmu_tick_routed(pmu, &b));
    assert_int_equal(counter_of(pmu, 12), 109);
    assert_true(nb_pmu_set_thread(pmu, 0, true, 3));

    /* In a refused cycle, nb_pmu_event's occurrences still count. */
    nb_escr_outputs_add(&b, nb_feed_generation(f), nb_feed_route(f, user, 1), 5);
    assert_true(nb_pmu_event(pmu, NB_EV_BRANCH_RETIRED, 1u << 1, 0, 1));
    assert_int_equal(nb_pmu_wrmsr(pmu, cru2, mmnm), MSR_OK);
    assert_false(nb_pmu_tick_routed(pmu, &b));
    assert_int_equal(counter_of(pmu, 12), 110);

    /* Even an empty stale route is refused (the current one may not be
     * empty); outputs no route was added to since the last tick are current. */
    nb_escr_outputs_add(&b, nb_feed_generation(f), 0, 1);
    assert_int_equal(nb_pmu_wrmsr(pmu, cru2, mmnm), MSR_OK);
    assert_false(nb_pmu_tick_routed(pmu, &b));
    assert_int_equal(b.generation, 0);
    assert_true(nb_pmu_tick_routed(pmu, &b));
    assert_int_equal(counter_of(pmu, 12), 110);
}

/* Outputs with detections routed before an ESCR write are refused also when
 * more are routed after it: the bench path would count the earlier
 * occurrences with the ESCRs as they stand at the tick, so counting the
 * outputs would miscount.  And a route read before the write, added after
 * it with the generation it was read in, is refused too. */
static void test_buses_routed_across_a_write_refused(void **state)
{
    (void)state;
    pmu = nb_pmu_create((struct nb_pmu_config){.model = 2, .ht = false});
    assert_non_null(pmu);
    static const struct nb_source table[] = {{NB_EV_BRANCH_RETIRED, 1u << 0},
                                             {NB_EV_BRANCH_RETIRED, 1u << 1}};
    const struct nb_feed *f = nb_pmu_attach(pmu, table, 2);
    assert_non_null(f);
    uint32_t cru2 = nb_escrs[NB_ESCR_CRU2].msr;
    uint64_t cccr = CCCR_ENABLE | (uint64_t)SELECT_CRU2 << CCCR_ESCR_SELECT_SHIFT |
                    CCCR_ACTIVE_THREAD_ANY;
    assert_int_equal(nb_pmu_wrmsr(pmu, NB_CCCR_BASE + 12, cccr), MSR_OK);
    assert_int_equal(nb_pmu_wrmsr(pmu, NB_COUNTER_BASE + 12, 100), MSR_OK);
    uint8_t user = nb_feed_context(f, 0, true);
    struct nb_escr_outputs b;
    memset(&b, 0, sizeof b);

    /* A route read, the ESCR written, the route added: refused. */
    assert_int_equal(nb_pmu_wrmsr(pmu, cru2, escr_value(NB_EV_BRANCH_RETIRED, 1u << 0,
                                                        ESCR_T0_USR)),
                     MSR_OK);
    uint64_t generation = nb_feed_generation(f);
    uint64_t route = nb_feed_route(f, user, 0);
    assert_int_equal(route, 1ull << NB_ESCR_CRU2);
    assert_int_equal(nb_pmu_wrmsr(pmu, cru2, escr_value(NB_EV_BRANCH_RETIRED, 1u << 1,
                                                        ESCR_T0_USR)),
                     MSR_OK);
    nb_escr_outputs_add(&b, generation, route, 3);
    assert_false(nb_pmu_tick_routed(pmu, &b));
    assert_int_equal(counter_of(pmu, 12), 100);

    /* Source 0 routed (3 detections), the ESCR moved from its sub-event
     * to source 1's, source 1 routed (4): the bench path would count 4;
     * the outputs hold 7 and must be refused. */
    assert_int_equal(nb_pmu_wrmsr(pmu, cru2, escr_value(NB_EV_BRANCH_RETIRED, 1u << 0,
                                                        ESCR_T0_USR)),
                     MSR_OK);
    nb_escr_outputs_add(&b, nb_feed_generation(f), nb_feed_route(f, user, 0), 3);
    assert_int_equal(nb_pmu_wrmsr(pmu, cru2, escr_value(NB_EV_BRANCH_RETIRED, 1u << 1,
                                                        ESCR_T0_USR)),
                     MSR_OK);
    nb_escr_outputs_add(&b, nb_feed_generation(f), nb_feed_route(f, user, 1), 4);
    bool counted = nb_pmu_tick_routed(pmu, &b);
    if (counted)
        print_message("outputs routed across an ESCR write were counted: IQ_COUNTER0 %llu "
                      "(refused: 100; the bench path: 104)\n",
                      (unsigned long long)counter_of(pmu, 12));
    assert_false(counted);
    assert_int_equal(counter_of(pmu, 12), 100);
}

/* A route is what the ESCRs count: an ESCR selecting another event, or
 * whose T bits exclude the context, is not on it; the sources nothing
 * routes are not watched. */
static void test_route_of_one_escr(void **state)
{
    (void)state;
    pmu = nb_pmu_create((struct nb_pmu_config){.model = 2, .ht = false});
    assert_non_null(pmu);
    static const struct nb_source table[] = {{NB_EV_BRANCH_RETIRED, 1},
                                             {NB_EV_BRANCH_RETIRED, 2},
                                             {NB_EV_UOPS_RETIRED, 1}};
    const struct nb_feed *f = nb_pmu_attach(pmu, table, 3);
    assert_non_null(f);
    assert_int_equal(f->watched[0], 0);
    assert_int_equal(nb_pmu_wrmsr(pmu, nb_escrs[NB_ESCR_CRU2].msr,
                                  escr_value(NB_EV_BRANCH_RETIRED, 1, ESCR_T0_USR)),
                     MSR_OK);
    uint8_t cpl[2] = {3, 3}; /* thread 0 starts at CPL 3 */
    uint8_t user = nb_feed_context(f, 0, true);
    assert_int_equal(user, escr_context_of(0, cpl, false));
    assert_int_equal(nb_feed_route(f, user, 0), 1ull << NB_ESCR_CRU2);
    assert_int_equal(nb_pmu_route(pmu, NB_EV_BRANCH_RETIRED, 1, user), 1ull << NB_ESCR_CRU2);
    assert_int_equal(nb_feed_route(f, user, 1), 0);
    assert_int_equal(nb_feed_route(f, user, 2), 0);
    assert_true(nb_feed_watched(f, 0));
    assert_false(nb_feed_watched(f, 1));
    assert_false(nb_feed_watched(f, 2));
    /* At CPL 0 the T0_USR ESCR does not count it. */
    assert_int_equal(nb_feed_route(f, nb_feed_context(f, 0, false), 0), 0);
    assert_true(nb_pmu_set_thread(pmu, 0, true, 0));
    cpl[0] = 0;
    uint8_t os = escr_context_of(0, cpl, false);
    assert_int_equal(nb_feed_context(f, 0, false), os);
    assert_int_equal(nb_feed_route(f, os, 0), 0);
    assert_int_equal(nb_pmu_route(pmu, NB_EV_BRANCH_RETIRED, 1, os), 0);

    /* More sources than NB_MAX_SOURCES, or an unknown event: refused. */
    static struct nb_source many[NB_MAX_SOURCES + 1];
    for (unsigned s = 0; s <= NB_MAX_SOURCES; s++)
        many[s] = (struct nb_source){NB_EV_BRANCH_RETIRED, 1};
    assert_null(nb_pmu_attach(pmu, many, NB_MAX_SOURCES + 1));
    many[0].event = NB_NUM_EVENTS;
    assert_null(nb_pmu_attach(pmu, many, 1));
}

/* ---- Precise and imprecise PMIs merging (docs/semantics.md, "The feed
 * and routed ticks", IEBS): a PMI delivered while one waits merges with it,
 * precise when either delivered in the same cycle is.  On a PMU with HT
 * (model 2): IQ_COUNTER4 counts replay_event NBOGUS (CRU_ESCR2) with PEBS
 * for thread 0, a 32-bit DS save area whose interrupt threshold is one
 * record past the buffer's base; IQ_COUNTER2 counts branch_retired MMNP
 * (CRU_ESCR3) with OVF_PMI_T0.  Both start one count from overflow.  Each
 * case runs on the bench path (nb_pmu_event, nb_pmu_tick) and on the
 * model's (occurrences routed through the feed, nb_pmu_tick_routed). */

#define MERGE_DS 0x1000u
#define MERGE_BUFFER 0x2000u
#define MERGE_COUNTER 14 /* IQ_COUNTER2: CRU_ESCR3 with select 5 */

static const struct nb_source merge_sources[] = {
    {NB_EV_REPLAY_EVENT, 1u << 0},   /* NBOGUS */
    {NB_EV_BRANCH_RETIRED, 1u << 0}, /* MMNP */
};
static bool merge_routed;
static const struct nb_feed *merge_feed;
static struct nb_escr_outputs merge_buses;

static void merge_wr(uint32_t msr, uint64_t value)
{
    assert_int_equal(nb_pmu_wrmsr(pmu, msr, value), MSR_OK);
}

static void merge_setup(bool routed)
{
    nb_pmu_destroy(pmu);
    pmu = nb_pmu_create((struct nb_pmu_config){.model = 2, .ht = true});
    assert_non_null(pmu);
    merge_routed = routed;
    memset(&merge_buses, 0, sizeof merge_buses);
    merge_feed = nb_pmu_attach(pmu, merge_sources, 2);
    assert_non_null(merge_feed);
    /* the DS save area: 4 records, the threshold after the first, the
     * counter reset one count from overflow */
    assert_true(nb_pmu_memory_write(pmu, MERGE_DS + 0x10, 4, MERGE_BUFFER));
    assert_true(nb_pmu_memory_write(pmu, MERGE_DS + 0x14, 4, MERGE_BUFFER));
    assert_true(nb_pmu_memory_write(pmu, MERGE_DS + 0x18, 4, MERGE_BUFFER + 4 * 40));
    assert_true(nb_pmu_memory_write(pmu, MERGE_DS + 0x1c, 4, MERGE_BUFFER + 40));
    assert_true(nb_pmu_memory_write(pmu, MERGE_DS + 0x20, 8, PMU_COUNTER_MASK));
    merge_wr(MSR_IA32_DS_AREA, MERGE_DS);
    merge_wr(MSR_IA32_PEBS_ENABLE, PEBS_ENABLE_UOP_TAG | PEBS_ENABLE_PEBS | 1);
    merge_wr(MSR_PEBS_MATRIX_VERT, 1);
    uint64_t cccr = CCCR_ENABLE | (uint64_t)SELECT_CRU2 << CCCR_ESCR_SELECT_SHIFT |
                    CCCR_ACTIVE_THREAD_ANY | CCCR_OVF_PMI_T0;
    merge_wr(nb_escrs[NB_ESCR_CRU2].msr, escr_value(NB_EV_REPLAY_EVENT, 1u << 0, ESCR_T0_USR));
    merge_wr(NB_COUNTER_BASE + NB_PEBS_COUNTER, PMU_COUNTER_MASK);
    merge_wr(NB_CCCR_BASE + NB_PEBS_COUNTER, cccr);
    assert_int_equal(nb_escr_routed(MERGE_COUNTER, SELECT_CRU2, 2), NB_ESCR_CRU3);
    merge_wr(nb_escrs[NB_ESCR_CRU3].msr, escr_value(NB_EV_BRANCH_RETIRED, 1u << 0, ESCR_T0_USR));
    merge_wr(NB_COUNTER_BASE + MERGE_COUNTER, PMU_COUNTER_MASK);
    merge_wr(NB_CCCR_BASE + MERGE_COUNTER, cccr);
}

/* One occurrence of source s by thread 0 (at CPL 3), on this case's path. */
static void merge_occur(unsigned s)
{
    if (!merge_routed) {
        assert_true(nb_pmu_event(pmu, (int)merge_sources[s].event, merge_sources[s].mask, 0, 1));
        return;
    }
    uint64_t route = nb_feed_route(merge_feed, nb_feed_context(merge_feed, 0, true), s);
    assert_int_not_equal(route, 0);
    nb_escr_outputs_add(&merge_buses, nb_feed_generation(merge_feed), route, 1);
}

static void merge_tick(void)
{
    if (merge_routed)
        assert_true(nb_pmu_tick_routed(pmu, &merge_buses));
    else
        nb_pmu_tick(pmu);
}

static void merge_retire(uint64_t eip, uint8_t tags)
{
    struct nb_retirement r = {.eip = eip, .tags = tags};
    assert_true(nb_pmu_retire(pmu, 0, &r));
}

/* The cycle thread t's waiting PMI was delivered in, or 0 when none waits. */
static uint64_t waiting_since(int t)
{
    uint64_t since = 0;
    return nb_pmu_pending_pmi(pmu, t, &since) ? since : 0;
}

static uint64_t merge_ds_index(void)
{
    return nb_pmu_memory_read(pmu, MERGE_DS + 0x14, 4);
}

/* Cycle 0: both counters overflow, IQ_COUNTER4 arming the PEBS assist,
 * IQ_COUNTER2 a PMI; nothing is delivered yet. */
static void merge_overflow_both(void)
{
    merge_occur(0);
    merge_occur(1);
    merge_tick();
    assert_int_equal(nb_pmu_cycles(pmu), 1);
    assert_int_equal(counter_of(pmu, NB_PEBS_COUNTER), 0);
    assert_int_equal(counter_of(pmu, MERGE_COUNTER), 0);
    assert_int_equal(waiting_since(0), 0);
    assert_int_equal(nb_pmu_last(pmu)->pebs_pmi, 0);
}

/* (a) The counter's PMI and the PEBS-threshold PMI delivered to thread 0
 * in the same cycle are one precise interrupt. */
static void merge_same_cycle(bool routed)
{
    merge_setup(routed);
    merge_overflow_both();
    /* cycle 1: the tagged retirement takes the assist (its record reaches
     * the threshold) and IQ_COUNTER2's next count delivers its PMI: both
     * at @2 */
    merge_retire(0x401000, NB_TAG_REPLAY);
    assert_int_equal(merge_ds_index(), MERGE_BUFFER + 40);
    assert_int_equal(counter_of(pmu, NB_PEBS_COUNTER), PMU_COUNTER_MASK); /* reloaded */
    merge_occur(1);
    merge_tick();
    assert_int_equal(nb_pmu_last(pmu)->pebs_pmi, 1);
    if (!routed)
        assert_int_equal(nb_pmu_last(pmu)->pmi[MERGE_COUNTER], 1);
    assert_int_equal(counter_of(pmu, MERGE_COUNTER), 1);
    assert_int_equal(waiting_since(0), 2);
    assert_int_equal(waiting_since(1), 0);
    /* cycles 2-4: the PMI waits until it is taken, at the end of cycle 4
     * (@5), where a model's pipeline takes the interrupt: before the
     * instruction at 0x401008, its return address (not the last retired
     * EIP, 0x401004) */
    merge_retire(0x401004, 0);
    merge_tick();
    merge_tick();
    merge_tick();
    assert_int_equal(nb_pmu_cycles(pmu), 5);
    assert_int_equal(waiting_since(0), 2);
    struct nb_pmi_sample sample = {0};
    assert_false(nb_pmu_take_pmi_at(pmu, 1, 0x401008, &sample));
    assert_true(nb_pmu_take_pmi_at(pmu, 0, 0x401008, &sample));
    assert_int_equal(sample.delivered, 2);
    assert_int_equal(sample.eip, 0x401008);
    assert_true(sample.precise);
    assert_int_equal(waiting_since(0), 0);
    assert_false(nb_pmu_take_pmi(pmu, 0, &sample));
}

static void test_pmi_merge_same_cycle_precise(void **state)
{
    (void)state;
    merge_same_cycle(false);
    merge_same_cycle(true);
}

/* (b) IQ_COUNTER2's imprecise PMI is delivered at @2 and waits; the
 * PEBS-threshold PMI delivered at @3 merges with it: one interrupt,
 * delivered at @2, imprecise.  Taken at @5, before 0x402008. */
/* A PEBS assist reloads IQ_COUNTER4 while the fast path batches its
 * counts: the counts before the reload are dropped with the old value,
 * those after it add to the reset (one from overflow). */
static void test_assist_reloads_a_batched_counter(void **state)
{
    (void)state;
    merge_setup(true);
    merge_overflow_both();
    merge_wr(MSR_PEBS_MATRIX_VERT, 1); /* a write between cycles: the batch is chosen anew */
    for (int cycle = 0; cycle < 5; cycle++) {
        merge_occur(0);
        merge_tick();
    }
    assert_int_equal(counter_of(pmu, NB_PEBS_COUNTER), 5);
    merge_retire(0x403000, NB_TAG_REPLAY);
    assert_int_equal(merge_ds_index(), MERGE_BUFFER + 40);
    assert_int_equal(counter_of(pmu, NB_PEBS_COUNTER), PMU_COUNTER_MASK);
    merge_tick();
    assert_int_equal(counter_of(pmu, NB_PEBS_COUNTER), PMU_COUNTER_MASK);
    merge_occur(0);
    merge_tick();
    assert_int_equal(counter_of(pmu, NB_PEBS_COUNTER), 0);
}

static void merge_into_waiting(bool routed)
{
    merge_setup(routed);
    merge_overflow_both();
    /* cycle 1: IQ_COUNTER2's next count delivers its PMI; the assist
     * stays armed (no tagged retirement) */
    merge_retire(0x402000, 0);
    merge_occur(1);
    merge_tick();
    assert_int_equal(nb_pmu_last(pmu)->pebs_pmi, 0);
    if (!routed)
        assert_int_equal(nb_pmu_last(pmu)->pmi[MERGE_COUNTER], 1);
    assert_int_equal(waiting_since(0), 2);
    assert_int_equal(merge_ds_index(), MERGE_BUFFER);
    /* cycle 2: the tagged retirement writes a record reaching the
     * threshold: the PEBS PMI at @3 merges with the waiting one */
    merge_retire(0x402004, NB_TAG_REPLAY);
    assert_int_equal(merge_ds_index(), MERGE_BUFFER + 40);
    merge_tick();
    assert_int_equal(nb_pmu_last(pmu)->pebs_pmi, 1);
    if (!routed)
        assert_int_equal(nb_pmu_last(pmu)->pmi[MERGE_COUNTER], 0);
    assert_int_equal(waiting_since(0), 2);
    merge_tick();
    merge_tick();
    assert_int_equal(nb_pmu_cycles(pmu), 5);
    struct nb_pmi_sample sample = {0};
    assert_true(nb_pmu_take_pmi_at(pmu, 0, 0x402008, &sample));
    assert_int_equal(sample.delivered, 2);
    assert_int_equal(sample.eip, 0x402008);
    assert_false(sample.precise);
    /* the PEBS PMI went with it: nothing waits */
    assert_int_equal(waiting_since(0), 0);
}

static void test_pmi_merge_into_waiting_imprecise(void **state)
{
    (void)state;
    merge_into_waiting(false);
    merge_into_waiting(true);
}

/* (c) After the merged interrupt of (b) is taken, the next PEBS-threshold
 * PMI is an interrupt of its own, precise: IQ_COUNTER4 (reloaded one count
 * from overflow by the record) overflows in cycle 5, the tagged
 * retirement of cycle 6 writes the second record (index past the
 * threshold): delivered at @7. */
static void merge_precise_after_taking(bool routed)
{
    merge_into_waiting(routed);
    merge_occur(0);
    merge_tick();
    assert_int_equal(counter_of(pmu, NB_PEBS_COUNTER), 0);
    assert_int_equal(waiting_since(0), 0);
    merge_retire(0x403000, NB_TAG_REPLAY);
    assert_int_equal(merge_ds_index(), MERGE_BUFFER + 80);
    merge_tick();
    assert_int_equal(nb_pmu_cycles(pmu), 7);
    assert_int_equal(nb_pmu_last(pmu)->pebs_pmi, 1);
    assert_int_equal(waiting_since(0), 7);
    struct nb_pmi_sample sample = {0};
    assert_true(nb_pmu_take_pmi(pmu, 0, &sample)); /* the bench's: the last retired EIP */
    assert_int_equal(sample.delivered, 7);
    assert_int_equal(sample.eip, 0x403000);
    assert_true(sample.precise);
    assert_int_equal(waiting_since(0), 0);
}

static void test_pmi_precise_after_taking(void **state)
{
    (void)state;
    merge_precise_after_taking(false);
    merge_precise_after_taking(true);
}

/* ---- The PEBS assist's accesses in the feed (nb_feed_assist): the merge
 * cases' 32-bit DS save area at 0x1000 holds 4 records at 0x2000. */

static void same_logged(const struct nb_assist_access *a, uint64_t address, unsigned size,
                        bool store)
{
    assert_int_equal(a->address, address);
    assert_int_equal(a->size, size);
    assert_int_equal(a->store, store);
}

/* The first record: the index (0x1014) and the absolute maximum (0x1018)
 * read, the ten 4-byte slots at 0x2000-0x2024 and the index written, the
 * 8-byte counter reset (0x1020) and the interrupt threshold (0x101c) read.
 * Then with the buffer full (the index at the maximum) only the two
 * reads. */
static void test_assist_accesses(void **state)
{
    (void)state;
    merge_setup(true);
    const struct nb_assist *log = nb_feed_assist(merge_feed, 0);
    assert_int_equal(log->taken, 0);
    merge_overflow_both();
    merge_retire(0x401000, NB_TAG_REPLAY);
    assert_int_equal(log->taken, 1);
    assert_int_equal(log->n_accesses, 15);
    same_logged(&log->access[0], MERGE_DS + 0x14, 4, false);
    same_logged(&log->access[1], MERGE_DS + 0x18, 4, false);
    for (unsigned k = 0; k < 10; k++)
        same_logged(&log->access[2 + k], MERGE_BUFFER + 4 * k, 4, true);
    same_logged(&log->access[12], MERGE_DS + 0x14, 4, true);
    same_logged(&log->access[13], MERGE_DS + 0x20, 8, false);
    same_logged(&log->access[14], MERGE_DS + 0x1c, 4, false);
    assert_int_equal(nb_feed_assist(merge_feed, 1)->taken, 0);
    /* the buffer full: the next assist reads, writes nothing */
    merge_wr(MSR_IA32_DS_AREA, MERGE_DS);
    assert_true(nb_pmu_memory_write(pmu, MERGE_DS + 0x14, 4, MERGE_BUFFER + 4 * 40));
    merge_occur(0);
    merge_tick();
    merge_retire(0x401004, NB_TAG_REPLAY);
    assert_int_equal(log->taken, 2);
    assert_int_equal(log->n_accesses, 2);
    same_logged(&log->access[0], MERGE_DS + 0x14, 4, false);
    same_logged(&log->access[1], MERGE_DS + 0x18, 4, false);
    assert_int_equal(merge_ds_index(), MERGE_BUFFER + 4 * 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_fast_path_counts_as_bench_path, teardown),
        cmocka_unit_test_teardown(test_batched_counts_as_bench_path, teardown),
        cmocka_unit_test_teardown(test_batched_counter_overflows_on_its_cycle, teardown),
        cmocka_unit_test_teardown(test_idle_cycles_as_routed_cycles, teardown),
        cmocka_unit_test_teardown(test_stale_buses_refused, teardown),
        cmocka_unit_test_teardown(test_buses_routed_across_a_write_refused, teardown),
        cmocka_unit_test_teardown(test_route_of_one_escr, teardown),
        cmocka_unit_test_teardown(test_assist_reloads_a_batched_counter, teardown),
        cmocka_unit_test_teardown(test_pmi_merge_same_cycle_precise, teardown),
        cmocka_unit_test_teardown(test_pmi_merge_into_waiting_imprecise, teardown),
        cmocka_unit_test_teardown(test_pmi_precise_after_taking, teardown),
        cmocka_unit_test_teardown(test_assist_accesses, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
