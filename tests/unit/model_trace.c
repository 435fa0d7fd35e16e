/* Hand-made traces for the timing models' tests (model_trace.h). */
#include "tests/unit/model_trace.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pmu/catalog/netburst_events.h"
#include "pmu/emulated/netburst_pmu.h"

void tb_open_header(struct tb *t, struct trace_header header)
{
    char error[256];
    strcpy(t->path, "/tmp/test_model_trace_XXXXXX");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    t->out = fdopen(fd, "wb");
    assert_non_null(t->out);
    strcpy(header.recorder, "model_trace");
    t->writer = trace_writer_open(t->out, &header, error, sizeof error);
    assert_non_null(t->writer);
}

void tb_open(struct tb *t)
{
    tb_open_header(t, (struct trace_header){.isa = TRACE_ISA_64, .lengths_known = true});
}

void tb_close(struct tb *t)
{
    struct trace_end end = {trace_writer_instructions(t->writer), TRACE_EXITED, 0};
    assert_true(trace_write_end(t->writer, &end));
    assert_true(trace_writer_close(t->writer));
    assert_int_equal(fclose(t->out), 0);
}

struct trace_insn tb_make(uint64_t address, const char *bytes, int length,
                          enum trace_branch branch, uint64_t target,
                          enum trace_access_kind kind, uint64_t data, uint32_t size)
{
    struct trace_insn insn;
    memset(&insn, 0, sizeof insn);
    insn.address = address;
    insn.length = (uint8_t)length;
    insn.has_bytes = bytes != NULL;
    if (bytes)
        memcpy(insn.bytes, bytes, (size_t)length);
    insn.cpl = 3;
    insn.branch = branch;
    insn.target = target;
    if (kind) {
        insn.n_accesses = 1;
        insn.accesses[0] = (struct trace_access){kind, size, data};
    }
    return insn;
}

void tb_write(struct tb *t, const struct trace_insn *insn)
{
    assert_true(trace_write_insn(t->writer, insn));
}

void tb_insn(struct tb *t, uint64_t address, const char *bytes, int length,
             enum trace_branch branch, uint64_t target, enum trace_access_kind kind,
             uint64_t data, uint32_t size)
{
    struct trace_insn insn = tb_make(address, bytes, length, branch, target, kind, data, size);
    tb_write(t, &insn);
}

void tb_plain(struct tb *t, uint64_t address, const char *bytes, int length)
{
    tb_insn(t, address, bytes, length, TRACE_NOT_BRANCH, 0, 0, 0, 0);
}

void tb_access(struct tb *t, uint64_t address, const char *bytes, int length,
               enum trace_access_kind kind, uint64_t data, uint32_t size)
{
    tb_insn(t, address, bytes, length, TRACE_NOT_BRANCH, 0, kind, data, size);
}

void tb_branch(struct tb *t, uint64_t address, const char *bytes, int length,
               enum trace_branch branch, uint64_t target)
{
    tb_insn(t, address, bytes, length, branch, target, 0, 0, 0);
}

void tb_loop(struct tb *t, int iterations)
{
    for (int i = 0; i < iterations; i++) {
        bool last = i == iterations - 1;
        tb_plain(t, 0x1000, "\x83\xc0\x01", 3);
        tb_plain(t, 0x1003, "\xff\xc9", 2);
        tb_branch(t, 0x1005, "\x75\xf9", 2, last ? TRACE_BRANCH_NOT_TAKEN : TRACE_BRANCH_TAKEN,
                  last ? 0 : 0x1000);
    }
}

uint16_t tb_subevent_mask(int event, const char *names)
{
    assert_true(event >= 0 && event < NB_NUM_EVENTS);
    char copy[128];
    snprintf(copy, sizeof copy, "%s", names);
    uint16_t mask = 0;
    for (char *save, *name = strtok_r(copy, "|", &save); name; name = strtok_r(NULL, "|", &save)) {
        const struct nb_subevent *sub = nb_subevent_find(&nb_event_table[event], name);
        assert_non_null(sub);
        mask |= (uint16_t)(1u << sub->bit);
    }
    return mask;
}

struct nbm_result tb_simulate(const char *path, const struct nbm_config *config)
{
    char error[256];
    struct msr_backend *backend = nb_backend_create((struct nb_pmu_config){config->model, false});
    assert_non_null(backend);
    struct nbm_result result;
    const char *traces[] = {path};
    if (!nbm_simulate(traces, 1, config, backend, NULL, &result, error, sizeof error))
        fail_msg("%s", error);
    msr_backend_destroy(backend);
    return result;
}
