# pmubench stat (docs/stat.md), sourced by run_tests.sh after
# tests/cli_tests.sh (its helpers, and its traces in $tmp).

expect 0 "" -- stat --help
expect 2 "pmubench stat: $tmp/missing.trace: No such file or directory" -- stat --trace "$tmp/missing.trace"
expect 2 "pmubench stat: nothing to count (--trace FILE or -- PROGRAM)" -- stat -e branches
expect 2 "pmubench stat: --trace FILE or '-- PROGRAM', not both" -- \
    stat -e branches --trace x.trace -- /bin/true
expect 2 "pmubench stat: -e needs a value" -- stat -e
expect 2 "pmubench stat: --: no program after '--'" -- stat -e branches --
expect 2 "pmubench stat: --json or -x, not both" -- stat -e branches --json -x , --trace x.trace
expect 2 "pmubench stat: --backend msr counts a program's run, not a trace" -- \
    stat --backend msr -e branches --trace x.trace
expect 2 "pmubench stat: --region needs the simulated model (a trace's markers)" -- \
    stat --backend msr --region 1 -e branches -- /bin/true
expect 2 "pmubench stat: bad --backend 'gpu' (expected sim or msr)" -- stat --backend gpu
expect 2 "pmubench stat: bad --region '-1' (expected a region number, 0 to 4294967295)" -- \
    stat --region -1
expect 2 "pmubench stat: bad --cpu 'x' (expected a CPU number)" -- stat --cpu x
expect 2 "pmubench stat: at most two --trace (the two logical processors)" -- \
    stat -e branches --trace a --trace b --trace c
expect 2 "pmubench stat: two --trace need the NetBurst model (-m netburst...): the P5 has one processor" -- \
    stat -e branches --trace a --trace b
expect 2 "pmubench stat: 'netburst::instr_retired:NBOGUSNTAG': not an event of the model's PMU (-m)" -- \
    stat -e netburst::instr_retired:NBOGUSNTAG --trace x.trace
expect 2 "pmubench stat: 'p5::branches': not an event of the model's PMU (-m)" -- \
    stat -m netburst -e p5::branches --trace x.trace
expect 2 "pmubench stat: -m: unknown model 'k6' (expected p5, host, netburst or netburst-PRESET)" -- \
    stat -m k6 -e branches --trace x.trace
expect 2 "pmubench stat: p5::bogus: unknown P5 event 'bogus' ('pmubench list p5' shows the events; p5::clocks counts clocks)" -- \
    stat -e bogus --trace x.trace
expect 2 "pmubench stat: bad -F 'dcache_size' (expected NAME=VALUE)" -- \
    stat -e branches -F dcache_size --trace x.trace
expect 2 "pmubench stat: $tmp/missing.trace: No such file or directory" -- \
    stat -e branches --trace "$tmp/missing.trace"

# --backend msr on a processor other than a P5: the msr backend refuses the
# first write (CESR 0x11, program_setup's first), so the program never runs.
# The message names CPUID's vendor, base family and base model (those of
# the CPU pmubench runs on: valgrind's virtual CPU under make memcheck, so
# the numbers are matched as numbers there).
: >"$tmp/stat-msr"
pmubench stat --backend msr --msr-device "$tmp/stat-msr" -e branches -- /bin/sh -c "touch $tmp/stat-ran" \
    >"$tmp/cli.out" 2>"$tmp/cli.err"
status=$?
cpuid=$(awk -F': *' '/^vendor_id/ && !v {v = $2} /^cpu family/ && !f {f = $2}
    /^model[ \t]*:/ && m == "" {m = $2}
    END { if (f < 15) printf "%s family %d model %d", v, f, m % 16 }' /proc/cpuinfo)
[ -n "$wrapper" ] && cpuid=$(echo "$cpuid" | sed 's/family [0-9]* model [0-9]*/family [0-9]+ model [0-9]+/')
if [ -n "$cpuid" ]; then
    if [ $status -eq 2 ] && grep -Exq "pmubench stat: --backend msr: setup: MSR 0x11: refusing to write MSRs: CPUID reports $cpuid, not a GenuineIntel family 5 \(P5 Pentium\) processor" "$tmp/cli.err"; then
        pass; else fail "stat --backend msr on this CPU: status $status, '$(cat "$tmp/cli.err")'"; fi
    if [ -e "$tmp/stat-ran" ]; then fail "stat --backend msr ran the program after a refusal"; else pass; fi
fi

# Without -e, the model's default set (docs/stat.md, "Default events"), in
# its order; and one warning line for 64-bit code on a machine without
# IA-32e mode (the P5, Willamette, Northwood), none on Prescott or for
# 32-bit code.
if [ -f "$tmp/regions64.trace" ]; then
    w64="64-bit code, which %s could not run (it has no IA-32e mode); simulated anyway, decoded as 64-bit code (docs/stat.md, \"64-bit traces\")"
    # shellcheck disable=SC2059
    expect 0 "pmubench stat: warning: $tmp/regions64.trace: $(printf "$w64" "the P5")" -- \
        stat -x , --trace "$tmp/regions64.trace"
    names=$(cut -d, -f3 "$tmp/cli.out" | tr '\n' ' ')
    if [ "$names" = "clocks instructions_executed data_read_or_write data_read_or_write_miss branches pipeline_flushes " ]; then
        pass; else fail "stat without -e (p5): events '$names'"; fi
    # shellcheck disable=SC2059
    expect 0 "pmubench stat: warning: $tmp/regions64.trace: $(printf "$w64" Northwood)" -- \
        stat -m netburst -x , --trace "$tmp/regions64.trace"
    names=$(cut -d, -f3 "$tmp/cli.out" | tr '\n' ' ')
    if [ "$names" = "global_power_events:RUNNING instr_retired:NBOGUSNTAG:NBOGUSTAG BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_HITE:RD_2ndL_HITM:RD_2ndL_MISS BSQ_cache_reference:RD_2ndL_MISS retired_branch_type:CONDITIONAL:CALL:RETURN:INDIRECT mispred_branch_retired:NBOGUS " ]; then
        pass; else fail "stat without -e (netburst): events '$names'"; fi
    # shellcheck disable=SC2059
    expect 0 "pmubench stat: warning: $tmp/regions64.trace: $(printf "$w64" Willamette)" -- \
        stat -m netburst-willamette -e uops_retired:NBOGUS --trace "$tmp/regions64.trace"
    expect 0 "" -- stat -m netburst-prescott -e uops_retired:NBOGUS --trace "$tmp/regions64.trace"
    # shellcheck disable=SC2059
    expect 0 "pmubench p5mon: warning: $tmp/regions64.trace: $(printf "$w64" "the P5")" -- \
        p5mon -Ftrace="$tmp/regions64.trace" -Fdata_read=yes -Frepetitions=1 -Foutput_file="$tmp/w64.p5m"
    pmubench stat --json -o "$tmp/w64.json" -e branches --trace "$tmp/regions64.trace" 2>/dev/null
    # shellcheck disable=SC2059
    expect 0 "pmubench compare: warning: $tmp/regions64.trace: $(printf "$w64" "the P5")" -- \
        compare "$tmp/w64.json" "$tmp/w64.json"
    if [ -f "$tmp/regions32.trace" ]; then
        expect 0 "" -- stat -e branches --trace "$tmp/regions32.trace"
        expect 0 "" -- stat -m netburst -e uops_retired:NBOGUS --trace "$tmp/regions32.trace"
    fi
fi

# Counting a trace: the model's instructions_executed is the trace's INSN
# records (trace info counts them independently), per region too: region 2
# of tests/traces/regions.c is entered 10 times, and the instructions
# between its markers are counted in the dump.
if [ -f "$tmp/regions64.trace" ]; then
    trace=$tmp/regions64.trace
    insns=$(pmubench trace info --json "$trace" | sed -n 's/.*"instructions": \([0-9]*\),.*/\1/p')
    in_region=$(pmubench trace dump "$trace" | awk '/^region begin 2$/ {open = 1}
        /^region end 2$/ {open = 0} /^insn/ && open {n++} END {print n + 0}')
    expect 0 "" -- stat -e instructions_executed,p5::data_read:u --json --trace "$trace"
    want="{\"model\": \"p5\", \"trace\": \"$trace\", \"runs\": 1, \"counts\": {\"instructions_executed\": $insns, \"data_read:u\": "
    case $(cat "$tmp/cli.out") in "$want"*) pass ;; *) fail "stat --json: $(cat "$tmp/cli.out")" ;; esac
    expect 0 "" -- stat -e instructions_executed --region 2 -x , --trace "$trace"
    if [ "$(cat "$tmp/cli.out")" = "$in_region,,instructions_executed,," ] && [ "$in_region" -gt 0 ]; then
        pass; else fail "stat --region 2: '$(cat "$tmp/cli.out")', the dump has $in_region"; fi
    expect 0 "" -- stat -e instructions_executed --region 2 --trace "$trace"
    if grep -q "^ *10      entries into region 2$" "$tmp/cli.out"; then pass; else fail "stat: region entries"; fi
    # Three events on two counters: two runs of the trace, each count as
    # when counted alone.
    expect 0 "" -- stat -e instructions_executed,branches,data_write -x ';' -o "$tmp/three.csv" --trace "$trace"
    expect 0 "" -- stat -e branches -x ';' --trace "$trace"
    alone=$(cat "$tmp/cli.out")
    if [ "$(sed -n 2p "$tmp/three.csv")" = "$alone" ] && [ "$(head -1 "$tmp/three.csv")" = "$insns;;instructions_executed;;" ]; then
        pass; else fail "stat -o with three events: $(cat "$tmp/three.csv")"; fi
    # '-- PROGRAM' records the program first: the same counts (in region 2,
    # whose instructions do not depend on the start-up's environment).
    expect 0 "" -- stat -e instructions_executed --region 2 -x , -- "$tmp/regions64"
    if [ "$(cat "$tmp/cli.out")" = "$in_region,,instructions_executed,," ]; then
        pass; else fail "stat -- PROGRAM: $(cat "$tmp/cli.out")"; fi
    # An output that cannot be written leaves nothing behind.
    expect 2 "pmubench stat: $tmp/nodir/out.csv: cannot create: No such file or directory" -- \
        stat -e branches -x , -o "$tmp/nodir/out.csv" --trace "$trace"
    if [ -e "$tmp/nodir" ]; then fail "stat -o left something"; else pass; fi
    # The NetBurst model through the same library: instr_retired is the
    # trace's instructions, as instr_completed on a Prescott; a branch_retired
    # with all four sub-events the trace's control transfers.
    branches=$(pmubench trace info --json "$trace" | sed -n 's/.*"branches": \([0-9]*\),.*/\1/p')
    expect 0 "" -- stat -m netburst -e instr_retired:NBOGUSNTAG,branch_retired:MMTP:MMNP:MMTM:MMNM -x , --trace "$trace"
    if [ "$(cat "$tmp/cli.out")" = "$insns,,instr_retired:NBOGUSNTAG,,
$branches,,branch_retired:MMTP:MMNP:MMTM:MMNM,," ]; then pass; else fail "stat -m netburst: $(cat "$tmp/cli.out")"; fi
    expect 0 "" -- stat -m netburst-prescott -e instr_completed:NBOGUS -x , --trace "$trace"
    if [ "$(cat "$tmp/cli.out")" = "$insns,,instr_completed:NBOGUS,," ]; then pass; else fail "stat -m netburst-prescott: $(cat "$tmp/cli.out")"; fi
    expect 2 "pmubench stat: -m: unknown NetBurst preset 'pentium-m' (willamette, willamette0, northwood, netburst, prescott, prescott4)" -- \
        stat -m netburst-pentium-m -e instr_retired:NBOGUSNTAG --trace "$trace"
    expect 2 "pmubench stat: netburst::instr_completed:NBOGUS: event instr_completed does not exist on model 2 (it needs netburst_p: models 3, 4, 6)" -- \
        stat -m netburst-northwood -e instr_completed:NBOGUS --trace "$trace"
    # Two traces are the NetBurst's two logical processors: each thread's
    # instr_retired is its own trace's instructions.
    if [ -f "$tmp/regions32.trace" ]; then
        insns32=$(pmubench trace info --json "$tmp/regions32.trace" | sed -n 's/.*"instructions": \([0-9]*\),.*/\1/p')
        expect 0 "" -- stat -m netburst -e instr_retired:NBOGUSNTAG:t0,instr_retired:NBOGUSNTAG:t1 -x , \
            --trace "$trace" --trace "$tmp/regions32.trace"
        if [ "$(cat "$tmp/cli.out")" = "$insns,,instr_retired:NBOGUSNTAG:t0,,
$insns32,,instr_retired:NBOGUSNTAG:t1,," ]; then pass; else fail "stat with two traces: $(cat "$tmp/cli.out")"; fi
    fi
    # stat and p5mon program the same model through the same library: their
    # counts of one trace agree to the count (compare: every difference 0).
    printf '(p5mon\ntrace = %s;\nrepetitions = 2;\ninstructions_executed = yes;\nbranches = yes;\ndata_read = yes;\nend)\n' \
        "$trace" >"$tmp/agree.parms"
    pmubench p5mon "$tmp/agree.parms" -F output_file="$tmp/agree.p5mon" >/dev/null
    pmubench stat --json -o "$tmp/agree.json" -e instructions_executed,branches,data_read --trace "$trace"
    agree=$(pmubench compare -x , "$tmp/agree.json" "$tmp/agree.p5mon" | awk -F, 'NR > 1 {printf "%s=%s;", $1, $5}')
    if [ "$agree" = "instructions_executed=0.0;branches=0.0;data_read=0.0;" ]; then
        pass; else fail "stat and p5mon disagree: $agree"; fi
fi
