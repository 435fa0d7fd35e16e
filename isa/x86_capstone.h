/* capstone's headers for the files of isa/ that need them.  capstone 4
 * declares `enum x86_insn` (its instruction ids) and C puts struct and enum
 * tags in one namespace, so its tag is renamed here to leave `struct
 * x86_insn` to isa/x86.h; capstone's ids stay usable as X86_INS_*. */
#ifndef ISA_X86_CAPSTONE_H
#define ISA_X86_CAPSTONE_H

#define x86_insn capstone_x86_insn
#include <capstone/capstone.h>
#undef x86_insn

#endif
