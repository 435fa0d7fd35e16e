/* The simulated backends behind msr_read/msr_write and the recording
 * backend: docs/semantics.md, "MSR backends", "Recording backend". */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/programming/msr.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/emulated/p5_pmu.h"

static void test_status_names(void **state)
{
    (void)state;
    assert_string_equal(msr_status_name(MSR_OK), "ok");
    assert_string_equal(msr_status_name(MSR_GP), "#GP");
    assert_string_equal(msr_status_name(MSR_OS_ERROR), "error");
    assert_string_equal(msr_status_name((msr_status)42), "?");
}

static void test_netburst_backend_ht(void **state)
{
    (void)state;
    struct msr_backend *b = nb_backend_create((struct nb_pmu_config){.model = 2, .ht = true});
    assert_non_null(b);
    assert_string_equal(b->kind, "netburst");
    struct nb_pmu *pmu = nb_backend_pmu(b);
    assert_non_null(pmu);
    assert_int_equal(nb_pmu_config_of(pmu)->model, 2);
    assert_true(nb_pmu_config_of(pmu)->ht);

    /* logical CPUs 0 and 1 share the package's PMU */
    assert_int_equal(msr_write(b, 0, 0x3cc, 0x0c000804), MSR_OK);
    uint64_t v = 0;
    assert_int_equal(msr_read(b, 1, 0x3cc, &v), MSR_OK);
    assert_int_equal(v, 0x0c000804);
    assert_int_equal(msr_write(b, 1, 0x36c, 0x3b000), MSR_OK);
    assert_int_equal(msr_read(b, 0, 0x36c, &v), MSR_OK);
    assert_int_equal(v, 0x3b000);
    uint64_t value = 0;
    assert_int_equal(nb_pmu_rdmsr(pmu, NB_CCCR_BASE + 12, &value), MSR_OK);
    assert_int_equal(value, 0x3b000);
    assert_int_equal(msr_read(b, 0, 0x1a0, &v), MSR_OK);
    assert_int_equal(v, 0x80);

    /* #GP: a read leaves 0 */
    v = 0x1234;
    assert_int_equal(msr_read(b, 0, 0x3bf, &v), MSR_GP);
    assert_int_equal(v, 0);
    assert_int_equal(msr_write(b, 1, 0x3cc, 1ull << 31), MSR_GP);
    assert_int_equal(msr_read(b, 0, 0x3cc, &v), MSR_OK);
    assert_int_equal(v, 0x0c000804);

    /* no logical CPU 2 */
    assert_int_equal(msr_read(b, 2, 0x3cc, &v), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), ENXIO);
    assert_string_equal(msr_error_message(b), "simulated NetBurst has no logical CPU 2 (it has 2)");
    assert_int_equal(msr_write(b, -1, 0x3cc, 0), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), ENXIO);
    assert_string_equal(msr_error_message(b),
                        "simulated NetBurst has no logical CPU -1 (it has 2)");
    assert_int_equal(nb_pmu_rdmsr(pmu, nb_escrs[NB_ESCR_CRU2].msr, &value), MSR_OK);
    assert_int_equal(value, 0x0c000804); /* unchanged */
    msr_backend_destroy(b);
}

static void test_netburst_backend_no_ht(void **state)
{
    (void)state;
    struct msr_backend *b = nb_backend_create((struct nb_pmu_config){.model = 3, .ht = false});
    assert_non_null(b);
    uint64_t v = 5;
    assert_int_equal(msr_read(b, 0, 0x360, &v), MSR_OK);
    assert_int_equal(v, 0);
    assert_int_equal(msr_read(b, 1, 0x360, &v), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), ENXIO);
    assert_string_equal(msr_error_message(b), "simulated NetBurst has no logical CPU 1 (it has 1)");
    assert_int_equal(msr_write(b, 1, 0x360, 0x30000), MSR_OS_ERROR);
    assert_int_equal(nb_pmu_rdmsr(nb_backend_pmu(b), NB_CCCR_BASE, &v), MSR_OK);
    assert_int_equal(v, 0);
    /* model 3: IQ_ESCR0 is #GP; HT off: ESCR T1 bits reserved */
    assert_int_equal(msr_read(b, 0, 0x3ba, &v), MSR_GP);
    assert_int_equal(msr_write(b, 0, 0x3cc, 0x1), MSR_GP);
    assert_int_equal(msr_write(b, 0, 0x3cc, 0x4), MSR_OK);
    msr_backend_destroy(b);

    assert_null(nb_backend_create((struct nb_pmu_config){.model = 5, .ht = true}));
    msr_backend_destroy(NULL); /* harmless */
}

static void test_backend_kinds(void **state)
{
    (void)state;
    struct msr_backend *nb = nb_backend_create((struct nb_pmu_config){.model = 0, .ht = true});
    struct msr_backend *p5 = p5_backend_create();
    assert_non_null(nb);
    assert_non_null(p5);
    assert_null(nb_backend_pmu(p5));
    assert_null(p5_backend_pmu(nb));
    assert_non_null(p5_backend_pmu(p5));
    uint64_t v;
    assert_int_equal(msr_read(p5, 0, P5_MSR_TSC, &v), MSR_OK);
    assert_int_equal(msr_read(p5, 0, 0x300, &v), MSR_GP);   /* no NetBurst MSRs */
    assert_int_equal(msr_read(nb, 0, P5_MSR_CESR, &v), MSR_GP); /* and vice versa */
    assert_int_equal(msr_read(p5, 1, P5_MSR_TSC, &v), MSR_OS_ERROR);
    assert_int_equal(msr_errno(p5), ENXIO);
    assert_string_equal(msr_error_message(p5), "simulated P5 has no CPU 1 (it has one)");
    msr_backend_destroy(nb);
    msr_backend_destroy(p5);
}

static void test_msr_fail(void **state)
{
    (void)state;
    struct msr_backend *b = p5_backend_create();
    assert_int_equal(msr_fail(b, EIO, "x %d y %s", 3, "z"), MSR_OS_ERROR);
    assert_int_equal(msr_errno(b), EIO);
    assert_string_equal(msr_error_message(b), "x 3 y z");
    msr_backend_destroy(b);
}

/* ---- the recording backend */

static void test_record_lines(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&buf, &len);
    assert_non_null(log);
    struct msr_backend *nb = nb_backend_create((struct nb_pmu_config){.model = 2, .ht = true});
    struct msr_backend *rec = msr_record_create(nb, log);
    assert_non_null(rec);
    assert_string_equal(rec->kind, "record");

    uint64_t v = 0;
    assert_int_equal(msr_write(rec, 0, 0x3b8, 0x4000204), MSR_OK);
    assert_int_equal(msr_write(rec, 0, 0x360, 0x39000), MSR_OK);
    assert_int_equal(msr_read(rec, 1, 0x360, &v), MSR_OK);
    assert_int_equal(v, 0x39000);
    assert_int_equal(msr_write(rec, 0, 0x3bf, 1), MSR_GP);
    assert_int_equal(msr_read(rec, 0, 0x3bf, &v), MSR_GP);
    assert_int_equal(msr_read(rec, 0, 0x1a0, &v), MSR_OK);
    assert_int_equal(msr_write(rec, 0, 0x300, 0xffffffffffffffffull), MSR_OK);
    assert_int_equal(msr_read(rec, 0, 0x300, &v), MSR_OK);
    assert_int_equal(v, 0xffffffffffull);
    assert_int_equal(msr_write(rec, 2, 0x3a0, 0), MSR_OS_ERROR);
    /* the error passes through with its errno and message */
    assert_int_equal(msr_errno(rec), ENXIO);
    assert_string_equal(msr_error_message(rec),
                        "simulated NetBurst has no logical CPU 2 (it has 2)");
    assert_int_equal(msr_read(rec, 7, 0x3a0, &v), MSR_OS_ERROR);
    assert_int_equal(v, 0);
    assert_int_equal(fclose(log), 0);
    assert_string_equal(buf,
                        "wrmsr cpu=0 0x3b8 0x0000000004000204 ok\n"
                        "wrmsr cpu=0 0x360 0x0000000000039000 ok\n"
                        "rdmsr cpu=1 0x360 0x0000000000039000 ok\n"
                        "wrmsr cpu=0 0x3bf 0x0000000000000001 #GP\n"
                        "rdmsr cpu=0 0x3bf 0x0000000000000000 #GP\n"
                        "rdmsr cpu=0 0x1a0 0x0000000000000080 ok\n"
                        "wrmsr cpu=0 0x300 0xffffffffffffffff ok\n"
                        "rdmsr cpu=0 0x300 0x000000ffffffffff ok\n"
                        "wrmsr cpu=2 0x3a0 0x0000000000000000 error: simulated NetBurst has no "
                        "logical CPU 2 (it has 2)\n"
                        "rdmsr cpu=7 0x3a0 0x0000000000000000 error: simulated NetBurst has no "
                        "logical CPU 7 (it has 2)\n");
    free(buf);
    msr_backend_destroy(rec);
    /* the recorder does not own the inner backend */
    assert_int_equal(msr_read(nb, 0, 0x360, &v), MSR_OK);
    assert_int_equal(v, 0x39000);
    msr_backend_destroy(nb);
}

static void test_record_p5_with_fmemopen(void **state)
{
    (void)state;
    char buf[512];
    memset(buf, 0, sizeof buf);
    FILE *log = fmemopen(buf, sizeof buf, "w");
    assert_non_null(log);
    struct msr_backend *p5 = p5_backend_create();
    struct msr_backend *rec = msr_record_create(p5, log);
    uint64_t v;
    assert_int_equal(msr_write(rec, 0, 0x11, 0x00800083), MSR_OK);
    assert_int_equal(msr_write(rec, 0, 0x11, 0x400), MSR_GP);
    assert_int_equal(msr_read(rec, 0, 0x11, &v), MSR_OK);
    assert_int_equal(msr_read(rec, 1, 0x12, &v), MSR_OS_ERROR);
    assert_int_equal(fclose(log), 0);
    assert_string_equal(buf,
                        "wrmsr cpu=0 0x11 0x0000000000800083 ok\n"
                        "wrmsr cpu=0 0x11 0x0000000000000400 #GP\n"
                        "rdmsr cpu=0 0x11 0x0000000000800083 ok\n"
                        "rdmsr cpu=1 0x12 0x0000000000000000 error: simulated P5 has no CPU 1 "
                        "(it has one)\n");
    msr_backend_destroy(rec);
    msr_backend_destroy(p5);
}

/* Recording a recorder: both log the same line. */
static void test_record_nested(void **state)
{
    (void)state;
    char *b1 = NULL, *b2 = NULL;
    size_t l1 = 0, l2 = 0;
    FILE *f1 = open_memstream(&b1, &l1), *f2 = open_memstream(&b2, &l2);
    struct msr_backend *nb = nb_backend_create((struct nb_pmu_config){.model = 2, .ht = false});
    struct msr_backend *r1 = msr_record_create(nb, f1);
    struct msr_backend *r2 = msr_record_create(r1, f2);
    uint64_t v;
    assert_int_equal(msr_read(r2, 1, 0x300, &v), MSR_OS_ERROR);
    assert_int_equal(msr_errno(r2), ENXIO);
    assert_int_equal(msr_write(r2, 0, 0x371, 0x30000), MSR_OK);
    fclose(f1);
    fclose(f2);
    const char *want = "rdmsr cpu=1 0x300 0x0000000000000000 error: simulated NetBurst has no "
                       "logical CPU 1 (it has 1)\n"
                       "wrmsr cpu=0 0x371 0x0000000000030000 ok\n";
    assert_string_equal(b1, want);
    assert_string_equal(b2, want);
    free(b1);
    free(b2);
    msr_backend_destroy(r2);
    msr_backend_destroy(r1);
    msr_backend_destroy(nb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_netburst_backend_ht),
        cmocka_unit_test(test_netburst_backend_no_ht),
        cmocka_unit_test(test_backend_kinds),
        cmocka_unit_test(test_msr_fail),
        cmocka_unit_test(test_record_lines),
        cmocka_unit_test(test_record_p5_with_fmemopen),
        cmocka_unit_test(test_record_nested),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
