#!/bin/sh
# bench.sh BUILD: the speed and memory table of `make bench` (docs/speed.md,
# docs/traces.md "Size and speed", docs/p5-model.md and
# docs/netburst-model.md "Speed").  Everything is measured in one run, on a
# trace built on the spot from a shipped program and input: the case
# study's wc with glibc's getc (build/wc/wc-getc, traces/wc/wc.mk) over
# its input (build/wc/input.txt) repeated until the run retires about
# BENCH_INSNS instructions (default 100,000,000), and over a tenth of that
# for the second length of the memory figures.
#
# Each figure is the median of ROUNDS rounds (default 3) of CPU time (user +
# system, of the process and the children it waited for, /usr/bin/time);
# each ratio is taken inside one round against its peer in that round, then
# the median of the rounds' ratios is printed:
#   - reading: `pmubench trace info` against `cat` of the same file (cat
#     timed over 10 readings, divided by 10: /usr/bin/time counts in
#     hundredths of seconds);
#   - the P5 model, 2 events and 7 events (one pass; and `--runs
#     hardware`, the pairs a real P5 needs), and the NetBurst model with
#     18 counters on one logical processor and on two (the trace on both),
#     each against cachegrind (--cache-sim=yes --branch-sim=yes) running
#     the same program on the same input;
#   - record against valgrind --tool=none on the same program and input,
#     both in the environment `pmubench record --env` prints, and its
#     wall-clock time, since its check of the trace runs on a second core;
#     lackey (--tool=lackey --trace-mem=yes, its text to /dev/null) against
#     record at the shorter length only (lackey runs near 0.6 M
#     instructions/s: three rounds at the full length would take most of
#     the benchmark's time);
#   - peak memory (maximum resident set size) of reading, each model and
#     record at the two lengths: traces are streamed, so it must not grow.
# A benchmark, not a test: it fails only when something cannot run.
set -u
build=${1:?usage: bench.sh BUILD}
rounds=${ROUNDS:-3}
target=${BENCH_INSNS:-100000000}
pmubench=$build/pmubench
wc=$build/wc/wc-getc
input=$build/wc/input.txt
p5_two=instructions_executed,data_read_miss
p5_seven=clocks,instructions_executed,data_read_or_write,data_read_or_write_miss,branches,pipeline_flushes,code_read
# The eighteen events of tests/perf/bench_netburst.c: with them the
# allocator fills every counter in one run.
nb_events=$(sed -n '/^static const char \*const events/,/^};/p' tests/perf/bench_netburst.c |
    sed -n 's/^ *"\(.*\)",$/\1/p' | paste -sd, -)

for need in "$pmubench" "$wc" "$input"; do
    [ -e "$need" ] || { echo "bench: $need is missing (make BUILD=$build bench builds it)" >&2; exit 2; }
done
for tool in valgrind /usr/bin/time; do
    command -v "$tool" >/dev/null 2>&1 || { echo "bench: $tool is missing" >&2; exit 2; }
done
[ -n "$nb_events" ] || { echo "bench: no events in tests/perf/bench_netburst.c" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
env_vars=$("$pmubench" record --env)

# cpu NAME COMMAND...: one timed run; appends "CPU_SECONDS WALL_SECONDS
# MAX_RSS_KB" to $tmp/NAME; exits on failure.
cpu() {
    name=$1
    shift
    if ! /usr/bin/time -f '%U %S %e %M' -o "$tmp/one" "$@" >/dev/null 2>"$tmp/err"; then
        echo "bench: $* failed: $(grep -v '^Command exited' "$tmp/err" | head -1)" >&2
        exit 2
    fi
    awk '{ printf "%.3f %.3f %d\n", $1 + $2, $3, $4 }' "$tmp/one" >>"$tmp/$name"
}

# median FILE COLUMN: the median of a column.
median() { awk -v c="$2" '{ print $c }' "$1" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# ratios A B: appends, per round, A's CPU time over B's to $tmp/A_over_B.
ratios() { paste "$tmp/$1" "$tmp/$2" | awk '{ printf "%.3f\n", ($4 > 0 ? $1 / $4 : 0) }' >"$tmp/$1_over_$2"; }

insns_of() { "$pmubench" trace info --json "$1" | sed -n 's/.*"instructions": \([0-9]*\),.*/\1/p'; }

# The input: input.txt repeated to reach the target (and a tenth of it).
"$pmubench" record -o "$tmp/one.trace" -- "$wc" "$input" >/dev/null ||
    { echo "bench: cannot record $wc" >&2; exit 2; }
per_copy=$(insns_of "$tmp/one.trace")
rm -f "$tmp/one.trace"
copies=$(awk -v t="$target" -v p="$per_copy" 'BEGIN { c = int((t + p - 1) / p); print (c < 1 ? 1 : c) }')
small_copies=$(awk -v c="$copies" 'BEGIN { s = int((c + 5) / 10); print (s < 1 ? 1 : s) }')
make_text() { i=0; while [ $i -lt "$1" ]; do cat "$input"; i=$((i + 1)); done >"$2"; }
make_text "$copies" "$tmp/big.txt"
make_text "$small_copies" "$tmp/small.txt"
"$pmubench" record -o "$tmp/big.trace" -- "$wc" "$tmp/big.txt" >/dev/null &&
    "$pmubench" record -o "$tmp/small.trace" -- "$wc" "$tmp/small.txt" >/dev/null ||
    { echo "bench: cannot record the traces" >&2; exit 2; }
big=$(insns_of "$tmp/big.trace")
small=$(insns_of "$tmp/small.trace")
bytes=$(wc -c <"$tmp/big.trace")

# The measured commands, by name.
run_one() {
    text=$1 trace=$2 suffix=$3
    cpu "cat10$suffix" sh -c 'for i in 0 1 2 3 4 5 6 7 8 9; do cat "$1"; done' cat "$trace"
    awk '{ printf "%.4f %.4f %d\n", $1 / 10, $2 / 10, $3 }' "$tmp/cat10$suffix" >"$tmp/cat$suffix"
    cpu "read$suffix" "$pmubench" trace info "$trace"
    # shellcheck disable=SC2086
    cpu "cachegrind$suffix" env $env_vars valgrind --tool=cachegrind --cache-sim=yes \
        --branch-sim=yes --cachegrind-out-file=/dev/null "$wc" "$text"
    cpu "p5_2$suffix" "$pmubench" stat -m p5 -e "$p5_two" --trace "$trace"
    cpu "p5_7$suffix" "$pmubench" stat -m p5 -e "$p5_seven" --trace "$trace"
    cpu "p5_7hw$suffix" "$pmubench" stat -m p5 --runs hardware -e "$p5_seven" --trace "$trace"
    cpu "nb_18$suffix" "$pmubench" stat -m netburst -e "$nb_events" --trace "$trace"
    cpu "nb_ht$suffix" "$pmubench" stat -m netburst -e "$nb_events" --trace "$trace" --trace "$trace"
    cpu "record$suffix" "$pmubench" record -o "$tmp/again.trace" -- "$wc" "$text"
    # shellcheck disable=SC2086
    cpu "none$suffix" env $env_vars valgrind --tool=none "$wc" "$text"
    if [ -n "$suffix" ]; then
        # shellcheck disable=SC2086
        cpu "lackey$suffix" env $env_vars valgrind --tool=lackey --trace-mem=yes "$wc" "$text"
    fi
    rm -f "$tmp/again.trace"
}

round=0
while [ $round -lt "$rounds" ]; do
    run_one "$tmp/big.txt" "$tmp/big.trace" ""
    round=$((round + 1))
done
run_one "$tmp/small.txt" "$tmp/small.trace" _small

ratios read cat
for m in p5_2 p5_7 p5_7hw nb_18 nb_ht; do ratios "$m" cachegrind; done
ratios record none
ratios lackey_small record_small
ratios nb_ht nb_18

# line NAME LABEL: "LABEL  SECONDS s  M insns/s".
line() {
    awk -v l="$2" -v s="$(median "$tmp/$1" 1)" -v n="$big" 'BEGIN {
        printf "  %-34s %8.3f s CPU %8.1f M insns/s", l, s, (s > 0 ? n / s / 1e6 : 0) }'
}
ratio() { printf "   %s %.2f\n" "$2" "$(median "$tmp/$1" 1)"; }

echo "bench: wc-getc over $copies copies of its input: $big instructions," \
    "a $bytes-byte trace ($(awk -v b="$bytes" -v n="$big" 'BEGIN { printf "%.2f", b / n }') bytes/insn);" \
    "median of $rounds rounds, CPU time"
line cat "cat of the trace"; echo
line read "reading (trace info)"; ratio read_over_cat "/ cat"
line cachegrind "cachegrind (cache + branch sim)"; echo
line p5_2 "P5, 2 events"; ratio p5_2_over_cachegrind "/ cachegrind"
line p5_7 "P5, 7 events, one pass"; ratio p5_7_over_cachegrind "/ cachegrind"
line p5_7hw "P5, 7 events, --runs hardware"; ratio p5_7hw_over_cachegrind "/ cachegrind"
line nb_18 "NetBurst, 18 counters"; ratio nb_18_over_cachegrind "/ cachegrind"
awk -v s="$(median "$tmp/nb_ht" 1)" -v n="$big" 'BEGIN {
    printf "  %-34s %8.2f s CPU %8.1f M insns/s", "NetBurst, 18 counters, 2 threads", s, (s > 0 ? 2 * n / s / 1e6 : 0) }'
awk -v r="$(median "$tmp/nb_ht_over_nb_18" 1)" 'BEGIN {
    printf "   per instruction / one thread %.2f\n", r / 2 }'
line record "record"; ratio record_over_none "/ valgrind --tool=none"
awk -v w="$(median "$tmp/record" 2)" -v n="$big" 'BEGIN {
    printf "  %-34s %8.2f s wall %7.1f M insns/s\n", "record, wall clock", w, (w > 0 ? n / w / 1e6 : 0) }'
line none "valgrind --tool=none"; echo
awk -v s="$(median "$tmp/lackey_small" 1)" -v n="$small" -v r="$(median "$tmp/lackey_small_over_record_small" 1)" 'BEGIN {
    printf "  %-34s %8.2f s CPU %8.1f M insns/s   / record %.2f (at %d instructions)\n",
        "lackey --trace-mem=yes", s, (s > 0 ? n / s / 1e6 : 0), r, n }'
echo "bench: peak memory (MB) at $small and $big instructions"
for m in read p5_2 p5_7 nb_18 nb_ht record cachegrind; do
    awk -v m="$m" -v a="$(median "$tmp/${m}_small" 3)" -v b="$(median "$tmp/$m" 3)" 'BEGIN {
        printf "  %-12s %8.1f %8.1f\n", m, a / 1024, b / 1024 }'
done
