/* The trace writer's entry for the recorder's tool, trace_write_insn_memo()
 * (traces/trace.h): the same bytes as trace_write_insn() for the same
 * records, whatever the memos say -- over a pseudo-random walk through a
 * small program (loops, branches both ways, strided and scattered
 * addresses, thread switches, registers, regions, a block cut at 64
 * instructions, a trace that ends on a taken branch), with memos kept
 * across two writers (a new segment after an execve). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "traces/trace.h"

/* A static instruction of the program: what the tool's descriptor holds. */
struct program_insn {
    uint64_t address;
    uint8_t length;
    uint8_t bytes[TRACE_MAX_INSN_LENGTH];
    bool conditional;     /* a conditional branch to `target` */
    bool jump;            /* an unconditional one */
    uint64_t target;
    int n_accesses;
    enum trace_access_kind kinds[3];
    uint32_t sizes[3];
    struct trace_insn_memo memo;
};

enum { N_INSNS = 90 };

/* A straight run from 0x1000 with a conditional branch back every few
 * instructions, a jump at the end, and a run of 70 plain instructions (a
 * block cut at 64). */
static void make_program(struct program_insn *p)
{
    memset(p, 0, N_INSNS * sizeof *p);
    uint64_t address = 0x1000;
    for (int i = 0; i < N_INSNS; i++) {
        p[i].address = address;
        p[i].length = (uint8_t)(1 + i % 5);
        for (int k = 0; k < p[i].length; k++)
            p[i].bytes[k] = (uint8_t)(0x40 + i + k);
        p[i].n_accesses = i % 3;
        for (int k = 0; k < p[i].n_accesses; k++) {
            p[i].kinds[k] = (enum trace_access_kind)(1 + (i + k) % 3);
            p[i].sizes[k] = 1u << ((i + k) % 4);
        }
        if (i < 20 && i % 4 == 3) {
            p[i].conditional = true;
            p[i].target = p[i - 3].address;
        }
        address += p[i].length;
    }
    p[N_INSNS - 1].jump = true;
    p[N_INSNS - 1].target = p[0].address;
}

/* A deterministic pseudo-random number. */
static uint32_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*state >> 33);
}

/* Writes `steps` instructions of a walk through the program into two
 * writers, one per entry point, and checks that their bytes agree. */
static void walk(struct program_insn *p, uint64_t seed, int steps, bool registers)
{
    char *data[2] = {NULL, NULL};
    size_t size[2];
    FILE *out[2];
    struct trace_writer *w[2];
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true,
                                  .registers = registers};
    char error[128];
    for (int k = 0; k < 2; k++) {
        out[k] = open_memstream(&data[k], &size[k]);
        assert_non_null(out[k]);
        w[k] = trace_writer_open(out[k], &header, error, sizeof error);
        assert_non_null(w[k]);
    }
    uint64_t state = seed, base = 0x10000;
    int at = 0;
    struct trace_insn insn = {.cpl = 3, .has_bytes = true};
    for (int step = 0; step < steps; step++) {
        struct program_insn *pi = &p[at];
        insn.address = pi->address;
        insn.length = pi->length;
        memcpy(insn.bytes, pi->bytes, sizeof insn.bytes);
        uint32_t r = next_random(&state);
        if (r % 97 == 0)
            insn.thread ^= 1;
        insn.has_registers = registers && r % 13 == 0;
        insn.regs[TRACE_REG_AX] = r % 5;
        insn.n_accesses = pi->n_accesses;
        for (int k = 0; k < pi->n_accesses; k++) {
            insn.accesses[k].kind = pi->kinds[k];
            insn.accesses[k].size = pi->sizes[k];
            /* strided mostly, now and then elsewhere */
            insn.accesses[k].address = r % 11 == 0 ? r : base + 8u * (uint64_t)k;
        }
        base += 4;
        bool taken = pi->jump || (pi->conditional && r % 3 != 0);
        insn.branch = pi->jump || pi->conditional
                          ? (taken ? TRACE_BRANCH_TAKEN : TRACE_BRANCH_NOT_TAKEN)
                          : TRACE_NOT_BRANCH;
        assert_true(trace_write_insn(w[0], &insn));
        assert_true(trace_write_insn_memo(w[1], &insn, &pi->memo));
        if (r % 101 == 0)
            for (int k = 0; k < 2; k++)
                assert_true(trace_write_region(w[k], r % 2, r % 7));
        at = taken ? (int)(pi - p) - (pi->jump ? N_INSNS - 1 : 3) : at + 1;
    }
    struct trace_end end = {.status = TRACE_EXITED};
    for (int k = 0; k < 2; k++) {
        assert_true(trace_write_end(w[k], &end));
        assert_true(trace_writer_close(w[k]));
        assert_int_equal(fclose(out[k]), 0);
    }
    assert_int_equal(size[0], size[1]);
    assert_memory_equal(data[0], data[1], size[0]);
    free(data[0]);
    free(data[1]);
}

static void test_same_bytes(void **state)
{
    (void)state;
    static struct program_insn program[N_INSNS];
    make_program(program);
    walk(program, 1, 200000, false);
    /* the memos of the first writer met by a second one */
    walk(program, 2, 200000, false);
    walk(program, 3, 50000, true);
}

/* A trace that ends on a taken branch, by both entries. */
static void test_ends_on_taken_branch(void **state)
{
    (void)state;
    static struct program_insn program[N_INSNS];
    make_program(program);
    walk(program, 4, 4, false);
    walk(program, 5, N_INSNS, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_bytes),
        cmocka_unit_test(test_ends_on_taken_branch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
