/* The instructions a trace ran that its CPU lacks (apps/stat/stat_features.c):
 * hand-made traces with a CPU view in the header, counted exactly: the
 * total, by feature, the first in execution order; nothing without a
 * view; a failure's message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "isa/x86.h"
#include "apps/stat/stat_features.h"
#include "traces/cpu_view.h"
#include "traces/trace.h"

/* ---- writing a trace */

struct built {
    char path[64];
    FILE *out;
    struct trace_writer *writer;
};

static void open_trace(struct built *b, enum trace_isa isa, const char *cpu)
{
    struct trace_header header = {.isa = isa, .lengths_known = true};
    strcpy(header.recorder, "test_stat_features");
    char error[256];
    if (cpu && !cpu_view_named(cpu, (int)isa, &header.cpu, error, sizeof error))
        fail_msg("%s", error);
    if (cpu && isa == TRACE_ISA_64)
        cpu_view_widen_64(&header.cpu);
    strcpy(b->path, "/tmp/test_stat_features_XXXXXX");
    int fd = mkstemp(b->path);
    assert_true(fd >= 0);
    b->out = fdopen(fd, "wb");
    assert_non_null(b->out);
    b->writer = trace_writer_open(b->out, &header, error, sizeof error);
    assert_non_null(b->writer);
}

static void close_trace(struct built *b)
{
    struct trace_end end = {trace_writer_instructions(b->writer), TRACE_EXITED, 0};
    assert_true(trace_write_end(b->writer, &end));
    assert_true(trace_writer_close(b->writer));
    assert_int_equal(fclose(b->out), 0);
}

/* One instruction at `address`, its bytes in hex ("0f 44 c3"; NULL: none
 * recorded), a branch outcome and target. */
static uint64_t insn(struct built *b, uint64_t address, const char *hex,
                     enum trace_branch branch, uint64_t target)
{
    struct trace_insn in;
    memset(&in, 0, sizeof in);
    in.address = address;
    in.cpl = 3;
    in.branch = branch;
    in.target = target;
    if (hex) {
        for (const char *p = hex; *p;) {
            char *end;
            in.bytes[in.length++] = (uint8_t)strtoul(p, &end, 16);
            p = end;
        }
        in.has_bytes = true;
    } else {
        in.length = 1;
    }
    assert_true(trace_write_insn(b->writer, &in));
    return address + in.length;
}

/* 32-bit: an add, then `iterations` of the loop at 0x1002
 *   cmove eax, ebx; add eax, ebx; movq mm0, mm1; dec ecx; jnz 0x1002
 * (its taken and not-taken executions are two blocks), then an
 * instruction without code bytes and nop dword [eax]. */
enum { LOOP = 0x1002 };

static void write_loop_32(struct built *b, int iterations)
{
    uint64_t at = insn(b, 0x1000, "01 d8", TRACE_NOT_BRANCH, 0);
    for (int i = 0; i < iterations; i++) {
        at = insn(b, LOOP, "0f 44 c3", TRACE_NOT_BRANCH, 0);
        at = insn(b, at, "01 d8", TRACE_NOT_BRANCH, 0);
        at = insn(b, at, "0f 6f c1", TRACE_NOT_BRANCH, 0);
        at = insn(b, at, "49", TRACE_NOT_BRANCH, 0);
        bool taken = i + 1 < iterations;
        /* jnz rel8 at 0x100a: 0x1002 - 0x100c = -10 */
        at = insn(b, at, "75 f6", taken ? TRACE_BRANCH_TAKEN : TRACE_BRANCH_NOT_TAKEN,
                  taken ? LOOP : 0);
    }
    at = insn(b, at, NULL, TRACE_NOT_BRANCH, 0);
    insn(b, at, "0f 1f 40 00", TRACE_NOT_BRANCH, 0);
}

static struct stat_features count(const char *path)
{
    struct stat_features f;
    char error[256];
    if (!stat_features_count(path, &f, error, sizeof error))
        fail_msg("%s", error);
    return f;
}

static void expect_by_feature(const struct stat_features *f, const uint64_t *expected)
{
    for (int i = 0; i < X86_FEATURE_COUNT; i++)
        if (f->by_feature[i] != expected[i])
            fail_msg("%s: %llu, expected %llu", x86_feature_name((enum x86_feature)i),
                     (unsigned long long)f->by_feature[i], (unsigned long long)expected[i]);
}

/* ---- the tests */

static void test_p5(void **state)
{
    (void)state;
    struct built b;
    open_trace(&b, TRACE_ISA_32, "p5");
    write_loop_32(&b, 3);
    close_trace(&b);
    struct stat_features f = count(b.path);
    unlink(b.path);
    assert_true(f.has_view);
    assert_string_equal(f.cpu, "p5");
    assert_int_equal(f.instructions, 1 + 3 * 5 + 2);
    assert_int_equal(f.lacking, 3 + 3 + 1);
    uint64_t expected[X86_FEATURE_COUNT] = {0};
    expected[X86_FEATURE_CMOV] = 3;
    expected[X86_FEATURE_MMX] = 3;
    expected[X86_FEATURE_LONG_NOP] = 1;
    expect_by_feature(&f, expected);
    assert_int_equal(f.first_address, LOOP);
    assert_string_equal(f.first_mnemonic, "cmove");
    assert_int_equal(f.first_feature, X86_FEATURE_CMOV);
}

static void test_pmmx(void **state)
{
    (void)state;
    struct built b;
    open_trace(&b, TRACE_ISA_32, "pmmx");
    write_loop_32(&b, 4);
    close_trace(&b);
    struct stat_features f = count(b.path);
    unlink(b.path);
    assert_int_equal(f.instructions, 1 + 4 * 5 + 2);
    assert_int_equal(f.lacking, 4 + 1);
    uint64_t expected[X86_FEATURE_COUNT] = {0};
    expected[X86_FEATURE_CMOV] = 4;
    expected[X86_FEATURE_LONG_NOP] = 1;
    expect_by_feature(&f, expected);
    assert_int_equal(f.first_address, LOOP);
    assert_int_equal(f.first_feature, X86_FEATURE_CMOV);
}

/* The Northwood has them all: nothing lacking, every instruction counted. */
static void test_netburst(void **state)
{
    (void)state;
    struct built b;
    open_trace(&b, TRACE_ISA_32, "netburst");
    write_loop_32(&b, 2);
    close_trace(&b);
    struct stat_features f = count(b.path);
    unlink(b.path);
    assert_true(f.has_view);
    assert_string_equal(f.cpu, "netburst");
    assert_int_equal(f.instructions, 1 + 2 * 5 + 2);
    assert_int_equal(f.lacking, 0);
    uint64_t expected[X86_FEATURE_COUNT] = {0};
    expect_by_feature(&f, expected);
}

/* A trace without a view (before views, an import): not read. */
static void test_no_view(void **state)
{
    (void)state;
    struct built b;
    open_trace(&b, TRACE_ISA_32, NULL);
    write_loop_32(&b, 3);
    close_trace(&b);
    struct stat_features f = count(b.path);
    unlink(b.path);
    assert_false(f.has_view);
    assert_string_equal(f.cpu, "");
    assert_int_equal(f.instructions, 0);
    assert_int_equal(f.lacking, 0);
}

/* 64-bit code on the P5 widened with the x86-64 baseline: CMOV, SSE2 and
 * (with long mode) the long NOP are there, SSSE3 is not; the first lacking
 * comes after instructions that lack nothing in its block. */
static void test_p5_64(void **state)
{
    (void)state;
    struct built b;
    open_trace(&b, TRACE_ISA_64, "p5");
    uint64_t at = 0x401000;
    for (int i = 0; i < 2; i++) {
        at = insn(&b, 0x401000, "48 0f 44 c3", TRACE_NOT_BRANCH, 0);  /* cmove rax, rbx */
        at = insn(&b, at, "66 0f 58 c1", TRACE_NOT_BRANCH, 0);        /* addpd */
        at = insn(&b, at, "e8 00 00 00 00", TRACE_BRANCH_TAKEN, 0x402000); /* call */
        at = insn(&b, 0x402000, "66 0f 1f 44 00 00", TRACE_NOT_BRANCH, 0); /* nopw */
        at = insn(&b, at, "66 0f 38 00 c1", TRACE_NOT_BRANCH, 0);     /* pshufb */
        at = insn(&b, at, "0f 1f 00", TRACE_NOT_BRANCH, 0);           /* nopl */
        at = insn(&b, at, "c3", TRACE_BRANCH_TAKEN, 0x401000);        /* ret */
    }
    close_trace(&b);
    struct stat_features f = count(b.path);
    unlink(b.path);
    assert_int_equal(f.instructions, 14);
    assert_int_equal(f.lacking, 2);
    uint64_t expected[X86_FEATURE_COUNT] = {0};
    expected[X86_FEATURE_SSSE3] = 2;
    expect_by_feature(&f, expected);
    assert_int_equal(f.first_address, 0x402006);
    assert_string_equal(f.first_mnemonic, "pshufb");
    assert_int_equal(f.first_feature, X86_FEATURE_SSSE3);
}

static void test_failures(void **state)
{
    (void)state;
    struct stat_features f;
    char error[256];
    assert_false(stat_features_count("/nonexistent/x.trace", &f, error, sizeof error));
    assert_string_equal(error, "/nonexistent/x.trace: cannot open: No such file or directory");
    /* a trace without its END record: the reader's message */
    struct built b;
    open_trace(&b, TRACE_ISA_32, "p5");
    write_loop_32(&b, 3);
    assert_true(trace_writer_finish(b.writer));
    trace_writer_close(b.writer);
    assert_int_equal(fclose(b.out), 0);
    assert_false(stat_features_count(b.path, &f, error, sizeof error));
    unlink(b.path);
    assert_true(strstr(error, b.path) == error);
    assert_non_null(strstr(error, ": truncated: "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_p5),      cmocka_unit_test(test_pmmx),
        cmocka_unit_test(test_netburst), cmocka_unit_test(test_no_view),
        cmocka_unit_test(test_p5_64),   cmocka_unit_test(test_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
