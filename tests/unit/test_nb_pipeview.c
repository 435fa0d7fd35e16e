/* The NetBurst model's pipeline view (sim/netburst/nbm_pipeview.h,
 * docs/pipeview.md): the O3PipeView records of a hand-made loop, stage by
 * stage as the model's rules give them, the wrong path's squashed uops,
 * the instruction range, and a run with the view counting exactly what a
 * run without it counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmu/emulated/netburst_pmu.h"
#include "sim/netburst/nbm_model.h"
#include "sim/netburst/nbm_pipeview.h"
#include "tests/unit/model_trace.h"

/* The loop of tb_loop (add eax, 1; dec ecx; jnz) three times, then a nop:
 * the last jnz, predicted taken, is mispredicted, and its wrong path runs
 * until it executes. */
static void loop_trace(struct tb *t)
{
    tb_open(t);
    tb_loop(t, 3);
    tb_plain(t, 0x1007, "\x90", 1);
    tb_close(t);
}

/* The run of `path` on Northwood with the view of instructions `first` to
 * `last` (no view when `first` is 0): its text in *text (free it). */
static struct nbm_result run(const char *path, uint64_t first, uint64_t last, char **text)
{
    struct nbm_config config;
    char error[256];
    assert_true(nbm_config_preset("northwood", &config, error, sizeof error));
    struct msr_backend *backend = nb_backend_create((struct nb_pmu_config){config.model, false});
    assert_non_null(backend);
    size_t size;
    FILE *out = open_memstream(text, &size);
    assert_non_null(out);
    struct nbm_pipeview *view = first ? nbm_pipeview_create(out, first, last, 1) : NULL;
    struct nbm_hooks hooks = {.uops = view ? nbm_pipeview_hook(view) : NULL};
    struct nbm_result result;
    const char *traces[] = {path};
    if (!nbm_simulate(traces, 1, &config, backend, &hooks, &result, error, sizeof error))
        fail_msg("%s", error);
    nbm_pipeview_destroy(view);
    fclose(out);
    msr_backend_destroy(backend);
    return result;
}

/* The lines of `text` that begin with `prefix`. */
static int count_lines(const char *text, const char *prefix)
{
    int n = 0;
    for (const char *line = text; *line;) {
        n += strncmp(line, prefix, strlen(prefix)) == 0;
        const char *end = strchr(line, '\n');
        line = end ? end + 1 : line + strlen(line);
    }
    return n;
}

/* The first iteration, from the model's rules (docs/netburst-model.md,
 * "Front end", "Core"; tick = (cycle + 1) x 1000).  The add's trace line
 * misses the trace cache: its code chunk is translated (an ITLB miss, a
 * 20-cycle page walk) and read from memory (an L2 miss: 7 + 200), so it is
 * decoded into the uop queue in cycle 227, the dec and the jnz in 228 and
 * 229 (build mode: one instruction a cycle).  Each uop allocates the
 * cycle after its queue write (queue_to_alloc 1) and executes
 * alloc_to_exec (11) cycles after that; the add's result is half a cycle
 * later (a double-speed ALU), rounded up to cycle 240, the dec's too
 * (it issues in 240), the jnz's at its issue (Jcc: latency 0); each retires
 * the cycle after it completes, three a cycle. */
static const char first_iteration[] =
    "O3PipeView:fetch:228000:0x00001000:0:1:add eax, 1\n"
    "O3PipeView:decode:228000\n"
    "O3PipeView:rename:229000\n"
    "O3PipeView:dispatch:229000\n"
    "O3PipeView:issue:240000\n"
    "O3PipeView:complete:241000\n"
    "O3PipeView:retire:242000:store:0\n"
    "O3PipeView:fetch:229000:0x00001003:0:2:dec ecx\n"
    "O3PipeView:decode:229000\n"
    "O3PipeView:rename:230000\n"
    "O3PipeView:dispatch:230000\n"
    "O3PipeView:issue:241000\n"
    "O3PipeView:complete:242000\n"
    "O3PipeView:retire:243000:store:0\n"
    "O3PipeView:fetch:230000:0x00001005:0:3:jne 0x1000\n"
    "O3PipeView:decode:230000\n"
    "O3PipeView:rename:231000\n"
    "O3PipeView:dispatch:231000\n"
    "O3PipeView:issue:242000\n"
    "O3PipeView:complete:242000\n"
    "O3PipeView:retire:243000:store:0\n";

/* The whole view: the first iteration as worked out; a record per uop,
 * retired ones (retire not 0) the uops the model retires, the squashed
 * ones with an allocation (rename not 0) the bogus uops it counts; and the
 * run's result (instructions, uops, cycles, replays, bogus uops...) the
 * same as without the view. */
static void test_loop_records(void **state)
{
    (void)state;
    struct tb t;
    loop_trace(&t);
    char *text, *none;
    struct nbm_result with = run(t.path, 1, UINT64_MAX, &text);
    struct nbm_result without = run(t.path, 0, 0, &none);
    unlink(t.path);
    assert_memory_equal(&with, &without, sizeof with);
    assert_string_equal(none, "");
    assert_int_equal(strncmp(text, first_iteration, strlen(first_iteration)), 0);
    int records = count_lines(text, "O3PipeView:fetch:");
    int squashed = count_lines(text, "O3PipeView:retire:0:");
    int dropped = count_lines(text, "O3PipeView:rename:0\n");
    assert_int_equal(with.uops[0], 10);
    assert_int_equal(records - squashed, with.uops[0]);
    assert_true(with.bogus_uops[0] > 0);
    assert_int_equal(squashed - dropped, with.bogus_uops[0]);
    assert_int_equal(count_lines(text, "O3PipeView:"), 7 * records);
    free(none);
    free(text);
}

/* --pipeview-range 2:3: the dec's and the jnz's records alone, numbered
 * from 1; 9:9, the mispredicted jnz, and its wrong path's squashed uops
 * (every record after its own retires 0; it is delivered from the trace
 * cache in cycle 231, the third iteration); 10:10 the nop alone. */
static void test_range(void **state)
{
    (void)state;
    struct tb t;
    loop_trace(&t);
    char *text;
    run(t.path, 2, 3, &text);
    assert_int_equal(count_lines(text, "O3PipeView:fetch:"), 2);
    /* The first iteration's last two records, their SEQ 1 and 2. */
    char want[sizeof first_iteration];
    snprintf(want, sizeof want, "%s", strstr(first_iteration, "O3PipeView:fetch:229000"));
    memcpy(strstr(want, ":0:2:dec"), ":0:1:dec", 8);
    memcpy(strstr(want, ":0:3:jne"), ":0:2:jne", 8);
    assert_string_equal(text, want);
    free(text);
    run(t.path, 9, 9, &text);
    int records = count_lines(text, "O3PipeView:fetch:");
    assert_true(records > 1);
    assert_int_equal(count_lines(text, "O3PipeView:fetch:232000:0x00001005:0:1:jne 0x1000\n"), 1);
    assert_int_equal(count_lines(text, "O3PipeView:retire:0:"), records - 1);
    free(text);
    run(t.path, 10, 10, &text);
    unlink(t.path);
    assert_int_equal(count_lines(text, "O3PipeView:fetch:"), 1);
    assert_int_equal(strncmp(text, "O3PipeView:fetch:", 17), 0);
    assert_non_null(strstr(text, ":0x00001007:0:1:nop\n"));
    free(text);
}

/* FIRST:LAST: numbers from 1 (util/number.h's), FIRST <= LAST. */
static void test_range_read(void **state)
{
    (void)state;
    uint64_t first = 0, last = 0;
    char error[256];
    assert_true(nbm_pipeview_range_read("R", "1:1", &first, &last, error, sizeof error));
    assert_true(first == 1 && last == 1);
    assert_true(nbm_pipeview_range_read("R", "0x10:200", &first, &last, error, sizeof error));
    assert_true(first == 16 && last == 200);
    static const char *const bad[] = {"5:2", "x", "3", "0:3", "1:", ":2", "1:2:3", "-1:2", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(nbm_pipeview_range_read("R", bad[i], &first, &last, error, sizeof error));
        char want[128];
        snprintf(want, sizeof want, "bad R '%s' (expected FIRST:LAST, instruction numbers from "
                 "1 with FIRST <= LAST)", bad[i]);
        assert_string_equal(error, want);
    }
    assert_true(first == 16 && last == 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_records),
        cmocka_unit_test(test_range),
        cmocka_unit_test(test_range_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
