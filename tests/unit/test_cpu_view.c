/* The CPU view (traces/cpu_view.h): CPUID's answers from a table, the
 * host view, the parts, the 64-bit baseline, and the view in a trace's
 * header, written, read back and rejected when malformed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "traces/cpu_view.h"
#include "traces/trace.h"

#define ANY CPUID_ANY_SUBLEAF

static void set_view(struct cpu_view *view, const char *name, const struct cpuid_leaf *leaves,
                     uint32_t n)
{
    memset(view, 0, sizeof *view);
    snprintf(view->name, sizeof view->name, "%s", name);
    view->n = n;
    memcpy(view->leaves, leaves, n * sizeof *leaves);
}

static void expect_regs(struct cpuid_regs r, uint32_t eax, uint32_t ebx, uint32_t ecx,
                        uint32_t edx)
{
    assert_int_equal(r.eax, eax);
    assert_int_equal(r.ebx, ebx);
    assert_int_equal(r.ecx, ecx);
    assert_int_equal(r.edx, edx);
}

/* An Intel-like table: basic leaves up to 0xD, extended up to 0x80000001. */
static const struct cpuid_leaf intel_leaves[] = {
    {0, ANY, {0xd, 0x756e6547u, 0x6c65746eu, 0x49656e69u}},
    {1, ANY, {0x000306c3u, 0x00100800u, 0x08000000u | 0x10000000u, 0xbfebfbffu}},
    {4, 0, {0x121, 1, 2, 3}},
    {4, 1, {0x122, 4, 5, 6}},
    {7, 0, {0, 0x27aa, 0, 0}},
    {0xd, 0, {7, 832, 832, 0}},
    {0x80000000u, ANY, {0x80000001u, 0, 0, 0}},
    {0x80000001u, ANY, {0, 0, 0x21, 0x2c100800u}},
};

static void test_answer(void **state)
{
    (void)state;
    struct cpu_view view;
    set_view(&view, "test", intel_leaves, 6);
    /* a leaf not indexed answers whatever ECX */
    expect_regs(cpu_view_answer(&view, 1, 0), 0x000306c3u, 0x00100800u, 0x18000000u,
                0xbfebfbffu);
    expect_regs(cpu_view_answer(&view, 1, 5), 0x000306c3u, 0x00100800u, 0x18000000u,
                0xbfebfbffu);
    /* an indexed leaf by subleaf; a subleaf it lacks answers zeros */
    expect_regs(cpu_view_answer(&view, 4, 1), 0x122, 4, 5, 6);
    expect_regs(cpu_view_answer(&view, 4, 2), 0, 0, 0, 0);
    /* in range but absent: zeros */
    expect_regs(cpu_view_answer(&view, 3, 0), 0, 0, 0, 0);
    /* above the basic maximum on an Intel view: the highest basic leaf
     * (0xD, subleaf from ECX) */
    expect_regs(cpu_view_answer(&view, 0xe, 0), 7, 832, 832, 0);
    expect_regs(cpu_view_answer(&view, 0x40000000u, 1), 0, 0, 0, 0);
    expect_regs(cpu_view_answer(&view, 0x40000000u, 0), 7, 832, 832, 0);
    /* no extended leaves (0x80000000 absent): every extended leaf is
     * above the maximum */
    expect_regs(cpu_view_answer(&view, 0x80000000u, 0), 7, 832, 832, 0);
    set_view(&view, "test", intel_leaves, 8);
    expect_regs(cpu_view_answer(&view, 0x80000001u, 0), 0, 0, 0x21, 0x2c100800u);
    expect_regs(cpu_view_answer(&view, 0x80000002u, 0), 7, 832, 832, 0);
    /* another vendor answers zeros above the maximum */
    struct cpuid_leaf amd[] = {{0, ANY, {1, 0x68747541u, 0x444d4163u, 0x69746e65u}},
                               {1, ANY, {0x00b00f21u, 0, 0, 0x178bfbffu}}};
    set_view(&view, "amd", amd, 2);
    expect_regs(cpu_view_answer(&view, 2, 0), 0, 0, 0, 0);
    expect_regs(cpu_view_answer(&view, 1, 0), 0x00b00f21u, 0, 0, 0x178bfbffu);
    /* no leaf 0: nothing */
    set_view(&view, "none", intel_leaves + 1, 1);
    expect_regs(cpu_view_answer(&view, 1, 0), 0, 0, 0, 0);
}

static void test_xcr0(void **state)
{
    (void)state;
    struct cpu_view view;
    set_view(&view, "test", intel_leaves, 8);
    assert_int_equal(cpu_view_xcr0(&view), 7);
    struct cpuid_leaf leaves[8];
    memcpy(leaves, intel_leaves, sizeof leaves);
    leaves[1].regs.ecx &= ~(1u << 27); /* no OSXSAVE */
    set_view(&view, "test", leaves, 8);
    assert_int_equal(cpu_view_xcr0(&view), 0);
}

static void test_valid(void **state)
{
    (void)state;
    char error[256];
    struct cpu_view view;
    set_view(&view, "test", intel_leaves, 8);
    assert_true(cpu_view_valid(&view, error, sizeof error));
    struct cpuid_leaf leaves[8];
    memcpy(leaves, intel_leaves, sizeof leaves);
    leaves[2] = leaves[3]; /* 4.1 twice */
    set_view(&view, "test", leaves, 8);
    assert_false(cpu_view_valid(&view, error, sizeof error));
    assert_string_equal(error, "CPU view leaf 3 (0x4.1) does not follow 0x4.1 (expected leaves "
                               "in increasing order, each once)");
    memcpy(leaves, intel_leaves, sizeof leaves);
    leaves[3].subleaf = ANY; /* 4.0 and 4.* */
    set_view(&view, "test", leaves, 8);
    assert_false(cpu_view_valid(&view, error, sizeof error));
    set_view(&view, "test", intel_leaves + 1, 7);
    assert_false(cpu_view_valid(&view, error, sizeof error));
    assert_string_equal(error, "a CPU view without leaf 0 (for every subleaf)");
    struct cpuid_leaf indexed0[2] = {intel_leaves[0], intel_leaves[1]};
    indexed0[0].subleaf = 0;
    set_view(&view, "test", indexed0, 2);
    assert_false(cpu_view_valid(&view, error, sizeof error));
    assert_string_equal(error, "a CPU view without leaf 0 (for every subleaf)");
    set_view(&view, "", intel_leaves, 8);
    assert_false(cpu_view_valid(&view, error, sizeof error));
    assert_string_equal(error, "a CPU view's name of 0 bytes (expected 1-31)");
    set_view(&view, "test", intel_leaves, 0);
    assert_false(cpu_view_valid(&view, error, sizeof error));
    assert_string_equal(error, "a CPU view of 0 leaves (expected 1-192)");
}

/* Each part: GenuineIntel, its signature, a valid table. */
static void test_parts(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        unsigned family, model, stepping;
        uint32_t edx1;
    } parts[] = {
        {"p5", 5, 2, 5, 0x000001bfu},
        {"pmmx", 5, 4, 3, 0x008001bfu},
        {"netburst", 15, 2, 9, 0xbfebfbffu},
        {"netburst-willamette", 15, 1, 2, 0x3febfbffu},
        {"netburst-willamette0", 15, 0, 0xa, 0x3febfbffu},
        {"netburst-northwood", 15, 2, 9, 0xbfebfbffu},
        {"netburst-prescott", 15, 3, 4, 0xbfebfbffu},
        {"netburst-prescott4", 15, 4, 3, 0xbfebfbffu},
    };
    char error[256];
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        struct cpu_view view;
        assert_true(cpu_view_named(parts[i].name, 32, &view, error, sizeof error));
        assert_string_equal(view.name, parts[i].name);
        assert_true(cpu_view_valid(&view, error, sizeof error));
        struct cpu_view_identity id;
        cpu_view_identify(&view, &id);
        assert_string_equal(id.vendor, "GenuineIntel");
        assert_int_equal(id.family, parts[i].family);
        assert_int_equal(id.model, parts[i].model);
        assert_int_equal(id.stepping, parts[i].stepping);
        assert_int_equal(cpu_view_answer(&view, 1, 0).edx, parts[i].edx1);
    }
    struct cpu_view view;
    assert_false(cpu_view_named("pentium", 32, &view, error, sizeof error));
    assert_string_equal(error, "unknown CPU 'pentium' (expected host, p5, pmmx, netburst, "
                               "netburst-willamette, netburst-willamette0, netburst-northwood, "
                               "netburst-prescott or netburst-prescott4)");
    /* the list of names ends with NULL and every name is taken */
    size_t n = 0;
    for (; cpu_view_names[n]; n++)
        assert_true(cpu_view_named(cpu_view_names[n], 64, &view, error, sizeof error));
    assert_int_equal(n, 9);
}

/* The x86-64 baseline given to a part without it; a view with it is left
 * alone. */
static void test_widen_64(void **state)
{
    (void)state;
    char error[256];
    struct cpu_view view;
    assert_true(cpu_view_named("p5", 64, &view, error, sizeof error));
    assert_true(cpu_view_widen_64(&view));
    assert_true(cpu_view_valid(&view, error, sizeof error));
    assert_int_equal(cpu_view_answer(&view, 1, 0).edx, 0x000001bfu | 0x07808101u);
    assert_int_equal(cpu_view_answer(&view, 0x80000000u, 0).eax, 0x80000001u);
    assert_int_equal(cpu_view_answer(&view, 0x80000001u, 0).edx, 0x20000800u);
    assert_false(cpu_view_widen_64(&view));
    /* the Prescott of model 4 had EM64T: a 64-bit program sees SYSCALL
     * too, as in 64-bit mode, and nothing is added; a 32-bit one does
     * not */
    assert_true(cpu_view_named("netburst-prescott4", 64, &view, error, sizeof error));
    assert_int_equal(cpu_view_answer(&view, 0x80000001u, 0).edx, 0x20100800u);
    assert_false(cpu_view_widen_64(&view));
    assert_true(cpu_view_named("netburst-prescott4", 32, &view, error, sizeof error));
    assert_int_equal(cpu_view_answer(&view, 0x80000001u, 0).edx, 0x20100000u);
    /* the Northwood had none of it */
    assert_true(cpu_view_named("netburst", 64, &view, error, sizeof error));
    assert_true(cpu_view_widen_64(&view));
    assert_int_equal(cpu_view_answer(&view, 0x80000001u, 0).edx, 0x20000800u);
    assert_int_equal(cpu_view_answer(&view, 1, 0).edx, 0xbfebfbffu);
    /* a full table without the extended leaves is left as it is */
    assert_true(cpu_view_named("p5", 64, &view, error, sizeof error));
    for (uint32_t leaf = 2; view.n < CPU_VIEW_MAX_LEAVES; leaf++)
        view.leaves[view.n++] = (struct cpuid_leaf){leaf, ANY, {0, 0, 0, 0}};
    struct cpu_view full = view;
    assert_false(cpu_view_widen_64(&view));
    assert_memory_equal(&view, &full, sizeof view);
    struct cpu_view host;
    cpu_view_host(64, &host);
    struct cpu_view copy = host;
    assert_false(cpu_view_widen_64(&copy));
    assert_memory_equal(&copy, &host, sizeof host);
}

/* The host view: valid, the same at every call, no APIC ID, no feature
 * beyond valgrind's CPUs. */
static void test_host(void **state)
{
    (void)state;
    char error[256];
    for (int bits = 32; bits <= 64; bits += 32) {
        struct cpu_view a, b;
        cpu_view_host(bits, &a);
        cpu_view_host(bits, &b);
        assert_memory_equal(&a, &b, sizeof a);
        assert_string_equal(a.name, "host");
        assert_true(cpu_view_valid(&a, error, sizeof error));
        struct cpuid_regs l1 = cpu_view_answer(&a, 1, 0);
        assert_int_equal(l1.ebx >> 24, 0);
        assert_int_equal(l1.ecx & ~(bits == 64 ? 0x7ffafbffu : 0x0000e3bdu), 0);
        assert_int_equal(l1.edx & ~0xbfebfbffu, 0);
        struct cpuid_regs l7 = cpu_view_answer(&a, 7, 0);
        assert_int_equal(l7.ebx & ~(bits == 64 ? 0x27aau : 0), 0);
        assert_int_equal(l7.ecx | l7.edx | l7.eax, 0);
        assert_int_equal(cpu_view_answer(&a, 7, 1).eax, 0);
        /* XSAVE: x87, SSE and AVX at most, in the standard sizes */
        uint64_t xcr0 = cpu_view_xcr0(&a);
        assert_true(xcr0 == 0 || xcr0 == 3 || xcr0 == 7);
        if (xcr0)
            assert_int_equal(cpu_view_answer(&a, 0xd, 0).ebx, xcr0 == 7 ? 832 : 576);
        assert_int_equal(cpu_view_answer(&a, 0xd, 1).eax, 0);
        assert_int_equal(cpu_view_answer(&a, 0xd, 5).eax, 0);
        if (bits == 32)
            assert_int_equal(xcr0, 0);
    }
}

static void test_hex(void **state)
{
    (void)state;
    struct cpu_view view;
    set_view(&view, "test", intel_leaves, 2);
    char hex[2 * 48 + 1];
    cpu_view_hex(&view, hex, sizeof hex);
    assert_string_equal(hex, "00000000ffffffff0000000d756e6547"
                             "6c65746e49656e69"
                             "00000001ffffffff000306c300100800"
                             "18000000bfebfbff");
}

/* ---- the view in a trace's header */

static char *write_trace(const struct trace_header *header, size_t *size)
{
    char *data = NULL, error[256];
    FILE *out = open_memstream(&data, size);
    assert_non_null(out);
    struct trace_writer *w = trace_writer_open(out, header, error, sizeof error);
    assert_non_null(w);
    struct trace_end end = {0, TRACE_EXITED, 0};
    assert_true(trace_write_end(w, &end));
    assert_true(trace_writer_close(w));
    assert_int_equal(fclose(out), 0);
    return data;
}

static bool read_header_of(const char *data, size_t size, struct trace_header *header,
                           char *error, size_t error_size)
{
    FILE *in = fmemopen((void *)data, size, "r");
    assert_non_null(in);
    struct trace_reader *r = trace_reader_open(in, "x.trace", error, error_size);
    if (r) {
        *header = *trace_reader_header(r);
        trace_reader_close(r);
    }
    fclose(in);
    return r != NULL;
}

static void test_header_round_trip(void **state)
{
    (void)state;
    static struct trace_header header, back;
    header.isa = TRACE_ISA_64;
    header.lengths_known = true;
    strcpy(header.recorder, "test");
    set_view(&header.cpu, "netburst", intel_leaves, 8);
    size_t size;
    char *data = write_trace(&header, &size);
    /* flags: ISA64 | CPU view */
    assert_int_equal((unsigned char)data[9], 0x09);
    char error[256];
    assert_true(read_header_of(data, size, &back, error, sizeof error));
    assert_memory_equal(&back.cpu, &header.cpu, sizeof header.cpu);
    free(data);
    /* no view: no flag, n == 0 read back */
    header.cpu.n = 0;
    data = write_trace(&header, &size);
    assert_int_equal((unsigned char)data[9], 0x01);
    assert_true(read_header_of(data, size, &back, error, sizeof error));
    assert_int_equal(back.cpu.n, 0);
    free(data);
}

/* A header with flags 0x09 and a view of the bytes `view`, then END. */
static void expect_bad_view(const char *view, size_t n, const char *message)
{
    char data[256];
    size_t at = 0;
    memcpy(data, "PMUTRACE\x02\x09\x00\x00\x00", 13);
    at = 13;
    memcpy(data + at, view, n);
    at += n;
    memcpy(data + at, "\x8f\x00\x00\x00", 4);
    at += 4;
    static struct trace_header header;
    char error[256];
    assert_false(read_header_of(data, at, &header, error, sizeof error));
    if (strcmp(error, message) != 0)
        fail_msg("'%s' is not '%s'", error, message);
}

static void test_header_bad_views(void **state)
{
    (void)state;
    expect_bad_view("\x01h\x00", 3, "x.trace: byte offset 16: a CPU view of 0 leaves (expected 1-192)");
    expect_bad_view("\x01h\xc1\x01", 4,
                    "x.trace: byte offset 17: a CPU view of 193 leaves (expected 1-192)");
    expect_bad_view("\x20" "0123456789abcdef0123456789abcdef\x01", 34,
                    "x.trace: byte offset 46: a CPU view's name of 32 bytes (expected 1-31)");
    expect_bad_view("\x01h\x01\x00\x00\x80\x80\x80\x80\x10", 10,
                    "x.trace: byte offset 23: a CPUID value of 4294967296 in the CPU view (at "
                    "most 2^32 - 1)");
    expect_bad_view("\x01h\x01\x01\x00\x00\x00\x00\x00", 9,
                    "x.trace: byte offset 22: a CPU view without leaf 0 (for every subleaf)");
    expect_bad_view("\x01h\x02\x00\xff\xff\xff\xff\x0f\x00\x00\x00\x00"
                    "\x00\xff\xff\xff\xff\x0f\x00\x00\x00\x00",
                    23,
                    "x.trace: byte offset 36: CPU view leaf 1 (0x0.ffffffff) does not follow "
                    "0x0.ffffffff (expected leaves in increasing order, each once)");
    expect_bad_view("\x00\x01", 2,
                    "x.trace: byte offset 14: a CPU view's name of 0 bytes (expected 1-31)");
    /* a version 1 trace has no view */
    static const char v1[] = "PMUTRACE\x01\x09\x00\x00\x00\x01h\x01\x00\x00\x00\x00\x00\x00\x8f\x00\x00\x00";
    static struct trace_header header;
    char error[256];
    assert_false(read_header_of(v1, sizeof v1 - 1, &header, error, sizeof error));
    assert_string_equal(error,
                        "x.trace: byte offset 10: header flag 0x8 (a CPU view) in a version 1 trace");
    /* ten leaves announced, one given: the END record's bytes are read as
     * the second, then the file ends */
    expect_bad_view("\x01h\x0a\x00\x00\x00\x00\x00\x00", 9,
                    "x.trace: byte offset 26: truncated: expected a CPUID leaf of the CPU view");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_answer),       cmocka_unit_test(test_xcr0),
        cmocka_unit_test(test_valid),        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_widen_64),     cmocka_unit_test(test_host),
        cmocka_unit_test(test_hex),          cmocka_unit_test(test_header_round_trip),
        cmocka_unit_test(test_header_bad_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
