/* bench_run_whole (bench/bench.h): the statement output reaches the
 * caller's stream whole after a successful run and not at all after a
 * failure, here a hardware backend whose second read fails. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"


/* A P5 standing in for the msr device: each read gives 0x2a, until the
 * read numbered `fail_at` (from 1), which fails as an OS error. */
struct stand_in {
    struct msr_backend base;
    int reads, fail_at;
};

static msr_status stand_in_read(struct msr_backend *backend, int cpu, uint32_t msr,
                                uint64_t *value)
{
    (void)cpu;
    (void)msr;
    struct stand_in *s = (struct stand_in *)backend;
    if (++s->reads == s->fail_at) {
        backend->last_errno = EIO;
        snprintf(backend->message, sizeof backend->message, "stand-in read failed");
        return MSR_OS_ERROR;
    }
    *value = 0x2a;
    return MSR_OK;
}

static msr_status stand_in_write(struct msr_backend *backend, int cpu, uint32_t msr,
                                 uint64_t value)
{
    (void)backend;
    (void)cpu;
    (void)msr;
    (void)value;
    return MSR_OK;
}

static void stand_in_destroy(struct msr_backend *backend)
{
    (void)backend;
}

static const struct msr_backend_ops stand_in_ops = {stand_in_read, stand_in_write,
                                                    stand_in_destroy};

/* Runs `text` on a stand-in failing at read `fail_at` (0: never); the
 * output written to the stream, the status and the message. */
static int run(const char *text, int fail_at, char **out, char *error, size_t size)
{
    struct bench_script script;
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(in);
    assert_int_equal(bench_parse(in, "t.pmu", &script, error, size), BENCH_OK);
    fclose(in);
    struct stand_in device = {.base = {.ops = &stand_in_ops, .kind = "stand-in"},
                              .fail_at = fail_at};
    size_t length;
    struct bench_options options = {.out = open_memstream(out, &length),
                                    .hardware = &device.base};
    assert_non_null(options.out);
    int rc = bench_run_whole(&script, &options, error, size);
    fclose(options.out);
    bench_script_free(&script);
    return rc;
}

static const char script[] = "cpu p5\nrdmsr 0x11\nrdmsr 0x12\n";

static void test_output_after_success(void **state)
{
    (void)state;
    char *out = NULL, error[256] = "";
    assert_int_equal(run(script, 0, &out, error, sizeof error), BENCH_OK);
    assert_string_equal(out, "@0 rdmsr 0x11 = 0x000000000000002a\n"
                             "@0 rdmsr 0x12 = 0x000000000000002a\n");
    assert_string_equal(error, "");
    free(out);
}

static void test_nothing_after_failure(void **state)
{
    (void)state;
    char *out = NULL, error[256] = "";
    assert_int_equal(run(script, 2, &out, error, sizeof error), BENCH_RUNTIME_ERROR);
    assert_string_equal(out, ""); /* the first rdmsr's line held back */
    assert_string_equal(error, "t.pmu:3: rdmsr 0x12: stand-in read failed");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_output_after_success),
        cmocka_unit_test(test_nothing_after_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
