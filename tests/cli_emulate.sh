# `pmubench emulate` (docs/emulate.md), sourced by run_tests.sh after
# tests/cli_tests.sh (uses expect, expect_usage, pass, fail, pmubench,
# $build, $tmp): the programs of tests/emulate, built static for 64-bit
# code, run on the EM64T Prescott and on the P5; each checks what its
# pread/pwrite of /dev/cpu/0/msr gave and exits 0 when every check held.

emu=$tmp/emulate
mkdir -p "$emu"
# The programs `make emulate-programs` built (a dependency of `make
# check`): NAME64, and NAME32 when the compiler builds 32-bit programs.
progs=$build/emulate
for name in selfmon selfmon_p5 branch_threshold errors tsc fileops; do
    [ -x "$progs/${name}64" ] || fail "$progs/${name}64 is missing: run make emulate-programs"
done
# emulate_runs MODEL WANT_LINE WANT_MSRS PROGRAM ARGS...: exit status 0,
# WANT_LINE the program's last line, and pmubench's summary line ending in
# WANT_MSRS (its counts of MSR reads, writes and failures); emulate's other
# options in $emulate_options.
emulate_options=
emulate_runs() {
    model=$1 want_line=$2 want_msrs=$3
    shift 3
    # shellcheck disable=SC2086 # none or one option
    pmubench emulate -m "$model" $emulate_options -- "$@" >"$emu/out" 2>"$emu/err"
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
    "3 MSR reads, 9 MSR writes (0 failed)" "$progs/selfmon64" 1000
emulate_runs p5 "difference 2000, expected 2 * 1000 = 2000: ok" \
    "3 MSR reads, 8 MSR writes (0 failed)" "$progs/selfmon_p564" 1000
# The monitoring study's section 9.1 (docs/emulate.md, "A worked
# example"): branch_retired's taken branches on MSR_CRU_ESCR3, counter 14
# through the study's CCCR (COMPARE, THRESHOLD 2: cycles retiring more
# than 2), counter 15 through it without COMPARE (every one), around the
# loop of 0 and 1000 iterations: 0 and 998 apart (the loop's 999 taken jnz
# against loop 0's taken jz).  On the Northwood
# the study assumes, with and without Hyper-Threading.
branch_threshold_ok="differences: counter 14 0, counter 15 998; expected 0 and 998: ok"
emulate_runs netburst "$branch_threshold_ok" "5 MSR reads, 17 MSR writes (0 failed)" \
    "$progs/branch_threshold64" 1000
emulate_options=--ht
emulate_runs netburst "$branch_threshold_ok" "5 MSR reads, 17 MSR writes (0 failed)" \
    "$progs/branch_threshold64" 1000
emulate_options=
# The msr driver's errors: EIO for an MSR the part lacks and a write
# that would #GP (which changes nothing), EINVAL for 4 bytes (never
# reaching the PMU), a 16-byte read as two of the same MSR.
emulate_runs netburst-prescott4 "netburst: 0 of 9 cases failed" \
    "5 MSR reads, 4 MSR writes (3 failed)" "$progs/errors64"
emulate_runs p5 "p5: 0 of 9 cases failed" "5 MSR reads, 4 MSR writes (3 failed)" \
    "$progs/errors64" p5
# read/write at the file position, lseek, dup'd descriptors sharing it,
# close, and ENXIO for /dev/cpu/1/msr (tests/emulate/fileops.c).
emulate_runs netburst-prescott4 "fileops: 0 of 17 cases failed" \
    "5 MSR reads, 2 MSR writes (0 failed)" "$progs/fileops64"
emulate_runs p5 "fileops: 0 of 17 cases failed" "5 MSR reads, 2 MSR writes (0 failed)" \
    "$progs/fileops64" p5
# The 32-bit builds on the Northwood (no EM64T) and the P5: i386's
# _llseek among them.
if [ -x "$progs/fileops32" ]; then
    emulate_runs netburst "difference 2000, expected 2 * 1000 = 2000: ok" \
        "3 MSR reads, 9 MSR writes (0 failed)" "$progs/selfmon32" 1000
    emulate_runs netburst "$branch_threshold_ok" "5 MSR reads, 17 MSR writes (0 failed)" \
        "$progs/branch_threshold32" 1000
    emulate_runs netburst "fileops: 0 of 17 cases failed" "5 MSR reads, 2 MSR writes (0 failed)" \
        "$progs/fileops32"
    emulate_runs p5 "fileops: 0 of 17 cases failed" "5 MSR reads, 2 MSR writes (0 failed)" \
        "$progs/fileops32" p5
fi
# Outside the emulator the device is not there: nothing real is touched.
if "$progs/selfmon64" 10 >/dev/null 2>&1; then
    fail "selfmon ran natively: /dev/cpu/0/msr exists here"; else pass; fi

# RDTSC reads the simulated clock (docs/emulate.md, "What the program
# sees"): tsc N reads it before and after counted_loop(N), then MSR 0x10.
# The simulation is deterministic and the program runs at the same
# addresses every time (emulate turns address randomisation off), so the
# first read is the same for every N (arguments of one length: the same
# instructions at the same addresses before it); the program checks that the reads increase, and the last is
# at most the summary's cycles; on the P5 a dec/jnz iteration is one clock
# (DEC r 1 clock UV, Jcc 1 clock PV: the pair issues together, the BTB
# predicting the jnz; sim/p5/p5_timings.c's rows).  RDTSC is not an MSR
# read of the summary: the one read is the device's.
# tsc_run MODEL PROGRAM N: $tsc_out (the program's lines, |-joined) and
# $tsc_cycles.
tsc_run() {
    pmubench emulate -m "$1" -- "$2" "$3" >"$emu/out" 2>"$emu/err" ||
        fail "emulate -m $1 $2 $3: status $?: $(cat "$emu/out" "$emu/err")"
    tsc_out=$(tr '\n' '|' <"$emu/out")
    tsc_cycles=$(sed -n 's/.* instructions, \([0-9]*\) cycles,.*/\1/p' "$emu/err")
    case $(cat "$emu/err") in
    *" cycles, 1 MSR reads, 0 MSR writes (0 failed)") pass ;;
    *) fail "emulate -m $1 $2 $3: stderr '$(cat "$emu/err")'" ;;
    esac
}
# tsc_check MODEL PROGRAM: the reads of N = 1000 and 2000 against each
# other and the summaries; on the P5, one clock an iteration.
tsc_check() {
    tsc_run "$1" "$2" 1000
    out_1000=$tsc_out cycles_1000=$tsc_cycles
    tsc_run "$1" "$2" 2000
    t0_1000=${out_1000#rdtsc } t0_1000=${t0_1000%%,*}
    t0_2000=${tsc_out#rdtsc } t0_2000=${t0_2000%%,*}
    t2_1000=${out_1000#*msr 0x10 } t2_1000=${t2_1000%%|*}
    t2_2000=${tsc_out#*msr 0x10 } t2_2000=${t2_2000%%|*}
    if [ "$t0_1000" = "$t0_2000" ] && [ "$t2_1000" -le "$cycles_1000" ] &&
        [ "$t2_2000" -le "$tsc_cycles" ]; then pass; else
        fail "emulate -m $1 $2: '$out_1000' ($cycles_1000 cycles), '$tsc_out' ($tsc_cycles cycles)"
    fi
    [ "$1" = p5 ] || return 0
    loop_1000=${out_1000#*|loop 1000: } loop_2000=${tsc_out#*|loop 2000: }
    if [ $((${loop_2000% cycles|} - ${loop_1000% cycles|})) = 1000 ]; then pass; else
        fail "$2 on the P5: loop 1000 '$loop_1000', loop 2000 '$loop_2000': not one clock an iteration"
    fi
}
tsc_check p5 "$progs/tsc64"
tsc_check netburst-prescott4 "$progs/tsc64"
# 32-bit code: RDTSC through valgrind's x86 helper.
if [ -x "$progs/tsc32" ]; then
    tsc_check p5 "$progs/tsc32"
    tsc_check netburst "$progs/tsc32"
fi

# The same program twice: the same output and summary, on each model (the
# stack's and the mappings' addresses, which randomisation would move,
# change cycles on both).
for emu_model in p5 netburst; do
    pmubench emulate -m $emu_model -- "$progs/tsc64" 1000 >"$emu/a.out" 2>"$emu/a.err"
    pmubench emulate -m $emu_model -- "$progs/tsc64" 1000 >"$emu/b.out" 2>"$emu/b.err"
    if cmp -s "$emu/a.out" "$emu/b.out" && cmp -s "$emu/a.err" "$emu/b.err"; then pass; else
        fail "emulate -m $emu_model twice: '$(cat "$emu/a.out" "$emu/a.err")' then '$(cat "$emu/b.out" "$emu/b.err")'"
    fi
done

# -o TRACE: the run's trace, which stat replays to the summary's counts
# (the model drains at an MSR record whether a hook answers or not).
for model in p5 netburst-prescott4; do
    pmubench emulate -m $model -o "$emu/run.trace" -- "$progs/tsc64" 1000 >/dev/null 2>"$emu/err" ||
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
# The limit, 16 KB under sh's 512-byte blocks, is below the trace's 47 KB
# and above the files a coverage build writes at exit (gcov's .gcda, 7 KB
# at most), which it would otherwise end with SIGXFSZ.
rm -f "$emu/run.trace"
(ulimit -f 32 && pmubench emulate -m p5 -o "$emu/run.trace" -- "$progs/tsc64" 10) >/dev/null \
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

# Children (docs/emulate.md, "Children"): the programs a program runs run
# on the same machine, one after another.  msr-tools' wrmsr and rdmsr
# program and read instr_retired around the work program from a shell
# script (tests/emulate/msrtools.sh): the two counts are exactly 2 * 10^6
# apart, the loop's difference.
emulate_runs netburst "difference 2000000, expected 2 * 1000000 = 2000000: ok" \
    "2 MSR reads, 10 MSR writes (0 failed)" sh tests/emulate/msrtools.sh "$progs/work64"
# The run's trace (-o), every process's, replays to the summary's counts;
# pmubench's exit status is the outermost program's.
pmubench emulate -m p5 -o "$emu/children.trace" -- \
    sh -c "\"$progs/work64\" 1000; \"$progs/work64\" 2000; exit 3" >/dev/null 2>"$emu/err"
status=$?
want=$(sed -n 's/.*: \([0-9]*\) instructions, \([0-9]*\) cycles,.*/\1 \2/p' "$emu/err")
pmubench stat -m p5 --trace "$emu/children.trace" >"$emu/stat" 2>/dev/null ||
    fail "stat -m p5 of the children's trace: status $?"
got="$(sed -n 's/^ *\([0-9]*\) *instructions simulated per run$/\1/p' "$emu/stat") $(
    sed -n 's/^ *\([0-9]*\) *clocks per run$/\1/p' "$emu/stat")"
if [ $status = 3 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then pass; else
    fail "emulate -o with children: status $status, summary '$want', stat of the trace '$got'"; fi
# Programs of both instruction sets: a 32-bit child of the 64-bit shell
# runs decoded as 32-bit code (an ISA record before its code and one after,
# which trace dump prints); the run's trace replays to the same counts;
# trace convert cannot give it one header (status 2, nothing written).
if [ -x "$progs/work32" ]; then
    pmubench emulate -m p5 -o "$emu/mixed.trace" -- sh -c "\"$progs/work32\" 1000; exit 0" \
        >/dev/null 2>"$emu/err"
    status=$?
    want=$(sed -n 's/.*: \([0-9]*\) instructions, \([0-9]*\) cycles,.*/\1 \2/p' "$emu/err")
    pmubench stat -m p5 --trace "$emu/mixed.trace" >"$emu/stat" 2>/dev/null
    got="$(sed -n 's/^ *\([0-9]*\) *instructions_executed$/\1/p' "$emu/stat") $(
        sed -n 's/^ *\([0-9]*\) *clocks$/\1/p' "$emu/stat")"
    isas=$(pmubench trace dump "$emu/mixed.trace" | grep '^isa ' | tr '\n' '|')
    if [ $status = 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] &&
        [ "$isas" = "isa 32-bit|isa 64-bit|" ]; then pass; else
        fail "emulate of a 32-bit child: status $status, summary '$want', stat '$got', '$isas'"
    fi
    expect 2 "$emu/mixed.trace: programs of both instruction sets (an emulated run's processes): one trace of one instruction set cannot hold them" \
        -- trace convert "$emu/mixed.trace" "$emu/converted.trace"
    if [ -e "$emu/converted.trace" ]; then fail "trace convert left $emu/converted.trace"; else pass; fi
fi
# Processes that run at the same time (a background job) cannot be one
# machine's: status 1, the two processes named.
pmubench emulate -m p5 -- sh -c "\"$progs/work64\" 20000000 & \"$progs/work64\" 20000000; wait" \
    >/dev/null 2>"$emu/err"
status=$?
case $status:$(cat "$emu/err") in
"1:pmubench emulate: sh: process "*" wrote its trace while process "*" ran (the emulated machine runs one process at a time: no pipelines or background jobs)")
    pass ;;
*) fail "emulate of a background job: status $status, '$(cat "$emu/err")'" ;;
esac
# A program valgrind cannot start (its "#!" interpreter is missing): bad
# input, as for record, after valgrind's own line.
printf '#!%s/no-such-interpreter\n' "$tmp" >"$emu/bad-interpreter"
chmod +x "$emu/bad-interpreter"
pmubench emulate -- "$emu/bad-interpreter" >/dev/null 2>"$emu/err"
status=$?
if [ $status = 2 ] && [ "$(tail -1 "$emu/err")" = "pmubench emulate: cannot start $emu/bad-interpreter" ]; then
    pass; else fail "emulate of a bad interpreter: status $status, '$(cat "$emu/err")'"; fi

# A program from elsewhere (tests/emulate/prfcnt/README.md): prfcnt's test,
# unmodified, programs nine counters through /dev/cpu/0/msr (lseek and
# write) for both logical processors and prints them.  On a machine with
# Hyper-Threading (--ht) its instructions-retired count, "iret (nbogus)",
# is its two loops over 2^24 bytes -- a whole number of 2^20 instructions
# for code that takes a power of two bytes an iteration (1, or 16 with SSE)
# -- and the instructions around them from the enabling write of that
# counter to its disabling write: the other counters' enabling and
# disabling writes (at most 8 of each, an lseek and a write each), fewer than
# 2^11 instructions.
pmubench emulate --ht -- "$progs/prfcnt64" >"$emu/out" 2>"$emu/err"
status=$?
iret=$(sed -n 's/^[[:space:]]*iret (nbogus):[[:space:]]*\([0-9]*\)$/\1/p' "$emu/out")
total=$(sed -n 's/.*: \([0-9]*\) instructions, .*/\1/p' "$emu/err")
if [ $status = 0 ] && [ "$(grep -c ':  *[0-9][0-9]*$' "$emu/out")" = 9 ] && [ -n "$iret" ] &&
    [ "$iret" -ge 1048576 ] && [ $((iret % 1048576)) -lt 2048 ] && [ "$iret" -lt "$total" ] &&
    case $(cat "$emu/err") in *" 9 MSR reads, 47 MSR writes (0 failed)") true ;; *) false ;; esac
then pass; else
    fail "emulate --ht prfcnt64: status $status, iret '$iret' of $total: $(tr '\n' '|' <"$emu/out" "$emu/err")"
fi
# Without Hyper-Threading the T1 bits of its first ESCR are reserved: the
# write fails with EIO, which it reports, and it exits 1.
pmubench emulate -- "$progs/prfcnt64" >"$emu/out" 2>"$emu/err"
status=$?
if [ $status = 1 ] && [ "$(head -1 "$emu/err")" = "write: Input/output error" ] &&
    case $(tail -1 "$emu/err") in *" 0 MSR reads, 4 MSR writes (1 failed)") true ;; *) false ;; esac
then pass; else fail "emulate prfcnt64 without --ht: status $status, $(tr '\n' '|' <"$emu/err")"; fi
expect 2 "pmubench emulate: --ht: the P5 has no Hyper-Threading" -- emulate -m p5 --ht -- true
# /dev/cpu/1/msr: logical processor 1's view with --ht (the ESCRs are one
# pair of registers for both: a write through one reads back through the
# other); without --ht the driver's ENXIO, which rdmsr reports.
emulate_options=--ht
emulate_runs netburst "4000601|4000601" "2 MSR reads, 1 MSR writes (0 failed)" \
    sh -c 'wrmsr -p1 0x3b8 0x4000601; echo "$(rdmsr -p1 0x3b8)|$(rdmsr -p0 0x3b8)"'
emulate_options=
pmubench emulate -- sh -c 'rdmsr -p1 0x3b8' >/dev/null 2>"$emu/err"
status=$?
if [ $status = 2 ] && [ "$(head -1 "$emu/err")" = "rdmsr: No CPU 1" ]; then pass; else
    fail "emulate rdmsr -p1 without --ht: status $status, $(tr '\n' '|' <"$emu/err")"; fi

# --vcd FILE: the PMU's waveform, every cycle (pmu/waveform/pmu_signals.h),
# and its GTKWave save file beside it.  The run is the one without it (the
# same output and summary); the counter selfmon reads, IQ_COUNTER0, holds
# in the waveform each value the program read; the dump ends at the
# summary's cycles.  Likewise on the P5 (CTR0).
vcd_values() { # FILE SCOPE: the decimal values of the scope's `value` signal
    awk -v scope="$2" '
        $1 == "$scope" && $3 == scope { in_scope = 1 }
        in_scope && $1 == "$var" && $5 == "value" { id = $4; in_scope = 0 }
        id != "" && substr($1, 1, 1) == "b" && $2 == id {
            v = 0; for (i = 2; i <= length($1); i++) v = v * 2 + substr($1, i, 1); print v
        }' "$1" | tr '\n' ' '
}
for emu_model in netburst p5; do
    program=$progs/selfmon64 scope=IQ_COUNTER0
    [ $emu_model = p5 ] && program=$progs/selfmon_p564 scope=CTR0
    pmubench emulate -m $emu_model -- "$program" 100 >"$emu/plain.out" 2>"$emu/plain.err"
    pmubench emulate -m $emu_model --vcd "$emu/run.vcd" -- "$program" 100 >"$emu/out" 2>"$emu/err"
    status=$?
    read0=$(sed -n 's/^loop 0: counted \([0-9]*\)$/\1/p' "$emu/out")
    read100=$(sed -n 's/^loop 100: counted \([0-9]*\)$/\1/p' "$emu/out")
    cycles=$(sed -n 's/.* instructions, \([0-9]*\) cycles,.*/\1/p' "$emu/err")
    values=" $(vcd_values "$emu/run.vcd" "$scope")"
    if [ $status = 0 ] && cmp -s "$emu/out" "$emu/plain.out" && cmp -s "$emu/err" "$emu/plain.err" &&
        [ -n "$read0" ] && case $values in *" $read0 "*" $read100 "*) true ;; *) false ;; esac &&
        [ "$(tail -1 "$emu/run.vcd")" = "#$cycles" ] && [ -s "$emu/run.gtkw" ]; then pass; else
        fail "emulate -m $emu_model --vcd: status $status, reads $read0 $read100, $scope values '$values', end '$(tail -1 "$emu/run.vcd")' of $cycles cycles"
    fi
done
expect 2 "pmubench emulate: -o '$emu/same' and --vcd '$emu/same' are the same file" \
    -- emulate -o "$emu/same" --vcd "$emu/same" -- true
expect 1 "pmubench emulate: $tmp/no-such-dir/w.vcd: cannot create: No such file or directory" \
    -- emulate --vcd "$tmp/no-such-dir/w.vcd" -- true

# RDPMC, which valgrind's decoder does not have, raises SIGILL (natively
# SIGSEGV: CR4.PCE clear); an instruction that faults does not retire, and
# is not in the trace: neither RDPMC (0f 33) nor the UD2 (0f 0b) whose
# SIGILL the program catches (tests/emulate/rdpmc.c).
pmubench emulate -o "$emu/rdpmc.trace" -- "$progs/rdpmc64" >"$emu/out" 2>"$emu/err"
status=$?
faulting=$(pmubench trace dump "$emu/rdpmc.trace" | grep -c 'bytes 0f 33\|bytes 0f 0b')
if [ $status = 0 ] && [ "$(tr '\n' '|' <"$emu/out")" = "rdpmc: SIGILL|ud2: SIGILL|" ] &&
    [ "$faulting" = 0 ]; then pass; else
    fail "emulate rdpmc64: status $status, '$(tr '\n' '|' <"$emu/out")', $faulting faulting instructions in the trace"
fi
