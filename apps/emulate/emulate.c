/* `pmubench emulate`'s run (apps/emulate/emulate.h; docs/emulate.md). */
#include "apps/emulate/emulate.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "traces/record.h"
#include "util/atomic_file.h"
#include "util/error_line.h"

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
    size_t done = 0;
    while (done < sizeof reply && !e->reply_failed) {
        ssize_t n = write(e->reply_fd, reply + done, sizeof reply - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            e->reply_failed = true;
        else
            done += (size_t)n;
    }
}

#define fail(status, ...) (error_line(0, error, error_size, __VA_ARGS__), (status))

/* Simulates the stream on `trace_fd` on a fresh machine, answering on
 * `reply_fd`; false with the model's line. */
static bool simulate(const struct emulate_options *options, int trace_fd, int reply_fd,
                     struct emulate_result *result, char *error, size_t error_size)
{
    struct machine machine;
    if (!machine_create(&machine, options->config, 1)) {
        error_line(0, error, error_size, "out of memory");
        return false;
    }
    struct emulation e = {&machine, reply_fd, result, false};
    struct machine_hooks hooks = {.msr = answer, .context = &e};
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", trace_fd);
    const char *traces[1] = {path};
    bool ok = machine_simulate(&machine, traces, &hooks, &result->simulated, error, error_size);
    machine_destroy(&machine);
    return ok;
}

/* ---- -o TRACE: the stream copied as the model gets it
 *
 * A child process of pmubench's (forked, no exec) reads the tool's trace
 * pipe, hands each chunk on at once to the model's pipe and writes it to
 * the output's temporary file (util/atomic_file.h); the parent commits it
 * when the run ended properly.  The child's exit status is the errno of
 * its first failed write of the file, or 0. */

struct tee {
    pid_t pid; /* 0: no tee (no -o) */
    struct atomic_file file;
};

/* Writes all of `bytes` to `fd`; false when it cannot. */
static bool write_all(int fd, const char *bytes, size_t n)
{
    while (n > 0) {
        ssize_t done = write(fd, bytes, n);
        if (done < 0 && errno == EINTR)
            continue;
        if (done <= 0)
            return false;
        bytes += done;
        n -= (size_t)done;
    }
    return true;
}

static _Noreturn void tee_copy(int from, int to, struct atomic_file *copy)
{
    signal(SIGPIPE, SIG_IGN); /* the model gone: its pipe's write fails */
    signal(SIGXFSZ, SIG_IGN); /* past the file size limit: the write fails, EFBIG */
    static char buffer[65536];
    ssize_t n;
    while ((n = read(from, buffer, sizeof buffer)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || !write_all(to, buffer, (size_t)n))
            break;
        if (!ferror(copy->stream))
            fwrite(buffer, 1, (size_t)n, copy->stream);
    }
    bool failed = fflush(copy->stream) != 0 || ferror(copy->stream);
    int err = !failed ? 0 : copy->write_errno ? copy->write_errno : EIO;
    _exit(err < 256 ? err : EIO);
}

/* Starts the tee (its output open) from `*trace_fd`, which becomes the
 * model's end of the copy.  The tee closes `reply_fd` (the tool's
 * answers: only the model may hold it, for the tool to end when the model
 * does).  false with a line, the output removed. */
static bool tee_start(struct tee *tee, int *trace_fd, int reply_fd, char *error,
                      size_t error_size)
{
    int model[2];
    if (pipe(model) != 0) {
        atomic_abort(&tee->file);
        return fail(false, "cannot make a pipe: %s", strerror(errno));
    }
    fflush(NULL);
    tee->pid = fork();
    if (tee->pid == 0) {
        close(model[0]);
        close(reply_fd);
        tee_copy(*trace_fd, model[1], &tee->file);
    }
    int fork_errno = errno;
    close(model[1]);
    close(*trace_fd);
    *trace_fd = model[0];
    if (tee->pid < 0) {
        close(model[0]);
        atomic_abort(&tee->file);
        return fail(false, "cannot fork: %s", strerror(fork_errno));
    }
    fcntl(model[0], F_SETFD, FD_CLOEXEC);
    return true;
}

/* Waits for the tee and keeps the output when `ran` (the run ended
 * properly) and every write of it succeeded; false with a line when it
 * could not be written. */
static bool tee_finish(struct tee *tee, bool ran, char *error, size_t error_size)
{
    if (tee->pid <= 0)
        return true;
    int status;
    while (waitpid(tee->pid, &status, 0) < 0)
        if (errno != EINTR)
            return fail(false, "cannot wait for the trace's copy: %s", strerror(errno));
    int err = WIFEXITED(status) ? WEXITSTATUS(status) : EIO;
    if (ran && !err)
        return atomic_commit(&tee->file, error, error_size);
    atomic_abort(&tee->file);
    /* A run that failed has said why already. */
    return !ran || fail(false, "%s: cannot write: %s", tee->file.path, strerror(err));
}

/* Runs the program under the recorder, the model answering; `tee`
 * open when -o is given. */
static enum emulate_status run(const struct emulate_options *options,
                               const struct record_options *record, struct tee *tee,
                               struct emulate_result *result, char *error, size_t error_size)
{
    int trace_pipe[2], reply_pipe[2];
    if (pipe(trace_pipe) != 0)
        return fail(EMULATE_FAILED, "cannot make a pipe: %s", strerror(errno));
    if (pipe(reply_pipe) != 0) {
        close(trace_pipe[0]);
        close(trace_pipe[1]);
        return fail(EMULATE_FAILED, "cannot make a pipe: %s", strerror(errno));
    }
    fcntl(trace_pipe[0], F_SETFD, FD_CLOEXEC);
    fcntl(reply_pipe[1], F_SETFD, FD_CLOEXEC);
    struct spawn child;
    enum record_status started = record_start_emulated(record, trace_pipe[1], reply_pipe[0],
                                                       &child, error, error_size);
    close(trace_pipe[1]);
    close(reply_pipe[0]);
    bool teeing = started == RECORD_OK &&
                  (!options->output ||
                   tee_start(tee, &trace_pipe[0], reply_pipe[1], error, error_size));
    bool simulated = teeing &&
                     simulate(options, trace_pipe[0], reply_pipe[1], result, error, error_size);
    /* Closed before the wait: a tool still writing or waiting for an
     * answer then ends. */
    close(trace_pipe[0]);
    close(reply_pipe[1]);
    if (started != RECORD_OK)
        return started == RECORD_BAD_INPUT ? EMULATE_BAD_INPUT : EMULATE_FAILED;
    int status = spawn_wait(&child);
    bool waited = status >= 0;
    int wait_errno = errno;
    if (teeing && !tee_finish(tee, simulated && waited, error, error_size))
        return EMULATE_FAILED;
    if (!waited)
        return fail(EMULATE_FAILED, "cannot wait for valgrind: %s", strerror(wait_errno));
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
                                    .cpu = options->cpu};
    enum record_status checked = record_check_emulated(&record, error, error_size);
    if (checked != RECORD_OK)
        return checked == RECORD_BAD_INPUT ? EMULATE_BAD_INPUT : EMULATE_FAILED;
    struct tee tee = {0};
    if (options->output && !atomic_open(&tee.file, options->output, error, error_size))
        return EMULATE_FAILED;
    enum emulate_status status = run(options, &record, &tee, result, error, error_size);
    if (options->output && tee.pid == 0)
        atomic_abort(&tee.file); /* the tee never started */
    return status;
}
