/* The NetBurst model's limit on outstanding L1 load misses
 * (docs/netburst-model.md, "Memory": `l1d_load_misses`): hand-made traces,
 * exact cycle counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmu/emulated/netburst_pmu.h"
#include "sim/netburst/nbm_model.h"
#include "tests/unit/model_trace.h"
#include "traces/trace.h"

#define LOAD "\x8b\x06", 2 /* mov eax, [rsi]: one load uop, independent of the last */

enum { LOADS = 8, LINE = 128 }; /* an L2 line each: no sector brought by another */

/* LOADS independent loads of distinct lines, none cached: each misses the
 * L1 and the L2 and goes to memory. */
static void write_missing_loads(struct tb *t)
{
    tb_open(t);
    for (int i = 0; i < LOADS; i++)
        tb_access(t, 0x1000 + 2 * (uint64_t)i, LOAD, TRACE_LOAD, 0x100000 + LINE * (uint64_t)i,
                  4);
    tb_close(t);
}

/* Cycles the northwood preset takes over `path` with `misses` slots. */
static uint64_t cycles_with(const char *path, const char *misses, uint64_t instructions)
{
    struct nbm_config config;
    char error[256];
    assert_true(nbm_config_preset("northwood", &config, error, sizeof error));
    assert_true(nbm_config_set(&config, "l1d_load_misses", misses, error, sizeof error));
    struct nbm_result result = tb_simulate(path, &config);
    assert_int_equal(result.instructions[0], instructions);
    return result.cycles;
}

/* The first load walks the DTLB (20 cycles) and misses the L1 at cycle
 * 259; the other seven find the page's entry at once ("Memory") and miss
 * at cycles 240-246.  Each miss takes l2_latency + memory_latency = 207
 * cycles.  With eight slots or more none waits: the last data is back at
 * 466 and the run ends at 472.  With four, loads 5-8 take the slots of
 * loads 2, 3, 4 and 1, free at 447, 448, 449 and 466: the last data is
 * back at 673 and the run ends at 677.  With one slot the eight misses are
 * serial: 259 + 8 x 207 = 1915, ending at 1919. */
static void test_outstanding_misses(void **state)
{
    (void)state;
    struct tb t;
    write_missing_loads(&t);
    assert_int_equal(cycles_with(t.path, "64", LOADS), 472);
    assert_int_equal(cycles_with(t.path, "8", LOADS), 472);
    assert_int_equal(cycles_with(t.path, "4", LOADS), 677);
    assert_int_equal(cycles_with(t.path, "1", LOADS), 1919);
    unlink(t.path);
}

/* Loads that hit the L1 take no slot: with one slot, the same eight lines
 * loaded a second time (all hits) add 2 cycles, not 8 x 207. */
static void test_hits_take_no_slot(void **state)
{
    (void)state;
    struct tb twice;
    tb_open(&twice);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < LOADS; i++)
            tb_access(&twice, 0x1000 + 2 * (uint64_t)(pass * LOADS + i), LOAD, TRACE_LOAD,
                      0x100000 + LINE * (uint64_t)i, 4);
    tb_close(&twice);
    assert_int_equal(cycles_with(twice.path, "1", 2 * LOADS), 1919 + 2);
    unlink(twice.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outstanding_misses),
        cmocka_unit_test(test_hits_take_no_slot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
