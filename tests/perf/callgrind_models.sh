#!/bin/sh
# callgrind_models.sh BUILD: the exact speed measure of the timing models
# (docs/pmu-interface.md "Speed"): callgrind's count of machine
# instructions per simulated instruction inside the model's entry point.
#   - P5: p5_simulate_trace under `pmubench stat -m p5 -e
#     instructions_executed,data_read_miss` on 3 M instructions of the
#     synthetic loop (tests/perf/synthetic_trace.c);
#   - NetBurst: nbm_simulate under tests/perf/bench_netburst.c --repeat 1,
#     Northwood, no counter and 18 counters, on 1 M instructions of the SSE
#     loop, and on two logical processors (300,000 each of the SSE and the
#     plain loop).
# A benchmark, not a test: it fails only when something cannot run.
set -u
build=${1:?usage: callgrind_models.sh BUILD}
for need in "$build/pmubench" "$build/perf/synthetic_trace" "$build/perf/bench_netburst"; do
    [ -e "$need" ] || { echo "callgrind_models: $need is missing (make BUILD=$build bench builds it)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ir FUNCTION INSTRUCTIONS COMMAND...: prints machine instructions per
# simulated instruction inside FUNCTION.
ir() {
    fn=$1 n=$2
    shift 2
    if ! valgrind --tool=callgrind --toggle-collect="$fn" --callgrind-out-file="$tmp/cg" \
        "$@" >/dev/null 2>"$tmp/err"; then
        echo "callgrind_models: $* failed: $(tail -1 "$tmp/err")" >&2
        exit 2
    fi
    total=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg")
    awk -v t="$total" -v n="$n" 'BEGIN { printf "%.0f\n", t / n }'
}

"$build/perf/synthetic_trace" 3000000 "$tmp/loop3m.trace" >/dev/null || exit 2
"$build/perf/synthetic_trace" --sse 1000000 "$tmp/sse1m.trace" >/dev/null || exit 2
"$build/perf/synthetic_trace" --sse 300000 "$tmp/sse300k.trace" >/dev/null || exit 2
"$build/perf/synthetic_trace" 300000 "$tmp/loop300k.trace" >/dev/null || exit 2

echo "callgrind_models: machine instructions per simulated instruction"
printf '  %-44s %6s\n' "P5, 2 counters (synthetic loop, 3 M)" \
    "$(ir p5_simulate_trace 3000000 "$build/pmubench" stat -m p5 -e instructions_executed,data_read_miss --trace "$tmp/loop3m.trace")"
for counters in 0 18; do
    printf '  %-44s %6s\n' "NetBurst, one thread, $counters counters (SSE loop, 1 M)" \
        "$(ir nbm_simulate 1000000 "$build/perf/bench_netburst" --repeat 1 "$counters" "$tmp/sse1m.trace")"
done
for counters in 0 18; do
    printf '  %-44s %6s\n' "NetBurst, two threads, $counters counters (600 k)" \
        "$(ir nbm_simulate 600000 "$build/perf/bench_netburst" --repeat 1 "$counters" "$tmp/sse300k.trace" "$tmp/loop300k.trace")"
done
