/* libFuzzer target: the bench script parser and interpreter, the parser of
 * untrusted scripts.  Build and run with `make fuzz`.  A parsed script runs
 * too, on the simulated PMU with its output discarded, unless it asks for
 * more than a bounded number of cycles. */
#include <stdint.h>
#include <stdio.h>

#include "bench/bench.h"

enum { MAX_FUZZ_CYCLES = 100000 };

static uint64_t total_cycles(const struct bench_script *script)
{
    uint64_t cycles = 0;
    for (size_t i = 0; i < script->n_stmts; i++)
        if (script->stmts[i].kind == STMT_TICK) {
            if (script->stmts[i].value > MAX_FUZZ_CYCLES)
                return MAX_FUZZ_CYCLES + 1;
            cycles += script->stmts[i].value;
        }
    return cycles;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    struct bench_script script;
    char error[512];
    if (bench_parse(in, "fuzz", &script, error, sizeof error) == BENCH_OK) {
        if (total_cycles(&script) <= MAX_FUZZ_CYCLES) {
            struct bench_options options = {0};
            bench_run(&script, &options, error, sizeof error);
        }
        bench_script_free(&script);
    }
    fclose(in);
    return 0;
}
