/* Counts taken now: perf_event_open and valgrind lackey (measure.h). */
#include "measure.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/spawn.h"
#include "traces/import_common.h"
#include "traces/run_env.h"

/* The child's environment: that of recorded runs (traces/run_env.h). */
static void apply_run_env(const void *unused)
{
    (void)unused;
    run_env_apply();
}

/* Starts `argv` held before its exec (util/spawn.h), a foreground child
 * (util/cleanup.h): like system(), the terminal's interrupt goes to the
 * program meanwhile; a signal that ends pmubench ends it (closing
 * `reading`, the end of its output read here, or -1, first). */
static bool child_start(struct spawn *c, char *const argv[], int reading, char *error,
                        size_t error_size)
{
    char path[4096], why[256];
    if (!run_find_program(argv[0], path, sizeof path, why, sizeof why)) {
        snprintf(error, error_size, "cannot run '%s': %s", argv[0], why);
        return false;
    }
    struct spawn_options options = {.path = path, .in = SPAWN_KEEP, .out = SPAWN_KEEP,
                                    .cpu = SPAWN_KEEP, .foreground = true, .reading = reading,
                                    .hold = true, .prepare = apply_run_env};
    struct spawn_failure failure;
    if (spawn_start(c, argv, &options, &failure))
        return true;
    spawn_message(&failure, argv[0], error, error_size);
    return false;
}

/* Lets the child exec; false with a message when the exec failed. */
static bool child_release(struct spawn *c, const char *program, char *error, size_t error_size)
{
    struct spawn_failure failure;
    if (spawn_release(c, &failure))
        return true;
    spawn_message(&failure, program, error, error_size);
    return false;
}

/* Waits for the child that runs the program; its wait status. */
static int child_wait(struct spawn *c)
{
    int status = spawn_wait(c);
    return status < 0 ? 0 : status;
}

struct generic_event {
    const char *name;
    uint32_t type;
    uint64_t config;
};

#define L1D_CACHE(op, result) \
    (PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
     (PERF_COUNT_HW_CACHE_RESULT_##result << 16))

static const struct generic_event perf_events[] = {
    {"instructions:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"branches:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"L1-dcache-loads:u", PERF_TYPE_HW_CACHE, L1D_CACHE(READ, ACCESS)},
    {"L1-dcache-stores:u", PERF_TYPE_HW_CACHE, L1D_CACHE(WRITE, ACCESS)},
    {"L1-dcache-load-misses:u", PERF_TYPE_HW_CACHE, L1D_CACHE(READ, MISS)},
};
enum { N_PERF_EVENTS = sizeof perf_events / sizeof perf_events[0] };

/* A counter of `pid` from its next exec, user mode, its children too. */
static int open_counter(const struct generic_event *event, pid_t pid)
{
    struct perf_event_attr attr = {
        .type = event->type,
        .size = sizeof attr,
        .config = event->config,
        .read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
        .disabled = 1,
        .inherit = 1,
        .enable_on_exec = 1,
        .exclude_kernel = 1,
        .exclude_hv = 1,
    };
    return (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Why perf_event_open failed with `code`, in `reason`; the status. */
static enum count_status open_failure(int code, char *reason, size_t size)
{
    bool unsupported = code == ENOENT || code == EOPNOTSUPP || code == ENODEV;
    if (unsupported)
        snprintf(reason, size, "not supported on this machine (perf_event_open: %s)",
                 strerror(code));
    else if (code == EACCES || code == EPERM)
        snprintf(reason, size, "not permitted (perf_event_open: %s; see "
                               "/proc/sys/kernel/perf_event_paranoid)", strerror(code));
    else
        snprintf(reason, size, "not counted (perf_event_open: %s)", strerror(code));
    return unsupported ? COUNT_NOT_SUPPORTED : COUNT_NOT_COUNTED;
}

/* The count of an open counter after the run. */
static void read_counter(int fd, struct count *count, char *reason, size_t size)
{
    uint64_t values[3]; /* value, time enabled, time running */
    if (read(fd, values, sizeof values) != (ssize_t)sizeof values) {
        count->status = COUNT_NOT_COUNTED;
        snprintf(reason, size, "not counted (reading the counter: %s)", strerror(errno));
    } else if (values[2] == 0 || values[2] < values[1]) {
        count->status = COUNT_NOT_COUNTED;
        snprintf(reason, size, "not counted: the counter ran %.0f%% of the run (multiplexed)",
                 values[1] ? 100.0 * (double)values[2] / (double)values[1] : 0.0);
    } else {
        count->value = values[0];
    }
    count->reason = count->status == COUNT_COUNTED ? NULL : reason;
}

/* A counter's count after the run, or why there is none (`open_errno`:
 * why perf_event_open refused it when fd < 0); closes it. */
static void take_count(int fd, int open_errno, struct count *count, char *reason, size_t size)
{
    if (fd < 0) {
        count->status = open_failure(open_errno, reason, size);
        count->reason = reason;
        return;
    }
    read_counter(fd, count, reason, size);
    close(fd);
}

static char *describe_run(const char *tool, const char *program)
{
    char source[512];
    snprintf(source, sizeof source, "%s, %.400s", tool, program);
    return strdup(source);
}

bool measure_perf(char *const argv[], struct count_set *set, int *status,
                  char *error, size_t error_size)
{
    struct spawn c;
    if (!child_start(&c, argv, -1, error, error_size))
        return false;
    int fds[N_PERF_EVENTS], codes[N_PERF_EVENTS];
    for (int i = 0; i < N_PERF_EVENTS; i++) {
        fds[i] = open_counter(&perf_events[i], c.pid);
        codes[i] = errno;
    }
    bool ran = child_release(&c, argv[0], error, error_size);
    *status = ran ? child_wait(&c) : 0;
    count_set_init(set, NULL);
    /* The host's CPU: the kernel clears CPUID faulting at execve, so a run
     * without a tracer cannot be given a recording's CPU view
     * (docs/traces.md, "The CPU view"). */
    set->source = describe_run("perf_event_open (user mode; the host's CPU, not a recording's "
                               "CPU view)",
                               argv[0]);
    bool ok = ran && set->source;
    for (int i = 0; i < N_PERF_EVENTS; i++) {
        char reason[256];
        struct count count = {.name = (char *)perf_events[i].name, .region = -1};
        take_count(fds[i], codes[i], &count, reason, sizeof reason);
        ok = ok && count_set_add(set, &count);
    }
    if (ran && !ok)
        snprintf(error, error_size, "out of memory");
    if (!ok)
        count_set_free(set);
    return ok;
}

static int record_kind(const char *line, uint64_t *address)
{
    char *copy = strdup(line), *cursor = copy;
    char *kind = copy ? import_next_field(&cursor) : NULL;
    char *rest = kind ? import_next_field(&cursor) : NULL;
    char *comma = rest ? strchr(rest, ',') : NULL;
    int letter = 0;
    if (comma && !import_next_field(&cursor) && strlen(kind) == 1 && strchr("ILSM", kind[0])) {
        *comma = '\0';
        if (import_parse_number(rest, 16, address))
            letter = kind[0];
    }
    free(copy);
    return letter;
}

bool lackey_count_line(struct lackey_counts *counts, const char *line)
{
    uint64_t address;
    switch (record_kind(line, &address)) {
    case 'I':
        /* One REP string instruction: a record per iteration, at its address. */
        if (!counts->have_instruction || address != counts->last_instruction)
            counts->instructions++;
        counts->last_instruction = address;
        counts->have_instruction = true;
        return true;
    case 'L':
        counts->loads++;
        return true;
    case 'S':
        counts->stores++;
        return true;
    case 'M':
        counts->modifies++;
        return true;
    default:
        return false;
    }
}

bool lackey_count_set(const struct lackey_counts *counts, const char *program,
                      struct count_set *set)
{
    count_set_init(set, NULL);
    const struct count list[] = {
        {.name = "instructions", .value = counts->instructions, .region = -1},
        {.name = "loads", .value = counts->loads + counts->modifies, .region = -1},
        {.name = "stores", .value = counts->stores + counts->modifies, .region = -1},
    };
    bool ok = (set->source = describe_run("valgrind lackey", program)) != NULL;
    for (size_t i = 0; ok && i < sizeof list / sizeof list[0]; i++)
        ok = count_set_add(set, &list[i]) != NULL;
    if (!ok)
        count_set_free(set);
    return ok;
}

/* Counts lackey's lines from `fd` as they arrive, then closes it; whether
 * any was a record. */
static bool count_lackey_fd(int fd, struct lackey_counts *counts)
{
    FILE *in = fdopen(fd, "r");
    if (!in) {
        close(fd);
        return false;
    }
    char *line = NULL;
    size_t capacity = 0;
    bool any = false;
    while (getline(&line, &capacity, in) >= 0)
        any |= lackey_count_line(counts, line);
    free(line);
    fclose(in);
    return any;
}

/* valgrind --vgdb=no --tool=lackey --trace-mem=yes --log-fd=N PROGRAM ARGS...
 * (no gdbserver: its FIFOs in $TMPDIR would outlive a valgrind ended by a
 * signal) */
static char **lackey_argv(const char *valgrind, char *const argv[], char *log_option)
{
    size_t n_args = 0;
    while (argv[n_args])
        n_args++;
    char **vg_argv = calloc(n_args + 6, sizeof *vg_argv);
    if (!vg_argv)
        return NULL;
    vg_argv[0] = (char *)valgrind;
    vg_argv[1] = "--vgdb=no";
    vg_argv[2] = "--tool=lackey";
    vg_argv[3] = "--trace-mem=yes";
    vg_argv[4] = log_option;
    memcpy(vg_argv + 5, argv, (n_args + 1) * sizeof *argv);
    return vg_argv;
}

bool measure_lackey(const char *valgrind, char *const argv[],
                    struct count_set *set, int *status, char *error, size_t error_size)
{
    int log[2];
    if (pipe(log) != 0) {
        snprintf(error, error_size, "cannot start valgrind: %s", strerror(errno));
        return false;
    }
    fcntl(log[0], F_SETFD, FD_CLOEXEC);
    char log_option[32];
    snprintf(log_option, sizeof log_option, "--log-fd=%d", log[1]);
    char **vg_argv = lackey_argv(valgrind, argv, log_option);
    struct spawn c;
    bool started = vg_argv && child_start(&c, vg_argv, log[0], error, error_size);
    close(log[1]);
    if (!started) {
        if (!vg_argv)
            snprintf(error, error_size, "out of memory");
        close(log[0]);
        free(vg_argv);
        return false;
    }
    bool ran = child_release(&c, valgrind, error, error_size);
    struct lackey_counts counts = {0};
    bool recorded = count_lackey_fd(log[0], &counts);
    *status = ran ? child_wait(&c) : 0;
    free(vg_argv);
    if (ran && !recorded)
        snprintf(error, error_size, "cannot run '%s' under valgrind lackey (no records)", argv[0]);
    bool ok = ran && recorded && lackey_count_set(&counts, argv[0], set);
    if (ran && recorded && !ok)
        snprintf(error, error_size, "out of memory");
    return ok;
}
