#!/bin/sh
# p5_diff.sh OLD NEW TRACE...: a differential check of two pmubench
# binaries' P5 model (docs/p5-model.md "Speed"): each TRACE through both,
# on several machines (p5, pmmx, write-through, write allocate, no L2, a
# 16-entry BTB, 16-byte code lines, no errata), with every P5 event in one
# pass, at CPL 3 and at CPL 0-2 (:u, :k), in a pass per run (--runs
# hardware), by intervals of instructions and of clocks, and in region 1
# and 2; the outputs (stdout and stderr, the status) must be the same byte
# for byte. A change to the model's mechanism must leave them so.
# Prints each difference and exits 1 when there is one; 0 when none.
set -u
old=${1:?usage: p5_diff.sh OLD NEW TRACE...}
new=${2:?usage: p5_diff.sh OLD NEW TRACE...}
shift 2
[ $# -gt 0 ] || { echo "usage: p5_diff.sh OLD NEW TRACE..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

events=$("$new" list p5 | sed 's/^p5:://' | paste -sd, -)
both=$("$new" list p5 | sed 's/^p5::\(.*\)/\1:u,\1:k/' | paste -sd, -)
some=clocks,instructions_executed,data_read_miss,code_read,pipeline_stalled_address_generation_interlock,clocks_while_bus_cycle_in_progress,write_to_M_or_E_lines,btb_hits

# one LABEL ARGS...: runs both binaries with ARGS, compares.
differences=0
runs=0
one() {
    label=$1
    shift
    "$old" "$@" >"$tmp/old.out" 2>"$tmp/old.err"
    echo "status $?" >>"$tmp/old.out"
    "$new" "$@" >"$tmp/new.out" 2>"$tmp/new.err"
    echo "status $?" >>"$tmp/new.out"
    runs=$((runs + 1))
    if ! cmp -s "$tmp/old.out" "$tmp/new.out" || ! cmp -s "$tmp/old.err" "$tmp/new.err"; then
        differences=$((differences + 1))
        echo "p5_diff: $label differs"
        diff "$tmp/old.out" "$tmp/new.out" | head -10
        diff "$tmp/old.err" "$tmp/new.err" | head -4
    fi
}

for trace in "$@"; do
    for machine in "-m p5" "-m pmmx" "-m p5 -F dcache_write_back=off" \
        "-m p5 -F dcache_write_allocate=on" "-m p5 -F l2_size=0" \
        "-m p5 -F btb_entries=16" "-m p5 -F icache_line=16" "-m p5 -F errata=none"; do
        # shellcheck disable=SC2086 # $machine is words
        {
            one "$trace $machine all" stat $machine -x, -e "$events" --trace "$trace"
            one "$trace $machine u/k" stat $machine -x, -e "$both" --trace "$trace"
        }
    done
    one "$trace hardware" stat -m p5 -x, --runs hardware -e "$events" --trace "$trace"
    one "$trace -I" stat -m p5 -x, -I 10007 -e "$some" --trace "$trace"
    one "$trace -Ic" stat -m p5 -x, -I 30011c -e "$some" --trace "$trace"
    one "$trace default" stat -m p5 --trace "$trace"
    for region in 1 2; do
        one "$trace region $region" stat -m p5 -x, --region $region -e "$both" --trace "$trace"
    done
done
echo "p5_diff: $runs runs of each binary, $differences different"
[ "$differences" -eq 0 ]
