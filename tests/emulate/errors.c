/*
 * errors: the msr driver's error cases, as the emulator must give them
 * (Linux arch/x86/kernel/msr.c: msr_read and msr_write return EINVAL for a
 * length that is not a multiple of 8 and EIO when the RDMSR or WRMSR
 * faults; a longer multiple of 8 repeats the same MSR).
 *
 *   errors         Pentium 4 (run as: pmubench emulate -- errors)
 *   errors p5      P5 (run as: pmubench emulate -m p5 -- errors p5)
 *
 * Each case prints one line, "WHAT: GOT, expected WANT: ok" (or FAIL), with
 * errno values by name.  Exit status 0 when every case is as expected, 1
 * when one is not or the device cannot be opened (outside the emulator
 * /dev/cpu/0/msr does not exist), 2 for a bad operand.
 * tests/emulate/README.md lists the cases and their sources.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "msr_file.h"

/* An address neither part has: the SDM's NetBurst MSR table (SDM-old Table
 * 18-26) has a gap at 0x3BF between MSR_SSU_ESCR0 (0x3BE) and MSR_MS_ESCR0
 * (0x3C0) (Linux names an SSU_ESCR1 there, "guess: not in manual";
 * docs/semantics.md, "NetBurst register map"), and the P5's MSRs end at
 * CTR1, 0x13 (SDM Pentium section). */
#define MSR_ABSENT 0x3bfu

struct part {
    const char *name;
    uint32_t counter;          /* a counter, for the length cases */
    uint32_t control;          /* a control register with reserved bits */
    const char *control_name;
    uint64_t control_legal;    /* a value that does not count */
    uint64_t control_reserved; /* the same with a reserved bit set */
};

/* NetBurst: MSR_IQ_COUNTER0 0x30C and MSR_IQ_CCCR0 0x36C (SDM-old Table
 * 18-26).  0x38000 is ESCR select 4 (bits 15:13) and ACTIVE_THREAD 11
 * (17:16) without ENABLE; bit 0 is reserved (SDM-old 18.18.3, CCCR figure:
 * bits 11:0 reserved, bit 11 used only by extended cascading;
 * CCCR_DEFINED_BITS in pmu/catalog/netburst_fields.h), so the part #GPs on
 * 0x38001 (pmubench faults on reserved bits: docs/semantics.md, "Reserved
 * bits (NetBurst)"). */
static const struct part netburst = {"netburst", 0x30c, 0x36c, "MSR_IQ_CCCR0", 0x38000, 0x38001};

/* P5: CTR0 0x12 and CESR 0x11 (SDM Pentium section; Safford 1997, Table
 * 2.1).  0x16 is ES0 = instructions_executed with CC0 = 000 (counter 0
 * stopped); bits 15:10 are reserved (Safford 1997, section 2.2;
 * P5_CESR_DEFINED_BITS in pmu/catalog/p5_msrs.h), so 0x416 (bit 10) #GPs
 * (docs/semantics.md, "P5"). */
static const struct part p5 = {"p5", 0x12, 0x11, "CESR", 0x16, 0x416};

static int cases, failures;

/* Prints a case's line: what happened against what was expected. */
static void report(const char *what, const char *got, const char *want)
{
    int ok = strcmp(got, want) == 0;
    printf("%s: %s, expected %s: %s\n", what, got, want, ok ? "ok" : "FAIL");
    cases++;
    failures += !ok;
}

/* A transfer's outcome as text: an errno name, or "N bytes". */
static const char *outcome(ssize_t done, int err, char *text, size_t size)
{
    if (done < 0)
        return msr_file_errno_name(err);
    snprintf(text, size, "%zd bytes", done);
    return text;
}

static void check_read(int fd, uint32_t msr, size_t length, const char *what, const char *want)
{
    uint64_t buffer[2] = {0, 0};
    char text[32], line[96];
    ssize_t done = pread(fd, buffer, length, (off_t)msr);
    int err = errno;
    snprintf(line, sizeof line, "pread %zu bytes at 0x%x (%s)", length, (unsigned)msr, what);
    report(line, outcome(done, err, text, sizeof text), want);
}

static void check_write(int fd, uint32_t msr, size_t length, uint64_t value, const char *what,
                        const char *want)
{
    uint64_t buffer[1] = {value};
    char text[32], line[128];
    ssize_t done = pwrite(fd, buffer, length, (off_t)msr);
    int err = errno;
    snprintf(line, sizeof line, "pwrite %zu bytes of 0x%llx at 0x%x (%s)", length,
             (unsigned long long)value, (unsigned)msr, what);
    report(line, outcome(done, err, text, sizeof text), want);
}

/* A 16-byte read is two reads of the same MSR: the driver's loop reads
 * `reg` again for each 8 bytes.  The counter is stopped, so both match. */
static void check_repeat(int fd, uint32_t msr)
{
    uint64_t values[2] = {1, 2};
    ssize_t done = pread(fd, values, sizeof values, (off_t)msr);
    int err = errno;
    char text[32], line[96];
    snprintf(line, sizeof line, "pread 16 bytes at 0x%x (the counter twice)", (unsigned)msr);
    report(line, done == 16 && values[0] != values[1] ? "two different values"
                                                         : outcome(done, err, text, sizeof text),
           "16 bytes");
}

static void check_part(int fd, const struct part *part)
{
    char what[64];
    check_read(fd, MSR_ABSENT, 8, "no such MSR", "EIO");
    check_write(fd, MSR_ABSENT, 8, 0, "no such MSR", "EIO");
    check_read(fd, part->counter, 4, "counter, 4 bytes", "EINVAL");
    check_write(fd, part->counter, 4, 0, "counter, 4 bytes", "EINVAL");
    check_read(fd, part->counter, 8, "counter", "8 bytes");

    snprintf(what, sizeof what, "%s, legal", part->control_name);
    check_write(fd, part->control, 8, part->control_legal, what, "8 bytes");
    snprintf(what, sizeof what, "%s, reserved bit", part->control_name);
    check_write(fd, part->control, 8, part->control_reserved, what, "EIO");
    /* A faulting WRMSR changes nothing. */
    uint64_t value = 0;
    int err = msr_file_read(fd, part->control, &value);
    char got[48], line[96];
    snprintf(got, sizeof got, "0x%llx", (unsigned long long)value);
    snprintf(line, sizeof line, "%s after the faulting write", part->control_name);
    snprintf(what, sizeof what, "0x%llx", (unsigned long long)part->control_legal);
    report(line, err ? msr_file_errno_name(err) : got, what);
    check_repeat(fd, part->counter);
    msr_file_set(fd, "errors", part->control, 0);
}

int main(int argc, char **argv)
{
    const struct part *part = &netburst;
    if (argc == 2 && strcmp(argv[1], p5.name) == 0)
        part = &p5;
    else if (argc > 2 || (argc == 2 && strcmp(argv[1], netburst.name) != 0)) {
        fprintf(stderr, "usage: errors [netburst|p5]\n");
        return 2;
    }
    int fd = msr_file_open("errors");
    check_part(fd, part);
    printf("%s: %d of %d cases failed\n", part->name, failures, cases);
    return failures ? 1 : 0;
}
