# Command-line tests, sourced by run_tests.sh (uses $build, $wrapper, $tmp,
# pass and fail).  Each checks an exit status and the exact message.

pmubench() { $wrapper "$build/pmubench" "$@"; }

# expect STATUS "STDERR" -- ARGS...: runs pmubench ARGS, checks both.
# Most tests simulate 64-bit traces on machines without IA-32e mode: their
# one warning line (docs/stat.md, "64-bit traces") is set aside unless the
# expected message names it; expect_exact compares the whole of stderr,
# for the tests of that warning and of its absence.
expect() {
    expect_stderr filtered "$@"
}
expect_exact() {
    expect_stderr exact "$@"
}
# expect_usage "pmubench COMMAND: MESSAGE" -- ARGS...: an argument error
# (docs/exit-status.md): status 2, the message and "try 'pmubench COMMAND
# --help'".
expect_usage() {
    usage_message=$1
    shift
    usage_command=$(printf '%s\n' "$usage_message" | sed -n '1s/^\(pmubench[^:]*\):.*/\1/p')
    expect 2 "$usage_message
try '$usage_command --help'" "$@"
}
expect_stderr() {
    how=$1 want_status=$2 want_err=$3
    shift 4
    pmubench "$@" >"$tmp/cli.out" 2>"$tmp/cli.err"
    status=$?
    # The warning about instructions without a timing row depends on the
    # machine's compiler and C library (recorded programs); it has tests of
    # its own (cli_stat.sh), which name it in the expected message.
    case $want_err in
    *"no timing row"*) got_err=$(cat "$tmp/cli.err") ;;
    *) got_err=$(grep -v "^pmubench [a-z0-9]*: warning: .*: [0-9]* of [0-9]* instructions have no timing row" "$tmp/cli.err") ;;
    esac
    case $how:$want_err in
    exact:* | *"64-bit code, which"*) ;;
    *) got_err=$(printf '%s\n' "$got_err" | grep -v "^pmubench [a-z0-9]*: warning: .*: 64-bit code, which .* could not run (it has no IA-32e mode)") ;;
    esac
    if [ "$status" -ne "$want_status" ]; then
        fail "pmubench $*: exit status $status, expected $want_status ($got_err)"
    elif [ "$got_err" != "$want_err" ]; then
        fail "pmubench $*: stderr '$got_err', expected '$want_err'"
    else
        pass
    fi
}

# trace_shows TRACE PATTERN WHAT: `trace info --json TRACE` matches the
# grep pattern PATTERN (e.g. its END record), or WHAT fails.
# svg_renders SVG WHAT [RRGGBB...]: rsvg-convert renders SVG (charts/bar_chart.h's
# 880 pixels wide) to a PNG that is not blank (many colours: text, grid, bars)
# and has 50 pixels or more of each colour given (the bars of each series).
svg_renders() {
    plot_svg=$1 plot_what=$2
    shift 2
    if ! rsvg-convert -f png -o "$tmp/plot.png" "$plot_svg" 2>"$tmp/plot.err"; then
        fail "$plot_what: rsvg-convert: $(cat "$tmp/plot.err")"; return
    fi
    # shellcheck disable=SC2046 # the counts are words
    set -- $("$build/tests/png_pixels" "$tmp/plot.png" "$@")
    plot_width=$1 plot_height=$2 plot_colours=$3
    shift 3
    plot_few=
    for plot_pixels; do [ "$plot_pixels" -ge 50 ] || plot_few=$plot_pixels; done
    if [ "$plot_width" = 880 ] && [ "$plot_height" -ge 100 ] && [ "$plot_colours" -ge 16 ] &&
        [ -z "$plot_few" ]; then
        pass; else fail "$plot_what: rendered ${plot_width}x$plot_height, $plot_colours colours, a bar colour $plot_few pixels"; fi
}

trace_shows() {
    if pmubench trace info --json "$1" | grep -q "$2"; then
        pass
    else
        fail "$3: $(pmubench trace info --json "$1" 2>&1)"
    fi
}

expect_usage "pmubench: unknown command 'frobnicate'" -- frobnicate
expect 0 "" -- --help
# The release and the trace format version (TRACE_VERSION: the one the
# writer writes and the reader accepts).
for option in --version -V; do
    expect 0 "" -- $option
    if [ "$(cat "$tmp/cli.out")" = "pmubench 0.11.0 (trace format 2)" ]; then
        pass; else fail "pmubench $option: '$(cat "$tmp/cli.out")'"; fi
done
expect 0 "" -- run --help
expect_usage "pmubench run: unknown option '--bogus'" -- run --bogus x.pmu
expect_usage "pmubench run: --vcd needs a value" -- run tests/bench/demo.pmu --vcd
expect_usage "pmubench run: one script at a time ('a.pmu' and 'b.pmu')" -- run a.pmu b.pmu
expect_usage "pmubench run: --vcd needs the simulated PMU, not --msr-device" -- \
    run tests/bench/demo.pmu --vcd "$tmp/x.vcd" --msr-device /dev/null
expect 2 "tests/no/such.pmu: cannot open: No such file or directory" -- run tests/no/such.pmu

# No arguments: the usage on stderr, status 2.
pmubench >/dev/null 2>"$tmp/cli.err"
if [ $? -eq 2 ] && grep -q '^usage: pmubench COMMAND' "$tmp/cli.err"; then pass; else fail "pmubench without arguments"; fi

# A script on standard input.
printf 'cpu p5\nwrmsr CESR 0x1c0\ntick 3\nrdmsr CTR0\n' >"$tmp/p5.pmu"
if [ "$(pmubench run - <"$tmp/p5.pmu")" = "@3 rdmsr 0x12 = 0x0000000000000003" ]; then pass; else fail "run - (stdin)"; fi
printf 'cpu p5\nbogus\n' >"$tmp/bad.pmu"
expect 2 "<stdin>:2: unknown statement 'bogus' (expected cpu, wrmsr, rdmsr, rdpmc, thread, event, tick, wrmem, rdmem, retire or interrupt)" -- run - <"$tmp/bad.pmu"

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
expect 2 "pmubench run: --vcd '$tmp/same' and --record '$tmp/same' are the same file" -- \
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

# ---- encode, decode, list: the perfex examples of section 11.1 of the Pentium 4 monitoring study
# (docs/study-examples.md, "Section 11.1 as encode/decode tests").  Every
# expected value is the study's, checked by hand against the SDM field
# layouts (pmu/catalog/netburst_fields.h).

# decode_has STATUS "ARGS" LINE...: `pmubench decode ARGS` exits STATUS,
# prints nothing on stderr, and prints each LINE (a fixed string) as a line
# of its own.
decode_has() {
    want_status=$1 args=$2
    shift 2
    # shellcheck disable=SC2086
    pmubench decode $args >"$tmp/dec.out" 2>"$tmp/dec.err"
    status=$?
    if [ "$status" -ne "$want_status" ] || [ -s "$tmp/dec.err" ]; then
        fail "pmubench decode $args: exit status $status, expected $want_status ($(cat "$tmp/dec.err"))"
        return
    fi
    for line in "$@"; do
        if ! grep -qxF -- "$line" "$tmp/dec.out"; then
            fail "pmubench decode $args: no line '$line' in:
$(cat "$tmp/dec.out")"
            return
        fi
    done
    pass
}

# perfex_norm "ARGS": perfex arguments in a canonical form, one per line,
# sorted: CCCR/ESCR pairs as %X without the counter (encode picks the first
# counter of the event, the study another), --p4pe/--p4pmv values as %X.
perfex_norm() {
    for tok in $1; do
        case $tok in
            -e) ;;
            --p4pe=*) printf 'pe=%X\n' $((${tok#--p4pe=})) ;;
            --p4pmv=*) printf 'pmv=%X\n' $((${tok#--p4pmv=})) ;;
            */*@*)
                c=${tok%%/*} r=${tok#*/}
                r=${r%@*}
                printf '%X/%X\n' $((c)) $((r)) ;;
            *) printf '?%s\n' "$tok" ;;
        esac
    done | sort
}

# encode_is "ENCODE ARGS" "PERFEX ARGS": `pmubench encode --perfex ENCODE
# ARGS` prints the register values of the perfex command line.
encode_is() {
    # shellcheck disable=SC2086
    got=$(pmubench encode --perfex $1 2>&1)
    status=$?
    if [ "$status" -ne 0 ]; then
        fail "pmubench encode --perfex $1: exit status $status ($got)"
    elif [ "$(perfex_norm "$got")" != "$(perfex_norm "$2")" ]; then
        fail "pmubench encode --perfex $1: '$got', expected the values of '$2'"
    else
        pass
    fi
}

# 9.4 / 11.1: replay tagging, 1stL_cache_load_miss_retired
# (HT, model 2).  perfex -e 0x0003B000/0x1200020C@0x8000000C
# --p4pe=0x01000001 --p4pmv=0x1: replay_event NBOGUS, T0_OS|T0_USR on
# CRU_ESCR2 (counter 12, select 5); PEBS_ENABLE bits 0 and 24, bit 25 left
# clear on purpose (as 9.4 explains); MATRIX_VERT bit 0.  The command line
# agrees with the listing.
decode_has 0 "0x0003B000/0x1200020C@0x8000000C --pebs-enable 0x01000001 --matrix-vert 0x1" \
    "ESCR 0x000000001200020c (MSR_CRU_ESCR2, 0x3cc)" \
    "  event select 0x09  replay_event" \
    "  event mask   0x0001  NBOGUS" \
    "  tag value 0  tag enable 0" \
    "  T0_OS 1  T0_USR 1  T1_OS 0  T1_USR 0" \
    "CCCR 0x000000000003b000 (MSR_IQ_CCCR0, counter 12)" \
    "  ENABLE 1  ESCR select 5 (MSR_CRU_ESCR2)  ACTIVE_THREAD 11 (any)" \
    "  COMPARE 0  COMPLEMENT 0  THRESHOLD 0  EDGE 0" \
    "IA32_PEBS_ENABLE 0x0000000001000001" \
    "  metric bits 0x00001  UOP_TAG (24) 1  ENABLE_PEBS (25) 0" \
    "MSR_PEBS_MATRIX_VERT 0x0000000000000001" \
    "verdict: valid"
# ... the Intel table's bit 25, which the study leaves out: a warning, which
# fails only with --strict.
decode_has 0 "0x0003B000/0x1200020C@0x8000000C --pebs-enable 0x03000001 --matrix-vert 0x1" \
    "  metric bits 0x00001  UOP_TAG (24) 1  ENABLE_PEBS (25) 1" \
    "verdict: valid with warnings (0 errors, 1 warning)" \
    "  warning: IA32_PEBS_ENABLE bit 25 (ENABLE_PEBS) set: precise sampling, not just replay tagging; the Pentium 4 monitoring study (section 9.4) reports suspicious counts with it"
decode_has 1 "--strict 0x0003B000/0x1200020C@0x8000000C --pebs-enable 0x03000001 --matrix-vert 0x1" \
    "verdict: invalid (0 errors, 1 warning)"
encode_is "netburst::1stL_cache_load_miss_retired:t0" \
    "-e 0x0003B000/0x1200020C@0x8000000C --p4pe=0x01000001 --p4pmv=0x1"
encode_is "netburst::replay_event:NBOGUS:t0" "-e 0x0003B000/0x1200020C@0x8000000C"

# 9.1 / 11.1: branch_retired MMTP|MMTM, user mode, thread
# 0, more than 2 per cycle (HT).  Listing: ESCR 0x0C001804, CCCR 0x0027B000
# on counter 14 (select 5 reaches CRU_ESCR3).
decode_has 0 "0x0027B000/0x0C001804@0x8000000E" \
    "ESCR 0x000000000c001804 (MSR_CRU_ESCR3, 0x3cd)" \
    "  event select 0x06  branch_retired" \
    "  event mask   0x000c  MMTP  MMTM" \
    "  tag value 0  tag enable 0" \
    "  T0_OS 0  T0_USR 1  T1_OS 0  T1_USR 0" \
    "CCCR 0x000000000027b000 (MSR_IQ_CCCR2, counter 14)" \
    "  ENABLE 1  ESCR select 5 (MSR_CRU_ESCR3)  ACTIVE_THREAD 11 (any)" \
    "  COMPARE 1  COMPLEMENT 0  THRESHOLD 2  EDGE 0" \
    "verdict: valid"
encode_is "netburst::branch_retired:MMTP:MMTM:u=1:t0:thr=2" "-e 0x0027B000/0x0C001804@0x8000000E"
# The study's command line, "perfex -e 0x00039000/0x0200020A@0x8000000E",
# contradicts the listing: the listing is right, because it is what the text
# derives field by field (select 06H, MMTP|MMTM, T0_USR, COMPARE, threshold
# 2, select 5).  The command line's CCCR has ESCR select 4 and no COMPARE;
# on counter 14 select 4 reads CRU_ESCR1, where 0x0200020A is event 01H
# (uops_retired) NBOGUS with T0_OS|T1_OS: kernel-mode retired uops of both
# threads, a valid configuration of another event.
decode_has 0 "0x00039000/0x0200020A@0x8000000E" \
    "ESCR 0x000000000200020a (MSR_CRU_ESCR1, 0x3b9)" \
    "  event select 0x01  uops_retired" \
    "  event mask   0x0001  NBOGUS" \
    "  T0_OS 1  T0_USR 0  T1_OS 1  T1_USR 0" \
    "  ENABLE 1  ESCR select 4 (MSR_CRU_ESCR1)  ACTIVE_THREAD 11 (any)" \
    "  COMPARE 0  COMPLEMENT 0  THRESHOLD 0  EDGE 0" \
    "verdict: valid"
encode_is "netburst::uops_retired:NBOGUS:k=1" "-e 0x00039000/0x0200020A@0x8000000E"

# 9.2 / 11.1: front-end tagging, memory_loads (HT, user
# mode on both threads).  uop_type TAGLOADS on RAT_ESCR1 (counter 14,
# select 2) = 0x04000405 / 0x00035000; front_end_event NBOGUS on CRU_ESCR3
# (counter 15, select 5) = 0x10000205 / 0x0003B000.
decode_has 0 "0x00035000/0x04000405@0x8000000E" \
    "ESCR 0x0000000004000405 (MSR_RAT_ESCR1, 0x3bd)" \
    "  event select 0x02  uop_type" \
    "  event mask   0x0002  TAGLOADS" \
    "  T0_OS 0  T0_USR 1  T1_OS 0  T1_USR 1" \
    "  ENABLE 1  ESCR select 2 (MSR_RAT_ESCR1)  ACTIVE_THREAD 11 (any)" \
    "verdict: valid"
decode_has 0 "0x0003B000/0x10000205@0x8000000F" \
    "ESCR 0x0000000010000205 (MSR_CRU_ESCR3, 0x3cd)" \
    "  event select 0x08  front_end_event" \
    "  event mask   0x0001  NBOGUS" \
    "  T0_OS 0  T0_USR 1  T1_OS 0  T1_USR 1" \
    "CCCR 0x000000000003b000 (MSR_IQ_CCCR3, counter 15)" \
    "verdict: valid"
encode_is "netburst::uop_type:TAGLOADS:u=1" "-e 0x00035000/0x04000405@0x8000000E"
encode_is "netburst::front_end_event:NBOGUS:u=1" "-e 0x0003B000/0x10000205@0x8000000F"
encode_is "netburst::memory_loads:u=1" \
    "-e 0x00035000/0x04000405@0x8000000E -e 0x0003B000/0x10000205@0x8000000F"
# The study's command line gives the uop_type ESCR as 0x04000205: wrong,
# the listing's 0x04000405 is right (TAGLOADS is mask bit 1 = ESCR bit 10,
# as the text of 9.2 says and the SDM's uop_type row).
# 0x04000205 sets mask bit 0, which uop_type does not define: nothing is
# tagged, so front_end_event would count nothing.
decode_has 1 "0x00035000/0x04000205@0x8000000E" \
    "  event select 0x02  uop_type" \
    "  event mask   0x0001" \
    "verdict: invalid (1 error, 0 warnings)" \
    "  error: event mask bits 0x0001 are not defined by uop_type"
# perfex cannot give two events one counter (section 11, the -e option): the
# upstream and the counting event of a front-end metric need two counters.
got=$(pmubench encode --perfex netburst::memory_loads:u=1)
pmcs=$(echo "$got" | tr ' ' '\n' | sed -n 's/.*@//p' | sort -u | wc -l)
if [ "$pmcs" -eq 2 ]; then pass; else fail "encode --perfex netburst::memory_loads:u=1 puts both events on one counter: $got"; fi

# 9.3 / 11.1: execution tagging, x87_FP_retired (NO
# Hyper-Threading, user mode: --ht off).  x87_FP_uop ALL, tag 0001, tag
# enable, T0_USR on FIRM_ESCR0 (counter 8, select 1) = 0x09000034 /
# 0x00033000; execution_event NBOGUS0, T0_USR on CRU_ESCR2 (counter 12,
# select 5) = 0x18000204 / 0x0003B000.
decode_has 0 "--ht off 0x00033000/0x09000034@0x80000008" \
    "ESCR 0x0000000009000034 (MSR_FIRM_ESCR0, 0x3a4)" \
    "  event select 0x04  x87_FP_uop" \
    "  event mask   0x8000  ALL" \
    "  tag value 1  tag enable 1" \
    "  T0_OS 0  T0_USR 1  T1_OS 0  T1_USR 0" \
    "CCCR 0x0000000000033000 (MSR_FLAME_CCCR0, counter 8)" \
    "  ENABLE 1  ESCR select 1 (MSR_FIRM_ESCR0)  ACTIVE_THREAD 11 (any)" \
    "verdict: valid"
decode_has 0 "--ht off 0x0003B000/0x18000204@0x8000000C" \
    "ESCR 0x0000000018000204 (MSR_CRU_ESCR2, 0x3cc)" \
    "  event select 0x0c  execution_event" \
    "  event mask   0x0001  NBOGUS0" \
    "  T0_OS 0  T0_USR 1  T1_OS 0  T1_USR 0" \
    "  ENABLE 1  ESCR select 5 (MSR_CRU_ESCR2)  ACTIVE_THREAD 11 (any)" \
    "verdict: valid"
encode_is "--ht off netburst::x87_FP_uop:ALL:u=1:tag=1" "-e 0x00033000/0x09000034@0x80000008"
encode_is "--ht off netburst::x87_FP_uop:ALL:TAG0:u=1" "-e 0x00033000/0x09000034@0x80000008"
encode_is "--ht off netburst::execution_event:NBOGUS0:u=1" "-e 0x0003B000/0x18000204@0x8000000C"
encode_is "--ht off netburst::x87_FP_retired:u=1" \
    "-e 0x00033000/0x09000034@0x80000008 -e 0x0003B000/0x18000204@0x8000000C"
# The study's command line has the upstream ESCR 0x18008035: wrong, the
# listing's 0x09000034 is right (x87_FP_uop 04H, ALL = mask bit 15 = ESCR
# bit 24, tag 0001, T0_USR, derived in the text of 9.3).  0x18008035 is
# select 0CH (on FIRM_ESCR0: packed_DP_uop), mask bit 6 (undefined: ALL's
# 0x8000 not shifted by 9), tag 0001 with enable, T0_USR|T1_USR; without HT
# the T1 bit is reserved (#GP).
decode_has 1 "--ht off 0x00033000/0x18008035@0x80000008" \
    "ESCR 0x0000000018008035 (MSR_FIRM_ESCR0, 0x3a4)" \
    "  event select 0x0c  packed_DP_uop" \
    "  event mask   0x0040" \
    "  tag value 1  tag enable 1" \
    "  T0_OS 0  T0_USR 1  T1_OS 0  T1_USR 1" \
    "verdict: invalid (2 errors, 0 warnings)" \
    "  error: T1_OS/T1_USR set on a processor without Hyper-Threading (reserved: #GP)" \
    "  error: event mask bits 0x0040 are not defined by packed_DP_uop"
# ... and its execution_event ESCR 0x18000205 (the listing's hex): the
# binary, 0x18000204, is right; the hex adds T1_USR, reserved
# without HT.  On an HT part it is valid (and also counts thread 1).
decode_has 1 "--ht off 0x0003B000/0x18000205@0x8000000C" \
    "  event select 0x0c  execution_event" \
    "  T0_OS 0  T0_USR 1  T1_OS 0  T1_USR 1" \
    "verdict: invalid (1 error, 0 warnings)" \
    "  error: T1_OS/T1_USR set on a processor without Hyper-Threading (reserved: #GP)"
decode_has 0 "0x0003B000/0x18000205@0x8000000C" "verdict: valid"
# ... and the listing's execution_event CCCR 0x00033000, a copy
# of the upstream's: the text's select 5 (0x0003B000, the command line's) is
# right; select 1 on counter 12 reads ALF_ESCR0, which has no event 0CH.
decode_has 1 "--ht off 0x00033000/0x18000204@0x8000000C" \
    "  ENABLE 1  ESCR select 1 (MSR_ALF_ESCR0)  ACTIVE_THREAD 11 (any)" \
    "verdict: invalid (1 error, 0 warnings)" \
    "  error: event select 0x0c is not defined on MSR_ALF_ESCR0 (defined there: resource_stall 0x01)"

# encode --json: the exact output for two events.
expect 0 "" -- encode --json netburst::branch_retired:MMTP:MMTM:u=1:t0:thr=2 \
    netburst::1stL_cache_load_miss_retired:t0
cat >"$tmp/json.want" <<'JSON'
[{"event": "netburst::branch_retired:MMTP:MMTM:u=1:t0:thr=2", "escr_name": "MSR_CRU_ESCR2", "escr_msr": "0x3cc", "escr": "0xc001804", "cccr": "0x27b000", "counters": [12, 13, 14, 15, 16, 17], "extra_msrs": {}},
 {"event": "netburst::1stL_cache_load_miss_retired:t0", "escr_name": "MSR_CRU_ESCR2", "escr_msr": "0x3cc", "escr": "0x1200020c", "cccr": "0x3b000", "counters": [12, 13, 14, 15, 16, 17], "extra_msrs": {"0x3f1": "0x1000001", "0x3f2": "0x1"}}]
JSON
if diff -u "$tmp/json.want" "$tmp/cli.out"; then pass; else fail "encode --json of two events"; fi

# list: the catalogs.
expect 0 "" -- list netburst
if grep -qx 'netburst::branch_retired' "$tmp/cli.out" && grep -qx 'netburst::1stL_cache_load_miss_retired' "$tmp/cli.out" &&
    ! grep -q '^p5::' "$tmp/cli.out"; then pass; else fail "list netburst"; fi
expect 0 "" -- list p5
if grep -qx 'p5::data_read_miss' "$tmp/cli.out" && ! grep -q '^netburst::' "$tmp/cli.out"; then pass; else fail "list p5"; fi

# Bad inputs: one line on stderr, exit status 2, nothing on stdout.
expect_bad() {
    expect 2 "$@"
    if [ -s "$tmp/cli.out" ]; then shift 2; fail "pmubench $*: printed output although it failed"; else pass; fi
}
expect_bad_usage() {
    expect_usage "$@"
    if [ -s "$tmp/cli.out" ]; then shift 2; fail "pmubench $*: printed output although it failed"; else pass; fi
}
expect_bad "pmubench encode: netburst::nope: unknown NetBurst event 'nope' ('pmubench list netburst' shows the events and tagging metrics)" -- \
    encode netburst::nope
expect_bad "pmubench encode: netburst::branch_retired:FOO: unknown sub-event or modifier 'FOO' of branch_retired (sub-events: MMNP, MMNM, MMTP, MMTM; modifiers: k, u, e, cmpl, thr, t0, t1, at, ovf_pmi, force_ovf, tag, pebs)" -- \
    encode netburst::branch_retired:MMTP netburst::branch_retired:FOO
expect_bad "pmubench encode: netburst::branch_retired:MMTP:k=2: bad value in 'k=2' (expected 0, 1, y, n, t or f)" -- \
    encode netburst::branch_retired:MMTP:k=2
expect_bad "pmubench encode: netburst::branch_retired:MMTP:thr=16: bad thr '16' (expected a number: decimal or 0x hex, 0 to 15)" -- \
    encode --perfex netburst::branch_retired:MMTP:thr=16
expect_bad "pmubench encode: netburst::branch_retired:MMTP:at=foo: bad value in 'at=foo' (expected one of none, single, both, any)" -- \
    encode --json netburst::branch_retired:MMTP:at=foo
expect_bad "pmubench encode: netburst::branch_retired::MMTP: empty field between ':' separators" -- \
    encode netburst::branch_retired::MMTP
expect_bad "pmubench encode: netburst::branch_retired:MMTP:: empty field between ':' separators" -- \
    encode netburst::branch_retired:MMTP:
expect_bad "pmubench encode: perf::cycles: unknown PMU 'perf' (expected netburst, netburst_p or p5)" -- \
    encode perf::cycles
expect_bad "pmubench encode: netburst::branch_retired:MMTP:t1: ':t1' needs Hyper-Threading (this model runs with ht=off)" -- \
    encode --ht off netburst::branch_retired:MMTP:t1
expect_bad "pmubench encode: netburst::instr_completed:NBOGUS: event instr_completed does not exist on model 2 (it needs netburst_p: models 3, 4, 6)" -- \
    encode netburst::instr_completed:NBOGUS
# A netburst_p:: string chooses the Prescott (model 3) by itself, as the
# prefix chooses the PMU in libpfm4; netburst:: strings count alongside.
# --model still decides, and one that is not netburst_p's is an error.
expect 0 "" -- encode netburst_p::instr_completed:NBOGUS
want='netburst_p::instr_completed:NBOGUS
  event     instr_completed (select 0x07), mask 0x0001
  ESCR      MSR_CRU_ESCR0 (0x3b8) = 0x000000000e00020f, or MSR_CRU_ESCR1 (0x3b9)
  CCCR      0x0000000000039000
  counters  12 13 16 (CRU_ESCR0); 14 15 17 (CRU_ESCR1);'
if [ "$(cat "$tmp/cli.out")" = "$want" ]; then pass; else fail "encode netburst_p:: without --model: $(cat "$tmp/cli.out")"; fi
expect 0 "" -- encode --json netburst::uops_retired:NBOGUS NETBURST_P::instr_completed:bogus
want='[{"event": "netburst::uops_retired:NBOGUS", "escr_name": "MSR_CRU_ESCR0", "escr_msr": "0x3b8", "escr": "0x200020f", "cccr": "0x39000", "counters": [12, 13, 14, 15, 16, 17], "extra_msrs": {}},
 {"event": "NETBURST_P::instr_completed:bogus", "escr_name": "MSR_CRU_ESCR0", "escr_msr": "0x3b8", "escr": "0xe00040f", "cccr": "0x39000", "counters": [12, 13, 14, 15, 16, 17], "extra_msrs": {}}]'
if [ "$(cat "$tmp/cli.out")" = "$want" ]; then pass; else fail "encode --json netburst:: with netburst_p::: $(cat "$tmp/cli.out")"; fi
expect 0 "" -- encode --model 6 netburst_p::instr_completed:NBOGUS
expect_bad "pmubench encode: netburst_p::instr_completed:NBOGUS: netburst_p:: names models 3, 4, 6; it conflicts with model 2" -- \
    encode --model 2 netburst_p::instr_completed:NBOGUS
expect_bad "pmubench alloc: netburst_p::instr_completed:NBOGUS: netburst_p:: names models 3, 4, 6; it conflicts with model 1" -- \
    alloc --model 1 netburst::uops_retired:NBOGUS netburst_p::instr_completed:NBOGUS
expect 0 "" -- alloc --json netburst::uops_retired:NBOGUS netburst_p::instr_completed:NBOGUS
if grep -q '^{"pmu": "netburst", "model": 3, ' "$tmp/cli.out"; then pass; else fail "alloc with netburst_p:: chose no model 3: $(head -c 200 "$tmp/cli.out")"; fi
printf 'netburst::uops_retired:NBOGUS\n\nnetburst_p::instr_completed:NBOGUS\n' >"$tmp/prescott.exp"
expect 0 "" -- alloc --json --exp "$tmp/prescott.exp"
if grep -q '^{"pmu": "netburst", "model": 3, ' "$tmp/cli.out"; then pass; else fail "alloc --exp with netburst_p:: chose no model 3: $(head -c 200 "$tmp/cli.out")"; fi
expect 2 "$tmp/prescott.exp:3: netburst_p::instr_completed:NBOGUS: netburst_p:: names models 3, 4, 6; it conflicts with model 2" -- \
    alloc --model 2 --exp "$tmp/prescott.exp"
# libpfm4's replay_event pseudo sub-events: the replay metric's MSRs (and
# upstream ESCR) in extra_msrs; libpfm4's TYPE_BITn names.
expect 0 "" -- encode --json netburst::replay_event:l1_ld_miss netburst::replay_event:SP_LD_RET
want='[{"event": "netburst::replay_event:l1_ld_miss", "escr_name": "MSR_CRU_ESCR2", "escr_msr": "0x3cc", "escr": "0x1200020f", "cccr": "0x3b000", "counters": [12, 13, 14, 15, 16, 17], "extra_msrs": {"0x3f1": "0x1000001", "0x3f2": "0x1"}},
 {"event": "netburst::replay_event:SP_LD_RET", "escr_name": "MSR_CRU_ESCR2", "escr_msr": "0x3cc", "escr": "0x1200020f", "cccr": "0x3b000", "counters": [12, 13, 14, 15, 16, 17], "extra_msrs": {"0x3af": "0x800040f", "0x3f1": "0x1000400", "0x3f2": "0x1"}}]'
if [ "$(cat "$tmp/cli.out")" = "$want" ]; then pass; else fail "encode --json replay_event pseudo sub-events: $(cat "$tmp/cli.out")"; fi
expect 0 "" -- encode --perfex netburst::IOQ_allocation:TYPE_BIT0:type_bit4:K=y
if [ "$(cat "$tmp/cli.out")" = "-e 0x0003D000/0x0600220A@0x80000000" ]; then pass; else fail "encode TYPE_BITn: $(cat "$tmp/cli.out")"; fi
expect_bad "pmubench encode: p5::nope: unknown P5 event 'nope' ('pmubench list p5' shows the events; p5::clocks counts clocks)" -- \
    encode p5::nope
expect_bad_usage "pmubench encode: bad --model '5' (expected 0, 1, 2, 3, 4 or 6)" -- \
    encode --model 5 netburst::branch_retired:MMTP
expect_bad_usage "pmubench encode: bad --ht 'maybe' (expected on or off)" -- \
    encode --ht maybe netburst::branch_retired:MMTP
expect_bad_usage "pmubench decode: bad --escr 'zz' (expected a number: decimal or 0x hex, 0 to 18446744073709551615)" -- decode --escr zz
expect_bad_usage "pmubench decode: bad --cesr '-1' (expected a number: decimal or 0x hex, 0 to 18446744073709551615)" -- decode --cesr -1
expect_bad_usage "pmubench decode: bad perfex spec '0x3b000/0x1200020c' (expected 0xCCCR/0xESCR@0xPMC)" -- \
    decode 0x3b000/0x1200020c
expect_bad_usage "pmubench decode: bad perfex spec '0x3b000/0x1200020c@0x80000012' (expected 0xCCCR/0xESCR@0xPMC with a counter of 0-17)" -- \
    decode 0x3b000/0x1200020c@0x80000012
expect_bad_usage "pmubench decode: bad --counter '18' (expected a number: decimal or 0x hex, 0 to 17)" -- \
    decode --cccr 0x3b000 --counter 18
expect_bad_usage "pmubench decode: bad --escr-msr '0x300' (expected an ESCR address 0x3a0-0x3e1 or name)" -- \
    decode --escr 0x0c001804 --escr-msr 0x300
expect_bad_usage "pmubench decode: --cesr needs a value" -- decode --cesr
expect_bad_usage "pmubench decode: bad --model '7' (expected 0, 1, 2, 3, 4 or 6)" -- decode --model 7 --cesr 0
expect_bad_usage "pmubench list: unexpected 'x86' (expected --long, netburst or p5)" -- list x86
expect_bad_usage "pmubench list: name one catalog, netburst or p5" -- list netburst p5
# A modifier or an option given twice is an error naming it, never a silent
# last-wins (libpfm4: "attribute value already set").
expect_bad "pmubench encode: netburst::branch_retired:MMTP:k=1:k=0: 'k=0' sets modifier 'k' again to another value (each modifier once)" -- \
    encode netburst::branch_retired:MMTP:k=1:k=0
expect_bad "pmubench encode: netburst::branch_retired:MMTP:thr=3:thr=5: 'thr=5' sets modifier 'thr' again to another value (each modifier once)" -- \
    encode netburst::branch_retired:MMTP:thr=3:thr=5
expect_bad "pmubench alloc: netburst::branch_retired:MMTP:t0:T0=0: 'T0=0' sets modifier 't0' again to another value (each modifier once)" -- \
    alloc netburst::branch_retired:MMTP:t0:T0=0
# The same value again is accepted, as libpfm4 accepts it.
expect 0 "" -- encode netburst::branch_retired:MMTP:k:K
once=$(pmubench encode netburst::branch_retired:MMTP:k | sed 1d)
twice=$(pmubench encode netburst::branch_retired:MMTP:k:K | sed 1d)
if [ -n "$once" ] && [ "$once" = "$twice" ]; then pass; else fail "encode k:K: '$twice', k: '$once'"; fi
expect_bad_usage "pmubench decode: --escr given twice (each option once)" -- decode --escr 1 --escr 2
expect_bad_usage "pmubench decode: --model given twice (each option once)" -- \
    decode --model 2 --escr 1 --model 3
expect_bad_usage "pmubench decode: --strict given twice (each option once)" -- \
    decode --strict --cesr 0 --strict
expect_bad_usage "pmubench encode: --json given twice (each option once)" -- \
    encode --json --json netburst::branch_retired:MMTP
expect_bad_usage "pmubench encode: --ht given twice (each option once)" -- \
    encode --ht on --ht off netburst::branch_retired:MMTP
expect_bad_usage "pmubench alloc: --model given twice (each option once)" -- \
    alloc --model 2 --model 3 netburst::branch_retired:MMTP
expect_bad_usage "pmubench alloc: --exp given twice (each option once)" -- \
    alloc --exp tests/alloc/example.exp --exp tests/alloc/example.exp
expect_bad_usage "pmubench list: --long given twice (each option once)" -- list --long --long
expect_bad_usage "pmubench list: p5 given twice (each option once)" -- list p5 p5
expect_bad_usage "pmubench run: --vcd given twice (each option once)" -- \
    run tests/bench/demo.pmu --vcd "$tmp/a.vcd" --vcd "$tmp/b.vcd"
expect_bad_usage "pmubench run: --record given twice (each option once)" -- \
    run tests/bench/demo.pmu --record "$tmp/a.log" --record "$tmp/b.log"
expect_bad_usage "pmubench compare: --region given twice (each option once)" -- \
    compare --region 1 --region 0 tests/compare/fig4_9.p5mon tests/compare/fig4_9.p5mon
expect_bad_usage "pmubench compare: -x given twice (each option once)" -- \
    compare -x, -x ';' tests/compare/small_sim.json tests/compare/small_perf.csv
expect_bad_usage "pmubench stat: -m given twice (each option once)" -- \
    stat -m p5 -m host --trace "$tmp/none.trace"
expect_bad_usage "pmubench stat: -o given twice (each option once)" -- \
    stat -o "$tmp/a.out" -e data_read -o "$tmp/b.out" --trace "$tmp/none.trace"
expect_bad_usage "pmubench sample: --period given twice (each option once)" -- \
    sample --period 5 --period 6 -e netburst::branch_retired:MMTP --trace "$tmp/none.trace"
expect_bad_usage "pmubench record: -o given twice (each option once)" -- \
    record -o "$tmp/a.trace" -o "$tmp/b.trace" -- true
# A string too long to parse: the one line must say why.
long="netburst::$(printf '%0600d' 0)"
pmubench encode "$long" >"$tmp/cli.out" 2>"$tmp/cli.err"
status=$?
if [ "$status" -eq 2 ] && [ "$(wc -l <"$tmp/cli.err")" -eq 1 ] && [ ! -s "$tmp/cli.out" ] &&
    grep -q 'event string longer than 511 characters$' "$tmp/cli.err"; then
    pass
else
    fail "encode of a 610-character string: status $status, stderr '$(cut -c1-80 "$tmp/cli.err")...'"
fi

# pmubench alloc: bad input is one line naming the event (or file:line) and
# the valid choices, status 2.
expect 0 "" -- alloc --help
expect 2 "pmubench alloc: netburst::bogus: unknown NetBurst event 'bogus' ('pmubench list netburst' shows the events and tagging metrics)" -- \
    alloc netburst::TC_misc:FLUSH netburst::bogus
expect_usage "pmubench alloc: bad --model '5' (expected 0, 1, 2, 3, 4 or 6)" -- alloc --model 5 netburst::TC_misc:FLUSH
expect_usage "pmubench alloc: give events or --exp FILE, not both" -- \
    alloc --exp tests/alloc/example.exp netburst::TC_misc:FLUSH
expect 2 "tests/no/such.exp: cannot open: No such file or directory" -- alloc --exp tests/no/such.exp
expect 2 "pmubench alloc: netburst::1stL_cache_load_miss_retired:pebs:t1: no counter of thread 1's half can count it (with Hyper-Threading each thread has half the counters; docs/alloc.md)" -- \
    alloc netburst::1stL_cache_load_miss_retired:pebs:t1
printf '# two experiments\nnetburst::TC_misc:FLUSH\n\nnetburst::branch_retired:MMTP\nnetburst::branch_retired:MMTQ\n' >"$tmp/bad.exp"
expect 2 "$tmp/bad.exp:5: netburst::branch_retired:MMTQ: unknown sub-event or modifier 'MMTQ' of branch_retired (did you mean 'MMTP'?)" -- \
    alloc --exp "$tmp/bad.exp"
printf 'netburst::TC_misc:FLUSH\n\n# together\nnetburst::branch_retired:MMTP\nnetburst::machine_clear:CLEAR\nnetburst::x87_assist:FPSU\n' >"$tmp/big.exp"
expect 2 "$tmp/big.exp:4: the 3 events of its group cannot count together in one run" -- \
    alloc --exp "$tmp/big.exp"
printf '# nothing\n\n' >"$tmp/empty.exp"
expect 2 "$tmp/empty.exp: no events" -- alloc --exp "$tmp/empty.exp"

# ... the shipped example plans into three runs, as JSON too.
expect 0 "" -- alloc --exp tests/alloc/example.exp
if [ "$(grep -c '^run ' "$tmp/cli.out")" = 3 ]; then pass; else fail "alloc example: $(cat "$tmp/cli.out")"; fi
expect 0 "" -- alloc --json --exp tests/alloc/example.exp
if grep -q '^{"pmu": "netburst", "model": 2, "ht": true, "minimal": true, "runs": \[{"events": \[{"event": "netburst::branch_retired:MMNP:MMNM:MMTP:MMTM", "counter": 12, ' "$tmp/cli.out"; then
    pass
else
    fail "alloc --json: $(head -c 300 "$tmp/cli.out")"
fi

# Bad event specs and decode arguments: each one line, exit status 2.
expect 2 "pmubench encode: netburst::x87_FP_retired:BOGUS0: 'BOGUS0': a tagging metric fixes its sub-events; it takes modifiers only (k, u, e, cmpl, thr, t0, t1, at, ovf_pmi, force_ovf, tag, pebs)" -- \
    encode netburst::x87_FP_retired:BOGUS0
expect_usage "pmubench decode: one perfex spec (or --escr/--cccr) at a time; run decode once per -e argument" -- \
    decode 0x3B000/0x0C001004@0xC 0x3B000/0x0C001004@0xC
expect_usage "pmubench decode: bad perfex spec '0x3B000/0x0C001004@0x10000000C' (expected 0xCCCR/0xESCR@0xPMC with a counter of 0-17)" -- \
    decode 0x3B000/0x0C001004@0x10000000C
expect_usage "pmubench encode: --perfex and --json exclude each other" -- \
    encode --perfex --json netburst::uops_retired:NBOGUS
# An ESCR that detects nothing at all (IX_ESCR0 has no event in the catalog).
pmubench decode 0x3B000/0x0C001004@0x0 >"$tmp/cli.out" 2>&1
if [ $? -eq 1 ] && grep -qx "  error: event select 0x06: no event is defined on MSR_IX_ESCR0" "$tmp/cli.out"; then
    pass; else fail "decode of an ESCR without events: $(cat "$tmp/cli.out")"; fi
# list --long shows the PEBS flag and the P5 errata; p5::clocks only with the P5.
pmubench list --long >"$tmp/cli.out"
if grep -A3 -x "netburst::replay_event" "$tmp/cli.out" | grep -qx "  PEBS-capable" &&
    grep -A2 -x "p5::data_read_miss" "$tmp/cli.out" | grep -qx "  erratum: counts twice for a misaligned access" &&
    [ "$(pmubench list netburst | grep -c clocks)" = 0 ] && [ "$(pmubench list p5 | tail -1)" = "p5::clocks" ]; then
    pass; else fail "list --long flags and errata"; fi

# encode's text and perfex output, worked out by hand:
#  execution_event 0x0c<<25 | NBOGUS0 0x200 | T0_USR|T1_USR 0x5 = 0x18000205;
#  x87_FP_uop 0x04<<25 | ALL 0x8000<<9 | tag 1 <<5 | tag enable 0x10 | 0x5 = 0x09000035;
#  replay_event 0x09<<25 | NBOGUS 0x200 | T0_OS|T0_USR 0xc = 0x1200020c;
#  P5 data_read_miss 0x03 | CC 010<<6 = 0x83; clocks at any CPL: CC 111<<6 = 0x1c0.
pmubench encode netburst::x87_FP_retired:u=1 netburst::1stL_cache_load_miss_retired:t0 \
    p5::data_read_miss:u >"$tmp/cli.out" 2>&1
cat >"$tmp/want" <<'OUT'
netburst::x87_FP_retired:u=1
  event     execution_event (select 0x0c), mask 0x0001
  ESCR      MSR_CRU_ESCR2 (0x3cc) = 0x0000000018000205, or MSR_CRU_ESCR3 (0x3cd)
  CCCR      0x000000000003b000
  counters  12 13 16 (CRU_ESCR2); 14 15 17 (CRU_ESCR3);
  upstream x87_FP_uop:
  ESCR      MSR_FIRM_ESCR0 (0x3a4) = 0x0000000009000035, or MSR_FIRM_ESCR1 (0x3a5)
netburst::1stL_cache_load_miss_retired:t0
  event     replay_event (select 0x09), mask 0x0001
  ESCR      MSR_CRU_ESCR2 (0x3cc) = 0x000000001200020c, or MSR_CRU_ESCR3 (0x3cd)
  CCCR      0x000000000003b000
  counters  12 13 16 (CRU_ESCR2); 14 15 17 (CRU_ESCR3);
  IA32_PEBS_ENABLE (0x3f1) = 0x0000000001000001
  MSR_PEBS_MATRIX_VERT (0x3f2) = 0x0000000000000001
p5::data_read_miss:u
  CESR (0x11) = 0x0000000000000083 on CTR0, 0x0000000000830000 on CTR1
OUT
if diff -u "$tmp/want" "$tmp/cli.out"; then pass; else fail "encode text output"; fi
if [ "$(pmubench encode --perfex p5::clocks netburst::memory_loads)" = "-e 0x000001C0@0x0
-e 0x0003B000/0x1000020F@0x8000000C -e 0x00035000/0x0400040F@0x8000000D" ]; then
    pass; else fail "encode --perfex: P5 and an upstream on its own counter"; fi
if [ "$(pmubench encode --json p5::flops:k)" = '[{"event": "p5::flops:k", "escr_name": "CESR", "escr_msr": "0x11", "escr": "0x62", "cccr": "0x0", "counters": [0, 1], "cesr_ctr1": "0x620000", "extra_msrs": {}}]' ]; then
    pass; else fail "encode --json of a P5 event"; fi

# Traces (docs/traces.md): import, info, dump.
expect 0 "" -- trace import --lackey tests/traces/small.lackey -o "$tmp/small.trace"
expect 0 "" -- trace info --json "$tmp/small.trace"
if [ "$(cat "$tmp/cli.out")" = "{\"file\": \"$tmp/small.trace\", \"program\": \"\", \"args\": \"\", \"recorder\": \"pmubench trace import --lackey\", \"isa\": 64, \"lengths_known\": true, \"registers\": false, \"instructions\": 10, \"branches\": 0, \"taken_branches\": 0, \"loads\": 4, \"stores\": 3, \"regions\": 0, \"end\": \"exited\", \"code\": 0, \"bytes\": 101, \"bytes_per_instruction\": 10.10, \"cpu\": null}" ]; then
    pass; else fail "trace info --json: $(cat "$tmp/cli.out")"; fi
expect 0 "" -- trace dump "$tmp/small.trace"
if diff -u tests/traces/small.lackey.dump "$tmp/cli.out"; then pass; else fail "trace dump"; fi
pmubench trace info "$tmp/small.trace" >"$tmp/cli.out"
if grep -qx "instructions  10" "$tmp/cli.out" && grep -qx "size          101 bytes (10.10 per instruction)" "$tmp/cli.out"; then
    pass; else fail "trace info: $(cat "$tmp/cli.out")"; fi
# ... a version-1 trace (the same import by pmubench 0.11.0) reads the same,
# and converts to the current version, byte for byte the import's.
expect 0 "" -- trace dump tests/traces/small_v1.trace
if diff -u tests/traces/small.lackey.dump "$tmp/cli.out"; then pass; else fail "trace dump of version 1"; fi
pmubench trace info tests/traces/small_v1.trace >"$tmp/cli.out"
if grep -qx "loads         4" "$tmp/cli.out" && grep -qx "size          93 bytes (9.30 per instruction)" "$tmp/cli.out"; then
    pass; else fail "trace info of version 1: $(cat "$tmp/cli.out")"; fi
expect 0 "" -- trace convert tests/traces/small_v1.trace "$tmp/converted.trace"
if cmp -s "$tmp/small.trace" "$tmp/converted.trace"; then pass; else fail "trace convert"; fi
expect_usage "pmubench trace convert: expected a trace and an output file" -- trace convert "$tmp/small.trace"
expect_usage "pmubench trace convert: unknown option '--to'" -- trace convert --to 1 "$tmp/small.trace" "$tmp/x.trace"
expect 2 "pmubench trace convert: OUT '$tmp/converted.trace' and FILE '$tmp/converted.trace' are the same file" -- \
    trace convert "$tmp/converted.trace" "$tmp/converted.trace"
expect 1 "$tmp/none/x.trace: cannot create: No such file or directory" -- \
    trace convert "$tmp/small.trace" "$tmp/none/x.trace"
# ... lackey's output on standard input; Dinero's din format.
pmubench trace import --lackey - -o "$tmp/stdin.trace" <tests/traces/small.lackey
if cmp -s "$tmp/small.trace" "$tmp/stdin.trace"; then pass; else fail "trace import --lackey -"; fi
expect 0 "" -- trace import --dinero tests/traces/small.din -o "$tmp/din.trace"
expect 0 "" -- trace dump "$tmp/din.trace"
if [ "$(cat "$tmp/cli.out")" = "insn 0x4014f0 len 1 thread 0 cpl 3
insn 0x4014f2 len 1 thread 0 cpl 3 load 0x7ffe0660,4 store 0x7ffe0658,8
insn 0x4014f5 len 3 thread 0 cpl 3
insn 0x4027a0 len 1 thread 0 cpl 3 load 0x4c6f40,4
end exited with status 0, 4 instructions" ]; then pass; else fail "trace dump of a din import: $(cat "$tmp/cli.out")"; fi
# ... bad arguments.
expect 2 "$(pmubench trace --help)" -- trace
expect_usage "pmubench trace: unknown subcommand 'show'" -- trace show x
expect_usage "pmubench trace import: one input file at a time (--lackey or --dinero, once)" -- \
    trace import --lackey a --dinero b -o c
expect_usage "pmubench trace import: no output (-o OUT)" -- trace import --lackey tests/traces/small.lackey
expect_usage "pmubench trace import: -o needs a value" -- trace import --lackey a -o
expect_usage "pmubench trace info: unknown option '--yaml'" -- trace info --yaml "$tmp/small.trace"
expect_usage "pmubench trace dump: one trace at a time ('a' and 'b')" -- trace dump a b
# ... bad input: one line, status 2, and no output file left behind.
expect 2 "tests/traces/none.lackey: cannot open: No such file or directory" -- \
    trace import --lackey tests/traces/none.lackey -o "$tmp/none.trace"
printf 'I  1000,4\n L 2000,4\nI  1004,16\n' >"$tmp/bad.lackey"
echo "an older trace" >"$tmp/kept.trace"
expect 2 "$tmp/bad.lackey:3: instruction size 16 (expected 1-15)" -- \
    trace import --lackey "$tmp/bad.lackey" -o "$tmp/kept.trace"
expect 2 "$tmp/bad.lackey:3: instruction size 16 (expected 1-15)" -- \
    trace import --lackey "$tmp/bad.lackey" -o "$tmp/new.trace"
if [ "$(cat "$tmp/kept.trace")" = "an older trace" ] && [ -z "$(ls "$tmp" | grep -e '^new\.trace' -e '^kept\.trace\.')" ]; then
    pass; else fail "a failed import left output behind: $(ls "$tmp")"; fi
printf '2 1000\n7 1000\n' >"$tmp/bad.din"
expect 2 "$tmp/bad.din:2: unknown label '7' (expected 0 read, 1 write, 2 instruction fetch, 3 escape or 4 flush)" -- \
    trace import --dinero "$tmp/bad.din" -o "$tmp/new.trace"
expect 1 "$tmp/none/x.trace: cannot create: No such file or directory" -- \
    trace import --lackey tests/traces/small.lackey -o "$tmp/none/x.trace"
# ... corrupt traces: one line naming the file and byte offset, status 2.
expect 2 "tests/traces/none.trace: cannot open: No such file or directory" -- trace info tests/traces/none.trace
expect 2 "tests/traces/small.lackey: byte offset 0: not a pmubench trace (expected the magic \"PMUTRACE\")" -- \
    trace info tests/traces/small.lackey
head -c 60 "$tmp/small.trace" >"$tmp/cut.trace"
expect 2 "$tmp/cut.trace: byte offset 60: truncated: expected a data address" -- \
    trace info --json "$tmp/cut.trace"
if [ ! -s "$tmp/cli.out" ]; then pass; else fail "trace info printed a summary of a corrupt trace"; fi
expect 2 "$tmp/cut.trace: byte offset 60: truncated: expected a data address" -- \
    trace dump "$tmp/cut.trace"
expect 2 "$tmp/cut.trace: byte offset 60: truncated: expected a data address" -- \
    trace convert "$tmp/cut.trace" "$tmp/uncut.trace"
if [ ! -e "$tmp/uncut.trace" ]; then pass; else fail "trace convert left a corrupt trace's copy"; fi

# pmubench record (docs/traces.md, "Recording"): a real run, its exit status
# passed through, a trace that reads back whole.
if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    expect 0 "" -- record -o "$tmp/true.trace" -- /bin/true
    pmubench trace info --json "$tmp/true.trace" >"$tmp/cli.out" 2>&1
    if grep -q '"program": "/bin/true", "args": "", "recorder": "pmubench record (valgrind pmutrace)", "isa": 64' "$tmp/cli.out" &&
        grep -q '"end": "exited", "code": 0' "$tmp/cli.out"; then pass; else fail "record /bin/true: $(cat "$tmp/cli.out")"; fi
    # The header names the program by its absolute path, whatever was typed
    # (docs/traces.md, the header's "program").
    cp /bin/true "$tmp/mytrue"
    abs_build=$(cd "$build" && pwd) abs_tmp=$(cd "$tmp" && pwd)
    (cd "$tmp" && $wrapper "$abs_build/pmubench" record -o rel.trace -- ./mytrue) >/dev/null 2>&1
    if pmubench trace info --json "$tmp/rel.trace" | grep -q "\"program\": \"$abs_tmp/mytrue\", \"args\": \"\","; then
        pass; else fail "record ./mytrue: the header's program is not $abs_tmp/mytrue"; fi
    pmubench record -o "$tmp/seven.trace" -- /bin/sh -c 'exit 7' >/dev/null 2>&1
    if [ $? -eq 7 ] && pmubench trace info --json "$tmp/seven.trace" | grep -q '"end": "exited", "code": 7'; then
        pass; else fail "record passes the exit status through"; fi
    expect 2 "pmubench record: cannot run '$tmp/no-such-program': No such file or directory" -- \
        record -o "$tmp/none.trace" -- "$tmp/no-such-program"
    if [ -e "$tmp/none.trace" ]; then fail "a failed record left a trace"; else pass; fi
    if pmubench record --env | grep -q '^GLIBC_TUNABLES=glibc.cpu.hwcaps='; then pass; else fail "record --env"; fi
    # The recorded program starts as a native one (docs/traces.md, "Where a
    # recorded run differs from a native one"): argv[0] as typed (a name
    # execvp finds in PATH), not valgrind's path; argv[0], envp[0] and the
    # program's path (AT_EXECFN) at a native run's page offsets; the path
    # followed by the 8 zero bytes at the top of the stack; the same
    # environment.  Both runs in one environment, record's --env included;
    # pmubench without the test wrapper (make memcheck's valgrind would put
    # its own variables in the environment the recorded program inherits).
    mkdir -p "$tmp/bin"
    cat >"$tmp/layout.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
extern char **environ;
int main(int argc, char **argv)
{
    const char *path = (const char *)getauxval(AT_EXECFN);
    printf("argc %d, argv[0] %s at +%#lx, envp[0] at +%#lx, AT_EXECFN %s at +%#lx, then", argc,
           argv[0], (unsigned long)argv[0] & 4095, (unsigned long)environ[0] & 4095, path,
           (unsigned long)path & 4095);
    for (const char *p = path + strlen(path) + 1; (unsigned long)p & 4095; p++)
        printf(" %02x", (unsigned char)*p);
    for (char **e = environ; *e; e++)
        printf("\n%.*s", (int)strcspn(*e, "="), *e);
    printf("\n");
    return 0;
}
EOF
    if cc -o "$tmp/bin/layout" "$tmp/layout.c" 2>/dev/null; then
        layout_env="PATH=$abs_tmp/bin:/usr/bin:/bin"
        env -i "$layout_env" HOME=/ LANG=C "$(pmubench record --env)" layout x >"$tmp/layout.native"
        env -i "$layout_env" HOME=/ LANG=C "$abs_build/pmubench" record \
            -o "$abs_tmp/layout.trace" -- layout x >"$tmp/layout.recorded" 2>/dev/null
        if cmp -s "$tmp/layout.native" "$tmp/layout.recorded" &&
            grep -q '^argc 2, argv\[0\] layout at .*, then 00 00 00 00 00 00 00 00$' "$tmp/layout.native"; then
            pass; else fail "record: the program's initial stack is not a native one: $(diff "$tmp/layout.native" "$tmp/layout.recorded" | head -3)"; fi
    fi
    # A 32-bit program gives a 32-bit trace.
    if [ -x "$build/recorder/pmutrace-x86-linux" ] && printf 'int main(void){return 3;}\n' |
        cc -m32 -x c - -o "$tmp/ret3" 2>/dev/null; then
        pmubench record -o "$tmp/ret3.trace" -- "$tmp/ret3" >/dev/null 2>&1
        if [ $? -eq 3 ] && pmubench trace info --json "$tmp/ret3.trace" | grep -q '"isa": 32'; then
            pass; else fail "record of a 32-bit program"; fi
        # VEX runs i386 PIC's "call +0; pop %reg" as one instruction; the
        # trace has both, with the push and the pop of the return address.
        printf 'int main(void){unsigned a; __asm__ volatile("call 1f\\n1: pop %%0" : "=r"(a)); return a == 0;}\n' |
            cc -m32 -O2 -x c - -o "$tmp/callpop" 2>/dev/null
        pmubench record -o "$tmp/callpop.trace" -- "$tmp/callpop" >/dev/null 2>&1
        callpop=$(pmubench trace dump "$tmp/callpop.trace" | grep -A1 'len 5 bytes e8 00 00 00 00 .*taken' |
            sed -n 's/^insn 0x[0-9a-f]* len \([0-9]\) bytes \(e8 00 00 00 00\|5[89a-f]\) thread 0 cpl 3\( taken 0x[0-9a-f]*\)\{0,1\} \(store\|load\) \(0x[0-9a-f]*\),4$/\1 \4 \5/p' |
            awk 'NR == 1 {a = $3} {printf "%s %s %s;", $1, $2, ($3 == a) ? "same" : "other"}')
        if [ "$callpop" = "5 store same;1 load same;" ]; then
            pass; else fail "record of call +0; pop: '$callpop'"; fi
    fi
fi

# Regions (docs/traces.md, "Regions"): tests/traces/regions.c marks region
# 1 around a 10-iteration loop, region 2 inside each iteration of another,
# region 7 with run_p5mon's p5mon_asm_begreg_7/endreg_7.  The recorder turns
# the calls into markers and leaves the calls and the functions' own
# instructions out of the trace.
if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    for bits in 64 32; do
        [ $bits = 64 ] || [ -x "$build/recorder/pmutrace-x86-linux" ] || continue
        if ! cc -m$bits -std=c11 -O2 -no-pie -I. tests/traces/regions.c -o "$tmp/regions$bits" 2>/dev/null; then
            [ $bits = 64 ] && fail "cannot compile tests/traces/regions.c"
            continue
        fi
        expect 0 "" -- record -o "$tmp/regions$bits.trace" -- "$tmp/regions$bits"
        if pmubench trace info --json "$tmp/regions$bits.trace" | grep -q "\"isa\": $bits, .*\"regions\": 12,"; then
            pass; else fail "regions ($bits-bit): trace info does not count 12 regions"; fi
        pmubench trace dump "$tmp/regions$bits.trace" >"$tmp/regions.dump"
        markers=$(grep '^region' "$tmp/regions.dump" | sort | uniq -c | awk '{printf "%s %s %s %s;", $1, $2, $3, $4}')
        if [ "$markers" = "1 region begin 1;10 region begin 2;1 region begin 7;1 region end 1;10 region end 2;1 region end 7;" ]; then
            pass; else fail "regions ($bits-bit): markers '$markers'"; fi
        # The loop's 10 stores to `sink` inside region 1, one in each region 2.
        sink=0x$(nm "$tmp/regions$bits" | awk '$3 == "sink" {print $1}' | sed 's/^0*//')
        counts=$(awk -v sink="$sink" '
            /^region begin/ { open[$3] = 1 } /^region end/ { open[$3] = 0 }
            /^insn/ && ($0 ~ ("(store|modify) " sink ",4")) { if (open[1]) n1++; if (open[2]) n2++; if (open[7]) n7++ }
            END { printf "%d %d %d", n1, n2, n7 }' "$tmp/regions.dump")
        if [ "$counts" = "10 10 1" ]; then pass; else fail "regions ($bits-bit): stores to sink per region 1, 2, 7: $counts"; fi
        # Neither the region functions' instructions nor the calls to them.
        objdump -d --no-show-raw-insn "$tmp/regions$bits" | awk '
            /^[0-9a-f]+ <(pmubench_region_(begin|end)|p5mon_asm_(beg|end)reg_7)>:/ { inside = 1; next }
            /^[0-9a-f]+ </ { inside = 0 }
            /^ *[0-9a-f]+:/ { a = $1; sub(":", "", a); if (inside || $0 ~ /call.*<(pmubench_region_|p5mon_asm_)/) print "0x" a }' >"$tmp/regions.left-out"
        if [ "$(wc -l <"$tmp/regions.left-out")" -ge 10 ] &&
            ! awk 'NR == FNR { out[$1] = 1; next } /^insn/ && ($2 in out) { found = 1 } END { exit !found }' \
                "$tmp/regions.left-out" "$tmp/regions.dump"; then
            pass; else fail "regions ($bits-bit): a region call or function instruction is in the trace"; fi
    done
fi

# Static programs, 64- and 32-bit, record as well as dynamic ones.
if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    for bits in 64 32; do
        [ $bits = 32 ] && [ ! -x "$build/recorder/pmutrace-x86-linux" ] && continue
        printf 'int main(void){return 5;}\n' | cc -m$bits -static -x c - -o "$tmp/ret5-$bits" 2>/dev/null || continue
        pmubench record -o "$tmp/ret5-$bits.trace" -- "$tmp/ret5-$bits" >/dev/null 2>&1
        status=$?
        if [ $status -eq 5 ] && pmubench trace info --json "$tmp/ret5-$bits.trace" |
            grep -q "\"isa\": $bits, .*\"end\": \"exited\", \"code\": 5"; then
            pass; else fail "record of a static $bits-bit program (status $status)"; fi
    done
fi

# An output that is a device is written, not replaced (atomic_file): after
# writing a trace and a waveform to /dev/null it is still a device.
pmubench trace import --lackey tests/traces/small.lackey -o /dev/null >/dev/null 2>&1
pmubench run tests/bench/demo.pmu --vcd /dev/null >/dev/null 2>&1
if [ -c /dev/null ]; then pass; else fail "an output path of /dev/null replaced the device"; fi

# Forks, execve, the plain exit system call and programs that cannot start
# (docs/traces.md, "Recording"): the child of a fork is not recorded (the
# parent's trace stays whole), an execve ends the trace with one warning,
# the last thread's exit is an exit, and a program valgrind cannot start is
# a one-line error.
if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    # fork without exec: the child runs a loop and exits 3, the parent 4.
    cat >"$tmp/fork.c" <<'CEOF'
#include <sys/wait.h>
#include <unistd.h>
int main(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        volatile int x = 0;
        for (int i = 0; i < 1000; i++)
            x += i;
        _exit(3);
    }
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 3 ? 4 : 1;
}
CEOF
    if cc -O2 "$tmp/fork.c" -o "$tmp/fork"; then
        expect 4 "" -- record -o "$tmp/fork.trace" -- "$tmp/fork"
        trace_shows "$tmp/fork.trace" '"end": "exited", "code": 4,' "record of a program that forks"
    else
        fail "cannot compile fork.c"
    fi

    # execve: the trace ends there (exited, code 0), the status is the new
    # program's, and one warning says so.
    expect 0 "pmubench record: sh called execve: the trace ends there (the new program is not recorded)" -- \
        record -o "$tmp/exec.trace" -- sh -c 'exec /bin/true'
    trace_shows "$tmp/exec.trace" '"program": "[^"]*/sh", "args": "-c exec /bin/true", .*"end": "exited", "code": 0,' "record of sh -c 'exec /bin/true'"
    cat >"$tmp/exec.c" <<'CEOF'
#include <unistd.h>
int main(void)
{
    char *args[] = {"sh", "-c", "exit 8", 0};
    execv("./no-such-program", args); /* fails: recording goes on */
    execv("/bin/sh", args);
    return 1;
}
CEOF
    cat >"$tmp/execfail.c" <<'CEOF'
#include <unistd.h>
int main(int argc, char **argv)
{
    execv(argv[1], argv + 1); /* an executable file valgrind cannot run: fails */
    return 5;
}
CEOF
    if cc -O2 "$tmp/exec.c" -o "$tmp/exec" && cc -O2 "$tmp/execfail.c" -o "$tmp/execfail"; then
        expect 8 "pmubench record: $tmp/exec called execve: the trace ends there (the new program is not recorded)" -- \
            record -o "$tmp/exec8.trace" -- "$tmp/exec"
        trace_shows "$tmp/exec8.trace" '"end": "exited", "code": 0,' "record of a program that execs"
        printf 'not a program\n' >"$tmp/garbage"
        chmod +x "$tmp/garbage"
        expect 5 "" -- record -o "$tmp/execfail.trace" -- "$tmp/execfail" "$tmp/garbage"
        trace_shows "$tmp/execfail.trace" '"end": "exited", "code": 5,' "record of a failed execve"
        if ls -a "$tmp" | grep -q '^execfail\.trace\.'; then fail "record left a temporary file behind"; else pass; fi
    else
        fail "cannot compile exec.c"
    fi

    # A signal that kills the program: status 128 + its number, and the trace
    # (the tool wrote killed, code 0) ends as killed by it, from waitpid.
    for sig in TERM:15 KILL:9; do
        expect $((128 + ${sig#*:})) "" -- record -o "$tmp/sig.trace" -- sh -c "kill -${sig%:*} \$\$"
        trace_shows "$tmp/sig.trace" "\"end\": \"killed\", \"code\": ${sig#*:}," "record of a program killed by SIG${sig%:*}"
    done

    # The plain exit system call of the only thread: exited, not killed.
    printf '#include <unistd.h>\nint main(void){ syscall(60, 9); return 1; }\n' >"$tmp/exit9.c"
    if cc -O2 "$tmp/exit9.c" -o "$tmp/exit9"; then
        expect 9 "" -- record -o "$tmp/exit9.trace" -- "$tmp/exit9"
        trace_shows "$tmp/exit9.trace" '"end": "exited", "code": 9,' "record of SYS_exit"
    else
        fail "cannot compile exit9.c"
    fi
    if [ -x "$build/recorder/pmutrace-x86-linux" ] &&
        printf 'int main(void){ __asm__ volatile("int $0x80" :: "a"(1), "b"(11)); return 1; }\n' |
        cc -m32 -x c - -o "$tmp/exit11-32" 2>/dev/null; then
        expect 11 "" -- record -o "$tmp/exit11.trace" -- "$tmp/exit11-32"
        trace_shows "$tmp/exit11.trace" '"isa": 32, .*"end": "exited", "code": 11,' "record of i386 exit"
    fi

    # A script whose interpreter does not exist: valgrind's line, then ours.
    printf '#!/no/such/interpreter\necho hello\n' >"$tmp/bad.sh"
    chmod +x "$tmp/bad.sh"
    pmubench record -o "$tmp/bad.trace" -- "$tmp/bad.sh" >"$tmp/cli.out" 2>"$tmp/cli.err"
    status=$?
    if [ $status -eq 2 ] && [ "$(tail -n 1 "$tmp/cli.err")" = "pmubench record: cannot start $tmp/bad.sh" ] &&
        ! grep -q 'recording failed' "$tmp/cli.err" && [ ! -e "$tmp/bad.trace" ]; then
        pass; else fail "record of a script with a bad interpreter: status $status, $(cat "$tmp/cli.err")"; fi

    # valgrind that cannot be started: a run-time failure (docs/exit-status.md),
    # one line, nothing written; the same when stat records the program.
    saved_wrapper=$wrapper
    wrapper="env PMUBENCH_VALGRIND=/nonexistent/valgrind $wrapper"
    expect_exact 1 "pmubench record: cannot start valgrind '/nonexistent/valgrind': No such file or directory" -- \
        record -o "$tmp/no-valgrind.trace" -- /bin/true
    if [ -e "$tmp/no-valgrind.trace" ]; then fail "record without valgrind left a trace"; else pass; fi
    expect_exact 1 "pmubench stat: cannot start valgrind '/nonexistent/valgrind': No such file or directory" -- \
        stat -e clocks -- /bin/true
    expect_exact 1 "pmubench p5mon: cannot start valgrind '/nonexistent/valgrind': No such file or directory" -- \
        p5mon -Fcommand=/bin/true -Fdata_read=yes
    # A valgrind that fails before it records anything: valgrind's failure
    # (status 1), not the program's (cannot start, status 2).
    wrapper="env PMUBENCH_VALGRIND=/bin/false $saved_wrapper"
    expect_exact 1 "pmubench record: recording failed: valgrind '/bin/false' exited with status 1 before recording anything" -- \
        record -o "$tmp/false-valgrind.trace" -- /bin/true
    if [ -e "$tmp/false-valgrind.trace" ]; then fail "record with a failing valgrind left a trace"; else pass; fi
    expect_exact 1 "pmubench stat: recording failed: valgrind '/bin/false' exited with status 1 before recording anything" -- \
        stat -e clocks -- /bin/true
    wrapper=$saved_wrapper

    # A 32-bit program (or a script run by one) without the 32-bit recorder.
    if printf 'int main(void){return 3;}\n' | cc -m32 -x c - -o "$tmp/ret3-32" 2>/dev/null; then
        mkdir -p "$tmp/rec64"
        ln -sf "$(cd "$build/recorder" && pwd)/pmutrace-amd64-linux" "$tmp/rec64/pmutrace-amd64-linux"
        printf '#!%s\n' "$tmp/ret3-32" >"$tmp/ret3.sh"
        chmod +x "$tmp/ret3.sh"
        saved_wrapper=$wrapper
        wrapper="env PMUBENCH_RECORDER_DIR=$tmp/rec64 $wrapper"
        for p in "$tmp/ret3-32" "$tmp/ret3.sh"; do
            expect 1 "pmubench record: $p is a 32-bit program and the 32-bit recorder is not built (install gcc-multilib and run make)" -- \
                record -o "$tmp/ret3.trace" -- "$p"
        done
        wrapper=$saved_wrapper
    fi
fi

# record renames its trace into place whole: a device as its output is
# refused.
if [ -x "$build/recorder/pmutrace-amd64-linux" ]; then
    expect 2 "pmubench record: /dev/null is not a regular file (expected a trace file name)" -- \
        record -o /dev/null -- /bin/true
fi
