# `pmubench emulate` (docs/emulate.md), sourced by run_tests.sh after
# tests/cli_tests.sh (uses expect, expect_usage, pass, fail, pmubench,
# $build, $tmp): the programs of tests/emulate, built static for 64-bit
# code, run on the EM64T Prescott and on the P5; each checks what its
# pread/pwrite of /dev/cpu/0/msr gave and exits 0 when every check held.

emu=$tmp/emulate
mkdir -p "$emu"
# emu_build NAME SOURCES...: tests/emulate/NAME.c and SOURCES into $emu/NAME.
emu_build() {
    name=$1
    shift
    (cd tests/emulate && cc -static -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O2 \
        -o "$emu/$name" "$name.c" "$@") 2>"$emu/cc.err" ||
        fail "tests/emulate/$name.c does not build: $(head -1 "$emu/cc.err")"
}
emu_build selfmon loop_counter.c counted_loop.c msr_file.c
emu_build selfmon_p5 loop_counter.c counted_loop.c msr_file.c
emu_build errors msr_file.c
emu_build tsc counted_loop.c msr_file.c
emu_build fileops msr_file.c

# emulate_runs MODEL WANT_LINE WANT_MSRS PROGRAM ARGS...: exit status 0,
# WANT_LINE the program's last line, and pmubench's summary line ending in
# WANT_MSRS (its counts of MSR reads, writes and failures).
emulate_runs() {
    model=$1 want_line=$2 want_msrs=$3
    shift 3
    pmubench emulate -m "$model" -- "$@" >"$emu/out" 2>"$emu/err"
    status=$?
    last=$(tail -1 "$emu/out")
    summary=$(cat "$emu/err")
    if [ "$status" = 0 ] && [ "$last" = "$want_line" ]; then pass; else
        fail "emulate -m $model $*: status $status, last line '$last': $(tr '\n' '|' <"$emu/out")"
    fi
    case $summary in
    "pmubench emulate: $1: "*" instructions, "*" cycles, $want_msrs") pass ;;
    *) fail "emulate -m $model $*: stderr '$summary'" ;;
    esac
}

# The loop of 2N + 2 instructions counted with N = 1000 and N = 0 by
# instr_retired (NetBurst) and instructions_executed (P5): exactly 2000
# apart (tests/emulate/README.md, "Expected counts").
emulate_runs netburst-prescott4 "difference 2000, expected 2 * 1000 = 2000: ok" \
    "3 MSR reads, 9 MSR writes (0 failed)" "$emu/selfmon" 1000
emulate_runs p5 "difference 2000, expected 2 * 1000 = 2000: ok" \
    "3 MSR reads, 8 MSR writes (0 failed)" "$emu/selfmon_p5" 1000
# The msr driver's errors: EIO for an MSR the part lacks and a write
# that would #GP (which changes nothing), EINVAL for 4 bytes (never
# reaching the PMU), a 16-byte read as two of the same MSR.
emulate_runs netburst-prescott4 "netburst: 0 of 9 cases failed" \
    "5 MSR reads, 4 MSR writes (3 failed)" "$emu/errors"
emulate_runs p5 "p5: 0 of 9 cases failed" "5 MSR reads, 4 MSR writes (3 failed)" \
    "$emu/errors" p5
# read/write at the file position, lseek, dup'd descriptors sharing it,
# close, and ENXIO for /dev/cpu/1/msr (tests/emulate/fileops.c).
emulate_runs netburst-prescott4 "fileops: 0 of 17 cases failed" \
    "5 MSR reads, 2 MSR writes (0 failed)" "$emu/fileops"
emulate_runs p5 "fileops: 0 of 17 cases failed" "5 MSR reads, 2 MSR writes (0 failed)" \
    "$emu/fileops" p5
# Outside the emulator the device is not there: nothing real is touched.
if "$emu/selfmon" 10 >/dev/null 2>&1; then
    fail "selfmon ran natively: /dev/cpu/0/msr exists here"; else pass; fi

# RDTSC reads the simulated clock (docs/emulate.md, "What the program
# sees"): tsc N reads it before and after counted_loop(N), then MSR 0x10.
# The simulation is deterministic, so the first read is the same for every
# N; the loop's N more iterations add to the second read exactly what they
# add to the summary's cycles; on the P5 a dec/jnz iteration is one clock
# (DEC r 1 clock UV, Jcc 1 clock PV: the pair issues together, the BTB
# predicting the jnz; sim/p5/p5_timings.c's rows).  RDTSC is not an MSR
# read of the summary: the one read is the device's.
# tsc_run MODEL N: $tsc_out (the program's lines, |-joined) and $tsc_cycles.
tsc_run() {
    pmubench emulate -m "$1" -- "$emu/tsc" "$2" >"$emu/out" 2>"$emu/err" ||
        fail "emulate -m $1 tsc $2: status $?: $(cat "$emu/out" "$emu/err")"
    tsc_out=$(tr '\n' '|' <"$emu/out")
    tsc_cycles=$(sed -n 's/.* instructions, \([0-9]*\) cycles,.*/\1/p' "$emu/err")
    case $(cat "$emu/err") in
    *" cycles, 1 MSR reads, 0 MSR writes (0 failed)") pass ;;
    *) fail "emulate -m $1 tsc $2: stderr '$(cat "$emu/err")'" ;;
    esac
}
for model in p5 netburst-prescott4; do
    tsc_run $model 1000
    out_1000=$tsc_out cycles_1000=$tsc_cycles
    tsc_run $model 2000
    t0_1000=${out_1000#rdtsc } t0_1000=${t0_1000%%,*}
    t0_2000=${tsc_out#rdtsc } t0_2000=${t0_2000%%,*}
    t1_1000=${out_1000#*loop 1000, rdtsc } t1_1000=${t1_1000%%,*}
    t1_2000=${tsc_out#*loop 2000, rdtsc } t1_2000=${t1_2000%%,*}
    if [ "$t0_1000" = "$t0_2000" ] && [ "$t0_1000" -lt "$cycles_1000" ] &&
        [ $((t1_2000 - t1_1000)) = $((tsc_cycles - cycles_1000)) ]; then pass; else
        fail "emulate -m $model tsc: '$out_1000' ($cycles_1000 cycles), '$tsc_out' ($tsc_cycles cycles)"
    fi
done
case $out_1000 in
*"|loop 1000: "*) ;;
*) fail "tsc: no loop line in '$out_1000'" ;;
esac
tsc_run p5 1000
p5_1000=${tsc_out#*|loop 1000: }
tsc_run p5 2000
p5_2000=${tsc_out#*|loop 2000: }
if [ $((${p5_2000% cycles|} - ${p5_1000% cycles|})) = 1000 ]; then pass; else
    fail "tsc on the P5: loop 1000 '$p5_1000', loop 2000 '$p5_2000': not one clock an iteration"
fi

# -o TRACE: the run's trace, which stat replays to the summary's counts
# (the model drains at an MSR record whether a hook answers or not).
for model in p5 netburst-prescott4; do
    pmubench emulate -m $model -o "$emu/run.trace" -- "$emu/tsc" 1000 >/dev/null 2>"$emu/err" ||
        fail "emulate -m $model -o: status $?: $(cat "$emu/err")"
    want=$(sed -n 's/.*: \([0-9]*\) instructions, \([0-9]*\) cycles,.*/\1 \2/p' "$emu/err")
    pmubench stat -m $model --trace "$emu/run.trace" >"$emu/stat" 2>/dev/null ||
        fail "stat -m $model of the emulated run's trace: status $?"
    got="$(sed -n 's/^ *\([0-9]*\) *instructions simulated per run$/\1/p' "$emu/stat") $(
        sed -n 's/^ *\([0-9]*\) *\(clocks\|cycles\) per run$/\1/p' "$emu/stat")"
    if [ -n "$want" ] && [ "$got" = "$want" ]; then pass; else
        fail "emulate -m $model -o: summary '$want', stat of the trace '$got'"; fi
done
# Written whole or not at all: past the file size limit, nothing is left.
rm -f "$emu/run.trace"
(ulimit -f 8 && pmubench emulate -m p5 -o "$emu/run.trace" -- "$emu/tsc" 10) >/dev/null \
    2>"$emu/err"
status=$?
if [ $status = 1 ] && [ "$(cat "$emu/err")" = "pmubench emulate: $emu/run.trace: cannot write: File too large" ] &&
    ! [ -e "$emu/run.trace" ] && [ -z "$(ls -A "$emu" | grep '^\.pmubench-')" ]; then pass; else
    fail "emulate -o past ulimit -f: status $status, '$(cat "$emu/err")', $(ls -A "$emu")"; fi
expect_usage "pmubench emulate: -o needs a value" -- emulate -o
expect 2 "pmubench emulate: -o '': expected a trace file name" -- emulate -o '' -- true
expect 2 "pmubench emulate: /dev/null is not a regular file (expected a trace file name)" \
    -- emulate -o /dev/null -- true
expect 1 "pmubench emulate: $tmp/no-such-dir/x.trace: cannot create: No such file or directory" \
    -- emulate -o "$tmp/no-such-dir/x.trace" -- true

# The program's exit status is pmubench's.
emulate_runs netburst-prescott4 "" "0 MSR reads, 0 MSR writes (0 failed)" sh -c 'exit 0'
pmubench emulate -m p5 -- sh -c 'exit 7' 2>/dev/null
if [ $? = 7 ]; then pass; else fail "emulate: sh -c 'exit 7' did not exit 7"; fi

expect 0 "" -- emulate --help
expect_usage "pmubench emulate: no program to run" -- emulate
expect_usage "pmubench emulate: -m needs a value" -- emulate -m
expect_usage "pmubench emulate: bad -F 'x' (expected NAME=VALUE)" -- emulate -F x -- true
expect 2 "pmubench emulate: -m: unknown model 'bogus' (expected p5, pmmx, host, netburst or netburst-PRESET)" \
    -- emulate -m bogus -- true
expect 2 "pmubench emulate: cannot run '$tmp/no-such-program': No such file or directory" \
    -- emulate -- "$tmp/no-such-program"

# trace dump shows MSR access records (docs/traces.md, "Records"): a
# trace of header flags 0x11 (64-bit, MSR accesses) with a write of 0x604
# to MSR 0x3b8, a read of 0x30c on logical processor 1, an RDTSC, END;
# without flag 0x10 the same tag is unknown.
printf 'PMUTRACE\002\021\000\000\000\210\001\270\007\204\014\210\004\214\006\210\002\020\217\000\000\000' \
    >"$emu/msr.trace"
expect 0 "" -- trace dump "$emu/msr.trace"
if [ "$(cat "$tmp/cli.out")" = "msr write cpu 0 0x3b8 0x604
msr read cpu 1 0x30c
rdtsc cpu 0
end exited with status 0, 0 instructions" ]; then pass; else
    fail "trace dump of MSR records: $(tr '\n' '|' <"$tmp/cli.out")"; fi
printf 'PMUTRACE\002\001\000\000\000\210\001\270\007\204\014\217\000\000\000' >"$emu/noflag.trace"
expect 2 "$emu/noflag.trace: byte offset 14: unknown record tag 0x88" -- trace dump "$emu/noflag.trace"
