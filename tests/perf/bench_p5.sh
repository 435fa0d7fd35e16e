#!/bin/sh
# bench_p5.sh BUILD: `make bench` figures for the P5 model (docs/p5-model.md
# "Speed").  Simulation speed in
# instructions per second with both counters programmed (`pmubench stat`,
# one run of the trace) and peak memory (maximum resident set size), on
#   - the wc trace of the case study's locked-getc build (build/wc/wc-getc:
#     traces/wc/wc.mk; 4.3 M instructions, the longer of the two), beside the
#     time cachegrind (--cache-sim=yes --branch-sim=yes) takes to produce
#     its cache and branch counts for the same program and input, measured
#     in the same run, as a ratio;
#   - synthetic traces of 10 and 100 million instructions
#     (tests/perf/synthetic_trace.c), whose peak memory shows whether memory
#     grows with trace length.
# Each timing is the fastest of REPEAT runs (default 3).  Target:
# 150 M simulated instructions per second or more; memory independent of
# trace length.  A benchmark, not a test: it fails only when something cannot run.
set -u
build=${1:?usage: bench_p5.sh BUILD}
repeat=${REPEAT:-3}
pmubench=$build/pmubench
events=instructions_executed,data_read_miss
wc=$build/wc/wc-getc
input=$build/wc/input.txt

for need in "$pmubench" "$build/perf/synthetic_trace" "$wc" "$input"; do
    [ -e "$need" ] || { echo "bench_p5: $need is missing (make BUILD=$build bench builds it)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# timed FILE COMMAND...: runs it under /usr/bin/time, leaving "SECONDS
# MAX_RSS_KB" in FILE; exits on failure.
timed() {
    out=$1
    shift
    if ! /usr/bin/time -f '%e %M' -o "$out" "$@" >/dev/null 2>"$tmp/timed.err"; then
        echo "bench_p5: $* failed: $(head -1 "$tmp/timed.err")" >&2
        exit 2
    fi
}

# fastest FILE COMMAND...: REPEAT runs; "SECONDS MAX_RSS_KB" of the fastest.
fastest() {
    result=$1
    shift
    : >"$tmp/all"
    i=0
    while [ $i -lt "$repeat" ]; do
        timed "$tmp/one" "$@"
        cat "$tmp/one" >>"$tmp/all"
        i=$((i + 1))
    done
    sort -g "$tmp/all" | head -1 >"$result"
}

# simulate NAME TRACE INSTRUCTIONS: one line of figures.
simulate() {
    fastest "$tmp/sim" "$pmubench" stat -m p5 -e "$events" --trace "$2"
    read -r seconds rss <"$tmp/sim"
    awk -v name="$1" -v n="$3" -v s="$seconds" -v rss="$rss" 'BEGIN {
        printf "  %-24s %11d insns  %6.2f s  %7.1f M insns/s  peak memory %6.1f MB\n",
            name, n, s, (s > 0 ? n / s / 1e6 : 0), rss / 1024 }'
}

insns() { "$pmubench" trace info --json "$1" | sed -n 's/.*"instructions": \([0-9]*\),.*/\1/p'; }

echo "bench_p5: the P5 model (pmubench stat -m p5 -e $events: both counters, one run)"
env_vars=$("$pmubench" record --env)
fastest "$tmp/rec" "$pmubench" record -o "$tmp/wc.trace" -- "$wc" "$input"
read -r record_seconds record_rss <"$tmp/rec"
simulate "wc (case study trace)" "$tmp/wc.trace" "$(insns "$tmp/wc.trace")"
wc_seconds=$(cut -d' ' -f1 "$tmp/sim")

# shellcheck disable=SC2086
fastest "$tmp/cg" env $env_vars valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes \
    --cachegrind-out-file=/dev/null "$wc" "$input"
read -r cg_seconds cg_rss <"$tmp/cg"
awk -v s="$cg_seconds" -v p="$wc_seconds" -v r="$record_seconds" -v m="$cg_rss" 'BEGIN {
    printf "  %-24s %6.2f s (peak memory %.1f MB) for the same program and input\n", "cachegrind (wc)", s, m / 1024
    printf "  %-24s simulation / cachegrind %.2f; recording + simulation (%.2f s) / cachegrind %.2f\n",
        "time ratios", (s > 0 ? p / s : 0), r + p, (s > 0 ? (r + p) / s : 0) }'

for n in 10000000 100000000; do
    "$build/perf/synthetic_trace" $n "$tmp/synthetic.trace" ||
        { echo "bench_p5: cannot write the synthetic trace" >&2; exit 2; }
    simulate "synthetic loop" "$tmp/synthetic.trace" $n
    rm -f "$tmp/synthetic.trace"
done
