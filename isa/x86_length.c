/* The fallback decoder: instruction lengths by the opcode maps of SDM vol. 2
 * appendix A, for the instructions capstone 4.0.2 does not know (newer
 * extensions: CET, some AVX-512 forms...).  It gives the length, the ModRM
 * memory operand and whether a displacement and an immediate are present;
 * registers, flags and operand access stay unknown (docs/isa.md). */
#include <string.h>

#include "isa/x86_internal.h"

/* One-byte map, per opcode:
 *   M ModRM   I ModRM + imm8   Z ModRM + imm16/32   b imm8   z imm16/32
 *   0 nothing   w imm16   e imm16 + imm8 (ENTER)   a moffs   v imm16/32/64
 *   f ptr16:16/32   G F6/F7 (imm with /0 /1)   E 0F escape   P prefix */
static const char one_byte_map[257] =
    "MMMMbz00MMMMbz0E" "MMMMbz00MMMMbz00" "MMMMbzP0MMMMbzP0" "MMMMbzP0MMMMbzP0"
    "0000000000000000" "0000000000000000" "00MMPPPPzZbI0000" "bbbbbbbbbbbbbbbb"
    "IZIIMMMMMMMMMMMM" "0000000000f00000" "aaaa0000bz000000" "bbbbbbbbvvvvvvvv"
    "IIw0MMIZe0w00b00" "MMMMbb00MMMMMMMM" "bbbbbbbbzzfb0000" "P0PP00GG000000MM";

/* 0F map: as above, plus  3 three-byte map 0F 38 (ModRM)  T 0F 3A (ModRM +
 * imm8)  r rel16/32. */
static const char two_byte_map[257] =
    "MMMM0000000M0MMI" "MMMMMMMMMMMMMMMM" "MMMMMMMMMMMMMMMM" "000000003MT00000"
    "MMMMMMMMMMMMMMMM" "MMMMMMMMMMMMMMMM" "MMMMMMMMMMMMMMMM" "IIIIMMM0MMMMMMMM"
    "rrrrrrrrrrrrrrrr" "MMMMMMMMMMMMMMMM" "000MIM00000MIMMM" "MMMMMMMMMMIMMMMM"
    "MMIMIIIM00000000" "MMMMMMMMMMMMMMMM" "MMMMMMMMMMMMMMMM" "MMMMMMMMMMMMMMMM";

/* Invalid one-byte opcodes in 64-bit mode (SDM vol. 2, table A-2, "i64"). */
static const uint8_t invalid64[] = {0x06, 0x07, 0x0e, 0x16, 0x17, 0x1e, 0x1f, 0x27, 0x2f,
                                    0x37, 0x3f, 0x60, 0x61, 0x82, 0x9a, 0xce, 0xd4, 0xd5,
                                    0xd6, 0xea};

struct layout {
    size_t opcode;  /* position of the opcode byte (after escapes) */
    size_t modrm;   /* position of ModRM, 0 if none */
    size_t disp, disp_size;
    size_t imm_size;
    size_t length;
    bool vex;
};

/* The bytes ModRM (and SIB, displacement) take, from the ModRM position. */
static size_t modrm_bytes(const uint8_t *b, size_t at, size_t size, unsigned addr_bytes,
                          size_t *disp_size)
{
    if (at >= size)
        return 0;
    uint8_t modrm = b[at], mod = modrm >> 6, rm = modrm & 7;
    size_t n = 1;
    *disp_size = 0;
    if (mod == 3)
        return n;
    if (addr_bytes == 2) {
        *disp_size = mod == 1 ? 1 : mod == 2 || (mod == 0 && rm == 6) ? 2 : 0;
        return n + *disp_size;
    }
    if (rm == 4) {
        if (at + 1 >= size)
            return 0;
        n++;
        if (mod == 0 && (b[at + 1] & 7) == 5)
            *disp_size = 4;
    }
    if (mod == 1)
        *disp_size = 1;
    else if (mod == 2 || (mod == 0 && rm == 5))
        *disp_size = 4;
    return n + *disp_size;
}

static size_t imm_bytes(char code, const struct x86_insn *in, const uint8_t *b, size_t modrm)
{
    unsigned z = in->operand_size == 2 ? 2 : 4;
    switch (code) {
    case 'I': case 'b': case 'T': return 1;
    case 'Z': case 'z': case 'r': return z;
    case 'w': return 2;
    case 'e': return 3;
    case 'v': return in->operand_size;
    case 'a': return in->address_size;
    case 'f': return 2 + z;
    case 'G': return ((b[modrm] >> 3) & 7) < 2 ? (b[0] == 0xf6 ? 1 : z) : 0;
    default: return 0;
    }
}

static bool has_modrm(char code)
{
    return code == 'M' || code == 'I' || code == 'Z' || code == 'G' || code == '3' || code == 'T';
}

/* The legacy maps: the code of the opcode at P and where it is. */
static char legacy_code(const uint8_t *b, size_t size, size_t *p, enum x86_mode mode)
{
    if (*p >= size)
        return 'X';
    uint8_t op = b[*p];
    if (mode == X86_MODE_64 && memchr(invalid64, op, sizeof invalid64))
        return 'X';
    char code = one_byte_map[op];
    if (code != 'E')
        return code;
    if (++*p >= size)
        return 'X';
    code = two_byte_map[b[*p]];
    if (code == '3' || code == 'T')
        ++*p; /* the third opcode byte */
    return code;
}

/* VEX, EVEX, XOP: the prefix length, and the imm8 rule of each map. */
static size_t vex_layout(const struct x86_insn *in, size_t p, struct layout *l)
{
    const uint8_t *b = in->bytes;
    size_t plen = b[p] == 0xc5 ? 2 : b[p] == 0x62 ? 4 : 3;
    l->opcode = p + plen;
    l->vex = true;
    uint8_t op = in->opcode[in->opcode_len - 1];
    bool xop = in->opcode[0] == 0x8f;
    unsigned map = xop ? in->opcode[1] : in->opcode_len == 3 ? (in->opcode[1] == 0x38 ? 2u : 3u) : 1u;
    if (xop)
        l->imm_size = map == 8 ? 1 : map == 10 ? 4 : 0;
    else if (map == 3)
        l->imm_size = 1;
    else if (map == 1)
        l->imm_size = (op >= 0x70 && op <= 0x73) || op == 0xc2 || (op >= 0xc4 && op <= 0xc6);
    bool no_modrm = !xop && map == 1 && op == 0x77; /* VZEROUPPER, VZEROALL */
    l->modrm = no_modrm ? 0 : l->opcode + 1;
    return plen;
}

static bool layout_of(const struct x86_insn *in, size_t size, enum x86_mode mode, struct layout *l)
{
    const uint8_t *b = in->bytes;
    memset(l, 0, sizeof *l);
    size_t p = x86_skip_prefixes(b, size, mode);
    if (in->prefixes & X86_PFX_VEX) {
        vex_layout(in, p, l);
    } else {
        char code = legacy_code(b, size, &p, mode);
        if (code == 'X' || code == 'P')
            return false;
        l->opcode = p;
        l->modrm = has_modrm(code) ? p + 1 : 0;
        if (l->modrm && l->modrm >= size)
            return false;
        l->imm_size = imm_bytes(code, in, b, l->modrm);
        if (in->opcode_len == 2 && in->opcode[1] == 0x0f)
            l->imm_size = 1; /* 3DNow!: the opcode is a trailing imm8 */
    }
    size_t end = l->opcode + 1;
    if (l->modrm) {
        size_t n = modrm_bytes(b, l->modrm, size, in->address_size, &l->disp_size);
        if (n == 0)
            return false;
        end = l->modrm + n;
        l->disp = end - l->disp_size;
    }
    l->length = end + l->imm_size;
    return l->length <= size && l->length <= X86_MAX_LENGTH;
}

size_t x86_length_fallback(const uint8_t *bytes, size_t size, enum x86_mode mode)
{
    struct x86_insn tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.length = (uint8_t)(size < X86_MAX_LENGTH ? size : X86_MAX_LENGTH);
    memcpy(tmp.bytes, bytes, tmp.length);
    x86_fill_from_bytes(&tmp, mode);
    struct layout l;
    return layout_of(&tmp, tmp.length, mode, &l) ? l.length : 0;
}

/* ---- the memory operand of ModRM ---- */

static const uint8_t base16[8] = {X86_GPR_BX, X86_GPR_BX, X86_GPR_BP, X86_GPR_BP,
                                  X86_GPR_SI, X86_GPR_DI, X86_GPR_BP, X86_GPR_BX};
static const uint8_t index16[8] = {X86_GPR_SI, X86_GPR_DI, X86_GPR_SI, X86_GPR_DI,
                                   X86_GPR_NONE, X86_GPR_NONE, X86_GPR_NONE, X86_GPR_NONE};

static int64_t read_disp(const uint8_t *b, size_t at, size_t n)
{
    if (n == 1)
        return (int8_t)b[at];
    if (n == 2)
        return (int16_t)(b[at] | b[at + 1] << 8);
    if (n == 4)
        return (int32_t)((uint32_t)b[at] | (uint32_t)b[at + 1] << 8 |
                         (uint32_t)b[at + 2] << 16 | (uint32_t)b[at + 3] << 24);
    return 0;
}

/* The REX (or VEX) B and X bits are not applied: the fallback's registers
 * are the low eight only (documented). */
static void modrm_mem(const struct x86_insn *in, const struct layout *l, enum x86_mode mode,
                      struct x86_mem *m)
{
    uint8_t modrm = in->bytes[l->modrm], mod = modrm >> 6, rm = modrm & 7;
    m->base = m->index = X86_GPR_NONE;
    m->scale = 1;
    m->disp = read_disp(in->bytes, l->disp, l->disp_size);
    if (in->address_size == 2) {
        if (!(mod == 0 && rm == 6)) {
            m->base = base16[rm];
            m->index = index16[rm];
        }
    } else if (rm == 4) {
        uint8_t sib = in->bytes[l->modrm + 1];
        m->index = ((sib >> 3) & 7) == 4 ? X86_GPR_NONE : (sib >> 3) & 7;
        m->scale = m->index == X86_GPR_NONE ? 1 : (uint8_t)(1u << (sib >> 6));
        m->base = (mod == 0 && (sib & 7) == 5) ? X86_GPR_NONE : sib & 7;
    } else if (mod == 0 && rm == 5) {
        m->base = mode == X86_MODE_64 ? X86_GPR_IP : X86_GPR_NONE;
    } else {
        m->base = rm;
    }
    m->segment = in->segment != X86_SEG_NONE ? in->segment
                 : m->base == X86_GPR_SP || m->base == X86_GPR_BP ? X86_SEG_SS : X86_SEG_DS;
    m->access = X86_ACCESS_READ;
    m->size = 0;
}

void x86_fill_fallback(struct x86_insn *in, enum x86_mode mode)
{
    struct layout l;
    if (!layout_of(in, in->length, mode, &l))
        return;
    in->has_modrm = l.modrm != 0;
    in->modrm = l.modrm ? in->bytes[l.modrm] : 0;
    in->has_disp = l.disp_size != 0;
    in->has_imm = l.imm_size != 0 && !in->has_target;
    if (in->has_modrm && in->modrm < 0xc0) {
        modrm_mem(in, &l, mode, &in->mem[0]);
        in->n_mem = 1;
    }
    strcpy(in->mnemonic, "(fallback)");
}
