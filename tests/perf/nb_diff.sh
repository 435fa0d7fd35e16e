#!/bin/sh
# nb_diff.sh OLD NEW TRACE...: a differential check of two pmubench
# binaries' NetBurst model (docs/netburst-model.md "Speed"): each TRACE
# through both, on the presets netburst (Northwood), netburst-willamette,
# -prescott and -prescott4, with event sets that exercise every path of
# the counting: the eighteen of tests/perf/bench_netburst.c (thresholds,
# edges, front-end tagging), every event at once (one pass per run of the
# allocator), execution and replay tagging metrics, events with no cycle
# source (RUNNING, TC_deliver_mode: cycles may be idle) with an edge, a
# complement and a threshold, one event alone, the same events at
# CPL 0 and 3 (:u, :k), the default set, by intervals of instructions and
# of clocks, a pipeview; with the first two traces also as the two
# logical processors of a Hyper-Threaded core; and sampling (PEBS and
# IEBS, whose PMIs route events at the reported cycle instead of ahead).
# The outputs (stdout, stderr, the status, the files written) must be the
# same byte for byte: a change to the model's mechanism must leave them
# so.  Prints each difference and exits 1 when there is one; 0 when none.
set -u
old=${1:?usage: nb_diff.sh OLD NEW TRACE...}
new=${2:?usage: nb_diff.sh OLD NEW TRACE...}
shift 2
[ $# -gt 0 ] || { echo "usage: nb_diff.sh OLD NEW TRACE..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bench=global_power_events:RUNNING,BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_MISS,BPU_fetch_request:TCMISS
bench=$bench,BSQ_allocation:REQ_LEN0:REQ_LEN1,TC_deliver_mode:DD:DB:DI
bench=$bench,uop_queue_writes:FROM_TC_DELIVER:FROM_TC_BUILD:thr=2,retired_branch_type:CONDITIONAL
bench=$bench,retired_mispred_branch_type:CONDITIONAL,x87_SIMD_moves_uop:ALLP2,scalar_SP_uop:ALL
bench=$bench,memory_complete:LSC,load_port_replay:SPLIT_LD:e=1,instr_retired:NBOGUSNTAG:NBOGUSTAG
bench=$bench,uops_retired:NBOGUS:thr=2,branch_retired:MMTP:MMNP:MMTM:MMNM,memory_loads
bench=$bench,resource_stall:SBFULL,resource_stall:SBFULL:e=1
all=$("$new" list netburst | sed 's/^netburst:://' | paste -sd, -)
tagging=x87_FP_retired,scalar_SP_retired,packed_DP_retired,64_bit_MMX_retired
tagging=$tagging,1stL_cache_load_miss_retired,DTLB_load_miss_retired,split_load_retired
tagging=$tagging,memory_stores,Tagged_mispred_branch,instr_retired:NBOGUSTAG
both=global_power_events:RUNNING:u,global_power_events:RUNNING:k,uops_retired:NBOGUS:u
both=$both,uops_retired:NBOGUS:k,TC_deliver_mode:DD:DB:DI:u,TC_deliver_mode:DD:DB:DI:k
both=$both,branch_retired:MMTP:MMNP:MMTM:MMNM:k,uop_queue_writes:FROM_TC_DELIVER:thr=1:e=1
sparse=uops_retired:NBOGUS:thr=2:e=1,instr_retired:NBOGUSNTAG:cmpl=1:thr=1
sparse=$sparse,resource_stall:SBFULL:e=1,memory_loads,BSQ_cache_reference:RD_2ndL_MISS
some=global_power_events:RUNNING,instr_retired:NBOGUSNTAG,uops_retired:NBOGUS,resource_stall:SBFULL
some=$some,machine_clear:CLEAR,uop_queue_writes:FROM_TC_DELIVER:FROM_TC_BUILD:FROM_ROM:thr=3

# one LABEL ARGS...: runs both binaries with ARGS (where FILE names
# $tmp/out.VERSION, a file the run writes), compares.
differences=0
runs=0
one() {
    label=$1
    shift
    for v in old new; do
        bin=$old
        [ $v = new ] && bin=$new
        rm -f "$tmp/file"
        args=
        for a in "$@"; do
            [ "$a" = FILE ] && a=$tmp/file
            args="$args '$a'"
        done
        eval "\"\$bin\" $args" >"$tmp/$v.out" 2>"$tmp/$v.err"
        echo "status $?" >>"$tmp/$v.out"
        [ -e "$tmp/file" ] && cat "$tmp/file" >>"$tmp/$v.out"
    done
    runs=$((runs + 1))
    if ! cmp -s "$tmp/old.out" "$tmp/new.out" || ! cmp -s "$tmp/old.err" "$tmp/new.err"; then
        differences=$((differences + 1))
        echo "nb_diff: $label differs"
        diff "$tmp/old.out" "$tmp/new.out" | head -10
        diff "$tmp/old.err" "$tmp/new.err" | head -4
    fi
}

for trace in "$@"; do
    for m in netburst netburst-willamette netburst-prescott netburst-prescott4; do
        one "$trace $m bench" stat -m $m -x, -e "$bench" --trace "$trace"
        one "$trace $m all" stat -m $m -x, -e "$all" --trace "$trace"
        one "$trace $m tagging" stat -m $m -x, -e "$tagging" --trace "$trace"
        one "$trace $m u/k" stat -m $m -x, -e "$both" --trace "$trace"
        one "$trace $m sparse" stat -m $m -x, -e "$sparse" --trace "$trace"
        one "$trace $m one event" stat -m $m -x, -e instr_retired:NBOGUSNTAG --trace "$trace"
    done
    one "$trace default" stat -m netburst --trace "$trace"
    one "$trace -I" stat -m netburst -x, -I 10007 -e "$some" --trace "$trace"
    one "$trace -Ic" stat -m netburst-prescott -x, -I 30011c -e "$some" --trace "$trace"
    one "$trace pipeview" stat -m netburst -x, -e "$some" --pipeview FILE \
        --pipeview-range 1000:3000 --trace "$trace"
    one "$trace pebs" sample -m netburst --pebs 1stL_cache_load_miss_retired --period 11 \
        --no-symbols --trace "$trace"
    one "$trace iebs" sample -m netburst-prescott -e uops_retired:NBOGUS --period 9973 \
        --no-symbols --trace "$trace"
done
if [ $# -ge 2 ]; then
    for m in netburst netburst-prescott; do
        one "HT $m bench" stat -m $m -x, -e "$bench" --trace "$1" --trace "$2"
        one "HT $m tagging" stat -m $m -x, -e "$tagging" --trace "$1" --trace "$2"
        one "HT $m u/k" stat -m $m -x, -e "$both" --trace "$2" --trace "$1"
        one "HT $m sparse" stat -m $m -x, -e "$sparse" --trace "$1" --trace "$2"
    done
    one "HT -I" stat -m netburst -x, -I 10007 -e "$some" --trace "$1" --trace "$2"
fi
echo "nb_diff: $runs runs of each binary, $differences different"
[ "$differences" -eq 0 ]
