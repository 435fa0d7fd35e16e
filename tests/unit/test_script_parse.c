/* bench_parse() and bench_run(): README.md "Bench scripts" and
 * docs/semantics.md "The bench script language". */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "pmu/programming/msr_linux.h"
#include "pmu/catalog/netburst_events.h"

static char error[512];

static int parse(const char *text, struct bench_script *s)
{
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(in);
    error[0] = '\0';
    int rc = bench_parse(in, "t.pmu", s, error, sizeof error);
    fclose(in);
    return rc;
}

static void parse_ok(const char *text, struct bench_script *s)
{
    int rc = parse(text, s);
    if (rc != BENCH_OK)
        fail_msg("parse failed: %s", error);
}

static void parse_err(const char *text, const char *want)
{
    struct bench_script s;
    assert_int_equal(parse(text, &s), BENCH_SCRIPT_ERROR);
    assert_string_equal(error, want);
    assert_null(s.stmts);
    assert_int_equal(s.n_stmts, 0);
}

/* ---- parsing */

static void test_statement_fields(void **state)
{
    (void)state;
    struct bench_script s;
    parse_ok("# a comment line\n"
             "cpu netburst\n"
             "\n"
             "wrmsr MSR_CRU_ESCR3 0x0c001804   # branch_retired\n"
             "rdmsr iq_counter2\n"
             "rdpmc 0x8000000e\n"
             "thread 1 active cpl=0\n"
             "thread 0 idle\n"
             "event branch_retired:MMTP:mmtm thread=1 count=3\n"
             "event TC_deliver_mode:DD\n"
             "\ttick   \n"
             "tick 5\n"
             "wrmsr 0x36e 1234\n"
             "rdmsr 0\n",
             &s);
    assert_string_equal(s.path, "t.pmu");
    assert_int_equal(s.cpu, PMU_NETBURST);
    assert_int_equal(s.model, 2);
    assert_true(s.ht);
    assert_int_equal(s.n_stmts, 12);
    const struct bench_stmt *st = s.stmts;
    assert_int_equal(st[0].kind, STMT_CPU);
    assert_int_equal(st[0].line, 2);
    assert_int_equal(st[1].kind, STMT_WRMSR);
    assert_int_equal(st[1].line, 4);
    assert_int_equal(st[1].msr, 0x3cd);
    assert_int_equal(st[1].value, 0x0c001804);
    assert_int_equal(st[2].kind, STMT_RDMSR);
    assert_int_equal(st[2].msr, 0x30e);
    assert_int_equal(st[3].kind, STMT_RDPMC);
    assert_int_equal(st[3].msr, 0x8000000e);
    assert_int_equal(st[4].kind, STMT_THREAD);
    assert_int_equal(st[4].thread, 1);
    assert_true(st[4].active);
    assert_int_equal(st[4].cpl, 0);
    assert_int_equal(st[5].kind, STMT_THREAD);
    assert_int_equal(st[5].thread, 0);
    assert_false(st[5].active);
    assert_int_equal(st[5].cpl, -1); /* keeps the thread's CPL */
    assert_int_equal(st[6].kind, STMT_EVENT);
    assert_int_equal(st[6].event, nb_event_find("branch_retired"));
    assert_int_equal(st[6].mask, 0xc);
    assert_int_equal(st[6].thread, 1);
    assert_int_equal(st[6].count, 3);
    assert_int_equal(st[6].line, 9);
    assert_int_equal(st[7].event, nb_event_find("TC_deliver_mode"));
    assert_int_equal(st[7].mask, 0x1);
    assert_int_equal(st[7].thread, 0);
    assert_int_equal(st[7].count, 1);
    assert_int_equal(st[8].kind, STMT_TICK);
    assert_int_equal(st[8].value, 1);
    assert_int_equal(st[9].kind, STMT_TICK);
    assert_int_equal(st[9].value, 5);
    assert_int_equal(st[9].line, 12);
    assert_int_equal(st[10].msr, 0x36e);
    assert_int_equal(st[10].value, 1234);
    assert_int_equal(st[11].msr, 0);
    bench_script_free(&s);
    assert_null(s.stmts);
    assert_int_equal(s.n_stmts, 0);
}

static void test_cpu_options(void **state)
{
    (void)state;
    struct bench_script s;
    parse_ok("cpu netburst model=3 ht=off\n", &s);
    assert_int_equal(s.cpu, PMU_NETBURST);
    assert_int_equal(s.model, 3);
    assert_false(s.ht);
    assert_int_equal(s.n_stmts, 1);
    bench_script_free(&s);
    parse_ok("cpu netburst ht=off model=0\n", &s);
    assert_int_equal(s.model, 0);
    assert_false(s.ht);
    bench_script_free(&s);
    parse_err("cpu netburst ht=off model=0 ht=on\n",
              "t.pmu:1: 'ht=on' repeats an option already given");
    parse_err("cpu netburst model=0 model=2\n",
              "t.pmu:1: 'model=2' repeats an option already given");
    parse_ok("cpu netburst model=6\nevent instr_completed:NBOGUS\n", &s);
    assert_int_equal(s.model, 6);
    assert_int_equal(s.stmts[1].event, nb_event_find("instr_completed"));
    bench_script_free(&s);
    parse_ok("cpu netburst model=0x4\n", &s);
    assert_int_equal(s.model, 4);
    bench_script_free(&s);
}

static void test_p5_script(void **state)
{
    (void)state;
    struct bench_script s;
    parse_ok("cpu p5\n"
             "wrmsr CESR 0x00800083\n"
             "rdmsr msr_ctr0\n"
             "event data_read_miss count=2\n"
             "event 0x28\n"
             "event DATA_READ\n"
             "thread 0 active cpl=0\n"
             "tick\n",
             &s);
    assert_int_equal(s.cpu, PMU_P5);
    assert_int_equal(s.n_stmts, 8);
    assert_int_equal(s.stmts[1].msr, 0x11);
    assert_int_equal(s.stmts[1].value, 0x00800083);
    assert_int_equal(s.stmts[2].msr, 0x12);
    assert_int_equal(s.stmts[3].event, 0x03);
    assert_int_equal(s.stmts[3].count, 2);
    assert_int_equal(s.stmts[4].event, 0x28);
    assert_int_equal(s.stmts[5].event, 0x00);
    assert_int_equal(s.stmts[6].cpl, 0);
    assert_true(s.stmts[6].active);
    bench_script_free(&s);
}

static void test_errors(void **state)
{
    (void)state;
    parse_err("# nothing\n\n", "t.pmu:1: empty script: expected 'cpu netburst' or 'cpu p5'");
    parse_err("\nwrmsr 0x300 1\n",
              "t.pmu:2: expected 'cpu netburst ...' or 'cpu p5' as the first statement, got "
              "'wrmsr'");
    parse_err("cpu netburst model=5\n",
              "t.pmu:1: unknown NetBurst model 5 (expected 0, 1, 2, 3, 4 or 6)");
    parse_err("cpu netburst model=08\n",
              "t.pmu:1: bad model '08' (expected a number: decimal or 0x hex, 0 to 255)");
    parse_err("cpu netburst turbo\n",
              "t.pmu:1: unexpected 'turbo' (expected model=N or ht=on|off)");
    parse_err("cpu pentium\n", "t.pmu:1: unknown cpu 'pentium' (expected netburst or p5)");
    parse_err("cpu\n", "t.pmu:1: expected 'cpu netburst [model=N] [ht=on|off]' or 'cpu p5'");
    parse_err("cpu p5 model=2\n", "t.pmu:1: expected 'cpu p5'");
    parse_err("cpu netburst\ncpu netburst\n",
              "t.pmu:2: 'cpu' must be the first statement and appear once");
    parse_err("cpu netburst\n# c\n\nfrob 1\n",
              "t.pmu:4: unknown statement 'frob' (expected cpu, wrmsr, rdmsr, rdpmc, thread, "
              "event, tick, wrmem, rdmem, retire or interrupt)");
    parse_err("cpu netburst\nwrmsr 010 1\n",
              "t.pmu:2: expected an MSR address or name (e.g. 0x360 or MSR_BPU_CCCR0), got "
              "'010'");
    parse_err("cpu netburst\nwrmsr MSR_SSU_ESCR1 1\n",
              "t.pmu:2: expected an MSR address or name (e.g. 0x360 or MSR_BPU_CCCR0), got "
              "'MSR_SSU_ESCR1'");
    parse_err("cpu p5\nrdmsr MSR_IQ_CCCR0\n",
              "t.pmu:2: expected an MSR address or name (e.g. 0x11 or CESR), got "
              "'MSR_IQ_CCCR0'");
    parse_err("cpu netburst\nwrmsr 0x300 010\n",
              "t.pmu:2: bad VALUE '010' (expected a number: decimal or 0x hex, 0 to "
              "18446744073709551615)");
    parse_err("cpu netburst\nwrmsr 0x300 0x10000000000000000\n",
              "t.pmu:2: bad VALUE '0x10000000000000000' (expected a number: decimal or 0x hex, "
              "0 to 18446744073709551615)");
    parse_err("cpu netburst\nwrmsr 0x300 -1\n",
              "t.pmu:2: bad VALUE '-1' (expected a number: decimal or 0x hex, 0 to "
              "18446744073709551615)");
    parse_err("cpu netburst\nwrmsr 0x300\n", "t.pmu:2: expected 'wrmsr ADDR VALUE'");
    parse_err("cpu netburst\nrdmsr\n", "t.pmu:2: expected 'rdmsr ADDR'");
    parse_err("cpu netburst\nrdpmc 0x100000000\n",
              "t.pmu:2: bad ECX '0x100000000' (expected a number: decimal or 0x hex, 0 to "
              "4294967295)");
    parse_err("cpu netburst\ntick 0\n", "t.pmu:2: expected 'tick N' with N of 1 or more");
    parse_err("cpu netburst\ntick 1 2\n", "t.pmu:2: expected 'tick [N]'");
    parse_err("cpu netburst\ntick 0x\n",
              "t.pmu:2: bad N '0x' (expected a number: decimal or 0x hex, 0 to 4294967295)");
    parse_err("cpu netburst\nevent branch_retired\n",
              "t.pmu:2: expected branch_retired:SUBEVENT, with SUBEVENT one of MMNP, MMNM, "
              "MMTP, MMTM");
    parse_err("cpu netburst\nevent branch_retired:MMTP:XX\n",
              "t.pmu:2: unknown sub-event 'XX' of branch_retired (expected one of MMNP, MMNM, "
              "MMTP, MMTM)");
    parse_err("cpu netburst\nevent branch_retired:MMTQ\n",
              "t.pmu:2: unknown sub-event 'MMTQ' of branch_retired (did you mean 'MMTP'?)");
    parse_err("cpu netburst\nevent branch_retird:MMTP\n",
              "t.pmu:2: unknown NetBurst event 'branch_retird' (did you mean 'branch_retired'?)");
    parse_err("cpu p5\nevent data_red\n",
              "t.pmu:2: unknown P5 event 'data_red' (did you mean 'data_read'?)");
    parse_err("cpu netburst\nevent no_such_event:X\n",
              "t.pmu:2: unknown NetBurst event 'no_such_event' (pmubench's catalog has the "
              "SDM's names, e.g. branch_retired)");
    parse_err("cpu netburst\nevent instr_completed:NBOGUS\n",
              "t.pmu:2: event instr_completed does not exist on model 2 (models 3, 4, 6 only)");
    parse_err("cpu netburst\nevent branch_retired:MMTP colour=red\n",
              "t.pmu:2: unexpected 'colour=red' (expected thread=T or count=N)");
    parse_err("cpu netburst\nevent branch_retired:MMTP count=x\n",
              "t.pmu:2: bad count 'x' (expected a number: decimal or 0x hex, 0 to 4294967295)");
    parse_err("cpu netburst\nevent branch_retired:MMTP thread=2\n",
              "t.pmu:2: expected a thread number below 2, got '2'");
    parse_err("cpu netburst ht=off\nthread 1 active\n",
              "t.pmu:2: expected a thread number below 1, got '1' (thread 1 needs ht=on)");
    parse_err("cpu netburst ht=off\nevent branch_retired:MMTP thread=1\n",
              "t.pmu:2: expected a thread number below 1, got '1' (thread 1 needs ht=on)");
    parse_err("cpu netburst\nthread 0 sleeping\n",
              "t.pmu:2: expected 'active' or 'idle', got 'sleeping'");
    parse_err("cpu netburst\nthread 0 active cpl=4\n",
              "t.pmu:2: bad cpl '4' (expected a number: decimal or 0x hex, 0 to 3)");
    parse_err("cpu netburst\nthread 0 active ring=0\n",
              "t.pmu:2: unexpected 'ring=0' (expected cpl=N)");
    parse_err("cpu netburst\nthread 0\n", "t.pmu:2: expected 'thread T active|idle [cpl=N]'");
    parse_err("cpu p5\nrdpmc 0\n",
              "t.pmu:2: the P5 has no RDPMC instruction (it came with the Pentium MMX); use "
              "rdmsr CTR0");
    parse_err("cpu p5\nthread 0 idle\n",
              "t.pmu:2: the P5 has one processor and no idle state to model; use 'thread 0 "
              "active'");
    parse_err("cpu p5\nevent 0x10\n",
              "t.pmu:2: unknown P5 event '0x10' (expected a name from Table 3.2 of Safford 1997, such as "
              "data_read_miss, or a defined code such as 0x03)");
    parse_err("cpu p5\nevent branch_retired:MMTP\n",
              "t.pmu:2: unknown P5 event 'branch_retired:MMTP' (expected a name from "
              "Table 3.2 of Safford 1997, such as data_read_miss, or a defined code such as 0x03)");
    parse_err("cpu netburst\ntick 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24\n",
              "t.pmu:2: too many tokens (at most 23)");
}

/* A line with a NUL byte is an error, not silently cut. */
static void test_nul_byte(void **state)
{
    (void)state;
    static const char text[] = "cpu netburst\ntick\0 5\n";
    FILE *in = fmemopen((void *)text, sizeof text - 1, "r");
    struct bench_script s;
    assert_int_equal(bench_parse(in, "n.pmu", &s, error, sizeof error), BENCH_SCRIPT_ERROR);
    assert_string_equal(error, "n.pmu:2: unexpected NUL byte");
    fclose(in);
}

/* ---- running */

static int run_text(const char *text, struct bench_options *opt, char **out)
{
    struct bench_script s;
    parse_ok(text, &s);
    size_t len = 0;
    *out = NULL;
    FILE *f = open_memstream(out, &len);
    assert_non_null(f);
    opt->out = f;
    error[0] = '\0';
    int rc = bench_run(&s, opt, error, sizeof error);
    fclose(f);
    bench_script_free(&s);
    return rc;
}

static void test_run_readme_example(void **state)
{
    (void)state;
    struct bench_options opt = {0};
    char *out;
    int rc = run_text("cpu netburst model=2 ht=on\n"
                      "wrmsr MSR_CRU_ESCR3 0x0c001804\n"
                      "wrmsr MSR_IQ_CCCR2 0x0027b000\n"
                      "event branch_retired:MMTP count=3\n"
                      "tick\n"
                      "event branch_retired:MMTM count=2\n"
                      "tick\n"
                      "rdmsr MSR_IQ_COUNTER2\n",
                      &opt, &out);
    assert_int_equal(rc, BENCH_OK);
    assert_string_equal(out, "@2 rdmsr 0x30e = 0x0000000000000001\n");
    free(out);
}

static void test_run_overflow_pmi_gp(void **state)
{
    (void)state;
    struct bench_options opt = {0};
    char *out;
    int rc = run_text("cpu netburst\n"
                      "wrmsr MSR_CRU_ESCR2 0x0c000804\n"
                      "wrmsr MSR_CRU_ESCR3 0x0c000804\n"
                      "wrmsr MSR_IQ_COUNTER0 0xffffffffff\n"
                      "wrmsr MSR_IQ_COUNTER2 0xffffffffff\n"
                      "wrmsr MSR_IQ_CCCR0 0x0403b000\n"
                      "wrmsr MSR_IQ_CCCR2 0x0c03b000\n"
                      "event branch_retired:MMTP\n"
                      "tick\n"
                      "rdmsr MSR_IQ_CCCR0\n"
                      "tick 2\n"
                      "event branch_retired:MMTP\n"
                      "tick\n"
                      "rdpmc 12\n"
                      "rdpmc 0x8000000e\n"
                      "rdpmc 18\n"
                      "wrmsr 0x3bf 1\n"
                      "rdmsr 0x3bf\n"
                      "wrmsr MSR_IQ_CCCR0 0x1\n",
                      &opt, &out);
    assert_int_equal(rc, BENCH_OK);
    assert_string_equal(out, "@1 rdmsr 0x36c = 0x000000008403b000\n"
                             "@4 pmi thread=0 counter=12\n"
                             "@4 pmi thread=0 counter=14\n"
                             "@4 pmi thread=1 counter=14\n"
                             "@4 rdpmc 0xc = 0x0000000000000001\n"
                             "@4 rdpmc 0x8000000e = 0x0000000000000001\n"
                             "@4 rdpmc 0x12 #GP\n"
                             "@4 wrmsr 0x3bf #GP\n"
                             "@4 rdmsr 0x3bf #GP\n"
                             "@4 wrmsr 0x36c #GP\n");
    free(out);
}

static void test_run_thread_cpl_and_idle(void **state)
{
    (void)state;
    struct bench_options opt = {0};
    char *out;
    /* T0_OS only; the CPL of thread 0 changes, 'thread 0 idle' keeps it */
    int rc = run_text("cpu netburst\n"
                      "wrmsr MSR_CRU_ESCR2 0x0c000808\n"
                      "wrmsr MSR_IQ_CCCR0 0x0003b000\n"
                      "event branch_retired:MMTP\n"
                      "thread 0 active cpl=0\n"
                      "event branch_retired:MMTP count=2\n"
                      "tick\n"
                      "thread 0 idle\n"
                      "thread 1 active\n"
                      "event branch_retired:MMTP count=4\n"
                      "tick\n"
                      "rdmsr MSR_IQ_COUNTER0\n",
                      &opt, &out);
    assert_int_equal(rc, BENCH_OK);
    assert_string_equal(out, "@2 rdmsr 0x30c = 0x0000000000000006\n");
    free(out);
}

static void test_run_p5(void **state)
{
    (void)state;
    struct bench_options opt = {0};
    char *out;
    int rc = run_text("cpu p5\n"
                      "wrmsr CESR 0x00800083\n"
                      "event data_read_miss count=2\n"
                      "event 0x00\n"
                      "tick\n"
                      "thread 0 active cpl=0\n"
                      "event data_read_miss\n"
                      "tick 3\n"
                      "rdmsr CTR0\n"
                      "rdmsr CTR1\n"
                      "rdmsr TSC\n"
                      "wrmsr CESR 0x400\n",
                      &opt, &out);
    assert_int_equal(rc, BENCH_OK);
    assert_string_equal(out, "@4 rdmsr 0x12 = 0x0000000000000002\n"
                             "@4 rdmsr 0x13 = 0x0000000000000001\n"
                             "@4 rdmsr 0x10 = 0x0000000000000004\n"
                             "@4 wrmsr 0x11 #GP\n");
    free(out);
}

static void test_run_record(void **state)
{
    (void)state;
    char *log = NULL;
    size_t len = 0;
    FILE *lf = open_memstream(&log, &len);
    struct bench_options opt = {.record_log = lf};
    char *out;
    int rc = run_text("cpu netburst ht=off\n"
                      "wrmsr MSR_IQ_CCCR0 0x00030000\n"
                      "wrmsr MSR_IQ_CCCR0 0x08030000\n"
                      "tick\n"
                      "rdmsr 0x36c\n",
                      &opt, &out);
    fclose(lf);
    assert_int_equal(rc, BENCH_OK);
    assert_string_equal(out, "@0 wrmsr 0x36c #GP\n@1 rdmsr 0x36c = 0x0000000000030000\n");
    assert_string_equal(log, "wrmsr cpu=0 0x36c 0x0000000000030000 ok\n"
                             "wrmsr cpu=0 0x36c 0x0000000008030000 #GP\n"
                             "rdmsr cpu=0 0x36c 0x0000000000030000 ok\n");
    free(log);
    free(out);
}

static void test_run_vcd(void **state)
{
    (void)state;
    char path[] = "/tmp/pmubench-vcd-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct bench_options opt = {.vcd_path = path};
    char *out;
    int rc = run_text("cpu netburst\n"
                      "wrmsr MSR_CRU_ESCR2 0x0c000804\n"
                      "wrmsr MSR_IQ_CCCR0 0x0003b000\n"
                      "event branch_retired:MMTP count=3\n"
                      "tick 2\n"
                      "rdmsr MSR_IQ_COUNTER0\n",
                      &opt, &out);
    assert_int_equal(rc, BENCH_OK);
    assert_string_equal(out, "@2 rdmsr 0x30c = 0x0000000000000003\n");
    free(out);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    unlink(path);
    assert_non_null(strstr(buf, "$enddefinitions"));
    assert_non_null(strstr(buf, "IQ_COUNTER0"));
    assert_non_null(strstr(buf, "CRU_ESCR2"));
    assert_null(strstr(buf, "IQ_COUNTER1")); /* never enabled: no scope */

    opt.vcd_path = "/nonexistent-dir-pmubench/x.vcd";
    rc = run_text("cpu netburst\ntick\n", &opt, &out);
    assert_int_equal(rc, BENCH_RUNTIME_ERROR);
    assert_true(strlen(error) > 0);
    free(out);
}

static bool intel_p4(struct cpu_identity *id)
{
    snprintf(id->vendor, sizeof id->vendor, "GenuineIntel");
    id->family = 15;
    id->model = 2;
    return true;
}

static void test_run_hardware(void **state)
{
    (void)state;
    char path[] = "/tmp/pmubench-dev-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const unsigned char zeros[0x700];
    assert_int_equal(write(fd, zeros, sizeof zeros), (ssize_t)sizeof zeros);
    close(fd);
    struct msr_backend *hw = msr_linux_create(path, MSR_TARGET_NETBURST, intel_p4);
    struct bench_options opt = {.hardware = hw};
    char *out;
    int rc = run_text("cpu netburst\n"
                      "wrmsr MSR_IQ_CCCR0 0x0003b000\n"
                      "rdmsr MSR_IQ_CCCR0\n",
                      &opt, &out);
    assert_int_equal(rc, BENCH_OK);
    assert_string_equal(out, "@0 rdmsr 0x36c = 0x000000000003b000\n");
    free(out);
    uint64_t v = 0;
    assert_int_equal(msr_read(hw, 0, 0x36c, &v), MSR_OK);
    assert_int_equal(v, 0x3b000);

    rc = run_text("cpu netburst\nwrmsr 0x10 1\n", &opt, &out);
    assert_int_equal(rc, BENCH_RUNTIME_ERROR);
    assert_string_equal(error, "t.pmu:2: wrmsr 0x10: refusing to write MSR 0x10: not on the "
                               "family 15 (NetBurst) allowlist");
    free(out);

    rc = run_text("cpu netburst\nwrmsr MSR_IQ_CCCR0 0\ntick\n", &opt, &out);
    assert_int_equal(rc, BENCH_SCRIPT_ERROR);
    assert_string_equal(error, "t.pmu:3: 'tick' needs the simulated PMU; on a real MSR device "
                               "a script may only use cpu, wrmsr and rdmsr");
    assert_string_equal(out, "");
    free(out);

    opt.vcd_path = "/tmp/never-written.vcd";
    rc = run_text("cpu netburst\nrdmsr 0x300\n", &opt, &out);
    assert_int_equal(rc, BENCH_RUNTIME_ERROR);
    assert_string_equal(error, "--vcd needs the simulated PMU");
    free(out);
    msr_backend_destroy(hw);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_statement_fields),
        cmocka_unit_test(test_cpu_options),
        cmocka_unit_test(test_p5_script),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_run_readme_example),
        cmocka_unit_test(test_run_overflow_pmi_gp),
        cmocka_unit_test(test_run_thread_cpl_and_idle),
        cmocka_unit_test(test_run_p5),
        cmocka_unit_test(test_run_record),
        cmocka_unit_test(test_run_vcd),
        cmocka_unit_test(test_run_hardware),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
