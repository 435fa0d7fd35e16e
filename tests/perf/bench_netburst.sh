#!/bin/sh
# bench_netburst.sh BUILD: `make bench` figures for the NetBurst model
# (docs/netburst-model.md "Speed").  Simulated instructions per
# second (CPU time of nbm_simulate, the fastest of REPEAT runs, default 3)
# with no counter programmed and with all 18 (tests/perf/bench_netburst.c),
# and the ratio 18/0 (the PMU's overhead), on
#   - one synthetic SSE loop trace of 2 million instructions
#     (tests/perf/synthetic_trace.c --sse), and of 20 million for peak
#     memory (maximum resident set size), which must not grow with the
#     trace's length: traces are streamed;
#   - two traces of 2 million instructions (the SSE loop and the plain
#     loop) as the logical processors of a Hyper-Threading core;
#   - the wc trace of the case study, on one logical processor and on
#     both, beside the CPU time cachegrind (--cache-sim=yes
#     --branch-sim=yes) takes for the same program and input, measured in
#     the same run, as a ratio;
# and, on the wc trace, the CPU time per instruction of two logical
# processors over one's.  Targets: 40 M simulated instructions
# per second with 18 counters; two logical processors no more than 1.5
# times one's time per instruction (docs/netburst-model.md "Speed" says
# where they stand and why).  A benchmark, not a test: it fails only when
# something cannot run.
set -u
build=${1:?usage: bench_netburst.sh BUILD}
repeat=${REPEAT:-3}
bench=$build/perf/bench_netburst
synthetic=$build/perf/synthetic_trace
pmubench=$build/pmubench
wc=$build/wc/wc-getc
input=$build/wc/input.txt

for need in "$bench" "$synthetic" "$pmubench" "$wc" "$input"; do
    [ -e "$need" ] || { echo "bench_netburst: $need is missing (make BUILD=$build bench builds it)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run FILE COMMAND...: runs it, its output into FILE; exits on failure.
run() {
    out=$1
    shift
    if ! "$@" >"$out" 2>"$tmp/run.err"; then
        echo "bench_netburst: $* failed: $(head -1 "$tmp/run.err")" >&2
        exit 2
    fi
}

# model NAME COUNTERS [--repeat N] TRACE...: one line of figures; leaves
# "INSTRUCTIONS CYCLES SECONDS PEAK_RSS_KB NONZERO" in $tmp/COUNTERS.
model() {
    name=$1 counters=$2
    shift 2
    run "$tmp/$counters" "$bench" --repeat "$repeat" "$counters" "$@"
    awk -v name="$name" -v c="$counters" '{
        printf "  %-26s %2d counters (%2d counting) %9d insns %7.3f s %6.2f M insns/s  %5.2f cycles/insn  peak memory %5.1f MB\n",
            name, c, $5, $1, $3, ($3 > 0 ? $1 / $3 / 1e6 : 0), ($1 > 0 ? $2 / $1 : 0), $4 / 1024 }' "$tmp/$counters"
}

# overhead NAME: the 18/0 time ratio of the last two model runs.
overhead() {
    paste "$tmp/0" "$tmp/18" | awk -v name="$1" '{
        printf "  %-26s PMU overhead (18 counters / none) %.2f\n", name, ($3 > 0 ? $8 / $3 : 0) }'
}

# cpu_time FILE COMMAND...: the fastest of REPEAT runs, user + system
# seconds, into FILE.
cpu_time() {
    result=$1
    shift
    : >"$tmp/all"
    i=0
    while [ $i -lt "$repeat" ]; do
        if ! /usr/bin/time -f '%U %S' -o "$tmp/one" "$@" >/dev/null 2>"$tmp/run.err"; then
            echo "bench_netburst: $* failed: $(head -1 "$tmp/run.err")" >&2
            exit 2
        fi
        awk '{ print $1 + $2 }' "$tmp/one" >>"$tmp/all"
        i=$((i + 1))
    done
    sort -g "$tmp/all" | head -1 >"$result"
}

echo "bench_netburst: the NetBurst model (northwood, nbm_simulate CPU time, fastest of $repeat)"
run /dev/null "$synthetic" --sse 2000000 "$tmp/sse2m.trace"
run /dev/null "$synthetic" 2000000 "$tmp/plain2m.trace"
run /dev/null "$synthetic" --sse 20000000 "$tmp/sse20m.trace"

for c in 0 18; do model "SSE loop, one thread" $c "$tmp/sse2m.trace"; done
overhead "SSE loop, one thread"
for c in 0 18; do model "SSE + plain, two threads" $c "$tmp/sse2m.trace" "$tmp/plain2m.trace"; done
overhead "SSE + plain, two threads"
repeat=1
for c in 0 18; do model "SSE loop 20 M, one thread" $c "$tmp/sse20m.trace"; done
overhead "SSE loop 20 M, one thread"
repeat=${REPEAT:-3}

env_vars=$("$pmubench" record --env)
run /dev/null "$pmubench" record -o "$tmp/wc.trace" -- "$wc" "$input"
for c in 0 18; do model "wc (case study trace)" $c "$tmp/wc.trace"; done
overhead "wc (case study trace)"
cp "$tmp/18" "$tmp/wc18"
model "wc, two logical processors" 18 "$tmp/wc.trace" "$tmp/wc.trace"
paste "$tmp/wc18" "$tmp/18" | awk '{
    printf "  %-26s two logical processors / one, CPU time per instruction %.2f\n", "wc",
        ($1 > 0 && $3 > 0 && $6 > 0 ? ($8 / $6) / ($3 / $1) : 0) }'
# shellcheck disable=SC2086
cpu_time "$tmp/cg" env $env_vars valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes \
    --cachegrind-out-file=/dev/null "$wc" "$input"
awk -v s="$(cat "$tmp/cg")" '{
    printf "  %-26s %7.3f s CPU for the same program and input\n", "cachegrind (wc)", s
    printf "  %-26s NetBurst model (18 counters) / cachegrind %.2f\n", "time ratio", (s > 0 ? $3 / s : 0) }' \
    "$tmp/wc18"
