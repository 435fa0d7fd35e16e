#!/bin/sh
# record_speed.sh BUILD RECORDER... : the recorder's speed against
# `valgrind --tool=none`, for one or more builds of its tool (folders as
# `make recorder` leaves build/recorder), on `make bench`'s record run:
# build/wc/wc-getc (the x86 tool) over COPIES (default 24) copies of
# build/wc/input.txt, about 101 M instructions.  Each round runs, back to
# back, valgrind --tool=none, then per RECORDER `pmubench record` with it
# and its tool alone (its stream to /dev/null), all in the environment
# `pmubench record --env` prints.  Prints per run and round its CPU time
# (user + system, children included) and wall time, then per run the
# minimum, median and maximum over ROUNDS (default 5) rounds and the
# ratios of the minima to none's: on a machine shared with other work the
# minimum is the figure least disturbed, the spread says how much.  A
# benchmark (docs/traces.md, "Measured figures"), not a test.
set -u
build=${1:?usage: record_speed.sh BUILD RECORDER...}
shift
[ $# -ge 1 ] || { echo "usage: record_speed.sh BUILD RECORDER..." >&2; exit 2; }
rounds=${ROUNDS:-5}
copies=${COPIES:-24}
pmubench=$build/pmubench
program=$build/wc/wc-getc
for need in "$pmubench" "$program" "$build/wc/input.txt" /usr/bin/time; do
    [ -e "$need" ] || { echo "record_speed: $need is missing (make all recorder wc)" >&2; exit 2; }
done
valgrind_bin=/usr/bin/valgrind.bin
[ -x "$valgrind_bin" ] || valgrind_bin=valgrind
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ $i -lt "$copies" ]; do cat "$build/wc/input.txt"; i=$((i + 1)); done >"$tmp/text"
env_vars=$("$pmubench" record --env)

# timed NAME COMMAND...: one run; appends "CPU WALL" to $tmp/NAME.times.
timed() {
    name=$1
    shift
    /usr/bin/time -f '%U %S %e' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" ||
        { echo "record_speed: $name failed: $(head -1 "$tmp/err")" >&2; exit 2; }
    awk '{ printf "%.2f %.2f\n", $1 + $2, $3 }' "$tmp/time" >>"$tmp/$name.times"
    printf '%s %s  ' "$name" "$(tail -1 "$tmp/$name.times")"
}

round=0
while [ $round -lt "$rounds" ]; do
    # shellcheck disable=SC2086
    timed none env $env_vars "$valgrind_bin" -q --tool=none "$program" "$tmp/text"
    k=0
    for recorder in "$@"; do
        k=$((k + 1))
        PMUBENCH_RECORDER_DIR=$recorder timed "record$k" "$pmubench" record -o "$tmp/trace" -- \
            "$program" "$tmp/text"
        # shellcheck disable=SC2086
        timed "tool$k" env $env_vars VALGRIND_LIB="$recorder" "$valgrind_bin" -q --tool=pmutrace \
            --pmutrace-fd=3 "$program" "$tmp/text" 3>/dev/null
    done
    echo
    round=$((round + 1))
done

insns=$("$pmubench" trace info --json "$tmp/trace" | sed -n 's/.*"instructions": \([0-9]*\),.*/\1/p')
echo "wc-getc over $copies copies of its input: $insns instructions; $rounds rounds"
k=0
for recorder in "$@"; do k=$((k + 1)); echo "recorder $k: $recorder"; done
for f in "$tmp"/none.times "$tmp"/record*.times "$tmp"/tool*.times; do
    name=$(basename "$f" .times)
    for column in 1 2; do
        sort -g -k$column "$f" | awk -v c=$column '{ v[NR] = $c } END { print v[1], v[int((NR + 1) / 2)], v[NR] }'
    done | paste -sd' ' | awk -v name="$name" -v n="$insns" '{ printf "%-8s CPU min %.2f med %.2f max %.2f  wall min %.2f med %.2f max %.2f  %.0f M insns/s (CPU min)\n", name, $1, $2, $3, $4, $5, $6, n / $1 / 1e6 }'
done >"$tmp/summary"
cat "$tmp/summary"
awk '$1 == "none" { c = $4; w = $11 } { cpu[$1] = $4; wall[$1] = $11 }
    END { for (k in cpu) if (k != "none") printf "%-8s / none: %.2f x CPU, %.2f x wall (minima)\n", k, cpu[k] / c, wall[k] / w }' \
    "$tmp/summary" | sort
