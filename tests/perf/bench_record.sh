#!/bin/sh
# bench_record.sh BUILD: `make bench` figures for the recorder (issue 4,
# section 3; docs/traces.md "Recording"): recording speed (instructions per
# second) and trace size (bytes per instruction) of `pmubench record` on wc
# over a generated 100 KB text, beside valgrind lackey's (`--tool=lackey
# --trace-mem=yes`, its text trace on stderr, kept in a file as cachelab's
# users keep it) on the same program and input, measured in the same run;
# lackey is also timed writing to /dev/null, its speed without the file.  Both run under the environment `pmubench
# record --env` prints; each is run REPEAT times (default 3) and its fastest
# run counts.  Times are whole runs (valgrind's start-up and, for pmubench,
# the read-back check of the trace included).  Targets: 2 M instructions/s
# or more, 4 bytes/instruction or fewer.  A benchmark, not a test: it
# fails only when something cannot run.
set -u
build=${1:?usage: bench_record.sh BUILD}
repeat=${REPEAT:-3}
pmubench=$build/pmubench
program=/usr/bin/wc

if [ ! -x "$pmubench" ] || [ ! -x "$build/recorder/pmutrace-amd64-linux" ]; then
    echo "bench_record: $pmubench or $build/recorder/pmutrace-amd64-linux is missing (make BUILD=$build all recorder)" >&2
    exit 2
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "bench_record: valgrind is missing" >&2
    exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The input: 102,400+ bytes of deterministic random words.
sh tests/traces/make_text.sh >"$tmp/text"

now() { date +%s.%N; }
env_vars=$("$pmubench" record --env)

# best SECONDS...: the smallest.
best() { printf '%s\n' "$@" | sort -g | head -1; }

rec_times="" lk_times="" null_times=""
i=0
while [ $i -lt "$repeat" ]; do
    t0=$(now)
    "$pmubench" record -o "$tmp/wc.trace" -- "$program" "$tmp/text" >/dev/null || {
        echo "bench_record: pmubench record failed" >&2; exit 2; }
    t1=$(now)
    # shellcheck disable=SC2086
    env $env_vars valgrind --tool=lackey --trace-mem=yes "$program" "$tmp/text" \
        >/dev/null 2>"$tmp/wc.lackey" || { echo "bench_record: lackey failed" >&2; exit 2; }
    t2=$(now)
    # shellcheck disable=SC2086
    env $env_vars valgrind --tool=lackey --trace-mem=yes "$program" "$tmp/text" \
        >/dev/null 2>/dev/null || { echo "bench_record: lackey failed" >&2; exit 2; }
    t3=$(now)
    rec_times="$rec_times $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')"
    lk_times="$lk_times $(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.6f", b - a }')"
    null_times="$null_times $(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.6f", b - a }')"
    i=$((i + 1))
done
# shellcheck disable=SC2086
rec_time=$(best $rec_times)
# shellcheck disable=SC2086
lk_time=$(best $lk_times)
# shellcheck disable=SC2086
null_time=$(best $null_times)

rec_insns=$("$pmubench" trace info --json "$tmp/wc.trace" | sed -n 's/.*"instructions": \([0-9]*\),.*/\1/p')
rec_bytes=$(wc -c <"$tmp/wc.trace")
lk_insns=$(grep -c '^I ' "$tmp/wc.lackey")
lk_bytes=$(wc -c <"$tmp/wc.lackey")

awk -v ri="$rec_insns" -v rt="$rec_time" -v rb="$rec_bytes" \
    -v li="$lk_insns" -v lt="$lk_time" -v lb="$lk_bytes" -v nt="$null_time" -v n="$repeat" -v in_bytes="$(wc -c <"$tmp/text")" 'BEGIN {
    printf "record: %s over a %d-byte text, fastest of %d runs each\n", "wc", in_bytes, n
    printf "%-22s %12s %9s %12s %12s %12s\n", "", "instructions", "seconds", "M insns/s", "bytes", "bytes/insn"
    printf "%-22s %12d %9.3f %12.2f %12d %12.2f\n", "pmubench record", ri, rt, ri / rt / 1e6, rb, rb / ri
    printf "%-22s %12d %9.3f %12.2f %12d %12.2f\n", "valgrind lackey", li, lt, li / lt / 1e6, lb, lb / li
    printf "%-22s %12d %9.3f %12.2f %12s %12s\n", "lackey to /dev/null", li, nt, li / nt / 1e6, "-", "-"
    printf "%-22s %12s %9s %12.2f %12s %12.3f\n", "record / lackey", "", "", (ri / rt) / (li / lt), "", (rb / ri) / (lb / li)
    printf "targets: record >= 2 M insns/s (%s), <= 4 bytes/insn (%s)\n",
        (ri / rt >= 2e6 ? "met" : "missed"), (rb / ri <= 4 ? "met" : "missed") }'
