/* synthetic_trace [--sse] N FILE: writes a trace of N instructions (64-bit)
 * for the models' benchmarks (`make bench`, docs/p5-model.md "Speed",
 * docs/netburst-model.md "Speed"): a seven-instruction loop that loads from
 * one 16 KB array and stores to another (so the 8 KB data cache misses),
 * with a conditional branch taken on every iteration but each 4096th.
 * --sse adds an SSE load 2 bytes past the element (every 16th crosses a
 * 64-byte line: a split load) and a scalar SSE add, so that the NetBurst
 * PMU's FLAME counters see events too.  The trace is written as a stream:
 * its size grows with N, the writer's memory does not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/trace.h"

struct loop_insn {
    uint8_t length;
    uint8_t bytes[8];
    enum trace_access_kind access;  /* 0: none */
    uint8_t offset;                 /* of the access past the element */
    bool branch;
};

/* mov eax,[rsi+rcx*4]; add eax,1; mov [rdi+rcx*4],eax; inc rcx;
 * and ecx,0xfff; test ecx,ecx; jne loop */
static const struct loop_insn plain_loop[] = {
    {3, {0x8b, 0x04, 0x8e}, TRACE_LOAD, 0, false},
    {3, {0x83, 0xc0, 0x01}, 0, 0, false},
    {3, {0x89, 0x04, 0x8f}, TRACE_STORE, 0, false},
    {3, {0x48, 0xff, 0xc1}, 0, 0, false},
    {6, {0x81, 0xe1, 0xff, 0x0f, 0x00, 0x00}, 0, 0, false},
    {2, {0x85, 0xc9}, 0, 0, false},
    {2, {0x75, 0xea}, 0, 0, true}, /* rel8 -22: back to the loop's start */
};

/* The same with movss xmm0,[rsi+rcx*4+2]; addss xmm0,xmm1 after the store. */
static const struct loop_insn sse_loop[] = {
    {3, {0x8b, 0x04, 0x8e}, TRACE_LOAD, 0, false},
    {3, {0x83, 0xc0, 0x01}, 0, 0, false},
    {3, {0x89, 0x04, 0x8f}, TRACE_STORE, 0, false},
    {6, {0xf3, 0x0f, 0x10, 0x44, 0x8e, 0x02}, TRACE_LOAD, 2, false},
    {4, {0xf3, 0x0f, 0x58, 0xc1}, 0, 0, false},
    {3, {0x48, 0xff, 0xc1}, 0, 0, false},
    {6, {0x81, 0xe1, 0xff, 0x0f, 0x00, 0x00}, 0, 0, false},
    {2, {0x85, 0xc9}, 0, 0, false},
    {2, {0x75, 0xe0}, 0, 0, true}, /* rel8 -32 */
};

enum { ELEMENTS = 4096 };
static const uint64_t code_base = 0x401000, source = 0x600000, destination = 0x610000;

static void fill(struct trace_insn *insn, uint64_t address, const struct loop_insn *li,
                 uint64_t element)
{
    memset(insn, 0, sizeof *insn);
    insn->address = address;
    insn->length = li->length;
    insn->has_bytes = true;
    memcpy(insn->bytes, li->bytes, li->length);
    insn->cpl = 3;
    if (li->access) {
        uint64_t array = li->access == TRACE_LOAD ? source : destination;
        insn->n_accesses = 1;
        insn->accesses[0] = (struct trace_access){li->access, 4, array + 4 * element + li->offset};
    }
    if (li->branch) {
        bool taken = (element + 1) % ELEMENTS != 0;
        insn->branch = taken ? TRACE_BRANCH_TAKEN : TRACE_BRANCH_NOT_TAKEN;
        insn->target = taken ? code_base : address + insn->length;
    }
}

static bool write_loop(struct trace_writer *writer, const struct loop_insn *loop, int length,
                       unsigned long long n)
{
    struct trace_insn insn;
    uint64_t element = 0, address = code_base;
    bool ok = true;
    for (unsigned long long i = 0; i < n && ok; i++) {
        int k = (int)(i % (unsigned)length);
        if (k == 0)
            address = code_base;
        fill(&insn, address, &loop[k], element % ELEMENTS);
        address += insn.length;
        if (k == length - 1)
            element++;
        ok = trace_write_insn(writer, &insn);
    }
    return ok;
}

int main(int argc, char **argv)
{
    bool sse = argc == 4 && strcmp(argv[1], "--sse") == 0;
    char *end;
    unsigned long long n = argc == 3 + sse ? strtoull(argv[1 + sse], &end, 10) : 0;
    if (argc != 3 + sse || *end || n == 0) {
        fprintf(stderr, "usage: synthetic_trace [--sse] INSTRUCTIONS FILE\n");
        return 2;
    }
    const char *path = argv[2 + sse];
    FILE *out = fopen(path, "wb");
    if (!out) {
        perror(path);
        return 2;
    }
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true};
    snprintf(header.program, sizeof header.program, sse ? "synthetic SSE loop" : "synthetic loop");
    snprintf(header.recorder, sizeof header.recorder, "tests/perf/synthetic_trace");
    char error[256];
    struct trace_writer *writer = trace_writer_open(out, &header, error, sizeof error);
    if (!writer) {
        fprintf(stderr, "%s\n", error);
        return 2;
    }
    bool ok = sse ? write_loop(writer, sse_loop, sizeof sse_loop / sizeof sse_loop[0], n)
                  : write_loop(writer, plain_loop, sizeof plain_loop / sizeof plain_loop[0], n);
    struct trace_end trace_end = {n, TRACE_EXITED, 0};
    ok = ok && trace_write_end(writer, &trace_end);
    ok = trace_writer_close(writer) && ok;
    ok = fclose(out) == 0 && ok;
    if (!ok)
        fprintf(stderr, "%s: write failed\n", path);
    return ok ? 0 : 2;
}
