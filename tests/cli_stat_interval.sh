# pmubench stat -I (docs/stat.md, "Intervals"), sourced by run_tests.sh
# after tests/cli_tests.sh (its helpers, and its traces in $tmp).

# Bad -I: one line each, status 2.
i_expected="(expected N instructions or Nc cycles, N a number from 1 to 1000000000000000000: decimal or 0x hex)"
expect_usage "pmubench stat: bad -I '0' $i_expected" -- stat -I 0 --trace "$tmp/small.trace"
expect_usage "pmubench stat: bad -I 'x' $i_expected" -- stat -I x --trace "$tmp/small.trace"
expect_usage "pmubench stat: bad -I '5q' $i_expected" -- stat -I 5q --trace "$tmp/small.trace"
expect_usage "pmubench stat: bad -I '0c' $i_expected" -- stat -I 0c --trace "$tmp/small.trace"
expect_usage "pmubench stat: bad -I 'c' $i_expected" -- stat -I c --trace "$tmp/small.trace"
expect_usage "pmubench stat: -I given twice (each option once)" -- \
    stat -I 3 -I 4 --trace "$tmp/small.trace"
expect_usage "pmubench stat: -I needs a value" -- stat -I
expect_usage "pmubench stat: -I needs the simulated model (intervals of a trace's run)" -- \
    stat --backend msr -I 5 -e branches -- /bin/true

# The lackey trace of tests/traces/small.lackey (10 instructions): its
# first basic block is the six instructions from 0x4014f0 to the jump to
# 0x40150b, and none of them waits to pair with the next block's first, so
# with -I 3 the first interval ends after it, at 6 instructions issued
# (instructions_executed 6, in 56 clocks); the last takes the other 4 and
# the rest of the 153 clocks.  With -I 10c the first ends at the same
# block (56 clocks), the next at the block that passes 60 clocks (152),
# the last at the trace's end, the held instruction's pair: 2 instructions
# in 1 clock.
expect 0 "" -- stat -x , -I 3 -e instructions_executed,clocks --trace "$tmp/small.trace"
if [ "$(tr '\n' ' ' <"$tmp/cli.out")" = "6,6,,instructions_executed,, 6,56,,clocks,, 10,4,,instructions_executed,, 10,97,,clocks,, " ]; then
    pass; else fail "stat -I 3 small.trace: $(cat "$tmp/cli.out")"; fi
expect 0 "" -- stat -x , -I 10c -e instructions_executed,clocks --trace "$tmp/small.trace"
if [ "$(tr '\n' ' ' <"$tmp/cli.out")" = "56,6,,instructions_executed,, 56,56,,clocks,, 152,2,,instructions_executed,, 152,96,,clocks,, 153,2,,instructions_executed,, 153,1,,clocks,, " ]; then
    pass; else fail "stat -I 10c small.trace: $(cat "$tmp/cli.out")"; fi
expect 0 "" -- stat --json -I 3 -e instructions_executed,clocks --trace "$tmp/small.trace"
if [ "$(cat "$tmp/cli.out")" = "{\"model\": \"p5\", \"trace\": \"$tmp/small.trace\", \"runs\": 1, \"passes\": 1, \"counting\": \"one\", \"counts\": {\"instructions_executed\": 10, \"clocks\": 153}, \"interval\": {\"unit\": \"instructions\", \"every\": 3}, \"intervals\": [{\"end\": 6, \"instructions\": 6, \"cycles\": 56, \"counts\": {\"instructions_executed\": 6, \"clocks\": 56}}, {\"end\": 10, \"instructions\": 4, \"cycles\": 97, \"counts\": {\"instructions_executed\": 4, \"clocks\": 97}}]}" ]; then
    pass; else fail "stat --json -I 3 small.trace: $(cat "$tmp/cli.out")"; fi
# The table: the intervals, then the table without -I, byte for byte.
pmubench stat -e instructions_executed,clocks --trace "$tmp/small.trace" >"$tmp/i-plain" 2>/dev/null
expect 0 "" -- stat -I 3 -e instructions_executed,clocks --trace "$tmp/small.trace"
{
    printf '#        instructions               counts      event\n'
    printf ' %20d %20d      %s\n' 6 6 instructions_executed 6 56 clocks 10 4 instructions_executed 10 97 clocks
    cat "$tmp/i-plain"
} >"$tmp/i-want"
if cmp -s "$tmp/cli.out" "$tmp/i-want"; then pass; else fail "stat -I 3 table: $(cat "$tmp/cli.out")"; fi

# interval_sums MODEL-ARGS...: -x output with -I $i_every against the same
# run without: for every event the intervals add up to the total; and
# on the NetBurst's instr_retired and uops_retired, the P5's
# instructions_executed and clocks, each interval's count is the model's
# own instructions or cycles in it (from --json).
interval_sums() {
    pmubench stat -x , "$@" >"$tmp/i-total" 2>/dev/null
    pmubench stat -x , -I "$i_every" "$@" >"$tmp/i-series" 2>/dev/null
    what="stat -I $i_every $*"
    if [ -s "$tmp/i-total" ] && awk -F, 'NR == FNR {t[$3] = $1; next} {s[$4] += $2; n[$4]++}
        END {for (e in t) if (s[e] != t[e] || n[e] < 2) exit 1}' "$tmp/i-total" "$tmp/i-series"; then
        pass; else fail "$what: the intervals do not add up to the totals"; fi
    if grep -q '^[0-9]*,[0-9]*,,[^,]*,,$' "$tmp/i-series" && ! grep -vq '^[0-9]*,[0-9]*,,[^,]*,,$' "$tmp/i-series"; then
        pass; else fail "$what: not END,VALUE,,EVENT,, lines"; fi
}
if [ -f "$tmp/regions64.trace" ]; then
    r64="$tmp/regions64.trace"
    nb_events=uops_retired:NBOGUS,instr_retired:NBOGUSNTAG,global_power_events:RUNNING,branch_retired:MMTP,BSQ_cache_reference:RD_2ndL_MISS,mispred_branch_retired:NBOGUS,memory_complete:LSC,x87_FP_uop:ALL
    for i_every in 7000 30000c; do
        interval_sums --trace "$r64"
        interval_sums --trace "$r64" --runs hardware
        interval_sums --trace "$r64" --region 1
        interval_sums -m netburst --trace "$r64"
        interval_sums -m netburst -e "$nb_events" --trace "$r64"
        interval_sums -m netburst -e "$nb_events" --trace "$r64" --region 2
        interval_sums -m netburst --trace "$r64" --trace "$tmp/small.trace"
        interval_sums -m netburst -e "$nb_events" --trace "$r64" --trace "$r64" --region 1
    done
    # Each interval's instr_retired is its instructions, RUNNING its
    # cycles (one logical processor), on the NetBurst; instructions_executed
    # and clocks on the P5; the totals line unchanged.
    pmubench stat --json -m netburst -I 40000 -e instr_retired:NBOGUSNTAG,global_power_events:RUNNING \
        --trace "$r64" >"$tmp/i.json" 2>/dev/null
    pmubench stat --json -I 50000c -e instructions_executed,clocks --trace "$r64" >>"$tmp/i.json" 2>/dev/null
    if [ "$(grep -o '"instructions": [0-9]*, "cycles": [0-9]*\(, "uops": [0-9]*\)*, "counts": {"[^"]*": [0-9]*, "[^"]*": [0-9]*}' "$tmp/i.json" |
            sed 's/"instructions": \([0-9]*\), "cycles": \([0-9]*\).*": \([0-9]*\), "[^"]*": \([0-9]*\)}/\1 \2 \3 \4/' |
            awk '$1 != $3 || $2 != $4 {bad = 1} END {print (NR >= 4 && !bad)}')" = 1 ]; then
        pass; else fail "stat -I: instr_retired, RUNNING, instructions_executed, clocks per interval: $(cat "$tmp/i.json")"; fi
    # --json: the series from the first pass of each index, the ends the
    # unit's running totals, the last at the trace's end.
    pmubench stat --json -m netburst -I 40000 -e uops_retired:NBOGUS --trace "$r64" >"$tmp/i.json" 2>/dev/null
    r64_insns=$(pmubench trace info --json "$r64" | sed 's/.*"instructions": \([0-9]*\),.*/\1/')
    if grep -q "\"interval\": {\"unit\": \"instructions\", \"every\": 40000}, \"intervals\": \[{\"end\": 400[0-9][0-9], .*{\"end\": $r64_insns, \"instructions\": [0-9]*, \"cycles\": [0-9]*, \"uops\": [0-9]*, \"counts\": {\"uops_retired:NBOGUS\": [0-9]*}}\]}$" "$tmp/i.json"; then
        pass; else fail "stat --json -I 40000 -m netburst: $(cat "$tmp/i.json")"; fi
fi
