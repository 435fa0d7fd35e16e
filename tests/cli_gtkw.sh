# The GTKWave save file of `run --vcd FILE` (pmu/waveform/gtkw.h; docs/semantics.md,
# "The waveform"), sourced by run_tests.sh after tests/cli_tests.sh: its
# name, the refusals (an input as the .gtkw: status 2, one line, nothing
# written), a failed write (status 1, neither file left), the dump named
# absolutely, and, where gtkwave and xvfb-run are installed, the layout
# GTKWave itself loads and the dump it finds from another folder.

g=$tmp/gtkw
mkdir -p "$g"

# FILE.vcd gives FILE.gtkw; a name without .vcd gets .gtkw appended.
expect 0 "" -- run tests/bench/demo.pmu --vcd "$g/demo.vcd"
if [ -f "$g/demo.gtkw" ]; then pass; else fail "run --vcd demo.vcd wrote no demo.gtkw"; fi
expect 0 "" -- run tests/bench/demo.pmu --vcd "$g/wave"
if [ -f "$g/wave.gtkw" ]; then pass; else fail "run --vcd wave wrote no wave.gtkw"; fi

# A relative --vcd: the save file names the VCD (and itself) absolutely,
# so that it opens from any folder (GTKWave opens a relative [dumpfile]
# from the folder it runs in).
mkdir -p "$g/rel"
(script=$(pwd)/tests/bench/demo.pmu build=$(cd "$build" && pwd) && cd "$g/rel" &&
    pmubench run "$script" --vcd w.vcd >/dev/null)
rel=$(cd "$g/rel" && pwd -P)
if grep -qx "\[dumpfile\] \"$rel/w.vcd\"" "$g/rel/w.gtkw" &&
    grep -qx "\[savefile\] \"$rel/w.gtkw\"" "$g/rel/w.gtkw" &&
    (cd / && test -f "$(sed -n 's/^\[dumpfile\] "\(.*\)"$/\1/p' "$g/rel/w.gtkw")"); then pass; else
    fail "run --vcd w.vcd: the .gtkw's dump from another folder: $(head -3 "$g/rel/w.gtkw")"; fi

# A name whose .gtkw would not fit is an argument error.
long=$(awk 'BEGIN { while (n++ < 4300) printf "a" }')
expect_usage "pmubench run: --vcd '$(printf %.100s "$long")...': name too long" -- \
    run tests/bench/demo.pmu --vcd "$long"

# A waveform to a device has no save file (it would name no dump).
pmubench run tests/bench/demo.pmu --vcd /dev/null >/dev/null 2>&1
if [ -e /dev/null.gtkw ]; then fail "run --vcd /dev/null wrote /dev/null.gtkw"; else pass; fi

# The .gtkw may not be the script or the --record log.
cp tests/bench/demo.pmu "$g/s.gtkw"
cp "$g/s.gtkw" "$g/s.keep"
expect 2 "pmubench run: the .gtkw of --vcd '$g/s.gtkw' and SCRIPT '$g/s.gtkw' are the same file" -- \
    run "$g/s.gtkw" --vcd "$g/s.vcd"
unchanged "$g/s.gtkw" "$g/s.keep" "run --vcd s.vcd with the script s.gtkw"
absent "$g/s.vcd" "run --vcd s.vcd with the script s.gtkw"
expect 2 "pmubench run: --record '$g/r.gtkw' and the .gtkw of --vcd '$g/r.gtkw' are the same file" -- \
    run tests/bench/demo.pmu --vcd "$g/r.vcd" --record "$g/r.gtkw"
absent "$g/r.vcd" "run --vcd r.vcd --record r.gtkw"
absent "$g/r.gtkw" "run --vcd r.vcd --record r.gtkw"

# A .gtkw that is a directory: bad input, status 2; one that cannot be
# created (a link into a directory that does not exist), or cannot be
# written whole: status 1; neither file is left.
mkdir "$g/d.gtkw"
expect 2 "pmubench run: $g/d.gtkw: is a directory" -- run tests/bench/demo.pmu --vcd "$g/d.vcd"
absent "$g/d.vcd" "run --vcd d.vcd with a directory d.gtkw"
ln -s "$g/no-such-dir/n.gtkw" "$g/n.gtkw"
expect 1 "$g/n.gtkw: cannot create: No such file or directory" -- \
    run tests/bench/demo.pmu --vcd "$g/n.vcd"
absent "$g/n.vcd" "run --vcd n.vcd with n.gtkw a link into no directory"
if [ -w /dev/full ]; then
    ln -s /dev/full "$g/full.gtkw"
    expect 1 "$g/full.gtkw: cannot write: No space left on device" -- \
        run tests/bench/demo.pmu --vcd "$g/full.vcd"
    absent "$g/full.vcd" "run --vcd full.vcd with full.gtkw on /dev/full"
fi

# GTKWave loads the layout (NetBurst: demo.pmu; P5: CTR0 and CTR1): the
# signals it displays are those of the VCD in its order, and each trace's
# flags are decimal (24) or a group's first or last line (800200, 1000200).
gtkwave_loads() {
    awk '$1 == "$scope" { scope = $3 }
         $1 == "$var" { print scope "." $5 ($6 == "$end" ? "" : $6) }
         $1 == "$enddefinitions" { exit }' "$1.vcd" >"$g/want"
    timeout 60 xvfb-run -a gtkwave -S "$g/check.tcl" "$1.vcd" "$1.gtkw" \
        >"$g/gtkwave.out" 2>"$g/gtkwave.err"
    sed -n 's/^displayed //p' "$g/gtkwave.out" | tr ' ' '\n' | sed '/^$/d' >"$g/got"
    if [ -s "$g/got" ] && diff -u "$g/want" "$g/got" >"$g/diff"; then pass; else
        fail "gtkwave shows other signals than $1.vcd declares: $(cat "$g/diff" "$g/gtkwave.err")"; fi
    flags=$(sed -n 's/^trace \([0-9a-f]*\) .*/\1/p' "$g/gtkwave.out" | sort -u | tr '\n' ' ')
    if [ "$flags" = "1000200 24 800200 " ]; then pass; else
        fail "gtkwave trace flags of $1.gtkw: '$flags'"; fi
}
if command -v gtkwave >/dev/null 2>&1 && command -v xvfb-run >/dev/null 2>&1; then
    cat >"$g/check.tcl" <<'TCL'
set n [gtkwave::getTotalNumTraces]
for {set i 0} {$i < $n} {incr i} {
    puts "trace [format %x [gtkwave::getTraceFlagsFromIndex $i]] [gtkwave::getTraceNameFromIndex $i]"
}
puts "displayed [gtkwave::getDisplayedSignals]"
flush stdout
exit 0
TCL
    gtkwave_loads "$g/demo"
    printf 'cpu p5\nwrmsr CESR 0x1c0\ntick 3\n' >"$g/p5.pmu"
    expect 0 "" -- run "$g/p5.pmu" --vcd "$g/p5.vcd"
    gtkwave_loads "$g/p5"
    # The save file alone, opened from another folder, loads its dump; and
    # so it does after both files moved to another folder together.
    gtkwave_dump() {
        (cd / && timeout 60 xvfb-run -a gtkwave -S "$g/dump.tcl" "$1" 2>"$g/gtkwave.err") |
            sed -n 's/^dump //p'
    }
    printf 'puts "dump [gtkwave::getDumpFileName]"\nflush stdout\nexit 0\n' >"$g/dump.tcl"
    if [ "$(gtkwave_dump "$g/rel/w.gtkw")" = "$rel/w.vcd" ]; then pass; else
        fail "gtkwave w.gtkw from /: $(cat "$g/gtkwave.err")"; fi
    mv "$g/rel" "$g/moved"
    if [ "$(gtkwave_dump "$g/moved/w.gtkw")" = "$(cd "$g/moved" && pwd -P)/w.vcd" ]; then pass; else
        fail "gtkwave w.gtkw moved with its VCD: $(cat "$g/gtkwave.err")"; fi
else
    echo "cli_gtkw.sh: GTKWave load test skipped: gtkwave or xvfb-run is not installed"
fi
