/* The GTKWave save file of `run --vcd` (pmu/waveform/gtkw.h, docs/semantics.md
 * "The waveform"): read back with a parser of its own, every signal it
 * names is one the VCD declares, in the VCD's order, with its width, each
 * scope a group of its own (the detectors first) and every signal in
 * decimal. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "pmu/waveform/gtkw.h"

struct sig {
    char scope[40], name[40];
    int width;
};

struct layout {
    struct sig sigs[64];
    int n;
    char groups[16][40]; /* the scope of each group, in order */
    int n_groups;
};

/* "$scope module S $end" and "$var wire W ID NAME [M:0] $end" lines. */
static void parse_vcd(const char *path, struct layout *vcd)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[256], scope[40] = "", name[40];
    int width;
    memset(vcd, 0, sizeof *vcd);
    while (fgets(line, sizeof line, f) && !strstr(line, "$enddefinitions")) {
        if (sscanf(line, "$scope module %39s $end", scope) == 1)
            continue;
        if (sscanf(line, "$var wire %d %*s %39s", &width, name) == 2) {
            assert_true(vcd->n < 64);
            struct sig *s = &vcd->sigs[vcd->n++];
            snprintf(s->scope, sizeof s->scope, "%s", scope);
            snprintf(s->name, sizeof s->name, "%s", name);
            s->width = width;
        }
    }
    fclose(f);
}

/* The save file: "@HEX" flags for the traces below, "-NAME" comment
 * traces (group markers under the group flags), "[...]" settings (the
 * dump and the save file named absolutely, `dumpfile` and `savefile`) and
 * "SCOPE.NAME" or "SCOPE.NAME[M:0]" signals. */
static void parse_gtkw(const char *path, const char *dumpfile, const char *savefile,
                       struct layout *gtkw)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[256], open_group[40] = "";
    unsigned long long flags = 0;
    bool dumpfile_seen = false, savefile_seen = false;
    memset(gtkw, 0, sizeof *gtkw);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char quoted[200];
        if (sscanf(line, "[dumpfile] \"%199[^\"]\"", quoted) == 1) {
            assert_string_equal(quoted, dumpfile);
            dumpfile_seen = true;
        } else if (sscanf(line, "[savefile] \"%199[^\"]\"", quoted) == 1) {
            assert_string_equal(quoted, savefile);
            savefile_seen = true;
        } else if (line[0] == '[') {
            continue;
        } else if (line[0] == '@') {
            flags = strtoull(line + 1, NULL, 16);
        } else if (line[0] == '-') {
            assert_true(flags & GTKW_TR_BLANK);
            if (flags & GTKW_TR_GRP_BEGIN) {
                assert_string_equal(open_group, "");
                assert_true(gtkw->n_groups < 16);
                snprintf(gtkw->groups[gtkw->n_groups++], 40, "%.39s", line + 1);
                snprintf(open_group, sizeof open_group, "%.39s", line + 1);
            } else {
                assert_true(flags & GTKW_TR_GRP_END);
                assert_string_equal(open_group, line + 1);
                open_group[0] = '\0';
            }
        } else {
            assert_true(flags & GTKW_TR_DEC);
            assert_true(gtkw->n < 64);
            struct sig *s = &gtkw->sigs[gtkw->n++];
            int msb = 0;
            assert_int_equal(sscanf(line, "%39[^.].%39[^[][%d:0]", s->scope, s->name, &msb) >= 2,
                             1);
            s->width = msb + 1;
            assert_string_equal(s->scope, open_group); /* grouped under its scope */
        }
    }
    fclose(f);
    assert_true(dumpfile_seen);
    assert_true(savefile_seen);
    assert_string_equal(open_group, "");
}

/* Runs `script` with a waveform at `vcd` and its save file at `gtkw`. */
static void run_waveform(const char *script, const char *vcd, const char *gtkw)
{
    char error[512];
    FILE *in = fmemopen((void *)script, strlen(script), "r");
    struct bench_script parsed;
    assert_int_equal(bench_parse(in, "t.pmu", &parsed, error, sizeof error), BENCH_OK);
    fclose(in);
    FILE *out = fopen("/dev/null", "w");
    struct bench_options opt = {.out = out, .vcd_path = vcd, .gtkw_path = gtkw};
    assert_int_equal(bench_run(&parsed, &opt, error, sizeof error), BENCH_OK);
    fclose(out);
    bench_script_free(&parsed);
}

/* Runs `script` with a waveform at `vcd` (and its save file), then checks
 * the save file against the VCD; the group scopes must be `groups`. */
static void check_layout(const char *script, const char *vcd, const char *const *groups,
                         int n_groups, int n_signals)
{
    char gtkw[256];
    assert_true(gtkw_path_for(vcd, gtkw, sizeof gtkw));
    run_waveform(script, vcd, gtkw);
    struct layout from_vcd, from_gtkw;
    parse_vcd(vcd, &from_vcd);
    parse_gtkw(gtkw, vcd, gtkw, &from_gtkw);
    assert_int_equal(from_vcd.n, n_signals);
    assert_int_equal(from_gtkw.n, from_vcd.n);
    for (int i = 0; i < from_vcd.n; i++) {
        assert_string_equal(from_gtkw.sigs[i].scope, from_vcd.sigs[i].scope);
        assert_string_equal(from_gtkw.sigs[i].name, from_vcd.sigs[i].name);
        assert_int_equal(from_gtkw.sigs[i].width, from_vcd.sigs[i].width);
    }
    assert_int_equal(from_gtkw.n_groups, n_groups);
    for (int g = 0; g < n_groups; g++)
        assert_string_equal(from_gtkw.groups[g], groups[g]);
    unlink(vcd);
    unlink(gtkw);
}

static void test_netburst_layout(void **state)
{
    (void)state;
    static const char *const groups[] = {"detectors", "IQ_COUNTER0", "IQ_COUNTER2"};
    char dir[] = "/tmp/pmubench-gtkw-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char vcd[64];
    snprintf(vcd, sizeof vcd, "%s/nb.vcd", dir);
    /* 2 detector outputs, 2 counters of 6 signals. */
    check_layout("cpu netburst\n"
                 "wrmsr MSR_CRU_ESCR2 0x0c000804\n"
                 "wrmsr MSR_CRU_ESCR3 0x0c000804\n"
                 "wrmsr MSR_IQ_CCCR0 0x0003b000\n"
                 "wrmsr MSR_IQ_CCCR2 0x0003b000\n"
                 "event branch_retired:MMTP count=3\n"
                 "tick 2\n",
                 vcd, groups, 3, 2 + 2 * 6);
    rmdir(dir);
}

static void test_p5_layout(void **state)
{
    (void)state;
    static const char *const groups[] = {"CTR0", "CTR1"};
    char dir[] = "/tmp/pmubench-gtkw-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char vcd[64];
    snprintf(vcd, sizeof vcd, "%s/p5", dir); /* no .vcd suffix: p5.gtkw */
    check_layout("cpu p5\nwrmsr CESR 0x1c0\ntick 3\n", vcd, groups, 2, 4);
    rmdir(dir);
}

/* The save file opens from any folder: with relative names, the VCD in
 * one folder and the save file in another, the save file names both
 * absolutely ([dumpfile] opens from elsewhere; [savefile] is where GTKWave
 * finds the dump again after both moved). */
static void test_folders_apart(void **state)
{
    (void)state;
    char dir[] = "/tmp/pmubench-gtkw-XXXXXX", cwd[4096], real[4096], vcd[4200], gtkw[4200];
    assert_non_null(mkdtemp(dir));
    assert_non_null(realpath(dir, real));
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    assert_int_equal(mkdir("dumps", 0700), 0);
    assert_int_equal(mkdir("views", 0700), 0);
    run_waveform("cpu p5\nwrmsr CESR 0x1c0\ntick 3\n", "dumps/w.vcd", "views/w.gtkw");
    assert_int_equal(chdir("/"), 0);
    snprintf(vcd, sizeof vcd, "%s/dumps/w.vcd", real);
    snprintf(gtkw, sizeof gtkw, "%s/views/w.gtkw", real);
    struct layout from_gtkw;
    parse_gtkw(gtkw, vcd, gtkw, &from_gtkw);
    FILE *dump = fopen(vcd, "r"); /* from "/", as the save file names it */
    assert_non_null(dump);
    fclose(dump);
    assert_int_equal(from_gtkw.n, 4);
    unlink(vcd);
    unlink(gtkw);
    snprintf(vcd, sizeof vcd, "%s/dumps", real);
    rmdir(vcd);
    snprintf(gtkw, sizeof gtkw, "%s/views", real);
    rmdir(gtkw);
    rmdir(real);
    assert_int_equal(chdir(cwd), 0);
}

/* The absolute name of a file yet to be made; none in a folder that does
 * not exist. */
static void test_absolute_path(void **state)
{
    (void)state;
    char out[4096], cwd[4096], want[4200];
    assert_true(gtkw_absolute_path("/tmp/../tmp/x.vcd", out, sizeof out));
    assert_string_equal(out, "/tmp/x.vcd");
    assert_true(gtkw_absolute_path("/x.vcd", out, sizeof out));
    assert_string_equal(out, "/x.vcd");
    assert_non_null(realpath(".", cwd));
    snprintf(want, sizeof want, "%s/x.vcd", cwd);
    assert_true(gtkw_absolute_path("x.vcd", out, sizeof out));
    assert_string_equal(out, want);
    assert_false(gtkw_absolute_path("/no/such/folder/x.vcd", out, sizeof out));
    assert_false(gtkw_absolute_path("/tmp/x.vcd", out, 8));
}

static void test_path_rule(void **state)
{
    (void)state;
    char out[16];
    assert_true(gtkw_path_for("demo.vcd", out, sizeof out));
    assert_string_equal(out, "demo.gtkw");
    assert_true(gtkw_path_for("a/w", out, sizeof out));
    assert_string_equal(out, "a/w.gtkw");
    assert_true(gtkw_path_for(".vcd", out, sizeof out)); /* no name before the suffix */
    assert_string_equal(out, ".vcd.gtkw");
    assert_true(gtkw_path_for("x.VCD", out, sizeof out)); /* the suffix as written */
    assert_string_equal(out, "x.VCD.gtkw");
    assert_false(gtkw_path_for("0123456789.vcd", out, 8));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_netburst_layout),
        cmocka_unit_test(test_p5_layout),
        cmocka_unit_test(test_folders_apart),
        cmocka_unit_test(test_absolute_path),
        cmocka_unit_test(test_path_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
