/* Recording a program's run as a trace (traces/record.h, docs/traces.md,
 * "Recording"). */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/atomic_file.h"
#include "bench/file_identity.h"
#include "traces/error_line.h"
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
    char exec_note[sizeof ((struct atomic_file *)0)->temp + 8];
};

/* The line (traces/error_line.h) and `status`. */
#define fail(status, error, error_size, ...) \
    (error_line(0, (error), (error_size), __VA_ARGS__), (status))

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
    if (elf_class(rec->program, 0) == 32 && !is_file(tool, true))
        return fail(RECORD_FAILED, error, error_size,
                    "%s is a 32-bit program and the 32-bit recorder is not built (install "
                    "gcc-multilib and run make)",
                    rec->name);
    /* The recorder writes a file it reads back: not a device or a pipe. */
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
    char out[sizeof ((struct atomic_file *)0)->temp + 32];
    char note[sizeof ((struct recording *)0)->exec_note + 32];
    char program[2 * PATH_MAX + 32];
    char argv0[PATH_MAX + 32];
};

/* valgrind -q --tool=pmutrace --pmutrace-out=TEMP ... PROGRAM ARGS...;
 * NULL when out of memory. */
static char **valgrind_argv(const struct recording *rec, struct valgrind_options *vo)
{
    int n_args = 0;
    while (rec->options->argv[n_args])
        n_args++;
    char **argv = calloc((size_t)n_args + 9, sizeof *argv);
    if (!argv)
        return NULL;
    snprintf(vo->out, sizeof vo->out, "--pmutrace-out=%s", rec->file.temp);
    snprintf(vo->note, sizeof vo->note, "--pmutrace-exec-note=%s", rec->exec_note);
    absolute_program_option(rec->program, vo->program, sizeof vo->program);
    /* valgrind gives the program the path it runs as argv[0]; natively it
     * is the name it was started by (execvp's), which the tool puts back. */
    snprintf(vo->argv0, sizeof vo->argv0, "--pmutrace-argv0=%s", rec->name);
    int k = 0;
    argv[k++] = (char *)run_valgrind_path();
    argv[k++] = "-q";
    argv[k++] = "--tool=pmutrace";
    argv[k++] = vo->out;
    argv[k++] = vo->note;
    argv[k++] = vo->program;
    argv[k++] = vo->argv0;
    if (rec->options->registers)
        argv[k++] = "--pmutrace-registers=yes";
    argv[k++] = (char *)rec->program;
    for (int j = 1; j < n_args; j++)
        argv[k++] = rec->options->argv[j];
    argv[k] = NULL;
    return argv;
}

/* The child: valgrind, or its exec's errno through `exec_fd` (a
 * close-on-exec pipe, which a successful exec closes).  It prints
 * nothing: the parent reports. */
static void exec_child(const char *recorder, char **argv, int exec_fd,
                       const struct sigaction *old_int, const struct sigaction *old_quit)
{
    sigaction(SIGINT, old_int, NULL);
    sigaction(SIGQUIT, old_quit, NULL);
    setenv("VALGRIND_LIB", recorder, 1);
    run_env_apply();
    execvp(argv[0], argv);
    int code = errno;
    if (write(exec_fd, &code, sizeof code) < 0)
        _exit(127);
    _exit(127);
}

/* Runs `argv` in a child with the recorder's environment, like system():
 * the terminal's interrupt goes to the program.  The child's wait status;
 * -1 with errno when the child could not be started or waited for, or when
 * its exec failed (errno the exec's, *exec_failed set). */
static int run_child(const char *recorder, char **argv, bool *exec_failed)
{
    *exec_failed = false;
    int exec_pipe[2];
    if (pipe(exec_pipe) != 0)
        return -1;
    fcntl(exec_pipe[0], F_SETFD, FD_CLOEXEC);
    fcntl(exec_pipe[1], F_SETFD, FD_CLOEXEC);
    fflush(NULL);
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old_int, old_quit;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    pid_t pid = fork();
    if (pid == 0) {
        close(exec_pipe[0]);
        exec_child(recorder, argv, exec_pipe[1], &old_int, &old_quit);
    }
    int saved_errno = errno;
    close(exec_pipe[1]);
    int code = 0;
    ssize_t n = 0;
    while (pid > 0 && (n = read(exec_pipe[0], &code, sizeof code)) < 0 && errno == EINTR)
        ;
    close(exec_pipe[0]);
    int status = 0;
    pid_t waited = pid < 0 ? -1 : 0;
    while (pid > 0 && (waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    if (pid >= 0)
        saved_errno = errno;
    if (n == (ssize_t)sizeof code) {
        *exec_failed = true;
        saved_errno = code;
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    errno = saved_errno;
    return pid < 0 || waited < 0 || *exec_failed ? -1 : status;
}

/* The tool ends a killed program's trace with status 1 and a one-byte code
 * 0; the signal is known here, from waitpid. */
static bool patch_signal(const char *path, int sig)
{
    FILE *f = fopen(path, "r+b");
    if (!f)
        return false;
    bool ok = fseek(f, -2, SEEK_END) == 0 && getc(f) == 1 && fseek(f, -1, SEEK_END) == 0 &&
              getc(f) == 0 && fseek(f, -1, SEEK_END) == 0 && putc(sig & 0x7f, f) != EOF;
    return fclose(f) == 0 && ok;
}

/* Reads the whole trace: a recording is kept only when it is valid.  Its
 * END record in *end. */
static bool check_trace(const char *path, const char *name, struct trace_end *end, char *error,
                        size_t error_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(error, error_size, "%.1000s: %s", name, strerror(errno));
        return false;
    }
    struct trace_reader *r = trace_reader_open(f, name, error, error_size);
    bool ok = r != NULL;
    if (r) {
        struct trace_record *rec = malloc(sizeof *rec);
        ok = rec != NULL;
        if (!ok)
            snprintf(error, error_size, "%s: out of memory", name);
        while (ok) {
            if (trace_read(r, rec) != TRACE_OK) {
                snprintf(error, error_size, "%s", trace_reader_error(r));
                ok = false;
            } else if (rec->kind == TRACE_RECORD_END) {
                *end = rec->end;
                break;
            }
        }
        free(rec);
        trace_reader_close(r);
    }
    fclose(f);
    return ok;
}

/* What the run left: a trace to keep, or why not.  `status` is valgrind's
 * wait status. */
static enum record_status check_run(struct recording *rec, int status, bool execed,
                                    struct record_result *result, char *error, size_t error_size)
{
    /* valgrind could not start the program (a bad "#!" interpreter, a
     * missing tool, ...): it said why, the trace is empty. */
    struct stat trace_st;
    if (!execed && !(WIFEXITED(status) && WEXITSTATUS(status) == 0) &&
        stat(rec->file.temp, &trace_st) == 0 && trace_st.st_size == 0)
        return fail(RECORD_BAD_INPUT, error, error_size, "cannot start %s", rec->name);
    /* After an execve the trace ends with the END record the tool wrote
     * then (exited, code 0); the exit status is the new program's. */
    char why[PATH_MAX + 1024];
    bool ok = true;
    if (WIFSIGNALED(status)) {
        result->exit_status = 128 + WTERMSIG(status);
        ok = execed || patch_signal(rec->file.temp, WTERMSIG(status));
        if (!ok)
            snprintf(why, sizeof why, "%.1000s: no trace (valgrind was killed by signal %d)",
                     rec->output, WTERMSIG(status));
    } else {
        result->exit_status = WEXITSTATUS(status);
    }
    struct trace_end end = {0};
    if (ok)
        ok = check_trace(rec->file.temp, rec->output, &end, why, sizeof why);
    if (!ok)
        return fail(RECORD_FAILED, error, error_size, "recording failed: %s", why);
    if (!execed && WIFEXITED(status) && end.status == TRACE_KILLED)
        return fail(RECORD_FAILED, error, error_size,
                    "internal error: %s exited with status %d but the recorder saw no exit (its "
                    "trace ends as killed by a signal); no trace written",
                    rec->name, result->exit_status);
    result->execed = execed;
    return RECORD_OK;
}

/* Runs valgrind into the open temporary trace and checks what it left. */
static enum record_status record_into(struct recording *rec, struct record_result *result,
                                      char *error, size_t error_size)
{
    /* The tool writes the trace itself: the program gets no copy of this
     * descriptor. */
    fcntl(fileno(rec->file.stream), F_SETFD, FD_CLOEXEC);
    /* The tool creates this file when the program calls execve (the trace
     * ends there): beside the temporary trace, with its unique name. */
    snprintf(rec->exec_note, sizeof rec->exec_note, "%s.exec", rec->file.temp);
    unlink(rec->exec_note);
    struct valgrind_options vo;
    char **argv = valgrind_argv(rec, &vo);
    if (!argv)
        return fail(RECORD_FAILED, error, error_size, "out of memory");
    bool exec_failed;
    int status = run_child(rec->recorder, argv, &exec_failed);
    int saved_errno = errno;
    free(argv);
    bool execed = unlink(rec->exec_note) == 0;
    if (status < 0 && exec_failed)
        return fail(RECORD_FAILED, error, error_size, "cannot start valgrind '%s': %s",
                    run_valgrind_path(), strerror(saved_errno));
    if (status < 0)
        return fail(RECORD_FAILED, error, error_size, "cannot start valgrind: %s",
                    strerror(saved_errno));
    return check_run(rec, status, execed, result, error, error_size);
}

enum record_status record_run(const struct record_options *options, struct record_result *result,
                              char *error, size_t error_size)
{
    *result = (struct record_result){0};
    struct recording rec = {.options = options};
    enum record_status status = check_files(&rec, error, error_size);
    if (status == RECORD_OK)
        status = check_recorder(&rec, error, error_size);
    if (status != RECORD_OK)
        return status;
    if (!atomic_open(&rec.file, rec.output, error, error_size))
        return RECORD_FAILED;
    status = record_into(&rec, result, error, error_size);
    if (status != RECORD_OK)
        atomic_abort(&rec.file);
    else if (!atomic_commit(&rec.file, error, error_size))
        status = RECORD_FAILED;
    return status;
}
