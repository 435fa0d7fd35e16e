# `pmubench p5mon` (docs/p5mon.md) and the wc case study (traces/wc/),
# sourced by run_tests.sh after tests/cli_tests.sh (uses expect, pass,
# fail, pmubench, $tmp, $build).

p5m_usage=$(pmubench p5mon --help)
case $p5m_usage in
    "usage: pmubench p5mon [PARMS] [-F name=value | -Fname=value ...]"*) pass ;;
    *) fail "p5mon --help: '$p5m_usage'" ;;
esac
expect_usage "pmubench p5mon: unknown option '--bogus'" -- p5mon --bogus
expect_usage "pmubench p5mon: one PARMS file at a time (also 'b')" -- p5mon a b
expect_usage "pmubench p5mon: -F needs name=value" -- p5mon -F
expect 2 "$tmp/none.parms: cannot open: No such file or directory" -- p5mon "$tmp/none.parms"

# PARMS errors name the file and the line; -F errors the -F (from 1).
printf '(p5mon\ntrace = x.trace;\nrepetitions = five;\nend)\n' >"$tmp/p5m_bad.parms"
expect 2 "$tmp/p5m_bad.parms:3: bad repetitions 'five' (expected a number: decimal or 0x hex, 1 to 1000)" -- \
    p5mon "$tmp/p5m_bad.parms"
printf '(p5mon\ntrace = x.trace;\ndata_read = yes\nend)\n' >"$tmp/p5m_bad.parms"
expect 2 "$tmp/p5m_bad.parms:3: expected ';' at the end of the line" -- p5mon "$tmp/p5m_bad.parms"
# A NUL byte is not text: refused, not a line cut short at it (the
# output_file after it would otherwise be dropped).
printf '(p5mon\ntrace = x.trace;\ndata_read = yes;\0output_file = x.p5m;\nend)\n' >"$tmp/p5m_bad.parms"
expect 2 "$tmp/p5m_bad.parms:3: unexpected NUL byte" -- p5mon "$tmp/p5m_bad.parms"
printf '(p5mon\ntrace = x.trace;\nend)\n' >"$tmp/p5m.parms"
expect 2 "-F:2: unknown parameter 'data_red' (did you mean 'data_read'?)" -- \
    p5mon "$tmp/p5m.parms" -Fdata_read=yes -F data_red=yes
expect 2 "-F:2: unknown parameter 'data_read_all' (expected a run_p5mon parameter, an event name, count_clocks or model_NAME)" -- \
    p5mon "$tmp/p5m.parms" -Fdata_read=yes -F data_read_all=yes
expect 2 "-F:1: expected name=value, got 'data_read'" -- p5mon "$tmp/p5m.parms" -F data_read
expect 2 "$tmp/p5m.parms: expected at least one event (an event name or count_clocks = yes)" -- \
    p5mon "$tmp/p5m.parms"
expect 2 "-F: expected command (the program to record) or trace" -- p5mon -Fdata_read=yes
# The model: a preset name and parameters, checked where they are set.
expect 2 "-F:2: unknown P5 model preset 'pentium' (expected p5, pmmx or host)" -- \
    p5mon "$tmp/p5m.parms" -Fdata_read=yes -Fmodel=pentium
expect 2 "-F:2: unknown P5 model parameter 'bogus'" -- \
    p5mon "$tmp/p5m.parms" -Fdata_read=yes -Fmodel_bogus=1
# A trace that is not there: status 1, the trace named.
p5m_err=$(pmubench p5mon "$tmp/p5m.parms" -Fdata_read=yes 2>&1 >/dev/null)
if [ $? -eq 0 ] || [ -z "$p5m_err" ]; then fail "p5mon on a missing trace: '$p5m_err'"; else pass; fi

# The report and the output file on tests/traces/small.lackey (10
# instructions, 4 loads of which one a modify, 3 stores and the modify;
# no branch, no region).
pmubench trace import --lackey tests/traces/small.lackey -o "$tmp/p5m_small.trace" >/dev/null 2>&1
cat >"$tmp/p5m_small.parms" <<PARMS
# pmubench p5mon on the 10-instruction lackey trace
(p5mon
trace = $tmp/p5m_small.trace;
repetitions = 3;
instructions_executed = yes;
branches = yes;
count_clocks = yes;
output_file = $tmp/p5m_small.out;
end)
PARMS
# Dates, the directory and the run time vary: masked.
p5m_mask() {
    sed -e 's/^run_p5mon started at .*/run_p5mon started at DATE/' \
        -e 's/^current directory: .*/current directory: DIR/' \
        -e 's/^Total elapsed time: .*/Total elapsed time: T/' \
        -e 's/with an average execution time of .*s)$/with an average execution time of Ts)/'
}
pmubench p5mon "$tmp/p5m_small.parms" -F conf_level_99=yes >"$tmp/p5m.stdout" 2>"$tmp/p5m.stderr"
p5m_status=$?
p5m_mask <"$tmp/p5m.stdout" >"$tmp/p5m.got"
cat >"$tmp/p5m.want" <<REPORT
run_p5mon started at DATE
current directory: DIR
parameter file: $tmp/p5m_small.parms
arguments: -Fconf_level_99=yes
command: (none)
trace: $tmp/p5m_small.trace

Results (for 3 repetitions with a 99% confidence level):
  Branches: 0.0 +/- 0.0 (NaN%)
  Instructions Executed: P5M_INSN.0 +/- 0.0 (0.000%)
  Clock cycles: P5M_CLOCKS.0 +/- 0.0 (0.000%)

Total elapsed time: T
(program executed 6 times, with an average execution time of Ts)
REPORT
# The model's counts of that trace: every instruction once, the 16-byte
# load and the modify's read as data reads (5), the stores and the
# modify's write (3); 153 clocks is the model's timing of it (cold caches
# and TLBs), to update when the model's timing changes.
sed -i -e 's/P5M_INSN/10/' -e 's/P5M_CLOCKS/153/' "$tmp/p5m.want"
# A lackey trace of a 64-bit program: one warning line, no other.
p5m_warn="pmubench p5mon: warning: $tmp/p5m_small.trace: 64-bit code, which the P5 could not run (it has no IA-32e mode); simulated anyway, decoded as 64-bit code (docs/stat.md, \"64-bit traces\")"
if [ "$p5m_status" -eq 0 ] && [ "$(cat "$tmp/p5m.stderr")" = "$p5m_warn" ] && diff -u "$tmp/p5m.want" "$tmp/p5m.got"; then
    pass; else fail "p5mon report on small.lackey (status $p5m_status): $(cat "$tmp/p5m.stderr")"; fi
cat >"$tmp/p5m.want" <<'FILE'
# run_p5mon results file
# Results (3 repetitions, 99% confidence level):
# Event Repetition Value [conf.int] [percentage]
0x12 -1	0.0 0.0 NaN
0x16 -1	10.0 0.0 0.000
clocks -1	153.0 0.0 0.000
FILE
if diff -u "$tmp/p5m.want" "$tmp/p5m_small.out"; then pass; else fail "p5mon output file"; fi
# ... with every repetition, and data reads and writes.
expect 0 "" -- p5mon "$tmp/p5m_small.parms" -Foutput_all_results=yes -Finstructions_executed=no \
    -Fbranches=no -Fcount_clocks=no -Fdata_read=yes -Fdata_write=yes -Frepetitions=2
if [ "$(sed -n '/^Results/,/^$/p' "$tmp/cli.out")" = "Results (for 2 repetitions with a 95% confidence level):
  Event: Data Read
    rep 0:	5
    rep 1:	5
    -----
  Average:	5.0 +/- 0.0 (0.000%)
  Event: Data Write
    rep 0:	3
    rep 1:	3
    -----
  Average:	3.0 +/- 0.0 (0.000%)" ] && [ "$(cat "$tmp/p5m_small.out")" = "# run_p5mon results file
# Results (2 repetitions, 95% confidence level):
# Event Repetition Value [conf.int] [percentage]
0x0 0	5
0x0 1	5
0x0 -1	5.0 0.0 0.000
0x1 0	3
0x1 1	3
0x1 -1	3.0 0.0 0.000" ]; then pass; else fail "p5mon output_all_results: $(cat "$tmp/cli.out" "$tmp/p5m_small.out")"; fi
# An output file that cannot be written: status 1, the report printed, no
# file and no temporary left.
expect 1 "$tmp/p5m_none/out: cannot create: No such file or directory" -- \
    p5mon "$tmp/p5m_small.parms" -Foutput_file="$tmp/p5m_none/out"
# verbose_level 2: one line per repetition and per execution on stderr.
expect 0 "run_p5mon: repetition 1 of 1
run_p5mon: execution 1: branches instructions_executed
run_p5mon: execution 2: count_clocks" -- p5mon "$tmp/p5m_small.parms" -Frepetitions=1 -Fverbose_level=2
# Both privilege levels off: a warning, and nothing counted.
expect 0 "pmubench p5mon: warning: user_events and kernel_events are both no: nothing is counted" -- \
    p5mon "$tmp/p5m_small.parms" -Fuser_events=no -Frepetitions=1
if grep -q '^  Instructions Executed: 0.0 +/- 0.0 (NaN%)$' "$tmp/cli.out"; then pass; else fail "p5mon without user_events"; fi
# ./STD_PARMS is read when no PARMS is given (Safford 1997, Figure 4.2).
mkdir -p "$tmp/p5m_dir"
cp "$tmp/p5m_small.parms" "$tmp/p5m_dir/STD_PARMS"
if (cd "$tmp/p5m_dir" && $wrapper "$OLDPWD/$build/pmubench" p5mon -Frepetitions=1 -Foutput_file=o) >"$tmp/cli.out" 2>&1 &&
    grep -q '^parameter file: ./STD_PARMS$' "$tmp/cli.out" && [ -f "$tmp/p5m_dir/o" ]; then
    pass; else fail "p5mon with ./STD_PARMS: $(cat "$tmp/cli.out")"; fi

# Regions (tests/traces/regions.c): region 1 around a 10-iteration loop
# of `sink += i` (volatile: one read, one write each), region 2 around each
# iteration of another, region 7 around `sink = 0`.  On i386 the push of
# the end call's argument is inside the region: one more write each time.
if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    for p5m_bits in 64 32; do
        [ $p5m_bits = 64 ] || [ -x "$build/recorder/pmutrace-x86-linux" ] || continue
        cc -m$p5m_bits -std=c11 -O2 -no-pie -I. tests/traces/regions.c -o "$tmp/p5m_regions" 2>/dev/null || continue
        pmubench record -o "$tmp/p5m_regions.trace" -- "$tmp/p5m_regions" >/dev/null 2>&1
        if [ $p5m_bits = 64 ]; then p5m_w1=10.0 p5m_w2=10.0 p5m_e2=1.0; else p5m_w1=11.0 p5m_w2=20.0 p5m_e2=2.0; fi
        # A 64-bit trace: one warning line (the P5 has no IA-32e mode).
        p5m_warn=
        [ $p5m_bits = 64 ] && p5m_warn="pmubench p5mon: warning: $tmp/p5m_regions.trace: 64-bit code, which the P5 could not run (it has no IA-32e mode); simulated anyway, decoded as 64-bit code (docs/stat.md, \"64-bit traces\")"
        expect 0 "$p5m_warn" -- p5mon -Ftrace="$tmp/p5m_regions.trace" -Fuse_assembly_regions=yes \
            -Fdata_read=yes -Fdata_write=yes -Frepetitions=2 -Foutput_file="$tmp/p5m_regions.out"
        if [ "$(sed -n '/^Results/,/^$/p' "$tmp/cli.out")" = "Results (for 3 regions, 2 repetitions, 95% confidence level):
  Region 1, entered 1 times and exited 1 times:
    Data Read: 10.0 +/- 0.0 (0.000%) [10.0]
    Data Write: $p5m_w1 +/- 0.0 (0.000%) [$p5m_w1]
  Region 2, entered 10 times and exited 10 times:
    Data Read: 10.0 +/- 0.0 (0.000%) [1.0]
    Data Write: $p5m_w2 +/- 0.0 (0.000%) [$p5m_e2]
  Region 7, entered 1 times and exited 1 times:
    Data Read: 0.0 +/- 0.0 (NaN%) [0.0]
    Data Write: 1.0 +/- 0.0 (0.000%) [1.0]" ] && [ "$(cat "$tmp/p5m_regions.out")" = "# run_p5mon results file
# Results (for 3 regions, 2 repetitions, 95% confidence level):
# Region Event Repetition Value [conf.int] [percentage]
# Region 1: entered 1 exited 1
1 0x0 -1	10.0 0.0 0.000 10.0
1 0x1 -1	$p5m_w1 0.0 0.000 $p5m_w1
# Region 2: entered 10 exited 10
2 0x0 -1	10.0 0.0 0.000 1.0
2 0x1 -1	$p5m_w2 0.0 0.000 $p5m_e2
# Region 7: entered 1 exited 1
7 0x0 -1	0.0 0.0 NaN 0.0
7 0x1 -1	1.0 0.0 0.000 1.0" ]; then pass; else fail "p5mon regions ($p5m_bits-bit): $(cat "$tmp/cli.out" "$tmp/p5m_regions.out")"; fi
        expect 2 "$tmp/p5m_regions.trace: region 7: expected a region number below max_regions (5)" -- \
            p5mon -Ftrace="$tmp/p5m_regions.trace" -Fuse_assembly_regions=yes -Fmax_regions=5 -Fbranches=yes
    done
fi

# Recording `command` when no trace is given, with a < redirection.
if [ -x "$build/recorder/pmutrace-amd64-linux" ] &&
    printf '#include <stdio.h>\nint main(void){int c,n=0;while((c=getchar())!=EOF)n+=c==10;return n;}\n' |
        cc -O2 -x c - -o "$tmp/p5m_nl" 2>/dev/null; then
    printf 'a\nb\nc\n' >"$tmp/p5m_nl.in"
    expect 0 "" -- p5mon -F "command=$tmp/p5m_nl < $tmp/p5m_nl.in" -Fcount_clocks=yes
    if grep -q "^command: $tmp/p5m_nl < $tmp/p5m_nl.in\$" "$tmp/cli.out" &&
        grep -q '^  Clock cycles: [1-9][0-9]*\.0 +/- 0.0 (0.000%)$' "$tmp/cli.out"; then
        pass; else fail "p5mon recording command: $(cat "$tmp/cli.out")"; fi
    expect 2 "-F:1: expected a program, arguments and < > redirections (no shell syntax) in command, got '|'" -- \
        p5mon -F "command=$tmp/p5m_nl | cat" -Fcount_clocks=yes
    expect 2 "-F:1: expected a file name after < or > in command" -- \
        p5mon -F "command=$tmp/p5m_nl <" -Fcount_clocks=yes
fi

# The wc case study (traces/wc/): the input has exactly the thesis's 4036
# lines and 105196 characters, by the system's wc and by ours, and the same
# bytes everywhere; wc's counting loop is region 1.  Built with
# -DWC_LOCKED_GETC (glibc's getc, a function), region 1 calls getc once per
# character and once more for the EOF; built as the study's wc, its
# getc_unlocked is inline (no such function in the program), and region 1
# calls only __uflow, once per buffer of st_blksize bytes and once for the EOF.
if cc -std=c11 -O2 -I. traces/wc/make_input.c -o "$tmp/p5m_make_input" 2>/dev/null &&
    cc -std=c11 -O2 -I. traces/wc/wc.c -o "$tmp/p5m_wc" 2>/dev/null; then
    "$tmp/p5m_make_input" "$tmp/p5m_input.txt"
    if [ "$(wc -l -c <"$tmp/p5m_input.txt" | awk '{print $1, $2}')" = "4036 105196" ]; then
        pass; else fail "wc input: $(wc -l -c <"$tmp/p5m_input.txt")"; fi
    if [ "$("$tmp/p5m_make_input" | cksum)" = "$(cksum <"$tmp/p5m_input.txt")" ] &&
        [ "$(cksum <"$tmp/p5m_input.txt" | awk '{print $1}')" = "3258302622" ]; then
        pass; else fail "wc input: not the expected bytes ($(cksum <"$tmp/p5m_input.txt"))"; fi
    if [ "$("$tmp/p5m_wc" "$tmp/p5m_input.txt")" = "   4036   15363  105196 $tmp/p5m_input.txt" ] &&
        [ "$("$tmp/p5m_wc" <"$tmp/p5m_input.txt")" = "   4036   15363  105196" ] &&
        [ "$(wc -w <"$tmp/p5m_input.txt")" = "15363" ]; then
        pass; else fail "traces/wc/wc.c: $("$tmp/p5m_wc" "$tmp/p5m_input.txt")"; fi
    # p5m_calls PROGRAM FUNCTION...: the regions, then the calls to each
    # FUNCTION inside region 1 (0 for a function not in PROGRAM).
    p5m_calls() {
        p5m_program=$1
        shift
        pmubench record -o "$tmp/p5m_wc.trace" -- "$p5m_program" "$tmp/p5m_wc.in" >/dev/null 2>&1
        pmubench trace dump "$tmp/p5m_wc.trace" | awk -v names="$*" -v syms="$(nm "$p5m_program")" '
            BEGIN {
                n_names = split(names, name, " ")
                n_syms = split(syms, line, "\n")
                for (i = 1; i <= n_syms; i++) {
                    split(line[i], f, " ")
                    sub(/^0+/, "", f[1])
                    for (k = 1; k <= n_names; k++) if (f[3] == name[k]) addr["0x" f[1]] = k
                }
            }
            /^region begin 1/ { on = 1; n++; next } /^region end 1/ { on = 0; next }
            on { for (i = 1; i < NF; i++) if ($i == "taken" && ($(i + 1) in addr)) calls[addr[$(i + 1)]]++ }
            END { printf "%d", n; for (k = 1; k <= n_names; k++) printf " %d", calls[k] }'
    }
    if [ -x "$build/recorder/pmutrace-amd64-linux" ] &&
        cc -static -std=c11 -O2 -I. traces/wc/wc.c -o "$tmp/p5m_wc_static" 2>/dev/null &&
        cc -static -std=c11 -O2 -I. -DWC_LOCKED_GETC traces/wc/wc.c -o "$tmp/p5m_wc_getc" 2>/dev/null; then
        head -c 2000 "$tmp/p5m_input.txt" >"$tmp/p5m_wc.in"
        p5m_got=$(p5m_calls "$tmp/p5m_wc_getc" getc)
        if [ "$p5m_got" = "1 2001" ]; then pass; else fail "wc-getc region 1: regions and getc calls '$p5m_got'"; fi
        # glibc reads a file in buffers of its st_blksize (BUFSIZ when 0).
        p5m_block=$(stat -c %o "$tmp/p5m_wc.in")
        [ "$p5m_block" -gt 0 ] || p5m_block=8192
        p5m_want="1 0 0 $(((2000 + p5m_block - 1) / p5m_block + 1))"
        p5m_got=$(p5m_calls "$tmp/p5m_wc_static" getc getc_unlocked __uflow)
        if [ "$p5m_got" = "$p5m_want" ] && ! nm "$tmp/p5m_wc_static" | grep -q ' getc_unlocked$'; then
            pass; else fail "wc region 1: regions, getc, getc_unlocked, __uflow calls '$p5m_got', not '$p5m_want'"; fi
    fi
fi
