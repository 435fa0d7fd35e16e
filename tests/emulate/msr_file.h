/* msr_file: Linux's msr device (/dev/cpu/0/msr) as the emulator test
 * programs use it, with the driver's interface (arch/x86/kernel/msr.c,
 * msr_read and msr_write): 8-byte transfers at file offset = MSR address,
 * EIO when the RDMSR or WRMSR faults, EINVAL for a length that is not a
 * multiple of 8.  tests/emulate/README.md. */
#ifndef TESTS_EMULATE_MSR_FILE_H
#define TESTS_EMULATE_MSR_FILE_H

#include <stdint.h>

/* The device; a build may name another file (-DMSR_FILE_PATH='"FILE"') to
 * run the programs' paths against a regular file, which stores what is
 * written and counts nothing. */
#ifndef MSR_FILE_PATH
#define MSR_FILE_PATH "/dev/cpu/0/msr"
#endif

/* Opens MSR_FILE_PATH read-write; when it cannot, says so on stderr under
 * `program` (the device exists only under `pmubench emulate` or on a
 * machine with the msr driver loaded) and exits with status 1. */
int msr_file_open(const char *program);

/* One 8-byte transfer: 0, or the errno of the failure (EIO for a short
 * transfer, which the driver never makes). */
int msr_file_read(int fd, uint32_t msr, uint64_t *value);
int msr_file_write(int fd, uint32_t msr, uint64_t value);

/* The same, exiting with status 1 and one line on stderr on failure. */
uint64_t msr_file_get(int fd, const char *program, uint32_t msr);
void msr_file_set(int fd, const char *program, uint32_t msr, uint64_t value);

/* The symbolic name of an errno value ("EIO"), or "errno N". */
const char *msr_file_errno_name(int err);

#endif
