#include "file_identity.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The links the kernel follows before ELOOP (Linux's MAXSYMLINKS). */
enum { MAX_LINKS = 40 };

static bool copy_path(char *out, size_t size, int keep, const char *prefix, const char *rest)
{
    int n = snprintf(out, size, "%.*s%s", keep, prefix, rest);
    if (n >= 0 && (size_t)n < size)
        return true;
    errno = ENAMETOOLONG;
    return false;
}

bool path_follow_links(const char *path, char *out, size_t size)
{
    if (!copy_path(out, size, 0, "", path))
        return false;
    for (int hops = 0; hops < MAX_LINKS; hops++) {
        char target[PATH_MAX], here[PATH_MAX];
        ssize_t n = readlink(out, target, sizeof target);
        if (n < 0)
            return true;
        if ((size_t)n == sizeof target) {
            errno = ENAMETOOLONG;
            return false;
        }
        target[n] = '\0';
        /* A relative target is relative to the link's directory. */
        const char *slash = strrchr(out, '/');
        int directory = target[0] == '/' || !slash ? 0 : (int)(slash - out + 1);
        if (!copy_path(here, sizeof here, 0, "", out) ||
            !copy_path(out, size, directory, here, target))
            return false;
    }
    errno = ELOOP;
    return false;
}

/* A file's identity: its device and inode, or, for an output not created
 * yet, its directory's and its name there. */
struct identity {
    dev_t device;
    ino_t inode;
    char name[PATH_MAX]; /* "" for an existing file */
};

static void take(struct identity *id, const struct stat *st)
{
    id->device = st->st_dev;
    id->inode = st->st_ino;
}

/* False when the file has no identity to compare (none given, an input
 * that does not exist, a path that cannot be resolved). */
static bool identify(const struct named_file *file, struct identity *id)
{
    struct stat st;
    char path[PATH_MAX];
    id->name[0] = '\0';
    if (!file->path)
        return false;
    if (file->use == FILE_READ_STDIN) {
        if (fstat(STDIN_FILENO, &st) != 0)
            return false;
        take(id, &st);
        return true;
    }
    /* The kernel follows the links itself: /dev/stdout on a pipe reaches
     * the pipe, where reading /proc's link gives "pipe:[N]", no path. */
    if (stat(file->path, &st) == 0) {
        take(id, &st);
        return true;
    }
    if (file->use == FILE_READ || !path_follow_links(file->path, path, sizeof path))
        return false;
    char *slash = strrchr(path, '/');
    snprintf(id->name, sizeof id->name, "%s", slash ? slash + 1 : path);
    if (slash)
        slash[1] = '\0';
    if (!id->name[0] || stat(slash ? path : ".", &st) != 0)
        return false;
    take(id, &st);
    return true;
}

static bool same(const struct identity *a, const struct identity *b)
{
    return a->device == b->device && a->inode == b->inode && strcmp(a->name, b->name) == 0;
}

/* The first file of `files` other than files[output] that is the same
 * file as it, or -1.  Outputs listed before it were compared already. */
static int clash(const struct named_file *files, int n, int output)
{
    struct identity mine, other;
    if (!identify(&files[output], &mine))
        return -1;
    for (int i = 0; i < n; i++) {
        bool compared = i < output && files[i].use == FILE_WRITE;
        if (i != output && !compared && identify(&files[i], &other) && same(&mine, &other))
            return i;
    }
    return -1;
}

/* Whether `file` is an output that names a directory, which no output can
 * be written over (a rename onto it fails, and it is bad input:
 * docs/exit-status.md). */
static bool output_is_directory(const struct named_file *file)
{
    struct stat st;
    return file->use == FILE_WRITE && file->path && stat(file->path, &st) == 0 &&
           S_ISDIR(st.st_mode);
}

bool files_distinct(const struct named_file *files, int n, char *error, size_t error_size)
{
    for (int i = 0; i < n; i++) {
        if (output_is_directory(&files[i])) {
            snprintf(error, error_size, "%s: is a directory", files[i].path);
            return false;
        }
        int other = files[i].use == FILE_WRITE ? clash(files, n, i) : -1;
        if (other >= 0) {
            snprintf(error, error_size, "%s '%.1000s' and %s '%.1000s' are the same file",
                     files[i].what, files[i].path, files[other].what, files[other].path);
            return false;
        }
    }
    return true;
}
