/* Event strings (pmu/catalog/event_spec.c) and their register values
 * (pmu/catalog/netburst_encode.c, pmu/catalog/netburst_metrics.c).
 *
 * Every expected value is computed by hand from the SDM field layouts
 * (pmu/catalog/netburst_fields.h, docs/semantics.md):
 *   ESCR: select 30:25, mask 24:9, tag value 8:5, tag enable 4, T0_OS 3,
 *         T0_USR 2, T1_OS 1, T1_USR 0;
 *   CCCR: ENABLE 12, ESCR select 15:13, ACTIVE_THREAD 17:16, COMPARE 18,
 *         COMPLEMENT 19, THRESHOLD 23:20, EDGE 24, FORCE_OVF 25,
 *         OVF_PMI_T0 26, OVF_PMI_T1 27;
 *   P5 CESR half: ES 5:0, CC 8:6 (bit 2 clocks, bit 1 CPL 3, bit 0 CPL 0-2).
 * Modifier meanings are libpfm4's (checked against libpfm4 4.13 where it
 * has the modifier): k/u given select exactly those levels, neither means
 * both; thr > 0, cmpl or e set COMPARE.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "pmu/catalog/event_spec.h"
#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_metrics.h"
#include "pmu/catalog/netburst_msrs.h"

static const struct nb_pmu_config HT = {.model = 2, .ht = true};
static const struct nb_pmu_config NOHT = {.model = 2, .ht = false};
static const struct nb_pmu_config M3 = {.model = 3, .ht = true};

#define E(id) (1ull << NB_ESCR_##id)
#define IQ_COUNTERS 0x3f000u /* 12-17: CRU_ESCR2 feeds 12, 13, 16; CRU_ESCR3 14, 15, 17 */

/* CCCR of an event behind ESCR select 5 (CRU_ESCR2/3): ENABLE (0x1000),
 * select 5 << 13 (0xa000), ACTIVE_THREAD 11 (0x30000). */
#define CCCR_SEL5 0x0003b000ull
#define CCCR_SEL4 0x00039000ull /* CRU_ESCR0/1 */
#define CCCR_SEL2 0x00035000ull /* RAT_ESCR0/1 */
#define CCCR_SEL1 0x00033000ull /* FIRM_ESCR0/1 */

/* branch_retired (06H << 25 = 0x0c000000) with MMTP (mask bit 2, ESCR bit
 * 11 = 0x800) and the given T bits. */
#define BR_MMTP(tbits) (0x0c000800ull | (tbits))

static struct event_spec parse_ok(const char *text, const struct nb_pmu_config *config)
{
    struct event_spec spec;
    char error[512];
    bool ok = event_spec_parse(text, config, &spec, error, sizeof error);
    if (!ok)
        print_error("%s: unexpected error: %s\n", text, error);
    assert_true(ok);
    assert_string_equal(error, "");
    return spec;
}

static struct nb_encoding encode(const char *text, const struct nb_pmu_config *config)
{
    struct event_spec spec = parse_ok(text, config);
    assert_int_equal(spec.pmu, PMU_NETBURST);
    struct nb_encoding enc;
    nb_encode(&spec.nb, config, &enc);
    return enc;
}

/* The ESCR and CCCR of an event string. */
static void check_values(const char *text, const struct nb_pmu_config *config, uint64_t escr,
                         uint64_t cccr)
{
    struct nb_encoding enc = encode(text, config);
    if (enc.escr != escr || enc.cccr != cccr)
        print_error("%s: got %#llx/%#llx, expected %#llx/%#llx\n", text,
                    (unsigned long long)enc.escr, (unsigned long long)enc.cccr,
                    (unsigned long long)escr, (unsigned long long)cccr);
    assert_int_equal(enc.escr, escr);
    assert_int_equal(enc.cccr, cccr);
}

/* The CLI's buffer size (cli/cmd_encode.c). */
static void parse_error(const char *text, const struct nb_pmu_config *config, const char *want)
{
    struct event_spec spec;
    char error[512];
    assert_false(event_spec_parse(text, config, &spec, error, sizeof error));
    assert_string_equal(error, want);
}

static int event(const char *name)
{
    int i = nb_event_find(name);
    assert_true(i >= 0);
    return i;
}

/* ---- defaults */

static void test_defaults(void **state)
{
    (void)state;
    struct event_spec spec = parse_ok("netburst::branch_retired:MMTP", &HT);
    const struct nb_event_spec *nb = &spec.nb;
    assert_int_equal(spec.pmu, PMU_NETBURST);
    assert_int_equal(nb->event, event("branch_retired"));
    assert_int_equal(nb->mask, 0x4);
    assert_null(nb->metric);
    assert_true(nb->os && nb->usr && nb->t0 && nb->t1);
    assert_false(nb->compare || nb->complement || nb->edge);
    assert_int_equal(nb->threshold, 0);
    assert_int_equal(nb->active_thread, 3);
    assert_int_equal(nb->ovf_pmi, 0);
    assert_false(nb->force_ovf || nb->tag_enable || nb->pebs);
    assert_int_equal(nb->tag_value, 0);

    struct nb_encoding enc = encode("netburst::branch_retired:MMTP", &HT);
    assert_int_equal(enc.escr, BR_MMTP(0xf)); /* 0x0c00080f, as libpfm4 */
    assert_int_equal(enc.cccr, CCCR_SEL5);
    assert_int_equal(enc.escrs, E(CRU2) | E(CRU3));
    assert_int_equal(enc.counters, IQ_COUNTERS);
    assert_int_equal(enc.n_upstreams, 0);
    assert_false(enc.replay);

    /* No PMU prefix means netburst; names are case-insensitive. */
    check_values("branch_retired:MMTP", &HT, BR_MMTP(0xf), CCCR_SEL5);
    check_values("netburst::BRANCH_RETIRED:mmtp", &HT, BR_MMTP(0xf), CCCR_SEL5);
    /* All four sub-events: mask 0xf << 9 = 0x1e00. */
    check_values("netburst::branch_retired:MMNP:MMNM:MMTP:MMTM", &HT, 0x0c001e0full, CCCR_SEL5);
}

/* libpfm4 accepts the PMU name in any case ("NETBURST::..." encodes like
 * "netburst::..."); pmubench's event and sub-event names are
 * case-insensitive too. */
static void test_pmu_name_case(void **state)
{
    (void)state;
    check_values("NETBURST::branch_retired:MMTP", &HT, BR_MMTP(0xf), CCCR_SEL5);
}

static void test_privilege_levels(void **state)
{
    (void)state;
    /* T0_OS 8, T0_USR 4, T1_OS 2, T1_USR 1. */
    check_values("netburst::branch_retired:MMTP:k", &HT, BR_MMTP(0xa), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:k=1", &HT, BR_MMTP(0xa), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:u", &HT, BR_MMTP(0x5), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:u=1", &HT, BR_MMTP(0x5), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:k:u", &HT, BR_MMTP(0xf), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:u=1:k=1", &HT, BR_MMTP(0xf), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:k=1:u=0", &HT, BR_MMTP(0xa), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:k=0:u=1", &HT, BR_MMTP(0x5), CCCR_SEL5);
    /* libpfm4: k=0 alone gives no privilege level at all (0x0c000800). */
    check_values("netburst::branch_retired:MMTP:k=0", &HT, BR_MMTP(0), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:u=0", &HT, BR_MMTP(0), CCCR_SEL5);

    struct event_spec spec = parse_ok("netburst::branch_retired:MMTP:k", &HT);
    assert_true(spec.nb.os);
    assert_false(spec.nb.usr);
}

static void test_threads(void **state)
{
    (void)state;
    check_values("netburst::branch_retired:MMTP:t0", &HT, BR_MMTP(0xc), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:t1", &HT, BR_MMTP(0x3), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:t0:t1", &HT, BR_MMTP(0xf), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:t1:t0", &HT, BR_MMTP(0xf), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:t0:u", &HT, BR_MMTP(0x4), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:k:t1", &HT, BR_MMTP(0x2), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:t0=1", &HT, BR_MMTP(0xc), CCCR_SEL5);
    struct event_spec spec = parse_ok("netburst::branch_retired:MMTP:t1", &HT);
    assert_false(spec.nb.t0);
    assert_true(spec.nb.t1);
}

static void test_compare_modifiers(void **state)
{
    (void)state;
    /* thr=2: COMPARE 0x40000 | THRESHOLD 2 << 20 = 0x200000. */
    check_values("netburst::branch_retired:MMTP:thr=2", &HT, BR_MMTP(0xf), 0x0027b000ull);
    check_values("netburst::branch_retired:MMTP:thr=15", &HT, BR_MMTP(0xf), 0x00f7b000ull);
    /* thr=0 alone leaves COMPARE clear (libpfm4 too). */
    check_values("netburst::branch_retired:MMTP:thr=0", &HT, BR_MMTP(0xf), CCCR_SEL5);
    struct event_spec spec = parse_ok("netburst::branch_retired:MMTP:thr=0", &HT);
    assert_false(spec.nb.compare);
    /* cmpl: COMPARE | COMPLEMENT 0x80000. */
    check_values("netburst::branch_retired:MMTP:cmpl", &HT, BR_MMTP(0xf), 0x000fb000ull);
    check_values("netburst::branch_retired:MMTP:cmpl=1", &HT, BR_MMTP(0xf), 0x000fb000ull);
    check_values("netburst::branch_retired:MMTP:cmpl=0", &HT, BR_MMTP(0xf), CCCR_SEL5);
    /* e: COMPARE | EDGE 0x1000000. */
    check_values("netburst::branch_retired:MMTP:e", &HT, BR_MMTP(0xf), 0x0107b000ull);
    check_values("netburst::branch_retired:MMTP:e=1", &HT, BR_MMTP(0xf), 0x0107b000ull);
    check_values("netburst::branch_retired:MMTP:e=0", &HT, BR_MMTP(0xf), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:thr=0:e=1", &HT, BR_MMTP(0xf), 0x0107b000ull);
    /* All three: 0x3b000 | 0x40000 | 0x80000 | 3 << 20 | 0x1000000. */
    check_values("netburst::branch_retired:MMTP:thr=3:cmpl:e", &HT, BR_MMTP(0xf), 0x013fb000ull);
    spec = parse_ok("netburst::branch_retired:MMTP:thr=3:cmpl:e", &HT);
    assert_true(spec.nb.compare && spec.nb.complement && spec.nb.edge);
    assert_int_equal(spec.nb.threshold, 3);
}

static void test_cccr_extensions(void **state)
{
    (void)state;
    /* ACTIVE_THREAD: ENABLE 0x1000 | select 5 0xa000 | AT << 16. */
    check_values("netburst::branch_retired:MMTP:at=none", &HT, BR_MMTP(0xf), 0x0000b000ull);
    check_values("netburst::branch_retired:MMTP:at=single", &HT, BR_MMTP(0xf), 0x0001b000ull);
    check_values("netburst::branch_retired:MMTP:at=both", &HT, BR_MMTP(0xf), 0x0002b000ull);
    check_values("netburst::branch_retired:MMTP:at=any", &HT, BR_MMTP(0xf), CCCR_SEL5);
    /* OVF_PMI_T0 bit 26, OVF_PMI_T1 bit 27, FORCE_OVF bit 25. */
    check_values("netburst::branch_retired:MMTP:ovf_pmi=t0", &HT, BR_MMTP(0xf), 0x0403b000ull);
    check_values("netburst::branch_retired:MMTP:ovf_pmi=t1", &HT, BR_MMTP(0xf), 0x0803b000ull);
    check_values("netburst::branch_retired:MMTP:ovf_pmi=both", &HT, BR_MMTP(0xf), 0x0c03b000ull);
    check_values("netburst::branch_retired:MMTP:force_ovf", &HT, BR_MMTP(0xf), 0x0203b000ull);
    check_values("netburst::branch_retired:MMTP:force_ovf=0", &HT, BR_MMTP(0xf), CCCR_SEL5);
    struct event_spec spec = parse_ok("netburst::branch_retired:MMTP:ovf_pmi=t1", &HT);
    assert_int_equal(spec.nb.ovf_pmi, 2);
    spec = parse_ok("netburst::branch_retired:MMTP:at=single", &HT);
    assert_int_equal(spec.nb.active_thread, 1);
}

/* ---- sub-events, aliases, tags */

static void test_single_subevent_default(void **state)
{
    (void)state;
    /* x87_FP_uop 04H: 0x08000000 | ALL (bit 15 -> ESCR bit 24) 0x01000000
     * | 0xf; FIRM_ESCR0/1 behind select 1.  libpfm4 gives 0x900000f too. */
    check_values("netburst::x87_FP_uop", &HT, 0x0900000full, CCCR_SEL1);
    struct event_spec spec = parse_ok("netburst::x87_FP_uop", &HT);
    assert_int_equal(spec.nb.mask, 0x8000);
    /* mispred_branch_retired 03H on CRU_ESCR0/1 (select 4): NBOGUS bit 0. */
    check_values("netburst::mispred_branch_retired", &HT, 0x0600020full, CCCR_SEL4);
    /* An event with several sub-events needs one. */
    parse_error("netburst::branch_retired", &HT,
                "netburst::branch_retired: branch_retired needs a sub-event (one or more of "
                "MMNP, MMNM, MMTP, MMTM)");
    parse_error("netburst::branch_retired:u=1", &HT,
                "netburst::branch_retired:u=1: branch_retired needs a sub-event (one or more of "
                "MMNP, MMNM, MMTP, MMTM)");
}

static void test_libpfm4_aliases(void **state)
{
    (void)state;
    /* uop_type 02H: 0x04000000 | TAGLOADS (bit 1 -> 0x400) | 0xf. */
    check_values("netburst::uops_type:TAGLOADS", &HT, 0x0400040full, CCCR_SEL2);
    check_values("netburst::uop_type:TAGLOADS", &HT, 0x0400040full, CCCR_SEL2);
    assert_int_equal(parse_ok("netburst::uops_type:TAGSTORES", &HT).nb.event, event("uop_type"));
    check_values("netburst::uops_type:TAGSTORES", &HT, 0x0400080full, CCCR_SEL2);

    /* TAGn: tag enable (0x10) and tag value bit n (ESCR bit 5 + n). */
    check_values("netburst::x87_FP_uop:ALL:TAG0", &HT, 0x0900003full, CCCR_SEL1);
    check_values("netburst::x87_FP_uop:ALL:TAG1", &HT, 0x0900005full, CCCR_SEL1);
    check_values("netburst::x87_FP_uop:ALL:TAG2", &HT, 0x0900009full, CCCR_SEL1);
    check_values("netburst::x87_FP_uop:ALL:TAG3", &HT, 0x0900011full, CCCR_SEL1);
    check_values("netburst::x87_FP_uop:ALL:TAG0:TAG2", &HT, 0x090000bfull, CCCR_SEL1);
    struct event_spec spec = parse_ok("netburst::x87_FP_uop:ALL:TAG0:TAG2", &HT);
    assert_true(spec.nb.tag_enable);
    assert_int_equal(spec.nb.tag_value, 5);
    /* packed_SP_uop 08H: 0x10000000 | ALL 0x01000000 | TAG3 0x100 | 0x10 | 0xf. */
    check_values("netburst::packed_SP_uop:ALL:TAG3", &HT, 0x1100011full, CCCR_SEL1);
    /* TAGn alone: the single sub-event ALL is the default (libpfm4 leaves
     * the mask empty; docs/events.md). */
    check_values("netburst::x87_FP_uop:TAG0", &HT, 0x0900003full, CCCR_SEL1);
    check_values("netburst::x87_FP_uop:tag1:tag3", &HT, 0x0900015full, CCCR_SEL1);
    /* TAGn only on the execution-tagging upstream events. */
    parse_error("netburst::branch_retired:MMTP:TAG0", &HT,
                "netburst::branch_retired:MMTP:TAG0: unknown sub-event or modifier 'TAG0' of "
                "branch_retired (did you mean 'tag'?)");
    /* nothing near: the lists */
    parse_error("netburst::branch_retired:MMTP:TAGGED0", &HT,
                "netburst::branch_retired:MMTP:TAGGED0: unknown sub-event or modifier 'TAGGED0' "
                "of branch_retired (sub-events: MMNP, MMNM, MMTP, MMTM; modifiers: k, u, e, "
                "cmpl, thr, t0, t1, at, ovf_pmi, force_ovf, tag, pebs)");
}

/* libpfm4's names for the catalog's sub-events (docs/events.md, NetBurst
 * items 5 and 6): the same bits. */
static void test_libpfm4_subevent_names(void **state)
{
    (void)state;
    /* IOQ_allocation 03H behind FSB_ESCR0/1, CCCR select 6: ENABLE 0x1000 |
     * 6 << 13 (0xc000) | ACTIVE_THREAD 0x30000.  TYPE_BITn is mask bit n,
     * ESCR bit 9 + n. */
    const uint64_t cccr_sel6 = 0x0003d000ull;
    check_values("netburst::IOQ_allocation:TYPE_BIT0", &HT, 0x0600020full, cccr_sel6);
    check_values("netburst::IOQ_allocation:TYPE_BIT1", &HT, 0x0600040full, cccr_sel6);
    check_values("netburst::IOQ_allocation:TYPE_BIT2", &HT, 0x0600080full, cccr_sel6);
    check_values("netburst::IOQ_allocation:TYPE_BIT3", &HT, 0x0600100full, cccr_sel6);
    check_values("netburst::IOQ_allocation:TYPE_BIT4", &HT, 0x0600200full, cccr_sel6);
    /* With MEM_WB, mask bit 11 (0x100000). */
    check_values("netburst::IOQ_allocation:type_bit0:TYPE_BIT4:MEM_WB", &HT, 0x0610220full,
                 cccr_sel6);
    /* IOQ_active_entries 1AH: 0x34000000. */
    check_values("netburst::IOQ_active_entries:TYPE_BIT0", &HT, 0x3400020full, cccr_sel6);
    check_values("netburst::IOQ_active_entries:TYPE_BIT1", &HT, 0x3400040full, cccr_sel6);
    check_values("netburst::IOQ_active_entries:TYPE_BIT2", &HT, 0x3400080full, cccr_sel6);
    check_values("netburst::IOQ_active_entries:TYPE_BIT3", &HT, 0x3400100full, cccr_sel6);
    check_values("netburst::IOQ_active_entries:TYPE_BIT4", &HT, 0x3400200full, cccr_sel6);
    assert_int_equal(parse_ok("netburst::IOQ_active_entries:TYPE_BIT3", &HT).nb.mask,
                     parse_ok("netburst::IOQ_active_entries:ReqA3", &HT).nb.mask);
    /* libpfm4's mispred_branch_retired:BOGUS is bit 0, the SDM's NBOGUS:
     * 03H -> 0x06000000 | 0x200 | 0xf, CRU_ESCR0/1 (select 4). */
    check_values("netburst::mispred_branch_retired:BOGUS", &HT, 0x0600020full, CCCR_SEL4);
    check_values("netburst::mispred_branch_retired:NBOGUS", &HT, 0x0600020full, CCCR_SEL4);
    /* Only on those events. */
    parse_error("netburst::BSQ_allocation:TYPE_BIT0", &HT,
                "netburst::BSQ_allocation:TYPE_BIT0: unknown sub-event or modifier 'TYPE_BIT0' "
                "of BSQ_allocation (sub-events: REQ_TYPE0, REQ_TYPE1, REQ_LEN0, REQ_LEN1, "
                "REQ_IO_TYPE, REQ_LOCK_TYPE, REQ_CACHE_TYPE, REQ_SPLIT_TYPE, REQ_DEM_TYPE, "
                "REQ_ORD_TYPE, MEM_TYPE0, MEM_TYPE1, MEM_TYPE2; modifiers: k, u, e, cmpl, thr, "
                "t0, t1, at, ovf_pmi, force_ovf, tag, pebs)");
    parse_error("netburst::TYPE_BIT0", &HT,
                "netburst::TYPE_BIT0: unknown NetBurst event 'TYPE_BIT0' ('pmubench list "
                "netburst' shows the events and tagging metrics)");
}

/* libpfm4's modifier spellings (pfmlib_common.c): names in any case,
 * booleans 1/y/t and 0/n/f in either case, a flag alone meaning 1. */
static void test_libpfm4_modifier_spellings(void **state)
{
    (void)state;
    check_values("netburst::branch_retired:MMTP:K", &HT, BR_MMTP(0xa), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:K=1:U=0", &HT, BR_MMTP(0xa), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:k=y:u=n", &HT, BR_MMTP(0xa), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:k=T:u=F", &HT, BR_MMTP(0xa), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:u=Y", &HT, BR_MMTP(0x5), CCCR_SEL5);
    /* COMPARE 0x40000 with EDGE 0x1000000, COMPLEMENT 0x80000, THRESHOLD
     * 3 << 20. */
    check_values("netburst::branch_retired:MMTP:E", &HT, BR_MMTP(0xf), 0x0107b000ull);
    check_values("netburst::branch_retired:MMTP:CMPL=t", &HT, BR_MMTP(0xf), 0x000fb000ull);
    check_values("netburst::branch_retired:MMTP:THR=0x3", &HT, BR_MMTP(0xf), 0x0037b000ull);
    check_values("netburst::branch_retired:MMTP:e=N:cmpl=f", &HT, BR_MMTP(0xf), CCCR_SEL5);
    /* pmubench's own modifiers follow the same rules. */
    check_values("netburst::branch_retired:MMTP:T0=y", &HT, BR_MMTP(0xc), CCCR_SEL5);
    parse_error("netburst::branch_retired:MMTP:k=yes", &HT,
                "netburst::branch_retired:MMTP:k=yes: bad value in 'k=yes' (expected 0, 1, y, n, t or f)");
    parse_error("netburst::branch_retired:MMTP:k=x", &HT,
                "netburst::branch_retired:MMTP:k=x: bad value in 'k=x' (expected 0, 1, y, n, t or f)");
}

static void test_tag_modifier(void **state)
{
    (void)state;
    /* tag=5: value 0101 << 5 = 0xa0, enable 0x10. */
    check_values("netburst::x87_FP_uop:ALL:tag=5", &HT, 0x090000bfull, CCCR_SEL1);
    /* tag=0: enable with value 0. */
    check_values("netburst::x87_FP_uop:ALL:tag=0", &HT, 0x0900001full, CCCR_SEL1);
    /* The upstream of section 9.3 (the Pentium 4 monitoring study), user mode on thread 0. */
    check_values("netburst::x87_FP_uop:ALL:tag=1:u=1:t0", &HT, 0x09000034ull, CCCR_SEL1);
    parse_error("netburst::branch_retired:MMTP:tag=1", &HT,
                "netburst::branch_retired:MMTP:tag=1: ':tag' applies to the execution-tagging "
                "upstream events (the FIRM uop events such as x87_FP_uop), not branch_retired");
}

/* ---- tagging metrics */

static void test_metric_front_end(void **state)
{
    (void)state;
    struct event_spec spec = parse_ok("netburst::memory_loads", &HT);
    assert_non_null(spec.nb.metric);
    assert_int_equal(spec.nb.metric->kind, NB_FRONT_END_TAGGING);
    assert_int_equal(spec.nb.event, event("front_end_event"));
    assert_int_equal(spec.nb.mask, 0x1); /* NBOGUS */

    struct nb_encoding enc = encode("netburst::memory_loads", &HT);
    /* front_end_event 08H: 0x10000000 | NBOGUS 0x200 | 0xf. */
    assert_int_equal(enc.escr, 0x1000020full);
    assert_int_equal(enc.cccr, CCCR_SEL5);
    assert_int_equal(enc.escrs, E(CRU2) | E(CRU3));
    assert_int_equal(enc.upstream[0].event, event("uop_type"));
    assert_int_equal(enc.upstream[0].escrs, E(RAT0) | E(RAT1));
    assert_int_equal(enc.upstream[0].escr, 0x0400040full); /* uop_type TAGLOADS */
    assert_false(enc.replay);

    enc = encode("netburst::memory_stores", &HT);
    assert_int_equal(enc.escr, 0x1000020full);
    assert_int_equal(enc.upstream[0].escr, 0x0400080full); /* TAGSTORES: bit 2 -> 0x800 */

    /* The Pentium 4 monitoring study, section 9.2: user mode on both threads. */
    enc = encode("netburst::memory_loads:u=1", &HT);
    assert_int_equal(enc.escr, 0x10000205ull);
    assert_int_equal(enc.upstream[0].escr, 0x04000405ull);
}

static void test_metric_execution(void **state)
{
    (void)state;
    struct event_spec spec = parse_ok("netburst::x87_FP_retired", &HT);
    assert_non_null(spec.nb.metric);
    assert_int_equal(spec.nb.metric->kind, NB_EXECUTION_TAGGING);
    assert_int_equal(spec.nb.event, event("execution_event"));

    struct nb_encoding enc = encode("netburst::x87_FP_retired", &HT);
    /* execution_event 0CH: 0x18000000 | NBOGUS0 0x200 | 0xf. */
    assert_int_equal(enc.escr, 0x1800020full);
    assert_int_equal(enc.cccr, CCCR_SEL5);
    assert_int_equal(enc.upstream[0].event, event("x87_FP_uop"));
    assert_int_equal(enc.upstream[0].escrs, E(FIRM0) | E(FIRM1));
    /* x87_FP_uop ALL, tag value 0001 (0x20), tag enable (0x10). */
    assert_int_equal(enc.upstream[0].escr, 0x0900003full);
    assert_false(enc.replay);

    /* The Pentium 4 monitoring study, section 9.3 (no HT, user mode): 0x18000204 and 0x09000034. */
    enc = encode("netburst::x87_FP_retired:u=1", &NOHT);
    assert_int_equal(enc.escr, 0x18000204ull);
    assert_int_equal(enc.cccr, CCCR_SEL5);
    assert_int_equal(enc.upstream[0].escr, 0x09000034ull);

    /* The other upstreams: packed_SP_uop 08H; x87_SIMD_moves_uop 2EH
     * (0x5c000000) with ALLP0|ALLP2 (bits 3, 4 -> 0x3000). */
    assert_int_equal(encode("netburst::packed_SP_retired", &HT).upstream[0].escr, 0x1100003full);
    assert_int_equal(encode("netburst::packed_DP_retired", &HT).upstream[0].escr, 0x1900003full);
    assert_int_equal(encode("netburst::scalar_SP_retired", &HT).upstream[0].escr, 0x1500003full);
    assert_int_equal(encode("netburst::scalar_DP_retired", &HT).upstream[0].escr, 0x1d00003full);
    assert_int_equal(encode("netburst::64_bit_MMX_retired", &HT).upstream[0].escr, 0x0500003full);
    assert_int_equal(encode("netburst::128_bit_MMX_retired", &HT).upstream[0].escr, 0x3500003full);
    assert_int_equal(encode("netburst::x87_SIMD_memory_moves_retired", &HT).upstream[0].escr,
                     0x5c00303full);
}

/* :tag=N on an execution-tagging metric chooses the tag: the upstream gets
 * tag value N and execution_event counts NBOGUSn for its tag bit n (the Pentium
 * 4 monitoring study, section 9.3: NBOGUS0 is right only for tag 0001).  The counting
 * ESCR (execution_event) is not an upstream event and must get no tag bits;
 * the other metric kinds have no tag to choose. */
static void test_metric_tag_choice(void **state)
{
    (void)state;
    struct nb_encoding enc = encode("netburst::x87_FP_retired:tag=2", &HT);
    assert_int_equal(enc.upstream[0].escr, 0x0900005full); /* tag value 0010 */
    assert_int_equal(enc.escr, 0x1800040full);          /* NBOGUS1, no tag bits */

    struct event_spec spec;
    char error[512];
    assert_false(event_spec_parse("netburst::memory_loads:tag=1", &HT, &spec, error,
                                  sizeof error));
    assert_false(event_spec_parse("netburst::1stL_cache_load_miss_retired:tag=1", &HT, &spec,
                                  error, sizeof error));
}

static void check_replay(const char *text, uint32_t pebs_enable, uint32_t matrix_vert)
{
    struct nb_encoding enc = encode(text, &HT);
    assert_true(enc.replay);
    /* replay_event 09H: 0x12000000 | NBOGUS 0x200 | 0xf. */
    assert_int_equal(enc.escr, 0x1200020full);
    assert_int_equal(enc.cccr, CCCR_SEL5);
    assert_int_equal(enc.pebs_enable, pebs_enable);
    assert_int_equal(enc.matrix_vert, matrix_vert);
}

static void test_metric_replay(void **state)
{
    (void)state;
    struct event_spec spec = parse_ok("netburst::1stL_cache_load_miss_retired", &HT);
    assert_non_null(spec.nb.metric);
    assert_int_equal(spec.nb.metric->kind, NB_REPLAY_TAGGING);
    assert_int_equal(spec.nb.event, event("replay_event"));
    assert_int_equal(spec.nb.mask, 0x1);

    /* SDM replay-tagging table: metric bits, bit 24 (UOP_TAG); bit 25 only
     * with :pebs. */
    check_replay("netburst::1stL_cache_load_miss_retired", 0x01000001, 0x1);
    check_replay("netburst::2ndL_cache_load_miss_retired", 0x01000002, 0x1);
    check_replay("netburst::DTLB_load_miss_retired", 0x01000004, 0x1);
    check_replay("netburst::DTLB_store_miss_retired", 0x01000004, 0x2);
    check_replay("netburst::DTLB_all_miss_retired", 0x01000004, 0x3);
    check_replay("netburst::Tagged_mispred_branch", 0x01018000, 0x10);
    check_replay("netburst::MOB_load_replay_retired", 0x01000200, 0x1);
    check_replay("netburst::split_load_retired", 0x01000400, 0x1);
    check_replay("netburst::split_store_retired", 0x01000400, 0x2);

    struct nb_encoding enc = encode("netburst::1stL_cache_load_miss_retired", &HT);
    assert_int_equal(enc.n_upstreams, 0);
    assert_int_equal(enc.counters, IQ_COUNTERS);

    /* Upstreams: MOB_load_replay 03H with PARTIAL_DATA|UNALGN_ADDR (bits
     * 4, 5 -> 0x6000); load_port_replay 04H SPLIT_LD (bit 1 -> 0x400) on
     * SAAT_ESCR1 only; store_port_replay 05H SPLIT_ST on SAAT_ESCR0 only. */
    enc = encode("netburst::MOB_load_replay_retired", &HT);
    assert_int_equal(enc.upstream[0].event, event("MOB_load_replay"));
    assert_int_equal(enc.upstream[0].escrs, E(MOB0) | E(MOB1));
    assert_int_equal(enc.upstream[0].escr, 0x0600600full);
    enc = encode("netburst::split_load_retired", &HT);
    assert_int_equal(enc.upstream[0].escrs, E(SAAT1));
    assert_int_equal(enc.upstream[0].escr, 0x0800040full);
    enc = encode("netburst::split_store_retired", &HT);
    assert_int_equal(enc.upstream[0].escrs, E(SAAT0));
    assert_int_equal(enc.upstream[0].escr, 0x0a00040full);

    /* The Pentium 4 monitoring study, section 9.4: thread 0, both levels: 0x1200020C. */
    enc = encode("netburst::1stL_cache_load_miss_retired:t0", &HT);
    assert_int_equal(enc.escr, 0x1200020cull);
    assert_int_equal(enc.cccr, CCCR_SEL5);
}

/* One replay metric's registers in full. */
static void check_replay_upstream(const struct nb_encoding *enc, int n, const char *event_name,
                                  uint64_t escrs, uint64_t escr)
{
    assert_true(n < enc->n_upstreams);
    assert_int_equal(enc->upstream[n].event, event(event_name));
    assert_int_equal(enc->upstream[n].escrs, escrs);
    assert_int_equal(enc->upstream[n].escr, escr);
}

/* libpfm4's replay_event pseudo sub-events: each asks for the replay
 * metric it names (the SDM's replay-tagging table), replay_event NBOGUS
 * when no NBOGUS or BOGUS is given; libpfm4 encodes only the mask, and
 * leaves it empty. */
static void test_libpfm4_replay_subevents(void **state)
{
    (void)state;
    check_replay("netburst::replay_event:L1_LD_MISS", 0x01000001, 0x1);
    check_replay("netburst::replay_event:L2_LD_MISS", 0x01000002, 0x1);
    check_replay("netburst::replay_event:DTLB_LD_MISS", 0x01000004, 0x1);
    check_replay("netburst::replay_event:DTLB_ST_MISS", 0x01000004, 0x2);
    check_replay("netburst::replay_event:DTLB_ALL_MISS", 0x01000004, 0x3);
    check_replay("netburst::replay_event:BR_MSP", 0x01018000, 0x10);
    check_replay("netburst::replay_event:MOB_LD_REPLAY", 0x01000200, 0x1);
    check_replay("netburst::replay_event:SP_LD_RET", 0x01000400, 0x1);
    check_replay("netburst::replay_event:SP_ST_RET", 0x01000400, 0x2);
    check_replay("netburst::replay_event:l1_ld_miss", 0x01000001, 0x1);
    check_replay("NETBURST::REPLAY_EVENT:Br_Msp", 0x01018000, 0x10);

    struct nb_encoding enc = encode("netburst::replay_event:L1_LD_MISS", &HT);
    assert_int_equal(enc.n_upstreams, 0);
    assert_int_equal(enc.escrs, E(CRU2) | E(CRU3));
    assert_int_equal(enc.counters, IQ_COUNTERS);
    /* The upstreams, as the metrics' (test_metric_replay). */
    enc = encode("netburst::replay_event:MOB_LD_REPLAY", &HT);
    assert_int_equal(enc.n_upstreams, 1);
    check_replay_upstream(&enc, 0, "MOB_load_replay", E(MOB0) | E(MOB1), 0x0600600full);
    enc = encode("netburst::replay_event:SP_LD_RET", &HT);
    assert_int_equal(enc.n_upstreams, 1);
    check_replay_upstream(&enc, 0, "load_port_replay", E(SAAT1), 0x0800040full);
    enc = encode("netburst::replay_event:SP_ST_RET", &HT);
    assert_int_equal(enc.n_upstreams, 1);
    check_replay_upstream(&enc, 0, "store_port_replay", E(SAAT0), 0x0a00040full);

    /* Each is its metric, register for register. */
    int n = 0;
    for (int m = 0; m < nb_num_metrics; m++) {
        const struct nb_metric *metric = &nb_metrics[m];
        if (!metric->libpfm4_name)
            continue;
        char ours[128], theirs[128];
        snprintf(ours, sizeof ours, "netburst::%s", metric->name);
        snprintf(theirs, sizeof theirs, "netburst::replay_event:%s", metric->libpfm4_name);
        struct nb_encoding a = encode(ours, &HT), b = encode(theirs, &HT);
        assert_int_equal(a.escr, b.escr);
        assert_int_equal(a.cccr, b.cccr);
        assert_int_equal(a.pebs_enable, b.pebs_enable);
        assert_int_equal(a.matrix_vert, b.matrix_vert);
        assert_int_equal(a.n_upstreams, b.n_upstreams);
        for (int u = 0; u < a.n_upstreams; u++)
            assert_int_equal(a.upstream[u].escr, b.upstream[u].escr);
        struct event_spec spec = parse_ok(theirs, &HT);
        assert_ptr_equal(spec.nb.metric, metric);
        assert_int_equal(spec.nb.metrics, 1u << m);
        n++;
    }
    assert_int_equal(n, 9);

    /* With BOGUS, NBOGUS or both, the mask is theirs: BOGUS 0x400. */
    enc = encode("netburst::replay_event:BOGUS:L1_LD_MISS", &HT);
    assert_int_equal(enc.escr, 0x1200040full);
    assert_int_equal(enc.pebs_enable, 0x01000001u);
    assert_int_equal(encode("netburst::replay_event:L1_LD_MISS:NBOGUS", &HT).escr, 0x1200020full);
    assert_int_equal(encode("netburst::replay_event:NBOGUS:BOGUS:L2_LD_MISS", &HT).escr,
                     0x1200060full);
    /* Modifiers as on any event: user mode on thread 0 (0x4). */
    enc = encode("netburst::replay_event:L1_LD_MISS:u=1:t0", &HT);
    assert_int_equal(enc.escr, 0x12000204ull);
    assert_int_equal(enc.pebs_enable, 0x01000001u);

    /* Several: their MSR bits together (the SDM's matrix: uop types in
     * MATRIX_VERT, causes in PEBS_ENABLE) and every upstream. */
    check_replay("netburst::replay_event:L1_LD_MISS:L2_LD_MISS", 0x01000003, 0x1);
    check_replay("netburst::replay_event:DTLB_LD_MISS:DTLB_ST_MISS", 0x01000004, 0x3);
    enc = encode("netburst::replay_event:SP_ST_RET:SP_LD_RET:MOB_LD_REPLAY", &HT);
    assert_int_equal(enc.pebs_enable, 0x01000600u);
    assert_int_equal(enc.matrix_vert, 0x3u);
    assert_int_equal(enc.n_upstreams, 3);
    check_replay_upstream(&enc, 0, "MOB_load_replay", E(MOB0) | E(MOB1), 0x0600600full);
    check_replay_upstream(&enc, 1, "load_port_replay", E(SAAT1), 0x0800040full);
    check_replay_upstream(&enc, 2, "store_port_replay", E(SAAT0), 0x0a00040full);
    struct event_spec spec = parse_ok("netburst::replay_event:BR_MSP:L1_LD_MISS", &HT);
    assert_ptr_equal(spec.nb.metric, nb_metric_find("Tagged_mispred_branch"));

    /* :pebs adds ENABLE_PEBS (bit 25) and IQ_COUNTER4. */
    enc = encode("netburst::replay_event:L1_LD_MISS:pebs", &HT);
    assert_int_equal(enc.pebs_enable, 0x03000001u);
    assert_int_equal(enc.counters, 1u << 16);

    /* Pseudo sub-events belong to replay_event, not to a metric by name. */
    parse_error("netburst::1stL_cache_load_miss_retired:L2_LD_MISS", &HT,
                "netburst::1stL_cache_load_miss_retired:L2_LD_MISS: unknown modifier "
                "'L2_LD_MISS' (valid: k, u, e, cmpl, thr, t0, t1, at, ovf_pmi, force_ovf, tag, "
                "pebs)");
    parse_error("netburst::front_end_event:L1_LD_MISS", &HT,
                "netburst::front_end_event:L1_LD_MISS: unknown sub-event or modifier "
                "'L1_LD_MISS' of front_end_event (sub-events: NBOGUS, BOGUS; modifiers: k, u, e, "
                "cmpl, thr, t0, t1, at, ovf_pmi, force_ovf, tag, pebs)");
}

static void test_metric_pebs(void **state)
{
    (void)state;
    struct nb_encoding enc = encode("netburst::1stL_cache_load_miss_retired:pebs", &HT);
    assert_int_equal(enc.pebs_enable, 0x03000001u); /* + bit 25 */
    assert_int_equal(enc.matrix_vert, 0x1u);
    assert_int_equal(enc.counters, 1u << 16); /* IQ_COUNTER4 only */
    assert_true(enc.escrs & E(CRU2));          /* which feeds counter 16 */
    assert_int_equal(enc.escr, 0x1200020full);
    assert_int_equal(enc.cccr, CCCR_SEL5);
    enc = encode("netburst::1stL_cache_load_miss_retired:pebs=0", &HT);
    assert_int_equal(enc.pebs_enable, 0x01000001u);
    assert_int_equal(enc.counters, IQ_COUNTERS);

    parse_error("netburst::replay_event:NBOGUS:pebs", &HT,
                "netburst::replay_event:NBOGUS:pebs: ':pebs' applies to the replay-tagging "
                "metrics (e.g. 1stL_cache_load_miss_retired)");
    parse_error("netburst::x87_FP_retired:pebs", &HT,
                "netburst::x87_FP_retired:pebs: ':pebs' applies to the replay-tagging metrics "
                "(e.g. 1stL_cache_load_miss_retired)");
    parse_error("netburst::memory_loads:FOO", &HT,
                "netburst::memory_loads:FOO: unknown modifier 'FOO' (valid: k, u, e, cmpl, thr, "
                "t0, t1, at, ovf_pmi, force_ovf, tag, pebs)");
}

/* ---- Hyper-Threading off, models */

static void test_ht_off(void **state)
{
    (void)state;
    /* No thread 1: its T bits are dropped from the default. */
    check_values("netburst::branch_retired:MMTP", &NOHT, BR_MMTP(0xc), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:t0", &NOHT, BR_MMTP(0xc), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:u=1", &NOHT, BR_MMTP(0x4), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:at=any", &NOHT, BR_MMTP(0xc), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:ovf_pmi=t0", &NOHT, BR_MMTP(0xc), 0x0403b000ull);
    struct nb_encoding enc = encode("netburst::x87_FP_retired", &NOHT);
    assert_int_equal(enc.escr, 0x1800020cull);
    assert_int_equal(enc.upstream[0].escr, 0x0900003cull);

    parse_error("netburst::branch_retired:MMTP:t1", &NOHT,
                "netburst::branch_retired:MMTP:t1: ':t1' needs Hyper-Threading (this model runs "
                "with ht=off)");
    parse_error("netburst::branch_retired:MMTP:at=single", &NOHT,
                "netburst::branch_retired:MMTP:at=single: ':at' must be 'any' without "
                "Hyper-Threading");
    parse_error("netburst::branch_retired:MMTP:at=none", &NOHT,
                "netburst::branch_retired:MMTP:at=none: ':at' must be 'any' without "
                "Hyper-Threading");
    parse_error("netburst::branch_retired:MMTP:ovf_pmi=t1", &NOHT,
                "netburst::branch_retired:MMTP:ovf_pmi=t1: ':ovf_pmi' can only name t0 without "
                "Hyper-Threading");
    parse_error("netburst::branch_retired:MMTP:ovf_pmi=both", &NOHT,
                "netburst::branch_retired:MMTP:ovf_pmi=both: ':ovf_pmi' can only name t0 "
                "without Hyper-Threading");
}

/* The model a command's strings choose (event_spec_cpuid_model), the prefix
 * naming each model (nb_cpuid_model_prefix), and `pmubench encode STRING`'s way
 * with no options: NB_CONFIG_DEFAULT, then event_spec_cpuid_model. */
static void test_prefix_chooses_model(void **state)
{
    (void)state;
    const char *plain[] = {"netburst::uops_retired:NBOGUS", "p5::data_read", "uops_retired"};
    const char *mixed[] = {"netburst::uops_retired:NBOGUS", "netburst_p::instr_completed:NBOGUS"};
    const char *upper[] = {"NETBURST_P::instr_completed:NBOGUS"};
    assert_int_equal(event_spec_cpuid_model(NB_CPUID_MODEL_UNSET, NULL, 0), 2);
    assert_int_equal(event_spec_cpuid_model(NB_CPUID_MODEL_UNSET, plain, 3), 2);
    assert_int_equal(event_spec_cpuid_model(NB_CPUID_MODEL_UNSET, mixed, 2), 3);
    assert_int_equal(event_spec_cpuid_model(NB_CPUID_MODEL_UNSET, upper, 1), 3);
    /* A given model stays; the parser judges a conflict. */
    assert_int_equal(event_spec_cpuid_model(6, mixed, 2), 6);
    assert_int_equal(event_spec_cpuid_model(0, mixed, 2), 0);

    struct nb_pmu_config config = NB_CONFIG_DEFAULT;
    assert_int_equal(config.model, NB_CPUID_MODEL_UNSET);
    assert_true(config.ht);
    config.model = event_spec_cpuid_model(config.model, &mixed[1], 1);
    check_values("netburst_p::instr_completed:NBOGUS", &config, 0x0e00020full, CCCR_SEL4);
    /* netburst:: strings count on the Prescott alongside. */
    check_values("netburst::branch_retired:MMTP", &config, BR_MMTP(0xf), CCCR_SEL5);

    /* The model must be chosen first. */
    parse_error("netburst::branch_retired:MMTP", &NB_CONFIG_DEFAULT,
                "netburst::branch_retired:MMTP: no NetBurst model (-1) to parse it for: "
                "event_spec_cpuid_model chooses one");
    /* A given model that is not netburst_p's. */
    parse_error("netburst_p::instr_completed:NBOGUS", &HT,
                "netburst_p::instr_completed:NBOGUS: netburst_p:: names models 3, 4, 6; it "
                "conflicts with model 2");

    static const char *const prefixes[] = {"netburst::", "netburst::", "netburst::",
                                           "netburst_p::", "netburst_p::", "netburst::",
                                           "netburst_p::"};
    for (int model = 0; model <= 6; model++)
        assert_string_equal(nb_cpuid_model_prefix(model), prefixes[model]);
    assert_string_equal(nb_cpuid_model_prefix(NB_CPUID_MODEL_UNSET), "netburst::");
}

static void test_models(void **state)
{
    (void)state;
    for (int model = 0; model <= 2; model++) {
        struct nb_pmu_config config = {.model = model, .ht = true};
        char want[200];
        snprintf(want, sizeof want,
                 "netburst::instr_completed:NBOGUS: event instr_completed does not exist on "
                 "model %d (it needs netburst_p: models 3, 4, 6)",
                 model);
        parse_error("netburst::instr_completed:NBOGUS", &config, want);
        snprintf(want, sizeof want,
                 "netburst_p::branch_retired:MMTP: netburst_p:: names models 3, 4, 6; it "
                 "conflicts with model %d",
                 model);
        parse_error("netburst_p::branch_retired:MMTP", &config, want);
    }
    /* instr_completed 07H on CRU_ESCR0/1 (select 4): 0x0e000000 | 0x200 | 0xf. */
    for (int model = 3; model <= 6; model++) {
        if (model == 5)
            continue;
        struct nb_pmu_config config = {.model = model, .ht = true};
        check_values("netburst_p::instr_completed:NBOGUS", &config, 0x0e00020full, CCCR_SEL4);
        check_values("netburst_p::instr_completed:BOGUS", &config, 0x0e00040full, CCCR_SEL4);
        check_values("netburst_p::branch_retired:MMTP", &config, BR_MMTP(0xf), CCCR_SEL5);
    }
    check_values("netburst_p::instr_completed:NBOGUS:u=1:t0", &M3, 0x0e000204ull, CCCR_SEL4);
}

/* ---- P5 */

static uint32_t p5_half(const char *text)
{
    struct event_spec spec = parse_ok(text, &HT);
    assert_int_equal(spec.pmu, PMU_P5);
    return p5_encode_half(&spec.p5);
}

static void test_p5(void **state)
{
    (void)state;
    /* CC: 001 CPL 0-2 (k), 010 CPL 3 (u), 011 both, 1xx clocks. */
    assert_int_equal(p5_half("p5::data_read:u"), 0x080);
    assert_int_equal(p5_half("p5::data_read:k"), 0x040);
    assert_int_equal(p5_half("p5::data_read"), 0x0c0);
    assert_int_equal(p5_half("p5::data_read_miss:k"), 0x043);
    assert_int_equal(p5_half("p5::data_read_miss:u:k"), 0x0c3);
    assert_int_equal(p5_half("p5::data_read_miss:k:u"), 0x0c3);
    assert_int_equal(p5_half("p5::flops"), 0x0e2);
    assert_int_equal(p5_half("p5::hardware_interrupts:u"), 0x0a7);
    assert_int_equal(p5_half("p5::DATA_READ_MISS"), 0x0c3);
    assert_int_equal(p5_half("p5::clocks"), 0x1c0);
    assert_int_equal(p5_half("p5::clocks:k"), 0x140);
    assert_int_equal(p5_half("p5::clocks:u"), 0x180);

    /* Both counters' CESR values of a P5 event; none for a NetBurst one. */
    uint64_t cesr[2] = {0, 0};
    struct event_spec miss = parse_ok("p5::data_read_miss:k", &HT);
    assert_true(event_spec_cesr(&miss, cesr));
    assert_int_equal(cesr[0], 0x043);
    assert_int_equal(cesr[1], 0x0430000);
    struct event_spec uops = parse_ok("netburst::uops_retired:NBOGUS", &HT);
    assert_false(event_spec_cesr(&uops, cesr));

    struct event_spec spec = parse_ok("p5::data_read_miss:u", &HT);
    assert_int_equal(spec.p5.code, 0x03);
    assert_false(spec.p5.clocks);
    assert_true(spec.p5.usr);
    assert_false(spec.p5.os);
    spec = parse_ok("p5::clocks", &HT);
    assert_true(spec.p5.clocks && spec.p5.os && spec.p5.usr);

    /* p5_encode_half directly: the clocks bit ignores the code. */
    struct p5_event_spec p5 = {.code = 0x16, .os = true};
    assert_int_equal(p5_encode_half(&p5), 0x056);
    p5 = (struct p5_event_spec){.code = 0x3f, .usr = true};
    assert_int_equal(p5_encode_half(&p5), 0x0bf);
    p5 = (struct p5_event_spec){.code = 0x16, .clocks = true, .os = true, .usr = true};
    assert_int_equal(p5_encode_half(&p5), 0x1c0);
    p5 = (struct p5_event_spec){0};
    assert_int_equal(p5_encode_half(&p5), 0);

    parse_error("p5::nope", &HT,
                "p5::nope: unknown P5 event 'nope' ('pmubench list p5' shows the events; "
                "p5::clocks counts clocks)");
    parse_error("p5::data_red", &HT,
                "p5::data_red: unknown P5 event 'data_red' (did you mean 'data_read'?)");
    parse_error("p5::clock", &HT, "p5::clock: unknown P5 event 'clock' (did you mean 'clocks'?)");
    parse_error("p5::flops:x", &HT, "p5::flops:x: unknown P5 modifier 'x' (valid: u, k)");
    parse_error("p5::flops:u=1", &HT, "p5::flops:u=1: unknown P5 modifier 'u=1' (valid: u, k)");
}

/* ---- errors */

static void test_errors(void **state)
{
    (void)state;
    parse_error("netburst::nope", &HT,
                "netburst::nope: unknown NetBurst event 'nope' ('pmubench list netburst' shows "
                "the events and tagging metrics)");
    parse_error("netburst::branch_retird:MMTP", &HT,
                "netburst::branch_retird:MMTP: unknown NetBurst event 'branch_retird' (did you "
                "mean 'branch_retired'?)");
    parse_error("netburst::1stL_cache_load_miss_retird", &HT,
                "netburst::1stL_cache_load_miss_retird: unknown NetBurst event "
                "'1stL_cache_load_miss_retird' (did you mean '1stL_cache_load_miss_retired'?)");
    parse_error("netbrust::branch_retired:MMTP", &HT,
                "netbrust::branch_retired:MMTP: unknown PMU 'netbrust' (did you mean "
                "'netburst'?)");
    parse_error("netburst::branch_retired:MMTP:cmp", &HT,
                "netburst::branch_retired:MMTP:cmp: unknown sub-event or modifier 'cmp' of "
                "branch_retired (did you mean 'cmpl'?)");
    parse_error("netburst::", &HT,
                "netburst::: unknown NetBurst event '' ('pmubench list netburst' shows the "
                "events and tagging metrics)");
    parse_error("netburst::branch_retired:FOO", &HT,
                "netburst::branch_retired:FOO: unknown sub-event or modifier 'FOO' of "
                "branch_retired (sub-events: MMNP, MMNM, MMTP, MMTM; modifiers: k, u, e, cmpl, "
                "thr, t0, t1, at, ovf_pmi, force_ovf, tag, pebs)");
    parse_error("netburst::uop_type:NBOGUS", &HT,
                "netburst::uop_type:NBOGUS: unknown sub-event or modifier 'NBOGUS' of uop_type "
                "(sub-events: TAGLOADS, TAGSTORES; modifiers: k, u, e, cmpl, thr, t0, t1, at, "
                "ovf_pmi, force_ovf, tag, pebs)");
    parse_error("netburst::branch_retired:MMTP:k=2", &HT,
                "netburst::branch_retired:MMTP:k=2: bad value in 'k=2' (expected 0, 1, y, n, t or f)");
    parse_error("netburst::branch_retired:MMTP:u=yes", &HT,
                "netburst::branch_retired:MMTP:u=yes: bad value in 'u=yes' (expected 0, 1, y, n, t or f)");
    parse_error("netburst::branch_retired:MMTP:e=", &HT,
                "netburst::branch_retired:MMTP:e=: bad value in 'e=' (expected 0, 1, y, n, t or f)");
    parse_error("netburst::branch_retired:MMTP:thr=16", &HT,
                "netburst::branch_retired:MMTP:thr=16: bad thr '16' (expected a number: decimal "
                "or 0x hex, 0 to 15)");
    parse_error("netburst::branch_retired:MMTP:thr=", &HT,
                "netburst::branch_retired:MMTP:thr=: bad thr '' (expected a number: decimal or "
                "0x hex, 0 to 15)");
    parse_error("netburst::branch_retired:MMTP:thr", &HT,
                "netburst::branch_retired:MMTP:thr: bad thr '' (expected a number: decimal or 0x "
                "hex, 0 to 15)");
    parse_error("netburst::branch_retired:MMTP:thr=2x", &HT,
                "netburst::branch_retired:MMTP:thr=2x: bad thr '2x' (expected a number: decimal "
                "or 0x hex, 0 to 15)");
    /* numbers as everywhere (util/number.h): no octal, no sign */
    parse_error("netburst::branch_retired:MMTP:thr=010", &HT,
                "netburst::branch_retired:MMTP:thr=010: bad thr '010' (expected a number: "
                "decimal or 0x hex, 0 to 15)");
    parse_error("netburst::branch_retired:MMTP:thr=+5", &HT,
                "netburst::branch_retired:MMTP:thr=+5: bad thr '+5' (expected a number: decimal "
                "or 0x hex, 0 to 15)");
    parse_error("netburst::x87_FP_uop:tag=16", &HT,
                "netburst::x87_FP_uop:tag=16: bad tag '16' (expected a number: decimal or 0x hex, "
                "0 to 15)");
    parse_error("netburst::branch_retired:MMTP:at=foo", &HT,
                "netburst::branch_retired:MMTP:at=foo: bad value in 'at=foo' (expected one of none, "
                "single, both, any)");
    parse_error("netburst::branch_retired:MMTP:at", &HT,
                "netburst::branch_retired:MMTP:at: bad value in 'at' (expected one of none, "
                "single, both, any)");
    parse_error("netburst::branch_retired:MMTP:ovf_pmi=t2", &HT,
                "netburst::branch_retired:MMTP:ovf_pmi=t2: bad value in 'ovf_pmi=t2' (expected one "
                "of t0, t1, both)");
    /* Empty fields: a doubled ':' and a trailing one. */
    parse_error("netburst::branch_retired::MMTP", &HT,
                "netburst::branch_retired::MMTP: empty field between ':' separators");
    parse_error("netburst::branch_retired:MMTP:", &HT,
                "netburst::branch_retired:MMTP:: empty field between ':' separators");
    parse_error("netburst::branch_retired:MMTP::u", &HT,
                "netburst::branch_retired:MMTP::u: empty field between ':' separators");
    parse_error("perf::cycles", &HT,
                "perf::cycles: unknown PMU 'perf' (expected netburst, netburst_p or p5)");
    parse_error("::branch_retired:MMTP", &HT,
                "::branch_retired:MMTP: unknown PMU '' (expected netburst, netburst_p or p5)");
}

/* A modifier given twice, in any spelling, is an error: libpfm4 rejects k=1:k=0 and thr=3:thr=5 ("attribute value already
 * set"); pmubench also a repeat of the same value.  libpfm4 accepts a
 * sub-event given twice (branch_retired:MMTP:MMTP), and so does pmubench. */
static void test_repeated_modifiers(void **state)
{
    (void)state;
    /* libpfm4's rule: a modifier given again with another value is an
     * error ("attribute value already set"), with the same value it is
     * not (any spelling: k:K, thr=3:thr=0x3, u=1:U=y). */
    const char *again = "sets modifier '%s' again to another value (each modifier once)";
    static const struct {
        const char *text, *token, *name;
    } bad[] = {
        {"netburst::branch_retired:MMTP:k=1:k=0", "k=0", "k"},
        {"netburst::branch_retired:MMTP:thr=3:thr=5", "thr=5", "thr"},
        {"netburst::branch_retired:MMTP:cmpl=0:CMPL=1", "CMPL=1", "cmpl"},
        {"netburst::branch_retired:MMTP:u:e:U=n", "U=n", "u"},
        {"netburst::branch_retired:MMTP:t0:T0=0", "T0=0", "t0"},
        {"netburst::branch_retired:MMTP:t1=0:t1", "t1", "t1"},
        {"netburst::branch_retired:MMTP:at=single:at=any", "at=any", "at"},
        {"netburst::branch_retired:MMTP:ovf_pmi=t0:ovf_pmi=t1", "ovf_pmi=t1", "ovf_pmi"},
        {"netburst::branch_retired:MMTP:force_ovf:FORCE_OVF=0", "FORCE_OVF=0", "force_ovf"},
        {"netburst::x87_FP_uop:ALL:tag=1:tag=2", "tag=2", "tag"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char message[512], detail[256];
        snprintf(detail, sizeof detail, again, bad[i].name);
        snprintf(message, sizeof message, "%s: '%s' %s", bad[i].text, bad[i].token, detail);
        parse_error(bad[i].text, &HT, message);
    }
    /* The same value again: the string means what it means without it. */
    static const struct {
        const char *repeated, *once;
    } same[] = {
        {"netburst::branch_retired:MMTP:k:K", "netburst::branch_retired:MMTP:k"},
        {"netburst::branch_retired:MMTP:k=1:k=1", "netburst::branch_retired:MMTP:k=1"},
        {"netburst::branch_retired:MMTP:thr=3:thr=0x3", "netburst::branch_retired:MMTP:thr=3"},
        {"netburst::branch_retired:MMTP:u=1:e:U=y", "netburst::branch_retired:MMTP:u=1:e"},
        {"netburst::branch_retired:MMTP:e:e", "netburst::branch_retired:MMTP:e"},
        {"netburst::branch_retired:MMTP:t0:t1:t0", "netburst::branch_retired:MMTP:t0:t1"},
        {"netburst::branch_retired:MMTP:at=both:AT=BOTH", "netburst::branch_retired:MMTP:at=both"},
        {"netburst::1stL_cache_load_miss_retired:pebs:pebs",
         "netburst::1stL_cache_load_miss_retired:pebs"},
        {"p5::data_read:u:u", "p5::data_read:u"},
        {"p5::clocks:k:u:K", "p5::clocks:k:u"},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        struct event_spec a, b;
        char error[512];
        if (!event_spec_parse(same[i].repeated, &HT, &a, error, sizeof error))
            fail_msg("%s", error);
        if (!event_spec_parse(same[i].once, &HT, &b, error, sizeof error))
            fail_msg("%s", error);
        assert_memory_equal(&a, &b, sizeof a);
    }
    /* :tag= and libpfm4's TAGn pseudo sub-events both set the tag value. */
    parse_error("netburst::x87_FP_uop:ALL:TAG0:tag=2", &HT,
                "netburst::x87_FP_uop:ALL:TAG0:tag=2: ':tag' and libpfm4's TAG0-TAG3 both set "
                "the tag value (give one of them)");
    parse_error("netburst::x87_FP_uop:ALL:tag=2:TAG0", &HT,
                "netburst::x87_FP_uop:ALL:tag=2:TAG0: ':tag' and libpfm4's TAG0-TAG3 both set "
                "the tag value (give one of them)");
    /* Sub-events given twice are libpfm4's too: the same mask. */
    check_values("netburst::branch_retired:MMTP:MMTP", &HT, BR_MMTP(0xf), CCCR_SEL5);
    check_values("netburst::branch_retired:MMTP:mmtp:k", &HT, BR_MMTP(0xa), CCCR_SEL5);
    /* TAG0 twice sets the same bit (libpfm4 gives 0x900003f). */
    check_values("netburst::x87_FP_uop:ALL:TAG0:TAG0", &HT, 0x0900003full, CCCR_SEL1);
}

/* A string too long for the parser: one line that says so.  With the
 * CLI's 512-byte buffer the reason must not be cut off by the echoed
 * string. */
/* One string can name every replay metric (libpfm4's pseudo sub-events
 * together), so the encoding must hold all their upstream events: the
 * encoder keeps at most NB_MAX_UPSTREAMS. */
static void test_prefix(void **state)
{
    (void)state;
    enum pmu_kind pmu = PMU_NETBURST;
    const char *rest = NULL;
    const char *text = "P5::data_read:u";
    assert_true(event_spec_prefix(text, &pmu, &rest));
    assert_int_equal(pmu, PMU_P5);
    assert_ptr_equal(rest, text + 4);
    text = "netburst_p::instr_completed:NBOGUS";
    assert_true(event_spec_prefix(text, &pmu, &rest));
    assert_int_equal(pmu, PMU_NETBURST);
    assert_string_equal(rest, "instr_completed:NBOGUS");
    assert_true(event_spec_prefix("NETBURST::uop_type", &pmu, &rest));
    assert_string_equal(rest, "uop_type");
    text = "branches";
    assert_false(event_spec_prefix(text, &pmu, &rest));
    assert_ptr_equal(rest, text);
    assert_false(event_spec_prefix("netburst:branch_retired", &pmu, &rest));
}

static void test_upstreams_fit(void **state)
{
    (void)state;
    int with_upstream = 0;
    for (int m = 0; m < nb_num_metrics; m++)
        if (nb_metrics[m].kind == NB_REPLAY_TAGGING &&
            nb_metrics[m].upstream_event != NB_NO_UPSTREAM)
            with_upstream++;
    assert_int_equal(with_upstream, NB_MAX_UPSTREAMS);
}

static void test_too_long(void **state)
{
    (void)state;
    char text[700];
    memcpy(text, "netburst::", 10);
    memset(text + 10, 'a', sizeof text - 11);
    text[sizeof text - 1] = '\0';
    struct event_spec spec;
    char error[512];
    assert_false(event_spec_parse(text, &HT, &spec, error, sizeof error));
    assert_null(strchr(error, '\n'));
    const char *reason = "event string longer than 511 characters";
    size_t n = strlen(error), r = strlen(reason);
    if (n < r || strcmp(error + n - r, reason) != 0)
        print_error("error does not end with the reason: '%s'\n", error);
    assert_true(n >= r && strcmp(error + n - r, reason) == 0);

    /* Exactly 511 characters parse (as an unknown event); 512 do not. */
    char big[600];
    char want[700];
    memcpy(big, "netburst::", 10);
    memset(big + 10, 'b', 501);
    big[511] = '\0';
    assert_false(event_spec_parse(big, &HT, &spec, error, sizeof error));
    assert_null(strstr(error, "longer than"));
    big[511] = 'b';
    big[512] = '\0';
    assert_false(event_spec_parse(big, &HT, &spec, want, sizeof want));
    assert_non_null(strstr(want, "event string longer than 511 characters"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_pmu_name_case),
        cmocka_unit_test(test_privilege_levels),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_compare_modifiers),
        cmocka_unit_test(test_cccr_extensions),
        cmocka_unit_test(test_single_subevent_default),
        cmocka_unit_test(test_libpfm4_aliases),
        cmocka_unit_test(test_libpfm4_subevent_names),
        cmocka_unit_test(test_libpfm4_modifier_spellings),
        cmocka_unit_test(test_tag_modifier),
        cmocka_unit_test(test_metric_front_end),
        cmocka_unit_test(test_metric_execution),
        cmocka_unit_test(test_metric_tag_choice),
        cmocka_unit_test(test_metric_replay),
        cmocka_unit_test(test_libpfm4_replay_subevents),
        cmocka_unit_test(test_metric_pebs),
        cmocka_unit_test(test_ht_off),
        cmocka_unit_test(test_prefix_chooses_model),
        cmocka_unit_test(test_models),
        cmocka_unit_test(test_p5),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_repeated_modifiers),
        cmocka_unit_test(test_prefix),
        cmocka_unit_test(test_upstreams_fit),
        cmocka_unit_test(test_too_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
