#!/bin/sh
# msrtools.sh: instr_retired around a separate workload, programmed and read
# with msr-tools' wrmsr and rdmsr (Debian package msr-tools), the way one
# measures a program from the shell on a Pentium 4:
#
#   pmubench emulate -- sh tests/emulate/msrtools.sh WORK
#
# WORK is the work program (tests/emulate/work.c: counted_loop(N), 2N + 2
# instructions in its asm block).  The whole script runs under the emulator,
# which must follow the shell's children (wrmsr, WORK, rdmsr) on the one
# emulated processor: the counter runs from the pwrite of wrmsr's CCCR write
# to the pread of rdmsr, so it also counts, at CPL 3, the rest of that
# wrmsr, the shell between commands, WORK's start-up and exit and rdmsr up
# to its pread.
#
# It measures WORK 1000000 and WORK 2000000 (arguments of one length, so
# that everything but the loop runs the same instructions) and checks that
# each count is at least the loop's 2N + 2 and that the two differ by
# exactly 2 * 1000000 (tests/emulate/README.md, "Expected counts").  Exit
# status 0 when they do, 1 when they do not or a tool fails or is missing,
# 2 for a bad operand.
#
# The values (tests/emulate/selfmon.c says where each field comes from; SDM
# Vol. 3B, 2008-2009 edition, Table 18-26 for the addresses):
#   MSR_CRU_ESCR0   0x3b8 = 0x4000604  instr_retired NBOGUSNTAG|NBOGUSTAG, T0_USR
#   MSR_IQ_CCCR0    0x36c = 0x39000    ENABLE, ESCR select 4, ACTIVE_THREAD 11
#   MSR_IQ_COUNTER0 0x30c              read as an unsigned decimal (rdmsr -u)
# as `pmubench encode --ht off netburst::instr_retired:NBOGUSNTAG:NBOGUSTAG:u`
# prints them.
set -u

if [ $# -ne 1 ]; then
    echo "usage: msrtools.sh WORK (the work program of tests/emulate)" >&2
    exit 2
fi
work=$1
if ! [ -x "$work" ]; then
    echo "msrtools.sh: $work: not an executable program" >&2
    exit 2
fi
for tool in wrmsr rdmsr; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "msrtools.sh: msr-tools' $tool is not installed (Debian package msr-tools)" >&2
        exit 1
    fi
done

# One measurement: prints the count of instr_retired over `$work $1`.
measure() {
    wrmsr -p0 0x36c 0 &&
        wrmsr -p0 0x3b8 0x4000604 &&
        wrmsr -p0 0x30c 0 &&
        wrmsr -p0 0x36c 0x39000 &&
        "$work" "$1" &&
        rdmsr -p0 -u 0x30c &&
        wrmsr -p0 0x36c 0
}

# Both measurements first, into variables that exist (with values of one
# length) before either: the shell runs the same instructions between the
# commands of each (a variable set in between, or a loop's, would add some
# to its lookups in the second).
counted_1000000=0000000 counted_2000000=0000000
if ! counted_1000000=$(measure 1000000) || ! counted_2000000=$(measure 2000000); then
    echo "msrtools.sh: a measurement of $work failed" >&2
    exit 1
fi
status=0
for n in 1000000 2000000; do
    eval "counted=\$counted_$n"
    loop=$((2 * n + 2))
    if [ "$counted" -ge "$loop" ]; then verdict=ok; else verdict=FAIL; status=1; fi
    echo "loop $n: counted $counted, at least 2 * $n + 2 = $loop: $verdict"
done
difference=$((counted_2000000 - counted_1000000))
if [ "$difference" -eq 2000000 ]; then verdict=ok; else verdict=FAIL; status=1; fi
echo "difference $difference, expected 2 * 1000000 = 2000000: $verdict"
exit $status
