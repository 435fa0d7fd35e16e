/* The libc functions the trace writer (traces/trace_writer.c,
 * trace_block.c, code_cache.c) calls, inside the valgrind tool, where
 * there is no libc: valgrind's core's own (docs/traces.md, "The stream
 * and the check").  memcpy, memmove and memset are the core's already;
 * clang turns a memcmp whose result is only compared with 0 into bcmp. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

void *malloc(SizeT size);
void *calloc(SizeT n, SizeT size);
void *realloc(void *p, SizeT size);
void free(void *p);
int memcmp(const void *a, const void *b, SizeT n);
int bcmp(const void *a, const void *b, SizeT n);

void *malloc(SizeT size)
{
    return VG_(malloc)("pmutrace.writer", size);
}

void *calloc(SizeT n, SizeT size)
{
    return VG_(calloc)("pmutrace.writer", n, size);
}

void *realloc(void *p, SizeT size)
{
    return VG_(realloc)("pmutrace.writer", p, size);
}

void free(void *p)
{
    VG_(free)(p);
}

int memcmp(const void *a, const void *b, SizeT n)
{
    return VG_(memcmp)(a, b, n);
}

int bcmp(const void *a, const void *b, SizeT n)
{
    return VG_(memcmp)(a, b, n);
}
