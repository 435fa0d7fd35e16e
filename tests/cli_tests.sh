# Command-line tests, sourced by run_tests.sh (uses $build, $wrapper, $tmp,
# pass and fail).  Each checks an exit status and the exact message.

pmubench() { $wrapper "$build/pmubench" "$@"; }

# expect STATUS "STDERR" -- ARGS...: runs pmubench ARGS, checks both.
expect() {
    want_status=$1 want_err=$2
    shift 3
    pmubench "$@" >"$tmp/cli.out" 2>"$tmp/cli.err"
    status=$?
    got_err=$(cat "$tmp/cli.err")
    if [ "$status" -ne "$want_status" ]; then
        fail "pmubench $*: exit status $status, expected $want_status ($got_err)"
    elif [ "$got_err" != "$want_err" ]; then
        fail "pmubench $*: stderr '$got_err', expected '$want_err'"
    else
        pass
    fi
}

expect 2 "pmubench: unknown command 'frobnicate' (try 'pmubench --help')" -- frobnicate
expect 0 "" -- --help
expect 0 "" -- run --help
expect 2 "pmubench run: unknown option '--bogus'
$(pmubench run --help)" -- run --bogus x.pmu
expect 2 "pmubench run: --vcd needs a value" -- run tests/bench/demo.pmu --vcd
expect 2 "pmubench run: one script at a time ('a.pmu' and 'b.pmu')" -- run a.pmu b.pmu
expect 2 "pmubench run: --vcd needs the simulated PMU, not --msr-device" -- \
    run tests/bench/demo.pmu --vcd "$tmp/x.vcd" --msr-device /dev/null
expect 2 "tests/no/such.pmu: cannot open: No such file or directory" -- run tests/no/such.pmu

# No arguments: the usage on stderr, status 2.
pmubench >/dev/null 2>"$tmp/cli.err"
if [ $? -eq 2 ] && grep -q '^usage: pmubench COMMAND' "$tmp/cli.err"; then pass; else fail "pmubench without arguments"; fi

# A script on standard input.
printf 'cpu p5\nwrmsr CESR 0x1c0\ntick 3\nrdmsr CTR0\n' >"$tmp/p5.pmu"
if [ "$(pmubench run - <"$tmp/p5.pmu")" = "@3 rdmsr 0x12 = 0x0000000000000003" ]; then pass; else fail "run - (stdin)"; fi
printf 'cpu p5\nbogus\n' >"$tmp/bad.pmu"
expect 2 "<stdin>:2: unknown statement 'bogus' (expected cpu, wrmsr, rdmsr, rdpmc, thread, event or tick)" -- run - <"$tmp/bad.pmu"

# An unwritable waveform: status 1, nothing left behind.
expect 1 "$tmp/none/x.vcd: cannot create: No such file or directory" -- \
    run tests/bench/demo.pmu --vcd "$tmp/none/x.vcd"

# The recording backend: one line per access.
printf 'cpu netburst\nwrmsr MSR_IQ_CCCR0 0x3b000\nrdmsr 0x36c\nwrmsr 0x3bf 1\nrdmsr 0x3e2\n' >"$tmp/rec.pmu"
expect 0 "" -- run "$tmp/rec.pmu" --record "$tmp/rec.log"
cat >"$tmp/rec.want" <<'LOG'
wrmsr cpu=0 0x36c 0x000000000003b000 ok
rdmsr cpu=0 0x36c 0x000000000003b000 ok
wrmsr cpu=0 0x3bf 0x0000000000000001 #GP
rdmsr cpu=0 0x3e2 0x0000000000000000 #GP
LOG
if diff -u "$tmp/rec.want" "$tmp/rec.log"; then pass; else fail "--record log"; fi

# The Linux msr backend: a missing device is one clear line and status 1.
printf 'cpu netburst\nrdmsr MSR_IQ_CCCR0\n' >"$tmp/rd.pmu"
expect 1 "$tmp/rd.pmu:2: rdmsr 0x36c: cannot open $tmp/nodev/0/msr: No such file or directory (load the msr driver: modprobe msr)" -- \
    run "$tmp/rd.pmu" --msr-device "$tmp/nodev/%d/msr"

# ... a regular file stands in for the device: reads come from offset = MSR.
printf 'cpu netburst\nrdmsr MSR_IQ_CCCR0\nrdmsr MSR_IQ_COUNTER5\n' >"$tmp/rd.pmu"
head -c 4096 /dev/zero >"$tmp/msrfile"
printf '\001\002\003\004\005\006\007\010' | dd of="$tmp/msrfile" bs=1 seek=$((0x36c)) conv=notrunc 2>/dev/null
expect 0 "" -- run "$tmp/rd.pmu" --msr-device "$tmp/msrfile"
if [ "$(cat "$tmp/cli.out")" = "@0 rdmsr 0x36c = 0x0807060504030201
@0 rdmsr 0x311 = 0x0000000000000000" ]; then pass; else fail "msr stand-in read: $(cat "$tmp/cli.out")"; fi

# ... a non-PMU MSR is refused before the device is touched.
printf 'cpu netburst\nrdmsr 0x10\n' >"$tmp/rd.pmu"
expect 1 "$tmp/rd.pmu:2: rdmsr 0x10: refusing to read MSR 0x10: not a family 15 (NetBurst) PMU MSR" -- \
    run "$tmp/rd.pmu" --msr-device "$tmp/msrfile"

# ... writes need CPUID to say Pentium 4; this machine is not one, so the
# write is refused and the file is unchanged.
printf 'cpu netburst\nwrmsr MSR_IQ_CCCR0 0x3b000\n' >"$tmp/wr.pmu"
cp "$tmp/msrfile" "$tmp/msrfile.before"
pmubench run "$tmp/wr.pmu" --msr-device "$tmp/msrfile" >/dev/null 2>"$tmp/cli.err"
status=$?
if [ $status -eq 1 ] && grep -q "^$tmp/wr.pmu:2: wrmsr 0x36c: refusing to write MSRs: CPUID reports .* not a GenuineIntel family 15 (NetBurst) processor$" "$tmp/cli.err" \
    && cmp -s "$tmp/msrfile" "$tmp/msrfile.before"; then
    pass
else
    fail "msr write refusal (status $status): $(cat "$tmp/cli.err")"
fi

# ... and only register accesses may run on hardware.
printf 'cpu netburst\nrdmsr MSR_IQ_CCCR0\ntick\n' >"$tmp/hw.pmu"
expect 2 "$tmp/hw.pmu:3: 'tick' needs the simulated PMU; on a real MSR device a script may only use cpu, wrmsr and rdmsr" -- \
    run "$tmp/hw.pmu" --msr-device "$tmp/msrfile"

# The waveform and the record log cannot be the same file.
expect 2 "pmubench run: --vcd and --record name the same file '$tmp/same'" -- \
    run tests/bench/demo.pmu --vcd "$tmp/same" --record "$tmp/same"

# A failing run prints none of its statement output: the read before the
# refused one is not shown.
printf 'cpu netburst\nrdmsr MSR_IQ_CCCR0\nrdmsr 0x10\n' >"$tmp/half.pmu"
expect 1 "$tmp/half.pmu:3: rdmsr 0x10: refusing to read MSR 0x10: not a family 15 (NetBurst) PMU MSR" -- \
    run "$tmp/half.pmu" --msr-device "$tmp/msrfile"
if [ -s "$tmp/cli.out" ]; then fail "a failed run printed: $(cat "$tmp/cli.out")"; else pass; fi

# A stand-in shorter than the MSR offset: no such MSR, a #GP.
printf 'cpu netburst\nrdmsr MSR_IQ_CCCR0\nrdmsr MSR_IQ_CCCR1\n' >"$tmp/short.pmu"
head -c $((0x36d)) /dev/zero >"$tmp/short"
expect 0 "" -- run "$tmp/short.pmu" --msr-device "$tmp/short"
if [ "$(cat "$tmp/cli.out")" = "@0 rdmsr 0x36c #GP
@0 rdmsr 0x36d #GP" ]; then pass; else fail "short stand-in: $(cat "$tmp/cli.out")"; fi
