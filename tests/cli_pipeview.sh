# stat --pipeview (docs/pipeview.md), sourced by run_tests.sh after
# tests/cli_tests.sh: the option errors (status 2, one line), an output
# that cannot be written (status 1, nothing left), a failed run leaving no
# view; then, on the recorded trace of tests/traces/regions.c, views
# checked by tests/pipeview/pipeview_check.c (gem5's O3PipeView format)
# whose records are exactly the uops the counters count: retired records
# uops_retired:NBOGUS, squashed records with an allocation
# uops_retired:BOGUS, first uops of retired records instr_retired, over
# the whole trace, a region, two traces; the counts the same as without
# the view; the first pass's view of several; and the instruction range.

pv=$tmp/pipeview
mkdir -p "$pv"
check=$build/tests/pipeview_check
range_error="(expected FIRST:LAST, instruction numbers from 1 with FIRST <= LAST)"

expect_usage "pmubench stat: bad --pipeview-range '5:2' $range_error" -- \
    stat -m netburst --pipeview "$pv/x" --pipeview-range 5:2 --trace x.trace
expect_usage "pmubench stat: bad --pipeview-range 'x' $range_error" -- \
    stat -m netburst --pipeview "$pv/x" --pipeview-range x --trace x.trace
expect_usage "pmubench stat: bad --pipeview-range '0:3' $range_error" -- \
    stat -m netburst --pipeview "$pv/x" --pipeview-range 0:3 --trace x.trace
expect_usage "pmubench stat: --pipeview-range needs --pipeview FILE" -- \
    stat -m netburst --pipeview-range 1:3 --trace x.trace
expect_usage "pmubench stat: --pipeview needs a value" -- stat -m netburst --pipeview
expect_usage "pmubench stat: --pipeview needs the simulated NetBurst model" -- \
    stat -m netburst --backend msr --pipeview "$pv/x" -e branches -- /bin/true
expect_usage "pmubench stat: --pipeview needs the NetBurst model (-m netburst...): the P5 model times instructions, not uops" -- \
    stat --pipeview "$pv/x" -e branches --trace "$tmp/small.trace"
expect_usage "pmubench stat: --pipeview given twice (each option once)" -- \
    stat -m netburst --pipeview "$pv/x" --pipeview "$pv/y" --trace x.trace
if [ -e "$pv/x" ]; then fail "stat --pipeview: a refused command wrote the view"; else pass; fi

if [ -f "$tmp/regions64.trace" ] && [ -x "$check" ]; then
    trace=$tmp/regions64.trace
    events=uops_retired:NBOGUS,uops_retired:BOGUS,instr_retired:NBOGUSNTAG
    # The view and a trace given as one file: refused, the trace intact.
    expect 2 "pmubench stat: --pipeview '$trace' and --trace '$trace' are the same file" -- \
        stat -m netburst --pipeview "$trace" --trace "$trace"
    # An output that cannot be created: status 1, nothing behind.
    expect 1 "pmubench stat: $pv/nodir/view.txt: cannot create: No such file or directory" -- \
        stat -m netburst -e "$events" --pipeview "$pv/nodir/view.txt" --trace "$trace"
    if [ -e "$pv/nodir" ]; then fail "stat --pipeview into a missing directory left something"; else pass; fi
    # A run that fails (a truncated trace) leaves no view.
    head -c 20000 "$trace" >"$pv/cut.trace"
    pmubench stat -m netburst --pipeview "$pv/cut.txt" --trace "$pv/cut.trace" >/dev/null 2>&1
    status=$?
    if [ $status -ne 0 ] && [ ! -e "$pv/cut.txt" ]; then pass; else fail "stat --pipeview on a cut trace: status $status, view $(ls "$pv")"; fi

    # pipeview_agrees VIEW COUNTS WHAT: the checker's figures against stat
    # -x's counts of $events.
    pipeview_agrees() {
        if ! "$check" "$1" >"$pv/check.out" 2>&1; then fail "$3: $(cat "$pv/check.out")"; return; fi
        set -- "$1" "$(cut -d, -f1 "$2" | tr '\n' ' ')" "$3"
        # shellcheck disable=SC2046
        set -- "$@" $(awk '{print $4, $8, $10}' "$pv/check.out")
        if [ "$2" = "$4 $5 $6 " ]; then pass; else fail "$3: counts $2, view $(cat "$pv/check.out")"; fi
    }
    expect 0 "" -- stat -m netburst -e "$events" -x , --trace "$trace"
    cp "$tmp/cli.out" "$pv/plain.csv"
    expect 0 "" -- stat -m netburst -e "$events" -x , --pipeview "$pv/all.txt" --trace "$trace"
    if cmp -s "$tmp/cli.out" "$pv/plain.csv"; then pass; else fail "stat --pipeview changed the counts"; fi
    pipeview_agrees "$pv/all.txt" "$tmp/cli.out" "stat --pipeview over the whole trace"
    rm -f "$pv/all.txt"
    for region in 1 2; do
        expect 0 "" -- stat -m netburst -e "$events" -x , --region $region --pipeview "$pv/r.txt" --trace "$trace"
        pipeview_agrees "$pv/r.txt" "$tmp/cli.out" "stat --pipeview --region $region"
    done
    # A plan of several runs, counted in one pass (docs/stat.md, "One
    # pass"): the view is the one of a single run's pass ($events: one
    # run), the model's timing not depending on the runs' counters.
    many=$events,branch_retired:MMTP,global_power_events:RUNNING,BSQ_cache_reference:RD_2ndL_MISS
    many=$many,x87_FP_uop:ALL,packed_SP_uop:ALL,scalar_SP_uop:ALL,128bit_MMX_uop:ALL,64bit_MMX_uop:ALL
    many=$many,page_walk_type:DTMISS,ITLB_reference:HIT,memory_complete:LSC,machine_clear:CLEAR
    expect 0 "" -- stat -m netburst -e "$many" --json --region 2 --pipeview "$pv/passes.txt" --trace "$trace"
    if grep -q '"runs": [2-9], "passes": 1,' "$tmp/cli.out" && cmp -s "$pv/passes.txt" "$pv/r.txt"; then
        pass; else fail "stat --pipeview with several runs: $(grep -o '"runs": [0-9]*, "passes": [0-9]*' "$tmp/cli.out")"; fi
    # ... and with --runs hardware, a pass per run: the first pass's view.
    expect 0 "" -- stat -m netburst -e "$many" --runs hardware --json --region 2 \
        --pipeview "$pv/passes.txt" --trace "$trace"
    if grep -q '"runs": \([2-9]\), "passes": \1,' "$tmp/cli.out" && cmp -s "$pv/passes.txt" "$pv/r.txt"; then
        pass; else fail "stat --pipeview with --runs hardware: $(grep -o '"runs": [0-9]*, "passes": [0-9]*' "$tmp/cli.out")"; fi
    # The range: region 2's instructions 3 to 5, whose uops (no wrong
    # path in it) are those of the region's whole view from its third first
    # uop on, renumbered from 1.
    awk -F: '/^O3PipeView:fetch:/ && $5 == 0 {n++} n >= 3 && n <= 5' "$pv/r.txt" |
        awk -F: 'BEGIN {OFS = ":"} /^O3PipeView:fetch:/ {$6 = ++seq} {print}' >"$pv/want.txt"
    expect 0 "" -- stat -m netburst -e "$events" --region 2 --pipeview "$pv/r35.txt" \
        --pipeview-range 3:5 --trace "$trace"
    if [ -s "$pv/want.txt" ] && cmp -s "$pv/r35.txt" "$pv/want.txt" &&
        [ "$("$check" "$pv/r35.txt")" = "records 4 retired 4 squashed 0 allocated-squashed 0 instructions 3" ]; then
        pass; else fail "stat --pipeview-range 3:5: $("$check" "$pv/r35.txt" 2>&1)"; fi
fi

# Two traces (Hyper-Threading): both logical processors' uops, each
# instruction's text saying which (the imported trace has no code bytes:
# "(no code)"); the counts are both's.
if [ -x "$check" ]; then
    expect 0 "" -- stat -m netburst -e uops_retired:NBOGUS,uops_retired:BOGUS,instr_retired:NBOGUSNTAG \
        -x , --pipeview "$pv/ht.txt" --trace "$tmp/small.trace" --trace "$tmp/small.trace"
    if [ "$(cut -d, -f1 "$tmp/cli.out" | tr '\n' ' ')" = "20 0 20 " ] &&
        [ "$("$check" "$pv/ht.txt")" = "records 20 retired 20 squashed 0 allocated-squashed 0 instructions 20" ] &&
        [ "$(grep -c '^O3PipeView:fetch:.*:T0 (no code)$' "$pv/ht.txt")" = 10 ] &&
        [ "$(grep -c '^O3PipeView:fetch:.*:T1 (no code)$' "$pv/ht.txt")" = 10 ]; then
        pass; else fail "stat --pipeview with two traces: $(cat "$tmp/cli.out") $("$check" "$pv/ht.txt" 2>&1)"; fi
fi
