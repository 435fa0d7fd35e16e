#!/bin/sh
# accuracy.sh BUILD: the recorder's accuracy bar (docs/traces.md
# "Accuracy tests and the benchmark"): for real programs, the instruction
# and branch counts of a `pmubench record` trace (`pmubench trace info
# --json`) against a native run of the same program and input, under the
# environment `pmubench record --env` prints.  Bar: within 0.5% each.
#
# The native reference is always tests/traces/stepcount.c, a ptrace
# single-stepping counter (BUILD/tests/stepcount, else compiled here against
# BUILD/libpmubench.a), run after the recording as `stepcount --cpu-of TRACE
# --no-vdso`: the native program sees the CPU the recording saw (CPUID and
# XGETBV answered from the CPU view in the trace's header) and runs without
# the vDSO, as valgrind runs it, so both runs execute the same instructions
# on any host.  (perf stat cannot give a native run the recording's CPUID
# without CPUID faulting, so it is not used.)
#
# The programs, each on a prefix of tests/traces/make_text.sh's text cut at
# a line end and sized for some 1.0-1.2 million instructions (grep's 2.2:
# see below; single-stepping runs some 30,000-60,000 instructions a
# second): the compute
# kernel tests/traces/kernel.c built 32-bit and static (REP string
# instructions; BUILD/tests/kernel32, else compiled here; 64-bit static
# when there is no 32-bit recorder or libc); /usr/bin/wc and /usr/bin/sort;
# and Debian programs nobody here wrote, which must be installed (a missing
# one is a FAIL line): gzip -c, sed, md5sum, grep -c -F and awk (mawk).
# Programs write to /dev/null.  Two lanes run at once (two CPUs), each
# recording then stepping its programs in turn.
#
# The P5 model's bars (docs/p5-model.md "Accuracy"), on the wc of
# the case study built with glibc's getc (BUILD/wc/wc-getc, traces/wc/wc.c:
# the longer of its two builds, so that the recorder's fixed start-up
# difference, docs/traces.md, weighs as it did when the bars were set)
# over the first 30,000 bytes
# of its input (BUILD/wc/input.txt, cut at a line end): the simulated
# instructions_executed and branches (`pmubench stat -m p5`) within 0.5% of
# the native run's instructions and branches, and the simulated data_read
# and data_write within 2% of valgrind lackey's loads and stores of the same
# program and input (`pmubench compare ... lackey:`).  Skipped (one line
# "accuracy: p5 skipped") when BUILD/wc is not built.
#
# Prints one line per program and count, starting "ok" (within the bar) or
# "FAIL"; exits 1 when any is outside the bar, a program is missing or a
# run fails.  Without a recorder it prints one line starting "accuracy:
# skipped" and exits 0.  CC names the compiler (default cc).
set -u
build=${1:?usage: accuracy.sh BUILD}
cc=${CC:-cc}
pmubench=$build/pmubench
bar=0.5

if [ ! -x "$pmubench" ] || [ ! -x "$build/recorder/pmutrace-amd64-linux" ]; then
    echo "accuracy: skipped: $pmubench or $build/recorder/pmutrace-amd64-linux is missing (make BUILD=$build all recorder)"
    exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O2"
echo "accuracy: reference: ptrace single-stepping with the recording's CPU view and no vDSO (stepcount --cpu-of TRACE --no-vdso)"
stepcount=$build/tests/stepcount
if [ ! -x "$stepcount" ]; then
    stepcount=$tmp/stepcount
    # shellcheck disable=SC2086
    if ! $cc $cflags -I. -o "$stepcount" tests/traces/stepcount.c "$build/libpmubench.a" -lcapstone \
        2>"$tmp/cc.err"; then
        echo "FAIL stepcount: tests/traces/stepcount.c does not build: $(head -1 "$tmp/cc.err")"
        exit 1
    fi
fi

# The compute kernel: 32-bit static where the 32-bit recorder is built (and
# gcc -m32 links, for a kernel not built by make), else 64-bit static.
kernel='' kernel_name=kernel32
if [ -x "$build/recorder/pmutrace-x86-linux" ]; then
    kernel=$build/tests/kernel32
    if [ ! -x "$kernel" ]; then
        kernel=$tmp/kernel32
        # shellcheck disable=SC2086
        $cc -m32 -static $cflags -o "$kernel" tests/traces/kernel.c 2>/dev/null || kernel=
    fi
fi
if [ -z "$kernel" ]; then
    kernel=$tmp/kernel64 kernel_name=kernel64
    # shellcheck disable=SC2086
    if ! $cc -static $cflags -o "$kernel" tests/traces/kernel.c 2>"$tmp/cc.err"; then
        echo "FAIL kernel: tests/traces/kernel.c does not build: $(head -1 "$tmp/cc.err")"
        exit 1
    fi
fi

# text N: the first N bytes of the text cut at a line end, into $tmp/textN.
sh tests/traces/make_text.sh >"$tmp/text"
text() { head -c "$1" "$tmp/text" | sed '$d' >"$tmp/text$1"; }
for n in 2000 7000 18000 26000 28000 80000; do
    text $n
done
(for n in 1 2 3 4 5 6 7; do cat "$tmp/text"; done; echo qzxw) >"$tmp/text7"

env_vars=$("$pmubench" record --env)
failed=0

# The Debian programs, by absolute path in both runs; a missing one fails
# (all are in Debian's base system).
missing() {
    echo "FAIL $1: $1 is not installed (Debian package $2)"
    failed=1
}
gzip_path=$(command -v gzip) || missing gzip gzip
sed_path=$(command -v sed) || missing sed sed
md5sum_path=$(command -v md5sum) || missing md5sum coreutils
grep_path=$(command -v grep) || missing grep grep
awk_path=$(command -v awk) || missing awk mawk

# record NAME PROGRAM ARGS...: records into $tmp/NAME.trace.
record() {
    name=$1
    shift
    "$pmubench" record -o "$tmp/$name.trace" -- "$@" >/dev/null 2>"$tmp/$name.record.err"
    echo $? >"$tmp/$name.record.status"
}

# native NAME PROGRAM ARGS...: the native run's counts into $tmp/NAME.native
# ("INSTRUCTIONS BRANCHES", empty on failure, the reason in NAME.err),
# single-stepped with the CPU view of NAME's recording and no vDSO.
native() {
    name=$1
    shift
    # shellcheck disable=SC2086
    env $env_vars "$stepcount" -o "$tmp/$name.out" --cpu-of "$tmp/$name.trace" --no-vdso \
        "$@" >/dev/null 2>"$tmp/$name.err"
    status=$?
    if [ $status = 0 ]; then
        mv "$tmp/$name.out" "$tmp/$name.native"
    else
        : >"$tmp/$name.native"
        [ -s "$tmp/$name.err" ] || echo "exit status $status" >"$tmp/$name.err"
    fi
}

# run NAME PROGRAM ARGS...: records, then steps the native run (nothing
# when PROGRAM is empty: a program not installed).
run() {
    [ -n "$2" ] || return 0
    record "$@"
    [ "$(cat "$tmp/$1.record.status")" = 0 ] && native "$@"
}

# compare NAME: the trace's counts against NAME.native.
compare() {
    name=$1
    [ -f "$tmp/$name.record.status" ] || return 0
    if [ "$(cat "$tmp/$name.record.status")" != 0 ]; then
        echo "FAIL $name: pmubench record failed: $(head -1 "$tmp/$name.record.err")"; failed=1; return
    fi
    native=$(cat "$tmp/$name.native")
    if [ -z "$native" ]; then
        echo "FAIL $name: the native run failed: $(head -1 "$tmp/$name.err")"; failed=1; return
    fi
    recorded=$("$pmubench" trace info --json "$tmp/$name.trace" |
        sed -n 's/.*"instructions": \([0-9]*\), "branches": \([0-9]*\),.*/\1 \2/p')
    # shellcheck disable=SC2086
    set -- $native $recorded
    for what in instructions branches; do
        if [ $what = instructions ]; then n=$1 r=$3; else n=$2 r=$4; fi
        line=$(awk -v n="$n" -v r="$r" -v bar="$bar" -v name="$name" -v what="$what" 'BEGIN {
            d = n ? 100 * (r - n) / n : 0
            printf "%s %-8s %-12s native %11d  recorded %11d  difference %+7.3f%%\n",
                (d <= bar && d >= -bar) ? "ok  " : "FAIL", name, what, n, r, d }')
        echo "$line"
        case $line in FAIL*) failed=1 ;; esac
    done
}

# check NAME WHAT REFERENCE VALUE BAR: one "ok"/"FAIL" line.
check() {
    line=$(awk -v name="$1" -v what="$2" -v n="$3" -v r="$4" -v bar="$5" 'BEGIN {
        d = n ? 100 * (r - n) / n : 0
        printf "%s %-8s %-12s reference %11d  simulated %11d  difference %+7.3f%% (bar %s%%)\n",
            (d <= bar && d >= -bar) ? "ok  " : "FAIL", name, what, n, r, d, bar }')
    echo "$line"
    case $line in FAIL*) failed=1 ;; esac
}

# The P5 model against the native run (instructions, branches) and lackey
# (loads, stores) of the case study's wc.
p5_model() {
    if [ "$(cat "$tmp/wc-p5.record.status")" != 0 ] || [ ! -s "$tmp/wc-p5.native" ]; then
        echo "FAIL wc-p5: the recording or the native run failed: $(cat "$tmp/wc-p5.record.err" "$tmp/wc-p5.err" 2>/dev/null | head -1)"
        failed=1; return
    fi
    if ! "$pmubench" stat -m p5 --json -o "$tmp/wc-p5.json" \
        -e instructions_executed,branches,data_read,data_write --trace "$tmp/wc-p5.trace" 2>"$tmp/stat.err"; then
        echo "FAIL wc-p5: pmubench stat failed: $(head -1 "$tmp/stat.err")"; failed=1; return
    fi
    # shellcheck disable=SC2046
    set -- $(cat "$tmp/wc-p5.native")
    check wc-p5 instructions "$1" "$(json_count instructions_executed)" $bar
    check wc-p5 branches "$2" "$(json_count branches)" $bar
    if ! "$pmubench" compare -x '|' "$tmp/wc-p5.json" lackey: -- "$wc" "$tmp/input30" \
        >"$tmp/lackey.txt" 2>"$tmp/lackey.err"; then
        echo "FAIL wc-p5: pmubench compare lackey: failed: $(head -1 "$tmp/lackey.err")"; failed=1; return
    fi
    for pair in "data_read / loads" "data_write / stores"; do
        row=$(awk -F'|' -v e="$pair" '$1 == e {print $3, $2}' "$tmp/lackey.txt")
        # shellcheck disable=SC2086
        check wc-p5 "${pair##*/ }" $row 2
    done
}

json_count() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$tmp/wc-p5.json"; }

wc=$build/wc/wc-getc
if [ -x "$wc" ] && [ -f "$build/wc/input.txt" ]; then
    head -c 30000 "$build/wc/input.txt" | sed '$d' >"$tmp/input30"
fi

echo "accuracy: pmubench record against native runs (both under pmubench record --env); bar ${bar}%"
# Two lanes of about equal instructions, each program recorded then
# stepped; the comparisons once both lanes are done.
(
    run $kernel_name "$kernel"
    run wc /usr/bin/wc "$tmp/text18000"
    run sed "$sed_path" -e 's/[aeiou]/X/g' "$tmp/text2000"
    run md5sum "$md5sum_path" "$tmp/text80000"
    [ -f "$tmp/input30" ] && run wc-p5 "$wc" "$tmp/input30"
) &
(
    run sort /usr/bin/sort "$tmp/text26000"
    run gzip "$gzip_path" -c "$tmp/text7000"
    # grep's start-up is some 0.57 M instructions, and it reads
    # /proc/self/maps there (libsigsegv's stack check), which under
    # valgrind lists valgrind's mappings too: some 3,500 instructions and
    # 1,100 branches more recorded, whatever the input (docs/traces.md,
    # "Measured figures").  With its output on /dev/null grep stops at the
    # first match, so the string it looks for is the last line of seven
    # copies of the text (2.2 M instructions, 0.53 M branches).
    run grep "$grep_path" -c -F qzxw "$tmp/text7"
    run awk "$awk_path" '{n+=NF} END {print n}' "$tmp/text28000"
) &
wait
for name in $kernel_name wc sort gzip sed md5sum grep awk; do
    compare "$name"
done
if [ -f "$tmp/input30" ]; then
    echo "accuracy: the P5 model (pmubench stat -m p5) against the native run and lackey"
    p5_model
else
    echo "accuracy: p5 skipped: $wc is not built (make BUILD=$build wc)"
fi
exit $failed
