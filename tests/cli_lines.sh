# The text readers (util/line_stream.h: lackey and din imports, bench
# scripts, experiment files, PARMS files) read lines up to a cap, whatever
# the memory: a longer line is bad input on its line, a read that fails is
# a run-time failure, never the end of the input (docs/traces.md, "Text
# inputs").  Sourced by run_tests.sh after tests/cli_tests.sh (uses
# expect, pass, fail, pmubench, $tmp, $build).

# chars N C: N characters C, no line break.
chars() { head -c "$1" /dev/zero | tr '\0' "$2"; }
import_cap=8388608
text_cap=4095

# A line of the cap is read; one character more is refused on its line,
# and no output is left.
{ printf 'I  400000,3\n=='; chars $((import_cap - 2)) x; printf '\n'; } >"$tmp/cap.lk"
expect 0 "" -- trace import --lackey "$tmp/cap.lk" -o "$tmp/cap.trace"
{ printf 'I  400000,3\n=='; chars $((import_cap - 1)) x; printf '\n I 400000,1\n'; } >"$tmp/over.lk"
expect 2 "$tmp/over.lk:2: expected a line of at most $import_cap characters" -- \
    trace import --lackey "$tmp/over.lk" -o "$tmp/over.trace"
if [ ! -e "$tmp/over.trace" ]; then pass; else fail "lackey line over the cap: output left"; fi
{ printf '2 400000\n2 400003 3 '; chars $((import_cap - 11)) x; printf '\n'; } >"$tmp/cap.din"
expect 0 "" -- trace import --dinero "$tmp/cap.din" -o "$tmp/cap.trace"
{ printf '2 400000\n2 400003 3 '; chars $((import_cap - 10)) x; printf '\n'; } >"$tmp/over.din"
expect 2 "$tmp/over.din:2: expected a line of at most $import_cap characters" -- \
    trace import --dinero "$tmp/over.din" -o "$tmp/over.trace"
rm -f "$tmp/cap.lk" "$tmp/over.lk" "$tmp/cap.din" "$tmp/over.din"

{ printf 'cpu p5\n#'; chars $((text_cap - 1)) x; printf '\n'; } >"$tmp/cap.pmu"
expect 0 "" -- run "$tmp/cap.pmu"
{ printf 'cpu p5\n#'; chars "$text_cap" x; printf '\n'; } >"$tmp/over.pmu"
expect 2 "$tmp/over.pmu:2: expected a line of at most $text_cap characters" -- run "$tmp/over.pmu"

{ printf '#'; chars $((text_cap - 1)) x; printf '\nnetburst::uops_retired:NBOGUS\n'; } >"$tmp/cap.exp"
pmubench alloc --exp "$tmp/cap.exp" >"$tmp/cap.out" 2>&1
if [ $? -eq 0 ] && grep -q 'uops_retired' "$tmp/cap.out"; then
    pass; else fail "alloc --exp with a line of the cap: $(cat "$tmp/cap.out")"; fi
{ printf 'netburst::uops_retired:NBOGUS\n#'; chars "$text_cap" x; printf '\n'; } >"$tmp/over.exp"
expect 2 "$tmp/over.exp:2: expected a line of at most $text_cap characters" -- \
    alloc --exp "$tmp/over.exp"

{ printf '(p5mon\ntrace = x.trace;\n#'; chars "$text_cap" x; printf '\nend)\n'; } >"$tmp/over.parms"
expect 2 "$tmp/over.parms:3: expected a line of at most $text_cap characters" -- \
    p5mon "$tmp/over.parms"

# /dev/zero is one endless line: each reader stops at its cap within a
# 400 MB address space (ulimit -v, which valgrind and AddressSanitizer
# cannot run in: then the runs have no limit), in a minute at most.
if [ -z "$wrapper" ] && (ulimit -v 400000 && exec "$build/pmubench" --help) >/dev/null 2>&1; then
    pmubench() { (ulimit -v 400000 && exec timeout 60 "$build/pmubench" "$@"); }
else
    pmubench() { timeout 60 $wrapper "$build/pmubench" "$@"; }
fi
expect 2 "/dev/zero:1: expected a line of at most $import_cap characters" -- \
    trace import --lackey /dev/zero -o "$tmp/zero.trace"
expect 2 "/dev/zero:1: expected a line of at most $import_cap characters" -- \
    trace import --dinero /dev/zero -o "$tmp/zero.trace"
expect 2 "/dev/zero:1: expected a line of at most $text_cap characters" -- run /dev/zero
expect 2 "/dev/zero:1: expected a line of at most $text_cap characters" -- alloc --exp /dev/zero
expect 2 "/dev/zero:1: expected a line of at most $text_cap characters" -- p5mon /dev/zero
pmubench() { $wrapper "$build/pmubench" "$@"; }

# A read that fails: Linux's /proc/self/mem fails with EIO at offset 0,
# which no process maps (a trace's read failing after its header:
# tests/unit/test_trace_read_error.c).
if [ -r /proc/self/mem ]; then
    mem_error="/proc/self/mem: cannot read: Input/output error"
    expect 1 "$mem_error" -- trace import --lackey /proc/self/mem -o "$tmp/mem.trace"
    expect 1 "$mem_error" -- trace import --dinero /proc/self/mem -o "$tmp/mem.trace"
    expect 1 "$mem_error" -- run /proc/self/mem
    expect 1 "$mem_error" -- alloc --exp /proc/self/mem
    expect 1 "$mem_error" -- p5mon /proc/self/mem
    # A trace's reader too: the file's failure, not a truncated trace.
    expect 1 "$mem_error" -- trace info /proc/self/mem
    expect 1 "pmubench stat: $mem_error" -- stat -m p5 --trace /proc/self/mem
    expect 1 "pmubench stat: $mem_error" -- stat -m netburst --trace /proc/self/mem
fi
