/* Writing a whole buffer to a descriptor: write(2) again after a short
 * count or EINTR, as a pipe or a full disk may need. */
#ifndef UTIL_FD_WRITE_H
#define UTIL_FD_WRITE_H

#include <stddef.h>

/* Writes `size` bytes of `data` to `fd`; the bytes written, all of them
 * or, short, with errno (EIO for a write that wrote nothing and said
 * nothing). */
size_t fd_write_all(int fd, const void *data, size_t size);

#endif
