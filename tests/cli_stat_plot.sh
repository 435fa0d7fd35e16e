# pmubench stat --plot (docs/plot.md, "stat --plot"), sourced by
# run_tests.sh after tests/cli_tests.sh (uses expect, expect_usage,
# svg_renders, pmubench, $tmp and its small.trace).  The picture is the one
# `pmubench plot` draws of the --json output of the same run, byte for
# byte: one drawing path (apps/compare/stat_plot.h).

# same_picture WHAT PLOT-OPTIONS -- STAT-ARGS...: stat --plot's SVG against
# stat --json | plot -, then rendered.
same_picture() {
    sp_what=$1 sp_plot=$2
    shift 3
    rm -f "$tmp/sp.svg"
    # shellcheck disable=SC2086 # no option or one
    expect 0 "" -- stat --plot "$tmp/sp.svg" $(printf '%s' "$sp_plot" | sed 's/--ipc/--plot-ipc/') "$@"
    pmubench stat --json "$@" 2>/dev/null | pmubench plot $sp_plot - >"$tmp/sp-plot.svg"
    if [ -s "$tmp/sp.svg" ] && cmp -s "$tmp/sp.svg" "$tmp/sp-plot.svg"; then
        pass; else fail "$sp_what: stat --plot differs from stat --json | plot -"; fi
    svg_renders "$tmp/sp.svg" "$sp_what" 4e79a7
}

small=tests/traces/small_v1.trace
same_picture "stat -I 5 --plot" "" -- -I 5 -e instructions_executed,data_read --trace "$small"
same_picture "stat -I 3c --plot" "" -- -I 3c --trace "$tmp/small.trace"
same_picture "stat -I 2 --plot --runs hardware" "" -- -I 2 --runs hardware --trace "$small"
same_picture "stat -I 40c --plot --region 1" "" -- -I 40c --region 1 --trace "$small"
same_picture "stat -I 5 --plot-ipc" --ipc -- -I 5 --trace "$small"
# The NetBurst: uops per cycle too; -I 5 ends where the 10-instruction
# trace ends, and the cycle after the last retirement is the last
# interval's (the ends increase, as plot requires).
same_picture "stat -m netburst -I 5 --plot" "" -- -m netburst -I 5 --trace "$small"
same_picture "stat -m netburst -I 100c --plot-ipc" --ipc -- -m netburst -I 100c --trace "$small"
grep -q 'uops per cycle' "$tmp/sp.svg" && pass || fail "stat --plot-ipc on the NetBurst: no uops per cycle"
# Without -I: the counts as bars.
same_picture "stat --plot" "" -- -e instructions_executed,data_read,clocks --trace "$small"
if grep -q '<title>pmubench p5, trace tests/traces/small_v1.trace: counts</title>' "$tmp/sp.svg"; then
    pass; else fail "stat --plot without -I: $(head -4 "$tmp/sp.svg")"; fi
# With -o: both files, the counts as without --plot.
expect 0 "" -- stat -I 5 -o "$tmp/sp.txt" --plot "$tmp/sp.svg" --trace "$small"
pmubench stat -I 5 --trace "$small" >"$tmp/sp-want.txt" 2>/dev/null
if cmp -s "$tmp/sp.txt" "$tmp/sp-want.txt" && [ -s "$tmp/sp.svg" ]; then
    pass; else fail "stat -o --plot: the counts differ, or no picture"; fi

# Bad uses: one line, status 2, nothing written.
rm -f "$tmp/sp-no.svg"
expect_usage "pmubench stat: --plot needs a value" -- stat --trace "$small" --plot
expect_usage "pmubench stat: --plot given twice (each option once)" -- \
    stat --plot "$tmp/sp-no.svg" --plot "$tmp/sp-no.svg" --trace "$small"
expect_usage "pmubench stat: --plot needs the simulated model (a trace's run)" -- \
    stat --backend msr --plot "$tmp/sp-no.svg" -e branches -- /bin/true
expect_usage "pmubench stat: --plot-ipc needs --plot FILE and -I N (instructions per cycle in each interval)" -- \
    stat --plot-ipc -I 5 --trace "$small"
expect_usage "pmubench stat: --plot-ipc needs --plot FILE and -I N (instructions per cycle in each interval)" -- \
    stat --plot "$tmp/sp-no.svg" --plot-ipc --trace "$small"
expect 2 "pmubench stat: -o '$tmp/sp-no.svg' and --plot '$tmp/sp-no.svg' are the same file" -- \
    stat -o "$tmp/sp-no.svg" --plot "$tmp/sp-no.svg" --trace "$small"
cp "$small" "$tmp/sp.trace"
expect 2 "pmubench stat: --plot '$tmp/sp.trace' and --trace '$tmp/sp.trace' are the same file" -- \
    stat --plot "$tmp/sp.trace" --trace "$tmp/sp.trace"
if cmp -s "$small" "$tmp/sp.trace" && [ ! -e "$tmp/sp-no.svg" ]; then
    pass; else fail "stat --plot wrote over a trace or after a bad use"; fi
expect 1 "pmubench stat: $tmp/no/x.svg: cannot create: No such file or directory" -- \
    stat --plot "$tmp/no/x.svg" --trace "$small"
