#include "msr_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int msr_file_open(const char *program)
{
    int fd = open(MSR_FILE_PATH, O_RDWR);
    if (fd < 0) {
        int err = errno;
        fprintf(stderr, "%s: cannot open %s: %s (%s); run it under pmubench emulate\n", program,
                MSR_FILE_PATH, msr_file_errno_name(err), strerror(err));
        exit(1);
    }
    return fd;
}

/* The errno of a transfer that returned `done` of 8 bytes. */
static int transfer_status(ssize_t done)
{
    if (done < 0)
        return errno;
    return done == 8 ? 0 : EIO;
}

int msr_file_read(int fd, uint32_t msr, uint64_t *value)
{
    return transfer_status(pread(fd, value, sizeof *value, (off_t)msr));
}

int msr_file_write(int fd, uint32_t msr, uint64_t value)
{
    return transfer_status(pwrite(fd, &value, sizeof value, (off_t)msr));
}

uint64_t msr_file_get(int fd, const char *program, uint32_t msr)
{
    uint64_t value = 0;
    int err = msr_file_read(fd, msr, &value);
    if (err) {
        fprintf(stderr, "%s: cannot read MSR 0x%x: %s (%s)\n", program, (unsigned)msr,
                msr_file_errno_name(err), strerror(err));
        exit(1);
    }
    return value;
}

void msr_file_set(int fd, const char *program, uint32_t msr, uint64_t value)
{
    int err = msr_file_write(fd, msr, value);
    if (err) {
        fprintf(stderr, "%s: cannot write 0x%llx to MSR 0x%x: %s (%s)\n", program,
                (unsigned long long)value, (unsigned)msr, msr_file_errno_name(err), strerror(err));
        exit(1);
    }
}

const char *msr_file_errno_name(int err)
{
    /* The errors the msr driver and open(2) of its device can give. */
    static const struct {
        int err;
        const char *name;
    } names[] = {
        {EIO, "EIO"},       {EINVAL, "EINVAL"}, {ENOENT, "ENOENT"}, {ENXIO, "ENXIO"},
        {EPERM, "EPERM"},   {EACCES, "EACCES"}, {EFAULT, "EFAULT"}, {EBADF, "EBADF"},
        {ENODEV, "ENODEV"}, {ENOTTY, "ENOTTY"},
    };
    static char other[32];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].err == err)
            return names[i].name;
    snprintf(other, sizeof other, "errno %d", err);
    return other;
}
