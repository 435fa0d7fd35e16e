/* Writing a whole buffer to a descriptor (util/fd_write.h). */
#include "util/fd_write.h"

#include <errno.h>
#include <unistd.h>

size_t fd_write_all(int fd, const void *data, size_t size)
{
    const char *bytes = data;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, bytes + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            break;
        }
        done += (size_t)n;
    }
    return done;
}
