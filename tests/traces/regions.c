/* A program with regions for the recorder's tests (tests/cli_tests.sh,
 * docs/traces.md "Regions"): region 1 around a loop of ITERATIONS
 * iterations, entered once; region 2 around each iteration of a second
 * loop, entered ITERATIONS times; region 7 with run_p5mon's argument-less
 * names p5mon_asm_begreg_7 / p5mon_asm_endreg_7. */
#include "traces/pmubench_region.h"

enum { ITERATIONS = 10 };

PMUBENCH_P5MON_STUBS(7)

static volatile unsigned sink;

int main(void)
{
    pmubench_region_begin(1);
    for (unsigned i = 0; i < ITERATIONS; i++)
        sink += i;
    pmubench_region_end(1);
    for (unsigned i = 0; i < ITERATIONS; i++) {
        pmubench_region_begin(2);
        sink += i;
        pmubench_region_end(2);
    }
    p5mon_asm_begreg_7();
    sink = 0;
    p5mon_asm_endreg_7();
    return 0;
}
