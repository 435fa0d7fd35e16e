/* synthetic_trace N FILE: writes a trace of N instructions (64-bit) for the
 * P5 model's benchmark (`make bench`, docs/p5-model.md "Speed"): a
 * seven-instruction loop that loads from one 16 KB array and stores to
 * another (so the 8 KB data cache misses), with a conditional branch taken
 * on every iteration but each 4096th.  The trace is written as a stream:
 * its size grows with N, the writer's memory does not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/trace.h"

struct loop_insn {
    uint8_t length;
    uint8_t bytes[8];
    enum trace_access_kind access;  /* 0: none */
    bool branch;
};

/* mov eax,[rsi+rcx*4]; add eax,1; mov [rdi+rcx*4],eax; inc rcx;
 * and ecx,0xfff; test ecx,ecx; jne loop */
static const struct loop_insn loop[] = {
    {3, {0x8b, 0x04, 0x8e}, TRACE_LOAD, false},
    {3, {0x83, 0xc0, 0x01}, 0, false},
    {3, {0x89, 0x04, 0x8f}, TRACE_STORE, false},
    {3, {0x48, 0xff, 0xc1}, 0, false},
    {6, {0x81, 0xe1, 0xff, 0x0f, 0x00, 0x00}, 0, false},
    {2, {0x85, 0xc9}, 0, false},
    {2, {0x75, 0xea}, 0, true}, /* rel8 -22: back to the loop's start */
};

enum { LOOP_LENGTH = sizeof loop / sizeof loop[0], ELEMENTS = 4096 };
static const uint64_t code_base = 0x401000, source = 0x600000, destination = 0x610000;

static void fill(struct trace_insn *insn, uint64_t address, int k, uint64_t element)
{
    memset(insn, 0, sizeof *insn);
    insn->address = address;
    insn->length = loop[k].length;
    insn->has_bytes = true;
    memcpy(insn->bytes, loop[k].bytes, loop[k].length);
    insn->cpl = 3;
    if (loop[k].access) {
        insn->n_accesses = 1;
        insn->accesses[0] = (struct trace_access){
            loop[k].access, 4, (loop[k].access == TRACE_LOAD ? source : destination) + 4 * element};
    }
    if (loop[k].branch) {
        bool taken = (element + 1) % ELEMENTS != 0;
        insn->branch = taken ? TRACE_BRANCH_TAKEN : TRACE_BRANCH_NOT_TAKEN;
        insn->target = taken ? code_base : address + insn->length;
    }
}

int main(int argc, char **argv)
{
    char *end;
    unsigned long long n = argc == 3 ? strtoull(argv[1], &end, 10) : 0;
    if (argc != 3 || *end || n == 0) {
        fprintf(stderr, "usage: synthetic_trace INSTRUCTIONS FILE\n");
        return 2;
    }
    FILE *out = fopen(argv[2], "wb");
    if (!out) {
        perror(argv[2]);
        return 2;
    }
    struct trace_header header = {.isa = TRACE_ISA_64, .lengths_known = true};
    snprintf(header.program, sizeof header.program, "synthetic loop");
    snprintf(header.recorder, sizeof header.recorder, "tests/perf/synthetic_trace");
    char error[256];
    struct trace_writer *writer = trace_writer_open(out, &header, error, sizeof error);
    if (!writer) {
        fprintf(stderr, "%s\n", error);
        return 2;
    }
    struct trace_insn insn;
    uint64_t element = 0, address = code_base;
    bool ok = true;
    for (unsigned long long i = 0; i < n && ok; i++) {
        int k = (int)(i % LOOP_LENGTH);
        if (k == 0)
            address = code_base;
        fill(&insn, address, k, element % ELEMENTS);
        address += insn.length;
        if (k == LOOP_LENGTH - 1)
            element++;
        ok = trace_write_insn(writer, &insn);
    }
    struct trace_end trace_end = {n, TRACE_EXITED, 0};
    ok = ok && trace_write_end(writer, &trace_end);
    ok = trace_writer_close(writer) && ok;
    ok = fclose(out) == 0 && ok;
    if (!ok)
        fprintf(stderr, "%s: write failed\n", argv[2]);
    return ok ? 0 : 2;
}
