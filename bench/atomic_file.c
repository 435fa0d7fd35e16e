#include "atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool open_direct(struct atomic_file *file, const char *path, char *error,
                        size_t error_size)
{
    file->direct = true;
    file->stream = fopen(path, "w");
    if (file->stream)
        return true;
    snprintf(error, error_size, "%s: cannot open: %s", path, strerror(errno));
    return false;
}

bool atomic_open(struct atomic_file *file, const char *path, char *error, size_t error_size)
{
    memset(file, 0, sizeof *file);
    snprintf(file->path, sizeof file->path, "%s", path);
    struct stat target;
    if (stat(path, &target) == 0 && !S_ISREG(target.st_mode))
        return open_direct(file, path, error, error_size);
    snprintf(file->temp, sizeof file->temp, "%s.XXXXXX", path);
    int fd = mkstemp(file->temp);
    if (fd >= 0) {
        /* mkstemp makes the file private; give it the usual mode. */
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
        file->stream = fdopen(fd, "w");
    }
    if (file->stream)
        return true;
    snprintf(error, error_size, "%s: cannot create: %s", path, strerror(errno));
    if (fd >= 0) {
        close(fd);
        unlink(file->temp);
    }
    return false;
}

bool atomic_commit(struct atomic_file *file, char *error, size_t error_size)
{
    int err = 0;
    if (ferror(file->stream))
        err = EIO;
    if (fclose(file->stream) != 0 && !err)
        err = errno;
    file->stream = NULL;
    if (!err && !file->direct && rename(file->temp, file->path) != 0)
        err = errno;
    if (!err)
        return true;
    snprintf(error, error_size, "%s: cannot write: %s", file->path, strerror(err));
    if (!file->direct)
        unlink(file->temp);
    return false;
}

void atomic_abort(struct atomic_file *file)
{
    if (!file->stream)
        return;
    fclose(file->stream);
    file->stream = NULL;
    if (!file->direct)
        unlink(file->temp);
}
