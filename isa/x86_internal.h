/* The decoder's internals, shared by the files of isa/; the API is
 * isa/x86.h.
 *
 *   x86_decode.c     decoders, capstone's detail to struct x86_insn
 *   x86_bytes.c      what the bytes say alone: prefixes, opcode, branch
 *                    kind, string, serializing, x87/VEX, sizes, targets
 *   x86_length.c     the fallback length decoder for what capstone rejects
 *   x86_x87.c        the x87 stack effects of each opcode
 *   x86_feature.c    the CPUID feature each instruction needs
 *   p5_pairing.c     the P5 pairing table
 *   netburst_uops.c  the NetBurst micro-op table
 */
#ifndef ISA_X86_INTERNAL_H
#define ISA_X86_INTERNAL_H

#include "isa/x86.h"

/* Fills prefixes, segment, opcode, branch kind and target, string, rep,
 * serializing, fp (x87 and VEX only), operand and address size of IN, whose
 * length and bytes are set. */
void x86_fill_from_bytes(struct x86_insn *in, enum x86_mode mode);

/* The length of the instruction at BYTES by the opcode maps (SDM vol. 2,
 * appendix A), or 0 when it is invalid or longer than SIZE. */
size_t x86_length_fallback(const uint8_t *bytes, size_t size, enum x86_mode mode);

/* What the fallback can tell besides the length: ModRM, displacement,
 * immediate, the memory operand. */
void x86_fill_fallback(struct x86_insn *in, enum x86_mode mode);

/* The CPUID feature IN, decoded in MODE, needs, from its encoding,
 * capstone's instruction id and groups (`groups`, `n_groups`: cs_detail's;
 * NULL, 0 for the fallback) and the opcode. */
enum x86_feature x86_feature_of(const struct x86_insn *in, enum x86_mode mode,
                                const uint8_t *groups, unsigned n_groups);

/* The position of the opcode after the legacy and REX prefixes. */
size_t x86_skip_prefixes(const uint8_t *bytes, size_t size, enum x86_mode mode);

#endif
