/* Recording's library entry point (traces/record.h): each bad input is
 * one line and nothing written; a valgrind that starts nothing, writes no
 * trace, or cannot be started at all; a fake valgrind that writes a given
 * stream (traces/recorder/pmutrace_stream.h) and ends as told: segments,
 * execve, signals, a bad stream read to its end; and, with the recorder
 * built beside this test's build, real recordings with their exit status
 * and registers. */
#include <fcntl.h>
#include <limits.h>
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

#include "traces/record.h"
#include "traces/recorder/pmutrace_stream.h"
#include "traces/trace.h"

/* A scratch folder with a fake recorder (an executable
 * pmutrace-amd64-linux, no x86 tool), a fake 32-bit program and a fake
 * valgrind: it copies $FAKE_STREAM to the descriptor of --pmutrace-fd, then
 * runs $FAKE_THEN. */
struct scratch {
    char dir[64];
    char recorder[96];
    char program32[96];
    char valgrind[96];
    char stream[96];
};

static void write_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, mode), 0);
}

static int set_up(void **state)
{
    static struct scratch s;
    snprintf(s.dir, sizeof s.dir, "/tmp/test_record_XXXXXX");
    assert_non_null(mkdtemp(s.dir));
    snprintf(s.recorder, sizeof s.recorder, "%s/recorder", s.dir);
    assert_int_equal(mkdir(s.recorder, 0755), 0);
    char tool[160];
    snprintf(tool, sizeof tool, "%s/pmutrace-amd64-linux", s.recorder);
    write_file(tool, "", 0755);
    snprintf(s.program32, sizeof s.program32, "%s/prog32", s.dir);
    write_file(s.program32, "\177ELF\001\001\001", 0755);
    snprintf(s.valgrind, sizeof s.valgrind, "%s/valgrind", s.dir);
    write_file(s.valgrind,
               "#!/bin/sh\n"
               "for a; do case $a in --pmutrace-fd=*) fd=${a#--pmutrace-fd=};; esac; done\n"
               "cat \"$FAKE_STREAM\" >&$fd\n"
               "eval \"$FAKE_THEN\"\n",
               0755);
    snprintf(s.stream, sizeof s.stream, "%s/stream", s.dir);
    unsetenv("PMUBENCH_RECORDER_DIR");
    unsetenv("PMUBENCH_VALGRIND");
    *state = &s;
    return 0;
}

static int tear_down(void **state)
{
    struct scratch *s = *state;
    char command[160];
    snprintf(command, sizeof command, "rm -rf '%s'", s->dir);
    assert_int_equal(system(command), 0);
    return 0;
}

/* record_run's status and line for `options`; nothing at `output`. */
static void fails(const struct record_options *options, enum record_status want_status,
                  const char *want, const char *output)
{
    char error[PATH_MAX + 2048];
    struct record_result result;
    assert_int_equal(record_run(options, &result, error, sizeof error), want_status);
    assert_string_equal(error, want);
    assert_false(result.execed);
    struct stat st;
    if (output)
        assert_int_not_equal(stat(output, &st), 0);
}

static void test_no_program(void **state)
{
    (void)state;
    struct record_options options = {0};
    fails(&options, RECORD_BAD_INPUT, "no program to record", NULL);
    char *none[] = {NULL};
    options.argv = none;
    fails(&options, RECORD_BAD_INPUT, "no program to record", NULL);
}

/* A program that does not exist, is not in PATH, is a directory or is not
 * executable. */
static void test_bad_program(void **state)
{
    struct scratch *s = *state;
    char out[128], plain[128], want[256];
    snprintf(out, sizeof out, "%s/out.trace", s->dir);
    char *missing[] = {"/nonexistent/prog", NULL};
    struct record_options options = {.argv = missing, .output = out,
                                     .recorder_dir = s->recorder};
    fails(&options, RECORD_BAD_INPUT,
          "cannot run '/nonexistent/prog': No such file or directory", out);
    char *unknown[] = {"no-such-program-anywhere", NULL};
    options.argv = unknown;
    fails(&options, RECORD_BAD_INPUT, "cannot run 'no-such-program-anywhere': not found in PATH",
          out);
    char *dir[] = {s->dir, NULL};
    options.argv = dir;
    snprintf(want, sizeof want, "cannot run '%s': is a directory", s->dir);
    fails(&options, RECORD_BAD_INPUT, want, out);
    snprintf(plain, sizeof plain, "%s/plain", s->dir);
    write_file(plain, "", 0644);
    char *not_executable[] = {plain, NULL};
    options.argv = not_executable;
    snprintf(want, sizeof want, "cannot run '%s': not an executable file", plain);
    fails(&options, RECORD_BAD_INPUT, want, out);
}

/* An empty output name, the program itself, a device. */
static void test_bad_output(void **state)
{
    struct scratch *s = *state;
    char *true_argv[] = {"/bin/true", NULL};
    struct record_options options = {.argv = true_argv, .output = "",
                                     .recorder_dir = s->recorder};
    fails(&options, RECORD_BAD_INPUT, "-o '': expected a trace file name", NULL);
    options.output = "/bin/true";
    fails(&options, RECORD_BAD_INPUT, "-o '/bin/true' and PROGRAM '/bin/true' are the same file",
          NULL);
    options.output = "/dev/null";
    fails(&options, RECORD_BAD_INPUT,
          "/dev/null is not a regular file (expected a trace file name)", NULL);
    char out[128], want[256];
    snprintf(out, sizeof out, "%s/no-such-dir/out.trace", s->dir);
    options.output = out;
    snprintf(want, sizeof want, "%s: cannot create: No such file or directory", out);
    fails(&options, RECORD_FAILED, want, out);
}

/* No recorder: in the folder given, in $PMUBENCH_RECORDER_DIR, beside
 * this executable; a 32-bit program (or a script run by one) without the
 * 32-bit tool. */
static void test_no_recorder(void **state)
{
    struct scratch *s = *state;
    char out[128], want[PATH_MAX + 256];
    snprintf(out, sizeof out, "%s/out.trace", s->dir);
    char *true_argv[] = {"/bin/true", NULL};
    struct record_options options = {.argv = true_argv, .output = out, .recorder_dir = s->dir};
    snprintf(want, sizeof want,
             "no valgrind tool pmutrace-amd64-linux in %s (build it with 'make recorder', or set "
             "PMUBENCH_RECORDER_DIR)",
             s->dir);
    fails(&options, RECORD_FAILED, want, out);
    options.recorder_dir = NULL;
    setenv("PMUBENCH_RECORDER_DIR", s->dir, 1);
    fails(&options, RECORD_FAILED, want, out);
    unsetenv("PMUBENCH_RECORDER_DIR");
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = '\0';
    *strrchr(self, '/') = '\0';
    snprintf(want, sizeof want,
             "no valgrind tool pmutrace-amd64-linux in %s/recorder (build it with 'make "
             "recorder', or set PMUBENCH_RECORDER_DIR)",
             self);
    fails(&options, RECORD_FAILED, want, out);

    options.recorder_dir = s->recorder;
    char *program32[] = {s->program32, NULL};
    options.argv = program32;
    snprintf(want, sizeof want,
             "%s is a 32-bit program and the 32-bit recorder is not built (install gcc-multilib "
             "and run make)",
             s->program32);
    fails(&options, RECORD_FAILED, want, out);
    char script[128], text[160];
    snprintf(script, sizeof script, "%s/script", s->dir);
    snprintf(text, sizeof text, "#! %s -x\n", s->program32);
    write_file(script, text, 0755);
    char *script_argv[] = {script, NULL};
    options.argv = script_argv;
    snprintf(want, sizeof want,
             "%s is a 32-bit program and the 32-bit recorder is not built (install gcc-multilib "
             "and run make)",
             script);
    fails(&options, RECORD_FAILED, want, out);
}

/* valgrind that exits 126 without a trace (its status when it cannot
 * execute the program): the program could not start; one that exits with
 * any other status without a trace: valgrind failed, not the program.
 * The default output, the program's basename + ".pmutrace", is not left. */
static void test_valgrind_fails(void **state)
{
    struct scratch *s = *state;
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(s->dir), 0);
    write_file("noexec-valgrind", "#!/bin/sh\nexit 126\n", 0755);
    char noexec[PATH_MAX + 32];
    snprintf(noexec, sizeof noexec, "%s/noexec-valgrind", s->dir);
    char *true_argv[] = {"/bin/true", NULL};
    struct record_options options = {.argv = true_argv, .recorder_dir = s->recorder};
    const char *valgrinds[3] = {noexec, "/bin/false", "/bin/true"};
    char error[3][PATH_MAX + 2048];
    struct record_result result;
    enum record_status status[3];
    for (int i = 0; i < 3; i++) {
        setenv("PMUBENCH_VALGRIND", valgrinds[i], 1);
        status[i] = record_run(&options, &result, error[i], sizeof error[i]);
    }
    unsetenv("PMUBENCH_VALGRIND");
    struct stat st;
    bool left = stat("true.pmutrace", &st) == 0;
    unlink("noexec-valgrind");
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(status[0], RECORD_BAD_INPUT);
    assert_string_equal(error[0], "cannot start /bin/true");
    assert_int_equal(status[1], RECORD_FAILED);
    assert_string_equal(error[1], "recording failed: valgrind '/bin/false' exited with status 1 "
                                  "before recording anything");
    assert_int_equal(status[2], RECORD_FAILED);
    assert_string_equal(error[2], "recording failed: valgrind '/bin/true' exited with status 0 "
                                  "before recording anything");
    assert_false(left);
}

/* A valgrind that cannot be started (PMUBENCH_VALGRIND names no file): a
 * run-time failure, one line naming it, and nothing printed (the child
 * that could not exec it says nothing: the error is the parent's). */
static void test_valgrind_missing(void **state)
{
    struct scratch *s = *state;
    char out[128], err_path[128];
    snprintf(out, sizeof out, "%s/out.trace", s->dir);
    snprintf(err_path, sizeof err_path, "%s/stderr", s->dir);
    char *true_argv[] = {"/bin/true", NULL};
    struct record_options options = {.argv = true_argv, .output = out,
                                     .recorder_dir = s->recorder};
    setenv("PMUBENCH_VALGRIND", "/nonexistent/valgrind", 1);
    fflush(stderr);
    int saved = dup(2);
    int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved >= 0 && err >= 0);
    dup2(err, 2);
    close(err);
    char error[PATH_MAX + 2048];
    struct record_result result;
    enum record_status status = record_run(&options, &result, error, sizeof error);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    unsetenv("PMUBENCH_VALGRIND");
    assert_int_equal(status, RECORD_FAILED);
    assert_string_equal(error,
                        "cannot start valgrind '/nonexistent/valgrind': No such file or directory");
    assert_false(result.execed);
    struct stat st;
    assert_int_not_equal(stat(out, &st), 0);
    assert_int_equal(stat(err_path, &st), 0);
    assert_int_equal(st.st_size, 0);
}

/* ---- a fake valgrind's streams */

/* A trace of `n` one-byte instructions from 0x1000, ended as `status`
 * with `code`, written with the trace writer into memory (free it). */
static char *make_trace(int n, enum trace_end_status status, uint32_t code, size_t *size)
{
    char *data = NULL;
    FILE *out = open_memstream(&data, size);
    assert_non_null(out);
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true};
    strcpy(header.program, "/bin/true");
    strcpy(header.recorder, "test_record");
    char error[256];
    struct trace_writer *w = trace_writer_open(out, &header, error, sizeof error);
    assert_non_null(w);
    for (int i = 0; i < n; i++) {
        struct trace_insn insn = {.address = 0x1000 + (uint64_t)i, .length = 1,
                                  .has_bytes = true, .bytes = {0x90}, .cpl = 3};
        assert_true(trace_write_insn(w, &insn));
    }
    struct trace_end end = {.instructions = (uint64_t)n, .status = status, .code = code};
    assert_true(trace_write_end(w, &end));
    assert_true(trace_writer_close(w));
    assert_int_equal(fclose(out), 0);
    return data;
}

/* `size` bytes of `data` as frames of process 1 of at most `chunk` bytes,
 * the last one flagged `flags`. */
static void put_frames(FILE *f, const char *data, size_t size, size_t chunk, unsigned flags)
{
    size_t done = 0;
    do {
        size_t n = size - done < chunk ? size - done : chunk;
        uint32_t word = (uint32_t)n | (done + n == size ? flags : 0u) << PT_FRAME_FLAGS_SHIFT;
        uint8_t header[PT_FRAME_HEADER_SIZE] = {(uint8_t)word, (uint8_t)(word >> 8),
                                                (uint8_t)(word >> 16), (uint8_t)(word >> 24),
                                                1, 0, 0, 0}; /* process 1 */
        assert_int_equal(fwrite(header, 1, sizeof header, f), sizeof header);
        assert_int_equal(fwrite(data + done, 1, n, f), n);
        done += n;
    } while (done < size);
}

/* A segment as the tool writes it: the trace of make_trace() in frames of
 * 7 bytes, then its END record alone in the frame flagged `flags`. */
static void put_segment(FILE *f, int n, enum trace_end_status status, unsigned flags)
{
    size_t size;
    char *data = make_trace(n, status, 0, &size);
    uint8_t end[TRACE_MAX_END_BYTES];
    struct trace_end record = {.status = status};
    size_t end_size = trace_end_encode((uint64_t)n, &record, end);
    assert_memory_equal(data + size - end_size, end, end_size);
    put_frames(f, data, size - end_size, 7, 0);
    put_frames(f, data + size - end_size, end_size, 7, flags);
    free(data);
}

/* record_run of /bin/true into `out` with the fake valgrind, which writes
 * the scratch stream file and then runs `then`. */
static enum record_status fake_run(const struct scratch *s, const char *then, const char *out,
                                   struct record_result *result, char *error, size_t size)
{
    setenv("PMUBENCH_VALGRIND", s->valgrind, 1);
    setenv("FAKE_STREAM", s->stream, 1);
    setenv("FAKE_THEN", then, 1);
    char *argv[] = {"/bin/true", NULL};
    struct record_options options = {.argv = argv, .output = out, .recorder_dir = s->recorder};
    enum record_status status = record_run(&options, result, error, size);
    unsetenv("PMUBENCH_VALGRIND");
    unsetenv("FAKE_STREAM");
    unsetenv("FAKE_THEN");
    return status;
}

/* The instruction records and the END record of the trace at `path`. */
static void read_back(const char *path, uint64_t *instructions, struct trace_end *end)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char error[512];
    struct trace_reader *r = trace_reader_open(f, path, error, sizeof error);
    if (!r)
        fail_msg("%s", error);
    *instructions = 0;
    const struct trace_record *record;
    for (;;) {
        if (trace_next(r, &record) != TRACE_OK)
            fail_msg("%s", trace_reader_error(r));
        if (record->kind == TRACE_RECORD_END)
            break;
        *instructions += record->kind == TRACE_RECORD_INSN;
    }
    *end = record->end;
    trace_reader_close(r);
    fclose(f);
}

/* Two segments (an execve that failed, then the exit): one trace with the
 * instructions of both, the last END record's status, valgrind's exit
 * status. */
static void test_stream_segments(void **state)
{
    struct scratch *s = *state;
    FILE *f = fopen(s->stream, "wb");
    put_segment(f, 5, TRACE_EXITED, PT_FRAME_END | PT_FRAME_EXEC);
    put_segment(f, 3, TRACE_EXITED, PT_FRAME_END);
    assert_int_equal(fclose(f), 0);
    char out[128], error[PATH_MAX + 2048];
    snprintf(out, sizeof out, "%s/out.trace", s->dir);
    struct record_result result;
    if (fake_run(s, "exit 2", out, &result, error, sizeof error) != RECORD_OK)
        fail_msg("%s", error);
    assert_int_equal(result.exit_status, 2);
    assert_false(result.execed);
    uint64_t instructions;
    struct trace_end end;
    read_back(out, &instructions, &end);
    assert_int_equal(instructions, 8);
    assert_int_equal(end.instructions, 8);
    assert_int_equal(end.status, TRACE_EXITED);
    assert_int_equal(end.code, 0);
    unlink(out);
}

/* A stream that ends at an execve: kept, and said so. */
static void test_stream_exec(void **state)
{
    struct scratch *s = *state;
    FILE *f = fopen(s->stream, "wb");
    put_segment(f, 4, TRACE_EXITED, PT_FRAME_END | PT_FRAME_EXEC);
    assert_int_equal(fclose(f), 0);
    char out[128], error[PATH_MAX + 2048];
    snprintf(out, sizeof out, "%s/out.trace", s->dir);
    struct record_result result;
    if (fake_run(s, "exit 0", out, &result, error, sizeof error) != RECORD_OK)
        fail_msg("%s", error);
    assert_true(result.execed);
    uint64_t instructions;
    struct trace_end end;
    read_back(out, &instructions, &end);
    assert_int_equal(instructions, 4);
    unlink(out);
}

/* Killed by a signal the tool did not see: its END record (killed, code
 * 0) gets the signal from waitpid. */
static void test_stream_signal(void **state)
{
    struct scratch *s = *state;
    FILE *f = fopen(s->stream, "wb");
    put_segment(f, 4, TRACE_KILLED, PT_FRAME_END);
    assert_int_equal(fclose(f), 0);
    char out[128], error[PATH_MAX + 2048];
    snprintf(out, sizeof out, "%s/out.trace", s->dir);
    struct record_result result;
    if (fake_run(s, "kill -TERM $$", out, &result, error, sizeof error) != RECORD_OK)
        fail_msg("%s", error);
    assert_int_equal(result.exit_status, 128 + 15);
    uint64_t instructions;
    struct trace_end end;
    read_back(out, &instructions, &end);
    assert_int_equal(end.status, TRACE_KILLED);
    assert_int_equal(end.code, 15);
    unlink(out);
}

/* The failures: valgrind killed before the END record; a bad frame, with
 * much more after it (read to the end: the fake valgrind's cat finishes);
 * a last frame with more than the END record (which is not copied); a
 * trace cut short; a trace that says killed after a normal exit.  One
 * line each, nothing written. */
static void test_stream_fails(void **state)
{
    struct scratch *s = *state;
    char out[128], want[PATH_MAX + 256];
    snprintf(out, sizeof out, "%s/out.trace", s->dir);
    size_t size;
    char *data = make_trace(2000, TRACE_EXITED, 0, &size);
    char error[PATH_MAX + 2048];
    struct record_result result;
    struct stat st;

    FILE *f = fopen(s->stream, "wb");
    put_frames(f, data, size / 2, 4096, 0);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(fake_run(s, "kill -KILL $$", out, &result, error, sizeof error),
                     RECORD_FAILED);
    snprintf(want, sizeof want,
             "recording failed: %s: no trace (valgrind was killed by signal 9)", out);
    assert_string_equal(error, want);
    assert_int_equal(result.exit_status, 128 + 9);
    assert_int_not_equal(stat(out, &st), 0);

    f = fopen(s->stream, "wb");
    put_frames(f, data, size / 2, 4096, 0);
    fwrite("\x01\x00\x00\x10\x01\x00\x00\x00", 1, 8, f);
    static char junk[300000];
    fwrite(junk, 1, sizeof junk, f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(fake_run(s, "exit 0", out, &result, error, sizeof error), RECORD_FAILED);
    snprintf(want, sizeof want,
             "recording failed: %s: a bad frame header in the recorder's stream (0x10000001)",
             out);
    assert_string_equal(error, want);
    assert_int_not_equal(stat(out, &st), 0);

    f = fopen(s->stream, "wb");
    put_frames(f, data, size, 1 << 20, PT_FRAME_END);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(fake_run(s, "exit 0", out, &result, error, sizeof error), RECORD_FAILED);
    snprintf(want, sizeof want,
             "recording failed: %s: the recorder's last frame holds more than its END record",
             out);
    assert_string_equal(error, want);
    assert_int_not_equal(stat(out, &st), 0);

    f = fopen(s->stream, "wb");
    put_frames(f, data, size - 1, 4096, PT_FRAME_END);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(fake_run(s, "exit 0", out, &result, error, sizeof error), RECORD_FAILED);
    snprintf(want, sizeof want, "recording failed: %s: byte offset ", out);
    assert_memory_equal(error, want, strlen(want));
    assert_int_not_equal(stat(out, &st), 0);
    free(data);

    f = fopen(s->stream, "wb");
    put_segment(f, 4, TRACE_KILLED, PT_FRAME_END);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(fake_run(s, "exit 0", out, &result, error, sizeof error), RECORD_FAILED);
    assert_string_equal(error, "internal error: /bin/true exited with status 0 but the recorder "
                               "saw no exit (its trace ends as killed by a signal); no trace "
                               "written");
    assert_int_not_equal(stat(out, &st), 0);
}

/* `name` as execvp finds it in PATH, made absolute: the program a trace
 * header names. */
static void path_of(const char *name, char *path, size_t size)
{
    const char *dirs = getenv("PATH");
    assert_non_null(dirs);
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    for (const char *dir = dirs;; dir += strcspn(dir, ":") + 1) {
        int length = (int)strcspn(dir, ":");
        const char *at = length ? dir : ".";
        int at_length = length ? length : 1;
        if (*at == '/')
            snprintf(path, size, "%.*s/%s", at_length, at, name);
        else
            snprintf(path, size, "%s/%.*s/%s", cwd, at_length, at, name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0)
            return;
        assert_true(dir[length] == ':');
    }
}

/* The trace at `path` is what the trace writer makes of its records: the
 * tool's own encoding is the parent-side conversion's of before
 * (docs/traces.md, "The stream and the check"). */
static void same_as_converted(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char error[512];
    struct trace_reader *r = trace_reader_open(f, path, error, sizeof error);
    if (!r)
        fail_msg("%s", error);
    char *data = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&data, &size);
    assert_non_null(out);
    struct trace_writer *w = trace_writer_open(out, trace_reader_header(r), error, sizeof error);
    assert_non_null(w);
    const struct trace_record *record;
    do {
        if (trace_next(r, &record) != TRACE_OK)
            fail_msg("%s", trace_reader_error(r));
        if (record->kind == TRACE_RECORD_INSN)
            assert_true(trace_write_insn(w, &record->insn));
        else if (record->kind != TRACE_RECORD_END)
            assert_true(trace_write_region(w, record->kind == TRACE_RECORD_REGION_BEGIN,
                                           record->region));
    } while (record->kind != TRACE_RECORD_END);
    assert_true(trace_write_end(w, &record->end));
    assert_true(trace_writer_close(w));
    assert_int_equal(fclose(out), 0);
    trace_reader_close(r);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    assert_int_equal((size_t)ftell(f), size);
    rewind(f);
    char *recorded = malloc(size);
    assert_non_null(recorded);
    assert_int_equal(fread(recorded, 1, size, f), size);
    assert_memory_equal(recorded, data, size);
    free(recorded);
    free(data);
    fclose(f);
}

/* With the recorder built (make recorder, beside this test's build): the
 * program's exit status through, and the registers when asked; the header
 * names the program by its absolute path; the trace the tool encoded is the
 * trace writer's encoding of its records, with registers and without. */
static void test_records(void **state)
{
    struct scratch *s = *state;
    char recorder[PATH_MAX], tool[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", recorder, sizeof recorder - 32);
    assert_true(n > 0);
    recorder[n] = '\0';
    strcpy(strrchr(recorder, '/'), "/../recorder");
    snprintf(tool, sizeof tool, "%s/pmutrace-amd64-linux", recorder);
    if (access(tool, X_OK) != 0)
        skip();
    char out[128], error[PATH_MAX + 2048];
    snprintf(out, sizeof out, "%s/sh.trace", s->dir);
    char *argv[] = {"sh", "-c", "exit 3", NULL};
    struct record_options options = {.argv = argv, .output = out, .registers = true,
                                     .recorder_dir = recorder};
    struct record_result result;
    if (record_run(&options, &result, error, sizeof error) != RECORD_OK)
        fail_msg("%s", error);
    assert_int_equal(result.exit_status, 3);
    assert_false(result.execed);
    struct trace_header header;
    if (!trace_read_header(out, &header, error, sizeof error))
        fail_msg("%s", error);
    assert_true(header.registers);
    assert_string_equal(header.args, "-c exit 3");
    char sh[PATH_MAX + 32];
    path_of("sh", sh, sizeof sh);
    assert_int_equal(sh[0], '/');
    assert_string_equal(header.program, sh);
    same_as_converted(out);
    char *loop[] = {"sh", "-c", "i=0; while [ $i -lt 300 ]; do i=$((i + 1)); done", NULL};
    options.argv = loop;
    options.registers = false;
    if (record_run(&options, &result, error, sizeof error) != RECORD_OK)
        fail_msg("%s", error);
    assert_int_equal(result.exit_status, 0);
    same_as_converted(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_program),  cmocka_unit_test(test_bad_program),
        cmocka_unit_test(test_bad_output),  cmocka_unit_test(test_no_recorder),
        cmocka_unit_test(test_valgrind_fails), cmocka_unit_test(test_valgrind_missing),
        cmocka_unit_test(test_stream_segments), cmocka_unit_test(test_stream_exec),
        cmocka_unit_test(test_stream_signal), cmocka_unit_test(test_stream_fails),
        cmocka_unit_test(test_records),
    };
    return cmocka_run_group_tests(tests, set_up, tear_down);
}
