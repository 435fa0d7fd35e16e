/* The timing tables' key and the register sets of the decoder (isa/x86.h,
 * docs/isa.md "Forms" and "x87 stack"): exact families, forms, x87 stack
 * effects (SDM vol. 2, appendix A.2.7 and each instruction's Operation),
 * MMX and XMM registers, for hand-picked instructions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "isa/x86.h"

#define BYTES(...) ((const uint8_t[]){__VA_ARGS__}), sizeof((const uint8_t[]){__VA_ARGS__})

static struct x86_insn decode32(const uint8_t *b, size_t n)
{
    struct x86_insn in;
    assert_true(x86_decode(b, n, 0x1000, X86_MODE_32, &in));
    return in;
}

static void expect_key(struct x86_insn in, const char *family, const char *form)
{
    assert_string_equal(in.family, family);
    assert_string_equal(in.form, form);
}

static void test_integer_forms(void **state)
{
    (void)state;
    expect_key(decode32(BYTES(0x01, 0xd8)), "add", "r32,r32");          /* add eax, ebx */
    expect_key(decode32(BYTES(0x03, 0x46, 0x04)), "add", "r32,m32");    /* add eax, [esi+4] */
    expect_key(decode32(BYTES(0x01, 0x18)), "add", "m32,r32");          /* add [eax], ebx */
    expect_key(decode32(BYTES(0x83, 0xc0, 0x05)), "add", "r32,i");      /* add eax, 5 */
    expect_key(decode32(BYTES(0x66, 0x01, 0xd8)), "add", "r16,r16");    /* add ax, bx */
    expect_key(decode32(BYTES(0x00, 0xd8)), "add", "r8,r8");            /* add al, bl */
    expect_key(decode32(BYTES(0xd3, 0xe0)), "shl", "r32,cl");           /* shl eax, cl */
    /* a CL source is "cl" whatever the instruction; the tables' look-up
     * falls back to "r" (sim/common/timing_key.h) */
    expect_key(decode32(BYTES(0x88, 0xc8)), "mov", "r8,cl");            /* mov al, cl */
    expect_key(decode32(BYTES(0x88, 0xc1)), "mov", "r8,r8");            /* mov cl, al */
    expect_key(decode32(BYTES(0xd1, 0xe0)), "shl", "r32,1");            /* shl eax, 1 */
    expect_key(decode32(BYTES(0xd0, 0x10)), "rcl", "m8,1");             /* rcl byte [eax], 1 */
    expect_key(decode32(BYTES(0xc1, 0xe0, 0x01)), "shl", "r32,i");      /* shl eax, 1 by C1 */
    expect_key(decode32(BYTES(0x8d, 0x43, 0x04)), "lea", "r32,a");      /* lea eax, [ebx+4] */
    expect_key(decode32(BYTES(0x8d, 0x04, 0x0b)), "lea", "r32,a");      /* lea eax, [ebx+ecx] */
    expect_key(decode32(BYTES(0x8d, 0x44, 0x0b, 0x04)), "lea", "r32,a3"); /* [ebx+ecx+4] */
    expect_key(decode32(BYTES(0x8d, 0x04, 0x8b)), "lea", "r32,as");     /* [ebx+ecx*4] */
    expect_key(decode32(BYTES(0x8d, 0x44, 0x8b, 0x04)), "lea", "r32,as3"); /* [ebx+ecx*4+4] */
    expect_key(decode32(BYTES(0x8d, 0x04, 0x8d, 0, 0, 0, 0)), "lea", "r32,as"); /* [ecx*4+0] */
    expect_key(decode32(BYTES(0x90)), "nop", "");
    expect_key(decode32(BYTES(0xf3, 0xab)), "stosd", "m32,r32");        /* rep stosd */
    expect_key(decode32(BYTES(0xf0, 0x01, 0x18)), "add", "m32,r32");    /* lock add */
}

/* capstone 4 reads 66 F3 A5 (GNU as's `rep movsw`) as REP MOVSD; the
 * decoder hands it the prefixes in the other order. */
static void test_string_operand_size(void **state)
{
    (void)state;
    struct x86_insn in = decode32(BYTES(0x66, 0xf3, 0xa5));
    expect_key(in, "movsw", "m16,m16");
    assert_int_equal(in.length, 3);
    assert_int_equal(in.operand_size, 2);
    assert_int_equal(in.mem[0].size, 2);
    assert_true(in.rep);
    assert_int_equal(in.bytes[0], 0x66); /* its own bytes */
    expect_key(decode32(BYTES(0xf3, 0x66, 0xa5)), "movsw", "m16,m16");
    expect_key(decode32(BYTES(0x66, 0xf3, 0xab)), "stosw", "m16,r16");
    expect_key(decode32(BYTES(0x66, 0xf3, 0xa7)), "cmpsw", "m16,m16");
    expect_key(decode32(BYTES(0x66, 0xf2, 0xaf)), "scasw", "r16,m16");
    expect_key(decode32(BYTES(0xf3, 0xa5)), "movsd", "m32,m32");
    struct x86_insn q;
    assert_true(x86_decode(BYTES(0x66, 0xf3, 0x48, 0xa5), 0x1000, X86_MODE_64, &q)); /* REX.W wins */
    assert_string_equal(q.family, "movsq");
    assert_int_equal(q.length, 4);
}

static void test_condition_families(void **state)
{
    (void)state;
    expect_key(decode32(BYTES(0x74, 0x05)), "jcc", "rel");               /* je */
    expect_key(decode32(BYTES(0x0f, 0x8f, 0, 0, 0, 0)), "jcc", "rel");   /* jg rel32 */
    expect_key(decode32(BYTES(0xeb, 0x05)), "jmp", "rel");
    expect_key(decode32(BYTES(0xe3, 0x05)), "jecxz", "rel");             /* not a cc */
    expect_key(decode32(BYTES(0x0f, 0x44, 0xc1)), "cmovcc", "r32,r32");  /* cmove */
    expect_key(decode32(BYTES(0x0f, 0x94, 0xc0)), "setcc", "r8");        /* sete al */
    expect_key(decode32(BYTES(0xda, 0xc1)), "fcmovcc", "st,st");         /* fcmovb */
    expect_key(decode32(BYTES(0xdb, 0xd9)), "fcmovcc", "st,st");         /* fcmovnu */
    expect_key(decode32(BYTES(0x0f, 0x9a, 0xc0)), "setcc", "r8");        /* setp al */
    char family[16];
    x86_family_of("rep movsb", family, sizeof family);
    assert_string_equal(family, "movsb");
    x86_family_of("jnp", family, sizeof family);
    assert_string_equal(family, "jcc");
    x86_family_of("seta", family, sizeof family);
    assert_string_equal(family, "setcc");
    x86_family_of("set", family, sizeof family); /* no condition: itself */
    assert_string_equal(family, "set");
    x86_family_of("cmpltps", family, sizeof family); /* the predicate left out */
    assert_string_equal(family, "cmpps");
    x86_family_of("cmpunordsd", family, sizeof family);
    assert_string_equal(family, "cmpsd");
    x86_family_of("vcmpneq_uqpd", family, sizeof family);
    assert_string_equal(family, "vcmppd");
    x86_family_of("cmpsd", family, sizeof family); /* the string compare */
    assert_string_equal(family, "cmpsd");
    x86_family_of("cmpsb", family, sizeof family);
    assert_string_equal(family, "cmpsb");
    x86_family_of("cmpxchg", family, sizeof family);
    assert_string_equal(family, "cmpxchg");
    x86_family_of("jmp", family, sizeof family);
    assert_string_equal(family, "jmp");
}

static void expect_stack(struct x86_insn in, uint8_t read, uint8_t written, uint8_t pops,
                         uint8_t pushes)
{
    assert_int_equal(in.st_read, read);
    assert_int_equal(in.st_written, written);
    assert_int_equal(in.st_pops, pops);
    assert_int_equal(in.st_pushes, pushes);
}

static void test_x87_stack(void **state)
{
    (void)state;
    expect_stack(decode32(BYTES(0xd8, 0xc1)), 0x03, 0x01, 0, 0);       /* fadd st0, st1 */
    expect_stack(decode32(BYTES(0xdc, 0xc2)), 0x05, 0x04, 0, 0);       /* fadd st2, st0 */
    expect_stack(decode32(BYTES(0xde, 0xc1)), 0x03, 0x02, 1, 0);       /* faddp st1 */
    expect_stack(decode32(BYTES(0xd8, 0x06)), 0x01, 0x01, 0, 0);       /* fadd dword [esi] */
    expect_stack(decode32(BYTES(0xd8, 0x1e)), 0x01, 0x00, 1, 0);       /* fcomp dword [esi] */
    expect_stack(decode32(BYTES(0xd8, 0xd1)), 0x03, 0x00, 0, 0);       /* fcom st1 */
    expect_stack(decode32(BYTES(0xd9, 0xc1)), 0x02, 0x00, 0, 1);       /* fld st1 */
    expect_stack(decode32(BYTES(0xd9, 0x06)), 0x00, 0x00, 0, 1);       /* fld dword [esi] */
    expect_stack(decode32(BYTES(0xdd, 0x1e)), 0x01, 0x00, 1, 0);       /* fstp qword [esi] */
    expect_stack(decode32(BYTES(0xdd, 0x16)), 0x01, 0x00, 0, 0);       /* fst qword [esi] */
    expect_stack(decode32(BYTES(0xdd, 0xd9)), 0x01, 0x02, 1, 0);       /* fstp st1 */
    expect_stack(decode32(BYTES(0xd9, 0xca)), 0x05, 0x05, 0, 0);       /* fxch st2 */
    expect_stack(decode32(BYTES(0xde, 0xd9)), 0x03, 0x00, 2, 0);       /* fcompp */
    expect_stack(decode32(BYTES(0xda, 0xe9)), 0x03, 0x00, 2, 0);       /* fucompp */
    expect_stack(decode32(BYTES(0xd9, 0xe8)), 0x00, 0x00, 0, 1);       /* fld1 */
    expect_stack(decode32(BYTES(0xd9, 0xfa)), 0x01, 0x01, 0, 0);       /* fsqrt */
    expect_stack(decode32(BYTES(0xd9, 0xf3)), 0x03, 0x02, 1, 0);       /* fpatan */
    expect_stack(decode32(BYTES(0xd9, 0xf2)), 0x01, 0x01, 0, 1);       /* fptan */
    expect_stack(decode32(BYTES(0xd9, 0xfd)), 0x03, 0x01, 0, 0);       /* fscale */
    expect_stack(decode32(BYTES(0xd9, 0xf7)), 0x00, 0x00, 1, 0);       /* fincstp */
    expect_stack(decode32(BYTES(0xd9, 0xf6)), 0x00, 0x00, 0, 1);       /* fdecstp */
    expect_stack(decode32(BYTES(0xd9, 0xe5)), 0x01, 0x00, 0, 0);       /* fxam */
    expect_stack(decode32(BYTES(0xd9, 0xd0)), 0x00, 0x00, 0, 0);       /* fnop */
    expect_stack(decode32(BYTES(0xd9, 0x3e)), 0x00, 0x00, 0, 0);       /* fnstcw [esi] */
    expect_stack(decode32(BYTES(0xdb, 0x06)), 0x00, 0x00, 0, 1);       /* fild dword [esi] */
    expect_stack(decode32(BYTES(0xdb, 0x1e)), 0x01, 0x00, 1, 0);       /* fistp dword [esi] */
    expect_stack(decode32(BYTES(0xdb, 0x3e)), 0x01, 0x00, 1, 0);       /* fstp tbyte [esi] */
    expect_stack(decode32(BYTES(0xdb, 0x2e)), 0x00, 0x00, 0, 1);       /* fld tbyte [esi] */
    expect_stack(decode32(BYTES(0xdb, 0xc1)), 0x03, 0x01, 0, 0);       /* fcmovnb */
    expect_stack(decode32(BYTES(0xdb, 0xf1)), 0x03, 0x00, 0, 0);       /* fcomi st1 */
    expect_stack(decode32(BYTES(0xdf, 0xe9)), 0x03, 0x00, 1, 0);       /* fucomip st1 */
    expect_stack(decode32(BYTES(0xdf, 0x2e)), 0x00, 0x00, 0, 1);       /* fild qword [esi] */
    expect_stack(decode32(BYTES(0xdf, 0x3e)), 0x01, 0x00, 1, 0);       /* fistp qword [esi] */
    expect_stack(decode32(BYTES(0xdf, 0x26)), 0x00, 0x00, 0, 1);       /* fbld */
    expect_stack(decode32(BYTES(0xdd, 0xe1)), 0x03, 0x00, 0, 0);       /* fucom st1 */
    expect_stack(decode32(BYTES(0xdd, 0xe9)), 0x03, 0x00, 1, 0);       /* fucomp st1 */
    expect_stack(decode32(BYTES(0xdd, 0xc3)), 0x00, 0x08, 0, 0);       /* ffree st3 */
    expect_stack(decode32(BYTES(0xda, 0x06)), 0x01, 0x01, 0, 0);       /* fiadd dword [esi] */
    expect_stack(decode32(BYTES(0xdf, 0xe0)), 0x00, 0x00, 0, 0);       /* fnstsw ax */
    expect_stack(decode32(BYTES(0x01, 0xd8)), 0x00, 0x00, 0, 0);       /* add: none */
}

static void test_vector_registers(void **state)
{
    (void)state;
    struct x86_insn in = decode32(BYTES(0xf2, 0x0f, 0x58, 0xca)); /* addsd xmm1, xmm2 */
    expect_key(in, "addsd", "xmm,xmm");
    assert_int_equal(in.xmm_read, 0x06);
    assert_int_equal(in.xmm_written, 0x02);
    assert_int_equal(in.mm_read | in.mm_written, 0);
    in = decode32(BYTES(0x0f, 0xfe, 0xd3)); /* paddd mm2, mm3 */
    expect_key(in, "paddd", "mm,mm");
    assert_int_equal(in.mm_read, 0x0c);
    assert_int_equal(in.mm_written, 0x04);
    in = decode32(BYTES(0x66, 0x0f, 0x7e, 0xc8)); /* movd eax, xmm1 */
    expect_key(in, "movd", "r32,xmm");
    assert_int_equal(in.xmm_read, 0x02);
    assert_int_equal(in.xmm_written, 0);
    assert_int_equal(in.regs_written, X86_REG_BIT(X86_GPR_AX));
    in = decode32(BYTES(0xf2, 0x0f, 0x59, 0x06)); /* mulsd xmm0, [esi] */
    expect_key(in, "mulsd", "xmm,m64");
    assert_int_equal(in.xmm_read, 0x01);
    in = decode32(BYTES(0xc5, 0xf4, 0x58, 0xc2)); /* vaddps ymm0, ymm1, ymm2 */
    expect_key(in, "vaddps", "ymm,ymm,ymm");
    assert_int_equal(in.xmm_read, 0x06);
    assert_int_equal(in.xmm_written, 0x01);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integer_forms),
        cmocka_unit_test(test_string_operand_size),
        cmocka_unit_test(test_condition_families),
        cmocka_unit_test(test_x87_stack),
        cmocka_unit_test(test_vector_registers),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    x86_decode_release();
    return failed;
}
