/* The validation suite's pieces (tests/validate/, docs/validate.md): the
 * kernels generated for rows, the program around them, the arithmetic and
 * the 10% and 90% rules, and the cycles and census read from a trace. */
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
#include "model_trace.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/emulated/p5_pmu.h"
#include "sim/netburst/nbm_model.h"
#include "sim/p5/p5_model.h"
#include "tests/validate/vgen.h"
#include "tests/validate/vprog.h"
#include "tests/validate/vprint.h"
#include "tests/validate/vsim.h"

static struct vgen_kernel plan(const char *family, const char *form, int p5_class,
                               enum vgen_kind kind)
{
    struct vgen_row row = {family, form, p5_class, kind == VGEN_REP};
    struct vgen_kernel k;
    char why[200];
    if (!vgen_plan(&row, kind, &k, why, sizeof why))
        fail_msg("%s %s: %s", family, form, why);
    return k;
}

static void assert_refused(const char *family, const char *form, int p5_class,
                           enum vgen_kind kind, const char *reason)
{
    struct vgen_row row = {family, form, p5_class, false};
    struct vgen_kernel k;
    char why[200];
    assert_false(vgen_plan(&row, kind, &k, why, sizeof why));
    assert_string_equal(why, reason);
}

/* ---- kernels */

/* A chain alternates the two registers: each instruction reads what the
 * one before wrote; K = 8 (even, at least 8), L = 30 (K x L = 240). */
static void test_chain_alternates(void **state)
{
    (void)state;
    struct vgen_kernel k = plan("add", "r,r", X86_P5_UV, VGEN_LATENCY);
    assert_int_equal(k.period, 2);
    assert_string_equal(vgen_unit(&k, 0), "add eax, ebx");
    assert_string_equal(vgen_unit(&k, 1), "add ebx, eax");
    assert_string_equal(vgen_unit(&k, 2), "add eax, ebx");
    assert_int_equal(k.copies, 8);
    assert_int_equal(k.iterations, 30);
    assert_int_equal(k.per_unit, 1);
}

/* A stream rotates the destination through five registers, the source
 * EDI written by none: K = 10 (a multiple of 5 and of 2), L = 24. */
static void test_stream_rotates(void **state)
{
    (void)state;
    struct vgen_kernel k = plan("imul", "r,r,i", VGEN_NO_PAIRING, VGEN_THROUGHPUT);
    assert_int_equal(k.period, 5);
    static const char *const want[] = {"imul eax, edi, 3", "imul ebx, edi, 3",
                                       "imul ecx, edi, 3", "imul edx, edi, 3",
                                       "imul esi, edi, 3"};
    for (int i = 0; i < 5; i++)
        assert_string_equal(vgen_unit(&k, i), want[i]);
    assert_int_equal(k.copies, 10);
    assert_int_equal(k.iterations, 24);
}

/* A shift by CL leaves ECX out of the destinations. */
static void test_shift_by_cl(void **state)
{
    (void)state;
    struct vgen_kernel k = plan("shl", "r,cl", X86_P5_NP, VGEN_THROUGHPUT);
    assert_int_equal(k.period, 4);
    assert_string_equal(vgen_unit(&k, 2), "shl edx, cl");
    assert_int_equal(k.copies, 8);
}

/* UV pairs: two stream copies per unit (five registers: the pairs wrap);
 * PU: the copy then a NOP in the V pipe; PV: a NOP first. */
static void test_pairs(void **state)
{
    (void)state;
    struct vgen_kernel uv = plan("add", "r,r", X86_P5_UV, VGEN_PAIR);
    assert_int_equal(uv.period, 5);
    assert_string_equal(vgen_unit(&uv, 0), "add eax, edi\nadd ebx, edi");
    assert_string_equal(vgen_unit(&uv, 2), "add esi, edi\nadd eax, edi");
    assert_int_equal(uv.per_unit, 2);
    assert_string_equal(uv.note, "two copies");
    struct vgen_kernel pu = plan("adc", "r,i", X86_P5_PU, VGEN_PAIR);
    assert_string_equal(vgen_unit(&pu, 1), "adc ebx, 3\nnop");
    assert_int_equal(pu.per_unit, 1);
    struct vgen_kernel pv = plan("jcc", "rel", X86_P5_PV, VGEN_PAIR);
    assert_string_equal(vgen_unit(&pv, 0), "nop\njz 1f\n1:");
}

/* FX pairs: the instruction on ST(0) and ST(7), then FXCH ST(1) to ST(6),
 * which brings seven registers to the top in turn; a popping one with
 * FXCH ST(7). */
static void test_fx_pairs(void **state)
{
    (void)state;
    struct vgen_kernel k = plan("fmul", "st", X86_P5_FX, VGEN_PAIR);
    assert_int_equal(k.period, 6);
    assert_string_equal(vgen_unit(&k, 0), "fmul st(7)\nfxch st(1)");
    assert_string_equal(vgen_unit(&k, 5), "fmul st(7)\nfxch st(6)");
    assert_int_equal(k.copies, 12);
    assert_true(k.setup & VGEN_SETUP_X87);
    struct vgen_kernel p = plan("faddp", "st", X86_P5_FX, VGEN_PAIR);
    assert_string_equal(vgen_unit(&p, 0), "faddp st(1)\nfxch st(7)");
}

/* x87: the chain on ST(0); the stream of the "st,st" form through
 * ST(1)-ST(7); loads repeat. */
static void test_x87(void **state)
{
    (void)state;
    struct vgen_kernel chain = plan("fdiv", "st", VGEN_NO_PAIRING, VGEN_LATENCY);
    assert_string_equal(vgen_unit(&chain, 0), "fdiv st(1)");
    struct vgen_kernel stream = plan("fadd", "st,st", VGEN_NO_PAIRING, VGEN_THROUGHPUT);
    assert_int_equal(stream.period, 7);
    assert_string_equal(vgen_unit(&stream, 6), "fadd st(7), st(0)");
    assert_int_equal(stream.copies, 14);
    struct vgen_kernel load = plan("fld", "m64", VGEN_NO_PAIRING, VGEN_THROUGHPUT);
    assert_string_equal(vgen_unit(&load, 0), "fld qword ptr [vsrc]");
    struct vgen_kernel store = plan("fistp", "m", VGEN_NO_PAIRING, VGEN_THROUGHPUT);
    assert_string_equal(vgen_unit(&store, 1), "fistp dword ptr [vdst+16]");
    struct vgen_kernel cw = plan("fldcw", "m", VGEN_NO_PAIRING, VGEN_THROUGHPUT);
    assert_string_equal(vgen_unit(&cw, 0), "fldcw word ptr [vcw]");
    assert_refused("fadd", "m", VGEN_NO_PAIRING, VGEN_THROUGHPUT,
                   "every copy writes ST(0): a stream needs FXCH");
}

/* Memory with an immediate goes through base registers (no displacement:
 * such an instruction pairs), which the prologue points at the slots. */
static void test_based_memory(void **state)
{
    (void)state;
    struct vgen_kernel k = plan("add", "m,i", X86_P5_UV, VGEN_PAIR);
    assert_string_equal(vgen_unit(&k, 0), "add dword ptr [eax], 3\nadd dword ptr [ebx], 3");
    assert_string_equal(k.prologue, "mov eax, OFFSET vdst+0\nmov ebx, OFFSET vdst+16\n"
                                    "mov ecx, OFFSET vdst+32\nmov edx, OFFSET vdst+48\n"
                                    "mov esi, OFFSET vdst+64\nmov edi, OFFSET vdst+80");
    struct vgen_kernel r = plan("add", "m,r", X86_P5_UV, VGEN_PAIR);
    assert_string_equal(vgen_unit(&r, 1), "add [vdst+32], edi\nadd [vdst+48], edi");
    assert_string_equal(r.prologue, "");
}

/* SAL's own encoding (/6) as bytes: GNU as would write SHL. */
static void test_sal_bytes(void **state)
{
    (void)state;
    struct vgen_kernel r = plan("sal", "r,i", X86_P5_PU, VGEN_THROUGHPUT);
    assert_string_equal(vgen_unit(&r, 1), ".byte 0xc1, 0xf3\n.byte 3");
    struct vgen_kernel m = plan("sal", "m,cl", X86_P5_NP, VGEN_THROUGHPUT);
    assert_string_equal(vgen_unit(&m, 2), ".byte 0xd3, 0x35\n.long vdst+32");
}

/* A result in another register class: a round trip with the move back,
 * the two rows' figures added. */
static void test_round_trip(void **state)
{
    (void)state;
    struct vgen_kernel k = plan("cvtsd2si", "r32,xmm", VGEN_NO_PAIRING, VGEN_LATENCY);
    assert_string_equal(vgen_unit(&k, 0), "cvtsd2si eax, xmm0\nmovd xmm0, eax");
    assert_string_equal(k.with_family, "movd");
    assert_string_equal(k.with_form, "xmm,r32");
    assert_string_equal(k.note, "round trip");
}

/* LEA by its address's shape: the chain through the address's register,
 * the stream with EDI there. */
static void test_lea(void **state)
{
    (void)state;
    struct vgen_kernel a = plan("lea", "r,a", VGEN_NO_PAIRING, VGEN_LATENCY);
    assert_string_equal(vgen_unit(&a, 0), "lea eax, [eax+4]");
    struct vgen_kernel as3 = plan("lea", "r,as3", VGEN_NO_PAIRING, VGEN_LATENCY);
    assert_string_equal(vgen_unit(&as3, 0), "lea eax, [edi+eax*4+4]");
    struct vgen_kernel a3 = plan("lea", "r,a3", VGEN_NO_PAIRING, VGEN_THROUGHPUT);
    assert_int_equal(a3.period, 5);
    assert_string_equal(vgen_unit(&a3, 4), "lea esi, [edi+edi+4]");
    struct vgen_kernel as = plan("lea", "r,as", VGEN_NO_PAIRING, VGEN_THROUGHPUT);
    assert_string_equal(vgen_unit(&as, 1), "lea ebx, [edi+edi*4]");
    struct vgen_kernel m = plan("lea", "r,m", X86_P5_UV, VGEN_PAIR);
    assert_string_equal(vgen_unit(&m, 0), "lea eax, [edi+4]\nlea ebx, [edi+4]");
    assert_refused("lea", "r,m", X86_P5_UV, VGEN_LATENCY,
                   "its only input is an address: a chain would add the P5's AGI stall");
}

/* Branches to the next instruction; CALL with its RET; the stack a
 * stream pushes, given back per iteration. */
static void test_control_and_stack(void **state)
{
    (void)state;
    struct vgen_kernel taken = plan("jcc", "rel", VGEN_NO_PAIRING, VGEN_TAKEN);
    assert_string_equal(vgen_unit(&taken, 0), "jnz 1f\n1:");
    struct vgen_kernel call = plan("call", "r", X86_P5_NP, VGEN_THROUGHPUT);
    /* each copy calls a return of its own (the P5 predicts a RET's last target) */
    static const char own_ret[] = "\n.pushsection .text.vret, \"ax\", @progbits\n2: ret\n"
                                  ".popsection";
    char expected[VGEN_UNIT_TEXT];
    snprintf(expected, sizeof expected, "mov esi, OFFSET 2f\ncall esi%s", own_ret);
    assert_string_equal(vgen_unit(&call, 0), expected);
    assert_string_equal(call.prologue, "");
    assert_string_equal(call.with_family, "ret");
    assert_string_equal(call.with_form, "");
    assert_string_equal(call.with2_family, "mov");
    assert_string_equal(call.with2_form, "r,i");
    struct vgen_kernel rel = plan("call", "rel", X86_P5_PV, VGEN_THROUGHPUT);
    snprintf(expected, sizeof expected, "call 2f%s", own_ret);
    assert_string_equal(vgen_unit(&rel, 0), expected);
    assert_null(rel.with2_family);
    struct vgen_kernel mem = plan("call", "m", X86_P5_NP, VGEN_THROUGHPUT);
    snprintf(expected, sizeof expected,
             ".pushsection .data\n3: .long 2f\n.popsection\ncall dword ptr [3b]%s", own_ret);
    assert_string_equal(vgen_unit(&mem, 0), expected);
    struct vgen_kernel ret = plan("ret", "i", X86_P5_NP, VGEN_THROUGHPUT);
    assert_string_equal(vgen_unit(&ret, 0), "call 2f\n.pushsection .text.vret, \"ax\", "
                                            "@progbits\n2: ret 4\n.popsection");
    assert_int_equal(ret.stack_per_unit, -4);
    struct vgen_kernel push = plan("push", "r", X86_P5_UV, VGEN_PAIR);
    assert_string_equal(vgen_unit(&push, 0), "push eax\npush ebx");
    assert_int_equal(push.stack_per_unit, 8);
    struct vgen_kernel popf = plan("popfd", "", X86_P5_NP, VGEN_THROUGHPUT);
    assert_string_equal(vgen_unit(&popf, 0), "pushfd\npopfd");
    assert_string_equal(popf.with_family, "pushfd");
    struct vgen_kernel pushf = plan("pushf", "", X86_P5_NP, VGEN_THROUGHPUT);
    assert_string_equal(vgen_unit(&pushf, 0), "pushfw");
    assert_int_equal(pushf.stack_per_unit, 2);
}

/* String instructions: ESI and EDI set per iteration; with REP, ECX per
 * copy (the MOV measured with it), REPE CMPS over the source area on
 * both sides, REPNE SCAS. */
static void test_strings(void **state)
{
    (void)state;
    struct vgen_kernel stream = plan("lodsb", "r,m", X86_P5_NP, VGEN_THROUGHPUT);
    assert_string_equal(vgen_unit(&stream, 0), "lodsb");
    assert_string_equal(stream.prologue, "mov esi, OFFSET vsrc\nmov edi, OFFSET vdst");
    struct vgen_kernel rep = plan("movsd", "m,m", X86_P5_NP, VGEN_REP);
    assert_string_equal(vgen_unit(&rep, 0), "mov ecx, 16\n.byte 0xf3 /* rep */\nmovsd");
    assert_string_equal(rep.with_family, "mov");
    assert_string_equal(rep.with_form, "r,i");
    struct vgen_kernel cmps = plan("cmpsb", "m,m", X86_P5_NP, VGEN_REP);
    assert_string_equal(vgen_unit(&cmps, 0), "mov ecx, 16\n.byte 0xf3 /* repe */\ncmpsb");
    assert_string_equal(cmps.prologue, "mov esi, OFFSET vsrc\nmov edi, OFFSET vsrc");
    struct vgen_kernel scas = plan("scasw", "r,m", X86_P5_NP, VGEN_REP);
    assert_string_equal(vgen_unit(&scas, 0), "mov ecx, 16\n.byte 0xf2 /* repne */\nscasw");
    assert_string_equal(scas.prologue, "mov esi, OFFSET vsrc\nmov edi, OFFSET vsrc");
}

/* What a kernel cannot do, and why. */
static void test_refusals(void **state)
{
    (void)state;
    assert_refused("mul", "r32", X86_P5_NP, VGEN_THROUGHPUT,
                   "EDX:EAX in and out: every copy waits for the one before");
    assert_refused("in", "r,i", X86_P5_NP, VGEN_THROUGHPUT, "privileged or I/O: not at user level");
    assert_refused("iretd", "", X86_P5_NP, VGEN_THROUGHPUT,
                   "a far transfer, interrupt or system call: leaves the program");
    assert_refused("lds", "r,m", X86_P5_NP, VGEN_THROUGHPUT, "loads a segment register");
    assert_refused("add", "m,r", X86_P5_UV, VGEN_LATENCY,
                   "copies through memory pair (the P5 checks register dependences only): "
                   "measured as pairs");
    assert_refused("cmp", "r,r", VGEN_NO_PAIRING, VGEN_LATENCY, "no result but the flags");
    assert_refused("prefetcht0", "m", VGEN_NO_PAIRING, VGEN_LATENCY, "no result to chain");
    assert_refused("popal", "", X86_P5_NP, VGEN_THROUGHPUT, "loads EBP, the loop counter");
    assert_refused("setcc", "r", X86_P5_NP, VGEN_LATENCY,
                   "no register input of its own class to chain through");
    assert_refused("mov", "sreg,r", X86_P5_NP, VGEN_THROUGHPUT, "loads a segment register");
    assert_refused("add", "r,ymm", VGEN_NO_PAIRING, VGEN_THROUGHPUT,
                   "operand kinds the suite does not generate");
}

/* Which kinds apply: TAKEN to conditional branches, PAIR to the P5's
 * pairable classes, THROUGHPUT not to UV (two copies pair). */
static void test_applies(void **state)
{
    (void)state;
    struct vgen_row uv = {"add", "r,r", X86_P5_UV, false};
    struct vgen_row nb = {"add", "r,r", VGEN_NO_PAIRING, false};
    struct vgen_row np = {"mul", "r32", X86_P5_NP, false};
    struct vgen_row jcc = {"jcc", "rel", VGEN_NO_PAIRING, false};
    struct vgen_row movs = {"movsd", "m,m", X86_P5_NP, true};
    assert_false(vgen_applies(&uv, VGEN_THROUGHPUT));
    assert_true(vgen_applies(&uv, VGEN_PAIR));
    assert_true(vgen_applies(&nb, VGEN_THROUGHPUT));
    assert_false(vgen_applies(&nb, VGEN_PAIR));
    assert_false(vgen_applies(&np, VGEN_PAIR));
    assert_false(vgen_applies(&nb, VGEN_TAKEN));
    assert_true(vgen_applies(&jcc, VGEN_TAKEN));
    assert_true(vgen_applies(&movs, VGEN_REP));
    assert_false(vgen_applies(&np, VGEN_REP));
    assert_string_equal(vgen_mnemonic("cmovcc", false), "cmovz");
    assert_string_equal(vgen_mnemonic("jcc", true), "jnz");
    assert_string_equal(vgen_mnemonic("pushal", false), "pushad");
    assert_string_equal(vgen_mnemonic("add", false), "add");
}

/* ---- the program */

/* The short loop holds K units and the long one 2K, with the stack given
 * back once per iteration; the runs between their region markers; the
 * lines of each entry. */
static void test_program(void **state)
{
    (void)state;
    struct vgen_kernel push = plan("push", "i", X86_P5_NP, VGEN_THROUGHPUT);
    struct vgen_kernel add = plan("add", "r,r", X86_P5_UV, VGEN_LATENCY);
    struct vprog_entry entries[] = {{&push, 1, 0, 0}, {&add, 3, 0, 0}};
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    assert_true(vprog_write(out, entries, 2));
    fclose(out);
    const char *loop = "k0s:\n.Lk0s:\n    push 3\n    push 3\n    push 3\n    push 3\n"
                       "    push 3\n    push 3\n    push 3\n    push 3\n    add esp, 32\n"
                       "    dec ebp\n    jnz .Lk0s\n    ret\n";
    assert_non_null(strstr(text, loop));
    assert_non_null(strstr(text, "    add esp, 64\n    dec ebp\n    jnz .Lk0l\n"));
    assert_non_null(strstr(text, "    push 4\n    call pmubench_region_begin\n    add esp, 4\n"
                                 "    mov ebp, 30\n    call k1l\n    push 4\n"
                                 "    call pmubench_region_end\n"));
    assert_non_null(strstr(text, "    call m0\n    call m1\n    mov eax, 1\n"));
    /* line numbers: the entries' code is where they say */
    int line = 1;
    for (const char *p = text; p < strstr(text, "k1s:\n"); p++)
        line += *p == '\n';
    assert_true(line > entries[1].first_line && line < entries[1].last_line);
    assert_true(entries[0].last_line < entries[1].first_line);
    assert_int_equal(vprog_entry_of_line(entries, 2, line), 1);
    assert_int_equal(vprog_entry_of_line(entries, 2, entries[0].first_line), 0);
    assert_int_equal(vprog_entry_of_line(entries, 2, 1), -1);
    free(text);
}

/* ---- the arithmetic */

static void test_difference(void **state)
{
    (void)state;
    struct vprint_result r = vprint_difference(1000, 1480, 8, 30);
    assert_int_equal(r.diff, 480);
    assert_int_equal(r.units, 240);
    r = vprint_difference(500, 440, 10, 24);
    assert_int_equal(r.diff, -60);
}

/* 0.9 lo <= diff / units <= 1.1 hi, both ends included, in half cycles. */
static void test_within(void **state)
{
    (void)state;
    /* published 1 cycle (2 half cycles), 240 units */
    assert_true(vprint_within(2, 2, (struct vprint_result){216, 240}));  /* 0.9 */
    assert_false(vprint_within(2, 2, (struct vprint_result){215, 240}));
    assert_true(vprint_within(2, 2, (struct vprint_result){264, 240}));  /* 1.1 */
    assert_false(vprint_within(2, 2, (struct vprint_result){265, 240}));
    /* published 0.5: 0.45 to 0.55 */
    assert_true(vprint_within(1, 1, (struct vprint_result){108, 240}));
    assert_false(vprint_within(1, 1, (struct vprint_result){107, 240}));
    /* a range 66-80: 59.4 to 88 */
    assert_true(vprint_within(132, 160, (struct vprint_result){880, 10}));
    assert_false(vprint_within(132, 160, (struct vprint_result){881, 10}));
    assert_true(vprint_within(132, 160, (struct vprint_result){594, 10}));
    assert_false(vprint_within(132, 160, (struct vprint_result){593, 10}));
    assert_false(vprint_within(2, 2, (struct vprint_result){-240, 240}));
    assert_false(vprint_within(2, 2, (struct vprint_result){0, 0}));
}

/* In sixths of a cycle: a third (2 sixths) to a half (3), the stream of an
 * instruction two ports take, three uops allocated a cycle. */
static void test_within_sixths(void **state)
{
    (void)state;
    /* 0.33-0.5 over 240 units: 0.3 x 240 = 72 to 0.55 x 240 = 132 */
    assert_true(vprint_within_sixths(2, 3, (struct vprint_result){72, 240}));
    assert_false(vprint_within_sixths(2, 3, (struct vprint_result){71, 240}));
    assert_true(vprint_within_sixths(2, 3, (struct vprint_result){132, 240}));
    assert_false(vprint_within_sixths(2, 3, (struct vprint_result){133, 240}));
    /* whole half cycles give vprint_within's answers */
    assert_true(vprint_within_sixths(6, 6, (struct vprint_result){216, 240}));
    assert_false(vprint_within_sixths(6, 6, (struct vprint_result){215, 240}));
    char text[64];
    vprint_published_sixths(text, sizeof text, 2, 3);
    assert_string_equal(text, "0.33-0.5");
    vprint_published_sixths(text, sizeof text, 4, 4);
    assert_string_equal(text, "0.67");
    vprint_published_sixths(text, sizeof text, 9, 12);
    assert_string_equal(text, "1.5-2");
}

/* NetBurst streams of instructions that read the flags the one before
 * wrote (ADC's CF; INC's merge) are a flags chain, not a throughput. */
static void test_flags_chain_refused(void **state)
{
    (void)state;
    assert_refused("inc", "r", VGEN_NO_PAIRING, VGEN_THROUGHPUT,
                   "every copy reads the flags the one before wrote");
    assert_refused("adc", "r,r", VGEN_NO_PAIRING, VGEN_THROUGHPUT,
                   "every copy reads the flags the one before wrote");
    plan("inc", "r", VGEN_NO_PAIRING, VGEN_LATENCY);       /* its chain is measured */
    plan("add", "r,r", VGEN_NO_PAIRING, VGEN_THROUGHPUT);  /* all flags: a stream */
    plan("inc", "r", X86_P5_UV, VGEN_THROUGHPUT);          /* the P5's pairs */
}

static void test_texts(void **state)
{
    (void)state;
    char text[64];
    vprint_published(text, sizeof text, 1, 1);
    assert_string_equal(text, "0.5");
    vprint_published(text, sizeof text, 6, 6);
    assert_string_equal(text, "3");
    vprint_published(text, sizeof text, 132, 160);
    assert_string_equal(text, "66-80");
    vprint_published(text, sizeof text, 3, 4);
    assert_string_equal(text, "1.5-2");
    vprint_simulated(text, sizeof text, (struct vprint_result){1, 3});
    assert_string_equal(text, "0.33");
    vprint_simulated(text, sizeof text, (struct vprint_result){2, 3});
    assert_string_equal(text, "0.67");
    vprint_simulated(text, sizeof text, (struct vprint_result){1, 8});
    assert_string_equal(text, "0.13"); /* 0.125: half away from zero */
    vprint_simulated(text, sizeof text, (struct vprint_result){-3, 2});
    assert_string_equal(text, "-1.50");
    vprint_simulated(text, sizeof text, (struct vprint_result){-1, 1000});
    assert_string_equal(text, "0.00");
    vprint_simulated(text, sizeof text, (struct vprint_result){5, 0});
    assert_string_equal(text, "-");
}

static void test_summary(void **state)
{
    (void)state;
    assert_true(vprint_passes(9, 10));
    assert_false(vprint_passes(8, 10));
    assert_true(vprint_passes(288, 320));
    assert_false(vprint_passes(287, 320));
    assert_false(vprint_passes(0, 0));
    char text[200];
    vprint_summary(text, sizeof text, "p5", 312, 340, 25, 0);
    assert_string_equal(text, "p5: 312 of 340 rows within 10% (91.8%), 25 not measured");
    vprint_summary(text, sizeof text, "prescott", 263, 313, 0, 35);
    assert_string_equal(text, "prescott: 263 of 313 rows within 10% (84.0%), 0 not measured, "
                              "35 without a published figure");
    vprint_summary(text, sizeof text, "p5", 0, 0, 3, 0);
    assert_string_equal(text, "p5: 0 of 0 rows within 10% (0.0%), 3 not measured");
}

/* ---- cycles and census from a trace */

static const char add_eax_ebx[] = "\x01\xd8", nop[] = "\x90";

/* Region 1: three ADD EAX, EBX and a NOP; then region 2: one ADD. */
static void write_regions(struct tb *t)
{
    tb_open_header(t, (struct trace_header){.isa = TRACE_ISA_32, .lengths_known = true});
    uint64_t at = 0x8049000;
    tb_plain(t, at, nop, 1);
    assert_true(trace_write_region(t->writer, true, 1));
    for (int i = 0; i < 3; i++)
        tb_plain(t, at + 1 + 2 * (uint64_t)i, add_eax_ebx, 2);
    tb_plain(t, at + 7, nop, 1);
    assert_true(trace_write_region(t->writer, false, 1));
    assert_true(trace_write_region(t->writer, true, 2));
    tb_plain(t, at + 1, add_eax_ebx, 2);
    assert_true(trace_write_region(t->writer, false, 2));
    tb_close(t);
}

static const int the_add_row = 1;

static const void *row_of_add(const char *family, const char *form)
{
    return strcmp(family, "add") == 0 && strcmp(form, "r32,r32") == 0 ? &the_add_row : NULL;
}

static void test_census(void **state)
{
    (void)state;
    struct tb t;
    write_regions(&t);
    const void *rows[3] = {NULL, &the_add_row, &the_add_row};
    const char *families[3] = {NULL, "add", "add"};
    struct vsim_census census[3];
    char error[256];
    assert_true(vsim_census(t.path, row_of_add, rows, families, census, 2, error, sizeof error));
    assert_int_equal(census[1].matches, 3);
    assert_string_equal(census[1].key, "add r32,r32");
    assert_int_equal(census[2].matches, 1);
    unlink(t.path);
}

/* A region's cycles are the PMU's cycles at its end less those at its
 * begin: a region around the whole trace takes the run's cycles, on the
 * P5 and on the NetBurst; an unknown preset is an error. */
static void test_region_cycles(void **state)
{
    (void)state;
    struct tb t;
    tb_open_header(&t, (struct trace_header){.isa = TRACE_ISA_32, .lengths_known = true});
    assert_true(trace_write_region(t.writer, true, 1));
    for (int i = 0; i < 6; i++)
        tb_plain(&t, 0x8049000 + 2 * (uint64_t)i, add_eax_ebx, 2);
    assert_true(trace_write_region(t.writer, false, 1));
    tb_close(&t);
    uint64_t cycles[2];
    char error[256];
    assert_true(vsim_run(t.path, VSIM_P5, "p5", cycles, 1, error, sizeof error));
    struct p5_config config;
    assert_true(p5_config_preset("p5", &config, error, sizeof error));
    struct msr_backend *backend = p5_backend_create();
    struct p5_sim_result result;
    assert_true(p5_simulate_trace(t.path, &config, backend, NULL, &result, error, sizeof error));
    msr_backend_destroy(backend);
    assert_int_equal(cycles[1], result.cycles);
    assert_true(vsim_run(t.path, VSIM_NETBURST, "northwood", cycles, 1, error, sizeof error));
    struct nbm_config nb;
    assert_true(nbm_config_preset("northwood", &nb, error, sizeof error));
    backend = nb_backend_create((struct nb_pmu_config){nb.model, false});
    struct nbm_result nb_result;
    const char *path = t.path;
    assert_true(nbm_simulate(&path, 1, &nb, backend, NULL, &nb_result, error, sizeof error));
    msr_backend_destroy(backend);
    assert_int_equal(cycles[1], nb_result.cycles); /* the end marker drained the pipeline */
    assert_false(vsim_run(t.path, VSIM_NETBURST, "pentium9", cycles, 1, error, sizeof error));
    unlink(t.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_alternates),
        cmocka_unit_test(test_stream_rotates),
        cmocka_unit_test(test_shift_by_cl),
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_fx_pairs),
        cmocka_unit_test(test_x87),
        cmocka_unit_test(test_based_memory),
        cmocka_unit_test(test_sal_bytes),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_lea),
        cmocka_unit_test(test_control_and_stack),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_applies),
        cmocka_unit_test(test_program),
        cmocka_unit_test(test_difference),
        cmocka_unit_test(test_within),
        cmocka_unit_test(test_within_sixths),
        cmocka_unit_test(test_flags_chain_refused),
        cmocka_unit_test(test_texts),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_census),
        cmocka_unit_test(test_region_cycles),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    x86_decode_release();
    return failed;
}
