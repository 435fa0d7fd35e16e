/* fopencookie: a stream whose writes keep their errno. */
#define _GNU_SOURCE
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd_write.h"
#include "file_identity.h"

/* ---- The stream: stdio over the descriptor, its first failure's errno
 * kept (stdio's error flag does not say why a write failed). */

static ssize_t stream_write(void *cookie, const char *data, size_t size)
{
    struct atomic_file *file = cookie;
    size_t done = fd_write_all(file->fd, data, size);
    if (done < size && !file->write_errno)
        file->write_errno = errno;
    return (ssize_t)done; /* a short count: stdio sets the stream's error flag */
}

static int stream_seek(void *cookie, off64_t *offset, int whence)
{
    struct atomic_file *file = cookie;
    off_t at = lseek(file->fd, (off_t)*offset, whence);
    if (at < 0)
        return -1;
    *offset = at;
    return 0;
}

static int stream_close(void *cookie)
{
    struct atomic_file *file = cookie;
    int rc = close(file->fd);
    if (rc != 0 && !file->write_errno)
        file->write_errno = errno;
    file->fd = -1;
    return rc;
}

/* file->stream over `fd`; false (errno set, `fd` left open) when out of
 * memory. */
static bool open_stream(struct atomic_file *file, int fd)
{
    file->fd = fd;
    file->write_errno = 0;
    file->stream = fopencookie(file, "w", (cookie_io_functions_t){
                                              .write = stream_write,
                                              .seek = stream_seek,
                                              .close = stream_close,
                                          });
    return file->stream != NULL;
}

/* ---- Opening, committing, aborting */

static bool open_direct(struct atomic_file *file, char *error, size_t error_size)
{
    file->direct = true;
    snprintf(file->target, sizeof file->target, "%s", file->path);
    int fd = open(file->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd >= 0 && open_stream(file, fd))
        return true;
    int err = errno;
    if (fd >= 0)
        close(fd);
    snprintf(error, error_size, "%s: cannot open: %s", file->path, strerror(err));
    return false;
}

/* The permission bits of the file replaced (not its set-user-ID,
 * set-group-ID or sticky bits, which a write clears), or those a new
 * file gets under the umask. */
static mode_t new_mode(const struct stat *target, bool exists)
{
    if (exists)
        return target->st_mode & 0777;
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* The temporary file's name: ".pmubench-XXXXXX" in the target's
 * directory (a name of the target's length plus a suffix could pass
 * NAME_MAX); false with errno ENAMETOOLONG when it does not fit. */
static bool temporary_name(struct atomic_file *file)
{
    const char *slash = strrchr(file->target, '/');
    int directory = slash ? (int)(slash - file->target + 1) : 0;
    int n = snprintf(file->temp, sizeof file->temp, "%.*s.pmubench-XXXXXX", directory,
                     file->target);
    if (n >= 0 && (size_t)n < sizeof file->temp)
        return true;
    errno = ENAMETOOLONG;
    return false;
}

static bool create_temporary(struct atomic_file *file, mode_t mode)
{
    if (!temporary_name(file))
        return false;
    int fd = cleanup_mkstemp(&file->cleanup, file->temp);
    if (fd < 0)
        return false;
    /* mkstemp makes the file private. */
    if (fchmod(fd, mode) == 0 && open_stream(file, fd))
        return true;
    int err = errno;
    close(fd);
    cleanup_remove_file(&file->cleanup);
    errno = err;
    return false;
}

bool atomic_open(struct atomic_file *file, const char *path, char *error, size_t error_size)
{
    memset(file, 0, sizeof *file);
    file->fd = -1;
    snprintf(file->path, sizeof file->path, "%s", path);
    /* The kernel follows the links itself: /dev/stdout on a pipe reaches
     * the pipe, where its link reads "pipe:[N]", no path. */
    struct stat target;
    if (stat(path, &target) == 0 && !S_ISREG(target.st_mode))
        return open_direct(file, error, error_size);
    bool ok = path_follow_links(path, file->target, sizeof file->target);
    bool exists = ok && stat(file->target, &target) == 0;
    if (ok && create_temporary(file, new_mode(&target, exists)))
        return true;
    snprintf(error, error_size, "%s: cannot create: %s", path, strerror(errno));
    return false;
}

bool atomic_commit(struct atomic_file *file, char *error, size_t error_size)
{
    bool failed = ferror(file->stream) != 0;
    failed |= fclose(file->stream) != 0;
    file->stream = NULL;
    int err = !failed ? 0 : file->write_errno ? file->write_errno : EIO;
    if (!err && !file->direct && rename(file->temp, file->target) != 0)
        err = errno;
    if (err && !file->direct)
        unlink(file->temp);
    if (!file->direct)
        cleanup_forget_file(&file->cleanup);
    if (!err)
        return true;
    snprintf(error, error_size, "%s: cannot write: %s", file->path, strerror(err));
    return false;
}

void atomic_abort(struct atomic_file *file)
{
    if (!file->stream)
        return;
    fclose(file->stream);
    file->stream = NULL;
    if (!file->direct)
        cleanup_remove_file(&file->cleanup);
}

bool atomic_write(const char *path, atomic_writer *write, const void *context,
                  const char *write_failed, char *error, size_t error_size)
{
    struct atomic_file file;
    if (!atomic_open(&file, path, error, error_size))
        return false;
    if (!write(file.stream, context)) {
        atomic_abort(&file);
        snprintf(error, error_size, "%s", write_failed);
        return false;
    }
    return atomic_commit(&file, error, error_size);
}
