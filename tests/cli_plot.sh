# `pmubench plot` (docs/plot.md), sourced by run_tests.sh after
# tests/cli_tests.sh (uses expect, expect_usage, svg_renders, pass, fail,
# pmubench, $tmp).  The results are hand-written to the stat -I --json
# contract (docs/stat.md): tests/plot/*.json.

case $(pmubench plot --help) in
    "usage: pmubench plot [--ipc] [-o FILE] RESULT"*) pass ;;
    *) fail "plot --help" ;;
esac

# Counts per interval: one panel per event, each its series' colour, each
# count per 1000 instructions of its interval: the short last interval
# (500 instructions, 500 of them and 150 reads) is level with the others,
# not a drop (1000 and 300 per 1000 instructions).
expect 0 "" -- plot -o "$tmp/p5.svg" tests/plot/p5_intervals.json
svg_renders "$tmp/p5.svg" "plot of intervals" 4e79a7 f28e2b
if grep -q 'points="110.00,62.00 398.00,62.00 398.00,62.00 686.00,62.00 686.00,62.00 830.00,62.00"' \
    "$tmp/p5.svg"; then pass; else fail "plot: the instructions' steps"; fi
if grep -q 'points="110.00,254.00 398.00,254.00 398.00,277.33 686.00,277.33 686.00,254.00 830.00,254.00"' \
    "$tmp/p5.svg"; then pass; else fail "plot: the reads' steps"; fi
if [ "$(grep -c 'text-anchor="middle">count per 1000 instructions</text>' "$tmp/p5.svg")" = 2 ]; then
    pass; else fail "plot: the y axes' label"; fi
# The same on standard output, byte for byte.
expect 0 "" -- plot tests/plot/p5_intervals.json
if cmp -s "$tmp/p5.svg" "$tmp/cli.out"; then pass; else fail "plot to standard output"; fi
# --ipc on the NetBurst: instructions and uops per cycle (0.4 and 0.7 first).
expect 0 "" -- plot --ipc -o "$tmp/ipc.svg" tests/plot/nb_intervals.json
svg_renders "$tmp/ipc.svg" "plot --ipc" 4e79a7 f28e2b
if grep -q '<title>pmubench netburst, trace a&lt;b&gt;&amp;.trace: instructions per cycle every 1000 cycles</title>' "$tmp/ipc.svg" &&
    grep -q 'points="110.00,164.67 398.00,164.67 398.00,127.33' "$tmp/ipc.svg"; then
    pass; else fail "plot --ipc: $(head -5 "$tmp/ipc.svg")"; fi
# --ipc without uops: one series.
expect 0 "" -- plot --ipc -o "$tmp/ipc5.svg" tests/plot/p5_intervals.json
svg_renders "$tmp/ipc5.svg" "plot --ipc on the P5" 4e79a7
if ! grep -q 'uops per cycle' "$tmp/ipc5.svg"; then pass; else fail "plot --ipc on the P5: uops"; fi
# With Hyper-Threading the title names both traces.
printf '{"model": "netburst", "trace": "t0.trace", "trace_thread1": "t1.trace", "counts": {"a": 3}, "interval": {"unit": "cycles", "every": 9}, "intervals": [{"end": 9, "instructions": 1, "cycles": 9, "counts": {"a": 3}}]}\n' >"$tmp/ht.json"
expect 0 "" -- plot -o "$tmp/ht.svg" "$tmp/ht.json"
if grep -q '<title>pmubench netburst, traces t0.trace (thread 0) and t1.trace (thread 1): counts every 9 cycles</title>' \
    "$tmp/ht.svg"; then pass; else fail "plot with two traces: $(sed -n 4p "$tmp/ht.svg")"; fi
# Without intervals: the counts as bars.
expect 0 "" -- plot -o "$tmp/bars.svg" tests/compare/table5_6_sim.json
svg_renders "$tmp/bars.svg" "plot of totals" 4e79a7
# compare still reads a result with intervals.
expect 0 "" -- compare tests/plot/p5_intervals.json tests/plot/p5_intervals.json

# Bad input: one line, status 2, nothing written.
expect 2 "pmubench plot: --ipc needs intervals, and tests/compare/table5_6_sim.json has none (pmubench stat -I N --json)" -- \
    plot --ipc -o "$tmp/no.svg" tests/compare/table5_6_sim.json
printf '{"model": "p5", "counts": {"a": 5}, "interval": {"unit": "cycles", "every": 9}, "intervals": [{"end": 9, "instructions": 1, "cycles": 9, "counts": {"a": 4}}]}\n' >"$tmp/bad.json"
expect 2 "$tmp/bad.json: byte offset 80: the intervals' counts of 'a' sum to 4, not to its total 5" -- \
    plot -o "$tmp/no.svg" "$tmp/bad.json"
expect 2 "<stdin>: byte offset 0: expected '{'" -- plot -o "$tmp/no.svg" - </dev/null
# stat's -x CSV (or its table) is not the result plot reads: one line.
expect 0 "" -- stat -m p5 -e instructions_executed -x , -o "$tmp/counts.csv" --trace tests/traces/small_v1.trace
expect 2 "$tmp/counts.csv: byte offset 0: expected '{': a 'pmubench stat --json' result (not -x's CSV or the table: run stat with --json)" -- \
    plot -o "$tmp/no.svg" "$tmp/counts.csv"
printf '  \n  10,,instructions_executed,,\n' | expect 2 "<stdin>: byte offset 5: expected '{': a 'pmubench stat --json' result (not -x's CSV or the table: run stat with --json)" -- \
    plot -o "$tmp/no.svg" -
expect 2 "tests/plot/none.json: cannot open: No such file or directory" -- plot -o "$tmp/no.svg" tests/plot/none.json
if [ ! -e "$tmp/no.svg" ]; then pass; else fail "plot wrote a picture of a bad input"; fi
cp tests/plot/p5_intervals.json "$tmp/in.json"
expect 2 "pmubench plot: -o '$tmp/in.json' and RESULT '$tmp/in.json' are the same file" -- \
    plot -o "$tmp/in.json" "$tmp/in.json"
expect 1 "pmubench plot: $tmp/no/x.svg: cannot create: No such file or directory" -- \
    plot -o "$tmp/no/x.svg" tests/plot/p5_intervals.json
expect_usage "pmubench plot: needs a RESULT (pmubench stat --json output)" -- plot
expect_usage "pmubench plot: -o needs a value" -- plot tests/plot/p5_intervals.json -o
expect_usage "pmubench plot: unknown option '--bogus'" -- plot --bogus x.json
expect_usage "pmubench plot: one RESULT at a time ('a.json' and 'b.json')" -- plot a.json b.json

# End to end: stat -I's result as plot reads it (a real trace, 10
# instructions in intervals of 5).
expect 0 "" -- stat -m p5 -I 5 --json -o "$tmp/small.json" -e instructions_executed,data_read \
    --trace tests/traces/small_v1.trace
expect 0 "" -- plot --ipc -o "$tmp/small.svg" "$tmp/small.json"
svg_renders "$tmp/small.svg" "plot --ipc of stat -I" 4e79a7
expect 0 "" -- plot -o "$tmp/small.svg" "$tmp/small.json"
svg_renders "$tmp/small.svg" "plot of stat -I" 4e79a7 f28e2b
