# pmubench stat (docs/stat.md), sourced by run_tests.sh after
# tests/cli_tests.sh (its helpers, and its traces in $tmp).

expect 0 "" -- stat --help
expect 2 "pmubench stat: $tmp/missing.trace: cannot open: No such file or directory" -- stat --trace "$tmp/missing.trace"
expect_usage "pmubench stat: nothing to count (--trace FILE or -- PROGRAM)" -- stat -e branches
expect_usage "pmubench stat: --trace FILE or '-- PROGRAM', not both" -- \
    stat -e branches --trace x.trace -- /bin/true
expect_usage "pmubench stat: -e needs a value" -- stat -e
expect_usage "pmubench stat: --: no program after '--'" -- stat -e branches --
expect_usage "pmubench stat: --json or -x, not both" -- stat -e branches --json -x , --trace x.trace
expect_usage "pmubench stat: --backend msr counts a program's run, not a trace" -- \
    stat --backend msr -e branches --trace x.trace
expect_usage "pmubench stat: --region needs the simulated model (a trace's markers)" -- \
    stat --backend msr --region 1 -e branches -- /bin/true
expect_usage "pmubench stat: bad --backend 'gpu' (expected sim or msr)" -- stat --backend gpu
expect_usage "pmubench stat: bad --runs 'twice' (expected one or hardware)" -- stat --runs twice
expect_usage "pmubench stat: --runs needs a value" -- stat --runs
expect_usage "pmubench stat: --runs one needs the simulated model (hardware runs the program once per run)" -- \
    stat --backend msr --runs one -e branches -- /bin/true
expect_usage "pmubench stat: bad --region '-1' (expected a number: decimal or 0x hex, 0 to 4294967295)" -- \
    stat --region -1
expect_usage "pmubench stat: bad --cpu 'x' (expected a number: decimal or 0x hex, 0 to 1023)" -- stat --cpu x
expect_usage "pmubench stat: at most two --trace (the two logical processors)" -- \
    stat -e branches --trace a --trace b --trace c
expect_usage "pmubench stat: two --trace need the NetBurst model (-m netburst...): the P5 has one processor" -- \
    stat -e branches --trace a --trace b
expect 2 "pmubench stat: 'netburst::instr_retired:NBOGUSNTAG': not an event of the model's PMU (-m)" -- \
    stat -e netburst::instr_retired:NBOGUSNTAG --trace x.trace
expect 2 "pmubench stat: 'p5::branches': not an event of the model's PMU (-m)" -- \
    stat -m netburst -e p5::branches --trace x.trace
expect_usage "pmubench stat: -m: unknown model 'k6' (expected p5, pmmx, host, netburst or netburst-PRESET)" -- \
    stat -m k6 -e branches --trace x.trace
expect 2 "pmubench stat: p5::bogus: unknown P5 event 'bogus' ('pmubench list p5' shows the events; p5::clocks counts clocks)" -- \
    stat -e bogus --trace x.trace
expect_usage "pmubench stat: bad -F 'dcache_size' (expected NAME=VALUE)" -- \
    stat -e branches -F dcache_size --trace x.trace
expect 2 "pmubench stat: $tmp/missing.trace: cannot open: No such file or directory" -- \
    stat -e branches --trace "$tmp/missing.trace"

# --backend msr on a processor other than a P5: the msr backend refuses the
# first write (CESR 0x11, program_setup's first), so the program never runs.
# The message names CPUID's vendor, family and model as the SDM defines
# them (extended family and model included, as /proc/cpuinfo shows them),
# those of the CPU pmubench runs on (valgrind's virtual CPU under make
# memcheck, so the numbers are matched as numbers there); status 1, a
# run-time failure (docs/exit-status.md).
: >"$tmp/stat-msr"
pmubench stat --backend msr --msr-device "$tmp/stat-msr" -e branches -- /bin/sh -c "touch $tmp/stat-ran" \
    >"$tmp/cli.out" 2>"$tmp/cli.err"
status=$?
cpuid=$(awk -F': *' '/^vendor_id/ && !v {v = $2} /^cpu family/ && !f {f = $2}
    /^model[ \t]*:/ && m == "" {m = $2}
    END { if (v != "") printf "%s family %d model %d", v, f, m }' /proc/cpuinfo)
[ -n "$wrapper" ] && cpuid=$(echo "$cpuid" | sed 's/family [0-9]* model [0-9]*/family [0-9]+ model [0-9]+/')
if [ -n "$cpuid" ]; then
    if [ $status -eq 1 ] && grep -Exq "pmubench stat: --backend msr: setup: MSR 0x11: refusing to write MSRs: CPUID reports $cpuid, not a GenuineIntel family 5 \(P5 Pentium\) processor" "$tmp/cli.err"; then
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
    expect_exact 0 "" -- stat -m netburst-prescott -e uops_retired:NBOGUS --trace "$tmp/regions64.trace"
    # A netburst_p:: string chooses Prescott for a bare -m netburst, as in
    # encode and alloc: no warning, and instr_completed exists there.
    expect_exact 0 "" -- stat -m netburst -e netburst_p::instr_completed:NBOGUS --trace "$tmp/regions64.trace"
    expect 2 "pmubench stat: 'netburst_p::instr_completed:NBOGUS': not an event of the model's PMU (-m)" -- \
        stat -e netburst_p::instr_completed:NBOGUS --trace "$tmp/regions64.trace"
    # From a FIFO: the header is read once, by the simulation; the warning
    # check, which would read it first, leaves a FIFO alone.
    rm -f "$tmp/trace.fifo" && mkfifo "$tmp/trace.fifo"
    cat "$tmp/regions64.trace" >"$tmp/trace.fifo" &
    expect_exact 0 "" -- stat -e branches --trace "$tmp/trace.fifo"
    wait
    # shellcheck disable=SC2059
    expect 0 "pmubench p5mon: warning: $tmp/regions64.trace: $(printf "$w64" "the P5")" -- \
        p5mon -Ftrace="$tmp/regions64.trace" -Fdata_read=yes -Frepetitions=1 -Foutput_file="$tmp/w64.p5m"
    pmubench stat --json -o "$tmp/w64.json" -e branches --trace "$tmp/regions64.trace" 2>/dev/null
    # shellcheck disable=SC2059
    expect 0 "pmubench compare: warning: $tmp/regions64.trace: $(printf "$w64" "the P5")" -- \
        compare "$tmp/w64.json" "$tmp/w64.json"
    if [ -f "$tmp/regions32.trace" ]; then
        expect_exact 0 "" -- stat -e branches --trace "$tmp/regions32.trace"
        expect_exact 0 "" -- stat -m netburst -e uops_retired:NBOGUS --trace "$tmp/regions32.trace"
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
    want="{\"model\": \"p5\", \"trace\": \"$trace\", \"runs\": 1, \"passes\": 1, \"counting\": \"one\", \"counts\": {\"instructions_executed\": $insns, \"data_read:u\": "
    case $(cat "$tmp/cli.out") in "$want"*) pass ;; *) fail "stat --json: $(cat "$tmp/cli.out")" ;; esac
    # The Pentium MMX preset by name: the same instructions, counted on its model.
    expect 0 "" -- stat -m pmmx -e instructions_executed -x , --trace "$trace"
    if [ "$(cat "$tmp/cli.out")" = "$insns,,instructions_executed,," ]; then
        pass; else fail "stat -m pmmx: '$(cat "$tmp/cli.out")', want $insns"; fi
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
    expect 1 "pmubench stat: $tmp/nodir/out.csv: cannot create: No such file or directory" -- \
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
    expect_usage "pmubench stat: -m: unknown NetBurst preset 'pentium-m' (willamette, willamette0, northwood, netburst, prescott, prescott4)" -- \
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
    pmubench p5mon "$tmp/agree.parms" -F output_file="$tmp/agree.p5mon" >/dev/null 2>"$tmp/agree.err"
    pmubench stat --json -o "$tmp/agree.json" -e instructions_executed,branches,data_read --trace "$trace"
    agree=$(pmubench compare -x , "$tmp/agree.json" "$tmp/agree.p5mon" | awk -F, 'NR > 1 {printf "%s=%s;", $1, $5}')
    if [ "$agree" = "instructions_executed=0.0;branches=0.0;data_read=0.0;" ]; then
        pass; else fail "stat and p5mon disagree: $agree"; fi
    # --runs (docs/stat.md, "One pass"): every run of the counters in one
    # pass of the trace (the default), or a pass per run as a real P5
    # counts them: the same counts, for every P5 event and clocks at CPL 3
    # and at CPL 0-2 (78 events, 39 runs), over the trace and in region 2;
    # the table and the JSON say which way counted.
    every=$(pmubench list p5 | sed -n 's/^p5::\([A-Za-z0-9_]*\).*/\1:u,\1:k/p' | paste -sd, -)
    for region in "" "--region 2"; do
        # shellcheck disable=SC2086
        pmubench stat -e "$every" $region -x , -o "$tmp/one.csv" --trace "$trace" 2>/dev/null
        # shellcheck disable=SC2086
        pmubench stat --runs hardware -e "$every" $region -x , -o "$tmp/hardware.csv" --trace "$trace" 2>/dev/null
        if [ "$(wc -l <"$tmp/one.csv")" -eq 78 ] && cmp -s "$tmp/one.csv" "$tmp/hardware.csv" &&
            [ "$(cut -d, -f1 "$tmp/one.csv" | grep -cv '^0$')" -gt 5 ]; then
            pass; else fail "stat --runs one and hardware $region: $(diff "$tmp/one.csv" "$tmp/hardware.csv" | head -3)"; fi
    done
    expect 0 "" -- stat -e "$every" --trace "$trace"
    if grep -q "^ Simulated p5 counts for trace '$trace' (39 runs of the counters):$" "$tmp/cli.out" &&
        grep -q "^ *1      pass of the trace for every run (--runs one)$" "$tmp/cli.out"; then
        pass; else fail "stat: the table does not say one pass: $(tail -2 "$tmp/cli.out")"; fi
    expect 0 "" -- stat --runs hardware -e "$every" --region 2 --trace "$trace"
    if grep -q "^ *39      passes of the trace, one per run (--runs hardware)$" "$tmp/cli.out"; then
        pass; else fail "stat --runs hardware: the table does not say so: $(tail -2 "$tmp/cli.out")"; fi
    expect 0 "" -- stat --runs hardware -e clocks,branches,data_read --json --trace "$trace"
    case $(cat "$tmp/cli.out") in
        "{\"model\": \"p5\", \"trace\": \"$trace\", \"runs\": 2, \"passes\": 2, \"counting\": \"hardware\", \"counts\": {"*) pass ;;
        *) fail "stat --runs hardware --json: $(cat "$tmp/cli.out")" ;;
    esac
    # The NetBurst model counts every run in one pass, with the counts of a
    # pass per run; a plan with a run that samples or tags counts a pass
    # per run, and says why (docs/stat.md, "One pass"); one run is one pass
    # either way.
    nb_two=instr_retired:NBOGUSNTAG,uops_retired:NBOGUS,branch_retired:MMTP,mispred_branch_retired:NBOGUS,instr_retired:BOGUSNTAG
    expect 0 "" -- stat -m netburst -e "$nb_two" -x, --trace "$trace"
    cp "$tmp/cli.out" "$tmp/nb_one.out"
    expect 0 "" -- stat -m netburst --runs hardware -e "$nb_two" -x, --trace "$trace"
    if cmp -s "$tmp/cli.out" "$tmp/nb_one.out" && [ -s "$tmp/nb_one.out" ]; then
        pass; else fail "stat -m netburst: one pass and a pass per run differ"; fi
    expect 0 "" -- stat -m netburst -e "$nb_two" --trace "$trace"
    if grep -q '^ *1      pass of the trace for every run (--runs one)$' "$tmp/cli.out"; then
        pass; else fail "stat -m netburst: the passes line: $(tail -2 "$tmp/cli.out")"; fi
    expect 0 "" -- stat -m netburst -e "$nb_two,memory_loads" --trace "$trace"
    if grep -q '^ *2      passes of the trace, one per run: a run samples or tags (docs/stat.md, "One pass")$' "$tmp/cli.out"; then
        pass; else fail "stat -m netburst, tagging: the passes line: $(tail -2 "$tmp/cli.out")"; fi
    expect 0 "" -- stat -m netburst -e "$nb_two" --json --trace "$trace"
    case $(cat "$tmp/cli.out") in
        *'"runs": 2, "passes": 1, "counting": "one", "counts": {'*) pass ;;
        *) fail "stat -m netburst --json: $(cat "$tmp/cli.out")" ;;
    esac
    expect 0 "" -- stat -m netburst -e uops_retired:NBOGUS --json --trace "$trace"
    case $(cat "$tmp/cli.out") in
        *'"runs": 1, "passes": 1, "counting": "one", "counts": {'*) pass ;;
        *) fail "stat -m netburst --json, one run: $(cat "$tmp/cli.out")" ;;
    esac
fi

# A repeated event (the same name after the PMU prefix, in any case) is
# counted once, under its first spelling: one run, one key (docs/stat.md,
# "Repeated events").
small=$tmp/small.trace
expect 0 "" -- stat -e data_read,p5::data_read,DATA_READ,data_read --json --trace "$small"
if [ "$(cat "$tmp/cli.out")" = "{\"model\": \"p5\", \"trace\": \"$small\", \"runs\": 1, \"passes\": 1, \"counting\": \"one\", \"counts\": {\"data_read\": 5}}" ]; then
    pass; else fail "stat with a repeated event: $(cat "$tmp/cli.out")"; fi
expect 0 "" -- stat -m netburst -e uops_retired:NBOGUS,netburst::UOPS_RETIRED:NBOGUS -x , --trace "$small"
if [ "$(cat "$tmp/cli.out")" = "10,,uops_retired:NBOGUS,," ]; then
    pass; else fail "stat -m netburst with a repeated event: $(cat "$tmp/cli.out")"; fi

# perf's generic event names (docs/events.md, "Generic events"): the
# table names both the generic name and the event it counted, -x adds the
# event as a sixth field, --json a "generic" member; the P5's branches is
# its own event.  Exact output on the shipped trace.
generic=cycles,instructions,branches,branch-misses,cache-references,cache-misses,bus-cycles
shipped=tests/traces/small_v1.trace
expect 0 "" -- stat -m p5 -e "$generic" --trace "$shipped"
cat >"$tmp/want" <<EOF

 Simulated p5 counts for trace '$shipped' (4 runs of the counters):

                  153      cycles (clocks)
                   10      instructions (instructions_executed)
                    0      branches
                    0      branch-misses (pipeline_flushes)
                    8      cache-references (data_read_or_write)
                    4      cache-misses (data_read_or_write_miss)
                  143      bus-cycles (clocks_while_bus_cycle_in_progress)

                   10      instructions simulated per run
                  153      clocks per run
                    1      pass of the trace for every run (--runs one)

EOF
if diff -u "$tmp/want" "$tmp/cli.out"; then pass; else fail "stat -m p5 of the generic events"; fi
expect 0 "" -- stat -m netburst -e "$generic" --trace "$shipped"
cat >"$tmp/want" <<EOF

 Simulated netburst counts for trace '$shipped' (1 run of the counters):

                  911      cycles (global_power_events:RUNNING)
                   10      instructions (instr_retired:NBOGUSNTAG:NBOGUSTAG)
                    0      branches (branch_retired:MMNP:MMNM:MMTP:MMTM)
                    0      branch-misses (mispred_branch_retired:NBOGUS)
                    6      cache-references (BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_HITE:RD_2ndL_HITM:RD_2ndL_MISS)
                    5      cache-misses (BSQ_cache_reference:RD_2ndL_MISS)
                    5      bus-cycles (FSB_data_activity:DRDY_DRV:DRDY_OWN:e)

                   10      instructions simulated per run
                  911      clocks per run
                    1      pass of the trace for every run (--runs one)

EOF
if diff -u "$tmp/want" "$tmp/cli.out"; then pass; else fail "stat -m netburst of the generic events"; fi
expect 0 "" -- stat -m p5 -e cycles:u,branches,data_read -x , --trace "$shipped"
if [ "$(cat "$tmp/cli.out")" = "153,,cycles:u,,,clocks:u
0,,branches,,
5,,data_read,," ]; then pass; else fail "stat -x , of generic events: $(cat "$tmp/cli.out")"; fi
expect 0 "" -- stat -m netburst -e cycles,uops_retired:NBOGUS -I 6 -x , --trace "$shipped"
if [ "$(cat "$tmp/cli.out")" = "7,473,,cycles,,,global_power_events:RUNNING
7,7,,uops_retired:NBOGUS,,
10,438,,cycles,,,global_power_events:RUNNING
10,3,,uops_retired:NBOGUS,," ]; then pass; else fail "stat -I -x , of a generic event: $(cat "$tmp/cli.out")"; fi
expect 0 "" -- stat -m p5 -e instructions,data_read --json --trace "$shipped"
if [ "$(cat "$tmp/cli.out")" = "{\"model\": \"p5\", \"trace\": \"$shipped\", \"runs\": 1, \"passes\": 1, \"counting\": \"one\", \"counts\": {\"instructions\": 10, \"data_read\": 5}, \"generic\": {\"instructions\": \"instructions_executed\"}}" ]; then
    pass; else fail "stat --json of a generic event: $(cat "$tmp/cli.out")"; fi
# perf's aliases (cpu-cycles is cycles, branch-instructions is branches)
# are the same events, named as given.
expect 0 "" -- stat -m p5 -e cpu-cycles,branch-instructions -x , --trace "$shipped"
if [ "$(cat "$tmp/cli.out")" = "153,,cpu-cycles,,,clocks
0,,branch-instructions,,,branches" ]; then pass; else fail "stat -m p5 of perf's aliases: $(cat "$tmp/cli.out")"; fi
expect 0 "" -- stat -m netburst -e CPU-Cycles:u,branch-instructions --trace "$shipped"
if grep -qx '                  911      CPU-Cycles:u (global_power_events:RUNNING:u)' "$tmp/cli.out" &&
    grep -qx '                    0      branch-instructions (branch_retired:MMNP:MMNM:MMTP:MMTM)' "$tmp/cli.out"; then
    pass; else fail "stat -m netburst of perf's aliases: $(cat "$tmp/cli.out")"; fi
# ... each counts what the event it names counts, alone or with modifiers,
# on the shipped trace and on a recorded one (its branches).
for g_trace in "$shipped" "$tmp/regions64.trace"; do
    [ -f "$g_trace" ] || continue
    for g_model in p5 netburst netburst-prescott; do
        for g_name in cycles instructions branches branch-misses cache-references cache-misses bus-cycles instructions:u \
            cpu-cycles branch-instructions:u; do
            pmubench stat -m "$g_model" -e "$g_name" -x , --trace "$g_trace" >"$tmp/g.csv" 2>/dev/null
            g_native=$(cut -d, -f6 "$tmp/g.csv")
            [ -n "$g_native" ] || g_native=$g_name # the P5's branches
            g_want=$(pmubench stat -m "$g_model" -e "$g_native" -x , --trace "$g_trace" 2>/dev/null | cut -d, -f1)
            if [ -n "$g_want" ] && [ "$(cut -d, -f1 "$tmp/g.csv")" = "$g_want" ]; then
                pass; else fail "stat -m $g_model -e $g_name on $g_trace: $(cat "$tmp/g.csv"), $g_native alone $g_want"; fi
        done
    done
done
# ... and ref-cycles, which neither PMU has: one line.
for g_pmu in p5:P5 "netburst:NetBurst PMU"; do
    expect 2 "pmubench stat: ref-cycles: the ${g_pmu#*:} has no event counting reference cycles, a clock of constant rate (docs/events.md, \"Generic events\")" -- \
        stat -m "${g_pmu%%:*}" -e cycles,ref-cycles --trace "$shipped"
done

# Instructions without a timing row (docs/stat.md, "Instructions without a
# timing row"): one warning line on stderr after the counts, naming the
# trace, the exit status unchanged.  The lackey import's records carry no
# code bytes, so none of its 10 has a row.
unclassified="10 of 10 instructions have no timing row (docs/%s); they were given the default clocks"
# shellcheck disable=SC2059
expect 0 "pmubench stat: warning: $small: $(printf "$unclassified" p5-timings.md)" -- \
    stat -e instructions_executed -x , --trace "$small"
if [ "$(cat "$tmp/cli.out")" = "10,,instructions_executed,," ]; then
    pass; else fail "stat with unclassified instructions: $(cat "$tmp/cli.out")"; fi
# shellcheck disable=SC2059
expect 0 "pmubench stat: warning: $small: $(printf "$unclassified" netburst-timings.md)" -- \
    stat -m netburst -e uops_retired:NBOGUS -x , --trace "$small"
# Once a run however many passes its plan takes (these events take two
# runs, which the NetBurst model counts in a pass each), with one run's
# count.
pmubench stat -m netburst -x , --trace "$small" \
    -e instr_retired:NBOGUSNTAG,uops_retired:NBOGUS,branch_retired:MMTP,mispred_branch_retired:NBOGUS,instr_retired:BOGUSNTAG \
    >/dev/null 2>"$tmp/passes.err"
# shellcheck disable=SC2059
if [ "$(grep 'no timing row' "$tmp/passes.err")" = "pmubench stat: warning: $small: $(printf "$unclassified" netburst-timings.md)" ]; then
    pass; else fail "stat -m netburst in two passes: the timing warning: $(cat "$tmp/passes.err")"; fi
# With Hyper-Threading, one line per trace, each with its own count (the
# Dinero import's 4 records have no code bytes either).
expect 0 "" -- trace import --dinero tests/traces/small.din -o "$tmp/small_din.trace"
pmubench stat -m netburst -e uops_retired:NBOGUS -x , --trace "$small" --trace "$tmp/small_din.trace" \
    >/dev/null 2>"$tmp/ht.err"
if [ "$(grep 'no timing row' "$tmp/ht.err")" = "pmubench stat: warning: $small: $(printf "$unclassified" netburst-timings.md)
pmubench stat: warning: $tmp/small_din.trace: 4 of 4 instructions have no timing row (docs/netburst-timings.md); they were given the default clocks" ]; then
    pass; else fail "stat with two traces: the timing warnings: $(cat "$tmp/ht.err")"; fi

# Everything stat writes, compare reads: -x , and --json of several event
# lists (the model's default set first), against each other and
# themselves, pair every event with itself once, difference 0.
# round_trip MODEL [EVENTS]
round_trip() {
    rt_model=$1
    shift
    rt_events=${1:+-e}
    pmubench stat -m "$rt_model" $rt_events "$@" -x , -o "$tmp/rt.csv" --trace "$small" 2>/dev/null &&
        pmubench stat -m "$rt_model" $rt_events "$@" --json -o "$tmp/rt.json" --trace "$small" 2>/dev/null
    if [ $? -ne 0 ]; then
        fail "stat -m $rt_model $*: cannot write -x , or --json"
        return
    fi
    rt_want=$(awk -F, '{print $3 "," $1 "," $1 ",,0"}' "$tmp/rt.csv")
    for rt_pair in "csv json" "json csv" "json json" "csv csv"; do
        rt_got=$(pmubench compare -x , "$tmp/rt.${rt_pair% *}" "$tmp/rt.${rt_pair#* }" 2>"$tmp/rt.err" |
            awk -F, 'NR > 1 {print $1 "," $2 "," $3 "," $4 "," $5}')
        if [ "$rt_got" = "$rt_want" ] && [ -n "$rt_want" ] &&
            ! grep -v ': warning: ' "$tmp/rt.err" | grep -q .; then
            pass
        else
            fail "stat -m $rt_model $* then compare $rt_pair: '$rt_got' $(cat "$tmp/rt.err"), expected '$rt_want'"
        fi
    done
}
round_trip p5
round_trip p5 data_read,data_read
round_trip p5 data_read:u,p5::data_read:k,DATA_READ,data_read
round_trip p5 p5::clocks,branches,btb_hits,p5::BRANCHES,data_write_miss
round_trip netburst
round_trip netburst uops_retired:NBOGUS,netburst::uops_retired:NBOGUS:u=1,instr_retired:NBOGUSNTAG:k=1
round_trip netburst-prescott netburst_p::instr_completed:NBOGUS,instr_completed:NBOGUS,netburst::uops_retired:NBOGUS
round_trip p5 cycles,instructions,branches,branch-misses,cache-misses
round_trip netburst cycles,instructions:u,bus-cycles,uops_retired:NBOGUS
