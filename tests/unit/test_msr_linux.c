/* The Linux msr-device backend against a regular file standing in for
 * /dev/cpu/N/msr: docs/semantics.md, "Linux msr backend". */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmu/programming/msr_linux.h"

enum { FILE_SIZE = 0x700 };

static char dir[64];
static char dev0[128], dev1[128], pattern[128], missing[128];
static int identify_calls;

static bool pretend(struct cpu_identity *id, const char *vendor, unsigned family,
                    unsigned model)
{
    identify_calls++;
    snprintf(id->vendor, sizeof id->vendor, "%s", vendor);
    id->family = family;
    id->model = model;
    return true;
}

static bool intel_p4(struct cpu_identity *id) { return pretend(id, "GenuineIntel", 15, 2); }
static bool intel_p5(struct cpu_identity *id) { return pretend(id, "GenuineIntel", 5, 2); }
static bool intel_core(struct cpu_identity *id) { return pretend(id, "GenuineIntel", 6, 15); }
static bool amd_k8(struct cpu_identity *id) { return pretend(id, "AuthenticAMD", 15, 4); }

static bool no_cpuid(struct cpu_identity *id)
{
    (void)id;
    identify_calls++;
    return false;
}

static void make_file(const char *path, size_t size, int fill)
{
    unsigned char *buf = malloc(size ? size : 1);
    assert_non_null(buf);
    memset(buf, fill, size);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, buf, size), (ssize_t)size);
    close(fd);
    free(buf);
}

static uint64_t file_u64(const char *path, off_t offset)
{
    uint64_t v = 0;
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(pread(fd, &v, sizeof v, offset), 8);
    close(fd);
    return v;
}

static void file_put(const char *path, off_t offset, uint64_t v)
{
    int fd = open(path, O_WRONLY);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, &v, sizeof v, offset), 8);
    close(fd);
}

static off_t file_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_size;
}

/* The whole file, to check that refused writes leave it unchanged. */
static unsigned char *slurp(const char *path, size_t *size)
{
    *size = (size_t)file_size(path);
    unsigned char *buf = malloc(*size + 1);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(read(fd, buf, *size), (ssize_t)*size);
    close(fd);
    return buf;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/pmubench-msr-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(dev0, sizeof dev0, "%s/cpu0.msr", dir);
    snprintf(dev1, sizeof dev1, "%s/cpu1.msr", dir);
    snprintf(pattern, sizeof pattern, "%s/cpu%%d.msr", dir);
    snprintf(missing, sizeof missing, "%s/nothing/%%d/msr", dir);
    make_file(dev0, FILE_SIZE, 0);
    make_file(dev1, FILE_SIZE, 0);
    identify_calls = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char path[160];
    static const char *const files[] = {"cpu0.msr", "cpu1.msr", "cpu2.msr", "short.msr",
                                        "partial.msr", "plain.msr"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/adir", dir);
    rmdir(path);
    rmdir(dir);
    return 0;
}

/* ---- the allowlist */

static void test_allowlist_netburst(void **state)
{
    (void)state;
    const enum msr_target t = MSR_TARGET_NETBURST;
    for (uint32_t m = 0x300; m <= 0x311; m++) {
        assert_true(msr_linux_allows_read(t, m));
        assert_true(msr_linux_allows_write(t, m));
    }
    for (uint32_t m = 0x360; m <= 0x371; m++) {
        assert_true(msr_linux_allows_read(t, m));
        assert_true(msr_linux_allows_write(t, m));
    }
    int escrs = 0;
    for (uint32_t m = 0x3a0; m <= 0x3e1; m++) {
        bool gap = m == 0x3bf || m == 0x3c6 || m == 0x3c7 || (m >= 0x3ce && m <= 0x3df);
        assert_int_equal(msr_linux_allows_read(t, m), !gap);
        assert_int_equal(msr_linux_allows_write(t, m), !gap);
        escrs += !gap;
    }
    assert_int_equal(escrs, 45);
    for (uint32_t m = 0x3f0; m <= 0x3f2; m++) {
        assert_true(msr_linux_allows_read(t, m));
        assert_true(msr_linux_allows_write(t, m));
    }
    /* read only */
    assert_true(msr_linux_allows_read(t, 0x1a0));
    assert_false(msr_linux_allows_write(t, 0x1a0));
    assert_true(msr_linux_allows_read(t, 0x600));
    assert_false(msr_linux_allows_write(t, 0x600));
    /* everything else */
    static const uint32_t no[] = {0x0, 0x10, 0x11, 0x12, 0x13, 0x1a1, 0x2ff, 0x312, 0x35f,
                                  0x372, 0x39f, 0x3e2, 0x3ef, 0x3f3, 0x5ff, 0x601, 0xc0000080,
                                  0x1b, 0x8b};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        assert_false(msr_linux_allows_read(t, no[i]));
        assert_false(msr_linux_allows_write(t, no[i]));
    }
}

static void test_allowlist_p5(void **state)
{
    (void)state;
    const enum msr_target t = MSR_TARGET_P5;
    assert_true(msr_linux_allows_read(t, 0x10));
    assert_false(msr_linux_allows_write(t, 0x10)); /* the TSC: read only */
    for (uint32_t m = 0x11; m <= 0x13; m++) {
        assert_true(msr_linux_allows_read(t, m));
        assert_true(msr_linux_allows_write(t, m));
    }
    static const uint32_t no[] = {0x0, 0xf, 0x14, 0x1a0, 0x300, 0x360, 0x3a0, 0x3cc, 0x3f1,
                                  0x600};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        assert_false(msr_linux_allows_read(t, no[i]));
        assert_false(msr_linux_allows_write(t, no[i]));
    }
}

/* ---- reads and writes */

static void test_read_write_netburst(void **state)
{
    (void)state;
    struct msr_backend *b = msr_linux_create(pattern, MSR_TARGET_NETBURST, intel_p4);
    assert_non_null(b);
    assert_string_equal(b->kind, "linux-msr");
    file_put(dev0, 0x36c, 0x1122334455667788ull);
    uint64_t v = 0;
    assert_int_equal(msr_read(b, 0, 0x36c, &v), MSR_OK);
    assert_int_equal(v, 0x1122334455667788ull);
    assert_int_equal(identify_calls, 0); /* reads need no CPUID */

    assert_int_equal(msr_write(b, 0, 0x3cc, 0x0c000804), MSR_OK);
    assert_true(identify_calls >= 1);
    assert_int_equal(file_u64(dev0, 0x3cc), 0x0c000804);
    assert_int_equal(file_u64(dev1, 0x3cc), 0); /* %d picked cpu0.msr */
    assert_int_equal(msr_write(b, 1, 0x3cc, 0xabcdef), MSR_OK);
    assert_int_equal(file_u64(dev1, 0x3cc), 0xabcdef);
    assert_int_equal(file_u64(dev0, 0x3cc), 0x0c000804);
    assert_int_equal(msr_read(b, 1, 0x3cc, &v), MSR_OK);
    assert_int_equal(v, 0xabcdef);
    /* the last MSRs of the allowlist, DS_AREA at 0x600 (read only) */
    file_put(dev0, 0x600, 0xfeedfacecafebeefull);
    assert_int_equal(msr_read(b, 0, 0x600, &v), MSR_OK);
    assert_int_equal(v, 0xfeedfacecafebeefull);
    assert_int_equal(msr_write(b, 0, 0x3f2, 0x13), MSR_OK);
    assert_int_equal(file_u64(dev0, 0x3f2), 0x13);
    assert_int_equal(file_size(dev0), FILE_SIZE);
    msr_backend_destroy(b);
}

static void test_path_without_placeholder(void **state)
{
    (void)state;
    struct msr_backend *b = msr_linux_create(dev1, MSR_TARGET_NETBURST, intel_p4);
    assert_int_equal(msr_write(b, 5, 0x300, 77), MSR_OK); /* any CPU: the one file */
    assert_int_equal(file_u64(dev1, 0x300), 77);
    assert_int_equal(file_u64(dev0, 0x300), 0);
    msr_backend_destroy(b);
}

static void test_missing_device(void **state)
{
    (void)state;
    struct msr_backend *b = msr_linux_create(missing, MSR_TARGET_NETBURST, intel_p4);
    uint64_t v = 3;
    assert_int_equal(msr_read(b, 3, 0x300, &v), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), ENOENT);
    char want[300];
    snprintf(want, sizeof want,
             "cannot open %s/nothing/3/msr: No such file or directory (load the msr driver: "
             "modprobe msr)",
             dir);
    assert_string_equal(msr_error_message(b), want);
    assert_int_equal(msr_write(b, 0, 0x300, 1), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), ENOENT);
    assert_non_null(strstr(msr_error_message(b), "modprobe msr"));
    assert_non_null(strstr(msr_error_message(b), "/nothing/0/msr"));
    msr_backend_destroy(b);
}

/* Past the end of the stand-in file there is no such MSR: #GP. */
static void test_short_file(void **state)
{
    (void)state;
    char path[160];
    snprintf(path, sizeof path, "%s/short.msr", dir);
    make_file(path, 0x100, 0);
    struct msr_backend *b = msr_linux_create(path, MSR_TARGET_NETBURST, intel_p4);
    uint64_t v = 9;
    assert_int_equal(msr_read(b, 0, 0x300, &v), MSR_GP);
    assert_int_equal(msr_read(b, 0, 0x600, &v), MSR_GP);
    msr_backend_destroy(b);

    /* a partial transfer: 4 bytes left at 0x3a0 */
    snprintf(path, sizeof path, "%s/partial.msr", dir);
    make_file(path, 0x3a4, 0xab);
    b = msr_linux_create(path, MSR_TARGET_NETBURST, intel_p4);
    assert_int_equal(msr_read(b, 0, 0x3a0, &v), MSR_GP);
    /* exactly at the end of the file: nothing transferred */
    assert_int_equal(msr_read(b, 0, 0x3a4, &v), MSR_GP);
    msr_backend_destroy(b);
}

/* The recording log shows 0 for a read that faulted (docs: "for a read,
 * what was read; 0 on a fault"), also for a partial transfer. */
static void test_record_short_read_logs_zero(void **state)
{
    (void)state;
    char path[160];
    snprintf(path, sizeof path, "%s/partial.msr", dir);
    make_file(path, 0x3a4, 0xab);
    struct msr_backend *b = msr_linux_create(path, MSR_TARGET_NETBURST, intel_p4);
    char *buf = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&buf, &len);
    struct msr_backend *rec = msr_record_create(b, log);
    uint64_t v;
    assert_int_equal(msr_read(rec, 0, 0x3a0, &v), MSR_GP);
    fclose(log);
    assert_string_equal(buf, "rdmsr cpu=0 0x3a0 0x0000000000000000 #GP\n");
    free(buf);
    msr_backend_destroy(rec);
    msr_backend_destroy(b);
}

static void test_refused_msrs(void **state)
{
    (void)state;
    size_t n0, n1;
    unsigned char *before = slurp(dev0, &n0);

    /* P5 target: the TSC is read only */
    struct msr_backend *b = msr_linux_create(pattern, MSR_TARGET_P5, intel_p5);
    assert_int_equal(msr_write(b, 0, 0x10, 1), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), EPERM);
    assert_string_equal(msr_error_message(b),
                        "refusing to write MSR 0x10: not on the family 5 (P5 Pentium) allowlist");
    uint64_t v = 1;
    file_put(dev0, 0x10, 0x4242);
    assert_int_equal(msr_read(b, 0, 0x10, &v), MSR_OK);
    assert_int_equal(v, 0x4242);
    assert_int_equal(msr_read(b, 0, 0x300, &v), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), EPERM);
    assert_string_equal(msr_error_message(b),
                        "refusing to read MSR 0x300: not a family 5 (P5 Pentium) PMU MSR");
    msr_backend_destroy(b);
    file_put(dev0, 0x10, 0);

    /* NetBurst target: the TSC and unrelated MSRs */
    b = msr_linux_create(pattern, MSR_TARGET_NETBURST, intel_p4);
    assert_int_equal(msr_write(b, 0, 0x10, 1), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), EPERM);
    assert_string_equal(
        msr_error_message(b),
        "refusing to write MSR 0x10: not on the family 15 (NetBurst) allowlist");
    assert_int_equal(msr_write(b, 0, 0x1a0, 0x80), MSR_OS_ERROR); /* MISC_ENABLE: read only */
    assert_int_equal(msr_errno(b), EPERM);
    assert_int_equal(msr_write(b, 0, 0x600, 0x1000), MSR_OS_ERROR); /* DS_AREA: read only */
    assert_int_equal(msr_errno(b), EPERM);
    assert_int_equal(msr_write(b, 0, 0x3bf, 1), MSR_OS_ERROR); /* no SSU_ESCR1 */
    assert_int_equal(msr_errno(b), EPERM);
    assert_int_equal(msr_write(b, 0, 0x3d0, 1), MSR_OS_ERROR);
    assert_int_equal(msr_read(b, 0, 0x3d0, &v), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), EPERM);
    assert_int_equal(msr_read(b, 0, 0x10, &v), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), EPERM);
    assert_int_equal(identify_calls, 0); /* refused before CPUID and the device */
    msr_backend_destroy(b);

    unsigned char *after = slurp(dev0, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);

    /* refused before the device is touched: EPERM, not ENOENT */
    b = msr_linux_create(missing, MSR_TARGET_NETBURST, intel_p4);
    assert_int_equal(msr_write(b, 0, 0x10, 1), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), EPERM);
    assert_int_equal(msr_read(b, 0, 0x1, &v), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), EPERM);
    msr_backend_destroy(b);
}

static void check_cpuid_refusal(enum msr_target target, cpu_identity_fn fn, uint32_t msr,
                                const char *want_message)
{
    size_t n0, n1;
    unsigned char *before = slurp(dev0, &n0);
    struct msr_backend *b = msr_linux_create(pattern, target, fn);
    assert_int_equal(msr_write(b, 0, msr, 0x1234), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), EPERM);
    assert_string_equal(msr_error_message(b), want_message);
    /* still refused the second time */
    assert_int_equal(msr_write(b, 0, msr, 0x1234), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), EPERM);
    /* reads need no CPUID check */
    uint64_t v = 5;
    assert_int_equal(msr_read(b, 0, msr, &v), MSR_OK);
    assert_int_equal(v, 0);
    msr_backend_destroy(b);
    unsigned char *after = slurp(dev0, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);
}

static void test_cpuid_refusals(void **state)
{
    (void)state;
    check_cpuid_refusal(MSR_TARGET_NETBURST, amd_k8, 0x3cc,
                        "refusing to write MSRs: CPUID reports AuthenticAMD family 15 model 4, "
                        "not a GenuineIntel family 15 (NetBurst) processor");
    check_cpuid_refusal(MSR_TARGET_NETBURST, intel_core, 0x360,
                        "refusing to write MSRs: CPUID reports GenuineIntel family 6 model 15, "
                        "not a GenuineIntel family 15 (NetBurst) processor");
    check_cpuid_refusal(MSR_TARGET_NETBURST, intel_p5, 0x300,
                        "refusing to write MSRs: CPUID reports GenuineIntel family 5 model 2, "
                        "not a GenuineIntel family 15 (NetBurst) processor");
    check_cpuid_refusal(MSR_TARGET_P5, intel_p4, 0x11,
                        "refusing to write MSRs: CPUID reports GenuineIntel family 15 model 2, "
                        "not a GenuineIntel family 5 (P5 Pentium) processor");
    check_cpuid_refusal(MSR_TARGET_P5, intel_core, 0x12,
                        "refusing to write MSRs: CPUID reports GenuineIntel family 6 model 15, "
                        "not a GenuineIntel family 5 (P5 Pentium) processor");
    check_cpuid_refusal(MSR_TARGET_NETBURST, no_cpuid, 0x3cc,
                        "refusing to write MSRs: CPUID is not available");
}

static void test_cpuid_acceptance(void **state)
{
    (void)state;
    struct msr_backend *b = msr_linux_create(pattern, MSR_TARGET_NETBURST, intel_p4);
    assert_int_equal(msr_write(b, 0, 0x3b8, 0x4000204), MSR_OK);
    assert_int_equal(file_u64(dev0, 0x3b8), 0x4000204);
    assert_int_equal(msr_write(b, 0, 0x36c, 0x3b000), MSR_OK);
    assert_int_equal(file_u64(dev0, 0x36c), 0x3b000);
    msr_backend_destroy(b);

    b = msr_linux_create(pattern, MSR_TARGET_P5, intel_p5);
    assert_int_equal(msr_write(b, 1, 0x11, 0x00800083), MSR_OK);
    assert_int_equal(file_u64(dev1, 0x11), 0x00800083);
    uint64_t v;
    assert_int_equal(msr_read(b, 1, 0x11, &v), MSR_OK);
    assert_int_equal(v, 0x00800083);
    /* (the stand-in's 8-byte slots at consecutive offsets overlap) */
    assert_int_equal(msr_write(b, 1, 0x12, 0xffffffffffffffffull), MSR_OK);
    assert_int_equal(file_u64(dev1, 0x12), 0xffffffffffffffffull); /* no masking: the device */
    assert_int_equal(msr_read(b, 1, 0x12, &v), MSR_OK);
    assert_int_equal(v, 0xffffffffffffffffull);
    msr_backend_destroy(b);
}

/* Other failures are MSR_OS_ERROR with errno. */
static void test_other_os_errors(void **state)
{
    (void)state;
    char path[160];
    snprintf(path, sizeof path, "%s/adir", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    struct msr_backend *b = msr_linux_create(path, MSR_TARGET_NETBURST, intel_p4);
    uint64_t v;
    assert_int_equal(msr_read(b, 0, 0x300, &v), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), EISDIR);
    assert_string_equal(msr_error_message(b), "rdmsr 0x300: Is a directory");
    assert_int_equal(msr_write(b, 0, 0x300, 1), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), EISDIR);
    char want[300];
    snprintf(want, sizeof want, "cannot open %s: Is a directory", path);
    assert_string_equal(msr_error_message(b), want);
    msr_backend_destroy(b);

    if (geteuid() != 0) {
        snprintf(path, sizeof path, "%s/plain.msr", dir);
        make_file(path, FILE_SIZE, 0);
        assert_int_equal(chmod(path, 0), 0);
        b = msr_linux_create(path, MSR_TARGET_NETBURST, intel_p4);
        assert_int_equal(msr_read(b, 0, 0x300, &v), MSR_OS_ERROR);
        assert_int_equal(msr_errno(b), EACCES);
        assert_non_null(strstr(msr_error_message(b), "CAP_SYS_RAWIO"));
        msr_backend_destroy(b);
    }
}

static void test_cpu_identity_read(void **state)
{
    (void)state;
    struct cpu_identity id;
    memset(&id, 0x7f, sizeof id);
    assert_true(cpu_identity_read(&id));
    assert_int_equal(strlen(id.vendor), 12);
    assert_true(id.family <= 15 + 255);
    assert_true(id.model <= 255);
}

/* The displayed family and model (SDM, CPUID): the extended family only on
 * top of family 15, the extended model only for families 6 and 15. */
static void test_cpu_identity_signature(void **state)
{
    (void)state;
    static const struct {
        uint32_t eax;
        unsigned family, model;
    } cases[] = {
        {0x00000f29, 15, 2},   /* Pentium 4 Northwood */
        {0x00000f41, 15, 4},   /* Pentium 4 Prescott */
        {0x00000543, 5, 4},    /* Pentium MMX */
        {0x000806f8, 6, 143},  /* Sapphire Rapids: extended model 8 */
        {0x000c06f1, 6, 207},  /* extended model 12 */
        {0x00b40f40, 26, 68},  /* AMD family 1Ah (Zen 5): extended family 11 */
        {0x00a20f12, 25, 33},  /* AMD family 19h (Zen 3) */
        {0x00020f12, 15, 33},  /* AMD K8: extended model 2 */
        {0x000f0543, 5, 4},    /* extended fields ignored below family 6 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct cpu_identity id = {"", 0, 0};
        cpu_identity_signature(cases[i].eax, &id);
        assert_int_equal(id.family, cases[i].family);
        assert_int_equal(id.model, cases[i].model);
    }
}

/* msr_linux_open of `pmu` writing `msr` (one the target allows): the
 * refusal names the target's family, unless this is such a processor. */
static void check_target(enum pmu_kind pmu, enum msr_target target, uint32_t msr,
                         const char *family)
{
    assert_true(msr_linux_allows_write(target, msr));
    struct msr_backend *backend = msr_linux_open("/nonexistent/cpu/%d/msr", pmu);
    assert_non_null(backend);
    struct cpu_identity id = {{0}, 0, 0};
    bool identified = cpu_identity_read(&id);
    assert_int_not_equal(msr_write(backend, 0, msr, 0), MSR_OK);
    char want[256];
    if (!identified)
        snprintf(want, sizeof want, "refusing to write MSRs: CPUID is not available");
    else if (strcmp(id.vendor, "GenuineIntel") != 0 ||
             id.family != (target == MSR_TARGET_P5 ? 5u : 15u))
        snprintf(want, sizeof want,
                 "refusing to write MSRs: CPUID reports %s family %u model %u, not a "
                 "GenuineIntel %s processor",
                 id.vendor, id.family, id.model, family);
    else
        snprintf(want, sizeof want, "cannot open /nonexistent/cpu/0/msr: No such file or "
                                    "directory (load the msr driver: modprobe msr)");
    assert_string_equal(msr_error_message(backend), want);
    msr_backend_destroy(backend);
}

static void test_open_target(void **state)
{
    (void)state;
    check_target(PMU_P5, MSR_TARGET_P5, 0x11, "family 5 (P5 Pentium)");
    check_target(PMU_NETBURST, MSR_TARGET_NETBURST, 0x360, "family 15 (NetBurst)");
}

static void test_open_long_path(void **state)
{
    (void)state;
    static char device[PATH_MAX + 1];
    memset(device, 'a', PATH_MAX);
    errno = 0;
    assert_null(msr_linux_open(device, PMU_P5));
    assert_int_equal(errno, ENAMETOOLONG);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_allowlist_netburst),
        T(test_allowlist_p5),
        T(test_read_write_netburst),
        T(test_path_without_placeholder),
        T(test_missing_device),
        T(test_short_file),
        T(test_record_short_read_logs_zero),
        T(test_refused_msrs),
        T(test_cpuid_refusals),
        T(test_cpuid_acceptance),
        T(test_other_os_errors),
        T(test_cpu_identity_read),
        T(test_cpu_identity_signature),
        cmocka_unit_test(test_open_target),
        cmocka_unit_test(test_open_long_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
