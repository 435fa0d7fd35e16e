# `pmubench record --cpu` (docs/traces.md, "The CPU view"), sourced by
# run_tests.sh after tests/cli_tests.sh (uses expect, expect_usage, pass,
# fail, pmubench, $build, $tmp): tests/traces/cpuid_show.c prints what its
# CPUID answers, recorded with each part's view and the host's; a glibc
# string routine as each view makes glibc choose it.

cpuid_show=$tmp/cpuid_show
if ! cc -O2 -o "$cpuid_show" tests/traces/cpuid_show.c 2>"$tmp/cc.err"; then
    fail "cpuid_show does not build: $(head -1 "$tmp/cc.err")"
fi

# record_cpu CPU PROGRAM ARGS...: records with --cpu CPU into
# $tmp/cpu-CPU.trace, the program's output into $tmp/cpu-CPU.out.
record_cpu() {
    cpu=$1
    shift
    pmubench record --cpu "$cpu" -o "$tmp/cpu-$cpu.trace" -- "$@" >"$tmp/cpu-$cpu.out" \
        2>"$tmp/cpu-$cpu.err" || fail "record --cpu $cpu: $(head -1 "$tmp/cpu-$cpu.err")"
}

# expect_lines CPU WHAT LINE...: each LINE is in the program's output.
expect_lines() {
    cpu=$1 what=$2
    shift 2
    for line; do
        if grep -qxF "$line" "$tmp/cpu-$cpu.out"; then pass; else
            fail "record --cpu $cpu: $what: no line '$line' in: $(tr '\n' '|' <"$tmp/cpu-$cpu.out")"
        fi
    done
}

# A 64-bit program sees each part, with the x86-64 baseline where the part
# had no 64-bit mode (leaf 1 EDX | 0x07808101, 0x80000001 EDX SYSCALL|LM).
record_cpu p5 "$cpuid_show"
if [ "$(cat "$tmp/cpu-p5.out")" = "00000000.0: 00000001 756e6547 6c65746e 49656e69
00000001.0: 00000525 00000000 00000000 078081bf
80000000.0: 80000001 00000000 00000000 00000000
80000001.0: 00000000 00000000 00000000 20000800" ]; then pass; else
    fail "record --cpu p5: $(tr '\n' '|' <"$tmp/cpu-p5.out")"; fi
if [ "$(cat "$tmp/cpu-p5.err")" = "pmubench record: warning: $cpuid_show is a 64-bit program, which the p5 could not run: it saw the part's CPUID with the x86-64 baseline added (docs/traces.md, \"The CPU view\")" ]; then
    pass; else fail "record --cpu p5: stderr '$(cat "$tmp/cpu-p5.err")'"; fi
record_cpu pmmx "$cpuid_show"
expect_lines pmmx "leaf 1" "00000001.0: 00000543 00000000 00000000 078081bf"
record_cpu netburst "$cpuid_show"
expect_lines netburst "Northwood" "00000000.0: 00000002 756e6547 6c65746e 49656e69" \
    "00000001.0: 00000f29 00020809 00004400 bfebfbff" \
    "00000002.0: 665b5001 00000000 00000000 007b7040" \
    "80000000.0: 80000004 00000000 00000000 00000000" \
    "80000001.0: 00000000 00000000 00000000 20000800" \
    "80000004.0: 20342029 20555043 30382e32 007a4847"
record_cpu netburst-willamette "$cpuid_show"
expect_lines netburst-willamette "leaf 1" "00000001.0: 00000f12 00010808 00000000 3febfbff"
record_cpu netburst-willamette0 "$cpuid_show"
expect_lines netburst-willamette0 "leaf 1" "00000001.0: 00000f0a 00010808 00000000 3febfbff"
record_cpu netburst-prescott "$cpuid_show"
expect_lines netburst-prescott "Prescott" "00000001.0: 00000f34 00020800 0000441d bfebfbff" \
    "00000004.1: 00004143 01c0103f 000003ff 00000000" "00000004.2: 00000000 00000000 00000000 00000000" \
    "00000005.0: 00000040 00000040 00000000 00000000" "80000008.0: 00002024 00000000 00000000 00000000"
# The EM64T Prescott: SYSCALL in 64-bit mode, no warning.
record_cpu netburst-prescott4 "$cpuid_show"
expect_lines netburst-prescott4 "Prescott-2M" "00000001.0: 00000f43 00020800 0000649d bfebfbff" \
    "80000001.0: 00000000 00000000 00000000 20100800"
if [ ! -s "$tmp/cpu-netburst-prescott4.err" ]; then pass; else
    fail "record --cpu netburst-prescott4: stderr '$(cat "$tmp/cpu-netburst-prescott4.err")'"; fi
# Every leaf the program read is the header's: trace info prints the view.
if pmubench trace info "$tmp/cpu-netburst-prescott4.trace" >"$tmp/cpu-info.txt" &&
    grep -qxF 'cpu           netburst-prescott4: GenuineIntel family 15 model 4 stepping 3, "              Intel(R) Pentium(R) 4 CPU 3.20GHz"' "$tmp/cpu-info.txt" &&
    grep -qxF '  cpuid 0x80000001.*  eax 0x00000000 ebx 0x00000000 ecx 0x00000000 edx 0x20100800' "$tmp/cpu-info.txt" &&
    grep -qxF '  cpuid 0x00000004.1  eax 0x00004143 ebx 0x01c0103f ecx 0x000007ff edx 0x00000000' "$tmp/cpu-info.txt"
then pass; else fail "trace info of a netburst-prescott4 recording: $(tr '\n' '|' <"$tmp/cpu-info.txt")"; fi

# The host's view: the host's vendor, no feature valgrind does not run.
record_cpu host "$cpuid_show"
vendor=$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -1)
if pmubench trace info --json "$tmp/cpu-host.trace" | grep -qF "\"cpu\": {\"name\": \"host\", \"vendor\": \"$vendor\""; then
    pass; else fail "record --cpu host: not the host's vendor $vendor"; fi
leaf7=$(sed -n 's/^00000007\.0: [0-9a-f]* \([0-9a-f]*\) \([0-9a-f]*\) \([0-9a-f]*\)$/\1 \2 \3/p' "$tmp/cpu-host.out")
# shellcheck disable=SC2086
set -- $leaf7
if [ $# = 3 ] && [ $((0x$1 & ~0x27aa)) = 0 ] && [ "$2$3" = 0000000000000000 ]; then pass; else
    fail "record --cpu host: leaf 7 '$leaf7' has features valgrind does not run"; fi
xcr0=$(sed -n 's/^xcr0: //p' "$tmp/cpu-host.out")
case $xcr0 in 0000000000000007 | 0000000000000003 | '') pass ;; *) fail "record --cpu host: XCR0 $xcr0" ;; esac
# record's default is the host's view.
pmubench record -o "$tmp/cpu-default.trace" -- "$cpuid_show" >"$tmp/cpu-default.out" 2>/dev/null
if cmp -s "$tmp/cpu-default.out" "$tmp/cpu-host.out"; then pass; else fail "record without --cpu: not the host's view"; fi

# glibc's strlen as each view makes it choose: on the Northwood (SSE2) no
# VEX-encoded instruction runs; on a host with AVX2 the routine is glibc's
# AVX2 one (C5 or C4 VEX prefixes) for 20,000 calls.
vex_count() { pmubench trace dump "$1" | grep -c ' bytes c[45] '; }
record_cpu netburst "$cpuid_show" 20000
if [ "$(vex_count "$tmp/cpu-netburst.trace")" = 0 ]; then pass; else
    fail "record --cpu netburst: VEX instructions ran"; fi
record_cpu host "$cpuid_show" 20000
if [ -n "$leaf7" ] && [ $((0x$1 & 0x20)) != 0 ]; then
    n=$(vex_count "$tmp/cpu-host.trace")
    if [ "$n" -gt 20000 ]; then pass; else fail "record --cpu host (AVX2): $n VEX instructions"; fi
fi

# A 32-bit program sees the part itself (no baseline added).  The P5 has no
# extended leaves: 0x80000000 is above its maximum and answers as its
# highest basic leaf, 1 (the SDM's CPUID rule for leaves above the maximum).
if [ -x "$build/recorder/pmutrace-x86-linux" ] &&
    cc -m32 -static -O2 -o "$tmp/cpuid_show32" tests/traces/cpuid_show.c 2>/dev/null; then
    record_cpu p5 "$tmp/cpuid_show32"
    if [ "$(cat "$tmp/cpu-p5.out")" = "00000000.0: 00000001 756e6547 6c65746e 49656e69
00000001.0: 00000525 00000000 00000000 000001bf
80000000.0: 00000525 00000000 00000000 000001bf" ] && [ ! -s "$tmp/cpu-p5.err" ]; then pass; else
        fail "record --cpu p5 (32-bit): $(tr '\n' '|' <"$tmp/cpu-p5.out") $(cat "$tmp/cpu-p5.err")"; fi
    record_cpu netburst-prescott4 "$tmp/cpuid_show32"
    expect_lines netburst-prescott4 "32-bit: no SYSCALL" "80000001.0: 00000000 00000000 00000000 20100000"
fi

# Bad input.
expect 2 "pmubench record: --cpu: unknown CPU 'pentium' (expected host, p5, pmmx, netburst, netburst-willamette, netburst-willamette0, netburst-northwood, netburst-prescott or netburst-prescott4)" -- \
    record --cpu pentium -o "$tmp/no.trace" -- "$cpuid_show"
[ ! -e "$tmp/no.trace" ] && pass || fail "record --cpu pentium wrote a trace"
expect_usage "pmubench record: --cpu needs a value" -- record --cpu
expect_usage "pmubench stat: --record-cpu needs '-- PROGRAM' and the simulated model (the CPU the recorded program sees)" -- \
    stat --record-cpu p5 --trace "$tmp/cpu-p5.trace"
# stat -- PROGRAM records with the model's part, or --record-cpu's.
expect 0 "" -- stat -m netburst-prescott4 -e instr_retired:NBOGUSNTAG -o "$tmp/cpu-stat.txt" -- "$cpuid_show"
if grep -qxF "00000001.0: 00000f43 00020800 0000649d bfebfbff" "$tmp/cli.out"; then pass; else
    fail "stat -m netburst-prescott4 -- PROGRAM: $(head -3 "$tmp/cli.out")"; fi
expect 0 "" -- stat -m netburst-prescott4 --record-cpu p5 -e instr_retired:NBOGUSNTAG -o "$tmp/cpu-stat.txt" -- "$cpuid_show"
if grep -qxF "00000001.0: 00000525 00000000 00000000 078081bf" "$tmp/cli.out"; then pass; else
    fail "stat --record-cpu p5 -- PROGRAM: $(head -3 "$tmp/cli.out")"; fi
expect_usage "pmubench stat: --record-cpu: unknown CPU 'pentium' (expected host, p5, pmmx, netburst, netburst-willamette, netburst-willamette0, netburst-northwood, netburst-prescott or netburst-prescott4)" -- \
    stat --record-cpu pentium -- "$cpuid_show"

# stat counts and names the instructions the trace's CPU lacks: 1000
# PSHUFBs (SSSE3) on the p5, none on the host's view (SSSE3 is one valgrind
# runs).
printf '%s\n' 'int main(void){for(int i=0;i<1000;i++)__asm__ volatile("pshufb %%xmm1, %%xmm0":::"xmm0");return 0;}' |
    cc -O2 -x c - -o "$tmp/pshufb" 2>/dev/null || fail "the PSHUFB program does not build"
pmubench stat -m p5 -e instructions_executed -o "$tmp/lacks.txt" -- "$tmp/pshufb" 2>"$tmp/lacks.err"
if grep -qE "^pmubench stat: warning: $tmp/pshufb: 1000 of [0-9]+ instructions need features the CPU it was recorded for \(p5\) lacks, first at 0x[0-9a-f]+ \(pshufb: SSSE3\); they were simulated as the model times them \(docs/stat.md, \"Instructions the CPU lacks\"\)$" "$tmp/lacks.err"; then
    pass; else fail "stat -m p5 of 1000 PSHUFBs: '$(cat "$tmp/lacks.err")'"; fi
pmubench stat -m host -e instructions_executed -o "$tmp/lacks.txt" -- "$tmp/pshufb" 2>"$tmp/lacks.err"
if ! grep -q "lacks" "$tmp/lacks.err"; then pass; else fail "stat -m host: '$(cat "$tmp/lacks.err")'"; fi

# The tool refuses a view the trace reader would refuse.
valgrind_bin=/usr/bin/valgrind.bin
[ -x "$valgrind_bin" ] || valgrind_bin=valgrind
if VALGRIND_LIB=$build/recorder "$valgrind_bin" -q --tool=pmutrace --pmutrace-fd=2 \
    --pmutrace-cpu=x --pmutrace-cpuid=00000001ffffffff00000000000000000000000000000000 \
    "$cpuid_show" >"$tmp/cli.out" 2>"$tmp/tool.err"; then fail "the tool took a bad --pmutrace-cpuid"
elif grep -q "pmutrace: --pmutrace-cpuid: expected 48 hex digits a CPUID leaf, leaf 0 first, in increasing order" "$tmp/tool.err" &&
    [ ! -s "$tmp/cli.out" ]; then
    pass; else fail "the tool's message for a bad --pmutrace-cpuid: $(head -3 "$tmp/tool.err")"; fi

# The stepper refuses a trace it cannot read a view from: one line, status 2.
if [ -x "$build/tests/stepcount" ]; then
    "$build/tests/stepcount" --cpu-of "$tmp/none.trace" true >/dev/null 2>"$tmp/step.err"
    status=$?
    if [ $status = 2 ] &&
        [ "$(cat "$tmp/step.err")" = "stepcount: $tmp/none.trace: cannot open: No such file or directory" ]; then
        pass; else fail "stepcount --cpu-of a missing trace: status $status, '$(cat "$tmp/step.err")'"; fi
fi
