/* pmubench record [-o FILE] -- PROGRAM ARGS...
 * pmubench record --env
 *
 * Records a run of PROGRAM as a pmubench trace (docs/traces.md,
 * "Recording") with the valgrind tool traces/recorder/pmutrace.c, found in
 * $PMUBENCH_RECORDER_DIR or in recorder/ beside the pmubench binary. */
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
#include "commands.h"
#include "exit_status.h"
#include "option_once.h"
#include "traces/run_env.h"
#include "traces/trace.h"

static const char record_usage[] =
    "usage: pmubench record [-o FILE] [--registers] [--] PROGRAM [ARGS...]\n"
    "       pmubench record --env\n"
    "  -o FILE   the trace (default: PROGRAM's basename + \".pmutrace\")\n"
    "  --registers  record the general registers and flags after every\n"
    "            instruction (a larger trace, a slower recording)\n"
    "  --env     print the environment variables recorded runs use (NAME=VALUE\n"
    "            lines); native runs to compare with must use the same\n"
    "Runs PROGRAM under valgrind with the pmutrace tool (from $PMUBENCH_RECORDER_DIR\n"
    "or recorder/ beside pmubench) and exits with PROGRAM's exit status (128 + the\n"
    "signal if a signal killed it).  The trace is written whole or not at all.\n";

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

/* The folder holding pmutrace-amd64-linux (valgrind's VALGRIND_LIB); false
 * with a message in `error`. */
static bool find_recorder(char *dir, size_t size, char *error, size_t error_size)
{
    const char *env = getenv("PMUBENCH_RECORDER_DIR");
    if (env && *env) {
        snprintf(dir, size, "%s", env);
    } else {
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
    }
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

/* valgrind's launcher.  Debian's /usr/bin/valgrind is a script that adds
 * LD_LIBRARY_PATH=/usr/lib/debug and two C++ variables to the program's
 * environment, changing what the dynamic loader does: run the launcher it
 * wraps, valgrind.bin, when there is one. */
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

static int print_env(void)
{
    for (int i = 0; i < run_env_count; i++)
        printf("%s=%s\n", run_env[i].name, run_env[i].value);
    return 0;
}

int cmd_record(int argc, char **argv)
{
    const char *out = NULL;
    bool registers = false;
    struct options_given given = {0};
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(record_usage, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--env") == 0)
            return print_env();
        if (argv[i][0] == '-' && !option_once(&given, "record", argv[i]))
            return EXIT_BAD_INPUT;
        if (strcmp(argv[i], "--registers") == 0) {
            registers = true;
        } else if (strcmp(argv[i], "-o") == 0) {
            if (++i == argc)
                return usage_error("record", "-o needs a value");
            out = argv[i];
        } else if (argv[i][0] == '-') {
            return usage_error("record", "unknown option '%s'", argv[i]);
        } else {
            break;
        }
    }
    if (i == argc)
        return usage_error("record", "no program to record");
    char program[PATH_MAX], error[PATH_MAX + 1024];
    if (!run_find_program(argv[i], program, sizeof program, error, sizeof error))
        return command_error(EXIT_BAD_INPUT, "record", "cannot run '%s': %s", argv[i], error);
    const char *name = argv[i];
    char default_out[PATH_MAX];
    if (!out) {
        const char *base = strrchr(argv[i], '/');
        snprintf(default_out, sizeof default_out, "%s.pmutrace", base ? base + 1 : argv[i]);
        out = default_out;
    }
    const struct named_file files[] = {{"PROGRAM", program, FILE_READ}, {"-o", out, FILE_WRITE}};
    if (!files_distinct(files, 2, error, sizeof error))
        return command_error(EXIT_BAD_INPUT, "record", "%s", error);
    char recorder[PATH_MAX];
    if (!find_recorder(recorder, sizeof recorder, error, sizeof error))
        return command_error(EXIT_RUNTIME, "record", "%s", error);
    /* valgrind picks its tool by the program's ELF class: a 32-bit program
     * needs pmutrace-x86-linux, built only when gcc -m32 links. */
    if (elf_class(program, 0) == 32) {
        char tool[PATH_MAX + 32];
        snprintf(tool, sizeof tool, "%s/pmutrace-x86-linux", recorder);
        if (!is_file(tool, true))
            return command_error(EXIT_RUNTIME, "record",
                                 "%s is a 32-bit program and the 32-bit recorder is not built "
                                 "(install gcc-multilib and run make)",
                                 name);
    }
    /* The recorder writes a file it reads back: not a device or a pipe. */
    struct stat target;
    if (stat(out, &target) == 0 && !S_ISREG(target.st_mode))
        return command_error(EXIT_BAD_INPUT, "record",
                             "%s is not a regular file (expected a trace file name)", out);
    struct atomic_file file;
    if (!atomic_open(&file, out, error, sizeof error))
        return command_error(EXIT_RUNTIME, "record", "%s", error);
    /* The tool writes the trace itself: the program gets no copy of this
     * descriptor. */
    fcntl(fileno(file.stream), F_SETFD, FD_CLOEXEC);
    /* The tool creates this file when the program calls execve (the trace
     * ends there): beside the temporary trace, with its unique name. */
    char exec_note[sizeof file.temp + 8];
    snprintf(exec_note, sizeof exec_note, "%s.exec", file.temp);
    unlink(exec_note);

    /* valgrind -q --tool=pmutrace --pmutrace-out=TEMP PROGRAM ARGS... */
    int n_args = argc - i - 1;
    char **vg_argv = calloc((size_t)n_args + 9, sizeof *vg_argv);
    char out_option[sizeof file.temp + 32], note_option[sizeof exec_note + 32];
    char program_option[2 * PATH_MAX + 32];
    snprintf(out_option, sizeof out_option, "--pmutrace-out=%s", file.temp);
    snprintf(note_option, sizeof note_option, "--pmutrace-exec-note=%s", exec_note);
    absolute_program_option(program, program_option, sizeof program_option);
    if (!vg_argv) {
        atomic_abort(&file);
        return command_error(EXIT_RUNTIME, "record", "out of memory");
    }
    int k = 0;
    vg_argv[k++] = (char *)run_valgrind_path();
    vg_argv[k++] = "-q";
    vg_argv[k++] = "--tool=pmutrace";
    vg_argv[k++] = out_option;
    vg_argv[k++] = note_option;
    vg_argv[k++] = program_option;
    if (registers)
        vg_argv[k++] = "--pmutrace-registers=yes";
    vg_argv[k++] = program;
    for (int j = 0; j < n_args; j++)
        vg_argv[k++] = argv[i + 1 + j];
    vg_argv[k] = NULL;

    fflush(NULL);
    /* Like system(): the terminal's interrupt goes to the program. */
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old_int, old_quit;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    pid_t pid = fork();
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        setenv("VALGRIND_LIB", recorder, 1);
        run_env_apply();
        execvp(vg_argv[0], vg_argv);
        fprintf(stderr, "pmubench record: cannot run %s: %s\n", vg_argv[0], strerror(errno));
        _exit(127);
    }
    int status = 0;
    pid_t waited = pid < 0 ? -1 : 0;
    while (pid > 0 && (waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    free(vg_argv);
    int saved_errno = errno;
    bool execed = unlink(exec_note) == 0;
    if (pid < 0 || waited < 0) {
        atomic_abort(&file);
        return command_error(EXIT_RUNTIME, "record", "cannot start valgrind: %s",
                             strerror(saved_errno));
    }

    /* valgrind could not start the program (a bad "#!" interpreter, a
     * missing tool, ...): it said why, the trace is empty. */
    struct stat trace_st;
    if (!execed && !(WIFEXITED(status) && WEXITSTATUS(status) == 0) &&
        stat(file.temp, &trace_st) == 0 && trace_st.st_size == 0) {
        atomic_abort(&file);
        return command_error(EXIT_BAD_INPUT, "record", "cannot start %s", name);
    }

    /* After an execve the trace ends with the END record the tool wrote
     * then (exited, code 0); the exit status is the new program's. */
    int code;
    bool ok = true;
    if (WIFSIGNALED(status)) {
        code = 128 + WTERMSIG(status);
        ok = execed || patch_signal(file.temp, WTERMSIG(status));
        if (!ok)
            snprintf(error, sizeof error, "%.1000s: no trace (valgrind was killed by signal %d)", out,
                     WTERMSIG(status));
    } else {
        code = WEXITSTATUS(status);
    }
    struct trace_end end = {0};
    if (ok)
        ok = check_trace(file.temp, out, &end, error, sizeof error);
    if (!ok) {
        atomic_abort(&file);
        return command_error(EXIT_RUNTIME, "record", "recording failed: %s", error);
    }
    if (!execed && WIFEXITED(status) && end.status == TRACE_KILLED) {
        atomic_abort(&file);
        return command_error(EXIT_RUNTIME, "record",
                             "internal error: %s exited with status %d but the recorder saw no "
                             "exit (its trace ends as killed by a signal); no trace written",
                             name, code);
    }
    if (execed)
        command_error(EXIT_OK, "record",
                      "%s called execve: the trace ends there (the new program is not recorded)",
                      name);
    if (!atomic_commit(&file, error, sizeof error))
        return command_error(EXIT_RUNTIME, "record", "%s", error);
    return code;
}
