# pmubench sweep (docs/sweep.md), sourced by run_tests.sh after
# tests/cli_tests.sh (its helpers).  2 traces x 3 NetBurst presets x 2
# values of l1d_latency through GNU parallel, merged; each row's counts are
# those `pmubench stat` gives alone.
sw=$tmp/sweep
mkdir -p "$sw"
cp tests/traces/small_v1.trace "$sw/a.trace"
pmubench trace import --dinero tests/traces/small.din -o "$sw/b.trace"
cat >"$sw/s.sweep" <<'EOF'
# 2 traces x 3 presets x 2 L1 latencies: 12 jobs
trace a.trace b.trace
model netburst-northwood netburst-prescott netburst-willamette
param l1d_latency=2,9
EOF
expect 0 "pmubench sweep: 12 jobs, 0 with a result in $sw/s.sweep.results, 12 to run" -- \
    sweep --csv "$sw/out.csv" --json "$sw/out.json" "$sw/s.sweep"
if [ "$(wc -l <"$sw/out.csv")" -eq 13 ] && [ "$(grep -c ',ok,' "$sw/out.csv")" -eq 12 ] &&
    [ "$(head -1 "$sw/out.csv")" = "job,id,trace,model,l1d_latency,status,global_power_events:RUNNING,instr_retired:NBOGUSNTAG:NBOGUSTAG,BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_HITE:RD_2ndL_HITM:RD_2ndL_MISS,BSQ_cache_reference:RD_2ndL_MISS,retired_branch_type:CONDITIONAL:CALL:RETURN:INDIRECT,mispred_branch_retired:NBOGUS,error" ]; then
    pass; else fail "sweep: merged CSV $(cat "$sw/out.csv")"; fi
# Job 1 (a.trace, Northwood, l1d_latency 9) exactly, and its id.
if [ "$(sed -n 3p "$sw/out.csv")" = "1,c45dece36a85a87e,a.trace,netburst-northwood,9,ok,918,10,6,5,0,0," ]; then
    pass; else fail "sweep: row of job 1 '$(sed -n 3p "$sw/out.csv")'"; fi
# Rows 0, 5, 8 and 11 against stat run alone.
for sw_job in 0 5 8 11; do
    sw_row=$(sed -n "$((sw_job + 2))p" "$sw/out.csv")
    sw_trace=$(echo "$sw_row" | cut -d, -f3)
    sw_model=$(echo "$sw_row" | cut -d, -f4)
    sw_latency=$(echo "$sw_row" | cut -d, -f5)
    sw_alone=$(pmubench stat -m "$sw_model" -F "l1d_latency=$sw_latency" -x , --trace "$sw/$sw_trace" 2>/dev/null |
        cut -d, -f1 | paste -sd, -)
    if [ -n "$sw_alone" ] && [ "$(echo "$sw_row" | cut -d, -f7-12)" = "$sw_alone" ]; then
        pass; else fail "sweep: job $sw_job '$sw_row', stat alone '$sw_alone'"; fi
done
if grep -q '^  {"job": 1, "id": "c45dece36a85a87e", "trace": "a.trace", "model": "netburst-northwood", "params": {"l1d_latency": "9"}, "status": "ok", "counts": {"global_power_events:RUNNING": 918, ' "$sw/out.json" &&
    [ "$(grep -c '"status": "ok"' "$sw/out.json")" -eq 12 ]; then
    pass; else fail "sweep: merged JSON $(cat "$sw/out.json")"; fi

# Resuming: a rerun runs nothing and rewrites no result; without one
# result it runs that job alone.  The results and the reference file "ran"
# get a modification time in the past: a file a rerun writes is newer.
touch -d '2000-01-01' "$sw/ran" "$sw/s.sweep.results" "$sw/s.sweep.results"/*
expect 0 "pmubench sweep: 12 jobs, 12 with a result in $sw/s.sweep.results, 0 to run" -- \
    sweep --csv "$sw/again.csv" "$sw/s.sweep"
if cmp -s "$sw/out.csv" "$sw/again.csv" && [ -z "$(find "$sw/s.sweep.results" -newer "$sw/ran")" ]; then
    pass; else fail "sweep: a rerun changed results"; fi
rm "$sw/s.sweep.results/c45dece36a85a87e.json"
echo '{"model": "netburst-northwood", "counts": {' >"$sw/s.sweep.results/c43f56e36a6bac0d.json"
touch -d '2000-01-01' "$sw/s.sweep.results/c43f56e36a6bac0d.json"
expect 0 "pmubench sweep: 12 jobs, 10 with a result in $sw/s.sweep.results, 2 to run" -- \
    sweep --csv "$sw/again.csv" "$sw/s.sweep"
if cmp -s "$sw/out.csv" "$sw/again.csv" && [ "$(find "$sw/s.sweep.results" -name '*.json' -newer "$sw/ran" | wc -l)" -eq 2 ]; then
    pass; else fail "sweep: the rerun of 2 jobs"; fi
# ... --sshloginfile passed to GNU parallel (':' is this machine): the same table.
printf ':\n' >"$sw/logins"
expect 0 "pmubench sweep: 12 jobs, 0 with a result in $sw/ssh, 12 to run" -- \
    sweep --sshloginfile "$sw/logins" -j 2 --dir "$sw/ssh" --csv "$sw/ssh.csv" "$sw/s.sweep"
if cmp -s "$sw/out.csv" "$sw/ssh.csv"; then pass; else fail "sweep --sshloginfile: $(cat "$sw/ssh.csv")"; fi
# ... CSV on standard output without --csv or --json.
pmubench sweep "$sw/s.sweep" >"$sw/stdout.csv" 2>/dev/null
if cmp -s "$sw/out.csv" "$sw/stdout.csv"; then pass; else fail "sweep: CSV on standard output"; fi

# A job that fails: its line with its parameters and stat's message, status
# 1, the other rows merged.
printf 'trace a.trace missing.trace\nmodel p5\nparam dcache_size=8192\n' >"$sw/fails.sweep"
expect 1 "pmubench sweep: 2 jobs, 0 with a result in $sw/fails.sweep.results, 2 to run
pmubench sweep: job 1 (trace=missing.trace model=p5 dcache_size=8192) failed: pmubench stat: $sw/missing.trace: cannot open: No such file or directory" -- \
    sweep --csv "$sw/fails.csv" "$sw/fails.sweep"
if [ "$(cut -d, -f3,6 "$sw/fails.csv" | paste -sd' ' -)" = "trace,status a.trace,ok missing.trace,failed" ] &&
    tail -1 "$sw/fails.csv" | grep -q ',failed,,,,,,,pmubench stat: .*/missing.trace: cannot open: No such file or directory$'; then
    pass; else fail "sweep: CSV of a failed job: $(cat "$sw/fails.csv")"; fi
# ... --merge runs nothing: a job without a result or an error file did not
# run; the header counts the results there are and those missing.
printf 'trace a.trace\nmodel p5 pmmx\n' >"$sw/merge.sweep"
mkdir "$sw/merge.sweep.results"
expect 1 "pmubench sweep: 2 jobs, 0 with a result in $sw/merge.sweep.results, 2 without (--merge runs none)
pmubench sweep: job 0 (trace=a.trace model=p5) did not run (no result, no error file)
pmubench sweep: job 1 (trace=a.trace model=pmmx) did not run (no result, no error file)" -- \
    sweep --merge --csv "$sw/merge.csv" "$sw/merge.sweep"
# ... and makes no results directory: without one it is refused.
expect 2 "$sw/nodir: no such directory (expected the jobs' results: --merge runs no job and makes no directory)" -- \
    sweep --merge --dir "$sw/nodir" "$sw/merge.sweep"
if [ ! -e "$sw/nodir" ]; then pass; else fail "sweep --merge made its results directory"; fi

# A job's file that is not a regular file (a FIFO would block the merge's
# read, and the job's write): one line naming it, status 2, before
# anything is read, run or merged.
mkfifo "$sw/merge.sweep.results/99f766589410ccd2.json" "$sw/merge.sweep.results/4d6c2d77cc444789.err"
sw_wrapper=$wrapper
wrapper="timeout 120 $wrapper"
expect 2 "$sw/merge.sweep.results/99f766589410ccd2.json: a FIFO, not a regular file (expected job 0's result or nothing)" -- \
    sweep --merge --csv "$sw/merge.csv" "$sw/merge.sweep"
rm "$sw/merge.sweep.results/99f766589410ccd2.json"
expect 2 "$sw/merge.sweep.results/4d6c2d77cc444789.err: a FIFO, not a regular file (expected job 1's standard error or nothing)" -- \
    sweep --dry-run "$sw/merge.sweep"
wrapper=$sw_wrapper
rm "$sw/merge.sweep.results/4d6c2d77cc444789.err"

# An output over one of the sweep's own files: the spec, a trace it names,
# the host list, a job's result or error file in the results directory
# (there or not yet), or another output.  One line, status 2, nothing run
# or written: the spec, the trace and the results stay as they were.
cp "$sw/s.sweep" "$sw/s.kept"
cp "$sw/a.trace" "$sw/a.kept"
cp "$sw/s.sweep.results/5be6003108889d36.json" "$sw/result.kept"
expect 2 "pmubench sweep: --csv '$sw/s.sweep' and SPEC '$sw/s.sweep' are the same file" -- \
    sweep --csv "$sw/s.sweep" "$sw/s.sweep"
expect 2 "pmubench sweep: --csv '$sw/s.sweep' and SPEC '$sw/s.sweep' are the same file" -- \
    sweep --merge --csv "$sw/s.sweep" "$sw/s.sweep"
expect 2 "pmubench sweep: --slurm '$sw/s.sweep' and SPEC '$sw/s.sweep' are the same file" -- \
    sweep --slurm "$sw/s.sweep" "$sw/s.sweep"
expect 2 "pmubench sweep: --json '$sw/a.trace' and trace '$sw/a.trace' are the same file" -- \
    sweep --json "$sw/a.trace" "$sw/s.sweep"
mkdir -p "$sw/out-dir"
expect 2 "pmubench sweep: $sw/out-dir: is a directory" -- sweep --csv "$sw/out-dir" "$sw/s.sweep"
expect 2 "pmubench sweep: --csv '$sw/s.sweep.results/5be6003108889d36.json' and job 3's result '$sw/s.sweep.results/5be6003108889d36.json' are the same file" -- \
    sweep --csv "$sw/s.sweep.results/5be6003108889d36.json" "$sw/s.sweep"
expect 2 "pmubench sweep: --csv '$sw/o.x' and --json '$sw/o.x' are the same file" -- \
    sweep --json "$sw/o.x" --csv "$sw/o.x" "$sw/s.sweep"
expect 2 "pmubench sweep: --csv '$sw/logins' and --sshloginfile '$sw/logins' are the same file" -- \
    sweep --sshloginfile "$sw/logins" --csv "$sw/logins" "$sw/s.sweep"
expect 2 "pmubench sweep: --csv '$sw/merge.sweep.results/4d6c2d77cc444789.err' and job 1's error file '$sw/merge.sweep.results/4d6c2d77cc444789.err' are the same file" -- \
    sweep --merge --csv "$sw/merge.sweep.results/4d6c2d77cc444789.err" "$sw/merge.sweep"
# ... a link to the spec is the spec; a new results directory a refused
# run would have made is not left behind.
ln -s s.sweep "$sw/spec.link"
expect 2 "pmubench sweep: --csv '$sw/spec.link' and SPEC '$sw/s.sweep' are the same file" -- \
    sweep --dir "$sw/refused" --csv "$sw/spec.link" "$sw/s.sweep"
if cmp -s "$sw/s.sweep" "$sw/s.kept" && cmp -s "$sw/a.trace" "$sw/a.kept" &&
    cmp -s "$sw/s.sweep.results/5be6003108889d36.json" "$sw/result.kept" &&
    [ ! -e "$sw/o.x" ] && [ ! -e "$sw/refused" ] && [ "$(cat "$sw/logins")" = ":" ]; then
    pass; else fail "sweep: a refused output changed a file"; fi
# ... another file in the results directory is an output like any other.
expect 0 "pmubench sweep: 12 jobs, 12 with a result in $sw/s.sweep.results, 0 without (--merge runs none)" -- \
    sweep --merge --csv "$sw/s.sweep.results/table.csv" "$sw/s.sweep"
if cmp -s "$sw/out.csv" "$sw/s.sweep.results/table.csv"; then pass; else fail "sweep: a table in the results directory"; fi
rm "$sw/s.sweep.results/table.csv"

# Bad specs: one line naming the file and line, status 2, nothing run.
sw_bad() {
    printf "$1" >"$sw/bad.sweep"
    expect 2 "$sw/bad.sweep:$2" -- sweep "$sw/bad.sweep"
}
sw_bad 'trace a.trace\nmodels p5\n' "2: unknown keyword 'models' (expected trace, model, param or events)"
sw_bad 'trace a.trace\nmodel p5 netburst-pentium-m\n' "2: model: unknown NetBurst preset 'pentium-m' (willamette, willamette0, northwood, netburst, prescott, prescott4)"
sw_bad 'trace a.trace\nmodel p5\nparam l1d_latency=2\n' "3: param 'l1d_latency' on model p5: unknown P5 model parameter 'l1d_latency' (did you mean 'l2_latency'?)"
sw_bad '# x\ntrace a.trace\nmodel netburst\nparam l1d_latency=\n' "4: param 'l1d_latency': an empty value (expected NAME=VALUE[,VALUE...])"
# ... events stat would refuse, refused on the events line, for every model
# and every CPUID model a param sets.
sw_bad 'trace a.trace\nmodel p5\nevents clocks,bogus\n' "3: events on model p5: p5::bogus: unknown P5 event 'bogus' ('pmubench list p5' shows the events; p5::clocks counts clocks)"
sw_bad 'trace a.trace\nmodel netburst p5\nevents clocks:q\n' "3: events on model netburst: netburst::clocks:q: unknown NetBurst event 'clocks' ('pmubench list netburst' shows the events and tagging metrics)"
sw_bad 'trace a.trace\nmodel p5\nevents clocks:q\n' "3: events on model p5: p5::clocks:q: unknown P5 modifier 'q' (valid: u, k)"
sw_bad 'trace a.trace\nmodel netburst-northwood\nevents instr_retired:NBOGUSNTAG:t1\nparam l1d_latency=2\n' "3: events on model netburst-northwood: netburst::instr_retired:NBOGUSNTAG:t1: ':t1' needs Hyper-Threading (this model runs with ht=off)"
sw_bad 'trace a.trace\nmodel netburst-northwood\nparam model=3,2\nevents netburst_p::instr_completed:NBOGUS\n' "4: events on model netburst-northwood with model=2: netburst_p::instr_completed:NBOGUS: netburst_p:: names models 3, 4, 6; it conflicts with model 2"
if [ ! -e "$sw/bad.sweep.results" ]; then pass; else fail "sweep: a bad spec made its results directory"; fi
expect 2 "$sw/none.sweep: cannot open: No such file or directory" -- sweep "$sw/none.sweep"
expect_usage "pmubench sweep: no SPEC (expected a sweep spec file)" -- sweep --dry-run
expect_usage "pmubench sweep: --dry-run, --slurm or --merge: one of them" -- sweep --dry-run --merge "$sw/s.sweep"
expect_usage "pmubench sweep: bad -j '0' (expected a number: decimal or 0x hex, 1 to 4096)" -- sweep -j 0 "$sw/s.sweep"

# --dry-run: the 12 command lines, nothing run or made.
expect 0 "pmubench sweep: 12 jobs, 0 with a result in $sw/dry, 12 to run" -- sweep --dry-run --dir "$sw/dry" "$sw/s.sweep"
if [ "$(wc -l <"$tmp/cli.out")" -eq 12 ] && [ ! -e "$sw/dry" ] &&
    grep -q "^'/.*/pmubench' stat -m 'netburst-prescott' -F 'l1d_latency=9' --json -o '$sw/dry/5be6003108889d36.json' --trace '$sw/a.trace' 2>'$sw/dry/5be6003108889d36.err'\$" "$tmp/cli.out"; then
    pass; else fail "sweep --dry-run: $(cat "$tmp/cli.out")"; fi

# A parallel that is not GNU parallel (moreutils' has no --version) is
# named as such before any job runs.
mkdir -p "$sw/fakebin"
printf '#!/bin/sh\necho "parallel: invalid option" >&2\nexit 1\n' >"$sw/fakebin/parallel"
chmod +x "$sw/fakebin/parallel"
PATH="$sw/fakebin:$PATH" $wrapper "$build/pmubench" sweep --dir "$sw/fake" "$sw/s.sweep" >/dev/null 2>"$sw/fake.err"
if [ $? -eq 1 ] && [ "$(tail -1 "$sw/fake.err")" = "pmubench sweep: 'parallel' on PATH is not GNU parallel (moreutils' parallel, which Debian also ships?): install Debian's package parallel" ] &&
    [ -z "$(ls "$sw/fake")" ]; then
    pass; else fail "sweep with a fake parallel: $(cat "$sw/fake.err")"; fi

# --slurm: the array script of the 12 jobs, the results directory made
# when it is written, and by the script (mkdir -p) when a task runs; its
# task 3 runs job 3 alone, whose result is the one GNU parallel's run wrote.
expect 0 "pmubench sweep: 12 jobs, 0 with a result in $sw/slurm, 12 to run
pmubench sweep: $sw/run.sh: 12 jobs, one array task each: submit it with sbatch, then merge with 'pmubench sweep --merge $sw/s.sweep'" -- \
    sweep --slurm "$sw/run.sh" --dir "$sw/slurm" "$sw/s.sweep"
if [ "$(head -1 "$sw/run.sh")" = "#!/bin/bash" ] && grep -qx '#SBATCH --array=0-11' "$sw/run.sh" &&
    [ "$(grep -c '^    exec ' "$sw/run.sh")" -eq 12 ] && [ -d "$sw/slurm" ] &&
    grep -qx "mkdir -p '$sw/slurm' || exit 1" "$sw/run.sh"; then
    pass; else fail "sweep --slurm: $(cat "$sw/run.sh")"; fi
rmdir "$sw/slurm"
SLURM_ARRAY_TASK_ID=3 bash "$sw/run.sh"
if [ "$(ls "$sw/slurm" | paste -sd' ' -)" = "5be6003108889d36.err 5be6003108889d36.json" ] &&
    cmp -s "$sw/slurm/5be6003108889d36.json" "$sw/s.sweep.results/5be6003108889d36.json"; then
    pass; else fail "sweep --slurm: task 3 made $(ls "$sw/slurm")"; fi
# ... a later script lists the 11 jobs still to run.
expect 0 "pmubench sweep: 12 jobs, 1 with a result in $sw/slurm, 11 to run
pmubench sweep: $sw/run.sh: 11 jobs, one array task each: submit it with sbatch, then merge with 'pmubench sweep --merge $sw/s.sweep'" -- \
    sweep --slurm "$sw/run.sh" --dir "$sw/slurm" "$sw/s.sweep"
if grep -qx '#SBATCH --array=0-2,4-11' "$sw/run.sh"; then pass; else fail "sweep --slurm, resumed: $(grep SBATCH "$sw/run.sh")"; fi

# perf's generic event names in an events line, resolved as stat resolves
# them (docs/events.md, "Generic events"): the columns take the generic
# names, the counts are those of the events they name; ref-cycles, which
# neither PMU has, is the spec's error on the events line.
cat >"$sw/generic.sweep" <<'EOF2'
trace a.trace
model p5 netburst
events cycles,branches,cache-misses
EOF2
expect 0 "pmubench sweep: 2 jobs, 0 with a result in $sw/generic.sweep.results, 2 to run" -- \
    sweep --csv "$sw/generic.csv" "$sw/generic.sweep"
if [ "$(cut -d, -f1,3- "$sw/generic.csv")" = "job,trace,model,status,cycles,branches,cache-misses,error
0,a.trace,p5,ok,153,0,4,
1,a.trace,netburst,ok,911,0,5," ]; then pass; else fail "sweep of generic events: $(cat "$sw/generic.csv")"; fi
printf 'trace a.trace\nmodel p5\nevents cycles,ref-cycles\n' >"$sw/ref.sweep"
expect 2 "$sw/ref.sweep:3: events on model p5: ref-cycles: the P5 has no event counting reference cycles, a clock of constant rate (docs/events.md, \"Generic events\")" -- \
    sweep "$sw/ref.sweep"
