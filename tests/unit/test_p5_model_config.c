/* The P5 model's parameters: presets, p5_config_set, the host preset read
 * from a fake /sys cache directory, and their one-line errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim/p5/p5_model.h"

static struct p5_config preset(const char *name)
{
    struct p5_config config;
    char error[256];
    if (!p5_config_preset(name, &config, error, sizeof error))
        fail_msg("%s", error);
    return config;
}

/* Field by field: padding bytes are not part of a value. */
static void assert_same_config(const struct p5_config *a, const struct p5_config *b)
{
    const struct p5_cache_config *caches_a[] = {&a->dcache, &a->icache};
    const struct p5_cache_config *caches_b[] = {&b->dcache, &b->icache};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(caches_a[i]->size, caches_b[i]->size);
        assert_int_equal(caches_a[i]->ways, caches_b[i]->ways);
        assert_int_equal(caches_a[i]->line, caches_b[i]->line);
    }
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->dtlb.entries, b->dtlb.entries);
    assert_int_equal(a->itlb.entries, b->itlb.entries);
    assert_int_equal(a->btb_entries, b->btb_entries);
    assert_int_equal(a->btb_ways, b->btb_ways);
    assert_int_equal(a->l2_size, b->l2_size);
    assert_int_equal(a->l2_latency, b->l2_latency);
    assert_int_equal(a->errata, b->errata);
    assert_int_equal(a->dcache_write_back, b->dcache_write_back);
    assert_int_equal(a->fpu_precision, b->fpu_precision);
}

static void test_p5_preset_is_table_5_5(void **state)
{
    (void)state;
    struct p5_config c = preset("p5");
    assert_string_equal(c.name, "p5");
    assert_int_equal(c.dcache.size, 8192);
    assert_int_equal(c.dcache.ways, 2);
    assert_int_equal(c.dcache.line, 32);
    assert_int_equal(c.icache.size, 8192);
    assert_int_equal(c.dtlb.entries, 64);
    assert_int_equal(c.itlb.entries, 32);
    assert_int_equal(c.btb_entries, 256);
    assert_int_equal(c.btb_ways, 4);
    assert_int_equal(c.write_buffers, 2);
    assert_int_equal(c.l2_size, 256 * 1024);
    assert_int_equal(c.l2_ways, 1);
    /* 66 MHz bus clocks x 1.5, rounded up: 3 -> 5, 10 -> 15, 6 -> 9, 19 -> 29 */
    assert_int_equal(c.l2_latency, 5);
    assert_int_equal(c.memory_latency, 15);
    assert_int_equal(c.l2_burst, 9);
    assert_int_equal(c.memory_burst, 29);
    assert_int_equal(c.errata, P5_ERRATA_ALL);
    assert_true(c.dcache_write_back);
    assert_false(c.dcache_write_allocate);
    /* FNINIT's control word 0x37F: precision control 11b, extended */
    assert_int_equal(c.fpu_precision, P5_PRECISION_EXTENDED);
    char error[256];
    assert_true(p5_config_check(&c, error, sizeof error));
}

/* The Pentium MMX: the P5's but for 16 KB 4-way code and data caches
 * and the MMX unit. */
static void test_pmmx_preset(void **state)
{
    (void)state;
    struct p5_config c = preset("pmmx");
    assert_string_equal(c.name, "pmmx");
    assert_int_equal(c.dcache.size, 16384);
    assert_int_equal(c.dcache.ways, 4);
    assert_int_equal(c.dcache.line, 32);
    assert_int_equal(c.icache.size, 16384);
    assert_int_equal(c.icache.ways, 4);
    assert_int_equal(c.icache.line, 32);
    assert_true(c.mmx);
    assert_int_equal(c.btb_entries, 256);
    assert_false(preset("p5").mmx);
    char error[256];
    assert_true(p5_config_check(&c, error, sizeof error));
    struct p5_config p5 = preset("p5");
    assert_true(p5_config_set(&p5, "mmx", "on", error, sizeof error));
    assert_true(p5.mmx);
}

static void test_unknown_preset(void **state)
{
    (void)state;
    struct p5_config c;
    char error[256];
    assert_false(p5_config_preset("p6", &c, error, sizeof error));
    assert_string_equal(error, "unknown P5 model preset 'p6' (did you mean 'p5'?)");
    assert_false(p5_config_preset("k6-2", &c, error, sizeof error));
    assert_string_equal(error, "unknown P5 model preset 'k6-2' (expected p5, pmmx or host)");
}

static void test_set_parameters(void **state)
{
    (void)state;
    struct p5_config c = preset("p5");
    char error[256];
    assert_true(p5_config_set(&c, "btb_entries", "512", error, sizeof error));
    assert_int_equal(c.btb_entries, 512);
    assert_true(p5_config_set(&c, "dcache_size", "0x4000", error, sizeof error));
    assert_int_equal(c.dcache.size, 16384);
    assert_true(p5_config_set(&c, "dcache_write_allocate", "on", error, sizeof error));
    assert_true(c.dcache_write_allocate);
    assert_true(p5_config_set(&c, "errata", "misaligned_double_miss,misaligned_stall_2", error,
                              sizeof error));
    assert_int_equal(c.errata, P5_ERRATUM_MISALIGNED_DOUBLE_MISS | P5_ERRATUM_MISALIGNED_STALL_2);
    assert_true(p5_config_set(&c, "erratum_misaligned_stall_2", "off", error, sizeof error));
    assert_int_equal(c.errata, P5_ERRATUM_MISALIGNED_DOUBLE_MISS);
    assert_true(p5_config_set(&c, "errata", "all", error, sizeof error));
    assert_int_equal(c.errata, P5_ERRATA_ALL);
    assert_true(p5_config_set(&c, "fpu_precision", "single", error, sizeof error));
    assert_int_equal(c.fpu_precision, P5_PRECISION_SINGLE);
    assert_true(p5_config_set(&c, "fpu_precision", "double", error, sizeof error));
    assert_int_equal(c.fpu_precision, P5_PRECISION_DOUBLE);
    assert_true(p5_config_set(&c, "fpu_precision", "extended", error, sizeof error));
    assert_int_equal(c.fpu_precision, P5_PRECISION_EXTENDED);
}

static void test_set_errors(void **state)
{
    (void)state;
    struct p5_config c = preset("p5");
    struct p5_config before = c;
    char error[256];
    assert_false(p5_config_set(&c, "dcache_line", "48", error, sizeof error));
    assert_string_equal(error, "bad dcache_line '48' (expected a power of two)");
    assert_false(p5_config_set(&c, "btb_ways", "0", error, sizeof error));
    assert_string_equal(error, "bad btb_ways '0' (expected a number: decimal or 0x hex, 1 to "
                               "1073741824)");
    assert_false(p5_config_set(&c, "l2_size", "3072", error, sizeof error));
    assert_string_equal(error, "bad l2_size '3072' (expected 0, no L2, or a power of two)");
    assert_false(p5_config_set(&c, "dcache_size", "020000", error, sizeof error));
    assert_string_equal(error, "bad dcache_size '020000' (expected a number: decimal or 0x hex, "
                               "1 to 1073741824)");
    assert_false(p5_config_set(&c, "l2_latency", "-1", error, sizeof error));
    assert_non_null(strstr(error, "l2_latency"));
    assert_false(p5_config_set(&c, "l2_latency", "5x", error, sizeof error));
    assert_false(p5_config_set(&c, "dcache_write_back", "maybe", error, sizeof error));
    assert_string_equal(error, "P5 model parameter dcache_write_back: 'maybe' (expected on or off)");
    assert_false(p5_config_set(&c, "errata", "all,fdiv", error, sizeof error));
    assert_non_null(strstr(error, "errata: 'all,fdiv'"));
    assert_false(p5_config_set(&c, "erratum_fdiv", "on", error, sizeof error));
    assert_string_equal(error, "unknown P5 model parameter 'erratum_fdiv'");
    assert_false(p5_config_set(&c, "cache_size", "1", error, sizeof error));
    assert_string_equal(error, "unknown P5 model parameter 'cache_size' (did you mean "
                               "'dcache_size'?)");
    assert_false(p5_config_set(&c, "erratum_misaligned_stall2", "on", error, sizeof error));
    assert_string_equal(error, "unknown P5 model parameter 'erratum_misaligned_stall2' (did you "
                               "mean 'erratum_misaligned_stall_2'?)");
    assert_false(p5_config_set(&c, "fpu_precision", "64", error, sizeof error));
    assert_string_equal(error, "P5 model parameter fpu_precision: '64' (expected single, double "
                               "or extended)");
    assert_same_config(&c, &before);
}

static void test_check_inconsistent_geometry(void **state)
{
    (void)state;
    struct p5_config c = preset("p5");
    char error[256];
    c.btb_ways = 3;
    assert_false(p5_config_check(&c, error, sizeof error));
    assert_string_equal(error, "P5 model btb_entries: 256 is not 3 ways x 1 x a power-of-two "
                               "number of sets");
    c = preset("p5");
    c.write_buffers = 100;
    assert_false(p5_config_check(&c, error, sizeof error));
    assert_non_null(strstr(error, "write_buffers: 100"));
    c = preset("p5");
    c.fpu_precision = P5_NUM_PRECISIONS;
    assert_false(p5_config_check(&c, error, sizeof error));
    assert_string_equal(error, "P5 model fpu_precision: 3 (expected 0-2)");
}

/* ---- the host preset from a fake /sys/devices/system/cpu/cpu0/cache */

struct fake_sys {
    char root[64];
};

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void add_cache(struct fake_sys *s, int index, const char *level, const char *type,
                      const char *size, const char *ways, const char *line)
{
    char dir[128];
    snprintf(dir, sizeof dir, "%s/index%d", s->root, index);
    assert_int_equal(mkdir(dir, 0700), 0);
    write_file(dir, "level", level);
    write_file(dir, "type", type);
    write_file(dir, "size", size);
    write_file(dir, "ways_of_associativity", ways);
    write_file(dir, "coherency_line_size", line);
}

static void make_fake_sys(struct fake_sys *s)
{
    strcpy(s->root, "/tmp/test_p5_sys_XXXXXX");
    assert_non_null(mkdtemp(s->root));
    add_cache(s, 0, "1\n", "Data\n", "48K\n", "12\n", "64\n");
    add_cache(s, 1, "1\n", "Instruction\n", "32K\n", "8\n", "64\n");
    add_cache(s, 2, "2\n", "Unified\n", "2048K\n", "16\n", "64\n");
    add_cache(s, 3, "3\n", "Unified\n", "105M\n", "15\n", "64\n");
}

static void remove_fake_sys(struct fake_sys *s)
{
    static const char *const files[] = {"level", "type", "size", "ways_of_associativity",
                                        "coherency_line_size"};
    for (int i = 0; i < 4; i++) {
        char dir[128], path[256];
        snprintf(dir, sizeof dir, "%s/index%d", s->root, i);
        for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
            snprintf(path, sizeof path, "%s/%s", dir, files[f]);
            unlink(path);
        }
        rmdir(dir);
    }
    rmdir(s->root);
}

static void test_host_preset_from_sys(void **state)
{
    (void)state;
    struct fake_sys s;
    make_fake_sys(&s);
    struct p5_config c;
    char error[256];
    if (!p5_config_preset_from("host", s.root, &c, error, sizeof error))
        fail_msg("%s", error);
    assert_string_equal(c.name, "host");
    assert_int_equal(c.dcache.size, 48 * 1024);
    assert_int_equal(c.dcache.ways, 12);
    assert_int_equal(c.dcache.line, 64);
    assert_int_equal(c.icache.size, 32 * 1024);
    assert_int_equal(c.icache.ways, 8);
    assert_int_equal(c.l2_size, 2048 * 1024);
    assert_int_equal(c.l2_ways, 16);
    assert_int_equal(c.l2_line, 64);
    /* the rest stays the P5's */
    assert_int_equal(c.dtlb.entries, 64);
    assert_int_equal(c.btb_entries, 256);
    assert_int_equal(c.l2_latency, 5);
    remove_fake_sys(&s);
}

static void test_host_preset_bad_file(void **state)
{
    (void)state;
    struct fake_sys s;
    make_fake_sys(&s);
    char dir[128], expected[256];
    snprintf(dir, sizeof dir, "%s/index1", s.root);
    write_file(dir, "size", "lots\n");
    struct p5_config c = preset("p5"), before = c;
    char error[256];
    assert_false(p5_config_preset_from("host", s.root, &c, error, sizeof error));
    snprintf(expected, sizeof expected, "%s/index1/size: 'lots' (expected a size in bytes such as 32K)",
             s.root);
    assert_string_equal(error, expected);
    assert_same_config(&c, &before);

    write_file(dir, "size", "32K\n");
    write_file(dir, "ways_of_associativity", "3\n");
    assert_false(p5_config_preset_from("host", s.root, &c, error, sizeof error));
    assert_non_null(strstr(error, "icache_size: 32768 is not 3 ways x 64"));
    remove_fake_sys(&s);

    assert_false(p5_config_preset_from("host", "/nonexistent/cache", &c, error, sizeof error));
    assert_string_equal(error, "/nonexistent/cache: No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_p5_preset_is_table_5_5),
        cmocka_unit_test(test_pmmx_preset),
        cmocka_unit_test(test_unknown_preset),
        cmocka_unit_test(test_set_parameters),
        cmocka_unit_test(test_set_errors),
        cmocka_unit_test(test_check_inconsistent_geometry),
        cmocka_unit_test(test_host_preset_from_sys),
        cmocka_unit_test(test_host_preset_bad_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
