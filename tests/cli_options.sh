# Options in every command (README, "Options"; cli/option_table.h), sourced
# by run_tests.sh after tests/cli_tests.sh (its helpers, and its
# $tmp/small.trace): values attached as getopt and perf take them, `help
# COMMAND`, "did you mean", and each --help naming every option.

# run_as NAME ARGS...: runs pmubench ARGS, keeping its output, errors and
# status as $tmp/NAME.*; same_output WHAT: runs "one" and "two" both exited
# 0 and printed the same, not empty, standard output.
run_as() {
    run_name=$1
    shift
    pmubench "$@" >"$tmp/$run_name.out" 2>"$tmp/$run_name.err"
    echo $? >"$tmp/$run_name.status"
}
same_output() {
    if [ "$(cat "$tmp/one.status") $(cat "$tmp/two.status")" != "0 0" ]; then
        fail "$1: exit status $(cat "$tmp/one.status") and $(cat "$tmp/two.status") ($(cat "$tmp/one.err" "$tmp/two.err"))"
    elif [ ! -s "$tmp/one.out" ] || ! cmp -s "$tmp/one.out" "$tmp/two.out"; then
        fail "$1: outputs differ: $(diff "$tmp/one.out" "$tmp/two.out" | head -5)"
    else
        pass
    fi
}

# ---- Attached values: -xVAL is -x VAL, --name=VAL is --name VAL.
t=$tmp/small.trace
run_as one stat -x, -edata_read -mp5 --trace "$t"
run_as two stat -x , -e data_read -m p5 --trace "$t"
same_output "stat -x, -edata_read -mp5"
run_as one stat --trace="$t" --runs=hardware --region=0 -e data_read
run_as two stat --trace "$t" --runs hardware --region 0 -e data_read
same_output "stat --trace=FILE --runs=hardware --region=0"
run_as one stat -I100 -Fdcache_size=16384 -x, --trace "$t"
run_as two stat -I 100 -F dcache_size=16384 -x , --trace "$t"
same_output "stat -I100 -Fdcache_size=16384"
run_as one stat -mnetburst-prescott -ebranch_retired:MMTP --json --trace "$t"
run_as two stat -m netburst-prescott -e branch_retired:MMTP --json --trace "$t"
same_output "stat -mnetburst-prescott -eEVENT"
pmubench stat -o"$tmp/attached.out" -x, -e data_read --trace "$t" >/dev/null 2>&1
pmubench stat -o "$tmp/apart.out" -x , -e data_read --trace "$t" >/dev/null 2>&1
if [ -s "$tmp/attached.out" ] && cmp -s "$tmp/attached.out" "$tmp/apart.out"; then pass; else
    fail "stat -oFILE: '$(cat "$tmp/attached.out")' against '$(cat "$tmp/apart.out")'"; fi
# The argument after a value-taking option is its value, whatever it looks
# like: -x's separator "-I5" (no intervals), not -I 5.
pmubench stat -x , -e data_read --trace "$t" >"$tmp/comma.out" 2>/dev/null
count=$(cut -d, -f1 <"$tmp/comma.out")
expect 0 "" -- stat -x -I5 -e data_read --trace "$t"
if [ "$(cat "$tmp/cli.out")" = "$count-I5-I5data_read-I5-I5" ]; then pass; else
    fail "stat -x -I5: '$(cat "$tmp/cli.out")', expected '$count-I5-I5data_read-I5-I5'"; fi
expect_usage "pmubench stat: bad -I '0' (expected N instructions or Nc cycles, N a number from 1 to 1000000000000000000: decimal or 0x hex)" -- \
    stat -I0 --trace "$t"
expect_usage "pmubench stat: bad --runs 'twice' (expected one or hardware)" -- stat --runs=twice
expect_usage "pmubench stat: -x given twice (each option once)" -- stat -x, -x: --trace "$t"
# An option that takes no value keeps its attached form, refused as today.
expect_usage "pmubench stat: unknown option '--json=yes'" -- stat --json=yes --trace "$t"
expect_usage "pmubench stat: unknown option '-Q1'" -- stat -Q1 --trace "$t"
expect_usage "pmubench stat: unknown option '--bogus=1'" -- stat --bogus=1 --trace "$t"
# Every other command, each through its own check of the value.
expect_usage "pmubench sweep: bad -j '0' (expected a number: decimal or 0x hex, 1 to 4096)" -- \
    sweep -j0 spec
expect_usage "pmubench sweep: bad -j 'x' (expected a number: decimal or 0x hex, 1 to 4096)" -- \
    sweep --dir=d -jx spec
expect_usage "pmubench sample: no --trace" -- sample -enetburst::branch_retired:MMTP --period=5
expect_usage "pmubench sample: bad --period '0' (expected a number: decimal or 0x hex, 1 to 549755813888)" -- \
    sample -mnetburst -e x --period=0
expect_usage "pmubench record: no program to record" -- record -o"$tmp/r.trace" --cpu=p5
expect_usage "pmubench compare: bad --region 'x' (expected a number: decimal or 0x hex, 0 to 4294967295)" -- \
    compare -x: --region=x a b
expect_usage "pmubench plot: unknown option '--ipc=1'" -- plot --ipc=1 -o"$tmp/p.svg" r.json
expect 2 "r.json: cannot open: No such file or directory" -- plot -o"$tmp/p.svg" r.json
expect_usage "pmubench run: --vcd needs the simulated PMU, not --msr-device" -- \
    run tests/bench/demo.pmu --vcd="$tmp/x.vcd" --msr-device=/dev/null
expect_usage "pmubench p5mon: unknown option '--F=x'" -- p5mon --F=x
expect_usage "pmubench list: unexpected '--long=1' (did you mean '--long'?)" -- list --long=1
expect_usage "pmubench trace import: one output file at a time (-o once)" -- \
    trace import --lackey=tests/traces/small.lackey -o"$tmp/a.trace" -o "$tmp/b.trace"
expect 0 "" -- trace import --lackey=tests/traces/small.lackey -o"$tmp/i1.trace"
if [ -s "$tmp/i1.trace" ] && cmp -s "$tmp/i1.trace" "$tmp/small.trace"; then pass; else
    fail "trace import --lackey=FILE -oOUT: not the trace of --lackey FILE -o OUT"; fi
run_as one decode --model=3 --escr=0x0c000204 --cccr=0x0003d000
run_as two decode --model 3 --escr 0x0c000204 --cccr 0x0003d000
same_output "decode --escr=V --cccr=V --model=3"
run_as one encode --model=3 --ht=off --json branch_retired:MMTP
run_as two encode --model 3 --ht off --json branch_retired:MMTP
same_output "encode --model=3 --ht=off"
run_as one alloc --model=3 --ht=off branch_retired:MMTP
run_as two alloc --model 3 --ht off branch_retired:MMTP
same_output "alloc --model=3 --ht=off"
# alloc and encode: the first event string ends the options.
expect 2 "pmubench encode: -x,: unknown NetBurst event '-x,' ('pmubench list netburst' shows the events and tagging metrics)" -- \
    encode branch_retired:MMTP -x,
# After '--' (and after record's PROGRAM) the arguments are the program's,
# passed on as they are.
pmubench record -o "$tmp/echo1.trace" -- /bin/echo -oa -x, >"$tmp/echo.out" 2>/dev/null
pmubench record -o"$tmp/echo2.trace" /bin/echo -oa --x=1 >>"$tmp/echo.out" 2>/dev/null
if [ "$(cat "$tmp/echo.out")" = "-oa -x,
-oa --x=1" ]; then pass; else fail "record's PROGRAM arguments: '$(cat "$tmp/echo.out")'"; fi

# ---- pmubench help COMMAND: COMMAND's --help.
for command in run encode decode list alloc trace record stat p5mon sample compare sweep plot; do
    pmubench "$command" --help >"$tmp/help1.out" 2>&1
    expect 0 "" -- help "$command"
    if [ -s "$tmp/cli.out" ] && cmp -s "$tmp/help1.out" "$tmp/cli.out"; then pass; else
        fail "pmubench help $command: not '$command --help'"; fi
done
# ---- -h is --help in every command and trace subcommand (cli/option_table.h).
for command in run encode decode list alloc trace "trace import" "trace convert" "trace info" \
    "trace dump" record stat p5mon sample compare sweep plot; do
    # shellcheck disable=SC2086
    pmubench $command --help >"$tmp/help1.out" 2>&1
    # shellcheck disable=SC2086
    expect 0 "" -- $command -h
    if [ -s "$tmp/cli.out" ] && cmp -s "$tmp/help1.out" "$tmp/cli.out"; then pass; else
        fail "pmubench $command -h: not '$command --help'"; fi
done
expect_usage "pmubench: unknown command 'stta' (did you mean 'stat'?)" -- help stta
expect_usage "pmubench: unknown command 'frobnicate'" -- help frobnicate
expect_usage "pmubench: help: one command at a time ('stat' and 'plot')" -- help stat plot
expect 0 "" -- help
if grep -q "^'pmubench COMMAND --help' or 'pmubench help COMMAND' describes a command;" "$tmp/cli.out"; then
    pass; else fail "pmubench help: $(cat "$tmp/cli.out")"; fi

# ---- Did you mean: the nearest name, when one is near (util/suggest.h).
expect_usage "pmubench: unknown command 'stta' (did you mean 'stat'?)" -- stta
expect_usage "pmubench: unknown command 'STAT' (did you mean 'stat'?)" -- STAT
expect_usage "pmubench: unknown command 'sweeep' (did you mean 'sweep'?)" -- sweeep
expect_usage "pmubench trace: unknown subcommand 'imprt' (did you mean 'import'?)" -- trace imprt x
expect_usage "pmubench list: unexpected 'netbrust' (did you mean 'netburst'?)" -- list netbrust
expect_usage "pmubench stat: -m: unknown model 'netbrust' (did you mean 'netburst'?)" -- \
    stat -m netbrust --trace "$t"
expect_usage "pmubench stat: -m: unknown model 'pmx' (did you mean 'pmmx'?)" -- stat -mpmx --trace "$t"
expect_usage "pmubench stat: -m: unknown NetBurst preset 'northwod' (did you mean 'northwood'?)" -- \
    stat -m netburst-northwod --trace "$t"
expect 2 "pmubench stat: -F: unknown P5 model parameter 'dcache_sise' (did you mean 'dcache_size'?)" -- \
    stat -F dcache_sise=1 --trace "$t"
expect 2 "pmubench stat: -F: unknown parameter 'l2_sise' (did you mean 'l2_size'?)" -- \
    stat -m netburst -Fl2_sise=1 --trace "$t"
expect 2 "pmubench stat: p5::data_red: unknown P5 event 'data_red' (did you mean 'data_read'?)" -- \
    stat -e data_red --trace "$t"
expect 2 "pmubench stat: netburst::branch_retird:MMTP: unknown NetBurst event 'branch_retird' (did you mean 'branch_retired'?)" -- \
    stat -m netburst -e branch_retird:MMTP --trace "$t"
expect 2 "pmubench stat: netburst::branch_retired:MMTPP: unknown sub-event or modifier 'MMTPP' of branch_retired (did you mean 'MMTP'?)" -- \
    stat -m netburst -ebranch_retired:MMTPP --trace "$t"
expect 2 "pmubench sample: netburst::branch_retird:MMTP:ovf_pmi=t0: unknown NetBurst event 'branch_retird' (did you mean 'branch_retired'?)" -- \
    sample -e branch_retird:MMTP --period 5 --trace "$t"
expect 2 "-F:1: unknown parameter 'repetitons' (did you mean 'repetitions'?)" -- p5mon -Frepetitons=2
# An unknown option: the command's nearest long option (or --help), in
# every command; a short option is never guessed.
expect_usage "pmubench stat: unknown option '--jsn' (did you mean '--json'?)" -- stat --jsn --trace "$t"
expect_usage "pmubench stat: unknown option '--plot-ipcc' (did you mean '--plot-ipc'?)" -- \
    stat --plot-ipcc --trace "$t"
expect_usage "pmubench run: unknown option '--vdc' (did you mean '--vcd'?)" -- run --vdc x.vcd s.pmu
expect_usage "pmubench decode: unknown option '--escrr' (did you mean '--escr'?)" -- decode --escrr 1
expect_usage "pmubench encode: unknown option '--perfx' (did you mean '--perfex'?)" -- \
    encode --perfx p5::clocks
expect_usage "pmubench compare: unknown option '--hepl' (did you mean '--help'?)" -- compare --hepl
expect_usage "pmubench trace info: unknown option '--jsno' (did you mean '--json'?)" -- \
    trace info --jsno "$t"
expect_usage "pmubench trace dump: unknown option '--jsno'" -- trace dump --jsno "$t"
expect_usage "pmubench trace import: unknown argument '--lackee' (did you mean '--lackey'?)" -- \
    trace import --lackee x -o y
expect_usage "pmubench stat: unknown option '-j'" -- stat -j --trace "$t"
expect_usage "pmubench stat: unknown option '--frobnicate'" -- stat --frobnicate --trace "$t"
expect_usage "pmubench stat: unknown option '--tarce=$t' (did you mean '--trace'?)" -- stat --tarce="$t"
# Nothing near: the message without a suggestion.
expect_usage "pmubench stat: -m: unknown model 'k6' (expected p5, pmmx, host, netburst or netburst-PRESET)" -- \
    stat -m k6 --trace "$t"
expect 2 "pmubench stat: -F: unknown P5 model parameter 'frobnicate'" -- stat -F frobnicate=1 --trace "$t"

# ---- Every command's --help names every option its table lists
# (cli/option_table.h), and the table lists every option the command's
# source compares an argument with.
for source in cli/cmd_*.c; do
    command=${source#cli/cmd_}
    command=${command%.c}
    listed=$(sed -n "/_option_list\[\] = {/,/^};/p" "$source" | grep -o '{"-[-a-zA-Z0-9]*"' | tr -d '{"')
    [ -n "$listed" ] || fail "$source: no option table"
    pmubench "$command" --help >"$tmp/help.out" 2>&1
    for option in $listed; do
        if grep -qE -- "(^|[^-a-zA-Z0-9])$option([^-a-zA-Z0-9]|\$)" "$tmp/help.out"; then pass; else
            fail "pmubench $command --help does not name $option"; fi
    done
    compared=$(grep -o -e 'strcmp([a-z_>.-]*\(\[[a-z*]*\]\)\?, "-[-a-zA-Z0-9]*")' -e '{"-[-a-zA-Z0-9]*", &' "$source" |
        grep -o '"-[-a-zA-Z0-9]*"' | tr -d '"' | sort -u)
    grep -q '"cpu_option.h"' "$source" &&
        compared="$compared $(grep -o '"--[a-z]*"' cli/cpu_option.c | tr -d '"')"
    for option in $compared; do
        case " -- - --help -h " in *" $option "*) continue ;; esac
        case " $(echo $listed) " in *" $option "*) pass ;;
            *) fail "$source compares with $option, which its option table does not list" ;; esac
    done
done
