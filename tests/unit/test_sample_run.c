/* The sampling library (apps/sample/sample_run.h): every bad option,
 * event, trace and symbols file, each with its one line; PEBS records and
 * IEBS samples through the NetBurst model over hand-made traces, exact;
 * region gating; symbols and the load base found where the trace runs
 * this test's own entry point, and the histogram. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "isa/x86.h"
#include "model_trace.h"
#include "apps/sample/sample_run.h"
#include "traces/elf_symbols.h"

#define ADD_EAX_1 "\x83\xc0\x01", 3 /* 1 uop */
#define LOAD "\x8b\x06", 2          /* mov eax, [rsi]: 1 load uop */

static struct machine_config netburst(const char *name)
{
    struct machine_config model;
    char error[256];
    assert_true(machine_config_choose(name, &model, error, sizeof error));
    assert_true(machine_config_set(&model, "pmi_latency", "0", error, sizeof error));
    assert_true(machine_config_set(&model, "bus_ratio", "1", error, sizeof error));
    return model;
}

/* The samples a run reported, copied. */
struct collected {
    int n;
    struct sample sample[64];
    struct nb_pebs_record record[64];
    char symbol[64][64]; /* "" without one */
    uint64_t offset[64];
};

static void collect(void *context, const struct sample *sample)
{
    struct collected *c = context;
    assert_true(c->n < 64);
    c->sample[c->n] = *sample;
    if (sample->record)
        c->record[c->n] = *sample->record;
    snprintf(c->symbol[c->n], sizeof c->symbol[c->n], "%s",
             sample->symbol ? sample->symbol->name : "");
    c->offset[c->n] = sample->symbol ? sample->symbol->offset : 0;
    c->n++;
}

/* Plans, opens and runs; the totals. */
static struct sample_totals run(struct sample_session *s, const struct sample_options *o,
                                struct collected *c)
{
    char error[TRACE_MAX_TEXT + 1024];
    struct sample_totals totals = {0};
    if (!sample_plan(s, o, error, sizeof error) || !sample_open(s, error, sizeof error) ||
        !sample_run(s, collect, c, &totals, error, sizeof error))
        fail_msg("%s", error);
    return totals;
}

/* sample_plan's error for `o`, with errno EINVAL. */
static void plan_fails(const struct sample_options *o, const char *want)
{
    struct sample_session s;
    char error[1024];
    assert_false(sample_plan(&s, o, error, sizeof error));
    assert_int_equal(errno, EINVAL);
    assert_string_equal(error, want);
    sample_fini(&s);
}

/* sample_open's error for `o`, with errno `errnum`. */
static void open_fails(const struct sample_options *o, int errnum, const char *want)
{
    struct sample_session s;
    char error[TRACE_MAX_TEXT + 1024];
    assert_true(sample_plan(&s, o, error, sizeof error));
    assert_false(sample_open(&s, error, sizeof error));
    assert_int_equal(errno, errnum);
    assert_string_equal(error, want);
    sample_fini(&s);
}

/* Why sample_open left the addresses raw for `o`. */
static void opens_without_symbols(const struct sample_options *o, const char *why)
{
    struct sample_session s;
    char error[TRACE_MAX_TEXT + 1024];
    if (!sample_plan(&s, o, error, sizeof error) || !sample_open(&s, error, sizeof error))
        fail_msg("%s", error);
    assert_null(s.symbols_file);
    assert_string_equal(s.no_symbols_why, why);
    sample_fini(&s);
}

static struct sample_options iebs(const struct machine_config *model, const char *trace)
{
    return (struct sample_options){.model = model, .event = "instr_retired:NBOGUSNTAG",
                                   .period = 10, .region = REGION_WHOLE_TRACE, .trace = trace,
                                   .no_symbols = true};
}

/* `n` adds at 0x1000, 0x1003, ...; region 1 around adds [from, to). */
static void write_adds(struct tb *t, int n, int from, int to)
{
    for (int k = 0; k < n; k++) {
        if (k == from)
            assert_true(trace_write_region(t->writer, true, 1));
        if (k == to)
            assert_true(trace_write_region(t->writer, false, 1));
        tb_plain(t, 0x1000 + 3 * (uint64_t)k, ADD_EAX_1);
    }
}

/* ---- bad input */

static void test_bad_options(void **state)
{
    (void)state;
    struct machine_config model = netburst("netburst"), p5 = netburst("netburst");
    p5.pmu = PMU_P5;
    struct sample_options o = iebs(NULL, "t.trace");
    plan_fails(&o, "sampling needs a NetBurst model");
    o.model = &p5;
    plan_fails(&o, "sampling needs a NetBurst model");
    o = iebs(&model, "t.trace");
    o.event = NULL;
    plan_fails(&o, "no event");
    o.event = "";
    plan_fails(&o, "no event");
    o = iebs(&model, "t.trace");
    o.period = 0;
    plan_fails(&o, "period 0: expected 1 to 549755813888");
    o.period = SAMPLE_MAX_PERIOD + 1;
    plan_fails(&o, "period 549755813889: expected 1 to 549755813888");
    o = iebs(&model, "t.trace");
    o.region = -2;
    plan_fails(&o, "region -2: expected 0 to 4294967295, or REGION_WHOLE_TRACE");
    o.region = 4294967296;
    plan_fails(&o, "region 4294967296: expected 0 to 4294967295, or REGION_WHOLE_TRACE");
    o = iebs(&model, NULL);
    plan_fails(&o, "no trace");
    o = iebs(&model, "t.trace");
    o.symbols = "prog";
    plan_fails(&o, "a symbols file and no symbols: one or the other");
    o = iebs(&model, "t.trace");
    o.pebs_records = SAMPLE_MAX_PEBS_RECORDS + 1;
    plan_fails(&o, "PEBS buffer of 16777217 records: expected 1 to 16777216 (0: 1048576)");
}

/* An event too long for the text sample_plan makes of it (1023 bytes with
 * the modifiers it adds): an error, not a cut event. */
static void test_long_event(void **state)
{
    (void)state;
    struct machine_config model = netburst("netburst");
    char event[1100];
    memset(event, 'x', sizeof event - 1);
    event[sizeof event - 1] = '\0';
    struct sample_options o = iebs(&model, "t.trace");
    o.event = event;
    char want[256];
    snprintf(want, sizeof want,
             "%.64s...: event too long (%zu bytes with its modifiers, at most 1023)", event,
             strlen("netburst::") + strlen(event) + strlen(":ovf_pmi=t0"));
    plan_fails(&o, want);
    /* The longest that fits goes on to the event parser (which takes 511
     * characters at most). */
    size_t fits = 1023 - strlen("netburst::") - strlen(":ovf_pmi=t0");
    event[fits] = '\0';
    struct sample_session s;
    char error[1024];
    assert_false(sample_plan(&s, &o, error, sizeof error));
    assert_int_equal(errno, EINVAL);
    if (!strstr(error, ": event string longer than 511 characters"))
        fail_msg("%s", error);
    sample_fini(&s);
}

/* An unknown event, one of the P5, a PEBS metric that is not one: the
 * event parser's or the plan's line. */
static void test_bad_events(void **state)
{
    (void)state;
    struct machine_config model = netburst("netburst");
    struct sample_options o = iebs(&model, "t.trace");
    o.event = "bogus";
    plan_fails(&o, "netburst::bogus:ovf_pmi=t0: unknown NetBurst event 'bogus' ('pmubench list "
                   "netburst' shows the events and tagging metrics)");
    o.event = "p5::clocks";
    plan_fails(&o, "p5::clocks:ovf_pmi=t0: unknown P5 modifier 'ovf_pmi=t0' (valid: u, k)");
    o.event = "instr_retired:NBOGUSNTAG";
    o.pebs = true;
    plan_fails(&o, "netburst::instr_retired:NBOGUSNTAG:pebs:ovf_pmi=t0: ':pebs' applies to the "
                   "replay-tagging metrics (e.g. 1stL_cache_load_miss_retired)");
}

/* A trace that is missing, a directory, not a trace. */
static void test_bad_traces(void **state)
{
    (void)state;
    struct machine_config model = netburst("netburst");
    struct sample_options o = iebs(&model, "/nonexistent.trace");
    open_fails(&o, ENOENT, "/nonexistent.trace: cannot open: No such file or directory");
    o.trace = "/tmp";
    open_fails(&o, EISDIR, "/tmp: is a directory");
    o.trace = "/proc/self/exe";
    open_fails(&o, 0,
               "/proc/self/exe: byte offset 0: not a pmubench trace (expected the magic "
               "\"PMUTRACE\")");
}

/* Raw addresses, and why: --no-symbols, a trace that names no program
 * (hand-made, as an import), a program that cannot be read. */
static void test_no_symbols(void **state)
{
    (void)state;
    struct machine_config model = netburst("netburst");
    struct tb t;
    tb_open(&t);
    tb_plain(&t, 0x1000, ADD_EAX_1);
    tb_close(&t);
    struct sample_options o = iebs(&model, t.path);
    opens_without_symbols(&o, "--no-symbols");
    o.no_symbols = false;
    opens_without_symbols(&o, "the trace names no program");
    unlink(t.path);
    tb_open_header(&t, (struct trace_header){.isa = TRACE_ISA_64, .lengths_known = true,
                                             .program = "/nonexistent/prog"});
    tb_plain(&t, 0x1000, ADD_EAX_1);
    tb_close(&t);
    o.trace = t.path;
    opens_without_symbols(&o, "/nonexistent/prog: cannot open: No such file or directory");
    /* Given as the symbols file, the same problem is an error. */
    o.symbols = "/nonexistent/prog";
    open_fails(&o, ENOENT, "/nonexistent/prog: cannot open: No such file or directory");
    o.symbols = t.path;
    char want[PATH_MAX + 128];
    snprintf(want, sizeof want,
             "%s: byte offset 0: expected the ELF magic 7f 45 4c 46 (not an ELF file)", t.path);
    open_fails(&o, 0, want);
    unlink(t.path);
}

/* ---- PEBS and IEBS through the model */

/* Three loads missing the L1, the second after an add that leaves
 * EFLAGS, EAX, ECX, EDX, EBX, ESP, EBP, ESI, EDI = 0x202, 1 ... 8 (the
 * trace's order): with a period of 1 the first miss arms the assist, the
 * second load's tagged uop takes it (its registers are the add's), the
 * third miss arms it again and nothing follows. */
static void write_misses(struct tb *t)
{
    tb_open_header(t, (struct trace_header){.isa = TRACE_ISA_64, .lengths_known = true,
                                            .registers = true});
    tb_access(t, 0x1000, LOAD, TRACE_LOAD, 0x8000, 4);
    struct trace_insn add = tb_make(0x1002, ADD_EAX_1, TRACE_NOT_BRANCH, 0, 0, 0, 0);
    add.has_registers = true;
    const uint64_t regs[TRACE_REGS_32] = {0x202, 1, 2, 3, 4, 5, 6, 7, 8};
    memcpy(add.regs, regs, sizeof regs);
    tb_write(t, &add);
    tb_access(t, 0x1005, LOAD, TRACE_LOAD, 0x8040, 4);
    tb_access(t, 0x1007, LOAD, TRACE_LOAD, 0x8080, 4);
    tb_close(t);
}

/* The record in the 32-bit layout on Northwood (no IA-32e mode), in the
 * IA-32e layout on Prescott: EFLAGS, EIP, EAX EBX ECX EDX ESI EDI EBP
 * ESP (R8-R15 0: not in the trace). */
static void test_pebs_records(void **state)
{
    (void)state;
    struct tb t;
    write_misses(&t);
    const char *presets[] = {"netburst", "netburst-prescott"};
    for (int p = 0; p < 2; p++) {
        struct machine_config model = netburst(presets[p]);
        struct sample_options o = iebs(&model, t.path);
        o.event = "1stL_cache_load_miss_retired";
        o.pebs = true;
        o.period = 1;
        struct sample_session s;
        struct collected c = {0};
        struct sample_totals totals = run(&s, &o, &c);
        assert_int_equal(totals.samples, 1);
        assert_int_equal(totals.instructions, 4);
        assert_int_equal(c.n, 1);
        assert_int_equal(c.sample[0].eip, 0x1005);
        assert_non_null(c.sample[0].record);
        assert_null(c.sample[0].symbol);
        assert_int_equal(c.record[0].n_slots, p ? NB_PEBS_SLOTS_64 : NB_PEBS_SLOTS_32);
        const uint64_t want[NB_PEBS_SLOTS_64] = {0x202, 0x1005, 1, 4, 2, 3, 7, 8, 6, 5};
        for (unsigned k = 0; k < c.record[0].n_slots; k++)
            assert_int_equal(c.record[0].slot[k], want[k]);
        const struct sample_count *rows;
        assert_int_equal(sample_histogram(&s, &rows), 0);
        sample_fini(&s);
    }
    unlink(t.path);
}

/* A PEBS buffer of one record, and of two: the first records stored, none
 * once it is full.  Six loads missing the L1, each before an add, period
 * 1: with the default buffer the 2nd, 3rd, 5th and 6th loads take the
 * assist (as the model times the arming at the overflow). */
static void test_pebs_buffer_full(void **state)
{
    (void)state;
    struct tb t;
    tb_open_header(&t, (struct trace_header){.isa = TRACE_ISA_64, .lengths_known = true});
    for (uint64_t k = 0; k < 6; k++) {
        tb_access(&t, 0x1000 + 5 * k, LOAD, TRACE_LOAD, 0x8000 + 0x40 * k, 4);
        tb_plain(&t, 0x1002 + 5 * k, ADD_EAX_1);
    }
    tb_close(&t);
    struct machine_config model = netburst("netburst");
    struct sample_options o = iebs(&model, t.path);
    o.event = "1stL_cache_load_miss_retired";
    o.pebs = true;
    o.period = 1;
    struct sample_session s;
    struct collected c = {0};
    struct sample_totals all = run(&s, &o, &c);
    sample_fini(&s);
    const uint64_t want[4] = {0x1005, 0x100a, 0x1014, 0x1019};
    assert_int_equal(all.samples, 4);
    assert_int_equal(c.n, 4);
    for (int k = 0; k < 4; k++)
        assert_int_equal(c.sample[k].eip, want[k]);
    for (uint64_t records = 1; records <= 2; records++) {
        o.pebs_records = records;
        memset(&c, 0, sizeof c);
        struct sample_totals full = run(&s, &o, &c);
        sample_fini(&s);
        assert_int_equal(full.samples, records);
        assert_int_equal(c.n, (int)records);
        for (uint64_t k = 0; k < records; k++)
            assert_int_equal(c.sample[k].eip, want[k]);
        assert_int_equal(full.instructions, all.instructions);
    }
    unlink(t.path);
}

/* IEBS every 10 retired instructions, the PMI recognized at once
 * (pmi_latency 0): the instructions already allocated retire, and the
 * sample is the next one, where the handler (which reloads the counter)
 * returns to (docs/netburst-model.md, "Sampling").  The 70 adds are built
 * one a cycle and retire 13 cycles after they allocate, but three stalls
 * of the front end end the windows: the PMI delivered at the 11th add's
 * retirement (printed cycle 252) finds adds 11-19 allocated, and the
 * region marker before add 20 drains the pipeline: sample add 20.  The
 * counter reloaded, adds 20-29 overflow it and the 30th delivers (292):
 * adds 31-41 allocated, add 42 (0x107e) reaches into the next 128-byte
 * line, whose code fetch misses the L2: sample add 42.  Then 42-51 and
 * the 52nd (535): adds 53-63 allocated, add 64 (0x10c0) starts the line's
 * second 64-byte sector, read from the L2: sample add 64.  Adds 64-69 do
 * not overflow the counter again.  Inside region 1 (adds 20 to 49) the
 * counter runs from its begin: the second case, then adds 42-49. */
static void test_iebs_and_regions(void **state)
{
    (void)state;
    struct machine_config model = netburst("netburst");
    struct tb t;
    tb_open(&t);
    write_adds(&t, 70, 20, 50);
    tb_close(&t);
    struct sample_options o = iebs(&model, t.path);
    struct sample_session s;
    struct collected c = {0};
    struct sample_totals totals = run(&s, &o, &c);
    sample_fini(&s);
    assert_int_equal(totals.instructions, 70);
    assert_int_equal(totals.samples, 3);
    assert_int_equal(c.n, 3);
    static const uint64_t add[] = {20, 42, 64}, delivered[] = {252, 292, 535};
    for (int k = 0; k < 3; k++) {
        assert_null(c.sample[k].record);
        assert_int_equal(c.sample[k].thread, 0);
        assert_false(c.sample[k].precise);
        assert_int_equal(c.sample[k].eip, 0x1000 + 3 * add[k]);
        assert_int_equal(c.sample[k].cycle, delivered[k]);
    }

    o.region = 1;
    memset(&c, 0, sizeof c);
    totals = run(&s, &o, &c);
    sample_fini(&s);
    assert_int_equal(totals.samples, 1);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.sample[0].eip, 0x1000 + 3 * 42); /* the region's 10th is add 29 */

    o.region = 2; /* no such region: nothing counts */
    memset(&c, 0, sizeof c);
    totals = run(&s, &o, &c);
    sample_fini(&s);
    assert_int_equal(totals.samples, 0);
    assert_int_equal(totals.instructions, 70);
    unlink(t.path);
}

/* ---- symbols: this test program's own */

struct self {
    char path[PATH_MAX];
    struct elf_symbols *elf;
    uint64_t entry, base;
};

/* This executable's file, and a load base to place it at in a trace. */
static void open_self(struct self *self)
{
    ssize_t n = readlink("/proc/self/exe", self->path, sizeof self->path - 1);
    assert_true(n > 0);
    self->path[n] = '\0';
    char error[PATH_MAX + 256];
    self->elf = elf_symbols_load(self->path, error, sizeof error);
    if (!self->elf)
        fail_msg("%s", error);
    self->entry = elf_symbols_entry(self->elf);
    self->base = elf_symbols_position_independent(self->elf) ? 0x7f1234000000ull : 0;
}

/* A trace that runs two adds elsewhere, then the program's first 16
 * bytes of code at its entry point (at self->base), split at its
 * instructions, then `after` adds at 0x1006 on; the trace names the
 * program.  The addresses of the instructions, in address[]: how many. */
static int write_entry_run(struct tb *t, const struct self *self, uint64_t address[64],
                           int after)
{
    int n = 0;
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true};
    snprintf(header.program, sizeof header.program, "%s", self->path);
    tb_open_header(t, header);
    tb_plain(t, address[n++] = 0x1000, ADD_EAX_1);
    tb_plain(t, address[n++] = 0x1003, ADD_EAX_1);
    const uint8_t *code;
    size_t size = elf_symbols_entry_code(self->elf, &code);
    for (size_t at = 0; at < 16;) {
        struct x86_insn insn;
        uint64_t at_address = self->base + self->entry + at;
        assert_true(x86_decode(code + at, size - at, at_address, X86_MODE_64, &insn));
        assert_int_equal(insn.branch, X86_BRANCH_NONE);
        tb_plain(t, address[n++] = at_address, (const char *)code + at, insn.length);
        at += insn.length;
    }
    for (int k = 0; k < after; k++)
        tb_plain(t, address[n++] = 0x1006 + 3 * (uint64_t)k, ADD_EAX_1);
    tb_close(t);
    return n;
}

/* The histogram after a run: `in_start` samples in _start, `unknown` in
 * no symbol, most first, then by name ("[unknown]" sorts before "_start"). */
static void assert_histogram(struct sample_session *s, uint64_t in_start, uint64_t unknown)
{
    const struct sample_count *rows;
    assert_int_equal(sample_histogram(s, &rows), 2);
    bool start_first = in_start > unknown;
    assert_string_equal(rows[0].symbol, start_first ? "_start" : "[unknown]");
    assert_int_equal(rows[0].count, start_first ? in_start : unknown);
    assert_string_equal(rows[1].symbol, start_first ? "[unknown]" : "_start");
    assert_int_equal(rows[1].count, start_first ? unknown : in_start);
}

/* The trace's program names the samples at the base where the trace runs
 * its entry point.  With a period of 1, the PMI delivered at the second
 * add's retirement finds nothing else allocated (the entry code's fetch
 * misses the ITLB and the L2), so the first sample is the entry point
 * itself, _start; the later ones fall in order in the entry code (named
 * _start with their offsets) or in the 40 adds after it (in no symbol of
 * the file): where exactly depends on the entry code's timing, so on the
 * C library's _start and where the linker put it.  The histogram counts
 * them, the same after another run of the session and when asked again. */
static void test_symbols_and_histogram(void **state)
{
    (void)state;
    struct self self;
    open_self(&self);
    struct tb t;
    uint64_t address[64];
    int n = write_entry_run(&t, &self, address, 40);
    struct machine_config model = netburst("netburst");
    struct sample_options o = iebs(&model, t.path);
    o.no_symbols = false;
    o.period = 1;
    struct sample_session s;
    struct collected c = {0};
    struct sample_totals totals = run(&s, &o, &c);
    assert_string_equal(s.symbols_file, self.path);
    assert_int_equal(s.symbols.base, self.base);
    assert_int_equal(totals.instructions, n);
    assert_int_equal(totals.samples, c.n);
    assert_true(c.n >= 2);
    assert_int_equal(c.sample[0].eip, address[2]);
    assert_string_equal(c.symbol[0], "_start");
    assert_int_equal(c.offset[0], 0);
    assert_int_equal(c.sample[0].eip - self.base, self.entry);
    uint64_t in_start = 1;
    for (int k = 1, j = 2; k < c.n; k++) {
        while (j < n && address[j] != c.sample[k].eip)
            j++;
        assert_true(j < n); /* an instruction of the trace, in order */
        bool entry = j < n - 40;
        assert_string_equal(c.symbol[k], entry ? "_start" : "");
        if (entry)
            assert_int_equal(c.offset[k], c.sample[k].eip - self.base - self.entry);
        in_start += entry;
    }
    assert_true(in_start < (uint64_t)c.n); /* some in the adds */
    uint64_t unknown = (uint64_t)c.n - in_start;
    assert_histogram(&s, in_start, unknown);
    assert_histogram(&s, in_start, unknown);
    /* Again: each run counts afresh. */
    char error[TRACE_MAX_TEXT + 1024];
    if (!sample_run(&s, NULL, NULL, &totals, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(totals.samples, c.n);
    assert_histogram(&s, in_start, unknown);
    sample_fini(&s);
    unlink(t.path);
    elf_symbols_free(self.elf);
}

/* A position-independent file whose entry code the trace never runs has
 * no known base: an error for a symbols file, raw addresses for the
 * trace's program. */
static void test_unknown_base(void **state)
{
    (void)state;
    struct self self;
    open_self(&self);
    if (!elf_symbols_position_independent(self.elf)) {
        elf_symbols_free(self.elf);
        skip();
    }
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true};
    snprintf(header.program, sizeof header.program, "%s", self.path);
    struct tb t;
    tb_open_header(&t, header);
    tb_plain(&t, 0x1000, ADD_EAX_1);
    tb_close(&t);
    char why[PATH_MAX + 256];
    snprintf(why, sizeof why,
             "%s: position-independent (ET_DYN), and the trace does not run the code at its "
             "entry point 0x%llx: its load base is unknown",
             self.path, (unsigned long long)self.entry);
    struct machine_config model = netburst("netburst");
    struct sample_options o = iebs(&model, t.path);
    o.no_symbols = false;
    opens_without_symbols(&o, why);
    o.symbols = self.path;
    open_fails(&o, 0, why);
    unlink(t.path);
    elf_symbols_free(self.elf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_options),      cmocka_unit_test(test_bad_events),
        cmocka_unit_test(test_long_event),
        cmocka_unit_test(test_bad_traces),       cmocka_unit_test(test_no_symbols),
        cmocka_unit_test(test_pebs_records),     cmocka_unit_test(test_pebs_buffer_full),
        cmocka_unit_test(test_iebs_and_regions),
        cmocka_unit_test(test_symbols_and_histogram), cmocka_unit_test(test_unknown_base),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    x86_decode_release();
    return failed;
}
