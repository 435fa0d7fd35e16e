/* The NetBurst model's instruction timing (docs/netburst-model.md,
 * "Instructions" and "Core"): latencies, throughputs and units from the
 * timing table (sim/netburst/nbm_timings.c: Intel's Optimization Reference
 * Manual, appendix C) by model group, register dependences through the
 * general, flags, x87, MMX and XMM registers, and each unit's issue
 * interval.  Each test times a loop of 40 and of 80 iterations on a preset
 * and checks the difference, the cycles of 40 iterations in the steady
 * state, worked out by hand from the table's rows: the loops are short
 * enough for the front end (3 uops a cycle), allocation and retirement
 * never to be the limit unless a test says so. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "isa/x86.h"
#include "pmu/emulated/netburst_pmu.h"
#include "sim/netburst/nbm_model.h"
#include "tests/unit/model_trace.h"
#include "traces/trace.h"

struct code {
    const char *bytes;
    int length;
    enum trace_access_kind access; /* 0: none; else 4 bytes at 0x20000 + 64 x its index */
};

#define CODE(bytes) {bytes, sizeof bytes - 1, 0}
#define STORE(bytes) {bytes, sizeof bytes - 1, TRACE_STORE}

#define ADDSD CODE("\xf2\x0f\x58\xc1")        /* addsd xmm0, xmm1 */
#define FADD_ST0_ST1 CODE("\xd8\xc1")         /* fadd st(0), st(1) */
#define FXCH_ST1 CODE("\xd9\xc9")             /* fxch st(1) */
#define ADC_EAX_EBX CODE("\x11\xd8")          /* adc eax, ebx */
#define DIV_ECX CODE("\xf7\xf1")              /* div ecx */
#define SHL_EAX_1 CODE("\xd1\xe0")            /* shl eax, 1 */
#define PADDD_MM0_MM1 CODE("\x0f\xfe\xc1")    /* paddd mm0, mm1 */
#define MOVD_MM0_EAX CODE("\x0f\x6e\xc0")     /* movd mm0, eax */
#define MOVD_EAX_MM0 CODE("\x0f\x7e\xc0")     /* movd eax, mm0 */

static struct nbm_result simulate(const char *path, const char *preset)
{
    struct nbm_config config;
    char error[256];
    assert_true(nbm_config_preset(preset, &config, error, sizeof error));
    return tb_simulate(path, &config);
}

/* `iterations` of the body at 0x1000 (64-bit code) and a jump back. */
static void write_loop(struct tb *t, const struct code *body, size_t n, int iterations)
{
    uint64_t end = 0x1000;
    for (size_t k = 0; k < n; k++)
        end += (uint64_t)body[k].length;
    const char jmp[2] = {(char)0xeb, (char)(0x1000 - (end + 2))}; /* jmp rel8 */
    for (int i = 0; i < iterations; i++) {
        uint64_t at = 0x1000;
        for (size_t k = 0; k < n; at += (uint64_t)body[k].length, k++)
            tb_access(t, at, body[k].bytes, body[k].length, body[k].access, 0x20000 + 64 * k, 4);
        tb_branch(t, end, jmp, 2, TRACE_BRANCH_TAKEN, 0x1000);
    }
}

/* The cycles 40 iterations of the loop take on `preset` in the steady
 * state: 80 iterations' minus 40's. */
static uint64_t cycles_of_40(const struct code *body, size_t n, const char *preset)
{
    struct tb once, twice;
    tb_open(&once);
    write_loop(&once, body, n, 40);
    tb_close(&once);
    tb_open(&twice);
    write_loop(&twice, body, n, 80);
    tb_close(&twice);
    uint64_t cycles = simulate(twice.path, preset).cycles - simulate(once.path, preset).cycles;
    unlink(once.path);
    unlink(twice.path);
    return cycles;
}

#define CYCLES_OF_40(body, preset) cycles_of_40(body, sizeof body / sizeof body[0], preset)

/* Four dependent ADDSDs (through XMM0): four latencies an iteration,
 * Northwood's 4 cycles and Prescott's 5 (0F2n and 0F3n rows). */
static void test_addsd_chain(void **state)
{
    (void)state;
    const struct code body[] = {ADDSD, ADDSD, ADDSD, ADDSD};
    assert_int_equal(CYCLES_OF_40(body, "northwood"), 40 * 4 * 4);
    assert_int_equal(CYCLES_OF_40(body, "willamette"), 40 * 4 * 4);
    assert_int_equal(CYCLES_OF_40(body, "prescott"), 40 * 4 * 5);
}

/* FADD ST(i), ST(0) for i = 1..7 (DC C0+i) writes seven different
 * registers: each waits only for its own register's add of the iteration
 * before, 7 adds back, longer than FADD's 5 or 6 cycles, so the FP adder
 * takes one a cycle (its throughput: 1 cycle). */
static void test_independent_fadds(void **state)
{
    (void)state;
    const struct code body[] = {CODE("\xdc\xc1"), CODE("\xdc\xc2"), CODE("\xdc\xc3"),
                                CODE("\xdc\xc4"), CODE("\xdc\xc5"), CODE("\xdc\xc6"),
                                CODE("\xdc\xc7")};
    assert_int_equal(CYCLES_OF_40(body, "northwood"), 40 * 7);
    assert_int_equal(CYCLES_OF_40(body, "prescott"), 40 * 7);
}

/* FXCH renames: FADD ST(0), ST(1) then FXCH ST(1), four times, is a chain
 * of four adds (each add's result, swapped to ST(1), is the next add's
 * operand) and takes what the four adds alone take: 4 x 5 cycles on
 * Northwood, 4 x 6 on Prescott. */
static void test_fxch_renames(void **state)
{
    (void)state;
    const struct code adds[] = {FADD_ST0_ST1, FADD_ST0_ST1, FADD_ST0_ST1, FADD_ST0_ST1};
    const struct code exchanged[] = {FADD_ST0_ST1, FXCH_ST1, FADD_ST0_ST1, FXCH_ST1,
                                     FADD_ST0_ST1, FXCH_ST1, FADD_ST0_ST1, FXCH_ST1};
    assert_int_equal(CYCLES_OF_40(adds, "northwood"), 40 * 4 * 5);
    assert_int_equal(CYCLES_OF_40(exchanged, "northwood"), 40 * 4 * 5);
    assert_int_equal(CYCLES_OF_40(exchanged, "prescott"), 40 * 4 * 6);
}

/* ADC EAX, EBX reads EAX and the carry: a chain of ADC's 8 cycles (its
 * row: 8 on both groups), not the double-speed ALU's half cycle. */
static void test_adc_chain(void **state)
{
    (void)state;
    const struct code body[] = {ADC_EAX_EBX, ADC_EAX_EBX, ADC_EAX_EBX, ADC_EAX_EBX};
    assert_int_equal(CYCLES_OF_40(body, "northwood"), 40 * 4 * 8);
    assert_int_equal(CYCLES_OF_40(body, "prescott"), 40 * 4 * 8);
}

/* DIVSD XMMk, XMM7 for k = 0..5: independent (each reads its own XMMk,
 * written 6 divides back), so the divider's issue interval is the limit:
 * it is not pipelined, one DIVSD each 38 cycles on Northwood, 39 on
 * Prescott (the row's throughput), whatever the latency. */
static void test_divsd_issue_interval(void **state)
{
    (void)state;
    const struct code body[] = {CODE("\xf2\x0f\x5e\xc7"), CODE("\xf2\x0f\x5e\xcf"),
                                CODE("\xf2\x0f\x5e\xd7"), CODE("\xf2\x0f\x5e\xdf"),
                                CODE("\xf2\x0f\x5e\xe7"), CODE("\xf2\x0f\x5e\xef")};
    assert_int_equal(CYCLES_OF_40(body, "northwood"), 40 * 6 * 38);
    assert_int_equal(CYCLES_OF_40(body, "prescott"), 40 * 6 * 39);
}

/* SQRTSD XMMk, XMM7 for k = 0..5 read no register another writes: all
 * are ready at once, and the ROB (126 uops) holds a backlog of the
 * divider's work far longer than a unit's reservation window (1024 half
 * cycles): still one each 38 cycles (Northwood's throughput). */
static void test_divider_backlog(void **state)
{
    (void)state;
    const struct code body[] = {CODE("\xf2\x0f\x51\xc7"), CODE("\xf2\x0f\x51\xcf"),
                                CODE("\xf2\x0f\x51\xd7"), CODE("\xf2\x0f\x51\xdf"),
                                CODE("\xf2\x0f\x51\xe7"), CODE("\xf2\x0f\x51\xef")};
    assert_int_equal(CYCLES_OF_40(body, "northwood"), 40 * 6 * 38);
}

/* Only ALU 0 does logic (and branches); ALU 1 only adds and subtracts.
 * Four independent XORs and the jump: five uops for ALU 0, two a cycle,
 * 2.5 cycles an iteration.  Four independent ADDs share both ALUs: the
 * front end's 3 then 2 uops (the line ends at the jump), 2 cycles. */
static void test_logic_on_alu0(void **state)
{
    (void)state;
    const struct code xors[] = {CODE("\x31\xc0"), CODE("\x31\xdb"), CODE("\x31\xc9"),
                                CODE("\x31\xd2")};
    const struct code adds[] = {CODE("\x83\xc0\x01"), CODE("\x83\xc3\x01"),
                                CODE("\x83\xc1\x01"), CODE("\x83\xc2\x01")};
    assert_int_equal(CYCLES_OF_40(xors, "northwood"), 40 * 5 / 2);
    assert_int_equal(CYCLES_OF_40(adds, "northwood"), 40 * 2);
}

/* MOV [RSI], ECX's row names the store unit with a throughput of 2
 * cycles: each store-address uop holds port 3 for 2 cycles, so four
 * stores (to four lines, all L1 and L2 hits after the first iteration)
 * take 8 cycles an iteration. */
static void test_store_port_interval(void **state)
{
    (void)state;
    const struct code body[] = {STORE("\x89\x0e"), STORE("\x89\x0e"), STORE("\x89\x0e"),
                                STORE("\x89\x0e")};
    assert_int_equal(CYCLES_OF_40(body, "northwood"), 40 * 4 * 2);
}

/* IMUL r32, EBX into six registers: independent but for each register's
 * own, six back.  Northwood issues one each 3 cycles (throughput 3,
 * latency 14): 6 x 3 = 18 cycles an iteration, more than the 14 of each
 * register's chain; Prescott one a cycle, so its 10-cycle latency is the
 * limit: 10 an iteration. */
/* CALL to a RET and back, then a jump to the CALL: `iterations` times. */
static void write_call_loop(struct tb *t, int iterations)
{
    for (int i = 0; i < iterations; i++) {
        tb_branch(t, 0x1000, "\xe8\xfb\x0f\x00\x00", 5, TRACE_BRANCH_TAKEN, 0x2000);
        tb_branch(t, 0x2000, "\xc3", 1, TRACE_BRANCH_TAKEN, 0x1005);
        tb_branch(t, 0x1005, "\xeb\xf9", 2, TRACE_BRANCH_TAKEN, 0x1000);
    }
}

/* CALL and RET move ESP by a fast ALU uop of their own, half a cycle
 * after the old value: a CALL/RET pair is not chained through ESP at the
 * rows' latencies (CALL 5, RET 8 cycles on 0F2n: it took 13 cycles an
 * iteration when it was); the loop runs at one taken branch a cycle, each
 * ending a trace-cache line: 3 an iteration. */
static void test_call_ret_stack_pointer(void **state)
{
    (void)state;
    struct tb once, twice;
    tb_open(&once);
    write_call_loop(&once, 40);
    tb_close(&once);
    tb_open(&twice);
    write_call_loop(&twice, 80);
    tb_close(&twice);
    uint64_t cycles = simulate(twice.path, "northwood").cycles - simulate(once.path, "northwood").cycles;
    unlink(once.path);
    unlink(twice.path);
    assert_int_equal(cycles, 40 * 3);
}

static void test_imul_issue_interval(void **state)
{
    (void)state;
    const struct code body[] = {CODE("\x0f\xaf\xc3"), CODE("\x0f\xaf\xcb"),
                                CODE("\x0f\xaf\xd3"), CODE("\x0f\xaf\xf3"),
                                CODE("\x0f\xaf\xfb"), CODE("\x0f\xaf\xeb")};
    assert_int_equal(CYCLES_OF_40(body, "northwood"), 40 * 18);
    assert_int_equal(CYCLES_OF_40(body, "prescott"), 40 * 10);
}

/* DIV ECX: EDX:EAX / ECX into EAX and EDX, a chain.  Intel gives ranges
 * (56-70 cycles on Northwood, 66-80 on Prescott): the model takes their
 * middle, 63 and 73. */
static void test_div_range_middle(void **state)
{
    (void)state;
    const struct code body[] = {DIV_ECX, DIV_ECX};
    assert_int_equal(CYCLES_OF_40(body, "northwood"), 40 * 2 * 63);
    assert_int_equal(CYCLES_OF_40(body, "prescott"), 40 * 2 * 73);
}

/* SHL EAX, 1: Northwood's slow integer unit, 4 cycles; Prescott's
 * double-speed ALU, 1 cycle (the 0F3n row's half-cycle throughput). */
static void test_shift_by_group(void **state)
{
    (void)state;
    const struct code body[] = {SHL_EAX_1, SHL_EAX_1, SHL_EAX_1, SHL_EAX_1};
    assert_int_equal(CYCLES_OF_40(body, "northwood"), 40 * 4 * 4);
    assert_int_equal(CYCLES_OF_40(body, "prescott"), 40 * 4 * 1);
}

/* INC leaves CF alone: it merges its flags with the last flags writer's,
 * so INC EAX, INC EBX, INC ECX, INC EDX are a chain through the flags, 1
 * cycle each (INC's latency): 4 cycles an iteration.  ADD r, 1 writes
 * every flag: the same four registers with ADD are independent, and the
 * front end is the limit: 5 uops an iteration, the trace line ending at
 * the jump, 3 then 2 uops, 2 cycles. */
static void test_partial_flags(void **state)
{
    (void)state;
    const struct code incs[] = {CODE("\xff\xc0"), CODE("\xff\xc3"), CODE("\xff\xc1"),
                                CODE("\xff\xc2")};
    const struct code adds[] = {CODE("\x83\xc0\x01"), CODE("\x83\xc3\x01"),
                                CODE("\x83\xc1\x01"), CODE("\x83\xc2\x01")};
    assert_int_equal(CYCLES_OF_40(incs, "northwood"), 40 * 4);
    assert_int_equal(CYCLES_OF_40(adds, "northwood"), 40 * 2);
}

/* MMX registers: four dependent PADDDs (through MM0), 2 cycles each; MOVD
 * MM0, EAX then MOVD EAX, MM0 twice, round trips of 2 + 5 cycles. */
static void test_mmx_chains(void **state)
{
    (void)state;
    const struct code padd[] = {PADDD_MM0_MM1, PADDD_MM0_MM1, PADDD_MM0_MM1, PADDD_MM0_MM1};
    const struct code trips[] = {MOVD_MM0_EAX, MOVD_EAX_MM0, MOVD_MM0_EAX, MOVD_EAX_MM0};
    assert_int_equal(CYCLES_OF_40(padd, "northwood"), 40 * 4 * 2);
    assert_int_equal(CYCLES_OF_40(trips, "northwood"), 40 * 2 * (2 + 5));
}

/* Retired instructions with no timing row are counted: UD2 (decoded, no
 * row) and a record without code bytes; NOP and ADD have rows. */
static void test_unclassified(void **state)
{
    (void)state;
    struct tb t;
    tb_open(&t);
    tb_plain(&t, 0x1000, "\x90", 1);
    tb_plain(&t, 0x1001, "\x0f\x0b", 2);
    tb_plain(&t, 0x1003, NULL, 3);
    tb_plain(&t, 0x1006, "\x83\xc0\x01", 3);
    tb_close(&t);
    struct nbm_result result = simulate(t.path, "northwood");
    assert_int_equal(result.instructions[0], 4);
    assert_int_equal(result.unclassified[0], 2);
    assert_int_equal(result.unclassified[1], 0);
    unlink(t.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_addsd_chain),
        cmocka_unit_test(test_independent_fadds),
        cmocka_unit_test(test_fxch_renames),
        cmocka_unit_test(test_adc_chain),
        cmocka_unit_test(test_divsd_issue_interval),
        cmocka_unit_test(test_imul_issue_interval),
        cmocka_unit_test(test_divider_backlog),
        cmocka_unit_test(test_logic_on_alu0),
        cmocka_unit_test(test_store_port_interval),
        cmocka_unit_test(test_call_ret_stack_pointer),
        cmocka_unit_test(test_div_range_middle),
        cmocka_unit_test(test_shift_by_group),
        cmocka_unit_test(test_partial_flags),
        cmocka_unit_test(test_mmx_chains),
        cmocka_unit_test(test_unclassified),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    x86_decode_release();
    return failed;
}
