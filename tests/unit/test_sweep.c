/* Sweeps (apps/sweep/sweep.h): the spec parser and its messages, the jobs'
 * order, ids and command lines, the Slurm script, the results' directory
 * and the merged table of hand-written results. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apps/sweep/sweep.h"

static const char spec_text[] = "# two traces, three presets, two latencies\n"
                                "trace a.trace  /t/b.trace\r\n"
                                "model netburst-northwood netburst-prescott\n"
                                "\tmodel netburst-willamette\n"
                                "param l1d_latency=2,9\n"
                                "events global_power_events:RUNNING,instr_retired:NBOGUSNTAG\n";

static void parse(const char *text, struct sweep_spec *spec)
{
    char error[1024] = "";
    bool ok = sweep_spec_parse(text, strlen(text), "s.sweep", "/base", spec, error, sizeof error);
    if (!ok)
        fail_msg("%s", error);
}

static void parses_a_spec(void **state)
{
    (void)state;
    struct sweep_spec spec;
    parse(spec_text, &spec);
    assert_int_equal(spec.n_traces, 2);
    assert_string_equal(spec.traces[0], "a.trace");
    assert_string_equal(spec.traces[1], "/t/b.trace");
    assert_int_equal(spec.n_models, 3);
    assert_string_equal(spec.models[2], "netburst-willamette");
    assert_int_equal(spec.n_params, 1);
    assert_string_equal(spec.params[0].name, "l1d_latency");
    assert_int_equal(spec.params[0].n_values, 2);
    assert_string_equal(spec.params[0].values[1], "9");
    assert_int_equal(spec.params[0].line, 5);
    assert_string_equal(spec.events, "global_power_events:RUNNING,instr_retired:NBOGUSNTAG");
    assert_int_equal(sweep_job_count(&spec), 12);
    sweep_spec_free(&spec);
    /* netburst_p:: events on Northwood, whose jobs all set a CPUID model
     * that has them. */
    parse("trace a\nmodel netburst-northwood\nparam model=3,4 l1d_latency=2\n"
          "events netburst_p::instr_completed:NBOGUS\n",
          &spec);
    sweep_spec_free(&spec);
}

/* Each bad line: one message naming the file and line. */
static void rejects_bad_lines(void **state)
{
    (void)state;
    static const struct {
        const char *text, *error;
    } cases[] = {
        {"trace a\nmodel p5\nlatency 2\n",
         "s.sweep:3: unknown keyword 'latency' (expected trace, model, param or events)"},
        {"trace a\nmodel p5 k6\n",
         "s.sweep:2: model: unknown model 'k6' (expected p5, pmmx, host, netburst or "
         "netburst-PRESET)"},
        {"trace a\nmodel netburst-northwood\nparam l1_latency=2\n",
         "s.sweep:3: param 'l1_latency' on model netburst-northwood: unknown parameter "
         "'l1_latency' (did you mean 'l1d_latency'?)"},
        {"trace a\nmodel netburst\nparam l1d_latency=\n",
         "s.sweep:3: param 'l1d_latency': an empty value (expected NAME=VALUE[,VALUE...])"},
        {"trace a\nmodel netburst\nparam l1d_latency=2,,3\n",
         "s.sweep:3: param 'l1d_latency': an empty value (expected NAME=VALUE[,VALUE...])"},
        {"trace a\nmodel netburst\nparam l1d_latency\n",
         "s.sweep:3: param: bad 'l1d_latency' (expected NAME=VALUE[,VALUE...])"},
        {"trace\n", "s.sweep:1: trace: no value (expected 'trace FILE...')"},
        {"trace a b a\n", "s.sweep:1: trace 'a' given twice"},
        {"trace a\nmodel p5\nparam x=1\nparam x=2\n",
         "s.sweep:4: param 'x' given twice (first on line 3)"},
        {"trace a\nmodel p5\nevents a,,b\n",
         "s.sweep:3: events: an empty event name (expected EVENT[,EVENT...])"},
        {"trace a\nmodel netburst\nevents p5::clocks\n",
         "s.sweep:3: events on model netburst: 'p5::clocks': not an event of the model's PMU "
         "(-m)"},
        {"trace a\nmodel p5\nevents clocks,CLOCKS,bogus\n",
         "s.sweep:3: events on model p5: p5::bogus: unknown P5 event 'bogus' ('pmubench list "
         "p5' shows the events; p5::clocks counts clocks)"},
        {"trace a\nmodel p5\nevents clocks:q\n",
         "s.sweep:3: events on model p5: p5::clocks:q: unknown P5 modifier 'q' (valid: u, k)"},
        {"trace a\nmodel netburst-prescott\nparam model=3,0\nevents instr_completed:NBOGUS\n",
         "s.sweep:4: events on model netburst-prescott with model=0: "
         "netburst::instr_completed:NBOGUS: event instr_completed does not exist on model 0 (it "
         "needs netburst_p: models 3, 4, 6)"},
        {"model p5\n", "s.sweep: no trace (expected a line 'trace FILE...')"},
        {"trace a\n", "s.sweep: no model (expected a line 'model MODEL...')"},
        {"trace a\nmodel netburst\nparam l1d_latency=99999999\n",
         "s.sweep:3: param 'l1d_latency' on model netburst: bad l1d_latency '99999999' "
         "(expected a number: decimal or 0x hex, 1 to 1000)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct sweep_spec spec;
        char error[1024] = "";
        assert_false(sweep_spec_parse(cases[i].text, strlen(cases[i].text), "s.sweep", "/",
                                      &spec, error, sizeof error));
        assert_string_equal(error, cases[i].error);
    }
}

/* Trace outermost, the last param's value fastest; ids from the job's own
 * parameters: the same after values are appended or lines reordered. */
static void orders_and_names_jobs(void **state)
{
    (void)state;
    struct sweep_spec spec, grown;
    parse("trace a.trace b.trace\nmodel netburst-northwood netburst-prescott\n"
          "param l1d_latency=2,9\n",
          &spec);
    parse("param l1d_latency=2,9,4\nmodel netburst-prescott netburst-northwood\n"
          "trace a.trace b.trace c.trace\n",
          &grown);
    struct sweep_job job, same;
    sweep_job_at(&spec, 5, &job);
    assert_int_equal(job.trace, 1);
    assert_int_equal(job.model, 0);
    assert_int_equal(job.values[0], 1);
    sweep_job_at(&spec, 0, &job);
    assert_string_equal(job.id, "c43f56e36a6bac0d");
    sweep_job_at(&grown, 3, &same); /* a.trace, northwood, 2 */
    assert_string_equal(same.id, job.id);
    sweep_job_at(&spec, 1, &job);
    assert_string_equal(job.id, "c45dece36a85a87e");
    char *describe = sweep_job_describe(&spec, &job);
    assert_string_equal(describe, "trace=a.trace model=netburst-northwood l1d_latency=9");
    free(describe);
    sweep_spec_free(&spec);
    sweep_spec_free(&grown);
}

static void writes_command_lines(void **state)
{
    (void)state;
    struct sweep_spec spec;
    parse("trace a.trace /t/it's.trace\nmodel p5\nparam dcache_size=8192\nevents p5::clocks\n",
          &spec);
    struct sweep_job job;
    sweep_job_at(&spec, 1, &job);
    char *command = sweep_job_command(&spec, &job, "/bin/pmubench", "/r");
    char want[1024];
    snprintf(want, sizeof want,
             "'/bin/pmubench' stat -m 'p5' -F 'dcache_size=8192' -e 'p5::clocks' --json -o "
             "'/r/%s.json' --trace '/t/it'\\''s.trace' 2>'/r/%s.err'",
             job.id, job.id);
    assert_string_equal(command, want);
    free(command);
    sweep_job_at(&spec, 0, &job);
    command = sweep_job_command(&spec, &job, "/bin/pmubench", "/r");
    assert_non_null(strstr(command, " --trace '/base/a.trace' "));
    free(command);
    sweep_spec_free(&spec);
}

static char *written(void (*write)(FILE *, const struct sweep_spec *, const struct sweep_merge *),
                     const struct sweep_spec *spec, const struct sweep_merge *merge)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    write(f, spec, merge);
    assert_int_equal(fclose(f), 0);
    return text;
}

static void put_file(const char *dir, const char *id, const char *suffix, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.%s", dir, id, suffix);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* Job 0 counted; job 1 failed (its error the last line that is not a
 * warning); job 2's result is of another model, so not its result, and
 * it left no error file: not run, as job 3. */
static void merges_results(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_sweep_XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct sweep_spec spec;
    parse("trace a.trace, b.trace\nmodel p5\nparam dcache_size=8192,16384\n", &spec);
    struct sweep_job jobs[4];
    for (size_t i = 0; i < 4; i++)
        sweep_job_at(&spec, i, &jobs[i]);
    put_file(dir, jobs[0].id, "json",
             "{\"model\": \"p5\", \"trace\": \"/base/a.trace,\", \"counts\": {\"clocks\": 120, "
             "\"data_read\": 7}}\n");
    put_file(dir, jobs[1].id, "err",
             "pmubench stat: warning: 64-bit code\npmubench stat: x: cannot open: \"gone\"\n"
             "pmubench stat: warning: later\n");
    put_file(dir, jobs[2].id, "json", "{\"model\": \"netburst\", \"counts\": {\"clocks\": 1}}");
    assert_true(sweep_job_done(&spec, &jobs[0], dir));
    assert_false(sweep_job_done(&spec, &jobs[2], dir));
    struct sweep_merge merge;
    assert_true(sweep_merge_read(&spec, dir, &merge));
    char *csv = written(sweep_write_csv, &spec, &merge);
    char want[2048];
    snprintf(want, sizeof want,
             "job,id,trace,model,dcache_size,status,clocks,data_read,error\n"
             "0,%s,\"a.trace,\",p5,8192,ok,120,7,\n"
             "1,%s,\"a.trace,\",p5,16384,failed,,,\"pmubench stat: x: cannot open: \"\"gone\"\"\"\n"
             "2,%s,b.trace,p5,8192,not-run,,,\n"
             "3,%s,b.trace,p5,16384,not-run,,,\n",
             jobs[0].id, jobs[1].id, jobs[2].id, jobs[3].id);
    assert_string_equal(csv, want);
    free(csv);
    char *json = written(sweep_write_json, &spec, &merge);
    snprintf(want, sizeof want,
             "{\"spec\": \"s.sweep\", \"jobs\": [\n"
             "  {\"job\": 0, \"id\": \"%s\", \"trace\": \"a.trace,\", \"model\": \"p5\", "
             "\"params\": {\"dcache_size\": \"8192\"}, \"status\": \"ok\", \"counts\": "
             "{\"clocks\": 120, \"data_read\": 7}},\n"
             "  {\"job\": 1, \"id\": \"%s\", \"trace\": \"a.trace,\", \"model\": \"p5\", "
             "\"params\": {\"dcache_size\": \"16384\"}, \"status\": \"failed\", \"error\": "
             "\"pmubench stat: x: cannot open: \\\"gone\\\"\"},\n"
             "  {\"job\": 2, \"id\": \"%s\", \"trace\": \"b.trace\", \"model\": \"p5\", "
             "\"params\": {\"dcache_size\": \"8192\"}, \"status\": \"not-run\"},\n"
             "  {\"job\": 3, \"id\": \"%s\", \"trace\": \"b.trace\", \"model\": \"p5\", "
             "\"params\": {\"dcache_size\": \"16384\"}, \"status\": \"not-run\"}\n"
             "]}\n",
             jobs[0].id, jobs[1].id, jobs[2].id, jobs[3].id);
    assert_string_equal(json, want);
    free(json);
    sweep_merge_free(&merge);
    /* an empty error file: failed, no message */
    put_file(dir, jobs[3].id, "err", "\n");
    assert_true(sweep_merge_read(&spec, dir, &merge));
    assert_int_equal(merge.rows[3].status, SWEEP_FAILED);
    assert_string_equal(merge.rows[3].error, "no result, and no error message");
    sweep_merge_free(&merge);
    for (size_t i = 0; i < 4; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.json", dir, jobs[i].id);
        unlink(path);
        snprintf(path, sizeof path, "%s/%s.err", dir, jobs[i].id);
        unlink(path);
    }
    assert_int_equal(rmdir(dir), 0);
    sweep_spec_free(&spec);
}

/* The jobs to run: those without a result, in order, with their command
 * lines; a job's file that is not a regular file refuses them all. */
static void chooses_pending_jobs(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_sweep_XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct sweep_spec spec;
    parse("trace a.trace\nmodel p5 pmmx\nparam dcache_size=8192,16384\n", &spec);
    struct sweep_job jobs[4];
    for (size_t i = 0; i < 4; i++)
        sweep_job_at(&spec, i, &jobs[i]);
    put_file(dir, jobs[1].id, "json",
             "{\"model\": \"p5\", \"trace\": \"/base/a.trace\", \"counts\": {\"clocks\": 1}}\n");
    put_file(dir, jobs[2].id, "err", "pmubench stat: failed\n");
    size_t *pending, n;
    char error[512];
    assert_int_equal(sweep_pending_jobs(&spec, dir, &pending, &n, error, sizeof error),
                     SWEEP_PENDING_OK);
    assert_int_equal(n, 3);
    assert_int_equal(pending[0], 0);
    assert_int_equal(pending[1], 2);
    assert_int_equal(pending[2], 3);
    char **commands = sweep_job_commands(&spec, pending, n, "/bin/pmubench", "/r");
    assert_non_null(commands);
    for (size_t i = 0; i < n; i++) {
        char *want = sweep_job_command(&spec, &jobs[pending[i]], "/bin/pmubench", "/r");
        assert_string_equal(commands[i], want);
        free(want);
    }
    sweep_job_commands_free(commands, n);
    free(pending);
    char path[512], want[1024];
    snprintf(path, sizeof path, "%s/%s.json", dir, jobs[3].id);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(sweep_pending_jobs(&spec, dir, &pending, &n, error, sizeof error),
                     SWEEP_PENDING_BAD_FILE);
    assert_null(pending);
    assert_int_equal(n, 0);
    snprintf(want, sizeof want, "%s: a FIFO, not a regular file (expected job 3's result or "
             "nothing)", path);
    assert_string_equal(error, want);
    unlink(path);
    snprintf(path, sizeof path, "%s/%s.json", dir, jobs[1].id);
    unlink(path);
    snprintf(path, sizeof path, "%s/%s.err", dir, jobs[2].id);
    unlink(path);
    assert_int_equal(rmdir(dir), 0);
    sweep_spec_free(&spec);
}

static void names_the_results_dir(void **state)
{
    (void)state;
    char cwd[4096], expected[4200];
    assert_non_null(getcwd(cwd, sizeof cwd));
    char *dir = sweep_results_dir("runs/s.sweep", NULL);
    snprintf(expected, sizeof expected, "%s/runs/s.sweep.results", cwd);
    assert_string_equal(dir, expected);
    free(dir);
    dir = sweep_results_dir("/abs/s.sweep", NULL);
    assert_string_equal(dir, "/abs/s.sweep.results");
    free(dir);
    dir = sweep_results_dir("/abs/s.sweep", "out");
    snprintf(expected, sizeof expected, "%s/out", cwd);
    assert_string_equal(dir, expected);
    free(dir);
    dir = sweep_results_dir("s.sweep", "/r/../d");
    assert_string_equal(dir, "/r/../d");
    free(dir);
}

/* One call of sweep_results_dir_prepare for TOP/`name`: its status,
 * `*made` and message, "TOP/NAME" then `rest` (none when ready). */
static void expect_prepared(const char *top, const char *name, bool make,
                            enum sweep_dir_status want, bool want_made, const char *rest)
{
    char dir[4200], error[8192] = "", expected[8192] = "";
    snprintf(dir, sizeof dir, "%s/%s", top, name);
    bool made = !want_made;
    assert_int_equal(sweep_results_dir_prepare(dir, make, &made, error, sizeof error), want);
    assert_int_equal(made, want_made);
    if (want != SWEEP_DIR_READY)
        snprintf(expected, sizeof expected, "%s%s", dir, rest);
    assert_string_equal(error, expected);
}

static void prepares_the_results_dir(void **state)
{
    (void)state;
    char top[] = "/tmp/test_sweep.XXXXXX";
    assert_non_null(mkdtemp(top));
    expect_prepared(top, "r", true, SWEEP_DIR_READY, true, "");
    expect_prepared(top, "r", true, SWEEP_DIR_READY, false, ""); /* there already */
    expect_prepared(top, "r", false, SWEEP_DIR_READY, false, "");
    expect_prepared(top, "m", false, SWEEP_DIR_BAD, false,
                    ": no such directory (expected the jobs' results: --merge runs no job "
                    "and makes no directory)");
    expect_prepared(top, "a/b", true, SWEEP_DIR_NOT_MADE, false,
                    ": cannot create: No such file or directory");
    char file[4200];
    snprintf(file, sizeof file, "%s/f", top);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    expect_prepared(top, "f", true, SWEEP_DIR_BAD, false,
                    ": not a directory (expected the results' directory)");
    expect_prepared(top, "f", false, SWEEP_DIR_BAD, false,
                    ": not a directory (expected the results' directory)");
    errno = 0;
    expect_prepared(top, "f/r", false, SWEEP_DIR_UNREADABLE, false,
                    ": cannot open: Not a directory");
    assert_int_equal(errno, ENOTDIR);
    char r[4200];
    snprintf(r, sizeof r, "%s/r", top);
    assert_int_equal(rmdir(r), 0);
    assert_int_equal(unlink(file), 0);
    assert_int_equal(rmdir(top), 0);
}

static void writes_a_slurm_script(void **state)
{
    (void)state;
    struct sweep_spec spec;
    parse("trace a.trace\nmodel p5 pmmx\nparam dcache_size=8192,16384,4096\n", &spec);
    const size_t pending[] = {0, 1, 2, 4};
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    sweep_slurm_script(f, &spec, pending, 4, "/bin/pmubench", "/r");
    assert_int_equal(fclose(f), 0);
    assert_non_null(strstr(text, "\n#SBATCH --array=0-2,4\n"));
    assert_non_null(strstr(text, "# The jobs of the sweep s.sweep without a result yet, 4 of 6,"));
    struct sweep_job job;
    sweep_job_at(&spec, 4, &job);
    char *command = sweep_job_command(&spec, &job, "/bin/pmubench", "/r");
    char want[1024];
    snprintf(want, sizeof want, "\n4) # job %s: trace=a.trace model=pmmx dcache_size=16384\n"
                                "    exec %s ;;\n*) ",
             job.id, command);
    assert_non_null(strstr(text, want));
    free(command);
    free(text);
    sweep_spec_free(&spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_a_spec),
        cmocka_unit_test(rejects_bad_lines),
        cmocka_unit_test(orders_and_names_jobs),
        cmocka_unit_test(writes_command_lines),
        cmocka_unit_test(merges_results),
        cmocka_unit_test(chooses_pending_jobs),
        cmocka_unit_test(writes_a_slurm_script),
        cmocka_unit_test(names_the_results_dir),
        cmocka_unit_test(prepares_the_results_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
