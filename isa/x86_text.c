/* Instruction text through capstone (isa/x86_text.h). */
#include "isa/x86_text.h"

#include <stdio.h>
#include <stdlib.h>

#include "isa/x86_capstone.h"

struct x86_text {
    csh handle[2];   /* 32-bit, 64-bit code */
    bool opened[2];
    cs_insn *insn[2];
};

struct x86_text *x86_text_create(void)
{
    return calloc(1, sizeof(struct x86_text));
}

void x86_text_destroy(struct x86_text *text)
{
    if (!text)
        return;
    for (int i = 0; i < 2; i++)
        if (text->opened[i]) {
            cs_free(text->insn[i], 1);
            cs_close(&text->handle[i]);
        }
    free(text);
}

/* The disassembler of mode `i` (0: 32-bit, 1: 64-bit), opened once. */
static bool open_mode(struct x86_text *text, int i)
{
    if (text->opened[i])
        return true;
    if (cs_open(CS_ARCH_X86, i ? CS_MODE_64 : CS_MODE_32, &text->handle[i]) != CS_ERR_OK)
        return false;
    text->insn[i] = cs_malloc(text->handle[i]);
    if (!text->insn[i]) {
        cs_close(&text->handle[i]);
        return false;
    }
    text->opened[i] = true;
    return true;
}

bool x86_text_of(struct x86_text *text, const uint8_t *bytes, size_t size, uint64_t address,
                 enum x86_mode mode, char *out, size_t out_size)
{
    int i = mode == X86_MODE_64;
    if (!open_mode(text, i))
        return false;
    const uint8_t *code = bytes;
    if (!cs_disasm_iter(text->handle[i], &code, &size, &address, text->insn[i]))
        return false;
    const cs_insn *in = text->insn[i];
    snprintf(out, out_size, "%s%s%s", in->mnemonic, in->op_str[0] ? " " : "", in->op_str);
    return true;
}
