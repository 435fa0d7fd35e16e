#include "input_file.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

FILE *input_open(const char *path, char *error, size_t error_size)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        int saved = errno;
        snprintf(error, error_size, "%s: cannot open: %s", path, strerror(saved));
        errno = saved;
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(in), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(in);
        snprintf(error, error_size, "%s: is a directory", path);
        errno = EISDIR;
        return NULL;
    }
    return in;
}
