/* The x86 decoder (isa/x86.h, docs/isa.md): exact decodes of hand-picked
 * instructions in 32- and 64-bit mode.  Lengths, operands and branch kinds
 * follow the SDM vol. 2 encodings; pairing classes the Pentium rules
 * (isa/p5_pairing.c); uop counts the model of isa/netburst_uops.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "isa/x86.h"

#define BYTES(...) ((const uint8_t[]){__VA_ARGS__}), sizeof((const uint8_t[]){__VA_ARGS__})

static struct x86_insn decode32(const uint8_t *b, size_t n)
{
    struct x86_insn in;
    assert_true(x86_decode(b, n, 0x1000, X86_MODE_32, &in));
    return in;
}

static struct x86_insn decode64(const uint8_t *b, size_t n)
{
    struct x86_insn in;
    assert_true(x86_decode(b, n, 0x401000, X86_MODE_64, &in));
    return in;
}

static void test_mov_reg_reg(void **state)
{
    (void)state;
    struct x86_insn in = decode32(BYTES(0x89, 0xd8)); /* mov eax, ebx */
    assert_int_equal(in.length, 2);
    assert_int_equal(in.branch, X86_BRANCH_NONE);
    assert_int_equal(in.n_mem, 0);
    assert_int_equal(in.operand_size, 4);
    assert_int_equal(in.regs_read, X86_REG_BIT(X86_GPR_BX));
    assert_int_equal(in.regs_written, X86_REG_BIT(X86_GPR_AX));
    assert_int_equal(in.p5_class, X86_P5_UV);
    assert_int_equal(in.netburst_uops, 1);
    assert_false(in.netburst_msrom);
}

static void test_load_stack(void **state)
{
    (void)state;
    struct x86_insn in = decode32(BYTES(0x8b, 0x44, 0x24, 0x08)); /* mov eax, [esp+8] */
    assert_int_equal(in.length, 4);
    assert_int_equal(in.n_mem, 1);
    assert_int_equal(in.mem[0].base, X86_GPR_SP);
    assert_int_equal(in.mem[0].index, X86_GPR_NONE);
    assert_int_equal(in.mem[0].scale, 1);
    assert_int_equal(in.mem[0].disp, 8);
    assert_int_equal(in.mem[0].segment, X86_SEG_SS);
    assert_int_equal(in.mem[0].access, X86_ACCESS_READ);
    assert_int_equal(in.mem[0].size, 4);
    assert_int_equal(in.p5_class, X86_P5_UV);
    assert_int_equal(in.netburst_uops, 1);
}

static void test_read_modify_write(void **state)
{
    (void)state;
    struct x86_insn in = decode32(BYTES(0x01, 0x18)); /* add [eax], ebx */
    assert_int_equal(in.length, 2);
    assert_int_equal(in.mem[0].access, X86_ACCESS_READ_WRITE);
    assert_int_equal(in.mem[0].base, X86_GPR_AX);
    assert_true(in.regs_written & X86_REG_FLAGS);
    assert_int_equal(in.flags_written & (X86_FLAG_CF | X86_FLAG_ZF), X86_FLAG_CF | X86_FLAG_ZF);
    assert_int_equal(in.p5_class, X86_P5_UV);
    assert_int_equal(in.netburst_uops, 4); /* load, add, store address, store data */
}

static void test_disp_and_imm(void **state)
{
    (void)state;
    /* mov dword [esp+4], 1: displacement and immediate, not pairable */
    struct x86_insn in = decode32(BYTES(0xc7, 0x44, 0x24, 0x04, 0x01, 0x00, 0x00, 0x00));
    assert_int_equal(in.length, 8);
    assert_true(in.has_disp && in.has_imm);
    assert_int_equal(in.mem[0].access, X86_ACCESS_WRITE);
    assert_int_equal(in.p5_class, X86_P5_NP);
    assert_int_equal(in.netburst_uops, 2);
}

static void test_branches32(void **state)
{
    (void)state;
    struct x86_insn in = decode32(BYTES(0x74, 0x05)); /* je +5 */
    assert_int_equal(in.branch, X86_BRANCH_COND);
    assert_true(in.has_target);
    assert_int_equal(in.target, 0x1007);
    assert_int_equal(in.p5_class, X86_P5_PV);
    assert_true(in.regs_read & X86_REG_FLAGS);
    in = decode32(BYTES(0x0f, 0x84, 0x00, 0x01, 0x00, 0x00)); /* je near */
    assert_int_equal(in.length, 6);
    assert_int_equal(in.target, 0x1106);
    assert_int_equal(in.p5_class, X86_P5_PV);
    in = decode32(BYTES(0xe8, 0xfb, 0xff, 0xff, 0xff)); /* call -5: itself */
    assert_int_equal(in.branch, X86_BRANCH_CALL);
    assert_int_equal(in.target, 0x1000);
    assert_true(in.stack);
    assert_int_equal(in.netburst_uops, 3);
    in = decode32(BYTES(0xff, 0xd0)); /* call eax */
    assert_int_equal(in.branch, X86_BRANCH_INDIRECT_CALL);
    assert_int_equal(in.p5_class, X86_P5_NP);
    in = decode32(BYTES(0xff, 0x24, 0x85, 0x00, 0x10, 0x00, 0x00)); /* jmp [eax*4+0x1000] */
    assert_int_equal(in.length, 7);
    assert_int_equal(in.branch, X86_BRANCH_INDIRECT_JUMP);
    assert_int_equal(in.mem[0].base, X86_GPR_NONE);
    assert_int_equal(in.mem[0].index, X86_GPR_AX);
    assert_int_equal(in.mem[0].scale, 4);
    assert_int_equal(in.mem[0].disp, 0x1000);
    in = decode32(BYTES(0xc3)); /* ret */
    assert_int_equal(in.branch, X86_BRANCH_RETURN);
    assert_int_equal(in.p5_class, X86_P5_NP);
    in = decode32(BYTES(0xcd, 0x80)); /* int 0x80 */
    assert_int_equal(in.branch, X86_BRANCH_SOFT_INT);
    in = decode32(BYTES(0x0f, 0x34)); /* sysenter */
    assert_int_equal(in.branch, X86_BRANCH_SOFT_INT);
    in = decode32(BYTES(0xea, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00)); /* jmp 8:0 */
    assert_int_equal(in.length, 7);
    assert_int_equal(in.branch, X86_BRANCH_FAR);
    in = decode32(BYTES(0xe2, 0xfe)); /* loop $ */
    assert_int_equal(in.branch, X86_BRANCH_COND);
    assert_true(in.netburst_msrom);
}

static void test_string_and_serializing(void **state)
{
    (void)state;
    struct x86_insn in = decode32(BYTES(0xf3, 0xa4)); /* rep movsb */
    assert_int_equal(in.length, 2);
    assert_true(in.string && in.rep);
    assert_true(in.prefixes & X86_PFX_REP);
    assert_int_equal(in.n_mem, 2);
    assert_int_equal(in.mem[0].segment, X86_SEG_ES);
    assert_int_equal(in.mem[0].access, X86_ACCESS_WRITE);
    assert_int_equal(in.mem[1].access, X86_ACCESS_READ);
    assert_int_equal(in.mem[0].size, 1);
    assert_true(in.netburst_msrom);
    assert_int_equal(in.netburst_uops, X86_NB_MSROM_UOPS);
    assert_int_equal(in.p5_class, X86_P5_NP);
    in = decode32(BYTES(0x0f, 0xa2)); /* cpuid */
    assert_true(in.serializing);
    assert_true(in.netburst_msrom);
    in = decode32(BYTES(0x0f, 0xae, 0xe8)); /* lfence: ordering, not serializing */
    assert_false(in.serializing);
}

static void test_pairing_classes(void **state)
{
    (void)state;
    assert_int_equal(decode32(BYTES(0x66, 0x89, 0xd8)).p5_class, X86_P5_PU); /* mov ax,bx */
    assert_int_equal(decode32(BYTES(0x66, 0x89, 0xd8)).operand_size, 2);
    assert_int_equal(decode32(BYTES(0x11, 0xd8)).p5_class, X86_P5_PU);       /* adc */
    assert_int_equal(decode32(BYTES(0xc1, 0xe0, 0x02)).p5_class, X86_P5_PU); /* shl eax,2 */
    assert_int_equal(decode32(BYTES(0xd1, 0xd0)).p5_class, X86_P5_PU);       /* rcl eax,1 */
    assert_int_equal(decode32(BYTES(0xd3, 0xe0)).p5_class, X86_P5_NP);       /* shl eax,cl */
    assert_int_equal(decode32(BYTES(0xc1, 0xc0, 0x02)).p5_class, X86_P5_PU); /* rol eax,2 */
    assert_int_equal(decode32(BYTES(0xc1, 0xd0, 0x02)).p5_class, X86_P5_NP); /* rcl eax,2 */
    assert_int_equal(decode32(BYTES(0x85, 0xc0)).p5_class, X86_P5_UV);       /* test */
    assert_int_equal(decode32(BYTES(0xa9, 1, 0, 0, 0)).p5_class, X86_P5_UV); /* test eax,1 */
    assert_int_equal(decode32(BYTES(0xf7, 0xc1, 1, 0, 0, 0)).p5_class, X86_P5_NP);
    assert_int_equal(decode32(BYTES(0x50)).p5_class, X86_P5_UV);             /* push eax */
    assert_int_equal(decode32(BYTES(0xff, 0x33)).p5_class, X86_P5_NP);       /* push [ebx] */
    assert_int_equal(decode32(BYTES(0x0f, 0xb6, 0xc0)).p5_class, X86_P5_NP); /* movzx */
    assert_int_equal(decode32(BYTES(0xd9, 0xc9)).p5_class, X86_P5_PV);       /* fxch */
    assert_int_equal(decode32(BYTES(0xd9, 0xe4)).p5_class, X86_P5_NP);       /* ftst */
    assert_int_equal(decode32(BYTES(0xd9, 0xe1)).p5_class, X86_P5_FX);       /* fabs */
    struct x86_insn in = decode32(BYTES(0xd8, 0xc1)); /* fadd st, st(1) */
    assert_int_equal(in.p5_class, X86_P5_FX);
    assert_int_equal(in.fp, X86_FP_X87);
    assert_int_equal(decode32(BYTES(0xd9, 0xfe)).p5_class, X86_P5_NP); /* fsin */
    in = decode32(BYTES(0x8d, 0x44, 0x58, 0x10)); /* lea eax, [eax+ebx*2+0x10] */
    assert_int_equal(in.p5_class, X86_P5_UV);
    assert_int_equal(in.mem[0].access, X86_ACCESS_NONE);
    assert_int_equal(in.mem[0].index, X86_GPR_BX);
    assert_int_equal(in.mem[0].scale, 2);
    in = decode32(BYTES(0xf0, 0x01, 0x18)); /* lock add [eax], ebx */
    assert_true(in.prefixes & X86_PFX_LOCK);
    assert_true(in.netburst_msrom);
    assert_int_equal(in.p5_class, X86_P5_PU);
}

static void test_segment_override(void **state)
{
    (void)state;
    struct x86_insn in = decode32(BYTES(0x64, 0x8b, 0x03)); /* mov eax, fs:[ebx] */
    assert_int_equal(in.length, 3);
    assert_true(in.prefixes & X86_PFX_SEGMENT);
    assert_int_equal(in.segment, X86_SEG_FS);
    assert_int_equal(in.mem[0].segment, X86_SEG_FS);
    assert_int_equal(in.p5_class, X86_P5_PU);
}

static void test_64bit(void **state)
{
    (void)state;
    struct x86_insn in = decode64(BYTES(0x48, 0x89, 0xe5)); /* mov rbp, rsp */
    assert_int_equal(in.length, 3);
    assert_true(in.prefixes & X86_PFX_REX_W);
    assert_int_equal(in.operand_size, 8);
    assert_int_equal(in.regs_read, X86_REG_BIT(X86_GPR_SP));
    assert_int_equal(in.regs_written, X86_REG_BIT(X86_GPR_BP));
    assert_int_equal(in.p5_class, X86_P5_UV);
    in = decode64(BYTES(0x48, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00)); /* mov rax, [rip+0x10] */
    assert_int_equal(in.mem[0].base, X86_GPR_IP);
    assert_int_equal(in.mem[0].disp, 0x10);
    assert_int_equal(in.mem[0].size, 8);
    in = decode64(BYTES(0xff, 0x25, 0x00, 0x00, 0x00, 0x00)); /* jmp [rip] */
    assert_int_equal(in.branch, X86_BRANCH_INDIRECT_JUMP);
    in = decode64(BYTES(0x0f, 0x05)); /* syscall */
    assert_int_equal(in.branch, X86_BRANCH_SOFT_INT);
    in = decode64(BYTES(0xf3, 0x0f, 0x1e, 0xfa)); /* endbr64 */
    assert_int_equal(in.length, 4);
    assert_int_equal(in.branch, X86_BRANCH_NONE);
    in = decode64(BYTES(0x41, 0xff, 0xd3)); /* call r11 */
    assert_int_equal(in.branch, X86_BRANCH_INDIRECT_CALL);
    assert_true(in.regs_read & X86_REG_BIT(X86_GPR_R11));
    assert_int_equal(in.operand_size, 8);
    in = decode64(BYTES(0xc5, 0xf8, 0x77)); /* vzeroupper */
    assert_int_equal(in.length, 3);
    assert_true(in.prefixes & X86_PFX_VEX);
    assert_int_equal(in.fp, X86_FP_AVX);
    in = decode64(BYTES(0xe9, 0x00, 0x01, 0x00, 0x00)); /* jmp +0x100 */
    assert_int_equal(in.branch, X86_BRANCH_JUMP);
    assert_int_equal(in.target, 0x401105);
    in = decode64(BYTES(0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00)); /* nopw [rax+rax] */
    assert_int_equal(in.length, 6);
    assert_int_equal(in.mem[0].access, X86_ACCESS_NONE);
    in = decode64(BYTES(0x48, 0xcf)); /* iretq */
    assert_int_equal(in.branch, X86_BRANCH_FAR);
    assert_true(in.serializing);
}

static void test_invalid_and_truncated(void **state)
{
    (void)state;
    struct x86_insn in;
    assert_false(x86_decode(BYTES(0xe8, 0x00, 0x00), 0, X86_MODE_32, &in));
    assert_false(x86_decode(BYTES(0x06), 0, X86_MODE_64, &in)); /* push es: i64 */
    assert_true(x86_decode(BYTES(0x06), 0, X86_MODE_32, &in));
    assert_false(x86_decode(BYTES(0x90), 0, (enum x86_mode)16, &in));
    assert_string_equal(x86_branch_name(X86_BRANCH_SOFT_INT), "soft-int");
    assert_string_equal(x86_p5_class_name(X86_P5_PV), "PV");
}

static void test_cache_sees_new_bytes(void **state)
{
    (void)state;
    struct x86_insn in;
    assert_true(x86_decode(BYTES(0x90), 0x5000, X86_MODE_64, &in));
    assert_int_equal(in.length, 1);
    /* the same address, other bytes: decoded afresh */
    assert_true(x86_decode(BYTES(0x48, 0x89, 0xe5), 0x5000, X86_MODE_64, &in));
    assert_int_equal(in.length, 3);
    /* the same bytes but too few of them */
    assert_false(x86_decode(BYTES(0x48, 0x89), 0x5000, X86_MODE_64, &in));
}

static void test_explicit_decoder(void **state)
{
    (void)state;
    struct x86_decoder *d = x86_decoder_create(X86_MODE_32);
    assert_non_null(d);
    struct x86_insn in;
    assert_true(x86_decoder_decode(d, BYTES(0x40), 0x10, &in)); /* inc eax, not REX */
    assert_int_equal(in.length, 1);
    assert_int_equal(in.p5_class, X86_P5_UV);
    x86_decoder_destroy(d);
    assert_null(x86_decoder_create((enum x86_mode)16));
}

/* An instruction's text is read as the decoder reads it: 66 F3 A5 (GNU
 * as's `rep movsw`, which capstone 4 alone reads as REP MOVSD) is REP
 * MOVSW; bytes that are no instruction have none. */
static void test_text(void **state)
{
    (void)state;
    struct x86_decoder *d = x86_decoder_create(X86_MODE_32);
    assert_non_null(d);
    char text[X86_TEXT_SIZE];
    assert_true(x86_decoder_text(d, BYTES(0x03, 0x43, 0x04), 0x1000, text, sizeof text));
    assert_string_equal(text, "add eax, dword ptr [ebx + 4]");
    assert_true(x86_decoder_text(d, BYTES(0x66, 0xf3, 0xa5), 0x1000, text, sizeof text));
    assert_string_equal(text, "rep movsw word ptr es:[edi], word ptr [esi]");
    assert_true(x86_decoder_text(d, BYTES(0x90), 0x1000, text, sizeof text));
    assert_string_equal(text, "nop");
    assert_false(x86_decoder_text(d, BYTES(0x03), 0x1000, text, sizeof text)); /* no ModRM */
    assert_string_equal(text, "nop");
    x86_decoder_destroy(d);
}

static int teardown(void **state)
{
    (void)state;
    x86_decode_release();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mov_reg_reg),
        cmocka_unit_test(test_load_stack),
        cmocka_unit_test(test_read_modify_write),
        cmocka_unit_test(test_disp_and_imm),
        cmocka_unit_test(test_branches32),
        cmocka_unit_test(test_string_and_serializing),
        cmocka_unit_test(test_pairing_classes),
        cmocka_unit_test(test_segment_override),
        cmocka_unit_test(test_64bit),
        cmocka_unit_test(test_invalid_and_truncated),
        cmocka_unit_test(test_cache_sees_new_bytes),
        cmocka_unit_test(test_explicit_decoder),
        cmocka_unit_test(test_text),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
