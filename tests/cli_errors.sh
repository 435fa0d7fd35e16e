# Failures the same in every command (docs/exit-status.md): exit statuses,
# numbers (README, "Numbers"), messages and the user text they quote.
# Sourced by run_tests.sh after tests/cli_tests.sh (its helpers expect,
# expect_usage, pass, fail, pmubench, and its traces $tmp/small.trace and
# $tmp/cut.trace).

# ---- Exit statuses: 2 for bad input, 1 for a run-time failure.

# A directory given as an input file: "is a directory", status 2, in every
# command that reads a file.
dir=$tmp/a-directory
mkdir -p "$dir"
expect 2 "$dir: is a directory" -- run "$dir"
expect 2 "$dir: is a directory" -- alloc --exp "$dir"
expect 2 "$dir: is a directory" -- trace info "$dir"
expect 2 "$dir: is a directory" -- trace dump "$dir"
expect 2 "$dir: is a directory" -- trace import --lackey "$dir" -o "$tmp/from-dir.trace"
expect 2 "$dir: is a directory" -- trace import --dinero "$dir" -o "$tmp/from-dir.trace"
expect 2 "pmubench stat: $dir: is a directory" -- stat --trace "$dir"
expect 2 "pmubench stat: $dir: is a directory" -- stat -m netburst --trace "$dir"
expect 2 "pmubench sample: $dir: is a directory" -- \
    sample -e global_power_events:RUNNING --period 5 --trace "$dir"
expect 2 "$dir: is a directory" -- p5mon "$dir"
expect 2 "$dir: is a directory" -- p5mon -Ftrace="$dir" -Fdata_read=yes
expect 2 "$dir: is a directory" -- p5mon -F "command=/bin/true < $dir" -Fdata_read=yes
expect 2 "$dir: is a directory" -- compare "$dir" tests/compare/small_perf.csv
expect 2 "pmubench record: cannot run '$dir': is a directory" -- record -o "$tmp/dir.trace" -- "$dir"
printf 'cpu netburst\nrdmsr MSR_IQ_CCCR0\n' >"$tmp/rdmsr.pmu"
expect 2 "$dir: is a directory" -- run "$tmp/rdmsr.pmu" --msr-device "$dir"

# A directory given as an output file: "is a directory", status 2 (not
# status 1 and "cannot open: Is a directory"), before anything is run.
expect 2 "pmubench stat: $dir: is a directory" -- stat -e branches -o "$dir" --trace "$tmp/small.trace"
expect 2 "pmubench trace import: $dir: is a directory" -- \
    trace import --lackey tests/traces/small.lackey -o "$dir"
expect 2 "pmubench run: $dir: is a directory" -- run tests/bench/demo.pmu --vcd "$dir"
expect 2 "pmubench plot: $dir: is a directory" -- plot -o "$dir" tests/plot/p5_intervals.json

# A corrupt trace: status 2 in every command that reads one, its message
# once (p5mon named the file twice and gave status 1).
cut="$tmp/cut.trace: byte offset 60: truncated: expected a data address"
expect 2 "pmubench stat: $cut" -- stat --trace "$tmp/cut.trace"
expect 2 "pmubench stat: $cut" -- stat -m netburst --trace "$tmp/cut.trace"
expect 2 "pmubench sample: $cut" -- \
    sample -e global_power_events:RUNNING --period 5 -o "$tmp/cut.samples" --trace "$tmp/cut.trace"
expect 2 "$cut" -- p5mon -Ftrace="$tmp/cut.trace" -Fdata_read=yes
expect 2 "$tmp/no.trace: cannot open: No such file or directory" -- \
    p5mon -Ftrace="$tmp/no.trace" -Fdata_read=yes

# An output that cannot be written: status 1 in every command that writes
# one (stat, sample and record said 2).
none=$tmp/no-such-dir/out
expect 1 "pmubench stat: $none: cannot create: No such file or directory" -- \
    stat -e branches -o "$none" --trace "$tmp/small.trace"
expect 1 "pmubench sample: $none: cannot create: No such file or directory" -- \
    sample -e global_power_events:RUNNING --period 5 -o "$none" --trace "$tmp/small.trace"
expect 1 "$none: cannot create: No such file or directory" -- \
    p5mon -Ftrace="$tmp/small.trace" -Fdata_read=yes -Frepetitions=1 -Foutput_file="$none"
expect 1 "$none: cannot create: No such file or directory" -- \
    trace import --lackey tests/traces/small.lackey -o "$none"
expect 1 "$none: cannot create: No such file or directory" -- run tests/bench/demo.pmu --vcd "$none"
if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    expect 1 "pmubench record: $none: cannot create: No such file or directory" -- \
        record -o "$none" -- /bin/true
fi
# ... standard output too, in the commands that only print.
if [ -w /dev/full ]; then
    for args in "list p5" "encode p5::clocks" "decode --cesr 0" "trace info $tmp/small.trace" \
        "run --help" "stat --help"; do
        # shellcheck disable=SC2086
        pmubench $args >/dev/full 2>"$tmp/cli.err"
        status=$?
        if [ $status -eq 1 ] && [ "$(cat "$tmp/cli.err")" = "pmubench ${args%% *}: standard output: No space left on device" ]; then
            pass; else fail "pmubench $args >/dev/full: status $status, '$(cat "$tmp/cli.err")'"; fi
    done
    # pmubench's own --version and --help (exit 0 before: nothing checked
    # that their line was written).
    for args in --version -V --help -h help; do
        pmubench $args >/dev/full 2>"$tmp/cli.err"
        status=$?
        if [ $status -eq 1 ] && [ "$(cat "$tmp/cli.err")" = "pmubench: standard output: No space left on device" ]; then
            pass; else fail "pmubench $args >/dev/full: status $status, '$(cat "$tmp/cli.err")'"; fi
    done
    # Standard output closed (>&-): a failure when the command prints, none
    # when it writes only its -o file.
    pmubench list p5 >&- 2>"$tmp/cli.err"
    status=$?
    if [ $status -eq 1 ] && [ "$(cat "$tmp/cli.err")" = "pmubench list: standard output: Bad file descriptor" ]; then
        pass; else fail "pmubench list p5 >&-: status $status, '$(cat "$tmp/cli.err")'"; fi
    pmubench stat -e data_read -x , -o "$tmp/closed.csv" --trace "$tmp/small.trace" >&- 2>/dev/null
    status=$?
    if [ $status -eq 0 ] && [ "$(cat "$tmp/closed.csv")" = "5,,data_read,," ]; then
        pass; else fail "pmubench stat -o FILE >&-: status $status"; fi
    # An output file on a full device (not a regular file: written
    # directly): the file and errno's reason, whether the writes failed
    # before the close (more than stdio's buffer: "Input/output error"
    # before) or at it.
    full="/dev/full: cannot write: No space left on device"
    expect 1 "pmubench stat: $full" -- stat -e data_read -o /dev/full --trace "$tmp/small.trace"
    expect 1 "pmubench stat: $full" -- stat -I 1 --plot /dev/full --trace "$tmp/small.trace"
    expect 1 "pmubench plot: $full" -- plot -o /dev/full tests/plot/p5_intervals.json
    expect 1 "pmubench sample: $full" -- \
        sample -e global_power_events:RUNNING --period 5 -o /dev/full --trace "$tmp/small.trace"
    expect 1 "$full" -- trace import --lackey tests/traces/small.lackey -o /dev/full
    expect 1 "$full" -- run tests/bench/demo.pmu --vcd /dev/full
    expect 1 "$full" -- p5mon -Ftrace="$tmp/small.trace" -Fdata_read=yes -Frepetitions=1 \
        -Foutput_file=/dev/full
fi

# A path of 2000 bytes (folders of 200): the message keeps it whole and
# its reason (buffers of 1024 bytes cut the reason off).
long=$tmp
while [ ${#long} -lt 2000 ]; do
    long=$long/$(printf '%0200d' 0)
done
mkdir -p "$long"
expect 1 "pmubench stat: $long/no-such-dir/out: cannot create: No such file or directory" -- \
    stat -e data_read -o "$long/no-such-dir/out" --trace "$tmp/small.trace"
expect 2 "pmubench stat: $long/no.trace: cannot open: No such file or directory" -- \
    stat --trace "$long/no.trace"
expect 1 "pmubench sample: $long/no-such-dir/out: cannot create: No such file or directory" -- \
    sample -e global_power_events:RUNNING --period 5 -o "$long/no-such-dir/out" --trace "$tmp/small.trace"
expect 1 "pmubench plot: $long/no-such-dir/out: cannot create: No such file or directory" -- \
    plot -o "$long/no-such-dir/out" tests/plot/p5_intervals.json
expect 2 "$long/no.json: cannot open: No such file or directory" -- \
    compare "$long/no.json" tests/compare/small_perf.csv
expect 1 "$long/no-such-dir/out: cannot create: No such file or directory" -- \
    run tests/bench/demo.pmu --record "$long/no-such-dir/out"
expect 1 "$long/no-such-dir/out: cannot create: No such file or directory" -- \
    trace import --lackey tests/traces/small.lackey -o "$long/no-such-dir/out"
expect 1 "$long/no-such-dir/out: cannot create: No such file or directory" -- \
    p5mon -Ftrace="$tmp/small.trace" -Fdata_read=yes -Frepetitions=1 -Foutput_file="$long/no-such-dir/out"

# ---- Numbers: decimal, or hex with 0x; no octal, sign or white space; the
# caller's range; one message.
num="expected a number: decimal or 0x hex"
expect_usage "pmubench decode: bad --cccr '010' ($num, 0 to 18446744073709551615)" -- decode --cccr 010
expect_usage "pmubench decode: bad --cccr '08' ($num, 0 to 18446744073709551615)" -- decode --cccr 08
expect_usage "pmubench decode: bad --escr '+5' ($num, 0 to 18446744073709551615)" -- decode --escr +5
expect 0 "" -- decode --escr 0x0c001804 --cccr 0x3b000 --counter 0xe
mv "$tmp/cli.out" "$tmp/cccr-hex.out"
expect 0 "" -- decode --escr 201332740 --cccr 241664 --counter 14
if cmp -s "$tmp/cli.out" "$tmp/cccr-hex.out"; then pass; else fail "decode in decimal and in hex differ"; fi
expect_usage "pmubench decode: bad --counter '012' ($num, 0 to 17)" -- decode --cccr 0x3b000 --counter 012
sample_args="-e global_power_events:RUNNING --trace $tmp/small.trace"
for period in 010 " 5" +5 0 549755813889 5x; do
    # shellcheck disable=SC2086
    expect_usage "pmubench sample: bad --period '$period' ($num, 1 to 549755813888)" -- \
        sample $sample_args --period "$period"
done
# shellcheck disable=SC2086
expect_usage "pmubench sample: bad --region '010' ($num, 0 to 4294967295)" -- \
    sample $sample_args --period 5 --region 010
expect_usage "pmubench stat: bad --region '010' ($num, 0 to 4294967295)" -- \
    stat --region 010 --trace "$tmp/small.trace"
expect_usage "pmubench stat: bad --region '4294967296' ($num, 0 to 4294967295)" -- \
    stat --region 4294967296 --trace "$tmp/small.trace"
expect_usage "pmubench stat: bad --cpu '01' ($num, 0 to 1023)" -- \
    stat --backend msr --cpu 01 -- /bin/true
expect 0 "" -- stat -e branches --region 0x2 -x , --trace "$tmp/small.trace"
# Model parameters (-F) and PARMS values: the same rule.
expect 2 "pmubench stat: -F: bad dcache_size '020000' ($num, 1 to 1073741824)" -- \
    stat -F dcache_size=020000 --trace "$tmp/small.trace"
expect 2 "pmubench stat: -F: bad rob '010' ($num, 1 to 4096)" -- \
    stat -m netburst -F rob=010 --trace "$tmp/small.trace"
expect 0 "" -- stat -m netburst -F rob=0x40 -e uops_retired:NBOGUS --trace "$tmp/small.trace"
expect 2 "-F:3: bad dcache_size '020000' ($num, 1 to 1073741824)" -- \
    p5mon -Ftrace="$tmp/small.trace" -Fdata_read=yes -Fmodel_dcache_size=020000
expect 2 "-F:1: bad repetitions '010' ($num, 1 to 1000)" -- p5mon -Frepetitions=010
# Event-string modifiers, on the command line and in experiment files.
expect 2 "pmubench encode: netburst::branch_retired:MMTP:thr=010: bad thr '010' ($num, 0 to 15)" -- \
    encode netburst::branch_retired:MMTP:thr=010
printf 'netburst::branch_retired:MMTP:thr=+2\n' >"$tmp/octal.exp"
expect 2 "$tmp/octal.exp:1: netburst::branch_retired:MMTP:thr=+2: bad thr '+2' ($num, 0 to 15)" -- \
    alloc --exp "$tmp/octal.exp"
expect 0 "" -- encode --model 0x3 netburst_p::instr_completed:NBOGUS

# ---- Messages: the file and the record; user text escaped.

# Code bytes that do not decode: the trace and the record (the line of
# `trace dump`), in both models.  A hand-made 64-bit trace: a nop at
# 0x1000, then 06 (push es, not an instruction in 64-bit mode), END.
printf 'PMUTRACE\001\001\000\000\000\121\200\100\220\101\006\217\002\000\000' >"$tmp/undecodable.trace"
undecodable="$tmp/undecodable.trace: record 2: instruction at 0x1001: its 1 code bytes do not decode"
expect 2 "pmubench stat: $undecodable" -- stat -e instructions_executed --trace "$tmp/undecodable.trace"
expect 2 "pmubench stat: $undecodable" -- stat -m netburst --trace "$tmp/undecodable.trace"
expect 2 "$undecodable" -- p5mon -Ftrace="$tmp/undecodable.trace" -Fdata_read=yes
expect 0 "" -- trace dump "$tmp/undecodable.trace"
if [ "$(sed -n 2p "$tmp/cli.out")" = "insn 0x1001 len 1 bytes 06 thread 0 cpl 3" ]; then
    pass; else fail "record 2 of undecodable.trace: $(cat "$tmp/cli.out")"; fi

# Control characters and bytes that are not UTF-8 are echoed as \xNN;
# UTF-8 text as it is.
expect 2 "pmubench stat: $tmp/a\\x1b[31mb\\x01\\xff: cannot open: No such file or directory" -- \
    stat --trace "$(printf '%s/a\033[31mb\001\377' "$tmp")"
expect 2 "pmubench stat: $tmp/é: cannot open: No such file or directory" -- stat --trace "$tmp/é"
expect_usage "pmubench encode: unknown option '--x\\x1b\\x0a.'" -- encode "$(printf -- '--x\033\n.')"
printf 'cpu p5\nwrmsr CESR \033\n' >"$tmp/escape.pmu"
expect 2 "$tmp/escape.pmu:2: bad VALUE '\\x1b' ($num, 0 to 18446744073709551615)" -- run "$tmp/escape.pmu"
# trace info: a header whose program holds ESC and a byte that is not
# UTF-8, whose arguments hold a tab; --json stays valid JSON and UTF-8.
printf 'PMUTRACE\001\001\005/x\033\377y\003a\tb\000\217\000\000\000' >"$tmp/escape.trace"
expect 0 "" -- trace info "$tmp/escape.trace"
if [ "$(head -2 "$tmp/cli.out")" = 'program       /x\x1b\xffy
arguments     a\x09b' ]; then pass; else fail "trace info of escape.trace: $(head -2 "$tmp/cli.out")"; fi
expect 0 "" -- trace info --json "$tmp/escape.trace"
case $(cat "$tmp/cli.out") in
    "{\"file\": \"$tmp/escape.trace\", \"program\": \"/x\\u001b\\\\xffy\", \"args\": \"a\\u0009b\", \"recorder\": \"\", "*) pass ;;
    *) fail "trace info --json of escape.trace: $(cat "$tmp/cli.out")" ;;
esac

# ---- Empty items: an empty event name or separator is an error.
for events in data_read, ,data_read data_read,,branches ""; do
    expect_usage "pmubench stat: bad -e '$events' (an empty event name: expected EVENT[,EVENT...])" -- \
        stat -e "$events" --trace "$tmp/small.trace"
done
expect_usage "pmubench stat: bad -x '' (expected a separator: one or more characters)" -- \
    stat -e data_read -x '' --trace "$tmp/small.trace"
