#!/bin/sh
# accuracy.sh BUILD: the recorder's accuracy bar (issue 4, docs/traces.md
# "Accuracy tests and the benchmark"): for three real programs, the
# instruction and branch counts of a `pmubench record` trace (`pmubench trace
# info --json`) against a native run of the same program and input, under
# the environment `pmubench record --env` prints.  Bar: within 0.5% each.
#
# The native reference is `perf stat -e instructions:u,branches:u` where perf
# counts those events.  Where it cannot (no perf, or `<not supported>`: a
# virtual machine without a PMU driver) it is tests/traces/stepcount.c, a
# ptrace single-stepping counter (BUILD/tests/stepcount, else compiled here),
# and the first line says so.
#
# The programs: tests/traces/kernel.c built 32-bit and static (a compute
# kernel with REP string instructions; BUILD/tests/kernel32, else compiled
# here; 64-bit static when there is no 32-bit recorder or libc), and
# /usr/bin/wc and /usr/bin/sort on deterministic texts (the first 30,000 and
# 36,000 bytes of tests/traces/make_text.sh, cut at a line end): some 1.4 to
# 1.7 million instructions each, so that single-stepping them takes about
# 20-30 s each (the three run at once).
#
# The P5 model's bars (issue 5, docs/p5-model.md "Accuracy"), on the wc of
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
# "FAIL"; exits 1 when any is outside the bar.  Without a recorder, or with
# neither perf nor a way to build the stepper, it prints one line starting
# "accuracy: skipped" and exits 0.  PERF names the perf binary (default
# perf), CC the compiler (default cc).
set -u
build=${1:?usage: accuracy.sh BUILD}
perf=${PERF:-perf}
cc=${CC:-cc}
pmubench=$build/pmubench
bar=0.5

if [ ! -x "$pmubench" ] || [ ! -x "$build/recorder/pmutrace-amd64-linux" ]; then
    echo "accuracy: skipped: $pmubench or $build/recorder/pmutrace-amd64-linux is missing (make BUILD=$build all recorder)"
    exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# perf_counts FILE: "INSTRUCTIONS BRANCHES" from perf stat -x, output
# (summing the lines of a hybrid CPU's core types), or nothing when either
# count is missing or not a number.
perf_counts() {
    awk -F, '
        /^#/ || NF < 3 { next }
        $3 ~ /instructions/ { if ($1 ~ /^[0-9]+$/) { i += $1; hi = 1 } else bad = 1 }
        $3 ~ /branches/ { if ($1 ~ /^[0-9]+$/) { b += $1; hb = 1 } else bad = 1 }
        END { if (hi && hb && !bad) printf "%d %d\n", i, b }' "$1"
}

cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O2"
if "$perf" stat -x, -o "$tmp/probe" -e instructions:u,branches:u true >/dev/null 2>&1 &&
    [ -n "$(perf_counts "$tmp/probe")" ]; then
    reference=perf
    echo "accuracy: reference: perf stat -e instructions:u,branches:u"
else
    why=$(awk -F, '!/^#/ && NF >= 3 && $1 !~ /^[0-9]+$/ {print $1 " " $3; exit}' "$tmp/probe" 2>/dev/null)
    reference=stepcount
    stepcount=$build/tests/stepcount
    if [ ! -x "$stepcount" ]; then
        stepcount=$tmp/stepcount
        # shellcheck disable=SC2086
        if ! $cc $cflags -o "$stepcount" tests/traces/stepcount.c 2>"$tmp/cc.err"; then
            echo "accuracy: skipped: perf cannot count here (${why:-perf not usable}) and tests/traces/stepcount.c does not build: $(head -1 "$tmp/cc.err")"
            exit 0
        fi
    fi
    echo "accuracy: reference: ptrace single-stepping (perf cannot count here)"
    echo "accuracy: perf stat -e instructions:u,branches:u: ${why:-perf not usable}"
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

sh tests/traces/make_text.sh >"$tmp/text"
head -c 30000 "$tmp/text" | sed '$d' >"$tmp/text30"
head -c 36000 "$tmp/text" | sed '$d' >"$tmp/text36"

env_vars=$("$pmubench" record --env)
failed=0

# native NAME PROGRAM ARGS...: the native run's counts into $tmp/NAME.native
# ("INSTRUCTIONS BRANCHES", empty on failure, the reason in NAME.err).  The
# stepper runs in the background (the runs take some 20-30 s each).
native() {
    name=$1
    shift
    if [ $reference = perf ]; then
        # shellcheck disable=SC2086
        if env $env_vars "$perf" stat -x, -o "$tmp/$name.perf" -e instructions:u,branches:u "$@" \
            >/dev/null 2>"$tmp/$name.err"; then
            perf_counts "$tmp/$name.perf" >"$tmp/$name.native"
            [ -s "$tmp/$name.native" ] ||
                echo "perf gave no counts: $(grep -v '^#' "$tmp/$name.perf" | head -2 | tr '\n' ' ')" >"$tmp/$name.err"
        else
            : >"$tmp/$name.native"
        fi
    else
        # shellcheck disable=SC2086
        (if env $env_vars "$stepcount" -o "$tmp/$name.out" "$@" >/dev/null 2>"$tmp/$name.err"; then
            mv "$tmp/$name.out" "$tmp/$name.native"
        else
            : >"$tmp/$name.native"
        fi) &
    fi
}

# record NAME PROGRAM ARGS...: records into $tmp/NAME.trace.
record() {
    name=$1
    shift
    "$pmubench" record -o "$tmp/$name.trace" -- "$@" >/dev/null 2>"$tmp/$name.record.err"
    echo $? >"$tmp/$name.record.status"
}

# compare NAME: the trace's counts against NAME.native.
compare() {
    name=$1
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
        echo "FAIL wc-p5: the recording or the native run failed: $(cat "$tmp/wc-p5.record.err" "$tmp/wc-p5.err" | head -1)"
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
# The native runs (the steppers in the background), the recordings, then
# the comparisons once every native count is in.
native $kernel_name "$kernel"
native wc /usr/bin/wc "$tmp/text30"
native sort /usr/bin/sort "$tmp/text36"
[ -f "$tmp/input30" ] && native wc-p5 "$wc" "$tmp/input30"
record $kernel_name "$kernel"
record wc /usr/bin/wc "$tmp/text30"
record sort /usr/bin/sort "$tmp/text36"
[ -f "$tmp/input30" ] && record wc-p5 "$wc" "$tmp/input30"
wait
for name in $kernel_name wc sort; do
    compare "$name"
done
if [ -f "$tmp/input30" ]; then
    echo "accuracy: the P5 model (pmubench stat -m p5) against the native run and lackey"
    p5_model
else
    echo "accuracy: p5 skipped: $wc is not built (make BUILD=$build wc)"
fi
exit $failed
