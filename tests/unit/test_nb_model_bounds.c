/* The NetBurst model's memory is bounded by its structures, not by a
 * latency (docs/netburst-model.md, "Memory use"), and running out of
 * memory fails the run instead of losing occurrences.  Each run goes in a
 * child process whose address space is limited (RLIMIT_AS) to what it had
 * plus a margin; under AddressSanitizer or valgrind, which need address
 * space of their own, the limit is left out and only the counts are
 * checked. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <valgrind/valgrind.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/emulated/netburst_pmu.h"
#include "sim/netburst/nbm_model.h"
#include "tests/unit/model_trace.h"
#include "traces/trace.h"

#if defined(__SANITIZE_ADDRESS__)
#define ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ADDRESS_SANITIZER 1
#endif
#endif
#ifndef ADDRESS_SANITIZER
#define ADDRESS_SANITIZER 0
#endif

#define LOAD "\x8b\x06", 2 /* mov eax, [rsi] */

enum { MB = 1 << 20 };

/* What a child's run gave. */
struct outcome {
    bool ok;
    int error_number;
    uint64_t retired, l2_misses, cycles;
    char error[256];
};

/* A load of `size` bytes from memory (memory_latency 100,000 cycles, one
 * L1 miss at a time): its lines' misses one after another, the last data
 * far beyond any ring of cycles. */
static void write_far_load(struct tb *t, uint32_t size)
{
    tb_open(t);
    tb_access(t, 0x1000, LOAD, TRACE_LOAD, 0x100000, size);
    tb_close(t);
}

/* Programs `event`'s first ESCR and one of its counters, counting at
 * every CPL on both threads; returns the counter. */
static int program_event(struct nb_pmu *pmu, const char *name, const char *subevent, int x)
{
    const struct nb_event_info *event = &nb_event_table[nb_event_find(name)];
    int c = __builtin_ctz(nb_escrs[x].counters);
    uint64_t escr = (uint64_t)event->select << 25 |
                    (uint64_t)(1u << nb_subevent_find(event, subevent)->bit) << 9 | 0xc;
    uint64_t cccr = 1u << 12 | (uint64_t)nb_escrs[x].select << 13 | 3u << 16;
    nb_pmu_wrmsr(pmu, nb_escrs[x].msr, escr);
    nb_pmu_wrmsr(pmu, NB_CCCR_BASE + (uint32_t)c, cccr);
    return c;
}

static int escr_named(const char *name)
{
    for (int x = 0; x < NB_NUM_ESCRS; x++)
        if (strcmp(nb_escrs[x].name, name) == 0)
            return x;
    return -1;
}

/* Simulates the trace, counting retired instructions and L2 misses. */
static struct outcome simulate(const char *path)
{
    struct outcome o = {0};
    struct nbm_config config;
    nbm_config_preset("northwood", &config, o.error, sizeof o.error);
    nbm_config_set(&config, "memory_latency", "100000", o.error, sizeof o.error);
    nbm_config_set(&config, "l1d_load_misses", "1", o.error, sizeof o.error);
    struct msr_backend *backend = nb_backend_create((struct nb_pmu_config){config.model, false});
    if (!backend)
        return o;
    struct nb_pmu *pmu = nb_backend_pmu(backend);
    int retired = program_event(pmu, "instr_retired", "NBOGUSNTAG", escr_named("MSR_CRU_ESCR0"));
    int misses = program_event(pmu, "BSQ_cache_reference", "RD_2ndL_MISS",
                               escr_named("MSR_BSU_ESCR0"));
    struct nbm_result result;
    const char *traces[] = {path};
    errno = 0;
    o.ok = nbm_simulate(traces, 1, &config, backend, NULL, &result, o.error, sizeof o.error);
    o.error_number = errno;
    o.retired = nb_pmu_counter(pmu, retired);
    o.l2_misses = nb_pmu_counter(pmu, misses);
    o.cycles = result.cycles;
    msr_backend_destroy(backend);
    return o;
}

/* The address space in use (/proc/self/statm, in pages). */
static size_t address_space(void)
{
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* Whether this process may limit its address space: not under ASan or
 * valgrind. */
static bool can_limit(void)
{
    return !ADDRESS_SANITIZER && !RUNNING_ON_VALGRIND;
}

/* simulate() in a child whose address space may grow by `margin` bytes
 * only. */
static struct outcome simulate_limited(const char *path, size_t margin)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        struct rlimit limit = {address_space() + margin, RLIM_INFINITY};
        limit.rlim_max = limit.rlim_cur;
        struct outcome o = setrlimit(RLIMIT_AS, &limit) == 0 ? simulate(path)
                                                             : (struct outcome){0};
        _exit(write(fds[1], &o, sizeof o) == (ssize_t)sizeof o ? 0 : 1);
    }
    close(fds[1]);
    struct outcome o;
    ssize_t got = read(fds[0], &o, sizeof o);
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(got, (ssize_t)sizeof o);
    return o;
}

/* The instruction's code, then a 1024-byte load: 16 lines, 8 L2 misses
 * of 128 bytes (the other 8 lines hit their sector's line), 9 misses in
 * all, one at a time: 9 x (7 + 100,000) cycles and 114 more (the page
 * walks, the L2 hits, the pipeline), the retirement 900,000 cycles after
 * the fetch.  A ring of every cycle up to there would take 400 MB; the
 * run fits in 64 MB, and counts exactly. */
static void test_far_latency_in_bounded_memory(void **state)
{
    (void)state;
    struct tb t;
    write_far_load(&t, 1024);
    struct outcome o = can_limit() ? simulate_limited(t.path, 64 * (size_t)MB) : simulate(t.path);
    unlink(t.path);
    if (!o.ok)
        fail_msg("%s", o.error);
    assert_int_equal(o.retired, 1);
    assert_int_equal(o.l2_misses, 9);
    assert_int_equal(o.cycles, 900177);
}

/* The same run with 6 MB to spare (the model starts in about 2 MB, and
 * the run takes 12): the ring cannot grow to its bound, and the run
 * fails, out of memory, instead of losing the occurrences it could not
 * keep (it counted 0 retired instructions and succeeded). */
static void test_out_of_memory_fails(void **state)
{
    (void)state;
    if (!can_limit())
        skip();
    struct tb t;
    write_far_load(&t, 1024);
    struct outcome o = simulate_limited(t.path, 6 * (size_t)MB);
    unlink(t.path);
    assert_false(o.ok);
    assert_int_equal(o.error_number, ENOMEM);
    char want[128];
    snprintf(want, sizeof want, "%s: out of memory for the model's events", t.path);
    assert_string_equal(o.error, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_far_latency_in_bounded_memory),
        cmocka_unit_test(test_out_of_memory_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
