/* `pmubench emulate`'s run (apps/emulate/emulate.h; docs/emulate.md). */
#include "apps/emulate/emulate.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmu/waveform/pmu_signals.h"
#include "pmu/waveform/vcd.h"
#include "traces/record.h"
#include "traces/record_stream.h"
#include "util/atomic_file.h"
#include "util/error_line.h"
#include "util/fd_write.h"

/* IA32_TIME_STAMP_COUNTER (Intel SDM vol. 4, table 2-2): read, the
 * simulated clock. */
enum { MSR_TSC = 0x10 };

/* The answer to one access, as the tool reads it: two little-endian
 * words, the value read and the status (0 or an errno). */
enum { REPLY_SIZE = 16 };

struct emulation {
    struct machine *machine;
    int reply_fd;
    struct emulate_result *result;
    bool reply_failed;
};

/* The access on the machine's PMU; its errno, or 0. */
static int perform(struct emulation *e, uint64_t cycle, const struct trace_msr *access,
                   uint64_t *value)
{
    *value = cycle;
    if (access->op == TRACE_MSR_RDTSC)
        return 0; /* an instruction, not an access of the device */
    if (access->op == TRACE_MSR_READ && access->msr == MSR_TSC) {
        e->result->msr_reads++;
        return 0;
    }
    *value = 0;
    msr_status status;
    if (access->op == TRACE_MSR_WRITE) {
        e->result->msr_writes++;
        status = msr_write(e->machine->backend, access->cpu, access->msr, access->value);
    } else {
        e->result->msr_reads++;
        status = msr_read(e->machine->backend, access->cpu, access->msr, value);
    }
    if (status == MSR_OK)
        return 0;
    e->result->msr_failed++;
    return status == MSR_GP ? EIO : msr_errno(e->machine->backend);
}

/* The machine's hook: the access performed and answered. */
static void answer(void *context, int thread, uint64_t cycle, const struct trace_msr *access)
{
    (void)thread;
    struct emulation *e = context;
    uint64_t value;
    uint64_t words[2] = {0, (uint64_t)perform(e, cycle, access, &value)};
    words[0] = value;
    uint8_t reply[REPLY_SIZE];
    for (int i = 0; i < REPLY_SIZE; i++)
        reply[i] = (uint8_t)(words[i / 8] >> (8 * (i % 8)));
    if (!e->reply_failed)
        e->reply_failed = fd_write_all(e->reply_fd, reply, sizeof reply) < sizeof reply;
}

/* A line of the model's that names the pipe `path` ("PATH: byte offset
 * N: ...") names the run's trace instead: the pipe is pmubench's own. */
static void name_the_trace(char *error, size_t error_size, const char *path)
{
    size_t n = strlen(path);
    if (strncmp(error, path, n) != 0 || error[n] != ':')
        return;
    char rest[1024];
    snprintf(rest, sizeof rest, "%s", error + n);
    snprintf(error, error_size, "the run's trace%s", rest);
}

#define fail(status, ...) (error_line(0, error, error_size, __VA_ARGS__), (status))

/* The run's outputs, open while it runs: -o's trace, --vcd's waveform;
 * NULL for those not asked for. */
struct outputs {
    struct atomic_file *trace;
    struct vcd *vcd;
    uint64_t vcd_end;          /* the cycles the PMU completed: the dump's end */
};

/* Simulates the stream on `trace_fd` on a fresh machine, answering on
 * `reply_fd`, the stream's bytes copied to the trace output as the model
 * reads them, the PMU's cycles to the waveform; false with the model's
 * line. */
static bool simulate(const struct emulate_options *options, int trace_fd, int reply_fd,
                     struct outputs *out, struct emulate_result *result, char *error,
                     size_t error_size)
{
    struct machine machine;
    if (!(options->hyper_threading ? machine_create_one_of_two(&machine, options->config)
                                   : machine_create(&machine, options->config, 1))) {
        error_line(0, error, error_size, "out of memory");
        return false;
    }
    struct pmu_waveform waveform;
    if (out->vcd && !pmu_waveform_attach(&waveform, machine.backend, out->vcd)) {
        machine_destroy(&machine);
        error_line(0, error, error_size, "out of memory");
        return false;
    }
    if (out->vcd)
        vcd_begin(out->vcd);
    struct emulation e = {&machine, reply_fd, result, false};
    struct machine_hooks hooks = {.msr = answer, .context = &e,
                                  .trace_copy = out->trace ? out->trace->stream : NULL};
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", trace_fd);
    const char *traces[1] = {path};
    bool ok = machine_simulate(&machine, traces, &hooks, &result->simulated, error, error_size);
    if (out->vcd)
        out->vcd_end = pmu_waveform_detach(&waveform);
    machine_destroy(&machine);
    if (!ok)
        name_the_trace(error, error_size, path);
    return ok;
}

/* -o TRACE: the model's reader writes each chunk of the stream it reads to
 * the output's temporary file (util/atomic_file.h); --vcd: the waveform's
 * temporary files (pmu/waveform/vcd.h).  Kept when the run ended properly
 * and every write succeeded; false with a line when one could not be
 * written (a run that failed has said why already). */
static bool finish_outputs(struct outputs *out, bool ran, char *error, size_t error_size)
{
    bool ok = true;
    if (out->trace && !ran)
        atomic_abort(out->trace);
    else if (out->trace)
        ok = atomic_commit(out->trace, error, error_size);
    if (out->vcd && (!ran || !ok))
        vcd_abort(out->vcd);
    else if (out->vcd)
        ok = vcd_close(out->vcd, out->vcd_end, error, error_size);
    out->vcd = NULL;
    return ok;
}

/* The tool's frames unframed into the model's trace pipe
 * (record_stream_unframe), on a thread of its own: the model reads its
 * end as a file. */
struct unframing {
    struct record_stream stream;
    int out;
    bool ok;
    pthread_t thread;
};

static void *unframe(void *arg)
{
    struct unframing *u = arg;
    /* A write to the model's pipe once the model has stopped fails with
     * EPIPE here, not SIGPIPE ending pmubench. */
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, NULL);
    u->ok = record_stream_unframe(&u->stream, u->out);
    return NULL;
}

/* The pipes of a run: the tool's trace (its write end inherited), the
 * model's trace (the unframed stream) and the answers (the read end
 * inherited); -1 for an end closed. */
struct run_pipes {
    int tool[2], model[2], reply[2];
};

static void close_end(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void close_pipes(struct run_pipes *p)
{
    for (int i = 0; i < 2; i++) {
        close_end(&p->tool[i]);
        close_end(&p->model[i]);
        close_end(&p->reply[i]);
    }
}

static bool make_pipes(struct run_pipes *p, char *error, size_t error_size)
{
    *p = (struct run_pipes){{-1, -1}, {-1, -1}, {-1, -1}};
    if (pipe(p->tool) != 0 || !spawn_pipe(p->model) || pipe(p->reply) != 0) {
        error_line(0, error, error_size, "cannot make a pipe: %s", strerror(errno));
        close_pipes(p);
        return false;
    }
    fcntl(p->tool[0], F_SETFD, FD_CLOEXEC);
    fcntl(p->reply[1], F_SETFD, FD_CLOEXEC);
    return true;
}

/* The unframing thread started on the pipes; false (the reason in
 * `error`) when it cannot be. */
static bool start_unframing(struct unframing *u, struct run_pipes *p, const char *name,
                            char *error, size_t error_size)
{
    record_stream_init(&u->stream, p->tool[0], name);
    u->out = p->model[1];
    int failed = pthread_create(&u->thread, NULL, unframe, u);
    if (failed) {
        error_line(0, error, error_size, "cannot start a thread: %s", strerror(failed));
        return false;
    }
    p->tool[0] = p->model[1] = -1; /* the thread's, which closes them */
    return true;
}

/* Runs the program under the recorder, the model answering, into the
 * outputs open. */
static enum emulate_status run(const struct emulate_options *options,
                               const struct record_options *record, struct outputs *out,
                               struct emulate_result *result, char *error, size_t error_size)
{
    struct run_pipes p;
    if (!make_pipes(&p, error, error_size))
        return EMULATE_FAILED;
    struct spawn child;
    enum record_status started = record_start_emulated(record, p.tool[1], p.reply[0], &child,
                                                       error, error_size);
    close_end(&p.tool[1]);
    close_end(&p.reply[0]);
    struct unframing u;
    bool unframing = started == RECORD_OK &&
                     start_unframing(&u, &p, options->argv[0], error, error_size);
    /* Past the file size limit (ulimit -f) a write of the output fails,
     * EFBIG, and says so, rather than SIGXFSZ ending pmubench; set once the
     * program has started, which keeps the action it inherits. */
    struct sigaction ignore = {.sa_handler = SIG_IGN}, before;
    sigaction(SIGXFSZ, &ignore, &before);
    bool simulated =
        unframing && simulate(options, p.model[0], p.reply[1], out, result, error, error_size);
    /* Closed before the wait: the thread's writes and a tool still waiting
     * for an answer then end. */
    close_pipes(&p);
    if (unframing) {
        pthread_join(u.thread, NULL);
        if (!u.ok) { /* a bad frame, or processes at once: what the model read was cut */
            error_line(0, error, error_size, "%s", u.stream.error);
            simulated = false;
        }
    } else if (started == RECORD_OK) {
        kill(child.pid, SIGKILL);
    }
    int status = started == RECORD_OK ? spawn_wait(&child) : -1;
    int wait_errno = errno;
    bool waited = status >= 0;
    bool written = finish_outputs(out, simulated && waited, error, error_size);
    sigaction(SIGXFSZ, &before, NULL);
    if (started != RECORD_OK)
        return started == RECORD_BAD_INPUT ? EMULATE_BAD_INPUT : EMULATE_FAILED;
    if (!written)
        return EMULATE_FAILED;
    if (!waited)
        return fail(EMULATE_FAILED, "cannot wait for valgrind: %s", strerror(wait_errno));
    if (unframing && record_not_started(status, u.stream.bytes))
        return fail(EMULATE_BAD_INPUT, "cannot start %s", options->argv[0]);
    result->exit_status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
    return simulated ? EMULATE_OK : EMULATE_FAILED;
}

enum emulate_status emulate_run(const struct emulate_options *options,
                                struct emulate_result *result, char *error, size_t error_size)
{
    *result = (struct emulate_result){0};
    struct record_options record = {.argv = options->argv,
                                    .output = options->output,
                                    .recorder_dir = options->recorder_dir,
                                    .cpu = options->cpu,
                                    .logical_processors = options->hyper_threading ? 2 : 1};
    if (options->hyper_threading && !machine_caps(options->config).hyper_threading) {
        error_line(0, error, error_size, "--ht: %s has no Hyper-Threading",
                   machine_caps(options->config).core);
        return EMULATE_BAD_INPUT;
    }
    enum record_status checked = record_check_emulated(&record, error, error_size);
    if (checked != RECORD_OK)
        return checked == RECORD_BAD_INPUT ? EMULATE_BAD_INPUT : EMULATE_FAILED;
    struct atomic_file trace;
    struct outputs out = {0};
    if (options->output && !atomic_open(&trace, options->output, error, error_size))
        return EMULATE_FAILED;
    out.trace = options->output ? &trace : NULL;
    if (options->vcd_path &&
        !(out.vcd = vcd_create(options->vcd_path, options->gtkw_path, error, error_size))) {
        if (out.trace)
            atomic_abort(out.trace);
        return EMULATE_FAILED;
    }
    enum emulate_status status = run(options, &record, &out, result, error, error_size);
    /* Still open when the pipes could not be made. */
    if (out.trace)
        atomic_abort(out.trace);
    if (out.vcd)
        vcd_abort(out.vcd);
    return status;
}
