/* The trace writer's entries for the recorder's tool, trace_write_insn_memo()
 * and trace_write_run() (traces/trace.h): the same bytes as
 * trace_write_insn() for the same records, whatever the memos say -- over a pseudo-random walk through a
 * small program (loops, branches both ways, an indirect jump, strided and scattered
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
    int run; /* the run starting here: its instructions (0: none) */
    struct trace_insn_memo run_memo[2]; /* by its last instruction's outcome: taken or not */
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
    /* Runs of 1 to 7 instructions, each ending at the first branch. */
    for (int i = 0; i < N_INSNS;) {
        int n = 1;
        while (n < 1 + i % 7 && i + n < N_INSNS && !p[i + n - 1].conditional &&
               !p[i + n - 1].jump)
            n++;
        p[i].run = n;
        i += n;
    }
}

/* A deterministic pseudo-random number. */
static uint32_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*state >> 33);
}

/* One step of a walk: the instruction, and a region marker after it. */
struct step {
    int at;
    struct trace_insn insn;
    bool region, begin;
    uint32_t region_id;
};

/* The steps of a walk through the program from its start. */
static struct step *make_walk(struct program_insn *p, uint64_t seed, int steps,
                              bool registers)
{
    struct step *walk = calloc((size_t)steps, sizeof *walk);
    assert_non_null(walk);
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
        walk[step] = (struct step){at, insn, r % 101 == 0, r % 2, r % 7};
        /* the jump at the end is indirect: to the start, now and then
         * into the long run */
        at = !taken ? at + 1 : !pi->jump ? at - 3 : r % 5 == 0 ? 30 : 0;
    }
    return walk;
}

/* The run of the program starting at walk[0] if the walk goes through it
 * as a run (straight on, one thread, no registers, no marker inside, a
 * conditional branch at its end taken or not, as the tool's runs that end
 * a superblock's execution); its length, else 0. */
static int run_at(const struct program_insn *p, const struct step *walk, int left)
{
    int n = p[walk[0].at].run;
    if (n == 0 || n > left)
        return 0;
    for (int i = 0; i < n; i++) {
        const struct step *s = &walk[i];
        if (s->at != walk[0].at + i || s->insn.thread != walk[0].insn.thread ||
            s->insn.has_registers || (s->region && i < n - 1))
            return 0;
    }
    return n;
}

struct run_context {
    struct program_insn *program;
    const struct step *walk;
};

static const struct trace_insn *run_insn(void *context, uint32_t i, struct trace_insn_memo **memo)
{
    const struct run_context *c = context;
    *memo = &c->program[c->walk[i].at].memo;
    return &c->walk[i].insn;
}

/* Writes `steps` instructions of a walk into three writers, one per
 * entry point, and checks that their bytes agree. */
static void walk(struct program_insn *p, uint64_t seed, int steps, bool registers)
{
    char *data[3] = {NULL, NULL, NULL};
    size_t size[3];
    FILE *out[3];
    struct trace_writer *w[3];
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true,
                                  .registers = registers};
    char error[128];
    for (int k = 0; k < 3; k++) {
        out[k] = open_memstream(&data[k], &size[k]);
        assert_non_null(out[k]);
        w[k] = trace_writer_open(out[k], &header, error, sizeof error);
        assert_non_null(w[k]);
    }
    struct step *walk = make_walk(p, seed, steps, registers);
    int runs = 0;
    for (int step = 0; step < steps;) {
        int n = run_at(p, &walk[step], steps - step);
        for (int i = 0; i < (n ? n : 1); i++) {
            const struct step *s = &walk[step + i];
            assert_true(trace_write_insn(w[0], &s->insn));
            assert_true(trace_write_insn_memo(w[1], &s->insn, &p[s->at].memo));
            if (!n)
                assert_true(trace_write_insn_memo(w[2], &s->insn, &p[s->at].memo));
            if (s->region)
                for (int k = 0; k < (n ? 2 : 3); k++)
                    assert_true(trace_write_region(w[k], s->begin, s->region_id));
        }
        if (n) {
            uint64_t addresses[TRACE_MAX_BLOCK_ACCESSES];
            uint32_t n_addresses = 0;
            for (int i = 0; i < n; i++)
                for (int k = 0; k < walk[step + i].insn.n_accesses; k++)
                    addresses[n_addresses++] = walk[step + i].insn.accesses[k].address;
            struct run_context c = {p, &walk[step]};
            struct step *first = &walk[step];
            uint64_t next = step + n < steps ? walk[step + n].insn.address : 0;
            const struct step *last = &walk[step + n - 1];
            bool taken = last->insn.branch == TRACE_BRANCH_TAKEN;
            assert_true(trace_write_run(w[2], first->insn.thread, (uint32_t)n, addresses,
                                        &p[first->at].run_memo[taken], run_insn, &c, next));
            if (last->region)
                assert_true(trace_write_region(w[2], last->begin, last->region_id));
            runs++;
        }
        step += n ? n : 1;
    }
    assert_true(runs > steps / 20);
    free(walk);
    struct trace_end end = {.status = TRACE_EXITED};
    for (int k = 0; k < 3; k++) {
        assert_true(trace_write_end(w[k], &end));
        assert_true(trace_writer_close(w[k]));
        assert_int_equal(fclose(out[k]), 0);
    }
    for (int k = 1; k < 3; k++) {
        assert_int_equal(size[0], size[k]);
        assert_memory_equal(data[0], data[k], size[0]);
    }
    for (int k = 0; k < 3; k++)
        free(data[k]);
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
