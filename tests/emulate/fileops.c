/*
 * fileops: the msr device through read, write, lseek, dup'd descriptors
 * and close, as Linux's msr driver (arch/x86/kernel/msr.c) gives them:
 * read and write transfer the MSR at the file position (`u32 reg =
 * *ppos`) and leave the position where it is; msr_seek moves it for
 * SEEK_SET and SEEK_CUR and refuses anything else with EINVAL; dup'd
 * descriptors share one open file and its position; a file stays open
 * until its last descriptor is closed; msr_open refuses a CPU that does not
 * exist with ENXIO (the emulated machine has one logical processor).
 *
 *   fileops        Pentium 4 (MSR_IQ_COUNTER0, 0x30C)
 *   fileops p5     P5 (CTR0, 0x12)
 *
 * Each case prints "WHAT: GOT, expected WANT: ok" (or FAIL), and the last
 * line "fileops: F of N cases failed".  Exit status 0 when none failed, 1
 * otherwise or when the device cannot be opened, 2 for a bad operand.
 * The counter is stopped (its control register as after reset), so what
 * is written is read back.  docs/emulate.md, "What the program sees".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "msr_file.h"

static int cases, failures;

static void report(const char *what, long long got, long long want)
{
    printf("%s: %lld, expected %lld: %s\n", what, got, want, got == want ? "ok" : "FAIL");
    cases++;
    failures += got != want;
}

/* A call's result, or -errno. */
static long long result(long long done)
{
    return done < 0 ? -(long long)errno : done;
}

static long long read_value(int fd, uint32_t msr)
{
    uint64_t value = 0;
    ssize_t done = pread(fd, &value, 8, (off_t)msr);
    return done == 8 ? (long long)value : result(done);
}

int main(int argc, char **argv)
{
    int is_p5 = argc == 2 && strcmp(argv[1], "p5") == 0;
    if (argc > 2 || (argc == 2 && !is_p5)) {
        fprintf(stderr, "usage: fileops [p5]\n");
        return 2;
    }
    uint32_t counter = is_p5 ? 0x12 : 0x30c;
    int fd = msr_file_open("fileops");
    report("lseek SEEK_SET to the counter", result(lseek(fd, (off_t)counter, SEEK_SET)),
           counter);
    uint64_t value = 12345;
    report("write 8 bytes at the position", result(write(fd, &value, 8)), 8);
    value = 0;
    report("read 8 bytes at the position", result(read(fd, &value, 8)), 8);
    report("the value read", (long long)value, 12345);
    report("lseek SEEK_CUR 0 (read and write leave it)", result(lseek(fd, 0, SEEK_CUR)),
           counter);
    report("lseek SEEK_END (EINVAL)", result(lseek(fd, 0, SEEK_END)), -EINVAL);
    report("read 4 bytes (EINVAL)", result(read(fd, &value, 4)), -EINVAL);

    int copy = dup(fd);
    report("pread of a dup'd descriptor", read_value(copy, counter), 12345);
    report("lseek SEEK_SET 0x10 on the copy", result(lseek(copy, 0x10, SEEK_SET)), 0x10);
    report("the position seen through the first (shared)", result(lseek(fd, 0, SEEK_CUR)),
           0x10);
    int high = dup2(fd, 100);
    report("dup2 to 100", high, 100);
    value = 777;
    report("pwrite 8 bytes through 100", result(pwrite(high, &value, 8, (off_t)counter)), 8);
    report("read back through the first", read_value(fd, counter), 777);
    int cloexec = fcntl(fd, F_DUPFD_CLOEXEC, 50);
    report("pread of an F_DUPFD_CLOEXEC copy", read_value(cloexec, counter), 777);

    close(fd);
    report("pread of a copy after the first's close", read_value(copy, counter), 777);
    close(copy);
    close(high);
    close(cloexec);
    report("pread after the last close (EBADF)", read_value(copy, counter), -EBADF);

    report("open /dev/cpu/1/msr (ENXIO: one logical processor)",
           result(open("/dev/cpu/1/msr", O_RDWR)), -ENXIO);
    printf("fileops: %d of %d cases failed\n", failures, cases);
    return failures ? 1 : 0;
}
