/* The files a sweep reads and writes (sweep.h): each job's two files are
 * regular files or absent, and no output of the command is one of the
 * sweep's inputs or another output (util/file_identity.h). */
#include "sweep.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* `path` made absolute (not resolved: it may not exist yet). */
static char *absolute(const char *path)
{
    char cwd[PATH_MAX];
    if (path[0] == '/')
        return strdup(path);
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    char *joined = malloc(strlen(cwd) + strlen(path) + 2);
    if (joined)
        sprintf(joined, "%s/%s", cwd, path);
    return joined;
}

char *sweep_results_dir(const char *spec_path, const char *dir)
{
    if (dir)
        return absolute(dir);
    char *named = malloc(strlen(spec_path) + sizeof ".results");
    char *results = named ? absolute(strcat(strcpy(named, spec_path), ".results")) : NULL;
    free(named);
    return results;
}

/* What a file that is not a regular file is, for messages. */
static const char *file_kind(mode_t mode)
{
    return S_ISFIFO(mode)  ? "a FIFO"
           : S_ISDIR(mode) ? "a directory"
           : S_ISCHR(mode) ? "a character device"
           : S_ISBLK(mode) ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a file";
}

bool sweep_job_files_check(const char *dir, const struct sweep_job *job, char *error,
                           size_t error_size)
{
    static const char *const suffixes[] = {"json", "err"};
    static const char *const contents[] = {"result", "standard error"};
    for (int i = 0; i < 2; i++) {
        char *path = sweep_job_file(dir, job, suffixes[i]);
        struct stat st;
        if (!path) {
            snprintf(error, error_size, "out of memory");
            return false;
        }
        bool bad = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
        if (bad)
            snprintf(error, error_size, "%.4000s: %s, not a regular file (expected job %zu's %s "
                     "or nothing)", path, file_kind(st.st_mode), job->index, contents[i]);
        free(path);
        if (bad)
            return false;
    }
    return true;
}

FILE *sweep_job_open(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return NULL;
    FILE *in = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
        in = fdopen(fd, "rb");
    if (!in)
        close(fd);
    return in;
}

/* The outputs, the spec, the results directory and every trace: false
 * with the first clash in `error`. */
static bool inputs_distinct(const struct sweep_spec *spec, const char *dir,
                            const struct named_file *files, int n_files, char *error,
                            size_t error_size)
{
    size_t n = (size_t)n_files + 2 + spec->n_traces;
    struct named_file *all = malloc(n * sizeof *all);
    char **traces = calloc(spec->n_traces, sizeof *traces);
    bool ok = all && traces;
    for (size_t t = 0; ok && t < spec->n_traces; t++)
        ok = (traces[t] = sweep_trace_path(spec, t)) != NULL;
    if (!ok)
        snprintf(error, error_size, "out of memory");
    else {
        memcpy(all, files, (size_t)n_files * sizeof *all);
        all[n_files] = (struct named_file){"SPEC", spec->path, FILE_READ};
        all[n_files + 1] = (struct named_file){"results directory", dir, FILE_READ};
        for (size_t t = 0; t < spec->n_traces; t++)
            all[(size_t)n_files + 2 + t] = (struct named_file){"trace", traces[t], FILE_READ};
        ok = files_distinct(all, (int)n, error, error_size);
    }
    for (size_t t = 0; traces && t < spec->n_traces; t++)
        free(traces[t]);
    free(traces);
    free(all);
    return ok;
}

/* Whether `path` (its links followed, as an output is written: bench/
 * atomic_file.h) names a file in the directory `dir` (device and inode),
 * whether that file exists or not. */
static bool in_directory(const char *path, const struct stat *dir)
{
    char target[PATH_MAX];
    struct stat st;
    if (!path || !path_follow_links(path, target, sizeof target))
        return false;
    char *slash = strrchr(target, '/');
    if (slash)
        slash[1] = '\0';
    return stat(slash ? target : ".", &st) == 0 && st.st_dev == dir->st_dev &&
           st.st_ino == dir->st_ino;
}

/* The outputs in the results directory against each job's two files.
 * An output elsewhere is none of them: it is written by a rename onto its
 * own name, which leaves every other link to a file alone. */
static bool jobs_distinct(const struct sweep_spec *spec, const char *dir,
                          const struct named_file *files, int n_files, char *error,
                          size_t error_size)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return true; /* not made yet: nothing is written there before it is */
    struct named_file *mine = malloc(((size_t)n_files + 2) * sizeof *mine);
    int n = 0;
    for (int i = 0; mine && i < n_files; i++)
        if (files[i].use == FILE_WRITE && in_directory(files[i].path, &st))
            mine[n++] = files[i];
    bool ok = mine != NULL;
    for (size_t j = 0; ok && n && j < sweep_job_count(spec); j++) {
        struct sweep_job job;
        sweep_job_at(spec, j, &job);
        char result_what[48], err_what[48];
        snprintf(result_what, sizeof result_what, "job %zu's result", j);
        snprintf(err_what, sizeof err_what, "job %zu's error file", j);
        char *result = sweep_job_file(dir, &job, "json"), *err = sweep_job_file(dir, &job, "err");
        mine[n] = (struct named_file){result_what, result, FILE_WRITE};
        mine[n + 1] = (struct named_file){err_what, err, FILE_WRITE};
        ok = result && err && files_distinct(mine, n + 2, error, error_size);
        if (!result || !err)
            snprintf(error, error_size, "out of memory");
        free(result);
        free(err);
    }
    if (!mine)
        snprintf(error, error_size, "out of memory");
    free(mine);
    return ok;
}

bool sweep_files_distinct(const struct sweep_spec *spec, const char *dir,
                          const struct named_file *files, int n_files, char *error,
                          size_t error_size)
{
    return inputs_distinct(spec, dir, files, n_files, error, error_size) &&
           jobs_distinct(spec, dir, files, n_files, error, error_size);
}

enum sweep_dir_status sweep_results_dir_prepare(const char *dir, bool make, bool *made,
                                                char *error, size_t error_size)
{
    struct stat st;
    *made = false;
    if (make && mkdir(dir, 0777) == 0) {
        *made = true;
        return SWEEP_DIR_READY;
    }
    if (make && errno != EEXIST) {
        snprintf(error, error_size, "%s: cannot create: %s", dir, strerror(errno));
        return SWEEP_DIR_NOT_MADE;
    }
    if (stat(dir, &st) != 0) {
        int cause = errno;
        if (cause == ENOENT) {
            snprintf(error, error_size, "%s: no such directory (expected the jobs' results: "
                     "--merge runs no job and makes no directory)", dir);
            return SWEEP_DIR_BAD;
        }
        snprintf(error, error_size, "%s: cannot open: %s", dir, strerror(cause));
        errno = cause;
        return SWEEP_DIR_UNREADABLE;
    }
    if (S_ISDIR(st.st_mode))
        return SWEEP_DIR_READY;
    snprintf(error, error_size, "%s: not a directory (expected the results' directory)", dir);
    return SWEEP_DIR_BAD;
}
