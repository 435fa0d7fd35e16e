#!/bin/sh
# bench_record.sh BUILD: `make bench` figures for the recorder
# (docs/traces.md "Recording", "Measured figures"): the speed (instructions
# per second) and trace size (bytes per instruction) of `pmubench record`
# on wc over a generated text, beside valgrind's own tools on the same
# program and input, measured in the same round:
#   - valgrind --tool=none: valgrind's floor, the JIT without instrumentation;
#   - valgrind --tool=lackey --trace-mem=yes, its text trace on stderr kept
#     in a file (as cachelab's users keep it);
#   - the recorder's tool alone, its stream thrown away (valgrind
#     --tool=pmutrace --pmutrace-fd=3 3>/dev/null): `pmubench record`'s
#     critical path without the check and the conversion, which run beside
#     it on the second core.
# The text is RECORD_COPIES (default 1) copies of tests/traces/make_text.sh's
# 102,410 bytes: wc runs about 4.6 M instructions per copy, so
# RECORD_COPIES=21 makes a run of about 100 M instructions.  Everything runs
# under the environment `pmubench record --env` prints, REPEAT times (default
# 3) in rounds (one run of each per round); each figure is the median of its
# runs.  CPU time is user + system of the run and its children (for
# `pmubench record`: valgrind, the check and the conversion together); wall
# time is elapsed.  Ratios are of CPU times.  Target: record at
# 100 M instructions/s.  A benchmark, not a test: it fails only when
# something cannot run.
set -u
build=${1:?usage: bench_record.sh BUILD}
repeat=${REPEAT:-3}
copies=${RECORD_COPIES:-1}
pmubench=$build/pmubench
program=/usr/bin/wc

if [ ! -x "$pmubench" ] || [ ! -x "$build/recorder/pmutrace-amd64-linux" ]; then
    echo "bench_record: $pmubench or $build/recorder/pmutrace-amd64-linux is missing (make BUILD=$build all recorder)" >&2
    exit 2
fi
for need in valgrind /usr/bin/time; do
    command -v "$need" >/dev/null 2>&1 || { echo "bench_record: $need is missing" >&2; exit 2; }
done
valgrind_bin=/usr/bin/valgrind.bin
[ -x "$valgrind_bin" ] || valgrind_bin=valgrind

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sh tests/traces/make_text.sh >"$tmp/one"
i=0
while [ $i -lt "$copies" ]; do
    cat "$tmp/one"
    i=$((i + 1))
done >"$tmp/text"
env_vars=$("$pmubench" record --env)
recorder=$(cd "$build/recorder" && pwd)

# timed NAME COMMAND...: one run under /usr/bin/time; appends "ELAPSED CPU"
# to $tmp/NAME.times; exits on failure.
timed() {
    name=$1
    shift
    if ! /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/$name.err"; then
        echo "bench_record: $name failed: $(head -1 "$tmp/$name.err")" >&2
        exit 2
    fi
    awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$tmp/time" >>"$tmp/$name.times"
}

# The runs.  lackey's trace goes to stderr: kept in a file, which timed's
# stderr is.
i=0
while [ $i -lt "$repeat" ]; do
    timed record "$pmubench" record -o "$tmp/wc.trace" -- "$program" "$tmp/text"
    # shellcheck disable=SC2086
    timed tool env $env_vars VALGRIND_LIB="$recorder" "$valgrind_bin" -q --tool=pmutrace \
        --pmutrace-fd=3 "$program" "$tmp/text" 3>/dev/null
    # shellcheck disable=SC2086
    timed none env $env_vars "$valgrind_bin" -q --tool=none "$program" "$tmp/text"
    # shellcheck disable=SC2086
    timed lackey env $env_vars "$valgrind_bin" --tool=lackey --trace-mem=yes "$program" "$tmp/text"
    lackey_bytes=$(wc -c <"$tmp/lackey.err")
    lackey_insns=$(grep -c '^I ' "$tmp/lackey.err")
    rm -f "$tmp/lackey.err"
    i=$((i + 1))
done

# median FILE COLUMN: the median of a column of the runs' times.
median() {
    awk -v c="$2" '{ print $c }' "$1" | sort -g | awk '{ v[NR] = $1 }
        END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

insns=$("$pmubench" trace info --json "$tmp/wc.trace" | sed -n 's/.*"instructions": \([0-9]*\),.*/\1/p')
bytes=$(wc -c <"$tmp/wc.trace")
{
    for name in record tool none lackey; do
        printf '%s %s %s\n' "$name" "$(median "$tmp/$name.times" 1)" "$(median "$tmp/$name.times" 2)"
    done
} >"$tmp/medians"

awk -v n="$insns" -v b="$bytes" -v ln="$lackey_insns" -v lb="$lackey_bytes" -v r="$repeat" \
    -v in_bytes="$(wc -c <"$tmp/text")" '
    { wall[$1] = $2; cpu[$1] = $3 }
    END {
        printf "record: wc over a %d-byte text, %d instructions recorded; median of %d rounds\n", in_bytes, n, r
        printf "%-30s %9s %9s %12s %12s %11s\n", "", "CPU s", "wall s", "M insns/s", "(wall)", "bytes/insn"
        row("pmubench record", "record", sprintf("%.2f", b / n))
        row("  its tool alone (no check)", "tool", "-")
        row("valgrind --tool=none", "none", "-")
        row("valgrind lackey to a file", "lackey", sprintf("%.2f", lb / ln))
        printf "record / none: %.2fx the CPU time; lackey / record: %.2fx\n", cpu["record"] / cpu["none"], cpu["lackey"] / cpu["record"]
        printf "target: record >= 100 M insns/s: %s (CPU), %s (wall)\n",
            (n / cpu["record"] >= 1e8 ? "met" : "missed"), (n / wall["record"] >= 1e8 ? "met" : "missed")
    }
    function row(label, name, per) {
        printf "%-30s %9.3f %9.3f %12.1f %12.1f %11s\n", label, cpu[name], wall[name], n / cpu[name] / 1e6, n / wall[name] / 1e6, per
    }' "$tmp/medians"
