# `pmubench compare` (docs/compare.md), sourced by run_tests.sh after
# tests/cli_tests.sh (uses expect, pass, fail, pmubench, $tmp, $build).
# The expected outputs are in tests/compare/.

cmp_usage=$(pmubench compare --help)
case $cmp_usage in
    "usage: pmubench compare [--json | -x SEP] [--region N] SIMULATED MEASURED"*) pass ;;
    *) fail "compare --help: '$cmp_usage'" ;;
esac

# compare_out WANT ARGS...: pmubench compare ARGS exits 0, prints nothing
# on stderr and exactly the file WANT on stdout.
compare_out() {
    want=$1
    shift
    expect 0 "" -- compare "$@"
    if diff -u "$want" "$tmp/cli.out"; then pass; else fail "compare $*: output differs from $want"; fi
}

# Safford 1997, Table 5.6 (wc): the simulator's counts against run_p5mon's means.
compare_out tests/compare/table5_6.out tests/compare/table5_6_sim.json tests/compare/table5_6_pmc.p5mon
# --plot draws the same table (docs/compare.md, "The picture"): the table
# printed as without --plot, the SVG rendered with both series' bars; it is the
# picture README shows, docs/img/compare-wc.svg, byte for byte (no date).
compare_out tests/compare/table5_6.out --plot "$tmp/wc.svg" \
    tests/compare/table5_6_sim.json tests/compare/table5_6_pmc.p5mon
svg_renders "$tmp/wc.svg" "compare --plot" 4e79a7 f28e2b
if cmp -s docs/img/compare-wc.svg "$tmp/wc.svg"; then pass; else
    fail "compare --plot: docs/img/compare-wc.svg is not what compare draws (remake it, docs/compare.md)"; fi
# Each row's difference in percent (the table's "Difference %") at the
# right of its bars, under its heading.
if grep -q '<text x="872" y="44" text-anchor="end">difference %</text>' "$tmp/wc.svg" &&
    [ "$(sed -n 's/^<text x="872" y="[0-9]*" text-anchor="end">\([0-9.]*%\)<\/text>$/\1/p' "$tmp/wc.svg" | tr '\n' ' ')" = \
        "1.69% 92.01% 1.54% 64.29% 100.00% 0.82% " ]; then pass; else
    fail "compare --plot: the differences in percent: $(grep '872' "$tmp/wc.svg")"; fi
# Counts not taken, events in one set only: no bar, the reason in its place.
expect 0 "" -- compare --json --plot "$tmp/small.svg" tests/compare/small_sim.json tests/compare/small_perf.csv
svg_renders "$tmp/small.svg" "compare --plot of small" 4e79a7 f28e2b
if grep -q '>not supported</text>' "$tmp/small.svg" && grep -q '>-</text>' "$tmp/small.svg" &&
    diff -u tests/compare/small.out.json "$tmp/cli.out" >/dev/null; then pass; else
    fail "compare --json --plot: $(cat "$tmp/cli.out")"; fi
# Never over an input; nothing written when an input is bad; exit 1 when
# it cannot be written.
cp tests/compare/small_sim.json "$tmp/in.json"
expect 2 "pmubench compare: --plot '$tmp/in.json' and simulated '$tmp/in.json' are the same file" -- \
    compare --plot "$tmp/in.json" "$tmp/in.json" tests/compare/small_perf.csv
expect 2 "pmubench compare: --plot '$tmp/in.json' and measured '$tmp/in.json' are the same file" -- \
    compare --plot "$tmp/in.json" tests/compare/small_sim.json "csv:$tmp/in.json"
if cmp -s tests/compare/small_sim.json "$tmp/in.json"; then pass; else fail "compare --plot over its input"; fi
rm -f "$tmp/none.svg"
expect 2 "tests/compare/none.json: cannot open: No such file or directory" -- \
    compare --plot "$tmp/none.svg" tests/compare/none.json tests/compare/small_perf.csv
if [ ! -e "$tmp/none.svg" ]; then pass; else fail "compare --plot wrote a picture of a bad input"; fi
expect 1 "pmubench compare: $tmp/no/x.svg: cannot create: No such file or directory" -- \
    compare --plot "$tmp/no/x.svg" tests/compare/small_sim.json tests/compare/small_perf.csv
expect_usage "pmubench compare: --plot needs a value" -- \
    compare tests/compare/small_sim.json tests/compare/small_perf.csv --plot

# The same with the format named and the result on standard input.
expect 0 "" -- compare json:- p5mon:tests/compare/table5_6_pmc.p5mon <tests/compare/table5_6_sim.json
sed -e '1s|(json:-)$|(tests/compare/table5_6_sim.json)|' \
    -e '2s|(p5mon:tests/|(tests/|' "$tmp/cli.out" >"$tmp/stdin.out"
if diff -u tests/compare/table5_6.out "$tmp/stdin.out"; then pass; else fail "compare json:- p5mon:FILE"; fi

# A P5 result against perf stat -x, CSV: the mapping, its notes, a count
# perf could not take, measured 0, events in one set only; table, -x, and
# --json.
compare_out tests/compare/small.out tests/compare/small_sim.json tests/compare/small_perf.csv
compare_out tests/compare/small.out.csv -x, tests/compare/small_sim.json tests/compare/small_perf.csv
compare_out tests/compare/small.out.csv -x , tests/compare/small_sim.json tests/compare/small_perf.csv
compare_out tests/compare/small.out.json --json tests/compare/small_sim.json tests/compare/small_perf.csv
pmubench compare -x';' tests/compare/small_sim.json csv:tests/compare/small_perf.csv >"$tmp/semi.out"
if [ "$(sed -n 4p "$tmp/semi.out")" = "data_read / L1-dcache-loads:u;300;450;;150;33.33;no;L1-dcache-loads counts dispatched load operations, about 1.5x retired loads: not like for like" ]; then
    pass; else fail "compare -x';': $(sed -n 4p "$tmp/semi.out")"; fi

# run_p5mon regions (Safford 1997, Figure 4.9): one at a time.
expect 2 "tests/compare/fig4_9.p5mon: has 2 regions (0, 1): choose one with --region N" -- \
    compare tests/compare/table5_6_sim.json tests/compare/fig4_9.p5mon
expect 2 "tests/compare/fig4_9.p5mon: no region 2 (regions: 0, 1)" -- \
    compare --region 2 tests/compare/table5_6_sim.json tests/compare/fig4_9.p5mon
pmubench compare -x, --region 1 tests/compare/fig4_9.p5mon tests/compare/fig4_7.p5mon >"$tmp/r1.out"
if [ "$(cat "$tmp/r1.out")" = "event,simulated,measured,measured_interval,difference,difference_percent,like_for_like,notes
data_read_miss,0.0,11006.4,63.2,11006.4,100.00,yes,
data_write_miss,2.0,8848.6,22.3,8846.6,99.98,yes," ]; then pass; else fail "compare --region 1: $(cat "$tmp/r1.out")"; fi
# Measured 0 and simulated not: no percentage.
pmubench compare -x, tests/compare/fig4_8.p5mon --region 1 tests/compare/fig4_9.p5mon >"$tmp/r0.out"
if [ "$(sed -n 2p "$tmp/r0.out")" = "data_read_miss,11800.4,0.0,0.0,-11800.4,-,yes," ]; then pass; else
    fail "compare with measured 0: $(sed -n 2p "$tmp/r0.out")"; fi

# Bad input files: one line naming the file and where, status 2.
printf '{"model": "p5", "counts": {"data_read": 1.5}}\n' >"$tmp/bad.json"
expect 2 "$tmp/bad.json: byte offset 41: expected a count (a non-negative integer), not a fraction" -- \
    compare "$tmp/bad.json" tests/compare/small_perf.csv
printf '# run_p5mon results file\n0x3 -1 1.0\n' >"$tmp/bad.p5mon"
expect 2 "$tmp/bad.p5mon: line 2: expected EVENT REPETITION VALUE [CONF.INT PERCENTAGE] (run_p5mon output)" -- \
    compare tests/compare/small_sim.json "$tmp/bad.p5mon"
# Counts are integers, exact to 2^64 - 1 (a double made 9007199254740993
# ...992), and every reader rejects a larger one the same way.
printf '9007199254740993,,cycles\n18446744073709551615,,branches\n' >"$tmp/exact1.csv"
printf '9007199254740995,,cycles\n0,,branches\n' >"$tmp/exact2.csv"
pmubench compare -x, "$tmp/exact1.csv" "$tmp/exact2.csv" >"$tmp/exact.out"
if [ "$(sed -n 2,3p "$tmp/exact.out")" = "cycles,9007199254740993,9007199254740995,,2,0.00,yes,
branches,18446744073709551615,0,,-18446744073709551615,-,yes," ]; then pass; else
    fail "compare: exact counts: $(cat "$tmp/exact.out")"; fi
printf '18446744073709551616,,cycles\n' >"$tmp/huge.csv"
expect 2 "$tmp/huge.csv: line 1: count above 18446744073709551615" -- \
    compare "$tmp/exact1.csv" "$tmp/huge.csv"
printf '{"model": "p5", "counts": {"cycles": 18446744073709551616}}\n' >"$tmp/huge.json"
expect 2 "$tmp/huge.json: byte offset 37: count above 18446744073709551615" -- \
    compare "$tmp/huge.json" "$tmp/exact1.csv"
printf '1,,instructions\n2,,instructions\n' >"$tmp/bad.csv"
expect 2 "$tmp/bad.csv: line 2: event 'instructions' again (once per event)" -- \
    compare tests/compare/small_sim.json "$tmp/bad.csv"
expect 2 "tests/compare/table5_6_pmc.p5mon: byte offset 0: expected '{'" -- \
    compare json:tests/compare/table5_6_pmc.p5mon tests/compare/small_perf.csv
expect 2 "$tmp/none.json: cannot open: No such file or directory" -- \
    compare "$tmp/none.json" tests/compare/small_perf.csv

# Bad arguments.
expect_usage "pmubench compare: needs SIMULATED and MEASURED" -- compare tests/compare/small_sim.json
expect_usage "pmubench compare: unknown option '--bogus'" -- compare --bogus a b
expect_usage "pmubench compare: one SIMULATED and one MEASURED count set (a third: 'c')" -- compare a b c
expect_usage "pmubench compare: -x needs a value" -- compare a b -x
expect_usage "pmubench compare: bad -x '' (expected a separator: one or more characters)" -- compare a b -x ''
# Regions are numbers as everywhere (0 to 4294967295, as stat and sample
# take them): 100 is a region the file does not have, not a bad argument.
expect 2 "tests/compare/fig4_9.p5mon: no region 100 (regions: 0, 1)" -- \
    compare --region 100 tests/compare/fig4_9.p5mon tests/compare/fig4_9.p5mon
expect_usage "pmubench compare: bad --region '010' (expected a number: decimal or 0x hex, 0 to 4294967295)" -- \
    compare --region 010 a b
expect_usage "pmubench compare: bad --region '4294967296' (expected a number: decimal or 0x hex, 0 to 4294967295)" -- \
    compare --region 4294967296 a b
expect_usage "pmubench compare: no program after --" -- compare measure: b --
expect_usage "pmubench compare: measure: and lackey: need a program after --" -- \
    compare tests/compare/small_sim.json measure:
expect_usage "pmubench compare: a program after -- is for measure: or lackey: ('true')" -- \
    compare tests/compare/small_sim.json tests/compare/small_perf.csv -- true
expect_usage "pmubench compare: standard input can be one of the sets, not both" -- compare - -
expect 2 "pmubench compare: cannot run '$tmp/no-such-program': No such file or directory" -- \
    compare tests/compare/small_sim.json measure: -- "$tmp/no-such-program"

# Measuring now with perf_event_open: where this machine's perf cannot
# count instructions:u, neither can compare, and it says so instead of a
# number; where it can, compare gives a number.
expect 0 "" -- compare -x, tests/compare/small_sim.json measure: -- true
if command -v perf >/dev/null; then
    perf_says=$(perf stat -x, -e instructions:u true 2>&1 >/dev/null | grep 'instructions' | cut -d, -f1)
    compare_says=$(grep '^instructions_executed / instructions:u,' "$tmp/cli.out" | cut -d, -f3)
    case $perf_says:$compare_says in
        "<not supported>:not supported") pass ;;
        [0-9]*:[0-9]*) pass ;;
        *) fail "measure: instructions:u '$compare_says' where perf says '$perf_says'" ;;
    esac
fi
# Measured runs use the environment of `pmubench record --env`, and a
# failing program is reported with the counts of its run.
tunables=$(pmubench record --env | sed -n 's/^GLIBC_TUNABLES=//p')
expect 0 "" -- compare tests/compare/small_sim.json measure: -- \
    sh -c "[ \"\$GLIBC_TUNABLES\" = '$tunables' ] || exit 7"
expect 0 "pmubench compare: sh exited with status 7 (the counts are of that run)" -- \
    compare tests/compare/small_sim.json measure: -- sh -c 'exit 7'

# valgrind lackey: static programs doing `rep movsb` of 10 (rep_few) and
# of 1000 bytes (rep_all), otherwise the same.  The REP instruction counts
# once, so both have the same number of instructions; each iteration is one
# load and one store.  Runs of the same program differ by some tens of
# instructions (glibc's parsing of GLIBC_TUNABLES at start-up, seen in
# _dl_tunable_set_hwcaps) and by some hundreds (string functions whose
# alignment prologues depend on where ASLR put the stack: 331 apart was
# seen), hence a margin of 400 on the instructions, well short of the 990
# a REP counted per iteration would add, and of 300 on the loads and stores.
rep_program() { # NAME BYTES
    printf '#include <stddef.h>\nstatic char a[1000], b[1000];\nint main(void)\n{\n    size_t n = %d;\n    void *d = a; const void *s = b;\n    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) :: "memory");\n    return 0;\n}\n' "$2" |
        cc -O1 -static -x c - -o "$tmp/$1" 2>/dev/null
}
lackey_counts() { # PROGRAM: "INSTRUCTIONS LOADS STORES" of lackey's run
    pmubench compare -x, lackey: tests/compare/small_sim.json -- "$tmp/$1" |
        awk -F, '{ split($1, name, " ") }
            name[1] == "instructions" || name[1] == "loads" || name[1] == "stores" { printf "%s ", $2 }'
}
within() { # VALUE WANT MARGIN
    [ "$1" -ge $(($2 - $3)) ] && [ "$1" -le $(($2 + $3)) ]
}
if command -v valgrind >/dev/null && rep_program rep_few 10 && rep_program rep_all 1000; then
    few=$(lackey_counts rep_few)
    all=$(lackey_counts rep_all)
    set -- $few $all
    if [ $# -eq 6 ] && within $(($4 - $1)) 0 400 && within $(($5 - $2)) 990 300 &&
        within $(($6 - $3)) 990 300; then
        pass; else fail "lackey: rep movsb of 10 and 1000 bytes: '$few' and '$all'"; fi
    expect 2 "valgrind: $tmp/no-such-program: No such file or directory
pmubench compare: cannot run '$tmp/no-such-program' under valgrind lackey (no records)" -- \
        compare lackey: tests/compare/small_sim.json -- "$tmp/no-such-program"
fi
