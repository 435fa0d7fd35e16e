/* Recording a program's run as a trace (traces/record.h, docs/traces.md,
 * "Recording"). */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/atomic_file.h"
#include "util/file_identity.h"
#include "util/error_line.h"
#include "util/spawn.h"
#include "traces/record_stream.h"
#include "traces/run_env.h"
#include "traces/trace.h"

/* One recording's files. */
struct recording {
    const struct record_options *options;
    const char *name;              /* the program as given */
    char program[PATH_MAX];        /* as execvp finds it */
    const char *output;            /* the trace */
    char default_output[PATH_MAX];
    char recorder[PATH_MAX];       /* valgrind's VALGRIND_LIB */
    struct atomic_file file;
    uint64_t instructions;         /* read back from the stream so far */
    uint64_t progress_due;         /* the count of the next progress report */
    struct cpu_view cpu;           /* what the program's CPUID answers */
    bool cpu_widened;              /* cpu_view_widen_64() added to it */
    int emulate_fd;                /* --pmutrace-emulate-fd, or -1 */
};

/* valgrind's exit status when it cannot execute the program. */
enum { VALGRIND_NOEXEC = 126 };

/* The line (util/error_line.h) and `status`. */
#define fail(status, error, error_size, ...) \
    (error_line(0, (error), (error_size), __VA_ARGS__), (status))

/* Why a write of the trace failed: the first failed write's errno, which
 * the atomic file keeps (errno itself is long gone by the time it is
 * reported). */
static const char *write_failure(const struct recording *rec)
{
    return strerror(rec->file.write_errno ? rec->file.write_errno : EIO);
}

static bool is_file(const char *path, bool executable)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           (!executable || access(path, X_OK) == 0);
}

/* The ELF class of the file at `path`: 32, 64, or 0 (not an ELF file, or
 * unreadable).  A "#!" script has its interpreter's (one level, the
 * interpreter taken as the kernel takes it: the first word, no PATH). */
static int elf_class(const char *path, int depth)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char head[256];
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    if (n >= 5 && memcmp(head, "\177ELF", 4) == 0)
        return head[4] == 1 ? 32 : head[4] == 2 ? 64 : 0;
    if (n >= 2 && head[0] == '#' && head[1] == '!' && depth == 0) {
        char *interp = head + 2 + strspn(head + 2, " \t");
        interp[strcspn(interp, " \t\n")] = '\0';
        return *interp ? elf_class(interp, depth + 1) : 0;
    }
    return 0;
}

/* The folder of the running executable + "/recorder"; false with a
 * message in `error`. */
static bool recorder_beside_executable(char *dir, size_t size, char *error, size_t error_size)
{
    char self[PATH_MAX - 16];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(error, error_size,
                 "cannot find the recorder: /proc/self/exe: %s (set PMUBENCH_RECORDER_DIR)",
                 n < 0 ? strerror(errno) : "empty");
        return false;
    }
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    snprintf(dir, size, "%s/recorder", self);
    return true;
}

/* The folder holding pmutrace-amd64-linux (valgrind's VALGRIND_LIB); false
 * with a message in `error`. */
static bool find_recorder(const char *given, char *dir, size_t size, char *error,
                          size_t error_size)
{
    const char *env = getenv("PMUBENCH_RECORDER_DIR");
    if (given)
        snprintf(dir, size, "%s", given);
    else if (env && *env)
        snprintf(dir, size, "%s", env);
    else if (!recorder_beside_executable(dir, size, error, error_size))
        return false;
    char tool[PATH_MAX + 32];
    snprintf(tool, sizeof tool, "%s/pmutrace-amd64-linux", dir);
    if (is_file(tool, true))
        return true;
    snprintf(error, error_size,
             "no valgrind tool pmutrace-amd64-linux in %.*s (build it with 'make recorder', or "
             "set PMUBENCH_RECORDER_DIR)",
             PATH_MAX, dir);
    return false;
}

/* The program as execvp finds it, and the output (the default one when
 * none is given), which must not be the program. */
static enum record_status check_files(struct recording *rec, char *error, size_t error_size)
{
    const struct record_options *options = rec->options;
    if (!options->argv || !options->argv[0])
        return fail(RECORD_BAD_INPUT, error, error_size, "no program to record");
    rec->name = options->argv[0];
    char why[256];
    if (!run_find_program(rec->name, rec->program, sizeof rec->program, why, sizeof why))
        return fail(RECORD_BAD_INPUT, error, error_size, "cannot run '%s': %s", rec->name, why);
    rec->output = options->output;
    if (!rec->output) {
        const char *base = strrchr(rec->name, '/');
        snprintf(rec->default_output, sizeof rec->default_output, "%s.pmutrace",
                 base ? base + 1 : rec->name);
        rec->output = rec->default_output;
    }
    if (!*rec->output)
        return fail(RECORD_BAD_INPUT, error, error_size, "-o '': expected a trace file name");
    const struct named_file files[] = {{"PROGRAM", rec->program, FILE_READ},
                                       {"-o", rec->output, FILE_WRITE}};
    return files_distinct(files, 2, error, error_size) ? RECORD_OK : RECORD_BAD_INPUT;
}

/* The recorder, with the tool for the program's ELF class (valgrind picks
 * it by the class: a 32-bit program needs pmutrace-x86-linux, built only
 * when gcc -m32 links); an output the recorder can read back. */
static enum record_status check_recorder(struct recording *rec, char *error, size_t error_size)
{
    if (!find_recorder(rec->options->recorder_dir, rec->recorder, sizeof rec->recorder, error,
                       error_size))
        return RECORD_FAILED;
    char tool[PATH_MAX + 32];
    snprintf(tool, sizeof tool, "%s/pmutrace-x86-linux", rec->recorder);
    int bits = elf_class(rec->program, 0) == 32 ? 32 : 64;
    if (bits == 32 && !is_file(tool, true))
        return fail(RECORD_FAILED, error, error_size,
                    "%s is a 32-bit program and the 32-bit recorder is not built (install "
                    "gcc-multilib and run make)",
                    rec->name);
    char why[256];
    if (!cpu_view_named(rec->options->cpu ? rec->options->cpu : "host", bits, &rec->cpu, why,
                        sizeof why))
        return fail(RECORD_BAD_INPUT, error, error_size, "--cpu: %s", why);
    if (bits == 64 && strcmp(rec->cpu.name, "host") != 0)
        rec->cpu_widened = cpu_view_widen_64(&rec->cpu);
    /* The trace is renamed into place whole: not a device or a pipe. */
    struct stat target;
    if (stat(rec->output, &target) == 0 && !S_ISREG(target.st_mode))
        return fail(RECORD_BAD_INPUT, error, error_size,
                    "%s is not a regular file (expected a trace file name)", rec->output);
    return RECORD_OK;
}

/* The recorder's --pmutrace-program option: the program's path made
 * absolute (from the working directory, symbolic links kept), which the
 * trace header records so that `pmubench sample` finds the program from
 * any directory; the program itself still gets the argv[0] it was given. */
static void absolute_program_option(const char *program, char *option, size_t size)
{
    char cwd[PATH_MAX];
    while (program[0] == '.' && program[1] == '/')
        program += 2;
    if (program[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(option, size, "--pmutrace-program=%s", program);
    else
        snprintf(option, size, "--pmutrace-program=%s/%s", cwd, program);
}

/* valgrind's options, each its own string. */
struct valgrind_options {
    char fd[32];
    char program[2 * PATH_MAX + 32];
    char argv0[PATH_MAX + 32];
    char cpu[CPU_VIEW_MAX_NAME + 32];
    char cpuid[48 * CPU_VIEW_MAX_LEAVES + 32];
    char emulate[48];
    char cpus[48];
};

/* valgrind -q --vgdb=no --tool=pmutrace --pmutrace-fd=N ... PROGRAM ARGS...; NULL
 * when out of memory. */
static char **valgrind_argv(const struct recording *rec, int trace_fd,
                            struct valgrind_options *vo)
{
    int n_args = 0;
    while (rec->options->argv[n_args])
        n_args++;
    char **argv = calloc((size_t)n_args + 14, sizeof *argv);
    if (!argv)
        return NULL;
    snprintf(vo->fd, sizeof vo->fd, "--pmutrace-fd=%d", trace_fd);
    absolute_program_option(rec->program, vo->program, sizeof vo->program);
    /* valgrind gives the program the path it runs as argv[0]; natively it
     * is the name it was started by (execvp's), which the tool puts back. */
    snprintf(vo->argv0, sizeof vo->argv0, "--pmutrace-argv0=%s", rec->name);
    int k = 0;
    argv[k++] = (char *)run_valgrind_path();
    argv[k++] = "-q";
    /* No gdbserver: its FIFOs in $TMPDIR would outlive a valgrind ended
     * by a signal. */
    argv[k++] = "--vgdb=no";
    argv[k++] = "--tool=pmutrace";
    argv[k++] = vo->fd;
    argv[k++] = vo->program;
    argv[k++] = vo->argv0;
    if (rec->options->registers)
        argv[k++] = "--pmutrace-registers=yes";
    if (rec->emulate_fd >= 0) {
        snprintf(vo->emulate, sizeof vo->emulate, "--pmutrace-emulate-fd=%d", rec->emulate_fd);
        argv[k++] = vo->emulate;
        /* The programs an emulated one runs run on the same machine
         * (docs/emulate.md, "Children"). */
        argv[k++] = "--trace-children=yes";
        if (rec->options->logical_processors > 1) {
            snprintf(vo->cpus, sizeof vo->cpus, "--pmutrace-cpus=%d",
                     rec->options->logical_processors);
            argv[k++] = vo->cpus;
        }
    }
    snprintf(vo->cpu, sizeof vo->cpu, "--pmutrace-cpu=%s", rec->cpu.name);
    int at = snprintf(vo->cpuid, sizeof vo->cpuid, "--pmutrace-cpuid=");
    cpu_view_hex(&rec->cpu, vo->cpuid + at, sizeof vo->cpuid - (size_t)at);
    argv[k++] = vo->cpu;
    argv[k++] = vo->cpuid;
    argv[k++] = (char *)rec->program;
    for (int j = 1; j < n_args; j++)
        argv[k++] = rec->options->argv[j];
    argv[k] = NULL;
    return argv;
}

/* What valgrind's child needs besides its arguments. */
struct child_environment {
    const char *recorder; /* VALGRIND_LIB */
    bool host_view;
    bool fixed_layout;    /* the program's addresses not randomised */
};

/* In the child, before valgrind's exec: the recorder's environment. */
static void set_child_environment(const void *arg)
{
    const struct child_environment *env = arg;
    setenv("VALGRIND_LIB", env->recorder, 1);
    /* The host view's recordings run in the environment of native runs
     * that cannot be given the view (traces/run_env.h); a part's view is
     * the part's alone, its cache sizes not overridden. */
    if (env->host_view)
        run_env_apply();
    /* An emulated run's cycles depend on where its stack and mappings
     * lie (cache sets, store forwarding), so the same program gives the
     * same counts only at the same addresses (docs/emulate.md). */
    if (env->fixed_layout)
        personality((unsigned long)personality(0xffffffff) | ADDR_NO_RANDOMIZE);
}

/* Starts valgrind (`argv`) with the recorder's environment
 * (util/spawn.h), as a foreground child (util/cleanup.h: like system(),
 * the terminal's interrupt goes to the program; a signal that ends
 * pmubench ends it, closing `trace_fd`, the stream's end read here,
 * first); false with *failure when it could not be started or its exec
 * failed. */
static bool start_child(struct spawn *child, const struct child_environment *env, char **argv,
                        int trace_fd, struct spawn_failure *failure)
{
    struct spawn_options options = {.in = SPAWN_KEEP, .out = SPAWN_KEEP, .cpu = SPAWN_KEEP,
                                    .foreground = true, .reading = trace_fd,
                                    .prepare = set_child_environment, .prepare_arg = env};
    return spawn_start(child, argv, &options, failure);
}

/* The trace as it comes from the recorder's stream, segment by segment,
 * read with the trace reader (the check) and copied into the temporary
 * output as it is; everything but the END record, which the run's end
 * decides (check_run).  A second segment (an execve that failed) starts a
 * new trace: then the first is read back and everything is written again
 * with the trace writer, which joins them (join_copied()). */
struct conversion {
    struct trace_writer *writer; /* NULL while the stream is copied */
    bool ended;             /* the last segment read ended with its END record */
    bool at_exec;           /* ... at an execve */
    struct trace_end end;   /* that record */
};

/* `n` more instructions read back: to the progress hook every
 * PROGRESS_EVERY (the stream is a pipe: its bytes are not told). */
static void count_read(struct recording *rec, uint32_t n)
{
    rec->instructions += n;
    if (rec->instructions < rec->progress_due)
        return;
    struct progress_point point = {rec->instructions, 0, 0, 0};
    rec->options->progress->report(rec->options->progress->context, &point);
    rec->progress_due = rec->instructions + PROGRESS_EVERY;
}

/* A record read, written; false with a message. */
static bool convert_record(struct recording *rec, struct conversion *c,
                           const struct trace_record *record, char *why, size_t why_size)
{
    bool ok = true;
    switch (record->kind) {
    case TRACE_RECORD_INSN:
        ok = trace_write_insn(c->writer, &record->insn);
        break;
    case TRACE_RECORD_REGION_BEGIN:
    case TRACE_RECORD_REGION_END:
        ok = trace_write_region(c->writer, record->kind == TRACE_RECORD_REGION_BEGIN,
                                record->region);
        break;
    case TRACE_RECORD_MSR:
    case TRACE_RECORD_ISA:
        ok = false; /* the recorder writes none without --pmutrace-emulate-fd */
        break;
    case TRACE_RECORD_END:
        c->end = record->end;
        c->ended = true;
        break;
    }
    if (!ok && ferror(rec->file.stream))
        snprintf(why, why_size, "%s: cannot write: %s", rec->output, write_failure(rec));
    else if (!ok)
        snprintf(why, why_size, "internal error: the trace writer refused a record the reader "
                                "accepted");
    return ok;
}

/* After a segment's END record: the segment ends there, with the frame
 * of its END record; false with a message. */
static bool segment_closed(struct recording *rec, struct conversion *c, FILE *in,
                           struct record_stream *stream, char *why, size_t why_size)
{
    bool ok = true;
    if (fgetc(in) != EOF) {
        snprintf(why, why_size, "%s: the recorder's stream goes on after an END record",
                 rec->output);
        ok = false;
    }
    if (ok && !stream->segment_ended) {
        snprintf(why, why_size, "%s", *stream->error ? stream->error
                                                     : "the recorder's stream ends without the "
                                                       "frame of its END record");
        ok = false;
    }
    c->at_exec = record_stream_at_exec(stream);
    return ok;
}

/* Every record of `r` to its END record, written with the writer; false
 * with a message. */
static bool convert_records(struct recording *rec, struct conversion *c, struct trace_reader *r,
                            char *why, size_t why_size)
{
    bool ok = true;
    c->ended = false;
    const struct trace_record *record;
    while (ok && !c->ended) {
        ok = trace_next(r, &record) == TRACE_OK;
        if (!ok)
            snprintf(why, why_size, "%s", trace_reader_error(r));
        else
            ok = convert_record(rec, c, record, why, why_size);
        if (ok && record->kind == TRACE_RECORD_INSN)
            count_read(rec, 1);
    }
    return ok;
}

/* One segment read to its END record and written with the writer. */
static bool convert_segment(struct recording *rec, struct conversion *c, FILE *in,
                            struct record_stream *stream, char *why, size_t why_size)
{
    struct trace_reader *r = trace_reader_open(in, rec->output, why, why_size);
    if (!r)
        return false;
    bool ok = convert_records(rec, c, r, why, why_size);
    trace_reader_close(r);
    return ok && segment_closed(rec, c, in, stream, why, why_size);
}

/* One segment checked, by blocks, to its END record, while the stream
 * copies it: the frame that ends it must hold the END record alone (it is
 * not copied: check_run writes the run's own). */
static bool check_segment(struct recording *rec, struct conversion *c, FILE *in,
                          struct record_stream *stream, char *why, size_t why_size)
{
    struct trace_reader *r = trace_reader_open(in, rec->output, why, why_size);
    if (!r)
        return false;
    bool ok = true;
    c->ended = false;
    const struct trace_block *block;
    const struct trace_record *record;
    while (ok && !c->ended) {
        ok = trace_next_block(r, &block, &record) == TRACE_OK;
        if (!ok)
            snprintf(why, why_size, "%s", trace_reader_error(r));
        else if (block)
            count_read(rec, block->n_insns);
        else if (record && record->kind == TRACE_RECORD_END) {
            c->end = record->end;
            c->ended = true;
        }
    }
    trace_reader_close(r);
    ok = ok && segment_closed(rec, c, in, stream, why, why_size);
    uint8_t end[TRACE_MAX_END_BYTES];
    size_t size = ok ? trace_end_encode(c->end.instructions, &c->end, end) : 0;
    if (ok && (stream->end_frame_size != size || memcmp(stream->end_frame, end, size) != 0)) {
        snprintf(why, why_size, "%s: the recorder's last frame holds more than its END record",
                 rec->output);
        ok = false;
    }
    if (ok && stream->copy_failed) {
        snprintf(why, why_size, "%s: cannot write: %s", rec->output, write_failure(rec));
        ok = false;
    }
    return ok;
}

/* The trace copied so far (with c's END record, which was not copied)
 * read back from the output and written again with the writer, which goes
 * on with the next segment; false with a message.  The rare path of an
 * execve that failed. */
static bool join_copied(struct recording *rec, struct conversion *c, char *why, size_t why_size)
{
    FILE *out = rec->file.stream;
    FILE *copy = tmpfile();
    FILE *written = fopen(rec->file.direct ? rec->file.target : rec->file.temp, "rb");
    bool ok = copy && written && fflush(out) == 0;
    char buffer[65536];
    size_t n;
    while (ok && (n = fread(buffer, 1, sizeof buffer, written)) > 0)
        ok = fwrite(buffer, 1, n, copy) == n;
    uint8_t end[TRACE_MAX_END_BYTES];
    size_t size = trace_end_encode(c->end.instructions, &c->end, end);
    ok = ok && !ferror(written) && fwrite(end, 1, size, copy) == size && fflush(copy) == 0 &&
         ftruncate(rec->file.fd, 0) == 0;
    if (written)
        fclose(written);
    if (!ok) {
        snprintf(why, why_size, "%s: cannot read back the trace: %s", rec->output,
                 strerror(errno));
        if (copy)
            fclose(copy);
        return false;
    }
    rewind(copy);
    rewind(out);
    struct trace_reader *r = trace_reader_open(copy, rec->output, why, why_size);
    ok = r != NULL;
    if (ok) {
        c->writer = trace_writer_open(out, trace_reader_header(r), why, why_size);
        ok = c->writer != NULL;
    }
    ok = ok && convert_records(rec, c, r, why, why_size);
    if (r)
        trace_reader_close(r);
    fclose(copy);
    return ok;
}

/* Every segment, while the child runs; false with a message (the pipe is
 * read to its end all the same, so that the program runs to its end). */
static bool convert(struct recording *rec, struct conversion *c, struct record_stream *stream,
                    char *why, size_t why_size)
{
    bool ok = true, more = true;
    while (ok && more) {
        FILE *in = record_stream_segment(stream);
        if (!in) {
            snprintf(why, why_size, "out of memory");
            ok = false;
        } else {
            ok = c->writer ? convert_segment(rec, c, in, stream, why, why_size)
                           : check_segment(rec, c, in, stream, why, why_size);
            fclose(in);
        }
        more = ok && record_stream_more(stream);
        if (more && !c->writer) {
            stream->copy = NULL;
            ok = join_copied(rec, c, why, why_size);
        }
    }
    /* A bad frame is the cause of whatever the reader then said. */
    if (*stream->error) {
        snprintf(why, why_size, "%s", stream->error);
        ok = false;
    }
    record_stream_drain(stream);
    return ok;
}

/* The run's END record, with the writer when the segments were joined,
 * else after the bytes copied. */
static bool write_end(struct recording *rec, struct conversion *c, const struct trace_end *end)
{
    if (c->writer)
        return trace_write_end(c->writer, end);
    uint8_t record[TRACE_MAX_END_BYTES];
    size_t size = trace_end_encode(end->instructions, end, record);
    return fwrite(record, 1, size, rec->file.stream) == size;
}

/* The END record as the run's end makes it, written, and the writer
 * closed: a trace to keep, or why not.  `status` is valgrind's wait
 * status; `converted` whether every segment was valid (`why` otherwise). */
bool record_not_started(int wait_status, uint64_t stream_bytes)
{
    return stream_bytes == 0 && WIFEXITED(wait_status) &&
           WEXITSTATUS(wait_status) == VALGRIND_NOEXEC;
}

static enum record_status check_run(struct recording *rec, struct conversion *c, int status,
                                    bool converted, uint64_t stream_bytes,
                                    struct record_result *result, char *why, char *error,
                                    size_t error_size)
{
    /* Any other failure before the first frame is valgrind's own (a
     * missing tool, a broken installation, PMUBENCH_VALGRIND naming another
     * program). */
    if (record_not_started(status, stream_bytes))
        return fail(RECORD_BAD_INPUT, error, error_size, "cannot start %s", rec->name);
    if (stream_bytes == 0 && WIFEXITED(status))
        return fail(RECORD_FAILED, error, error_size,
                    "recording failed: valgrind '%s' exited with status %d before recording "
                    "anything",
                    run_valgrind_path(), WEXITSTATUS(status));
    bool execed = converted && c->at_exec;
    /* After an execve the trace ends with the END record the tool wrote
     * then (exited, code 0); the exit status is the new program's. */
    struct trace_end end = c->end;
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        result->exit_status = 128 + sig;
        /* The tool says killed, with code 0, for the signal it did not
         * see. */
        bool signal_seen = c->ended && end.status == TRACE_KILLED && end.code == 0;
        if (!execed && !signal_seen)
            return fail(RECORD_FAILED, error, error_size,
                        "recording failed: %s: no trace (valgrind was killed by signal %d)",
                        rec->output, sig);
        if (!execed)
            end.code = (uint32_t)sig & 0x7f;
    } else {
        result->exit_status = WEXITSTATUS(status);
    }
    if (!converted)
        return fail(RECORD_FAILED, error, error_size, "recording failed: %s", why);
    if (!execed && WIFEXITED(status) && end.status == TRACE_KILLED)
        return fail(RECORD_FAILED, error, error_size,
                    "internal error: %s exited with status %d but the recorder saw no exit (its "
                    "trace ends as killed by a signal); no trace written",
                    rec->name, result->exit_status);
    if (!write_end(rec, c, &end) && ferror(rec->file.stream))
        return fail(RECORD_FAILED, error, error_size, "%s: cannot write: %s", rec->output,
                    write_failure(rec));
    result->execed = execed;
    return RECORD_OK;
}

/* Runs valgrind, converting its stream into the open temporary trace
 * while it runs, and checks what it left. */
static enum record_status record_into(struct recording *rec, struct record_result *result,
                                      char *error, size_t error_size)
{
    /* The trace is written here: the program gets no copy of this
     * descriptor, nor of the pipe's end read here. */
    fcntl(rec->file.fd, F_SETFD, FD_CLOEXEC);
    int trace_pipe[2];
    if (pipe(trace_pipe) != 0)
        return fail(RECORD_FAILED, error, error_size, "cannot make a pipe: %s",
                    strerror(errno));
    fcntl(trace_pipe[0], F_SETFD, FD_CLOEXEC);
    struct valgrind_options vo;
    char **argv = valgrind_argv(rec, trace_pipe[1], &vo);
    bool no_memory = !argv;
    struct spawn child;
    struct spawn_failure failure;
    struct child_environment env = {rec->recorder, strcmp(rec->cpu.name, "host") == 0, false};
    bool started = argv && start_child(&child, &env, argv, trace_pipe[0], &failure);
    free(argv);
    close(trace_pipe[1]);
    if (!started) {
        close(trace_pipe[0]);
        if (no_memory)
            return fail(RECORD_FAILED, error, error_size, "out of memory");
        if (failure.step != SPAWN_FORK)
            return fail(RECORD_FAILED, error, error_size, "cannot start valgrind '%s': %s",
                        run_valgrind_path(), strerror(failure.error_number));
        return fail(RECORD_FAILED, error, error_size, "cannot start valgrind: %s",
                    strerror(failure.error_number));
    }
    struct record_stream stream;
    record_stream_init(&stream, trace_pipe[0], rec->output);
    stream.copy = rec->file.stream;
    struct conversion c = {0};
    char why[PATH_MAX + 1024];
    bool converted = convert(rec, &c, &stream, why, sizeof why);
    close(trace_pipe[0]);
    int status = spawn_wait(&child);
    enum record_status recorded =
        status < 0 ? fail(RECORD_FAILED, error, error_size, "cannot wait for valgrind: %s",
                          strerror(errno))
                   : check_run(rec, &c, status, converted, stream.bytes, result, why, error,
                               error_size);
    if (c.writer && !trace_writer_close(c.writer) && recorded == RECORD_OK)
        recorded = fail(RECORD_FAILED, error, error_size, "%s: cannot write: %s", rec->output,
                        write_failure(rec));
    return recorded;
}

enum record_status record_run(const struct record_options *options, struct record_result *result,
                              char *error, size_t error_size)
{
    *result = (struct record_result){0};
    struct recording rec = {.options = options,
                            .progress_due = options->progress ? PROGRESS_EVERY : UINT64_MAX,
                            .emulate_fd = -1};
    enum record_status status = check_files(&rec, error, error_size);
    if (status == RECORD_OK)
        status = check_recorder(&rec, error, error_size);
    if (status != RECORD_OK)
        return status;
    if (!atomic_open(&rec.file, rec.output, error, error_size))
        return RECORD_FAILED;
    result->cpu_widened = rec.cpu_widened;
    status = record_into(&rec, result, error, error_size);
    if (status != RECORD_OK)
        atomic_abort(&rec.file);
    else if (!atomic_commit(&rec.file, error, error_size))
        status = RECORD_FAILED;
    return status;
}

enum record_status record_temporary(const struct record_options *options, const char *prefix,
                                    struct cleanup_file *temporary, char *trace, size_t size,
                                    struct record_result *result, char *error,
                                    size_t error_size)
{
    *result = (struct record_result){0};
    if (!cleanup_temporary(temporary, prefix, trace, size, error, error_size))
        return RECORD_FAILED;
    struct record_options into = *options;
    into.output = trace;
    enum record_status status = record_run(&into, result, error, error_size);
    if (status != RECORD_OK)
        cleanup_remove_file(temporary);
    return status;
}

/* check_files and check_recorder, which fill in `rec`. */
static enum record_status check_emulated(struct recording *rec, char *error, size_t error_size)
{
    enum record_status status = check_files(rec, error, error_size);
    return status == RECORD_OK ? check_recorder(rec, error, error_size) : status;
}

enum record_status record_check_emulated(const struct record_options *options, char *error,
                                         size_t error_size)
{
    struct recording rec = {.options = options, .emulate_fd = -1};
    return check_emulated(&rec, error, error_size);
}

enum record_status record_start_emulated(const struct record_options *options, int trace_fd,
                                         int reply_fd, struct spawn *child, char *error,
                                         size_t error_size)
{
    struct recording rec = {.options = options, .emulate_fd = reply_fd};
    enum record_status status = check_emulated(&rec, error, error_size);
    if (status != RECORD_OK)
        return status;
    struct valgrind_options vo;
    char **argv = valgrind_argv(&rec, trace_fd, &vo);
    if (!argv)
        return fail(RECORD_FAILED, error, error_size, "out of memory");
    struct spawn_failure failure;
    struct child_environment env = {rec.recorder, strcmp(rec.cpu.name, "host") == 0, true};
    bool started = start_child(child, &env, argv, -1, &failure);
    free(argv);
    if (!started)
        return fail(RECORD_FAILED, error, error_size, "cannot start valgrind '%s': %s",
                    run_valgrind_path(), strerror(failure.error_number));
    return RECORD_OK;
}
