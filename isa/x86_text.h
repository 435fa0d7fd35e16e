/* An instruction's text as a disassembler writes it: capstone's, in Intel
 * syntax ("add eax, dword ptr [ebx + 4]"), for pipeline views
 * (docs/pipeview.md).  The decoder (isa/x86.h) keeps no operand text: a
 * caller asks for the text of the few instructions it shows.
 *
 *   struct x86_text *t = x86_text_create();
 *   char line[X86_TEXT_SIZE];
 *   if (t && x86_text_of(t, bytes, length, address, X86_MODE_32, line, sizeof line)) ...
 *   x86_text_destroy(t);
 */
#ifndef ISA_X86_TEXT_H
#define ISA_X86_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/x86.h"

enum { X86_TEXT_SIZE = 192 }; /* capstone's mnemonic (32) and operands (160) */

struct x86_text;

/* NULL when memory ran out; a mode's disassembler is opened on first use. */
struct x86_text *x86_text_create(void);
void x86_text_destroy(struct x86_text *text);

/* The text of the instruction at the start of `bytes` (`size` of them) at
 * `address`: "MNEMONIC OPERANDS", or "MNEMONIC" alone; false (out
 * untouched) when they are no instruction in `mode`, or capstone cannot be
 * opened. */
bool x86_text_of(struct x86_text *text, const uint8_t *bytes, size_t size, uint64_t address,
                 enum x86_mode mode, char *out, size_t out_size);

#endif
