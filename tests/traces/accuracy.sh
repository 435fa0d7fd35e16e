#!/bin/sh
# accuracy.sh BUILD: the recorder's accuracy bar (issue 4, docs/traces.md
# "Recording"): for three real programs, the instruction and branch counts
# of a `pmubench record` trace (`pmubench trace info --json`) against
# `perf stat -e instructions:u,branches:u` of a native run of the same
# program and input, under the environment `pmubench record --env` prints.
# Bar: within 0.5% each.
#
# Prints one line per program and count, starting "ok" (within the bar) or
# "FAIL"; exits 1 when any is outside the bar.  Where perf cannot count those
# events (no perf, or `<not supported>`: a virtual machine without a PMU
# driver) it prints one line starting "accuracy: skipped" and exits 0:
# nothing is compared.  PERF names the perf binary (default perf).
set -u
build=${1:?usage: accuracy.sh BUILD}
perf=${PERF:-perf}
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

if ! "$perf" stat -x, -o "$tmp/probe" -e instructions:u,branches:u true >/dev/null 2>&1 ||
    [ -z "$(perf_counts "$tmp/probe")" ]; then
    why=$(awk -F, '!/^#/ && NF >= 3 && $1 !~ /^[0-9]+$/ {print $1 " " $3; exit}' "$tmp/probe" 2>/dev/null)
    echo "accuracy: skipped: '$perf stat -e instructions:u,branches:u' does not count on this machine (${why:-perf not usable}); no comparison made"
    exit 0
fi

# The inputs: a fixed directory for ls, a deterministic ~100 KB text (random
# words from a fixed linear congruential sequence) for wc and sort.
mkdir "$tmp/dir"
i=0
while [ $i -lt 40 ]; do : >"$tmp/dir/file$i"; i=$((i + 1)); done
sh tests/traces/make_text.sh >"$tmp/text"

env_vars=$("$pmubench" record --env)
failed=0

# compare NAME PROGRAM ARGS...
compare() {
    name=$1
    shift
    # shellcheck disable=SC2086
    if ! env $env_vars "$perf" stat -x, -o "$tmp/perf.out" -e instructions:u,branches:u "$@" \
        >/dev/null 2>"$tmp/native.err"; then
        echo "FAIL $name: the native run failed: $(head -1 "$tmp/native.err")"; failed=1; return
    fi
    native=$(perf_counts "$tmp/perf.out")
    if [ -z "$native" ]; then
        echo "FAIL $name: perf gave no counts: $(grep -v '^#' "$tmp/perf.out" | head -2 | tr '\n' ' ')"
        failed=1; return
    fi
    if ! "$pmubench" record -o "$tmp/$name.trace" -- "$@" >/dev/null 2>"$tmp/record.err"; then
        echo "FAIL $name: pmubench record failed: $(head -1 "$tmp/record.err")"; failed=1; return
    fi
    recorded=$("$pmubench" trace info --json "$tmp/$name.trace" |
        sed -n 's/.*"instructions": \([0-9]*\), "branches": \([0-9]*\),.*/\1 \2/p')
    set -- $native $recorded
    for what in instructions branches; do
        if [ $what = instructions ]; then n=$1 r=$3; else n=$2 r=$4; fi
        line=$(awk -v n="$n" -v r="$r" -v bar="$bar" -v name="$name" -v what="$what" 'BEGIN {
            d = n ? 100 * (r - n) / n : 0
            printf "%s %-6s %-12s native %11d  recorded %11d  difference %+7.3f%%\n",
                (d <= bar && d >= -bar) ? "ok  " : "FAIL", name, what, n, r, d }')
        echo "$line"
        case $line in FAIL*) failed=1 ;; esac
    done
}

echo "accuracy: pmubench record against perf stat of native runs (both under pmubench record --env); bar ${bar}%"
compare ls /bin/ls "$tmp/dir"
compare wc /usr/bin/wc "$tmp/text"
compare sort /usr/bin/sort "$tmp/text"
exit $failed
