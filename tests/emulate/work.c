/*
 * work: the workload of msrtools.sh: counted_loop(N), and nothing else
 * between its start-up and exit.  It touches no MSR.
 *
 *   work N
 */
#include "counted_loop.h"

int main(int argc, char **argv)
{
    counted_loop(counted_loop_operand("work", argc, argv));
    return 0;
}
